"""What a call leaves for after its answer (engine.Game.settle): the undo copy (checkpoint) of the
state it ended at, when one is due, is taken by ``settle`` or, when nobody calls it, by the next call
before it changes anything; either way it is a copy of the state the call ended at."""

from engine import api, statecopy
from engine.views import state_fingerprint

from .helpers import act, default_move, fingerprint
from .test_track import cpr_first


def _newest_copy(game) -> tuple:
    """The entries the newest kept copy had applied, and its state's fingerprint and log."""
    applied, blob, slug, lines = game._checkpoints[-1]
    state = statecopy.loads(blob, slug)
    if lines is not None:
        state.log.extend(lines)
    return applied, state_fingerprint(state), list(state.log)


def test_a_copy_due_after_a_move_waits_for_settle(monkeypatch):
    monkeypatch.setattr(api, "CHECKPOINT_EVERY", 1)   # a copy due after every entry
    game = cpr_first()
    act(game, "CPR", "lay_tile", hex="M6", tile="58-0", rotation=1)
    assert all(applied != game._applied for applied, *_ in game._checkpoints)   # not before the answer
    game.settle()
    assert _newest_copy(game) == (game._applied, fingerprint(game), list(game.state.log))
    newest = game._checkpoints[-1]
    game.settle()
    assert game._checkpoints[-1] is newest             # (once)


def test_without_settle_the_next_call_takes_the_copy_before_it_changes_the_state(monkeypatch):
    monkeypatch.setattr(api, "CHECKPOINT_EVERY", 1)
    game = cpr_first()
    act(game, "CPR", "lay_tile", hex="M6", tile="58-0", rotation=1)
    ended_at = (list(game._applied), fingerprint(game), list(game.state.log))
    act(game, "CPR", "undo")
    assert _newest_copy(game) == ended_at              # taken before the undo changed anything
    act(game, "CPR", "redo")                           # back to it, from that copy
    assert (game._applied, fingerprint(game), list(game.state.log)) == ended_at


def test_a_long_rebuild_leaves_the_copy_of_its_end_for_settle(monkeypatch):
    monkeypatch.setattr(api, "CHECKPOINT_EVERY", 1000)
    monkeypatch.setattr(api, "CHECKPOINT_END", 1)      # a rebuild of one entry or more keeps its end
    monkeypatch.setattr(api, "JOURNAL_KEPT", 0)        # (an undo that rebuilds, as beyond a journal's reach)
    game = cpr_first()
    game._checkpoints.clear()                          # (the undo replays from the set-up)
    act(game, "CPR", "lay_tile", hex="M6", tile="58-0", rotation=1)
    act(game, "CPR", "undo")
    assert game._checkpoints == []
    game.settle()
    assert _newest_copy(game) == (game._applied, fingerprint(game), list(game.state.log))
    act(game, "CPR", "redo")
    assert game.state.board.hex_by_id("M6").tile.name == "58"


def test_a_refused_action_drops_the_due_copy_with_the_state(monkeypatch):
    monkeypatch.setattr(api, "CHECKPOINT_EVERY", 1)
    game = cpr_first()
    act(game, "CPR", "lay_tile", hex="M6", tile="58-0", rotation=1)
    ended_at = (list(game._applied), fingerprint(game), list(game.state.log))
    try:
        act(game, "CPR", "lay_tile", hex="M6", tile="57-0", rotation=1)   # a second yellow lay: refused
    except api.GameError:
        pass
    else:
        raise AssertionError("a second lay on the same hex was accepted")
    assert _newest_copy(game) == ended_at              # taken before the refused action changed anything
    assert (game._applied, fingerprint(game)) == ended_at[:2]
    game.settle()
    assert _newest_copy(game) == ended_at              # (nothing else was due)


def test_a_game_keeping_a_journal_copies_less_often(monkeypatch):
    monkeypatch.setattr(api, "CHECKPOINT_EVERY", 1)
    monkeypatch.setattr(api, "CHECKPOINT_EVERY_JOURNALED", 3)
    game = cpr_first()
    act(game, "CPR", "lay_tile", hex="M6", tile="58-0", rotation=1)
    act(game, "CPR", "undo")                           # (the first undo rebuilds: the game starts its journal)
    game.settle()
    due = []
    for _ in range(6):
        default_move(game)
        assert game._journal is not None
        due.append(game._copy_due is not None)
        game.settle()
    assert due == [False, False, True, False, False, True]   # every third entry, not every one
    assert _newest_copy(game) == (game._applied, fingerprint(game), list(game.state.log))


def test_the_journal_a_rebuild_asks_for_is_started_by_settle_not_by_the_next_move():
    # the first undo rebuilds the state; walking it for the journal (10-30 ms late in a game) is work
    # for after the answer, not for the next player's move
    game = cpr_first()
    act(game, "CPR", "lay_tile", hex="M6", tile="58-0", rotation=1)
    twin = cpr_first()
    act(twin, "CPR", "lay_tile", hex="M6", tile="58-0", rotation=1)
    for g in (game, twin):
        act(g, "CPR", "undo")
        assert g._journal is None and g._journal_wanted
    game.settle()
    journal = game._journal
    assert journal is not None and journal.usable
    act(game, "CPR", "redo")
    act(twin, "CPR", "redo")                           # (starts its journal itself, before the redo)
    assert game._journal is journal                    # the one settle started, not another
    assert (game._applied, fingerprint(game), list(game.state.log)) == (
        twin._applied, fingerprint(twin), list(twin.state.log))
    assert game.state.board.hex_by_id("M6").tile.name == "58"


def test_settle_in_steps_starts_the_same_journal_and_lets_go_of_the_same_objects():
    # an engine process settles in steps of a millisecond or two, answering other games' requests
    # between them: the walk of the state and its conversion are cut into parts
    game = cpr_first()
    twin = cpr_first()
    for g in (game, twin):
        act(g, "CPR", "lay_tile", hex="M6", tile="58-0", rotation=1)
        act(g, "CPR", "undo")
        assert g._journal is None and g._journal_wanted and g._dropped
    steps = list(game.settle_steps())
    assert len(steps) > 5                              # the walk, the conversion, the let-go in parts
    assert sum(steps) == twin.settle() > 500           # the state the undo replaced, emptied alike
    assert game._journal is not None and game._journal.usable and game._dropped == []
    for g in (game, twin):
        journal = g._journal
        act(g, "CPR", "redo")
        act(g, "CPR", "undo")
        assert g._journal is journal                   # gone back by the journal: no rebuild
    assert (game._applied, fingerprint(game), list(game.state.log)) == (
        twin._applied, fingerprint(twin), list(twin.state.log))
