"""1847 AE set-up and turn 0: par markers, L's home token and investor shares at set-up; draft rounds
(face value, first pass in reverse order, players who cannot afford anything pass by themselves);
short operating rounds between draft rounds; turn 1 once every company is drafted."""

from .helpers import DRAFT_1847, act, company, corp, draft_1847, legal, new_1847, player, rejected


def test_set_up_places_par_markers_home_token_and_reserves_investor_shares():
    game = new_1847()
    state = game.state
    assert game.round_label == "DR 0.1" and game.round_kind == "auction"
    for cid, price, cell in (("L", 86, "86,2,1"), ("Saar", 84, "84,3,1"), ("LFK", 100, "100,2,3")):
        assert corp(game, cid).share_price.id == cell and corp(game, cid).par_price.price == price
    assert corp(game, "HLB").share_price is None and corp(game, "HLB").par_price.price == 80
    assert corp(game, "L").ipoed and [t.hex.id for t in corp(game, "L").tokens if t.hex] == ["F18"]
    reserved = {c.id: [s.index for s in c.reserved_shares()] for c in state.corporations if c.reserved_shares()}
    assert reserved == {"Saar": [1, 2], "HLB": [1]}
    # the investor shares are paid for at par from the bank
    assert corp(game, "Saar").cash == 168 and corp(game, "HLB").cash == 80
    assert state.bank.cash == 8000 - 4 * 390 - 168 - 80
    # double certificates: the last of Saar, HLB and M; the second and last of NDB, N and RNB
    doubles = {c.id: [s.index for s in c.shares_of(c) if s.double_cert] for c in state.corporations}
    assert doubles["Saar"] == [7] and doubles["NDB"] == [2, 6] and doubles["L"] == []


def test_first_draft_pass_runs_in_reverse_seat_order_then_snakes_back():
    game = new_1847()
    assert game.acting_players() == [4]
    entry = legal(game)
    assert entry["types"] == ["bid", "pass"]
    assert {c["company"]: c["min_bid"] for c in entry["companies"]}["PLP"] == 172
    order = []
    for pid, cid in DRAFT_1847[:6]:
        order.append(game.acting_players()[0])
        act(game, pid, "bid", company=cid, price=company(game, cid).value)
    assert order == [4, 3, 2, 1, 1, 2]


def test_companies_bring_certificates_and_their_par_value_to_the_treasury():
    game = new_1847()
    act(game, 4, "bid", company="PLP", price=172)
    # two L shares come with PLP: P4 holds 20% and swaps them for the president's certificate
    assert corp(game, "L").owner is player(game, 4)
    assert [s.id for s in player(game, 4).shares] == ["L_0"] and company(game, "PLP").closed
    assert corp(game, "L").cash == 172 and player(game, 4).cash == 218
    act(game, 3, "bid", company="K", price=110)
    assert [s.id for s in player(game, 3).shares] == ["L_1"] and corp(game, "L").cash == 258
    act(game, 2, "bid", company="SPR", price=190)
    saar = corp(game, "Saar")
    assert saar.owner is player(game, 2) and saar.ipoed and saar.cash == 168 + 168
    act(game, 1, "bid", company="LFKC", price=130)
    lfk = corp(game, "LFK")
    assert lfk.owner is player(game, 1) and lfk.floated() and lfk.cash == 0
    assert player(game, 1).shares[0].price == 100      # a single 100% certificate worth its price
    assert company(game, "LFKC").closed


def test_draft_refuses_wrong_prices_taken_companies_and_players_out_of_turn():
    game = new_1847()
    assert "costs" in rejected(game, 4, "bid", company="PLP", price=150)
    assert "turn" in rejected(game, 3, "bid", company="K", price=110)
    act(game, 4, "bid", company="PLP", price=172)
    assert "not available" in rejected(game, 3, "bid", company="PLP", price=172)


def test_a_player_who_cannot_afford_a_company_passes_and_the_draft_ends_when_all_are_taken():
    game = draft_1847()
    assert "P1 cannot afford any company and passes" in game.state.log
    assert all(c.owner is not None or c.closed for c in game.state.companies)
    assert game.round_label == "SR 1" and game.state.turn == 1
    # L floated in the draft (PLP's two shares and three companies' shares: 50%) with 5 x 86M
    l_corp = corp(game, "L")
    assert l_corp.floated() and l_corp.cash == 430 and l_corp.owner is player(game, 4)


def test_when_everybody_passes_a_short_operating_round_comes_before_the_next_draft_round():
    game = new_1847()
    act(game, 4, "bid", company="PLP", price=172)
    act(game, 3, "bid", company="K", price=110)
    act(game, 2, "bid", company="H", price=160)
    act(game, 1, "bid", company="W", price=135)        # L floats: 50% sold
    assert corp(game, "L").floated()
    for pid in (1, 2, 3, 4):
        act(game, pid, "pass")
    assert game.round_label == "OR 0.1"
    # company revenues are paid and L operates: as a corporation that has just floated it may lay and
    # upgrade, then lay a second tile
    assert player(game, 2).cash == 390 - 160 + 15
    assert [t["lay"] for t in game.state.tile_lays(corp(game, "L"))] == [True, True]
    while game.round_kind == "operating_round":
        act(game, "L", "pass")
    assert game.round_label == "DR 0.2" and game.acting_players()[0] == game.state.players[0].id


def test_passing_in_the_draft_is_refused_when_it_is_not_the_players_turn():
    game = new_1847()
    assert "turn" in rejected(game, 1, "pass")
