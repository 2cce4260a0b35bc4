"""1822 operating rounds: a minor's first L train, local runs and half pay, upgrading an L train to a
2 train, the choices round of the double-cash private, acquiring privates, destination tokens and
their bonus, acquiring minors (payment and token choices), E trains, the tax haven, issuing shares,
and what is refused (leaving the game unchanged)."""

from .helpers import act, legal, rejected
from .helpers_1822 import play_recorded, position, recorded_action

GAME = "discard_trains_after_sr_export"
PLUS = "33845"


def test_a_minor_buys_an_l_train_before_its_first_run():
    game = position(GAME, 38)                      # OR 1.1: minor 21's first turn
    entry = legal(game)
    upcoming = game.state.depot.upcoming[0]
    assert entry["entity"] == "21" and "buy_train" in entry["types"]
    assert entry["trains"] == [{"train": upcoming.id, "variant": "L", "owner": "depot", "price": 60}]
    assert "Only an L train" in rejected(game, "21", "buy_train", train=upcoming.id, price=120, variant="2")
    assert "costs £60" in rejected(game, "21", "buy_train", train=upcoming.id, price=50, variant="L")
    act(game, "21", "buy_train", train=upcoming.id, price=60, variant="L")
    minor = game.state.corporation_by_id("21")
    assert [t.name for t in minor.trains] == ["L"] and minor.cash == 100 - 60


def test_a_local_train_runs_within_its_token_city_and_a_minor_pays_half():
    game = position(GAME, 40)                      # 21 runs its L train in Cardiff (E34)
    minor = game.state.corporation_by_id("21")
    owner = minor.owner
    cash, owner_cash, price = minor.cash, owner.cash, minor.share_price.price
    play_recorded(game, GAME, 40)
    assert minor.cash == cash + 15 and owner.cash == owner_cash + 15
    assert minor.share_price.price > price


def test_the_best_route_of_a_local_train():
    game = position(GAME, 40)
    (route,) = game.best_routes("21")
    assert route["connections"] == [["local", "E34"]] and route["revenue"] == 30


def test_a_local_train_may_not_run_in_a_city_without_its_token():
    game = position(GAME, 40)
    reason = rejected(game, "21", "run_routes", routes=[{"train": "L-1", "connections": [["local", "F33"]]}])
    assert reason


def test_an_l_train_is_upgraded_to_a_2_train_for_80():
    game = position(GAME, 110)                     # 21 upgrades L-1: the first 2 train starts phase 2
    assert game.state.phase.name == "1"
    assert "£80" in rejected(game, "21", "buy_train", train="L-1", price=70, variant="2", exchange="L-1")
    minor = game.state.corporation_by_id("21")
    cash = minor.cash
    play_recorded(game, GAME, 110)
    assert [t.name for t in minor.trains] == ["2"] and minor.cash == cash - 80
    assert game.state.phase.name == "2"


def test_the_double_cash_choice_is_made_in_a_choices_round():
    game = position(GAME, 107)
    assert game.round_label == "Choices 3" and game.round_kind == "stock_round"
    entry = legal(game)
    assert entry["types"] == ["choose", "pass"] and list(entry["choose"]) == ["double"]
    assert "not a choice" in rejected(game, 3714, "choose", choice="triple")
    play_recorded(game, GAME, 107)
    assert game.round_label == "OR 3.1"
    assert "Player 2 (£320 doubled)" in " ".join(game.state.log[-20:])


def test_the_double_cash_choice_is_skipped_when_it_cannot_matter():
    game = position(GAME, 106)
    stored = play_recorded(game, GAME, 106)         # Player 2 is the richest: doubling changes nothing
    assert stored["auto_actions"] == [{"type": "pass", "entity": 3714, "entity_type": "player"}]
    assert game.round_label == "OR 3.1"


def test_a_corporation_acquires_a_train_private_and_gets_its_train():
    game = position(GAME, 304)                     # GWR acquires P3 (a permanent 2 train)
    gwr = game.state.corporation_by_id("GWR")
    play_recorded(game, GAME, 304)
    assert "2P" in [t.name for t in gwr.trains]
    assert game.state.company_by_id("P3").closed


def test_privates_are_acquired_only_from_their_phase_and_by_the_right_kind_of_company():
    game = position(GAME, 304)
    state = game.state
    assert state.acquire_private_company(state.corporation_by_id("GWR"), state.company_by_id("P3"))
    minor = next(c for c in state.corporations if c.type == "minor" and c.floated())
    assert not state.acquire_private_company(minor, state.company_by_id("P3"))     # majors only
    assert not state.acquire_private_company(state.corporation_by_id("GWR"), state.company_by_id("P16"))


def test_the_destination_token_goes_down_once_home_and_destination_connect():
    game = position(GAME, 308)                     # GWR: Bristol (G36) connected
    assert "hex_token" in legal(game)["types"]
    assert "destination is G36" in rejected(game, "GWR", "hex_token", hex="H1", token_type="destination")
    assert "cannot skip" in rejected(game, "GWR", "pass")
    play_recorded(game, GAME, 308)
    gwr = game.state.corporation_by_id("GWR")
    assert any(t.used and t.type == "destination" and t.hex.id == "G36" for t in gwr.tokens)


def test_a_route_joining_home_and_destination_earns_the_destination_bonus_once():
    game = position(GAME, 849)                     # LBSCR: a 6 train and an E train both join M38 and M42
    state = game.state
    lbscr = state.corporation_by_id("LBSCR")
    routes = state.board.build_routes(lbscr, recorded_action(GAME, 849)["routes"], state.phase)
    assert [r.revenue for r in routes] == [280, 720]          # the E train's doubled bonus (2 x 80)
    assert sum(r["revenue"] for r in game.best_routes("LBSCR")) >= 1000


def test_acquiring_a_minor_pays_its_owner_and_replaces_its_token():
    game = position(GAME, 238)                     # CR acquires minor 2 for two shares, exchange token
    entry = legal(game)
    assert "merge" in entry["types"] and "2" in [m["corporation"] for m in entry["merge"]]
    assert "cannot acquire" in rejected(game, "CR", "merge", corporation="LNWR")
    play_recorded(game, GAME, 238)
    entry = legal(game)
    assert entry["types"] == ["choose"] and "two_shares" in entry["choose"]
    assert "not a way to pay" in rejected(game, "CR", "choose", choice="three_shares")
    state = game.state
    minor = state.corporation_by_id("2")
    owner, cr = minor.owner, state.corporation_by_id("CR")
    minor_cash, trains = minor.cash, [t.id for t in minor.trains]
    cr_cash = cr.cash
    play_recorded(game, GAME, 239)                 # two shares
    assert legal(game)["types"] == ["choose"] and set(legal(game)["choose"]) == {"replace", "exchange"}
    play_recorded(game, GAME, 240)                 # an exchange token becomes an available token
    assert minor.closed and owner.percent_of(cr) >= 20
    assert cr.cash >= cr_cash + minor_cash - 2 * cr.share_price.price
    assert all(state.train_by_id(t).owner is cr for t in trains)


def test_one_e_train_per_corporation():
    game = position(GAME, 764)                     # CR buys the first E train
    play_recorded(game, GAME, 764)
    cr = game.state.corporation_by_id("CR")
    assert [t.name for t in cr.trains].count("E") == 1
    entry = [e for e in game.legal_actions() if e["entity"] == "CR"]
    for e in entry:
        assert all(t["variant"] != "E" for t in e.get("trains", []))


def test_the_tax_haven_buys_a_share_for_its_owner():
    game = position(GAME, 705)                     # Player 2's P16 buys a CR share from the treasury
    assert "CR_ipo" in legal(game, "P16")["choose_ability"]
    assert "not a choice" in rejected(game, "P16", "choose_ability", "company", choice="NER_ipo")
    play_recorded(game, GAME, 705)
    state = game.state
    cr = state.corporation_by_id("CR")
    assert state.tax_haven.percent_of(cr) == 10
    assert cr.owner is not state.tax_haven
    assert state.player_value(state.player_by_id(3714)) == \
        state.player_by_id(3714).value() + state.tax_haven.value()
    assert "choose_ability" not in [t for e in game.legal_actions() if e["entity"] == "P16" for t in e["types"]]


def test_issuing_shares_at_the_price_after_the_drop():
    game = position(PLUS, 462)                     # LBSCR issues two shares
    lbscr = game.state.corporation_by_id("LBSCR")
    entry = legal(game)
    assert "sell_shares" in entry["types"]
    offered = {tuple(b["shares"]): b["price"] for b in entry["sell_shares"]}
    assert offered[("LBSCR_1", "LBSCR_2")] == 140
    cash = lbscr.cash
    play_recorded(game, PLUS, 462)
    assert lbscr.cash == cash + 140 and game.state.share_pool.percent_of(lbscr) == 20
