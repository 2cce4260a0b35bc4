"""An 1856 game played only by clicks in the browser, each step checked against the engine: the
game is created in the lobby, the private auction, a stock round and operating rounds (a tile laid
after trying its rotations in place, a token, the best routes shown then one drawn by hand and run,
a dividend, trains bought) are played from the three seats' pages. After every click the action the
platform stored must be exactly the one meant, and the platform's state must equal the engine's
after the same action (digest). A second seat sees the first one's moves arrive without reloading."""

from __future__ import annotations

import json

import pytest
from conftest import Page, Platform
from rh_support import wait_until

import engine
from contracts.v1 import gateway_pb2 as gw

pytestmark = pytest.mark.timeout(600)

SEATS = ("Ann", "Bob", "Cid")
GAME_ID, SEED = "web-1856", 11


class Checked:
    """The engine alone, fed the action each click must have produced, as the oracle."""

    def __init__(self, platform: Platform):
        self.platform = platform
        self.game = engine.new_game("1856", [{"id": s, "name": s} for s in SEATS], seed=SEED, game_id=GAME_ID)

    def view(self) -> gw.GameView:
        return self.platform.gateway.GetGame(gw.GetGameRequest(game_id=GAME_ID, without_legal_actions=True), timeout=60)

    def expect(self, action: dict, *pages: Page) -> None:
        """The last click stored exactly `action`, and the game is the engine's after it; every page
        given shows the new position."""
        self.game.process(dict(action))
        seq = self.game.seq
        assert wait_until(lambda: self.view().seq >= seq, 30), f"the platform did not reach seq {seq} ({action})"
        stored = json.loads(self.platform.gateway.ExportGame(gw.ExportGameRequest(game_id=GAME_ID), timeout=60).export_json)["actions"][-1]
        stored = {k: v for k, v in stored.items() if k not in ("id", "created_at", "auto_actions")}
        for route in stored.get("routes", ()):
            route.pop("revenue")   # the engine's own computation, whatever a client sends
        assert stored == action
        view = self.view()
        assert (view.seq, view.digest) == (seq, self.game.digest())
        for page in pages:
            page.page.wait_for_selector(f'.page.game[data-seq="{seq}"]', timeout=30_000)

    def legal(self, entity: str) -> dict:
        return next(e for e in self.game.legal_actions() if str(e["entity"]) == entity)


def open_seat(new_page, platform: Platform, href: str, name: str) -> Page:
    page = new_page(name)
    page.page.goto(f"{platform.url}{href}")
    page.page.wait_for_selector(".page.game .map-svg g.hex", timeout=60_000)
    return page


def create_in_lobby(organiser: Page, platform: Platform) -> dict[str, str]:
    p = organiser.page
    p.goto(platform.url)
    p.select_option("select[name=title]", "1856")
    for i, name in enumerate(SEATS):
        p.fill(f"input[name=seat-{i}]", name)
    p.fill("input[name=seed]", str(SEED))
    p.fill("input[name=game-id]", GAME_ID)
    p.click("text=Create the game")
    p.wait_for_selector(".seat-links")
    return {s: p.get_attribute(f'a.seat-link[data-player="{s}"]', "href") for s in SEATS}


def click_pass(page: Page, entity: str) -> None:
    page.page.click(f'.entry[data-entity="{entity}"] .type[data-type="pass"] button')


def test_1856_from_creation_through_an_operating_round_by_clicks(platform, new_page, artefacts):
    organiser = new_page("organiser")
    links = create_in_lobby(organiser, platform)
    ann, bob, cid = (open_seat(new_page, platform, links[s], s) for s in SEATS)
    seat = {"Ann": ann, "Bob": bob, "Cid": cid}
    check = Checked(platform)
    everyone = (ann, bob, cid)

    # the private auction: each buys the cheapest private at its price
    for who, company, price in (("Ann", "FT", 20), ("Bob", "WSRC", 40), ("Cid", "TCC", 50)):
        seat[who].page.click(f'tr[data-company="{company}"] button:has-text("Bid")')
        check.expect({"type": "bid", "entity": who, "entity_type": "player", "company": company, "price": price}, *everyone)
    # an illegal bid is refused with the engine's reason, and changes nothing
    ann.page.fill('input[name="bid-NFSBC"]', "1")
    ann.page.click('tr[data-company="NFSBC"] button:has-text("Bid")')
    alert = ann.page.wait_for_selector(".error[role=alert]")
    assert "bid" in alert.inner_text().lower() or "minimum" in alert.inner_text().lower(), alert.inner_text()
    assert check.view().seq == check.game.seq
    assert ann.errors == ["console.error: Failed to load resource: the server responded with a status of 400 (Bad Request)"]
    ann.errors.clear()   # the refused call itself, as the browser logs it
    ann.page.click(".error[role=alert] button")
    # undo and redo from the seat that moved last
    cid.page.click("button[data-action=undo]")
    check.expect({"type": "undo", "entity": "Cid", "entity_type": "player"}, *everyone)
    cid.page.click("button[data-action=redo]")
    check.expect({"type": "redo", "entity": "Cid", "entity_type": "player"}, *everyone)
    for who, company, price in (("Ann", "GLSC", 70), ("Bob", "NFSBC", 100), ("Cid", "SCFTC", 100)):
        seat[who].page.click(f'tr[data-company="{company}"] button:has-text("Bid")')
        check.expect({"type": "bid", "entity": who, "entity_type": "player", "company": company, "price": price}, *everyone)
    assert check.game.round_label == "SR 1"
    ann.page.wait_for_selector('.round-label:has-text("SR 1")')

    # the stock round: Ann starts GW at 65, the others and she buy it to float, all pass
    ann.page.select_option("select[name=par-corporation]", "GW")
    ann.page.click('button[data-action=par][data-price="65,5,4"]')
    check.expect({"type": "par", "entity": "Ann", "entity_type": "player", "corporation": "GW", "share_price": "65,5,4"}, *everyone)
    for who in ("Bob", "Cid", "Ann", "Bob", "Cid"):
        share = next(b["share"] for b in check.legal(who)["buy_shares"] if b["share"].startswith("GW_"))
        seat[who].page.click('button[data-action=buy_shares]:has-text("Buy GW from IPO")')
        check.expect({"type": "buy_shares", "entity": who, "entity_type": "player", "shares": [share]}, *everyone)
    for who in SEATS:
        click_pass(seat[who], who)
        check.expect({"type": "pass", "entity": who, "entity_type": "player"}, *everyone)
    assert check.game.round_label == "OR 1.1"

    # the operating round: Ann runs GW. A tile: the hex, then the tile, then its rotation in place
    a = ann.page
    a.click('.map-svg g.hex[data-hex="F17"]')
    a.click('button.tile-choice[data-tile="5-0"]')
    f17 = '.map-svg g.hex[data-hex="F17"]'
    assert (a.get_attribute(f17, "data-tile"), a.get_attribute(f17, "data-rotation")) == ("5-0", "2")
    a.click("button[aria-label='rotate right']")
    assert a.get_attribute(f17, "data-rotation") == "3"
    a.click(f17)          # clicking the hex turns it too
    assert a.get_attribute(f17, "data-rotation") == "2"
    a.click("button[data-action=lay_tile]")
    check.expect({"type": "lay_tile", "entity": "GW", "entity_type": "corporation", "hex": "F17", "tile": "5-0", "rotation": 2}, *everyone)
    bob.page.wait_for_selector(f'{f17}[data-tile="5-0"][data-rotation="2"]')
    # a token in the new city, clicked on the map
    a.click(f"{f17} .slot.clickable")
    check.expect({"type": "place_token", "entity": "GW", "entity_type": "corporation", "city": "5-0-0", "slot": 0}, *everyone)
    cid.page.wait_for_selector(f'{f17} [data-token="GW"]')
    # a train
    a.click('button[data-action=buy_train]:has-text("Buy 2-0")')
    check.expect({"type": "buy_train", "entity": "GW", "entity_type": "corporation", "train": "2-0", "variant": "2", "price": 100}, *everyone)
    for _ in range(2):   # no second train; no loan
        click_pass(ann, "GW")
        check.expect({"type": "pass", "entity": "GW", "entity_type": "corporation"}, *everyone)
    for who in SEATS:    # stock round 2: everyone passes
        click_pass(seat[who], who)
        check.expect({"type": "pass", "entity": who, "entity_type": "player"}, *everyone)
    assert check.game.round_label == "OR 2.1"

    # operating round 2: no track; the best routes, then a route drawn by hand, run; a dividend
    click_pass(ann, "GW")
    check.expect({"type": "pass", "entity": "GW", "entity_type": "corporation"}, *everyone)
    a.click("button[data-action=find_routes]")
    row = a.wait_for_selector('.routes tr[data-train="2-0"]')
    best = check.game.best_routes("GW")
    assert best[0]["revenue_str"] in row.inner_text() and f"${best[0]['revenue']}" in row.inner_text()
    drawn = a.wait_for_selector('.map-svg g.route[data-train="2-0"] polyline', state="attached")
    assert len(drawn.get_attribute("points").split()) == len(best[0]["connections"][0]), "the route is drawn on the map"
    ann.page.screenshot(path=str(artefacts / "play-1856-routes.png"), full_page=False)
    a.click('.routes tr[data-train="2-0"] button:has-text("Draw")')
    a.click('.map-svg g.hex[data-hex="F17"]')
    a.click('.map-svg g.hex[data-hex="F15"]')
    a.click('.routes tr[data-train="2-0"] button:has-text("Done")')
    a.click("button[data-action=run_routes]")
    check.expect({"type": "run_routes", "entity": "GW", "entity_type": "corporation", "routes": [
        {"train": "2-0", "connections": [["F17", "F15"]], "hexes": ["F17", "F15"], "revenue_str": "F17-F15"}]}, *everyone)
    assert check.game.actions[-1]["routes"][0]["revenue"] == best[0]["revenue"], "the engine computed the revenue"
    a.click('button[data-action=dividend]:has-text("Pay out")')
    check.expect({"type": "dividend", "entity": "GW", "entity_type": "corporation", "kind": "payout"}, *everyone)
    a.click('button[data-action=buy_train]:has-text("Buy 2-1")')
    check.expect({"type": "buy_train", "entity": "GW", "entity_type": "corporation", "train": "2-1", "variant": "2", "price": 100}, *everyone)
    gw_row = ann.page.inner_text('.corporations tr[data-corporation="GW"]')
    assert "2-0 2-1" in gw_row
    ann.page.screenshot(path=str(artefacts / "play-1856.png"), full_page=False)
    for page in (organiser, ann, bob, cid):
        assert page.errors == [], f"{page.name}: " + "\n".join(page.errors)


def test_second_seat_sees_the_first_ones_moves_live(platform, new_page):
    created = platform.gateway.CreateGame(gw.CreateGameRequest(title="1856", seats=[gw.Seat(name=s) for s in SEATS], game_id=GAME_ID, seed=SEED))
    tokens = {s.player_id: s.token for s in created.seats}
    ann = open_seat(new_page, platform, f"#/game/{GAME_ID}?player=Ann&token={tokens['Ann']}", "Ann")
    bob = open_seat(new_page, platform, f"#/game/{GAME_ID}?player=Bob&token={tokens['Bob']}", "Bob")
    bob.page.wait_for_selector(".page.game .live.on")   # watching (a late watch would get the move as history)
    bob.page.evaluate("window.__stillHere = true")
    assert bob.page.locator(".actions").count() == 0, "not Bob's turn yet"
    ann.page.click('tr[data-company="FT"] button:has-text("Bid")')
    bob.page.wait_for_selector('.page.game[data-seq="1"]', timeout=30_000)
    assert "FT" in bob.page.inner_text('.players tr[data-player="Ann"]')
    bob.page.wait_for_selector('.history li[data-seq="1"]')
    bob.page.wait_for_selector('.actions tr[data-company="WSRC"]')   # now Bob's turn, his controls
    assert bob.page.evaluate("window.__stillHere") is True, "the page was not reloaded"
    assert ann.errors == [] and bob.errors == []
