"""Import speed against the reference engine, side by side: every recorded game of the evidence (or
the ones named) is imported by long-lived worker processes: the reference engine (a checkout of
tobymao/18xx, run with Ruby; its code stays outside this repository) and one or more builds of ours.
The rounds are passes over all the games: an untimed warm-up pass, then ROUNDS timed passes, each
importing every game once per engine, the engines in turns (their order rotated from pass to pass),
so that a burst of load on a shared machine spoils one pass of a few games, not every round of one
game. Prints per game the best CPU time of each engine over the passes, the ratios and whether every
result is the reference's; then the median and worst ratio and the totals.

    python -m tools.refspeed --reference ~/18xx [--ours now=libs --ours base=../base/libs] [--rounds 5] [GAME ...]

GAME is title/name (1856/hotseat004). Needs `ruby` (Debian's ruby 3.1 serves) unless --no-reference.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from tools import evidence

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


class Worker:
    def __init__(self, name: str, argv: list[str], env: dict | None = None):
        self.name = name
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)

    def time(self, path: Path, timed: bool) -> dict:
        """One import of the export at `path` (its CPU time in ms under "ms" when `timed`)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{path} {int(timed)}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"refspeed: the {self.name} worker ended on {path}")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def games(named: list[str]) -> list[tuple[str, Path]]:
    if named:
        return [(g, evidence.game_path(*g.split("/", 1))) for g in named]
    return [(f"{p.parent.name}/{p.name.removesuffix('.json.xz')}", p) for p in evidence.all_game_paths()]


def schedule(games: list[str], engines: list[str], rounds: int) -> list[tuple[int, str, str]]:
    """The imports of a run in order, as (pass, game, engine): pass 0 is the warm-up, passes 1 to
    `rounds` are timed; every pass imports every game once per engine, the engines of a game in turns,
    their order rotated by one from each pass to the next."""
    order: list[tuple[int, str, str]] = []
    for n in range(rounds + 1):
        turn = n % len(engines)
        rotated = engines[turn:] + engines[:turn]
        order.extend((n, game, engine) for game in games for engine in rotated)
    return order


def keep_best(kept: dict[str, dict], engine: str, timing: dict) -> None:
    """Fold one timed import into `kept` (engine -> its fastest import so far): the least "ms" is
    kept, and "result" is the import's result while every import of the engine gave the same one,
    else None (never the reference's)."""
    old = kept.get(engine)
    if old is None:
        kept[engine] = dict(timing)
        return
    result = old["result"] if old["result"] == timing["result"] else None
    if timing["ms"] < old["ms"]:
        old.update(timing)
    old["result"] = result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.refspeed", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", type=Path, help="a checkout of tobymao/18xx (its lib/ is loaded)")
    parser.add_argument("--no-reference", action="store_true", help="compare builds of ours only")
    parser.add_argument("--ours", action="append", default=[], metavar="NAME=LIBS",
                        help="a build of ours: its libs folder (default: now=libs of this checkout)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter for our builds")
    parser.add_argument("--rounds", type=int, default=5, help="timed passes over the games (best kept per game and engine)")
    parser.add_argument("games", nargs="*", metavar="GAME", help="title/name; default every recorded game")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if not args.no_reference and (args.reference is None or not (args.reference / "lib" / "engine.rb").is_file()):
        parser.error("--reference must name a checkout of tobymao/18xx (with lib/engine.rb), or pass --no-reference")

    workers: list[Worker] = []
    if not args.no_reference:
        workers.append(Worker("reference", ["ruby", "-I", str(HERE / "shim"), "-I", str(args.reference / "lib"),
                                            str(HERE / "reference_worker.rb")]))
    for spec in args.ours or [f"now={ROOT / 'libs'}"]:
        name, _, libs = spec.partition("=")
        libs_dir = Path(libs).resolve()
        env = {**os.environ, "PYTHONPATH": f"{libs_dir}{os.pathsep}{libs_dir.parent}"}
        workers.append(Worker(name, [args.python, str(HERE / "worker.py")], env))

    print(f"load average {os.getloadavg()[0]:.1f}", file=sys.stderr)
    by_name = {w.name: w for w in workers}
    chosen = games(args.games)
    best: dict[str, dict[str, dict]] = {game: {} for game, _ in chosen}
    with tempfile.TemporaryDirectory() as tmp:
        plain = {}
        for game, path in chosen:
            plain[game] = Path(tmp) / (game.replace("/", "--") + ".json")
            plain[game].write_bytes(evidence.read_bytes(path))
        done = 0
        for n, game, name in schedule(list(plain), list(by_name), args.rounds):
            if n != done:
                print(f"pass {done} done, load average {os.getloadavg()[0]:.1f}", file=sys.stderr, flush=True)
                done = n
            timing = by_name[name].time(plain[game], timed=n > 0)
            if n > 0:
                keep_best(best[game], name, timing)
    rows = [(game, best[game]) for game, _ in chosen]
    for game, row in rows:
        ref = row.get("reference")
        cells = [game, str(next(iter(row.values()))["actions"])]
        for w in workers:
            cell = f"{w.name} {row[w.name]['ms']:.0f} ms"
            if ref is not None and w.name != "reference":
                same = ref["result"] is not None and row[w.name]["result"] == ref["result"]
                cell += f" ({ref['ms'] / row[w.name]['ms']:.2f}x, same result: {same})"
            cells.append(cell)
        print(" | ".join(cells), flush=True)
    for w in workers:
        w.close()
    print(f"load average {os.getloadavg()[0]:.1f}", file=sys.stderr)

    ours = [w.name for w in workers if w.name != "reference"]
    for name in ours:
        total = sum(r[name]["ms"] for _, r in rows)
        if any("reference" in r for _, r in rows):
            ratios = [r["reference"]["ms"] / r[name]["ms"] for _, r in rows]
            reference = sum(r["reference"]["ms"] for _, r in rows)
            print(f"{name}: median {statistics.median(ratios):.2f}x, worst {min(ratios):.2f}x; "
                  f"{total:.0f} ms in all against the reference's {reference:.0f} ms")
        else:
            print(f"{name}: {total:.0f} ms in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
