"""Letting go of a rules state (engine.Game.let_go / close, engine.statecopy.let_go): its reference
cycles cut, so that it is freed by reference counts, with nothing left for the cyclic collector, and
nothing the title's other games share touched."""

import gc
import json
import weakref

import pytest

from engine import titles

from .helpers import act, fingerprint
from .test_track import cpr_first


@pytest.fixture(autouse=True)
def rebuilding_undos(monkeypatch):
    """The states an undo drops: undos that rebuild (no journal, as beyond a journal's reach)."""
    from engine import api
    monkeypatch.setattr(api, "JOURNAL_KEPT", 0)


def _title_data(slug: str) -> str:
    return json.dumps(titles.load_data(slug), sort_keys=True, default=repr)


def _collected_after(let_go) -> tuple[int, int]:
    """(what ``let_go`` returned, the objects a collection then finds unreachable), nothing else
    made in between (the collector waits)."""
    gc.collect()
    gc.disable()
    try:
        emptied = let_go()
        return emptied, gc.collect()
    finally:
        gc.enable()


def test_the_state_an_undo_replaced_is_freed_without_the_collector():
    game = cpr_first()
    act(game, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=1)
    replaced = weakref.ref(game.state.board.hex_by_id("N3").tile)
    gc.collect()                         # the state lived through a full collection (frozen in an
    act(game, "CPR", "undo")             # engine process): kept aside ...
    assert replaced() is not None        # ... until the game lets it go
    emptied, garbage = _collected_after(game.let_go)
    assert emptied > 500 and garbage == 0 and replaced() is None
    assert game.let_go() == 0            # (once)
    act(game, "CPR", "redo")
    assert game.state.board.hex_by_id("N3").tile.name == "57"


def test_letting_go_touches_nothing_another_game_of_the_title_holds():
    data = _title_data("1856")
    other = cpr_first()
    before = (fingerprint(other), other.digest(), other.legal_actions())
    game = cpr_first()
    act(game, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=1)
    gc.collect()
    act(game, "CPR", "undo")
    gc.collect()
    board = game.state.board
    emptied, garbage = _collected_after(game.close)
    assert emptied > 500 and garbage == 0
    assert vars(board) == {}             # the game's own objects are emptied ...
    assert _title_data("1856") == data   # ... never the title's data
    assert (fingerprint(other), other.digest(), other.legal_actions()) == before
    act(other, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=1)
    act(other, "CPR", "undo")
    act(other, "CPR", "redo")
    assert other.state.board.hex_by_id("N3").tile.name == "57"
    again = cpr_first()
    assert (fingerprint(again), again.digest()) == before[:2]


def test_a_state_made_since_the_last_full_collection_is_left_to_the_young_collection():
    game = cpr_first()
    act(game, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=1)
    gc.collect()
    gc.disable()   # (no full collection from here)
    try:
        act(game, "CPR", "undo")
        assert len(game._dropped) == 1 and game.let_go() > 500
        held = game.state.board.hex_by_id("N3")   # the state made by the undo ...
        act(game, "CPR", "redo")                  # ... replaced young: not kept, not emptied
        assert game._dropped == [] and game.let_go() == 0 and held.tile.preprinted
    finally:
        gc.enable()


def test_a_young_state_the_young_collection_leaves_alive_is_kept_for_let_go():
    """A state dropped young that the young collection does not free (it had outlived the young
    generations already, or an engine process froze it with them: runtime.collector's young mode)
    is kept aside and let go like an older one, rather than left for a compaction."""
    game = cpr_first()
    act(game, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=1)
    gc.collect()
    act(game, "CPR", "undo")
    game.let_go()
    try:
        gc.collect(1)
        gc.freeze()                               # as an engine process does after a young collection
        made = weakref.ref(game.state.board)
        act(game, "CPR", "redo")
        assert made() is not None and len(game._dropped) == 1   # frozen: the young collection left it
        assert game.let_go() > 500 and made() is None           # its cycles cut, freed by reference counts
        assert game.state.board.hex_by_id("N3").tile.name == "57"
    finally:
        gc.unfreeze()


def test_states_nobody_lets_go_are_left_untouched():
    """A caller that never lets go (a script, a test reading a dropped state's objects) finds them as
    they were: only the newest few dropped states are kept for let_go, the rest left to the collector."""
    from engine.api import DROPPED_KEPT

    game = cpr_first()
    held = game.state.board.hex_by_id("N3")
    for _ in range(DROPPED_KEPT + 2):
        act(game, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=1)
        gc.collect()
        act(game, "CPR", "undo")
    assert held.tile.name == "57" and len(game._dropped) == DROPPED_KEPT   # (the first lay's state)
    assert game.let_go() > 0 and held.tile.name == "57"   # the oldest state was no longer kept


def test_a_copy_of_a_game_holds_no_dropped_state():
    import copy

    game = cpr_first()
    act(game, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=1)
    gc.collect()
    act(game, "CPR", "undo")
    assert len(game._dropped) == 1 and copy.deepcopy(game)._dropped == []


@pytest.mark.parametrize("title, name", [("1822", "33845"), ("1847_ae", "1847AE_game_end_bank"),
                                         ("1856", "hotseat004"), ("1858", "1858-quick-start-a"),
                                         ("1858_india", "hotseat_qs_b")])
def test_a_late_state_is_let_go_of_by_its_parts_with_nothing_left_for_the_collector(title, name):
    """``statecopy.let_go`` empties the state's parts (``Game.parts``) without walking what they hold.
    On a late state of a recorded game of each title (its networks made): the parts are the state's
    own (each reached from it, so never the title's data nor another game's), every hex, tile, node,
    path, junction and network the state reaches is one, and a copy of the state let go of leaves
    nothing for the cyclic collector."""
    import engine
    from engine import statecopy
    from engine.board.graph import Graph
    from engine.board.parts import Hex, Junction, Node, Path, Tile
    from tools import evidence

    game = engine.import_game(evidence.load_game(title, name))
    state = game.state
    floated = [c for c in [*state.corporations, *getattr(state, "minors", ())]
               if any(t.city is not None for t in c.tokens)]
    state.board.graph(floated[0]).connected_hexes   # (a network made and walked)
    parts = state.parts()
    assert len(parts) == len({id(p) for p in parts}) and any(type(p) is Graph for p in parts)
    statecopy._refresh()
    walked = statecopy._THROUGH | statecopy._engine_kinds
    reached = {id(o): o for o in statecopy._reachable([state], walked, set(), statecopy._seed_ids(game.slug),
                                                      statecopy._shared_ids)}
    assert {id(p) for p in parts} <= set(reached)
    map_kinds = (Hex, Tile, Node, Path, Junction, Graph)
    assert {i for i, o in reached.items() if isinstance(o, map_kinds)} == {id(p) for p in parts if isinstance(p, map_kinds)}

    copy = statecopy.loads(statecopy.dumps(state, game.slug), game.slug)
    held = weakref.ref(copy.board)
    gc.collect()
    gc.disable()
    try:
        assert statecopy.let_go(copy, game.slug) > len(parts) // 2
        del copy
        assert gc.collect() == 0 and held() is None
    finally:
        gc.enable()
