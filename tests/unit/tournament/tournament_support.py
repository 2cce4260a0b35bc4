"""Helpers of the tournament library's tests."""

from __future__ import annotations

import hashlib

from tournament import Settings, Tournament, TournamentCreated


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def new_tournament(players: int = 0, *, title: str = "1856", table_size: int = 4, rounds: int = 3,
                   close: bool = True, **options) -> Tournament:
    """A tournament with `players` registered as "Player 01", ... (ids p1, p2, ...), registration closed."""
    settings = Settings.make(title, table_size, rounds, **options)
    t = Tournament.create(TournamentCreated("t1", "Club night", settings, sha("organiser"), at_ms=1_000))
    for i in range(1, players + 1):
        t.apply(t.register(f"Player {i:02d}", sha(f"token {i}"), at_ms=1_000 + i))
    if close:
        t.apply(t.close_registration(at_ms=2_000))
    return t


def play_round(t: Tournament, seed: int, results, at_ms: int, forfeits=None) -> None:
    """Seat, start and finish a round; `results(table_number, seats)` gives {player: score}."""
    t.apply(t.seat_round(seed, at_ms))
    t.apply(t.start_round(at_ms + 1))
    for table in t.rounds[-1].tables:
        t.apply(t.finish_table(table.game_id, results(table.number, table.seats), "bank", at_ms + 2,
                               forfeited=(forfeits or {}).get(table.number, ())))


class Logged:
    """A tournament and its log: `do(event)` applies the event and appends it, as a writer would."""

    def __init__(self, **options):
        self.t = new_tournament(0, close=False, **options)
        self.log = [TournamentCreated("t1", "Club night", self.t.settings, sha("organiser"), at_ms=1_000)]

    def do(self, event) -> None:
        self.t.apply(event)
        self.log.append(event)
