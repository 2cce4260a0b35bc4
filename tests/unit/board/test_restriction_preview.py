"""The track restriction previewed before a lay (``Board.track_restriction_problem``) walks only
from the tokens whose network looked at the hex; it must say exactly what walking the whole network
with the tile in place says, for every tile and rotation offered on recorded positions."""

from __future__ import annotations

import pytest
from rh_support import load_fixture

import engine
from engine.board.graph import Graph

POSITIONS = [("1858_india", "hotseat_qs_b.json", (520,)), ("1858", "1858_game_end_bank.json", (400, 700)),
             ("1822", "33845.json", (1100,)), ("1847_ae", "1847AE_game_end_bank.json", (300, 450)),
             ("1856", "51745.json", (200, 400))]


def whole_network_problem(board, corp, hex_, tile):
    """The restriction with every token's walk redone on the board with the tile in place."""
    old = hex_.tile
    if not old.paths:
        return board._restriction_problem(old, tile, ())
    starts, blocked = board.upgrade_token_cities(old, tile, corp)
    hook = getattr(board.game, "graph_specs", None)
    specs = hook(corp) if hook is not None else (None,)
    hex_.tile, tile.hex = tile, hex_
    try:   # (a graph walks when first asked)
        graphs = [Graph(board, corp, extra_token_cities=starts, skip_track=spec[0] if spec else None,
                        home_as_token=spec[1] if spec else False, blocked_cities=blocked) for spec in specs]
        reached = [g.connected_paths for g in graphs]
    finally:
        hex_.tile, tile.hex = old, None
    problems = [board._restriction_problem(old, tile, paths) for paths in reached]
    return None if not all(problems) else problems[0]


@pytest.mark.parametrize("slug,name,cuts", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_the_preview_agrees_with_walking_the_whole_network(slug, name, cuts):
    export = load_fixture(name, slug)
    compared = 0
    for cut in cuts:
        game = engine.import_game({**export, "actions": export["actions"][:cut]})
        state = game.state
        board = state.board
        for entity in state.corporations + state.minors:
            corp = board._operator(entity)
            if corp is None or not any(c.tokened_by(corp) for h in board.hexes for c in h.tile.cities):
                continue
            for hex_ in board.hexes:
                for tile, rotations in board.upgradeable_tiles(entity, hex_):
                    if not hex_.tile.paths:
                        continue
                    keep = tile.rotation
                    for r in rotations:
                        board.rotate(tile, r)
                        assert board.track_restriction_problem(entity, hex_, tile) == \
                            whole_network_problem(board, corp, hex_, tile), (cut, entity.id, hex_.id, tile.name, r)
                        compared += 1
                    board.rotate(tile, keep)
    assert compared > 0
