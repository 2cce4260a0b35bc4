"""The command line's own errors: one line and exit status 2, never a traceback; a failed client
replay names the partial game it leaves."""

import json
import socket
import subprocess
import sys

import pytest
from rh_support import REPO, InProcess, free_port, load_fixture, platform_settings

pytestmark = pytest.mark.timeout(300)


def roundhouse(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "runtime.cli", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=timeout)


def one_line_error(run, *words):
    assert run.returncode == 2, (run.stdout, run.stderr)
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
    for word in words:
        assert word in lines[0], lines[0]


def test_a_missing_or_non_json_file(tmp_path):
    missing = tmp_path / "nothing.json"
    garbled = tmp_path / "garbled.json"
    garbled.write_text("{not json")
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2]")
    port = str(free_port())   # (nothing listens there: the file is read first)
    for command in (["replay"], ["client", "replay", "--target", f"127.0.0.1:{port}"]):
        one_line_error(roundhouse(*command, str(missing)), "no file", str(missing))
        one_line_error(roundhouse(*command, str(garbled)), "not JSON", "line 1")
        one_line_error(roundhouse(*command, str(listed)), "not an 18xx.games export")
        one_line_error(roundhouse(*command, str(tmp_path)), "folder")


def test_a_port_in_use(tmp_path):
    held = socket.socket()
    held.bind(("127.0.0.1", 0))
    held.listen()
    port = held.getsockname()[1]
    try:
        run = roundhouse("serve", "--port", str(port), "--web-port", "0", "--metrics-port", "0",
                         "--data", str(tmp_path), "--engine-workers", "0")
    finally:
        held.close()
    assert run.returncode == 2, run.stderr[-2000:]
    errors = [line for line in run.stderr.splitlines() if line.startswith("roundhouse serve:")]
    assert errors == [f"roundhouse serve: the gateway gRPC port {port} on 127.0.0.1 is in use"
                      " (choose another, or stop what holds it)"], run.stderr[-2000:]
    assert "Traceback" not in run.stderr


@pytest.fixture(params=["embedded"])
def platform(request, tmp_path):
    p = InProcess(platform_settings(request, tmp_path, submit_timeout_s=20))
    yield p
    p.close()


def test_a_failed_client_replay_names_the_partial_game(platform, tmp_path):
    export = load_fixture("hotseat005")
    bad = 30
    export["actions"] = export["actions"][:bad + 5]
    export["actions"][bad] = {**export["actions"][bad], "type": "lay_tile", "hex": "A1", "tile": "57-0", "rotation": 0}
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(export))
    run = roundhouse("client", "replay", "--target", platform.address, str(path))
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("the partial game ") and f"at seq {bad}" in last and "nothing was removed" in last
    game_id = last.split()[3]
    from contracts.v1 import gateway_pb2 as gw
    from rh_support import gateway_stub

    assert gateway_stub(platform.address).GetGame(gw.GetGameRequest(game_id=game_id, without_legal_actions=True)).seq == bad
