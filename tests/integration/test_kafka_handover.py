"""Over Kafka, every service its own process: a game changes hands at a round change through the
engine state its last owner writes and the decided records after it. Recorded games of every title
played so end exactly where the engine alone ends, also when the new owner's process is killed
(SIGKILL) just as the game was handed to it, and started again.

(tests/e2e/test_handover.py hands over at every round change of every recorded game in one process.)
"""

import uuid

import pytest
from rh_support import assert_applied_exactly_once, engine_prefix, gateway_stub, load_fixture
from test_kafka_services import Cluster

from contracts.actions import action_from_json
from contracts.v1 import gateway_pb2 as gw
from runtime.bench import build_script
from tools import evidence

pytestmark = [pytest.mark.kafka, pytest.mark.slow, pytest.mark.timeout(2400)]

# one recorded game of each title (the shorter ones)
GAMES = [("1856", "hotseat004"), ("1822", "hs_lxemeslq_30797"), ("1847_ae", "1847AE_game_end_bank"),
         ("1858", "1858-quick-start-a"), ("1858_india", "hotseat_qs_b")]
KILLS_PER_GAME = 2


@pytest.fixture
def cluster(kafka_bootstrap):
    c = Cluster(kafka_bootstrap, partitions=4)
    c.env["ROUNDHOUSE_SUBMIT_TIMEOUT_S"] = "120"
    yield c
    c.stop()


@pytest.mark.parametrize("title,name", GAMES, ids=[f"{t}/{n}" for t, n in GAMES])
def test_new_owner_killed_at_the_handover(cluster, title, name):
    path = evidence.game_path(title, name)
    export = load_fixture(name, title)
    k, oracle, error = engine_prefix(export)
    script = build_script(path)
    live = {}   # service -> the key of its running instance
    for service in ("gateway", "auction", "stock_round", "operating_round", "scoring"):
        cluster.start(service)
        live[service] = service
    stub = gateway_stub(cluster.address)
    request = script.create_request()
    request.game_id = request.game_id or f"handover-{uuid.uuid4().hex[:10]}"
    created = stub.CreateGame(request)
    tokens = {t.player_id: t.token for t in created.seats} | {"operator": created.operator_token}
    kind = stub.GetGame(gw.GetGameRequest(game_id=created.game_id, without_legal_actions=True)).round_kind
    kills = 0
    for move, who, expected in script.moves:
        resp = stub.SubmitAction(gw.SubmitActionRequest(
            game_id=created.game_id, token=tokens[who], action=action_from_json(move), expected_seq=expected,
            command_id=uuid.uuid4().hex), timeout=300)
        assert resp.seq == expected + 1
        if resp.round_kind != kind:
            kind = resp.round_kind
            if kills < KILLS_PER_GAME and not resp.finished:
                # the game was just handed to `kind`'s service: it dies, and is started again
                killed = cluster.procs[live[kind]]
                killed.kill()
                assert killed.p.returncode == -9
                live[kind] = f"{kind}-{kills}"
                cluster.start(kind, live[kind])
                kills += 1
    assert kills == KILLS_PER_GAME
    view = stub.GetGame(gw.GetGameRequest(game_id=created.game_id))
    assert (view.seq, view.digest) == (oracle.seq, oracle.digest())
    if error is None:
        assert view.finished and dict(view.result) == {str(p): s for p, s in export["result"].items()}
    assert_applied_exactly_once(cluster.records(created.game_id), oracle.seq)
