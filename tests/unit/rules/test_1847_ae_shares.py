"""1847 AE shares: fixed par prices and the order corporations may start in, investor shares counted for
the float, double certificates leaving the IPO in order and swapped at presidency changes, exchanging
investor companies (by choice, and by force after the 5+5 train), nationalization, and LFK (sold and
bought like a share, never rising for being sold out)."""

from engine.core.pool import presidency_swap_shares

from .helpers import act, corp, draft_1847, legal, play_recorded, player, position, rejected

GAME = "1847_ae/1847AE_game_end_bank"
P1, P2, P3, P4 = 20223, 16664, 2292, 12266      # the recorded game's players


def turn_of(game, pid):
    """The others pass until ``pid`` acts (same stock round)."""
    while game.acting_players()[0] != pid:
        act(game, game.acting_players()[0], "pass")
    return game


def test_investor_shares_count_as_sold_for_the_float():
    game = draft_1847()
    saar = corp(game, "Saar")
    assert not saar.floated() and saar.percent_to_float() == 10   # 20% sold + 20% reserved of 50%
    turn_of(game, 3)
    act(game, 3, "buy_shares", shares=["Saar_3"], percent=10)
    assert saar.floated() and saar.cash == 168 + 168 + 84
    assert [t.hex.id for t in saar.tokens if t.hex] == ["H6"]


def test_reserved_shares_cannot_be_bought():
    game = turn_of(draft_1847(), 3)
    assert "Cannot buy" in rejected(game, 3, "buy_shares", shares=["Saar_1"], percent=10)


def test_hlb_waits_for_saar_and_the_last_corporations_for_hlb():
    game = position(GAME, 73)               # Player 2 is about to par HLB (Saar has floated)
    assert "HLB" in [p["corporation"] for p in legal(game)["par"]]
    assert "cannot be parred" in rejected(game, P2, "par", corporation="NDB", share_price="74,5,1")
    game = turn_of(draft_1847(), 3)         # Saar has not floated yet
    assert "par" not in legal(game)["types"]
    assert "not par" in rejected(game, 3, "par", corporation="HLB", share_price="80,4,1")


def test_a_corporation_pars_only_at_its_own_price():
    game = position(GAME, 73)
    assert legal(game)["par"] == [{"corporation": "HLB", "share_prices": ["80,4,1"]}]
    assert "must par at 80M" in rejected(game, P2, "par", corporation="HLB", share_price="84,3,1")
    act(game, P2, "par", corporation="HLB", share_price="80,4,1")
    assert corp(game, "HLB").share_price.id == "80,4,1"


def test_double_certificates_leave_the_ipo_second_and_last():
    game = position(GAME, 235)              # RNB was just parred; Player 2 buys next
    offered = [b["share"] for b in legal(game)["buy_shares"] if b["share"].startswith("RNB")]
    assert offered == ["RNB_2"]             # after the president's certificate, the double one
    assert "Cannot buy" in rejected(game, P2, "buy_shares", shares=["RNB_1"], percent=10)
    certificates = game.state.num_certs(player(game, P2))
    act(game, P2, "buy_shares", shares=["RNB_2"], percent=20)
    holding = player(game, P2).shares_of(corp(game, "RNB"))
    assert [s.percent for s in holding] == [20] and game.state.num_certs(player(game, P2)) == certificates + 1


def test_a_new_president_hands_over_two_shares_or_a_double_certificate():
    game = draft_1847()
    rnb = corp(game, "RNB")
    single, double = rnb.shares_of(rnb)[1], rnb.shares_of(rnb)[2]
    assert presidency_swap_shares([single, double], 2) == [double]
    assert presidency_swap_shares([double, single, rnb.shares_of(rnb)[3]], 2) == [single, rnb.shares_of(rnb)[3]]


def test_investor_companies_are_exchanged_for_their_reserved_share_once_the_corporation_floats():
    game = position(GAME, 178)              # SR 6, phase 4: Player 2 may exchange SCR for a Saar share
    scr = [e for e in game.legal_actions() if e["entity"] == "SCR"]
    assert scr and [b["share"] for b in scr[0]["buy_shares"]] == ["Saar_1", "Saar_2"]
    assert "Cannot exchange" in rejected(game, "SCR", "buy_shares", "company", shares=["Saar_4"], percent=10)
    play_recorded(game, GAME, 178)
    assert player(game, P2).shares_of(corp(game, "Saar"))[-1].id == "Saar_1"
    assert game.state.company_by_id("SCR").closed and corp(game, "Saar").reserved_shares()[0].id == "Saar_2"


def test_no_exchange_before_the_corporation_floats_nor_before_phase_3_plus_3():
    game = turn_of(draft_1847(), 3)         # phase 3; P3 holds VIW, Saar has not floated
    assert not [e for e in game.legal_actions() if e["entity"] in ("SCR", "VIW", "MNR")]
    assert "phases 3+3 to 5" in rejected(game, "VIW", "buy_shares", "company", shares=["Saar_2"], percent=10)
    assert "only for a share of Saar" in rejected(game, "VIW", "buy_shares", "company", shares=["HLB_1"],
                                                  percent=10)
    state = game.state
    state.phase.index = 1                   # as if in phase 3+3: Saar must still float first
    assert "once Saar has floated" in state.exchange_problem(state.company_by_id("VIW"), corp(game, "Saar"))


def test_remaining_investor_companies_are_exchanged_in_the_stock_round_after_the_5_plus_5():
    game = position(GAME, 328)              # SR 8 has just begun after the 5+5 train was bought
    assert game.state.company_by_id("VIW").closed
    assert "Saar_2" in [s.id for s in player(game, P4).shares]
    assert not game.state.must_exchange_investor_companies
    assert not corp(game, "Saar").reserved_shares()


def test_a_player_with_70_percent_buys_another_players_share_at_150_percent():
    game = position(GAME, 337)              # Player 2 holds 70% of HLB
    hlb = corp(game, "HLB")
    seller, buyer = player(game, P3), player(game, P2)
    offered = [b for b in legal(game)["buy_shares"] if b["from"] == P3]
    assert {"share": "HLB_6", "from": P3, "price": 126} in offered
    before = (seller.cash, buyer.cash, buyer.percent_of(hlb))
    act(game, P2, "buy_shares", shares=["HLB_6"], percent=10)
    assert (seller.cash, buyer.cash) == (before[0] + 126, before[1] - 126)
    assert buyer.percent_of(hlb) == before[2] + 10 and seller.percent_of(hlb) == 0
    assert any(line.startswith("-- Nationalization: Player 2 buys a 10% share of HLB from Player 3 for 126M")
               for line in game.state.log[-3:])


def test_nationalization_needs_70_percent():
    game = position(GAME, 339)              # Player 3 holds 30% of RNB and 10% of Saar
    assert "needs 70%" in rejected(game, P3, "buy_shares", shares=["RNB_0"], percent=20)
    assert "needs 70%" in rejected(game, P3, "buy_shares", shares=["Saar_5"], percent=10)


def test_lfk_is_sold_to_the_market_and_bought_back_from_it():
    game = position(GAME, 102)              # SR 5: Player 4 owns LFK (155M)
    lfk = corp(game, "LFK")
    cash = player(game, P4).cash
    act(game, P4, "sell_shares", shares=["LFK_0"], percent=100)
    assert lfk.owner is game.state.share_pool and lfk.share_price.price == 140
    assert player(game, P4).cash == cash + 155
    game = position(GAME, 162)              # SR 6: Player 3 buys it from the market
    cash = player(game, P3).cash
    act(game, P3, "buy_shares", shares=["LFK_0"], percent=100)
    assert corp(game, "LFK").owner is player(game, P3) and player(game, P3).cash == cash - 112


def test_lfk_never_rises_for_being_sold_out():
    game = draft_1847()
    lfk = corp(game, "LFK")
    while game.round_kind == "stock_round":
        act(game, game.acting_players()[0], "pass")
    assert lfk.share_price.price == 100     # sold out (P1 holds it all) but unmoved


def test_holdings_with_double_certificates_sell_in_any_mix():
    game = position(GAME, 500)              # Player 2 holds RNB_2 (a double certificate) and RNB_5
    state = game.state
    rnb, p2 = corp(game, "RNB"), player(game, P2)
    assert sorted(s.id for s in p2.shares_of(rnb)) == ["RNB_2", "RNB_5"]
    bundles = state.bundles_for_corporation(p2, rnb)
    assert [(sorted(s.id for s in b.shares), b.percent) for b in bundles] == \
        [(["RNB_5"], 10), (["RNB_2"], 20), (["RNB_2", "RNB_5"], 30)]
    # a president offers his certificate only in bundles that let someone else take over
    p1 = player(game, P1)
    for bundle in state.bundles_for_corporation(p1, rnb):
        assert bundle.presidents_share is None or bundle.percent >= 20


def test_the_market_offers_a_single_and_a_double_share_of_one_corporation():
    """A game played on 18xx.games: the market holds NDB's double and single certificates; both are
    offered (the player bought the single one)."""
    game = position("1847_ae/rand_1847ae_41_4p", 272)
    state = game.state
    offered = {(state.share_by_id(b["share"]).percent, b["from"]) for b in legal(game, 1)["buy_shares"]
               if b["share"].startswith("NDB_")}
    assert offered == {(20, "ipo"), (20, "market"), (10, "market")}
    play_recorded(game, "1847_ae/rand_1847ae_41_4p", 272)
    assert state.share_by_id("NDB_1").owner is player(game, 1)
