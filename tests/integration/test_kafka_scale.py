"""Two instances of every service and two gateways over Kafka share the load; one of each is killed
(SIGKILL) in the middle of it. Every action a gateway acknowledged is still in the log, every game
goes on to exactly the end the engine alone reaches, and no process ends by itself: the killed ones,
started again, stay up.

The players are clients that retry a call the killed gateway never answered on the other gateway,
with the same command id, as a client should: it is applied once.
"""

import itertools
import threading
import time
import uuid

import grpc
import pytest
from rh_support import assert_applied_exactly_once, engine_prefix, gateway_stub, wait_until
from test_kafka_rebalance import CRASH_SIGNS
from test_kafka_services import Cluster

from contracts.actions import action_from_json
from contracts.v1 import gateway_pb2 as gw
from contracts.v1 import gateway_pb2_grpc as gw_grpc
from runtime.bench import build_script
from tools import evidence

pytestmark = [pytest.mark.kafka, pytest.mark.slow, pytest.mark.timeout(1800)]

SERVICES = ("gateway", "auction", "stock_round", "operating_round", "scoring")
RETRY = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED)


@pytest.fixture
def cluster(kafka_bootstrap):
    c = Cluster(kafka_bootstrap)
    c.env["ROUNDHOUSE_SUBMIT_TIMEOUT_S"] = "20"
    yield c
    c.stop()


class Player(threading.Thread):
    """Plays one copy of a recorded game, moving to the other gateway when one does not answer."""

    def __init__(self, addresses: list[str], script, first: int):
        super().__init__(daemon=True)
        self.addresses = addresses
        self.script = script
        self.which = first
        self.acknowledged: list[tuple[int, str]] = []   # (seq, command id) the gateway confirmed
        self.retried = 0
        self.error: BaseException | None = None
        self.game_id = ""
        # One channel per gateway, made without waiting for it to be ready: a call to the killed
        # gateway then fails at once with UNAVAILABLE and is retried on the other one.
        self.stubs = [gw_grpc.GatewayStub(grpc.insecure_channel(a)) for a in addresses]

    def stub(self):
        return self.stubs[self.which % len(self.stubs)]

    def call(self, method: str, request):
        for attempt in range(60):
            try:
                return getattr(self.stub(), method)(request, timeout=30)
            except grpc.RpcError as exc:
                if exc.code() not in RETRY:
                    raise
                self.which += 1   # the other gateway
                self.retried += 1
                time.sleep(0.5)
        raise AssertionError(f"{method} got no answer from any gateway")

    def run(self) -> None:
        try:
            request = self.script.create_request()
            request.game_id = request.game_id or f"scale-{uuid.uuid4().hex[:10]}"
            created = self.call("CreateGame", request)
            self.game_id = created.game_id
            tokens = {t.player_id: t.token for t in created.seats} | {"operator": created.operator_token}
            for move, who, expected in self.script.moves:
                cid = uuid.uuid4().hex
                resp = self.call("SubmitAction", gw.SubmitActionRequest(
                    game_id=self.game_id, token=tokens[who], action=action_from_json(move),
                    expected_seq=expected, command_id=cid))
                assert resp.seq == expected + 1, (resp.seq, expected)
                self.acknowledged.append((resp.seq, cid))
        except BaseException as exc:   # reported by the test
            self.error = exc


def test_two_of_everything_survive_one_of_each_killed(cluster):
    names = ("hotseat004", "move_up_price_sr1")
    scripts = [build_script(evidence.game_path("1856", n)) for n in names]
    oracles = {}
    for n in names:
        from rh_support import load_fixture

        k, oracle, error = engine_prefix(load_fixture(f"{n}.json"))
        assert error is None
        oracles[n] = oracle
    for name in SERVICES:
        for side in ("a", "b"):
            cluster.start(name, f"{name}-{side}")

    def shared(name):
        a, b = cluster.holds(f"{name}-a"), cluster.holds(f"{name}-b")
        return a and b and not (a & b) and (a | b) == set(range(cluster.partitions))

    assert wait_until(lambda: all(shared(n) for n in SERVICES[1:]), 120), {k: cluster.holds(k) for k in cluster.procs}
    addresses = [cluster.addresses["gateway-a"], cluster.addresses["gateway-b"]]
    players = [Player(addresses, scripts[i % 2], i) for i in range(6)]
    for p in players:
        p.start()
    progress = lambda: sum(len(p.acknowledged) for p in players)  # noqa: E731
    assert wait_until(lambda: progress() >= 60, 600), [p.error for p in players]

    for name in SERVICES:   # one of each, at once, in the middle of the load
        cluster.procs[f"{name}-a"].kill()
    before = progress()
    assert wait_until(lambda: progress() >= before + 30 or all(not p.is_alive() for p in players), 600), \
        [p.error for p in players]
    for name in SERVICES:   # back again: they must come up and stay up
        cluster.start(name, f"{name}-a2")
    for p in players:
        p.join(900)
    assert not [p.error for p in players if p.error], [p.error for p in players]
    assert any(p.retried for p in players), "no player met the killed gateway"

    for p, script in zip(players, itertools.cycle(scripts)):
        oracle = oracles[script.name.split("/")[1]]
        view = gateway_stub(addresses[1]).GetGame(gw.GetGameRequest(game_id=p.game_id))
        assert (view.seq, view.digest) == (oracle.seq, oracle.digest()), p.game_id
        envs = cluster.records(p.game_id)
        assert_applied_exactly_once(envs, oracle.seq)
        applied = {e.seq: e.command_id for e in envs if e.WhichOneof("body") == "action_applied"}
        assert all(applied.get(seq) == cid for seq, cid in p.acknowledged), "an acknowledged action is missing"

    for key, proc in cluster.procs.items():
        if key.endswith("-a"):
            continue   # killed
        assert proc.p.poll() is None, f"{key} exited with {proc.p.returncode}:\n" + "\n".join(proc.lines[-40:])
        bad = [line for line in proc.lines if any(sign in line for sign in CRASH_SIGNS)]
        assert not bad, f"{key}: " + "\n".join(bad[:20])
