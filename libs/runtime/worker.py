"""The consumer loop every service runs over `roundhouse.games`.

For each partition it gains, a worker loads the snapshots of that partition, seeks to where the
replay must start, and *catches up* to the partition's end offset as seen at assignment, applying
events but deciding nothing. Only then is the partition *live*: hooks may decide commands and
append events. A command whose answer was already appended before a crash is seen, during catch-up,
together with that answer, so it is never decided twice.

With a consumer group, the worker checkpoints: it snapshots games (after `snapshot_every` actions,
when idle, and when it loses the partition or stops) and commits the position only up to the first
record of any game not yet covered by a snapshot. A restarted or newly assigned instance therefore
rebuilds every game from snapshot + log and loses nothing that was appended.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable

import engine
from bus.base import Log, Record
from contracts.envelopes import TOURNAMENT_BODIES, Envelope, MalformedEnvelope, make_envelope, parse
from contracts.v1 import log_pb2
from runtime import metrics
from runtime.config import Settings
from runtime.replica import Replica, build_game

log = logging.getLogger(__name__)


class Hooks:
    """What a service adds to the replicated state. Every method runs inside the consumer loop."""

    async def on_record(self, worker: "Worker", rep: Replica, env: Envelope, live: bool) -> None:
        """After `env` took effect on `rep` (duplicates and stale records never get here)."""

    async def on_live(self, worker: "Worker", partition: int) -> None:
        """The partition is caught up; pending work found during catch-up may be done now."""

    async def on_tick(self, worker: "Worker") -> None:
        """About every poll interval."""

    async def on_dropped(self, worker: "Worker", game_ids: list[str]) -> None:
        """These games' partition was lost (rebalance or stop)."""

    async def on_tournament(self, worker: "Worker", env: Envelope) -> None:
        """A tournament record (keyed by tournament id, not a game)."""


class Worker:
    def __init__(
        self,
        service: str,
        settings: Settings,
        log_: Log,
        hooks: Hooks,
        *,
        group: str | None,
        partitions: Iterable[int] | None = None,
    ):
        self.service = service
        self.settings = settings
        self.log = log_
        self.hooks = hooks
        self.group = group
        self.producer = f"{service}/{settings.instance}"
        self.games: dict[str, Replica] = {}
        self.live: set[int] = set()
        self._catchup: dict[int, tuple[int, float]] = {}  # partition -> (end offset, started)
        self._committed: dict[int, int] = {}
        self._stopping = asyncio.Event()
        self._last_checkpoint = time.monotonic()
        self._last_lag = 0.0
        self.ready = asyncio.Event()  # set once every partition assigned at start is live
        self.consumer = log_.consumer(
            settings.games_topic,
            group=group,
            on_assigned=self._assigned,
            on_revoked=self._revoked,
            partitions=partitions,
        )

    # public -----------------------------------------------------------------------------------

    async def append(self, env: Envelope) -> Record:
        return await self.log.append(self.settings.games_topic, env.game_id, env.SerializeToString())

    async def emit(self, rep: Replica, body, *, seq: int | None = None, command_id: str = "") -> Record:
        env = make_envelope(
            body, game_id=rep.game_id, seq=rep.seq if seq is None else seq,
            producer=self.producer, command_id=command_id,
        )
        return await self.append(env)

    def replicas(self, partition: int) -> list[Replica]:
        return [r for r in self.games.values() if r.partition == partition]

    async def run(self) -> None:
        await self.consumer.start()
        try:
            while not self._stopping.is_set():
                records = await self.consumer.poll(200)
                for record in records:
                    await self._handle(record)
                await self._check_caught_up()
                await self.hooks.on_tick(self)
                now = time.monotonic()
                if self.group is not None and now - self._last_checkpoint >= self.settings.checkpoint_interval_s:
                    await self.checkpoint(self.live)
                    self._last_checkpoint = now
                if now - self._last_lag >= 5.0:
                    await self._measure()
                    self._last_lag = now
        finally:
            if self.group is not None:
                await self.checkpoint(self.live, force=True)
            await self.consumer.stop()

    def stop(self) -> None:
        self._stopping.set()

    # assignment ---------------------------------------------------------------------------------

    async def _assigned(self, partitions: set[int]) -> None:
        started = time.monotonic()
        ends = await self.consumer.end_offsets(partitions)
        for p in partitions:
            start = await self._load_snapshots(p)
            if self.group is not None:
                committed = await self.consumer.committed(p)
                start = min(start, committed if committed is not None else 0)
            else:
                start = 0
            self.consumer.seek(p, start)
            self._catchup[p] = (ends[p], started)
            log.debug("%s: partition %d assigned, replaying offsets %d..%d", self.service, p, start, ends[p])
        log.info("%s: holds partitions %s", self.service, sorted(self.consumer.assignment() | partitions))
        await self._check_caught_up()

    async def _load_snapshots(self, partition: int) -> int:
        """Restore the games of a partition from their snapshots; returns the offset the replay
        must start from for them (the end of the oldest snapshot, or 0 without any)."""
        latest: dict[str, log_pb2.Snapshot] = {}
        for record in await self.log.read_partition(self.settings.snapshots_topic, partition):
            snap = log_pb2.Snapshot()
            try:
                snap.ParseFromString(record.value)
            except Exception:
                log.warning("%s: unreadable snapshot at offset %d", self.service, record.offset)
                continue
            known = latest.get(snap.game_id)
            if known is None or snap.offset >= known.offset:
                latest[snap.game_id] = snap
        start: int | None = None
        for game_id, snap in latest.items():
            t0 = time.perf_counter()
            try:
                rep = Replica.from_snapshot(snap)
            except (engine.GameError, ValueError) as exc:
                log.error("%s: snapshot of %s unusable (%s); replaying it", self.service, game_id, exc)
                return 0
            metrics.SNAPSHOT_SECONDS.labels(self.service, "load").observe(time.perf_counter() - t0)
            self.games[game_id] = rep
            start = snap.offset + 1 if start is None else min(start, snap.offset + 1)
        return 0 if start is None else start

    async def _revoked(self, partitions: set[int]) -> None:
        if self.group is not None:
            try:
                await self.checkpoint(partitions & self.live, force=True)
            except Exception:  # the next owner replays from the last commit: nothing is lost
                log.exception("%s: final checkpoint of partitions %s failed", self.service, sorted(partitions))
        dropped = [g for g, r in self.games.items() if r.partition in partitions]
        for g in dropped:
            del self.games[g]
        self.live -= partitions
        for p in partitions:
            self._catchup.pop(p, None)
            self._committed.pop(p, None)
        if dropped:
            await self.hooks.on_dropped(self, dropped)
        log.info("%s: released partitions %s", self.service, sorted(partitions))

    async def _check_caught_up(self) -> None:
        for p, (end, started) in list(self._catchup.items()):
            if await self.consumer.position(p) >= end:
                # the rebalance callback and the loop may both get here: only one goes live
                if self._catchup.pop(p, None) is None:
                    continue
                self.live.add(p)
                metrics.REPLAY_SECONDS.labels(self.service).observe(time.monotonic() - started)
                log.debug("%s: partition %d live", self.service, p)
                await self.hooks.on_live(self, p)
        if not self._catchup and self.consumer.assignment() and self.consumer.assignment() <= self.live:
            if not self.ready.is_set():
                log.info("%s: caught up on partitions %s (%d games)", self.service, sorted(self.live), len(self.games))
            self.ready.set()

    # records ------------------------------------------------------------------------------------

    async def _handle(self, record: Record) -> None:
        if self.group is not None and record.partition not in self.consumer.assignment():
            return  # fetched before a rebalance took the partition away: its new owner replays it
        try:
            env = parse(record.value, record.key)
        except MalformedEnvelope as exc:
            metrics.MALFORMED_RECORDS.labels(self.service).inc()
            log.warning("%s: skipping malformed record %d/%d: %s", self.service, record.partition, record.offset, exc)
            return
        body = env.WhichOneof("body")
        if body in TOURNAMENT_BODIES:
            await self.hooks.on_tournament(self, env)
            return
        rep = self.games.get(env.game_id)
        if rep is not None and record.offset <= rep.snapshot_offset:
            return  # already in the snapshot this replica was restored from
        if body == "game_created":
            if rep is not None:
                log.warning("%s: duplicate GameCreated for %s ignored", self.service, env.game_id)
                return
            try:
                game = build_game(env.game_id, env.game_created)
            except Exception as exc:  # GameError, or an engine defect: skip the game, keep serving
                log.error("%s: GameCreated for %s not buildable: %s", self.service, env.game_id, getattr(exc, "reason", exc))
                return
            rep = Replica(env.game_id, record.partition, env.game_created, game)
            rep.decided = {}
            self.games[env.game_id] = rep
        elif rep is None:
            log.warning("%s: %s for unknown game %s ignored", self.service, body, env.game_id)
            return
        elif not self._take(rep, env, body):
            return
        rep.touch(record.offset)
        self._count_games()
        await self.hooks.on_record(self, rep, env, record.partition in self.live)

    def _take(self, rep: Replica, env: Envelope, body: str) -> bool:
        """Apply one record to an existing replica; False when it has no effect (a duplicate)."""
        cid = env.command_id
        if body == "command_submitted":
            if cid in rep.decided or cid in rep.pending:
                return False
            rep.pending[cid] = env
            rep.pending_since[cid] = time.monotonic()
        elif body == "action_applied":
            applied = env.action_applied
            if applied.seq == rep.seq + 1:
                try:
                    rep.apply_action(applied)
                except engine.GameError as exc:
                    log.error("%s: game %s cannot apply logged seq %d: %s", self.service, rep.game_id, applied.seq, exc.reason)
                    return False
            elif applied.seq == rep.seq and applied.seq in rep.local:
                if rep.local.pop(applied.seq) != cid:
                    log.warning("%s: game %s seq %d was taken by another command", self.service, rep.game_id, applied.seq)
                    rep.rebuild_with(applied)
            else:
                log.warning("%s: game %s: ActionApplied seq %d ignored at seq %d", self.service, rep.game_id, applied.seq, rep.seq)
                return False
            rep.actions_since_snapshot += 1
            rep.decided[cid] = log_pb2.DecidedCommand(command_id=cid, seq=applied.seq)
            rep.settle(cid)
        elif body == "action_rejected":
            if cid in rep.decided and rep.decided[cid].seq:
                return False
            rejected = env.action_rejected
            rep.decided[cid] = log_pb2.DecidedCommand(command_id=cid, rejected=rejected.code, reason=rejected.reason)
            rep.settle(cid)
        elif body == "round_started":
            rep.published_round = env.round_started.round_label
        elif body == "score_updated":
            rep.score_seq = max(rep.score_seq, env.seq)
        elif body == "game_finished":
            rep.finished_published = True
        return True

    def _count_games(self) -> None:
        finished = sum(1 for r in self.games.values() if r.game.finished)
        metrics.GAMES_FINISHED.labels(self.service).set(finished)
        metrics.GAMES_ACTIVE.labels(self.service).set(len(self.games) - finished)

    # checkpoints --------------------------------------------------------------------------------

    async def checkpoint(self, partitions: Iterable[int], *, force: bool = False) -> None:
        """Snapshot the games that need it, then commit each partition's safe position."""
        now = time.monotonic()
        positions: dict[int, int] = {}
        for p in partitions:
            position = await self.consumer.position(p)
            floor = position
            for rep in self.replicas(p):
                if rep.dirty_since is None:
                    continue
                due = (
                    force
                    or rep.actions_since_snapshot >= self.settings.snapshot_every
                    or now - rep.touched_at >= self.settings.snapshot_idle_s
                )
                if due and not rep.local:
                    await self.write_snapshot(rep)
                else:
                    floor = min(floor, rep.dirty_since)
            if self._committed.get(p) != floor:
                positions[p] = floor
        if positions:
            await self.consumer.commit(positions)
            self._committed.update(positions)

    async def write_snapshot(self, rep: Replica) -> None:
        t0 = time.perf_counter()
        snap = rep.snapshot(self.producer)
        await self.log.append(self.settings.snapshots_topic, rep.game_id, snap.SerializeToString())
        rep.dirty_since = None
        rep.actions_since_snapshot = 0
        metrics.SNAPSHOT_SECONDS.labels(self.service, "write").observe(time.perf_counter() - t0)

    async def _measure(self) -> None:
        assigned = self.consumer.assignment()
        if not assigned:
            return
        ends = await self.consumer.end_offsets(assigned)
        for p in assigned:
            lag = max(0, ends[p] - await self.consumer.position(p))
            metrics.CONSUMER_LAG.labels(self.service, str(p)).set(lag)
