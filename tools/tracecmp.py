"""Find the first action where our engine's state differs from the reference trace of a fixture.

Development tool (reads the repository's evidence/): make trace-diff FIXTURE=1856/hotseat004 [ARGS="--from N --all --verbose"]

For every entry of the fixture's action list it replays the entry with our engine and compares the
state with the trace's state after that entry: bank, player order, players (cash, companies, share
holdings, passed), corporations (cash, market position, par, IPO'd, floated, president, IPO with its
reserved certificates, pool, trains, tokens, loans, companies), companies (owner, revenue), the market's
stacks, round label, the round's entities and whose turn it is, acting entities, phase, depot (next,
available, discarded), tiles and the title's own game variables (TITLE_GAME_FIELDS).
"""

from __future__ import annotations

import argparse
import json

from engine import api
from engine.actions import live_entries
from engine.errors import GameError
from runtime.aligner import ReplayAligner, ReplayMismatch, move_fields

from tools import evidence


def merge_patch(target, patch):
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def read_trace(path):
    """A trace file (evidence/traces/README.md): (header, [(line, state after it), ...])."""
    steps = []
    with evidence.open_text(path) as f:
        header = json.loads(f.readline())
        state = header["state"]
        for raw in f:
            line = json.loads(raw)
            if "final" in line:
                break
            state = line["state"] if "state" in line else merge_patch(state, line["delta"])
            steps.append((line, state))
    return header, steps


# Title variables compared when our game has them (the trace's "game" section).
GAME_FIELDS = ("private_closure_round", "grey_trains_bought")


def owner_name(owner):
    if owner is None:
        return None
    return owner.name if owner.is_player else owner.id


def train_str(train):
    """A train as traces show it: its id, ":<variant>" when running as another variant, "~" when
    obsolete."""
    s = train.id
    if train.name != train.sym:
        s += f":{train.name}"
    if train.obsolete:
        s += "~"
    return s


def holding(holder, corp):
    shares = holder.shares_by_corporation.get(corp, [])
    return [sum(s.percent for s in shares), len(shares), sorted(s.index for s in shares)]


def token_str(token, holder=None):
    hex_ = token.hex
    if hex_ is None:
        return None
    tile = hex_.tile
    s = hex_.id
    if token.city is not None and len(tile.cities) > 1:
        s += f"/{tile.cities.index(token.city)}"
    if token.type != "normal":
        s += f":{token.type}"
    if holder is not None and token.corporation is not holder:
        s += f"@{token.corporation.id}"
    return s


# Title-specific game variables compared with the trace's ``game`` section: trace key -> our attribute.
TITLE_GAME_FIELDS = {
    "1847_ae": {"draft_round_num": "draft_round_num", "draft_finished": "draft_finished",
                "extra_tile_lay": "extra_tile_lay", "yellow_tracks_restricted": "yellow_tracks_restricted",
                "must_exchange_investor_companies": "must_exchange_investor_companies",
                "recently_floated": "recently_floated"},
}


def ours(state) -> dict:
    out = {"bank": state.bank.cash, "phase": state.phase.name, "round": state.round.label,
           "active": sorted(str(e.name if e.is_player else e.id) for e in state.round.active_entities()),
           "cert_limit": state.cert_limit(), "order": [p.name for p in state.players],
           "entities": [str(owner_name(e)) for e in state.round.entities],
           "priority": state.priority_deal_player().name if not state.finished else None}
    out["players"] = {p.name: {"cash": p.cash, "companies": sorted(c.id for c in p.companies),
                               "debt": p.debt, "bankrupt": p.bankrupt,
                               "shares": {c.id: holding(p, c) + [any(x.president for x in s)]
                                          for c, s in p.shares_by_corporation.items() if s}}
                      for p in state.players}
    corps = {}
    for c in state.corporations:
        if c.closed:
            continue   # as in the trace (a national that does not form is closed where it stands)
        sp = c.share_price
        owner = c.owner
        d = {"cash": c.cash, "price": [sp.price, sp.row, sp.column] if sp else None,
             "par": c._par_price.price if c._par_price else None, "ipoed": c.ipoed, "floated": c.floated(),
             "pres": ("market" if owner is state.share_pool else owner_name(owner)) if owner is not None else None,
             "ipo": holding(c, c), "pool": holding(state.share_pool, c),
             "trains": sorted(train_str(t) for t in c.trains), "loans": len(c.loans),
             "tokens": sorted(x for x in (token_str(t, c) for t in c.tokens) if x),
             "tokens_left": sum(1 for t in c.tokens if not t.used),
             "companies": sorted(x.id for x in c.companies)}
        if c.type is not None:
            d["type"] = c.type
        corps[c.id] = d
    out["corps"] = corps
    if state.minors:
        out["minors"] = {m.id: {"owner": owner_name(m.owner), "floated": m.floated(), "closed": m.closed,
                                "cash": m.cash} for m in state.minors}
    out["companies"] = {c.id: {"owner": owner_name(c.owner), "revenue": c.revenue}
                        for c in state.companies if not c.closed}
    game_vars = {key: getattr(state, key) for key in GAME_FIELDS if getattr(state, key, None) is not None}
    if game_vars:
        out["game"] = game_vars
    out["depot_next"] = state.depot.upcoming[0].id if state.depot.upcoming else None
    out["depot_avail"] = [train_str(t) for t in state.depot.depot_trains()]
    out["discarded"] = [train_str(t) for t in state.depot.discarded]
    out["market"] = {sp.id: [c.id for c in sp.corporations] for row in state.market.grid for sp in row
                     if sp is not None and sp.corporations}
    if state.board is not None and hasattr(state.board, "view"):
        out["tiles"] = state.board.view().get("tiles")
        out["hex_tokens"] = {h.id: [t.corporation.id for t in h.tokens] for h in state.board.hexes if h.tokens}
    extra = TITLE_EXTRAS.get(state.data.get("slug"))
    if extra is not None:
        out.update(extra[0](state))
    return out


def theirs(ref: dict, slug: str = "") -> dict:
    out = {"bank": ref["bank"], "phase": ref["phase"], "round": ref["round"]["label"],
           "active": sorted(str(a) for a in ref.get("active", [])), "cert_limit": ref.get("cert_limit"),
           "order": ref.get("order"), "entities": [str(e) for e in ref["round"].get("entities", [])],
           "priority": ref.get("priority") if not ref.get("finished") else None}
    out["players"] = {name: {"cash": p["cash"], "companies": sorted(p.get("companies", [])),
                             "debt": p.get("debt", 0), "bankrupt": bool(p.get("bankrupt")),
                             "shares": {c: [h[0], h[1], sorted(h[3]), h[2]] for c, h in p.get("shares", {}).items()
                                        if h[1]}}
                      for name, p in ref["players"].items()}
    corps = {}
    for cid, c in ref["corps"].items():
        if c.get("closed"):
            continue
        ipo = c.get("ipo", [0, 0, []])
        pool = c.get("pool", [0, 0, []])
        corps[cid] = {"cash": c["cash"], "price": list(c["price"]) if c.get("price") else None,
                      "par": c.get("par"), "ipoed": bool(c.get("ipoed")), "floated": bool(c.get("floated")),
                      "pres": c.get("pres"),
                      "ipo": [ipo[0], ipo[1], sorted(ipo[2])], "pool": [pool[0], pool[1], sorted(pool[2])],
                      "trains": sorted(c.get("trains", [])),
                      "loans": c.get("loans", 0), "tokens": sorted(c.get("tokens", [])),
                      "tokens_left": c.get("tokens_left", 0), "companies": sorted(c.get("companies", []))}
        if c.get("type"):
            corps[cid]["type"] = c["type"]
    out["corps"] = corps
    if "minors" in ref:
        out["minors"] = {mid: {"owner": m.get("owner"), "floated": bool(m.get("floated")),
                               "closed": bool(m.get("closed")), "cash": m.get("cash", 0)}
                         for mid, m in ref["minors"].items()}
    game_vars = {key: ref["game"][key] for key in GAME_FIELDS if ref.get("game", {}).get(key) is not None}
    if game_vars:
        out["game"] = game_vars
    out["companies"] = {cid: {"owner": c.get("owner"), "revenue": c.get("revenue")}
                        for cid, c in ref["companies"].items() if not c.get("closed")}
    out["depot_next"] = ref["depot"].get("next")
    out["depot_avail"] = ref["depot"].get("avail", [])
    out["discarded"] = ref["depot"].get("discarded", [])
    out["market"] = ref.get("market", {})
    out["tiles"] = ref.get("tiles", {})
    out["hex_tokens"] = ref.get("hex_tokens", {})
    extra = TITLE_EXTRAS.get(slug)
    if extra is not None:
        out.update(extra[1](ref))
    return out


# ---------------------------------------------------------------------------------- title extras
def _bids_ours(state):
    step = next((s for s in state.round.steps if hasattr(s, "bids") and isinstance(getattr(s, "bids"), dict)), None)
    bids = getattr(state.round, "bids", None) or (step.bids if step is not None else {})
    return {c.id: [[b["entity"].name, b["price"]] for b in bl] for c, bl in (bids or {}).items() if bl}


def last_run(corp) -> list:
    (turn, num), info = max(corp.operating_history.items())
    return [f"{turn}.{num}", info["revenue"], info["kind"]]


def ability_strs(entity) -> list:
    return [f"{a.type}{'' if a.count is None else ':' + str(a.count)}{'*' if a.used else ''}"
            for a in entity.abilities]


def ours_1822(state) -> dict:
    out = {"bidbox": {"minors": [c.id for c in state.bidbox_minors()],
                      "concessions": [c.id for c in state.bidbox_concessions()],
                      "privates": [c.id for c in state.bidbox_privates()]},
           "dummies": {h.name: {"cash": h.cash, "shares": {c.id: holding(h, c) for c, s in
                                                           h.shares_by_corporation.items() if s}}
                       for h in state.extra_holders()},
           "nothing_sold_in_sr": state.nothing_sold_in_sr,
           "minor_14_city_exit": state.minor_14_city_exit,
           "deck": [c.id for c in state.companies if not c.closed],
           "abilities": {e.id: ability_strs(e) for e in state.corporations + state.companies
                         if not e.closed and ability_strs(e)},
           "last_run": {c.id: last_run(c) for c in state.corporations if c.operating_history}}
    if state.round.is_stock:
        out["bids"] = _bids_ours(state)
        out["stored_winning_bids"] = {p.name: [c.id for c in v]
                                      for p, v in getattr(state.round, "stored_winning_bids", {}).items()}
    return out


def theirs_1822(ref) -> dict:
    title = ref.get("title", {})
    game = ref.get("game", {})
    out = {"bidbox": title.get("bidbox"),
           "dummies": {name: {"cash": d["cash"], "shares": {c: [h[0], h[1], sorted(h[3])]
                                                            for c, h in d.get("shares", {}).items() if h[1]}}
                       for name, d in ref.get("dummies", {}).items()},
           "nothing_sold_in_sr": game.get("nothing_sold_in_sr"),
           "minor_14_city_exit": game.get("minor_14_city_exit"),
           "deck": [cid for cid, c in ref["companies"].items() if not c.get("closed")],
           "abilities": {i: e["abilities"] for group in ("corps", "companies") for i, e in ref[group].items()
                         if not e.get("closed") and e.get("abilities")},
           "last_run": {cid: c["last_run"] for cid, c in ref["corps"].items()
                        if not c.get("closed") and c.get("last_run")}}
    if ref["round"]["type"] == "SR":
        out["bids"] = ref["round"].get("steps", {}).get("BuySellParShares", {}).get("bids", {})
        out["stored_winning_bids"] = ref["round"].get("state", {}).get("stored_winning_bids", {})
    return out


def _plain(value):
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if hasattr(value, "is_player"):
        return owner_name(value)
    return value


def ours_1847(state) -> dict:
    fields = TITLE_GAME_FIELDS["1847_ae"]
    return {"entity_index": state.round.entity_index,
            "passed": sorted(p.name for p in state.players if p.passed),
            "reserved": {c.id: sorted(s.index for s in c.shares_of(c) if not s.buyable) for c in state.corporations},
            "title_game": {k: _plain(getattr(state, attr, None)) for k, attr in fields.items()}}


def theirs_1847(ref) -> dict:
    game = ref.get("game", {})
    return {"entity_index": ref["round"].get("entity_index"),
            "passed": sorted(name for name, p in ref["players"].items() if p.get("passed")),
            "reserved": {cid: sorted(c.get("ipo_reserved", [0, 0, []])[2]) for cid, c in ref["corps"].items()
                         if not c.get("closed")},
            "title_game": {k: game.get(k) for k in TITLE_GAME_FIELDS["1847_ae"]}}


TITLE_EXTRAS = {"1822": (ours_1822, theirs_1822), "1847_ae": (ours_1847, theirs_1847)}


def diff(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a:
                yield f"{path}/{k}: missing in ours, theirs={b[k]!r}"
            elif k not in b:
                yield f"{path}/{k}: ours={a[k]!r}, missing in theirs"
            else:
                yield from diff(a[k], b[k], f"{path}/{k}")
    elif a != b:
        yield f"{path}: ours={a!r} theirs={b!r}"


def strip_auto(actions):
    return [move_fields(a) for a in actions or () if a.get("type") != "program_disable"]


def compare(name: str, start: int = 0, keep_going: bool = False, verbose: bool = False, skip=(),
            live_mode: bool = False) -> int:
    slug, fixture = name.split("/")
    data = evidence.load_game(slug, fixture)
    header, steps = read_trace(evidence.trace_path(slug, fixture))
    settings = data.get("settings") or {}
    players = [{"id": p.get("id", p.get("name")), "name": p["name"]} for p in data["players"]]
    game = api.Game(data["title"], players, seed=settings.get("seed"), game_id=data.get("id", ""),
                    optional_rules=settings.get("optional_rules") or ())
    state = game._fresh()
    state.loading = True
    actions = data["actions"]
    live = live_entries(actions)
    failures = 0
    aligner = ReplayAligner() if live_mode else None   # live mode: lines our automatic moves up with the record
    aligned = 0
    for i, (action, is_live) in enumerate(zip(actions, live)):
        line, ref = steps[i]
        if is_live:
            try:
                if live_mode:
                    move = aligner.next(action)
                    if move is None:
                        # our automatic action already made this recorded move, or our automatic pass
                        # made this recorded choice unnecessary (rules made automatic since the game
                        # was played): it is not processed again; the states are compared
                        aligned += 1
                    else:
                        generated = state.process({**move, "id": action.get("id")}, auto_actions=None)
                        extras = aligner.submitted(i, generated)
                        if strip_auto(generated) != strip_auto(action.get("auto_actions")):
                            print(f"[{i}] id={action.get('id')} {action['type']} auto actions differ "
                                  "(aligned with the record):")
                            print("    ours:  ", strip_auto(generated))
                            print("    theirs:", strip_auto(action.get("auto_actions")))
                        for extra in extras:
                            # the record made more moves automatically than our rules do: we make them by hand
                            aligner.submitted(i, state.process({**extra, "id": action.get("id")}, auto_actions=None))
                            aligned += 1
                else:
                    state.process(action, auto_actions=list(action.get("auto_actions") or ()))
            except ReplayMismatch as err:
                print(f"[{i}] id={action.get('id')} {action['type']}: {err}")
                return 1
            except GameError as err:
                print(f"[{i}] id={action.get('id')} {action['type']} REJECTED: {err}")
                print("   trace log:", line.get("log"))
                return 1
            except Exception:
                print(f"[{i}] id={action.get('id')} {action['type']} CRASHED")
                raise
        if i < start or (aligner is not None and aligner.ahead):
            continue   # (in live mode our state may be ahead of the record until the moves line up)
        problems = [p for p in diff(ours(state), theirs(ref, slug)) if not any(p.startswith(s) for s in skip)]
        if problems:
            failures += 1
            print(f"[{i}] id={action.get('id')} {action['type']} {action.get('entity')} -> {len(problems)} differences")
            for p in problems[:25]:
                print("   ", p)
            print("   trace log:", line.get("log"))
            if verbose:
                print("   our log tail:", state.log[-8:])
            if not keep_going:
                return 1
    if failures == 0:
        note = f" ({aligned} automatic moves aligned with the record)" if aligned else ""
        print(f"{name}: all {len(actions)} entries match{note}; finished={state.finished} "
              f"reason={state.game_end_reason}")
        print("   result:", state.result(), "expected:", data.get("result"))
    return 1 if failures else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fixture", help="<slug>/<fixture name>, e.g. 1856/hotseat004")
    ap.add_argument("--from", dest="start", type=int, default=0)
    ap.add_argument("--all", action="store_true", help="report every differing entry")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--skip", action="append", default=[], help="ignore differences under this path prefix")
    ap.add_argument("--live", action="store_true",
                    help="generate automatic actions as in live play and compare them with the recorded ones")
    args = ap.parse_args(argv)
    return compare(args.fixture, args.start, args.all, args.verbose, tuple(args.skip), args.live)


if __name__ == "__main__":
    raise SystemExit(main())
