"""CPU time to load each title's data (``engine.titles.load_data``: JSON parse, checks, catalogue),
and to validate its file against the pydantic schema, once the title's rule code is imported.

    .venv/bin/python -m tools.titledata.loadtime [--runs 30]

Prints the median of ``--runs`` loads per title (the catalogue read afresh each time) and the one-off
cost of importing the schema (pydantic). CPU time, so other work on the machine matters less.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time
from importlib import resources

from engine import titles


def cpu_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args(argv)
    start = time.process_time()
    from engine.titles import schema
    print(f"import the schema (pydantic): {(time.process_time() - start) * 1000:.0f} ms, once per process")
    for slug in titles.SLUGS:
        importlib.import_module(f"{titles.__name__}.{slug}")

        def load():
            titles.load_data.cache_clear()
            titles.tile_catalogue.cache_clear()
            titles.load_data(slug)

        text = (resources.files(f"{titles.__name__}.{slug}") / "data.json").read_text(encoding="utf-8")
        print(f"{slug:<11} load {cpu_ms(load, args.runs):5.2f} ms   "
              f"schema validation {cpu_ms(lambda: schema.validate_title(text), args.runs):5.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
