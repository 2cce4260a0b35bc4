"""A game's ledger: what every service knows of a game without its engine.

The ledger is a function of the game's records in `roundhouse.games` alone (its set-up, the summary
each ActionApplied carries, commands still pending, which derived events are logged, where the latest
engine state is), so it is the same in every service, and a snapshot of it written by the game's
owner (`roundhouse.snapshots`) lets any service start from there. Only the owner of the game's
current round kind holds the engine itself (runtime.engines, runtime.owner).

Round services also keep a *tail*: the decided records (ActionApplied, ActionRejected,
DuplicateCommand) and the claims (OwnerClaimed) after the latest engine state, so that the service
that takes a game over at a round change loads that state and applies the tail without reading the
log.

Fencing (runtime.fence): the ledger takes the game's owner claims, and a decision only from the
latest claim taken; a checkpoint's engine state too, or else when it is the game's state as the log
has it (its seq and digest are the log's latest digest: the previous round's owner hands a game over
so). A decision this process made and then read back fenced off puts the ledger back to before it
and its command back to pending: the instance lost the game to a later claim, and the claim's holder
decides it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from contracts import tournament as tc
from contracts.envelopes import FENCED_BODIES, Envelope
from contracts.v1 import log_pb2
from runtime.fence import Fence
from tournament import ClockStarted, GameClock, TournamentError
from tournament.notify import Notices, TurnNotified

SNAPSHOT_FORMAT = 3   # 3: tournament tables carry their notices, every game its latest owner claim
DECISIONS = ("action_applied", "action_rejected", "duplicate_command")
# What an ActionApplied decided here changes, kept until it is read back (should the log fence it off)
DECIDED_FIELDS = ("seq", "round_kind", "round_label", "finished", "game_end_reason", "result", "values", "acting",
                  "digest", "digest_seq", "actions_since_state")


def ints(values) -> dict[str, int]:
    return {str(k): int(v) for k, v in (values or {}).items()}


def without_export(created: log_pb2.GameCreated) -> log_pb2.GameCreated:
    """The set-up without an imported game's export (it stays in the log, not in memory)."""
    if not created.import_json:
        return created
    light = log_pb2.GameCreated()
    light.CopyFrom(created)
    light.ClearField("import_json")
    return light


@dataclass(eq=False, slots=True)
class Ledger:
    game_id: str
    partition: int
    created: log_pb2.GameCreated     # without an import's export
    created_offset: int
    seq: int
    round_kind: str
    round_label: str
    finished: bool = False
    game_end_reason: str = ""
    result: Mapping[str, int] = field(default_factory=dict)   # (never changed in place)
    values: Mapping[str, int] = field(default_factory=dict)
    acting: Sequence[str] = field(default_factory=list)
    digest: str = ""                 # the latest digest the log gave, of `digest_seq`
    digest_seq: int = -1
    pending: dict[str, Envelope] = field(default_factory=dict)   # commands not decided yet
    published_round: str = ""
    score_seq: int = 0
    finished_published: bool = False
    state: log_pb2.StateRef | None = None   # the latest engine state written
    actions_since_state: int = 0
    last_offset: int = -1            # the last record of the game taken into the ledger
    # A timed game's clocks (tournament.GameClock), from its clock records and the timestamps of its
    # ActionApplied records (None: no clocks)
    clock: GameClock | None = None
    # A tournament table's "your turn" notices (tournament.notify.Notices): whom the game waits for
    # since when, and whose notice ended (None: not followed)
    notices: Notices | None = None
    # Checkpoints: records at or before `covered` are in a snapshot; `dirty_since` is the first
    # record not covered by a snapshot known to this process (None: all are).
    covered: int = -1
    dirty_since: int | None = None
    fence: Fence = field(default_factory=Fence)   # the game's owner claims taken (OwnerClaimed)
    # --- this process only (never in a snapshot) ---
    local: dict[int, str] = field(default_factory=dict)  # seq -> command id decided here, not read back
    # seq -> (producer, the DECIDED_FIELDS before it) of each ActionApplied decided here, not read back
    before_local: dict[int, tuple[str, dict]] = field(default_factory=dict)
    decided_here: dict[str, Envelope] = field(default_factory=dict)   # commands decided here, not read back
    tail: list[tuple[int, bytes]] | None = None   # decided records after `tail_from` (offset, value)
    tail_from: int = -1              # the tail holds every decided record after this offset
    pending_since: dict[str, float] = field(default_factory=dict)
    touched_at: float = field(default_factory=time.monotonic)   # last record
    used_at: float = field(default_factory=time.monotonic)      # last command, read or query

    # building ----------------------------------------------------------------------------------

    @classmethod
    def created_from(cls, env: Envelope, partition: int, offset: int, tails: bool) -> "Ledger":
        created = env.game_created
        s = created.summary
        led = cls(
            game_id=env.game_id, partition=partition, created=without_export(created),
            created_offset=offset, seq=s.seq if created.HasField("summary") else env.seq,
            round_kind=s.round_kind, round_label=s.round_label, finished=s.finished,
            game_end_reason=s.game_end_reason, result=ints(s.result), values=ints(s.values),
            acting=list(s.acting_players),
            state=_copy(created.state) if created.HasField("state") else None,
        )
        if not created.timed:   # (a timed table's notices start with its ClockStarted)
            led.notices = tc.notices_for(created)
            if led.notices is not None:
                led.notices.turn(led.seq, led.acting, led.round_label, env.timestamp_ms)
        if tails:
            led.tail, led.tail_from = [], offset
        return led

    @classmethod
    def from_snapshot(cls, snap: log_pb2.Snapshot, tails: bool, tail_from: int) -> "Ledger":
        s = snap.summary
        now = time.monotonic()
        led = cls(
            game_id=snap.game_id, partition=snap.partition, created=snap.created,
            created_offset=snap.created_offset, seq=snap.seq, round_kind=s.round_kind,
            round_label=s.round_label, finished=s.finished, game_end_reason=s.game_end_reason,
            result=ints(s.result), values=ints(s.values), acting=list(s.acting_players),
            digest=snap.digest, digest_seq=snap.seq if snap.digest else -1,
            pending={e.command_id: e for e in snap.pending},
            published_round=snap.published_round, score_seq=snap.score_seq,
            finished_published=snap.finished_published,
            state=_copy(snap.state) if snap.HasField("state") else None,
            last_offset=snap.offset, covered=snap.offset,
            clock=tc.clock_state_from_proto(snap.clock) if snap.HasField("clock") else None,
            notices=tc.notices_from_proto(snap.notices) if snap.HasField("notices") else None,
            fence=Fence.from_proto(snap.fence),
        )
        led.pending_since = {cid: now for cid in led.pending}
        if tails:
            # the tail holds what is read from now on: complete after the snapshot, or after where
            # the reading starts if that is later
            led.tail, led.tail_from = [], max(snap.offset, tail_from)
        return led

    def snapshot(self, producer: str) -> log_pb2.Snapshot:
        snap = log_pb2.Snapshot(
            game_id=self.game_id, seq=self.seq, partition=self.partition, offset=self.last_offset,
            # (a command decided here is pending at `offset` until its answer is read back)
            created=self.created, pending=[*self.pending.values(), *self.decided_here.values()],
            published_round=self.published_round, score_seq=self.score_seq,
            finished_published=self.finished_published, digest=self.digest if self.digest_seq == self.seq else "",
            producer=producer, timestamp_ms=int(time.time() * 1000), summary=self.summary(),
            created_offset=self.created_offset, format=SNAPSHOT_FORMAT,
        )
        if self.state is not None:
            snap.state.CopyFrom(self.state)
        if self.clock is not None:
            snap.clock.CopyFrom(tc.clock_state_to_proto(self.clock))
        if self.notices is not None:
            snap.notices.CopyFrom(tc.notices_to_proto(self.notices))
        if self.fence.owner:
            snap.fence.CopyFrom(self.fence.to_proto())
        return snap

    def summary(self) -> log_pb2.ReplicaSummary:
        return log_pb2.ReplicaSummary(
            seq=self.seq, round_kind=self.round_kind, round_label=self.round_label,
            finished=self.finished, game_end_reason=self.game_end_reason, result=self.result,
            values=self.values, acting_players=self.acting,
        )

    # reading records -----------------------------------------------------------------------------

    @property
    def title(self) -> str:
        return self.created.title

    def take(self, env: Envelope, body: str, offset: int, value: bytes) -> str:
        """Take one record of this game in. Returns what it was: "applied" (changed the ledger),
        "dirty-free" (a Checkpointed record: idempotent on top of its snapshot), "same" (a duplicate
        or stale record: no effect), "conflict" (an ActionApplied for a seq this process decided
        otherwise: the log's wins, and the engine that decided here is wrong; or a decision made here
        that the log fenced off), "fenced" (a claim that does not hold, or a decision from an epoch or
        producer that is not the game's latest claim: no effect)."""
        cid = env.command_id
        if body == "owner_claimed":
            if not self.fence.take_claim(env, self.logged("round_kind")):
                return "fenced"
            self._keep(offset, value)
            return "applied"
        if body in FENCED_BODIES and not self.fence.admits(env):
            return self._fenced(env, body)
        if body == "checkpointed":
            self._checkpointed(env.checkpointed)
            return "dirty-free"
        if body == "command_submitted":
            if cid in self.pending:
                return "same"
            self.pending[cid] = env
            self.pending_since[cid] = time.monotonic()
        elif body == "action_applied":
            applied = env.action_applied
            if applied.seq <= self.seq and applied.seq in self.local:
                mine = self.local.pop(applied.seq)
                self.before_local.pop(applied.seq, None)
                self._turn(env)
                self._settle(cid)
                self._keep(offset, value)
                if mine != cid:
                    self._forget_local(applied.seq)   # (decided here on top of another game)
                    self._summary_of(applied)
                    return "conflict"
                return "applied"
            if applied.seq != self.seq + 1:
                return "same"
            self.apply_summary(applied)
            self._turn(env)
            self._settle(cid)
            self._keep(offset, value)
        elif body in ("action_rejected", "duplicate_command"):
            self._settle(cid)
            self._keep(offset, value)
        elif body == "round_started":
            self.published_round = env.round_started.round_label
        elif body == "score_updated":
            self.score_seq = max(self.score_seq, env.seq)
        elif body == "game_finished":
            self.finished_published = True
            if not self.result:
                self.result = ints(env.game_finished.result)
                self.game_end_reason = env.game_finished.game_end_reason
        elif body == "game_clock":
            return self._clock_event(env)
        elif body == "turn_notified":
            return self._notified(env)
        elif body in ("view_requested", "query_requested"):
            return "same"   # asks the owner something; no part of the game
        else:
            return "same"
        return "applied"

    def _turn(self, env: Envelope) -> None:
        """The clocks and notices after an ActionApplied read from the log (its timestamp is the
        log's: the owner's own decisions count once read back, like everyone else's)."""
        if self.notices is not None:
            applied = env.action_applied
            flagged = self.clock.flagged if self.clock is not None else ()
            acting = [s for s in applied.acting_players if s not in flagged]   # (removed seats move automatically)
            self.notices.turn(applied.seq, acting, applied.round_label, env.timestamp_ms)
        if self.clock is not None and not self.clock.finished:
            try:
                self.clock.apply(tc.turn_from_applied(env))
            except TournamentError:
                pass   # (an action before the clocks started: they start at its sequence)

    def _clock_event(self, env: Envelope) -> str:
        """A clock record of the game: "applied" when the clocks took it, "same" when they refused it
        (a stale or repeated FlagFell, a pause while paused: every reader refuses it alike)."""
        try:
            event = tc.from_envelope(env)
            if isinstance(event, ClockStarted):
                if self.clock is not None:
                    return "same"
                self.clock = GameClock.start(event)
                self.notices = tc.notices_for(self.created)
                if self.notices is not None:
                    self.notices.turn(event.seq, event.acting, event.round_label, event.at_ms)
            elif self.clock is None:
                return "same"
            else:
                self.clock.apply(event)
        except TournamentError:
            return "same"
        return "applied"

    def _notified(self, env: Envelope) -> str:
        """A turn's notice ended: "applied" if it was the seat's current turn's, else "same"."""
        if self.notices is None:
            return "same"
        event: TurnNotified = tc.from_envelope(env)
        return "applied" if self.notices.notified(event) else "same"

    # fencing -------------------------------------------------------------------------------------

    def logged(self, name: str):
        """One of the DECIDED_FIELDS as the log has it so far (decisions made here not read back aside)."""
        if not self.local:
            return getattr(self, name)
        return self.before_local[min(self.local)][1][name]

    def _fenced(self, env: Envelope, body: str) -> str:
        """A decision or checkpoint that is not the game's latest claim's."""
        if body == "checkpointed":
            # what it covers stands (a snapshot is the log's, whoever writes it); its engine state
            # only if it is the game as the log has it
            cp = env.checkpointed
            ref = cp.state
            if not (ref.digest and ref.seq == self.logged("digest_seq") and ref.digest == self.logged("digest")):
                cp = log_pb2.Checkpointed(covered_offset=cp.covered_offset)
            self._checkpointed(cp)
            return "dirty-free"
        cid = env.command_id
        seq = env.action_applied.seq if body == "action_applied" else -1
        mine = self.before_local.get(seq)
        restored = mine is not None and mine[0] == env.producer and self.local.get(seq) == cid
        if mine is not None and restored:   # decided here and fenced off: this process lost the game
            for name, value in mine[1].items():
                setattr(self, name, value)
            self._forget_local(seq - 1)
        command = self.decided_here.pop(cid, None)
        if command is not None:   # pending again, for whoever holds the game's claim
            self.pending[cid] = command
            self.pending_since[cid] = time.monotonic()
        return "conflict" if restored or command is not None else "fenced"

    def _forget_local(self, seq: int) -> None:
        """Decisions made here after `seq` are void (made on top of a game the log does not have)."""
        for later in [s for s in self.local if s > seq]:
            del self.local[later]
            self.before_local.pop(later, None)

    def apply_local(self, applied: log_pb2.ActionApplied, command_id: str, producer: str) -> None:
        """An ActionApplied decided here by `producer`, taken in before it is read back."""
        self.before_local[applied.seq] = (producer, {name: getattr(self, name) for name in DECIDED_FIELDS})
        self.apply_summary(applied)
        self.local[applied.seq] = command_id

    # summaries -----------------------------------------------------------------------------------

    def apply_summary(self, applied: log_pb2.ActionApplied) -> None:
        """The game after an ActionApplied (read from the log, or decided here)."""
        self._summary_of(applied)
        self.actions_since_state += 1

    def _summary_of(self, applied: log_pb2.ActionApplied) -> None:
        self.seq = applied.seq
        self.round_kind = applied.round_kind
        self.round_label = applied.round_label
        self.finished = applied.finished
        self.game_end_reason = applied.game_end_reason
        # the record's own containers (read-only mappings and sequences): nothing is copied per record
        self.result = applied.result
        self.values = applied.values
        self.acting = applied.acting_players
        if applied.digest:
            self.digest, self.digest_seq = applied.digest, applied.seq

    def _settle(self, command_id: str) -> None:
        self.pending.pop(command_id, None)
        self.pending_since.pop(command_id, None)
        self.decided_here.pop(command_id, None)

    def settle(self, command_id: str) -> None:
        """The command was decided here (its answer is on its way to the log; kept until it is read
        back, should the log fence it off)."""
        command = self.pending.pop(command_id, None)
        self.pending_since.pop(command_id, None)
        if command is not None:
            self.decided_here[command_id] = command

    def _checkpointed(self, cp: log_pb2.Checkpointed) -> None:
        if cp.HasField("state"):
            self.record_state(cp.state)
        if cp.covered_offset >= self.last_offset:
            self.dirty_since = None
        elif self.dirty_since is not None and self.dirty_since <= cp.covered_offset:
            self.dirty_since = cp.covered_offset + 1
        self.covered = max(self.covered, cp.covered_offset)

    def state_cover(self, seq: int) -> int | None:
        """The `covered_offset` of an engine state at `seq` written now: the last offset read, when
        the ledger has read no later seq and holds no decision of its own unread; else None (no
        state may be written: a record of a later seq would fall inside what it claims to cover,
        and a reader loading it would skip that seq, as when the next round's owner decided on top
        of this one's last seq before this one's hand-over checkpoint)."""
        if seq != self.seq or self.local:
            return None
        return self.last_offset

    def record_state(self, ref: log_pb2.StateRef) -> None:
        """A newer engine state was written: the tail before it is no longer needed."""
        if self.state is not None and ref.seq < self.state.seq:
            return
        if self.state is None or ref.seq > self.state.seq or ref.offset != self.state.offset:
            self.actions_since_state = max(0, self.seq - int(ref.seq))
        self.state = _copy(ref)
        if self.tail is not None:
            self.tail = [(o, v) for o, v in self.tail if o > ref.covered_offset]
            self.tail_from = max(self.tail_from, ref.covered_offset)

    def _keep(self, offset: int, value: bytes) -> None:
        if self.tail is None:
            return
        self.tail.append((offset, value))

    def trim_tail(self, limit: int) -> None:
        if self.tail is not None and len(self.tail) > limit:
            drop = len(self.tail) - limit
            self.tail_from = self.tail[drop - 1][0]
            del self.tail[:drop]

    def tail_after(self, offset: int) -> list[bytes] | None:
        """The decided records after `offset`, or None when the tail does not reach back that far."""
        if self.tail is None or self.tail_from > offset:
            return None
        return [v for o, v in self.tail if o > offset]

    def mark(self, offset: int) -> None:
        """A record at `offset` changed the ledger."""
        self.last_offset = max(self.last_offset, offset)
        if self.dirty_since is None and offset > self.covered:
            self.dirty_since = offset
        self.touched_at = time.monotonic()

    def dirty(self) -> bool:
        return self.dirty_since is not None


def _copy(ref: log_pb2.StateRef) -> log_pb2.StateRef:
    out = log_pb2.StateRef()
    out.CopyFrom(ref)
    return out
