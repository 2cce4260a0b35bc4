"""Idle games leave memory and come back exactly. Only a game's owner holds its engine; it drops it
when the game is idle (after writing the engine state) and loads it again from that state plus the
decided records after it on the next command or read. Every other service only ever holds ledgers.

The idle time is tiny here, so every pause in play evicts the game. The engine is the oracle
(tests/e2e/test_embedded.py): the platform must still reach its seq and digest.
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
from runtime.commandline import SERVICES
from runtime.config import Settings

pytestmark = pytest.mark.timeout(600)

IDLE = dict(evict_idle_s=0.3, checkpoint_interval_s=0.2, snapshot_idle_s=0.2, submit_timeout_s=60)
OWNERS = ("auction", "stock_round", "operating_round")


@pytest.fixture(params=LOGS)
def platform(request, tmp_path):
    p = InProcess(platform_settings(request, tmp_path, **IDLE))
    yield p
    p.close()


def counted(name: str, label: str, value: str) -> float:
    """A counter's (or histogram's _count) total over every service of this process."""
    return sum(REGISTRY.get_sample_value(name, {"service": s, label: value}) or 0 for s in (*SERVICES, "serve"))


def loads(how: str) -> float:
    return counted("roundhouse_engine_loads_total", "how", how)


def evicted(platform, game_id: str) -> None:
    assert wait_until(lambda: platform.evicted_everywhere(game_id), 30), platform.resident()


def test_game_evicted_mid_play_reaches_the_recorded_result(platform):
    export = load_fixture("hotseat004.json")   # auction, stock and operating rounds, undo entries
    k, oracle, error = engine_prefix(export)
    assert error is None, f"the engine alone refuses action {k}: {error}"
    replayer = Replayer(gateway_stub(platform.address), export)
    replayer.create()
    from_state = loads("state")
    for stop in (k // 4, k // 2, 3 * k // 4):
        replayer.run(stop)
        before = replayer.view()
        evicted(platform, replayer.game_id)
        after = replayer.view()   # the owner loads it to publish the view... unless the view is out
        assert (after.seq, after.digest) == (before.seq, before.digest)
        evicted(platform, replayer.game_id)   # the next action meets an evicted game
    replayer.run(k)
    check_end(replayer, export, oracle, error)
    assert_applied_exactly_once(platform.records(replayer.game_id), oracle.seq)
    assert loads("state") - from_state >= 3   # each pause: the next action loads its engine state
    evicted(platform, replayer.game_id)
    exported = replayer.gateway.ExportGame(gw.ExportGameRequest(game_id=replayer.game_id))
    assert exported.export_json and sum(platform.resident().values()) == 1


def test_command_for_an_evicted_game_is_decided_once(platform):
    game = LiveGame(platform.address)
    game.step()
    wrong = game.request()
    wrong.token = "not-a-token"
    evicted(platform, game.game_id)
    # a token that is no seat is refused from the ledger: no engine is loaded
    before = loads("state") + loads("setup")
    with pytest.raises(grpc.RpcError) as denied:
        game.gateway.SubmitAction(wrong)
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert loads("state") + loads("setup") == before and platform.evicted_everywhere(game.game_id)
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

    # a command straight on the log while no engine is held, then the same command again once the
    # game is evicted again (the owner learns it was decided from the engine state it loads): the
    # second gets a DuplicateCommand, and the game takes the action once
    settings = platform.running.workers[0].settings
    action = game.legal()
    cmd = log_pb2.CommandSubmitted(expected_seq=game.seq, action=game.request(action).action,
                                   actor=str(action["entity"]))
    env = make_envelope(cmd, game_id=game.game_id, seq=game.seq, producer="test", command_id="direct")
    answers = lambda: [e for e in platform.records(game.game_id)  # noqa: E731
                       if e.command_id == "direct" and e.WhichOneof("body") != "command_submitted"]
    for n in (1, 2):
        evicted(platform, game.game_id)
        platform.call(platform.running.log.append(settings.games_topic, game.game_id, env.SerializeToString()))
        assert wait_until(lambda: len(answers()) == n, 30), answers()
    assert [e.WhichOneof("body") for e in answers()] == ["action_applied", "duplicate_command"]
    assert answers()[1].duplicate_command.first.seq == first.seq + 1
    envs = platform.records(game.game_id)
    assert_applied_exactly_once(envs, first.seq + 1)
    game.played.append(action)
    game.seq = first.seq + 1
    game.step()   # the game goes on
    assert game.view().seq == first.seq + 2


def test_many_idle_games_hold_no_engine(tmp_path):
    """50 short games: once idle, no service holds an engine; listing, standings and a restart need
    none either; one read brings back just that game's engine, in its owner only."""
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
        before = loads("state") + loads("setup")
        listed = {s.game_id: s for s in stub.ListGames(gw.ListGamesRequest(include_finished=True)).games}
        assert {gid: (s.seq, s.round_label) for gid, s in listed.items()} == {
            gid: (v.seq, v.round_label) for gid, v in views.items()}
        tournament = stub.CreateTournament(gw.CreateTournamentRequest(name="club night"))
        for g in games[:5]:
            table = stub.AddGame(gw.AddGameRequest(tournament_id=tournament.tournament_id, game_id=g.game_id,
                                                   token=tournament.operator_token, game_operator_token=g.operator))
        assert len(table.game_ids) == 5 and sum(r.live_value for r in table.rows) > 0
        assert not any(platform.resident().values())
        assert loads("state") + loads("setup") == before   # nothing was loaded
        one = games[7]
        # its view at this position is published already: reading it loads nothing
        assert (one.view().seq, one.view().digest) == (views[one.game_id].seq, views[one.game_id].digest)
        assert loads("state") + loads("setup") == before
        one.step()   # a move loads the engine, in the owner of its round only
        resident = platform.resident()
        assert sum(resident.values()) == 1 and resident["gateway"] == resident["scoring"] == 0
        views[one.game_id] = one.view()
    finally:
        platform.close()

    # a restart loads every game's ledger from its snapshot and no engine
    platform = InProcess(settings)
    try:
        assert wait_until(lambda: all(len(w.games) == 50 for w in platform.running.workers), 10)
        assert not any(platform.resident().values())
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


def test_loading_falls_back_when_the_latest_state_does_not_fit(tmp_path):
    """The engine state an owner loads may be older than the one its ledger names (the newer one
    gone): the decided records after it are read from the log. One that claims to be further ahead
    than the log cannot serve: the game is built from its set-up and its whole log. Either way: the
    same game."""
    from bus.base import partition_for

    settings = Settings(data_dir=tmp_path, port=free_port(), metrics_port=0, **IDLE)
    platform = InProcess(settings)
    log = platform.running.log
    try:
        game = LiveGame(platform.address)
        game.step()
        game.step()
        evicted(platform, game.game_id)
        part = partition_for(game.game_id, log.partitions)
        latest_state = lambda: platform.call(log.read_latest(settings.states_topic, part, game.game_id)).value  # noqa: E731
        older = latest_state()
        for _ in range(3):
            game.step()
        evicted(platform, game.game_id)
        assert (game.view().seq, game.view().digest) == oracle_digest(game)
        evicted(platform, game.game_id)

        platform.call(log.append(settings.states_topic, game.game_id, older))  # the newest is gone
        from_setup = loads("setup")
        game.step()   # the owner loads the older state and the records after it
        assert (game.view().seq, game.view().digest) == oracle_digest(game)
        assert loads("setup") == from_setup
        evicted(platform, game.game_id)

        ahead = log_pb2.EngineState.FromString(latest_state())
        ahead.seq += 1000
        platform.call(log.append(settings.states_topic, game.game_id, ahead.SerializeToString()))
        game.step()
        assert (game.view().seq, game.view().digest) == oracle_digest(game)
        assert loads("setup") == from_setup + 1
        assert_applied_exactly_once(platform.records(game.game_id), len(game.played))
    finally:
        platform.close()


def test_restart_reads_ledgers_not_engines(tmp_path):
    """A restart loads no engine: every service takes its games' ledgers from their snapshots, and
    the first command loads the engine of that game alone. A partition holding a snapshot of an
    earlier format is read from its start instead, and comes out the same."""
    from bus.base import partition_for

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
        assert wait_until(lambda: not any(w.games[g.game_id].dirty() for w in platform.running.workers
                                          for g in games), 10)
    finally:
        platform.close()

    ledgers = lambda: counted("roundhouse_snapshot_loads_total", "mode", "ledger")  # noqa: E731
    before, engines = ledgers(), loads("state") + loads("setup")
    platform = InProcess(settings)
    try:
        assert wait_until(lambda: ledgers() - before == len(games) * len(SERVICES), 10)
        assert all(len(w.games) == len(games) for w in platform.running.workers)
        assert not any(platform.resident().values()) and loads("state") + loads("setup") == engines
        stub = gateway_stub(platform.address)
        listed = {s.game_id: (s.seq, s.round_label, s.finished) for s in stub.ListGames(gw.ListGamesRequest()).games}
        assert listed == {gid: (v.seq, v.round_label, False) for gid, v in views.items()}
        one = games[1]
        one.gateway = stub
        one.step()   # its owner loads its engine state and decides once
        assert loads("state") == engines + 1 or loads("state") + loads("setup") == engines + 1
        assert (one.view().seq, one.view().digest) == oracle_digest(one)
        assert_applied_exactly_once(platform.records(one.game_id), len(one.played))

        # the latest snapshot of another game as an earlier version wrote it
        old = games[2]
        log = platform.running.log
        part = partition_for(old.game_id, log.partitions)
        latest = log_pb2.Snapshot.FromString(platform.call(log.read_latest(settings.snapshots_topic, part, old.game_id)).value)
        latest.ClearField("format")
        platform.call(log.append(settings.snapshots_topic, old.game_id, latest.SerializeToString()))
    finally:
        platform.close()
    time.sleep(2 * IDLE["evict_idle_s"])

    platform = InProcess(settings)
    try:
        assert wait_until(lambda: all(len(w.games) == len(games) for w in platform.running.workers), 10)
        stub = gateway_stub(platform.address)
        for g in (old, games[1]):
            g.gateway = stub
            g.step()
            assert (g.view().seq, g.view().digest) == oracle_digest(g)
            assert_applied_exactly_once(platform.records(g.game_id), len(g.played))
    finally:
        platform.close()
