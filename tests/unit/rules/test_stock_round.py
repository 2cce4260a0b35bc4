"""Stock round mechanics on 1856: parring, buying, selling, limits, and rejected actions."""

import pytest

from engine import GameError

from .helpers import act, fingerprint, player, to_stock_round


def test_auction_ends_and_priority_goes_to_the_player_after_the_last_buyer():
    game = to_stock_round()
    assert game.round_label == "SR 1"
    assert game.state.players[0].id == 3


def test_par_buys_the_presidents_certificate_into_escrow_cap():
    game = to_stock_round()
    act(game, 3, "par", corporation="BBG", share_price="100,0,4")
    bbg = game.state.corporation_by_id("BBG")
    assert bbg.owner.id == 3 and bbg.capitalization == "escrow"
    assert player(game, 3).cash == 375 - 50 - 200
    assert bbg.cash == 200                      # the first half of the IPO pays the corporation
    assert bbg.share_price.price == 100


def test_buying_the_lower_half_of_the_ipo_is_held_in_escrow():
    game = to_stock_round()
    act(game, 3, "par", corporation="BBG", share_price="65,5,4")
    bbg = game.state.corporation_by_id("BBG")
    for pid, share in [(4, "BBG_1"), (1, "BBG_2"), (2, "BBG_3")]:
        act(game, pid, "buy_shares", shares=[share], percent=10)
    assert bbg.cash == 130 + 65 * 3 and bbg.escrow == 0
    act(game, 3, "buy_shares", shares=["BBG_4"], percent=10)
    assert bbg.cash == 130 + 65 * 3 and bbg.escrow == 65     # 50% or less left in the IPO


@pytest.mark.parametrize("bad", [
    dict(entity=4, kind="par", corporation="BBG", share_price="100,0,4"),      # not P4's turn
    dict(entity=3, kind="par", corporation="CGR", share_price="100,0,4"),      # the national cannot be parred
    dict(entity=3, kind="par", corporation="BBG", share_price="75,0,1"),       # not a par price
    dict(entity=3, kind="buy_shares", shares=["BBG_1"], percent=10),           # BBG not parred
    dict(entity=3, kind="sell_shares", shares=["BBG_0"], percent=20),          # holds none
    dict(entity=3, kind="lay_tile", hex="O16", tile="57-0", rotation=0),       # wrong round
])
def test_illegal_stock_actions_change_nothing(bad):
    game = to_stock_round()
    before, seq = fingerprint(game), game.seq
    with pytest.raises(GameError):
        act(game, bad.pop("entity"), bad.pop("kind"), **bad)
    assert fingerprint(game) == before and game.seq == seq


def test_one_purchase_per_turn_and_no_selling_in_the_first_stock_round():
    game = to_stock_round()
    act(game, 3, "par", corporation="BBG", share_price="65,5,4")
    with pytest.raises(GameError):
        act(game, 3, "buy_shares", shares=["BBG_1"], percent=10)
    act(game, 4, "buy_shares", shares=["BBG_1"], percent=10)
    act(game, 1, "pass")
    act(game, 2, "pass")
    with pytest.raises(GameError):
        act(game, 3, "sell_shares", shares=["BBG_0"], percent=20)


def test_undo_and_redo_restore_earlier_states():
    game = to_stock_round()
    before = fingerprint(game)
    act(game, 3, "par", corporation="BBG", share_price="65,5,4")
    after = fingerprint(game)
    act(game, 3, "undo")
    assert fingerprint(game) == before
    act(game, 3, "redo")
    assert fingerprint(game) == after
    with pytest.raises(GameError):
        act(game, 3, "redo")
