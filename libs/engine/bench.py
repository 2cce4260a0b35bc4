"""Benchmarks: ``python -m engine.bench [FIXTURE_DIR ...] [--repeat N] [--no-replay] [--no-routes] [--no-legal] [--games S:P,...]``.

Replay: imports every available recorded game several times and prints, per game, the best CPU time
of an import (the cyclic garbage collection it leaves behind included) and actions per second, then
per title (all its games' actions over all their time) and the median over the games. Default
fixture folders: the repository's evidence/fixtures and evidence/fixtures-new (games as .json or
.json.xz).

Best routes: times ``best_routes`` (what a client asks for when a corporation runs its trains) at
every position of the recorded games where a corporation runs its trains, and at every such position
of the games random railway builders play from fixed seeds (played on the spot by the test tools in
tools/, so this part needs the repository; those games reach phases 5, 6 and D with long trains
on large networks). Per class of positions (early: phases 2-3, mid: 4, late: 5, 6, D) it prints the
number of positions, the median and the worst time per call against the targets, then the slowest
positions. Times are CPU time per call.

Legal actions: at every position of every recorded game (evidence/fixtures and fixtures-new, or
the folders given), the CPU time ``legal_actions`` takes (what a server computes after every move;
the garbage collector paused during the call),
per title: positions, p50, p99 and max against the targets (p99 <= 30 ms, max <= 100 ms), then the
slowest positions; and the tiles and rotations a client then asks for on the hex it lays on
(``tile_lays``, at each recorded tile lay). A game is followed as it is imported, up to where an
import stops.
Undo (``--undo``, only that): late in the largest recorded games (UNDO_GAMES, or the files given),
a game built at ``--undo-back`` (10) entries before the end, once by a replay (``import_game``) and
once read by ``engine.load`` from that game's dump (as the platform restores one), plays the last
entries as live moves and then takes ``--pairs`` (15) undo-redo pairs. It prints the first undo and
the least and median CPU time of an undo and of a redo (the garbage collector running as it does in
play), then of what each left for after its answer (``Game.settle``, which an engine process runs
once it has answered: the undo copy of the state it ended at when one is due, and letting go of the
state it replaced), and the size of a dump. With ``--aged``, a full collection (not timed) before
each undo and redo, as in an engine process holding many games, where the state an undo replaces
has usually lived through one: it is then let go by ``settle`` rather than by a young collection.
"""

from __future__ import annotations

import argparse
import gc
import json
import lzma
import statistics
import sys
import time
from pathlib import Path

from . import import_game, new_game, titles
from .actions import live_entries
from .api import export_players
from .errors import GameError

REPO = Path(__file__).resolve().parents[2]

# Phase classes of best-route positions and their targets (seconds per call): median, worst.
ROUTE_CLASSES = (("early", ("2", "3"), 0.005, None), ("mid", ("4",), 0.005, None),
                 ("late", ("5", "6", "D"), 0.050, 0.200))


# Undo timings: the largest recorded games (entries): 1858 (1,906), 1858 India (2,597), 1822 (1,497).
UNDO_GAMES = ("fixtures-new/1858/rand_1858_42_5p.json.xz", "fixtures-new/1858_india/rand_1858india_41_4p.json.xz",
              "fixtures/1822/33845.json.xz")

# Legal actions at every position: targets in seconds of CPU (p99, max).
LEGAL_TARGETS = (0.030, 0.100)


def default_dirs() -> list:
    return [REPO / "evidence" / "fixtures", REPO / "evidence" / "fixtures-new"]


def fixtures(dirs) -> list:
    out = []
    for d in dirs:
        d = Path(d)
        if d.is_dir():
            out.extend(sorted(p for p in d.rglob("*") if p.name.endswith((".json", ".json.xz"))))
        elif d.is_file():
            out.append(d)
    return out


def read_export(path: Path) -> dict:
    """A game export, plain or xz-compressed (the repository's evidence)."""
    raw = path.read_bytes()
    return json.loads(lzma.decompress(raw) if path.suffix == ".xz" else raw)


def game_name(path: Path) -> str:
    return f"{path.parent.name}/{path.name.removesuffix('.xz').removesuffix('.json')}"


def import_time(export) -> float:
    """CPU seconds of one import, with the young-generation garbage collection it leaves behind (a
    replay runs with the collector waiting; see engine.api)."""
    start = time.process_time()
    game = import_game(export)
    gc.collect(0)
    took = time.process_time() - start
    del game
    return took


def replay(files, repeat) -> None:
    rates, by_title = [], {}
    print(f"{'game':<45} {'actions':>7} {'best ms':>8} {'actions/s':>10}")
    for path in files:
        export = read_export(path)
        try:
            slug = titles.slug_for(export.get("title"))
        except GameError:
            print(f"{game_name(path):<45} skipped (title not supported yet)")
            continue
        try:
            import_game(export)   # (the title's code and data loaded first)
            best = min(import_time(export) for _ in range(repeat))
        except GameError as err:
            print(f"{game_name(path):<45} fails: {err}")
            continue
        count = len(export["actions"])
        rate = count / best
        rates.append(rate)
        total = by_title.setdefault(slug, [0, 0.0, 0])
        total[0] += count
        total[1] += best
        total[2] += 1
        print(f"{game_name(path):<45} {count:>7} {best * 1000:>8.1f} {rate:>10.0f}", flush=True)
    if rates:
        print(f"\n{'title':<12} {'games':>5} {'actions':>7} {'CPU ms':>8} {'actions/s':>10}")
        for slug, (count, took, games) in sorted(by_title.items()):
            print(f"{slug:<12} {games:>5} {count:>7} {took * 1000:>8.1f} {count / took:>10.0f}")
        print(f"median actions/s over the games: {statistics.median(rates):.0f}")


def _call_time(state, corporation) -> float:
    """CPU seconds one best_routes call takes (the best of three for quick ones, which noise
    dominates): the work done, whatever else the machine runs."""
    best = None
    for _ in range(3):
        start = time.process_time()
        state.best_routes(corporation)
        took = time.process_time() - start
        best = took if best is None else min(best, took)
        if took > 0.02:
            break
    return best


def routes(files, games=None) -> None:
    """``games``: (seed, players) of the builder games (default: the test tools' late-game list)."""
    if not (REPO / "tools" / "routepositions.py").is_file():
        print("best routes: skipped (needs the repository's tools/)")
        return
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from tools.routepositions import LATE_GAMES, builder_export, positions

    games = LATE_GAMES if games is None else games

    sources = []
    for path in files:
        export = read_export(path)
        if export.get("title") == "1856":
            sources.append((game_name(path), export))
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
    # the late positions by the trains run: open trains (D) alone, in pairs, with limited ones
    mixes = {}
    for row in rows:
        if row[4] in ROUTE_CLASSES[-1][1]:
            names = row[5].split()
            opens = sum(1 for n in names if n == "D")
            mix = "no D" if not opens else " ".join(["D"] * opens) + (" + others" if opens < len(names) else "")
            mixes.setdefault(mix, []).append(row[0])
    for mix, times in sorted(mixes.items()):
        times.sort()
        print(f"  late, {mix:<14} {len(times):>5} {statistics.median(times) * 1000:>10.1f} {times[-1] * 1000:>9.1f}")
    print("slowest:")
    for took, name, index, corp, phase, trains in sorted(rows, reverse=True)[:8]:
        print(f"  {took * 1000:8.1f} ms  {name:<28} before action {index:<5} {corp:<4} phase {phase:<2} {trains}")


def positions(export: dict):
    """(index, state) before each live entry of a recorded game, as importing it goes (the
    recorded automatic moves applied); ends where the import would stop."""
    settings = export.get("settings") or {}
    game = new_game(export["title"], export_players(export), seed=settings.get("seed"), game_id=str(export.get("id", "")),
                    optional_rules=settings.get("optional_rules") or ())
    state = game.state
    actions = export["actions"]
    for index, (action, live) in enumerate(zip(actions, live_entries(actions))):
        if not live:
            continue
        if state.finished:
            return
        yield index, state
        state.loading = True
        try:
            state.process(action, auto_actions=list(action.get("auto_actions") or ()))
        except GameError:
            return
        finally:
            state.loading = False


def _timed(function, *args):
    """(CPU seconds, result) of one call, the cyclic garbage collector paused meanwhile: its pauses
    depend on everything the process holds, not on the call."""
    gc.disable()
    try:
        start = time.process_time()
        result = function(*args)
        return time.process_time() - start, result
    finally:
        gc.enable()


def _percentile(times: list, fraction: float) -> float:
    return times[min(len(times) - 1, int(len(times) * fraction))]


def legal(files) -> None:
    """Legal actions at every position, and the tiles asked for at every recorded tile lay."""
    from .views import legal_actions, tile_lays
    rows, lays = {}, {}
    for path in files:
        export = read_export(path)
        try:
            slug = titles.slug_for(export.get("title"))
        except GameError:
            continue
        name = f"{path.parent.name}/{path.stem}"
        for index, state in positions(export):
            took, offered = _timed(legal_actions, state)
            rows.setdefault(slug, []).append((took, name, index, state.round.label))
            action = export["actions"][index]
            if action.get("type") == "lay_tile" and any(e["entity"] == action.get("entity") and "lay_hexes" in e
                                                        for e in offered):
                took, _ = _timed(tile_lays, state, action.get("entity_type"), action.get("entity"), action.get("hex"))
                lays.setdefault(slug, []).append((took, name, index, action.get("hex")))
    p99_target, max_target = LEGAL_TARGETS
    print(f"\nlegal actions at every position (CPU ms per call; targets p99 <= {p99_target * 1000:.0f}, "
          f"max <= {max_target * 1000:.0f})")
    print(f"{'title':<12} {'positions':>9} {'p50':>7} {'p99':>7} {'max':>7}   tile lays asked: {'n':>5} "
          f"{'p50':>7} {'p99':>7} {'max':>7}")
    for slug in sorted(rows):
        times = sorted(r[0] for r in rows[slug])
        asked = sorted(r[0] for r in lays.get(slug, ())) or [0.0]
        met = _percentile(times, 0.99) <= p99_target and times[-1] <= max_target
        print(f"{slug:<12} {len(times):>9} {_percentile(times, 0.5) * 1000:>7.1f} "
              f"{_percentile(times, 0.99) * 1000:>7.1f} {times[-1] * 1000:>7.1f}   {'':>16}{len(lays.get(slug, ())):>5} "
              f"{_percentile(asked, 0.5) * 1000:>7.1f} {_percentile(asked, 0.99) * 1000:>7.1f} "
              f"{asked[-1] * 1000:>7.1f}{'' if met else '  (missed)'}", flush=True)
    print("slowest legal actions:")
    for took, name, index, label in sorted((r for v in rows.values() for r in v), reverse=True)[:8]:
        print(f"  {took * 1000:8.1f} ms  {name:<45} before action {index:<5} {label}")
    print("slowest tile lays asked:")
    for took, name, index, hex_id in sorted((r for v in lays.values() for r in v), reverse=True)[:5]:
        print(f"  {took * 1000:8.1f} ms  {name:<45} before action {index:<5} {hex_id}")


def undo(files, back: int = 10, pairs: int = 15, aged: bool = False) -> None:
    """Undo and redo late in each game, built by a replay and read by ``engine.load``."""
    from . import load
    print(f"\nundo late in a game (CPU ms; {pairs} undo-redo pairs after {back} live moves"
          f"{', each after a full collection' if aged else ''})")
    print(f"{'game':<45} {'built by':<8} {'dump kB':>7} {'1st undo':>8} {'undo least':>10} {'median':>7} "
          f"{'redo least':>10} {'median':>7} {'after least':>12} {'median':>7}")
    for path in files:
        export = read_export(path)
        actions = export["actions"]
        start = max(0, len(actions) - back)
        built = import_game({**export, "actions": actions[:start]})
        dump = built.dump()
        for way in ("replay", "load"):
            game = built if way == "replay" else load(dump)
            for action in actions[start:]:
                game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
            last = actions[-1]
            who = {"entity": last.get("entity"), "entity_type": last.get("entity_type")}
            times: dict = {"undo": [], "redo": [], "after": []}
            for i in range(pairs + 1):
                for kind in ("undo", "redo"):
                    if aged:
                        gc.collect()
                    began = time.process_time()
                    game.process({"type": kind, **who})
                    times[kind].append(time.process_time() - began)
                    began = time.process_time()
                    if hasattr(game, "settle"):   # (an engine before it: nothing)
                        game.settle()
                    elif hasattr(game, "let_go"):
                        game.let_go()
                    times["after"].append(time.process_time() - began)
            first = times["undo"].pop(0)
            times["redo"].pop(0)
            undos, redos, lets = sorted(times["undo"]), sorted(times["redo"]), sorted(times["after"][2:])
            print(f"{game_name(path):<45} {way:<8} {len(dump) / 1000:>7.0f} {first * 1000:>8.1f} "
                  f"{undos[0] * 1000:>10.1f} {statistics.median(undos) * 1000:>7.1f} "
                  f"{redos[0] * 1000:>10.1f} {statistics.median(redos) * 1000:>7.1f} "
                  f"{lets[0] * 1000:>12.1f} {statistics.median(lets) * 1000:>7.1f}", flush=True)
            del game


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", help="fixture files or folders")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-replay", action="store_true", help="skip the replay table")
    ap.add_argument("--no-routes", action="store_true", help="skip the best-routes timings")
    ap.add_argument("--no-legal", action="store_true", help="skip the legal-actions timings")
    ap.add_argument("--undo", action="store_true", help="only the undo timings (UNDO_GAMES by default)")
    ap.add_argument("--undo-back", type=int, default=10, help="live moves before the undos")
    ap.add_argument("--pairs", type=int, default=15, help="undo-redo pairs timed")
    ap.add_argument("--aged", action="store_true", help="a full collection before each undo and redo")
    ap.add_argument("--games", default=None,
                    help="builder games for the best-routes timings, as SEED:PLAYERS,... (default: "
                         "tools.routepositions.LATE_GAMES)")
    args = ap.parse_args(argv)
    if args.undo:
        undo(fixtures(args.paths or [REPO / "evidence" / name for name in UNDO_GAMES]), args.undo_back, args.pairs, args.aged)
        return 0
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
    if not args.no_legal:
        legal(files if args.paths else fixtures([REPO / "evidence" / "fixtures", REPO / "evidence" / "fixtures-new"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
