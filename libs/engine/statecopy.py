"""Copies of a rules state for undo checkpoints (``engine.api``) that share what never changes
instead of copying it.

A state is copied with pickle, but the parts every game of a title shares and never writes (the
title's data, ``titles.load_data``, and the tile descriptions parsed from it, ``TileDef``) are not
written into the copy: they are numbered ("seeds") and the copy names them by number. The pickler is
told of them by a memo filled before it starts (it then writes a memo reference for each, never its
content); the unpickler's memo holds them at the same positions before it starts (both memos are
copied from a template per title, a C-level copy of a table).

The same copy is what ``Game.dump`` writes for ``engine.load`` (in another process too: the seeds
are listed in the same order by every process of an engine build, ``seeds_fingerprint`` checks it)
and what any pickle of a rules state holds (``reduce_state``): a state read back from any of them
shares the title's data and tile descriptions, so its own undo copies name them in turn.
"""

from __future__ import annotations

import copyreg
import hashlib
import io
import pickle
import struct
from functools import lru_cache

from . import titles as registry
from .board.board import shared_tile_def
from .board.parts import NodeSpec, PathSpec, TileDef
from .errors import GameError

# TileDef slots filled lazily, maybe after the seeds are listed: their dicts are seeds, what they come
# to hold is not (a copy writes it), and a slot set lazily (``_ends``) is not either: the listing must
# not depend on what the process did before (dumps are read in other processes).
_LAZY_SLOTS = frozenset(("_rot", "_conv", "_ends", "_ct_edges"))
_WALKED = (dict, list, tuple, str, frozenset)
_DESCRIPTIONS = (TileDef, NodeSpec, PathSpec)


@lru_cache(maxsize=None)
def title_seeds(slug: str) -> tuple:
    """The objects a title's states share and never write, in a fixed order: every container and
    string of the title's data, then every tile description it defines and the containers those hold.
    The same in every process of an engine build, whatever it did before (``seeds_fingerprint``)."""
    data = registry.load_data(slug)
    seeds, seen = [], set()

    def walk(root, strings=True):
        stack = [root]
        while stack:
            obj = stack.pop()
            kind = type(obj)
            if id(obj) in seen or not (kind in _WALKED or kind in _DESCRIPTIONS) or (kind is str and not strings):
                continue
            seen.add(id(obj))
            seeds.append(obj)
            if kind is dict:
                stack.extend(reversed([v for pair in obj.items() for v in pair]))
            elif kind in (list, tuple):
                stack.extend(reversed(obj))
            elif kind is frozenset:
                stack.extend(sorted(obj, key=repr, reverse=True))
            elif kind is not str:
                stack.extend(reversed([getattr(obj, name) for name in kind.__slots__
                                       if name not in _LAZY_SLOTS and hasattr(obj, name)]))
                for name in kind.__slots__:   # the caches' dicts, made empty with the description
                    cache = getattr(obj, name, None)
                    if name in _LAZY_SLOTS and type(cache) is dict and id(cache) not in seen:
                        seen.add(id(cache))
                        seeds.append(cache)

    walk(data)
    raw_defs = data.get("board", {}).get("tiles", {}) if "board" in data else {}
    for key, raw in raw_defs.items():
        # the descriptions' own strings are left out: whether one is the data's string or an equal
        # one depends on who made the description first (a board names it by another string)
        walk(shared_tile_def(key, raw), strings=False)
    return tuple(seeds)


PROTOCOL = 5


@lru_cache(maxsize=None)
def _templates(slug: str) -> tuple:
    """A pickler and an unpickler whose memos hold the title's seeds, at the same positions, and a
    table of as many entries: each copy starts from a copy of their memos (a C-level copy of the
    table, far cheaper than filling it).

    Protocols 4 and 5 number the objects a pickle adds to the memo by count (MEMOIZE: the next
    position), so the unpickler must count the seeds too. Python 3.11 sets that count only when a
    memo is given as a dict, and keeps the entries only when it is given as another unpickler's memo:
    ``loads`` gives both, in that order (the table, then the entries). A round trip checks here that
    the two agree (a Python that did it otherwise would fail it rather than mix objects up)."""
    seeds = title_seeds(slug)
    pickler = pickle.Pickler(io.BytesIO(), PROTOCOL)
    pickler.memo = {id(obj): (i, obj) for i, obj in enumerate(seeds)}
    prelude = bytearray()
    for i in range(len(seeds)):   # each seed by its number (persistent id), put at that position
        prelude += b"J" + struct.pack("<i", i) + b"Q" + b"r" + struct.pack("<I", i) + b"0"
    unpickler = pickle.Unpickler(io.BytesIO(bytes(prelude) + b"N."))
    unpickler.persistent_load = seeds.__getitem__
    unpickler.load()
    count = dict.fromkeys(range(len(seeds)))
    templates = pickler, unpickler, count
    probe = [seeds[0], seeds[-1], [], [seeds[0]]]
    back = _load(_dump(probe, templates), templates)
    if not (back[0] is seeds[0] and back[1] is seeds[-1] and back[2] == [] and back[3][0] is seeds[0]):
        raise RuntimeError("this Python's unpickler does not number a given memo as statecopy expects")
    return templates


def prepare(slug: str) -> None:
    """Everything a copy of a ``slug`` state needs listed now (its seeds, its templates): a process
    that serves games does it once before its first game (``runtime.engines``)."""
    _templates(slug)
    seeds_fingerprint(slug)


def _dump(state, templates) -> bytes:
    out = io.BytesIO()
    pickler = pickle.Pickler(out, PROTOCOL)
    pickler.memo = templates[0].memo
    kind = type(state)
    if kind.__reduce_ex__ is not object.__reduce_ex__:   # the rules state: written here field by field
        pickler.dispatch_table = _fields_table(kind)
    pickler.dump(state)
    return out.getvalue()


def _load(blob: bytes, templates):
    unpickler = pickle.Unpickler(io.BytesIO(blob))
    unpickler.memo = templates[2]   # the count (see _templates) ...
    unpickler.memo = templates[1].memo   # ... then the entries
    return unpickler.load()


@lru_cache(maxsize=None)
def _fields_table(kind: type) -> dict:
    """A pickler's dispatch table that writes a ``kind`` (a rules state, whose own ``__reduce_ex__``
    calls ``dumps``) by its fields, as if it had none."""
    table = copyreg.dispatch_table.copy()
    table[kind] = _by_fields
    return table


def _by_fields(state):
    return object.__reduce_ex__(state, PROTOCOL)


def dumps(state, slug: str) -> bytes:
    """``state`` pickled, naming the title's seeds instead of writing them."""
    return _dump(state, _templates(slug))


def loads(blob: bytes, slug: str):
    """The state ``dumps`` wrote, its seeds the very objects it named."""
    return _load(blob, _templates(slug))


@lru_cache(maxsize=None)
def seeds_fingerprint(slug: str) -> str:
    """What a pickle written by ``dumps`` in another process needs to be read here: the same seeds in
    the same order (their kinds, the strings, the containers' sizes). The engine build (code and title
    data) fixes them; this checks that nothing in the listing depends on the process (hash order)."""
    seeds = title_seeds(slug)
    lazy = {id(getattr(obj, name, None)) for obj in seeds if type(obj) is TileDef for name in _LAZY_SLOTS}
    digest = hashlib.sha256()
    for obj in seeds:
        digest.update(type(obj).__name__.encode())
        if type(obj) is str:
            digest.update(b"=" + obj.encode("utf-8", "surrogatepass"))
        elif type(obj) in (dict, list, tuple, frozenset) and id(obj) not in lazy:   # (filled as used)
            digest.update(b"#%d" % len(obj))
        digest.update(b";")
    return digest.hexdigest()[:16]


def reduce_state(state, protocol: int) -> tuple:
    """How any pickle writes a rules state (its ``__reduce_ex__``): as a ``dumps`` copy read back by
    ``restore``, so that a state read from any pickle (a whole ``engine.Game`` pickled, a test's
    cached position) shares its title's data and tile descriptions like an undo copy."""
    try:
        slug = registry.slug_for(state.title)
    except GameError:   # a state of no registered title (a test's own data): pickled plainly
        return object.__reduce_ex__(state, protocol)
    return restore, (slug, seeds_fingerprint(slug), dumps(state, slug))


def restore(slug: str, fingerprint: str, blob: bytes):
    if fingerprint != seeds_fingerprint(slug):
        raise pickle.UnpicklingError(f"a {slug} state pickled with other title data")
    return loads(blob, slug)
