"""Settings, registration and the round life cycle, as events applied to a Tournament."""

import copy

import pytest

from tournament import (FlagPolicy, PlayerRegistered, RoundSeated, Settings, TimeControl, Tournament,
                        TournamentError, UndoPolicy, may_undo)

from .tournament_support import Logged, new_tournament, sha


def test_settings_follow_the_titles_player_counts():
    s = Settings.make("1856", 4, 3)
    assert (s.title, s.table_size, s.min_table_size, s.slug) == ("1856", 4, 3, "1856")
    assert Settings.make("1847_ae", 3, 2).title == "1847 AE"          # a slug names the title too
    assert Settings.make("1856", 3, 1).min_table_size == 3             # never below the title's minimum
    with pytest.raises(TournamentError, match="3 to 6 players, not 7"):
        Settings.make("1856", 7, 3)
    with pytest.raises(TournamentError, match="smallest table"):
        Settings.make("1856", 4, 3, min_table_size=2)
    with pytest.raises(TournamentError, match="Unknown title"):
        Settings.make("18Chesapeake", 4, 3)
    with pytest.raises(TournamentError, match="at least one round"):
        Settings.make("1856", 4, 0)
    with pytest.raises(TournamentError, match="undo policy"):
        Settings.make("1856", 4, 3, undo_policy="sometimes")
    with pytest.raises(TournamentError, match="no optional rule"):
        Settings.make("1856", 4, 3, optional_rules=("no_such_rule",))
    with pytest.raises(TournamentError, match="positive base"):
        TimeControl(base_ms=0)
    with pytest.raises(TournamentError, match="increment mode"):
        TimeControl(base_ms=1, increment_ms=1, mode="hourly")
    s = Settings.make("1822", 5, 2, flag_policy="remove_seat", undo_policy="never",
                      time_control=TimeControl(60_000, 5_000, "round"))
    assert s.flag_policy is FlagPolicy.REMOVE_SEAT and s.undo_policy is UndoPolicy.NEVER
    assert s.time_control.mode == "round"


def test_registration_gives_ids_in_order_and_refuses_duplicates():
    t = new_tournament(2, close=False)
    assert list(t.players) == ["p1", "p2"] and t.status == "registering"
    ev = t.register("  Carla ", sha("c"), 5, contact="carla@example.org", webhook_url="https://hooks.example/c")
    assert ev.player_id == "p3" and "p3" not in t.players          # a command decides, it does not apply
    t.apply(ev)
    assert t.players["p3"].name == "Carla" and t.player_by_token(sha("c")).id == "p3"
    for bad, reason in [(("player 01", sha("x")), "registered already"), (("Dora", sha("token 1")), "another player"),
                        (("", sha("y")), "needs a name"), (("Eve", "abc"), "sha256")]:
        with pytest.raises(TournamentError, match=reason):
            t.register(*bad, at_ms=6)
    with pytest.raises(TournamentError, match="webhook"):
        t.register("Fay", sha("f"), 6, webhook_url="ftp://x")
    with pytest.raises(TournamentError, match="next player id is p4"):
        t.apply(PlayerRegistered("p9", "Gus", sha("g"), 7))
    t.apply(t.close_registration(8))
    with pytest.raises(TournamentError, match="Registration is closed"):
        t.register("Hal", sha("h"), 9)
    with pytest.raises(TournamentError, match="closed already"):
        t.close_registration(9)


def test_a_refused_event_changes_nothing():
    t = new_tournament(8)
    before = copy.deepcopy(t)
    for event in [RoundSeated(1, 0, (("p1", "p2", "p3", "p4"), ("p5", "p6", "p7")), 5),    # p8 missing
                  RoundSeated(1, 0, (("p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"),), 5),  # too big
                  RoundSeated(2, 0, (("p1", "p2", "p3", "p4"), ("p5", "p6", "p7", "p8")), 5)]:
        with pytest.raises(TournamentError):
            t.apply(event)
        assert t == before


def test_round_life_cycle_and_reseating():
    t = new_tournament(8, rounds=2)
    with pytest.raises(TournamentError, match="No round is seated"):
        t.start_round(3)
    first = t.seat_round(seed=1, at_ms=3)
    t.apply(first)
    assert t.status == "seated"
    again = t.seat_round(seed=2, at_ms=4)
    assert again.round == 1                                         # seating again before the start
    t.apply(again)
    assert len(t.rounds) == 1 and t.rounds[0].seed == 2
    t.apply(t.withdraw("p8", 5, by_organiser=True, reason="ill"))
    with pytest.raises(TournamentError, match="seat the round again"):
        t.start_round(6)                                            # the seating still holds p8
    t.apply(t.seat_round(seed=2, at_ms=6))
    assert sorted(len(tb.seats) for tb in t.rounds[0].tables) == [3, 4]
    started = t.start_round(7)
    assert started.game_ids == ("t1.r1.t1", "t1.r1.t2")
    t.apply(started)
    assert t.status == "playing"
    with pytest.raises(TournamentError, match="still being played"):
        t.seat_round(3, 8)
    table = t.rounds[0].tables[0]
    with pytest.raises(TournamentError, match="exactly its seats"):
        t.finish_table(table.game_id, {table.seats[0]: 1}, "bank", 8)
    with pytest.raises(TournamentError, match="not a table"):
        t.finish_table("other", {}, "bank", 8)
    for tb in t.rounds[0].tables:
        t.apply(t.finish_table(tb.game_id, {p: 100 for p in tb.seats}, "bank", 9))
    with pytest.raises(TournamentError, match="finished already"):
        t.finish_table(table.game_id, {p: 1 for p in table.seats}, "bank", 10)
    assert t.status == "between_rounds"
    t.apply(t.seat_round(4, 11))
    t.apply(t.start_round(12))
    for tb in t.rounds[1].tables:
        t.apply(t.finish_table(tb.game_id, {p: 100 for p in tb.seats}, "bank", 13))
    assert t.finished and t.status == "finished"
    with pytest.raises(TournamentError, match="All 2 rounds"):
        t.seat_round(5, 14)
    with pytest.raises(TournamentError, match="over"):
        t.open_registration(15)


def test_open_registration_blocks_seating_and_late_entries_join_the_next_round():
    t = new_tournament(6, rounds=2)
    t.apply(t.seat_round(1, 3))
    t.apply(t.open_registration(4))
    with pytest.raises(TournamentError, match="Close registration"):
        t.seat_round(1, 5)
    t.apply(t.register("Late", sha("late"), 5))
    t.apply(t.close_registration(6))
    with pytest.raises(TournamentError, match="Late"):
        t.start_round(7)                                            # seated before Late registered
    t.apply(t.seat_round(1, 7))
    assert sum(len(tb.seats) for tb in t.rounds[0].tables) == 7


def test_replay_rebuilds_the_same_tournament():
    logged = Logged()
    t, log, do = logged.t, logged.log, logged.do
    for i in range(1, 10):
        do(t.register(f"P{i}", sha(f"k{i}"), 1_000 + i))
    do(t.close_registration(2_000))
    do(t.seat_round(7, 2_001))
    do(t.withdraw("p3", 2_002, by_organiser=False))
    do(t.seat_round(7, 2_003))
    do(t.start_round(2_004))
    do(t.finish_table(t.rounds[0].tables[0].game_id, {p: 10 * i for i, p in enumerate(t.rounds[0].tables[0].seats)},
                      "bank", 2_005))
    rebuilt = Tournament.replay(log)
    assert rebuilt == t
    with pytest.raises(TournamentError, match="starts with its creation"):
        Tournament.replay(log[1:])


def test_undo_policies():
    assert may_undo(UndoPolicy.ALWAYS, seat="p1", undone_by=["p2"], acting=["p2"])
    assert not may_undo(UndoPolicy.NEVER, seat="p1", undone_by=["p1"], acting=["p1"])
    own = UndoPolicy.OWN_TURN
    assert may_undo(own, seat="p1", undone_by=["p1", ""], acting=["p1"])
    assert not may_undo(own, seat="p1", undone_by=["p1"], acting=["p2"])      # no longer acting
    assert not may_undo(own, seat="p1", undone_by=["p2", "p1"], acting=["p1"])  # another seat's action
    assert not may_undo(own, seat="p1", undone_by=[""], acting=["p1"])          # only automatic moves
