"""Recorded 1822 games through the gateway: rules made automatic since they were played (the
destination token, the double-cash choice, programmed passes) are lined up with their manual entries
by the client replay exactly as by the engine alone (tests/rh_support.py engine_prefix, the oracle)."""

import pytest
from rh_support import InProcess, check_end, engine_prefix, gateway_stub, load_fixture, platform_settings

from runtime.client import Replayer

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(params=["embedded"])
def platform(request, tmp_path):
    p = InProcess(platform_settings(request, tmp_path))
    yield p
    p.close()


@pytest.mark.parametrize("name", [
    "hs_lxemeslq_30797.json",                # undos, already-undone entries, programmed passes
    "discard_trains_after_sr_export.json",   # destination tokens, double-cash choices; stops at a refused route
])
def test_recorded_1822_game_through_the_gateway(platform, name):
    export = load_fixture(name, "1822")
    k, oracle, error = engine_prefix(export)
    replayer = Replayer(gateway_stub(platform.address), export)
    replayer.create()
    replayer.run(k)
    check_end(replayer, export, oracle, error)
