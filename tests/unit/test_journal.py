"""The journal of a rules state's changes (engine.journal): what it records puts the state back
exactly, whatever the changes; and a game that keeps one goes back by it (engine.api)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import api, journal
from engine.journal import Journal, TDict, TList, Tracked


class Thing(Tracked):
    def __init__(self):
        self.items = [1, 2, 3]
        self.table = {"a": [1], "b": {"c": 2}}
        self.count = 0
        self.child = None


class Slotted(Tracked):
    __slots__ = ("value", "more")

    def __init__(self, value):
        self.value = value


class State(Tracked):
    def __init__(self):
        self.things = [Thing(), Thing()]
        self.slotted = Slotted([5])
        self.log = []


def reached(state) -> list:
    """Everything ``state`` reaches (what statecopy.reachable lists for a rules state)."""
    found, stack, seen = [], [state], set()
    while stack:
        obj = stack.pop()
        if id(obj) in seen or not isinstance(obj, (Tracked, list, dict, tuple)):
            continue
        seen.add(id(obj))
        found.append(obj)
        stack.extend(vars(obj).values() if hasattr(obj, "__dict__") else
                     [getattr(obj, n) for n in getattr(type(obj), "__slots__", ()) if hasattr(obj, n)]
                     if isinstance(obj, Tracked) else obj.values() if isinstance(obj, dict) else obj)
    return found


def started(state) -> Journal:
    j = Journal(state, (frozenset(), frozenset()), keep=50)
    j.start(0, reached(state))
    return j


def plain(value):
    """A value with its instances' fields and its containers as plain dicts and lists."""
    if isinstance(value, Tracked):
        fields = {k: plain(v) for k, v in vars(value).items()} if hasattr(value, "__dict__") else {}
        for name in ("value", "more"):
            if name in getattr(type(value), "__slots__", ()) and hasattr(value, name):
                fields[name] = plain(getattr(value, name))
        return (type(value).__name__, fields)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def snapshot(state) -> dict:
    """What the state holds, as plain values (containers of either kind compare equal; the order of
    a dict's keys and of an instance's attributes too)."""
    out = plain(state)
    return {"fields": out, "order": [list(vars(t)) for t in state.things] + [list(t.table) for t in state.things]}


def test_start_converts_every_container_the_state_holds():
    state = State()
    started(state)
    assert type(state.things) is TList and type(state.log) is TList
    assert all(type(t.items) is TList and type(t.table) is TDict and type(t.table["a"]) is TList
               and type(t.table["b"]) is TDict for t in state.things)
    assert type(state.slotted.value) is TList


# One change to a state, named, applied to it (the operations of lists, dicts and attributes the
# rules use: in place and by replacement, on existing and new values, on new instances too).
OPERATIONS = {
    "append": lambda s, n: s.things[0].items.append(n),
    "extend": lambda s, n: s.things[1].items.extend([n, n + 1]),
    "iadd": lambda s, n: s.things[0].__setattr__("items", s.things[0].items.__iadd__([n])),
    "insert": lambda s, n: s.things[0].items.insert(0, n),
    "pop": lambda s, n: s.things[1].items and s.things[1].items.pop(),
    "remove": lambda s, n: s.things[0].items and s.things[0].items.remove(s.things[0].items[0]),
    "sort": lambda s, n: s.things[0].items.sort(reverse=bool(n % 2)),
    "setitem": lambda s, n: s.things[0].items and s.things[0].items.__setitem__(0, n),
    "slice": lambda s, n: s.things[1].items.__setitem__(slice(None), [n, n]),
    "delitem": lambda s, n: s.things[1].items and s.things[1].items.__delitem__(0),
    "clear": lambda s, n: s.things[0].items.clear(),
    "key": lambda s, n: s.things[0].table.__setitem__(f"k{n % 3}", [n]),
    "key_nested": lambda s, n: s.things[1].table["b"].__setitem__("c", n),
    "setdefault": lambda s, n: s.things[0].table.setdefault(f"d{n % 2}", []).append(n),
    "dict_pop": lambda s, n: s.things[0].table.pop(f"k{n % 3}", None),
    "update": lambda s, n: s.things[1].table.update({"u": n}),
    "dict_del": lambda s, n: "a" in s.things[1].table and s.things[1].table.__delitem__("a"),
    "attr": lambda s, n: setattr(s.things[1], "count", n),
    "new_attr": lambda s, n: setattr(s.things[0], f"extra{n % 2}", n),
    "replace_list": lambda s, n: setattr(s.things[0], "items", [n]),
    "new_child": lambda s, n: setattr(s.things[n % 2], "child", Thing()),
    "child_change": lambda s, n: isinstance(s.things[0].child, Thing) and s.things[0].child.items.append(n),
    "slot": lambda s, n: setattr(s.slotted, "more", n),
    "slot_list": lambda s, n: s.slotted.value.append(n),
    "log": lambda s, n: s.log.append(f"line {n}"),
}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(sorted(OPERATIONS)), st.integers(0, 9)), max_size=8),
                min_size=1, max_size=6),
       st.data())
def test_revert_puts_back_every_stretch(stretches, data):
    state = State()
    j = started(state)
    seen = [snapshot(state)]
    with j.active():
        for stretch in stretches:
            j.mark()
            for name, n in stretch:
                OPERATIONS[name](state, n)
            j.seal()   # (a call's end: what it brought in converted)
            seen.append(snapshot(state))
        back = data.draw(st.integers(0, len(stretches)))
        j.revert(back)
    assert snapshot(state) == seen[back]
    # what the state holds after it is recorded again: going on and back once more is exact too
    with j.active():
        j.mark()
        OPERATIONS["append"](state, 99)
        OPERATIONS["new_child"](state, 1)
        j.seal()
        j.revert(back)
    assert snapshot(state) == seen[back]


def test_an_instance_made_in_the_stretch_is_not_recorded_until_it_joins_the_state():
    state = State()
    j = started(state)
    with j.active():
        j.mark()
        temporary = Thing()
        temporary.count = 5
        before = len(j.records)
        temporary.count = 6
        assert len(j.records) == before   # (made now: no earlier stretch holds it)
        state.things[0].child = temporary
        j.seal()
        assert type(temporary.items) is TList   # sealed: its containers recorded from now on
        j.mark()
        temporary.items.append(7)
        j.revert(1)
    assert list(temporary.items) == [1, 2, 3]


def test_an_engine_class_not_tracked_makes_the_journal_unusable():
    class Loose:
        __module__ = "engine.somewhere"

        def __init__(self):
            self.values = []

    state = State()
    j = started(state)
    assert j.usable
    with j.active():
        j.mark()
        state.things[0].child = Loose()
        j.seal()
    assert not j.usable and j.untracked is Loose


def test_note_puts_back_a_change_made_unrecorded():
    state = State()
    j = started(state)
    with j.active():
        j.mark()
        journal.note(setattr, state.things[0], "count", 0)
        with journal.unrecorded():
            state.things[0].count = 41
        j.revert(0)
    assert state.things[0].count == 0


def test_trim_keeps_at_least_keep_stretches():
    state = State()
    j = Journal(state, (frozenset(), frozenset()), keep=3)
    j.start(0, reached(state))
    with j.active():
        for n in range(10):
            j.mark()
            state.things[0].items.append(n)
            j.trim()
    assert j.reaches(10 - 3) and not j.reaches(0)
    with j.active():
        j.revert(10 - 3)
    assert list(state.things[0].items) == [1, 2, 3, 0, 1, 2, 3, 4, 5, 6]


# ---------------------------------------------------------------------------- in a game
def _fresh_1856():
    game = engine.new_game("1856", ["a", "b", "c"], game_id="journal-test")
    game._journal_wanted = True   # (as after its first undo)
    return game


def test_a_refused_action_is_put_back_by_the_journal(monkeypatch):
    game = _fresh_1856()
    acting = game.acting_players()[0]
    game.process({"type": "pass", "entity": acting, "entity_type": "player"})
    digest, view = game.digest(), copy.deepcopy(game.view())
    rebuilt = []
    monkeypatch.setattr(api.Game, "_rebuild", lambda self: rebuilt.append(1))
    with pytest.raises(engine.GameError):
        game.process({"type": "bid", "entity": acting, "entity_type": "player", "company": "nowhere", "price": 1})
    assert rebuilt == [] and game._journal is not None
    assert game.digest() == digest and game.view() == view


def test_an_undo_goes_back_by_the_journal_to_the_replayed_state():
    game = _fresh_1856()
    for _ in range(3):
        acting = game.acting_players()[0]
        game.process({"type": "pass", "entity": acting, "entity_type": "player"})
    state = game.state
    game.process({"type": "undo", "entity": game.acting_players()[0], "entity_type": "player"})
    assert game.state is state   # (put back in place, not rebuilt)
    replayed = engine.import_game({**game.export(), "actions": game.actions})
    assert game.digest() == replayed.digest()
    game.process({"type": "redo", "entity": game.acting_players()[0], "entity_type": "player"})
    assert game.state is state
    assert game.digest() == engine.import_game({**game.export(), "actions": game.actions}).digest()


def test_without_a_journal_an_undo_rebuilds(monkeypatch):
    monkeypatch.setattr(api, "JOURNAL_KEPT", 0)
    game = _fresh_1856()
    for _ in range(2):
        game.process({"type": "pass", "entity": game.acting_players()[0], "entity_type": "player"})
    state = game.state
    game.process({"type": "undo", "entity": game.acting_players()[0], "entity_type": "player"})
    assert game.state is not state and game._journal is None


def test_a_game_starts_its_journal_once_it_has_gone_back_by_rebuilding():
    game = engine.new_game("1856", ["a", "b", "c"], game_id="journal-lazy")
    game.process({"type": "pass", "entity": game.acting_players()[0], "entity_type": "player"})
    assert game._journal is None   # (a game that never goes back pays for no journal)
    game.process({"type": "undo", "entity": game.acting_players()[0], "entity_type": "player"})
    assert game._journal is None   # rebuilt, as without a journal
    game.process({"type": "pass", "entity": game.acting_players()[0], "entity_type": "player"})
    state = game.state
    assert game._journal is not None
    game.process({"type": "undo", "entity": game.acting_players()[0], "entity_type": "player"})
    assert game.state is state
    assert game.digest() == engine.import_game({**game.export(), "actions": game.actions}).digest()
    assert game.digest() == engine.import_game({**game.export(), "actions": game.actions}).digest()
