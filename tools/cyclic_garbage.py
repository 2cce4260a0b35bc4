"""What cyclic garbage an engine process leaves for the collector: ``python tools/cyclic_garbage.py``.

Plays the recorded games (evidence/fixtures, as the platform benchmark's scripts: the moves, undos
and redos as `roundhouse client replay` submits them) through ``engine`` the way an engine process
does, all of them held at once and taken in turns: a view with legal actions and its digest before
each move, a dump every ``--dump-every`` moves, a game evicted and loaded again from its dump every
``--evict-every`` moves of it, and finished games dropped. The cyclic collector runs as in an engine
process (``runtime.collector``: what survives a full collection is frozen) but never compacts, so
what it would have had to compact stays. At the end: how many objects are frozen, then everything
unfrozen and collected with ``gc.DEBUG_SAVEALL``, the garbage tallied by type and by owner (the
rules state it hangs from and how that state was let go, or the type of its nearest referrer).

Also, per kind of request (a move, an undo or redo, a view, a dump, a load), how many objects one
leaves as cyclic garbage (``gc.collect()`` right after it, the collector otherwise waiting)."""

from __future__ import annotations

import argparse
import collections
import gc
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [os.environ.get("ROUNDHOUSE_LIBS", str(REPO / "libs"))]   # (another checkout's, to compare)

import engine  # noqa: E402
from engine import statecopy, titles  # noqa: E402
from runtime import collector as collector_module  # noqa: E402
from runtime.bench import load_scripts  # noqa: E402


def let_go(game: engine.Game, close: bool = False) -> None:
    """What an engine process does once it has answered (runtime.shard.Shard.let_go), where the
    engine can (an engine before let_go: nothing)."""
    if hasattr(game, "let_go"):
        game.close() if close else game.let_go()


def per_request(scripts, sample_every: int) -> dict:
    """Objects found unreachable by a collection right after one request of each kind."""
    found: dict[str, list[int]] = collections.defaultdict(list)
    for script in scripts:
        game = engine.replay_copy(script.export)
        gc.collect()
        for n, (move, _who, _expected) in enumerate(script.moves):
            sample = n % sample_every == 0 or move.get("type") in ("undo", "redo")
            if not sample:
                game.view(legal_actions=True)
                game.process(move)
                let_go(game)
                continue
            gc.disable()
            try:
                game.view(legal_actions=True)
                game.digest()
                found["view"].append(gc.collect())
                game.process(move)
                let_go(game)
                found["undo/redo" if move.get("type") in ("undo", "redo") else "move"].append(gc.collect())
                if n % (4 * sample_every) == 0:
                    blob = game.dump()
                    found["dump"].append(gc.collect())
                    let_go(game, close=True)
                    game = engine.load(blob)
                    found["load (old engine dropped)"].append(gc.collect())
            finally:
                gc.enable()
        let_go(game, close=True)
        del game
        found["game dropped"].append(gc.collect())
    return found


def owner_of(garbage: list) -> tuple[collections.Counter, collections.Counter]:
    """The garbage by type, and by owner: the rules state (engine.game.Game), else the round, each
    object is reachable from among the garbage, or else the type of one of its referrers."""
    ids = {id(o): o for o in garbage}
    by_type = collections.Counter(type(o).__qualname__ for o in garbage)
    owner: dict[int, str] = {}
    from engine.game import Game as RulesState

    from engine.flow.round import Round

    roots = [(o, f"rules state {getattr(o, 'title', '(emptied)')} {type(o).__name__}") for o in garbage
             if isinstance(o, RulesState)]
    roots += [(o, "a round dropped (its steps and their plans)") for o in garbage if isinstance(o, Round)]
    for root, label in roots:
        stack = [root]
        while stack:
            obj = stack.pop()
            if id(obj) in owner:
                continue
            owner[id(obj)] = label
            stack.extend(r for r in gc.get_referents(obj) if id(r) in ids and id(r) not in owner)
    by_owner: collections.Counter = collections.Counter()
    rest = [o for o in garbage if id(o) not in owner]
    if rest:
        rest_ids = {id(o) for o in rest}
        referrers: dict[int, str] = {}
        for obj in rest:
            for r in gc.get_referents(obj):
                if id(r) in rest_ids and id(r) not in referrers:
                    referrers[id(r)] = type(obj).__qualname__
        for obj in rest:
            by_owner[f"{type(obj).__qualname__} <- {referrers.get(id(obj), '?')}"] += 1
    by_owner.update(collections.Counter(owner.values()))
    return by_type, by_owner


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", help="recorded games by name (default: all)")
    ap.add_argument("--dump-every", type=int, default=25)
    ap.add_argument("--evict-every", type=int, default=400)
    ap.add_argument("--sample-every", type=int, default=10, help="per-request counts: every Nth move")
    ap.add_argument("--no-per-request", action="store_true")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--young", action="store_true", help="the collector freezing what survives a young collection "
                    "too (runtime.collector's young mode, as in an engine process)")
    args = ap.parse_args(argv)
    scripts = load_scripts(args.games)

    for slug in titles.SLUGS:
        statecopy.prepare(slug)
    collector = collector_module.Collector(growth=float("inf"), young=args.young)
    frozen0 = gc.get_freeze_count()
    t0 = time.process_time()
    games = {s.name: engine.replay_copy(s.export) for s in scripts}
    cursor = dict.fromkeys(games, 0)
    played = collections.Counter()
    while cursor:
        for name in list(cursor):
            script = next(s for s in scripts if s.name == name)
            n = cursor[name]
            if n >= len(script.moves):
                del cursor[name]
                let_go(games.pop(name), close=True)   # a finished game dropped
                collector.between_requests()
                continue
            game = games[name]
            game.view(legal_actions=True)
            game.digest()
            collector.between_requests()
            move = script.moves[n][0]
            game.process(move)
            let_go(game)
            played["undo/redo" if move.get("type") in ("undo", "redo") else "move"] += 1
            collector.between_requests()
            if n % args.dump_every == 0:
                blob = game.dump()
                if n and n % args.evict_every == 0:
                    let_go(game, close=True)
                    games[name] = engine.load(blob)   # evicted, then loaded from its state
                    played["evicted and loaded"] += 1
                collector.between_requests()
            cursor[name] = n + 1
    cpu = time.process_time() - t0
    gc.collect()   # what the next full collection would free is not left for a compaction
    fulls = [s for kind, s in collector.take_pauses() if kind == "full"]
    frozen = gc.get_freeze_count()
    print(f"played:   {dict(played)} over {len(scripts)} games held at once, {cpu:.1f} s CPU")
    print(f"frozen:   {frozen:,} objects at the end ({frozen0:,} at the start: title data); "
          f"{len(fulls)} full collections ({sum(fulls):.2f} s)")
    gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.collect()
    garbage = list(gc.garbage)
    gc.set_debug(0)
    gc.garbage.clear()
    print(f"garbage:  {len(garbage):,} objects left for a compaction")
    by_type, by_owner = owner_of(garbage)
    print("by type:  " + ", ".join(f"{k} {v:,}" for k, v in by_type.most_common(args.top)))
    print("by owner:")
    for k, v in by_owner.most_common(args.top):
        print(f"  {v:>9,}  {k}")
    del garbage
    gc.collect()

    if not args.no_per_request:
        gc.freeze()
        found = per_request(scripts, args.sample_every)
        print("per request (objects a collection right after it finds unreachable: count, median, mean, max):")
        for kind, xs in sorted(found.items()):
            print(f"  {kind:<28} {len(xs):>6} {statistics.median(xs):>8.0f} {statistics.fmean(xs):>9.0f} {max(xs):>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
