"""Buying trains: depot prices, phases and rusting, train limits and discards, trains from other
corporations, and the forced purchase a president must help pay for."""

import pytest

from .helpers import (act, corp, default_move, legal, operating, operator, play_recorded, play_until, player,
                      position, rejected, scenario)


def trains_of(game):
    return {c.id: [t.id for t in c.trains] for c in game.state.corporations if c.trains}


# ------------------------------------------------------------------ the depot and phases

def test_depot_trains_are_sold_at_face_value_only():
    game = position("51745", 60)          # OR 2.1, phase 2: the 2-trains are gone, CV may buy a 3
    assert operator(game).id == "CV"
    offer = legal(game)["trains"][0]
    assert offer == {"train": "3-0", "variant": "3", "owner": "depot", "price": 225}
    assert "costs $225" in rejected(game, "CV", "buy_train", train="3-0", price=200, variant="3")
    assert "costs $225" in rejected(game, "CV", "buy_train", train="3-0", price=250, variant="3")
    assert "no variant" in rejected(game, "CV", "buy_train", train="3-0", price=350, variant="4")
    assert "Not a buyable train" in rejected(game, "CV", "buy_train", train="3-1", price=225)   # not next
    assert "Not a buyable train" in rejected(game, "CV", "buy_train", train="4-0", price=350)
    assert "Not a buyable train" in rejected(game, "CV", "buy_train", train="2-2", price=100)   # its own
    assert "Unknown train" in rejected(game, "CV", "buy_train", train="3-9", price=225)


def test_the_first_3_train_starts_phase_3():
    game = position("51745", 60)
    cash, bank = corp(game, "CV").cash, game.state.bank.cash
    play_recorded(game, "51745", 60)
    phase = game.state.phase
    assert corp(game, "CV").cash == cash - 225 and game.state.bank.cash == bank + 225
    assert "3-0" in [t.id for t in corp(game, "CV").trains]
    assert (phase.name, phase.tiles, phase.operating_rounds) == ("3", ["yellow", "green"], 2)
    assert "can_buy_companies" in phase.status
    assert [t.id for t in game.state.depot.depot_trains()] == ["3-1"]


def test_the_first_4_train_starts_phase_4_and_rusts_every_2_train():
    game = position("51745", 291, start=290)
    assert trains_of(game) == {"CV": ["2-2", "3-0"], "GT": ["2-5", "3-1", "3-4"], "LPS": ["2-3", "2-4", "3-3"],
                               "WR": ["2-0", "2-1", "3-2"]}
    play_recorded(game, "51745", 291)      # CV buys 4-0
    assert game.state.phase.name == "4" and game.state.phase.train_limit(corp(game, "CV")) == 3
    assert trains_of(game) == {"CV": ["3-0", "4-0"], "GT": ["3-1", "3-4"], "LPS": ["3-3"], "WR": ["3-2"]}
    rusted = game.state.train_by_id("2-0")
    assert rusted.rusted and rusted.owner is None


def test_the_first_5_train_starts_phase_5_with_a_limit_of_two():
    game = position("51745", 360)
    assert game.state.phase.name == "4"
    play_recorded(game, "51745", 360)      # GT buys 5-0, its second train
    gt = corp(game, "GT")
    assert game.state.phase.name == "5" and game.state.train_limit(gt) == 2
    assert [t.id for t in gt.trains] == ["3-4", "5-0"]
    # at the limit: GT may buy no more trains this turn
    assert "buy_train" not in legal(game)["types"]
    rejected(game, "GT", "buy_train", train="5-1", price=550, variant="5")


# ------------------------------------------------------------------ trains from other corporations

def test_a_train_from_another_corporation_costs_between_one_dollar_and_the_buyers_cash():
    game = position("51745", 330)          # TGB ($100) buys GT's 3-train; both belong to P3
    offer = next(t for t in legal(game)["trains"] if t["train"] == "3-1")
    assert offer == {"train": "3-1", "variant": "3", "owner": "GT", "min_price": 1, "max_price": 100}
    assert "between $1 and $100" in rejected(game, "TGB", "buy_train", train="3-1", price=0)
    assert "between $1 and $100" in rejected(game, "TGB", "buy_train", train="3-1", price=101)
    tgb_cash, gt_cash = corp(game, "TGB").cash, corp(game, "GT").cash
    act(game, "TGB", "buy_train", train="3-1", price=100)
    assert "3-1" in [t.id for t in corp(game, "TGB").trains] and "3-1" not in [t.id for t in corp(game, "GT").trains]
    # TGB was the last to operate in OR 5.1: OR 5.2 begins and GT also collects $20 from its bridge company
    assert corp(game, "TGB").cash == tgb_cash - 100 and corp(game, "GT").cash == gt_cash + 100 + 20


# ------------------------------------------------------------------ the train limit

@scenario
def tgb_over_the_limit():
    """Phase 4 (limit 3): TGB buys a third train (LPS's 3-train, for $1); then GT buys the first
    5-train, the limit drops to 2 and TGB holds one train too many."""
    game = position("51745", 331, start=330)
    act(game, "TGB", "buy_train", train="3-3", price=1)
    play_until(game, operating("GT"))
    play_until(game, lambda g: "buy_train" in legal(g)["types"])
    act(game, "GT", "buy_train", train="5-0", price=550, variant="5")
    assert [t.id for t in corp(game, "TGB").trains] == ["4-3", "3-1", "3-3"]
    act(game, "GT", "pass")                # GT's loans first
    return game


def test_a_corporation_over_the_train_limit_must_discard():
    game = tgb_over_the_limit()
    entry = legal(game)
    assert entry["entity"] == "TGB" and "discard_train" in entry["types"] and "pass" not in entry["types"]
    assert "does not own" in rejected(game, "TGB", "discard_train", train="5-0")
    assert "not GT's turn" in rejected(game, "GT", "pass")
    rejected(game, "TGB", "pass")
    act(game, "TGB", "discard_train", train="3-1")
    assert [t.id for t in corp(game, "TGB").trains] == ["4-3", "3-3"]
    depot = game.state.depot
    assert [t.id for t in depot.discarded] == ["3-1"]
    assert {t.id: t.price() for t in depot.depot_trains()} == {"5-1": 550, "3-1": 225}   # for sale again
    assert operator(game).id == "CA"       # GT's turn is over


# ------------------------------------------------------------------ forced purchases

def test_a_trainless_corporation_with_a_route_must_buy_and_its_president_pays_the_difference():
    game = position("51745", 455)          # OR 6.1: BBG ($460) has a route but no train
    entry = legal(game)
    assert entry["must_buy"] and "pass" not in entry["types"]
    rejected(game, "BBG", "pass")
    assert "costs $550" in rejected(game, "BBG", "buy_train", train="5-2", price=460, variant="5")
    # another corporation's train: only with BBG's own cash
    assert "between $1 and $460" in rejected(game, "BBG", "buy_train", train="3-0", price=500)
    president, bank = player(game, 7202).cash, game.state.bank.cash
    act(game, "BBG", "buy_train", train="5-2", price=550, variant="5")
    assert corp(game, "BBG").cash == 0
    assert player(game, 7202).cash == president - (550 - 460)
    assert game.state.bank.cash == bank + 550


@scenario
def cv_trainless_in_phase_6():
    """After the CGR forms (OR 6.2), CA buys CV's only train for $1; in OR 6.3 CV ($63), with a
    route, must buy the cheapest depot train, the 6 ($700): its president (P1, $254) must help and
    sell shares for it."""
    game = position("51745", 465, start=455)
    play_until(game, lambda g: operator(g).id == "CA" and "buy_train" in legal(g)["types"])
    act(game, "CA", "buy_train", train="4-0", price=1)
    play_until(game, operating("CV"))
    play_until(game, lambda g: "buy_train" in legal(g)["types"])
    assert game.round_label == "OR 6.3" and not corp(game, "CV").trains
    assert corp(game, "CV").cash == 63 and player(game, 7202).cash == 254
    return game


def test_an_emergency_purchase_must_be_the_cheapest_depot_train():
    game = cv_trainless_in_phase_6()
    assert legal(game)["must_buy"]
    assert [t.id for t in game.state.depot.depot_trains()] == ["6-1", "D-0"]
    assert "cheaper train available" in rejected(game, "CV", "buy_train", train="D-0", price=1100, variant="D")
    # the president cannot cover $637 yet
    assert "cannot spend 637" in rejected(game, "CV", "buy_train", train="6-1", price=700, variant="6")


def test_the_president_sells_shares_to_pay_for_the_forced_train():
    game = cv_trainless_in_phase_6()
    # not the president's certificate of the corporation buying, and not more shares than needed
    assert "Cannot sell" in rejected(game, 7202, "sell_shares", shares=["CV_0"], percent=20)
    act(game, 7202, "sell_shares", shares=["BBG_1", "BBG_2", "BBG_3"], percent=30)
    assert player(game, 7202).cash == 254 + 3 * 100
    bbg = corp(game, "BBG").share_price
    assert (bbg.price, bbg.row, bbg.column) == (75, 3, 4)     # from $100 (row 0): down a row per 10% sold
    # $83 still missing: one CV share ($150) is enough, so two may not be sold
    assert "Cannot sell" in rejected(game, 7202, "sell_shares", shares=["CV_1", "CV_2"], percent=20)
    # BBG was sold already: no second sale of the same corporation in this emergency
    assert "Cannot sell" in rejected(game, 7202, "sell_shares", shares=["BBG_0"], percent=20)
    act(game, 7202, "sell_shares", shares=["CV_1"], percent=10)
    cash = player(game, 7202).cash
    act(game, "CV", "buy_train", train="6-1", price=700, variant="6")
    assert [t.id for t in corp(game, "CV").trains] == ["6-1"]
    assert corp(game, "CV").cash == 0 and player(game, 7202).cash == cash - (700 - 63)


@pytest.mark.parametrize("train, price", [("4-1", 63), ("4-1", 350)])
def test_trains_of_the_national_are_sold_at_face_value_only(train, price):
    game = cv_trainless_in_phase_6()
    rejected(game, "CV", "buy_train", train=train, price=price)


def test_trains_sold_at_face_value_are_offered_only_at_face_value_and_when_affordable():
    """CGR trains change hands at face value only: a corporation forced to buy is not offered one
    it cannot pay in full (and any other price is refused)."""
    game = position("51745", 465)                               # OR 6.2, the CGR has formed
    while not (legal(game)["entity"] == "CA" and "buy_train" in legal(game)["types"]):
        default_move(game)
    act(game, "CA", "buy_train", train="4-0", price=1)          # CV's only train: CV is trainless now
    while not (legal(game)["entity"] == "CV" and "buy_train" in legal(game)["types"]):
        default_move(game)
    entry = legal(game)
    assert entry["must_buy"]
    cgr_offers = [t for t in entry["trains"] if t["owner"] == "CGR"]
    cv = corp(game, "CV")
    for offer in cgr_offers:
        assert offer["price"] == game.state.train_by_id(offer["train"]).price() <= cv.cash
    cgr_train = next(t for t in corp(game, "CGR").trains)
    assert "face value" in rejected(game, "CV", "buy_train", train=cgr_train.id, price=1)
