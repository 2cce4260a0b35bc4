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

Games idle for `evict_idle_s` (no record, command or read) are *evicted*: after a snapshot covers
their state, the engine state is dropped and a small summary stays (runtime.replica). The next
record of the game, or a caller that needs its state (`load`, `pinned`), rebuilds it from the
latest snapshot plus the game's records after it, read by key from the log. An evicted game never
has records the worker read but did not apply, so the rebuilt replica is the evicted one, exactly.
On gaining a partition, a game idle since its snapshot (or finished) is loaded evicted from the
summary its snapshot carries, so a restart restores only the games in recent use.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Iterable

import engine
from bus.base import Log, PartitionLost, Record
from contracts.envelopes import TOURNAMENT_BODIES, Envelope, MalformedEnvelope, make_envelope, parse
from contracts.v1 import log_pb2
from runtime import metrics
from runtime.config import Settings
from runtime.replica import Replica, build_game

# How often the loop refreshes the per-service game gauges (counting every game each record would
# cost O(games) per record).
COUNT_INTERVAL_S = 1.0


class RebuildError(RuntimeError):
    """An evicted game could not be rebuilt from its snapshot and the log."""

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
        self._last_sweep = time.monotonic()
        self._last_count = 0.0
        self._last_prepare = 0.0
        self._assigned_now: set[int] = set()  # as the last assignment callbacks left it
        self._preparing: set[int] = set()  # partitions whose snapshots are being loaded
        self._revocations: dict[int, int] = {}  # partition -> times it was revoked
        self._loading: dict[str, asyncio.Future] = {}  # game id -> its rebuild in progress
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
                unprepared = self._assigned_now - self.live - self._catchup.keys()
                if unprepared and time.monotonic() - self._last_prepare >= 1.0:
                    self._last_prepare = time.monotonic()
                    await self._prepare(unprepared)
                await self._check_caught_up()
                await self.hooks.on_tick(self)
                now = time.monotonic()
                if self.group is not None and now - self._last_checkpoint >= self.settings.checkpoint_interval_s:
                    await self.checkpoint(self.live)
                    self._last_checkpoint = now
                if self.settings.evict_idle_s and now - self._last_sweep >= self.sweep_interval:
                    await self.evict_idle()
                    self._last_sweep = now
                if now - self._last_count >= COUNT_INTERVAL_S:
                    self._count_games()
                    self._last_count = now
                if now - self._last_lag >= self.settings.lag_interval_s:
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
        self._assigned_now |= partitions
        log.info("%s: holds partitions %s", self.service, sorted(self._assigned_now))
        await self._prepare(partitions)

    async def _prepare(self, partitions: Iterable[int]) -> None:
        """Load each partition's snapshots and start its catch-up. A partition that a rebalance
        takes away meanwhile is skipped; one that fails otherwise (the broker unreachable for a
        moment) is tried again by the loop: until prepared, its records are not applied."""
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
        start = await self._load_snapshots(p)
        if self.group is not None:
            committed = await self.consumer.committed(p)
            start = min(start, committed if committed is not None else 0)
        else:
            start = 0
        self.consumer.seek(p, start)
        if p not in self._assigned_now or self._revocations.get(p, 0) != revocations:
            raise PartitionLost([p])  # revoked meanwhile (and perhaps assigned again: prepared anew)
        self._catchup[p] = (end, started)
        log.debug("%s: partition %d assigned, replaying offsets %d..%d", self.service, p, start, end)

    def _held(self, partition: int) -> bool:
        """The partition is ours and prepared: its records are applied (catching up or live)."""
        return partition in self.live or partition in self._catchup

    async def _load_snapshots(self, partition: int) -> int:
        """Load the games of a partition from their snapshots; returns the offset the replay must
        start from for them (the end of the oldest snapshot, or 0 without any).

        With eviction on, a game idle for `evict_idle_s` since its snapshot, or finished, is loaded
        evicted straight from the snapshot's summary, without restoring its engine state; the next
        record, command or read rebuilds it (`load`) as for a game evicted at run time. The other
        games, and snapshots written without a summary, are restored in full (then evicted at once
        when idle)."""
        latest: dict[str, tuple[log_pb2.Snapshot, int]] = {}
        for record in await self.log.read_partition(self.settings.snapshots_topic, partition):
            snap = _parse_snapshot(record.value)
            if snap is None:
                log.warning("%s: unreadable snapshot at offset %d", self.service, record.offset)
                continue
            known = latest.get(snap.game_id)
            if known is None or snap.offset >= known[0].offset:
                latest[snap.game_id] = (snap, record.offset)
        start: int | None = None
        idle_ms = self.settings.evict_idle_s * 1000
        for game_id, (snap, at) in latest.items():
            idle = bool(idle_ms) and time.time() * 1000 - snap.timestamp_ms >= idle_ms
            rep = None
            if idle_ms and (idle or snap.summary.finished):
                rep = Replica.evicted_from_snapshot(snap)
            if rep is not None:
                metrics.SNAPSHOT_LOADS.labels(self.service, "summary").inc()
            else:
                t0 = time.perf_counter()
                try:
                    rep = Replica.from_snapshot(snap)
                except (engine.GameError, ValueError) as exc:
                    log.error("%s: snapshot of %s unusable (%s); replaying it", self.service, game_id, exc)
                    return 0
                metrics.SNAPSHOT_SECONDS.labels(self.service, "load").observe(time.perf_counter() - t0)
                metrics.SNAPSHOT_LOADS.labels(self.service, "restore").inc()
                if idle and not rep.pending:
                    rep.evict()  # idle since its snapshot: keep the summary only (records after it rebuild)
            rep.snapshot_at = at
            self.games[game_id] = rep
            start = snap.offset + 1 if start is None else min(start, snap.offset + 1)
        return 0 if start is None else start

    async def _revoked(self, partitions: set[int]) -> None:
        self._assigned_now -= partitions
        for p in partitions:
            self._revocations[p] = self._revocations.get(p, 0) + 1
        if self.group is not None:
            try:
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
        if not self._held(record.partition):
            # fetched before a rebalance took the partition away (its new owner replays it), or
            # before the partition was prepared (preparing seeks back to where its replay starts)
            return
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
        if rep is not None and not rep.resident and body != "game_created":
            try:
                await self.load(rep, "event")
            except RebuildError as exc:
                log.error("%s: %s of %s not applied: %s", self.service, body, env.game_id, exc)
                return
        rep, took = self._apply(rep, env, body, record)
        if not took or not self._held(record.partition):
            return  # (the partition was revoked while the game was being rebuilt)
        self.games.setdefault(env.game_id, rep)
        await self.hooks.on_record(self, rep, env, record.partition in self.live)

    def _apply(self, rep: Replica | None, env: Envelope, body: str, record: Record) -> tuple[Replica | None, bool]:
        """Let one record of a game take effect on its replica (None: the game is not known yet).
        Returns the replica and whether the record had an effect."""
        if body == "game_created":
            if rep is not None:
                log.warning("%s: duplicate GameCreated for %s ignored", self.service, env.game_id)
                return rep, False
            try:
                game = build_game(env.game_id, env.game_created)
            except Exception as exc:  # GameError, or an engine defect: skip the game, keep serving
                log.error("%s: GameCreated for %s not buildable: %s", self.service, env.game_id, getattr(exc, "reason", exc))
                return rep, False
            rep = Replica(env.game_id, record.partition, env.game_created, game)
        elif rep is None:
            log.warning("%s: %s for unknown game %s ignored", self.service, body, env.game_id)
            return rep, False
        elif not self._take(rep, env, body):
            return rep, False
        rep.touch(record.offset)
        return rep, True

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
        finished = resident = 0
        for rep in self.games.values():
            finished += rep.finished
            resident += rep.resident
        metrics.GAMES_FINISHED.labels(self.service).set(finished)
        metrics.GAMES_ACTIVE.labels(self.service).set(len(self.games) - finished)
        metrics.GAMES_RESIDENT.labels(self.service).set(resident)
        metrics.GAMES_EVICTED.labels(self.service).set(len(self.games) - resident)

    # eviction and rebuilding --------------------------------------------------------------------

    @property
    def sweep_interval(self) -> float:
        """How often idle games are looked for: a fraction of the idle time, at most a second."""
        return min(1.0, self.settings.evict_idle_s / 4)

    def resident_count(self) -> int:
        return sum(1 for rep in self.games.values() if rep.resident)

    async def evict_idle(self) -> int:
        """Drop the engine state of every game idle for `evict_idle_s`, writing a snapshot first
        when none covers its state. Games with commands pending, with actions this process applied
        but has not read back, or in use by a caller stay. Returns how many were evicted."""
        now = time.monotonic()
        idle = self.settings.evict_idle_s
        evicted = 0
        for rep in list(self.games.values()):
            if not self._evictable(rep) or now - max(rep.touched_at, rep.used_at) < idle:
                continue
            if rep.dirty_since is not None or rep.snapshot_at is None:
                try:
                    await self.write_snapshot(rep)
                except Exception as exc:  # the game stays in memory; the next sweep tries again
                    log.warning("%s: no snapshot of idle game %s (%s); kept in memory", self.service, rep.game_id, exc)
                    continue
                if not self._evictable(rep) or self.games.get(rep.game_id) is not rep:
                    continue  # taken into use (or its partition lost) meanwhile
            rep.evict()
            evicted += 1
        if evicted:
            metrics.EVICTIONS.labels(self.service).inc(evicted)
            self._count_games()
            log.debug("%s: evicted %d idle games (%d resident)", self.service, evicted, self.resident_count())
        return evicted

    @staticmethod
    def _evictable(rep: Replica) -> bool:
        return rep.resident and not rep.pins and not rep.pending and not rep.local

    async def load(self, rep: Replica, trigger: str) -> Replica:
        """`rep` with its engine state: rebuilt from the latest snapshot plus the log after it when
        it was evicted (one rebuild at a time per game; concurrent callers share it)."""
        rep.used_at = time.monotonic()
        if rep.resident:
            return rep
        rebuild = self._loading.get(rep.game_id)
        if rebuild is None:
            rebuild = asyncio.ensure_future(self._rebuild(rep, trigger))
            self._loading[rep.game_id] = rebuild
            rebuild.add_done_callback(lambda _f, g=rep.game_id: self._loading.pop(g, None))
        await asyncio.shield(rebuild)
        rep.used_at = time.monotonic()
        return rep

    @contextlib.asynccontextmanager
    async def pinned(self, rep: Replica, trigger: str) -> AsyncIterator[Replica]:
        """Use `rep`'s engine state across awaits: loaded first, never evicted meanwhile."""
        rep.pins += 1
        try:
            yield await self.load(rep, trigger)
        finally:
            rep.pins -= 1
            rep.used_at = time.monotonic()

    async def _rebuild(self, rep: Replica, trigger: str) -> None:
        t0 = time.perf_counter()
        fresh = await self._restore(rep)
        before = rep.summary
        if before is not None and (fresh.seq, fresh.game.digest()) != (before.seq, before.digest):
            # the log is the truth: keep its game, and say loudly that the engine disagrees
            log.error(
                "%s: game %s rebuilt to seq %d digest %s, evicted at seq %d digest %s",
                self.service, rep.game_id, fresh.seq, fresh.game.digest(), before.seq, before.digest,
            )
        rep.adopt(fresh)
        metrics.REBUILD_SECONDS.labels(self.service, trigger).observe(time.perf_counter() - t0)
        log.debug("%s: rebuilt %s at seq %d (%s)", self.service, rep.game_id, rep.seq, trigger)

    async def _restore(self, stub: Replica) -> Replica:
        """The replica of an evicted game as of its last applied record: its latest snapshot at or
        before that record, then the game's records after the snapshot (all of them without one)."""
        p, game_id = stub.partition, stub.game_id
        fresh: Replica | None = None
        start = 0
        found = await self.log.read_key(
            self.settings.snapshots_topic, p, game_id, start=stub.snapshot_at or 0, limit=1
        )
        snap = _parse_snapshot(found[0].value) if found else None
        # A newer snapshot written by a service further ahead in the log cannot serve: this replica
        # must reach exactly the records it has read, so it replays the game instead.
        if snap is not None and snap.game_id == game_id and snap.offset <= stub.last_offset:
            try:
                fresh = Replica.from_snapshot(snap)
            except (engine.GameError, ValueError) as exc:
                log.error("%s: snapshot of %s unusable (%s); replaying its log", self.service, game_id, exc)
            else:
                fresh.snapshot_at = found[0].offset
                start = snap.offset + 1
        if start <= stub.last_offset:
            tail = await self.log.read_key(self.settings.games_topic, p, game_id, start=start, end=stub.last_offset + 1)
            log.debug("%s: %s replays %d records from offset %d", self.service, game_id, len(tail), start)
            for record in tail:
                try:
                    env = parse(record.value, record.key)
                except MalformedEnvelope:
                    continue
                fresh, _ = self._apply(fresh, env, env.WhichOneof("body"), record)
        if fresh is None:
            raise RebuildError(f"no snapshot and no GameCreated of {game_id} in partition {p}")
        return fresh

    # checkpoints --------------------------------------------------------------------------------

    async def checkpoint(self, partitions: Iterable[int], *, force: bool = False) -> None:
        """Snapshot the games that need it, then commit each partition's safe position."""
        now = time.monotonic()
        positions: dict[int, int] = {}
        for p in list(partitions):
            try:
                position = await self.consumer.position(p)
            except PartitionLost:
                continue  # revoked meanwhile: its final checkpoint ran in the revocation callback
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
            try:
                await self.consumer.commit(positions)
            except PartitionLost as exc:
                # the group moved on: the partitions' next owners replay from the previous commit
                log.info("%s: commit of %s refused after a rebalance (%s)", self.service, positions, exc)
                return
            self._committed.update(positions)

    async def write_snapshot(self, rep: Replica) -> None:
        t0 = time.perf_counter()
        snap = rep.snapshot(self.producer)
        record = await self.log.append(self.settings.snapshots_topic, rep.game_id, snap.SerializeToString())
        rep.snapshot_at = record.offset
        rep.dirty_since = None
        rep.actions_since_snapshot = 0
        metrics.SNAPSHOT_SECONDS.labels(self.service, "write").observe(time.perf_counter() - t0)

    async def _measure(self) -> None:
        """Consumer lag per partition held; a partition revoked while this runs is skipped (its
        series was removed by the revocation and is not set again)."""
        held = self.live | self._catchup.keys()
        if not held:
            return
        ends = await self.consumer.end_offsets(held)
        for p in sorted(held):
            try:
                position = await self.consumer.position(p)
            except PartitionLost:
                continue
            if self._held(p):
                metrics.CONSUMER_LAG.labels(self.service, str(p)).set(max(0, ends[p] - position))


def _parse_snapshot(value: bytes) -> log_pb2.Snapshot | None:
    snap = log_pb2.Snapshot()
    try:
        snap.ParseFromString(value)
    except Exception:
        return None
    return snap
