"""The network walk on small maps with a loop closed through a converging exit (two paths of one
tile meeting at one edge), in every mechanism that uses it: the network (reach, tokens, where track
may be laid, legal rotations, the track restriction, routes) and 1856 destinations.

The map: the token city T (B3) has exits 5 and 0. Exit 5 runs through C4 (a curve, edges 2-1) into
B5, whose tile has two paths meeting at edge 3 (4-3 and 0-3); edge 3 faces T's exit 0, so the
loop T-C4-B5 closes back into T. B5's other path, 0-3, leads on to B7.

       B9   (empty)
       |
       B7   (a city Z, or an empty hex)
       |
       B5   paths 4-3 and 0-3 (edge 3 converges)
      /  |
    C4   |
      \\  |
       B3   T, exits 5 (to C4) and 0 (to B5)

Walked from T, the loop reaches T's exit 0 from B5, through the converging edge. A walk that then
kept T's exit as visited for good would never cross it from T itself, and so never find the path
0-3 towards B7; the reference walk lets everything beyond a converging crossing be walked again.
Each test tries both orders of T's exits (which way round the loop is walked first)."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest

from engine.errors import GameError

from .support import FakeGame, city, corporation, give_train, tiny_board, token_in, train

ORDERS = {"loop first": [[5, "n0"], [0, "n0"]], "straight first": [[0, "n0"], [5, "n0"]]}


def loop_boards(**kw):
    """The map (``loop_board``) once per order of T's exits."""
    return [loop_board(order, **kw) for order in ORDERS]


def loop_board(order, beyond="city", b5="converging", game=None):
    tiles = {
        "T": {"color": "yellow", "nodes": [city(20)], "paths": ORDERS[order]},
        "curve": {"color": "yellow", "paths": [[2, 1]]},
        "converging": {"color": "green", "paths": [[4, 3], [0, 3]]},
        "sharp": {"color": "yellow", "paths": [[4, 3]]},
        "Z": {"color": "yellow", "nodes": [city(30)], "paths": [[3, "n0"]]},
        # a green tile: a sharp curve 0-1 and a straight 0-3 (edge 0 converges); at rotation 3 it
        # lies on B5 as 3-4 and 3-0
        "G": {"color": "green", "paths": [[0, 1], [0, 3]]},
    }
    hexes = [("B3", "T"), ("C4", "curve"), ("B5", b5), ("B7", "Z" if beyond == "city" else "blank"), ("B9", "blank")]
    game = game or FakeGame()
    game.phase.tiles.append("green")
    board = tiny_board(hexes, tiles=tiles, supply=[["G", 1], ["9", 1]], game=game)
    corp = corporation("AA")
    token_in(board, corp, board.hex_by_id("B3").tile.cities[0])
    return board, corp


def far_city(board):
    return board.hex_by_id("B7").tile.cities[0]


def test_the_branch_behind_a_converging_exit_is_reached():
    for board, corp in loop_boards():
        b5 = board.hex_by_id("B5")
        assert set(b5.tile.paths) <= set(board.connected_paths(corp))
        assert far_city(board) in board.connected_nodes(corp)
        assert board.hex_by_id("B7") in board.reachable_hexes(corp)
        assert board.connected_hexes(corp)[board.hex_by_id("B7")] == {3}


def test_a_token_may_go_to_the_city_behind_a_converging_exit():
    for board, corp in loop_boards():
        z = far_city(board)
        assert board.can_token(corp)
        assert board.tokenable_cities(corp) == [z]
        board.place_token(corp, z, corp.tokens[1], free=True, connected=True)
        assert z.tokened_by(corp)


def test_a_route_runs_to_the_city_behind_a_converging_exit():
    for board, corp in loop_boards():
        give_train(corp, train("2", 2))
        assert board.route_info(corp) == {"route_available": True, "route_train_purchase": True}
        (best,) = board.best_routes(corp, None, board.game.phase)
        assert best.revenue == 50 and {h.id for h in best.hexes} == {"B3", "B7"}


def test_a_tile_may_be_laid_behind_a_converging_exit_in_the_rotations_it_reaches():
    for board, corp in loop_boards(beyond="empty"):
        b7 = board.hex_by_id("B7")
        nine = board.tile_by_id("9-0")
        assert board.legal_rotations(corp, b7, nine) == [0, 3]
        board.check_lay(corp, b7, nine, 0)
        with pytest.raises(GameError, match="not legally rotated"):
            board.check_lay(corp, b7, nine, 1)


def test_an_upgrade_whose_new_path_converges_with_the_old_one_uses_new_track():
    """B5 holds only the curve 4-3; the green tile keeps it and adds 3-0, which meets it at edge 3.
    The new path is reached from T's exit 0 (after the loop has come back to T through edge 3),
    so the lay adds track to the network: previewed before the lay and checked after it."""
    for board, corp in loop_boards(b5="sharp"):
        b5 = board.hex_by_id("B5")
        green = board.tile_by_id("G-0")
        green.rotate(3)
        assert board.track_restriction_problem(corp, b5, green) is None
        old = board.lay_tile(b5, green, 3)
        board.check_track_restrictions(corp, old, green)
        assert set(green.paths) <= set(board.connected_paths(corp))


def test_an_1856_destination_behind_a_converging_exit_is_connected():
    """1856: a destination is reached from the home city by any track, whoever's tokens stand on it."""
    for board, _ in loop_boards():
        token_in(board, corporation("BB", tokens=(0,)), far_city(board))
        assert board.hexes_connected("B3", ["B7"])
        assert board.hexes_connected("B7", ["B3"])
        assert not board.hexes_connected("B3", ["A1"])


def destination_1822(board, corp, destination):
    """1822's destination token step's connection check, for ``corp`` and a destination hex."""
    step_class = importlib.import_module("engine.titles.1822.operating").DestinationToken
    corp.destination_coordinates = destination
    return step_class.destination_connected(SimpleNamespace(game=SimpleNamespace(board=board)), corp)


def test_an_1822_destination_behind_a_converging_exit_is_connected():
    """1822: the destination is connected when track leads from it to the home token (here from T
to a company at home in Z); a city full of other companies' tokens is reached but not passed."""
    for board, _ in loop_boards():
        corp = corporation("ZZ")
        token_in(board, corp, far_city(board))
        assert destination_1822(board, corp, "B3")
    tiles = {"through": {"color": "yellow", "nodes": [city(20)], "paths": [[0, "n0"], [3, "n0"]]}}
    board = tiny_board([("A1", "through"), ("A3", "through"), ("A5", "through")], tiles=tiles)
    corp, other = corporation("AA"), corporation("BB")
    token_in(board, corp, board.hex_by_id("A1").tile.cities[0])
    token_in(board, other, board.hex_by_id("A3").tile.cities[0])
    assert destination_1822(board, corp, "A3")
    assert not destination_1822(board, corp, "A5")
