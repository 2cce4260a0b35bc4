"""The cyclic collector of Roundhouse's long-running processes (engine and service processes).

`install()` once per process; then call `between_requests()` where the process may pause: an
engine process after each answer, a service process from its event-loop probe."""

from __future__ import annotations

import gc
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
    only what was made since, and whatever was made since the last full collection is not frozen
    (engine.api leaves a state it drops to the young collection then, and cuts its cycles otherwise).
    Objects frozen and later dropped are freed by their reference counts as before; only cycles
    among them wait for a compaction (an engine process cuts those of the rules states it drops,
    `engine.Game.let_go`: what is left is a game's old rounds, a few objects an action): unfreeze,
    one collection of everything, freeze again, run between requests once the frozen objects have
    grown to `growth` times what the last compaction left (and past `floor`). That costs one full pause each time the process's objects have grown
    fourfold, instead of one per few hundred thousand objects made (a growth of 2 compacted twice as
    often in the open-loop benchmark, in longer pauses in all and with no less memory:
    docs/architecture.md)."""

    def __init__(self, growth: float = 4.0, floor: int = 500_000):
        self.growth = growth
        self.floor = floor
        self.full_ran = False
        self.compactions = 0
        self.pauses: list[tuple[str, float]] = []   # ("full" or "compaction", seconds), not yet taken
        self._started = 0.0
        self._compacting = False
        gc.collect()
        gc.freeze()
        self.baseline = gc.get_freeze_count()
        gc.callbacks.append(self._noted)

    def _noted(self, phase: str, info: dict) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._started = time.perf_counter()
            return
        gc.freeze()   # (O(1): the generations' lists joined to the frozen one)
        if not self._compacting:
            self.full_ran = True
        if len(self.pauses) < 1000:
            self.pauses.append(("compaction" if self._compacting else "full", time.perf_counter() - self._started))

    def between_requests(self) -> None:
        if not self.full_ran:
            return
        self.full_ran = False
        if gc.get_freeze_count() > max(self.floor, self.growth * self.baseline):
            gc.unfreeze()
            self._compacting = True
            try:
                gc.collect()
            finally:
                self._compacting = False
            gc.freeze()
            self.baseline = gc.get_freeze_count()
            self.compactions += 1

    def take_pauses(self) -> list[tuple[str, float]]:
        """The full collections' and compactions' pauses since the last call."""
        taken, self.pauses = self.pauses, []
        return taken


def between_requests() -> list[tuple[str, float]]:
    """The installed collector's `between_requests`, then its pauses since the last call (nothing
    in a process that installed none)."""
    if _installed is None:
        return []
    _installed.between_requests()
    return _installed.take_pauses()


def install() -> Collector:
    """The process's collector, made at the first call."""
    global _installed
    if _installed is None:
        _installed = Collector()
    return _installed
