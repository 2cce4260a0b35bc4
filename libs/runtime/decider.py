"""The owner logic of the round services (auction, stock_round, operating_round).

A round service owns a game while the game's current round is of its kind. Only the owner decides a
command, and only when the command's expected_seq is the game's sequence: it lets the engine apply
the action (the engine alone judges legality) and appends ActionApplied, or appends ActionRejected
with the engine's reason. A command behind the game is stale; one ahead of it waits (bounded) for the
state to catch up. A command id already decided is never decided again.
"""

from __future__ import annotations

import logging
import time

import engine
from contracts.actions import MalformedAction, action_from_json, action_to_json, action_type
from contracts.envelopes import Envelope, now_ms
from contracts.v1 import log_pb2
from runtime import metrics
from runtime.replica import Replica
from runtime.worker import Hooks, Worker

log = logging.getLogger(__name__)
R = log_pb2.RejectReason


class Decider(Hooks):
    def __init__(self, kind: str, command_wait_s: float = 10.0):
        self.kind = kind
        self.command_wait_s = command_wait_s

    def owns(self, rep: Replica) -> bool:
        return rep.round_kind == self.kind

    async def on_record(self, worker: Worker, rep: Replica, env: Envelope, live: bool) -> None:
        if live:
            await self.decide_pending(worker, rep)

    async def on_live(self, worker: Worker, partition: int) -> None:
        for rep in worker.replicas(partition):  # an evicted game has nothing pending
            await self.decide_pending(worker, rep)

    async def on_tick(self, worker: Worker) -> None:
        now = time.monotonic()
        for rep in [r for r in worker.games.values() if r.pending]:
            if rep.partition not in worker.live or not self.owns(rep):
                continue
            for cid, env in list(rep.pending.items()):
                ahead = env.command_submitted.expected_seq > rep.seq
                if ahead and now - rep.pending_since.get(cid, now) >= self.command_wait_s:
                    await self.reject(
                        worker, rep, env, R.AHEAD_SEQUENCE,
                        f"expected_seq {env.command_submitted.expected_seq} is ahead of the game"
                        f" (seq {rep.seq}) and did not become current",
                    )

    async def decide_pending(self, worker: Worker, rep: Replica) -> None:
        await self.publish_round(worker, rep)
        for env in list(rep.pending.values()):
            if not self.owns(rep):
                return
            await self.decide(worker, rep, env)

    def _round_to_publish(self, rep: Replica) -> bool:
        return self.owns(rep) and not rep.finished and rep.round_label != rep.published_round

    async def publish_round(self, worker: Worker, rep: Replica) -> None:
        if self._round_to_publish(rep):
            rep.published_round = label = rep.round_label
            await worker.emit(rep, log_pb2.RoundStarted(round_kind=self.kind, round_label=label))

    async def decide(self, worker: Worker, rep: Replica, env: Envelope) -> None:
        cmd = env.command_submitted
        if env.command_id in rep.decided:
            rep.settle(env.command_id)
            return
        if cmd.expected_seq > rep.seq:
            return  # ahead: wait for the state (on_tick bounds the wait)
        if cmd.expected_seq < rep.seq:
            await self.reject(
                worker, rep, env, R.STALE_SEQUENCE,
                f"expected_seq {cmd.expected_seq} is stale: the game is at seq {rep.seq}",
            )
            return
        try:
            action = action_to_json(cmd.action)
        except MalformedAction as exc:
            await self.reject(worker, rep, env, R.MALFORMED_ACTION, str(exc))
            return
        kind_before = rep.game.round_kind
        try:
            stored = rep.game.process(action)
        except engine.GameError as exc:
            await self.reject(worker, rep, env, R.ILLEGAL_ACTION, exc.reason)
            return
        seq = rep.game.seq
        rep.local[seq] = env.command_id
        rep.decided[env.command_id] = log_pb2.DecidedCommand(command_id=env.command_id, seq=seq)
        rep.settle(env.command_id)
        applied = log_pb2.ActionApplied(
            seq=seq,
            action=action_from_json(stored),
            round_kind=rep.game.round_kind,
            round_label=rep.game.round_label,
            digest=rep.game.digest(),
            actor=cmd.actor,
        )
        await worker.emit(rep, applied, seq=seq, command_id=env.command_id)
        metrics.ACTIONS_APPLIED.labels(worker.service, rep.title, kind_before).inc()
        metrics.COMMAND_LATENCY.labels(worker.service).observe(max(0, now_ms() - env.timestamp_ms) / 1000)
        await self.publish_round(worker, rep)

    async def reject(self, worker: Worker, rep: Replica, env: Envelope, code: int, reason: str) -> None:
        cmd = env.command_submitted
        rep.decided[env.command_id] = log_pb2.DecidedCommand(
            command_id=env.command_id, rejected=code, reason=reason
        )
        rep.settle(env.command_id)
        rejected = log_pb2.ActionRejected(
            code=code,
            reason=reason,
            expected_seq=cmd.expected_seq,
            current_seq=rep.seq,
            action_type=action_type(cmd.action),
            round_kind=rep.game.round_kind,
        )
        await worker.emit(rep, rejected, command_id=env.command_id)
        metrics.ACTIONS_REJECTED.labels(
            worker.service, rep.title, rep.game.round_kind, R.Name(code).lower()
        ).inc()
        metrics.COMMAND_LATENCY.labels(worker.service).observe(max(0, now_ms() - env.timestamp_ms) / 1000)
        log.info("%s: %s rejected in %s: %s", worker.service, env.command_id, rep.game_id, reason)
