"""The embedded log: the same partitioned, ordered log as Kafka, in-process, persisted in SQLite.

Used by `roundhouse serve`, where every service runs in one process: records survive a restart.
SQLite runs in WAL mode with synchronous=FULL: an append returns only after the write reached the
disk, so an action the gateway acknowledged survives a crash of the machine, not only of the
process; appends are one small transaction each, so the cost (one fsync) is fine at board-game rates.
Compacted topics keep only the newest record of each key, like Kafka's log compaction.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

from bus.base import AssignmentCallback, Consumer, Log, PartitionLost, Record, partition_for

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


class EmbeddedLog(Log):
    def __init__(self, path: Path | str, *, partitions: int = 4, compacted: Iterable[str] = ()):
        self.path = Path(path)
        self.partitions = partitions
        self.compacted = set(compacted)
        self._db: sqlite3.Connection | None = None
        # Set (and replaced) on every append: a consumer that found nothing waits for it.
        self._appended = asyncio.Event()
        self._groups: dict[str, EmbeddedConsumer] = {}

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError("the embedded log is not started")
        return self._db

    async def start(self) -> None:
        if self._db is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(SCHEMA)
        row = db.execute("SELECT value FROM meta WHERE name='partitions'").fetchone()
        if row is None:
            db.execute("INSERT INTO meta VALUES ('partitions', ?)", (str(self.partitions),))
        elif int(row[0]) != self.partitions:
            db.close()
            raise ValueError(
                f"{self.path} was created with {row[0]} partitions, not {self.partitions}"
            )
        self._db = db

    async def stop(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    async def append(self, topic: str, key: str, value: bytes) -> Record:
        partition = partition_for(key, self.partitions)
        now = int(time.time() * 1000)
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute(
                "SELECT next_offset FROM ends WHERE topic=? AND partition=?", (topic, partition)
            ).fetchone()
            offset = row[0] if row else 0
            if topic in self.compacted:
                db.execute(
                    "DELETE FROM records WHERE topic=? AND partition=? AND key=?",
                    (topic, partition, key),
                )
            db.execute(
                "INSERT INTO records VALUES (?, ?, ?, ?, ?, ?)",
                (topic, partition, offset, key, value, now),
            )
            db.execute(
                "INSERT OR REPLACE INTO ends VALUES (?, ?, ?)", (topic, partition, offset + 1)
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        appended, self._appended = self._appended, asyncio.Event()
        appended.set()
        return Record(topic, partition, offset, key, value, now)

    def consumer(
        self,
        topic: str,
        *,
        group: str | None,
        on_assigned: AssignmentCallback | None = None,
        on_revoked: AssignmentCallback | None = None,
        partitions: Iterable[int] | None = None,
    ) -> "EmbeddedConsumer":
        return EmbeddedConsumer(
            self, topic, group, on_assigned, on_revoked,
            set(range(self.partitions)) if partitions is None else set(partitions),
        )

    async def read_key(
        self, topic: str, partition: int, key: str, start: int = 0, end: int | None = None,
        limit: int | None = None,
    ) -> list[Record]:
        rows = self.db.execute(
            "SELECT offset, value, timestamp_ms FROM records WHERE topic=? AND partition=? AND key=?"
            " AND offset>=? AND offset<? ORDER BY offset LIMIT ?",
            (topic, partition, key, start, 2**62 if end is None else end, -1 if limit is None else limit),
        ).fetchall()
        return [Record(topic, partition, o, key, v, ts) for o, v, ts in rows]

    # used by EmbeddedConsumer
    def _read(self, topic: str, partition: int, offset: int, limit: int) -> list[Record]:
        rows = self.db.execute(
            "SELECT offset, key, value, timestamp_ms FROM records WHERE topic=? AND partition=?"
            " AND offset>=? ORDER BY offset LIMIT ?",
            (topic, partition, offset, limit),
        ).fetchall()
        return [Record(topic, partition, o, k, v, ts) for o, k, v, ts in rows]

    def _end(self, topic: str, partition: int) -> int:
        row = self.db.execute(
            "SELECT next_offset FROM ends WHERE topic=? AND partition=?", (topic, partition)
        ).fetchone()
        return row[0] if row else 0


class EmbeddedConsumer(Consumer):
    """A consumer of the embedded log. In-process there is one consumer per group, which is
    assigned every partition (a second live consumer of the same group is refused)."""

    def __init__(self, log, topic, group, on_assigned, on_revoked, partitions):
        self.log: EmbeddedLog = log
        self.topic = topic
        self.group = group
        self.on_assigned = on_assigned
        self.on_revoked = on_revoked
        self._partitions: set[int] = partitions if group is None else set(range(log.partitions))
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
        db = self.log.db
        db.execute("BEGIN IMMEDIATE")
        db.executemany(
            "INSERT OR REPLACE INTO commits VALUES (?, ?, ?, ?)",
            [(self.group, self.topic, p, o) for p, o in positions.items()],
        )
        db.execute("COMMIT")

    async def end_offsets(self, partitions: Iterable[int]) -> dict[int, int]:
        return {p: self.log._end(self.topic, p) for p in partitions}

    def _take(self, max_records: int) -> list[Record]:
        out: list[Record] = []
        for p in sorted(self._partitions):
            if len(out) >= max_records:
                break
            batch = self.log._read(self.topic, p, self._positions[p], max_records - len(out))
            if batch:
                self._positions[p] = batch[-1].offset + 1
                out.extend(batch)
        return out

    async def poll(self, timeout_ms: int, max_records: int = 500) -> list[Record]:
        appended = self.log._appended  # taken before reading: an append after this sets it
        records = self._take(max_records)
        if records:
            return records
        try:
            await asyncio.wait_for(appended.wait(), timeout_ms / 1000)
        except asyncio.TimeoutError:
            return []
        return self._take(max_records)
