"""1858 India: mine/oil/port tokens collected and earning their bonus, Pullmans, locomotive works with
their discount, gauge conversions, metre gauge discounts."""

import engine

from .helpers import act, corp, legal, position, rejected, scenario

GAME = "1858_india/hotseat_qs_b"
PLAYERS5 = [{"id": i, "name": f"Player {i + 1}"} for i in range(5)]


@scenario
def gip_may_collect():
    """OR 2.1: GIP has laid metre gauge track into I16, a mine hex."""
    return position(GAME, 141)


def test_metre_gauge_track_is_discounted():
    game = position(GAME, 140)
    cash = corp(game, "GIP").cash
    act(game, "GIP", "lay_tile", hex="I16", tile="78-2", rotation=0)
    # 40 terrain halved for metre gauge, 20 for the second lay less 10 (it too adds only metre gauge)
    assert corp(game, "GIP").cash == cash - 30


def test_a_mine_token_reached_may_be_collected():
    game = gip_may_collect()
    entry = legal(game, "GIP")
    assert set(entry["types"]) == {"remove_hex_token", "pass"}
    assert {"hex": "I16", "kind": "mine", "price": 50} in entry["hexes"]
    assert "no token to collect" in rejected(game, "GIP", "remove_hex_token", hex="J15")
    assert "cannot collect" in rejected(game, "GIP", "remove_hex_token", hex="G4")   # not reached
    stored = act(game, "GIP", "remove_hex_token", hex="I16")
    gip = corp(game, "GIP")
    assert gip.cash == 40 and any(t.hex is not None and t.hex.id == "I16" and t.corporation.id == "mine"
                                  for t in gip.tokens)
    assert not game.state.board.hex_by_id("I16").tokens
    assert stored["auto_actions"] == [{"type": "pass", "entity": "GIP", "entity_type": "corporation"}]


def test_held_mine_tokens_earn_their_bonus_in_each_run():
    game = position(GAME, 182)            # GIP holds the I16 mine token and runs
    from .helpers import recorded_action
    move = recorded_action(GAME, 182)
    move.pop("extra_revenue")             # live: the engine works the bonus out itself
    stored = act(game, "GIP", "run_routes", routes=move["routes"])
    assert stored["extra_revenue"] == 30
    assert game.state.round.extra_revenue == 30


def test_a_pullman_may_be_bought_at_the_train_limit():
    game = position(GAME, 281)
    msm = corp(game, "MSM")
    assert game.state.num_corp_trains(msm) == game.state.train_limit(msm)
    trains = {t["train"] for t in legal(game, "MSM")["trains"]}
    assert trains == {"Pullman-0"}                                  # only the Pullman: no room otherwise
    act(game, "MSM", "buy_train", train="Pullman-0", price=100, variant="Pullman")
    assert game.state.owns_pullman(msm) and not game.state.trainless(msm)
    assert "Pullman-1" not in {t["train"] for t in legal(game, "MSM").get("trains", [])}


def test_the_pullman_rides_with_a_chosen_broad_gauge_train():
    game = position(GAME, 352)
    entry = legal(game, "MSM")
    assert "choose" in entry["types"] and entry["choices"] == ["2H-3"]   # the M trains cannot take it
    assert "cannot attach" in rejected(game, "MSM", "choose", choice="4H-2")
    act(game, "MSM", "choose", choice="2H-3")
    from .helpers import recorded_action
    routes = recorded_action(GAME, 353)["routes"]
    built = game.state.board.build_routes(corp(game, "MSM"), routes, game.state.phase)
    # the wounded 2H earns half of 90, and the Pullman 5 for each of its 3 cities
    assert [r.revenue for r in built] == [60, 110]


def test_a_locomotive_works_for_its_face_value_and_ten_percent_off_trains():
    game = position(GAME, 508)
    entry = legal(game, "SIR")
    assert "buy_company" in entry["types"] and entry["companies"][0] == {"company": "LW1", "price": 100}
    assert "Price must be" in rejected(game, "SIR", "buy_company", company="LW1", price=90)
    act(game, "SIR", "buy_company", company="LW1", price=100)
    prices = {(t["train"], t["variant"]): t["price"] for t in legal(game, "SIR")["trains"]}
    assert prices[("5E-1", "4M")] == 450
    assert "costs £450" in rejected(game, "SIR", "buy_train", train="5E-1", price=400, variant="4M")
    act(game, "SIR", "buy_train", train="5E-1", price=450, variant="4M")
    assert corp(game, "SIR").cash == 56


def new_india():
    return engine.new_game("1858 India", PLAYERS5, seed=5)


def test_gauge_conversions():
    game = new_india()
    state = game.state
    board = state.board
    supply = {t.name: t for t in board.supply_tiles()}
    assert state.gauge_conversion(supply["9"], supply["79"])        # plain track broad -> metre
    assert state.gauge_conversion(supply["57"], supply["657"])      # one stretch at a city
    assert not state.gauge_conversion(supply["9"], supply["8"])     # another layout
    hex_ = board.hex_by_id("G10")
    board.lay_tile(hex_, supply["57"], 0)
    fresh = {t.name: t for t in board.supply_tiles()}
    assert state.old_paths_problem(hex_, fresh["956"]) == ""        # both stretches, the same way
    board.rotate(fresh["657"], 0)
    assert state.old_paths_problem(hex_, fresh["657"]) == ""
    assert state.old_paths_problem(hex_, fresh["57"]) != ""         # nothing changes: no conversion
    assert state.old_paths_problem(hex_, fresh["14"]) is None       # an ordinary upgrade
