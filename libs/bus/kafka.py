"""The log on Apache Kafka, through aiokafka (producer, consumers, admin).

Client settings are explicit because aiokafka's defaults are weak for a log of record:
- producer: idempotent (enable_idempotence=True), acks="all", so an append that returned is on every
  in-sync replica and a retried send is never duplicated (aiokafka's own producer: FastStream's
  publish costs about 60 us more per record, and every action makes three or four);
- records: every topic is created with max.message.bytes = contracts.limits.MAX_RECORD_BYTES, the
  producer's max_request_size allows it (consumers fetch a larger record whole), and an append above it is
  refused before it is sent (bus.base.RecordTooLarge), so no broker or client default decides;
- topics: created at start with explicit settings: the partition count (an existing topic's count is
  adopted unless one is configured), the replication factor and min.insync.replicas, and the
  retention of each: `roundhouse.games` keeps every record forever (retention.ms=-1), compacted
  topics keep each key's newest record, ephemeral ones an hour;
- consumers: no auto-commit; the services commit positions themselves after the records are
  processed and covered by snapshots (runtime.worker); auto_offset_reset="earliest" so a new group
  reads the whole history; isolation_level="read_committed" (no producer here is transactional, so
  this only guarantees that none ever leaks aborted records into a replica).
- consumers in a group either subscribe (partitions shared among the group's members, with
  rebalance callbacks) or are given their partitions (a gateway reads all of them and commits its
  position under its group without being a member);
- reads of one key, one offset or one whole partition (a game's tail, its engine state, a partition's
  snapshots) go through a long-lived reader per topic (a consumer without a group), pointed at the
  partition and offset each read needs: its fetches return as soon as there is anything to read
  (fetch_min_bytes=1, where the followers wait for a batch), and between reads its partition is
  paused, so an idle reader sends no fetches (an idle consumer costs a few percent of a core). One
  reader per topic: pointing a consumer at another topic refreshes its metadata, and a new consumer
  per read (as a partition's snapshots were read before) fetches the metadata of every topic.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable, Iterator

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, ConsumerRebalanceListener, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType
from aiokafka.errors import (
    CommitFailedError,
    IllegalGenerationError,
    IllegalStateError,
    RebalanceInProgressError,
    TopicAlreadyExistsError,
    UnknownMemberIdError,
)
from bus.base import (
    AssignmentCallback, Consumer, Log, PartitionLost, Record, Topic, check_size, partition_for, scan_at, scan_key,
    scan_partition,
)
from contracts.limits import MAX_RECORD_BYTES

# A produce request carries one batch per partition: room for the largest record and its framing.
MAX_REQUEST_BYTES = MAX_RECORD_BYTES + 64 * 1024

DEFAULT_PARTITIONS = 12

log = logging.getLogger(__name__)


class KafkaLog(Log):
    def __init__(
        self,
        bootstrap: str,
        *,
        partitions: int | None = None,
        compacted: Iterable[str] = (),
        topics: Iterable[str | Topic] = (),
        client_id: str = "roundhouse",
        replication_factor: int = 1,
        min_insync_replicas: int = 1,
        batch_ms: int = 50,
        fetch_wait_ms: int = 500,
        linger_ms: int = 5,
    ):
        self.bootstrap = bootstrap
        self._wanted_partitions = partitions
        self.partitions = partitions or DEFAULT_PARTITIONS
        self.specs: dict[str, Topic] = {}
        for t in topics:
            spec = t if isinstance(t, Topic) else Topic(t)
            self.specs[spec.name] = spec
        for name in compacted:
            self.specs[name] = Topic(name, "compact")
        self.client_id = client_id
        self.replication_factor = replication_factor
        self.min_insync_replicas = min_insync_replicas
        self.batch_ms = batch_ms
        self.fetch_wait_ms = fetch_wait_ms
        self.producer = AIOKafkaProducer(
            bootstrap_servers=bootstrap,
            client_id=client_id,
            enable_idempotence=True,
            acks="all",
            request_timeout_ms=30000,
            max_request_size=MAX_REQUEST_BYTES,
            # (appends made within linger_ms share a produce request; 0: a record goes at once,
            # with whatever else is waiting; runtime.config kafka_linger_ms)
            linger_ms=linger_ms,
        )
        self._started = False
        self._readers: dict[str, KafkaConsumer] = {}   # topic -> its reader (read_at, read_key, read_partition)
        self._reader_locks: dict[str, asyncio.Lock] = {}

    @property
    def topics(self) -> set[str]:
        return set(self.specs)

    @property
    def compacted(self) -> set[str]:
        return {name for name, spec in self.specs.items() if spec.policy == "compact"}

    async def start(self) -> None:
        if self._started:
            return
        await self.ensure_topics()
        await self.producer.start()
        self._started = True

    async def stop(self) -> None:
        readers, self._readers = list(self._readers.values()), {}
        for reader in readers:
            await reader.stop()
        if self._started:
            await self.producer.stop()
            self._started = False

    def topic_configs(self, spec: Topic) -> dict[str, str]:
        configs = {"min.insync.replicas": str(self.min_insync_replicas), "max.message.bytes": str(MAX_REQUEST_BYTES)}
        if spec.policy == "compact":
            configs["cleanup.policy"] = "compact"
        elif spec.policy == "ephemeral":
            configs.update({"cleanup.policy": "delete", "retention.ms": str(spec.retention_ms)})
        else:   # the system of record: nothing is ever deleted
            configs.update({"cleanup.policy": "delete", "retention.ms": "-1", "retention.bytes": "-1"})
        return configs

    async def ensure_topics(self) -> None:
        admin = AIOKafkaAdminClient(bootstrap_servers=self.bootstrap, client_id=self.client_id)
        await admin.start()
        try:
            names = sorted(self.specs)
            existing = set(await admin.list_topics())
            if self._wanted_partitions is None:
                counts = [len(t.get("partitions", [])) for t in await admin.describe_topics(sorted(existing & set(names)))]
                counts = [c for c in counts if c]
                if counts:
                    self.partitions = counts[0]  # existing topics keep the count they were made with
            missing = [
                NewTopic(name, self.partitions, self.replication_factor, topic_configs=self.topic_configs(self.specs[name]))
                for name in names if name not in existing
            ]
            if missing:
                try:
                    await admin.create_topics(missing)
                except TopicAlreadyExistsError:
                    pass  # another process created them meanwhile
            made_before = sorted(existing & set(names))
            if made_before:   # topics made by an earlier version get today's settings
                await admin.alter_configs([
                    ConfigResource(ConfigResourceType.TOPIC, name, configs=self.topic_configs(self.specs[name]))
                    for name in made_before])
            described = await admin.describe_topics(names)
            for topic in described:
                count = len(topic.get("partitions", []))
                if count and count != self.partitions:
                    raise ValueError(
                        f"topic {topic['topic']} has {count} partitions, expected {self.partitions}"
                    )
        finally:
            await admin.close()

    async def append(self, topic: str, key: str, value: bytes, partition: int | None = None) -> Record:
        check_size(topic, key, value, MAX_RECORD_BYTES)
        if partition is None:
            partition = partition_for(key, self.partitions)
        meta = await self.producer.send_and_wait(topic, value, key=key.encode(), partition=partition)
        return Record(topic, meta.partition, meta.offset, key, value, meta.timestamp)

    @contextlib.asynccontextmanager
    async def _reading(self, topic: str, partition: int):
        """The topic's reader, pointed at `partition` (one read at a time per topic); paused after."""
        lock = self._reader_locks.setdefault(topic, asyncio.Lock())
        async with lock:
            reader = self._readers.get(topic)
            if reader is None:
                # (one per topic: pointing a consumer at another topic refreshes its metadata)
                reader = KafkaConsumer(self, topic, None, None, None, [], batch_ms=0)
                await reader.start()
                self._readers[topic] = reader
            reader.point(topic, partition)
            try:
                yield reader
            finally:
                reader.rest()

    async def read_at(self, topic: str, partition: int, offset: int) -> Record | None:
        async with self._reading(topic, partition) as reader:
            return await scan_at(reader, partition, offset)

    async def read_key(
        self, topic: str, partition: int, key: str, start: int = 0, end: int | None = None,
        limit: int | None = None,
    ) -> list[Record]:
        async with self._reading(topic, partition) as reader:
            return await scan_key(reader, partition, key, start, end, limit)

    async def read_partition(self, topic: str, partition: int) -> list[Record]:
        async with self._reading(topic, partition) as reader:
            return await scan_partition(reader, partition)

    def consumer(
        self,
        topic: str,
        *,
        group: str | None,
        on_assigned: AssignmentCallback | None = None,
        on_revoked: AssignmentCallback | None = None,
        partitions: Iterable[int] | None = None,
        batch_ms: int | None = None,
    ) -> "KafkaConsumer":
        return KafkaConsumer(
            self, topic, group, on_assigned, on_revoked,
            None if partitions is None else list(partitions), batch_ms=batch_ms,
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
    """In a group without given partitions: a member of the group (subscribed). Otherwise: reads the
    partitions it is given (all, without a group, when none are given), committing under its group
    if it has one."""

    def __init__(self, log: KafkaLog, topic, group, on_assigned, on_revoked, partitions, batch_ms=None):
        self.log = log
        self.topic = topic
        self.group = group
        self.on_assigned = on_assigned
        self.on_revoked = on_revoked
        self.subscribed = group is not None and partitions is None
        if partitions is None:
            partitions = [] if self.subscribed else list(range(log.partitions))
        self._manual = [TopicPartition(topic, p) for p in partitions]
        self._batch_s = (log.batch_ms if batch_ms is None else batch_ms) / 1000
        self._resting_until: float | None = None   # paused after a batch until then (see poll)
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
            # a fetch returns as soon as there is a record to read, or after fetch_wait_ms (an idle
            # consumer: a few fetches a second); under load, poll spaces the fetches (batch_ms)
            fetch_max_wait_ms=log.fetch_wait_ms,
            fetch_min_bytes=1,
            # (max_partition_fetch_bytes stays 1 MB: a larger record is still fetched whole, as
            # one batch, since fetch v3; a smaller fetch size keeps a catch-up's memory down)
        )

    async def start(self) -> None:
        await self._consumer.start()
        if not self.subscribed:
            self._consumer.assign(self._manual)
            if self._manual:  # (none: a reader that is pointed at a partition per read)
                await self._consumer.seek_to_beginning(*self._manual)
            if self.on_assigned is not None:
                await self.on_assigned({tp.partition for tp in self._manual})
        else:
            self._consumer.subscribe([self.topic], listener=_Listener(self))

    async def stop(self) -> None:
        if not self.subscribed and self.on_revoked is not None:
            await self.on_revoked({tp.partition for tp in self._manual})
        await self._consumer.stop()

    def assignment(self) -> set[int]:
        return {tp.partition for tp in self._consumer.assignment()}

    def generation(self) -> int:
        # (aiokafka keeps it on its group coordinator; -1 while it rejoins after the group dropped it)
        coordinator = getattr(self._consumer, "_coordinator", None)
        generation = getattr(coordinator, "generation", 0) if self.subscribed else 0
        return max(0, int(generation or 0))

    def point(self, topic: str, partition: int) -> None:
        """Read `partition` of `topic` from now on (a consumer without a group; seek next)."""
        self.topic = topic
        self._consumer.assign([TopicPartition(topic, partition)])

    def rest(self) -> None:
        """Fetch nothing until pointed again (the assignment stays: no metadata refresh)."""
        self._consumer.pause(*self._consumer.assignment())

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
        """Records as they come when the consumer is idle, in batches at most every `batch_ms` under
        load: after a poll that emptied what was fetched, the partitions rest (paused: nothing is
        fetched) until `batch_ms` after it; the next poll then fetches everything that came in
        meanwhile in one request. A record thus waits at most `batch_ms` plus a round trip, and
        a busy consumer sends at most 1000 / batch_ms fetches a second (each costs about half a
        millisecond of CPU here, and as much again in the broker)."""
        loop = asyncio.get_running_loop()
        if self._resting_until is not None:
            rest = self._resting_until - loop.time()
            if rest * 1000 >= timeout_ms:
                await asyncio.sleep(timeout_ms / 1000)
                return []
            if rest > 0:
                await asyncio.sleep(rest)
                timeout_ms -= int(rest * 1000)
            self._resting_until = None
            self._consumer.resume(*self._consumer.assignment())
        batches = await self._consumer.getmany(timeout_ms=timeout_ms, max_records=max_records)
        taken = sum(len(messages) for messages in batches.values())
        if self._batch_s and 0 < taken < max_records:
            # (records fetched meanwhile for a partition now paused are fetched again later)
            self._consumer.pause(*self._consumer.assignment())
            self._resting_until = loop.time() + self._batch_s
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
