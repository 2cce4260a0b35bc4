"""1822 private companies at work: the extra tile lays (P12), the estuary crossing (P10), the
hill/mountain choice and free lay (P8), removing a town (P2), the station swap (P18), the Pullman
(P13/P14); E train route rules; the president's loan when he cannot pay for a train."""

from .helpers import act, lays, legal, rejected
from .helpers_1822 import play_recorded, position, recorded_action

GAME = "discard_trains_after_sr_export"
PLUS = "33845"


def test_p12_lays_extra_tiles_beside_the_normal_lays():
    game = position(PLUS, 471)                     # CR's P12: two extra yellow tiles
    assert {"hex": "H11", "tile": "7-2"} in [{"hex": t["hex"], "tile": t["tile"]} for t in lays(game, "P12")]
    play_recorded(game, PLUS, 471)
    state = game.state
    assert state.board.hex_by_id("H11").tile.id == "7-2"
    step = state.round.active_step()
    assert step.company is state.company_by_id("P12")        # the second lay must follow at once
    play_recorded(game, PLUS, 472)
    assert state.company_by_id("P12").closed


def test_p10_must_cross_an_estuary_and_pays_40_less():
    game = position(GAME, 758)                     # P10 lays X5 on H5 (Edinburgh) over the estuary
    state = game.state
    owner = state.company_by_id("P10").owner
    cash = owner.cash
    play_recorded(game, GAME, 758)
    assert game.state.board.hex_by_id("H5").tile.id == "X5-1"
    assert owner.cash <= cash


def test_p8_offers_a_free_lay_or_a_lasting_discount_then_lays_free_on_hills():
    game = position(GAME, 818)                     # CR has just acquired P8: the choice comes first
    entry = legal(game)
    assert entry["types"] == ["choose"] and set(entry["choose"]) == {"token", "discount"}
    assert "not a choice" in rejected(game, "CR", "choose", choice="both")
    play_recorded(game, GAME, 818)                 # the free lay token
    p8 = game.state.company_by_id("P8")
    assert [a.type for a in p8.abilities] == ["tile_lay"]
    cr = game.state.corporation_by_id("CR")
    play_recorded(game, GAME, 819)
    cash = cr.cash
    play_recorded(game, GAME, 820)                 # I16: a hill, laid for free
    assert cr.cash == cash and p8.closed


def test_p2_replaces_a_small_station_by_plain_track():
    game = position(PLUS, 913)                     # LNWR's P2 lays plain 83 over M36's town
    old = game.state.board.hex_by_id("M36").tile
    assert old.towns
    play_recorded(game, PLUS, 913)
    tile = game.state.board.hex_by_id("M36").tile
    assert tile.id == "83-0" and not tile.towns and game.state.company_by_id("P2").closed


def test_p18_moves_an_exchange_token_to_the_available_tokens():
    game = position(GAME, 789)
    state = game.state
    owner = state.company_by_id("P18").owner
    exchange, left = state.exchange_tokens(owner), sum(1 for t in owner.tokens if not t.used)
    assert legal(game, "P18")["choose_ability"].keys() >= {"exchange"}
    play_recorded(game, GAME, 789)
    assert state.exchange_tokens(owner) == exchange - 1
    assert sum(1 for t in owner.tokens if not t.used) == left + 1
    assert state.company_by_id("P18").closed


def test_a_pullman_is_attached_to_a_train_before_running():
    game = position(GAME, 607)                     # CR chooses the train its Pullman joins
    entry = legal(game)
    assert "choose" in entry["types"] and entry["choose"]
    assert "not a train" in rejected(game, "CR", "choose", choice="7")
    play_recorded(game, GAME, 607)
    cr = game.state.corporation_by_id("CR")
    coupled = [t for t in cr.trains if t.name.endswith("+") and t.name != "P+"]
    assert len(coupled) == 1 and coupled[0].distance[1] == {"nodes": ["town"], "pay": 99, "visit": 99}
    play_recorded(game, GAME, 608)                 # the run; afterwards the train is itself again
    assert not coupled[0].name.endswith("+")


def test_an_e_train_must_start_and_end_at_token_cities():
    game = position(GAME, 822)
    routes = recorded_action(GAME, 822)["routes"]  # the recorded run that today's rules reject
    reason = rejected(game, "CR", "run_routes", routes=routes)
    assert "E-train route cannot extend beyond tokened cities" in reason
    best = game.best_routes("CR")
    assert best and all(r["revenue"] > 0 for r in best)
    act(game, "CR", "run_routes", routes=best)


def test_a_president_who_cannot_pay_for_a_train_sells_first_then_borrows():
    game = position(GAME, 198)                     # CR must buy its first train
    state = game.state
    cr = state.corporation_by_id("CR")
    president = cr.owner
    # (a situation the recorded games do not reach: an empty treasury and a penniless president)
    state.bank.cash += cr.cash + president.cash
    cr.cash = 0
    president.cash = 0
    entry = legal(game)
    assert entry["must_buy"]
    sellable = entry["emergency_sales"]
    train = state.depot.min_depot_train()
    if sellable:
        assert "sell shares" in rejected(game, "CR", "buy_train", train=train.id, price=train.price(),
                                         variant=train.name)
        for sale in sellable:
            if sale["percent"] == max(s["percent"] for s in sellable):
                act(game, sale["entity"], "sell_shares", "player", shares=sale["shares"], percent=sale["percent"])
                break
    entry = legal(game)
    train = state.depot.min_depot_train()
    act(game, "CR", "buy_train", train=train.id, price=train.price(), variant=train.name)
    president = game.state.corporation_by_id("CR").owner
    assert president.debt > 0 and president.debt == president.debt // 1
    assert "payoff_player_debt" in legal_after_operating(game, president)


def legal_after_operating(game, president) -> list:
    """The moves of the president when it is next his turn in a stock round (other players pass)."""
    for _ in range(400):
        if game.finished:
            break
        if game.round_label.startswith("SR") and president.id in game.acting_players():
            return legal(game, president.id)["types"]
        entry = game.legal_actions()[0]
        types = entry["types"]
        if "run_routes" in types:
            act(game, entry["entity"], "run_routes", entry["entity_type"], routes=game.best_routes(entry["entity"]))
        elif "dividend" in types:
            act(game, entry["entity"], "dividend", entry["entity_type"], kind="withhold")
        elif "pass" in types:
            act(game, entry["entity"], "pass", entry["entity_type"])
        elif "buy_train" in types and entry.get("trains"):
            t = entry["trains"][0]
            act(game, entry["entity"], "buy_train", entry["entity_type"], train=t["train"],
                price=t.get("price", t.get("min_price")), variant=t["variant"])
        elif "choose" in types:
            act(game, entry["entity"], "choose", entry["entity_type"], choice=next(iter(entry["choose"])))
        else:
            raise AssertionError(entry)
        president = game.state.player_by_id(president.id)
    raise AssertionError("no stock round turn")
