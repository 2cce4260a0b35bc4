"""Idle games leave memory and come back exactly: evicted engine state is rebuilt from the latest
snapshot plus the log after it, on a command, a read or an event.

The idle time is tiny here, so every pause in play evicts the game from every service. The engine
is the oracle (tests/e2e/test_embedded.py): the platform must still reach its seq and digest.
"""

import time

import grpc
import pytest
from prometheus_client import REGISTRY
from rh_support import (
    LOGS, InProcess, LiveGame, assert_applied_exactly_once, check_end, engine_prefix, free_port,
    gateway_stub, load_fixture, platform_settings, wait_until,
)

from contracts.envelopes import make_envelope
from contracts.v1 import gateway_pb2 as gw
from contracts.v1 import log_pb2
from runtime.client import Replayer
from runtime.config import SERVICES, Settings

pytestmark = pytest.mark.timeout(600)

IDLE = dict(evict_idle_s=0.3, checkpoint_interval_s=0.2, submit_timeout_s=60)


@pytest.fixture(params=LOGS)
def platform(request, tmp_path):
    p = InProcess(platform_settings(request, tmp_path, **IDLE))
    yield p
    p.close()


def rebuilds(trigger: str) -> float:
    """Rebuilds so far, over every service of this process."""
    return sum(
        REGISTRY.get_sample_value("roundhouse_rebuild_seconds_count", {"service": s, "trigger": trigger}) or 0
        for s in SERVICES
    )


def evicted(platform, game_id: str) -> None:
    assert wait_until(lambda: platform.evicted_everywhere(game_id), 30), platform.resident()


def test_game_evicted_mid_play_reaches_the_recorded_result(platform):
    export = load_fixture("hotseat004.json")   # auction, stock and operating rounds, undo entries
    k, oracle, error = engine_prefix(export)
    assert error is None, f"the engine alone refuses action {k}: {error}"
    replayer = Replayer(gateway_stub(platform.address), export)
    replayer.create()
    counts = {t: rebuilds(t) for t in ("command", "read", "event")}
    for stop in (k // 4, k // 2, 3 * k // 4):
        replayer.run(stop)
        before = replayer.view()
        evicted(platform, replayer.game_id)
        after = replayer.view()   # a read rebuilds the gateway's copy
        assert (after.seq, after.digest) == (before.seq, before.digest)
        evicted(platform, replayer.game_id)   # the next action meets an evicted game everywhere
    replayer.run(k)
    check_end(replayer, export, oracle, error)
    assert_applied_exactly_once(platform.records(replayer.game_id), oracle.seq)
    grown = {t: rebuilds(t) - seen for t, seen in counts.items()}
    # per pause: the gateway rebuilt for the read and for the next action (a read or the command
    # itself), the four other services for that action's records
    assert grown["read"] + grown["command"] >= 6 and grown["event"] >= 12, grown
    evicted(platform, replayer.game_id)
    exported = replayer.gateway.ExportGame(gw.ExportGameRequest(game_id=replayer.game_id))
    assert exported.export_json and platform.resident()["gateway"] == 1


def test_command_for_an_evicted_game_is_decided_once(platform):
    game = LiveGame(platform.address)
    game.step()
    wrong = game.request()
    wrong.token = "not-a-token"
    evicted(platform, game.game_id)
    # a token that is no seat is refused from the summary: nothing is rebuilt
    commands = rebuilds("command")
    with pytest.raises(grpc.RpcError) as denied:
        game.gateway.SubmitAction(wrong)
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert rebuilds("command") == commands and platform.evicted_everywhere(game.game_id)
    # a client retry after eviction: answered with the first result, applied once
    played = game.legal()
    req = game.request(played)
    req.command_id = "retried"
    first = game.gateway.SubmitAction(req)
    game.seq = first.seq
    game.played.append(played)
    evicted(platform, game.game_id)
    again = game.gateway.SubmitAction(req)
    assert again.seq == first.seq and game.view().seq == first.seq
    # the owner rules still hold: a stale expected_seq, then an illegal action, change nothing
    evicted(platform, game.game_id)
    with pytest.raises(grpc.RpcError) as stale:
        game.gateway.SubmitAction(gw.SubmitActionRequest(
            game_id=game.game_id, token=req.token, action=req.action, expected_seq=first.seq - 1))
    assert stale.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    bad = {**game.legal(), "type": "bid", "company": "FT", "price": 10**6}
    bad_request = game.request(bad)
    evicted(platform, game.game_id)
    with pytest.raises(grpc.RpcError) as illegal:
        game.gateway.SubmitAction(bad_request)
    assert illegal.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert illegal.value.details() == game.oracle_reason(bad)
    assert game.view().seq == first.seq

    # a command straight on the log while every service holds only the summary, then the same
    # command again once the game is evicted again: decided exactly once
    settings = platform.running.workers[0].settings
    action = game.legal()
    cmd = log_pb2.CommandSubmitted(expected_seq=game.seq, action=game.request(action).action,
                                   actor=str(action["entity"]))
    env = make_envelope(cmd, game_id=game.game_id, seq=game.seq, producer="test", command_id="direct")
    for _ in range(2):
        evicted(platform, game.game_id)
        record = platform.call(platform.running.log.append(settings.games_topic, game.game_id, env.SerializeToString()))
        assert wait_until(lambda: all(
            platform.call(w.consumer.position(record.partition)) > record.offset for w in platform.running.workers
        ), 30)
        assert wait_until(lambda: [e.command_id for e in platform.records(game.game_id)
                                   if e.WhichOneof("body") == "action_applied"][-1:] == ["direct"], 30)
    envs = platform.records(game.game_id)
    assert [e.command_id for e in envs if e.WhichOneof("body") in ("action_applied", "action_rejected")].count("direct") == 1
    assert_applied_exactly_once(envs, first.seq + 1)
    game.played.append(action)
    game.seq = first.seq + 1
    game.step()   # the game goes on
    assert game.view().seq == first.seq + 2


def test_many_idle_games_hold_no_engine_state(tmp_path):
    """50 short games: once idle, no service holds an engine state; listing, standings and a
    restart need none either; one read brings back just that game, exactly as it was."""
    settings = Settings(data_dir=tmp_path, port=free_port(), metrics_port=0, **IDLE)
    platform = InProcess(settings)
    try:
        games = [LiveGame(platform.address) for _ in range(50)]
        for g in games:
            for _ in range(3):
                g.step()
        views = {g.game_id: g.view() for g in games}
        assert wait_until(lambda: not any(platform.resident().values()), 60), platform.resident()
        assert all(platform.evicted_everywhere(g.game_id) for g in games)
        stub = games[0].gateway
        before = {t: rebuilds(t) for t in ("command", "read", "event")}
        listed = {s.game_id: s for s in stub.ListGames(gw.ListGamesRequest(include_finished=True)).games}
        assert {gid: (s.seq, s.round_label) for gid, s in listed.items()} == {
            gid: (v.seq, v.round_label) for gid, v in views.items()}
        tournament = stub.CreateTournament(gw.CreateTournamentRequest(name="club night"))
        for g in games[:5]:
            table = stub.AddGame(gw.AddGameRequest(tournament_id=tournament.tournament_id, game_id=g.game_id,
                                                   token=tournament.operator_token))
        assert len(table.game_ids) == 5 and sum(r.live_value for r in table.rows) > 0
        assert not any(platform.resident().values())
        assert {t: rebuilds(t) for t in before} == before   # nothing was rebuilt
        one = games[7]
        assert (one.view().seq, one.view().digest) == (views[one.game_id].seq, views[one.game_id].digest)
        assert platform.resident() == {s: int(s == "gateway") for s in SERVICES}
    finally:
        platform.close()

    # a restart loads every game from its snapshot and keeps none resident
    platform = InProcess(settings)
    try:
        assert wait_until(lambda: not any(platform.resident().values()), 10), platform.resident()
        assert all(len(w.games) == 50 for w in platform.running.workers)
        stub = gateway_stub(platform.address)
        listed = {s.game_id: s.seq for s in stub.ListGames(gw.ListGamesRequest()).games}
        assert listed == {gid: v.seq for gid, v in views.items()}
        one = games[11]
        again = stub.GetGame(gw.GetGameRequest(game_id=one.game_id))
        assert (again.seq, again.digest) == (views[one.game_id].seq, views[one.game_id].digest)
        one.gateway = stub
        one.step()
        assert one.view().seq == views[one.game_id].seq + 1
    finally:
        platform.close()


def oracle_digest(game: LiveGame) -> tuple[int, str]:
    import engine

    replay = engine.new_game("1856", list(game.SEATS), seed=7, game_id=game.game_id)
    for action in game.played:
        replay.process(action)
    return replay.seq, replay.digest()


def test_rebuild_replays_the_log_when_the_latest_snapshot_does_not_fit(tmp_path):
    """The latest snapshot of a game may come from another service: one older than what this
    process read (its records after the snapshot are replayed) or one further ahead in the log (it
    cannot serve; the game's records are replayed from its creation). Either way: the same game."""
    from bus.base import partition_for

    settings = Settings(data_dir=tmp_path, port=free_port(), metrics_port=0, **IDLE)
    platform = InProcess(settings)
    log = platform.running.log
    try:
        game = LiveGame(platform.address)
        game.step()
        game.step()
        evicted(platform, game.game_id)
        part = partition_for(game.game_id, settings.partitions)
        snapshot = lambda: platform.call(log.read_key(settings.snapshots_topic, part, game.game_id))[-1].value
        older = snapshot()
        for _ in range(3):
            game.step()
        evicted(platform, game.game_id)
        assert (game.view().seq, game.view().digest) == oracle_digest(game)
        evicted(platform, game.game_id)

        platform.call(log.append(settings.snapshots_topic, game.game_id, older))  # the newest is gone
        assert (game.view().seq, game.view().digest) == oracle_digest(game)
        game.step()   # every service rebuilds from the older snapshot and the records after it
        assert (game.view().seq, game.view().digest) == oracle_digest(game)
        evicted(platform, game.game_id)

        ahead = log_pb2.Snapshot()
        ahead.ParseFromString(snapshot())
        ahead.offset += 10**6
        platform.call(log.append(settings.snapshots_topic, game.game_id, ahead.SerializeToString()))
        assert (game.view().seq, game.view().digest) == oracle_digest(game)
        game.step()
        assert (game.view().seq, game.view().digest) == oracle_digest(game)
        assert_applied_exactly_once(platform.records(game.game_id), len(game.played))
    finally:
        platform.close()


def loaded() -> tuple[float, float, float]:
    """Games loaded from snapshots at start-up so far, over every service of this process: from
    their summary, restored, and both."""
    summary, restore = (
        sum(REGISTRY.get_sample_value("roundhouse_snapshot_loads_total", {"service": s, "mode": mode}) or 0
            for s in SERVICES)
        for mode in ("summary", "restore")
    )
    return summary, restore, summary + restore


def test_restart_takes_idle_games_from_their_snapshot_summaries(tmp_path, monkeypatch):
    """A restart restores no idle game: each is taken evicted from its snapshot's summary, and
    the first command rebuilds it and is applied once. A snapshot written without a summary (an
    older version's) is still restored in full."""
    import engine
    from bus.base import partition_for

    restores = []
    real_restore = engine.restore
    monkeypatch.setattr(engine, "restore", lambda state: restores.append(1) or real_restore(state))

    settings = Settings(data_dir=tmp_path, port=free_port(), metrics_port=0, **IDLE)
    platform = InProcess(settings)
    try:
        games = [LiveGame(platform.address) for _ in range(4)]
        for g in games:
            g.step()
            g.step()
        views = {g.game_id: g.view() for g in games}
        for g in games:
            evicted(platform, g.game_id)
    finally:
        platform.close()
    time.sleep(2 * IDLE["evict_idle_s"])   # the latest snapshots are older than the idle time

    restores.clear()
    before = loaded()
    platform = InProcess(settings)
    try:
        assert wait_until(lambda: loaded()[2] - before[2] == len(games) * len(SERVICES), 10)
        assert all(len(w.games) == len(games) for w in platform.running.workers)
        assert loaded()[0] - before[0] == len(games) * len(SERVICES)   # all from summaries
        assert not any(platform.resident().values()) and restores == []
        stub = gateway_stub(platform.address)
        listed = {s.game_id: (s.seq, s.round_label, s.finished) for s in stub.ListGames(gw.ListGamesRequest()).games}
        assert listed == {gid: (v.seq, v.round_label, False) for gid, v in views.items()}
        one = games[1]
        one.gateway = stub
        one.step()   # every service rebuilds the game from its snapshot, the owner decides once
        assert restores and (one.view().seq, one.view().digest) == oracle_digest(one)
        assert_applied_exactly_once(platform.records(one.game_id), len(one.played))
        assert all(platform.evicted_everywhere(g.game_id) for g in games if g is not one)

        # the latest snapshot of another game as an older version wrote it: without a summary
        old = games[2]
        part = partition_for(old.game_id, settings.partitions)
        log = platform.running.log
        latest = log_pb2.Snapshot.FromString(
            platform.call(log.read_key(settings.snapshots_topic, part, old.game_id))[-1].value)
        latest.ClearField("summary")
        platform.call(log.append(settings.snapshots_topic, old.game_id, latest.SerializeToString()))
    finally:
        platform.close()
    time.sleep(2 * IDLE["evict_idle_s"])

    restores.clear()
    before = loaded()
    platform = InProcess(settings)
    try:
        assert wait_until(lambda: loaded()[2] - before[2] == len(games) * len(SERVICES), 10)
        assert loaded()[1] - before[1] == len(SERVICES)   # the old snapshot, in every service
        assert wait_until(lambda: not any(platform.resident().values()), 10), platform.resident()
        stub = gateway_stub(platform.address)
        for g in (old, games[1]):
            g.gateway = stub
            g.step()
            assert (g.view().seq, g.view().digest) == oracle_digest(g)
            assert_applied_exactly_once(platform.records(g.game_id), len(g.played))
    finally:
        platform.close()
