"""Who operates and in which order: starting (enough of the IPO sold), share-price order, home tokens."""

import pytest

from .helpers import (act, corp, finish_stock_round, legal, operating, operator, play_recorded, play_until, position,
                      recorded_action, rejected, to_operating_round)

FOUR_PARS = [(3, "CPR", "100,0,4"), (4, "WGB", "100,0,4"), (1, "GW", "90,1,4"), (2, "WR", "100,0,4")]


def test_operating_order_follows_share_price_then_arrival_on_the_space():
    game = to_operating_round(FOUR_PARS)
    # CPR, WGB and WR share the $100 space: the first there operates first; GW ($90) comes last
    assert [c.id for c in game.state.round.entities] == ["CPR", "WGB", "WR", "GW"]
    assert operator(game).id == "CPR"


def test_recorded_first_operating_round_goes_from_highest_price_down():
    game = position("51745", 23, start=22)
    prices = {c.id: c.share_price.price for c in game.state.round.entities}
    assert prices == {"WR": 100, "CV": 90, "LPS": 80, "GT": 70}
    assert [c.id for c in game.state.round.entities] == ["WR", "CV", "LPS", "GT"]


def test_home_token_is_placed_when_a_corporation_first_operates():
    game = to_operating_round(FOUR_PARS)
    # nothing was placed at par; CPR, operating now, has its home token in Barrie
    assert [t.hex.id for t in corp(game, "CPR").tokens if t.used] == ["M4"]
    assert not any(t.used for c in ("WGB", "WR", "GW") for t in corp(game, c).tokens)
    assert not corp(game, "WGB").started
    act(game, "CPR", "pass")          # track; nothing to token, no train to run
    act(game, "CPR", "buy_train", train="2-0", price=100, variant="2")
    play_until(game, operating("WGB"))
    assert corp(game, "WGB").started
    assert [t.hex.id for t in corp(game, "WGB").tokens if t.used] == ["J11"]
    # the home token is free: WGB still has all it was paid (2 shares at $100)
    assert corp(game, "WGB").cash == 200


def test_a_corporation_cannot_act_out_of_turn():
    game = to_operating_round(FOUR_PARS)
    reason = rejected(game, "GW", "lay_tile", hex="F17", tile="5-0", rotation=3)
    assert "not GW's turn" in reason


@pytest.mark.parametrize("n, percent", [(38, 20), (126, 30), (328, 40), (455, 50)])
def test_share_needed_to_start_rises_with_the_last_train_of_each_kind(n, percent):
    # entries 38, 126, 328 and 455 of this game buy the last 2-, 3-, 4- and 5-train
    game = position("51745", n)
    last = recorded_action("51745", n)["train"]
    assert game.state.percent_to_operate == percent
    assert [t.id for t in game.state.depot.depot_trains()] == [last]
    play_recorded(game, "51745", n)
    assert game.state.percent_to_operate == percent + 10


def par_thb_in_sr4(buyers):
    """SR 4 of a recorded game (the last 3-train is gone, so a new corporation needs 40% sold): P2
    pars THB (home Hamilton, L15) and ``buyers`` buy one more share each."""
    game = position("51745", 162)
    assert game.state.percent_to_operate == 40
    act(game, 7202, "pass")
    act(game, 4332, "par", corporation="THB", share_price="100,0,4")   # the president's 20%
    act(game, 4332, "pass")
    for index, pid in enumerate(buyers):
        act(game, pid, "buy_shares", shares=[f"THB_{index + 1}"], percent=10)
        act(game, pid, "pass")
    return finish_stock_round(game)


@pytest.mark.parametrize("buyers, starts", [((), False), ((4310,), False), ((4310, 4022), True)])
def test_a_new_corporation_starts_only_with_enough_of_its_ipo_sold(buyers, starts):
    game = par_thb_in_sr4(buyers)
    thb = corp(game, "THB")
    assert game.round_kind == "operating_round"
    assert (thb in game.state.round.entities) is starts
    if starts:
        play_until(game, operating("THB"))
    assert thb.started is starts


def test_home_token_city_is_chosen_when_the_home_hex_has_two_cities_and_track():
    game = par_thb_in_sr4((4310, 4022))
    play_until(game, operating("THB"))
    thb = corp(game, "THB")
    # Hamilton is a green OO tile by now (CV holds its city 1): THB must say which city is home
    assert game.state.board.hex_by_id("L15").tile.id == "59-0"
    assert not any(t.used for t in thb.tokens)
    assert "place_token" in legal(game)["types"]
    assert "not available" in rejected(game, "THB", "place_token", city="120-0-1")     # Toronto
    assert "no token slots" in rejected(game, "THB", "place_token", city="59-0-1")    # CV's city
    thb = corp(game, "THB")      # a refused action rebuilds the state: look objects up again
    cash = thb.cash
    act(game, "THB", "place_token", city="59-0-0")
    assert [t.city.id for t in thb.tokens if t.used] == ["59-0-0"]
    assert thb.cash == cash                                       # the home token is free
    assert "lay_tile" in legal(game)["types"]                     # and THB goes on with its turn
