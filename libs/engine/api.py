"""The engine's public API: create, import, play, inspect, export and snapshot games.

See docs/engine-api.md. Everything here takes and returns JSON-safe plain data.
"""

from __future__ import annotations

import copy
import functools
import gc
import hashlib
import json
import pickle
import struct
import threading
import weakref
import zlib
from collections.abc import Generator, Iterator
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

import orjson
import zstandard

from . import journal as journals
from . import statecopy, stepwise
from . import titles as registry
from .actions import LiveEntries, live_entries
from .errors import GameError
from .jsoncopy import copy_json as _copy_json
from .rng import seed_for

T = TypeVar("T")

SNAPSHOT_FORMAT = "roundhouse-snapshot/1"
# Game.dump(): a zstd-compressed container (level 1; zlib in earlier builds' dumps, still read) of
# STATE_MAGIC, a JSON header (format, engine build, the title's seeds, the game's set-up, its action
# log, digest) and the rules state pickled by statecopy.dumps (the title's data and tile
# descriptions named by their number among the title's seeds, not written). The pickle is read only
# by the engine build that wrote it (engine_build()) whose process lists the same seeds
# (statecopy.seeds_fingerprint); otherwise the action log is replayed instead. STATE_FORMAT_1 (a
# plain pickle, an older build's) is always replayed.
STATE_MAGIC = b"RHSTATE1"
STATE_FORMAT = "roundhouse-state/2"
STATE_FORMAT_1 = "roundhouse-state/1"
# Rebuilding a state after an undo (or a refused action) starts from a kept copy (checkpoint) of an
# earlier state on the same line of play instead of from the set-up: live play keeps a copy every
# CHECKPOINT_EVERY entries, a long rebuild one near its end; at most CHECKPOINTS_KEPT are held. A copy
# of the state a call ends at is taken after its answer (Game.settle), or else before the next call
# changes the state.
CHECKPOINT_EVERY = 50
# ... and every CHECKPOINT_EVERY_JOURNALED entries while the game keeps a journal: an undo then goes
# back by the journal, and a copy serves only one beyond its reach (rare), which replays further.
CHECKPOINT_EVERY_JOURNALED = 200
CHECKPOINT_NEAR = 25
CHECKPOINT_END = 8
CHECKPOINTS_KEPT = 3
# Rules states a game has dropped (undos) kept for its let_go, at most (see Game.let_go).
DROPPED_KEPT = 4
# Live play journals the changes of the last JOURNAL_KEPT entries at least (twice as many at most):
# an undo or a refused action within them puts the state back without a copy (engine.journal). A
# game starts its journal once it has gone back by rebuilding (its first undo or refused action in
# the process: starting one walks and converts the state, 7-20 ms, which a game that never goes back
# does not pay), or resumes the journal its dump was written with. 0: no journal.
JOURNAL_KEPT = 20
# Fields of a stored action that describe the record rather than the move.
RECORD_FIELDS = ("id", "original_id", "auto_actions", "skip", "user", "created_at")


def list_titles() -> list:
    return [registry.describe(slug) for slug in registry.SLUGS]


def title_facts(title) -> dict:
    """A title's facts as the engine reads them (its data file with the shared tiles filled in):
    what a client needs to draw the map, the market and the charters. A deep copy: callers may keep
    or change it."""
    return copy.deepcopy(registry.load_data(registry.slug_for(title)))


def _players(players) -> list:
    out = []
    for p in players or []:
        if isinstance(p, str):
            out.append({"id": p, "name": p})
        elif isinstance(p, dict) and p.get("name") is not None:
            out.append({"id": p.get("id", p["name"]), "name": str(p["name"])})
        else:
            raise GameError(f"A player needs a name: {p!r}")
    return out


def _recorded(method):
    """A call that reads or changes the rules state, with the game's journal (if it keeps one) taking
    the changes: a read fills caches of the state as it goes (a round's steps, the board's chains)."""
    @functools.wraps(method)
    def call(self, *args, **kwargs):
        journal = self._journal
        if journal is None:
            with journals.unrecorded():
                return method(self, *args, **kwargs)
        with journal.active():
            try:
                return method(self, *args, **kwargs)
            finally:
                self._seal(journal)
    return call


class Game:
    """A game of some title: its set-up, its action log and the rules state the log leads to."""

    _journal = None        # (as a game read by ``load`` or unpickled starts: see __init__)
    _unjournaled = False
    _resumable = False     # the state is a journaled one read by ``load``: its journal resumes without a walk
    _journal_wanted = False   # the game went back by rebuilding once: its journal starts with its next call

    def __init__(self, title, players, *, seed=None, game_id="", optional_rules=(), _actions=None):
        self.slug = registry.slug_for(title)
        self.players = _players(players)
        self.game_id = str(game_id or "")
        self.seed = seed_for(self.game_id, seed)
        known = {r["sym"] for r in registry.describe(self.slug)["optional_rules"]}
        unknown = [r for r in optional_rules or () if r not in known]
        if unknown:
            raise GameError(f"Unknown optional rules for {self.slug}: {', '.join(unknown)}")
        self.optional_rules = list(optional_rules or ())
        actions = [dict(a) for a in _actions or ()]
        # (indexes of the log entries a state has applied, that state copied by statecopy.dumps for
        # the title's slug, the slug, its game log's lines when the copy leaves them out), oldest first
        self._checkpoints = []
        self._forget_position()
        self._applied = []   # indexes of the log entries the current state has applied, in order
        self._since_checkpoint = 0   # entries applied since the current state was (or left) a checkpoint
        self._copy_due = None   # the entries applied by the current state when a copy of it is due
        self._dropped = []   # rules states replaced and not yet let go (see let_go)
        self._journal: journals.Journal | None = None   # the changes of live play (see _recorded)
        self._unjournaled = False   # the state reaches what a journal cannot put back
        self._state = self._replay(actions, keep=False) if actions else self._fresh()
        self._made = _full_collections()   # when the state was made (see _drop_state)
        self._actions = actions
        self._live: LiveEntries | None = None   # which entries of the log are live, once asked
        self.title = self._state.title
        self.loaded_by = "replay" if actions else "setup"

    def _forget_position(self) -> None:
        self._position: tuple = (None, {})

    def _at_position(self) -> dict:
        """What is computed once per position, keyed by (state identity, seq): the legal actions
        ("legal"), tile lays ("lays": {(entity type, entity, hex): lays}), the digest, the board's
        view ("map": the digest and the views share it) and the players' values ("values": a
        decision's record, the summary and the views share them). A new position starts afresh."""
        key = (id(self._state), self.seq)
        if self._position[0] != key:
            self._position = (key, {})
        return self._position[1]

    # ------------------------------------------------------------ building states

    def _fresh(self):
        data = registry.load_data(self.slug)
        cls = registry.game_class(self.slug)
        return cls(data, self.players, seed=self.seed, optional_rules=self.optional_rules, game_id=self.game_id)

    def _replay(self, actions, *, recorded_auto=True, keep=True):
        """A state built from ``actions`` (a full log including undo/redo/message entries): its live
        entries applied in order, from the longest checkpoint that begins them (else from the
        set-up). With ``keep``, a replay of CHECKPOINT_END entries or more keeps its result, and a
        longer one a state CHECKPOINT_NEAR entries before that too: undos come in runs (undo, play
        again, undo; or several undos), and the next ones go back to about there. The cyclic garbage
        collector waits meanwhile (see ``_without_gc``): a replay makes a great many containers that
        outlive it, and tracing them again and again costs a tenth of the replay; what it leaves as
        garbage (the rounds it went through) is collected afterwards."""
        return _without_gc(self._replay_entries, actions, recorded_auto, keep)

    def _replay_entries(self, actions, recorded_auto, keep, live=None):
        with journals.unrecorded():   # (a state being built: a journal starts once it is played)
            return self._replayed(actions, recorded_auto, keep, live)

    def _replayed(self, actions, recorded_auto, keep, live):
        if live is None:
            live = live_entries(actions)
        wanted = [i for i, is_live in enumerate(live) if is_live]
        usable = [(len(applied), blob, slug, lines) for applied, blob, slug, lines in self._checkpoints
                  if len(applied) <= len(wanted) and wanted[:len(applied)] == applied]
        start, blob, slug, lines = max(usable, key=lambda c: c[0], default=(0, None, None, None))
        if blob is None:
            state = self._fresh()
        else:
            state = _without_gc(statecopy.loads, blob, slug)
            if lines is not None:
                state.log.extend(lines)
        end = len(wanted)
        keep_at = set()
        if keep and end - start > CHECKPOINT_NEAR:
            keep_at.add(end - CHECKPOINT_NEAR)
        if keep and end - start >= CHECKPOINT_END:
            keep_at.add(end)
        since = 0
        state.loading = True
        for position in range(start, end + 1):
            if position in keep_at:
                since = 0
                if position == end:   # the state the rebuild ends at: copied once the caller has its answer
                    self._copy_due = list(wanted)
                    break
                state.loading = False
                self._checkpoint(state, wanted[:position])
                state.loading = True
            if position == end:
                break
            index = wanted[position]
            action = actions[index]
            if not isinstance(action, dict):
                raise GameError("An action must be a JSON object", index=index)
            _apply_entry(state, index, action, recorded_auto)
            since += 1
        state.loading = False
        self._applied = wanted
        self._since_checkpoint = since
        return state

    def _checkpoint(self, state, applied) -> None:
        """Keep a copy of ``state``, which has applied the log entries ``applied`` (the oldest copy
        goes beyond CHECKPOINTS_KEPT). The game log's lines are kept beside the copy, not in it: a
        tuple of the very strings the state holds (only added to, never changed), so a late copy is
        about a fifth smaller and cheaper to write and read, and its lines take no memory twice."""
        log = state.log
        lines = tuple(log)
        with journals.unrecorded():
            list.clear(log)   # (the state's one log list: the bank, say, writes to it too)
            try:
                blob = _without_gc(statecopy.dumps, state, self.slug)
            except (pickle.PicklingError, TypeError, AttributeError):   # then undos replay from further back
                return
            finally:
                list.extend(log, lines)
        self._checkpoints.append((list(applied), blob, self.slug, lines))
        del self._checkpoints[:-CHECKPOINTS_KEPT]

    # ------------------------------------------------------------ playing
    @property
    def seq(self) -> int:
        return len(self._actions)

    @property
    def actions(self) -> list:
        return _copy_json(self._actions)

    def process(self, action: dict) -> dict:
        if not isinstance(action, dict):
            raise GameError("An action must be a JSON object")
        # The log keeps its own copy: the caller's dict (and anything nested in it) stays the caller's.
        stored = _copy_json({k: v for k, v in action.items() if k not in ("id", "original_id", "auto_actions", "skip")})
        stored["id"] = self.seq + 1
        self._copy_if_due()
        journal = self._playing()
        if journal is None:
            with journals.unrecorded():
                return self._process(stored, None)
        with journal.active():
            try:
                return self._process(stored, journal)
            finally:
                self._seal(journal)

    def _process(self, stored: dict, journal) -> dict:
        kind = stored.get("type")
        if kind in ("undo", "redo"):
            return self._undo_redo(stored, journal)
        if self._state.finished and kind != "message":
            raise GameError("The game is over")
        state = self._state
        if journal is not None:
            journal.mark()
        try:
            auto = state.process(_move(stored))
        except GameError:
            self._put_back(journal)
            raise
        except Exception as exc:  # a rules bug must not leave a half-applied action behind
            self._put_back(journal)
            raise GameError(f"Internal error while applying {kind}: {exc.__class__.__name__}: {exc}") from exc
        if journal is not None:
            journal.trim()
        if auto:
            stored["auto_actions"] = auto
        self._applied.append(len(self._actions))
        self._actions.append(stored)
        if self._live is not None:   # a game action or a message: live (a game action forgets pending redos)
            self._live.add(stored, self._actions)
        self._since_checkpoint += 1
        if self._since_checkpoint >= (CHECKPOINT_EVERY if journal is None else CHECKPOINT_EVERY_JOURNALED):
            self._copy_due = list(self._applied)   # copied once the caller has its answer (settle)
            self._since_checkpoint = 0
        return _copy_json(stored)

    def entries_changed_by(self, action: dict) -> list[int]:
        """The ids (1-based positions in the log) of the entries an ``undo`` or ``redo`` would take
        out of play or bring back, without changing anything; GameError when it would change nothing
        ("Nothing to undo") or names an unknown action."""
        kind = action.get("type") if isinstance(action, dict) else None
        if kind not in ("undo", "redo"):
            raise GameError("Only an undo or a redo changes earlier entries")
        stored = {k: v for k, v in action.items() if k not in ("id", "original_id", "auto_actions", "skip")}
        changed = self._live_entries().copy().add(stored, self._actions)
        if not changed:
            raise GameError("Nothing to undo" if kind == "undo" else "Nothing to redo")
        return sorted(i + 1 for i in changed)

    def _live_entries(self) -> LiveEntries:
        """Which entries of the log are live, kept from one entry to the next (read-only: a change
        is made on a copy)."""
        if self._live is None:
            self._live = LiveEntries.of(self._actions)
        return self._live

    def _undo_redo(self, stored: dict, journal) -> dict:
        candidate = self._actions + [stored]
        after = self._live_entries().copy()
        if not after.add(stored, self._actions):
            raise GameError("Nothing to undo" if stored["type"] == "undo" else "Nothing to redo")
        if journal is not None:
            wanted = [i for i, is_live in enumerate(after.flags) if is_live]
            applied, keep = self._applied, 0
            while keep < min(len(applied), len(wanted)) and applied[keep] == wanted[keep]:
                keep += 1
            if not journal.reaches(keep):
                journal = None
        try:
            if journal is not None:
                self._go_back(journal, keep, wanted, candidate)
            else:
                self._journal_wanted = True
                self._drop_state()
                self._state = _without_gc(self._replay_entries, candidate, True, True, after.flags)
                self._made = _full_collections()
        except BaseException:
            self._rebuild()   # the position before the refused undo
            raise
        self._actions = candidate
        self._live = after
        return _copy_json(stored)

    def _go_back(self, journal, keep: int, wanted: list, actions: list) -> None:
        """The state put back to its first ``keep`` entries by the journal, then the rest of ``wanted``
        (entries a redo brings back) applied, as a rebuild would (their recorded automatic moves)."""
        journal.revert(keep)
        applied = self._applied
        del applied[keep:]
        state = self._state
        for index in wanted[keep:]:
            journal.mark()
            action = actions[index]
            _set_loading(state, True)
            try:
                _apply_entry(state, index, action, True)
            finally:
                _set_loading(state, False)
            applied.append(index)
        self._since_checkpoint += len(wanted) - keep
        journal.trim()

    def _put_back(self, journal) -> None:
        """The state as it was before a refused action: put back by the journal, else rebuilt."""
        if journal is not None and journal.reaches(len(self._applied)):
            journal.revert(len(self._applied))
        else:
            self._rebuild()

    def _playing(self):
        """The journal of live play, started once the game has gone back by rebuilding or resumed from a
        journaled dump (None until then, when the game keeps none, or when its state reaches what the
        journal cannot put back: see engine.journal)."""
        stepwise.finish(self._journal_steps(False))
        return self._journal

    def _journal_steps(self, stepped: bool) -> Iterator[int]:
        """``_playing``'s start of the journal, in steps when ``stepped`` (``engine.stepwise``): the
        walk of the state, then its conversion (Journal.start_steps)."""
        if (self._journal is None and JOURNAL_KEPT and self._state is not None and not self._unjournaled
                and (self._resumable or self._journal_wanted)):
            journal = journals.Journal(self._state, statecopy.shared_ids(self.slug), JOURNAL_KEPT)
            if self._resumable:
                journal.resume(len(self._applied))
            else:
                walk = statecopy.reachable_steps(self._state, self.slug, stepwise.STEP_OBJECTS if stepped else None)
                objects = yield from _quietly(walk)
                yield from _quietly(journal.start_steps(len(self._applied), objects,
                                                        stepwise.STEP_INSTANCES if stepped else None))
            self._journal = journal
            self._seal(journal)

    def _seal(self, journal) -> None:
        """What the last call brought into the state converted (Journal.seal); a journal that cannot
        put its state back is dropped (the game goes back by rebuilding until its state is replaced)."""
        if self._journal is not journal:
            return
        with journals.unrecorded():
            journal.seal()
        if not journal.usable:
            self._journal = None
            self._unjournaled = True

    def _rebuild(self) -> None:
        """The state rebuilt from the log, the one it replaces dropped (a refused action's)."""
        self._journal_wanted = True
        self._drop_state()
        self._state = self._replay(self._actions)
        self._made = _full_collections()

    def _copy_if_due(self) -> None:
        """Take the copy of the current state that the last call left due (see ``settle``)."""
        due, self._copy_due = self._copy_due, None
        if due is not None and self._state is not None and due == self._applied:
            self._checkpoint(self._state, due)

    def settle(self) -> int:
        """The work the last call left for after its answer: the copy of the state it ended at, when
        one is due (every CHECKPOINT_EVERY entries, and at the end of a long rebuild: a few
        milliseconds late in a game), the journal a rebuild asked for (its walk of the whole state:
        10-30 ms, which the game's next move would wait for otherwise), then ``let_go``; the number of
        objects let go of. An engine process does it once it has answered, in steps
        (``settle_steps``); without it, the copy is taken and the journal started when the next call
        begins, before anything changes."""
        return sum(self.settle_steps(False))

    def settle_steps(self, stepped: bool = True) -> Iterator[int]:
        """``settle`` in steps of a millisecond or two (``engine.stepwise``), each yielding the objects
        it let go of: an engine process answers the requests of other games between two of them
        (runtime.engines). Nothing may use the game before the last step (runtime.shard finishes
        them before the game's next request)."""
        self._copy_if_due()
        if self._journal is None and self._journal_wanted:
            yield 0
            yield from self._journal_steps(stepped)
        yield from self._let_go_steps(stepped)

    # ------------------------------------------------------------ letting go
    # A rules state is a web of reference cycles (a tile and its hex, a share and its corporation, a
    # step and its round): dropped, it is cyclic garbage that only the cyclic collector frees, and a
    # process that freezes what survives a full collection (runtime.collector) leaves one that lived
    # through a full collection to a compaction. A state this game drops (the one an undo or a
    # refused action's rebuild replaces) that was made since the last full collection is freed by a
    # collection of the young generations right away, alone and before the next state is read (about
    # 0.5-2 ms); an older one, or one that collection leaves alive (it had already outlived the young
    # generations, or the process froze it with them: runtime.collector's young mode; left alone, it
    # would be frozen garbage), is kept aside until ``let_go``, which cuts its cycles (statecopy.let_go,
    # the title's shared data never touched: 10-14 ms for a late state, far more than the collector
    # would take for it, were it not frozen) so that it is freed by reference counts. An engine
    # process calls it once it has answered (``settle``, runtime.engines), and ``close`` when it drops the
    # game. Nobody calling it (a script, a test that may still read objects of a dropped state), the
    # states beyond the newest DROPPED_KEPT are let go of as before: left to the collector, untouched.

    def __getstate__(self) -> dict:
        """A copy of the game (a pickle, ``copy.deepcopy``) holds no state it dropped."""
        self._copy_if_due()
        fields = self.__dict__.copy()
        fields["_dropped"] = []
        fields["_journal"] = None
        return fields

    def _drop_state(self) -> None:
        state, self._state = self._state, None
        self._journal = None
        self._unjournaled = self._resumable = False
        if state is None:
            return
        if self._made == _full_collections():
            if not gc.isenabled():
                return   # (a caller that turned the collector off: left to it)
            alive = weakref.ref(state)
            del state
            _collect_young()
            state = alive()   # still there: it outlived the young generations; cut its cycles too
            if state is None:
                return
        self._dropped.append(state)
        del self._dropped[:-DROPPED_KEPT]

    def let_go(self) -> int:
        """Cut the reference cycles of the rules states this game has dropped since the last call;
        the number of objects emptied (0 when there were none)."""
        return sum(self._let_go_steps(False))

    def _let_go_steps(self, stepped: bool) -> Iterator[int]:
        dropped, self._dropped = self._dropped, []
        for state in dropped:
            yield 0
            yield from statecopy.let_go_steps(state, self.slug, stepwise.STEP_OBJECTS if stepped else None)

    def close(self) -> int:
        """Let go of the game's rules state as of every one it dropped: the game is not to be used
        afterwards (its owner drops it)."""
        return sum(self.close_steps(False))

    def close_steps(self, stepped: bool = True) -> Iterator[int]:
        """``close``, in steps when ``stepped`` (``engine.stepwise``), each yielding the objects it let
        go of."""
        self._drop_state()
        self._forget_position()
        yield from self._let_go_steps(stepped)

    # ------------------------------------------------------------ reading
    @property
    def state(self):
        """The rules state (read-only use)."""
        return self._state

    @property
    def round_kind(self) -> str:
        return self._state.round.kind

    @property
    def round_label(self) -> str:
        return self._state.round.label

    @property
    def finished(self) -> bool:
        return self._state.finished

    @property
    def game_end_reason(self):
        return self._state.game_end_reason

    @property
    @_recorded
    def result(self) -> dict:
        return self._state.result() if self._state.finished else {}

    @property
    def revenue_mismatches(self) -> list:
        """Recorded routes whose revenue differs from our computation (replays keep the recorded
        revenue, as 18xx.games does): ``[{train, recorded, computed, error}]``."""
        return copy.deepcopy(self._state.revenue_mismatches)

    @_recorded
    def player_values(self) -> dict:
        """{player id: the player's value} (computed once per position)."""
        memo = self._at_position()
        values = memo.get("values")
        if values is None:
            values = memo["values"] = {str(p.id): self._state.player_value(p) for p in self._state.players}
        return dict(values)

    @_recorded
    def acting_players(self) -> list:
        from .views import acting_players
        return acting_players(self._state)

    @_recorded
    def controller_of(self, action: dict):
        from .views import controller_of
        return controller_of(self._state, action)

    @_recorded
    def best_routes(self, corporation_id: str) -> list:
        """The most profitable routes we find for the corporation's runnable trains (run_routes format)."""
        corporation = self._state.corporation_by_id(corporation_id)
        if corporation is None:
            raise GameError(f"Unknown corporation: {corporation_id}")
        return self._state.best_routes(corporation)

    @_recorded
    def legal_actions(self, *, shared: bool = False) -> list:
        """What each acting entity may do, with choices (see views.legal_actions). Computed once per
        position: reads between two actions (every client polling the game) share it. ``shared``:
        the position's own list rather than a copy, for a caller that only reads it."""
        from .views import legal_actions
        memo = self._at_position()
        legal = memo.get("legal")
        if legal is None:
            legal = memo["legal"] = legal_actions(self._state)
        return legal if shared else _copy_json(legal)

    @_recorded
    def tile_lays(self, entity, entity_type: str, hex_id: str | None = None) -> list:
        """The tiles ``entity`` may lay on hex ``hex_id`` now, with their rotations (every one previewed
        against the track restriction) and cost: a client asks for the hexes its legal actions offer
        (``lay_hexes``). ``hex_id`` None: every offered hex at once (slow late in a game). Computed
        once per position and hex, like legal_actions."""
        from .views import tile_lays
        if not isinstance(entity, (str, int)) or not (hex_id is None or isinstance(hex_id, str)):
            raise GameError("tile_lays takes an entity id and a hex id")
        known = self._at_position().setdefault("lays", {})
        asked = (entity_type, entity, hex_id)
        if asked not in known:
            known[asked] = tile_lays(self._state, entity_type, entity, hex_id)
        return _copy_json(known[asked])

    @_recorded
    def view(self, legal_actions: bool = True, *, shared: bool = False) -> dict:
        """The state for clients; ``legal_actions=False`` leaves out the legal actions and their
        choices (most of the cost). ``shared``: the parts computed once per position (the map, the
        legal actions) are the position's own rather than copies, for a caller that only reads
        the view (to serialise it)."""
        from .views import game_view
        return game_view(self, legal_actions, shared)

    @_recorded
    def map_view(self, *, shared: bool = False) -> dict | None:
        """The board's view (``Board.view``) at this position, computed once per position: the digest
        and every view of the position share it (a copy each unless ``shared``, as for ``view``)."""
        memo = self._at_position()
        if "map" not in memo:
            board = self._state.board
            memo["map"] = board.view() if board is not None else None
        return memo["map"] if shared else _copy_json(memo["map"])

    def export(self) -> dict:
        return {
            "id": self.game_id, "title": self.title, "players": copy.deepcopy(self.players),
            "settings": {"seed": self.seed, "optional_rules": list(self.optional_rules)},
            "actions": self.actions, "status": "finished" if self.finished else "active",
            "result": self.result, "game_end_reason": self.game_end_reason,
        }

    def snapshot(self) -> dict:
        return {"format": SNAPSHOT_FORMAT, "title": self.title, "game_id": self.game_id, "players": self.players,
                "seed": self.seed, "optional_rules": self.optional_rules, "actions": self.actions,
                "digest": self.digest()}

    def dump(self) -> bytes:
        """The game as bytes that ``engine.load`` turns back into an equal game without replaying it
        (by the same engine build; another build replays the action log the bytes carry). About a
        tenth of the pickled state's size; a few milliseconds."""
        try:
            state = _without_gc(statecopy.dumps, self._state, self.slug)
        except (pickle.PicklingError, TypeError, AttributeError):   # then load() replays the log
            state = b""
        header = _header_text({
            "format": STATE_FORMAT, "build": engine_build() if state else "", "title": self.title,
            "seeds": statecopy.seeds_fingerprint(self.slug) if state else "",
            "game_id": self.game_id, "players": self.players, "seed": self.seed,
            "optional_rules": self.optional_rules, "actions": self._actions, "applied": self._applied,
            "since_checkpoint": self._since_checkpoint, "digest": self.digest(),
            # every container of the state recorded, every instance sealed (engine.journal): a game
            # read from it resumes its journal without converting the state
            "journaled": bool(state) and self._journal is not None and self._journal.usable,
        })
        return _state_packer().compress(STATE_MAGIC + struct.pack(">I", len(header)) + header + state)

    @_recorded
    def digest(self) -> str:
        """A fingerprint of the state that matters for play (equal games give equal digests);
        computed once per position."""
        from .views import state_fingerprint
        memo = self._at_position()
        digest = memo.get("digest")
        if digest is None:
            text = fingerprint_text(state_fingerprint(self._state, self.map_view(shared=True)))
            digest = memo["digest"] = hashlib.sha256(text).hexdigest()[:16]
        return digest


def fingerprint_text(fingerprint) -> bytes:
    """The text a digest hashes: ``json.dumps(fingerprint, sort_keys=True, separators=(",", ":"),
    default=str)``, the definition every digest in a log was made with. orjson writes the same bytes
    several times faster for what a fingerprint holds (string keys, ASCII strings without escapes,
    integers, lists, booleans, None), and anything else (a key that is not a string, a character
    json escapes) is written by json itself: ``tests/unit/rules/test_digest_text.py`` holds the two to
    the same bytes on every recorded game's positions."""
    try:
        text = orjson.dumps(fingerprint, default=str, option=orjson.OPT_SORT_KEYS)
    except TypeError:   # (a key that is not a string, an integer beyond 64 bits)
        text = None
    if text is not None and text.isascii() and b"\\" not in text:
        return text
    return json.dumps(fingerprint, sort_keys=True, separators=(",", ":"), default=str).encode()


def _quietly(steps: Generator[int, None, T]) -> Generator[int, None, T]:
    """Each step of a walk of a state (``engine.stepwise``) with the collector waiting (see
    ``_without_gc``) and nothing journaled; what the walk returns."""
    while True:
        with journals.unrecorded():
            try:
                item = _without_gc(next, steps)
            except StopIteration as done:
                return done.value
        yield item


def _without_gc(function, *args):
    """``function(*args)`` with the cyclic garbage collector waiting: copying a state in or out of a
    checkpoint, or replaying a log, makes thousands of containers, few of them cyclic garbage, and
    collecting along the way would only trace them (and all the process holds) over and over."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return function(*args)
    finally:
        if paused:
            gc.enable()


def _full_collections() -> int:
    """How many full collections the process has run: a state made since the last one is not frozen
    by the process's collector (runtime.collector freezes what survives one)."""
    return gc.get_stats()[2]["collections"]


def _collect_young() -> None:
    """Collect the young generations, where a rules state just dropped (cyclic garbage) still is when
    it was made not long before (an undo's state replaced by the next undo): freeing one state there
    costs about 2 ms, while the collector's own schedule frees ten or so at once, at 120-150 ms (late
    1858 states; docs/architecture.md)."""
    if gc.isenabled():
        gc.collect(1)


def _apply_entry(state, index: int, action: dict, recorded_auto: bool) -> None:
    """Apply the log's entry ``index`` to ``state`` as a rebuild does (with its recorded automatic
    moves when ``recorded_auto``); a refusal names the entry."""
    try:
        state.process(_move(action), auto_actions=list(action.get("auto_actions") or ()) if recorded_auto else None)
    except GameError as err:
        raise err.at(index, action.get("id")) from None
    except Exception as exc:  # malformed input the rules did not anticipate
        raise GameError(f"cannot apply {action.get('type')}: {exc.__class__.__name__}: {exc}",
                        index=index, action_id=action.get("id")) from exc


def _set_loading(state, loading: bool) -> None:
    """A state's ``loading`` flag (set while it applies recorded entries), not journaled: it is
    never set between two calls."""
    with journals.unrecorded():
        state.loading = loading


def _move(action: dict) -> dict:
    """The part of a stored action the rules read (the record fields are not moves)."""
    return action


def new_game(title, players, *, seed=None, game_id="", optional_rules=()) -> Game:
    return Game(title, players, seed=seed, game_id=game_id, optional_rules=optional_rules)


def export_players(export: dict) -> list[dict]:
    """An export's seats in order, as ``new_game`` takes them (a seat without an id goes by its name)."""
    return [{"id": p.get("id", p.get("name")), "name": p.get("name")} for p in export.get("players") or []]


def import_game(export: dict) -> Game:
    if not isinstance(export, dict) or "actions" not in export:
        raise GameError("Not a game export: expected an object with 'title', 'players' and 'actions'")
    settings = export.get("settings") or {}
    players = export_players(export)
    actions = [dict(a) for a in export["actions"]]
    for i, a in enumerate(actions):
        if "id" not in a:
            a["id"] = i + 1
    return Game(export.get("title"), players, seed=settings.get("seed"), game_id=export.get("id", ""),
                optional_rules=settings.get("optional_rules") or (), _actions=actions)


def rules_of_record(export: dict) -> list[str]:
    """The optional rules a game exported from 18xx.games was played under: its settings' rules, and
    each rule that was then every game's rule (the title's ``former_defaults``: a record created
    before the day a rule became optional). A copy of the record played move by move is created with
    these (`roundhouse client replay`); `import_game` takes the settings as they are, as 18xx.games
    loads a record, following its recorded automatic moves."""
    settings = export.get("settings") or {}
    rules = list(settings.get("optional_rules") or ())
    created = str(export.get("created_at") or "")[:10]
    try:
        former = registry.load_data(registry.slug_for(export.get("title"))).get("former_defaults") or () if created else ()
    except GameError:   # (an unknown title: creating the game says so)
        former = ()
    return rules + [d["rule"] for d in former if created < d["until"] and d["rule"] not in rules]


def replay_copy(export: dict) -> Game:
    """A new game set up as the exported one was, to be played move by move: its seats (ids and
    names), its seed (else derived from its id), its id and the rules it was played under
    (`rules_of_record`)."""
    seed = (export.get("settings") or {}).get("seed")
    return new_game(export["title"], export_players(export), seed=seed if isinstance(seed, int) else None,
                    game_id=str(export.get("id", "")), optional_rules=rules_of_record(export))


_ZSTD_FRAME = b"\x28\xb5\x2f\xfd"
_packers = threading.local()


def _state_packer() -> zstandard.ZstdCompressor:
    """This thread's compressor of dumps (zstd at level 1: a late 1822 state's 765 kB in 1.1 ms, to
    112 kB; zlib at level 1 took 3.6 ms, to 137 kB)."""
    try:
        return _packers.compressor
    except AttributeError:
        _packers.compressor = zstandard.ZstdCompressor(level=1)
        return _packers.compressor


def _unpacked_state(data: bytes) -> bytes:
    """A dump's container, whether zstd (today's) or zlib (an earlier build's) packed it."""
    if data[:4] != _ZSTD_FRAME:
        return zlib.decompress(data)
    try:
        unpacker = _packers.decompressor
    except AttributeError:
        unpacker = _packers.decompressor = zstandard.ZstdDecompressor()
    return unpacker.decompress(data)


def _header_text(header: dict) -> bytes:
    """A dump's JSON header (its action log above all): by orjson, ten times as fast as json for a
    late game's log (0.23 against 2.2 ms); json writes what orjson cannot (a key that is not a string)."""
    try:
        return orjson.dumps(header, default=str)
    except TypeError:
        return json.dumps(header, separators=(",", ":"), default=str).encode()


def load(data: bytes) -> Game:
    """The game ``Game.dump`` wrote. By the engine build that wrote it: the rules state itself,
    checked against the digest it was written with (GameError when it differs). By another build (or
    when the state could not be pickled): the game rebuilt by replaying its action log, which today's
    rules may take elsewhere than the digest says (``game.loaded_by`` tells which way it went:
    "state" or "replay")."""
    try:
        raw = _unpacked_state(data)
        if raw[:len(STATE_MAGIC)] != STATE_MAGIC:
            raise ValueError("not a game state")
        at = len(STATE_MAGIC)
        (length,) = struct.unpack(">I", raw[at:at + 4])
        header = orjson.loads(raw[at + 4:at + 4 + length])
        state = raw[at + 4 + length:]
        if not isinstance(header, dict) or header.get("format") not in (STATE_FORMAT, STATE_FORMAT_1):
            raise ValueError("unknown state format")
        slug = registry.slug_for(header["title"])
    except (zlib.error, zstandard.ZstdError, ValueError, struct.error, TypeError, KeyError, GameError) as exc:
        raise GameError(f"Not a game state: {exc}") from None
    if (not state or header["format"] != STATE_FORMAT or header.get("build") != engine_build()
            or header.get("seeds") != statecopy.seeds_fingerprint(slug)):
        game = Game(header["title"], header["players"], seed=header["seed"], game_id=header.get("game_id", ""),
                    optional_rules=header.get("optional_rules") or (), _actions=header["actions"])
        game.loaded_by = "replay"
        return game
    game = Game.__new__(Game)
    game.slug = slug
    game.players = header["players"]
    game.game_id = header.get("game_id", "")
    game.seed = header["seed"]
    game.optional_rules = list(header.get("optional_rules") or ())
    game._actions = header["actions"]
    game._live = None
    game._dropped = []
    game._applied = list(header["applied"])
    game._since_checkpoint = int(header.get("since_checkpoint", 0))
    game._copy_due = None
    game._forget_position()
    try:
        game._state = _without_gc(statecopy.loads, state, slug)
        game._made = _full_collections()
    except Exception as exc:  # a damaged pickle of this very build
        raise GameError(f"Not a game state: {exc.__class__.__name__}: {exc}") from None
    game.title = game._state.title
    # the loaded state is where undos rebuild from: its copy is at hand (statecopy's), so keep it
    game._checkpoints = [(list(game._applied), state, slug, None)]
    game.loaded_by = "state"
    if header.get("journaled"):   # (resumed now, so that reads before the first move are journaled too)
        game._resumable = True
        game._playing()
    if game.digest() != header.get("digest"):
        raise GameError("Game state does not reproduce its recorded digest")
    return game


@lru_cache(maxsize=1)
def engine_build() -> str:
    """A fingerprint of this engine's code and title data: a pickled state is read only by the build
    that wrote it (classes may have changed in any other)."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def restore(snapshot: dict) -> Game:
    if not isinstance(snapshot, dict) or snapshot.get("format") != SNAPSHOT_FORMAT:
        raise GameError("Not a game snapshot")
    game = Game(snapshot["title"], snapshot["players"], seed=snapshot["seed"], game_id=snapshot.get("game_id", ""),
                optional_rules=snapshot.get("optional_rules") or (), _actions=copy.deepcopy(snapshot["actions"]))
    if snapshot.get("digest") and game.digest() != snapshot["digest"]:
        raise GameError("Snapshot does not reproduce its recorded state")
    return game
