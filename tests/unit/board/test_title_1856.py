"""1856's own map rules, played through the 1856 game and its board: the upgrade relation in every
phase (gray-phase town conversions) and on Hamilton, the port and bridge/tunnel bonuses, and the
destination check."""

from __future__ import annotations

import pytest

import engine
from engine.board.bonuses import assignment_bonus, hex_bonus_abilities
from engine.core.entities import Ability

from .support import corporation, give_train, reference, token_in, train


def _game():
    return engine.new_game("1856", [{"id": i, "name": f"P{i}"} for i in range(1, 5)], seed=1).state


@pytest.fixture(scope="module")
def ref():
    return reference("1856")


def test_upgrades_in_every_phase_match_the_reference(ref):
    state = _game()
    board = state.board
    names = ref["tiles"]["order"]
    tiles = {n: board.tile_by_id(f"{n}-0") for n in names}
    base = ref["upgrades"]["tile_to_tile"]
    for index, phase in enumerate(ref["phases"]):
        state.phase.index = index
        assert state.phase.name == phase["name"]
        diffs = ref["upgrades"]["tile_to_tile_phase_differences"].get(phase["name"], {})
        for old in names:
            change = diffs.get(old, {})
            expected = (set(base[old]) | set(change.get("added", ()))) - set(change.get("removed", ()))
            mine = {n for n in names if state.upgrades_to(tiles[old], tiles[n])}
            assert mine == expected, (phase["name"], old)


def test_hamilton_brown_tiles_become_123(ref):
    names = ref["tiles"]["order"]
    for old, by_hex in ref["upgrades"]["tile_to_tile_hex_differences"].items():
        for hex_id, change in by_hex.items():
            state = _game()
            board = state.board
            hex_ = board.hex_by_id(hex_id)
            laid = board.tile_by_id(f"{old}-0")
            board.lay_tile(hex_, laid, 0)
            expected = (set(ref["upgrades"]["tile_to_tile"][old]) | set(change["added"])) - set(change["removed"])
            mine = {n for n in names if n != old and state.upgrades_to(laid, board.tile_by_id(f"{n}-0"))}
            assert mine == expected, (old, hex_id)


def test_port_and_rights_bonuses():
    state = _game()
    board = state.board
    corp = corporation("XX")
    hexes = {h: board.hex_by_id(h) for h in ("O16", "P17", "O18")}
    board.lay_tile(hexes["O16"], board.tile_by_id("6-0"), 5)         # O16 city toward P17 (edge 5)
    token_in(board, corp, hexes["O16"].tile.cities[0])
    give_train(corp, train("2", 2))
    raw = {"train": "2-0", "connections": [["O16", "P17"]]}
    plain = board.route(corp, raw, state.phase).revenue
    assert plain == 20 + 30
    corp.add_ability(Ability("hex_bonus", hexes=["P17", "P19"], amount=10))
    assert board.route(corp, raw, state.phase).revenue == plain + 10
    assert [b.per_hex for b in hex_bonus_abilities(corp)] == [True]
    hexes["O16"].assign("GLSC")
    assert assignment_bonus(board, corp, "GLSC", 20) == []            # the corporation lacks the port
    corp.assign("GLSC")
    (port,) = assignment_bonus(board, corp, "GLSC", 20)
    assert port.hexes == {"O16"} and port.value({"O16", "P17"}) == 20


def test_destinations_need_track_not_tokens():
    state = _game()
    board = state.board
    assert not board.hexes_connected("O16", ["P17"])
    assert board.hexes_connected("A20", ["A20"]) is False                # no city to start from
    board.lay_tile(board.hex_by_id("O16"), board.tile_by_id("6-0"), 5)
    assert board.hexes_connected("O16", ["P17"])
    other = corporation("YY", tokens=(0,))
    token_in(board, other, board.hex_by_id("O16").tile.cities[0])      # tokens do not matter
    assert board.hexes_connected("O16", ["P17", "Q10"])
