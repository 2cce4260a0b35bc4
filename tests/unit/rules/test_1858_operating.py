"""1858 operating rounds: private railways laying track, tile costs, tokens priced by provincial
borders, H trains counting hex edges, metre gauge trains, wounded trains, dividends with remainders,
private revenue in a company's first run, issuing shares, scrapping and trainless companies."""

import pytest

from .helpers import act, corp, lays, legal, position, rejected, scenario

GAME = "1858/1858_game_end_bank"


def named(game, name):
    return next(p for p in game.state.players if p.name == name)


def routes_of(index):
    from .helpers import recorded_action
    return recorded_action(GAME, index)["routes"]


# ---------------------------------------------------------------------- private railways' track
def test_a_private_railway_lays_yellow_track_paid_by_its_owner():
    game = position(GAME, 189)            # OR 2.1: the Madrid and Zaragoza lays its first tile
    owner = named(game, "Player 4")
    cash = owner.cash
    act(game, "M&Z", "lay_tile", "minor", hex="K12", tile="9-3", rotation=2)
    entry = legal(game, "M&Z")
    assert set(entry["types"]) == {"lay_tile", "pass"}
    assert all(t["cost"] >= 20 for t in lays(game, "M&Z"))          # the second lay costs 20
    assert owner.cash == cash                                     # plain track, no terrain
    assert all(game.state.board.tile_by_id(t["tile"]).color == "yellow" for t in lays(game, "M&Z"))


def test_a_private_railway_cannot_upgrade():
    game = position(GAME, 189)
    act(game, "M&Z", "lay_tile", "minor", hex="K12", tile="9-3", rotation=2)
    assert "Cannot lay an upgrade now" in rejected(game, "M&Z", "lay_tile", "minor", hex="K12", tile="82-0",
                                                   rotation=2)


def test_no_metre_gauge_track_in_phase_2():
    game = position(GAME, 189)
    assert game.state.phase.name == "2"
    assert "Metre gauge" in rejected(game, "M&Z", "lay_tile", "minor", hex="K12", tile="X6-0", rotation=2)
    offered = lays(game, "M&Z")
    assert not any(p.track == "narrow" for t in offered for p in game.state.board.tile_by_id(t["tile"]).tdef.paths)


def test_a_private_railway_that_cannot_lay_more_passes_by_itself():
    game = position(GAME, 186)            # the Madrid and Aranjuez lays its only possible tile
    stored = act(game, "M&A", "lay_tile", "minor", hex="K14", tile="7-0", rotation=4)
    assert stored["auto_actions"] == [{"type": "pass", "entity": "M&A", "entity_type": "minor"}]
    assert game.acting_players() == [named(game, "Player 4").id]  # the Valencia and Jativa's owner


# ---------------------------------------------------------------------- tokens
def test_a_token_costs_forty_per_border_crossed():
    game = position(GAME, 240)            # A may station a token in Valladolid's neighbour
    entry = legal(game, "A")
    prices = {c["city"]: c["price"] for c in entry["cities"]}
    assert prices["14-0-0"] == 40
    cash = corp(game, "A").cash
    act(game, "A", "place_token", city="14-0-0")
    assert corp(game, "A").cash == cash - 40


# ---------------------------------------------------------------------- routes
@scenario
def a_runs_wounded_trains():
    return position(GAME, 379)


def test_wounded_trains_earn_half():
    game = a_runs_wounded_trains()
    a = corp(game, "A")
    routes = game.state.board.build_routes(a, routes_of(379), game.state.phase)
    assert all(r.train.obsolete for r in routes)
    assert [r.revenue for r in routes] == [20, 45]


def test_h_trains_count_hex_edges():
    game = position(GAME, 387)
    rp = corp(game, "RP")
    routes = game.state.board.build_routes(rp, routes_of(387), game.state.phase)
    assert [(r.train.name, r.revenue) for r in routes] == [("4H", 130), ("2H", 25)]   # 5 stops, 4 edges
    too_long = [{"train": "2H-3", "connections": [["B9", "B11"], ["B11", "B13"], ["B13", "A14"]]}]
    with pytest.raises(Exception, match="too many hex edges"):
        game.state.board.build_routes(rp, too_long, game.state.phase)


def test_metre_gauge_trains_keep_off_broad_track():
    game = position(GAME, 339)
    n = corp(game, "N")
    metre = next(t for t in n.trains if t.id == "4H-2")
    assert metre.name == "2M" and metre.track_type == "narrow"
    broad = [["K2", "J3"], ["J3", "I4"], ["I4", "I2"], ["I2", "J1"]]       # the 4H's route this turn
    assert game.state.board.build_routes(n, [{"train": "4H-0", "connections": broad}], game.state.phase)
    with pytest.raises(Exception, match="broad gauge"):
        game.state.board.build_routes(n, [{"train": "4H-2", "connections": broad}], game.state.phase)


def test_best_routes_run_wounded_trains_at_half():
    game = a_runs_wounded_trains()
    best = game.best_routes("A")
    assert sum(r["revenue"] for r in best) >= 65


# ---------------------------------------------------------------------- dividends and privates
@scenario
def a_first_run():
    """A runs no train in its first turn but earns the Madrid and Valladolid's 24."""
    return position(GAME, 200)


def test_a_private_s_revenue_is_the_company_s_first_run():
    game = a_first_run()
    options = legal(game, "A")["dividend_options"]
    assert options["payout"] == {"to_corporation": 4, "per_share": 4}      # 24 = 5 x 4 + 4 left over
    assert options["half"] == {"to_corporation": 14, "per_share": 2}
    assert options["withhold"] == {"to_corporation": 24, "per_share": 0}


def test_the_private_closes_after_the_first_dividend_paying_its_face_value():
    game = a_first_run()
    a = corp(game, "A")
    cash, price = a.cash, a.share_price.price
    act(game, "A", "dividend", kind="payout")
    assert a.cash == cash + 4 + 3 * 4 + 120          # remainder, its three treasury shares, M&V's value
    assert game.state.company_by_id("M&V").closed and not a.companies
    assert a.share_price.price == price              # 4 per share is less than a tenth of 120


def test_withholding_moves_the_price_left():
    game = a_first_run()
    price = corp(game, "A").share_price.price
    assert "Dividend must be one of" in rejected(game, "A", "dividend", kind="double")
    act(game, "A", "dividend", kind="withhold")
    assert corp(game, "A").share_price.price < price


def test_a_company_ending_its_turn_without_a_train_loses_a_step():
    game = position(GAME, 201)            # A, after its first dividend, at the train step
    price = corp(game, "A").share_price
    act(game, "A", "pass")
    a = corp(game, "A")
    assert not a.trains and a.share_price.price < price.price


# ---------------------------------------------------------------------- trains and shares
def test_scrapping_a_wounded_train():
    game = position(GAME, 381)
    entry = legal(game, "A")
    assert entry["scrap_train"] == ["2H-0", "2H-1"]
    act(game, "A", "scrap_train", train="2H-0")
    assert [t.id for t in corp(game, "A").trains] == ["2H-1"]
    assert "wounded" in rejected(game, "A", "scrap_train", train="6H-2")


def test_issuing_shares_after_the_train_step():
    game = position(GAME, 390)            # RP passed its train step
    entry = legal(game, "RP")
    assert set(entry["types"]) == {"sell_shares", "pass"}
    issues = {tuple(x["shares"]): x["price"] for x in entry["sell_shares"]}
    assert issues[("RP_2", "RP_3")] == 300
    act(game, "RP", "sell_shares", shares=["RP_2", "RP_3"], percent=40)
    rp = corp(game, "RP")
    assert rp.cash == 400 and rp.share_price.price == 135
    assert game.state.share_pool.percent_of(rp) == 40


def test_issue_rejections():
    game = position(GAME, 390)
    assert "cannot issue" in rejected(game, "RP", "sell_shares", shares=["RP_0"], percent=40)


def test_no_issue_in_a_company_s_first_operating_turn():
    game = position(GAME, 204)            # A's first turn: it buys its second train
    act(game, "A", "buy_train", train="2H-1", price=100, variant="2H")
    assert game.state.round.current_operator.id == "RP"          # the issue step had nothing for A
