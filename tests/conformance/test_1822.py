"""Every recorded 1822 game replays to exactly its recorded final scores and game-end reason; every
recorded route is worth its recorded revenue by our own computation (except the one the reference
itself no longer accepts, see below), and the best-route search finds at least as much."""

from __future__ import annotations

import json

import pytest

import engine
from engine.actions import live_entries

from .conftest import fixture_params, replay_recorded_game

# discard_trains_after_sr_export, action id 823: CR's E train runs beyond its token cities. Today's
# rules reject that route (the reference's trace says so too); the recorded revenue (500) is kept and
# the difference reported, as when the reference loads the game.
KNOWN_MISMATCHES = {"discard_trains_after_sr_export": [
    {"train": "7-0", "recorded": 500, "computed": None,
     "error": "E-train route cannot extend beyond tokened cities"}]}


@pytest.mark.parametrize("path", fixture_params("1822"))
def test_replay_matches_recorded_result(path):
    assert replay_recorded_game(path).revenue_mismatches == KNOWN_MISMATCHES.get(path.stem, [])


@pytest.mark.parametrize("path", fixture_params("1822"))
def test_recorded_routes_and_best_routes(path):
    """Before each run_routes, our computation of the recorded routes equals the recorded revenue
    (but for the known case), and the best-route search finds at least as much."""
    export = json.loads(path.read_text())
    game = engine.import_game({**export, "actions": []})
    state = game.state
    state.loading = True
    known = {m["train"]: m for m in KNOWN_MISMATCHES.get(path.stem, [])}
    checked = 0
    for action, live in zip(export["actions"], live_entries(export["actions"])):
        if not live:
            continue
        if action["type"] == "run_routes":
            corp = state.corporation_by_id(action["entity"])
            routes = state.board.build_routes(corp, action["routes"], state.phase, strict=False)
            for route, raw in zip(routes, action["routes"]):
                if route.train.id in known and route.error == known[route.train.id]["error"]:
                    continue
                assert route.error is None and route.revenue == raw["revenue"], f"action {action['id']}"
            recorded = sum(r["revenue"] for r in action["routes"])
            if not any(r.error for r in routes):
                best = state.best_routes(corp)
                assert sum(r["revenue"] for r in best) >= recorded, f"action {action['id']}"
            checked += 1
        state.process(action, auto_actions=list(action.get("auto_actions") or ()))
    assert checked == sum(1 for a, live in zip(export["actions"], live_entries(export["actions"]))
                          if live and a["type"] == "run_routes")
