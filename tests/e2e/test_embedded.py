"""Embedded mode (`roundhouse serve`): a recorded game played through the gateway, with a restart.

The engine is the oracle: the platform must reach exactly the state the engine alone reaches on the
same actions (same seq, same digest), and the recorded final result.
"""

import pytest
from rh_support import Proc, check_end, engine_prefix, free_port, gateway_stub, load_fixture

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
