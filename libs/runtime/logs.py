"""Logging: one line per event on stderr, with the process's service name."""

from __future__ import annotations

import logging
import sys


def setup(level: str = "INFO", name: str = "roundhouse") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        logging.Formatter(f"%(asctime)s %(levelname)s {name} %(name)s: %(message)s")
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # client libraries are chatty at INFO about connections and rebalances
    for noisy in ("aiokafka", "kafka"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
