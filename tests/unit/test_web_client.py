"""The web client's own code, outside a browser: it typechecks, and its action conversion (the JSON
a player's click builds -> the binary Action it submits) is the contract's, for every action of
every recorded game of every title."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from rh_support import REPO, all_fixture_files

from tools import evidence

from contracts.actions import action_to_json
from contracts.v1 import actions_pb2

WEB = REPO / "web"


@pytest.fixture(scope="module")
def npm() -> str:
    path = shutil.which("npm")
    if not path or not (WEB / "node_modules" / ".bin" / "esbuild").exists():
        message = "the web toolchain is not installed (make web)"
        if os.environ.get("ROUNDHOUSE_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return path


def test_typescript_typechecks(npm):
    done = subprocess.run([npm, "run", "--silent", "typecheck"], cwd=WEB, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_client_action_conversion_is_the_contracts(npm):
    files = all_fixture_files()
    assert files, "no recorded games in evidence/"
    built = subprocess.run([npm, "run", "--silent", "build-tests"], cwd=WEB, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    actions = []
    for path in files:
        for a in evidence.read_json(path)["actions"]:
            actions.append(a)
            actions.extend(a.get("auto_actions") or [])
    done = subprocess.run(["node", str(WEB / "dist-tests" / "convert.mjs")], input=json.dumps(actions),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert len(out) == len(actions) > 1000
    for action, got in zip(actions, out):
        msg = actions_pb2.Action()
        msg.ParseFromString(__import__("base64").b64decode(got["bin"]))
        assert action_to_json(msg) == action      # what the browser sends is what was meant
        assert got["back"] == action              # and it reads the engine's actions back exactly
