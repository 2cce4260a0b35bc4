"""Work done in steps: a generator that yields between pieces of a few milliseconds at most, so that
whoever drives it can do something more urgent between two of them (an engine process answers the
requests that came in meanwhile: runtime.engines). Driven to its end at once by ``finish``.

Between two steps of a walk of a game's state, nothing may change that state: the driver finishes
the walk before it lets anything else use the game (runtime.shard)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, TypeVar

T = TypeVar("T")

# A walk in steps reads the references of at most this many objects between two yields (about a
# millisecond here), and a conversion handles this many instances (about as long).
STEP_OBJECTS = 2000
STEP_INSTANCES = 150


def finish(steps: Generator[Any, None, T]) -> T:
    """Every step of ``steps`` now; what it returns."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value
