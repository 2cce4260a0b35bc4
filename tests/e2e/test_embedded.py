"""Embedded mode (`roundhouse serve`): a recorded game played through the gateway, with a restart.

The engine is the oracle: the platform must reach exactly the state the engine alone reaches on the
same actions (same seq, same digest), and the recorded final result.
"""

import pytest
from rh_support import Proc, check_end, engine_prefix, free_port, gateway_stub, load_fixture, wait_until

from runtime.client import Replayer

pytestmark = pytest.mark.timeout(600)


def serve(data, port) -> Proc:
    proc = Proc(["serve", "--data", str(data), "--port", str(port), "--metrics-port", "0"], name="serve")
    proc.wait_for(r"gateway listening on 127\.0\.0\.1:\d+")
    return proc


def test_recorded_game_survives_a_restart(tmp_path):
    export = load_fixture("hotseat004.json")   # auction, stock and operating rounds, undo entries
    k, oracle, error = engine_prefix(export)
    assert error is None, f"the engine alone refuses action {k}: {error}"
    port = free_port()
    proc = serve(tmp_path / "data", port)
    try:
        replayer = Replayer(gateway_stub(f"127.0.0.1:{port}"), export)
        replayer.create()
        half = k // 2
        replayer.run(half)
        proc.kill()  # kill -9 mid-game
        proc = serve(tmp_path / "data", port)
        replayer.gateway = gateway_stub(f"127.0.0.1:{port}")
        assert replayer.view().seq == half
        replayer.run(k)
        check_end(replayer, export, oracle, error)
        # a clean restart (SIGTERM: final snapshots) gives the same game again
        proc.stop()
        proc = serve(tmp_path / "data", port)
        replayer.gateway = gateway_stub(f"127.0.0.1:{port}")
        again = replayer.view()
        assert (again.seq, again.digest) == (oracle.seq, oracle.digest())
    finally:
        proc.stop()


def games_held(metrics_port: int) -> tuple[float, float]:
    """(resident, evicted) games over every service of the process, from its /metrics."""
    import re
    import urllib.request

    text = urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10).read().decode()
    held = lambda kind: sum(float(v) for v in re.findall(rf"^roundhouse_games_{kind}\{{[^}}]*\}} (\S+)$", text, re.M))
    return held("resident"), held("evicted")


def test_evicted_game_survives_kill_and_restart(tmp_path):
    """Every service evicts the idle game (tiny idle time), the process is killed -9, and the
    restarted platform holds the game as a summary only, then plays it on to the recorded result."""
    export = load_fixture("hotseat004.json")
    k, oracle, error = engine_prefix(export)
    assert error is None, f"the engine alone refuses action {k}: {error}"
    port, metrics_port = free_port(), free_port()
    env = {"ROUNDHOUSE_EVICT_IDLE_S": "0.5", "ROUNDHOUSE_CHECKPOINT_INTERVAL_S": "0.2"}

    def start() -> Proc:
        proc = Proc(["serve", "--data", str(tmp_path / "data"), "--port", str(port),
                     "--metrics-port", str(metrics_port)], env, name="serve")
        proc.wait_for(r"gateway listening on 127\.0\.0\.1:\d+")
        return proc

    proc = start()
    try:
        replayer = Replayer(gateway_stub(f"127.0.0.1:{port}"), export)
        replayer.create()
        replayer.run(k // 2)
        before = replayer.view()
        evicted = (0, 5)   # every service knows the game and holds only its summary
        assert wait_until(lambda: games_held(metrics_port) == evicted, 30), games_held(metrics_port)
        proc.kill()
        proc = start()
        assert wait_until(lambda: games_held(metrics_port) == evicted, 30), games_held(metrics_port)
        replayer.gateway = gateway_stub(f"127.0.0.1:{port}")
        after = replayer.view()
        assert (after.seq, after.digest) == (before.seq, before.digest)
        replayer.run(k)
        check_end(replayer, export, oracle, error)
    finally:
        proc.stop()
