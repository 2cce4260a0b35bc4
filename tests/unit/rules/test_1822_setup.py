"""1822 set-up: the shuffled decks and bid boxes, the trains set aside for private companies, money,
certificate limit, bidding tokens and the holders of the phase-revenue and tax-haven credits."""

from tools import evidence

import engine

from .helpers_1822 import PLAYERS3, PLAYERS4, new_1822


def reference():
    return evidence.reference("1822")


def test_decks_are_shuffled_with_the_game_rng_as_the_reference_does():
    for example in reference()["title_specific"]["deck_examples"]:
        game = engine.new_game("1822", [f"P{i}" for i in range(example["players"])], seed=example["seed"],
                               optional_rules=example["optional_rules"])
        deck = [c.id for c in game.state.companies]
        for kind, prefix in (("minors", "M"), ("concessions", "C"), ("privates", "P")):
            assert [c for c in deck if c[0] == prefix] == example["decks"][kind], (example["label"], kind)


def test_bid_boxes_hold_the_first_cards_of_each_deck():
    game = new_1822(seed=30797)
    state = game.state
    assert [c.id for c in state.bidbox_minors()] == ["M24", "M14", "M18", "M2"]
    assert [c.id for c in state.bidbox_concessions()] == ["C1", "C7", "C4"]
    assert [c.id for c in state.bidbox_privates()] == ["P1", "P18", "P5"]
    assert all(c.owner is state.bank for c in state.bidbox_items())
    assert all(c.owner is None for c in state.companies if c not in state.bidbox_items())


def test_plus_expansion_deals_one_private_of_each_kind():
    game = new_1822(seed=33845, optional_rules=["plus_expansion"])
    privates = [c.id for c in game.state.bidbox_privates()]
    facts = game.state.facts
    assert [p in facts[f"plus_bidbox_{n}"] for n, p in enumerate(privates, 1)] == [True, True, True]
    assert len([c for c in game.state.companies if c.id[0] == "P"]) == 21 - 3


def test_money_certificates_and_bidding_tokens():
    game = new_1822(PLAYERS4)
    state = game.state
    assert [p.cash for p in state.players] == [525] * 4
    assert state.bank.cash == 12000 - 4 * 525
    assert state.cert_limit() == 20
    assert state.bidding_token_per_player == 5
    assert new_1822(PLAYERS3).state.bidding_token_per_player == 6


def test_trains_of_private_companies_are_set_aside():
    state = new_1822().state
    upcoming = {t.id for t in state.depot.upcoming}
    for company, train in (("P1", "5P-0"), ("P3", "2P-0"), ("P4", "2P-1"), ("P13", "P+-0"), ("P14", "P+-1"),
                           ("P19", "LP-0")):
        assert state.company_trains[company].id == train and train not in upcoming
    assert [t.id for t in state.depot.depot_trains()] == ["L-0"]


def test_majors_get_destination_tokens_and_exchange_tokens():
    state = new_1822().state
    gwr = state.corporation_by_id("GWR")
    assert [t.type for t in gwr.tokens] == ["normal", "normal", "destination"]
    assert state.exchange_tokens(gwr) == 3 and state.exchange_tokens(state.corporation_by_id("LNWR")) == 4
    assert state.board.has_icon("G36", "GWR_destination")
    assert state.corporation_by_id("LNWR").float_percent == 10


def test_the_game_starts_with_a_stock_round_and_only_bids_or_passes():
    game = new_1822()
    assert game.round_label == "SR 1" and game.round_kind == "stock_round"
    (entry,) = game.legal_actions()
    assert entry["types"] == ["bid", "pass"]
    assert {c["company"] for c in entry["companies"]} == {c.id for c in game.state.bidbox_items()}
