"""Placing station tokens in an operating turn: price, reachable city with a free slot, one a turn."""

from .helpers import act, corp, legal, operator, play_until, position, rejected, scenario, to_operating_round
from .test_track import cpr_first


@scenario
def cpr_at_token_step():
    """CPR has laid a yellow city in N3 (water, $40): it may station its second token there."""
    game = cpr_first()
    act(game, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=1)
    assert corp(game, "CPR").cash == 160
    return game


def test_offered_cities_and_price():
    entry = legal(cpr_at_token_step())
    assert "place_token" in entry["types"] and "pass" in entry["types"]
    assert entry["token_price"] == 40
    assert [(c["hex"], c["price"]) for c in entry["cities"]] == [("N3", 40)]


def test_placing_a_token_pays_its_price_to_the_bank():
    game = cpr_at_token_step()
    bank = game.state.bank.cash
    act(game, "CPR", "place_token", city="57-0-0")
    cpr = corp(game, "CPR")
    assert [t.hex.id for t in cpr.tokens if t.used] == ["M4", "N3"]
    assert cpr.cash == 160 - 40 and game.state.bank.cash == bank + 40
    assert [t.price for t in cpr.tokens if not t.used] == [100, 100]      # the next ones cost $100


def test_token_rejections():
    game = cpr_at_token_step()
    assert "not reachable" in rejected(game, "CPR", "place_token", city="F15-0-0")     # London
    assert "no token slots" in rejected(game, "CPR", "place_token", city="M4-0-0")     # its own home
    assert "Unknown city" in rejected(game, "CPR", "place_token", city="57-0-7")
    assert "not WR's turn" in rejected(game, "WR", "place_token", city="57-0-0")


def test_one_token_per_turn():
    game = cpr_at_token_step()
    act(game, "CPR", "place_token", city="57-0-0")
    assert "place_token" not in legal(game)["types"]
    rejected(game, "CPR", "place_token", city="57-0-0")


def test_passing_the_token_step_keeps_the_money():
    game = cpr_at_token_step()
    act(game, "CPR", "pass")
    assert corp(game, "CPR").cash == 160 and "place_token" not in legal(game)["types"]


def test_a_token_is_not_paid_with_a_loan_the_corporation_has_not_taken():
    # TGB ($20) is offered the token step because it could borrow; the token costs $40
    game = position("51745", 369)
    entry = legal(game)
    assert corp(game, "TGB").cash == 20 and {"place_token", "take_loan"} <= set(entry["types"])
    assert "cannot afford" in rejected(game, "TGB", "place_token", city="122-0-1")
    act(game, "TGB", "take_loan", loan=17)
    act(game, "TGB", "place_token", city="122-0-1")                 # Toronto's second city
    tgb = corp(game, "TGB")
    assert tgb.cash == 20 + 100 - 40
    assert game.state.board.city_by_id("122-0-1").tokened_by(tgb)


@scenario
def cv_loop_around_toronto():
    """CV (home: Toronto's city 0, exit toward M12) builds a loop in four operating rounds, M12 -
    M10 - N9 - O10, that comes back into Toronto's other city (exit toward O10)."""
    game = to_operating_round([(3, "CV", "100,0,4")])
    for hex_id, tile, rotation in [("M12", "7-0", 3), ("M10", "1-0", 0), ("N9", "58-0", 5), ("O10", "7-1", 1)]:
        play_until(game, lambda g: "lay_tile" in legal(g)["types"] and operator(g).id == "CV")
        act(game, "CV", "lay_tile", hex=hex_id, tile=tile, rotation=rotation)
    play_until(game, lambda g: "lay_tile" in legal(g)["types"] and operator(g).id == "CV")
    return game


def test_no_second_token_in_a_hex_the_corporation_already_holds():
    game = cv_loop_around_toronto()
    cv, board = corp(game, "CV"), game.state.board
    other_city = board.hex_by_id("N11").tile.cities[1]
    assert cv.cash >= 40 and [t.price for t in cv.tokens if not t.used] == [40, 100]
    act(game, "CV", "pass")                                 # no more track
    assert other_city in board.connected_nodes(cv)          # reachable through the loop...
    assert other_city not in board.tokenable_cities(cv)     # ...but CV already has Toronto's city 0
    assert "place_token" not in legal(game)["types"]
    rejected(game, "CV", "place_token", city=other_city.id)


def test_an_unstarted_corporations_home_slot_is_kept_for_it():
    game = position("51745", 210)         # LPS reaches Glencoe (D17), CA's home; CA has not started yet
    act(game, "LPS", "pass")              # no track
    lps, board = corp(game, "LPS"), game.state.board
    glencoe = board.hex_by_id("D17").tile.cities[0]
    assert glencoe.slots == 1 and glencoe.tokens == [None] and glencoe.reserved_by(corp(game, "CA"))
    assert glencoe in board.connected_nodes(lps) and lps.cash >= 40
    assert "place_token" not in legal(game)["types"]       # nowhere else to go: the token step is skipped
    rejected(game, "LPS", "place_token", city=glencoe.id)
