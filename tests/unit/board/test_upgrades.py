"""Which tile may replace which (colour, track kept, labels, city/town counts) and in which
rotations (exits on the map, reach, old track, cities)."""

from __future__ import annotations

import pytest

from engine.board import Board
from engine.errors import GameError

from .support import TITLES, FakeGame, board_section, city, phase_of, reference, tiny_board

# Title rules beyond the generic ones (reference README 13.2), by the tiles they concern.
TITLE_RULE_TILES = {
    "1822": {"3", "4", "58", "141", "142", "143", "144", "767", "768", "769", "X17"},
    "1847_ae": {"1", "55", "56", "69", "14", "15"},
}


def _game(slug):
    ref = reference(slug)
    first = ref["phases"][0]
    return FakeGame(rules={"impassable_hex_colors": ref["rules_flags"]["IMPASSABLE_HEX_COLORS"]},
                    phase=phase_of(first["name"], first["tiles"]))


@pytest.mark.parametrize("slug", TITLES)
def test_generic_upgrade_rule_matches_the_reference_relation(slug):
    ref = reference(slug)
    board = Board(board_section(slug), _game(slug))
    names = ref["tiles"]["order"]
    tiles = {n: board.tile_by_id(f"{n}-0") for n in names}
    differing = set()
    for old in names:
        mine = {new for new in names if board.upgrades_to(tiles[old], tiles[new])}
        if mine != set(ref["upgrades"]["tile_to_tile"][old]):
            differing.add(old)
    if slug == "1858_india":
        # 1858 India also accepts same-colour gauge conversions (its own upgrades_to)
        assert all(old in ref["upgrades"]["tile_to_tile"][old] for old in differing)
    else:
        assert differing <= TITLE_RULE_TILES.get(slug, set())


@pytest.mark.parametrize("slug", TITLES)
def test_first_lays_and_rotations_match_the_reference(slug):
    ref = reference(slug)
    board = Board(board_section(slug), _game(slug))
    names = ref["tiles"]["order"]
    for hex_id, info in ref["upgrades"]["by_hex"].items():
        if slug == "1822" and hex_id == "D35":
            continue  # 1822 title rule: only tile 57 while D35 is white
        hex_ = board.hex_by_id(hex_id)
        expected = {fl["tile"]: fl["rotations"] for fl in info.get("first_lay", []) if fl["rotations"]}
        mine = {}
        for name in names:
            tile = board.tile_by_id(f"{name}-0")
            if board.upgrades_to(hex_.tile, tile):
                rotations = board.legal_rotations(None, hex_, tile, reach=False)
                if rotations:
                    mine[name] = rotations
        assert mine == expected, hex_id


def _line_board(**kw):
    # A1 (city) above A3 (plain) above A5; edges 0 (down) / 3 (up) join them
    return tiny_board([("A1", "wcity"), ("A3", "blank"), ("A5", "wcity"), ("B2", "blank"), ("B4", "wtown")],
                      supply=[["57", 2], ["9", 2], ["7", 1], ["8", 1], ["5", 1], ["6", 1], ["14", 1], ["15", 1],
                              ["3", 1], ["4", 1], ["23", 1], ["24", 1], ["26", 1]], **kw)


def test_colour_order_and_track_kept():
    board = _line_board()
    t9, t23, t24, t26, t7 = (board.tile_by_id(i) for i in ("9-0", "23-0", "24-0", "26-0", "7-0"))
    blank = board.hex_by_id("A3").tile
    assert board.upgrades_to(blank, t9)
    assert not board.upgrades_to(blank, t23)            # white -> green skips yellow
    assert board.upgrades_to(t9, t23) and board.upgrades_to(t9, t24) and board.upgrades_to(t9, t26)
    assert not board.upgrades_to(t7, t23)               # 23 has no sharp curve
    assert not board.upgrades_to(t23, t9)               # never downgrade


def test_cities_and_towns_must_match():
    board = _line_board()
    wcity, wtown = board.hex_by_id("A1").tile, board.hex_by_id("B4").tile
    t57, t9, t3, t14 = (board.tile_by_id(i) for i in ("57-0", "9-0", "3-0", "14-0"))
    assert board.upgrades_to(wcity, t57)
    assert not board.upgrades_to(wcity, t9)             # a city cannot vanish
    assert not board.upgrades_to(wtown, t57)            # a town cannot become a city
    assert board.upgrades_to(wtown, t3)
    assert board.upgrades_to(t57, t14) and not board.upgrades_to(t9, t14)


def test_labels_and_future_labels():
    tiles = {
        "wT": {"color": "white", "label": "T", "nodes": [city(0)]},
        "wF": {"color": "white", "nodes": [city(0)], "future_label": ["Z", "green"]},
        "yT": {"color": "yellow", "label": "T", "nodes": [city(30)], "paths": [[0, "n0"], [3, "n0"]]},
        "gZ": {"color": "green", "label": "Z", "nodes": [city(40, 2)], "paths": [[0, "n0"], [3, "n0"], [1, "n0"]]},
        "g": {"color": "green", "nodes": [city(40, 2)], "paths": [[0, "n0"], [3, "n0"], [1, "n0"]]},
    }
    board = tiny_board([("A1", "wT"), ("A3", "wF")], tiles=tiles,
                       supply=[["yT", 1], ["57", 2], ["gZ", 1], ["g", 1]])
    wT, wF = board.hex_by_id("A1").tile, board.hex_by_id("A3").tile
    yT, y57, gZ, g = (board.tile_by_id(i) for i in ("yT-0", "57-0", "gZ-0", "g-0"))
    assert board.upgrades_to(wT, yT) and not board.upgrades_to(wT, y57)
    assert board.upgrades_to(wT, y57, special=True)     # special lays skip the label rule
    board.lay_tile(board.hex_by_id("A3"), board.tile_by_id("57-1"), 0)
    laid = board.hex_by_id("A3").tile
    assert laid.future_label == ("Z", "green")          # carried until its colour is reached
    assert board.upgrades_to(laid, gZ) and not board.upgrades_to(laid, g)
    assert wF.future_label == ("Z", "green")            # the printed tile keeps its own


def test_rotations_need_exits_toward_the_map_and_the_companys_reach():
    board = _line_board()
    hex_ = board.hex_by_id("A3")
    t9 = board.tile_by_id("9-0")
    # without reach requirements: straight track fits vertically (0-3), diagonally toward B2/B4 (1-4,
    # 2-5) only where the far side exists on the map
    t9.rotate(2)
    rotations = board.legal_rotations(None, hex_, t9, reach=False)
    assert rotations == [0, 3]
    assert t9.rotation == 2                              # probing leaves the tile's rotation alone
    assert "off the map" in board.rotation_problem(None, hex_, _rotated(t9, 1), reach=False)


def _rotated(tile, r):
    tile.rotate(r)
    return tile


def test_old_track_must_be_kept_and_illegal_rotations_are_rejected():
    board = _line_board()
    a3 = board.hex_by_id("A3")
    board.lay_tile(a3, board.tile_by_id("9-0"), 0)       # 0-3 straight
    t23 = board.tile_by_id("23-0")                        # paths 0-3 and 0-4
    rotations = board.legal_rotations(None, a3, t23, reach=False)
    assert rotations and all(_keeps_straight(board, a3, t23, r) for r in rotations)
    bad = next(r for r in range(6) if r not in rotations)
    board.game.phase = phase_of("3", ["yellow", "green"])
    with pytest.raises(GameError, match="not legally rotated"):
        board.check_lay(None, a3, t23, bad, reach=False)
    assert a3.tile.name == "9" and t23.hex is None        # nothing changed
    board.check_lay(None, a3, t23, rotations[0], reach=False)


def _keeps_straight(board, hex_, tile, r):
    tile.rotate(r)
    ok = any(set(p.edges) == {0, 3} for p in tile.paths)
    tile.rotate(0)
    return ok


def test_check_lay_reasons():
    board = _line_board()
    a1 = board.hex_by_id("A1")
    with pytest.raises(GameError, match="not upgradeable"):
        board.check_lay(None, a1, board.tile_by_id("9-0"), 0, reach=False)
    with pytest.raises(GameError, match="Rotation"):
        board.check_lay(None, a1, board.tile_by_id("57-0"), 7, reach=False)
    board.lay_tile(a1, board.tile_by_id("57-0"), 0)
    with pytest.raises(GameError, match="not available"):
        board.check_lay(None, board.hex_by_id("A5"), board.tile_by_id("57-0"), 0, reach=False)
    with pytest.raises(GameError, match="cannot be laid in phase"):
        board.check_lay(None, a1, board.tile_by_id("14-0"), 0, reach=False)


def test_reach_uses_the_corporations_network():
    from .support import corporation, token_in
    board = _line_board()
    corp = corporation("AA")
    board.lay_tile(board.hex_by_id("A1"), board.tile_by_id("57-0"), 0)   # city with exits 0 (A3) and 3
    token_in(board, corp, board.hex_by_id("A1").tile.cities[0])
    a3, b2 = board.hex_by_id("A3"), board.hex_by_id("B2")
    assert board.connected_hexes(corp)[a3] == {3}
    assert b2 not in board.connected_hexes(corp)
    assert board.legal_rotations(corp, a3, board.tile_by_id("9-0")) == [0, 3]
    assert board.legal_rotations(corp, b2, board.tile_by_id("9-0")) == []


def test_new_cities_must_stay_attached_and_multi_city_upgrades_map_one_to_one():
    tiles = {
        "OO": {"color": "yellow", "label": "OO", "nodes": [city(30), city(30)], "paths": [[0, "n0"], [3, "n1"]]},
        "OOg": {"color": "green", "label": "OO", "nodes": [city(40), city(40)],
                "paths": [[0, "n0"], [1, "n0"], [3, "n1"], [4, "n1"]]},
    }
    board = tiny_board([("B2", "blank"), ("B4", "blank"), ("A1", "blank"), ("A3", "blank"), ("C1", "blank"),
                        ("C3", "blank"), ("B6", "blank"), ("B0", "blank")], tiles=tiles,
                       supply=[["OO", 1], ["OOg", 1]])
    b2 = board.hex_by_id("B2")
    board.lay_tile(b2, board.tile_by_id("OO-0"), 0)
    green = board.tile_by_id("OOg-0")
    assert board.upgrades_to(b2.tile, green)
    rotations = board.legal_rotations(None, b2, green, reach=False)
    # the old cities sit at edges 0 and 3; each must fall inside exactly one new city
    for r in rotations:
        green.rotate(r)
        edges = green.city_town_edges
        assert sum(1 for e in edges if {0} <= e) == 1 and sum(1 for e in edges if {3} <= e) == 1
    green.rotate(0)
    assert 1 not in rotations and 0 in rotations


def test_gray_phase_town_rule_keeps_only_exits():
    board = _line_board(rotation_checks=["exits", "reach", "old_paths", "new_cities", "gray_towns"])
    b4 = board.hex_by_id("B4")                           # neighbours across edges 1, 2 and 3 only
    board.lay_tile(b4, board.tile_by_id("3-0"), 1)       # town on a sharp curve 1-2
    t7 = board.tile_by_id("7-0")                          # plain sharp curve
    assert board.legal_rotations(None, b4, t7, reach=False, gray_town_rule=False) == []
    assert board.legal_rotations(None, b4, t7, reach=False, gray_town_rule=True) == [1]
    assert board.legal_rotations(None, b4, t7, reach=False) == []          # phase without gray
    board.game.phase = phase_of("6", ["yellow", "green", "brown", "gray"])
    assert board.legal_rotations(None, b4, t7, reach=False) == [1]          # from the phase


def test_upgradeable_tiles_lists_one_copy_per_name_for_the_phase():
    board = _line_board()
    a1 = board.hex_by_id("A1")
    # A1 has neighbours across edges 0 (A3) and 5 (B2) only: a straight or gentle city cannot fit
    options = dict((t.name, r) for t, r in board.upgradeable_tiles(None, a1, reach=False))
    assert options == {"5": [5]}
    a3 = board.hex_by_id("A3")
    options = dict((t.name, r) for t, r in board.upgradeable_tiles(None, a3, reach=False))
    assert set(options) == {"7", "8", "9"} and options["9"] == [0, 3]
    board.game.phase = phase_of("3", ["yellow", "green"])
    board.lay_tile(a3, board.tile_by_id("9-0"), 0)
    options = dict((t.name, r) for t, r in board.upgradeable_tiles(None, a3, reach=False))
    assert set(options) == {"23", "24", "26"}
