"""1822 stock rounds: bids on the bid boxes (minimum, increments, committed cash, three per turn, the
limits live play applies), their settlement at the end of the round (concessions and privates to
the highest bidder, minors floating on their winning bid, unbid minors exporting trains), the
game ending when nobody bids in the first stock round, converting a concession, buying shares."""

import copy

import engine

from .helpers import act, rejected
from .helpers_1822 import _export, bid, new_1822, play_recorded, position

# seed 30797, four players: minors M24 M14 M18 M2, concessions C1 C7 C4, privates P1 P18 P5


def game_30797():
    return new_1822(seed=30797)


def test_a_first_bid_is_at_least_face_value_and_a_raise_at_least_5_more():
    game = game_30797()
    assert "Minimum bid is £100" in rejected(game, 1, "bid", company="M24", price=95)
    assert "Minimum bid is £0" not in rejected(game, 1, "bid", company="P1", price=3)   # multiples of £5
    bid(game, 1, "M24", 100)
    bid(game, 1, "P1", 0)
    act(game, 1, "pass")
    assert "Minimum bid is £105" in rejected(game, 2, "bid", company="M24", price=100)
    assert "multiple of 5" in rejected(game, 2, "bid", company="M24", price=107)
    bid(game, 2, "M24", 120)
    assert game.state.round.active_step().highest_bid(game.state.company_by_id("M24"))["price"] == 120


def test_bids_commit_cash_and_may_not_exceed_what_is_left():
    game = game_30797()
    bid(game, 1, "M24", 300)
    assert "Maximum possible bid is 225" in rejected(game, 1, "bid", company="C1", price=230)
    bid(game, 1, "C1", 225)
    assert "Maximum possible bid is 0" in rejected(game, 1, "bid", company="P1", price=5)


def test_three_bids_end_the_turn():
    game = game_30797()
    for company in ("M24", "C1", "P1"):
        bid(game, 1, company, 100 if company[0] != "P" else 0)
    assert game.acting_players() == [2]


def test_only_items_in_the_bid_boxes_take_bids():
    game = game_30797()
    assert "not in a bid box" in rejected(game, 1, "bid", company="M19", price=100)


def test_live_play_enforces_the_client_limits_a_replay_does_not():
    game = game_30797()
    bid(game, 1, "M24", 100)
    assert "already holds the highest bid" in rejected(game, 1, "bid", company="M24", price=105)
    # five bidding tokens each with four players: a sixth item is refused in live play
    bid(game, 1, "M14", 100)
    bid(game, 1, "P1", 0)
    for pid in (2, 3, 4):
        act(game, pid, "pass")
    bid(game, 1, "P18", 0)
    bid(game, 1, "P5", 0)
    assert "no bidding tokens left" in rejected(game, 1, "bid", company="C7", price=100)
    # ... while a recorded game holding such a bid replays as the reference replays it
    export = game.export()
    export["actions"].append({"type": "bid", "entity": 1, "entity_type": "player", "company": "C7",
                              "price": 100, "id": len(export["actions"]) + 1})
    replayed = engine.import_game(export)
    assert replayed.state.round.active_step().find_bid(replayed.state.player_by_id(1),
                                                       replayed.state.company_by_id("C7"))


def test_the_end_of_the_round_settles_the_bids_and_floats_the_minors():
    game = game_30797()
    bid(game, 1, "M24", 140)
    bid(game, 1, "C1", 100)
    act(game, 1, "pass")
    bid(game, 2, "M14", 100)
    for pid in (2, 3, 4, 1, 2):
        act(game, pid, "pass")
    state = game.state
    assert game.round_label == "OR 1.1"
    p1, p2 = state.player_by_id(1), state.player_by_id(2)
    assert p1.cash == 525 - 140 - 100 + 10     # plus the concession's revenue in the operating round
    assert state.company_by_id("C1").owner is p1
    m24 = state.corporation_by_id("24")
    # phase 1: whatever the bid, the minor starts at £50 with £100 from the bank
    assert m24.share_price.price == 50 and m24.floated() and m24.owner is p1 and p2.cash == 425
    # the two minors nobody bid on export an L train each; M18 and M2 go back to the deck
    assert [t.id for t in state.depot.upcoming[:1]] == ["L-2"]
    assert state.company_by_id("M18").owner is None
    # the next player order: most cash first
    assert [p.id for p in state.players] == [3, 4, 2, 1]


def test_nobody_bidding_in_the_first_stock_round_ends_the_game():
    game = game_30797()
    for pid in (1, 2, 3, 4):
        act(game, pid, "pass")
    assert game.finished and game.game_end_reason == "dnf"


def test_an_unbid_minor_in_the_first_box_closes_and_takes_a_train():
    game = position("discard_trains_after_sr_export", 107)     # SR 3 ended with no bid on M9 (box 1)
    state = game.state
    assert state.corporation_by_id("9") is None or state.corporation_by_id("9").closed
    assert "No bids on minor M9, it will close and a L train is removed" in state.log


def test_converting_a_concession_pays_the_par_price_less_the_concession():
    game = position("discard_trains_after_sr_export", 129)     # SR 4: Player 2 converts CR at £90
    state = game.state
    p2 = state.player_by_id(3714)
    cash, bank = p2.cash, state.bank.cash
    play_recorded(game, "discard_trains_after_sr_export", 129)
    state = game.state
    cr = state.corporation_by_id("CR")
    assert cr.owner is state.player_by_id(3714) and cr.floated()
    assert state.player_by_id(3714).cash == cash - (2 * 90 - 100)
    assert cr.cash == 2 * 90 and state.bank.cash == bank - 100
    assert state.company_by_id("C5").closed


def test_concessions_cannot_convert_in_phase_1():
    game = game_30797()
    assert "par" not in game.legal_actions()[0]["types"]
    assert "not par" in rejected(game, 1, "par", corporation="LNWR", share_price="100,4,4")


def test_buying_a_share_ends_the_turn():
    game = position("discard_trains_after_sr_export", 258)
    player = game.acting_players()[0]
    play_recorded(game, "discard_trains_after_sr_export", 258)
    assert game.acting_players() != [player]


def test_a_recorded_stock_round_replays_identically_when_played_live():
    export = copy.deepcopy(_export("discard_trains_after_sr_export"))
    live = engine.import_game({**export, "actions": export["actions"][:20]})
    played = engine.import_game({**export, "actions": []})
    for raw in export["actions"][:20]:
        fields = {k: v for k, v in raw.items() if k not in ("id", "original_id", "auto_actions", "created_at")}
        played.process(fields)
    assert played.digest() == live.digest()
