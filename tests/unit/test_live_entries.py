"""Which log entries are live once undos and redos apply: the tracker kept entry by entry (what a
game uses at every undo) against a from-scratch reading of the rule, on generated logs."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GameError
from engine.actions import NON_GAME, LiveEntries, live_entries


def scratch(actions: list) -> list:
    """The rule read afresh over the whole log: an undo takes out the latest live game action (or
    every one after its action_id, 0 meaning all), a redo brings back what the latest pending undo
    took out, a game action forgets pending redos, messages stay live."""
    live, pending = [], []
    for index, action in enumerate(actions):
        kind = action["type"]
        if kind == "undo":
            target = action.get("action_id")
            if target is None:
                games = [j for j in range(index) if live[j] and actions[j]["type"] not in NON_GAME]
                taken = games[-1:]
            else:
                first = next(j for j, a in enumerate(actions) if a["id"] == target) if target else -1
                taken = [j for j in range(first + 1, index) if live[j] and actions[j]["type"] not in NON_GAME]
            for j in taken:
                live[j] = False
            pending.append(taken)
            live.append(False)
        elif kind == "redo":
            for j in pending.pop() if pending else []:
                live[j] = True
            live.append(False)
        else:
            if kind not in NON_GAME:
                pending.clear()
            live.append(True)
    return live


@st.composite
def logs(draw):
    actions: list[dict] = []
    for index in range(draw(st.integers(0, 40))):
        kind = draw(st.sampled_from(["move", "move", "move", "message", "undo", "undo", "redo"]))
        action = {"type": kind, "id": index + 1}
        if kind == "undo" and index and draw(st.booleans()):
            action["action_id"] = draw(st.integers(0, index))
        actions.append(action)
    return actions


@settings(max_examples=300, deadline=None)
@given(logs())
def test_the_tracker_kept_entry_by_entry_reads_the_log_as_the_rule_does(actions):
    expected = scratch(actions)
    assert live_entries(actions) == expected
    tracker = LiveEntries()
    for index, action in enumerate(actions):
        before = tracker.copy()
        changed = tracker.add(action, actions[:index])
        assert tracker.flags == scratch(actions[:index + 1])
        assert before.flags == scratch(actions[:index])   # a copy is left as it was
        assert sorted(changed) == [j for j in range(index) if before.flags[j] != tracker.flags[j]]
        again = before.copy()   # (the pending undos too are the copy's own: a redo here takes them again)
        assert sorted(again.add(action, actions[:index])) == sorted(changed) and again.flags == tracker.flags


def test_an_undo_naming_an_unknown_action_is_refused():
    actions = [{"type": "move", "id": 1}, {"type": "undo", "id": 2, "action_id": 7}]
    try:
        live_entries(actions)
    except GameError as exc:
        assert "unknown action id 7" in exc.reason and exc.index == 1
    else:
        raise AssertionError("an undo naming no entry of the log was accepted")
