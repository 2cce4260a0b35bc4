"""A tournament as the state its events build (event sourcing).

`Tournament.replay(events)` rebuilds it after a restart; `apply(event)` checks an event against the
state and then records it (a refused event raises TournamentError and changes nothing). The
command methods (`register`, `seat_round`, `start_round`, ...) decide the next event from the state
and a caller-supplied time and seed, without changing anything: the caller appends the event to the
log and applies it, as every other reader of the log does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import urlsplit

from .errors import TournamentError
from .events import (PlayerRegistered, PlayerWithdrawn, RegistrationClosed, RegistrationOpened, RoundSeated,
                     RoundStarted, TableFinished, TournamentCreated, TournamentEvent, game_id_for, rebuild)
from .settings import Settings

_SHA256 = re.compile(r"^[0-9a-f]{64}$")
MAX_NAME = 64


@dataclass
class Player:
    id: str
    name: str
    token_sha256: str
    registered_at: int
    contact: str = ""
    webhook_url: str = ""
    withdrawn_at: int | None = None

    @property
    def active(self) -> bool:
        return self.withdrawn_at is None


@dataclass
class Table:
    number: int                      # 1-based
    seats: tuple[str, ...]           # player ids in seat order
    game_id: str = ""
    result: dict[str, int] | None = None
    end_reason: str = ""
    forfeited: tuple[str, ...] = ()
    finished_at: int | None = None

    @property
    def finished(self) -> bool:
        return self.result is not None


@dataclass
class Round:
    number: int
    seed: int
    tables: list[Table]
    seated_at: int
    started_at: int | None = None

    @property
    def started(self) -> bool:
        return self.started_at is not None

    @property
    def complete(self) -> bool:
        return self.started and all(t.finished for t in self.tables)


@dataclass
class Tournament:
    id: str
    name: str
    settings: Settings
    organiser_token_sha256: str
    created_at: int
    registration_open: bool = True
    players: dict[str, Player] = field(default_factory=dict)   # in registration order
    rounds: list[Round] = field(default_factory=list)
    games: dict[str, tuple[int, int]] = field(default_factory=dict)  # game id -> (round, table)
    _by_name: dict[str, str] = field(default_factory=dict, repr=False)     # casefolded name -> id
    _by_token: dict[str, str] = field(default_factory=dict, repr=False)    # token sha256 -> id

    # ------------------------------------------------------------------ building from events
    @classmethod
    def create(cls, event: TournamentCreated) -> "Tournament":
        if not event.tournament_id.strip():
            raise TournamentError("A tournament needs an id")
        if not event.name.strip():
            raise TournamentError("A tournament needs a name")
        _check_hash(event.organiser_token_sha256, "organiser token")
        return cls(id=event.tournament_id, name=event.name.strip(), settings=event.settings,
                   organiser_token_sha256=event.organiser_token_sha256, created_at=event.at_ms)

    @classmethod
    def replay(cls, events) -> "Tournament":
        return rebuild(events, TournamentCreated, cls.create, "A tournament's log starts with its creation")

    def apply(self, event: TournamentEvent) -> None:
        """Check the event against the state, then record it."""
        self._handle(event, commit=True)

    def check(self, event: TournamentEvent) -> None:
        """Raise TournamentError if the event would not apply; change nothing."""
        self._handle(event, commit=False)

    def _handle(self, event, commit: bool) -> None:
        handler = _APPLY.get(type(event))
        if handler is None:
            raise TournamentError(f"Not an event of a running tournament: {type(event).__name__}")
        handler(self, event, commit)

    def _apply_opened(self, event: RegistrationOpened, commit: bool) -> None:
        if self.registration_open:
            raise TournamentError("Registration is open already")
        if self.finished:
            raise TournamentError("The tournament is over")
        if commit:
            self.registration_open = True

    def _apply_closed(self, event: RegistrationClosed, commit: bool) -> None:
        if not self.registration_open:
            raise TournamentError("Registration is closed already")
        if commit:
            self.registration_open = False

    def _apply_registered(self, event: PlayerRegistered, commit: bool) -> None:
        if not self.registration_open:
            raise TournamentError("Registration is closed")
        expected = f"p{len(self.players) + 1}"
        if event.player_id != expected:
            raise TournamentError(f"The next player id is {expected}, not {event.player_id!r}")
        name = _check_name(event.name)
        taken = self.players.get(self._by_name.get(name.casefold(), ""))
        if taken is not None:
            raise TournamentError(f"{taken.name} is registered already"
                                  + ("" if taken.active else " (withdrawn)"))
        _check_hash(event.token_sha256, "player token")
        if event.token_sha256 in self._by_token:
            raise TournamentError("That player token is another player's")
        _check_webhook(event.webhook_url)
        if not commit:
            return
        self._by_name[name.casefold()] = event.player_id
        self._by_token[event.token_sha256] = event.player_id
        self.players[event.player_id] = Player(
            id=event.player_id, name=name, token_sha256=event.token_sha256, registered_at=event.at_ms,
            contact=event.contact.strip(), webhook_url=event.webhook_url)

    def _apply_withdrawn(self, event: PlayerWithdrawn, commit: bool) -> None:
        player = self.player(event.player_id)
        if not player.active:
            raise TournamentError(f"{player.name} has withdrawn already")
        if commit:
            player.withdrawn_at = event.at_ms

    def _apply_seated(self, event: RoundSeated, commit: bool) -> None:
        expected = self._round_to_seat()
        if event.round != expected:
            raise TournamentError(f"The round to seat is round {expected}, not {event.round}")
        self._check_seating(event.tables)
        if not commit:
            return
        tables = [Table(number=i + 1, seats=tuple(seats)) for i, seats in enumerate(event.tables)]
        seated = Round(number=event.round, seed=event.seed, tables=tables, seated_at=event.at_ms)
        if self.rounds and not self.rounds[-1].started:
            self.rounds[-1] = seated    # seated again before it started
        else:
            self.rounds.append(seated)

    def _apply_started(self, event: RoundStarted, commit: bool) -> None:
        current = self.rounds[-1] if self.rounds else None
        if current is None or current.started:
            raise TournamentError("No round is seated and waiting to start")
        if event.round != current.number:
            raise TournamentError(f"Round {current.number} is the one waiting to start, not {event.round}")
        self._check_seating(tuple(t.seats for t in current.tables))
        if len(event.game_ids) != len(current.tables):
            raise TournamentError(f"Round {current.number} has {len(current.tables)} tables, "
                                  f"not {len(event.game_ids)} games")
        if len(set(event.game_ids)) != len(event.game_ids) or any(g in self.games for g in event.game_ids):
            raise TournamentError("Every table needs a game of its own")
        if not commit:
            return
        for table, game_id in zip(current.tables, event.game_ids):
            table.game_id = game_id
            self.games[game_id] = (current.number, table.number)
        current.started_at = event.at_ms

    def _apply_table_finished(self, event: TableFinished, commit: bool) -> None:
        table = self.table(event.round, event.table)
        if not self.rounds[event.round - 1].started:
            raise TournamentError(f"Round {event.round} has not started")
        if table.finished:
            raise TournamentError(f"Table {event.table} of round {event.round} has finished already")
        if set(event.result) != set(table.seats):
            raise TournamentError(f"The result of table {event.table} must score exactly its seats "
                                  f"({', '.join(table.seats)})")
        if any(not isinstance(score, int) or isinstance(score, bool) for score in event.result.values()):
            raise TournamentError("Scores are whole numbers")
        stray = [p for p in event.forfeited if p not in table.seats]
        if stray or len(set(event.forfeited)) != len(event.forfeited):
            raise TournamentError(f"Forfeits must name seats of table {event.table} once each")
        if not commit:
            return
        table.result = {p: event.result[p] for p in table.seats}
        table.end_reason = event.end_reason
        table.forfeited = tuple(p for p in table.seats if p in event.forfeited)
        table.finished_at = event.at_ms

    # ------------------------------------------------------------------ checks
    def _round_to_seat(self) -> int:
        """The number of the round a seating would be for (the current one if it has not started)."""
        if self.registration_open:
            raise TournamentError("Close registration before seating a round")
        if self.rounds and not self.rounds[-1].started:
            return self.rounds[-1].number
        if self.rounds and not self.rounds[-1].complete:
            raise TournamentError(f"Round {self.rounds[-1].number} is still being played")
        if len(self.rounds) >= self.settings.rounds:
            raise TournamentError(f"All {self.settings.rounds} rounds have been played")
        return len(self.rounds) + 1

    def _check_seating(self, tables) -> None:
        if self.registration_open:
            raise TournamentError("Registration is open: close it and seat the round again")
        active = set(self.active_players())
        seen: list[str] = []
        for seats in tables:
            if not self.settings.min_table_size <= len(seats) <= self.settings.table_size:
                raise TournamentError(f"A table seats {self.settings.min_table_size} to "
                                      f"{self.settings.table_size} players, not {len(seats)}")
            seen.extend(seats)
        if len(seen) != len(set(seen)):
            raise TournamentError("A player is seated twice")
        missing, extra = active - set(seen), set(seen) - active
        if missing or extra:
            names = sorted(self.players[p].name if p in self.players else p for p in missing | extra)
            raise TournamentError("The seating must seat every registered player who has not withdrawn, "
                                  f"and nobody else (check: {', '.join(names)}): seat the round again")
        if not tables:
            raise TournamentError("Nobody to seat")

    # ------------------------------------------------------------------ reading
    def player(self, player_id: str) -> Player:
        player = self.players.get(player_id)
        if player is None:
            raise TournamentError(f"No player {player_id!r} in this tournament")
        return player

    def player_by_token(self, token_sha256: str) -> Player | None:
        return self.players.get(self._by_token.get(token_sha256, ""))

    def active_players(self) -> list[str]:
        return [p.id for p in self.players.values() if p.active]

    def table(self, round_no: int, table_no: int) -> Table:
        if not 1 <= round_no <= len(self.rounds):
            raise TournamentError(f"No round {round_no}")
        tables = self.rounds[round_no - 1].tables
        if not 1 <= table_no <= len(tables):
            raise TournamentError(f"Round {round_no} has no table {table_no}")
        return tables[table_no - 1]

    def table_of_game(self, game_id: str) -> Table:
        where = self.games.get(game_id)
        if where is None:
            raise TournamentError(f"Game {game_id!r} is not a table of this tournament")
        return self.table(*where)

    def played_rounds(self) -> list[Round]:
        return [r for r in self.rounds if r.started]

    @property
    def finished(self) -> bool:
        return len(self.rounds) == self.settings.rounds and self.rounds[-1].complete

    @property
    def status(self) -> str:
        """registering, seated (a round waits to start), playing, between_rounds or finished."""
        if self.finished:
            return "finished"
        if self.registration_open:
            return "registering"
        if self.rounds and not self.rounds[-1].started:
            return "seated"
        if self.rounds and not self.rounds[-1].complete:
            return "playing"
        return "between_rounds"

    # ------------------------------------------------------------------ commands (decide, do not change)
    def _checked(self, event):
        self.check(event)
        return event

    def register(self, name: str, token_sha256: str, at_ms: int, *, contact: str = "",
                 webhook_url: str = "") -> PlayerRegistered:
        return self._checked(PlayerRegistered(player_id=f"p{len(self.players) + 1}", name=name,
                                              token_sha256=token_sha256, at_ms=at_ms, contact=contact,
                                              webhook_url=webhook_url))

    def withdraw(self, player_id: str, at_ms: int, *, by_organiser: bool, reason: str = "") -> PlayerWithdrawn:
        return self._checked(PlayerWithdrawn(player_id=player_id, by_organiser=by_organiser, at_ms=at_ms,
                                             reason=reason))

    def open_registration(self, at_ms: int) -> RegistrationOpened:
        return self._checked(RegistrationOpened(at_ms=at_ms))

    def close_registration(self, at_ms: int) -> RegistrationClosed:
        return self._checked(RegistrationClosed(at_ms=at_ms))

    def seat_round(self, seed: int, at_ms: int) -> RoundSeated:
        """Seat the next round (or the current one again, before it starts): seating.plan."""
        from .seating import plan_round
        round_no = self._round_to_seat()
        return self._checked(RoundSeated(round=round_no, seed=seed, tables=plan_round(self, round_no, seed),
                                         at_ms=at_ms))

    def start_round(self, at_ms: int) -> RoundStarted:
        if not self.rounds or self.rounds[-1].started:
            raise TournamentError("No round is seated and waiting to start")
        current = self.rounds[-1]
        ids = tuple(game_id_for(self.id, current.number, t.number) for t in current.tables)
        return self._checked(RoundStarted(round=current.number, game_ids=ids, at_ms=at_ms))

    def finish_table(self, game_id: str, result: dict[str, int], end_reason: str, at_ms: int, *,
                     forfeited=()) -> TableFinished:
        round_no, table_no = self.games.get(game_id) or (0, 0)
        if not round_no:
            raise TournamentError(f"Game {game_id!r} is not a table of this tournament")
        return self._checked(TableFinished(round=round_no, table=table_no, result=dict(result),
                                           end_reason=end_reason, at_ms=at_ms, forfeited=tuple(forfeited)))


_APPLY: dict[type, Callable[[Tournament, Any, bool], None]] = {
    RegistrationOpened: Tournament._apply_opened,
    RegistrationClosed: Tournament._apply_closed,
    PlayerRegistered: Tournament._apply_registered,
    PlayerWithdrawn: Tournament._apply_withdrawn,
    RoundSeated: Tournament._apply_seated,
    RoundStarted: Tournament._apply_started,
    TableFinished: Tournament._apply_table_finished,
}


def _check_hash(value: str, what: str) -> None:
    if not isinstance(value, str) or not _SHA256.match(value):
        raise TournamentError(f"The {what} must be given as its sha256 (64 lowercase hex digits)")


def _check_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise TournamentError("A player needs a name")
    if len(name) > MAX_NAME or any(not ch.isprintable() for ch in name):
        raise TournamentError(f"A player's name is at most {MAX_NAME} printable characters")
    return name


def _check_webhook(url: str) -> None:
    if not url:
        return
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TournamentError(f"A webhook must be an http(s) URL with a host, not {url!r}")
