"""The log on Apache Kafka: FastStream's KafkaBroker produces, aiokafka consumes and administers.

Client settings are explicit because aiokafka's defaults are weak for a log of record:
- producer: idempotent (enable_idempotence=True), acks="all", so an append that returned is on every
  in-sync replica and a retried send is never duplicated;
- consumers: no auto-commit; the services commit positions themselves after the records are
  processed and covered by snapshots (runtime.worker); auto_offset_reset="earliest" so a new group
  reads the whole history; isolation_level="read_committed" (no producer here is transactional, so
  this only guarantees that none ever leaks aborted records into a replica).
- the consumer side uses aiokafka directly because the services need what FastStream's subscriber
  hides: rebalance callbacks, seeks, end offsets and explicit commits per partition.
- reads of one key (rebuilding an evicted game: its snapshot, then the log after it) share one
  long-lived consumer without a group, which is pointed at the partition and offset each read needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable, Iterator

from aiokafka import AIOKafkaConsumer, ConsumerRebalanceListener, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import (
    CommitFailedError,
    IllegalGenerationError,
    IllegalStateError,
    RebalanceInProgressError,
    TopicAlreadyExistsError,
    UnknownMemberIdError,
)
from faststream.kafka import KafkaBroker

from bus.base import AssignmentCallback, Consumer, Log, PartitionLost, Record, partition_for, scan_key

log = logging.getLogger(__name__)


class KafkaLog(Log):
    def __init__(
        self,
        bootstrap: str,
        *,
        partitions: int = 4,
        compacted: Iterable[str] = (),
        topics: Iterable[str] = (),
        client_id: str = "roundhouse",
    ):
        self.bootstrap = bootstrap
        self.partitions = partitions
        self.compacted = set(compacted)
        self.topics = set(topics) | self.compacted
        self.client_id = client_id
        self.broker = KafkaBroker(
            bootstrap,
            client_id=client_id,
            enable_idempotence=True,
            acks="all",
            request_timeout_ms=30000,
            logger=None,
        )
        self._started = False
        self._reader: KafkaConsumer | None = None
        self._reader_lock = asyncio.Lock()

    async def start(self) -> None:
        if self._started:
            return
        await self.ensure_topics()
        await self.broker.connect()
        self._started = True

    async def stop(self) -> None:
        if self._reader is not None:
            reader, self._reader = self._reader, None
            await reader.stop()
        if self._started:
            await self.broker.stop()
            self._started = False

    async def ensure_topics(self) -> None:
        admin = AIOKafkaAdminClient(bootstrap_servers=self.bootstrap, client_id=self.client_id)
        await admin.start()
        try:
            existing = set(await admin.list_topics())
            missing = [
                NewTopic(
                    name, self.partitions, 1,
                    topic_configs={"cleanup.policy": "compact"} if name in self.compacted else {},
                )
                for name in sorted(self.topics - existing)
            ]
            if missing:
                try:
                    await admin.create_topics(missing)
                except TopicAlreadyExistsError:
                    pass  # another process created them meanwhile
            described = await admin.describe_topics(sorted(self.topics))
            for topic in described:
                count = len(topic.get("partitions", []))
                if count and count != self.partitions:
                    raise ValueError(
                        f"topic {topic['topic']} has {count} partitions, expected {self.partitions}"
                    )
        finally:
            await admin.close()

    async def append(self, topic: str, key: str, value: bytes) -> Record:
        partition = partition_for(key, self.partitions)
        meta = await self.broker.publish(value, topic, key=key.encode(), partition=partition)
        return Record(topic, meta.partition, meta.offset, key, value, meta.timestamp)

    async def read_key(
        self, topic: str, partition: int, key: str, start: int = 0, end: int | None = None,
        limit: int | None = None,
    ) -> list[Record]:
        async with self._reader_lock:
            if self._reader is None:
                # short fetch waits: a fetch left waiting at a partition's end would delay the
                # next read, which points the reader elsewhere
                reader = KafkaConsumer(self, topic, None, None, None, [], fetch_max_wait_ms=20)
                await reader.start()
                self._reader = reader
            self._reader.point(topic, partition)
            return await scan_key(self._reader, partition, key, start, end, limit)

    def consumer(
        self,
        topic: str,
        *,
        group: str | None,
        on_assigned: AssignmentCallback | None = None,
        on_revoked: AssignmentCallback | None = None,
        partitions: Iterable[int] | None = None,
    ) -> "KafkaConsumer":
        return KafkaConsumer(
            self, topic, group, on_assigned, on_revoked,
            list(range(self.partitions)) if partitions is None else list(partitions),
        )


class _Listener(ConsumerRebalanceListener):
    def __init__(self, owner: "KafkaConsumer"):
        self.owner = owner

    async def on_partitions_revoked(self, revoked):
        parts = {tp.partition for tp in revoked}
        if parts and self.owner.on_revoked is not None:
            await self.owner.on_revoked(parts)

    async def on_partitions_assigned(self, assigned):
        parts = {tp.partition for tp in assigned}
        if self.owner.on_assigned is not None:
            await self.owner.on_assigned(parts)


class KafkaConsumer(Consumer):
    def __init__(self, log: KafkaLog, topic, group, on_assigned, on_revoked, partitions, fetch_max_wait_ms=500):
        self.log = log
        self.topic = topic
        self.group = group
        self.on_assigned = on_assigned
        self.on_revoked = on_revoked
        self._manual = [TopicPartition(topic, p) for p in partitions]
        self._consumer = AIOKafkaConsumer(
            bootstrap_servers=log.bootstrap,
            client_id=log.client_id,
            group_id=group,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            isolation_level="read_committed",
            max_poll_interval_ms=300000,
            session_timeout_ms=10000,
            heartbeat_interval_ms=3000,
            fetch_max_wait_ms=fetch_max_wait_ms,
        )

    async def start(self) -> None:
        await self._consumer.start()
        if self.group is None:
            self._consumer.assign(self._manual)
            if self._manual:  # (none: a reader that is pointed at a partition per read)
                await self._consumer.seek_to_beginning(*self._manual)
            if self.on_assigned is not None:
                await self.on_assigned({tp.partition for tp in self._manual})
        else:
            self._consumer.subscribe([self.topic], listener=_Listener(self))

    async def stop(self) -> None:
        if self.group is None and self.on_revoked is not None:
            await self.on_revoked({tp.partition for tp in self._manual})
        await self._consumer.stop()

    def assignment(self) -> set[int]:
        return {tp.partition for tp in self._consumer.assignment()}

    def point(self, topic: str, partition: int) -> None:
        """Read `partition` of `topic` from now on (a consumer without a group; seek next)."""
        self.topic = topic
        self._consumer.assign([TopicPartition(topic, partition)])

    async def position(self, partition: int) -> int:
        with _lost_on_rebalance([partition]):
            return await self._consumer.position(TopicPartition(self.topic, partition))

    def seek(self, partition: int, offset: int) -> None:
        with _lost_on_rebalance([partition]):
            self._consumer.seek(TopicPartition(self.topic, partition), offset)

    async def committed(self, partition: int) -> int | None:
        return await self._consumer.committed(TopicPartition(self.topic, partition))

    async def commit(self, positions: dict[int, int]) -> None:
        with _lost_on_rebalance(positions):
            await self._consumer.commit(
                {TopicPartition(self.topic, p): o for p, o in positions.items()}
            )

    async def end_offsets(self, partitions: Iterable[int]) -> dict[int, int]:
        tps = [TopicPartition(self.topic, p) for p in partitions]
        ends = await self._consumer.end_offsets(tps)
        return {tp.partition: o for tp, o in ends.items()}

    async def poll(self, timeout_ms: int, max_records: int = 500) -> list[Record]:
        batches = await self._consumer.getmany(timeout_ms=timeout_ms, max_records=max_records)
        out: list[Record] = []
        for tp, messages in batches.items():
            for m in messages:
                out.append(
                    Record(m.topic, m.partition, m.offset, (m.key or b"").decode(), m.value, m.timestamp)
                )
        return out


# What aiokafka raises when a partition was taken away by a rebalance while an operation on it ran
# (IllegalStateError: "not assigned"), or when the group moved to a new generation before a commit.
_REBALANCED = (
    IllegalStateError, CommitFailedError, RebalanceInProgressError, IllegalGenerationError,
    UnknownMemberIdError,
)


@contextlib.contextmanager
def _lost_on_rebalance(partitions: Iterable[int]) -> Iterator[None]:
    try:
        yield
    except _REBALANCED as exc:
        raise PartitionLost(partitions, f"{type(exc).__name__}: {exc}") from exc
