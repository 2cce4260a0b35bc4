"""Every recorded game of every title, imported and opened in the spectator view: the page renders
the engine's state (every hex of the title's map, every laid tile at its rotation, every token, the
round) without a browser console error. A screenshot of each is kept as a test artefact."""

from __future__ import annotations

import json
import re

import pytest
from conftest import Page
from rh_support import all_fixture_files

from tools import evidence

from contracts.v1 import gateway_pb2 as gw

pytestmark = [pytest.mark.timeout(900), pytest.mark.slow]

# The recorded games of the suite (fixtures-new holds games not all of which import yet).
FIXTURES = [p for p in all_fixture_files() if p.parent.parent.name == "fixtures"]


def board_of(title_slug: str) -> dict:
    import engine
    return engine.title_facts(title_slug)["board"]


def game_name(path) -> str:
    return path.name.removesuffix(".json.xz")


def test_the_suite_has_recorded_games():
    assert FIXTURES, "no recorded games in evidence/fixtures"


@pytest.mark.parametrize("path", FIXTURES, ids=[f"{p.parent.name}/{game_name(p)}" for p in FIXTURES])
def test_recorded_game_renders_in_the_spectator_view(path, shared_platform, new_page, artefacts):
    game_id = re.sub(r"[^A-Za-z0-9_.:-]", "-", f"{path.parent.name}-{game_name(path)}")
    created = shared_platform.gateway.ImportGame(
        gw.ImportGameRequest(export_json=evidence.read_bytes(path), game_id=game_id), timeout=600)
    view = json.loads(shared_platform.gateway.GetGame(gw.GetGameRequest(game_id=game_id, without_legal_actions=True), timeout=300).view_json)
    assert view["seq"] == created.seq

    page: Page = new_page(game_name(path))
    p = page.page
    p.goto(f"{shared_platform.url}#/game/{game_id}")
    p.wait_for_selector(f'.page.game[data-seq="{view["seq"]}"] .map-svg g.hex', timeout=300_000)

    board = board_of(path.parent.name)
    assert p.locator(".map-svg g.hex").count() == len(board["hexes"])
    tiles = p.eval_on_selector_all(".map-svg g.hex", "els => els.map(e => [e.dataset.hex, e.dataset.tile, e.dataset.rotation])")
    drawn = {hex_: (tile, int(rot)) for hex_, tile, rot in tiles}
    for hex_, placed in view["map"]["tiles"].items():
        tile, _, rotation = placed.partition("@")
        assert drawn[hex_] == (tile, int(rotation or 0)), f"{hex_}: drawn {drawn[hex_]}, the engine has {placed}"
    tokens = sorted(t for slots in view["map"]["tokens"].values() for t in slots if t is not None)
    assert sorted(p.eval_on_selector_all(".map-svg [data-token]", "els => els.map(e => e.dataset.token)")) == tokens
    assert p.locator(".round-label").inner_text() == view["round"]["label"]
    assert p.locator(".players tr[data-player]").count() == len(view["players"])
    assert p.locator(".market-grid td[data-cell]").count() == sum(c is not None for row in view["market"]["rows"] for c in row)
    assert p.locator(".actions").count() == 0, "a spectator gets no controls"
    p.add_style_tag(content=".map { max-height: none; }")   # the whole map in the artefact
    p.screenshot(path=str(artefacts / f"spectator-{game_id}.png"), full_page=True)
    assert page.errors == [], "\n".join(page.errors)
