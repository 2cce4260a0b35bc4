"""Chess clocks from a game's events: charges, increments, pause and adjust, flag falls, policies."""

import copy

import engine
import pytest

from tournament import (ClockAdjusted, ClockPaused, ClockResumed, ClockStarted, FlagFell, FlagPolicy, GameClock,
                        TimeControl, TournamentError, TurnChanged, automatic_move, flag_decision)

SEATS = ("p1", "p2", "p3")


def started(control=TimeControl(60_000, 5_000), at=1_000):
    return GameClock.start(ClockStarted(SEATS, control, ("p1",), "ISR 1", 0, at))


def turn(seq, actor, at, acting, label="ISR 1", action="bid", finished=False):
    return TurnChanged(seq=seq, actor=actor, action_type=action, acting=tuple(acting), round_label=label,
                       finished=finished, at_ms=at)


def test_only_the_acting_seat_is_charged_and_gets_the_increment():
    clock = started()
    clock.apply(turn(1, "p1", 11_000, ["p2"]))          # p1 thought 10 s: 60 - 10 + 5
    clock.apply(turn(2, "p2", 41_000, ["p3"]))          # p2 thought 30 s: 60 - 30 + 5
    assert clock.remaining == {"p1": 55_000, "p2": 35_000, "p3": 60_000}
    assert clock.remaining_at(50_000) == {"p1": 55_000, "p2": 35_000, "p3": 51_000}
    assert clock.next_deadline() == (41_000 + 60_000, "p3")


def test_pause_adjust_and_flag_fall():
    clock = started()
    clock.apply(turn(1, "p1", 11_000, ["p2"]))
    clock.apply(turn(2, "p2", 41_000, ["p3"]))
    clock.apply(ClockPaused(51_000, "fire alarm"))      # p3 used 10 s
    assert clock.running() == [] and clock.next_deadline() is None
    assert clock.remaining_at(90_000)["p3"] == 50_000   # nothing runs while paused
    with pytest.raises(TournamentError, match="paused already"):
        clock.apply(ClockPaused(52_000))
    clock.apply(ClockResumed(100_000))
    clock.apply(ClockAdjusted("p3", -45_000, 100_000, "penalty"))
    assert clock.remaining["p3"] == 5_000
    assert clock.next_deadline() == (105_000, "p3")
    assert clock.flag_check(104_999) is None
    flag = clock.flag_check(106_000)
    assert flag == FlagFell("p3", 2, 106_000)
    assert clock.remaining_at(106_000)["p3"] == -1_000
    before = copy.deepcopy(clock)
    with pytest.raises(TournamentError, match="moved on"):
        clock.apply(FlagFell("p3", 1, 106_000))          # seen at an older position: void
    with pytest.raises(TournamentError, match="not running"):
        clock.apply(FlagFell("p1", 2, 106_000))
    with pytest.raises(TournamentError, match="still has 1000 ms"):
        clock.apply(FlagFell("p3", 2, 104_000))
    assert clock == before                              # refused events change nothing
    clock.apply(flag)
    assert clock.flagged == {"p3": 106_000} and clock.remaining["p3"] == 0 and clock.running() == []
    with pytest.raises(TournamentError, match="fallen already"):
        clock.apply(FlagFell("p3", 2, 107_000))
    with pytest.raises(TournamentError, match="cannot be adjusted"):
        clock.apply(ClockAdjusted("p3", 10_000, 107_000))


def test_an_action_logged_before_the_flag_fall_counts():
    clock = started()
    clock.apply(turn(1, "p1", 70_000, ["p2"]))          # 69 s used: overdue by 9 s, yet logged first
    assert clock.remaining["p1"] == 60_000 - 69_000 + 5_000
    assert clock.running() == ["p2"]


def test_no_increment_for_undo_redo_messages_and_programs():
    clock = started()
    clock.apply(turn(1, "p1", 2_000, ["p1"], action="undo"))
    clock.apply(turn(2, "p1", 3_000, ["p1"], action="program_buy_shares"))
    clock.apply(turn(3, "p1", 4_000, ["p1"], action="message"))
    assert clock.remaining["p1"] == 57_000
    clock.apply(turn(4, "", 5_000, ["p2"], action="pass"))   # the operator acted for p1: no increment
    assert clock.remaining["p1"] == 56_000


def test_increment_per_round():
    clock = started(TimeControl(60_000, 30_000, "round"))
    clock.apply(turn(1, "p1", 11_000, ["p2"]))                    # same round: no increment
    clock.apply(turn(2, "p2", 21_000, ["p1"], label="SR 1"))      # new round: +30 s for every seat
    assert clock.remaining == {"p1": 80_000, "p2": 80_000, "p3": 90_000}
    clock.apply(turn(3, "p1", 31_000, [], label="SR 1", finished=True))
    assert clock.finished and clock.running() == [] and clock.remaining["p1"] == 70_000


def test_time_never_runs_backwards():
    clock = started(at=10_000)
    clock.apply(turn(1, "p1", 9_000, ["p2"]))           # a producer whose clock is behind
    assert clock.remaining["p1"] == 65_000 and clock.since_ms == 10_000


def test_events_must_follow_the_game():
    clock = started()
    with pytest.raises(TournamentError, match="not the next"):
        clock.apply(turn(2, "p1", 2_000, ["p2"]))
    with pytest.raises(TournamentError, match="Not seats"):
        clock.apply(turn(1, "p1", 2_000, ["p9"]))
    with pytest.raises(TournamentError, match="start with ClockStarted"):
        GameClock.replay([turn(1, "p1", 2_000, ["p2"])])


def test_replay_equals_live_clocks():
    events = [ClockStarted(SEATS, TimeControl(60_000, 5_000), ("p1",), "ISR 1", 0, 1_000),
              turn(1, "p1", 11_000, ["p2"]), ClockPaused(12_000), ClockResumed(20_000),
              ClockAdjusted("p2", 1_000, 21_000), turn(2, "p2", 25_000, ["p3"])]
    live = GameClock.start(events[0])
    for e in events[1:]:
        live.apply(e)
    assert GameClock.replay(events) == live
    # p2 thought 1 s before the pause and 5 s after it, got 1 s from the organiser and the increment
    assert live.remaining == {"p1": 55_000, "p2": 60_000 - 1_000 - 5_000 + 1_000 + 5_000, "p3": 60_000}


def test_flag_policies():
    ended = flag_decision(FlagPolicy.END_GAME, "p2")
    assert ended.end_game and ended.action == {"type": "end_game", "entity": "p2", "entity_type": "player"}
    removed = flag_decision("remove_seat", "p2")
    assert not removed.end_game and removed.action is None
    # the game's records carry its policy, so the game's owner needs nothing but the game's log
    clock = GameClock.start(ClockStarted(SEATS, TimeControl(1_000), ("p1",), "SR 1", 0, 0, flag_policy="remove_seat"))
    assert flag_decision(clock.flag_policy, "p2") == removed


def test_a_removed_seat_passes_where_the_engine_allows_it():
    game = engine.new_game("1856", [{"id": p, "name": p.upper()} for p in ("p1", "p2", "p3", "p4")], seed=1)
    move = automatic_move("p1", game.legal_actions())
    assert move == {"type": "pass", "entity": "p1", "entity_type": "player"}
    game.process(move)                                 # the engine takes it
    assert game.acting_players() == ["p2"]
    assert automatic_move("p1", game.legal_actions()) is None          # not p1's turn
    forced = [{"entity": "CV", "entity_type": "corporation", "player": "p2", "types": ["buy_train"]}]
    assert automatic_move("p2", forced) == {"type": "end_game", "entity": "p2", "entity_type": "player"}


def test_the_engine_scores_an_ended_game_at_net_worth():
    game = engine.new_game("1856", [{"id": p, "name": p.upper()} for p in ("p1", "p2", "p3")], seed=2)
    values = game.player_values()
    game.process(flag_decision(FlagPolicy.END_GAME, "p2").action)
    assert game.finished and game.game_end_reason == "manually_ended"
    assert game.result == values
