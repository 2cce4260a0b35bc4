"""1858 track rules met in live play: a private railway lays track in any of its home hexes (bare
or not) towards any neighbour, and must join the stubs between its home hexes while it runs; its
stubs go when it closes, so public companies then lay there freely. Refused lays change nothing."""

import pytest

import engine

from .helpers import act, lays, position, rejected

GAME = "1858/1858_game_end_bank"


# ---------------------------------------------------------------------- home hexes
def test_a_private_railway_lays_track_in_a_bare_home_hex():
    game = position(GAME, 133)            # OR 1.2: the Almadén and Sevilla (home G4 and H3, both bare)
    offered = {t["tile"]: t["rotations"] for t in lays(game, "A&S", "G4")}
    assert offered["9-0"] == [1, 4]       # plain track through the stub towards H3
    act(game, "A&S", "lay_tile", "minor", hex="G4", tile="9-0", rotation=1)
    assert game.state.board.hex_by_id("G4").tile.name == "9"


def test_a_lay_in_a_home_hex_must_join_the_stubs():
    game = position(GAME, 133)
    assert "not legally rotated" in rejected(game, "A&S", "lay_tile", "minor", hex="G4", tile="9-0", rotation=0)
    state = game.state
    tile = state.board.tile_by_id("9-0")
    tile.rotate(0)
    assert "track stubs" in state.board.rotation_problem(state.minor_by_id("A&S"), state.board.hex_by_id("G4"), tile)


def test_a_private_railway_cannot_lay_away_from_its_home_hexes():
    game = position(GAME, 133)
    assert "legally rotated" in rejected(game, "A&S", "lay_tile", "minor", hex="K12", tile="9-0", rotation=1)


# ---------------------------------------------------------------------- stubs
def test_each_home_hexside_has_one_stub():
    game = engine.new_game("1858", [{"id": i, "name": f"P{i}"} for i in range(4)], seed=1)
    board = game.state.board
    assert board.hex_by_id("G4").tile.stubs == [{"edge": 4, "track": "future"}]
    assert board.hex_by_id("K4").tile.stubs == [{"edge": 0, "track": "future"}]


def test_a_closed_private_railway_leaves_no_stubs():
    game = position(GAME, 218)            # the Zaragoza and Pamplona (home K4, K6, L7) has closed
    board = game.state.board
    assert game.state.minor_by_id("Z&P").closed
    assert not board.hex_by_id("K4").tile.stubs and not board.hex_by_id("K6").tile.stubs
    offered = {t["tile"]: t["rotations"] for t in lays(game, "N", "K4")}
    assert offered["3-2"] == [1, 2]       # the town no longer has to face K6
    act(game, "N", "lay_tile", hex="K4", tile="3-2", rotation=2)
    assert board.hex_by_id("K4").tile.name == "3"


def test_a_lay_off_the_company_s_network_is_still_refused():
    game = position(GAME, 218)
    assert "not legally rotated" in rejected(game, "N", "lay_tile", hex="K4", tile="3-2", rotation=4)


# ---------------------------------------------------------------------- offering lays
def test_lays_are_offered_hexes_first_and_a_hex_s_tiles_on_request():
    """Late in the game MZA may build on dozens of hexes: the legal actions name them; each hex's
    tiles come from tile_lays (the track restriction previewed), and no hex left out has any."""
    game = position(GAME, 869)
    entry = next(e for e in game.legal_actions() if e["entity"] == "MZA")
    hexes = entry["lay_hexes"]
    assert "tiles" not in entry and len(hexes) > 30 and "C10" in hexes
    per_hex = {h.id: game.tile_lays("MZA", "corporation", h.id) for h in game.state.board.hexes}
    assert {h for h, found in per_hex.items() if found} <= set(hexes)
    assert [lay for h in hexes for lay in per_hex[h]] == game.tile_lays("MZA", "corporation")
    assert any(t["tile"] == "83-1" and 2 in t["rotations"] for t in per_hex["C10"])   # the recorded lay
    assert game.tile_lays("RP", "corporation", "C10") == []        # not RP's turn
    answer = game.tile_lays("MZA", "corporation", "C10")
    answer.clear()                                                  # a copy: the next answer is whole
    assert game.tile_lays("MZA", "corporation", "C10") == per_hex["C10"]
    for entity, entity_type, hex_id in (("MZA", "corporation", "Z99"), ("XX", "corporation", "C10"),
                                        ("MZA", "train", "C10")):
        with pytest.raises(engine.GameError):
            game.tile_lays(entity, entity_type, hex_id)
    act(game, "MZA", "lay_tile", hex="C10", tile="83-1", rotation=2)
    assert game.state.board.hex_by_id("C10").tile.id == "83-1"
