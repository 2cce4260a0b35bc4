"""The cyclic collector of Roundhouse's long-running processes (engine and service processes).

`install()` once per process (an engine process `install(young=True)`); then call
`between_requests()` where the process may pause: an engine process after each answer, a service
process from its event-loop probe, the platform benchmark's load generator every two seconds."""

from __future__ import annotations

import gc
import sys
import time

_installed: Collector | None = None


class Collector:
    """The cyclic collector of a long-running process, kept off what lives long.

    An engine process holding a few hundred games holds millions of objects, nearly all of them the
    games' states, which live as long as their games (a service process: its ledgers, tails and
    recent records, a few hundred thousand). Python's full collection traces every one of them
    each time enough new objects have outlived the young generations: 0.5 to 2 s with 500 games,
    and every request of the process waits for it (in a service process, its event loop). Here,
    whenever a full collection ends, the objects that survived it are frozen (`gc.freeze`, from the
    collection's own callback: moved where no collection looks), so the next full collection traces
    only what was made since. With `young` (engine processes), what survives a collection of the
    young generations is frozen as well, so a full collection has nothing left to trace: an engine
    process cuts the cycles of every rules state it drops (`engine.Game.let_go`), which leaves a few
    objects an action as cyclic garbage (`python tools/cyclic_garbage.py --young`: 19,734 over the
    7,284 recorded moves), so the full collections, which traced every object made since the last
    one and found next to nothing, no longer pause it (2.4-3.9 s a minute in the open-loop
    benchmark: docs/architecture.md).
    Objects frozen and later dropped are freed by their reference counts as before; only cycles
    among them wait for a compaction: unfreeze, one collection of everything, freeze again, run
    between requests once the process's small objects have grown to `growth` times what the last
    compaction left (and past `floor`). That costs one full pause each time the process's objects
    have grown fourfold, instead of one per few hundred thousand objects made (a growth of 2
    compacted twice as often in the open-loop benchmark, in longer pauses in all and with no less
    memory: docs/architecture.md). The objects are counted as pymalloc's allocated blocks
    (`sys.getallocatedblocks`: a sum over its arenas, 0.3-0.5 ms for 2.5 million blocks), after a full
    collection, or with `young` at most every `count_every_s`. (Counting the frozen objects instead,
    `gc.get_freeze_count`, walks their list: 120 ms for the 1.1 million objects of 260 late game
    states, during which the process answers nothing.)"""

    def __init__(self, growth: float = 4.0, floor: int = 1_000_000, young: bool = False, count_every_s: float = 1.0):
        self.growth = growth
        self.floor = floor
        self.young = young
        self.count_every_s = count_every_s
        self.full_ran = False
        self.compactions = 0
        self.pauses: list[tuple[str, float]] = []   # ("full" or "compaction", seconds), not yet taken
        self._started = 0.0
        self._counted = time.monotonic()
        self._compacting = False
        gc.collect()
        gc.freeze()
        self.baseline = heap_size()
        gc.callbacks.append(self._noted)

    def _noted(self, phase: str, info: dict) -> None:
        generation = info["generation"]
        if generation == 1 and self.young:
            if phase == "stop":
                gc.freeze()   # (O(1): the generations' lists joined to the frozen one)
                self.full_ran = True
            return
        if generation != 2:
            return
        if phase == "start":
            self._started = time.perf_counter()
            return
        gc.freeze()
        if not self._compacting:
            self.full_ran = True
        if len(self.pauses) < 1000:
            self.pauses.append(("compaction" if self._compacting else "full", time.perf_counter() - self._started))

    def between_requests(self) -> None:
        if not self.full_ran:
            return
        if self.young:
            now = time.monotonic()
            if now - self._counted < self.count_every_s:
                return
            self._counted = now
        self.full_ran = False
        if heap_size() > max(self.floor, self.growth * self.baseline):
            gc.unfreeze()
            self._compacting = True
            try:
                gc.collect()
            finally:
                self._compacting = False
            gc.freeze()
            self.baseline = heap_size()
            self.compactions += 1

    def take_pauses(self) -> list[tuple[str, float]]:
        """The full collections' and compactions' pauses since the last call."""
        taken, self.pauses = self.pauses, []
        return taken


def heap_size() -> int:
    """The process's small objects, as pymalloc's allocated blocks (nearly every object, frozen or
    not, the game states' included; a block of a larger object's buffer now and then)."""
    return sys.getallocatedblocks()


def between_requests() -> list[tuple[str, float]]:
    """The installed collector's `between_requests`, then its pauses since the last call (nothing
    in a process that installed none)."""
    if _installed is None:
        return []
    _installed.between_requests()
    return _installed.take_pauses()


def install(young: bool = False) -> Collector:
    """The process's collector, made at the first call (`young`: an engine process's, see Collector;
    its floor is higher, as what it freezes is nearly all alive)."""
    global _installed
    if _installed is None:
        _installed = Collector(young=young, floor=4_000_000 if young else 1_000_000)
    return _installed
