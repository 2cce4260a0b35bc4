"""Undo and redo in the operating round, and legal_actions() offering exactly what the steps accept."""

import pytest

from .helpers import act, corp, fingerprint, lays, legal, play_recorded, position, rejected
from .test_track import cpr_first


def test_undo_and_redo_a_tile_lay():
    game = cpr_first()
    before, seq = fingerprint(game), game.seq
    act(game, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=1)
    after = fingerprint(game)
    act(game, "CPR", "undo")
    assert fingerprint(game) == before and corp(game, "CPR").cash == 200
    assert game.seq == seq + 2                     # the log keeps both entries
    act(game, "CPR", "redo")
    assert fingerprint(game) == after and corp(game, "CPR").cash == 160
    assert "Nothing to redo" in rejected(game, "CPR", "redo")


def test_a_new_action_after_undo_drops_the_redo():
    game = cpr_first()
    act(game, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=1)
    act(game, "CPR", "undo")
    act(game, "CPR", "lay_tile", hex="M6", tile="58-0", rotation=1)
    assert "Nothing to redo" in rejected(game, "CPR", "redo")
    assert game.state.board.hex_by_id("N3").tile.preprinted


def test_undo_takes_back_an_automatic_consequence_too():
    game = position("51745", 285)
    play_recorded(game, "51745", 285, 286)        # the second entry releases CV's escrow automatically
    assert corp(game, "CV").escrow is None
    act(game, "CV", "undo")
    assert corp(game, "CV").escrow == 180 and corp(game, "CV").cash == 125
    act(game, "CV", "redo")
    assert corp(game, "CV").escrow is None and corp(game, "CV").cash == 305


def test_undo_back_to_an_earlier_action_id():
    game = cpr_first()
    seq = game.seq
    before = fingerprint(game)
    act(game, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=1)
    act(game, "CPR", "place_token", city="57-0-0")
    act(game, "CPR", "undo", action_id=seq)       # everything after entry ``seq``
    assert fingerprint(game) == before


def test_undo_of_live_run_keeps_the_engines_revenue_on_redo():
    game = position("51745", 51)
    act(game, "WR", "run_routes", routes=[{"train": "2-0", "connections": [["O16", "O18"]], "revenue": 500}])
    act(game, "WR", "undo")
    act(game, "WR", "redo")
    assert legal(game)["revenue"] == 40


def test_nothing_to_undo_at_the_start():
    assert "Nothing to undo" in rejected(position("51745", 0), 7202, "undo")


# ------------------------------------------------------------------ legal_actions()

def test_the_operating_corporation_is_offered_its_current_step():
    entry = legal(cpr_first())
    assert entry["entity"] == "CPR" and entry["entity_type"] == "corporation" and entry["player"] == 3
    assert {"lay_tile", "pass", "take_loan"} <= set(entry["types"])
    assert entry["lay_hexes"] and all(isinstance(h, str) for h in entry["lay_hexes"])
    offered = lays(cpr_first())
    assert offered and all({"hex", "tile", "rotations", "cost"} <= set(t) for t in offered)


@pytest.mark.parametrize("price", ["min_price", "max_price"])
def test_offered_train_prices_are_accepted(price):
    game = position("51745", 330)
    offers = [t for t in legal(game)["trains"] if t["owner"] != "depot"]
    assert offers
    offer = offers[0]
    act(game, "TGB", "buy_train", train=offer["train"], price=offer[price])
    assert offer["train"] in [t.id for t in corp(game, "TGB").trains]


def test_offered_depot_train_is_accepted_at_its_price():
    game = position("51745", 60)
    offer = next(t for t in legal(game)["trains"] if t["owner"] == "depot")
    act(game, "CV", "buy_train", train=offer["train"], price=offer["price"], variant=offer["variant"])
    assert offer["train"] in [t.id for t in corp(game, "CV").trains]


@pytest.mark.parametrize("kind", ["payout", "withhold"])
def test_offered_dividend_options_are_what_happens(kind):
    game = position("51745", 306)
    option = legal(game)["dividend_options"][kind]
    cash = corp(game, "LPS").cash
    act(game, "LPS", "dividend", kind=kind)
    # the market share's dividend also reaches the treasury on a payout
    pool = corp(game, "LPS").num_market_shares() * option["per_share"]
    assert corp(game, "LPS").cash == cash + option["to_corporation"] + pool


def test_nobody_is_offered_anything_once_the_game_is_over():
    game = position("hotseat005", 212, start=210)
    assert game.finished and game.legal_actions() == [] and game.acting_players() == []


def test_undos_start_from_kept_states_and_reach_the_same_state(monkeypatch):
    """An undo rebuilds the state from a kept copy of an earlier state on the same line of play
    (not from the set-up), and reaches exactly the state a fresh import of the same log reaches."""
    import engine
    from engine import api
    from engine.views import state_fingerprint
    from rh_support import engine_prefix

    from .helpers import _export
    export = _export("1858/1858_game_end_bank")
    fresh = []
    original = api.Game._fresh
    monkeypatch.setattr(api.Game, "_fresh", lambda self: fresh.append(1) or original(self))
    checked = 0
    for n in (289, 363, 436):             # entries 288, 362, 435 are undos or redos
        fresh.clear()
        k, game, error = engine_prefix({**export, "actions": export["actions"][:n]})
        assert error is None and k == n
        undos = sum(1 for a in export["actions"][:n] if a["type"] in ("undo", "redo"))
        assert len(fresh) <= 2 < undos    # the set-up (and at most one undo rebuilt from it)
        imported = engine.import_game({**export, "actions": game.actions})
        assert state_fingerprint(game.state) == state_fingerprint(imported.state)
        checked += 1
    assert checked == 3


def test_a_kept_state_shares_the_title_data_and_copies_the_rest():
    """An undo checkpoint (engine.statecopy) names the title's data and tile descriptions instead of
    copying them: the copy holds those very objects, and everything else afresh, equal to the state."""
    import engine
    from engine import statecopy
    from engine.views import state_fingerprint

    from .helpers import _export
    export = _export("51745")   # imported here: position() hands out pickled copies, data and all
    game = engine.import_game({**export, "actions": export["actions"][:285]})
    state = game.state
    copied = statecopy.loads(statecopy.dumps(state, game.slug), game.slug)
    assert copied is not state and state_fingerprint(copied) == state_fingerprint(state)
    assert copied.data is state.data and copied.board.data is state.board.data
    assert all(copied.board._defs[key] is tdef for key, tdef in state.board._defs.items())
    assert copied.board is not state.board and copied.players[0] is not state.players[0]
    assert copied.log == state.log and copied.log is not state.log
    again = statecopy.loads(statecopy.dumps(copied, game.slug), game.slug)   # a copy of a copy
    assert state_fingerprint(again) == state_fingerprint(state) and again.data is state.data


def test_legal_actions_follow_every_change_of_position():
    """legal_actions() is computed once per position: a new action, an undo and a redo each give the
    position's own, and a caller changing the returned lists changes nothing for the next one."""
    from engine.views import legal_actions as computed

    game = cpr_first()
    first = game.legal_actions()
    assert first == computed(game.state)
    before = computed(game.state)
    first[0]["types"].append("not a move")
    assert game.legal_actions() == computed(game.state)
    act(game, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=1)
    assert game.legal_actions() == computed(game.state) != before
    act(game, "CPR", "undo")
    assert game.legal_actions() == computed(game.state) == before
    act(game, "CPR", "redo")
    assert game.legal_actions() == computed(game.state)
    assert game.view()["legal_actions"] == computed(game.state)


def test_an_undo_whose_rebuild_fails_leaves_the_position_as_it_was(monkeypatch):
    """An undo lets the replaced state go before it rebuilds (engine.api._collect_young): when the
    rebuild fails, the game is rebuilt at the position before the undo, and the log is unchanged."""
    from engine import GameError

    from engine import api
    monkeypatch.setattr(api, "JOURNAL_KEPT", 0)   # (an undo that rebuilds, as beyond a journal's reach)
    game = cpr_first()
    act(game, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=1)
    before, seq = fingerprint(game), game.seq
    rebuild = game._replay_entries
    calls = []

    def failing_once(*args):
        calls.append(args)
        if len(calls) == 1:
            raise GameError("a rebuild that fails")
        return rebuild(*args)

    monkeypatch.setattr(game, "_replay_entries", failing_once)
    with pytest.raises(GameError, match="a rebuild that fails"):
        game.process({"type": "undo", "entity": "CPR", "entity_type": "corporation"})
    assert len(calls) == 2 and game.seq == seq and fingerprint(game) == before
    act(game, "CPR", "undo")
    assert game.state.board.hex_by_id("N3").tile.preprinted
