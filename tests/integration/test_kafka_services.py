"""The services as separate processes over the real Kafka broker.

The engine is the oracle (see tests/e2e/test_embedded.py): the platform must reach the engine's own
state on the same actions, and the recorded result once the engine plays the whole game.
"""

import asyncio
import re
import threading
import time
import uuid

import grpc
import pytest
from rh_support import (
    Proc, assert_applied_exactly_once, check_end, engine_prefix, free_port, gateway_stub, load_fixture,
    wait_until,
)

from bus.kafka import KafkaLog
from contracts.envelopes import MalformedEnvelope, parse
from runtime.aligner import RECORDED_ONLY
from runtime.client import Replayer

pytestmark = [pytest.mark.kafka, pytest.mark.slow, pytest.mark.timeout(900)]


class Cluster:
    def __init__(self, bootstrap: str, partitions: int = 12):
        self.bootstrap = bootstrap
        self.partitions = partitions
        self.prefix = f"t{uuid.uuid4().hex[:8]}."
        self.env = {
            "ROUNDHOUSE_TOPIC_PREFIX": self.prefix,
            "ROUNDHOUSE_PARTITIONS": str(partitions),
            "ROUNDHOUSE_SNAPSHOT_EVERY": "3",
            "ROUNDHOUSE_ENGINE_WORKERS": "1",
            "ROUNDHOUSE_SNAPSHOT_IDLE_S": "1",
            "ROUNDHOUSE_CHECKPOINT_INTERVAL_S": "0.5",
            "ROUNDHOUSE_SUBMIT_TIMEOUT_S": "90",
        }
        self.procs: dict[str, Proc] = {}
        self.address = ""
        self.addresses: dict[str, str] = {}   # gateway instance -> its address

    def start(self, name: str, key: str | None = None) -> Proc:
        key = key or name
        args = ["service", name, "--kafka", self.bootstrap, "--metrics-port", "0", "--instance", key]
        if name == "gateway":
            port = free_port()
            args += ["--port", str(port)]
            self.address = f"127.0.0.1:{port}"
            self.addresses[key] = self.address
        else:
            args += ["--health-port", "0"]
        proc = Proc(args, self.env, name=key)
        proc.wait_for(r"gateway listening|running on")
        self.procs[key] = proc
        return proc

    def holds(self, key: str) -> set[int] | None:
        """The partitions the instance said it holds last."""
        held = None
        for line in self.procs[key].lines:
            if m := re.search(r"holds partitions \[([\d, ]*)\]", line):
                held = {int(x) for x in m.group(1).split(",") if x.strip()}
            elif m := re.search(r"released partitions \[([\d, ]*)\]", line):
                held = (held or set()) - {int(x) for x in m.group(1).split(",") if x.strip()}
        return held

    def records(self, game_id: str) -> list:
        """Every envelope of one game in the log, in order."""
        async def read():
            log = KafkaLog(self.bootstrap, partitions=self.partitions, topics=[self.prefix + "roundhouse.games"])
            await log.start()
            from bus.base import partition_for

            recs = await log.read_partition(self.prefix + "roundhouse.games", partition_for(game_id, self.partitions))
            await log.stop()
            return recs

        out = []
        for r in asyncio.run(read()):
            try:
                env = parse(r.value, r.key)
            except MalformedEnvelope:
                continue
            if env.game_id == game_id:
                out.append(env)
        return out

    def stop(self) -> None:
        for key, proc in self.procs.items():
            proc.stop()
            # shown by pytest when the test failed: what each service said last
            print(f"--- {key} (exit {proc.p.returncode}) ---", *proc.lines[-30:], sep="\n")


@pytest.fixture
def cluster(kafka_bootstrap):
    c = Cluster(kafka_bootstrap)
    yield c
    c.stop()


def round_kinds(export: dict, k: int) -> list[str]:
    """round kind after each of the first k actions (index 0: the new game)."""
    _, game, _ = engine_prefix({**export, "actions": []})
    kinds = [game.round_kind]
    for recorded in export["actions"][:k]:
        game.process({key: v for key, v in recorded.items() if key not in RECORDED_ONLY})
        kinds.append(game.round_kind)
    return kinds


def test_owner_killed_mid_round_loses_nothing(cluster):
    export = load_fixture("hotseat004.json")
    k, oracle, error = engine_prefix(export)
    assert error is None, f"the engine alone refuses action {k}: {error}"
    kinds = round_kinds(export, k)
    # a point inside an operating round: the owner of action m+1 owns m+2 as well
    inside = [m for m in range(1, k - 1) if kinds[m] == kinds[m + 1] == kinds[m - 1] == "operating_round"]
    m = inside[len(inside) // 2]
    owner = kinds[m]
    for name in ("gateway", "auction", "stock_round", "operating_round", "scoring"):
        cluster.start(name)
    replayer = Replayer(gateway_stub(cluster.address), export)
    replayer.create()
    replayer.run(m)

    cluster.procs[owner].kill()  # kill -9 the owning service mid-round
    outcome: dict = {}
    submit = threading.Thread(target=lambda: outcome.setdefault("resp", replayer.step(timeout=180)))
    submit.start()  # accepted into the log while the owner is down
    time.sleep(2)
    assert submit.is_alive(), "an action was decided while its owner was down"
    cluster.start(owner)
    submit.join(180)
    assert outcome["resp"].seq == m + 1

    # the gateway too: a clean restart rebuilds its read model from the log
    cluster.procs["gateway"].stop()
    cluster.start("gateway")
    replayer.gateway = gateway_stub(cluster.address)
    assert replayer.view().seq == m + 1
    replayer.run(k)
    check_end(replayer, export, oracle, error)
    envs = cluster.records(replayer.game_id)
    assert_applied_exactly_once(envs, oracle.seq)
    scores = [e.seq for e in envs if e.WhichOneof("body") == "score_updated"]
    assert wait_until(lambda: max([e.seq for e in cluster.records(replayer.game_id) if e.WhichOneof("body") == "score_updated"], default=0) == oracle.seq, 30), scores


def check_health_and_metrics(proc: Proc) -> None:
    """Every instance serves gRPC health (SERVING once caught up) and Prometheus /metrics."""
    import urllib.request

    from grpc_health.v1 import health_pb2, health_pb2_grpc

    port = proc.wait_for(r"gRPC health on 127\.0\.0\.1:(\d+)").group(1)
    health = health_pb2_grpc.HealthStub(grpc.insecure_channel(f"127.0.0.1:{port}"))
    serving = health_pb2.HealthCheckResponse.SERVING
    assert wait_until(lambda: health.Check(health_pb2.HealthCheckRequest(service="")).status == serving, 30)
    metrics_port = proc.wait_for(r"metrics on http://127\.0\.0\.1:(\d+)/metrics").group(1)
    scrape = lambda: urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10).read().decode()
    # the lag is measured every few seconds once partitions are held
    assert wait_until(lambda: "roundhouse_consumer_lag{" in scrape(), 20)
    assert "roundhouse_replay_seconds_count" in scrape()


def test_two_instances_split_the_partitions(cluster):
    export = load_fixture("move_up_price_sr1.json")   # six players; auction and stock round, undo/redo
    k, oracle, error = engine_prefix(export)
    assert error is None, f"the engine alone refuses action {k}: {error}"
    for name in ("gateway", "scoring", "operating_round"):
        cluster.start(name)
    for name in ("auction", "stock_round"):
        cluster.start(name, f"{name}-a")
        cluster.start(name, f"{name}-b")

    def split(name):
        a, b = cluster.holds(f"{name}-a"), cluster.holds(f"{name}-b")
        return a and b and not (a & b) and (a | b) == set(range(cluster.partitions))

    assert wait_until(lambda: split("auction") and split("stock_round"), 60), {
        key: cluster.holds(key) for key in cluster.procs
    }
    check_health_and_metrics(cluster.procs["stock_round-b"])
    from bus.base import partition_for

    # Game ids are random, so which instance owns a new game is a coin toss: create games until
    # both instances own one (a bounded number of tosses: 2**-31 to fail by chance), and play
    # the first game of each owner.
    games_of: dict[str, Replayer] = {}
    for _ in range(32):
        replayer = Replayer(gateway_stub(cluster.address), export)
        replayer.create()
        part = partition_for(replayer.game_id, cluster.partitions)
        for key in ("auction-a", "auction-b"):
            if part in cluster.holds(key):
                games_of.setdefault(key, replayer)
        if len(games_of) == 2:
            break
    assert set(games_of) == {"auction-a", "auction-b"}
    games = list(games_of.values())
    for replayer in games:
        replayer.run(k)
        check_end(replayer, export, oracle, error)
        assert_applied_exactly_once(cluster.records(replayer.game_id), oracle.seq)
    producers = {
        e.producer for r in games for e in cluster.records(r.game_id) if e.WhichOneof("body") == "action_applied"
    }
    assert {"auction/auction-a", "auction/auction-b"} <= producers
