"""The titles' own actions through their controls: positions of recorded games where the recorded
move is a title-specific one (1822 bid boxes, company choices, acquisitions and mergers; 1856 loans,
company purchases, assignments and bridge/tunnel rights; 1847 AE's draft; 1858's private railway
exchanges, conversions, closure choices and scrapped trains; 1858 India's hex tokens and Pullman
choice) are imported and opened with the operator's link; the control for that move is used as a
person would (a button, or an amount then its button), and the platform must reach the state the
engine reaches with the recorded move."""

from __future__ import annotations

import json

import pytest
from conftest import Page, Platform
from rh_support import wait_until

from tools import evidence

import engine
from contracts.v1 import gateway_pb2 as gw

pytestmark = [pytest.mark.timeout(900), pytest.mark.slow]

# (fixture, index of the recorded move)
CASES = [
    ("1822/hs_lxemeslq_30797.json", 0),          # a bid on a bid box
    ("1822/discard_trains_after_sr_export.json", 107),   # choose: double cash
    ("1822/discard_trains_after_sr_export.json", 238),   # merge a minor
    ("1822/discard_trains_after_sr_export.json", 304),   # acquire a private
    ("1822/discard_trains_after_sr_export.json", 705),   # choose_ability: the tax haven
    ("1856/51745.json", 33),                     # take a loan
    ("1856/51745.json", 70),                     # buy a company at a chosen price
    ("1856/51745.json", 112),                    # assign the port
    ("1856/51745.json", 170),                    # sell shares
    ("1856/51745.json", 193),                    # buy a bridge token
    ("1847_ae/1847AE_game_end_bank.json", 0),    # the draft
    ("1858/1858_game_end_bank.json", 167),       # exchange a private railway for a share
    ("1858/1858_game_end_bank.json", 381),       # scrap a train
    ("1858/1858_game_end_bank.json", 432),       # convert to 10 shares
    ("1858/1858_game_end_bank.json", 572),       # a closure choice
    ("1858_india/hotseat_qs_b.json", 141),       # collect a hex token
    ("1858_india/hotseat_qs_b.json", 352),       # where the Pullman rides
]
SKIP_KEYS = ("id", "created_at", "user", "auto_actions", "original_id", "skip")


def use_control(page, action: dict) -> None:
    """Make `action` with the page's controls: an amount control for priced choices, else the
    button whose action is the recorded one (what it sends, the recorded move must contain)."""
    p = page.page
    entry = f'.entry[data-entity="{action["entity"]}"]'
    amount = {"bid": "bid-{company}", "buy_company": "buy-{company}"}.get(action["type"])
    if amount:
        name = amount.format(**action)
        p.fill(f'{entry} [data-amount="{name}"] input', str(action["price"]))
        p.click(f'{entry} [data-amount="{name}"] button')
        return
    buttons = p.locator(".actions button[data-act]")   # a player's entry may act for a corporation (convert)
    acts = [json.loads(a) for a in buttons.evaluate_all("els => els.map(e => e.dataset.act)")]
    matching = [i for i, a in enumerate(acts) if all(action.get(k) == v for k, v in a.items())]
    assert matching, f"no control makes {action}; offered: {acts}"
    buttons.nth(matching[0]).click()


@pytest.mark.parametrize("case", CASES, ids=[f"{f}@{i}" for f, i in CASES])
def test_recorded_move_through_its_control(case, shared_platform: Platform, new_page):
    name, index = case
    slug, _, file = name.partition("/")
    export = evidence.load_game(slug, file)
    recorded = {k: v for k, v in export["actions"][index].items() if k not in SKIP_KEYS}
    prefix = {**export, "actions": export["actions"][:index]}
    oracle = engine.import_game(prefix)
    game_id = f"{file.removesuffix('.json')}-{index}".replace("&", "-")
    created = shared_platform.gateway.ImportGame(gw.ImportGameRequest(export_json=json.dumps(prefix).encode(), game_id=game_id), timeout=600)
    oracle.process(dict(recorded))

    page: Page = new_page(game_id)
    page.page.goto(f"{shared_platform.url}#/game/{game_id}?operator=1&token={created.operator_token}")
    page.page.wait_for_selector(f'.page.game[data-seq="{created.seq}"] .actions .entry', timeout=300_000)
    use_control(page, recorded)
    view = lambda: shared_platform.gateway.GetGame(gw.GetGameRequest(game_id=game_id, without_legal_actions=True), timeout=300)
    assert wait_until(lambda: view().seq == oracle.seq, 60), page.page.inner_text(".error") if page.page.locator(".error").count() else "no answer"
    assert view().digest == oracle.digest()
    page.page.wait_for_selector(f'.page.game[data-seq="{oracle.seq}"]', timeout=60_000)
    assert page.errors == [], "\n".join(page.errors)
