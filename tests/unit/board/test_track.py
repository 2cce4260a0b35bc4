"""Track shapes beyond plain tiles: junctions (Lawson tiles), double-lane track, gauges, pointy maps."""

from __future__ import annotations

import pytest

from engine.board.routes import chain_hex_ids, matching_chains
from engine.errors import GameError

from .support import city, corporation, give_train, tiny_board, token_in, train

TILES = {
    "north": {"color": "yellow", "nodes": [city(20)], "paths": [[0, "n0"]]},
    "south": {"color": "yellow", "nodes": [city(30)], "paths": [[3, "n0"]]},
    "east": {"color": "yellow", "nodes": [city(40)], "paths": [[2, "n0"]]},
    # three track ends meeting at the centre of the tile
    "lawson": {"color": "yellow", "paths": [[3, "j"], [0, "j"], [5, "j"]]},
}


def junction_board():
    # A1 above A3 (junction) above A5; B4 lies across A3's edge 5
    return tiny_board([("A1", "north"), ("A3", "lawson"), ("A5", "south"), ("B4", "east")], tiles=TILES)


def test_a_junction_is_passed_once_and_written_once():
    board = junction_board()
    chains = matching_chains(board, ["A1", "A3", "A5"])
    assert len(chains) == 1
    start, end, paths = chains[0]
    assert (start.tile.hex.id, end.tile.hex.id) == ("A1", "A5")
    assert [p.tile.hex.id for p in paths] == ["A1", "A3", "A3", "A5"]
    assert chain_hex_ids(paths) == ["A1", "A3", "A5"]
    # no run goes in at one end of the junction, out and back in again
    for _, _, p in matching_chains(board, ["A1", "A3", "B4"]):
        assert sum(1 for x in p if x.junction is not None) == 2


def test_routes_through_a_junction_share_its_hexsides():
    board = junction_board()
    corp = corporation("AA")
    token_in(board, corp, board.hex_by_id("A1").tile.cities[0])
    give_train(corp, train("2", 2, 0))
    give_train(corp, train("2", 2, 1))
    phase = board.game.phase
    assert board.route(corp, {"train": "2-0", "connections": [["A1", "A3", "B4"]]}, phase).revenue == 60
    with pytest.raises(GameError, match="reuse track"):
        board.build_routes(corp, [{"train": "2-0", "connections": [["A1", "A3", "B4"]]},
                                  {"train": "2-1", "connections": [["A1", "A3", "A5"]]}], phase)
    best = board.best_routes(corp, None, phase)
    assert [r.revenue for r in best] == [60]
    assert board.connected_hexes(corp)[board.hex_by_id("A3")] == {0, 3, 5}


def test_double_track_lets_two_routes_run_side_by_side():
    lanes = {
        "twin_top": {"color": "yellow", "nodes": [city(20, 2)],
                     "paths": [[0, "n0", {"lanes": [[2, 0], [2, 0]]}], [0, "n0", {"lanes": [[2, 1], [2, 1]]}]]},
        "double": {"color": "yellow", "paths": [[0, 3, {"lanes": [[2, 0], [2, 1]]}],
                                                [0, 3, {"lanes": [[2, 1], [2, 0]]}]]},
        "twin_bottom": {"color": "yellow", "nodes": [city(30, 2)],
                        "paths": [[3, "n0", {"lanes": [[2, 0], [2, 0]]}], [3, "n0", {"lanes": [[2, 1], [2, 1]]}]]},
    }
    board = tiny_board([("A1", "twin_top"), ("A3", "double"), ("A5", "twin_bottom")], tiles=lanes)
    corp = corporation("AA")
    token_in(board, corp, board.hex_by_id("A1").tile.cities[0])
    give_train(corp, train("2", 2, 0))
    give_train(corp, train("2", 2, 1))
    phase = board.game.phase
    chains = matching_chains(board, ["A1", "A3", "A5"])
    assert len(chains) == 2                       # one per lane; lanes never cross over
    routes = board.build_routes(corp, [{"train": "2-0", "connections": [["A1", "A3", "A5"]]},
                                       {"train": "2-1", "connections": [["A1", "A3", "A5"]]}], phase)
    assert [r.revenue for r in routes] == [50, 50]
    assert {r.paths[1] for r in routes} == set(board.hex_by_id("A3").tile.paths)
    assert sum(r.revenue for r in board.best_routes(corp, None, phase)) == 100


def test_metre_gauge_does_not_join_broad_gauge():
    gauges = {
        "top": {"color": "yellow", "nodes": [city(20)], "paths": [[0, "n0"]]},
        "narrow": {"color": "yellow", "paths": [[0, 3, {"track": "narrow"}]]},
        "dual": {"color": "yellow", "paths": [[0, 3, {"track": "dual"}]]},
        "bottom": {"color": "yellow", "nodes": [city(30)], "paths": [[3, "n0"]]},
    }
    narrow = tiny_board([("A1", "top"), ("A3", "narrow"), ("A5", "bottom")], tiles=gauges)
    dual = tiny_board([("A1", "top"), ("A3", "dual"), ("A5", "bottom")], tiles=gauges)
    for board, joined in ((narrow, False), (dual, True)):
        corp = corporation("AA")
        token_in(board, corp, board.hex_by_id("A1").tile.cities[0])
        assert (board.hex_by_id("A5").tile.cities[0] in board.connected_nodes(corp)) is joined
        assert bool(matching_chains(board, ["A1", "A3", "A5"])) is joined


def test_pointy_maps_use_their_own_neighbours():
    # pointy axes: x = number - 1, y = letter; B2 (x=1, y=1) has neighbours at A1 (edge 2), A3
    # (edge 3), B4 (edge 4), C3 (edge 5), C1 (edge 0)
    board = tiny_board([("A1", "blank"), ("A3", "blank"), ("B2", "blank"), ("B4", "blank"), ("C1", "blank"),
                        ("C3", "blank")], layout="pointy")
    b2 = board.hex_by_id("B2")
    assert {e: n.id for e, n in enumerate(b2.neighbors) if n} == {0: "C1", 2: "A1", 3: "A3", 4: "B4", 5: "C3"}
