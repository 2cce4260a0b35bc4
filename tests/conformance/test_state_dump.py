"""A game's state, dumped and loaded (engine.Game.dump / engine.load), is the game a replay builds:
at sampled positions of every recorded game of every title, the loaded game has the replay's digest,
and a game that is swapped for its loaded copy at every sample and played on (undos included) ends
exactly where the game played in one engine ends. Data written by another engine build is replayed
instead of unpickled; damaged data is refused."""

from __future__ import annotations

import json
import struct
import zlib

import pytest
from rh_support import engine_prefix

import engine
from engine import api
from runtime.aligner import ReplayAligner, ReplayMismatch, play_entry
from tools import evidence

GAMES = [pytest.param(slug, name, id=f"{slug}/{name}")
         for slug in evidence.titles() for folder in evidence.GAME_FOLDERS for name in evidence.game_names(slug, folder)]
SAMPLES = 8   # positions sampled per recorded game (plus its last)


@pytest.mark.slow
@pytest.mark.parametrize(("slug", "name"), GAMES)
def test_loaded_state_equals_replay_and_plays_on(slug, name):
    export = evidence.load_game(slug, name)
    k, oracle, error = engine_prefix(export)
    settings = export.get("settings") or {}
    seed = settings.get("seed")
    players = [{"id": p.get("id", p.get("name")), "name": p.get("name")} for p in export["players"]]
    game = engine.new_game(export["title"], players, seed=seed if isinstance(seed, int) else None,
                           game_id=str(export.get("id", "")), optional_rules=settings.get("optional_rules") or [])
    step = max(1, k // SAMPLES)
    sampled = set(range(step, k, step)) | {k}
    holder = {"game": game}

    def submit(move):
        stored = holder["game"].process(move)
        return stored["id"], stored.get("auto_actions") or [], stored

    aligner = ReplayAligner(export["actions"])
    loads = 0
    for index, recorded in enumerate(export["actions"][:k]):
        try:
            play_entry(aligner, recorded, submit)
        except (engine.GameError, ReplayMismatch) as exc:  # engine_prefix accepted these k entries
            raise AssertionError(f"action index {index}: {exc}") from exc
        if index + 1 in sampled:
            before = holder["game"]
            loaded = engine.load(before.dump())
            assert loaded.loaded_by == "state"
            assert (loaded.seq, loaded.digest()) == (before.seq, before.digest()), f"after index {index}"
            assert loaded.actions == before.actions
            replayed = engine.Game(before.title, before.players, seed=before.seed, game_id=before.game_id,
                                   optional_rules=before.optional_rules, _actions=before.actions)
            assert loaded.digest() == replayed.digest()
            holder["game"] = loaded   # play on from the loaded copy
            loads += 1
    if error is not None:   # the oracle also holds what entry k applied before it was refused
        try:
            play_entry(aligner, export["actions"][k], submit)
        except (engine.GameError, ReplayMismatch):
            pass
    final = holder["game"]
    assert (final.seq, final.digest()) == (oracle.seq, oracle.digest())
    assert final.finished == oracle.finished and final.result == oracle.result
    assert loads >= min(k, SAMPLES)


def _rewrite_header(data: bytes, change) -> bytes:
    raw = zlib.decompress(data)
    at = len(api.STATE_MAGIC)
    (length,) = struct.unpack(">I", raw[at:at + 4])
    header = json.loads(raw[at + 4:at + 4 + length])
    change(header)
    text = json.dumps(header).encode()
    return zlib.compress(raw[:at] + struct.pack(">I", len(text)) + text + raw[at + 4 + length:])


def _played(n: int = 30):
    game = engine.new_game("1856", ["Ann", "Bob", "Cid"], seed=7)
    for _ in range(n):
        entry = next(e for e in game.legal_actions() if "pass" in e["types"] or "bid" in e["types"])
        game.process({"type": "pass", "entity": entry["entity"], "entity_type": entry["entity_type"]})
        if game.round_kind != "auction":
            break
    return game


def test_another_build_replays_the_log():
    game = _played()
    other = _rewrite_header(game.dump(), lambda h: h.update(build="another-build"))
    loaded = engine.load(other)
    assert loaded.loaded_by == "replay"
    assert (loaded.seq, loaded.digest()) == (game.seq, game.digest())


def test_damaged_state_is_refused():
    game = _played()
    data = game.dump()
    with pytest.raises(engine.GameError, match="Not a game state"):
        engine.load(b"not a state at all")
    with pytest.raises(engine.GameError, match="Not a game state"):
        engine.load(zlib.compress(b"RHSTATE9" + data))
    wrong = _rewrite_header(data, lambda h: h.update(digest="0000000000000000"))
    with pytest.raises(engine.GameError, match="digest"):
        engine.load(wrong)
