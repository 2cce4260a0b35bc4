"""The consumer loop every service runs over `roundhouse.games`.

For each partition it gains, a worker loads the partition's snapshots (each game's ledger, small:
no engine state), seeks to its committed position, and *catches up* to the partition's end offset as
seen at assignment, taking records into the ledgers but deciding nothing. Only then is the partition
*live*: hooks may decide commands and append records. A command whose answer was already appended
before a crash is seen, during catch-up, together with that answer, so it is never decided twice.

Every worker commits its position, per partition, only up to the first record of a game that no
snapshot covers yet (a game's owner writes its snapshot and announces it with a Checkpointed record,
which every consumer reads). A restarted or newly assigned instance therefore rebuilds every ledger
from snapshot + log and loses nothing that was appended. Consumers in a group share the partitions;
a gateway reads them all, committing under its group without being a member.

The hooks (the service's own logic) must not hold the loop: work that waits on an engine or on
appends runs in tasks of their own (runtime.owner), so the loop only moves records.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable
from typing import cast

from bus.base import Log, PartitionLost, Record
from contracts.envelopes import TOURNAMENT_BODIES, Envelope, MalformedEnvelope, make_envelope, parse
from contracts.v1 import log_pb2
from runtime import metrics
from runtime.config import Settings
from runtime.ledger import SNAPSHOT_FORMAT, Ledger

log = logging.getLogger(__name__)

# How often the loop refreshes the per-service game gauges (counting every game each record would
# cost O(games) per record).
COUNT_INTERVAL_S = 1.0
# Housekeeping between batches (catch-up checks, the hooks' ticks) at most this often.
TICK_S = 0.05


def decoded(record: Record) -> tuple[Envelope, str]:
    """The record's envelope and its body's kind, decoded once per record (consumers in one process
    share records)."""
    parsed = record.parsed
    if parsed is None:
        try:
            env = parse(record.value, record.key)
            parsed = (env, env.WhichOneof("body"))
        except MalformedEnvelope as exc:
            parsed = exc
        record.parsed = parsed
    if isinstance(parsed, MalformedEnvelope):
        raise parsed
    return cast("tuple[Envelope, str]", parsed)


class Hooks:
    """What a service adds to the ledgers. Every method runs inside the consumer loop and must not
    wait long (start a task for engine work)."""

    # keep each game's decided records after its latest engine state (round services)
    tails = False

    async def on_record(self, worker: "Worker", led: Ledger, env: Envelope, what: str, live: bool) -> None:
        """After `env` was taken into `led` (`what`: Ledger.take's answer; never "same", and
        "fenced" only for an OwnerClaimed, so that its claimer learns the claim did not hold)."""

    async def on_batch(self, worker: "Worker") -> None:
        """After each batch of records."""

    async def on_live(self, worker: "Worker", partition: int) -> None:
        """The partition is caught up; pending work found during catch-up may be done now."""

    async def on_tick(self, worker: "Worker") -> None:
        """About every poll interval."""

    async def on_checkpoint(self, worker: "Worker", partitions: set[int], force: bool) -> None:
        """Before positions are committed (an owner writes the snapshots that are due)."""

    async def on_revoked(self, worker: "Worker", partitions: set[int]) -> None:
        """These partitions are being taken away (their ledgers are still there)."""

    async def on_dropped(self, worker: "Worker", game_ids: list[str]) -> None:
        """These games' partition was lost (rebalance or stop)."""

    async def on_tournament(self, worker: "Worker", env: Envelope, record: Record) -> None:
        """A tournament record (keyed by tournament id, not a game)."""

    async def on_tournament_fact(self, worker: "Worker", env: Envelope, partition: int, offset: int) -> None:
        """A tournament record kept in the snapshots topic (`offset`: its place in the games log),
        read when a partition is loaded, in log order."""

    def floor(self, worker: "Worker", partition: int) -> int | None:
        """The first record of `partition` the hooks still need after a restart (None: none)."""
        return None

    def resident(self, worker: "Worker") -> int:
        """Games whose engine this service holds."""
        return 0

    async def stop(self, worker: "Worker") -> None:
        """The worker is stopping (its partitions are revoked after this)."""


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
        batch_ms: int | None = None,
    ):
        self.service = service
        self.settings = settings
        self.log = log_
        self.hooks = hooks
        self.group = group
        self.producer = f"{service}/{settings.instance}"
        self.games: dict[str, Ledger] = {}
        self.live: set[int] = set()
        self._catchup: dict[int, tuple[int, float]] = {}  # partition -> (end offset, started)
        self._committed: dict[int, int] = {}
        self._stopping = False
        self._last_checkpoint = time.monotonic()
        self._last_lag = 0.0
        self._last_count = 0.0
        self._last_prepare = 0.0
        self._last_tick = 0.0
        self._assigned_now: set[int] = set()  # as the last assignment callbacks left it
        self._preparing: set[int] = set()  # partitions whose snapshots are being loaded
        self._revocations: dict[int, int] = {}  # partition -> times it was revoked
        self.ready = asyncio.Event()  # set once every partition assigned at start is live
        self.consumer = log_.consumer(
            settings.games_topic,
            group=group,
            on_assigned=self._assigned,
            on_revoked=self._revoked,
            partitions=partitions,
            batch_ms=batch_ms,
        )

    # public -----------------------------------------------------------------------------------

    async def append(self, env: Envelope) -> Record:
        return await self.log.append(self.settings.games_topic, env.game_id, env.SerializeToString())

    async def append_raw(self, game_id: str, value: bytes) -> Record:
        return await self.log.append(self.settings.games_topic, game_id, value)

    async def emit(self, led: Ledger, body, *, seq: int | None = None, command_id: str = "",
                   owner_epoch: int = 0) -> Record:
        env = make_envelope(
            body, game_id=led.game_id, seq=led.seq if seq is None else seq,
            producer=self.producer, command_id=command_id, owner_epoch=owner_epoch,
        )
        return await self.append(env)

    def ledgers(self, partition: int) -> list[Ledger]:
        return [r for r in self.games.values() if r.partition == partition]

    def holds(self, partition: int) -> bool:
        """The partition is ours and prepared: its records are taken in (catching up or live)."""
        return partition in self.live or partition in self._catchup

    async def run(self) -> None:
        await self.consumer.start()
        try:
            while not self._stopping:
                records = await self.consumer.poll(200)
                for record in records:
                    await self._handle(record)
                if records:
                    await self.hooks.on_batch(self)
                now = time.monotonic()
                if self._catchup or now - self._last_tick >= TICK_S:
                    self._last_tick = now
                    unprepared = self._assigned_now - self.live - self._catchup.keys()
                    if unprepared and now - self._last_prepare >= 1.0:
                        self._last_prepare = now
                        await self._prepare(unprepared)
                    await self._check_caught_up()
                    await self.hooks.on_tick(self)
                    now = time.monotonic()
                if self.group is not None and now - self._last_checkpoint >= self.settings.checkpoint_interval_s:
                    await self.checkpoint(set(self.live))
                    self._last_checkpoint = now
                if now - self._last_count >= COUNT_INTERVAL_S:
                    self._count_games()
                    self._last_count = now
                if now - self._last_lag >= self.settings.lag_interval_s:
                    await self._measure()
                    self._last_lag = now
        finally:
            try:
                await self.hooks.stop(self)
                if self.group is not None:
                    await self.checkpoint(set(self.live), force=True)
            finally:
                await self.consumer.stop()

    def stop(self) -> None:
        self._stopping = True

    # assignment ---------------------------------------------------------------------------------

    async def _assigned(self, partitions: set[int]) -> None:
        self._assigned_now |= partitions
        log.info("%s: holds partitions %s", self.service, sorted(self._assigned_now))
        await self._prepare(partitions)

    async def _prepare(self, partitions: Iterable[int]) -> None:
        """Load each partition's snapshots and start its catch-up. A partition that a rebalance
        takes away meanwhile is skipped; one that fails otherwise (the broker unreachable for a
        moment) is tried again by the loop: until prepared, its records are not taken in."""
        for p in sorted(partitions):
            if p in self._catchup or p in self.live or p in self._preparing:
                continue
            self._preparing.add(p)
            try:
                await self._prepare_one(p)
            except PartitionLost:
                log.info("%s: partition %d lost while it was being loaded", self.service, p)
                self._drop_games({p})
            except Exception:
                log.exception("%s: partition %d not loaded; trying again", self.service, p)
                self._drop_games({p})
            finally:
                self._preparing.discard(p)
        await self._check_caught_up()

    async def _prepare_one(self, p: int) -> None:
        started = time.monotonic()
        revocations = self._revocations.get(p, 0)
        end = (await self.consumer.end_offsets([p]))[p]
        committed = await self.consumer.committed(p) if self.group is not None else None
        start = committed or 0
        if not await self._load_snapshots(p, start):
            start = 0   # snapshots of an earlier version: the ledgers are rebuilt from the log
        self.consumer.seek(p, start)
        if p not in self._assigned_now or self._revocations.get(p, 0) != revocations:
            raise PartitionLost([p])  # revoked meanwhile (and perhaps assigned again: prepared anew)
        self._catchup[p] = (end, started)
        log.debug("%s: partition %d assigned, reading offsets %d..%d", self.service, p, start, end)

    async def _load_snapshots(self, partition: int, start: int) -> bool:
        """The ledgers of a partition's games from their snapshots (and tournament records kept
        there). False when a snapshot of an earlier format is found: then none is used."""
        latest: dict[str, log_pb2.Snapshot] = {}
        facts: list[tuple[int, Envelope]] = []
        for record in await self.log.read_partition(self.settings.snapshots_topic, partition):
            snap = _parse_snapshot(record.value)
            if snap is None:
                log.warning("%s: unreadable snapshot at offset %d", self.service, record.offset)
                continue
            if snap.HasField("tournament_record"):
                facts.append((snap.offset, snap.tournament_record))
                continue
            if snap.format < SNAPSHOT_FORMAT:
                log.warning("%s: partition %d holds snapshots of an earlier version; reading its log from the start",
                            self.service, partition)
                return False
            known = latest.get(snap.game_id)
            if known is None or snap.offset >= known.offset:
                latest[snap.game_id] = snap
        # (written concurrently, a tournament's records may be kept out of order: they are taken in
        # the log's order, each with its offset there)
        for offset, env in sorted(facts, key=lambda f: f[0]):
            await self.hooks.on_tournament_fact(self, env, partition, offset)
        for game_id, snap in latest.items():
            self.games[game_id] = Ledger.from_snapshot(snap, self.hooks.tails, start - 1)
        metrics.SNAPSHOT_LOADS.labels(self.service, "ledger").inc(len(latest))
        return True

    async def _revoked(self, partitions: set[int]) -> None:
        self._assigned_now -= partitions
        for p in partitions:
            self._revocations[p] = self._revocations.get(p, 0) + 1
        try:
            await self.hooks.on_revoked(self, partitions)
            if self.group is not None:
                await self.checkpoint(partitions & self.live, force=True)
        except Exception:  # the next owner replays from the last commit: nothing is lost
            log.exception("%s: final checkpoint of partitions %s failed", self.service, sorted(partitions))
        dropped = self._drop_games(partitions)
        self.live -= partitions
        for p in partitions:
            self._catchup.pop(p, None)
            self._committed.pop(p, None)
            with contextlib.suppress(KeyError):  # no series yet for a partition never measured
                metrics.CONSUMER_LAG.remove(self.service, str(p))
        if dropped:
            await self.hooks.on_dropped(self, dropped)
        log.info("%s: released partitions %s", self.service, sorted(partitions))

    def _drop_games(self, partitions: set[int]) -> list[str]:
        dropped = [g for g, r in self.games.items() if r.partition in partitions]
        for g in dropped:
            del self.games[g]
        return dropped

    async def _check_caught_up(self) -> None:
        for p, (end, started) in list(self._catchup.items()):
            try:
                position = await self.consumer.position(p)
            except PartitionLost:
                continue  # the revocation callback forgets it
            if position >= end:
                # the rebalance callback and the loop may both get here: only one goes live
                if self._catchup.pop(p, None) is None:
                    continue
                self.live.add(p)
                metrics.REPLAY_SECONDS.labels(self.service).observe(time.monotonic() - started)
                log.debug("%s: partition %d live", self.service, p)
                await self.hooks.on_live(self, p)
        if not self._catchup and self._assigned_now and self._assigned_now <= self.live:
            if not self.ready.is_set():
                log.info("%s: caught up on partitions %s (%d games)", self.service, sorted(self.live), len(self.games))
            self.ready.set()

    # records ------------------------------------------------------------------------------------

    async def _handle(self, record: Record) -> None:
        if not self.holds(record.partition):
            # fetched before a rebalance took the partition away (its new owner replays it), or
            # before the partition was prepared (preparing seeks back to where its replay starts)
            return
        try:
            env, body = decoded(record)
        except MalformedEnvelope as exc:
            metrics.MALFORMED_RECORDS.labels(self.service).inc()
            log.warning("%s: skipping malformed record %d/%d: %s", self.service, record.partition, record.offset, exc)
            return
        if body in TOURNAMENT_BODIES:
            await self.hooks.on_tournament(self, env, record)
            return
        live = record.partition in self.live
        led = self.games.get(record.key)   # (the envelope's game id: parse checked that)
        if led is not None and record.offset <= led.covered:
            return  # already in the snapshot this ledger was loaded from
        if body == "game_created":
            if led is not None:
                log.warning("%s: duplicate GameCreated for %s ignored", self.service, env.game_id)
                return
            if not env.game_created.HasField("summary"):
                log.error("%s: GameCreated for %s has no summary (written by an earlier version); skipped",
                          self.service, env.game_id)
                return
            led = Ledger.created_from(env, record.partition, record.offset, self.hooks.tails)
            self.games[env.game_id] = led
            led.mark(record.offset)
            await self.hooks.on_record(self, led, env, "applied", live)
            return
        if led is None:
            log.warning("%s: %s for unknown game %s ignored", self.service, body, env.game_id)
            return
        what = led.take(env, body, record.offset, record.value)
        if what == "fenced":
            claim = led.fence.current()
            log.warning("%s: %s of game %s from %s (owner epoch %d) fenced off: the game's owner is %s (epoch %d)",
                        self.service, body, led.game_id, env.producer, env.owner_epoch,
                        claim.producer if claim else "-", claim.epoch if claim else 0)
            if body == "owner_claimed":
                await self.hooks.on_record(self, led, env, what, live)
            return
        if what == "same":
            if body in ("view_requested", "query_requested"):
                await self.hooks.on_record(self, led, env, "request", live)
            return
        if what != "dirty-free":
            led.mark(record.offset)
            led.trim_tail(self.settings.tail_limit)
        await self.hooks.on_record(self, led, env, what, live)

    def _count_games(self) -> None:
        finished = sum(1 for led in self.games.values() if led.finished)
        resident = self.hooks.resident(self)
        metrics.GAMES_FINISHED.labels(self.service).set(finished)
        metrics.GAMES_ACTIVE.labels(self.service).set(len(self.games) - finished)
        metrics.GAMES_RESIDENT.labels(self.service).set(resident)
        metrics.GAMES_EVICTED.labels(self.service).set(len(self.games) - resident)

    # checkpoints --------------------------------------------------------------------------------

    async def checkpoint(self, partitions: set[int], *, force: bool = False) -> None:
        """Let the hooks write the snapshots that are due, then commit each partition's safe
        position: never past the first record of a game no snapshot covers yet."""
        await self.hooks.on_checkpoint(self, partitions, force)
        floors: dict[int, int] = {}
        for p in partitions:
            try:
                floors[p] = await self.consumer.position(p)
            except PartitionLost:
                continue  # revoked meanwhile: its final checkpoint ran in the revocation callback
            extra = self.hooks.floor(self, p)
            if extra is not None:
                floors[p] = min(floors[p], extra)
        for led in self.games.values():
            p = led.partition
            if p in floors and led.dirty_since is not None:
                floors[p] = min(floors[p], led.dirty_since)
        positions = {p: o for p, o in floors.items() if self._committed.get(p) != o}
        if positions:
            try:
                await self.consumer.commit(positions)
            except PartitionLost as exc:
                # the group moved on: the partitions' next owners replay from the previous commit
                log.info("%s: commit of %s refused after a rebalance (%s)", self.service, positions, exc)
                return
            self._committed.update(positions)

    async def _measure(self) -> None:
        """Consumer lag per partition held; a partition revoked while this runs is skipped (its
        series was removed by the revocation and is not set again)."""
        held = self.live | self._catchup.keys()
        if not held:
            return
        try:
            ends = await self.consumer.end_offsets(held)
        except PartitionLost:
            return
        for p in sorted(held):
            try:
                position = await self.consumer.position(p)
            except PartitionLost:
                continue
            if self.holds(p) and p in ends:
                metrics.CONSUMER_LAG.labels(self.service, str(p)).set(max(0, ends[p] - position))


def _parse_snapshot(value: bytes) -> log_pb2.Snapshot | None:
    snap = log_pb2.Snapshot()
    try:
        snap.ParseFromString(value)
    except Exception:
        return None
    return snap
