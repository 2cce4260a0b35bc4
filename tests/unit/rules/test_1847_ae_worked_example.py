"""The product brief's 1847 AE worked example: four players with 390M each; G1 (here P4, the first to
draft) and the Pfälzische Ludwigsbahn (L, home Ludwigshafen F18) through the draft, SR 1, OR 1.1, SR 2
and OR 2.1, with the example's figures after every step.

The example calls the draft the first stock round; the recorded games (and the reference) run it as a
draft round, so SR 1 comes between the draft and OR 1.1 (G1, with 83M, can do nothing in it). The
money for L's shares reaches its treasury as each company carrying one is drafted; at the float it has
the example's 5 x 86M = 430M.
"""

from .helpers import DRAFT_1847, act, corp, draft_1847, player, scenario

G1 = 4


def others_pass(game, until):
    """Every other player passes until ``until`` holds."""
    while not until(game):
        act(game, game.acting_players()[0], "pass")
    return game


@scenario
def drafted():
    return draft_1847()


def test_the_draft():
    game = drafted()
    assert DRAFT_1847[0] == (G1, "PLP") and (G1, "W") in DRAFT_1847
    g1, l_corp = player(game, G1), corp(game, "L")
    assert g1.cash == 390 - 172 - 135 == 83
    assert g1.percent_of(l_corp) == 30 and l_corp.owner is g1
    assert l_corp.floated() and l_corp.cash == 5 * 86 == 430 and l_corp.share_price.price == 86
    assert [t.hex.id for t in l_corp.tokens if t.hex] == ["F18"]


@scenario
def after_or1():
    game = others_pass(drafted(), lambda g: g.round_label == "OR 1.1")
    assert player(game, G1).cash == 83 + 10                       # Weidenthal's revenue
    act(game, "L", "lay_tile", hex="G17", tile="58-0", rotation=1)   # a town towards Neustadt
    act(game, "L", "lay_tile", hex="G19", tile="6-0", rotation=2)    # Speyer, on the Rhine: 80M
    assert corp(game, "L").cash == 350
    act(game, "L", "place_token", city="G15-0-0", slot=2)            # Neustadt, already connected
    assert corp(game, "L").cash == 290
    # no train: nothing to run, the price moves left
    assert corp(game, "L").share_price.price == 82
    lfk_owner = corp(game, "LFK").owner
    cash = lfk_owner.cash
    act(game, "L", "buy_train", train="3-0", price=150, variant="3")
    assert lfk_owner.cash == cash + 15 and corp(game, "LFK").share_price.price == 110
    return game


def test_operating_round_1():
    game = after_or1()
    l_corp = corp(game, "L")
    assert l_corp.cash == 140 and [t.name for t in l_corp.trains] == ["3"]
    assert player(game, G1).cash == 93


def test_stock_round_2_and_operating_round_2():
    game = others_pass(after_or1(), lambda g: g.round_label == "SR 2" and g.acting_players() == [G1])
    act(game, G1, "buy_shares", shares=["L_6"], percent=10)
    l_corp, g1 = corp(game, "L"), player(game, G1)
    assert g1.cash == 7 and l_corp.cash == 226 and g1.percent_of(l_corp) == 40
    others_pass(game, lambda g: g.round_label == "OR 2.1")
    assert g1.cash == 17
    act(game, "L", "pass")                                           # no track this time
    act(game, "L", "pass")                                           # no token
    act(game, "L", "run_routes", routes=[{"train": "3-0", "connections": [["F18", "G17"], ["G17", "G15"]]}])
    assert game.state.log[-1] == "L runs a 3 train for 70M: F18-G17-G15"
    act(game, "L", "dividend", kind="payout")
    assert g1.cash == 17 + 28 and l_corp.share_price.price == 86
    act(game, "L", "buy_train", train="3-1", price=150, variant="3")
    assert l_corp.cash == 76 and [t.id for t in game.state.depot.upcoming[:2]] == ["3-2", "3+3-0"]
