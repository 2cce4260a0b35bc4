"""The embedded log keeps Kafka's semantics: per-partition order, groups, commits, compaction."""

import asyncio

from bus.base import partition_for
from bus.embedded import EmbeddedLog


def run(coro):
    return asyncio.run(coro)


async def _fill(log, topic, n):
    return [await log.append(topic, f"game-{i % 3}", f"v{i}".encode()) for i in range(n)]


def test_partitioning_matches_kafka_default_partitioner():
    from aiokafka.partitioner import DefaultPartitioner

    kafka = DefaultPartitioner()
    for n in (1, 3, 4, 12):
        parts = list(range(n))
        for key in ("a", "game-1", "rh-0123456789ab", "hs_jmygoamy_1622213019", "ü"):
            assert partition_for(key, n) == kafka(key.encode(), parts, parts)
    assert len({partition_for(f"g{i}", 4) for i in range(50)}) == 4


def test_order_offsets_commits_and_persistence(tmp_path):
    async def first():
        log = EmbeddedLog(tmp_path / "log.sqlite3", partitions=4)
        await log.start()
        written = await _fill(log, "t", 9)
        seen = []
        consumer = log.consumer("t", group="g")
        await consumer.start()
        while len(seen) < 9:
            seen += await consumer.poll(100)
        await consumer.commit({p: await consumer.position(p) for p in consumer.assignment()})
        await consumer.stop()
        await log.stop()
        return written, seen

    written, seen = run(first())
    for key in ("game-0", "game-1", "game-2"):
        assert [r.value for r in seen if r.key == key] == [r.value for r in written if r.key == key]
        offsets = [r.offset for r in seen if r.key == key]
        assert offsets == sorted(offsets)

    async def second():
        log = EmbeddedLog(tmp_path / "log.sqlite3", partitions=4)
        await log.start()
        await log.append("t", "game-1", b"after")
        consumer = log.consumer("t", group="g")
        await consumer.start()
        got = []
        for _ in range(5):
            got += await consumer.poll(100)
        await consumer.stop()
        fresh = log.consumer("t", group="other")
        await fresh.start()
        everything = []
        for _ in range(5):
            everything += await fresh.poll(100)
        await fresh.stop()
        await log.stop()
        return got, everything

    got, everything = run(second())
    assert [r.value for r in got] == [b"after"]  # the committed group resumes where it was
    assert len(everything) == 10  # a new group reads the whole history, which survived


def test_compacted_topic_keeps_latest_per_key(tmp_path):
    async def go():
        log = EmbeddedLog(tmp_path / "l.sqlite3", partitions=2, compacted=["snap"])
        await log.start()
        for i in range(3):
            await log.append("snap", "a", f"a{i}".encode())
        await log.append("snap", "b", b"b0")
        out = {}
        for p in range(2):
            for r in await log.read_partition("snap", p):
                out.setdefault(r.key, []).append(r.value)
        await log.stop()
        return out

    assert run(go()) == {"a": [b"a2"], "b": [b"b0"]}


def test_poll_wakes_on_append(tmp_path):
    async def go():
        log = EmbeddedLog(tmp_path / "l.sqlite3", partitions=1)
        await log.start()
        consumer = log.consumer("t", group=None)
        await consumer.start()
        waiting = asyncio.create_task(consumer.poll(5000))
        await asyncio.sleep(0.05)
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        await log.append("t", "k", b"x")
        got = await waiting
        await log.stop()
        return got, loop.time() - t0

    got, waited = run(go())
    assert [r.value for r in got] == [b"x"] and waited < 1.0


def test_reopening_with_other_partition_count_is_refused(tmp_path):
    async def go():
        log = EmbeddedLog(tmp_path / "l.sqlite3", partitions=2)
        await log.start()
        await log.stop()
        try:
            await EmbeddedLog(tmp_path / "l.sqlite3", partitions=3).start()
        except ValueError as exc:
            return str(exc)

    assert "partitions" in run(go())


def test_read_key_by_index_equals_the_generic_scan(tmp_path):
    """Rebuilding one game reads its records by key: the embedded index and the generic scan that
    other logs use (seek, read to the end, keep the key) give the same records."""
    from bus.base import Log

    async def go():
        log = EmbeddedLog(tmp_path / "l.sqlite3", partitions=1, compacted=["snap"])
        await log.start()
        written = await _fill(log, "t", 12)   # keys game-0, game-1, game-2 in turn: offsets 0..11
        for i in range(3):
            await log.append("snap", "game-1", f"s{i}".encode())
        cases = [("t", "game-1", 0, None, None), ("t", "game-1", 4, None, None), ("t", "game-1", 2, 8, None),
                 ("t", "game-2", 0, None, 2), ("t", "nobody", 0, None, None), ("snap", "game-1", 0, None, 1)]
        out = []
        for topic, key, start, end, limit in cases:
            indexed = await log.read_key(topic, 0, key, start, end, limit)
            scanned = await Log.read_key(log, topic, 0, key, start, end, limit)
            out.append(([(r.offset, r.value) for r in indexed], [(r.offset, r.value) for r in scanned]))
        await log.stop()
        return written, out

    written, out = run(go())
    for indexed, scanned in out:
        assert indexed == scanned
    assert [o for o, _ in out[0][0]] == [1, 4, 7, 10]
    assert [o for o, _ in out[1][0]] == [4, 7, 10]
    assert [o for o, _ in out[2][0]] == [4, 7]
    assert [o for o, _ in out[3][0]] == [2, 5]
    assert out[4][0] == [] and out[5][0] == [(2, b"s2")]   # compaction kept the newest snapshot


def test_consumers_read_recent_records_from_memory_as_sqlite_holds_them(tmp_path):
    """Records appended in this process are read from memory, a compacted topic's without the records
    newer ones replaced (as SQLite keeps them), and records too large to hold there from SQLite."""
    from bus import embedded

    async def go():
        log = EmbeddedLog(tmp_path / "l.sqlite3", partitions=1, compacted=["snap"])
        await log.start()
        consumer = log.consumer("snap", group=None)
        await consumer.start()
        for key, value in [("a", b"a0"), ("a", b"a1"), ("b", b"b0"), ("a", b"a2")]:
            await log.append("snap", key, value)
        from_memory = [(r.offset, r.value) for r in await consumer.poll(100)]
        position = await consumer.position(0)
        await log.append("snap", "b", b"b1")
        newer = [(r.offset, r.value) for r in await consumer.poll(100)]
        big = b"x" * (embedded.TAIL_BYTES // 2 + 1)
        for i in range(3):
            await log.append("t", "k", big + bytes([i]))
        large = [r.value[-1] for r in await log.read_partition("t", 0)]
        again = [(r.offset, r.value) for r in await log.read_partition("snap", 0)]
        await log.stop()
        return from_memory, position, newer, large, again

    from_memory, position, newer, large, again = run(go())
    assert from_memory == [(2, b"b0"), (3, b"a2")] and position == 4
    assert newer == [(4, b"b1")]
    assert large == [0, 1, 2]
    assert again == [(3, b"a2"), (4, b"b1")]


def test_ephemeral_records_expire_oldest_first_a_batch_at_a_time(tmp_path, monkeypatch):
    """An ephemeral topic drops its records once older than its retention, found by offset (the live
    ones never read) and at most PRUNE_BATCH a write; other topics keep everything."""
    import bus.embedded as embedded
    from bus.base import Topic

    clock = [1_000_000.0]
    monkeypatch.setattr(embedded.time, "time", lambda: clock[0])
    monkeypatch.setattr(embedded, "PRUNE_EVERY_S", 0.0)
    monkeypatch.setattr(embedded, "PRUNE_BATCH", 4)

    def held(log, topic):
        return log.db.execute("SELECT COUNT(*) FROM records WHERE topic=?", (topic,)).fetchone()[0]

    async def main():
        log = EmbeddedLog(tmp_path / "log.sqlite3", partitions=2,
                          topics=[Topic("replies", "ephemeral", retention_ms=10_000)])
        await log.start()
        old = [await log.append("replies", f"k{i}", b"old") for i in range(10)]
        await _fill(log, "events", 10)
        clock[0] += 5.0
        await _fill(log, "replies", 3)                  # 5 s later: nothing expired yet
        assert held(log, "replies") == 13
        clock[0] += 6.0                                 # the first ten are 11 s old, the last three 6 s
        counts = []
        while held(log, "replies") > 3:
            await log.append("events", "tick", b"")     # each write drops at most PRUNE_BATCH
            counts.append(held(log, "replies"))
            assert len(counts) < 10
        assert counts[0] >= 13 - 4 and counts[-1] == 3  # (ten expired records went over several writes)
        assert len(counts) >= 3
        left = log.db.execute("SELECT value FROM records WHERE topic='replies'").fetchall()
        assert sorted(v for (v,) in left) == [b"v0", b"v1", b"v2"]   # the live ones, untouched
        assert held(log, "events") == 10 + len(counts)
        assert all(r.topic == "replies" for r in old)
        await log.stop()

    run(main())


def test_writer_thread_batches_fails_a_batch_alone_and_writes_what_is_queued_at_stop(tmp_path, monkeypatch):
    """Appends queued together are one transaction; a batch whose write fails raises in each of its
    appends and leaves nothing behind, and the next batch is written; ``stop`` writes what was
    queued before it, and an append after it is refused."""
    async def go():
        log = EmbeddedLog(tmp_path / "log.sqlite3", partitions=2)
        await log.start()
        batches = []
        write = log._write

        def counting(jobs):
            batches.append(len(jobs))
            return write(jobs)

        monkeypatch.setattr(log, "_write", counting)
        together = await asyncio.gather(*(log.append("t", "k", b"v%d" % i) for i in range(20)))
        assert [r.offset for r in together] == list(range(20))
        assert sum(batches) == 20 and len(batches) < 20   # (the first may go alone)

        def failing(jobs):
            raise OSError("disk full")

        monkeypatch.setattr(log, "_write", failing)
        failed = await asyncio.gather(*(log.append("t", "k", b"lost") for _ in range(3)), return_exceptions=True)
        assert all(isinstance(f, OSError) and "disk full" in str(f) for f in failed)
        monkeypatch.setattr(log, "_write", write)
        after = await log.append("t", "k", b"after")
        assert after.offset == 20   # the failed batch took no offsets
        queued = [asyncio.ensure_future(log.append("t", "k", b"q%d" % i)) for i in range(5)]
        await asyncio.sleep(0)   # the appends are in the writer's inbox
        await log.stop()
        assert [q.result().offset for q in queued] == [21, 22, 23, 24, 25]
        try:
            await log.append("t", "k", b"late")
        except RuntimeError as exc:
            assert "not started" in str(exc)
        else:
            raise AssertionError("an append after stop was taken")
        reopened = EmbeddedLog(tmp_path / "log.sqlite3")
        await reopened.start()
        values = [r.value for r in await reopened.read_key("t", partition_for("k", 2), "k")]
        await reopened.stop()
        assert values == [b"v%d" % i for i in range(20)] + [b"after"] + [b"q%d" % i for i in range(5)]

    run(go())


def test_partition_ends_survive_a_kill_and_a_partition_pruned_empty(tmp_path, monkeypatch):
    """A partition's end is not rewritten with every append: after a process that never stopped
    (killed), a reopened log finds it one past the newest record, or where pruning left it when
    an ephemeral topic dropped every record of the partition; offsets are never given twice."""
    import bus.embedded as embedded
    from bus.base import Topic

    clock = [1_000_000.0]
    monkeypatch.setattr(embedded.time, "time", lambda: clock[0])
    monkeypatch.setattr(embedded, "PRUNE_EVERY_S", 0.0)
    topics = [Topic("replies", "ephemeral", retention_ms=10_000)]

    async def main():
        killed = EmbeddedLog(tmp_path / "log.sqlite3", partitions=1, topics=topics)
        await killed.start()
        await _fill(killed, "events", 7)
        await killed.append("replies", "r", b"old")
        await killed.append("replies", "r", b"old")
        clock[0] += 11.0
        await killed.append("events", "tick", b"")   # drops both replies: the partition is empty
        assert killed.db.execute("SELECT COUNT(*) FROM records WHERE topic='replies'").fetchone()[0] == 0
        # no stop: the process is gone (its connections left open, its writer thread idle)
        reopened = EmbeddedLog(tmp_path / "log.sqlite3", topics=topics)
        await reopened.start()
        assert (await reopened.append("events", "e", b"next")).offset == 8
        assert (await reopened.append("replies", "r", b"new")).offset == 2
        await reopened.stop()
        ends = dict(((t, p), o) for t, p, o in reopened._connect().execute("SELECT * FROM ends"))
        assert ends == {("events", 0): 9, ("replies", 0): 3}   # a stop leaves every end written

    run(main())


def test_a_derived_topic_is_held_in_memory_only(tmp_path):
    """A derived topic's records (the views) are readable at once by consumers and by key, never
    written to disk; a log reopened has none of them, and what an earlier version wrote of one is
    dropped; the other topics are written as before."""
    import sqlite3

    from bus.base import Topic

    topics = [Topic("views", "compact", derived=True)]

    async def main():
        log = EmbeddedLog(tmp_path / "log.sqlite3", partitions=2, topics=topics)
        await log.start()
        consumer = log.consumer("views", group=None)
        await consumer.start()
        await consumer.seek_to_end()
        p = partition_for("g1", 2)
        first = await log.append("views", "g1", b"seq 1")
        second = await log.append("views", "g1", b"seq 2")
        other = await log.append("views", "g2", b"seq 1")
        event = await log.append("events", "g1", b"e")
        assert (first.offset, second.offset) == (0, 1)
        seen = []
        while len(seen) < 2:
            seen += await consumer.poll(100)
        assert {(r.key, r.value) for r in seen} == {("g1", b"seq 2"), ("g2", b"seq 1")}   # compacted
        assert (await log.read_latest("views", p, "g1")).value == b"seq 2"
        assert [r.value for r in await log.read_key("views", p, "g1")] == [b"seq 2"]
        assert (await log.read_at("views", other.partition, other.offset)).value == b"seq 1"
        assert log.db.execute("SELECT COUNT(*) FROM records WHERE topic='views'").fetchone()[0] == 0
        await consumer.stop()
        await log.stop()
        with sqlite3.connect(tmp_path / "log.sqlite3") as db:   # as an earlier version wrote views
            db.execute("INSERT INTO records VALUES ('views', 0, 5, 'old', x'00', 0)")
        reopened = EmbeddedLog(tmp_path / "log.sqlite3", topics=topics)
        await reopened.start()
        assert await reopened.read_latest("views", p, "g1") is None
        assert (await reopened.append("views", "g1", b"again")).offset == 0
        assert [r.value for r in await reopened.read_key("events", event.partition, "g1")] == [b"e"]
        assert reopened.db.execute("SELECT COUNT(*) FROM records WHERE topic='views'").fetchone()[0] == 0
        await reopened.stop()

    run(main())


def test_one_batch_of_many_records_and_of_a_compacted_key_twice(tmp_path):
    """A batch of hundreds of records keeps every record at its offset, in order; in a compacted
    topic a key appended twice in one batch keeps only its newest record (both appends get their
    offsets), and a key's record from an earlier batch is gone too."""
    from bus.base import Topic

    async def go():
        log = EmbeddedLog(tmp_path / "log.sqlite3", partitions=1,
                          topics=[Topic("t"), Topic("snap", "compact")])
        await log.start()
        old = await log.append("snap", "a", b"a-old")
        # one gather: the appends are queued before the writer thread looks, so they share batches
        many = await asyncio.gather(*(log.append("t", f"g{i % 7}", b"v%d" % i) for i in range(300)),
                                    log.append("snap", "a", b"a-1"), log.append("snap", "b", b"b-1"),
                                    log.append("snap", "a", b"a-2"))
        records, snaps = many[:300], many[300:]
        assert [r.offset for r in records] == list(range(300))
        assert [r.offset for r in snaps] == [old.offset + 1, old.offset + 2, old.offset + 3]
        # the same as one batch for certain (the writer thread's own call; it waits for jobs meanwhile)
        batch = [("append", "t", 0, "g", b"w%d" % i) for i in range(300)]
        batch[100:100] = [("append", "snap", 0, "c", b"c-1"), ("append", "snap", 0, "c", b"c-2")]
        written = log._write(batch)
        assert [r.offset for r in written if r.topic == "t"] == list(range(300, 600))
        await log.stop()
        reopened = EmbeddedLog(tmp_path / "log.sqlite3")
        await reopened.start()
        stored = reopened.db.execute("SELECT offset, value FROM records WHERE topic='t' ORDER BY offset").fetchall()
        kept = reopened.db.execute("SELECT key, value FROM records WHERE topic='snap' ORDER BY offset").fetchall()
        await reopened.stop()
        assert stored == [(i, b"v%d" % i) for i in range(300)] + [(300 + i, b"w%d" % i) for i in range(300)]
        assert kept == [("b", b"b-1"), ("a", b"a-2"), ("c", b"c-2")]

    run(go())


def test_writer_lingers_only_after_a_batch_of_several_and_gathers_what_arrives_meanwhile(tmp_path, monkeypatch):
    """The writer thread's loop, driven by a scripted inbox: after a batch of fewer than
    LINGER_AFTER jobs the next is written at once; after a batch of LINGER_AFTER or more, the writer
    lingers `linger_ms` after the next batch's first job, and the jobs that arrive meanwhile join its
    transaction; it never lingers before the stop."""
    import queue

    import bus.embedded as embedded

    def job(i):
        return ("append", "t", 0, "k", b"v%d" % i), f"future-{i}"

    class Inbox:
        """Each get() takes the next arrival list; get_nowait() what has arrived and is not taken."""

        def __init__(self, arrivals):
            self.arrivals, self.here = list(arrivals), []

        def get(self):
            if not self.here:
                self.here = list(self.arrivals.pop(0))
            return self.here.pop(0)

        def get_nowait(self):
            if not self.here:
                raise queue.Empty
            return self.here.pop(0)

    assert embedded.LINGER_AFTER == 3
    inbox = Inbox([[job(1), job(2)], [job(3), job(4), job(5)], [job(6)], [None]])
    during_linger = [[job(7), job(8)]]
    pauses = []

    def pause(seconds):
        pauses.append(seconds)
        if during_linger:
            inbox.here += during_linger.pop(0)

    class Loop:
        def __init__(self):
            self.calls = []

        def call_soon_threadsafe(self, fn, *args):
            self.calls.append((fn, args))

    async def go():
        log = EmbeddedLog(tmp_path / "log.sqlite3", partitions=1, linger_ms=20)
        await log.start()
        await log.stop()   # (its own thread gone: the loop below runs in this one)
        log._writer = log._connect()
        batches = []
        write = log._write
        monkeypatch.setattr(log, "_write", lambda jobs: batches.append(len(jobs)) or write(jobs))
        monkeypatch.setattr(embedded, "_pause", pause)
        log._inbox = inbox
        loop = Loop()
        log._write_forever(loop, "stopped")
        log._writer.close()
        assert batches == [2, 3, 3]     # j1, j2; j3-j5; j6 with j7 and j8, which came while it lingered
        assert pauses == [0.02]         # only before j6's batch: not after the first, nor before the stop
        answered = [[future for _, future in args[0]] for fn, args in loop.calls if fn == log._written]
        assert answered == [[f"future-{i}" for i in batch] for batch in ((1, 2), (3, 4, 5), (6, 7, 8))]
        reopened = EmbeddedLog(tmp_path / "log.sqlite3")
        await reopened.start()
        stored = reopened.db.execute("SELECT offset, value FROM records WHERE topic='t' ORDER BY offset").fetchall()
        await reopened.stop()
        assert stored == [(i - 1, b"v%d" % i) for i in range(1, 9)]

    run(go())
