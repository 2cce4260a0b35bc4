"""`roundhouse replay FILE --json`: the engine alone on a recorded game, through the CLI."""

import json
import re
import subprocess
import sys

import pytest
from rh_support import REPO, load_fixture

FIXTURE = "hotseat005"   # ends by bankruptcy


def run_replay(path):
    return subprocess.run([sys.executable, "-m", "runtime.cli", "replay", str(path), "--json"],
                          capture_output=True, text=True, cwd=REPO, timeout=300)


@pytest.fixture
def export_file(tmp_path):
    """The recorded game as the export file a user would give the command."""
    path = tmp_path / f"{FIXTURE}.json"
    path.write_text(json.dumps(load_fixture(FIXTURE)))
    return path


def test_replay_prints_the_recorded_outcome(export_file):
    run = run_replay(export_file)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    export = json.loads(export_file.read_text())
    assert out["title"] == "1856" and out["finished"] is True
    assert out["actions"] == len(export["actions"])
    assert out["result"] == {str(k): v for k, v in export["result"].items()}
    assert out["game_end_reason"] == export["game_end_reason"]


def test_replay_names_the_action_the_engine_refuses(tmp_path):
    export = load_fixture(FIXTURE)
    bad = 30
    export["actions"][bad] = {**export["actions"][bad], "type": "lay_tile", "hex": "A1", "tile": "57-0",
                              "rotation": 0}
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(export))
    run = run_replay(path)
    assert run.returncode == 1
    m = re.search(r"action index (\d+) \(id (\d+)\): .+", run.stderr)
    assert m, run.stderr
    assert int(m.group(1)) == bad and int(m.group(2)) == export["actions"][bad]["id"]
