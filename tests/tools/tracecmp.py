"""Find the first action where our engine's state differs from the reference trace of a fixture.

Development tool (reads ../shared): make trace-diff FIXTURE=1856/hotseat004 [ARGS="--from N --all --verbose"]

For every entry of the fixture's action list it replays the entry with our engine and compares the
state with the trace's state after that entry: bank, player order, players (cash, companies, share
holdings, passed), corporations (cash, market position, par, IPO'd, floated, president, IPO with its
reserved certificates, pool, trains, tokens, loans, companies), companies (owner, revenue), the market's
stacks, round label, the round's entities and whose turn it is, acting entities, phase, depot (next,
available, discarded), tiles and the title's own game variables (TITLE_GAME_FIELDS).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "libs"))

from engine import api  # noqa: E402
from engine.actions import live_entries  # noqa: E402
from engine.errors import GameError  # noqa: E402

SHARED = Path(os.environ.get("ROUNDHOUSE_SHARED") or ROOT.parent / "shared")


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
    steps = []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        header = json.loads(f.readline())
        state = header["state"]
        for raw in f:
            line = json.loads(raw)
            if "final" in line:
                break
            state = line["state"] if "state" in line else merge_patch(state, line["delta"])
            steps.append((line, state))
    return header, steps


def holding(holder, corp):
    shares = holder.shares_by_corporation.get(corp, [])
    return [sum(s.percent for s in shares), len(shares), sorted(s.index for s in shares)]


def token_str(token):
    hex_ = token.hex
    if hex_ is None:
        return None
    tile = hex_.tile
    s = hex_.id
    if len(tile.cities) > 1:
        s += f"/{tile.cities.index(token.city)}"
    if token.type != "normal":
        s += f":{token.type}"
    return s


# Title-specific game variables compared with the trace's ``game`` section: trace key -> our attribute.
TITLE_GAME_FIELDS = {
    "1847 AE": {"draft_round_num": "draft_round_num", "draft_finished": "draft_finished",
                "extra_tile_lay": "extra_tile_lay", "yellow_tracks_restricted": "yellow_tracks_restricted",
                "must_exchange_investor_companies": "must_exchange_investor_companies",
                "recently_floated": "recently_floated"},
}


def _ref(entity):
    if entity is None:
        return None
    if getattr(entity, "is_share_pool", False):
        return "market"
    return entity.name if entity.is_player else entity.id


def ours(state) -> dict:
    out = {"bank": state.bank.cash, "phase": state.phase.name, "round": state.round.label,
           "active": sorted(str(e.name if e.is_player else e.id) for e in state.round.active_entities()),
           "cert_limit": state.cert_limit(), "order": [p.name for p in state.players]}
    r = state.round
    out["entities"] = [_ref(e) for e in r.entities]
    out["entity_index"] = r.entity_index
    out["players"] = {p.name: {"cash": p.cash, "companies": sorted(c.id for c in p.companies),
                               "shares": {c.id: holding(p, c) for c, s in p.shares_by_corporation.items() if s},
                               "passed": bool(p.passed)}
                      for p in state.players}
    corps = {}
    for c in state.corporations:
        sp = c.share_price
        d = {"cash": c.cash, "price": [sp.price, sp.row, sp.column] if sp else None,
             "par": c.par_price.price if c.par_price else None, "ipoed": bool(c.ipoed), "floated": bool(c.floated()),
             "pres": _ref(c.owner), "ipo": holding(c, c), "pool": holding(state.share_pool, c),
             "reserved": sorted(s.index for s in c.shares_of(c) if not s.buyable),
             "trains": sorted(t.id for t in c.trains), "loans": len(c.loans),
             "tokens": sorted(x for x in (token_str(t) for t in c.tokens) if x),
             "companies": sorted(x.id for x in c.companies)}
        corps[c.id] = d
    out["corps"] = corps
    out["companies"] = {c.id: {"owner": _ref(c.owner), "revenue": c.revenue}
                        for c in state.companies if not c.closed}
    out["market"] = {cell.id: [x.id for x in cell.corporations] for row in state.market.grid for cell in row
                     if cell is not None and cell.corporations}
    out["depot_next"] = state.depot.upcoming[0].id if state.depot.upcoming else None
    out["depot_avail"] = [t.id for t in state.depot.depot_trains()]
    out["discarded"] = [t.id for t in state.depot.discarded]
    if state.board is not None and hasattr(state.board, "view"):
        out["tiles"] = state.board.view().get("tiles")
    fields = TITLE_GAME_FIELDS.get(state.title, {})
    out["game"] = {k: _plain(getattr(state, attr, None)) for k, attr in fields.items()}
    return out


def _plain(value):
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if hasattr(value, "is_player"):
        return _ref(value)
    return value


def theirs(ref: dict, title: str = "") -> dict:
    out = {"bank": ref["bank"], "phase": ref["phase"], "round": ref["round"]["label"],
           "active": sorted(str(a) for a in ref.get("active", [])), "cert_limit": ref.get("cert_limit"),
           "order": ref.get("order")}
    out["entities"] = ref["round"].get("entities")
    out["entity_index"] = ref["round"].get("entity_index")
    out["players"] = {name: {"cash": p["cash"], "companies": sorted(p.get("companies", [])),
                             "shares": {c: [h[0], h[1], sorted(h[3])] for c, h in p.get("shares", {}).items() if h[1]},
                             "passed": bool(p.get("passed"))}
                      for name, p in ref["players"].items()}
    corps = {}
    for cid, c in ref["corps"].items():
        if c.get("closed"):
            continue
        ipo = c.get("ipo", [0, 0, []])
        pool = c.get("pool", [0, 0, []])
        corps[cid] = {"cash": c["cash"], "price": c.get("price"), "par": c.get("par"), "ipoed": bool(c.get("ipoed")),
                      "floated": bool(c.get("floated")), "pres": c.get("pres"),
                      "ipo": [ipo[0], ipo[1], sorted(ipo[2])], "pool": [pool[0], pool[1], sorted(pool[2])],
                      "reserved": sorted(c.get("ipo_reserved", [0, 0, []])[2]),
                      "trains": sorted(t.rstrip("~").split(":")[0] for t in c.get("trains", [])),
                      "loans": c.get("loans", 0), "tokens": sorted(c.get("tokens", [])),
                      "companies": sorted(c.get("companies", []))}
    out["corps"] = corps
    out["companies"] = {cid: {"owner": c.get("owner"), "revenue": c.get("revenue")}
                        for cid, c in ref["companies"].items() if not c.get("closed")}
    out["market"] = ref.get("market", {})
    out["depot_next"] = ref["depot"].get("next")
    out["depot_avail"] = ref["depot"].get("avail")
    out["discarded"] = ref["depot"].get("discarded")
    out["tiles"] = ref.get("tiles", {})
    game = ref.get("game", {})
    out["game"] = {k: game.get(k) for k in TITLE_GAME_FIELDS.get(title, {})}
    return out


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
    return [{k: v for k, v in a.items() if k != "created_at"} for a in actions or ()]


def compare(name: str, start: int = 0, keep_going: bool = False, verbose: bool = False, skip=(),
            live_mode: bool = False) -> int:
    slug, fixture = name.split("/")
    data = json.loads((SHARED / "fixtures" / slug / f"{fixture}.json").read_text())
    header, steps = read_trace(SHARED / "traces" / slug / f"{fixture}.jsonl.gz")
    settings = data.get("settings") or {}
    players = [{"id": p.get("id", p.get("name")), "name": p["name"]} for p in data["players"]]
    game = api.Game(data["title"], players, seed=settings.get("seed"), game_id=data.get("id", ""),
                    optional_rules=settings.get("optional_rules") or ())
    state = game._fresh()
    state.loading = True
    actions = data["actions"]
    live = live_entries(actions)
    failures = 0
    for i, (action, is_live) in enumerate(zip(actions, live)):
        line, ref = steps[i]
        if is_live:
            try:
                if live_mode:
                    generated = state.process(action, auto_actions=None)
                    if strip_auto(generated) != strip_auto(action.get("auto_actions")):
                        print(f"[{i}] id={action.get('id')} {action['type']} auto actions differ:")
                        print("    ours:  ", strip_auto(generated))
                        print("    theirs:", strip_auto(action.get("auto_actions")))
                        if not keep_going:
                            return 1
                else:
                    state.process(action, auto_actions=list(action.get("auto_actions") or ()))
            except GameError as err:
                print(f"[{i}] id={action.get('id')} {action['type']} REJECTED: {err}")
                print("   trace log:", line.get("log"))
                return 1
            except Exception:
                print(f"[{i}] id={action.get('id')} {action['type']} CRASHED")
                raise
        if i < start:
            continue
        problems = [p for p in diff(ours(state), theirs(ref, state.title)) if not any(p.startswith(s) for s in skip)]
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
        print(f"{name}: all {len(actions)} entries match; finished={state.finished} reason={state.game_end_reason}")
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
