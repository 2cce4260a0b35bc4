"""KafkaLog against the real broker: partitioning, order, commits, compaction config."""

import asyncio
import uuid

import pytest

from bus.base import partition_for
from bus.kafka import KafkaLog

pytestmark = [pytest.mark.kafka, pytest.mark.timeout(180)]


def fresh_topics() -> tuple[str, str]:
    """A games and a compacted snapshots topic of their own (a unique prefix per test)."""
    prefix = f"t{uuid.uuid4().hex[:8]}."
    return prefix + "games", prefix + "snaps"


def test_append_consume_commit_and_topics(kafka_bootstrap):
    games, snaps = fresh_topics()

    async def go():
        log = KafkaLog(kafka_bootstrap, partitions=4, topics=[games], compacted=[snaps])
        await log.start()
        written = [await log.append(games, f"g{i % 5}", f"v{i}".encode()) for i in range(20)]
        for r in written:
            assert r.partition == partition_for(r.key, 4)
        consumer = log.consumer(games, group=games + ".grp")
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


def test_read_key_reads_one_key_from_an_offset(kafka_bootstrap):
    games, snaps = fresh_topics()

    async def go():
        log = KafkaLog(kafka_bootstrap, partitions=1, topics=[games], compacted=[snaps])
        await log.start()
        written = [await log.append(games, f"g{i % 3}", f"v{i}".encode()) for i in range(12)]
        snapped = [await log.append(snaps, "g1", f"s{i}".encode()) for i in range(3)]
        got = {
            "all": await log.read_key(games, 0, "g1"),
            "from": await log.read_key(games, 0, "g1", start=4),
            "range": await log.read_key(games, 0, "g1", start=2, end=8),
            "first": await log.read_key(games, 0, "g2", limit=1),
            "none": await log.read_key(games, 0, "nobody"),
            "snap": await log.read_key(snaps, 0, "g1", start=snapped[1].offset, limit=1),
        }
        await log.stop()
        return written, snapped, {k: [(r.offset, r.value) for r in v] for k, v in got.items()}

    written, snapped, got = asyncio.run(go())
    of = lambda key: [(r.offset, r.value) for r in written if r.key == key]
    assert got["all"] == of("g1")
    assert got["from"] == [x for x in of("g1") if x[0] >= 4]
    assert got["range"] == [x for x in of("g1") if 2 <= x[0] < 8]
    assert got["first"] == of("g2")[:1] and got["none"] == []
    assert got["snap"] == [(snapped[1].offset, b"s1")]


def test_records_up_to_the_limit_go_through_and_larger_ones_are_refused(kafka_bootstrap):
    """Every topic takes records up to contracts.limits.MAX_RECORD_BYTES (above the broker's 1 MB
    default: the platform's largest records, engine states of a full game, are about 3 MB, see
    tests/unit/test_owner_rules.py), a topic made before with the broker's defaults gets the same
    settings, and a larger record is refused before it is sent, with nothing appended."""
    from aiokafka.admin import AIOKafkaAdminClient, NewTopic
    from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

    from bus.base import RecordTooLarge
    from contracts.limits import MAX_RECORD_BYTES

    games, states = fresh_topics()

    async def go():
        admin = AIOKafkaAdminClient(bootstrap_servers=kafka_bootstrap)
        await admin.start()
        await admin.create_topics([NewTopic(states, 2, 1)])   # made earlier, with the broker's defaults
        log = KafkaLog(kafka_bootstrap, partitions=2, topics=[games], compacted=[states])
        await log.start()
        big = bytes(range(256)) * ((MAX_RECORD_BYTES - 1024) // 256)
        written = {t: await log.append(t, "g1", big) for t in (games, states)}
        back = {t: await log.read_at(t, r.partition, r.offset) for t, r in written.items()}
        with pytest.raises(RecordTooLarge, match=f"limit of {MAX_RECORD_BYTES:,} bytes"):
            await log.append(states, "g1", big + b"x" * 2048)
        described = await admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, t) for t in (games, states)])
        await admin.close()
        after = await log.read_at(states, written[states].partition, written[states].offset + 1)
        await log.stop()
        return big, back, described, after

    big, back, described, after = asyncio.run(go())
    assert all(r is not None and r.value == big for r in back.values())
    assert after is None   # nothing after the refused one
    for res in described:
        configs = {c[0]: c[1] for c in res.resources[0][4]}
        assert int(configs["max.message.bytes"]) > MAX_RECORD_BYTES


def test_a_consumer_takes_records_in_batches_and_loses_none(kafka_bootstrap):
    """After a poll that took records, the partitions rest for `batch_ms` (nothing is fetched) and the
    next poll brings everything appended meanwhile; records fetched for a partition that was paused
    meanwhile are fetched again. Every record arrives once, each key's in order, also across reads
    of single records that point the topic's reader elsewhere in between."""
    games, snaps = fresh_topics()
    batch_ms = 300

    async def go():
        log = KafkaLog(kafka_bootstrap, partitions=4, topics=[games], compacted=[snaps], batch_ms=batch_ms)
        await log.start()
        consumer = log.consumer(games, group=None)
        await consumer.start()
        loop = asyncio.get_running_loop()
        first = await log.append(games, "g0", b"first")
        got = []
        while not got:
            got += await consumer.poll(200)
        took_first = loop.time()
        written = [first]
        for i in range(60):   # while the consumer rests
            written.append(await log.append(games, f"g{i % 7}", f"v{i}".encode()))
            if i % 20 == 0:   # the topic's reader pointed at single records meanwhile
                assert (await log.read_at(games, written[-1].partition, written[-1].offset)).value == written[-1].value
        batches = []
        while len(got) < len(written):
            batch = await consumer.poll(200)
            if batch:
                batches.append((loop.time() - took_first, len(batch)))
            got += batch
        await consumer.stop()
        await log.stop()
        return written, got, batches

    written, got, batches = asyncio.run(go())
    assert [(r.partition, r.offset) for r in got] == list(dict.fromkeys((r.partition, r.offset) for r in got))
    for key in {r.key for r in written}:
        assert [r.value for r in got if r.key == key] == [r.value for r in written if r.key == key]
    assert batches[0][0] >= batch_ms / 1000   # nothing taken while resting


def test_a_consumer_given_its_own_batch_time_does_not_rest_for_the_logs(kafka_bootstrap):
    """A consumer made with `batch_ms` (the gateway's, whose records answer callers) rests for that
    long between fetches under load, not for the log's `batch_ms`: with the log's at 2 s and the
    consumer's at 0, a record appended right after a poll that took one is taken at once, while a
    consumer of the same log with the log's batch time takes nothing for the 2 s."""
    games, snaps = fresh_topics()
    log_batch_ms = 2000

    async def go():
        log = KafkaLog(kafka_bootstrap, partitions=4, topics=[games], compacted=[snaps], batch_ms=log_batch_ms)
        await log.start()
        prompt = log.consumer(games, group=None, batch_ms=0)
        batched = log.consumer(games, group=None)
        for consumer in (prompt, batched):
            await consumer.start()
        loop = asyncio.get_running_loop()
        await log.append(games, "g0", b"first")
        waits = {}
        for consumer in (prompt, batched):
            got = []
            while not got:
                got += await consumer.poll(200)
        await log.append(games, "g1", b"second")   # both consumers just took a record
        for name, consumer in (("prompt", prompt), ("batched", batched)):
            started = loop.time()
            got = []
            while not got:
                got += await consumer.poll(200)
            waits[name] = (loop.time() - started, [r.value for r in got])
        for consumer in (prompt, batched):
            await consumer.stop()
        await log.stop()
        return waits

    waits = asyncio.run(go())
    assert waits["prompt"][1] == [b"second"] and waits["batched"][1] == [b"second"]
    assert waits["prompt"][0] < log_batch_ms / 1000 / 2
    # (the batched consumer's rest began when its first poll returned, before the prompt one's second)
    assert waits["prompt"][0] + waits["batched"][0] >= log_batch_ms / 1000 * 0.9
