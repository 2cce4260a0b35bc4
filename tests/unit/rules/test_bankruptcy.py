"""Bankruptcy: open only to a president who cannot pay for a forced train; it ends the game at once."""

from .helpers import (act, corp, default_move, legal, operator, play_recorded, player, position, recorded, rejected,
                      scenario)

# hotseat005, OR 3.2: BBG ($180) has a route but no train; the only depot train is a 4 ($350). Its
# president, P3 ($86), could add at most the $75 of his one WR share: $341 in all.


@scenario
def bbg_cannot_buy():
    game = position("hotseat005", 210)
    assert legal(game)["must_buy"] and [t.id for t in game.state.depot.depot_trains()] == ["4-1"]
    assert corp(game, "BBG").cash == 180 and player(game, 797).cash == 86
    return game


def test_bankruptcy_is_offered_when_the_forced_train_is_out_of_reach():
    game = bbg_cannot_buy()
    assert "bankrupt" in legal(game)["types"]
    assert "cannot spend" in rejected(game, "BBG", "buy_train", train="4-1", price=350, variant="4")


def test_bankruptcy_ends_the_game_immediately():
    game = bbg_cannot_buy()
    act(game, "BBG", "bankrupt")
    p3 = player(game, 797)
    assert game.finished and game.game_end_reason == "bankrupt"
    assert p3.bankrupt and p3.cash == 0
    assert [s.id for s in p3.shares] == ["BBG_0"]           # what could be sold was sold
    assert game.result == recorded("hotseat005")["result"]
    assert "game is over" in rejected(game, "WR", "pass").lower()
    assert game.legal_actions() == []


def test_the_recorded_bankruptcy():
    game = position("hotseat005", 211, start=210)        # P3 sold his WR share first: still $9 short
    play_recorded(game, "hotseat005", 211)
    assert game.finished and game.game_end_reason == "bankrupt"
    assert game.result == recorded("hotseat005")["result"]


def test_no_bankruptcy_for_a_president_who_can_pay():
    game = position("51745", 455)                # BBG must buy a $550 train with $460; P1 has $168
    assert legal(game)["must_buy"] and "bankrupt" not in legal(game)["types"]
    rejected(game, "BBG", "bankrupt")
    assert "not Player 1's turn" in rejected(game, 7202, "bankrupt")


def test_no_bankruptcy_outside_a_crisis():
    game = position("51745", 140)
    rejected(game, "CV", "bankrupt")
    rejected(game, 7202, "bankrupt")


def test_a_president_in_a_cash_crisis_who_can_sell_may_not_go_bankrupt():
    """GT must repay a loan it no longer covers with player shares; its president owes the bank but
    could raise the money by selling shares, so he must sell rather than go bankrupt."""
    game = position("51745", 162)                              # SR 4
    act(game, 7202, "pass")
    act(game, 4332, "pass")
    act(game, 4310, "sell_shares", shares=["GT_2"], percent=10)  # GT: 4 loans, 3 player shares now
    buys = ["WR_3", "LPS_3", "CV_2", "WR_4"]                  # P3 spends his cash
    while game.round_kind == "stock_round":
        pid = game.acting_players()[0]
        if pid == 4310 and buys:
            act(game, 4310, "buy_shares", shares=[buys.pop(0)], percent=10)
        if game.round_kind == "stock_round" and game.acting_players() == [pid]:
            act(game, pid, "pass")
    while operator(game).id != "GT":
        default_move(game)
    act(game, "GT", "pass")
    act(game, "GT", "run_routes", routes=[])
    act(game, "GT", "pass")                                   # forced repayment: P3 now owes the bank
    p3 = player(game, 4310)
    assert p3.cash < 0 and not game.state.can_go_bankrupt(p3, None)
    assert "bankrupt" not in legal(game, 4310)["types"]
    rejected(game, 4310, "bankrupt")
    assert not game.finished
