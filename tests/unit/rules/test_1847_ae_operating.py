"""1847 AE operating rounds: yellow lays tied to the corporation's hex colour until the first 4-train,
two yellow lays before it, a first operation's lay and upgrade, E9 from phase 5 (Rammelsbach's
revenue), LFK's payment for the first new train of a round and its drop without one, one depot train of
each type per turn, no trains from other corporations in phase 3, dividends to the treasury only for
market shares, the coal and A-B bonuses, and the companies' track and token powers."""

from engine.board.bonuses import RouteBonus

from .helpers import act, company, corp, lays, legal, play_recorded, player, position, recorded_action, rejected

GAME = "1847_ae/1847AE_game_end_bank"
P1, P2, P3, P4 = 20223, 16664, 2292, 12266


def recorded_routes(name, index):
    return recorded_action(name, index)["routes"]


def test_until_the_first_4_train_yellow_tiles_go_only_to_hexes_of_the_corporations_colour():
    game = position(GAME, 23)               # OR 1.1: Saar (pink) lays its track
    hexes = {t["hex"] for t in lays(game)}
    assert "H8" not in hexes and "H6" in hexes   # H8 is a blue hex next to Saar's home
    reason = rejected(game, "Saar", "lay_tile", hex="H8", tile="58-1", rotation=2)
    assert reason == "Saar may only build in pink hexes until the first 4-train"


def test_two_yellow_lays_per_turn_in_phase_3():
    game = position(GAME, 39)               # OR 2.1: L lays F14 and F10
    assert [lay["upgrade"] for lay in game.state.tile_lays(corp(game, "L"))] == [False, False]
    play_recorded(game, GAME, 39, 40)
    assert game.state.round.active_step().description == "Place a Token"


def test_after_the_4_train_one_lay_or_upgrade_but_a_first_operation_still_lays_two():
    game = position(GAME, 205)              # OR 6.1, phase 4: M operates for the first time
    state = game.state
    assert state.tile_lays(corp(game, "M")) == state.facts["first_operation_lays"]
    assert state.tile_lays(corp(game, "L")) == state.facts["yellow_or_upgrade_lays"]
    assert not state.yellow_tracks_restricted and not any(
        i["name"] in ("pink", "blue", "green") for h in state.board.hexes for i in h.tile.icons)


def test_e9_waits_for_phase_5_and_then_raises_rammelsbachs_revenue():
    game = position(GAME, 120)              # OR 5.1, phase 4: L operates
    assert "E9" not in legal(game)["lay_hexes"]
    assert rejected(game, "L", "lay_tile", hex="E9", tile="58-3", rotation=4) == "E9 may not be built before phase 5"
    game = position(GAME, 288)              # OR 7.2, phase 6E: L lays E9
    assert company(game, "R").revenue == 30
    play_recorded(game, GAME, 288)
    assert company(game, "R").revenue == 50
    assert "Tile laid in E9 - Rammelsbach's revenue increased to 50M" in game.state.log


def test_double_town_tiles_upgrade_to_their_single_town_tile_and_double_slot_cities_never():
    game = position(GAME, 120)
    state = game.state
    board = state.board
    f10, g9 = board.hex_by_id("F10"), board.hex_by_id("G9")          # tile 1 and tile 6 lie there
    assert f10.tile.name == "1"
    tiles = {t.name: t for t in board.supply_tiles()}
    assert state.upgrades_to(f10.tile, tiles["88"]) and not state.upgrades_to(f10.tile, tiles["87"])
    fourteen = next(t for t in board.supply_tiles() if t.name == "14")
    board.lay_tile(g9, fourteen, 0)
    assert not any(state.upgrades_to(g9.tile, t) for t in board.supply_tiles())


def test_the_first_new_train_of_a_round_pays_lfks_owner_and_moves_its_price():
    game = position(GAME, 25)               # OR 1.1: Saar buys the first train of the round
    lfk, owner = corp(game, "LFK"), player(game, P4)
    cash = owner.cash
    play_recorded(game, GAME, 25)
    assert owner.cash == cash + 15 and lfk.share_price.price == 110
    assert not company(game, "SPR").owner   # Saar's first train closes the Saarbrücker Private Railway
    game = position(GAME, 97)               # OR 4.1: HLB buys the round's second new train
    cash, price = player(game, P4).cash, corp(game, "LFK").share_price.price
    play_recorded(game, GAME, 97)
    assert player(game, P4).cash == cash and corp(game, "LFK").share_price.price == price


def test_a_round_without_a_new_train_moves_lfk_left():
    game = position(GAME, 138)              # end of OR 5.1: nobody bought a train from the depot
    play_recorded(game, GAME, 138)
    assert "No train purchased from supply this round" in game.state.log
    assert corp(game, "LFK").share_price.price == 125


def test_one_depot_train_of_each_type_per_turn():
    game = position(GAME, 25)
    saar = corp(game, "Saar")
    play_recorded(game, GAME, 25)           # Saar buys a 3-train and could afford another
    assert saar.cash >= 150 and [t.name for t in saar.trains] == ["3"]
    assert game.state.round.current_operator.id == "L"   # its train step ended by itself


def test_no_trains_from_other_corporations_in_phase_3():
    game = position(GAME, 25)
    assert all(t["owner"] == "depot" for t in legal(game)["trains"])
    assert rejected(game, "Saar", "buy_train", train="3-0", price=100, variant="3") == \
        "Trains may be bought from other corporations from phase 3+3 on"


def test_a_corporation_earns_dividends_only_for_its_shares_in_the_market():
    game = position(GAME, 86)               # OR 4.1: L pays out 150M; one L share is in the market
    l_corp = corp(game, "L")
    assert game.state.share_pool.percent_of(l_corp) == 10 and l_corp.percent_of(l_corp) == 0
    cash = l_corp.cash
    play_recorded(game, GAME, 86)
    assert l_corp.cash == cash + 15


def test_coal_to_z_and_a_to_b_bonuses():
    game = position(GAME, 414)              # NDB runs G21 (Z) ... H6 (coal) with a 5+5
    state = game.state
    ndb = corp(game, "NDB")
    route = state.board.build_routes(ndb, recorded_routes(GAME, 414), state.phase)[0]
    stops = sum(s.route_revenue(state.phase, route.train) for s in route.stops)
    assert route.revenue == 310 == stops + 70
    game = position(GAME, 326)              # RNB runs I3 (B) ... B14 (A) with the 6E
    state = game.state
    route = state.board.build_routes(corp(game, "RNB"), recorded_routes(GAME, 326), state.phase)[0]
    stops = sum(s.route_revenue(state.phase, route.train) for s in route.stops)
    assert route.revenue == 300 == stops + 40
    coal = next(b for b in state.route_bonuses(ndb) if b.name == "coal")
    assert isinstance(coal, RouteBonus) and not coal.applies_to(route.train)   # never for a 6E


def test_a_company_lays_a_free_yellow_tile_on_a_mountain_for_its_corporation():
    game = position(GAME, 127)              # OR 5.1: Saar has upgraded C13; it may still buy K or H
    act(game, "Saar", "buy_company", company="K", price=40)
    saar = corp(game, "Saar")
    offered = lays(game, "K")
    assert {t["hex"] for t in offered} == {"D12"}
    board = game.state.board                # E15 is one of K's mountains, but away from Saar's track
    far = board.legal_rotations(company(game, "K"), board.hex_by_id("E15"), board.tile_by_id("7-1"))[0]
    assert rejected(game, "K", "lay_tile", "company", hex="E15", tile="7-1", rotation=far) == \
        "Track laid must be connected to one of Saar's stations"
    cash = saar.cash
    act(game, "K", "lay_tile", "company", hex="D12", tile="7-1", rotation=2)
    assert saar.cash == cash and company(game, "K").closed   # the 70M mountain is free
    assert game.state.board.hex_by_id("D12").tile.name == "7"


def test_weidenthal_places_its_corporations_token_at_half_price_and_closes():
    game = position(GAME, 154)              # OR 5.2: HLB places a token through Weidenthal
    hlb = corp(game, "HLB")
    cash = hlb.cash
    play_recorded(game, GAME, 154)
    assert hlb.cash == cash - 40 and company(game, "W").closed
    assert "G15" in [t.hex.id for t in hlb.tokens if t.hex]


def test_track_reached_from_a_city_beyond_counts_as_new_track():
    game = position(GAME, 391)              # OR 8.2: Saar upgrades G11 (a curve between H10 and G9)
    offered = [t for t in lays(game, hex_id="G11") if t["tile"] == "26-0"]
    assert offered and 1 in offered[0]["rotations"]
    play_recorded(game, GAME, 391)          # the new branch towards G13 is new track for Saar
    assert game.state.board.hex_by_id("G11").tile.name == "26"


def test_the_route_search_prices_plus_trains_and_6e_trains_exactly():
    """For distance tables whose paying stops follow from stop types, the search's fast pricing of a
    legal candidate route equals the route's own stop selection, and the best legal route is worth
    the same either way (fast pricing only leaves out routes ending where nothing is earned)."""
    from engine.board import search
    from engine.board.routes import simple_table
    checked = 0
    for index in (326, 414, 481, 556):      # a 6E, a 5+5, a 5 with a 6+6, a 6+6
        game = position(GAME, index)
        state = game.state
        board = state.board
        corporation = state.corporation_by_id(recorded_action(GAME, index)["entity"])
        for train in state.route_trains(corporation):
            if not isinstance(train.distance, list) or not simple_table(train.distance):
                continue
            net = search.route_network(board, corporation)
            routes = search.RouteSet(net, search.measure_for(game.state, train, net))
            fast = {id(r): rev for rev, r in search._price_fast(routes, net.nodes, train, state.phase,
                                                                 board.route_bonuses(corporation))}
            best_fast = best_slow = 0
            for route in routes.routes:
                if not search._table_ok(board, corporation, train, state.phase, routes, route):
                    continue
                slow = search._priced_route(board, corporation, train, state.phase, routes, route, False)
                if id(route) in fast:
                    assert fast[id(route)] == slow, (index, train.name)
                    best_fast = max(best_fast, fast[id(route)])
                best_slow = max(best_slow, slow)
                checked += 1
            assert best_fast == best_slow, (index, train.name)
    assert checked > 0


def test_a_private_token_ability_without_hexes_offers_the_cities_its_owner_reaches():
    """OR 5.2: HLB owns W, whose token (half price) goes to any city HLB's network reaches."""
    game = position(GAME, 154)
    offered = {c["city"] for c in legal(game, "W")["cities"]}
    tokenable = {c["city"] for c in legal(game, "HLB")["cities"]}
    assert offered == tokenable and "G15-0-0" in offered
    play_recorded(game, GAME, 154)
    assert any(t.corporation is corp(game, "HLB") for t in game.state.board.city_by_id("G15-0-0").tokens if t)
