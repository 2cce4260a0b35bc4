"""A digest hashes its fingerprint as ``json.dumps(..., sort_keys=True, separators=(",", ":"),
default=str)`` wrote it, whichever writer does the work (``engine.api.fingerprint_text``): the digests
in every log made so far stay the digests of their positions."""

import json

import pytest

import engine
from engine.actions import live_entries
from engine.api import RECORD_FIELDS, fingerprint_text
from engine.views import state_fingerprint
from tools import evidence


def _by_json(fingerprint) -> bytes:
    return json.dumps(fingerprint, sort_keys=True, separators=(",", ":"), default=str).encode()


def _recorded():
    return [pytest.param(slug, name, id=f"{slug}/{name}")
            for slug in evidence.titles() for folder in evidence.GAME_FOLDERS
            for name in evidence.game_names(slug, folder)]


@pytest.mark.parametrize("slug,name", _recorded())
def test_the_fingerprint_text_is_jsons_at_the_positions_of_a_recorded_game(slug, name):
    export = evidence.load_game(slug, name)
    actions = export["actions"]
    state = engine.import_game({**export, "actions": []}).state
    state.loading = True
    played = [(index, action) for index, (action, live) in enumerate(zip(actions, live_entries(actions))) if live]
    for n, (index, action) in enumerate(played):
        state.process({k: v for k, v in action.items() if k not in RECORD_FIELDS},
                      auto_actions=list(action.get("auto_actions") or ()))
        if n % 9 == 0 or n == len(played) - 1:   # (a ninth of the positions, and the last)
            fingerprint = state_fingerprint(state)
            assert fingerprint_text(fingerprint) == _by_json(fingerprint), f"entry {index}"
    assert state.finished


@pytest.mark.parametrize("odd", [
    {"name": "Zürich"},              # not ASCII: json escapes it
    {"quote": 'a "b"', "nl": "x\ny"},  # characters json escapes
    {10: "integer keys", 9: 3},      # keys that are not strings
    {"big": 1 << 70},                # an integer beyond 64 bits
    {"set": {3}, "tuple": (1, 2)},   # written by default=str, and as a list
])
def test_what_orjson_would_write_otherwise_is_written_by_json(odd):
    assert fingerprint_text(odd) == _by_json(odd)
