"""Fuzzing the gateway (embedded platform): random and mutated requests. Every answer is a proper
status (never UNKNOWN, INTERNAL or a timeout), and a refused request leaves the game as it was. The
default run is bounded (about a minute); the slow variant sends many more."""

import string

import grpc
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rh_support import InProcess, LiveGame, free_port

from contracts.actions import MalformedAction, action_from_json
from contracts.v1 import actions_pb2
from contracts.v1 import gateway_pb2 as gw
from runtime.config import Settings

pytestmark = pytest.mark.timeout(600)

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.function_scoped_fixture])
FUZZ_LONG = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                              HealthCheck.function_scoped_fixture])
# What a bad request may be answered with; UNKNOWN, INTERNAL, DEADLINE_EXCEEDED, UNAVAILABLE never.
PROPER = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND, grpc.StatusCode.PERMISSION_DENIED,
          grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ALREADY_EXISTS,
          grpc.StatusCode.RESOURCE_EXHAUSTED}
TYPES = ["bid", "par", "buy_shares", "pass", "lay_tile", "undo", "redo", "message", "end_game", "no_such_type"]
KEYS = ["company", "price", "corporation", "share_price", "shares", "hex", "tile", "rotation", "message",
        "action_id", "entity", "entity_type", "routes"]


@pytest.fixture(scope="module")
def platform(tmp_path_factory):
    p = InProcess(Settings(data_dir=tmp_path_factory.mktemp("fuzz"), port=free_port(), metrics_port=0,
                           submit_timeout_s=20, command_wait_s=1))
    yield p
    p.close()


@pytest.fixture(scope="module")
def game(platform):
    g = LiveGame(platform.address)
    g.step()
    return g


texts = st.one_of(st.text(string.printable, max_size=40), st.sampled_from(["", "x" * 300, "Ann", "CV", "1856", "nope"]))
scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**63, max_value=2**63 - 1), texts)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
                      max_leaves=8)


@st.composite
def actions(draw, game):
    """A legal action now, or another type, with keys changed, added or dropped; as a proto (raw
    extra_json when the JSON does not convert)."""
    try:
        base = game.legal()
    except AssertionError:   # the fuzzing moved the game past its auction: a pass is as good a base
        base = {"type": "pass", "entity": "Ann", "entity_type": "player"}
    action = {**base, "type": draw(st.sampled_from([base["type"], *TYPES]))}
    for key in draw(st.lists(st.sampled_from(KEYS), max_size=3)):
        action[key] = draw(values)
    # (drawn from a fixed list, whatever the action holds: the draws must not depend on the game)
    for key in draw(st.lists(st.sampled_from(["type", *KEYS]), max_size=2)):
        action.pop(key, None)
    try:
        return action_from_json(action)
    except (MalformedAction, TypeError, ValueError, OverflowError):
        raw = actions_pb2.Action(extra_json=draw(st.text(max_size=50)))
        raw.other.type = draw(st.sampled_from(TYPES))
        return raw


@st.composite
def submits(draw, game):
    seats = list(game.tokens.values())
    token = draw(st.sampled_from([*seats, game.operator, "", "not-a-token", "t" * 300]))
    return gw.SubmitActionRequest(
        game_id=draw(st.sampled_from([game.game_id, game.game_id, "", "nope", "g" * 200])),
        token=token, action=draw(actions(game)),
        expected_seq=max(0, game.seq + draw(st.sampled_from([0, 0, 0, -1, 1, 5]))),
        command_id=draw(st.sampled_from(["", "", "fuzz-1", "fuzz-2", "c" * 200])),
    )


def observed(game):
    view = game.gateway.GetGame(gw.GetGameRequest(game_id=game.game_id, without_legal_actions=True))
    return view.seq, view.digest


def answer(call):
    try:
        call()
        return None
    except grpc.RpcError as exc:
        assert exc.code() in PROPER, (exc.code(), exc.details())
        assert exc.details() and "Traceback" not in exc.details() and "<class" not in exc.details()
        return exc.code()


def submit_case(game, data):
    before = observed(game)
    request = data.draw(submits(game))
    refused = answer(lambda: game.gateway.SubmitAction(request, timeout=60))
    after = observed(game)
    if refused is not None:
        assert after == before, (request, refused)
    game.seq = after[0]


def other_calls_case(game, data):
    before = observed(game)
    name = data.draw(texts)
    calls = [
        lambda: game.gateway.GetGame(gw.GetGameRequest(game_id=name)),
        lambda: game.gateway.GetTileLays(gw.GetTileLaysRequest(game_id=game.game_id, entity=name,
                                                               entity_type=data.draw(texts), hex=data.draw(texts))),
        lambda: game.gateway.BestRoutes(gw.BestRoutesRequest(game_id=game.game_id, corporation=name)),
        lambda: game.gateway.GetTitle(gw.GetTitleRequest(title=name)),
        lambda: game.gateway.ImportGame(gw.ImportGameRequest(export_json=orjson.dumps(data.draw(values)))),
        lambda: game.gateway.CreateGame(gw.CreateGameRequest(
            title=data.draw(st.sampled_from(["1856", "1822", name])), game_id=data.draw(st.sampled_from(["", name])),
            seats=[gw.Seat(name=n) for n in data.draw(st.lists(texts, max_size=9))],
            optional_rules=data.draw(st.lists(texts, max_size=2)))),
        lambda: game.gateway.AddGame(gw.AddGameRequest(tournament_id=name, game_id=game.game_id, token=name)),
        lambda: game.gateway.GetStandings(gw.GetStandingsRequest(tournament_id=name)),
    ]
    answer(data.draw(st.sampled_from(calls)))
    assert observed(game) == before


@FUZZ
@given(data=st.data())
def test_random_and_mutated_submissions(game, data):
    submit_case(game, data)


@FUZZ
@given(data=st.data())
def test_random_other_requests(game, data):
    other_calls_case(game, data)


@pytest.mark.slow
@FUZZ_LONG
@given(data=st.data())
def test_random_and_mutated_submissions_long(game, data):
    submit_case(game, data)
