"""The first 6-train: loans must be repaid; corporations that cannot repay merge into the Canadian
Government Railway (CGR) unless their president pays; the CGR's shares, price, trains and tokens.

Base: a recorded game (51745), OR 6.1, where CPR buys the first 6-train. Before it: GT (P3, 7
loans, $91), TGB (P3, 2 loans, $150), LPS (P4, 5 loans, $314), WR (P2, 2 loans, $28) and CV (P1,
3 loans, $314) owe the government; P3 bought the 6."""

import pytest

from .helpers import act, corp, legal, player, play_recorded, position, rejected, scenario


@scenario
def six_train_bought():
    game = position("51745", 459, start=455)
    assert game.state.phase.name == "5"
    play_recorded(game, "51745", 459)          # CPR (P3) buys 6-0
    assert game.state.phase.name == "6"
    return game


@scenario
def cgr_formed():
    game = six_train_bought()
    play_recorded(game, "51745", 460, 461, 462, 463)    # GT, TGB, LPS and WR merge, in that order
    return game


def test_loans_are_repaid_in_hundreds_from_the_treasury_first():
    game = six_train_bought()
    loans = {c: len(corp(game, c).loans) for c in ("CV", "GT", "TGB", "LPS", "WR")}
    cash = {c: corp(game, c).cash for c in ("CV", "GT", "TGB", "LPS", "WR")}
    # CV $314 repays 3 loans ($300, all of them); LPS $314 three of five; TGB $150 one of two;
    # GT $91 and WR $28 none
    assert loans == {"CV": 0, "GT": 7, "TGB": 1, "LPS": 2, "WR": 2}
    assert cash == {"CV": 14, "GT": 91, "TGB": 50, "LPS": 14, "WR": 28}


def test_corporations_still_in_debt_decide_in_player_order_from_the_buyer_of_the_6():
    game = six_train_bought()
    # P3 (who bought it) first: GT, TGB; then P4: LPS; P1 has no debtor; then P2: WR
    assert [c.id for c in game.state.nationalizables] == ["GT", "TGB", "LPS", "WR"]
    entry = legal(game)
    assert entry["entity"] == "GT" and {"merge", "pass"} <= set(entry["types"])


def test_a_president_may_pay_the_remaining_debt_instead_of_merging():
    game = six_train_bought()
    act(game, "GT", "merge", corporation="GT")
    assert legal(game)["entity"] == "TGB"
    act(game, "TGB", "pass")                    # P3 pays TGB's $100 less its $50
    tgb = corp(game, "TGB")
    assert player(game, 4310).cash == 50 - 50 and tgb.cash == 0 and not tgb.loans and not tgb.closed
    assert [c.id for c in game.state.nationalizables] == ["LPS", "WR"]


def test_a_president_who_cannot_pay_must_merge():
    game = six_train_bought()
    # GT owes $700 and has $91: P3 has only $50
    assert "cannot spend 609" in rejected(game, "GT", "pass")
    assert "GT's turn" in rejected(game, "GT", "merge", corporation="CV")         # only GT's own fate


def test_only_the_corporation_whose_turn_it_is_decides():
    game = six_train_bought()
    # P1's CV may not decide GT's fate (merge) nor make P3 pay TGB's debt (pass)
    assert "not CV's turn" in rejected(game, "CV", "merge", corporation="GT")
    assert "not CV's turn" in rejected(game, "CV", "pass")
    # nor may GT merge WR before GT, TGB and LPS have decided
    assert "GT's turn" in rejected(game, "GT", "merge", corporation="WR")


def test_the_cgr_takes_the_merged_corporations_cash_trains_and_rights_and_they_close():
    game = cgr_formed()
    cgr = corp(game, "CGR")
    merged = [corp(game, c) for c in ("GT", "TGB", "LPS", "WR")]
    assert all(c.closed and c not in game.state.corporations for c in merged)
    assert cgr.cash == 91 + 50 + 14 + 28 and not cgr.loans
    assert [t.id for t in cgr.trains] == ["4-3", "4-1", "5-1"]                # the 3-trains rusted
    assert game.state.national_ever_owned_permanent                          # WR's 5-train
    assert game.state.has_right(cgr, "bridge") and game.state.has_right(cgr, "tunnel")
    # WR's bridge right is a duplicate: it goes back to the bank pool at Buffalo
    assert game.state.board.has_icon("P19", "bridge")


def test_cgr_price_is_the_average_of_the_merged_prices_without_the_lowest():
    # GT, TGB and LPS were at $90, WR at $175: without one $90, (90 + 90 + 175) / 3 = 118, rounded
    # down to $115, which the top row meets at $110
    game = cgr_formed()
    price = corp(game, "CGR").share_price
    assert (price.price, price.row) == (110, 0)


def test_cgr_price_when_tgb_is_saved():
    # GT $90, LPS $90, WR $175 merge: without the lowest, (90 + 175) / 2 = 132, down to $130, to
    # the nearest top-row price in steps of $25: $125
    game = six_train_bought()
    act(game, "GT", "merge", corporation="GT")
    act(game, "TGB", "pass")
    act(game, "LPS", "merge", corporation="LPS")
    act(game, "WR", "merge", corporation="WR")
    cgr = corp(game, "CGR")
    assert cgr.share_price.price == 125 and cgr.cash == 91 + 14 + 28
    # P3 had 60% of GT, P4 70% (GT 10, LPS 60), P2 70% (WR 60, LPS 10): 3 CGR shares each
    assert {p.id: p.percent_of(cgr) for p in game.state.players} == {4310: 15, 4022: 15, 7202: 0, 4332: 15}


def test_shares_are_exchanged_two_for_one_and_the_cgr_becomes_a_20_share_company():
    game = cgr_formed()
    cgr, state = corp(game, "CGR"), game.state
    # P3: GT 60% + TGB 50% = 110% -> 5 shares; P4: GT 10 + LPS 60 + TGB 10 = 80% -> 4;
    # P2: WR 60 + TGB 20 + LPS 10 = 90% -> 4; the market: 90% held + the odd 10% of P3 and P2 -> 5.
    # That is 18 shares, more than 10: 20 shares of 5% (the president's certificate is 10%).
    assert cgr.total_shares == 20
    assert {p.id: p.percent_of(cgr) for p in state.players} == {4310: 25, 4022: 20, 7202: 0, 4332: 20}
    assert state.share_pool.percent_of(cgr) == 25 and cgr.percent_of(cgr) == 10
    assert cgr.owner.id == 4310 and cgr.presidents_share.percent == 10


def test_cgr_takes_over_the_stations_home_ones_first_one_per_city():
    game = cgr_formed()
    placed = [t.hex.id for t in corp(game, "CGR").tokens if t.used]
    # four homes, then the others; GT and TGB were both in Toronto: one CGR station there
    assert placed == ["P9", "K8", "C14", "O16", "N11", "I12"]
    spare = [t.price for t in corp(game, "CGR").tokens if not t.used]
    assert spare == [100] * 4                   # ten stations in all, more cost $100


def test_after_nationalization():
    game = cgr_formed()
    state = game.state
    assert state.post_nationalization and state.interest_rate() is None     # no more interest
    # the certificate limit comes from the post-nationalization table: 8 corporations, 4 players
    table = state.facts["post_nationalization_cert_limit"]
    assert state.num_corporations() == 8 and state.cert_limit() == table["8"]["4"]
    # the CGR may hold 3 trains; it has 3, so discarding one more is its choice
    assert state.train_limit(corp(game, "CGR")) == 3
    assert set(legal(game)["types"]) >= {"discard_train", "pass"}


@pytest.mark.parametrize("train", ["5-1", "2-0"])
def test_the_cgr_may_discard_only_trains_over_its_permanent_three(train):
    game = cgr_formed()
    rejected(game, "CGR", "discard_train", train=train)


def test_the_cgr_never_buys_trains_that_rust():
    game = cgr_formed()
    step = next(s for s in game.state.round.steps if type(s).__name__ == "BuyTrain1856")
    depot = [t for t in step.buyable_trains(corp(game, "CGR")) if t.from_depot()]
    assert depot and all(t.rusts_on is None for t in depot)
