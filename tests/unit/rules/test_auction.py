"""The waterfall private auction (1856): buying the cheapest, bidding on later privates, resolving."""

import pytest

from engine import GameError

from .helpers import act, fingerprint, new_1856, player


def test_cheapest_private_is_bought_at_face_value():
    game = new_1856()
    act(game, 1, "bid", company="FT", price=20)
    assert player(game, 1).cash == 355
    assert [c.id for c in player(game, 1).companies] == ["FT"]
    assert game.state.round.active_entities()[0].id == 2


@pytest.mark.parametrize("bad", [
    {"entity": 2, "company": "FT", "price": 20},            # not P2's turn
    {"entity": 1, "company": "GLSC", "price": 70},          # below the minimum bid (face value + 5)
    {"entity": 1, "company": "GLSC", "price": 400},         # more than the player has
    {"entity": 1, "company": "NOPE", "price": 20},          # no such company
    {"entity": 1, "company": "FT", "price": 15},            # below face value
])
def test_illegal_bids_are_rejected_without_changing_anything(bad):
    game = new_1856()
    before, seq = fingerprint(game), game.seq
    with pytest.raises(GameError) as err:
        act(game, bad.pop("entity"), "bid", **bad)
    assert err.value.reason
    assert fingerprint(game) == before and game.seq == seq


def test_single_bid_wins_when_the_private_becomes_cheapest():
    game = new_1856()
    act(game, 1, "bid", company="GLSC", price=75)           # bid on a later private
    act(game, 2, "bid", company="FT", price=20)             # buys the cheapest
    act(game, 3, "bid", company="WSRC", price=40)
    act(game, 4, "bid", company="TCC", price=50)            # GLSC is now cheapest: P1's only bid wins
    assert [c.id for c in player(game, 1).companies] == ["GLSC"]
    assert player(game, 1).cash == 375 - 75


def test_competing_bids_start_an_auction_between_the_bidders():
    game = new_1856()
    act(game, 1, "bid", company="GLSC", price=75)
    act(game, 2, "bid", company="GLSC", price=80)
    act(game, 3, "bid", company="FT", price=20)
    act(game, 4, "bid", company="WSRC", price=40)
    act(game, 1, "bid", company="TCC", price=50)            # GLSC now cheapest with two bids: auction
    step = game.state.round.active_step()
    assert step.auctioning.id == "GLSC"
    assert game.state.round.active_entities()[0].id == 1    # lowest bidder acts first
    with pytest.raises(GameError):
        act(game, 1, "bid", company="GLSC", price=80)       # must beat 80
    act(game, 1, "pass")
    assert [c.id for c in player(game, 2).companies] == ["GLSC"]
    assert player(game, 2).cash == 375 - 80


def test_everyone_passing_discounts_the_cheapest_private():
    game = new_1856()
    for pid in (1, 2, 3, 4):
        act(game, pid, "pass")
    ft = game.state.company_by_id("FT")
    assert ft.min_bid == 15
    act(game, 1, "bid", company="FT", price=15)
    assert player(game, 1).cash == 360
