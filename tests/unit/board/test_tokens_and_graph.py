"""Token placement rules and a corporation's network (connected hexes/nodes, blocking, terminals)."""

from __future__ import annotations

import pytest

from engine.board.parts import own_list
from engine.core.entities import Token
from engine.errors import GameError

from .support import FakeGame, city, corporation, offboard, token_in, tiny_board

# A column A1..A9 joined through edges 0/3, with a side branch B6.
#   A1  city (2 slots)
#   A3  plain straight
#   A5  city (1 slot)       - B6 offboard reached by a terminal spur from A5 (edge 5)
#   A7  city
#   A9  city
TILES = {
    "c2": {"color": "yellow", "nodes": [city(30, 2)], "paths": [[0, "n0"], [3, "n0"]]},
    "c1": {"color": "yellow", "nodes": [city(20)], "paths": [[0, "n0"], [3, "n0"], [5, "n0"]]},
    "st": {"color": "yellow", "paths": [[0, 3]]},
    "end": {"color": "yellow", "nodes": [city(10)], "paths": [[3, "n0"]]},
    "spur": {"color": "red", "nodes": [offboard({"yellow": 30, "brown": 60})], "paths": [[2, "n0", {"terminal": 1}],
                                                                                         [5, "n0"]]},
    "far": {"color": "yellow", "nodes": [city(10)], "paths": [[2, "n0"]]},
}


def column(game=None):
    board = tiny_board([("A1", "c2"), ("A3", "st"), ("A5", "c1"), ("A7", "c2"), ("A9", "end"), ("B6", "spur"),
                        ("C7", "far")], tiles=TILES, game=game)
    return board


def test_tokenable_slots_reservations_and_same_hex():
    board = column()
    a, b, c = corporation("AA"), corporation("BB"), corporation("CC")
    a5 = board.hex_by_id("A5").tile.cities[0]
    a1 = board.hex_by_id("A1").tile.cities[0]
    assert board.tokenable(a5, a, free=True)
    token_in(board, a, a5)
    assert not board.tokenable(a5, b, free=True)
    assert "no token slots" in board.token_problem(b, a5, free=True)
    a1.add_reservation(c, 0)
    assert board.tokenable(a1, a, free=True)                 # the second slot is free
    token_in(board, b, a1)
    assert a1.tokens[1].corporation is b                      # reserved slot 0 is skipped
    assert not board.tokenable(a1, a, free=True)
    assert board.tokenable(a1, c, free=True)                  # its reservation
    a7 = board.hex_by_id("A7").tile.cities[0]
    token_in(board, a, a7)
    assert "already has a token" in board.token_problem(a, a7, free=True)
    assert board.tokenable(a7, a, free=True, same_hex_allowed=True)
    poor = corporation("PP", tokens=(0, 40))
    poor.cash = 10
    poor.tokens[0].used = True
    a9 = board.hex_by_id("A9").tile.cities[0]
    assert "cannot afford" in board.token_problem(poor, a9)
    assert board.tokenable(a9, poor, free=True)
    broke = corporation("XX", tokens=())
    assert "no tokens left" in board.token_problem(broke, a9, free=True)


def test_tile_reservations_block_the_last_free_slots():
    board = column()
    a, b = corporation("AA"), corporation("BB")
    tile = board.hex_by_id("A7").tile
    city7 = tile.cities[0]
    own_list(tile, "reservations").append(b)
    token_in(board, a, city7)                                 # one slot left, reserved for B at tile level
    other = corporation("CC")
    assert "reserved" in board.token_problem(other, city7, free=True)
    assert board.tokenable(city7, b, free=True)
    board.place_token(b, city7, b.tokens[0], free=True)
    assert b not in tile.reservations


def test_place_token_checks_first_and_changes_nothing_on_error():
    board = column()
    a, b = corporation("AA"), corporation("BB")
    a5 = board.hex_by_id("A5").tile.cities[0]
    token_in(board, a, a5)
    before = list(a5.tokens)
    with pytest.raises(GameError):
        board.place_token(b, a5, b.tokens[0], free=True)
    assert a5.tokens == before and not b.tokens[0].used
    a9 = board.hex_by_id("A9").tile.cities[0]
    with pytest.raises(GameError, match="not connected"):
        board.place_token(b, a9, b.tokens[0], free=True, connected=True)


def test_network_reach_blocking_and_terminals():
    board = column()
    a, b = corporation("AA"), corporation("BB")
    a1 = board.hex_by_id("A1").tile.cities[0]
    a5 = board.hex_by_id("A5").tile.cities[0]
    token_in(board, a, a1)
    nodes = board.connected_nodes(a)
    assert [n.tile.hex.id for n in nodes] == ["A1", "A5", "A7", "A9", "B6"] or \
        {n.tile.hex.id for n in nodes} == {"A1", "A5", "A7", "A9", "B6"}
    # the offboard is reached by its spur from A5 but nothing lies beyond it on this side
    assert board.hex_by_id("C7") not in board.reachable_hexes(a)
    # B fills A5: A cannot pass it any more, but still reaches it
    token_in(board, b, a5)
    nodes = board.connected_nodes(a)
    assert a5 in nodes and board.hex_by_id("A7").tile.cities[0] not in nodes
    assert board.hex_by_id("A7") not in board.reachable_hexes(a)
    assert board.connected_hexes(a)[board.hex_by_id("A5")] == {3}
    assert board.connected_hexes(a)[board.hex_by_id("A1")] >= {0, 3}
    # from B's side: the spur is terminal toward B6, so C7 beyond it is not reached
    assert board.hex_by_id("C7") not in board.reachable_hexes(b)


def test_route_info_and_can_token():
    board = column()
    a = corporation("AA")
    token_in(board, a, board.hex_by_id("A9").tile.cities[0])
    info = board.route_info(a)
    assert info == {"route_available": True, "route_train_purchase": True}
    assert board.can_token(a)
    assert board.hex_by_id("A1").tile.cities[0] in board.tokenable_cities(a)
    lonely = tiny_board([("A1", "wcity"), ("A3", "blank")])
    z = corporation("ZZ")
    token_in(lonely, z, lonely.hex_by_id("A1").tile.cities[0])
    assert lonely.route_info(z) == {"route_available": False, "route_train_purchase": False}
    assert not lonely.can_token(z)


def test_graph_cache_follows_changes_made_outside_the_board():
    board = column()
    a, b = corporation("AA"), corporation("BB")
    token_in(board, a, board.hex_by_id("A1").tile.cities[0])
    a5 = board.hex_by_id("A5").tile.cities[0]
    blocker = token_in(board, b, a5)
    assert board.hex_by_id("A7") not in board.reachable_hexes(a)
    blocker.remove()                       # done by the rules core, not through the board
    assert board.hex_by_id("A7") in board.reachable_hexes(a)


def test_a_lay_or_a_token_forgets_only_the_networks_that_looked_at_its_hex():
    # A1 (AA's city) and A9 (BB's) at both ends of a column of bare hexes
    board = tiny_board([("A1", "c2"), ("A3", "blank"), ("A5", "blank"), ("A7", "blank"), ("A9", "end")],
                       tiles=TILES, supply=[("st", 3)])
    a, b = corporation("AA"), corporation("BB")
    a1, a9 = board.hex_by_id("A1").tile.cities[0], board.hex_by_id("A9").tile.cities[0]
    token_in(board, a, a1)
    token_in(board, b, a9)
    net_a, net_b = board.graph(a), board.graph(b)
    assert set(board.reachable_hexes(a)) == {board.hex_by_id("A1")}
    assert board.hex_by_id("A7") in board.connected_hexes(b)
    # a lay in the middle, where neither walk looked: both networks stay
    board.lay_tile(board.hex_by_id("A5"), board.tile_by_id("st-0"), 0)
    assert board.graph(a) is net_a and board.graph(b) is net_b
    # a lay next to A1: AA's network is walked again and reaches the new track, BB's stays
    board.lay_tile(board.hex_by_id("A3"), board.tile_by_id("st-1"), 0)
    assert board.graph(a) is not net_a and board.graph(b) is net_b
    assert board.hex_by_id("A5") in board.reachable_hexes(a)
    net_a = board.graph(a)
    # BB's token in A1's second slot: its own network and AA's (which looked at A1) are forgotten
    token_in(board, b, a1)
    assert board.graph(a) is not net_a and board.graph(b) is not net_b
    assert board.hex_by_id("A5") in board.reachable_hexes(b)
    net_a, net_b = board.graph(a), board.graph(b)
    # a token taken off the map by the rules core, not through the board: everything is forgotten
    a1.tokens[1].remove()
    assert board.graph(a) is not net_a and board.graph(b) is not net_b
    assert board.hex_by_id("A5") not in board.reachable_hexes(b)


def test_hexes_connected_ignores_tokens():
    board = column()
    b = corporation("BB")
    token_in(board, b, board.hex_by_id("A5").tile.cities[0])
    assert board.hexes_connected("A1", ["A9"])
    assert board.hexes_connected("A9", ["B6"])
    assert not board.hexes_connected("A1", ["C7"])
    assert not board.hexes_connected("Z9", ["A1"])


def test_home_tokens():
    board = column()
    home = corporation("HH", coordinates="A5")
    assert board.home_token_city(home) is board.hex_by_id("A5").tile.cities[0]
    assert board.place_home_token(home) is board.hex_by_id("A5").tile.cities[0]
    assert home.tokens[0].used and home.tokens[0].hex.id == "A5"
    # a tile reservation on a tile with track and several cities: the corporation must choose
    twin = tiny_board([("A1", {"color": "yellow", "label": "OO", "nodes": [city(20), city(20)],
                               "paths": [[0, "n0"], [3, "n1"]]})],
                      reservations=[{"hex": "A1", "entity": "TT"}],
                      game=FakeGame(corporations=[corporation("TT", coordinates="A1")]))
    tt = twin.game.corporations[0]
    assert twin.hex_by_id("A1").tile.reservations == [tt]
    choice = twin.place_home_token(tt)
    assert choice == list(twin.hex_by_id("A1").tile.cities) and not tt.tokens[0].used


def test_closing_and_vacating():
    board = column()
    a, b = corporation("AA"), corporation("BB")
    a1 = board.hex_by_id("A1").tile.cities[0]
    token_in(board, a, a1)
    a1.add_reservation(b, 1)
    board.remove_corporation(a)
    assert a1.tokens == [None, None] and not a.tokens[0].used
    board.remove_corporation(b, tokens=False)
    assert b not in a1.reservations
    t = token_in(board, a, a1)
    board.vacate_corporation_tokens(a)
    assert a1.tokens == [None, None] and t.city is a1           # the token still knows its city
    national = corporation("NN", tokens=())
    board.place_token(national, t.city, Token(national), free=True, check_tokenable=False)
    assert a1.tokens[0].corporation is national


def test_view_shows_what_differs_from_the_printed_map():
    from .support import tiny_board as build
    board = build([("A1", "wcity"), ("A3", "blank"), ("B2", {"color": "white", "label": "OO",
                                                               "nodes": [city(0), city(0)]})],
                  supply=[["57", 1], ["9", 1]])
    assert board.view() == {"tiles": {}, "tokens": {}, "reservations": {}, "icons": {}, "assignments": {}}
    corp, other = corporation("AA"), corporation("BB")
    board.lay_tile(board.hex_by_id("A1"), board.tile_by_id("57-0"), 3)
    token_in(board, corp, board.hex_by_id("A1").tile.cities[0])
    token_in(board, other, board.hex_by_id("B2").tile.cities[1])
    board.hex_by_id("B2").tile.cities[0].add_reservation(corp, 0)
    board.add_icon("A3", "tunnel")
    board.hex_by_id("A3").assign("GLSC")
    view = board.view()
    assert view["tiles"] == {"A1": "57-0@3"}
    assert view["tokens"] == {"A1": ["AA"], "B2/1": ["BB"]}
    assert view["reservations"] == {"B2/0": ["AA"]}
    assert view["icons"] == {"A3": ["tunnel"]}
    assert view["assignments"] == {"A3": ["GLSC"]}
    import json
    assert json.loads(json.dumps(view)) == view


def test_track_never_turns_back_at_a_hexside():
    """Two paths of one tile meeting at the same hexside are not joined there: a train cannot run
    out through a hexside and straight back in on the other path (no reversing)."""
    tiles = {
        "c_s": {"color": "yellow", "nodes": [city(30)], "paths": [[0, "n0"]]},
        "fork": {"color": "green", "paths": [[3, 0], [5, 0]]},
        "bend": {"color": "yellow", "paths": [[3, 1]]},
        "c_nw": {"color": "yellow", "nodes": [city(30)], "paths": [[2, "n0"]]},
    }
    board = tiny_board([("A1", "c_s"), ("A3", "fork"), ("A5", "bend"), ("B4", "c_nw")], tiles=tiles)
    a = corporation("AA")
    token_in(board, a, board.hex_by_id("A1").tile.cities[0])
    b4 = board.hex_by_id("B4").tile.cities[0]
    assert b4 not in board.connected_nodes(a)
    assert board.hex_by_id("B4") not in board.reachable_hexes(a)
    assert board.route_info(a) == {"route_available": False, "route_train_purchase": False}
    assert not board.hexes_connected("A1", ["B4"])
    # the fork's other branch is still reached from B4's side, through A3 into A5
    assert board.hexes_connected("B4", ["A5"])
