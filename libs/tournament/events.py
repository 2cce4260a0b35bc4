"""The events of a tournament's own log (keyed by the tournament id), in the order they happen.

Every event carries `at_ms`, the time it was appended (the log record's timestamp, unix ms): the
library never reads a clock. A `Tournament` is rebuilt by applying them in order (state.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import TournamentError
from .settings import Settings


@dataclass(frozen=True)
class TournamentCreated:
    tournament_id: str
    name: str
    settings: Settings
    organiser_token_sha256: str      # sha256 (hex) of the organiser's secret token
    at_ms: int


@dataclass(frozen=True)
class RegistrationOpened:
    at_ms: int


@dataclass(frozen=True)
class RegistrationClosed:
    at_ms: int


@dataclass(frozen=True)
class PlayerRegistered:
    player_id: str                   # "p1", "p2", ... in registration order; the seat id in games
    name: str
    token_sha256: str                # sha256 (hex) of the player's secret token (their seat token)
    at_ms: int
    contact: str = ""                # free text for the organiser (e-mail, handle)
    webhook_url: str = ""            # "your turn" notifications go there ("" for none)


@dataclass(frozen=True)
class PlayerWithdrawn:
    player_id: str
    by_organiser: bool
    at_ms: int
    reason: str = ""


@dataclass(frozen=True)
class RoundSeated:
    """The seating of round `round` (1-based): tables in order, each its seats in seat order.
    Seating a round again before it starts replaces the earlier seating."""

    round: int
    seed: int
    tables: tuple[tuple[str, ...], ...]
    at_ms: int


@dataclass(frozen=True)
class RoundStarted:
    """The round's tables are being played: `game_ids[i]` is table i+1's game."""

    round: int
    game_ids: tuple[str, ...]
    at_ms: int


@dataclass(frozen=True)
class TableFinished:
    """A table's game ended: final scores by player id, the engine's end reason and the seats whose
    clock ran out (forfeited: they rank below the other seats of the table)."""

    round: int
    table: int                       # 1-based
    result: dict[str, int]
    end_reason: str
    at_ms: int
    forfeited: tuple[str, ...] = field(default_factory=tuple)


TournamentEvent = (TournamentCreated | RegistrationOpened | RegistrationClosed | PlayerRegistered
                   | PlayerWithdrawn | RoundSeated | RoundStarted | TableFinished)


def game_id_for(tournament_id: str, round_no: int, table: int) -> str:
    """The id of a table's game: fixed by the seating, so creating it again is recognised."""
    return f"{tournament_id}.r{round_no}.t{table}"


def rebuild(events, first: type, start, message: str):
    """A state built from its log: `start(first event)`, then `apply` of each later event in order."""
    events = iter(events)
    head = next(events, None)
    if not isinstance(head, first):
        raise TournamentError(message)
    state = start(head)
    for event in events:
        state.apply(event)
    return state
