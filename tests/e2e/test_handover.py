"""A game changes hands at every round change: the owner of the round that ends lets its engine go
(writing its engine state), and the owner of the next round takes the game over from that state
plus the decided records after it. Here the new owner's engine process is killed during each
handover, on a recorded game of every title: the game still ends exactly where the same game played
in one engine ends (same seq, same digest, the recorded result).

Every round service runs with engine processes of its own (shared_engines off), so no engine stays
in place: every round change goes through an engine state, as between separate processes.
tests/e2e/test_recorded_games_platform.py plays every recorded game so, without the kills;
tests/integration/test_kafka_handover.py kills whole service processes over Kafka.
"""

import os
import signal

import pytest
from rh_support import (InProcess, check_end, engine_loads, engine_prefix, free_port, gateway_stub,
                        round_changes)

from runtime.client import Replayer
from runtime.config import Settings
from tools import evidence

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


def smallest_game(slug: str) -> str:
    """The recorded game of a title with the fewest actions (the kills are per round change)."""
    names = evidence.game_names(slug)
    return min(names, key=lambda n: len(evidence.load_game(slug, n)["actions"]))


GAMES = [pytest.param(slug, smallest_game(slug), id=slug) for slug in evidence.titles()]


@pytest.fixture
def platform(tmp_path):
    settings = Settings(data_dir=tmp_path, port=free_port(), metrics_port=0, shared_engines=False,
                        engine_workers=1, submit_timeout_s=120)
    p = InProcess(settings)
    yield p
    p.close()


def owner_pids(platform, kind: str) -> list[int]:
    service = next(s for s in platform.running.services if s.name == kind)
    return platform.inspect(lambda: service.hooks.host.pids())


@pytest.mark.parametrize(("slug", "name"), GAMES)
def test_new_owner_killed_at_every_handover(platform, slug, name):
    export = evidence.load_game(slug, name)
    k, oracle, error = engine_prefix(export)
    replayer = Replayer(gateway_stub(platform.address), export)
    replayer.create()
    from_state = engine_loads("state")
    kind = replayer.view().round_kind
    killed = 0
    while replayer.next_index < k:
        resp = replayer.step()
        if resp is not None and resp.round_kind != kind:
            kind = resp.round_kind
            if not resp.finished:
                # the new owner is taking the game over right now: its engine process dies
                for pid in owner_pids(platform, kind):
                    os.kill(pid, signal.SIGKILL)
                killed += 1
    check_end(replayer, export, oracle, error)
    changes = round_changes(export, k)
    assert killed >= changes * 0.5, (killed, changes)
    assert engine_loads("state") - from_state >= changes * 0.5, (engine_loads("state") - from_state, changes)
