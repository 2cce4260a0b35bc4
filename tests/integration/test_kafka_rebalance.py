"""Consumer-group rebalances under load: instances join and leave (some by SIGKILL) while games are
played, and no process ends by itself, no acknowledged action is lost, every game ends exactly as
the engine alone ends it.

The churn is bounded by the load: it goes on while games are being played, each step waiting on a
condition (the new instance says which partitions it holds, a stopped one has exited, the games
made progress), never on a fixed sleep.
"""

import itertools
import threading

import pytest
from rh_support import assert_applied_exactly_once, check_end, engine_prefix, gateway_stub, load_fixture, wait_until
from test_kafka_services import Cluster

from runtime.client import Replayer

pytestmark = [pytest.mark.kafka, pytest.mark.slow, pytest.mark.timeout(1200)]

# Lines no service may print, however often the group rebalances.
CRASH_SIGNS = ("Traceback", "IllegalStateError", "Unexpected error in coordinator", "User provided listener")


@pytest.fixture
def cluster(kafka_bootstrap):
    c = Cluster(kafka_bootstrap)
    yield c
    c.stop()


class Load:
    """Threads that each play recorded games through the gateway, one after another, until told to
    stop; every game they started is kept for the final check."""

    def __init__(self, address: str, plays: list[tuple[dict, int, object]], threads: int):
        self.address = address
        self.plays = plays
        self.games: list[tuple[Replayer, tuple]] = []
        self.errors: list[BaseException] = []
        self.done = threading.Event()
        self.threads = [threading.Thread(target=self._play, args=(i,), daemon=True) for i in range(threads)]

    def _play(self, i: int) -> None:
        gateway = gateway_stub(self.address)
        for n in itertools.count(i):
            if self.done.is_set():
                return
            play = self.plays[n % len(self.plays)]
            replayer = Replayer(gateway, play[0])
            try:
                replayer.create()
                self.games.append((replayer, play))
                replayer.run(play[1])
            except BaseException as exc:  # reported by the test
                self.errors.append(exc)
                return

    def start(self) -> None:
        for t in self.threads:
            t.start()

    def progress(self) -> int:
        return sum(r.next_index for r, _ in self.games)

    def finish(self) -> None:
        self.done.set()
        for t in self.threads:
            t.join(timeout=600)


def test_rebalances_during_load_lose_nothing(cluster):
    # measure the lag on every loop: a rebalance that lands inside a measurement must be harmless
    cluster.env["ROUNDHOUSE_LAG_INTERVAL_S"] = "0.01"
    plays = []
    for export in (load_fixture("hotseat004.json"), load_fixture("move_up_price_sr1.json")):
        k, oracle, error = engine_prefix(export)
        assert error is None, f"the engine alone refuses action {k}: {error}"
        plays.append((export, k, oracle))
    cluster.start("gateway")
    rounds = ("auction", "stock_round", "operating_round", "scoring")
    instances: dict[str, list[str]] = {name: [] for name in rounds}
    names = itertools.count(1)

    def join(service: str) -> str:
        key = f"{service}-{next(names)}"
        proc = cluster.start(service, key)
        proc.wait_for(r"holds partitions")
        instances[service].append(key)
        return key

    for service in rounds:
        join(service)
    load = Load(cluster.address, plays, threads=3)
    load.start()

    # Each round service and scoring: a second instance joins, then the oldest leaves (alternately
    # killed with SIGKILL and stopped), twice over, so every first instance is replaced.
    removed: dict[str, str] = {}  # instance -> "kill" or "stop"
    ways = itertools.cycle(["kill", "stop"])
    for service in [s for _ in range(2) for s in rounds]:
        for change in ("join", "leave"):
            if change == "join":
                join(service)
            else:
                key = instances[service].pop(0)
                how = next(ways)
                (cluster.procs[key].kill if how == "kill" else cluster.procs[key].stop)()
                removed[key] = how
            before = load.progress()
            # let the games move on before the next change
            assert wait_until(lambda: load.progress() >= before + 3 or load.errors, 180), "the games stopped moving"
            assert not load.errors, load.errors
    load.finish()
    assert not load.errors, load.errors

    # nobody ended by itself: every instance not removed still runs, every stopped one exited cleanly
    for key, proc in cluster.procs.items():
        how = removed.get(key)
        if how is None:
            assert proc.p.poll() is None, f"{key} exited with {proc.p.returncode}:\n" + "\n".join(proc.lines[-40:])
        elif how == "stop":
            assert proc.p.returncode == 0, f"{key} stopped with {proc.p.returncode}:\n" + "\n".join(proc.lines[-40:])
        bad = [line for line in proc.lines if any(sign in line for sign in CRASH_SIGNS)]
        assert not bad, f"{key}: " + "\n".join(bad[:20])

    assert len(load.games) >= 4
    for replayer, (export, k, oracle) in load.games:
        check_end(replayer, export, oracle, None)
        assert_applied_exactly_once(cluster.records(replayer.game_id), oracle.seq)
