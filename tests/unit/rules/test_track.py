"""Laying and upgrading track in an operating turn: one lay a turn, its cost, and every way a lay
can be refused (each refusal leaves the game exactly as it was)."""

import pytest

from .helpers import act, corp, lays, legal, operator, position, rejected, scenario, to_operating_round

# P3's CPR (Barrie, M4) operates first; P1 owns FT (blocks L3), P2 WSRC (I12), P3 TCC (H11).
PARS = [(3, "CPR", "100,0,4"), (4, "WGB", "100,0,4"), (1, "GW", "90,1,4"), (2, "WR", "100,0,4")]


@scenario
def cpr_first():
    game = to_operating_round(PARS)
    assert operator(game).id == "CPR" and corp(game, "CPR").cash == 200
    return game


def tile_on(game, hex_id):
    tile = game.state.board.hex_by_id(hex_id).tile
    return tile.id, tile.rotation


def test_laying_a_yellow_tile_on_plain_ground_is_free():
    game = cpr_first()
    act(game, "CPR", "lay_tile", hex="M6", tile="58-0", rotation=1)
    assert tile_on(game, "M6") == ("58-0", 1)
    assert corp(game, "CPR").cash == 200


def test_laying_on_water_costs_the_terrain():
    game = cpr_first()
    bank = game.state.bank.cash
    act(game, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=1)
    assert tile_on(game, "N3") == ("57-0", 1)
    assert corp(game, "CPR").cash == 200 - 40                 # N3 is a $40 water hex
    assert game.state.bank.cash == bank + 40


def test_every_offered_lay_is_accepted_and_others_are_not():
    offers = [(o["hex"], o["tile"], r, o["cost"]) for o in lays(cpr_first()) for r in o["rotations"]]
    assert {(h, t) for h, t, _, _ in offers} >= {("N3", "57-0"), ("M6", "58-0")}
    for hex_id, tile, rotation, cost in offers:
        game = cpr_first()
        act(game, "CPR", "lay_tile", hex=hex_id, tile=tile, rotation=rotation)
        assert tile_on(game, hex_id) == (tile, rotation)
        assert corp(game, "CPR").cash == 200 - cost
    offered = {(h, t, r) for h, t, r, _ in offers}
    game = cpr_first()
    for rotation in range(6):
        if ("N3", "57-0", rotation) not in offered:
            assert "not legally rotated" in rejected(game, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=rotation)


@pytest.mark.parametrize("lay, reason", [
    (dict(hex="M6", tile="14-0", rotation=0), "Green tiles cannot be laid in phase 2"),
    (dict(hex="N3", tile="59-0", rotation=0), "Green tiles cannot be laid in phase 2"),
    (dict(hex="M4", tile="9-0", rotation=0), "not upgradeable"),           # a city is not plain track
    (dict(hex="M6", tile="8-0", rotation=2), "not upgradeable"),           # M6 has a town
    (dict(hex="N3", tile="57-0", rotation=0), "not legally rotated"),      # track would not meet Barrie
    (dict(hex="N3", tile="57-0", rotation=6), "Rotation must be 0 to 5"),
    (dict(hex="C14", tile="5-0", rotation=0), "not legally rotated"),      # far from CPR's network
    (dict(hex="L3", tile="7-0", rotation=0), "blocked by Flos Tramway"),
    (dict(hex="I12", tile="57-0", rotation=0), "blocked by Waterloo & Saugeen"),
    (dict(hex="H11", tile="3-0", rotation=0), "blocked by The Canada Company"),
    (dict(hex="M6", tile="8-99", rotation=0), "Unknown tile"),             # tile 8 has 13 copies
    (dict(hex="N3", tile="M4-0", rotation=1), "not available"),            # Barrie's printed tile
    (dict(hex="Z99", tile="57-0", rotation=1), "Unknown hex"),
])
def test_illegal_lays_are_refused(lay, reason):
    game = cpr_first()
    assert reason in rejected(game, "CPR", "lay_tile", **lay)


def test_only_one_lay_per_turn():
    game = cpr_first()
    act(game, "CPR", "lay_tile", hex="M6", tile="58-0", rotation=1)
    assert "lay_tile" not in legal(game)["types"]
    rejected(game, "CPR", "lay_tile", hex="N3", tile="57-0", rotation=1)


def test_track_is_laid_only_by_the_operating_corporation_in_its_turn():
    game = cpr_first()
    assert "not WGB's turn" in rejected(game, "WGB", "lay_tile", hex="M6", tile="58-0", rotation=1)
    assert rejected(game, 3, "lay_tile", entity_type="player", hex="M6", tile="58-0", rotation=1)


def test_passing_track_moves_on_without_laying():
    game = cpr_first()
    act(game, "CPR", "pass")
    assert game.state.board.hex_by_id("M6").tile.preprinted and "lay_tile" not in legal(game)["types"]


def test_upgrade_keeps_the_old_track_and_needs_the_phase_colour():
    game = position("51745", 94)          # OR 3.1, phase 3: WR may upgrade Fort Erie's yellow city
    assert operator(game).id == "WR" and tile_on(game, "O18") == ("6-0", 1)
    assert "not legally rotated" in rejected(game, "WR", "lay_tile", hex="O18", tile="15-0", rotation=0)
    assert "not upgradeable" in rejected(game, "WR", "lay_tile", hex="O18", tile="59-0", rotation=0)
    assert "Brown tiles cannot be laid in phase 3" in rejected(game, "WR", "lay_tile", hex="O18", tile="63-0",
                                                                   rotation=0)
    act(game, "WR", "lay_tile", hex="O18", tile="15-0", rotation=1)
    assert tile_on(game, "O18") == ("15-0", 1)
    assert game.state.board.tile_by_id("6-0").hex is None      # the yellow tile went back to the supply


def test_a_tile_whose_copies_are_all_on_the_map_is_not_available():
    game = position("51745", 201)         # both #59 tiles are on the map (Hamilton and Welland)
    board = game.state.board
    assert board.supply_count("59") == 0              # of two copies
    assert {board.tile_by_id(t).hex.id for t in ("59-0", "59-1")} == {"L15", "N17"}
    assert "not available" in rejected(game, "CV", "lay_tile", hex="K14", tile="59-0", rotation=0)


def test_mountain_costs_forty():
    game = position("51745", 201)         # CV, $205, reaches the K14 mountain
    costs = {(o["hex"], o["cost"]) for o in lays(game)}
    assert ("K14", 40) in costs and all(cost == 0 for hex_id, cost in costs if hex_id != "K14")
    act(game, "CV", "lay_tile", hex="K14", tile="8-1", rotation=2)
    assert corp(game, "CV").cash == 205 - 40


def test_hamiltons_brown_tile_upgrades_only_to_its_own_gray_tile():
    game = position("51745", 465, start=455)       # phase 6; Hamilton (L15) carries the brown OO tile #66
    assert tile_on(game, "L15")[0] == "66-0"
    assert [(o["tile"], o["rotations"]) for o in lays(game, hex_id="L15")] == [("123-0", [5])]
    assert "not upgradeable" in rejected(game, "CV", "lay_tile", hex="L15", tile="124-0", rotation=5)
    act(game, "CV", "lay_tile", hex="L15", tile="123-0", rotation=5)
    assert tile_on(game, "L15") == ("123-0", 5)
