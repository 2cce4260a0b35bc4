"""The side-by-side timing harness (tools/refspeed): its passes over the games and what it keeps."""

from tools.refspeed.__main__ import keep_best, schedule


def test_every_pass_times_every_game_once_per_engine_in_rotated_turns():
    order = schedule(["a", "b"], ["reference", "now"], rounds=2)
    assert order == [
        (0, "a", "reference"), (0, "a", "now"), (0, "b", "reference"), (0, "b", "now"),
        (1, "a", "now"), (1, "a", "reference"), (1, "b", "now"), (1, "b", "reference"),
        (2, "a", "reference"), (2, "a", "now"), (2, "b", "reference"), (2, "b", "now"),
    ]


def test_three_engines_each_come_first_in_turn():
    firsts = [order[2] for order in schedule(["a"], ["r", "x", "y"], rounds=3)]
    assert firsts == ["r", "x", "y", "x", "y", "r", "y", "r", "x", "r", "x", "y"]


def test_the_fastest_import_is_kept_and_a_changing_result_is_not_a_result():
    kept: dict = {}
    keep_best(kept, "now", {"ms": 30.0, "actions": 5, "result": {"1": 10}})
    keep_best(kept, "now", {"ms": 20.0, "actions": 5, "result": {"1": 10}})
    keep_best(kept, "now", {"ms": 25.0, "actions": 5, "result": {"1": 10}})
    assert kept["now"] == {"ms": 20.0, "actions": 5, "result": {"1": 10}}
    keep_best(kept, "now", {"ms": 40.0, "actions": 5, "result": {"1": 11}})
    keep_best(kept, "now", {"ms": 10.0, "actions": 5, "result": {"1": 10}})
    assert kept["now"]["ms"] == 10.0 and kept["now"]["result"] is None
