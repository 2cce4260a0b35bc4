"""The scoring service: live net worth and final results of every game.

It reads every game's records and publishes the players' current net worth (ScoreUpdated) as the
game goes on, at most once per `score_interval_s` per game (the latest values then: a burst of moves
makes one record), and a GameFinished with the result and end reason once a game is over. Both
come from what the owner's ActionApplied carries: scoring holds no engine and decides nothing.
"""

from __future__ import annotations

import asyncio
import time

from contracts.envelopes import Envelope
from contracts.v1 import log_pb2
from runtime.ledger import Ledger
from runtime.service import Context, Service
from runtime.worker import Hooks, Worker

NAME = "scoring"


class Scoring(Hooks):
    def __init__(self, interval_s: float) -> None:
        self.interval_s = interval_s
        # game id -> (seq of the last ScoreUpdated this process appended, GameFinished appended)
        self._sent: dict[str, tuple[int, bool]] = {}
        self._sent_at: dict[str, float] = {}
        self._due: set[str] = set()   # games whose values moved since their last ScoreUpdated

    async def on_record(self, worker: Worker, led: Ledger, env: Envelope, what: str, live: bool) -> None:
        if live and env.WhichOneof("body") in ("game_created", "action_applied"):
            self._due.add(led.game_id)

    async def on_batch(self, worker: Worker) -> None:
        await self._publish_due(worker)

    async def on_tick(self, worker: Worker) -> None:
        if self._due:
            await self._publish_due(worker)

    async def _publish_due(self, worker: Worker) -> None:
        now = time.monotonic()
        ready = [g for g in self._due if now - self._sent_at.get(g, 0.0) >= self.interval_s
                 or (g in worker.games and worker.games[g].finished)]
        if not ready:
            return
        self._due.difference_update(ready)
        games = [worker.games[g] for g in ready if g in worker.games]
        await asyncio.gather(*(self.publish(worker, led) for led in games))

    async def on_live(self, worker: Worker, partition: int) -> None:
        await asyncio.gather(*(self.publish(worker, led) for led in worker.ledgers(partition)))

    async def on_dropped(self, worker: Worker, game_ids: list[str]) -> None:
        for g in game_ids:
            self._sent.pop(g, None)
            self._sent_at.pop(g, None)
            self._due.discard(g)

    async def publish(self, worker: Worker, led: Ledger) -> None:
        sent_seq, sent_finish = self._sent.get(led.game_id, (0, False))
        appends = []
        if led.seq > max(led.score_seq, sent_seq) and led.values:
            appends.append(worker.emit(led, log_pb2.ScoreUpdated(values=led.values)))
            sent_seq = led.seq
            self._sent_at[led.game_id] = time.monotonic()
        if led.finished and not (led.finished_published or sent_finish):
            appends.append(worker.emit(
                led, log_pb2.GameFinished(result=led.result, game_end_reason=led.game_end_reason)))
            sent_finish = True
        self._sent[led.game_id] = (sent_seq, sent_finish)
        for append in appends:
            await append


def build(ctx: Context) -> Service:
    return Service(NAME, Scoring(ctx.settings.score_interval_s), group=ctx.settings.group(NAME))
