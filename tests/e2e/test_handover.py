"""A game changes hands at every round change: the owner of the round that ends lets its engine go
(writing its engine state), and the owner of the next round takes the game over from that state
plus the decided records after it. Played so, a recorded game of every title ends exactly where the
same game played in one engine ends (same seq, same digest), also when the new owner's engine
process is killed during each handover.

Here every round service runs with engine processes of its own (shared_engines off), so no engine
stays in place: every round change goes through an engine state, as between separate processes.
tests/integration/test_kafka_handover.py kills whole service processes over Kafka.
"""

import os
import signal

import pytest
from prometheus_client import REGISTRY
import grpc
from rh_support import InProcess, engine_prefix, free_port, gateway_stub

from runtime.aligner import RECORDED_ONLY
from runtime.client import ClientError, Replayer
from runtime.config import Settings
from tools import evidence

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

# 33845 takes minutes through the platform (93 undos, each a rebuild); its title is played by the others
HEAVY = {"33845"}
GAMES = [pytest.param(slug, name, id=f"{slug}/{name}")
         for slug in evidence.titles() for folder in evidence.GAME_FOLDERS
         for name in evidence.game_names(slug, folder) if name not in HEAVY]


def loads(how: str) -> float:
    return sum(REGISTRY.get_sample_value("roundhouse_engine_loads_total", {"service": s, "how": how}) or 0
               for s in ("auction", "stock_round", "operating_round"))


def round_changes(export: dict, k: int) -> int:
    """How often the round kind changes in the first k recorded entries, played in one engine."""
    _, game, _ = engine_prefix({**export, "actions": []})
    changes, kind = 0, game.round_kind
    for recorded in export["actions"][:k]:
        try:
            game.process({key: v for key, v in recorded.items() if key not in RECORDED_ONLY})
        except Exception:
            break
        changes += game.round_kind != kind
        kind = game.round_kind
    return changes


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


@pytest.mark.parametrize("kill", [False, True], ids=["handover", "owner-killed"])
@pytest.mark.parametrize(("slug", "name"), GAMES)
def test_handed_over_game_equals_one_engine(platform, slug, name, kill):
    export = evidence.load_game(slug, name)
    k, oracle, error = engine_prefix(export)
    replayer = Replayer(gateway_stub(platform.address), export)
    replayer.create()
    from_state = loads("state")
    kind = replayer.view().round_kind
    killed = 0
    while replayer.next_index < k:
        resp = replayer.step()
        if resp is not None and resp.round_kind != kind:
            kind = resp.round_kind
            if kill and not resp.finished:
                # the new owner is taking the game over right now: its engine process dies
                for pid in owner_pids(platform, kind):
                    os.kill(pid, signal.SIGKILL)
                killed += 1
    if error is not None:
        # where today's rules stop the record: a refusal, or a move applied whose automatic moves
        # differ from the record's (the engine alone applied it too)
        with pytest.raises((grpc.RpcError, ClientError)):
            replayer.step()
    view = replayer.view()
    assert (view.seq, view.digest) == (oracle.seq, oracle.digest())
    if error is None:
        assert view.finished and dict(view.result) == {str(p): s for p, s in export["result"].items()}
    changes = round_changes(export, k)
    assert loads("state") - from_state >= changes * 0.5, (loads("state") - from_state, changes)
    if kill:
        assert killed >= changes * 0.5
