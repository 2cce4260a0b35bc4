"""Fixtures for conformance tests: the real games recorded on 18xx.games, from the repository's
evidence (evidence/fixtures, and evidence/fixtures-new as listed in new_games.py)."""

from __future__ import annotations

import pytest

import engine
from engine.actions import live_entries
from tools import evidence

from .new_games import NOT_YET


class RecordedGame:
    """One recorded game of the evidence: ``slug/name``; ``export()`` reads it afresh."""

    def __init__(self, slug: str, name: str):
        self.slug, self.name = slug, name

    def export(self) -> dict:
        if self.name is None:       # the title has no recorded game at all
            raise evidence.EvidenceMissing(evidence.EVIDENCE / "fixtures" / self.slug)
        return evidence.load_game(self.slug, self.name)

    def __repr__(self):
        return f"{self.slug}/{self.name}"


def fixture_params(slug: str, part: str) -> list:
    """The recorded games of a title (evidence/fixtures, then evidence/fixtures-new) for one part of
    the checks: "import" (the exact result and every recorded route) or "move_by_move". A part that
    new_games.NOT_YET says does not pass yet runs as a strict expected failure. No games at all is a
    failure of its own, never a skip."""
    params = []
    for folder in evidence.GAME_FOLDERS:
        for name in evidence.game_names(slug, folder):
            why = NOT_YET.get(f"{slug}/{name}", {}).get(part)
            marks = [pytest.mark.xfail(strict=True, raises=(AssertionError, engine.GameError),
                                       reason=f"not yet: {why} (tests/conformance/new_games.py)")] if why else []
            params.append(pytest.param(RecordedGame(slug, name), marks=marks, id=f"{slug}/{name}"))
    if not params:
        params.append(pytest.param(RecordedGame(slug, None), id=f"{slug}-absent"))
    return params


def replay_matches_recorded_result(recorded, known_mismatches=()):
    """The recorded game replays to exactly its recorded final scores and game-end reason, every
    recorded route computing its recorded revenue but for ``known_mismatches`` (routes today's rules
    reject, reported as the reference reports them). Returns the game."""
    export = recorded.export()
    game = engine.import_game(export)
    assert game.finished
    assert game.game_end_reason == export["game_end_reason"]
    assert game.result == {str(k): v for k, v in export["result"].items()}
    assert game.revenue_mismatches == list(known_mismatches)
    return game


def check_recorded_routes(recorded, best=True, known_mismatches=()) -> int:
    """Before each run_routes, our computation of each recorded route equals its recorded revenue
    (routes of ``known_mismatches`` fail as they say), and (``best``) the best-route search finds at
    least the recorded total. Returns the number of run_routes checked."""
    export = recorded.export()
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
            total = sum(r["revenue"] for r in action["routes"])
            if best and not any(r.error for r in routes):
                found = state.best_routes(corp)
                assert sum(r["revenue"] for r in found) >= total, f"action {action['id']}"
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
    known route mismatches, ``refused`` to where today's rules stop it played move by move; the
    parts of fixtures-new games that do not pass yet are listed in new_games.py."""
    known = known_mismatches or {}
    refused = refused or {}

    @pytest.mark.parametrize("recorded", fixture_params(slug, "import"))
    def test_replay_matches_recorded_result(recorded):
        replay_matches_recorded_result(recorded, known.get(recorded.name, ()))

    @pytest.mark.parametrize("recorded", fixture_params(slug, "import"))
    def test_recorded_routes_and_best_routes(recorded):
        """Before each run_routes, our computation of the recorded routes equals the recorded revenue
        (and, unless a slow test of its own does it, the best-route search finds at least as much)."""
        check_recorded_routes(recorded, best=not slow_best_routes, known_mismatches=known.get(recorded.name, ()))

    tests = {"test_replay_matches_recorded_result": test_replay_matches_recorded_result,
             "test_recorded_routes_and_best_routes": test_recorded_routes_and_best_routes}
    if slow_best_routes:
        @pytest.mark.slow
        @pytest.mark.parametrize("recorded", fixture_params(slug, "import"))
        def test_best_routes_at_least_recorded(recorded):
            check_recorded_routes(recorded, known_mismatches=known.get(recorded.name, ()))

        tests["test_best_routes_at_least_recorded"] = test_best_routes_at_least_recorded

    @pytest.mark.parametrize("recorded", fixture_params(slug, "move_by_move"))
    def test_recorded_game_played_move_by_move_as_the_platform_submits_it(recorded):
        check_played_move_by_move(recorded, refused.get(recorded.name))

    tests["test_recorded_game_played_move_by_move_as_the_platform_submits_it"] = \
        test_recorded_game_played_move_by_move_as_the_platform_submits_it

    @pytest.mark.slow
    @pytest.mark.parametrize("recorded", fixture_params(slug, "move_by_move"))
    def test_every_recorded_move_is_among_the_legal_actions_offered(recorded):
        check_every_move_offered(recorded, refused.get(recorded.name))

    tests["test_every_recorded_move_is_among_the_legal_actions_offered"] = \
        test_every_recorded_move_is_among_the_legal_actions_offered
    return tests


def check_played_move_by_move(recorded, refused=None):
    """Every entry submitted in order as `roundhouse client replay` does (tests/rh_support.py
    engine_prefix: the engine validates each move and makes the automatic ones itself, lined up with
    the record by runtime.aligner.ReplayAligner): the game reaches exactly its recorded result and
    game-end reason. ``refused`` = (action index, start of the reason) for a recorded game that
    today's rules stop there, which it must then do exactly. Returns the game."""
    from rh_support import engine_prefix

    export = recorded.export()
    k, game, error = engine_prefix(export)
    if refused is not None:
        index, reason = refused
        assert k == index and error is not None and error.startswith(reason), \
            f"{recorded.name}: stops at action index {k}: {error}"
        return game
    assert error is None, f"{recorded.name}: action index {k} refused: {error}"
    assert game.finished and game.game_end_reason == export["game_end_reason"]
    assert game.result == {str(p): v for p, v in export["result"].items()}
    return game


def check_every_move_offered(recorded, refused=None):
    """Played move by move as in ``check_played_move_by_move``: before every move is submitted (the
    entries the record undoes later too), the move is among the legal actions the engine offers at
    that position, found as a client finds it (``game.legal_actions()``, then for a tile lay the
    offered hex's ``game.tile_lays``; see tools/offers.py): a client that only offers legal
    actions can always make the move the players made. Fails naming every position where it is
    not, and why. The game is played to its end, or to where today's rules stop it (``refused``)."""
    from rh_support import engine_prefix
    from tools.offers import not_offered

    export = recorded.export()
    missing, checked = [], []

    def before(game, move, index):
        checked.append(index)
        reason = not_offered(game, move)
        if reason is not None:
            missing.append(f"action index {index} ({move.get('type')} by {move.get('entity_type')} "
                           f"{move.get('entity')}, {game.round_label}): {reason}")

    k, game, error = engine_prefix(export, before=before)
    assert not missing, f"{recorded.name}: {len(missing)} of {len(checked)} moves not offered:\n" + "\n".join(missing)
    if refused is not None:
        assert k == refused[0] and error is not None and error.startswith(refused[1]), \
            f"{recorded.name}: stops at action index {k}: {error}"
    else:
        assert error is None and game.finished, f"{recorded.name}: action index {k} refused: {error}"
    assert checked, "no move was looked at"
