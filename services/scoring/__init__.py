"""The scoring service: live net worth and final results of every game.

It consumes the events of every game and publishes, after each applied action, a ScoreUpdated with
the players' current net worth (the engine's player_values), and a GameFinished with the engine's
result and end reason once a game is over. It decides nothing about the game itself.
"""

from __future__ import annotations

from contracts.envelopes import Envelope
from contracts.v1 import log_pb2
from runtime.config import Settings
from runtime.replica import Replica
from runtime.worker import Hooks, Worker

NAME = "scoring"


class Scoring(Hooks):
    def __init__(self) -> None:
        # game id -> (seq of the last ScoreUpdated this process appended, GameFinished appended)
        self._sent: dict[str, tuple[int, bool]] = {}

    async def on_record(self, worker: Worker, rep: Replica, env: Envelope, live: bool) -> None:
        if live and env.WhichOneof("body") in ("game_created", "action_applied"):
            await self.publish(worker, rep)

    async def on_live(self, worker: Worker, partition: int) -> None:
        for rep in worker.replicas(partition):  # an evicted game answers from its summary
            await self.publish(worker, rep)

    async def on_dropped(self, worker: Worker, game_ids: list[str]) -> None:
        for g in game_ids:
            self._sent.pop(g, None)

    async def publish(self, worker: Worker, rep: Replica) -> None:
        sent_seq, sent_finish = self._sent.get(rep.game_id, (0, False))
        if rep.seq > max(rep.score_seq, sent_seq):
            await worker.emit(rep, log_pb2.ScoreUpdated(values=rep.player_values()))
            sent_seq = rep.seq
        if rep.finished and not (rep.finished_published or sent_finish):
            await worker.emit(
                rep, log_pb2.GameFinished(result=rep.result(), game_end_reason=rep.game_end_reason)
            )
            sent_finish = True
        self._sent[rep.game_id] = (sent_seq, sent_finish)


def hooks(settings: Settings) -> Scoring:
    return Scoring()
