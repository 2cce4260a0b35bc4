"""A journal of a rules state's changes, so that an undo (or a refused action) puts the state back
as it was without a copy of it.

While a journal is active (``Journal.active``), every change to the state is written into it as what
puts it back: an attribute set or deleted on an instance of a ``Tracked`` class (every class whose
instances a rules state holds) gives the attribute's earlier value; a list or a dict of the state
(``TList``, ``TDict``: the built-in kinds with their changing methods recorded) gives the length it
had before an append or an extend, a key's earlier value, or a copy of its contents before any other
change. The journal is cut into one stretch per log entry applied (``mark``); going back to an
earlier entry undoes the stretches after it, newest change first (``revert``).

A state holds plain lists and dicts as the rules make them: a journal converts every container of
its state into the recorded kinds once when it starts (``start``), then, at the end of each call
(``seal``), the plain containers its changes brought into the state, after the fact: code that made
a list and keeps filling it after putting it into the state fills the list the state holds. The
title's shared data (``statecopy.title_seeds``) and what the engine's modules hold are never
converted (never written). A state that reaches an instance of an engine class that is not
``Tracked`` (its changes would not be written) makes the journal unusable (``usable``): the game
then goes back by rebuilding, as without a journal.
"""

from __future__ import annotations

import secrets
import types
from collections.abc import Iterator
from functools import lru_cache

from . import stepwise

MISSING = object()   # (an attribute or key the state did not have)

# The records: (_ATTR, instance, name, earlier value or MISSING), (_CUT, list, earlier length),
# (_KEY, dict, key, earlier value or MISSING), (_ALL, container, copy of its earlier contents),
# (_CALL, function, arguments): what puts a change made unrecorded back (``note``).
_ATTR, _CUT, _KEY, _ALL, _CALL = range(5)

_records: list | None = None   # the active journal's records, or None
# A stretch's number, new at each start, mark and revert of any journal: an instance made since the
# last one (``Tracked._born`` equal to it) is not recorded, for no earlier stretch holds it (every
# reference to it from what is older was recorded). SEALED: part of a journaled state, recorded.
# Numbers start at random in each process: a state read from another process's dump holds its
# instances' numbers, which must not be taken for this process's current one.
_stretch = secrets.randbits(62)
SEALED = -1

_set = object.__setattr__
_delete = object.__delattr__
_get = object.__getattribute__


@lru_cache(maxsize=None)
def _slot_names(kind: type) -> frozenset:
    names = set()
    for klass in kind.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names.update((slots,) if isinstance(slots, str) else slots)
    return frozenset(names)


def _earlier(obj, name):
    if name in _slot_names(type(obj)):
        try:
            return _get(obj, name)
        except AttributeError:
            return MISSING
    return obj.__dict__.get(name, MISSING)


class Tracked:
    """A class whose instances a rules state holds: its attributes' changes are journaled, but those
    of an instance made in the current stretch (the temporaries of a move or a read above all)."""

    __slots__ = ("_born",)
    # Attributes whose values are replaced, never changed in place (what a tile's turn derives): left
    # as they are made, not converted.
    JOURNAL_FIXED: frozenset = frozenset()
    # Attributes holding what the instance computes and remembers: neither journaled nor converted;
    # ``forget_caches`` empties them when a journal puts the state back (the rules state lists the
    # instances that have some: ``journal_caches``).
    JOURNAL_CACHES: frozenset = frozenset()

    def forget_caches(self) -> None:
        pass

    def __setattr__(self, name, value):
        if _records is not None:
            try:
                born = self._born
            except AttributeError:   # (its first attribute: made now)
                born = _stretch
                _set(self, "_born", born)
            if born != _stretch:
                _records.append((_ATTR, self, name, _earlier(self, name)))
        _set(self, name, value)

    def __delattr__(self, name):
        if _records is not None and getattr(self, "_born", _stretch) != _stretch:
            _records.append((_ATTR, self, name, _earlier(self, name)))
        _delete(self, name)


class TList(list):
    """A list of a rules state: its changes are journaled."""

    __slots__ = ()

    def _whole(self):
        if _records is not None:
            _records.append((_ALL, self, list(self)))

    def append(self, item):
        if _records is not None:
            _records.append((_CUT, self, len(self)))
        list.append(self, item)

    def extend(self, items):
        if _records is not None:
            _records.append((_CUT, self, len(self)))
        list.extend(self, items)

    def __iadd__(self, items):
        if _records is not None:
            _records.append((_CUT, self, len(self)))
        return list.__iadd__(self, items)

    def insert(self, index, item):
        self._whole()
        list.insert(self, index, item)

    def remove(self, item):
        self._whole()
        list.remove(self, item)

    def pop(self, index=-1):
        self._whole()
        return list.pop(self, index)

    def clear(self):
        self._whole()
        list.clear(self)

    def sort(self, *, key=None, reverse=False):
        self._whole()
        list.sort(self, key=key, reverse=reverse)

    def reverse(self):
        self._whole()
        list.reverse(self)

    def __setitem__(self, index, value):
        self._whole()
        list.__setitem__(self, index, value)

    def __delitem__(self, index):
        self._whole()
        list.__delitem__(self, index)

    def __imul__(self, times):
        self._whole()
        return list.__imul__(self, times)


class TDict(dict):
    """A dict of a rules state: its changes are journaled."""

    __slots__ = ()

    def _whole(self):
        if _records is not None:
            _records.append((_ALL, self, dict(self)))

    def __setitem__(self, key, value):
        if _records is not None:
            _records.append((_KEY, self, key, dict.get(self, key, MISSING)))
        dict.__setitem__(self, key, value)

    def setdefault(self, key, default=None):
        if _records is not None and key not in self:
            _records.append((_KEY, self, key, MISSING))
        return dict.setdefault(self, key, default)

    def __delitem__(self, key):
        self._whole()
        dict.__delitem__(self, key)

    def pop(self, *args):
        self._whole()
        return dict.pop(self, *args)

    def popitem(self):
        self._whole()
        return dict.popitem(self)

    def clear(self):
        self._whole()
        dict.clear(self)

    def update(self, *args, **kwargs):
        self._whole()
        dict.update(self, *args, **kwargs)

    def __ior__(self, other):
        self._whole()
        return dict.__ior__(self, other)


_PLAIN = (list, dict, tuple)
_NOT_FIELDS = frozenset(("_born", "__dict__", "__weakref__"))
_LEAVES = frozenset((str, int, float, bool, type(None), bytes, TList, TDict, types.FunctionType,
                     types.BuiltinFunctionType, type))


class Journal:
    """The changes of one rules state since ``start``, a stretch per log entry applied."""

    def __init__(self, state, shared: tuple, keep: int):
        self.state = state
        self.shared = shared   # (ids of the title's data, ids of what the engine's modules hold): never converted
        self.keep = keep       # stretches kept at least (older ones are dropped in bulk)
        self.records: list = []
        self.marks: list[int] = []   # marks[i]: where the stretch of the (base + i)-th entry applied begins
        self.base = 0          # entries the state had applied when the journal started
        self.sealed = 0        # records whose new values are converted
        self.untracked: type | None = None   # an engine class the state reaches that is not Tracked
        self.caching: list = []   # instances with caches (JOURNAL_CACHES) the state holds
        self._memo: dict = {}

    @property
    def usable(self) -> bool:
        return self.untracked is None

    # ------------------------------------------------------------------ recording
    def active(self) -> _Active:
        return _Active(self.records)

    def start(self, applied: int, objects: list) -> None:
        """Convert every container the state holds (but what is shared) into the recorded kinds:
        ``objects`` is everything the state reaches (``statecopy.reachable``)."""
        stepwise.finish(self.start_steps(applied, objects, None))

    def start_steps(self, applied: int, objects: list, step: int | None = stepwise.STEP_INSTANCES) -> Iterator[int]:
        """``start`` in steps (``engine.stepwise``) of ``step`` instances' fields converted (yielding
        0 after each; never without a ``step``): the state must not change before the last."""
        self.resume(applied)
        instances = [obj for obj in objects if isinstance(obj, Tracked)]
        for kind in set(map(type, objects)):
            if (kind.__module__.startswith("engine.") and kind not in _LEAVES and not issubclass(kind, Tracked)
                    and not _immutable(kind)):
                self.untracked = kind
        self._memo = {}
        for obj in instances:
            _set(obj, "_born", SEALED)
        for done, obj in enumerate(instances, 1):
            self._convert_fields(obj)
            if step is not None and done % step == 0:
                yield 0
        for container in objects:   # (recorded containers a copy of a state brought: their items too)
            if type(container) is TList or type(container) is TDict:
                for key in (range(len(container)) if type(container) is TList else list(container)):
                    self._convert_item(container, key)
        self._memo = {}

    def resume(self, applied: int) -> None:
        """Start on a state whose containers are all of the recorded kinds and whose instances are
        all sealed (one read from the dump of a journaled state, with nothing applied since)."""
        self.base = applied
        caches = getattr(self.state, "journal_caches", None)
        self.caching = list(caches()) if caches is not None else []
        _next_stretch()

    def _convert_fields(self, obj) -> None:
        kind = type(obj)
        names = _slot_names(kind)
        fixed = kind.JOURNAL_FIXED | kind.JOURNAL_CACHES
        for name in names:
            if name in _NOT_FIELDS or name in fixed:
                continue
            try:
                value = _get(obj, name)
            except AttributeError:
                continue
            if type(value) not in _LEAVES:
                new = self._converted(value)
                if new is not value:
                    _set(obj, name, new)
        try:
            fields = _get(obj, "__dict__")
        except AttributeError:
            fields = None
        if type(fields) is dict:
            for name, value in list(fields.items()):
                if type(value) not in _LEAVES and name not in fixed:
                    new = self._converted(value)
                    if new is not value:
                        fields[name] = new

    def _converted(self, value):
        """``value`` with every plain list and dict in it (through lists, dicts and tuples) a recorded
        one; the same object when nothing in it changes. Shared containers are left as they are.
        (A container of values that hold nothing is copied in one C-level call.)"""
        kind = type(value)
        if kind in _LEAVES:
            return value
        if kind is tuple:
            if _LEAVES.issuperset(map(type, value)):
                return value
        elif isinstance(value, Tracked):
            if getattr(value, "_born", None) != SEALED:   # made since: its plain containers too
                _set(value, "_born", SEALED)
                self._convert_fields(value)
            return value
        elif kind is not list and kind is not dict:
            if kind.__module__.startswith("engine.") and not _immutable(kind):
                self.untracked = kind
            return value
        vid = id(value)
        seeds, held = self.shared
        if vid in seeds or vid in held:
            return value
        known = self._memo.get(vid)
        if known is not None:
            return known[1]
        if kind is list:
            if _LEAVES.issuperset(map(type, value)):
                new = TList(value)
            else:
                new = TList()
                self._memo[vid] = (value, new)
                list.extend(new, [self._converted(v) for v in value])
        elif kind is dict:
            if _LEAVES.issuperset(map(type, value.values())):
                new = TDict(value)
            else:
                new = TDict()
                self._memo[vid] = (value, new)
                for k, v in value.items():
                    dict.__setitem__(new, k, self._converted(v))
        else:
            items = tuple(self._converted(v) for v in value)
            new = value if all(a is b for a, b in zip(items, value)) else items
        self._memo[vid] = (value, new)
        return new

    def _convert_item(self, container, key) -> None:
        """Convert the plain container held at ``key`` of a recorded container (in place), and the
        fields of an instance made since."""
        value = container[key]
        new = self._converted(value)
        if new is not value:
            (list.__setitem__ if type(container) is TList else dict.__setitem__)(container, key, new)

    def seal(self) -> None:
        """Convert what the records since the last seal brought into the state: an attribute's new
        value, a list's items from the length it had, a dict's value at the key set, every item of a
        container changed otherwise."""
        records = self.records
        if self.sealed == len(records):
            return
        self._memo = {}
        whole = set()
        for record in records[self.sealed:]:
            kind, target = record[0], record[1]
            if kind == _ATTR:
                obj, name = target, record[2]
                if name in type(obj).JOURNAL_FIXED or name in type(obj).JOURNAL_CACHES:
                    continue
                value = _earlier(obj, name)
                if type(value) in _PLAIN:
                    new = self._converted(value)
                    if new is not value:
                        _set(obj, name, new)
                elif value is not MISSING:
                    self._converted(value)   # (an instance made since; an untracked one: unusable)
            elif kind == _CALL:
                continue
            elif kind == _KEY:
                if record[2] in target:
                    self._convert_item(target, record[2])
            elif kind == _CUT:
                for i in range(record[2], len(target)):
                    self._convert_item(target, i)
            elif id(target) not in whole:
                whole.add(id(target))
                for key in (range(len(target)) if type(target) is TList else list(target)):
                    self._convert_item(target, key)
        self._memo = {}
        self.sealed = len(records)

    def mark(self) -> None:
        """A new stretch begins: the next entry's changes."""
        self.seal()
        _next_stretch()
        self.marks.append(len(self.records))

    # ------------------------------------------------------------------ going back
    def reaches(self, applied: int) -> bool:
        """Whether the state can go back to having applied ``applied`` entries."""
        return self.usable and self.base <= applied <= self.base + len(self.marks)

    def revert(self, applied: int) -> None:
        """Put the state back as it was when it had applied ``applied`` entries (``reaches``): the
        current position's own later changes (caches its reads filled) are kept."""
        at = applied - self.base
        if at < len(self.marks):
            self.undo_to(self.marks[at])
            del self.marks[at:]

    def undo_to(self, position: int) -> None:
        """Undo the records from the newest back to ``position``."""
        records = self.records
        for record in reversed(records[position:]):
            kind, target = record[0], record[1]
            if kind == _ATTR:
                if record[3] is MISSING:
                    try:
                        _delete(target, record[2])
                    except AttributeError:
                        pass
                else:
                    _set(target, record[2], record[3])
            elif kind == _CUT:
                list.__delitem__(target, slice(record[2], None))
            elif kind == _CALL:
                with unrecorded():
                    target(*record[2])
            elif kind == _KEY:
                if record[3] is MISSING:
                    dict.pop(target, record[2], None)
                else:
                    dict.__setitem__(target, record[2], record[3])
            elif type(target) is TList:
                list.__setitem__(target, slice(None), record[2])
            else:
                dict.clear(target)
                dict.update(target, record[2])
        del records[position:]
        self.sealed = min(self.sealed, position)
        _next_stretch()
        with unrecorded():
            for obj in self.caching:
                obj.forget_caches()

    def trim(self) -> None:
        """Drop the oldest stretches once twice ``keep`` are held."""
        if len(self.marks) < 2 * self.keep:
            return
        drop = len(self.marks) - self.keep
        cut = self.marks[drop]
        del self.records[:cut]
        self.marks = [m - cut for m in self.marks[drop:]]
        self.sealed = max(0, self.sealed - cut)
        self.base += drop


class _Active:
    """``with journal.active():`` the journal's records take the state's changes (nests)."""

    __slots__ = ("records", "outer")

    def __init__(self, records):
        self.records = records

    def __enter__(self):
        global _records
        self.outer, _records = _records, self.records
        return self

    def __exit__(self, *exc):
        global _records
        _records = self.outer
        return False


def recording() -> bool:
    """Whether a journal takes the changes made now."""
    return _records is not None


def note(function, *args) -> None:
    """When the active journal (if any) goes back past this point, ``function(*args)`` puts back a
    change made unrecorded (a tile's turn: one record instead of one per attribute it derives)."""
    if _records is not None:
        _records.append((_CALL, function, args))


def _next_stretch() -> None:
    global _stretch
    _stretch += 1


def unrecorded() -> _Active:
    """``with unrecorded():`` nothing is journaled (a state being built or replayed)."""
    return _Active(None)


def _immutable(kind: type) -> bool:
    """Engine classes whose instances never change once made (descriptions) or are not state."""
    return bool(getattr(kind, "JOURNAL_EXEMPT", False)) or issubclass(kind, BaseException)
