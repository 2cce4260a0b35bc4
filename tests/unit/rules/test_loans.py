"""Government loans: taking one ($100, or $90 once interest is paid), the limit, interest and its
shortfall, paying off, forced repayment when the loans exceed the shares players hold, and the
president's cash crisis when the corporation cannot pay."""

import pytest

from .helpers import (act, corp, legal, operating, play_until, player, position, recorded_action,
                      rejected, scenario)
from .test_worked_example import auction_and_sr1


def test_a_loan_before_the_interest_step_brings_100():
    game = position("51745", 140)          # CV ($25, 1 loan) at the start of its turn
    cv = corp(game, "CV")
    bank, loans_left = game.state.bank.cash, len(game.state.loans)
    act(game, "CV", "take_loan", loan=8)
    cv = corp(game, "CV")
    assert cv.cash == 25 + 100 and len(cv.loans) == 2
    assert game.state.bank.cash == bank - 100 and len(game.state.loans) == loans_left - 1


def test_a_loan_after_the_interest_step_brings_90():
    game = position("51745", 290)          # CV has run and paid this round's interest
    assert game.state.round.paid_interest.get(corp(game, "CV"))
    act(game, "CV", "take_loan", loan=13)
    assert corp(game, "CV").cash == 285 + 90


def test_one_loan_per_operating_round():
    game = position("51745", 140)
    act(game, "CV", "take_loan", loan=8)
    assert "take_loan" not in legal(game)["types"]
    assert "take loan" in rejected(game, "CV", "take_loan", loan=9)


@pytest.mark.parametrize("loan, reason", [(0, "not available"), (500, "Unknown loan")])
def test_a_loan_must_be_one_the_government_still_has(loan, reason):
    assert reason in rejected(position("51745", 140), "CV", "take_loan", loan=loan)


def test_loans_are_taken_only_by_the_operating_corporation():
    game = position("51745", 140)
    assert "not WR's turn" in rejected(game, "WR", "take_loan", loan=8)


def test_no_loans_in_phase_6():
    game = position("51745", 465, start=455)        # CV operates, the first 6-train has been bought
    assert game.state.phase.name == "6" and "no_loans" in game.state.phase.status
    assert "take_loan" not in legal(game)["types"]
    assert "take loan" in rejected(game, "CV", "take_loan", loan=0)


def test_interest_is_paid_after_running_and_a_shortfall_comes_out_of_the_run():
    game = position("51745", 149)          # LPS: $20 in the treasury, 3 loans
    assert corp(game, "LPS").cash == 20 and len(corp(game, "LPS").loans) == 3
    act(game, "LPS", "run_routes", routes=recorded_action("51745", 149)["routes"])
    # $30 owed: the treasury pays its $20, the other $10 is deducted from the $160 run
    assert corp(game, "LPS").cash == 0
    assert legal(game)["revenue"] == 160 - 10
    p4 = player(game, 4022)
    cash, shares = p4.cash, p4.num_shares_of(corp(game, "LPS"))
    act(game, "LPS", "dividend", kind="payout")
    assert player(game, 4022).cash == cash + shares * 15               # $150 / 10 shares


def test_payoff_is_offered_after_the_trains_and_forbids_a_new_loan_that_round():
    game = auction_and_sr1()               # the worked example: GW takes a loan in OR 1
    act(game, "GW", "take_loan", loan=0)
    assert "payoff_loan" not in legal(game)["types"]
    act(game, "GW", "pass")                # no track
    act(game, "GW", "buy_train", train="2-0", price=100, variant="2")
    act(game, "GW", "pass")                # no more trains: now loans may be repaid
    gw = corp(game, "GW")
    assert gw.cash == 380 - 100 - 10 and {"payoff_loan", "pass"} <= set(legal(game)["types"])
    act(game, "GW", "payoff_loan", loan=0)
    gw = corp(game, "GW")
    assert gw.cash == 270 - 100 and not gw.loans
    assert game.round_kind == "stock_round"          # GW's turn (and OR 1) is over


def test_only_the_corporations_own_loans_are_paid_off():
    game = auction_and_sr1()
    act(game, "GW", "take_loan", loan=0)
    act(game, "GW", "pass")
    for train in ("2-0", "2-1"):
        act(game, "GW", "buy_train", train=train, price=100, variant="2")
    act(game, "GW", "pass")
    assert corp(game, "GW").cash == 170 and "payoff_loan" in legal(game)["types"]
    assert "doesn't belong" in rejected(game, "GW", "payoff_loan", loan=1)


# ------------------------------------------------------------------ more loans than player shares

@scenario
def gt_over_its_loan_limit(*buys):
    """SR 4 of a recorded game: GT has 4 loans and P3, its president, holds 40%. P3 sells 10% (GT
    now has 3 player shares for 4 loans) and buys ``buys`` with the proceeds; then OR 4.1 runs to
    GT's turn (GT: $20, 4 loans)."""
    game = position("51745", 162)
    act(game, 7202, "pass")
    act(game, 4332, "pass")
    act(game, 4310, "sell_shares", shares=["GT_2"], percent=10)
    wanted = list(buys)
    while game.round_kind == "stock_round":
        pid = game.acting_players()[0]
        if pid == 4310 and wanted:
            act(game, 4310, "buy_shares", shares=[wanted.pop(0)], percent=10)
        if game.round_kind == "stock_round" and game.acting_players() == [pid]:
            act(game, pid, "pass")
    play_until(game, operating("GT"))
    gt = corp(game, "GT")
    assert (gt.cash, len(gt.loans), gt.num_player_shares()) == (20, 4, 3)
    return game


def test_no_new_loan_over_the_limit_of_player_shares():
    game = gt_over_its_loan_limit()
    assert "take_loan" not in legal(game)["types"]
    rejected(game, "GT", "take_loan", loan=20)


def test_loans_over_the_limit_are_repaid_after_buying_trains_with_the_presidents_help():
    game = gt_over_its_loan_limit()
    act(game, "GT", "pass")                                  # no track
    act(game, "GT", "run_routes", routes=game.best_routes("GT"))
    # $40 interest: $20 from the treasury, $20 out of the $190 run
    assert corp(game, "GT").cash == 0 and legal(game)["revenue"] == 190 - 20
    act(game, "GT", "dividend", kind="payout")
    # $17 a share; GT itself gets the market share's $17
    assert corp(game, "GT").cash == 17
    president, loans_left = player(game, 4310).cash, len(game.state.loans)
    act(game, "GT", "pass")                                  # buys no train: the repayment is due
    gt = corp(game, "GT")
    # one loan too many: $100, GT's $17 first, the president the remaining $83
    assert len(gt.loans) == 3 and len(game.state.loans) == loans_left + 1
    assert player(game, 4310).cash == president - 83
    # GT was the last to operate: OR 4.2 has begun and GT's only cash is its bridge company's $20
    assert game.round_label == "OR 4.2" and gt.cash == 20


def test_interest_the_run_cannot_cover_is_owed_by_the_president():
    game = gt_over_its_loan_limit()
    act(game, "GT", "pass")
    president = player(game, 4310).cash
    act(game, "GT", "run_routes", routes=[])                 # runs nothing
    # $40 owed: $20 from the treasury, nothing to deduct from, $20 from the president
    assert corp(game, "GT").cash == 0 and player(game, 4310).cash == president - 20
    assert corp(game, "GT").share_price.price == 60         # no run: price moves left (from $65)


@scenario
def president_in_cash_crisis():
    """As above, but P3 has spent nearly everything on shares: when GT repays its extra loan the
    president cannot cover it."""
    game = gt_over_its_loan_limit("WR_3", "LPS_3", "CV_2", "WR_4")
    act(game, "GT", "pass")
    act(game, "GT", "run_routes", routes=[])
    act(game, "GT", "pass")                                  # no voluntary repayment: forced one
    return game


def test_a_president_who_cannot_cover_enters_a_cash_crisis():
    game = president_in_cash_crisis()
    p3 = player(game, 4310)
    assert p3.cash < 0 and game.acting_players() == [4310]
    entry = legal(game)
    assert "sell_shares" in entry["types"]
    rejected(game, "GT", "pass")                             # nothing else happens until it is settled
    owed = -player(game, 4310).cash
    # may not give up GT's presidency, nor sell more than needed
    assert "Cannot sell" in rejected(game, 4310, "sell_shares", shares=["GT_0"], percent=20)
    assert "Cannot sell" in rejected(game, 4310, "sell_shares", shares=["WR_3", "WR_4"], percent=20)
    price = corp(game, "WR").share_price.price
    act(game, 4310, "sell_shares", shares=["WR_3"], percent=10)
    assert player(game, 4310).cash == price - owed
    assert game.state.round.current_operator.id != "GT"      # the crisis is over and the round goes on


def test_each_loan_costs_the_shareholders_ten_dollars_a_share_in_the_score():
    game = gt_over_its_loan_limit()
    p3, gt = player(game, 4310), corp(game, "GT")
    assert {s.corporation.id for s in p3.shares} == {"GT"} and p3.percent_of(gt) == 30
    # 3 GT shares at market price, less $10 per share for each of GT's 4 loans
    assert game.player_values()["4310"] == p3.cash + 3 * gt.share_price.price - 3 * 10 * 4
