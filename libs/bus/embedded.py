"""The embedded log: the same partitioned, ordered log as Kafka, in-process, persisted in SQLite.

Used by `roundhouse serve`, where every service runs in one process: records survive a restart.
SQLite runs in WAL mode with synchronous=FULL: an append returns only after the write reached the
disk, so an action the gateway acknowledged survives a crash of the machine, not only of the
process. Appends (and consumer-group commits) go to one writer thread of the log's own that commits
whatever is queued in one transaction (group commit) and hands the batch's answers back to the event
loop in one call: the event loop never waits for a disk, and a burst of appends costs one fsync per
batch instead of one each. Under load the writer lingers a few milliseconds after a batch's first
append for more to join it (`linger_ms`). A transaction writes the records only: a partition's end
offset is written with its first record, when pruning drops records and at a stop, and is otherwise
found when the log is opened (one past the partition's newest record). Compacted topics keep only
the newest record of each key, like Kafka's log compaction; ephemeral topics drop records older than
their retention.

A derived topic (`Topic.derived`: the views, which are asked for again when missing) is held in
memory only, as below, and never written: its appends need no transaction.

Consumers in this process read the records appended here from memory (the last few thousand of
each partition of each topic, at most a few megabytes) and share them, decoded once
(`Record.parsed`); older records come from SQLite. A consumer of a compacted topic may so see a
record that a newer one of its key has replaced, as on Kafka, whose compaction is lazy too.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from bus.base import AssignmentCallback, Consumer, Log, PartitionLost, Record, Topic, check_size, partition_for
from contracts.limits import MAX_RECORD_BYTES

DEFAULT_PARTITIONS = 12
TAIL = 4096          # records of each partition kept in memory for this process's consumers
TAIL_BYTES = 4 << 20  # and at most this many bytes of them (engine states and views are large)
PRUNE_EVERY_S = 60.0  # how often ephemeral topics drop expired records
PRUNE_BATCH = 2000    # expired records dropped by one write at most (a backlog goes over several)
# The writer lingers (`linger_ms`) when the batch before held this many jobs or more: appends come
# faster than it writes them (a closed loop's batches held about 5 without lingering, the open loop's
# at 200 actions/s 1 or 2, whose latency a linger would only add to).
LINGER_AFTER = 3

SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    topic TEXT NOT NULL, partition INTEGER NOT NULL, offset INTEGER NOT NULL,
    key TEXT NOT NULL, value BLOB NOT NULL, timestamp_ms INTEGER NOT NULL,
    PRIMARY KEY (topic, partition, offset)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS records_by_key ON records (topic, partition, key);
CREATE TABLE IF NOT EXISTS ends (
    topic TEXT NOT NULL, partition INTEGER NOT NULL, next_offset INTEGER NOT NULL,
    PRIMARY KEY (topic, partition)
);
CREATE TABLE IF NOT EXISTS commits (
    grp TEXT NOT NULL, topic TEXT NOT NULL, partition INTEGER NOT NULL, offset INTEGER NOT NULL,
    PRIMARY KEY (grp, topic, partition)
);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class _Tail:
    """The latest records of one partition appended by this process, in offset order. In a compacted
    topic a record that a newer one of its key replaced is dropped from here too (None in its
    place), as compaction drops it from SQLite."""

    __slots__ = ("records", "base", "size", "latest")

    def __init__(self, compacted: bool) -> None:
        self.records: list[Record | None] = []
        self.base = -1  # offset of records[0]
        self.size = 0   # bytes of the values held
        self.latest: dict[str, int] | None = {} if compacted else None   # key -> offset held

    def add(self, batch: list[Record]) -> None:
        if not self.records or batch[0].offset != self.base + len(self.records):
            self.records, self.base, self.size = [], batch[0].offset, 0
            if self.latest is not None:
                self.latest.clear()
        for record in batch:
            self.records.append(record)
            self.size += len(record.value)
            if self.latest is not None:
                replaced = self.latest.get(record.key)
                self.latest[record.key] = record.offset
                if replaced is not None and replaced >= self.base:
                    old = self.records[replaced - self.base]
                    if old is not None:
                        self.size -= len(old.value)
                        self.records[replaced - self.base] = None
        if len(self.records) > 2 * TAIL or self.size > TAIL_BYTES:
            self._trim()

    def _trim(self) -> None:
        drop = max(0, len(self.records) - TAIL)
        for i in range(drop):
            self._forget(self.records[i])
        while drop < len(self.records) and self.size > TAIL_BYTES // 2:
            self._forget(self.records[drop])
            drop += 1
        del self.records[:drop]
        self.base += drop

    def _forget(self, record: Record | None) -> None:
        if record is None:
            return
        self.size -= len(record.value)
        if self.latest is not None and self.latest.get(record.key) == record.offset:
            del self.latest[record.key]

    def read(self, offset: int, limit: int) -> tuple[list[Record], int] | None:
        """The records from `offset` on and the offset after them, or None when `offset` is older
        than what is held."""
        if not self.records or offset < self.base:
            return None
        start = offset - self.base
        held = self.records[start:start + limit]
        return [r for r in held if r is not None], offset + len(held)


class EmbeddedLog(Log):
    def __init__(
        self,
        path: Path | str,
        *,
        partitions: int | None = None,
        compacted: Iterable[str] = (),
        topics: Iterable[Topic] = (),
        linger_ms: float = 0.0,
    ):
        """`linger_ms`: how long the writer waits after a job for others to share its transaction,
        when the batch before held several (appends come faster than it writes: `_write_forever`)."""
        self.path = Path(path)
        self._linger_s = linger_ms / 1000
        self._wanted_partitions = partitions
        self.partitions = partitions or DEFAULT_PARTITIONS
        self.specs: dict[str, Topic] = {t.name: t for t in topics}
        for name in compacted:
            self.specs[name] = Topic(name, "compact")
        self._reader: sqlite3.Connection | None = None
        self._writer: sqlite3.Connection | None = None
        # Per topic, the consumers that found nothing and wait for the next batch appended to it.
        self._waiting: dict[str, list[asyncio.Future]] = {}
        self._groups: dict[str, EmbeddedConsumer] = {}
        self._ends: dict[tuple[str, int], int] = {}     # next offsets, as the writer thread sees them
        self._visible: dict[str, dict[int, int]] = {}  # topic -> partition -> next offset readable
        self._tails: dict[tuple[str, int], _Tail] = {}
        # The writer thread's inbox: (job, future) pairs, then None when the log stops.
        self._inbox: queue.SimpleQueue[tuple[tuple, asyncio.Future] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._stopped: asyncio.Future | None = None   # set once the writer thread has ended
        self._closing = False
        self._pruned_at = time.monotonic()
        self._prune_more = False   # expired records were left for the next write

    @property
    def db(self) -> sqlite3.Connection:
        """The connection reads go through (on the event loop's thread)."""
        if self._reader is None:
            raise RuntimeError("the embedded log is not started")
        return self._reader

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA busy_timeout=10000")
        return db

    async def start(self) -> None:
        if self._reader is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        writer = self._connect()
        writer.executescript(SCHEMA)
        row = writer.execute("SELECT value FROM meta WHERE name='partitions'").fetchone()
        if row is None:
            writer.execute("INSERT INTO meta VALUES ('partitions', ?)", (str(self.partitions),))
        elif self._wanted_partitions is None:
            self.partitions = int(row[0])  # an existing log keeps the partition count it was made with
        elif int(row[0]) != self.partitions:
            writer.close()
            raise ValueError(
                f"{self.path} was created with {row[0]} partitions, not {self.partitions}"
            )
        derived = [name for name, spec in self.specs.items() if spec.derived]
        if derived:   # (written to disk by an earlier version: never read, see Topic.derived)
            marks = ",".join("?" * len(derived))
            with _transaction(writer):
                writer.execute(f"DELETE FROM records WHERE topic IN ({marks})", derived)
                writer.execute(f"DELETE FROM ends WHERE topic IN ({marks})", derived)
        # A partition's end is one past its newest record, or what `ends` holds when that is more
        # (the records an ephemeral topic dropped may have been the newest: pruning writes it there).
        for topic, partition, end in writer.execute("SELECT topic, partition, next_offset FROM ends").fetchall():
            newest = writer.execute("SELECT MAX(offset) FROM records WHERE topic=? AND partition=?",
                                    (topic, partition)).fetchone()[0]
            self._ends[(topic, partition)] = end if newest is None else max(end, newest + 1)
        for (topic, partition), end in self._ends.items():
            self._visible.setdefault(topic, {})[partition] = end
        self._writer = writer
        self._reader = self._connect()
        self._closing = False
        loop = asyncio.get_running_loop()
        self._stopped = loop.create_future()
        self._thread = threading.Thread(target=self._write_forever, args=(loop, self._stopped),
                                        name="embedded-log-writer", daemon=True)
        self._thread.start()

    async def stop(self) -> None:
        if self._thread is not None and self._stopped is not None:
            self._closing = True
            self._inbox.put(None)
            await self._stopped   # it writes what is queued, its answers are handed out, then it ends
            self._thread.join()
            self._thread = self._stopped = None
        for db in (self._reader, self._writer):
            if db is not None:
                db.close()
        self._reader = self._writer = None

    # writing: one thread, one transaction per batch ----------------------------------------------

    async def append(self, topic: str, key: str, value: bytes, partition: int | None = None) -> Record:
        check_size(topic, key, value, MAX_RECORD_BYTES)
        if partition is None:
            partition = partition_for(key, self.partitions)
        spec = self.specs.get(topic)
        if spec is not None and spec.derived:
            return self._keep_derived(topic, partition, key, value)
        return await self._enqueue(("append", topic, partition, key, value))

    def _keep_derived(self, topic: str, partition: int, key: str, value: bytes) -> Record:
        """A record of a derived topic: kept in memory only, readable at once (see Topic.derived)."""
        self._check_started()
        record = Record(topic, partition, self._end(topic, partition), key, value, int(time.time() * 1000))
        self._show([record])
        return record

    async def _commit_positions(self, group: str, topic: str, positions: dict[int, int]) -> None:
        await self._enqueue(("commit", group, topic, dict(positions)))

    def _check_started(self) -> None:
        if self._thread is None or self._closing:
            raise RuntimeError("the embedded log is not started")

    async def _enqueue(self, job: tuple):
        self._check_started()
        future = asyncio.get_running_loop().create_future()
        self._inbox.put((job, future))
        return await future

    def _write_forever(self, loop: asyncio.AbstractEventLoop, stopped: asyncio.Future) -> None:
        """The writer thread: whatever is queued when it looks, in one transaction; the answers go
        back to the event loop in one call per batch (its order is the log's). It ends at the None
        that ``stop`` queues behind the last jobs.

        When the batch before held LINGER_AFTER jobs or more (appends come faster than it writes
        them), it lingers for `linger_ms` after the first job of the next, so that the ones arriving
        meanwhile share its transaction: fewer, larger transactions, one fsync each, and records of
        the same partition sharing their pages (closed-loop benchmark: about a tenth less event-loop
        CPU per action at 5 ms; docs/architecture.md, "The log's writer lingers"). Otherwise a job is
        written at once."""
        inbox = self._inbox
        ending = False
        previous = 0   # jobs in the batch before
        while not ending:
            batch = [inbox.get()]
            if previous >= LINGER_AFTER and self._linger_s and batch[0] is not None:
                _pause(self._linger_s)
            while True:
                try:
                    batch.append(inbox.get_nowait())
                except queue.Empty:
                    break
            if batch[-1] is None:
                ending = True
            jobs = [item for item in batch if item is not None]
            previous = len(jobs)
            if not jobs:
                continue
            try:
                results: list | BaseException = self._write([job for job, _ in jobs])
            except BaseException as exc:   # the batch fails as a whole (rolled back): its appends raise
                results = exc
            try:
                loop.call_soon_threadsafe(self._written, jobs, results)
            except RuntimeError:   # the loop is closed: nobody waits for these answers any more
                return
        try:
            self._save_ends()
        finally:
            loop.call_soon_threadsafe(_wake, stopped)

    def _save_ends(self) -> None:
        """Every partition's end written as it is now (at a stop, so that `ends` alone is right)."""
        db = self._writer
        assert db is not None
        with _transaction(db):
            db.executemany("INSERT OR REPLACE INTO ends VALUES (?, ?, ?)",
                           [(t, p, o) for (t, p), o in self._ends.items()])

    def _written(self, batch: list[tuple[tuple, asyncio.Future]], results: list | BaseException) -> None:
        """On the event loop: a batch's answers handed out, its records made visible to consumers."""
        if isinstance(results, BaseException):
            error = results if isinstance(results, Exception) else RuntimeError(str(results))
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        shown: list[Record] = []
        for (_, future), result in zip(batch, results):
            if isinstance(result, Record):
                shown.append(result)
            if not future.done():
                future.set_result(result)
        self._show(shown)

    def _show(self, records: list[Record]) -> None:
        """Records appended (in offset order within each partition) made readable by this process's
        consumers, the ones waiting for their topic woken."""
        appended: dict[tuple[str, int], list[Record]] = {}
        for record in records:
            appended.setdefault((record.topic, record.partition), []).append(record)
        for where, records in appended.items():
            tail = self._tails.get(where)
            if tail is None:
                spec = self.specs.get(where[0])
                tail = self._tails[where] = _Tail(spec is not None and spec.policy == "compact")
            tail.add(records)
            self._visible.setdefault(where[0], {})[where[1]] = records[-1].offset + 1
        for topic in {t for t, _ in appended}:
            for waiter in self._waiting.pop(topic, ()):
                if not waiter.done():
                    waiter.set_result(None)

    def _write(self, jobs: list[tuple]) -> list:
        """In the writer thread: every job of the batch in one transaction."""
        db = self._writer
        assert db is not None
        now = int(time.time() * 1000)
        out: list = []
        ends = dict(self._ends)
        with _transaction(db):
            for job in jobs:
                if job[0] == "append":
                    _, topic, partition, key, value = job
                    offset = ends.get((topic, partition), 0)
                    spec = self.specs.get(topic)
                    if spec is not None and spec.policy == "compact":
                        db.execute(
                            "DELETE FROM records WHERE topic=? AND partition=? AND key=?",
                            (topic, partition, key),
                        )
                    db.execute(
                        "INSERT INTO records VALUES (?, ?, ?, ?, ?, ?)",
                        (topic, partition, offset, key, value, now),
                    )
                    ends[(topic, partition)] = offset + 1
                    out.append(Record(topic, partition, offset, key, value, now))
                else:
                    _, group, topic, positions = job
                    db.executemany(
                        "INSERT OR REPLACE INTO commits VALUES (?, ?, ?, ?)",
                        [(group, topic, p, o) for p, o in positions.items()],
                    )
                    out.append(None)
            # a partition's end is written when its first record is (afterwards it follows from its
            # newest record, see start) and when pruning drops records (_prune)
            first = [(t, p, o) for (t, p), o in ends.items() if (t, p) not in self._ends]
            if first:
                db.executemany("INSERT OR REPLACE INTO ends VALUES (?, ?, ?)", first)
            if self._prune_more or time.monotonic() - self._pruned_at >= PRUNE_EVERY_S:
                self._pruned_at = time.monotonic()
                self._prune_more = self._prune(db, ends, now)
        self._ends = ends
        return out

    def _prune(self, db: sqlite3.Connection, ends: dict[tuple[str, int], int], now: int) -> bool:
        """Drop the expired records of the ephemeral topics, oldest first and at most PRUNE_BATCH;
        True when some are left. A partition's records are found by offset (their timestamps grow
        with it): a few key lookups find where the live ones begin, and the expired ones go by a
        range of the key, so that the live records (an hour of replies) are never read, and a write
        is never held up by more than PRUNE_BATCH deletions (a scan of every record by timestamp
        took 100-120 ms for 300,000 replies, every minute)."""
        budget = PRUNE_BATCH
        for (topic, partition), end in sorted(ends.items()):
            spec = self.specs.get(topic)
            if spec is None or spec.policy != "ephemeral":
                continue
            first = db.execute("SELECT MIN(offset) FROM records WHERE topic=? AND partition=?",
                               (topic, partition)).fetchone()[0]
            if first is None:
                continue
            cutoff = now - spec.retention_ms
            live, high = first, end   # the first live offset is in [live, high]
            while live < high:
                middle = (live + high) // 2
                row = db.execute("SELECT offset, timestamp_ms FROM records WHERE topic=? AND partition=? "
                                 "AND offset>=? ORDER BY offset LIMIT 1", (topic, partition, middle)).fetchone()
                if row is not None and row[1] < cutoff:
                    live = row[0] + 1
                else:
                    high = middle
            upto = min(live, first + budget)
            if upto > first:
                db.execute("DELETE FROM records WHERE topic=? AND partition=? AND offset<?", (topic, partition, upto))
                db.execute("INSERT OR REPLACE INTO ends VALUES (?, ?, ?)", (topic, partition, end))
                budget -= upto - first
            if upto < live:
                return True
        return False

    # reading -------------------------------------------------------------------------------------

    def consumer(
        self,
        topic: str,
        *,
        group: str | None,
        on_assigned: AssignmentCallback | None = None,
        on_revoked: AssignmentCallback | None = None,
        partitions: Iterable[int] | None = None,
        batch_ms: int | None = None,   # (records are read from memory: no fetch to space out)
    ) -> "EmbeddedConsumer":
        return EmbeddedConsumer(
            self, topic, group, on_assigned, on_revoked,
            set(range(self.partitions)) if partitions is None else set(partitions),
        )

    async def read_key(
        self, topic: str, partition: int, key: str, start: int = 0, end: int | None = None,
        limit: int | None = None,
    ) -> list[Record]:
        if self._derived(topic):
            stop = self._end(topic, partition) if end is None else end
            held = [r for r in self._held(topic, partition) if r.key == key and start <= r.offset < stop]
            return held if limit is None else held[:limit]
        rows = self.db.execute(
            "SELECT offset, value, timestamp_ms FROM records WHERE topic=? AND partition=? AND key=?"
            " AND offset>=? AND offset<? ORDER BY offset LIMIT ?",
            (topic, partition, key, start, self._end(topic, partition) if end is None else end,
             -1 if limit is None else limit),
        ).fetchall()
        return [Record(topic, partition, o, key, v, ts) for o, v, ts in rows]

    async def read_at(self, topic: str, partition: int, offset: int) -> Record | None:
        if offset >= self._end(topic, partition):
            return None
        if self._derived(topic):
            return next((r for r in self._held(topic, partition) if r.offset == offset), None)
        row = self.db.execute(
            "SELECT key, value, timestamp_ms FROM records WHERE topic=? AND partition=? AND offset=?",
            (topic, partition, offset),
        ).fetchone()
        return Record(topic, partition, offset, row[0], row[1], row[2]) if row else None

    async def read_latest(self, topic: str, partition: int, key: str) -> Record | None:
        if self._derived(topic):
            tail = self._tails.get((topic, partition))
            newest = tail.latest.get(key) if tail is not None and tail.latest is not None else None
            if newest is not None and tail is not None:   # (a compacted topic: its newest offset per key)
                return tail.records[newest - tail.base]
            return next((r for r in reversed(self._held(topic, partition)) if r.key == key), None)
        row = self.db.execute(
            "SELECT offset, value, timestamp_ms FROM records WHERE topic=? AND partition=? AND key=?"
            " AND offset<? ORDER BY offset DESC LIMIT 1",
            (topic, partition, key, self._end(topic, partition)),
        ).fetchone()
        return Record(topic, partition, row[0], key, row[1], row[2]) if row else None

    # used by EmbeddedConsumer
    def _read(self, topic: str, partition: int, offset: int, limit: int) -> tuple[list[Record], int]:
        """Up to `limit` records from `offset` on, and the offset to read from next (past the gaps
        compaction and retention leave)."""
        end = self._end(topic, partition)
        if offset >= end:
            return [], offset
        tail = self._tails.get((topic, partition))
        if tail is not None:
            if self._derived(topic):   # what memory no longer holds is gone
                offset = max(offset, tail.base)
            held = tail.read(offset, min(limit, end - offset))
            if held is not None:
                return held
        if self._derived(topic):
            return [], end
        rows = self.db.execute(
            "SELECT offset, key, value, timestamp_ms FROM records WHERE topic=? AND partition=?"
            " AND offset>=? AND offset<? ORDER BY offset LIMIT ?",
            (topic, partition, offset, end, limit),
        ).fetchall()
        records = [Record(topic, partition, o, k, v, ts) for o, k, v, ts in rows]
        return records, records[-1].offset + 1 if len(records) == limit else end

    def _end(self, topic: str, partition: int) -> int:
        return self._visible.get(topic, {}).get(partition, 0)

    def _derived(self, topic: str) -> bool:
        spec = self.specs.get(topic)
        return spec is not None and spec.derived

    def _held(self, topic: str, partition: int) -> list[Record]:
        """The records of a partition this process holds in memory, oldest first."""
        tail = self._tails.get((topic, partition))
        return [r for r in tail.records if r is not None] if tail is not None else []


class EmbeddedConsumer(Consumer):
    """A consumer of the embedded log. In-process there is one consumer per group, which is assigned
    every partition (or the partitions it is given); a second live consumer of the same group is
    refused."""

    def __init__(self, log, topic, group, on_assigned, on_revoked, partitions):
        self.log: EmbeddedLog = log
        self.topic = topic
        self.group = group
        self.on_assigned = on_assigned
        self.on_revoked = on_revoked
        self._partitions: set[int] = partitions
        self._order = sorted(partitions)
        self._positions: dict[int, int] = {}
        self._started = False

    async def start(self) -> None:
        if self.group is not None:
            if self.group in self.log._groups:
                raise RuntimeError(f"group {self.group!r} already has a consumer in this process")
            self.log._groups[self.group] = self
        for p in self._partitions:
            committed = await self.committed(p) if self.group is not None else None
            self._positions[p] = committed or 0
        self._started = True
        if self.on_assigned is not None:
            await self.on_assigned(set(self._partitions))

    async def stop(self) -> None:
        if not self._started:
            return
        self._started = False
        if self.on_revoked is not None:
            await self.on_revoked(set(self._partitions))
        if self.group is not None:
            self.log._groups.pop(self.group, None)

    def assignment(self) -> set[int]:
        return set(self._partitions)

    async def position(self, partition: int) -> int:
        if partition not in self._partitions:
            raise PartitionLost([partition])
        return self._positions[partition]

    def seek(self, partition: int, offset: int) -> None:
        if partition not in self._partitions:
            raise PartitionLost([partition])
        self._positions[partition] = offset

    async def committed(self, partition: int) -> int | None:
        row = self.log.db.execute(
            "SELECT offset FROM commits WHERE grp=? AND topic=? AND partition=?",
            (self.group, self.topic, partition),
        ).fetchone()
        return row[0] if row else None

    async def commit(self, positions: dict[int, int]) -> None:
        if self.group is None:
            raise RuntimeError("a consumer without a group cannot commit")
        await self.log._commit_positions(self.group, self.topic, positions)

    async def end_offsets(self, partitions: Iterable[int]) -> dict[int, int]:
        return {p: self.log._end(self.topic, p) for p in partitions}

    def _take(self, max_records: int) -> tuple[list[Record], bool]:
        """The next records, and whether any position moved (past compacted records, perhaps
        without a record to show)."""
        out: list[Record] = []
        moved = False
        visible = self.log._visible.get(self.topic)
        if not visible:
            return out, moved
        positions = self._positions
        for p in self._order:
            position = positions[p]
            if position >= visible.get(p, 0):
                continue   # nothing new
            batch, positions[p] = self.log._read(self.topic, p, position, max_records - len(out))
            moved = moved or positions[p] != position
            if batch:
                out.extend(batch)
                if len(out) >= max_records:
                    break
        return out, moved

    async def poll(self, timeout_ms: int, max_records: int = 500) -> list[Record]:
        records, moved = self._take(max_records)
        if records or moved:
            return records
        loop = asyncio.get_running_loop()
        waiter = loop.create_future()
        waiting = self.log._waiting.setdefault(self.topic, [])
        waiting.append(waiter)
        timer = loop.call_later(timeout_ms / 1000, _wake, waiter)
        try:
            await waiter
        finally:
            timer.cancel()
            if waiter in waiting:   # woken by the timer (an append pops the whole list)
                waiting.remove(waiter)
        return self._take(max_records)[0]


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One write transaction of the log's writer connection (autocommit mode): committed, or
    rolled back when what it holds raises."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


_pause = time.sleep   # (the writer's linger; tests replace it)


def _wake(waiter: asyncio.Future) -> None:
    if not waiter.done():
        waiter.set_result(None)
