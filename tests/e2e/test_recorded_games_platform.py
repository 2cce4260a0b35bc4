"""Every recorded game (evidence/fixtures and fixtures-new, every title) played move by move through
the platform, as `roundhouse client replay` plays it (SubmitAction with the acting seat's token, on
the embedded log, every round service with engine processes of its own, so that the game changes
hands through an engine state at every round change): the platform reaches exactly the game the engine alone reaches on the same moves
(tests/rh_support.py engine_prefix, the oracle: same seq, same digest), so the recorded result when
the engine reaches it (tests/conformance holds the engine to that), and where today's rules stop a
game it refuses that same move with the engine's reason, changing nothing. Slow: thousands of
SubmitActions per game."""

import pytest
from rh_support import InProcess, check_end, engine_loads, engine_prefix, gateway_stub, platform_settings, round_changes

from runtime.client import Replayer
from tools import evidence

TITLES = ("1822", "1847_ae", "1856", "1858", "1858_india")
GAMES = [pytest.param(slug, name, id=f"{slug}/{name}")
         for slug in TITLES for folder in evidence.GAME_FOLDERS for name in evidence.game_names(slug, folder)]

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


@pytest.fixture(params=["embedded"])
def platform(request, tmp_path):
    p = InProcess(platform_settings(request, tmp_path, shared_engines=False, engine_workers=1, submit_timeout_s=120))
    yield p
    p.close()


def test_every_title_has_recorded_games():
    assert {p.values[0] for p in GAMES} == set(TITLES)


@pytest.mark.parametrize(("slug", "name"), GAMES)
def test_recorded_game_through_the_platform_as_the_engine_plays_it(platform, slug, name):
    export = evidence.load_game(slug, name)
    k, oracle, error = engine_prefix(export)
    replayer = Replayer(gateway_stub(platform.address), export)
    replayer.create()
    from_state = engine_loads("state")
    replayer.run(k)
    check_end(replayer, export, oracle, error)
    changes = round_changes(export, k)   # each a handover through an engine state
    assert engine_loads("state") - from_state >= changes * 0.5, (engine_loads("state") - from_state, changes)
