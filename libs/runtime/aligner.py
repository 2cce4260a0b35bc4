"""Recorded games played through today's rules: `ReplayAligner` lines a record's entries up with the
automatic moves the engine makes now, for replays that submit every entry as the players did
(`roundhouse client replay`, the tests' engine oracle, `make trace-diff ARGS=--live`).

A pure replay oracle: it reads and returns action dicts and never talks to a game itself (the caller
submits each move, to the engine or through the gateway), so it imports neither the engine's state
nor gRPC."""

from __future__ import annotations

import json
from typing import Any

from engine.actions import NON_GAME, live_entries

# Keys of a recorded action that the platform or the engine sets itself.
RECORDED_ONLY = ("id", "original_id", "auto_actions")

# Fields of a recorded action that describe the record rather than the move.
NOT_THE_MOVE = ("id", "original_id", "auto_actions", "skip", "user", "created_at")
# Automatic actions only the rules make (a player cannot submit them).
ENGINE_ONLY_TYPES = ("destination_connection", "program_disable")
# Recorded choices an automatic pass of the same entity makes unnecessary: 1822's double-cash
# choice, skipped today when it cannot change the player order.
CHOICES_AN_AUTOMATIC_PASS_SKIPS = ("choose",)


class ReplayMismatch(Exception):
    """A recorded entry that cannot be lined up with what today's rules do (phrased for the user)."""


def move_fields(action: dict) -> dict:
    """The move an action makes, without what describes its record (a program_disable's reason is
    free text naming the players as they were called then)."""
    out = {k: v for k, v in action.items() if k not in NOT_THE_MOVE}
    if out.get("type") == "program_disable":
        out.pop("reason", None)
    return out


def same_move(a: dict, b: dict) -> bool:
    return move_fields(a) == move_fields(b)


def _moves(actions) -> list[dict]:
    # program_disable only disarms a program; the moves programs make are compared themselves
    return [a for a in actions or () if a.get("type") != "program_disable"]


def _describe(action: dict) -> str:
    return json.dumps(move_fields(action), sort_keys=True, default=str)


def _describe_all(actions: list) -> str:
    return "[" + ", ".join(_describe(a) for a in actions) + "]"


class ReplayAligner:
    """Lines a recorded game's entries up with the automatic moves today's rules make, for replays
    that submit every entry as the players did (`client replay`, and the tests' engine oracle).

    For each recorded entry `next` says what to submit: the entry without its record fields, or
    None when nothing is to be submitted because
    - an earlier automatic move of ours is this very move (same fields apart from id, time, user):
      rules made automatic after the game was played (1822's destination token, a major with no
      connected minor skipping the acquisition, a programmed pass on the player's own turn), or
    - an automatic pass of ours made this recorded choice of the same entity unnecessary (1822's
      double-cash choice that cannot change the order), or
    - it is an undo/redo touching only such entries.
    After each submission `submitted(our_id, generated)` compares the engine's automatic moves with
    the recorded ones: ours may go further (the record has the rest as its next entries, which must
    then be exactly those moves), or the record may (older rules made more moves automatically: those
    are returned, to be submitted by hand). Anything else raises ReplayMismatch.

    Undo and redo follow the record: the entries they remove or restore are mapped to our actions
    (an undo becomes an undo to just before our first removed action when the plain form would not
    remove exactly those), and what is still ahead of the record is restored with them.

    An entry the record itself undoes later (`actions`: the whole record, else its "skip" mark) may
    differ from ours in the rules' own checks (destination_connection): its effects are discarded
    with it. Such an entry may even be refused by today's rules (a move legal when it was played):
    `refused(reason)` then skips it (`skipped` says which and why, and which undo removed it), and
    its undo sends nothing for it."""

    def __init__(self, actions: list | None = None):
        try:
            self.undone = None if actions is None else [not live for live in live_entries(actions)]
        except Exception:   # an undo naming an unknown action: refused when it comes
            self.undone = None
        self.entries: list[dict] = []      # recorded entries so far
        self.live: list[bool] = []         # which of them are live (undo/redo resolved)
        self.ours: list[list[int]] = []    # per entry: ids of the actions submitted for it
        self.ahead_after: list[tuple] = []  # per entry: our automatic moves the record still has to make
        self.ahead: list[dict] = []
        self.undos: list[bool] = []        # the record's undo stack: was each undo submitted?
        self.extras = 0                    # recorded automatic moves being submitted by hand
        self.skipped: list[dict] = []      # entries refused by today's rules that the record undoes
        # state before an entry whose submission is unconfirmed: (entries, live, undos, ahead, extras)
        self._saved: tuple[int, list[bool], list[bool], list[dict], int] | None = None

    # ----------------------------------------------------------------- per entry
    def next(self, recorded: dict) -> dict | None:
        """The move to submit for the next recorded entry (None: nothing to submit). When the
        previous move returned was never confirmed by `submitted` (the engine refused it), that
        entry is forgotten first, so the same entry may be tried again."""
        if self._saved is not None:
            self._restore()
        self._save()
        index = len(self.entries)
        self.entries.append(recorded)
        self.ours.append([])
        self.ahead_after.append(())
        plain = {k: v for k, v in recorded.items() if k not in RECORDED_ONLY}
        move: dict | None = plain
        kind = recorded.get("type")
        if kind in ("undo", "redo"):
            move = self._undo_redo(index, plain)
        elif kind in NON_GAME:
            self.live.append(True)
        else:
            self.live.append(True)
            self.undos.clear()
            if self.ahead and not str(kind).startswith("program_"):
                # (a program is armed out of turn: it is submitted, what it makes compared with ours)
                self._against_ahead(index, recorded)
                move = None
        if move is None:
            self.ahead_after[index] = tuple(self.ahead)
            self._saved = None
        return move

    def submitted(self, our_id: int, generated: list | None) -> list[dict]:
        """The move last returned by `next` (or by this method) was applied as our action `our_id`
        with the automatic moves `generated`. Returns recorded automatic moves our engine did not
        make, to be submitted by hand (each confirmed by calling this again)."""
        self._saved = None   # the engine took the move: the entry stays
        index = len(self.entries) - 1
        recorded = self.entries[index]
        self.ours[index].append(our_id)
        extras: list[dict] = []
        if self.extras:   # a recorded automatic move submitted by hand: what it causes is ahead
            self.extras -= 1
            self.ahead.extend(_moves(generated))
        elif recorded.get("type") not in ("undo", "redo", *NON_GAME):
            self.ahead = self.ahead + _moves(generated)
            extras = self._recorded_automatic(index, recorded)
        self.ahead_after[index] = tuple(self.ahead)
        return extras

    def refused(self, reason: str) -> bool:
        """Today's rules refused the move last returned by `next` for its entry. When the record
        undoes that entry later, it is skipped (the replay plays on, as the players did after
        undoing it) and True is returned; otherwise False, and the entry is forgotten as after any
        refusal (see `next`)."""
        index = len(self.entries) - 1
        recorded = self.entries[index] if self.entries else {}
        if self._saved is None or recorded.get("type") in ("undo", "redo", *NON_GAME) or not self._undone(index):
            return False   # (no move of this entry awaits an answer, or the record keeps it)
        self._saved = None
        self.ahead_after[index] = tuple(self.ahead)
        self.skipped.append({"index": index, "id": recorded.get("id"), "type": recorded.get("type"),
                             "reason": reason, "undone_at": None})
        return True

    # ----------------------------------------------------------------- helpers
    def _recorded_automatic(self, index: int, recorded: dict) -> list[dict]:
        """Line the entry's recorded automatic moves up with ours (`self.ahead`): ours may go
        further (the rest stays ahead), or the record's (the rest is returned, to submit by hand)."""
        ours, theirs = self.ahead, _moves(recorded.get("auto_actions"))
        a, b = [move_fields(x) for x in ours], [move_fields(x) for x in theirs]
        if a[:len(b)] != b and b[:len(a)] != a and self._undone(index):
            # the record undoes this entry later: the rules' own checks may differ meanwhile
            ours = [x for x in ours if x.get("type") not in ENGINE_ONLY_TYPES]
            theirs = [x for x in theirs if x.get("type") not in ENGINE_ONLY_TYPES]
            a, b = [move_fields(x) for x in ours], [move_fields(x) for x in theirs]
        if a[:len(b)] == b:
            self.ahead = ours[len(b):]
            return []
        if b[:len(a)] == a:
            extras = theirs[len(a):]
            only = [x for x in extras if x.get("type") in ENGINE_ONLY_TYPES]
            if only:
                raise ReplayMismatch(f"the record's automatic {_describe(only[0])} is not what "
                                     f"today's rules do (ours: {_describe_all(ours)})")
            self.ahead, self.extras = [], len(extras)
            return [{k: v for k, v in x.items() if k not in RECORDED_ONLY} for x in extras]
        raise ReplayMismatch(f"the record's automatic moves {_describe_all(theirs)} differ from "
                             f"today's rules' {_describe_all(ours)}")

    def _undone(self, index: int) -> bool:
        if self.undone is not None and index < len(self.undone):
            return self.undone[index]
        return bool(self.entries[index].get("skip"))

    def _against_ahead(self, index: int, recorded: dict) -> None:
        """A recorded entry while our automatic moves are ahead of the record: it must be the next of them."""
        head = self.ahead[0]
        if same_move(recorded, head):
            self.ahead.pop(0)       # our automatic move made it already
        elif (head.get("type") == "pass" and recorded.get("type") in CHOICES_AN_AUTOMATIC_PASS_SKIPS
                and str(head.get("entity")) == str(recorded.get("entity"))
                and head.get("entity_type") == recorded.get("entity_type")):
            self.ahead.pop(0)       # our automatic pass made the recorded choice unnecessary
        else:
            self._restore()
            raise ReplayMismatch(f"today's rules made {_describe(head)} automatically, but the "
                                 f"record's next move is {_describe(recorded)}")
        try:
            extras = self._recorded_automatic(index, recorded)
        except ReplayMismatch:
            self._restore()
            raise
        if extras:
            # the record made more moves automatically after a move ours made earlier: not lined up
            self._restore()
            raise ReplayMismatch(f"the record's automatic moves after {_describe(recorded)} go beyond "
                                 "today's rules' and cannot be submitted in their place")
        return None

    def _undo_redo(self, index: int, move: dict) -> dict | None:
        try:
            after = live_entries(self.entries)
        except Exception as exc:
            self._restore()
            raise ReplayMismatch(str(exc)) from None
        before = self.live + [False]
        changed = [i for i in range(index) if before[i] != after[i]]
        self.live = after
        for skip in self.skipped:
            if skip["undone_at"] is None and skip["index"] in changed:
                skip["undone_at"] = index
        if move["type"] == "redo":
            real = self.undos.pop() if self.undos else False
        else:
            ids = sorted(our for i in changed for our in self.ours[i])
            real = bool(ids)
            self.undos.append(real)
            plain = "action_id" not in move and len(changed) == 1 and len(ids) == 1
            if real and not plain:
                move = {**move, "action_id": ids[0] - 1}
        latest = [i for i in range(index) if after[i] and self.entries[i].get("type") not in NON_GAME]
        self.ahead = list(self.ahead_after[latest[-1]]) if latest else []
        return move if real else None

    def _save(self):
        self._saved = (len(self.entries), list(self.live), list(self.undos), list(self.ahead), self.extras)

    def _restore(self):
        assert self._saved is not None
        n, live, undos, ahead, extras = self._saved
        del self.entries[n:], self.ours[n:], self.ahead_after[n:]
        self.live, self.undos, self.ahead, self.extras = live, undos, ahead, extras
        self._saved = None


def play_entry(aligner: ReplayAligner, recorded: dict, submit, refusal=None) -> Any:
    """Play one recorded entry through `submit(move) -> (our_id, generated automatic moves, result)`
    as the aligner says; returns the last submission's result (None when nothing was submitted).
    `refusal(exc)`: the rules' reason when an exception `submit` raised is the game refusing the
    move (else None); an entry so refused that the record undoes later is skipped (see
    `ReplayAligner.refused`), any other refusal is raised as it came."""
    move = aligner.next(recorded)
    if move is None:
        return None
    try:
        our_id, generated, result = submit(move)
    except Exception as exc:
        reason = refusal(exc) if refusal is not None else None
        if reason is None or not aligner.refused(reason):
            raise
        return None
    for extra in aligner.submitted(our_id, generated):
        our_id, generated, result = submit(extra)
        aligner.submitted(our_id, generated)
    return result
