"""Bad input gets its own status, a precise message, and changes nothing."""

import grpc
import orjson
import pytest
from prometheus_client import REGISTRY
from rh_support import LOGS, InProcess, LiveGame, platform_settings, wait_until

from contracts import limits
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


def test_inputs_over_their_limits_are_refused_naming_the_limit(game):
    """Every input has a documented limit (contracts.limits), checked before anything is appended."""
    before = state(game)
    s = game.gateway
    actor = game.legal()
    big = game.request()
    big.action.extra_json = orjson.dumps({"junk": "x" * 1_000_000}).decode()   # a pass carrying 1 MB
    refused(lambda: s.SubmitAction(big), grpc.StatusCode.INVALID_ARGUMENT, f"the limit is {limits.MAX_ACTION_BYTES:,} bytes")
    chat = {"type": "message", "entity": actor["entity"], "entity_type": actor["entity_type"],
            "message": "x" * (limits.MAX_MESSAGE_CHARS + 1)}
    refused(lambda: s.SubmitAction(game.request(chat)), grpc.StatusCode.INVALID_ARGUMENT,
            f"the limit is {limits.MAX_MESSAGE_CHARS:,} characters")
    huge = game.request()
    huge.action.extra_json = "x" * (limits.MAX_REQUEST_BYTES + 1)   # beyond what gRPC takes at all
    refused(lambda: s.SubmitAction(huge), grpc.StatusCode.RESOURCE_EXHAUSTED)
    long_id = game.request()
    long_id.command_id = "c" * (limits.MAX_ID_CHARS + 1)
    refused(lambda: s.SubmitAction(long_id), grpc.StatusCode.INVALID_ARGUMENT, "command_id")
    long_token = game.request()
    long_token.token = "t" * 1_000_000
    refused(lambda: s.SubmitAction(long_token), grpc.StatusCode.INVALID_ARGUMENT, "the token")
    refused(lambda: s.GetGame(gw.GetGameRequest(game_id="g" * 1_000_000)), grpc.StatusCode.INVALID_ARGUMENT, "game_id")
    seats = [gw.Seat(name=n) for n in "abc"]
    refused(lambda: s.CreateGame(gw.CreateGameRequest(title="1856", seats=[gw.Seat(name="n" * 1_000_000), *seats[1:]])),
            grpc.StatusCode.INVALID_ARGUMENT, f"the limit is {limits.MAX_NAME_CHARS} characters")
    refused(lambda: s.CreateGame(gw.CreateGameRequest(title="1856", seats=[gw.Seat(name=f"p{i}") for i in range(limits.MAX_SEATS + 1)])),
            grpc.StatusCode.INVALID_ARGUMENT, f"the limit is {limits.MAX_SEATS}")
    refused(lambda: s.CreateGame(gw.CreateGameRequest(title="1856", seats=seats, optional_rules=["r" * 100])),
            grpc.StatusCode.INVALID_ARGUMENT, "optional rule")
    refused(lambda: s.CreateTournament(gw.CreateTournamentRequest(name="n" * (limits.MAX_TOURNAMENT_NAME_CHARS + 1))),
            grpc.StatusCode.INVALID_ARGUMENT, "name")
    export = orjson.dumps({"actions": [], "players": [], "junk": "x" * limits.MAX_IMPORT_BYTES})
    refused(lambda: s.ImportGame(gw.ImportGameRequest(export_json=export)), grpc.StatusCode.INVALID_ARGUMENT,
            f"the limit is {limits.MAX_IMPORT_BYTES:,} bytes")
    assert state(game) == before
    assert game.game_id in [g.game_id for g in s.ListGames(gw.ListGamesRequest()).games]


def test_an_unexpected_failure_answers_internal_without_its_text(game, monkeypatch):
    from services.gateway import server

    def broken():
        raise RuntimeError("secret internal detail")

    monkeypatch.setattr(server, "_TITLES", broken)
    detail = refused(lambda: game.gateway.ListTitles(gw.ListTitlesRequest()), grpc.StatusCode.INTERNAL, "internal error")
    assert "secret" not in detail and "RuntimeError" not in detail
    assert game.view().seq == game.seq   # the gateway serves on


def test_a_finished_game_stays_finished(game):
    actor = game.legal()
    end = game.request({"type": "end_game", "entity": actor["entity"], "entity_type": actor["entity_type"]})
    end.token = game.operator
    game.seq = game.gateway.SubmitAction(end).seq
    before = state(game)
    who = {"entity": actor["entity"], "entity_type": actor["entity_type"]}
    for kind in ("undo", "pass"):
        req = game.request({"type": kind, **who})
        refused(lambda: game.gateway.SubmitAction(req), grpc.StatusCode.FAILED_PRECONDITION, "the game is over")
    assert state(game) == before
    undo = game.request({"type": "undo", **who})
    undo.token = game.operator   # the operator may reopen it
    assert not game.gateway.SubmitAction(undo).finished
    assert not game.view().finished


def test_a_seat_undoes_only_its_own_moves(game):
    mover = str(game.legal()["entity"])
    game.step()
    other = next(p for p in game.tokens if p != mover)
    before = state(game)
    req = game.request({"type": "undo", "entity": other, "entity_type": "player"})
    refused(lambda: game.gateway.SubmitAction(req), grpc.StatusCode.PERMISSION_DENIED, "only its own moves")
    assert state(game) == before
    req = game.request({"type": "undo", "entity": mover, "entity_type": "player"})
    assert game.gateway.SubmitAction(req).seq == before[0] + 1


def test_a_command_id_names_one_command(game):
    req = game.request()
    req.command_id = "one-command"
    first = game.gateway.SubmitAction(req)
    other = game.request({"type": "message", "entity": game.legal()["entity"], "entity_type": "player", "message": "hi"})
    other.command_id = "one-command"
    other.expected_seq = first.seq
    refused(lambda: game.gateway.SubmitAction(other), grpc.StatusCode.INVALID_ARGUMENT, "already used for another action")
    assert game.gateway.SubmitAction(req).seq == first.seq   # the same command again: its first answer
    assert state(game)[0] == first.seq
