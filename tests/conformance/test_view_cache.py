"""The board's view is computed once per position and shared by the digest and every view of the
position (engine.Game.map_view): at every position of every recorded game of every title, played as
the client replay plays it (undos and redos included), the shared view equals the board's view
computed afresh, and both equal a plain reading of the board; the digest and the view carry it."""

from __future__ import annotations

import hashlib
import json

import pytest
from rh_support import engine_prefix

from engine.views import state_fingerprint
from tools import evidence

GAMES = [pytest.param(slug, name, id=f"{slug}/{name}")
         for slug in evidence.titles() for folder in evidence.GAME_FOLDERS for name in evidence.game_names(slug, folder)]


def plain_map(board) -> dict:
    """The board's view read the plain way, every hex and city looked at in full."""
    tiles, tokens, reservations, icons, assignments = {}, {}, {}, {}, {}
    for hex_ in board.hexes:
        tile = hex_.tile
        if tile is not hex_.original_tile:
            tiles[hex_.id] = f"{tile.id}@{tile.rotation}"
        for city in tile.cities:
            if any(t is not None for t in city.tokens) or city.extra_tokens:
                tokens[board.city_ref(city)] = [None if t is None else t.corporation.id
                                                for t in list(city.tokens) + list(city.extra_tokens)]
            held = [getattr(r, "id", r) for r in city.reservations if r is not None]
            if held:
                reservations[board.city_ref(city)] = held
        if tile.reservations:
            reservations[hex_.id] = [getattr(r, "id", r) for r in tile.reservations]
        names = [i["name"] for i in tile.icons]
        if (tile is not hex_.original_tile or names != [i["name"] for i in tile.tdef.icons]) and names:
            icons[hex_.id] = names
        if hex_.assignments:
            assignments[hex_.id] = sorted(map(str, hex_.assignments))
    return {"tiles": tiles, "tokens": tokens, "reservations": reservations, "icons": icons,
            "assignments": assignments}


@pytest.mark.slow
@pytest.mark.parametrize(("slug", "name"), GAMES)
def test_shared_map_view_is_the_board_at_every_position(slug, name):
    export = evidence.load_game(slug, name)
    seen = {"positions": 0, "after_undo": 0, "changed": 0}
    last = {"map": None, "undo": False}

    def check(game, move, index):
        shared = game.map_view()
        assert shared == game.state.board.view() == plain_map(game.state.board), (slug, name, index)
        assert game.map_view() == shared
        text = json.dumps(state_fingerprint(game.state), sort_keys=True, separators=(",", ":"), default=str)
        assert game.digest() == hashlib.sha256(text.encode()).hexdigest()[:16]
        view = game.view(legal_actions=False)
        assert view["map"] == shared
        view["map"]["tiles"]["changed by a caller"] = "x"   # a caller's copy: the next read is intact
        assert game.map_view() == shared
        # a view made of the position's own parts (as the platform serialises it) equals a copied one,
        # and the players' values it shares with the summary are the rules' own
        values = {str(p.id): game.state.player_value(p) for p in game.state.players}
        assert game.player_values() == values
        assert [p["value"] for p in view["players"]] == list(values.values())
        legal = index % 7 == 0
        assert game.view(legal_actions=legal, shared=True) == game.view(legal_actions=legal)
        assert game.view(legal_actions=legal, shared=True)["map"] is game.map_view(shared=True)
        seen["positions"] += 1
        seen["after_undo"] += last["undo"]
        seen["changed"] += last["map"] is not None and last["map"] != shared
        last["map"], last["undo"] = shared, move.get("type") in ("undo", "redo")

    k, game, _error = engine_prefix(export, before=check)
    assert seen["positions"] > 0 and seen["changed"] > 0
    if any(a.get("type") == "undo" for a in export["actions"][:k]):
        assert seen["after_undo"] > 0
