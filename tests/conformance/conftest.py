"""Fixtures for conformance tests: the real games recorded on 18xx.games in ../shared/fixtures."""

from __future__ import annotations

import json

import pytest
from rh_support import shared_dir

import engine
from engine.actions import live_entries


def fixture_files(slug: str) -> list:
    folder = shared_dir() / "fixtures" / slug
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def fixture_params(slug: str) -> list:
    files = fixture_files(slug)
    if not files:
        reason = f"no recorded {slug} games: {shared_dir() / 'fixtures' / slug} is absent"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason), id=f"{slug}-absent")]
    return [pytest.param(path, id=f"{slug}/{path.stem}") for path in files]


def check_recorded_result(path) -> None:
    """The recorded game replays to exactly its recorded final scores and game-end reason, and every
    recorded route is worth what we compute for it."""
    export = json.loads(path.read_text())
    game = engine.import_game(export)
    assert game.finished
    assert game.game_end_reason == export["game_end_reason"]
    assert game.result == {str(k): v for k, v in export["result"].items()}
    assert game.state.revenue_mismatches == []


def check_recorded_routes(path) -> None:
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


def recorded_game_tests(slug: str):
    """The two conformance tests every title's recorded games must pass (for a title's test module)."""

    @pytest.mark.parametrize("path", fixture_params(slug))
    def test_replay_matches_recorded_result(path):
        check_recorded_result(path)

    @pytest.mark.parametrize("path", fixture_params(slug))
    def test_recorded_routes_and_best_routes(path):
        """Before each run_routes, our computation of the recorded routes equals the recorded revenue,
        and the best-route search finds at least as much."""
        check_recorded_routes(path)

    return test_replay_matches_recorded_result, test_recorded_routes_and_best_routes
