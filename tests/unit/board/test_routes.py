"""Routes from the run_routes format: validity rules and revenue."""

from __future__ import annotations

import pytest

from engine.board.bonuses import RouteBonus
from engine.errors import GameError

from .support import FakeGame, city, corporation, give_train, offboard, phase_of, token_in, tiny_board, train
from .test_tokens_and_graph import TILES, column


def _setup(game=None, trains=(("2", 2),)):
    board = column(game)
    corp = corporation("AA")
    token_in(board, corp, board.hex_by_id("A1").tile.cities[0])
    for i, (name, distance) in enumerate(trains):
        give_train(corp, train(name, distance, i))
    return board, corp


def _run(board, corp, *connections, train_id="2-0", phase=None):
    return board.route(corp, {"train": train_id, "connections": [list(c) for c in connections]},
                       phase or board.game.phase)


def test_a_simple_route_and_its_description():
    board, corp = _setup()
    route = _run(board, corp, ["A1", "A3", "A5"])
    assert route.revenue == 50
    assert route.revenue_str == "A1-A5"
    assert [h.id for h in route.hexes] == ["A1", "A5"]
    assert route.connections == [["A1", "A3", "A5"]]
    assert route.to_json()["nodes"] == ["A1-0", "A5-0"]
    reverse = _run(board, corp, ["A5", "A3", "A1"])
    assert reverse.revenue == 50 and reverse.revenue_str == "A5-A1"


def test_connections_in_either_direction_join_at_their_shared_stop():
    board, corp = _setup(trains=(("3", 3),))
    route = _run(board, corp, ["A5", "A7"], ["A1", "A3", "A5"], train_id="3-0")
    assert route.revenue == 30 + 20 + 30
    assert route.revenue_str == "A7-A5-A1"


@pytest.mark.parametrize("connections, message", [
    ([["A5", "A7"]], "must contain token"),
    ([["A1", "A3", "A5"], ["A5", "A7"]], "too many stops"),
    ([], "must contain token"),
    ([["A1", "A5"]], "does not follow track"),              # A1 and A5 are not adjacent
])
def test_invalid_routes_are_refused(connections, message):
    board, corp = _setup()
    with pytest.raises(GameError, match=message):
        _run(board, corp, *connections)


def test_a_full_city_of_others_cannot_be_passed():
    board, corp = _setup(trains=(("3", 3),))
    other = corporation("BB")
    token_in(board, other, board.hex_by_id("A5").tile.cities[0])
    assert _run(board, corp, ["A1", "A3", "A5"], train_id="3-0").revenue == 50     # ending there is fine
    with pytest.raises(GameError, match="not connected"):
        _run(board, corp, ["A1", "A3", "A5"], ["A5", "A7"], train_id="3-0")


def test_terminal_track_ends_a_route():
    board, corp = _setup(trains=(("4", 4),))
    assert _run(board, corp, ["A1", "A3", "A5"], ["A5", "B6"], train_id="4-0").revenue == 30 + 20 + 30
    with pytest.raises(GameError, match="terminal"):
        _run(board, corp, ["A1", "A3", "A5"], ["A5", "B6"], ["B6", "C7"], train_id="4-0")


def test_track_cannot_be_reused_by_two_routes():
    board, corp = _setup(trains=(("2", 2), ("2", 2)))
    ok = board.build_routes(corp, [{"train": "2-0", "connections": [["A1", "A3", "A5"]]}], board.game.phase)
    assert [r.revenue for r in ok] == [50]
    raw = [{"train": "2-0", "connections": [["A1", "A3", "A5"]]},
           {"train": "2-1", "connections": [["A5", "A3", "A1"]]}]
    with pytest.raises(GameError, match="reuse track on A"):
        board.build_routes(corp, raw, board.game.phase)
    loose = board.build_routes(corp, raw, board.game.phase, strict=False)
    assert [r.error is not None for r in loose] == [True, True]
    with pytest.raises(GameError, match="Unknown train"):
        board.build_routes(corp, [{"train": "9-9", "connections": [["A1", "A3", "A5"]]}], board.game.phase)


def test_revenue_follows_the_phase_and_the_diesel_rule():
    tiles = dict(TILES)
    tiles["spur"] = {"color": "red", "nodes": [offboard({"yellow": 30, "brown": 60, "diesel": 90})],
                     "paths": [[2, "n0", {"terminal": 1}]]}
    game = FakeGame()
    board = tiny_board([("A1", "c2"), ("A3", "st"), ("A5", "c1"), ("B6", "spur")], tiles=tiles, game=game)
    corp = corporation("AA")
    token_in(board, corp, board.hex_by_id("A5").tile.cities[0])
    give_train(corp, train("4", 4))
    give_train(corp, train("D", 999))
    raw = {"connections": [["A5", "B6"]]}
    assert board.route(corp, {**raw, "train": "4-0"}, phase_of("2", ["yellow"])).revenue == 50
    assert board.route(corp, {**raw, "train": "4-0"}, phase_of("5", ["yellow", "green", "brown"])).revenue == 80
    assert board.route(corp, {**raw, "train": "D-0"}, phase_of("5", ["yellow", "green", "brown"])).revenue == 110
    doubler = give_train(corp, train("2X", 2, multiplier=2))
    assert board.route(corp, {**raw, "train": doubler.id}, phase_of("2", ["yellow"])).revenue == 100


def test_groups_may_be_visited_once():
    tiles = {
        "west": {"color": "red", "nodes": [offboard(20, groups=["W"])], "paths": [[0, "n0"], [3, "n0"]]},
        "west2": {"color": "red", "nodes": [offboard(20, groups=["W"])], "paths": [[3, "n0"]]},
        "home": {"color": "yellow", "nodes": [city(10)], "paths": [[0, "n0"]]},
    }
    board = tiny_board([("A1", "home"), ("A3", "west"), ("A5", "west2")], tiles=tiles)
    corp = corporation("AA")
    token_in(board, corp, board.hex_by_id("A1").tile.cities[0])
    give_train(corp, train("3", 3))
    with pytest.raises(GameError, match="group W"):
        _run(board, corp, ["A1", "A3"], ["A3", "A5"], train_id="3-0")


def test_title_revenue_hooks():
    bonus = FakeGame(bonuses=lambda game, corp: [RouteBonus(["A5"], 20), RouteBonus(["A1", "A5", "A7"], 5,
                                                                                    per_hex=True)])
    board, corp = _setup(game=bonus)
    assert _run(board, corp, ["A1", "A3", "A5"]).revenue == 50 + 20 + 10

    class Custom(FakeGame):
        def revenue_for(self, route, stops):
            return 1000 + len(stops)

    board, corp = _setup(game=Custom())
    assert _run(board, corp, ["A1", "A3", "A5"]).revenue == 1002


def test_the_right_city_of_a_two_city_hex_is_chosen():
    tiles = {
        "twin": {"color": "green", "label": "OO", "nodes": [city(40), city(40)],
                 "paths": [[0, "n0"], [3, "n0"], [1, "n1"], [4, "n1"]]},
        "top": {"color": "yellow", "nodes": [city(20)], "paths": [[0, "n0"]]},
        "side": {"color": "yellow", "nodes": [city(50)], "paths": [[4, "n0"]]},
    }
    # the twin sits at B4: its city 0 runs 3-0 (B2 above), its city 1 runs 1-4 (A5 lower-left)
    board = tiny_board([("B4", "twin"), ("B2", "top"), ("A5", "side")], tiles=tiles)
    corp = corporation("AA")
    token_in(board, corp, board.hex_by_id("B2").tile.cities[0])
    other = corporation("BB")
    token_in(board, other, board.hex_by_id("A5").tile.cities[0])
    give_train(corp, train("2", 2))
    route = _run(board, corp, ["B2", "B4"])
    assert route.revenue == 60 and route.visited_stops[1] is board.hex_by_id("B4").tile.cities[0]
    give_train(other, train("2", 2, 1))
    route = board.route(other, {"train": "2-1", "connections": [["A5", "B4"]]}, board.game.phase)
    assert route.visited_stops[1] is board.hex_by_id("B4").tile.cities[1]
