"""Is a move among the legal actions the engine offers? What a client that only offers legal actions
(the web client) could send, found as it finds it: ``game.legal_actions()`` for the entity, then for a
tile lay the offered hex's ``game.tile_lays(...)``.

``not_offered(game, move)`` returns None when the move is offered (the same hex, tile and rotation;
the same token city; the same train at a price offered, or another the rules buy all the same; the
same share bundle, one of equivalent certificates from the same holder; a bid in the offered range;
...) and otherwise why not, phrased for a report. Moves always available (chat, programmed actions, undo and redo) are offered.
"""

from __future__ import annotations

import copy

import engine
from engine.views import ALWAYS_AVAILABLE

ALWAYS = ALWAYS_AVAILABLE | {"undo", "redo"}
# Keys of an action that are its record, not the move.
RECORD = ("id", "original_id", "auto_actions", "skip", "user", "created_at")


def not_offered(game, move: dict) -> str | None:
    kind = move.get("type")
    if kind in ALWAYS:
        return None
    legal = game.legal_actions()
    entity, entity_type = move.get("entity"), move.get("entity_type")
    entries = [e for e in legal if str(e["entity"]) == str(entity) and e["entity_type"] == entity_type]
    if kind == "convert":   # offered in the president's entry (the company converts)
        entries += [e for e in legal if entity in e.get("convert", ()) and "convert" in e["types"]]
    if kind == "sell_shares" and entity_type == "player":   # a president raising money for a train
        for e in legal:
            sales = [s for s in e.get("emergency_sales", ()) if str(s["entity"]) == str(entity)]
            if sales:
                entries.append({"entity": entity, "entity_type": entity_type, "types": ["sell_shares"],
                                "sell_shares": sales})
    if not entries:
        acting = sorted({(str(e["entity"]), e["entity_type"]) for e in legal})
        return f"nothing is offered to {entity_type} {entity} (offered to: {acting})"
    problems = []
    for entry in entries:
        if kind not in entry["types"]:
            problems.append(f"{kind} is not among {entry['entity']}'s offered types {entry['types']}")
            continue
        problem = CHECKS.get(kind, _type_only)(game, entry, move)
        if problem is None:
            return None
        problems.append(problem)
    return "; ".join(problems)


# ---------------------------------------------------------------------- per action type
def _type_only(game, entry, move):
    return None


def _bundle(state, share_ids) -> list:
    """What a share bundle is, whichever certificates: corporation, holder, percent, president's."""
    out = []
    for sid in share_ids or ():
        share = state.share_by_id(sid)
        if share is None:
            return [("unknown share", sid)]
        owner = share.owner
        out.append((share.corporation.id, getattr(owner, "id", str(owner)), share.percent, bool(share.president)))
    return sorted(out)


def _shares(move) -> list:
    return move.get("shares") or ([move["share"]] if move.get("share") else [])


def _share_moves(key):
    def check(game, entry, move):
        state = game.state
        wanted = _bundle(state, _shares(move))
        offered = [o.get("shares") or [o.get("share")] for o in entry.get(key, ())]
        if key == "buy_shares":
            offered += [o["shares"] for o in entry.get("exchange", ())]
        if any(_bundle(state, o) == wanted for o in offered):
            return None
        return f"{key} {_shares(move)} ({wanted}) not among the bundles offered {offered}"
    return check


def _lay_tile(game, entry, move):
    hex_id = move.get("hex")
    if hex_id not in entry.get("lay_hexes", ()):
        return f"hex {hex_id} not among the hexes offered {entry.get('lay_hexes')}"
    lays = game.tile_lays(entry["entity"], entry["entity_type"], hex_id)
    tile = str(move.get("tile"))
    name = tile.rpartition("-")[0]
    same = [t for t in lays if t["tile"] == tile] or [t for t in lays if t["tile"].rpartition("-")[0] == name]
    if not same:
        return f"tile {tile} not offered on {hex_id} (offered: {[(t['tile'], t['rotations']) for t in lays]})"
    if move.get("rotation") not in same[0]["rotations"]:
        return f"tile {tile} on {hex_id} not offered in rotation {move.get('rotation')} (offered: {same[0]['rotations']})"
    return None


def _place_token(game, entry, move):
    cities = entry.get("cities", ())
    if any(c["city"] == move.get("city") for c in cities):
        return None
    return f"city {move.get('city')} not among the cities offered {[c['city'] for c in cities]}"


def _bid(game, entry, move):
    company, price = move.get("company"), move.get("price")
    offered = [c for c in entry.get("companies", ()) if c["company"] == company]
    if not offered:
        return f"no bid offered on {company} (offered: {[c['company'] for c in entry.get('companies', ())]})"
    low = offered[0].get("min_bid", 0)
    high = entry.get("max_bid", {}).get(company) if isinstance(entry.get("max_bid"), dict) else None
    if isinstance(price, int) and price >= low and (high is None or price <= high):
        return None
    return f"bid {price} on {company} outside the range offered [{low}, {high}]"


def _par(game, entry, move):
    for p in entry.get("par", ()):
        if p["corporation"] == move.get("corporation") and move.get("share_price") in p["share_prices"]:
            return None
    return f"par of {move.get('corporation')} at {move.get('share_price')} not offered ({entry.get('par')})"


def _buy_train(game, entry, move):
    train, price = move.get("train"), move.get("price")
    if move.get("exchange"):
        for x in entry.get("exchanges", ()):
            if x["train"] == train and x["exchange"] == move["exchange"] and x["price"] == price:
                return None
        return f"exchange of {move['exchange']} for {train} at {price} not offered ({entry.get('exchanges')})"
    for t in entry.get("trains", ()):
        if t["train"] != train or (move.get("variant") not in (None, t.get("variant"))):
            continue
        if "price" in t and t["price"] == price:
            return None
        if "min_price" in t and isinstance(price, int) and t["min_price"] <= price <= t["max_price"]:
            return None
    # a train named otherwise that the rules buy all the same (1822's minors buy the next L train,
    # whichever is named): the same move if it leaves the game exactly as the named one
    alike = [{**move, "train": t["train"]} for t in entry.get("trains", ())
             if t.get("variant") == move.get("variant") and t["train"] != train
             and (t.get("price") == price or t.get("min_price", price + 1) <= price <= t.get("max_price", -1))]
    if alike and same_result(game, move, alike):
        return None
    offered = [(t["train"], t.get("variant"), t.get("price", (t.get("min_price"), t.get("max_price"))))
               for t in entry.get("trains", ())]
    return f"train {train} ({move.get('variant')}) at {price} not offered ({offered})"


def same_result(game, move, candidates) -> bool:
    """Whether one of the ``candidates`` leaves the game exactly as ``move`` does (both tried on
    copies; the game itself is untouched)."""
    def after(action):
        trial = copy.deepcopy(game)
        try:
            trial.process(action)
        except engine.GameError:
            return None
        return trial.digest()

    wanted = after(move)
    return wanted is not None and any(after(c) == wanted for c in candidates)


def _dividend(game, entry, move):
    options = entry.get("dividend_options") or {}
    return None if move.get("kind") in options else f"dividend {move.get('kind')} not among {list(options)}"


def _listed(key, field, describe=None):
    def check(game, entry, move):
        offered = entry.get(key) or ()
        value = move.get(field)
        if isinstance(offered, dict):
            offered = list(offered)
        items = [o[describe] if describe and isinstance(o, dict) else o for o in offered]
        if value in items:
            return None
        return f"{field} {value!r} not among the offered {key} {items}"
    return check


def _buy_company(game, entry, move):
    for c in entry.get("companies", ()):
        if c["company"] != move.get("company"):
            continue
        low, high = c.get("min_price", c.get("price")), c.get("max_price", c.get("price"))
        if isinstance(move.get("price"), int) and low <= move["price"] <= high:
            return None
    return f"company {move.get('company')} at {move.get('price')} not offered ({entry.get('companies')})"


def _choose(game, entry, move):
    choice = move.get("choice")
    for key in ("choices", "choose"):
        offered = entry.get(key)
        if offered is not None and choice in (list(offered) if isinstance(offered, dict) else offered):
            return None
    return f"choice {choice!r} not offered ({entry.get('choices', entry.get('choose'))})"


def _remove_token(game, entry, move):
    if any(t["city"] == move.get("city") for t in entry.get("remove_token", ())):
        return None
    return f"token in {move.get('city')} not offered for removal ({entry.get('remove_token')})"


def _hex_token(game, entry, move):
    offered = entry.get("hex_token") or {}
    return None if offered.get("hex") == move.get("hex") else f"hex token on {move.get('hex')} not offered ({offered})"


def _merge(game, entry, move):
    offered = entry.get("merge")
    merges = offered if isinstance(offered, list) else [offered] if offered else []
    if any(m.get("corporation") == move.get("corporation") for m in merges):
        return None
    return f"merge with {move.get('corporation')} not offered ({offered})"


CHECKS = {
    "lay_tile": _lay_tile,
    "place_token": _place_token,
    "bid": _bid,
    "par": _par,
    "buy_shares": _share_moves("buy_shares"),
    "sell_shares": _share_moves("sell_shares"),
    "buy_train": _buy_train,
    "dividend": _dividend,
    "discard_train": _listed("discard_train", "train"),
    "borrow_train": _listed("borrow_train", "train"),
    "scrap_train": _listed("scrap_train", "train"),
    "buy_company": _buy_company,
    "choose": _choose,
    "choose_ability": _listed("choose_ability", "choice"),
    "acquire_company": _listed("acquire_company", "company"),
    "remove_hex_token": _listed("hexes", "hex", "hex"),
    "special_buy": _listed("special_buy", "description", "description"),
    "assign": _listed("assign_hexes", "target"),
    "remove_token": _remove_token,
    "hex_token": _hex_token,
    "merge": _merge,
}
