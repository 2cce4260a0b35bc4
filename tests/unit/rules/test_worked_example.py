"""The product brief's worked example: five players with $300 each, G1 and the Great Western (home
London, F15) through the private auction, SR 1, OR 1, SR 2 and OR 2.

The brief's example leaves out one thing the rules (and the reference implementation) require: a
loan taken before the interest step of an operating round pays its $10 interest in that same round
(which is why a loan taken after the interest step yields only $90). So GW's treasury is $10 below
the example's figures from OR 1 on; every other figure is the example's.
"""

import pytest

from .helpers import act, corp, legal, new_1856, player, scenario

G = [{"id": i, "name": f"G{i}"} for i in range(1, 6)]


@scenario
def auction_and_sr1():
    game = new_1856(G)
    act(game, 1, "bid", company="FT", price=20)          # G1 buys the cheapest private
    act(game, 2, "bid", company="NFSBC", price=105)      # the others bid on later privates
    act(game, 3, "bid", company="TCC", price=55)
    act(game, 4, "bid", company="GLSC", price=75)
    act(game, 5, "bid", company="GLSC", price=80)
    act(game, 1, "bid", company="WSRC", price=40)        # G1 buys the next one: TCC (one bid) is sold at once
    act(game, 4, "pass")                                 # GLSC auction: G5 keeps it at $80
    act(game, 2, "bid", company="SCFTC", price=100)      # NFSBC went to G2's bid; G2 buys the last one
    assert game.round_label == "SR 1"
    for pid in (3, 4, 5):
        act(game, pid, "pass")
    act(game, 1, "par", corporation="GW", share_price="70,4,4")
    act(game, 2, "pass")
    act(game, 3, "buy_shares", shares=["GW_1"], percent=10)
    act(game, 4, "pass")
    act(game, 5, "pass")
    act(game, 1, "buy_shares", shares=["GW_2"], percent=10)
    for pid in (2, 3, 4, 5):
        act(game, pid, "pass")
    # G1, with $30, can do nothing more and is passed automatically: OR 1 begins
    return game


def through_or1(game):
    """GW's first operating round as in the example: a loan, St. Thomas, two 2-trains."""
    act(game, "GW", "take_loan", loan=0)
    act(game, "GW", "lay_tile", hex="F17", tile="5-0", rotation=3)
    act(game, "GW", "pass")
    act(game, "GW", "buy_train", train="2-0", price=100, variant="2")
    act(game, "GW", "buy_train", train="2-1", price=100, variant="2")
    act(game, "GW", "pass")                              # no more trains
    act(game, "GW", "pass")                              # keeps the loan
    assert game.round_label == "SR 2"
    return game


def test_private_auction_and_first_stock_round():
    game = auction_and_sr1()
    owners = {c.id: c.owner.id for c in game.state.companies}
    assert owners == {"FT": 1, "WSRC": 1, "TCC": 3, "GLSC": 5, "NFSBC": 2, "SCFTC": 2}
    gw = corp(game, "GW")
    # G1: 300 - 20 (FT) - 40 (WSRC) - 140 (president's 20% at $70) - 70 (a 10%), then OR 1 pays
    # the privates' revenue: FT $5 + WSRC $10.
    assert player(game, 1).cash == 30 + 15
    # four shares sold, all within the first five: the treasury got every one of them
    assert gw.cash == 4 * 70 and gw.escrow == 0 and gw.capitalization == "escrow"
    assert gw.share_price.price == 70


def test_first_operating_round():
    game = auction_and_sr1()
    gw = corp(game, "GW")
    assert game.round_label == "OR 1.1" and game.state.round.current_operator is gw
    # 40% sold, more than the 20% needed while 2-trains are for sale: GW starts and gets its home token
    assert gw.started and [t.hex.id for t in gw.tokens if t.used] == ["F15"]
    act(game, "GW", "take_loan", loan=0)
    assert gw.cash == 380 and len(gw.loans) == 1
    act(game, "GW", "lay_tile", hex="F17", tile="5-0", rotation=3)     # a yellow city in St. Thomas
    assert gw.cash == 380                                              # no terrain there
    act(game, "GW", "pass")                                            # no token
    # no trains: nothing earned, the share price moves left
    assert gw.share_price.price == 65
    act(game, "GW", "buy_train", train="2-0", price=100, variant="2")
    act(game, "GW", "buy_train", train="2-1", price=100, variant="2")
    # 380 - 2 x 100, less the $10 interest on the loan (the example forgets it)
    assert gw.cash == 180 - 10
    assert [t.id for t in gw.trains] == ["2-0", "2-1"]


def test_second_stock_and_operating_rounds():
    game = through_or1(auction_and_sr1())
    gw = corp(game, "GW")
    order = [p.id for p in game.state.players]
    for pid in order:
        if pid == 4:
            act(game, 4, "buy_shares", shares=["GW_3"], percent=10)
            # the fifth share sold still pays the treasury, at the par price
            assert gw.cash == 170 + 70 and gw.escrow == 0
        else:
            act(game, pid, "pass")
    while game.round_kind == "stock_round":
        act(game, game.acting_players()[0], "pass")
    assert game.round_label == "OR 2.1"
    assert player(game, 1).cash == 45 + 15
    act(game, "GW", "pass")                              # no track
    act(game, "GW", "pass")                              # no token
    # the suggestion is London (30) - St. Thomas (20); the second 2-train has no route left
    best = game.best_routes("GW")
    assert [(r["train"], r["revenue"], sorted(r["hexes"])) for r in best] == [("2-0", 50, ["F15", "F17"])]
    act(game, "GW", "run_routes", routes=[{"train": "2-0", "connections": [["F15", "F17"]]}])
    assert gw.cash == 240 - 10                           # interest: $10 for the loan
    assert legal(game)["dividend_options"]["payout"] == {"to_corporation": 0, "per_share": 5}
    act(game, "GW", "dividend", kind="payout")
    # $5 a share: G1 holds 3 shares (the president's certificate counts double), G3 and G4 one each
    # (G3: 300 - 55 TCC - 70 share + 2 x $10 TCC revenue = 195; G4: 300 - 70 = 230); the five IPO
    # shares pay nobody
    assert player(game, 1).cash == 60 + 15
    assert player(game, 3).cash == 195 + 5 and player(game, 4).cash == 230 + 5
    assert gw.cash == 230
    assert gw.share_price.price == 70                    # paid: one step right, back to $70


@pytest.mark.parametrize("share", ["GW_4", "GW_8"])
def test_shares_after_the_fifth_are_held_in_escrow(share):
    game = through_or1(auction_and_sr1())
    gw = corp(game, "GW")
    cash = gw.cash
    act(game, game.acting_players()[0], "buy_shares", shares=["GW_3"], percent=10)    # fifth: treasury
    assert gw.cash == cash + 70 and gw.escrow == 0
    act(game, game.acting_players()[0], "buy_shares", shares=[share], percent=10)     # sixth: escrow
    assert gw.cash == cash + 70 and gw.escrow == 70
