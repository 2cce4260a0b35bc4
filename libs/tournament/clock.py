"""Chess clocks of a game's seats, computed from the game's log alone.

A clock runs only while the game waits for its seat: between two events of the game, every seat in
the acting set after the first one is charged the time between their timestamps (the log records'
times, unix ms). Nothing here reads a clock or depends on which process runs the game: any reader
of the game's log computes the same clocks. Events, in log order:

- `ClockStarted`: the seats, the time control, who acts first; the clocks start at `at_ms`.
- `TurnChanged`: one per ActionApplied of the game: who made it (`actor`, "" for the operator or
  the system), the action type, who acts after it, the round label after it, whether the game ended.
  The increment (per action) goes to the actor of any action but undo, redo, message and program
  settings; per round, every seat still in the game gets it when the round label changes.
- `ClockPaused` / `ClockResumed`: the organiser stops and restarts every clock of the game.
- `ClockAdjusted`: the organiser adds (or, negative, removes) time from one seat.
- `FlagFell`: a seat's clock reached zero while it was running; appended by whoever noticed first
  (see docs/architecture.md, "Tournaments"), valid only if the clock computed from the log agrees.

A timestamp earlier than the previous one (clocks of two producers disagreeing) counts as the
previous one: time never runs backwards and nobody is charged a negative time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import TournamentError
from .events import rebuild
from .settings import FlagPolicy, IncrementMode, TimeControl

NO_INCREMENT = frozenset({"undo", "redo", "message", "program_disable"})


@dataclass(frozen=True)
class ClockStarted:
    seats: tuple[str, ...]
    control: TimeControl
    acting: tuple[str, ...]
    round_label: str
    seq: int                         # the game's sequence when the clocks start (0 for a new game)
    at_ms: int
    flag_policy: FlagPolicy = FlagPolicy.END_GAME   # what the game's owner does on a flag fall


@dataclass(frozen=True)
class TurnChanged:
    seq: int                         # the game's sequence after the action
    actor: str                       # the seat that made it; "" when the operator or the system did
    action_type: str
    acting: tuple[str, ...]          # seats the game waits for after it
    round_label: str
    finished: bool
    at_ms: int


@dataclass(frozen=True)
class ClockPaused:
    at_ms: int
    reason: str = ""


@dataclass(frozen=True)
class ClockResumed:
    at_ms: int


@dataclass(frozen=True)
class ClockAdjusted:
    seat: str
    delta_ms: int
    at_ms: int
    reason: str = ""


@dataclass(frozen=True)
class FlagFell:
    seat: str
    seq: int                         # the game's sequence the detector saw: void if the game moved on
    at_ms: int


ClockEvent = ClockStarted | TurnChanged | ClockPaused | ClockResumed | ClockAdjusted | FlagFell


@dataclass
class GameClock:
    seats: tuple[str, ...]
    control: TimeControl
    remaining: dict[str, int]        # as of `since_ms`
    acting: frozenset[str]
    round_label: str
    seq: int
    since_ms: int
    paused: bool = False
    finished: bool = False
    flagged: dict[str, int] = field(default_factory=dict)   # seat -> time its flag fell
    flag_policy: FlagPolicy = FlagPolicy.END_GAME

    @classmethod
    def start(cls, event: ClockStarted) -> "GameClock":
        if not event.seats or len(set(event.seats)) != len(event.seats):
            raise TournamentError("A clock needs distinct seats")
        stray = set(event.acting) - set(event.seats)
        if stray:
            raise TournamentError(f"Not seats of this game: {', '.join(sorted(stray))}")
        return cls(seats=tuple(event.seats), control=event.control,
                   remaining={s: event.control.base_ms for s in event.seats}, acting=frozenset(event.acting),
                   round_label=event.round_label, seq=event.seq, since_ms=event.at_ms,
                   flag_policy=FlagPolicy(event.flag_policy))

    @classmethod
    def replay(cls, events) -> "GameClock":
        return rebuild(events, ClockStarted, cls.start, "A game's clocks start with ClockStarted")

    # ------------------------------------------------------------------ reading
    def running(self) -> list[str]:
        """Seats whose clock runs now, in seat order."""
        if self.paused or self.finished:
            return []
        return [s for s in self.seats if s in self.acting and s not in self.flagged]

    def remaining_at(self, now_ms: int) -> dict[str, int]:
        """Each seat's time left at `now_ms` (negative: overdue and not flagged yet)."""
        elapsed = max(0, now_ms - self.since_ms)
        running = set(self.running())
        return {s: self.remaining[s] - (elapsed if s in running else 0) for s in self.seats}

    def next_deadline(self) -> tuple[int, str] | None:
        """(time, seat) of the earliest flag fall if nothing happens meanwhile; None if no clock runs."""
        running = set(self.running())
        deadlines = [(self.since_ms + max(self.remaining[s], 0), i, s) for i, s in enumerate(self.seats)
                     if s in running]
        if not deadlines:
            return None
        at, _, seat = min(deadlines)
        return at, seat

    def flag_check(self, now_ms: int) -> FlagFell | None:
        """The FlagFell a detector appends at `now_ms`, if a running clock is at zero (earliest first)."""
        deadline = self.next_deadline()
        if deadline is None or deadline[0] > now_ms:
            return None
        return FlagFell(seat=deadline[1], seq=self.seq, at_ms=now_ms)

    # ------------------------------------------------------------------ events
    def apply(self, event: ClockEvent) -> None:
        """Check the event against the clocks, then record it (a refused one changes nothing)."""
        at = max(event.at_ms, self.since_ms)
        if isinstance(event, TurnChanged):
            self._turn(event, at)
        elif isinstance(event, ClockPaused):
            if self.paused:
                raise TournamentError("The clocks are paused already")
            self._charge(at)
            self.paused = True
        elif isinstance(event, ClockResumed):
            if not self.paused:
                raise TournamentError("The clocks are not paused")
            self.since_ms, self.paused = at, False
        elif isinstance(event, ClockAdjusted):
            if event.seat not in self.remaining:
                raise TournamentError(f"{event.seat!r} is not a seat of this game")
            if event.seat in self.flagged:
                raise TournamentError(f"{event.seat}'s flag has fallen: the clock cannot be adjusted")
            self._charge(at)
            self.remaining[event.seat] += event.delta_ms
        elif isinstance(event, FlagFell):
            self._flag(event, at)
        else:
            raise TournamentError(f"Not a clock event: {type(event).__name__}")

    def _turn(self, event: TurnChanged, at: int) -> None:
        if event.seq != self.seq + 1:
            raise TournamentError(f"The clocks are at sequence {self.seq}; action {event.seq} is not the next")
        stray = set(event.acting) - set(self.seats)
        if stray:
            raise TournamentError(f"Not seats of this game: {', '.join(sorted(stray))}")
        self._charge(at)
        increment = self.control.increment_ms
        if self.control.mode is IncrementMode.ACTION:
            if event.actor in self.remaining and event.actor not in self.flagged and \
                    event.action_type not in NO_INCREMENT and not event.action_type.startswith("program_"):
                self.remaining[event.actor] += increment
        elif event.round_label != self.round_label and not event.finished:
            for seat in self.seats:
                if seat not in self.flagged:
                    self.remaining[seat] += increment
        self.seq, self.round_label = event.seq, event.round_label
        self.acting = frozenset(event.acting)
        self.finished = event.finished

    def _flag(self, event: FlagFell, at: int) -> None:
        if event.seat not in self.remaining:
            raise TournamentError(f"{event.seat!r} is not a seat of this game")
        if event.seat in self.flagged:
            raise TournamentError(f"{event.seat}'s flag has fallen already")
        if event.seq != self.seq:
            raise TournamentError(f"The game moved on (sequence {self.seq}) since the flag fall was seen at {event.seq}")
        if event.seat not in self.running():
            raise TournamentError(f"{event.seat}'s clock is not running")
        if self.remaining_at(at)[event.seat] > 0:
            raise TournamentError(f"{event.seat} still has {self.remaining_at(at)[event.seat]} ms")
        self._charge(at)
        self.remaining[event.seat] = 0
        self.flagged[event.seat] = at

    def _charge(self, at: int) -> None:
        self.remaining = self.remaining_at(at)
        self.since_ms = at


# ---------------------------------------------------------------------- what a flag fall means


@dataclass(frozen=True)
class FlagDecision:
    """What the tournament's policy makes of a flag fall: `end_game` (submit `action`, the engine's
    end of the game by agreement, scored at the current net worth as the rules' early end says), or
    the seat removed (`removed`): from now on `automatic_move` plays for it. Either way the seat
    forfeits the table (standings rank it below the seats that did not)."""

    seat: str
    policy: FlagPolicy
    end_game: bool
    action: dict | None


def end_game_action(seat: str) -> dict:
    return {"type": "end_game", "entity": seat, "entity_type": "player"}


def flag_decision(policy: FlagPolicy, seat: str) -> FlagDecision:
    policy = FlagPolicy(policy)
    if policy is FlagPolicy.END_GAME:
        return FlagDecision(seat=seat, policy=policy, end_game=True, action=end_game_action(seat))
    return FlagDecision(seat=seat, policy=policy, end_game=False, action=None)


def automatic_move(seat: str, legal_actions: list[dict]) -> dict | None:
    """The move made for a removed seat the game waits for, from the engine's `legal_actions()`:
    a pass for the first entity the seat controls that may pass; when none may (a forced train
    purchase, say), the game is ended (end_game). None when the game does not wait for the seat."""
    mine = [entry for entry in legal_actions if str(entry.get("player")) == seat]
    if not mine:
        return None
    for entry in mine:
        if "pass" in entry.get("types", ()):
            return {"type": "pass", "entity": entry["entity"], "entity_type": entry["entity_type"]}
    return end_game_action(seat)
