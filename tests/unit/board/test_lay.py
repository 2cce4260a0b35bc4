"""Laying tiles: the supply, what moves to the new tile, neighbours, costs, track restrictions."""

from __future__ import annotations

import pytest

from engine.board.parts import own_list
from engine.core.entities import Ability
from engine.errors import GameError

from .support import FakeGame, city, corporation, offboard, token_in, tiny_board, town


def _board(game=None, **kw):
    tiles = {
        "mountain": {"color": "white", "terrain": [{"cost": 40, "terrains": ["mountain"]}]},
        "river": {"color": "white", "borders": [{"edge": 0, "type": "water", "cost": 20}]},
        "port": {"color": "white", "nodes": [city(0)], "icons": [{"name": "port", "image": "/icons/port.svg",
                                                                   "sticky": True}, {"name": "note", "image": "n"}]},
        "lake": {"color": "blue"},
        "X": {"color": "yellow", "paths": [[0, 3]], "unlimited": True},
        "OO": {"color": "yellow", "label": "OO", "nodes": [city(30), city(30)], "paths": [[0, "n0"], [3, "n1"]]},
        "wOO": {"color": "white", "label": "OO", "nodes": [city(0), city(0)]},
    }
    hexes = [("A1", "port", "Harbour"), ("A3", "mountain"), ("A5", "river"), ("A7", "blank"), ("B2", "lake"),
             ("B4", "wOO", "Twin"), ("B6", "wcity"), ("C3", "blank"), ("C5", "blank")]
    return tiny_board(hexes, tiles=tiles, supply=[["57", 2], ["9", 2], ["X", "unlimited"], ["OO", 1], ["14", 1],
                                                  ["15", 1], ["7", 1]], game=game, **kw)


def test_the_old_tile_returns_to_the_supply_and_unlimited_tiles_clone():
    board = _board()
    a3, a7 = board.hex_by_id("A3"), board.hex_by_id("A7")
    nine = board.tile_by_id("9-0")
    assert board.tile_available(nine)
    old = board.lay_tile(a7, nine, 0)
    assert old.preprinted and a7.tile is nine and nine.hex is a7
    assert not board.tile_available(nine) and not board.tile_available(old)
    assert board.supply_count("9") == 1
    with pytest.raises(GameError):
        board.lay_tile(a3, nine, 0)
    x0 = board.tile_by_id("X-0")
    assert board.tile_by_id("X-1") is None
    board.lay_tile(a3, x0, 0)
    assert board.tile_by_id("X-1") is not None and board.tile_available(board.tile_by_id("X-1"))
    assert board.supply_count("X") is None
    board.game.phase.tiles.append("green")
    board.lay_tile(a7, board.tile_by_id("7-0"), 0)      # any replacement: 9-0 goes back
    assert board.tile_available(nine) and nine.hex is None
    assert board.supply_count("9") == 2


def test_tokens_reservations_icons_and_names_move_to_the_new_tile():
    board = _board()
    corp, other = corporation("AA"), corporation("BB")
    a1 = board.hex_by_id("A1")
    printed = a1.tile
    token_in(board, corp, printed.cities[0])
    b6 = board.hex_by_id("B6")
    b6.tile.cities[0].add_reservation(other, 0)
    new = board.tile_by_id("57-0")
    board.lay_tile(a1, new, 0)
    assert new.cities[0].tokens[0].corporation is corp
    assert corp.tokens[0].city is new.cities[0] and corp.tokens[0].hex is a1
    reserved = b6.tile
    board.lay_tile(b6, board.tile_by_id("57-1"), 0)
    assert b6.tile.cities[0].reservations == [other] and reserved.cities[0].reservations == []
    assert [i["name"] for i in new.icons] == ["port"]          # sticky icons only
    assert [i["name"] for i in printed.icons] == ["port", "note"]
    assert new.location_name == "Harbour" and printed.location_name is None
    assert printed.cities[0].tokens == [None]
    # a second upgrade keeps the token and does not duplicate the icon
    board.game.phase.tiles.append("green")
    green = board.tile_by_id("14-0")
    board.lay_tile(a1, green, 0)
    assert green.cities[0].tokens[0].corporation is corp and green.cities[0].tokens[1] is None
    assert [i["name"] for i in green.icons] == ["port"] and not new.icons


def test_pathless_multi_city_tiles_map_cities_by_index():
    board = _board()
    corp = corporation("AA")
    b4 = board.hex_by_id("B4")
    token_in(board, corp, b4.tile.cities[1])
    oo = board.tile_by_id("OO-0")
    board.lay_tile(b4, oo, 0)
    assert oo.cities[1].tokened_by(corp) and not oo.cities[0].tokened_by(corp)


def test_impassable_hexes_open_toward_new_exits():
    board = _board()
    b2 = board.hex_by_id("B2")
    a1, a3 = board.hex_by_id("A1"), board.hex_by_id("A3")
    assert a1.neighbors[5] is None and a1.all_neighbors[5] is b2
    assert b2.neighbors[2] is a1                                  # the lake may look out
    board.lay_tile(b2, board.tile_by_id("9-0"), 1)                # exits 1 (A3) and 4 (C1: off map)
    assert a3.neighbors[4] is b2 and b2.neighbors[1] is a3
    assert a1.neighbors[5] is None


def test_terrain_cost_discounts_and_borders():
    board = _board()
    corp = corporation("AA")
    a3, a5, a7 = board.hex_by_id("A3"), board.hex_by_id("A5"), board.hex_by_id("A7")
    assert board.terrain_cost(a3.tile) == 40 and board.terrain_types(a3.tile) == ["mountain"]
    assert board.upgrade_cost(a3.tile, a3, corp) == 40
    corp.add_ability(Ability("tile_discount", discount=30, terrain="mountain"))
    assert board.upgrade_cost(a3.tile, a3, corp) == 10
    corp.add_ability(Ability("tile_discount", discount=50, hexes=["A3"]))
    assert board.upgrade_cost(a3.tile, a3, corp) == 0
    # the river border on A5's edge 0 (toward A7) is paid once both sides have track across it
    five = board.tile_by_id("9-0")
    board.lay_tile(a5, five, 0)
    assert board.border_cost(a5, five) == 0                      # A7 has no track yet
    seven = board.tile_by_id("9-1")
    board.lay_tile(a7, seven, 0)
    assert board.border_cost(a5, five) == 20
    assert board.remove_borders(a5, five, corp) == 20
    assert not five.borders and board.remove_borders(a5, five, corp) == 0


def test_a_border_paid_from_one_side():
    # 1822: a border is paid once the new track points across it; the neighbour keeps its side
    # until its own track meets there
    game = FakeGame()
    game.border_paid_one_side = True
    board = _board(game)
    a5, a7 = board.hex_by_id("A5"), board.hex_by_id("A7")
    own_list(a7.tile, "borders").append({"edge": 3, "type": "water", "cost": 20})
    five = board.tile_by_id("9-0")
    board.lay_tile(a5, five, 0)
    assert board.border_cost(a5, five) == 20 and five.borders   # (a preview changes nothing)
    assert board.remove_borders(a5, five, corporation("AA")) == 20
    assert not five.borders and a7.tile.borders == [{"edge": 3, "type": "water", "cost": 20}]
    assert board.remove_borders(a5, five, corporation("AA")) == 0


def test_border_discount_for_its_terrain():
    board = _board()
    corp = corporation("AA")
    corp.add_ability(Ability("tile_discount", discount=15, terrain="water"))
    a5, a7 = board.hex_by_id("A5"), board.hex_by_id("A7")
    board.lay_tile(a7, board.tile_by_id("9-1"), 0)
    five = board.tile_by_id("9-0")
    board.lay_tile(a5, five, 0)
    assert board.remove_borders(a5, five, corp) == 5


def test_track_restriction_semi_restrictive():
    game = FakeGame(rules={"track_restriction": "semi_restrictive"})
    tiles = {"P": {"color": "red", "nodes": [offboard(20)], "paths": [[5, "n0"]]}}
    board = tiny_board([("A1", "wcity"), ("A3", "blank"), ("A5", "wcity"), ("B0", "P")], tiles=tiles,
                       supply=[["57", 2], ["9", 1], ["23", 1], ["14", 1]], game=game)
    corp = corporation("AA")
    a1, a3 = board.hex_by_id("A1"), board.hex_by_id("A3")
    board.lay_tile(a1, board.tile_by_id("57-0"), 0)
    token_in(board, corp, a1.tile.cities[0])
    old = board.lay_tile(a3, board.tile_by_id("9-0"), 0)
    board.check_track_restrictions(corp, old, a3.tile)          # new track from a blank hex: fine
    game.phase.tiles.append("green")
    # a green tile whose new branch leaves from the far end of the straight (edge 0) is not reached
    # from A1 (track does not turn inside a hex): nothing new for this company
    nine = a3.tile
    t23 = board.tile_by_id("23-0")
    board.lay_tile(a3, t23, 0)                                   # 0-3 straight and 0-4 branch
    assert [p.edges for p in t23.paths if p in board.connected_paths(corp)] == [(0, 3)]
    with pytest.raises(GameError, match="new track"):
        board.check_track_restrictions(corp, nine, t23)
    # the city upgrade changes the city's value: allowed although no new track is reached
    before = a1.tile
    green = board.tile_by_id("14-0")
    board.lay_tile(a1, green, 0)
    board.check_track_restrictions(corp, before, green)


def test_removing_towns_needs_the_rule():
    game = FakeGame(rules={"allow_removing_towns": False})
    board = tiny_board([("A1", "wtown"), ("A3", "blank")], supply=[["3", 1], ["7", 1]], game=game)
    corp = corporation("AA")
    a1 = board.hex_by_id("A1")
    board.lay_tile(a1, board.tile_by_id("3-0"), 0)
    town_tile = a1.tile
    board.lay_tile(a1, board.tile_by_id("7-0"), 0)
    with pytest.raises(GameError, match="override"):
        board.check_track_restrictions(corp, town_tile, a1.tile)
    game.rules["allow_removing_towns"] = True
    game.rules["track_restriction"] = "permissive"
    board.check_track_restrictions(corp, town_tile, a1.tile)


def test_icons_can_be_added_counted_and_removed():
    board = _board()
    board.add_icon("A7", "tunnel")
    board.add_icon("A7", "tunnel")
    assert board.has_icon("A7", "tunnel")
    assert board.remove_icon("A7", "tunnel") and board.has_icon("A7", "tunnel")
    assert board.remove_icon("A7", "tunnel") and not board.has_icon("A7", "tunnel")
    assert not board.remove_icon("A7", "tunnel")
    with pytest.raises(GameError):
        board.add_icon("Z99", "x")


def test_town_and_halt_tiles_are_nodes():
    board = tiny_board([("A1", {"color": "yellow", "nodes": [town(10), {"type": "town", "revenue": 0,
                                                                       "halt": "H"}],
                                "paths": [[0, "n0"], [3, "n1"]]})])
    tile = board.hex_by_id("A1").tile
    assert [n.type for n in tile.nodes] == ["town", "halt"]
    assert tile.towns == tile.city_towns and tile.nodes[1].route == "optional"


def test_a_lay_that_would_lose_tokens_is_refused_without_change():
    board = _board()
    corp = corporation("AA")
    b6 = board.hex_by_id("B6")
    printed = b6.tile
    token = token_in(board, corp, printed.cities[0])
    nine = board.tile_by_id("9-0")
    with pytest.raises(GameError, match="No city"):
        board.lay_tile(b6, nine, 0)
    assert b6.tile is printed and printed.hex is b6 and nine.hex is None
    assert printed.cities[0].tokens == [token] and token.city is printed.cities[0]
    assert board.tile_available(nine)
