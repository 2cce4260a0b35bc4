"""Every recorded 1856 game replays to exactly its recorded final scores and game-end reason, and
every recorded route is worth exactly its recorded revenue by our own computation."""

from __future__ import annotations

import json

import pytest

import engine
from engine.actions import live_entries

from .conftest import fixture_params, replay_recorded_game


@pytest.mark.parametrize("path", fixture_params("1856"))
def test_replay_matches_recorded_result(path):
    assert replay_recorded_game(path).state.revenue_mismatches == []


@pytest.mark.parametrize("path", fixture_params("1856"))
def test_recorded_routes_and_best_routes(path):
    """Before each run_routes, our computation of the recorded routes equals the recorded revenue,
    and the best-route search finds at least as much."""
    export = json.loads(path.read_text())
    game = engine.import_game({**export, "actions": []})
    state = game.state
    state.loading = True
    checked = 0
    for action, live in zip(export["actions"], live_entries(export["actions"])):
        if not live:
            continue
        if action["type"] == "run_routes":
            corp = state.corporation_by_id(action["entity"])
            routes = state.board.build_routes(corp, action["routes"], state.phase, strict=True)
            recorded = sum(r["revenue"] for r in action["routes"])
            assert sum(r.revenue for r in routes) == recorded, f"action {action['id']}"
            best = state.board.best_routes(corp, state.route_trains(corp), state.phase)
            assert sum(r.revenue for r in best) >= recorded, f"action {action['id']}"
            checked += 1
        state.process(action, auto_actions=list(action.get("auto_actions") or ()))
    assert checked > 0 or not any(a["type"] == "run_routes" for a in export["actions"])
