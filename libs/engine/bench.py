"""Replay benchmark: ``python -m engine.bench [FIXTURE_DIR ...] [--repeat N]``.

Replays every available recorded game several times and prints actions per second per game and the
median. Default fixture folder: ../shared/fixtures next to the repository (or $ROUNDHOUSE_SHARED).
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


def default_dirs() -> list:
    root = Path(os.environ.get("ROUNDHOUSE_SHARED", Path(__file__).resolve().parents[3] / "shared"))
    return [root / "fixtures"]


def fixtures(dirs) -> list:
    out = []
    for d in dirs:
        d = Path(d)
        out.extend(sorted(d.rglob("*.json")) if d.is_dir() else ([d] if d.is_file() else []))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", help="fixture files or folders")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    files = fixtures(args.paths or default_dirs())
    if not files:
        print("no fixtures found", file=sys.stderr)
        return 1
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
            for _ in range(args.repeat):
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
