"""Ratings per player per title and overall: openskill's Plackett-Luce model, with history.

Every finished rated game updates two ratings of each of its players: the title's (scope: the
title's slug) and the overall one (scope "overall"), each from that scope's ratings before the game.
Placements come from the final scores (ties share a place) with forfeited seats after the others
(`placements`). The model's defaults: mu 25, sigma 25/3, beta 25/6, kappa 0.0001, tau 25/300 added
to sigma before each game. A rating is shown as its ordinal, mu - 3 sigma (0 for a new player).

Where a rated game finishes, its `RatingRequested` (placements by rating identity, `identity`: the
registered name) is appended to the ratings' log; the rater, in log order, turns each request into
the game's `GameRated` with `RatingBook.rate_request` (a repeated request gives None).
`RatingBook.rate` computes the `GameRated` event of a game (changing nothing); `apply` records it,
checking that each `before` is the book's current rating, so a book rebuilt from the log is exactly
the book that wrote it, and replaying it never recomputes (an upgrade of the model cannot rewrite
history).

`RatingsFeed` is the ratings' log as any reader folds it: the book of the `GameRated` records read
(one that does not apply is skipped by every reader alike) and the requests not rated yet. A rater
answers only `next_request()`, the oldest request still unrated, from the book the log gives before
it, and takes its own answer in only as read back: so every rater, whenever it runs and however many
run at once, computes the same numbers, and its book is never ahead of or beside the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from openskill.models import PlackettLuce

from .errors import TournamentError
from .settings import title_info
from .state import Table, Tournament

OVERALL = "overall"


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class RatingChange:
    player: str
    scope: str                       # a title's slug, or "overall"
    before: Rating
    after: Rating
    placement: int                   # 1 = first; equal scores share a placement


@dataclass(frozen=True)
class RatingRequested:
    """A finished rated game to rate: placements by rating identity. Appended where the game's
    result is known; the rater applies them to the book in log order (`RatingBook.rate_request`)."""

    game_id: str
    title: str
    places: dict[str, int]
    at_ms: int


@dataclass(frozen=True)
class GameRated:
    game_id: str
    title: str
    at_ms: int
    changes: tuple[RatingChange, ...]


@dataclass(frozen=True)
class HistoryEntry:
    game_id: str
    at_ms: int
    rating: Rating
    placement: int


def identity(name: str) -> str:
    """A player's rating identity: the registered name, trimmed and casefolded (there are no accounts
    yet, so the same name in two tournaments is the same rated player)."""
    return " ".join(name.split()).casefold()


def placements(result: Mapping[str, int], forfeited=()) -> dict[str, int]:
    """Competition placements (1, 2, 2, 4) by score, forfeited seats after all the others."""
    def key(p):
        return (p in forfeited, -result[p])
    ordered = sorted(result, key=key)
    places: dict[str, int] = {}
    for i, p in enumerate(ordered):
        places[p] = places[ordered[i - 1]] if i and key(ordered[i - 1]) == key(p) else i + 1
    return places


def check_places(title: str, places: Mapping[str, int]) -> str:
    """The title's slug if a game of `title` with these placements can be rated; else TournamentError."""
    if len(places) < 2:
        raise TournamentError("A rated game needs at least two players")
    if any(not isinstance(v, int) or v < 1 for v in places.values()):
        raise TournamentError("Placements are whole numbers from 1")
    return title_info(title)["slug"]


class RatingBook:
    def __init__(self, model: PlackettLuce | None = None):
        self.model = model or PlackettLuce()
        self.initial = Rating(self.model.mu, self.model.sigma)
        self.ratings: dict[tuple[str, str], Rating] = {}
        self.history: dict[tuple[str, str], list[HistoryEntry]] = {}
        self.rated_games: set[str] = set()

    def rating(self, player: str, scope: str = OVERALL) -> Rating:
        return self.ratings.get((scope, player), self.initial)

    def games(self, player: str, scope: str = OVERALL) -> list[HistoryEntry]:
        return list(self.history.get((scope, player), ()))

    def leaderboard(self, scope: str = OVERALL) -> list[tuple[str, Rating, int]]:
        """(player, rating, games rated) of the scope, best ordinal first, then by player."""
        rows = [(player, r, len(self.history[(s, player)])) for (s, player), r in self.ratings.items() if s == scope]
        return sorted(rows, key=lambda row: (-row[1].ordinal, row[0]))

    def rate(self, game_id: str, title: str, places: Mapping[str, int], at_ms: int) -> GameRated:
        """The ratings a finished game gives (`places`: player -> placement, 1 the best)."""
        if game_id in self.rated_games:
            raise TournamentError(f"Game {game_id} is rated already")
        slug = check_places(title, places)
        players = list(places)
        changes = []
        for scope in (slug, OVERALL):
            before = [self.rating(p, scope) for p in players]
            teams = [[self.model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
            rated = self.model.rate(teams, ranks=[float(places[p]) for p in players])
            for p, old, (new,) in zip(players, before, rated):
                changes.append(RatingChange(player=p, scope=scope, before=old, after=Rating(new.mu, new.sigma),
                                            placement=places[p]))
        return GameRated(game_id=game_id, title=title_info(title)["title"], at_ms=at_ms, changes=tuple(changes))

    def rate_request(self, request: RatingRequested, at_ms: int) -> GameRated | None:
        """The GameRated a request calls for; None when the game is rated already (a repeated request)."""
        if request.game_id in self.rated_games:
            return None
        return self.rate(request.game_id, request.title, request.places, at_ms)

    def take(self, event: GameRated) -> bool:
        """A GameRated read from the log: applied (True), or skipped when it does not apply (a repeat,
        or computed from another book: refused by every reader alike)."""
        try:
            self.apply(event)
        except TournamentError:
            return False
        return True

    def apply(self, event: GameRated) -> None:
        if event.game_id in self.rated_games:
            raise TournamentError(f"Game {event.game_id} is rated already")
        for change in event.changes:
            if self.rating(change.player, change.scope) != change.before:
                raise TournamentError(f"The ratings of game {event.game_id} start from another rating of "
                                      f"{change.player} ({change.scope}): ratings must be applied in log order")
        for change in event.changes:
            key = (change.scope, change.player)
            self.ratings[key] = change.after
            self.history.setdefault(key, []).append(
                HistoryEntry(event.game_id, event.at_ms, change.after, change.placement))
        self.rated_games.add(event.game_id)


def table_request(tournament: Tournament, table: Table, at_ms: int) -> RatingRequested:
    """The rating request of a finished table of a rated tournament, players by rating identity."""
    if not tournament.settings.rated:
        raise TournamentError(f"{tournament.name} is not rated")
    if not table.finished:
        raise TournamentError(f"Table {table.number} has not finished")
    places = placements(table.result or {}, table.forfeited)
    return RatingRequested(game_id=table.game_id, title=tournament.settings.title, at_ms=at_ms,
                           places={identity(tournament.players[p].name): place for p, place in places.items()})


def tournament_ratings(book: RatingBook, tournament: Tournament) -> dict[str, float]:
    """Each player's rating (ordinal) in the tournament's title, by player id: for the standings."""
    scope = tournament.settings.slug
    return {pid: book.rating(identity(p.name), scope).ordinal for pid, p in tournament.players.items()}


class RatingsFeed:
    """The ratings' records in log order: the book of the GameRated records that applied, and the
    requests not rated yet, oldest first."""

    def __init__(self, model: PlackettLuce | None = None):
        self.book = RatingBook(model)
        self.pending: dict[str, RatingRequested] = {}   # game -> its first request, in log order

    def take(self, event: RatingRequested | GameRated) -> bool:
        """Take the next ratings record in; True if it changed anything (a repeated request, or one
        that cannot be rated, is skipped)."""
        if isinstance(event, RatingRequested):
            if event.game_id in self.book.rated_games or event.game_id in self.pending:
                return False
            try:
                check_places(event.title, event.places)
            except TournamentError:
                return False
            self.pending[event.game_id] = event
            return True
        if not self.book.take(event):
            return False
        self.pending.pop(event.game_id, None)
        return True

    def next_request(self) -> RatingRequested | None:
        """The request to answer now: the oldest one not rated (every earlier one is rated in the
        book, so its answer starts from the ratings the log gives at its turn)."""
        return next(iter(self.pending.values()), None)

    def answer(self, at_ms: int) -> GameRated | None:
        """The GameRated of `next_request()` from this book (the book is unchanged: the answer counts
        once it is read back from the log)."""
        request = self.next_request()
        return None if request is None else self.book.rate_request(request, at_ms)
