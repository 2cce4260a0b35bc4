"""The log interface shared by the Kafka and the embedded implementations."""

from __future__ import annotations

import abc
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from aiokafka.partitioner import murmur2


class Record:
    """One record of a topic. `parsed` is a cache for whoever decodes `value` (consumers in one
    process share records of the embedded log, so one decoding serves them all); it is never
    compared."""

    __slots__ = ("topic", "partition", "offset", "key", "value", "timestamp_ms", "parsed")

    def __init__(self, topic: str, partition: int, offset: int, key: str, value: bytes, timestamp_ms: int):
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
        self.timestamp_ms = timestamp_ms
        self.parsed: object = None

    def __repr__(self) -> str:
        return f"Record({self.topic}/{self.partition}@{self.offset} key={self.key!r}, {len(self.value)} bytes)"

    def __eq__(self, other) -> bool:
        return isinstance(other, Record) and (
            self.topic, self.partition, self.offset, self.key, self.value, self.timestamp_ms
        ) == (other.topic, other.partition, other.offset, other.key, other.value, other.timestamp_ms)

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class Topic:
    """A topic and how long it keeps records: `log` forever (the system of record), `compact` the
    newest record of each key, `ephemeral` for `retention_ms` (answers nobody needs later).

    `derived`: every record of the topic can be made again from the rest of the log, and is asked
    for again when missing (the published views). Kafka keeps such a topic like any other (other
    processes read it); the embedded log, whose readers are all in its process, keeps it in memory
    only (the newest records of each partition, as it keeps every topic's for its consumers)."""

    name: str
    policy: str = "log"
    retention_ms: int = 3_600_000
    derived: bool = False

    def __post_init__(self) -> None:
        if self.policy not in ("log", "compact", "ephemeral"):
            raise ValueError(f"unknown topic policy {self.policy!r}")


@lru_cache(maxsize=65536)
def partition_for(key: str, partitions: int) -> int:
    """Kafka's default partitioner (murmur2 of the key bytes, made positive, modulo count)."""
    return (murmur2(key.encode()) & 0x7FFFFFFF) % partitions


class PartitionLost(Exception):
    """An operation on a partition found it no longer assigned to this consumer: a group rebalance
    took it away meanwhile. Nothing is lost: the partition's new owner replays it from the last
    commit. Callers drop what they were doing with that partition and carry on with the others."""

    def __init__(self, partitions: Iterable[int], detail: str = ""):
        self.partitions = set(partitions)
        super().__init__(f"partitions {sorted(self.partitions)} no longer assigned{': ' + detail if detail else ''}")


class RecordTooLarge(ValueError):
    """An append of a record larger than the log takes (contracts.limits.MAX_RECORD_BYTES, which
    every topic is created with): refused before it reaches the broker, the same on every log."""

    def __init__(self, topic: str, key: str, size: int, limit: int):
        self.size, self.limit = size, limit
        super().__init__(f"a record of {size:,} bytes for {key!r} in {topic} is over the log's limit of {limit:,} bytes")


def check_size(topic: str, key: str, value: bytes, limit: int) -> None:
    # (the key and a record's framing come on top; the limits leave far more room than that)
    if len(value) + len(key) > limit:
        raise RecordTooLarge(topic, key, len(value) + len(key), limit)


# Called with the partitions a consumer gained or lost (in a group rebalance, or once at start).
AssignmentCallback = Callable[[set[int]], Awaitable[None]]


class Consumer(abc.ABC):
    """Reads one topic. In a group, partitions are shared among the group's live consumers and
    positions are committed; without a group, the consumer reads the partitions it is given."""

    @abc.abstractmethod
    async def start(self) -> None: ...

    @abc.abstractmethod
    async def stop(self) -> None: ...

    @abc.abstractmethod
    async def poll(self, timeout_ms: int, max_records: int = 500) -> list[Record]:
        """The next records of the assigned partitions (each partition in order); [] on timeout."""

    @abc.abstractmethod
    def assignment(self) -> set[int]: ...

    @abc.abstractmethod
    async def position(self, partition: int) -> int:
        """The offset the next poll will read from in `partition`. PartitionLost when the
        partition is not (or no longer) assigned."""

    @abc.abstractmethod
    def seek(self, partition: int, offset: int) -> None:
        """Read `partition` from `offset` on. PartitionLost when it is not assigned."""

    @abc.abstractmethod
    async def committed(self, partition: int) -> int | None:
        """The group's committed position (next offset to read), None when nothing is committed."""

    @abc.abstractmethod
    async def commit(self, positions: dict[int, int]) -> None:
        """Commit `positions` (next offset to read) for the group. PartitionLost when the group
        rebalanced since these partitions were assigned (the commit is refused as a whole)."""

    @abc.abstractmethod
    async def end_offsets(self, partitions: Iterable[int]) -> dict[int, int]:
        """The offset the next appended record will get, per partition."""

    def generation(self) -> int:
        """The consumer group's generation this consumer's assignment belongs to (the broker raises
        it at every rebalance); 0 outside a group, and on the embedded log (one consumer per group)."""
        return 0

    async def seek_to_end(self) -> None:
        """Read only what is appended from now on, in every partition held."""
        held = self.assignment()
        for p, end in (await self.end_offsets(held)).items():
            self.seek(p, end)


class Log(abc.ABC):
    """A partitioned, ordered, durable log of records keyed by game id."""

    partitions: int

    @abc.abstractmethod
    async def start(self) -> None:
        """Connect, and create the topics when they are missing."""

    @abc.abstractmethod
    async def stop(self) -> None: ...

    @abc.abstractmethod
    async def append(self, topic: str, key: str, value: bytes, partition: int | None = None) -> Record:
        """Append durably; returns the record with its partition and offset. The partition is the
        key's (partition_for) unless given. RecordTooLarge above contracts.limits.MAX_RECORD_BYTES."""

    async def read_at(self, topic: str, partition: int, offset: int) -> Record | None:
        """The record at `offset` (None when there is none: compacted away, or beyond the end)."""
        consumer = self.consumer(topic, group=None, partitions=[partition])
        await consumer.start()
        try:
            return await scan_at(consumer, partition, offset)
        finally:
            await consumer.stop()

    async def read_latest(self, topic: str, partition: int, key: str) -> Record | None:
        """The newest record of `key` in a compacted topic, when the log can find it without reading
        the partition (an index); None otherwise."""
        return None

    @abc.abstractmethod
    def consumer(
        self,
        topic: str,
        *,
        group: str | None,
        on_assigned: AssignmentCallback | None = None,
        on_revoked: AssignmentCallback | None = None,
        partitions: Iterable[int] | None = None,
        batch_ms: int | None = None,
    ) -> Consumer:
        """A consumer of `topic`: in `group` (partitions assigned by the group), or, without a group,
        of `partitions` (default: all), positioned at the start of each. `batch_ms`: how far apart a
        busy consumer fetches, where fetching has a cost per request (Kafka; None: the log's
        default); a log whose consumers read from memory ignores it."""

    async def read_key(
        self, topic: str, partition: int, key: str, start: int = 0, end: int | None = None,
        limit: int | None = None,
    ) -> list[Record]:
        """The records of `key` in one partition with `start <= offset < end` (end: the partition's
        current end), oldest first, at most `limit` of them. Rebuilding one game (its snapshot, then
        the log after it) reads through this; implementations may index by key."""
        consumer = self.consumer(topic, group=None, partitions=[partition])
        await consumer.start()
        try:
            return await scan_key(consumer, partition, key, start, end, limit)
        finally:
            await consumer.stop()

    async def read_partition(self, topic: str, partition: int) -> list[Record]:
        """Every record of one partition, from its start to its current end."""
        consumer = self.consumer(topic, group=None, partitions=[partition])
        await consumer.start()
        try:
            return await scan_partition(consumer, partition)
        finally:
            await consumer.stop()


async def scan_partition(consumer: Consumer, partition: int) -> list[Record]:
    """Read `partition` from its start to its current end."""
    end = (await consumer.end_offsets([partition]))[partition]
    consumer.seek(partition, 0)
    out: list[Record] = []
    # Compaction leaves gaps in the offsets: the position, not the count, says when to stop.
    while await consumer.position(partition) < end:
        out.extend(r for r in await consumer.poll(500) if r.partition == partition and r.offset < end)
    return out


async def scan_at(consumer: Consumer, partition: int, offset: int) -> Record | None:
    """Read `partition` at `offset`: that record, or None (compacted away, or beyond the end)."""
    end = (await consumer.end_offsets([partition]))[partition]
    if offset >= end:
        return None
    consumer.seek(partition, offset)
    while await consumer.position(partition) < end:
        for record in await consumer.poll(500, max_records=1):
            return record if record.offset == offset else None
    return None


async def scan_key(
    consumer: Consumer, partition: int, key: str, start: int, end: int | None, limit: int | None
) -> list[Record]:
    """Read `partition` from `start` up to `end` (default: its current end) and keep `key`'s records."""
    if end is None:
        end = (await consumer.end_offsets([partition]))[partition]
    consumer.seek(partition, start)
    out: list[Record] = []
    # Compaction leaves gaps in the offsets: the position, not the count, says when to stop.
    while await consumer.position(partition) < end:
        for record in await consumer.poll(500):
            if record.partition != partition or record.offset >= end or record.key != key:
                continue
            out.append(record)
            if limit is not None and len(out) >= limit:
                return out
    return out
