"""The gateway's read model: every game's replica, plus waiters for command results and watchers."""

from __future__ import annotations

import asyncio
from collections import defaultdict

from contracts.envelopes import Envelope
from runtime.replica import Replica
from runtime.worker import Hooks, Worker


class ReadModel(Hooks):
    def __init__(self) -> None:
        self.results: dict[str, asyncio.Future] = {}
        self.watchers: dict[str, set[asyncio.Queue]] = defaultdict(set)
        self._changed = asyncio.Event()

    async def on_record(self, worker: Worker, rep: Replica, env: Envelope, live: bool) -> None:
        body = env.WhichOneof("body")
        if body in ("action_applied", "action_rejected"):
            waiter = self.results.pop(env.command_id, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(env)
        if body != "command_submitted":
            for queue in list(self.watchers.get(rep.game_id, ())):
                queue.put_nowait(env)
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def wait_until(self, predicate, timeout: float) -> bool:
        """Wait until predicate() holds (checked after every record), at most `timeout` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            changed = self._changed
            try:
                await asyncio.wait_for(changed.wait(), remaining)
            except asyncio.TimeoutError:
                return predicate()
        return True
