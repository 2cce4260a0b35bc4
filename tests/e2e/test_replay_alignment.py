"""Recorded games through the gateway: rules made automatic since they were played (the destination
token, the double-cash choice, programmed passes) are lined up with their manual entries, and moves
today's rules refuse that the record undoes are skipped, by the client replay exactly as by the
engine alone (tests/rh_support.py engine_prefix, the oracle)."""

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


def test_a_move_refused_today_that_the_record_undoes_is_skipped(platform):
    """hotseat004 with its undone tile lay (entry 41) turned to a rotation today's rules refuse: the
    lay and the route run after it (refused too, the track step still waiting) are skipped, each
    lined up with the undo that removes it, and the game plays on to its recorded result."""
    export = load_fixture("hotseat004.json")
    actions = [dict(a) for a in export["actions"]]
    assert actions[41]["type"] == "lay_tile" and actions[41]["skip"]
    actions[41]["rotation"] = 1
    export = {**export, "actions": actions}
    skipped = []
    k, oracle, error = engine_prefix(export, skipped)
    assert (k, error) == (len(actions), None)
    assert [(s["index"], s["type"], s["undone_at"]) for s in skipped] == [(41, "lay_tile", 44), (42, "run_routes", 43)]
    assert skipped[0]["reason"] == "M6 is not legally rotated for 4"
    replayer = Replayer(gateway_stub(platform.address), export)
    replayer.create()
    replayer.run()
    check_end(replayer, export, oracle, error)
    assert replayer.outcome()["skipped"] == skipped
