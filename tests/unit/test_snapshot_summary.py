"""A snapshot carries the game's summary, so a worker can load an idle or finished game evicted,
without restoring its engine state; snapshots written without the summary are restored in full."""

import asyncio
import time

import pytest
from prometheus_client import REGISTRY
from rh_support import engine_prefix, load_fixture

import engine
from bus.embedded import EmbeddedLog
from contracts.v1 import log_pb2
from runtime.config import Settings
from runtime.replica import Replica, Summary
from runtime.worker import Hooks, Worker


def played(actions: int | None = None):
    """hotseat004 (an 1856 game) after `actions` actions, or to its end (finished)."""
    export = load_fixture("hotseat004.json")
    if actions is not None:
        export = {**export, "actions": export["actions"][:actions]}
    k, game, error = engine_prefix(export)
    assert error is None
    return game


def replica(game_id: str, game, *, pending: bool = False) -> Replica:
    created = log_pb2.GameCreated(
        title="1856", players=[log_pb2.Player(id=p, name=p) for p in ("Ann", "Bob", "Cid")],
        seat_token_sha256=["a", "b", "c"], import_json=b'{"dropped": "when evicted"}',
    )
    rep = Replica(game_id, 0, created, game, last_offset=41, published_round=game.round_label, score_seq=game.seq)
    if pending:
        rep.pending["c1"] = log_pb2.Envelope(game_id=game_id, command_id="c1", seq=game.seq)
    return rep


def reparsed(snap: log_pb2.Snapshot) -> log_pb2.Snapshot:
    return log_pb2.Snapshot.FromString(snap.SerializeToString())


@pytest.fixture
def count_restores(monkeypatch):
    calls = []
    real = engine.restore

    def counting(state):
        calls.append(1)
        return real(state)

    monkeypatch.setattr(engine, "restore", counting)
    return calls


@pytest.mark.parametrize("actions", [40, None], ids=["running", "finished"])
def test_summary_round_trips_through_the_snapshot(actions, count_restores):
    game = played(actions)
    assert bool(game.finished) == (actions is None)
    snap = reparsed(replica("g1", game).snapshot("test/1"))
    assert snap.HasField("summary") and snap.summary.seq == snap.seq == game.seq

    lazy = Replica.evicted_from_snapshot(snap)
    assert count_restores == []   # the summary alone: no engine state
    assert not lazy.resident and lazy.summary == Summary.of(game)
    # what answers from the summary is what the restored game answers
    full = Replica.from_snapshot(snap)
    assert len(count_restores) == 1
    assert lazy.summary == Summary.of(full.game)
    for attr in ("seq", "round_kind", "round_label", "finished", "game_end_reason", "title"):
        assert getattr(lazy, attr) == getattr(full, attr), attr
    assert lazy.result() == full.result() and lazy.player_values() == full.player_values()
    # the bookkeeping an evicted replica keeps, as evict() would leave it
    full.evict()
    for attr in ("last_offset", "snapshot_offset", "published_round", "score_seq", "finished_published",
                 "decided", "pending", "summary", "created"):
        assert getattr(lazy, attr) == getattr(full, attr), attr
    assert not lazy.created.import_json and lazy.created.seat_token_sha256 == ["a", "b", "c"]


def test_snapshot_without_summary_or_with_pending_commands_is_restored():
    game = played(40)
    old = reparsed(replica("g1", game).snapshot("test/1"))
    old.ClearField("summary")   # as written before the summary was part of the contract
    old = reparsed(old)
    assert not old.HasField("summary")
    assert Replica.evicted_from_snapshot(old) is None
    assert Replica.from_snapshot(old).summary is None and Replica.from_snapshot(old).seq == game.seq

    pending = reparsed(replica("g2", game, pending=True).snapshot("test/1"))
    assert Replica.evicted_from_snapshot(pending) is None   # the owner decides it when live

    skewed = reparsed(replica("g3", game).snapshot("test/1"))
    skewed.summary.seq += 1
    assert Replica.evicted_from_snapshot(skewed) is None


def loads(mode: str) -> float:
    return REGISTRY.get_sample_value("roundhouse_snapshot_loads_total", {"service": "unit", "mode": mode}) or 0


def test_worker_loads_idle_and_finished_games_from_the_summary(tmp_path, count_restores):
    """Partition start-up: idle games (age past evict_idle_s) and finished ones are taken evicted
    from their summary; recent ones, old-format snapshots and games with a command pending are
    restored, and only the idle ones among those are evicted."""
    running, finished = played(40), played()
    settings = Settings(data_dir=tmp_path, evict_idle_s=60, partitions=1)
    hour_ago = int(time.time() * 1000) - 3600_000

    def snap(game_id, game, *, age_ms=0, summary=True, pending=False):
        s = replica(game_id, game, pending=pending).snapshot("test/1")
        s.timestamp_ms -= age_ms
        if not summary:
            s.ClearField("summary")
        return s

    snaps = [
        snap("idle", running, age_ms=3600_000),
        snap("recent", running),
        snap("finished", finished),          # recent, but finished: nothing will change it
        snap("old-idle", running, age_ms=3600_000, summary=False),
        snap("old-recent", running, summary=False),
        snap("pending-idle", running, age_ms=3600_000, pending=True),
    ]
    assert snaps[0].timestamp_ms <= hour_ago + 1000

    async def run():
        log = EmbeddedLog(tmp_path / "log.sqlite3", partitions=1, compacted=[settings.snapshots_topic])
        await log.start()
        try:
            for s in snaps:
                await log.append(settings.snapshots_topic, s.game_id, s.SerializeToString())
            worker = Worker("unit", settings, log, Hooks(), group="g")
            before = {m: loads(m) for m in ("summary", "restore")}
            start = await worker._load_snapshots(0)
            return worker, start, {m: loads(m) - before[m] for m in before}
        finally:
            await log.stop()

    worker, start, counted = asyncio.run(run())
    assert start == 42
    resident = {g: r.resident for g, r in worker.games.items()}
    assert resident == {"idle": False, "recent": True, "finished": False, "old-idle": False,
                        "old-recent": True, "pending-idle": True}
    assert len(count_restores) == 4 and counted == {"summary": 2, "restore": 4}
    assert worker.games["finished"].finished and worker.games["finished"].result() == Summary.of(finished).result
    assert worker.games["idle"].summary == worker.games["old-idle"].summary == Summary.of(running)
    assert {g: r.snapshot_at for g, r in worker.games.items()} == {s.game_id: i for i, s in enumerate(snaps)}


def test_no_summary_loads_when_eviction_is_off(tmp_path, count_restores):
    settings = Settings(data_dir=tmp_path, evict_idle_s=0, partitions=1)
    s = replica("idle", played()).snapshot("test/1")
    s.timestamp_ms -= 3600_000

    async def run():
        log = EmbeddedLog(tmp_path / "log.sqlite3", partitions=1)
        await log.start()
        try:
            await log.append(settings.snapshots_topic, s.game_id, s.SerializeToString())
            worker = Worker("unit", settings, log, Hooks(), group="g")
            await worker._load_snapshots(0)
            return worker
        finally:
            await log.stop()

    worker = asyncio.run(run())
    assert worker.games["idle"].resident and len(count_restores) == 1
