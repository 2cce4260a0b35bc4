"""Private companies in the operating rounds: revenue, sale to corporations, and their powers
(GLSC port, bridge and tunnel rights, WSRC tile and token, TCC extra tile)."""

import copy

import pytest

from .helpers import act, company, corp, legal, play_recorded, play_until, player, position, rejected

REVENUE = {"FT": 5, "WSRC": 10, "TCC": 10, "GLSC": 15, "NFSBC": 20, "SCFTC": 20}


def test_private_revenue_is_paid_to_the_owners_as_each_operating_round_starts():
    game = position("51745", 22)           # the last action of SR 1: P3 buys a $70 GT share
    owners = {c.id: c.owner.id for c in game.state.companies}
    cash = {p.id: p.cash for p in game.state.players}
    play_recorded(game, "51745", 22)
    assert game.round_label == "OR 1.1"
    earned = {pid: sum(REVENUE[c] for c, owner in owners.items() if owner == pid) for pid in cash}
    assert {p.id: p.cash - cash[p.id] for p in game.state.players} == {
        pid: earned[pid] - (70 if pid == 4310 else 0) for pid in cash}


def test_privates_owned_by_corporations_pay_the_corporation():
    game = position("51745", 162)          # SR 4: WR owns FT and WSRC, GT the bridge, LPS the tunnel
    holders = {c.id: c.owner.id for c in game.state.companies if not c.closed}
    assert holders == {"FT": "WR", "WSRC": "WR", "TCC": 7202, "NFSBC": "GT", "SCFTC": "LPS"}
    before = {cid: corp(game, cid).cash for cid in ("WR", "GT", "LPS")}
    for pid in (7202, 4332, 4310, 4022):   # everybody passes: OR 4.1 begins
        act(game, pid, "pass")
    assert game.round_label == "OR 4.1"
    assert {cid: corp(game, cid).cash - cash for cid, cash in before.items()} == {"WR": 15, "GT": 20, "LPS": 20}


def test_no_private_is_sold_to_a_corporation_in_phase_2():
    game = position("51745", 51)
    assert game.state.phase.name == "2" and "buy_company" not in legal(game)["types"]
    rejected(game, "WR", "buy_company", company="FT", price=20)


@pytest.mark.parametrize("price", [34, 141, 0])
def test_a_private_sells_for_half_to_double_its_face_value(price):
    game = position("51745", 70)           # phase 3: LPS buys its president's GLSC ($70)
    assert "between $35 and $140" in rejected(game, "LPS", "buy_company", company="GLSC", price=price)


def test_buying_a_private_from_a_player():
    game = position("51745", 70)
    lps_cash, seller = corp(game, "LPS").cash, player(game, 4022).cash
    act(game, "LPS", "buy_company", company="GLSC", price=130)
    glsc, lps = company(game, "GLSC"), corp(game, "LPS")
    assert glsc.owner is lps and glsc in lps.companies and glsc not in player(game, 4022).companies
    assert lps.cash == lps_cash - 130 and player(game, 4022).cash == seller + 130
    assert lps.assigned("GLSC")            # the port marker will be LPS's


# ------------------------------------------------------------------ GLSC: the port

def test_the_port_goes_on_a_port_hex_and_adds_20_to_its_corporations_runs_there():
    game = position("51745", 112)          # LPS owns GLSC; Maudaumin (C14), its home, has a port
    assert "C14" in legal(game, "GLSC")["assign_hexes"] and "F15" not in legal(game, "GLSC")["assign_hexes"]
    assert "cannot be assigned to F15" in rejected(game, "GLSC", "assign", "company", target="F15",
                                                    target_type="hex")
    without = copy.deepcopy(game)
    play_recorded(game, "51745", 112)
    assert company(game, "GLSC").closed and game.state.board.hex_by_id("C14").assigned("GLSC")
    for each in (game, without):
        act(each, "LPS", "pass")           # no track: on to the run
    with_port = {r["train"]: r["revenue"] for r in game.best_routes("LPS")}
    plain = {r["train"]: r["revenue"] for r in without.best_routes("LPS")}
    assert set(with_port) == set(plain) == {"2-3", "2-4"}
    assert all(with_port[t] == plain[t] + 20 for t in plain)     # both runs stop at C14


def test_the_port_is_placed_only_in_its_owners_operating_turn():
    game = position("51745", 72, start=70)         # LPS owns GLSC, but GT is operating
    assert "not Great Lakes Shipping Company's turn" in rejected(game, "GLSC", "assign", "company", target="C14",
                                                                  target_type="hex")


def test_the_first_6_train_removes_the_port():
    game = position("51745", 459, start=455)
    assert game.state.board.hex_by_id("C14").assigned("GLSC")
    play_recorded(game, "51745", 459)      # CPR buys the first 6-train
    assert not game.state.board.hex_by_id("C14").assignments and not corp(game, "LPS").assignments


# ------------------------------------------------------------------ bridge and tunnel rights

def test_a_bridge_token_costs_50_paid_to_the_corporation_owning_the_bridge_company():
    game = position("51745", 193, start=192)        # GT owns NFSBC; WR may buy a bridge token
    items = [i["description"] for i in legal(game)["special_buy"]]
    assert items == ["Tunnel Token", "Bridge Token"]
    without = copy.deepcopy(game)
    wr, gt = corp(game, "WR").cash, corp(game, "GT").cash
    act(game, "WR", "special_buy", description="Bridge Token", cost=50)
    assert corp(game, "WR").cash == wr - 50 and corp(game, "GT").cash == gt + 50
    assert game.state.has_right(corp(game, "WR"), "bridge")
    assert "cannot buy a bridge token" in rejected(game, "WR", "special_buy", description="Bridge Token", cost=50)
    assert "unknown item" in rejected(game, "WR", "special_buy", description="Ferry Token", cost=50)
    # the bridge adds $10 to a run to Buffalo
    for each in (game, without):
        play_until(each, lambda g: "run_routes" in legal(g)["types"])
    route = [{"train": "2-0", "connections": [["O16", "P17"]]}]
    act(game, "WR", "run_routes", routes=route)
    act(without, "WR", "run_routes", routes=route)
    assert legal(game)["revenue"] == legal(without)["revenue"] + 10


def test_rights_are_not_for_sale_while_a_player_owns_the_private():
    game = position("51745", 133)          # NFSBC and SCFTC still belong to players
    assert "special_buy" not in legal(game)["types"]
    rejected(game, "WR", "special_buy", description="Bridge Token", cost=50)


def test_once_the_private_has_closed_rights_are_bought_from_the_bank():
    game = position("51745", 470, start=455)      # phase 6: CA may buy a tunnel token
    bank, cash = game.state.bank.cash, corp(game, "CA").cash
    act(game, "CA", "special_buy", description="Tunnel Token", cost=50)
    assert corp(game, "CA").cash == cash - 50 and game.state.bank.cash == bank + 50
    assert game.state.has_right(corp(game, "CA"), "tunnel")


def test_rights_bought_with_the_private_outlast_it():
    game = position("51745", 360)
    play_recorded(game, "51745", 360)      # the first 5-train closes every private
    assert company(game, "NFSBC").closed and company(game, "SCFTC").closed
    assert game.state.has_right(corp(game, "GT"), "bridge") and game.state.has_right(corp(game, "LPS"), "tunnel")


# ------------------------------------------------------------------ WSRC and TCC

def test_wsrc_lays_kitcheners_green_tile_as_its_corporations_tile_lay():
    game = position("51745", 192)          # WR owns WSRC; phase 3
    assert legal(game, "WSRC")["types"] == ["lay_tile"]
    act(game, "WSRC", "lay_tile", "company", hex="I12", tile="59-1", rotation=0)
    assert game.state.board.hex_by_id("I12").tile.id == "59-1" and corp(game, "WR").cash == 135
    assert "No more tile lays" in rejected(game, "WR", "lay_tile", hex="N17", tile="59-0", rotation=2)
    assert game.state.round.wsrc_activated and not company(game, "WSRC").closed


def test_wsrc_places_a_free_token_in_kitchener_and_closes_at_the_end_of_the_round():
    game = position("51745", 296)
    wr = corp(game, "WR").cash
    assert "Cannot place token on N17" in rejected(game, "WSRC", "place_token", "company", city="59-1-0")
    act(game, "WSRC", "place_token", "company", city="I12-0-1")
    assert corp(game, "WR").cash == wr
    assert [t.hex.id for t in corp(game, "WR").tokens if t.used] == ["O16", "I12"]
    round_label = game.round_label
    play_until(game, lambda g: g.round_label != round_label)
    assert company(game, "WSRC").closed


def test_the_wsrc_token_comes_before_the_run():
    game = position("51745", 298, start=296)        # WR has run: too late for WSRC's token this turn
    assert "not Waterloo & Saugeen Railway Co.'s turn" in rejected(game, "WSRC", "place_token", "company",
                                                                    city="I12-0-1")


def test_a_private_owned_by_a_player_has_no_operating_powers():
    game = position("51745", 51)           # WSRC belongs to P2
    rejected(game, "WSRC", "lay_tile", "company", hex="I12", tile="59-1", rotation=0)


def test_tcc_lays_an_extra_free_tile_in_h11():
    game = position("89363", 149)          # WR owns TCC
    cash = corp(game, "WR").cash
    act(game, "TCC", "lay_tile", "company", hex="H11", tile="58-0", rotation=1)
    assert game.state.board.hex_by_id("H11").tile.id == "58-0" and corp(game, "WR").cash == cash
    assert not company(game, "TCC").closed
    assert "lay_tile" in legal(game, "WR")["types"]          # WR's own lay is still to come
    rejected(game, "TCC", "lay_tile", "company", hex="H11", tile="4-0", rotation=1)
