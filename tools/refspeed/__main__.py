"""Import speed against the reference engine, side by side: every recorded game of the evidence (or
the ones named) is imported by long-lived worker processes in turns, game by game: the reference
engine (a checkout of tobymao/18xx, run with Ruby; its code stays outside this repository) and one or
more builds of ours. Prints per game the best CPU time of each, the ratios and whether every result
is the reference's; then the median and worst ratio and the totals.

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

    def time(self, path: Path, rounds: int) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{path} {rounds}\n")
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.refspeed", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", type=Path, help="a checkout of tobymao/18xx (its lib/ is loaded)")
    parser.add_argument("--no-reference", action="store_true", help="compare builds of ours only")
    parser.add_argument("--ours", action="append", default=[], metavar="NAME=LIBS",
                        help="a build of ours: its libs folder (default: now=libs of this checkout)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter for our builds")
    parser.add_argument("--rounds", type=int, default=5, help="timed imports per game and engine (best kept)")
    parser.add_argument("games", nargs="*", metavar="GAME", help="title/name; default every recorded game")
    args = parser.parse_args(argv)
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
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for game, path in games(args.games):
            plain = Path(tmp) / (game.replace("/", "--") + ".json")
            plain.write_bytes(evidence.read_bytes(path))
            row = {w.name: w.time(plain, args.rounds) for w in workers}
            rows.append((game, row))
            ref = row.get("reference")
            cells = [game, str(next(iter(row.values()))["actions"])]
            for w in workers:
                cell = f"{w.name} {row[w.name]['ms']:.0f} ms"
                if ref is not None and w.name != "reference":
                    cell += f" ({ref['ms'] / row[w.name]['ms']:.2f}x, same result: {row[w.name]['result'] == ref['result']})"
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
