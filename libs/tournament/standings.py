"""Standings with stated tiebreaks, live during a round and final after it; CSV and JSON exports.

Per table (its final scores, or for a live table the current net worth passed in `live`):

- **Rank points**: a seat gets 1 for each other seat of the table it beat and 1/2 for each it tied,
  scaled to the tournament's table size: x (table_size - 1) / (seats at the table - 1), so winning a
  table of 3 is worth as much as winning a table of 4 in a tournament of 4s. A forfeited seat (its
  clock ran out) is beaten by every seat that did not forfeit; forfeited seats compare by score
  among themselves.
- **Share**: the seat's score divided by the table's total score (1/seats when the total is not
  positive).

Players are ordered by total rank points, then total share, then head-to-head: among the players
still tied, the rank points (unscaled) each earned against the others of the tied group at tables
they shared. Players equal on all three share a rank (1, 2, 2, 4); they are listed by name.
All sums are exact fractions, so ties are real ties.
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Mapping

from .state import Table, Tournament


@dataclass
class RoundScore:
    round: int
    table: int
    score: int
    points: Fraction
    share: Fraction
    provisional: bool
    forfeited: bool


@dataclass
class Row:
    player_id: str
    name: str
    rank: int = 0
    points: Fraction = Fraction(0)
    share: Fraction = Fraction(0)
    head_to_head: Fraction = Fraction(0)   # within the group tied on points and share; 0 alone
    games: int = 0                         # tables counted (finished and live)
    finished: int = 0
    total_score: int = 0
    withdrawn: bool = False
    rating: float | None = None
    rounds: list[RoundScore] = field(default_factory=list)


@dataclass
class Standings:
    tournament_id: str
    name: str
    title: str
    through_round: int               # the last round counted (0 before the first)
    final: bool                      # no table of the counted rounds is still being played
    live: bool                       # some tables were counted from their current values
    rows: list[Row]

    def to_json(self) -> dict:
        return {
            "tournament_id": self.tournament_id, "name": self.name, "title": self.title,
            "through_round": self.through_round, "final": self.final, "live": self.live,
            "tiebreaks": ["rank points", "share of table value", "head-to-head"],
            "rows": [_row_json(r) for r in self.rows],
        }

    def to_json_bytes(self) -> bytes:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False).encode()

    def to_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for r in self.rows:
            data = _row_json(r)
            writer.writerow([data[c] if data[c] is not None else "" for c in CSV_COLUMNS])
        return out.getvalue()


CSV_COLUMNS = ("rank", "player_id", "name", "points", "share", "head_to_head", "games", "finished",
               "total_score", "withdrawn", "rating")


def _num(value: Fraction) -> float:
    return round(float(value), 4)


def _row_json(r: Row) -> dict:
    return {
        "rank": r.rank, "player_id": r.player_id, "name": r.name, "points": _num(r.points),
        "share": _num(r.share), "head_to_head": _num(r.head_to_head), "games": r.games,
        "finished": r.finished, "total_score": r.total_score, "withdrawn": r.withdrawn,
        "rating": None if r.rating is None else round(r.rating, 2),
        "rounds": [{"round": s.round, "table": s.table, "score": s.score, "points": _num(s.points),
                    "share": _num(s.share), "provisional": s.provisional, "forfeited": s.forfeited}
                   for s in r.rounds],
    }


def beats(a: str, b: str, scores: Mapping[str, int], forfeited) -> Fraction:
    """What seat `a` earns against seat `b` at one table: 1, 1/2 or 0."""
    fa, fb = a in forfeited, b in forfeited
    if fa != fb:
        return Fraction(0 if fa else 1)
    if scores[a] == scores[b]:
        return Fraction(1, 2)
    return Fraction(1 if scores[a] > scores[b] else 0)


def table_points(seats, scores: Mapping[str, int], forfeited, table_size: int) -> dict[str, Fraction]:
    """Rank points of each seat of one table (see the module docstring)."""
    if len(seats) < 2:
        return {p: Fraction(0) for p in seats}
    scale = Fraction(table_size - 1, len(seats) - 1)
    return {a: scale * sum((beats(a, b, scores, forfeited) for b in seats if b != a), Fraction(0))
            for a in seats}


def table_shares(seats, scores: Mapping[str, int]) -> dict[str, Fraction]:
    total = sum(scores[p] for p in seats)
    if total <= 0:
        return {p: Fraction(1, len(seats)) for p in seats}
    return {p: Fraction(scores[p], total) for p in seats}


def compute(tournament: Tournament, *, live: Mapping[str, Mapping[str, int]] | None = None,
            through_round: int | None = None, ratings: Mapping[str, float] | None = None) -> Standings:
    """The standings after the started rounds up to `through_round` (default: all of them).

    Finished tables count their results; a table still in play counts its current values from
    `live` (game id -> {player id: net worth}) when given, marked provisional, and nothing otherwise.
    `ratings` (player id -> rating to show) fills the rating column.
    """
    live = live or {}
    rounds = [r for r in tournament.played_rounds() if through_round is None or r.number <= through_round]
    rows = {pid: Row(player_id=pid, name=p.name, withdrawn=not p.active,
                     rating=None if ratings is None else ratings.get(pid))
            for pid, p in tournament.players.items()}
    h2h: dict[str, dict[str, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
    any_live, final = False, True
    size = tournament.settings.table_size
    for rnd in rounds:
        for table in rnd.tables:
            counted = _table_scores(table, live)
            if not table.finished:
                final = False
            if counted is None:
                continue
            scores, forfeited, provisional = counted
            any_live |= provisional
            points = table_points(table.seats, scores, forfeited, size)
            shares = table_shares(table.seats, scores)
            for p in table.seats:
                row = rows[p]
                row.points += points[p]
                row.share += shares[p]
                row.games += 1
                row.finished += not provisional
                row.total_score += scores[p]
                row.rounds.append(RoundScore(rnd.number, table.number, scores[p], points[p], shares[p],
                                             provisional, p in forfeited))
                for q in table.seats:
                    if q != p:
                        h2h[p][q] += beats(p, q, scores, forfeited)
    ordered = rank_rows(list(rows.values()), h2h)
    return Standings(tournament_id=tournament.id, name=tournament.name, title=tournament.settings.title,
                     through_round=rounds[-1].number if rounds else 0, final=final, live=any_live,
                     rows=ordered)


def _table_scores(table: Table, live: Mapping[str, Mapping[str, int]]):
    if table.finished:
        return table.result, set(table.forfeited), False
    values = live.get(table.game_id)
    if values is None:
        return None
    return {p: int(values.get(p, 0)) for p in table.seats}, set(), True


def rank_rows(rows: list[Row], h2h: Mapping[str, Mapping[str, Fraction]]) -> list[Row]:
    """Order rows by points, share, then head-to-head within tied groups; assign shared ranks."""
    rows.sort(key=lambda r: (-r.points, -r.share))
    ordered: list[Row] = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and (rows[j].points, rows[j].share) == (rows[i].points, rows[i].share):
            j += 1
        group = rows[i:j]
        if len(group) > 1:
            ids = {r.player_id for r in group}
            for r in group:
                against = h2h.get(r.player_id, {})
                r.head_to_head = sum((v for q, v in against.items() if q in ids), Fraction(0))
        group.sort(key=lambda r: (-r.head_to_head, r.name.casefold(), r.player_id))
        ordered.extend(group)
        i = j
    previous = None
    for position, r in enumerate(ordered, start=1):
        key = (r.points, r.share, r.head_to_head)
        r.rank = previous[1] if previous and previous[0] == key else position
        previous = (key, r.rank)
    return ordered
