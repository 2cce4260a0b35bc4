"""Benchmarks: ``python -m engine.bench [FIXTURE_DIR ...] [--repeat N] [--no-replay] [--no-routes] [--games S:P,...]``.

Replay: replays every available recorded game several times and prints actions per second per game
and the median. Default fixture folder: ../shared/fixtures next to the repository (or $ROUNDHOUSE_SHARED).

Best routes: times ``best_routes`` (what a client asks for when a corporation runs its trains) at
every position of the recorded games where a corporation runs its trains, and at every such position
of the games random railway builders play from fixed seeds (played on the spot by the test tools in
tests/tools, so this part needs the repository; those games reach phases 5, 6 and D with long trains
on large networks). Per class of positions (early: phases 2-3, mid: 4, late: 5, 6, D) it prints the
number of positions, the median and the worst time per call against the targets, then the slowest
positions.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from . import import_game, titles
from .errors import GameError

REPO = Path(__file__).resolve().parents[2]

# Phase classes of best-route positions and their targets (seconds per call): median, worst.
ROUTE_CLASSES = (("early", ("2", "3"), 0.005, None), ("mid", ("4",), 0.005, None),
                 ("late", ("5", "6", "D"), 0.050, 0.200))


def default_dirs() -> list:
    root = Path(os.environ.get("ROUNDHOUSE_SHARED", REPO.parent / "shared"))
    return [root / "fixtures"]


def fixtures(dirs) -> list:
    out = []
    for d in dirs:
        d = Path(d)
        out.extend(sorted(d.rglob("*.json")) if d.is_dir() else ([d] if d.is_file() else []))
    return out


def replay(files, repeat) -> None:
    rates = []
    print(f"{'game':<45} {'actions':>7} {'best s':>8} {'actions/s':>10}")
    for path in files:
        export = json.loads(path.read_text())
        try:
            titles.slug_for(export.get("title"))
        except GameError:
            print(f"{path.parent.name + '/' + path.stem:<45} skipped (title not supported yet)")
            continue
        times = []
        try:
            for _ in range(repeat):
                start = time.perf_counter()
                import_game(export)
                times.append(time.perf_counter() - start)
        except GameError as err:
            print(f"{path.parent.name + '/' + path.stem:<45} fails: {err}")
            continue
        best = min(times)
        rate = len(export["actions"]) / best
        rates.append(rate)
        print(f"{path.parent.name + '/' + path.stem:<45} {len(export['actions']):>7} {best:>8.3f} {rate:>10.0f}",
              flush=True)
    if rates:
        print(f"median actions/s: {statistics.median(rates):.0f}")


def _call_time(state, corporation) -> float:
    """Seconds one best_routes call takes (the best of three for quick ones, which noise dominates)."""
    best = None
    for _ in range(3):
        start = time.perf_counter()
        state.best_routes(corporation)
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
        if took > 0.02:
            break
    return best


def routes(files, games=None) -> None:
    """``games``: (seed, players) of the builder games (default: the test tools' late-game list)."""
    tests = REPO / "tests"
    if not (tests / "tools" / "routepositions.py").is_file():
        print("best routes: skipped (needs the repository's tests/tools)")
        return
    if str(tests) not in sys.path:
        sys.path.insert(0, str(tests))
    from tools.routepositions import LATE_GAMES, builder_export, positions

    games = LATE_GAMES if games is None else games

    sources = []
    for path in files:
        export = json.loads(path.read_text())
        if export.get("title") == "1856":
            sources.append((f"{path.parent.name}/{path.stem}", export))
    start = time.perf_counter()
    for seed, players in games:
        sources.append((f"builder {seed}/{players}", builder_export(seed, players)))
    played = time.perf_counter() - start
    rows = []
    for name, export in sources:
        for index, state, corporation in positions(export):
            took = _call_time(state, corporation)
            trains = " ".join(t.name for t in state.route_trains(corporation))
            rows.append((took, name, index, corporation.id, state.phase.name, trains))
    print(f"\nbest routes: {len(rows)} positions from {len(sources)} games "
          f"({len(games)} played by random builders in {played:.0f} s)")
    print(f"{'class':<6} {'positions':>9} {'median ms':>10} {'max ms':>9}  target")
    for label, phases, median_target, max_target in ROUTE_CLASSES:
        times = sorted(r[0] for r in rows if r[4] in phases)
        if not times:
            continue
        median, worst = statistics.median(times), times[-1]
        target = f"median < {median_target * 1000:.0f} ms" + (f", max < {max_target * 1000:.0f} ms"
                                                              if max_target else "")
        met = median < median_target and (max_target is None or worst < max_target)
        print(f"{label:<6} {len(times):>9} {median * 1000:>10.1f} {worst * 1000:>9.1f}  {target}"
              f"{'' if met else '  (missed)'}")
    print("slowest:")
    for took, name, index, corp, phase, trains in sorted(rows, reverse=True)[:8]:
        print(f"  {took * 1000:8.1f} ms  {name:<28} before action {index:<5} {corp:<4} phase {phase:<2} {trains}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", help="fixture files or folders")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-replay", action="store_true", help="skip the replay table")
    ap.add_argument("--no-routes", action="store_true", help="skip the best-routes timings")
    ap.add_argument("--games", default=None,
                    help="builder games for the best-routes timings, as SEED:PLAYERS,... (default: "
                         "tools.routepositions.LATE_GAMES)")
    args = ap.parse_args(argv)
    files = fixtures(args.paths or default_dirs())
    if not files:
        print("no fixtures found", file=sys.stderr)
        if args.no_routes:
            return 1
    if not args.no_replay and files:
        replay(files, args.repeat)
    if not args.no_routes:
        games = None if args.games is None else \
            [tuple(int(x) for x in g.split(":")) for g in args.games.split(",") if g]
        routes(files, games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
