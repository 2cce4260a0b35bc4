"""A game's state, dumped and loaded (engine.Game.dump / engine.load), is the game a replay builds:
at sampled positions of every recorded game of every title, the loaded game has the replay's digest,
and a game that is swapped for its loaded copy at every sample and played on (undos included) ends
exactly where the game played in one engine ends. Data written by another engine build is replayed
instead of unpickled; damaged data is refused."""

from __future__ import annotations

import json
import os
import pickle
import struct
import subprocess
import sys
import zlib

import pytest
from rh_support import engine_prefix

import engine
from engine import api, journal, statecopy
from engine import titles as registry
from runtime.aligner import ReplayAligner, ReplayMismatch, play_entry
from runtime.bench import build_script
from tools import evidence

GAMES = [pytest.param(slug, name, id=f"{slug}/{name}")
         for slug in evidence.titles() for folder in evidence.GAME_FOLDERS for name in evidence.game_names(slug, folder)]
SAMPLES = 8   # positions sampled per recorded game (plus its last)


@pytest.mark.slow
@pytest.mark.parametrize(("slug", "name"), GAMES)
def test_loaded_state_equals_replay_and_plays_on(slug, name):
    export = evidence.load_game(slug, name)
    k, oracle, error = engine_prefix(export)
    game = engine.replay_copy(export)
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
            assert loaded.state.data is registry.load_data(slug)   # named by the dump, not copied
            assert loaded.actions == before.actions
            replayed = engine.Game(before.title, before.players, seed=before.seed, game_id=before.game_id,
                                   optional_rules=before.optional_rules, _actions=before.actions)
            assert loaded.digest() == replayed.digest()
            # a journaled game's dump resumes its journal: each instance keeps its journal mark
            assert unsealed(loaded) == unsealed(before), f"after index {index}"
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


def unsealed(game) -> list[str]:
    """The kinds of the journal-tracked instances of the game's state that are not sealed, sorted:
    all but what the rules replace and never change (an offer, a share bundle a history keeps) are,
    in a game whose journal runs. An instance a loaded state gives unmarked would be taken for one
    made by the next move, whose changes to it then go unrecorded: an undo of that move would leave
    them in place."""
    return sorted(type(obj).__name__ for obj in statecopy.reachable(game.state, game.slug)
                  if isinstance(obj, journal.Tracked) and getattr(obj, "_born", None) != journal.SEALED)


def _rewrite_header(data: bytes, change) -> bytes:
    """The dump with its header changed, packed as an earlier build packed dumps (zlib)."""
    raw = api._unpacked_state(data)
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


def test_a_dump_is_zstd_packed_and_a_zlib_packed_one_still_loads():
    game = _played()
    data = game.dump()
    assert data[:4] == b"\x28\xb5\x2f\xfd"   # a zstd frame
    earlier = zlib.compress(api._unpacked_state(data), 1)
    for blob in (data, earlier):
        loaded = engine.load(blob)
        assert loaded.loaded_by == "state"
        assert (loaded.seq, loaded.digest()) == (game.seq, game.digest())


def test_damaged_state_is_refused():
    game = _played()
    data = game.dump()
    with pytest.raises(engine.GameError, match="Not a game state"):
        engine.load(b"not a state at all")
    with pytest.raises(engine.GameError, match="Not a game state"):
        engine.load(zlib.compress(b"RHSTATE9" + data))
    with pytest.raises(engine.GameError, match="Not a game state"):
        engine.load(data[:4] + b"damaged")
    wrong = _rewrite_header(data, lambda h: h.update(digest="0000000000000000"))
    with pytest.raises(engine.GameError, match="digest"):
        engine.load(wrong)


def _shares_title(game) -> bool:
    """Whether the game's state holds its title's very data and tile descriptions."""
    state = game.state
    shared = registry.load_data(game.slug)
    defs = state.board._defs
    return (state.data is shared and state.board.data is shared["board"]
            and all(tdef is statecopy.shared_tile_def(key, shared["board"]["tiles"][key])
                    for key, tdef in defs.items() if key in shared["board"]["tiles"]))


def test_a_loaded_game_and_its_undo_copies_share_the_title_data():
    """engine.load reads a state that names the title's data and tile descriptions, so the game's
    undo copies name them in turn (and cost what a replayed game's do)."""
    export = evidence.load_game("1858", "rand_1858_42_5p")
    game = engine.import_game({**export, "actions": export["actions"][:600]})
    loaded = engine.load(game.dump())
    assert loaded.loaded_by == "state" and _shares_title(loaded)
    assert loaded.state.board is not game.state.board
    for action in export["actions"][600:606]:
        for each in (game, loaded):
            each.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
    for kind in ("undo", "undo", "redo", "undo"):
        for each in (game, loaded):
            each.process({"type": kind})
        assert _shares_title(loaded) and loaded.digest() == game.digest()
    # every kept copy names the title's seeds: read back, it holds the very same data
    for applied, blob, slug, _lines in loaded._checkpoints:
        assert statecopy.loads(blob, slug).data is registry.load_data(slug)


def test_a_pickled_game_shares_the_title_data():
    """Any pickle of a rules state (a whole engine.Game, a copy.deepcopy) names the title's data."""
    import copy

    game = _played()
    again = pickle.loads(pickle.dumps(game, pickle.HIGHEST_PROTOCOL))
    assert _shares_title(again) and again.digest() == game.digest() and again.state is not game.state
    copied = copy.deepcopy(game)
    assert _shares_title(copied) and copied.digest() == game.digest()
    act = next(e for e in copied.legal_actions() if "pass" in e["types"])
    copied.process({"type": "pass", "entity": act["entity"], "entity_type": act["entity_type"]})
    assert copied.digest() != game.digest() and game.digest() == again.digest()


_OTHER_PROCESS = """
import sys
import engine
from tools import evidence
for title in ("1856", "1822", "1858_india"):   # other work first: caches filled, descriptions made
    engine.new_game(title, ["A", "B", "C", "D"])
export = evidence.load_game("1858", "rand_1858_42_5p")
game = engine.import_game({**export, "actions": export["actions"][:400]})
game.legal_actions()
sys.stdout.buffer.write(game.dump())
"""


def test_a_dump_from_another_process_is_read_as_the_state():
    """The title's seeds are listed alike in every process of a build (another hash seed, other work
    done before): a dump written elsewhere is read as the state, its digest checked."""
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    data = subprocess.run([sys.executable, "-c", _OTHER_PROCESS], env=env, capture_output=True,
                          check=True).stdout
    loaded = engine.load(data)
    export = evidence.load_game("1858", "rand_1858_42_5p")
    replayed = engine.import_game({**export, "actions": export["actions"][:400]})
    assert loaded.loaded_by == "state" and _shares_title(loaded)
    assert (loaded.seq, loaded.digest()) == (replayed.seq, replayed.digest())


def test_an_older_format_or_other_seeds_replay_the_log():
    """A dump of the first format (a plain pickle) or one whose title seeds differ is replayed."""
    game = _played()
    for change in (lambda h: h.update(format=api.STATE_FORMAT_1), lambda h: h.update(seeds="0" * 16)):
        loaded = engine.load(_rewrite_header(game.dump(), change))
        assert loaded.loaded_by == "replay"
        assert (loaded.seq, loaded.digest()) == (game.seq, game.digest())
    with pytest.raises(engine.GameError, match="Not a game state"):
        engine.load(_rewrite_header(game.dump(), lambda h: h.update(format="roundhouse-state/9")))


def test_an_undo_of_the_first_lay_after_a_load_puts_the_board_back():
    """1858 quick-start-a read from its dump at entry 521 (its journal resumed): the first move that
    changes the board after that is a tile lay in Madrid (527), undone at 530. The board's list of
    map cities goes back with the tile, so N's home token in Madrid is taken (558, and again after
    an undo at 560) as in a replay; a board read unmarked from the dump kept the undone tile's
    cities listed and refused it."""
    script = build_script(evidence.game_path("1858", "1858-quick-start-a"))
    moves = [move for move, _seat, _seq in script.moves]
    game = engine.replay_copy(script.export)
    for move in moves[:521]:
        game.process(move)
    assert game._journal is not None   # (its undos started one)
    loaded = engine.load(game.dump())
    assert loaded.loaded_by == "state" and loaded._journal is not None
    for move in moves[521:562]:
        loaded.process(move)
        board = loaded.state.board
        assert board.cities() == [c for h in board.hexes for c in h.tile.cities], f"after {move}"
    assert moves[558]["type"] == moves[560]["type"] == "place_token" and moves[559]["type"] == "undo"
    replayed = engine.Game(loaded.title, loaded.players, seed=loaded.seed, game_id=loaded.game_id,
                           optional_rules=loaded.optional_rules, _actions=loaded.actions)
    assert loaded.digest() == replayed.digest()
