"""An undo (or redo) puts the state back by its journal (engine.journal), or beyond the journal's
reach rebuilds it from a kept copy of an earlier state on the same line of play (engine.api), and
reaches exactly the state a replay of the log without the undone actions reaches: at every undo and
redo of every recorded game of every title, played as the client replay plays them, a view with its
legal actions read before each move (the caches a read fills are journaled too)."""

from __future__ import annotations

import pytest
from rh_support import engine_prefix

import engine
from engine import api
from engine.views import state_fingerprint
from tools import evidence

GAMES = [pytest.param(slug, name, id=f"{slug}/{name}")
         for slug in evidence.titles() for folder in evidence.GAME_FOLDERS for name in evidence.game_names(slug, folder)]
DEEP = 20     # entries taken out of play (or brought back) at once


def replayed(export: dict, game) -> tuple:
    """The fingerprint and the game log's lines of the game's action log replayed from the set-up in
    a new engine (no kept states: the entries an undo took out of play are skipped, the others
    applied in order)."""
    state = engine.import_game({**export, "actions": game.actions}).state
    return state_fingerprint(state), state.log


def reached(game) -> tuple:
    """What ``replayed`` gives, of the game as it stands (the kept copies leave the log's lines
    beside them: they must come back in full)."""
    return state_fingerprint(game.state), game.state.log


@pytest.mark.slow
@pytest.mark.parametrize(("slug", "name"), GAMES)
def test_undo_reaches_the_replay_without_the_undone_actions(slug, name):
    export = evidence.load_game(slug, name)
    seen = {"undos": 0, "checked": 0, "deep": 0, "by_journal": 0}
    went_back = api.Game._go_back

    def counted(game, *args):
        seen["by_journal"] += 1
        return went_back(game, *args)
    due = {"check": False}

    def check(game, move, index):
        if due["check"]:
            assert reached(game) == replayed(export, game), (slug, name, index)
            assert len(game._checkpoints) <= api.CHECKPOINTS_KEPT
            seen["checked"] += 1
            due["check"] = False
        game.view(legal_actions=True)
        if move.get("type") in ("undo", "redo"):
            try:
                changed = len(game.entries_changed_by(move))
            except engine.GameError:
                return
            seen["undos"] += 1
            seen["deep"] += changed >= DEEP
            due["check"] = True

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(api.Game, "_go_back", counted)
        k, game, _error = engine_prefix(export, before=check)
    if due["check"]:
        assert reached(game) == replayed(export, game)
        seen["checked"] += 1
    assert seen["checked"] == seen["undos"]
    # the journal went back for nearly every one (the first undo starts it; a few lay beyond its reach)
    assert seen["by_journal"] >= seen["undos"] - seen["deep"] - 3, seen

