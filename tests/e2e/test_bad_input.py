"""Bad input gets its own status, a precise message, and changes nothing."""

import grpc
import pytest
from prometheus_client import REGISTRY
from rh_support import LOGS, InProcess, LiveGame, platform_settings, wait_until

from contracts.envelopes import make_envelope
from contracts.v1 import gateway_pb2 as gw
from contracts.v1 import log_pb2

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(params=LOGS)
def platform(request, tmp_path):
    """Every service in this process, on the embedded log or on the real Kafka broker."""
    p = InProcess(platform_settings(request, tmp_path, submit_timeout_s=20, command_wait_s=1))
    yield p
    p.close()


@pytest.fixture
def game(platform):
    g = LiveGame(platform.address)
    g.step()
    return g


def state(game):
    view = game.view()
    return view.seq, view.digest


def refused(call, code, match=None):
    with pytest.raises(grpc.RpcError) as info:
        call()
    assert info.value.code() == code, info.value.details()
    if match:
        assert match in info.value.details()
    return info.value.details()


def test_unknown_game(game):
    s = game.gateway
    refused(lambda: s.GetGame(gw.GetGameRequest(game_id="nope")), grpc.StatusCode.NOT_FOUND, "nope")
    req = game.request()
    req.game_id = "nope"
    refused(lambda: s.SubmitAction(req), grpc.StatusCode.NOT_FOUND)
    refused(lambda: s.ExportGame(gw.ExportGameRequest(game_id="nope")), grpc.StatusCode.NOT_FOUND)


def test_wrong_seat_token(game):
    before = state(game)
    req = game.request()
    req.token = "not-a-token"
    refused(lambda: game.gateway.SubmitAction(req), grpc.StatusCode.PERMISSION_DENIED, "not a seat")
    # a real seat of the game, but not the one acting
    actor = str(game.legal()["entity"])
    other = next(t for p, t in game.tokens.items() if p != actor)
    req.token = other
    refused(lambda: game.gateway.SubmitAction(req), grpc.StatusCode.PERMISSION_DENIED, "may not act")
    assert state(game) == before


def test_only_the_operator_may_end_a_game_early(game):
    before = state(game)
    actor = game.legal()
    end = {"type": "end_game", "entity": actor["entity"], "entity_type": actor["entity_type"]}
    req = game.request(end)   # the acting seat's own token
    refused(lambda: game.gateway.SubmitAction(req), grpc.StatusCode.PERMISSION_DENIED, "operator")
    assert state(game) == before
    req.token = game.operator
    resp = game.gateway.SubmitAction(req)
    assert resp.finished and resp.seq == before[0] + 1
    assert game.view().game_end_reason == "manually_ended"


def test_stale_and_ahead_expected_seq(game):
    before = state(game)
    req = game.request()
    req.expected_seq = game.seq - 1
    refused(lambda: game.gateway.SubmitAction(req), grpc.StatusCode.FAILED_PRECONDITION, "stale")
    req.expected_seq = game.seq + 5
    refused(lambda: game.gateway.SubmitAction(req), grpc.StatusCode.FAILED_PRECONDITION, "ahead")
    assert state(game) == before


def test_illegal_action_gets_the_engine_reason(game):
    before = state(game)
    bad = {**game.legal(), "type": "bid", "company": "FT", "price": 10**6}  # beyond any cash
    reason = game.oracle_reason(bad)
    assert reason is not None, "the engine accepted the bad bid"
    detail = refused(lambda: game.gateway.SubmitAction(game.request(bad)), grpc.StatusCode.INVALID_ARGUMENT)
    assert detail == reason
    assert state(game) == before


def test_malformed_action(game):
    before = state(game)
    req = game.request()
    req.action.ClearField("body")
    refused(lambda: game.gateway.SubmitAction(req), grpc.StatusCode.INVALID_ARGUMENT, "malformed")
    req = game.request()
    req.action.extra_json = "[1, 2"
    refused(lambda: game.gateway.SubmitAction(req), grpc.StatusCode.INVALID_ARGUMENT, "malformed")
    assert state(game) == before


def test_malformed_envelopes_on_the_log_are_skipped(platform, game):
    before = state(game)
    settings = platform.running.workers[0].settings
    log = platform.running.log
    metric = lambda: REGISTRY.get_sample_value("roundhouse_malformed_records_total", {"service": "auction"}) or 0
    seen = metric()
    mismatched = make_envelope(log_pb2.RoundStarted(round_kind="auction"), game_id=game.game_id, seq=0, producer="t")
    mismatched.kind = log_pb2.Kind.ACTION_APPLIED
    wrong_key = make_envelope(
        log_pb2.CommandSubmitted(expected_seq=game.seq, action=game.request().action),
        game_id="another-game", seq=game.seq, producer="t", command_id="c-wrong-key",
    )
    for value in (b"\x00garbage\xff", mismatched.SerializeToString(), wrong_key.SerializeToString()):
        platform.call(log.append(settings.games_topic, game.game_id, value))
    assert wait_until(lambda: metric() >= seen + 3)
    assert state(game) == before
    game.step()  # the game goes on
    assert state(game)[0] == before[0] + 1


def test_duplicate_command_id_applies_once(game):
    before = state(game)
    req = game.request()
    req.command_id = "same-command"
    first = game.gateway.SubmitAction(req)
    again = game.gateway.SubmitAction(req)
    assert first.seq == again.seq == before[0] + 1
    assert state(game)[0] == before[0] + 1


def test_bad_create_requests(game):
    s = game.gateway
    refused(lambda: s.CreateGame(gw.CreateGameRequest(title="", seats=[gw.Seat(name="a")])), grpc.StatusCode.INVALID_ARGUMENT, "title")
    refused(lambda: s.CreateGame(gw.CreateGameRequest(title="1856")), grpc.StatusCode.INVALID_ARGUMENT, "seat")
    refused(lambda: s.CreateGame(gw.CreateGameRequest(title="no such title", seats=[gw.Seat(name=n) for n in "abc"])), grpc.StatusCode.INVALID_ARGUMENT)
    refused(lambda: s.CreateGame(gw.CreateGameRequest(title="1856", seats=[gw.Seat(name="a"), gw.Seat(name="a")])), grpc.StatusCode.INVALID_ARGUMENT, "twice")
    refused(lambda: s.CreateGame(gw.CreateGameRequest(title="1856", game_id=game.game_id, seats=[gw.Seat(name=n) for n in "abc"])), grpc.StatusCode.ALREADY_EXISTS)
    refused(lambda: s.ImportGame(gw.ImportGameRequest(export_json=b"{not json")), grpc.StatusCode.INVALID_ARGUMENT, "JSON")


def test_owner_rejects_commands_off_sequence_that_bypass_the_gateway(platform, game):
    """A producer that skips the gateway's checks: the owner still refuses stale and ahead commands."""
    before = state(game)
    settings = platform.running.workers[0].settings
    action = game.request().action
    for cid, expected in (("c-stale", game.seq - 1), ("c-ahead", game.seq + 3)):
        cmd = log_pb2.CommandSubmitted(expected_seq=expected, action=action, actor="operator")
        env = make_envelope(cmd, game_id=game.game_id, seq=expected, producer="test", command_id=cid)
        platform.call(platform.running.log.append(settings.games_topic, game.game_id, env.SerializeToString()))
    decided = lambda: {e.command_id: e.action_rejected.code for e in platform.records(game.game_id)
                       if e.WhichOneof("body") == "action_rejected"}
    assert wait_until(lambda: {"c-stale", "c-ahead"} <= set(decided()), 15)
    assert decided()["c-stale"] == log_pb2.RejectReason.STALE_SEQUENCE
    assert decided()["c-ahead"] == log_pb2.RejectReason.AHEAD_SEQUENCE
    assert state(game) == before
