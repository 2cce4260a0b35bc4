"""The scoring service: live net worth and final results of every game.

It reads every game's records and publishes, after each applied action, a ScoreUpdated with the
players' current net worth, and a GameFinished with the result and end reason once a game is over.
Both come from what the owner's ActionApplied carries: scoring holds no engine and decides nothing.
Records of one batch are coalesced: one ScoreUpdated per game per batch.
"""

from __future__ import annotations

import asyncio

from contracts.envelopes import Envelope
from contracts.v1 import log_pb2
from runtime.ledger import Ledger
from runtime.owner import Context
from runtime.service import Service
from runtime.worker import Hooks, Worker

NAME = "scoring"


class Scoring(Hooks):
    def __init__(self) -> None:
        # game id -> (seq of the last ScoreUpdated this process appended, GameFinished appended)
        self._sent: dict[str, tuple[int, bool]] = {}
        self._touched: set[str] = set()

    async def on_record(self, worker: Worker, led: Ledger, env: Envelope, what: str, live: bool) -> None:
        if live and env.WhichOneof("body") in ("game_created", "action_applied"):
            self._touched.add(led.game_id)

    async def on_batch(self, worker: Worker) -> None:
        touched, self._touched = self._touched, set()
        games = [worker.games[g] for g in touched if g in worker.games]
        await asyncio.gather(*(self.publish(worker, led) for led in games))

    async def on_live(self, worker: Worker, partition: int) -> None:
        await asyncio.gather(*(self.publish(worker, led) for led in worker.ledgers(partition)))

    async def on_dropped(self, worker: Worker, game_ids: list[str]) -> None:
        for g in game_ids:
            self._sent.pop(g, None)

    async def publish(self, worker: Worker, led: Ledger) -> None:
        sent_seq, sent_finish = self._sent.get(led.game_id, (0, False))
        appends = []
        if led.seq > max(led.score_seq, sent_seq) and led.values:
            appends.append(worker.emit(led, log_pb2.ScoreUpdated(values=led.values)))
            sent_seq = led.seq
        if led.finished and not (led.finished_published or sent_finish):
            appends.append(worker.emit(
                led, log_pb2.GameFinished(result=led.result, game_end_reason=led.game_end_reason)))
            sent_finish = True
        self._sent[led.game_id] = (sent_seq, sent_finish)
        for append in appends:
            await append


def build(ctx: Context) -> Service:
    return Service(NAME, Scoring(), group=ctx.settings.group(NAME))
