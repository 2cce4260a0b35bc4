"""The board remembers which supply tiles may replace a hex's tile and in which rotations they fit
(``Board.replacements``, ``Board._fitting``, shared by the games of a title: ``_LAYS_KNOWN``). A
wrong memory is a rules bug: over the positions of every recorded game, the legal actions, and the
tile lays of some hexes they offer, must be what the board says with a memory that starts empty
there."""

from __future__ import annotations

import pytest
from rh_support import all_fixture_files, engine_prefix

from engine import views
from engine.board import board as board_module
from tools import evidence

PATHS = all_fixture_files()
EVERY = 3           # the positions looked at: one in three
OTHER_EVERY = 5     # of those not offering a tile lay, one in five (a company's lay may be offered there)
LAYS_EVERY = 10     # of the compared lay positions, one in ten: the tile lays of some hexes offered
LAY_HEXES = 3       # (the first hexes offered)


def _answers(state, with_lays):
    legal = views.legal_actions(state)
    lays = {}
    if with_lays:
        for entry in legal:
            for hex_id in (entry.get("lay_hexes") or ())[:LAY_HEXES]:
                lays[(entry["entity"], hex_id)] = views.tile_lays(state, entry["entity_type"], entry["entity"],
                                                                  hex_id)
    return legal, lays


def _forgetting(state, with_lays):
    """``_answers`` from a memory that starts empty at this position."""
    board, shared = state.board, board_module._LAYS_KNOWN
    kept, known = dict(shared), board._lays_known
    shared.clear()
    board._lays_known = None
    try:
        return _answers(state, with_lays)
    finally:
        shared.clear()
        shared.update(kept)
        board._lays_known = known


@pytest.mark.parametrize("path", PATHS, ids=[f"{p.parent.name}/{p.name.split('.')[0]}" for p in PATHS])
def test_remembered_lays_answer_as_the_rules(path):
    export = evidence.read_json(path)
    seen = {"lay": 0, "compared": 0, "lays": 0}

    def before(game, move, index):
        state = game.state
        if index % EVERY or state.finished:
            return
        offers = any(entry.get("lay_hexes") for entry in views.legal_actions(state))
        if not offers and index % (EVERY * OTHER_EVERY):
            return
        seen["lay"] += offers
        with_lays = offers and seen["lay"] % LAYS_EVERY == 0
        remembered = _answers(state, with_lays)
        assert remembered == _forgetting(state, with_lays), (path.name, index)
        seen["compared"] += 1
        seen["lays"] += len(remembered[1])

    engine_prefix(export, before=before)
    assert seen["compared"] > 0
    assert seen["lays"] > 0 or seen["lay"] < LAYS_EVERY
