"""Actions in the 18xx.games action JSON, and resolving undo/redo in a stored action list."""

from __future__ import annotations

from collections.abc import Hashable

from .errors import GameError
from .core.shares import ShareBundle

# Entries that are never undone and are not game moves.
NON_GAME = ("message",)


class Action:
    """One action: the raw JSON plus its references resolved against the game on first use.

    The references (``action.company``, ``.corporation``, ``.hex``, ``.tile``, ``.bundle`` ... the
    names of RESOLVERS) are attributes; any other field is read from the JSON with ``action.get``
    or ``action.integer``. Another attribute name is an AttributeError, never a silent None."""

    JOURNAL_EXEMPT = True   # (a state may hold one; never changed but for what it resolves: engine.journal)

    def __init__(self, raw: dict, game, seq: int = 0):
        self.raw = raw
        self.game = game
        self.seq = seq  # id of the log entry this action belongs to (automatic actions share it)
        self.type = raw.get("type")
        if not isinstance(self.type, str) or not self.type:
            raise GameError("Action has no type")
        self.entity = game.entity_for(raw.get("entity_type"), raw.get("entity"))
        self._cache = {}

    def __getattr__(self, name):
        cache = self.__dict__.get("_cache")
        if cache is None:
            raise AttributeError(name)
        if name in cache:
            return cache[name]
        resolver = RESOLVERS.get(name)
        if resolver is None:
            raise AttributeError(f"Action has no attribute {name!r} (read its fields with action.get)")
        value = cache[name] = resolver(self.game, self.raw)
        self.__dict__[name] = value   # (read directly from now on)
        return value

    def get(self, key, default=None):
        return self.raw.get(key, default)

    def integer(self, key) -> int:
        """A whole-number field the action must carry (prices, rotations, slots)."""
        value = self.raw.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise GameError(f"{self.type.replace('_', ' ').capitalize()} needs a whole-number {key}, not {value!r}")
        return value


def _lookup(kind, finder, required=True):
    def resolve(game, raw):
        key = raw.get(kind)
        what = kind.replace("_", " ")
        if key is None:
            if required:
                raise GameError(f"{raw.get('type', 'the action').replace('_', ' ').capitalize()} needs a {what}")
            return None
        if not isinstance(key, (str, int)) or isinstance(key, bool):
            raise GameError(f"A {what} must be given by its id, not {key!r}")
        found = finder(game, key)
        if found is None:
            raise GameError(f"Unknown {what}: {key}")
        return found
    return resolve


def _bundle(game, raw):
    ids = raw.get("shares")
    if not isinstance(ids, list) or not ids:
        raise GameError("No shares given")
    shares = []
    for sid in ids:
        share = game.share_by_id(sid)
        if share is None:
            raise GameError(f"Unknown share: {sid}")
        shares.append(share)
    bundle = ShareBundle(shares, raw.get("percent"))
    if raw.get("share_price"):  # recorded games may carry false here, meaning "not given"
        bundle.share_price = raw["share_price"]
    return bundle


def _target(game, raw):
    kind, key = raw.get("target_type"), raw.get("target")
    if kind == "hex":
        found = game.board.hex_by_id(key)
    elif kind == "corporation":
        found = game.corporation_by_id(key)
    else:
        found = None
    if found is None:
        raise GameError(f"Unknown target: {key}")
    return found


RESOLVERS = {
    "company": _lookup("company", lambda g, k: g.company_by_id(k)),
    "corporation": _lookup("corporation", lambda g, k: g.corporation_by_id(k)),
    "share_price": _lookup("share_price", lambda g, k: g.share_price_by_id(k)),
    "train": _lookup("train", lambda g, k: g.train_by_id(k)),
    "exchange": _lookup("exchange", lambda g, k: g.train_by_id(k), required=False),
    "swap": _lookup("swap", lambda g, k: g.share_by_id(k), required=False),
    "tile": _lookup("tile", lambda g, k: g.board.tile_by_id(k)),
    "hex": _lookup("hex", lambda g, k: g.board.hex_by_id(k)),
    "city": _lookup("city", lambda g, k: g.board.city_by_id(k)),
    "loan": _lookup("loan", lambda g, k: g.loan_by_id(k)),
    "bundle": _bundle,
    "target": _target,
}


class LiveEntries:
    """Which entries of a stored action list are live once its undo/redo entries are applied, kept
    as the list grows: one entry added at a time (``add``), so that a game's log is not read again
    from the start at every undo. ``flags[i]``: entry i is live.

    An ``undo`` removes the latest live game action (or, with ``action_id``, every live game action
    after that id; 0 means all); a ``redo`` restores what the most recent undo removed; any other
    game action forgets pending redos. Messages are never undone.
    """

    __slots__ = ("flags", "_stack", "_entries", "_first_with_id")

    def __init__(self, entries: list | None = None):
        """``entries``: the whole list when it is known beforehand (``of``): an undo naming
        an action id then finds the id's first entry anywhere in it, as it always has."""
        self.flags: list[bool] = []
        self._stack: list[list[int]] = []   # what each pending undo removed, the latest last
        self._entries: list = [] if entries is None else entries
        self._first_with_id: dict | None = None   # action id -> index of its first entry (at the first undo naming one)

    @classmethod
    def of(cls, actions: list) -> "LiveEntries":
        """The reading of a whole log (kept from here on as entries are added)."""
        tracker = cls(list(actions))
        for action in actions:
            tracker.add(action, actions)
        return tracker

    def copy(self) -> "LiveEntries":
        other = LiveEntries.__new__(LiveEntries)
        other.flags = list(self.flags)
        other._stack = list(self._stack)   # (an undo's list is never changed once made)
        other._entries = self._entries
        other._first_with_id = None if self._first_with_id is None else dict(self._first_with_id)
        return other

    def add(self, action: dict, actions: list) -> list[int]:
        """Add ``action``, the entry after the ``actions`` added so far (the log it ends, ``action``
        not in it yet, or in it last); the indices it took out of play or brought back."""
        index = len(self.flags)
        live = self.flags
        kind = action.get("type")
        if self._first_with_id is not None and index >= len(self._entries):
            key = action.get("id")
            if isinstance(key, Hashable):
                self._first_with_id.setdefault(key, index)
        if kind == "undo":
            live.append(False)
            target = action.get("action_id")
            if target is None:
                start = 0
                for j in range(index - 1, -1, -1):
                    if live[j] and actions[j].get("type") not in NON_GAME:
                        start = j
                        break
            elif target == 0:
                start = 0
            else:
                position = self._position_of(target, action, actions, index)
                if position is None:
                    raise GameError(f"Undo names an unknown action id {target}", index=index,
                                    action_id=action.get("id"))
                start = position + 1
            removed = []
            for j in range(start, index):
                if live[j] and actions[j].get("type") not in NON_GAME:
                    live[j] = False
                    removed.append(j)
            self._stack.append(removed)
            return removed
        if kind == "redo":
            live.append(False)
            restored = self._stack.pop() if self._stack else []
            for j in restored:
                live[j] = True
            return restored
        live.append(True)
        if kind not in NON_GAME:
            self._stack.clear()
        return []

    def _position_of(self, target, action: dict, actions: list, index: int) -> int | None:
        if not isinstance(target, Hashable):
            return None
        if self._first_with_id is None:
            known = self._entries if len(self._entries) > index else actions[:index] + [action]
            self._first_with_id = {}
            for j, a in enumerate(known):
                key = a.get("id")
                if isinstance(key, Hashable):
                    self._first_with_id.setdefault(key, j)
        return self._first_with_id.get(target)


def live_entries(actions: list) -> list:
    """Which entries of a stored action list are live once undo/redo entries are applied (see
    LiveEntries): a list of booleans."""
    return LiveEntries.of(actions).flags
