"""The board section of the title data: built from the reference facts, read back into a board whose
hexes, neighbours, preprinted tiles and reservations are the reference's."""

from __future__ import annotations

import pytest

from engine.board import Board

from .support import TITLES, FakeGame, board_section, reference


@pytest.mark.parametrize("slug", TITLES)
def test_every_title_builds_a_board_with_the_reference_neighbours(slug):
    ref = reference(slug)
    game = FakeGame(rules={"impassable_hex_colors": ref["rules_flags"]["IMPASSABLE_HEX_COLORS"]})
    board = Board(board_section(slug), game)
    assert [h.id for h in board.hexes] == [h["coord"] for h in ref["map"]["hexes"]]
    for rec in ref["map"]["hexes"]:
        hex_ = board.hex_by_id(rec["coord"])
        assert (hex_.x, hex_.y) == (rec["x"], rec["y"])
        assert hex_.tile.id == rec["tile"]["id"]
        assert hex_.tile.color == rec["tile"]["color"]
        assert hex_.location_name == rec["location_name"]
        assert {str(e): n.id for e, n in enumerate(hex_.neighbors) if n} == rec["neighbors"], rec["coord"]
        assert {str(e): n.id for e, n in enumerate(hex_.all_neighbors) if n} == rec["all_neighbors"]
        assert list(hex_.tile.exits) == sorted(rec["tile"]["exits"])


@pytest.mark.parametrize("slug", TITLES)
def test_city_ids_and_revenues_follow_the_reference(slug):
    ref = reference(slug)
    board = Board(board_section(slug), FakeGame())
    for rec in ref["map"]["hexes"]:
        tile = board.hex_by_id(rec["coord"]).tile
        for mine, theirs in zip(tile.cities, rec["tile"]["cities"]):
            assert mine.id == f"{tile.id}-{theirs['part_index']}"
            assert board.city_by_id(mine.id) is mine
            assert mine.slots == theirs["slots"]
            expected = theirs["revenue"]
            assert mine.max_revenue == (max(expected.values()) if isinstance(expected, dict) else expected)
        assert len(tile.towns) == len(rec["tile"]["towns"])
        assert len(tile.offboards) == len(rec["tile"]["offboards"])


@pytest.mark.parametrize("slug", TITLES)
def test_home_reservations_match_the_reference_after_setup(slug):
    ref = reference(slug)
    corps = [type("E", (), {"id": c["id"], "owner": None})() for c in ref["corporations"]]
    game = FakeGame(corporations=corps)
    board = Board(board_section(slug), game)
    for rec in ref["map"]["hexes"]:
        tile = board.hex_by_id(rec["coord"]).tile
        for mine, theirs in zip(tile.cities, rec["tile"]["cities"]):
            held = [getattr(r, "id", r) if r is not None else None for r in mine.reservations]
            # a home token placed during the title's set-up has used up its reservation
            placed = {t["corporation"] for t in theirs["tokens"] if t}
            held = [None if h in placed else h for h in held]
            assert held == theirs["reservations"], rec["coord"]
        assert [getattr(r, "id", r) for r in tile.reservations] == rec["tile"]["reservations"], rec["coord"]


def test_supply_ids_counts_and_unlimited_copies():
    ref = reference("1856")
    board = Board(board_section("1856"), FakeGame())
    counts = ref["tiles"]["counts"]
    for name in ref["tiles"]["order"]:
        assert board.tile_by_id(f"{name}-{counts[name] - 1}") is not None
        assert board.tile_by_id(f"{name}-{counts[name]}") is None
    assert board.tile_by_id("nonsense") is None
    assert board.tile_by_id("57-x") is None
    assert [t.name for t in board.supply_tiles()] == ref["tiles"]["order"]


def test_optional_rules_replace_their_hexes():
    data = {"layout": "flat", "tiles": {"blank": {"color": "white"}, "town": {"color": "white",
                                                                              "nodes": [{"type": "town", "revenue": 0}]}},
            "hexes": [{"id": "A1", "tile": "blank-0"}, {"id": "A3", "tile": "blank-1"}],
            "optional_hexes": {"variant": [{"id": "A3", "tile": "A3-0", "def": "town", "name": "Hamlet"},
                                           {"id": "A5", "tile": "blank-2"}]}}
    plain = Board(data, FakeGame())
    variant = Board(data, FakeGame(optional_rules=["variant"]))
    assert [h.id for h in plain.hexes] == ["A1", "A3"]
    assert [h.id for h in variant.hexes] == ["A1", "A3", "A5"]
    assert variant.hex_by_id("A3").tile.towns and variant.hex_by_id("A3").location_name == "Hamlet"
    assert plain.hex_by_id("A3").tile.towns == ()
    assert variant.hex_by_id("A3").neighbors[0] is variant.hex_by_id("A5")


@pytest.mark.parametrize("slug", TITLES)
def test_optional_hex_records_are_real_changes(slug):
    section = board_section(slug)
    base = {h["id"]: h for h in section["hexes"]}
    for records in (section.get("optional_hexes") or {}).values():
        assert records and all(base.get(r["id"]) != r for r in records)


def reference_converging_exits(code: str, rotation: int = 0) -> set:
    """The converging exits of a reference tile code: edges where more than one ``path=`` entry
    ends (the lanes of one ``lanes:n`` entry share their ends and count once)."""
    count = {}
    for part in code.split(";"):
        kind, _, params = part.partition("=")
        if kind != "path":
            continue
        for param in params.split(","):
            key, _, value = param.partition(":")
            if key in ("a", "b") and value.isdigit():
                edge = (int(value) + rotation) % 6
                count[edge] = count.get(edge, 0) + 1
    return {e for e, n in count.items() if n > 1}


@pytest.mark.parametrize("slug", TITLES)
def test_converging_exits_are_the_references(slug):
    """Every tile of the title, in the supply or printed on the map (at its rotation), converges at
    the edges where the reference's tile does."""
    ref = reference(slug)
    board = Board(board_section(slug), FakeGame())
    for name, definition in ref["tiles"]["definitions"].items():
        assert set(board.tile_def(name).converging) == reference_converging_exits(definition["code"]), name
    for rec in ref["map"]["hexes"]:
        tile = board.hex_by_id(rec["coord"]).tile
        expected = reference_converging_exits(rec["tile"]["code"], tile.rotation)
        assert {e for e in range(6) if tile.converging[e]} == expected, rec["coord"]
