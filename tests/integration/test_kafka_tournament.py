"""Hosted-tournament notices across processes on Kafka: a scoring instance is killed (SIGKILL) while
a "your turn" webhook is being retried, and the instance that takes its partition over sends it.

The receiver refuses (503) every attempt until the scoring instance holding the table's partition is
killed, then accepts: only an instance that took the partition over can have sent the notice it got,
and the TurnNotified record on the game's log names that instance. A move afterwards begins the next
seat's turn, whose notice the survivor sends too. (The restart in the middle of a tournament on Kafka
is tests/e2e/test_hosted_tournament.py, test_two_rounds_of_seven_over_kafka_restarted_mid_game.)
"""

import time

import grpc
import pytest
from rh_support import HookReceiver, RandomTable, host_table, wait_until
from test_kafka_services import Cluster

from bus.base import partition_for
from contracts.v1 import gateway_pb2 as gw
from contracts.v1 import gateway_pb2_grpc, tournament_api_pb2_grpc
from tournament.notify import verify

pytestmark = [pytest.mark.kafka, pytest.mark.timeout(600)]

WEBHOOK_KEY = "the webhook key of this test platform"


@pytest.fixture
def cluster(kafka_bootstrap):
    c = Cluster(kafka_bootstrap)
    c.env["ROUNDHOUSE_WEBHOOK_KEY"] = WEBHOOK_KEY
    c.env["ROUNDHOUSE_WEBHOOK_RETRY_FIRST_S"] = "0.2"
    yield c
    c.stop()


class Stubs:
    def __init__(self, address: str):
        channel = grpc.insecure_channel(address)
        grpc.channel_ready_future(channel).result(timeout=30)
        self.g = gateway_pb2_grpc.GatewayStub(channel)
        self.t = tournament_api_pb2_grpc.TournamentsStub(channel)


def ended(cluster: Cluster, game_id: str) -> dict[str, tuple[int, str]]:
    """delivery id -> (status, producer) of each TurnNotified of the game."""
    return {e.turn_notified.delivery: (e.turn_notified.status, e.producer)
            for e in cluster.records(game_id) if e.WhichOneof("body") == "turn_notified"}


def test_a_notice_pending_when_its_scoring_instance_is_killed_is_sent_by_its_successor(cluster):
    hooks = HookReceiver()
    hooks.refusing.set()
    try:
        for name in ("gateway", "auction", "stock_round", "operating_round"):
            cluster.start(name)
        for key in ("scoring-1", "scoring-2"):
            cluster.start("scoring", key)

        def shared() -> bool:
            one, two = cluster.holds("scoring-1") or set(), cluster.holds("scoring-2") or set()
            return one | two == set(range(cluster.partitions)) and not one & two and one and two

        assert wait_until(shared, 60), "the two scoring instances share the partitions"
        p = Stubs(cluster.address)
        game, tokens, secrets = host_table(p.t, hooks.url, timed=False)
        first = p.g.GetGame(gw.GetGameRequest(game_id=game, without_legal_actions=True)).acting_players[0]
        delivery = f"{game}:0:{first}"
        part = partition_for(game, cluster.partitions)
        holder = next(key for key in ("scoring-1", "scoring-2") if part in cluster.holds(key))
        survivor = "scoring-2" if holder == "scoring-1" else "scoring-1"
        assert wait_until(lambda: hooks.tried(delivery) >= 2, 60), "the holder is retrying the notice"
        cluster.procs[holder].kill()
        hooks.refusing.clear()
        assert wait_until(lambda: hooks.delivered(delivery), 120), "the successor sends the pending notice"
        body, signature = hooks.delivered(delivery)[0]
        payload = verify(secrets[first], body, signature, int(time.time()))
        assert (payload["player_id"], payload["seq"], payload["remaining_ms"]) == (first, 0, None)   # no clocks
        assert wait_until(lambda: ended(cluster, game).get(delivery) == (200, f"scoring/{survivor}"), 60)
        assert part in cluster.holds(survivor)

        # the next seat's turn: told by the survivor, once
        table = RandomTable(p, game, tokens, seed=5)
        table.step(p)
        acting = set(p.g.GetGame(gw.GetGameRequest(game_id=game, without_legal_actions=True)).acting_players)
        begun = [f"{game}:{table.local.seq}:{seat}" for seat in acting - {first}]
        assert begun, "the move passed the turn"
        assert wait_until(lambda: all(ended(cluster, game).get(d) == (200, f"scoring/{survivor}") for d in begun), 60)
        assert all(len(hooks.delivered(d)) == 1 for d in begun)
    finally:
        hooks.close()
