"""How corporations are paid for their shares: escrow until the destination is reached (then
incremental), incremental once the last 4-train is sold, full capitalisation once the last 5-train
is sold; and the automatic release of escrow when a destination gets connected."""

from .helpers import act, corp, play_recorded, play_until, position, recorded, rejected, scenario


def test_connecting_the_destination_releases_the_escrow():
    game = position("51745", 285)          # CV (home Toronto) is about to reach Drumbo (I14)
    cv = corp(game, "CV")
    assert (cv.cash, cv.escrow, cv.capitalization, cv.destinated) == (125, 180, "escrow", False)
    play_recorded(game, "51745", 285)      # lays the tile; the track step stays open
    assert corp(game, "CV").escrow == 180
    stored = play_recorded(game, "51745", 286)      # done with track: the engine checks destinations
    assert stored["auto_actions"] == [{"type": "destination_connection", "entity": "CV",
                                       "entity_type": "corporation", "corporations": ["CV"]}]
    cv = corp(game, "CV")
    assert (cv.cash, cv.escrow, cv.capitalization, cv.destinated) == (125 + 180, None, "incremental", True)


def test_another_corporations_track_can_complete_a_destination():
    game = position("51745", 326)          # TGB's tile in Orangeville (K8) completes GT's route to it
    assert (corp(game, "GT").cash, corp(game, "GT").escrow) == (260, 350)
    play_recorded(game, "51745", 326)
    stored = play_recorded(game, "51745", 327)
    assert stored["auto_actions"][0]["corporations"] == ["GT"]
    assert (corp(game, "GT").cash, corp(game, "GT").escrow) == (260 + 350, None)


def test_a_destination_cannot_be_claimed_by_hand():
    game = position("51745", 285)
    rejected(game, "CV", "destination_connection", corporations=["CV"])


def test_after_its_destination_an_escrow_corporation_is_paid_for_every_share():
    game = position("51745", 381)          # P4 buys CV's seventh share from the IPO
    cv = corp(game, "CV")
    assert cv.capitalization == "incremental" and cv.par_price.price == 90
    cash = cv.cash
    play_recorded(game, "51745", 381)
    assert corp(game, "CV").cash == cash + 90 and corp(game, "CV").escrow is None


def test_a_corporation_that_reaches_its_destination_before_it_is_parred_is_incremental():
    # CPR's home (Barrie) and destination (Toronto) got connected by CV's track before anyone parred it
    game = position("hotseat004", 50)
    assert corp(game, "CPR").destinated and not corp(game, "CPR").ipoed
    play_recorded(game, "hotseat004", 50)  # par at $65
    cpr = corp(game, "CPR")
    assert (cpr.capitalization, cpr.escrow, cpr.cash) == ("incremental", None, 130)
    for index in range(51, 68):            # the other eight shares are sold
        play_recorded(game, "hotseat004", index)
    assert corp(game, "CPR").num_ipo_shares() == 0
    assert corp(game, "CPR").cash == 10 * 65


def test_after_the_last_4_train_new_corporations_are_incremental():
    game = position("51745", 373)
    assert game.state.capitalization == "incremental"
    play_recorded(game, "51745", 373)      # BBG parred at $100
    bbg = corp(game, "BBG")
    assert (bbg.capitalization, bbg.escrow, bbg.cash) == ("incremental", None, 200)


@scenario
def sr7():
    """The recorded game played on (default moves) past its end to SR 7: the last 5-train is long
    gone, so new corporations are fully capitalised and need 60% sold."""
    game = position("51745", len(recorded("51745")["actions"]) - 1, start=455)
    play_until(game, lambda g: g.round_kind == "stock_round")
    assert game.round_label == "SR 7" and game.acting_players() == [4310]
    return game


def test_a_full_cap_corporation_receives_ten_times_par_when_60_percent_is_sold():
    game = sr7()
    assert (game.state.capitalization, game.state.percent_to_operate) == ("full", 60)
    act(game, 4310, "par", corporation="GW", share_price="100,0,4")
    act(game, 4310, "pass")
    gw = corp(game, "GW")
    assert (gw.capitalization, gw.cash, gw.escrow) == ("full", 0, None)
    for index in range(1, 5):
        pid = game.acting_players()[0]
        bank = game.state.bank.cash
        act(game, pid, "buy_shares", shares=[f"GW_{index}"], percent=10)
        gw = corp(game, "GW")
        if index < 4:                      # the price goes to the bank until 60% is sold
            assert gw.cash == 0 and game.state.bank.cash == bank + 100 and not gw.floated()
        if game.acting_players() == [pid]:
            act(game, pid, "pass")
    assert gw.floated() and gw.cash == 10 * 100
