"""The gateway's read model: every game's replica, plus waiters for command results and watchers."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass, field

from contracts.envelopes import Envelope
from runtime.replica import Replica
from runtime.worker import Hooks, Worker


@dataclass
class Tournament:
    tournament_id: str
    name: str
    operator_token_sha256: str
    game_ids: list[str] = field(default_factory=list)


class ReadModel(Hooks):
    def __init__(self) -> None:
        self.tournaments: dict[str, Tournament] = {}
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
        self._notify()

    async def on_tournament(self, worker: Worker, env: Envelope) -> None:
        body = env.WhichOneof("body")
        if body == "tournament_created" and env.game_id not in self.tournaments:
            t = env.tournament_created
            self.tournaments[env.game_id] = Tournament(env.game_id, t.name, t.operator_token_sha256)
        elif body == "tournament_game_added" and env.game_id in self.tournaments:
            games = self.tournaments[env.game_id].game_ids
            if env.tournament_game_added.added_game_id not in games:
                games.append(env.tournament_game_added.added_game_id)
        self._notify()

    def _notify(self) -> None:
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
