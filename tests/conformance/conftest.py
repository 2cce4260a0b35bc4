"""Fixtures for conformance tests: the games recorded on 18xx.games in ../shared/fixtures and
../shared/fixtures-new (complete games played on the reference engine that joined the suite once
they replayed; the shared folder's README lists them)."""

from __future__ import annotations

import json

import pytest
from rh_support import shared_dir

import engine
from engine.actions import live_entries


FOLDERS = ("fixtures", "fixtures-new")


def fixture_files(slug: str) -> list:
    files = []
    for name in FOLDERS:
        folder = shared_dir() / name / slug
        if folder.is_dir():
            files.extend(sorted(folder.glob("*.json")))
    return files


def fixture_params(slug: str) -> list:
    files = fixture_files(slug)
    if not files:
        reason = f"no recorded {slug} games in {shared_dir()} ({' or '.join(FOLDERS)})"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason), id=f"{slug}-absent")]
    return [pytest.param(path, id=f"{slug}/{path.stem}") for path in files]


def replay_matches_recorded_result(path, known_mismatches=()):
    """The recorded game replays to exactly its recorded final scores and game-end reason, every
    recorded route computing its recorded revenue but for ``known_mismatches`` (routes today's rules
    reject, reported as the reference reports them). Returns the game."""
    export = json.loads(path.read_text())
    game = engine.import_game(export)
    assert game.finished
    assert game.game_end_reason == export["game_end_reason"]
    assert game.result == {str(k): v for k, v in export["result"].items()}
    assert game.revenue_mismatches == list(known_mismatches)
    return game


def check_recorded_routes(path, best=True, known_mismatches=()) -> int:
    """Before each run_routes, our computation of each recorded route equals its recorded revenue
    (routes of ``known_mismatches`` fail as they say), and (``best``) the best-route search finds at
    least the recorded total. Returns the number of run_routes checked."""
    export = json.loads(path.read_text())
    game = engine.import_game({**export, "actions": []})
    state = game.state
    state.loading = True
    known = {m["train"]: m["error"] for m in known_mismatches}
    checked = expected = 0
    for action, live in zip(export["actions"], live_entries(export["actions"])):
        if not live:
            continue
        if action["type"] == "run_routes":
            expected += 1
            corp = state.corporation_by_id(action["entity"])
            routes = state.board.build_routes(corp, action["routes"], state.phase, strict=False)
            for route, raw in zip(routes, action["routes"]):
                if route.error is not None and known.get(route.train.id) == route.error:
                    continue
                assert route.error is None and route.revenue == raw["revenue"], \
                    f"action {action['id']}: train {route.train.id} {route.error or route.revenue} != {raw['revenue']}"
            recorded = sum(r["revenue"] for r in action["routes"])
            if best and not any(r.error for r in routes):
                found = state.best_routes(corp)
                assert sum(r["revenue"] for r in found) >= recorded, f"action {action['id']}"
            checked += 1
        state.process(action, auto_actions=list(action.get("auto_actions") or ()))
    assert checked == expected
    return checked


def recorded_game_tests(slug: str, known_mismatches=None, slow_best_routes=False, refused=None) -> dict:
    """The conformance tests every title's recorded games must pass, by name (a title's test module
    adds them with ``globals().update(...)``): the exact result; every recorded route's revenue with
    the best-route search finding at least as much (a slow test of its own with
    ``slow_best_routes``); the exact result too when every move is submitted and validated as in
    live play (see ``check_played_move_by_move``). ``known_mismatches`` maps a fixture's name to its
    known route mismatches, ``refused`` to where today's rules stop it played move by move."""
    known = known_mismatches or {}
    refused = refused or {}

    @pytest.mark.parametrize("path", fixture_params(slug))
    def test_replay_matches_recorded_result(path):
        replay_matches_recorded_result(path, known.get(path.stem, ()))

    @pytest.mark.parametrize("path", fixture_params(slug))
    def test_recorded_routes_and_best_routes(path):
        """Before each run_routes, our computation of the recorded routes equals the recorded revenue
        (and, unless a slow test of its own does it, the best-route search finds at least as much)."""
        check_recorded_routes(path, best=not slow_best_routes, known_mismatches=known.get(path.stem, ()))

    tests = {"test_replay_matches_recorded_result": test_replay_matches_recorded_result,
             "test_recorded_routes_and_best_routes": test_recorded_routes_and_best_routes}
    if slow_best_routes:
        @pytest.mark.slow
        @pytest.mark.parametrize("path", fixture_params(slug))
        def test_best_routes_at_least_recorded(path):
            check_recorded_routes(path, known_mismatches=known.get(path.stem, ()))

        tests["test_best_routes_at_least_recorded"] = test_best_routes_at_least_recorded

    @pytest.mark.parametrize("path", fixture_params(slug))
    def test_recorded_game_played_move_by_move_as_the_platform_submits_it(path):
        check_played_move_by_move(path, refused.get(path.stem))

    tests["test_recorded_game_played_move_by_move_as_the_platform_submits_it"] = \
        test_recorded_game_played_move_by_move_as_the_platform_submits_it
    return tests


def check_played_move_by_move(path, refused=None):
    """Every entry submitted in order as `roundhouse client replay` does (tests/rh_support.py
    engine_prefix: the engine validates each move and makes the automatic ones itself, lined up with
    the record by runtime.client.ReplayAligner): the game reaches exactly its recorded result and
    game-end reason. ``refused`` = (action index, start of the reason) for a recorded game that
    today's rules stop there, which it must then do exactly. Returns the game."""
    from rh_support import engine_prefix

    export = json.loads(path.read_text())
    k, game, error = engine_prefix(export)
    if refused is not None:
        index, reason = refused
        assert k == index and error is not None and error.startswith(reason), \
            f"{path.stem}: stops at action index {k}: {error}"
        return game
    assert error is None, f"{path.stem}: action index {k} refused: {error}"
    assert game.finished and game.game_end_reason == export["game_end_reason"]
    assert game.result == {str(p): v for p, v in export["result"].items()}
    return game
