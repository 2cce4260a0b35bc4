"""KafkaLog against the real broker: partitioning, order, commits, compaction config."""

import asyncio
import uuid

import pytest

from bus.base import partition_for
from bus.kafka import KafkaLog

pytestmark = [pytest.mark.kafka, pytest.mark.timeout(180)]


def test_append_consume_commit_and_topics(kafka_bootstrap):
    prefix = f"t{uuid.uuid4().hex[:8]}."
    games, snaps = prefix + "games", prefix + "snaps"

    async def go():
        log = KafkaLog(kafka_bootstrap, partitions=4, topics=[games], compacted=[snaps])
        await log.start()
        written = [await log.append(games, f"g{i % 5}", f"v{i}".encode()) for i in range(20)]
        for r in written:
            assert r.partition == partition_for(r.key, 4)
        consumer = log.consumer(games, group=prefix + "grp")
        await consumer.start()
        seen = []
        for _ in range(100):
            seen += await consumer.poll(200)
            if len(seen) >= 20:
                break
        await consumer.commit({p: await consumer.position(p) for p in consumer.assignment()})
        committed = {p: await consumer.committed(p) for p in range(4)}
        await consumer.stop()
        # the admin view: the snapshot topic is compacted
        from aiokafka.admin import AIOKafkaAdminClient
        from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

        admin = AIOKafkaAdminClient(bootstrap_servers=kafka_bootstrap)
        await admin.start()
        described = await admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, snaps)])
        await admin.close()
        await log.stop()
        return written, seen, committed, described

    written, seen, committed, described = asyncio.run(go())
    for key in {r.key for r in written}:
        assert [r.value for r in seen if r.key == key] == [r.value for r in written if r.key == key]
    ends = {}
    for r in written:
        ends[r.partition] = max(ends.get(r.partition, 0), r.offset + 1)
    assert {p: o for p, o in committed.items() if p in ends} == ends
    configs = {c[0]: c[1] for res in described for c in res.resources[0][4]}
    assert configs["cleanup.policy"] == "compact"
