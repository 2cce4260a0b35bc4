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

``let_go`` cuts the reference cycles of a state the engine drops (the state an undo replaced, a
dropped game's), again never touching what the title shares: its objects are then freed by their
reference counts, with nothing left for the cyclic collector.
"""

from __future__ import annotations

import copyreg
import gc
import hashlib
import io
import pickle
import struct
import sys
import types
from collections import deque
from collections.abc import Generator, Iterator
from functools import lru_cache
from itertools import compress, repeat
from operator import attrgetter

from . import stepwise
from . import titles as registry
from .board.board import shared_tile_def
from .board.parts import NodeSpec, PathSpec, TileDef
from .errors import GameError
from .journal import TDict, TList

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


# let_go -----------------------------------------------------------------------------------------
# A state is walked through its containers (and bound methods, to their instance), which are left as
# they are, and the instances of the engine's own classes, which are emptied; nothing else (strings,
# numbers, functions, classes, modules, the tile descriptions) is walked.
_THROUGH = frozenset((list, dict, set, tuple, frozenset, types.MethodType, TList, TDict))
_engine_kinds: set = set()   # the engine's classes (but descriptions and exceptions), as found so far
_modules_seen: set = set()
_shared_ids: set = set()     # the ids of what the engine's modules and classes hold, walked as a state is
_shared_kept: list = []      # what ``share`` added to them


def _engine_module(name: str) -> bool:
    return name == "engine" or name.startswith("engine.")


def _engine_classes(root: type) -> list:
    out, stack = [], [root]
    while stack:
        kind = stack.pop()
        for sub in kind.__subclasses__():
            if _engine_module(sub.__module__) and sub not in out:
                out.append(sub)
                stack.append(sub)
    return out


def _refresh() -> None:
    """The engine's classes, and what its modules and classes hold (their constants and caches, as
    they are now), listed again when engine modules were loaded since the last call. (The caches
    the engine fills as it plays hold descriptions, classes, functions and numbers, never what a
    let_go empties.)"""
    modules = [m for name, m in list(sys.modules.items()) if _engine_module(name) and m is not None]
    if len(modules) == len(_modules_seen):
        return
    _modules_seen.update(map(id, modules))
    kinds = {v for m in modules for v in vars(m).values() if isinstance(v, type) and _engine_module(v.__module__)}
    for kind in list(kinds):
        kinds.update(_engine_classes(kind))
    _engine_kinds.update(k for k in kinds if not issubclass(k, (type, BaseException) + _DESCRIPTIONS))
    walked = _THROUGH | _engine_kinds
    roots = [v for m in modules if m.__name__ != "engine.journal"   # (its records are a state's, if any)
             for v in vars(m).values() if type(v) in walked]
    roots += [v for m in modules for kind in vars(m).values() if isinstance(kind, type) and _engine_module(kind.__module__)
              for v in vars(kind).values() if type(v) in walked]
    _reachable([r for r in roots if id(r) not in _shared_ids], walked, _shared_ids)


def _reachable(roots: list, walked: frozenset, seen: set, *shared: frozenset | set) -> list:
    """The objects of a kind in ``walked`` reached from ``roots`` by their references, not through any
    whose id is in ``seen`` (which gets theirs) or ``shared``. One ``gc.get_referents`` per level of
    the walk, its filtering done by C loops (compress, map, set differences that go over the level's
    objects, never over the sets they leave out)."""
    return stepwise.finish(_walk(roots, walked, seen, shared, None))


def _walk(roots: list, walked: frozenset, seen: set, shared: tuple, step: int | None) -> Generator[int, None, list]:
    """``_reachable`` in steps: with a ``step``, a level is read in parts of that many objects, a
    yield (of 0) after each (none without)."""
    found = list(roots)
    seen.update(map(id, roots))
    frontier = roots
    while frontier:
        size = step or len(frontier)
        parts = [frontier] if size >= len(frontier) else [frontier[i:i + size] for i in range(0, len(frontier), size)]
        frontier = []
        for part in parts:
            refs = gc.get_referents(*part)
            refs = list(compress(refs, map(walked.__contains__, map(type, refs))))
            by_id = dict(zip(map(id, refs), refs))
            fresh = set(by_id).difference(seen)
            for ids in shared:
                fresh = fresh.difference(ids)
            seen.update(fresh)
            reached = list(map(by_id.__getitem__, fresh))
            frontier += reached
            found += reached
            if step is not None:
                yield 0
    return found


@lru_cache(maxsize=None)
def _slots_of(kind: type) -> tuple:
    """The slot descriptors of ``kind`` and its bases."""
    out = []
    for klass in kind.__mro__:
        names = klass.__dict__.get("__slots__", ())
        for name in (names,) if isinstance(names, str) else names:
            if name not in ("__dict__", "__weakref__"):
                out.append(klass.__dict__[name])
    return tuple(out)


def share(obj) -> None:
    """``obj`` (a memo the engine fills as it plays, shared by the games of a title: the tiles its
    upgrade rule describes) is never a state's own: no walk of a state goes into it (let_go, the
    journal's conversion). Kept alive here, so that its id stays its own."""
    _shared_ids.add(id(obj))
    _shared_kept.append(obj)


def reachable(state, slug: str) -> list:
    """Everything of ``state`` a walk through its containers and the engine's instances reaches (the
    state itself first), but what its title and the engine's modules share (``engine.journal``
    converts what it finds)."""
    return stepwise.finish(reachable_steps(state, slug, None))


def reachable_steps(state, slug: str, step: int | None = stepwise.STEP_OBJECTS) -> Generator[int, None, list]:
    """``reachable`` in steps (``engine.stepwise``): the state must not change before the last."""
    _refresh()
    return (yield from _walk([state], _THROUGH | _engine_kinds, set(), (_seed_ids(slug), _shared_ids), step))


def shared_ids(slug: str) -> tuple:
    """The ids of what a ``slug`` state holds and never writes: its title's seeds, and what the
    engine's modules and classes hold (``engine.journal`` never converts them)."""
    _refresh()
    return _seed_ids(slug), _shared_ids


@lru_cache(maxsize=None)
def _seed_ids(slug: str) -> frozenset:
    return frozenset(map(id, title_seeds(slug)))


def let_go(state, slug: str) -> int:
    """Empty every instance of an engine class that ``state`` reaches (its ``__dict__`` and slots),
    never one its title shares (its seeds) or that the engine's modules or classes hold: every
    reference cycle of a state goes through such an instance (a tile and its hex, a share and its
    corporation, a step and its round), so the whole state is then freed by reference counts as soon
    as the caller lets go of it, instead of waiting, as cyclic garbage, for the collector (which, in
    a process that freezes what lives long, never looks at a state that grew old: runtime.collector).
    The state's parts (``Game.parts``: the board's hexes, tiles with their nodes and paths, and
    networks, the market's cells, the players, companies, corporations, shares, trains) are listed
    by the state and emptied without a walk through what they hold (with those containers, most of
    what a late state reaches). ``state`` must not be used afterwards. Returns
    how many instances were emptied."""
    return sum(let_go_steps(state, slug, None))


def let_go_steps(state, slug: str, step: int | None = stepwise.STEP_OBJECTS) -> Iterator[int]:
    """``let_go`` in steps (``engine.stepwise``), each yielding how many instances it emptied: the
    walk's (``_walk``), then one per class of the engine the state holds instances of."""
    _refresh()
    kinds = _engine_kinds
    parts = getattr(state, "parts", None)
    known = parts() if parts is not None else []
    seen = set(map(id, known))
    by_kind: dict[type, list] = {}
    reached = yield from _walk([state], _THROUGH | kinds, seen, (_seed_ids(slug), _shared_ids), step)
    for obj in reached + known:
        if type(obj) in kinds:
            by_kind.setdefault(type(obj), []).append(obj)
    for kind, objs in by_kind.items():   # each field emptied over all a kind's instances in one C loop
        for slot in _slots_of(kind):
            deque(map(slot.__set__, objs, repeat(None)), maxlen=0)
        if _has_dict(kind):
            deque(map(dict.clear, map(_fields, objs)), maxlen=0)
        yield len(objs)


_fields = attrgetter("__dict__")


@lru_cache(maxsize=None)
def _has_dict(kind: type) -> bool:
    return any("__dict__" in klass.__dict__ for klass in kind.__mro__ if klass is not object)
