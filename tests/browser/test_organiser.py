"""The organiser's pages in the browser: importing an 18xx.games export from a file and exporting a
game from the lobby, a tournament created, a game added and its standings shown, and a game ended
by its operator; each checked against the gateway and the engine."""

from __future__ import annotations

import json

import pytest
from rh_support import load_fixture, wait_until

import engine
from contracts.v1 import gateway_pb2 as gw

pytestmark = pytest.mark.timeout(600)


def test_import_export_and_a_tournament(platform, new_page, tmp_path):
    export = load_fixture("hotseat004.json")
    path = tmp_path / "hotseat004.json"
    path.write_text(json.dumps(export))
    oracle = engine.import_game(export)
    page = new_page("organiser")
    p = page.page
    p.goto(platform.url)
    p.set_input_files("input[name=export]", str(path))
    p.fill("input[name=import-id]", "club-1")
    p.click("form.import-game button[type=submit]")
    p.wait_for_selector('.seat-links[data-game="club-1"] a.seat-link')
    view = platform.gateway.GetGame(gw.GetGameRequest(game_id="club-1", without_legal_actions=True), timeout=120)
    assert (view.seq, view.digest) == (oracle.seq, oracle.digest())
    assert p.locator('.seat-links[data-game="club-1"] a.seat-link').count() == len(export["players"])

    row = p.wait_for_selector('.games tr[data-game="club-1"]')
    with p.expect_download() as download:
        row.query_selector("button:has-text('Export')").click()
    exported = json.loads(open(download.value.path()).read())
    assert exported == json.loads(platform.gateway.ExportGame(gw.ExportGameRequest(game_id="club-1")).export_json)
    assert len(exported["actions"]) == len(export["actions"])

    p.goto(f"{platform.url}#/tournaments")
    p.fill("input[name=tournament-name]", "Club night")
    p.click("button:has-text('Create')")
    p.wait_for_selector(".page.tournament .standings h3:has-text('Club night')")
    p.select_option("select[name=add-game]", "club-1")
    assert p.input_value("input[name=organiser-token]"), "the organiser's token is remembered"
    p.click("button:has-text('Add')")
    p.wait_for_selector(".standings tr[data-player]")
    listed = platform.gateway.ListTournaments(gw.ListTournamentsRequest()).tournaments
    assert [(t.name, list(t.game_ids)) for t in listed] == [("Club night", ["club-1"])]
    standings = platform.gateway.GetStandings(gw.GetStandingsRequest(tournament_id=listed[0].tournament_id))
    shown = p.eval_on_selector_all(".standings tr[data-player]", "rows => rows.map(r => r.dataset.player)")
    assert shown == [r.player for r in standings.rows] and len(shown) == len(export["players"])
    p.goto(f"{platform.url}#/tournaments")
    p.wait_for_selector(".page.tournaments li:has-text('Club night')")
    assert page.errors == [], "\n".join(page.errors)


def test_the_operator_ends_a_game(platform, new_page):
    created = platform.gateway.CreateGame(gw.CreateGameRequest(title="1856", seats=[gw.Seat(name=s) for s in ("Ann", "Bob", "Cid")], game_id="ending", seed=5))
    oracle = engine.new_game("1856", [{"id": s, "name": s} for s in ("Ann", "Bob", "Cid")], seed=5, game_id="ending")
    page = new_page("operator")
    p = page.page
    p.goto(f"{platform.url}#/game/ending?operator=1&token={created.operator_token}")
    p.wait_for_selector(".page.game .map-svg g.hex")
    p.on("dialog", lambda d: d.accept())
    p.click("button[data-action=end_game]")
    oracle.process({"type": "end_game", "entity": "Ann", "entity_type": "player"})
    view = lambda: platform.gateway.GetGame(gw.GetGameRequest(game_id="ending", without_legal_actions=True))
    assert wait_until(lambda: view().finished, 30)
    assert view().digest == oracle.digest() and oracle.game_end_reason == "manually_ended"
    p.wait_for_selector(".round-bar .finished")
    assert page.errors == [], "\n".join(page.errors)
