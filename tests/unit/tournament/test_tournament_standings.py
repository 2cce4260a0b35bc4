"""Standings and ratings against values computed by hand.

A 16-player tournament of 1856 over three rounds with the organiser's own seatings (the rows,
columns and diagonals of a 4x4 grid, so nobody meets twice), Player 16 withdrawing after round 2
(round 3's first table seats three) and Player 07's flag falling in round 3.

    grid   p1  p2  p3  p4        round 1: rows      round 2: columns
           p5  p6  p7  p8        round 3: diagonals (p1 p6 p11 [p16]) (p2 p7 p12 p13)
           p9  p10 p11 p12                          (p3 p8 p9 p14) (p4 p5 p10 p15)
           p13 p14 p15 p16

Every table's scores add up to 1000, so a share is a score / 1000.
"""

import csv
import io
import json
import math
from fractions import Fraction as F

import pytest
from .tournament_support import new_tournament

from tournament import (RatingBook, RatingRequested, RatingsFeed, RoundSeated, TimeControl, TournamentError, identity,
                        placements, standings, table_request, tournament_ratings)
from tournament.standings import table_points

ROUNDS = [
    # round 1: rows
    [{"p1": 400, "p2": 300, "p3": 200, "p4": 100},
     {"p5": 100, "p6": 400, "p7": 300, "p8": 200},
     {"p9": 250, "p10": 250, "p11": 300, "p12": 200},
     {"p13": 250, "p14": 250, "p15": 100, "p16": 400}],
    # round 2: columns
    [{"p1": 300, "p5": 400, "p9": 200, "p13": 100},
     {"p2": 400, "p6": 100, "p10": 300, "p14": 200},
     {"p3": 200, "p7": 400, "p11": 100, "p15": 300},
     {"p4": 300, "p8": 100, "p12": 200, "p16": 400}],
    # round 3: diagonals, without p16 (withdrawn); p7 forfeits table 2 on time with 200
    [{"p1": 500, "p6": 300, "p11": 200},
     {"p2": 500, "p7": 200, "p12": 100, "p13": 200},
     {"p3": 300, "p8": 300, "p9": 200, "p14": 200},
     {"p4": 100, "p5": 400, "p10": 300, "p15": 200}],
]
FORFEITS = {(3, 2): ("p7",)}

# Rank points per round (a table of three scales by 3/2) and shares, by hand:
#   p1  3 + 2 + 3 (won the table of 3: 2 x 3/2)      = 8    .4 + .3 + .5  = 1.2
#   p2  2 + 3 + 3                                     = 8    .3 + .4 + .5  = 1.2   (p1 beat p2 in round 1)
#   p5  0 + 3 + 3                                     = 6    .1 + .4 + .4  = .9
#   p16 3 + 3 (withdrawn)                             = 6    .4 + .4       = .8
#   p10 1.5 (tie with p9) + 2 + 2                     = 5.5  .25 + .3 + .3 = .85
#   p7  2 + 3 + 0 (forfeit: beaten by all)            = 5    .3 + .4 + .2  = .9
#   p6  3 + 0 + 1.5 (second of 3: 1 x 3/2)            = 4.5  .4 + .1 + .3  = .8
#   p3  1 + 1 + 2.5 (tie with p8)                     = 4.5  .2 + .2 + .3  = .7
#   p8  1 + 0 + 2.5                                   = 3.5  .2 + .1 + .3  = .6
#   p13 1.5 (tie with p14) + 0 + 2 (beats p12 and p7) = 3.5  .25 + .1 + .2 = .55
#   p9  1.5 + 1 + .5 (tie with p14)                   = 3    .25 + .2 + .2 = .65
#   p14 1.5 + 1 + .5 (tie with p9)                    = 3    .25 + .2 + .2 = .65  (p9-p14 tied: same rank)
#   p15 0 + 2 + 1                                     = 3    .1 + .3 + .2  = .6   (p15 beat p11 in round 2)
#   p11 3 + 0 + 0                                     = 3    .3 + .1 + .2  = .6
#   p4  0 + 2 + 0                                     = 2    .1 + .3 + .1  = .5   (p4 beat p12 in round 2)
#   p12 0 + 1 + 1 (beats the forfeited p7)            = 2    .2 + .2 + .1  = .5
EXPECTED = [  # rank, player, points, share, head-to-head within the tied group
    (1, "p1", 8, 1.2, 1), (2, "p2", 8, 1.2, 0), (3, "p5", 6, .9, 0), (4, "p16", 6, .8, 0),
    (5, "p10", 5.5, .85, 0), (6, "p7", 5, .9, 0), (7, "p6", 4.5, .8, 0), (8, "p3", 4.5, .7, 0),
    (9, "p8", 3.5, .6, 0), (10, "p13", 3.5, .55, 0), (11, "p9", 3, .65, .5), (11, "p14", 3, .65, .5),
    (13, "p15", 3, .6, 1), (14, "p11", 3, .6, 0), (15, "p4", 2, .5, 1), (16, "p12", 2, .5, 0),
]


def tables_of(round_index):
    return tuple(tuple(table) for table in ROUNDS[round_index])


def play(t, round_no, finish=True):
    t.apply(RoundSeated(round_no, 0, tables_of(round_no - 1), at_ms=round_no * 100))
    t.apply(t.start_round(round_no * 100 + 1))
    if finish:
        for n, table in enumerate(t.rounds[-1].tables, start=1):
            t.apply(t.finish_table(table.game_id, ROUNDS[round_no - 1][n - 1], "bank", round_no * 100 + 2,
                                   forfeited=FORFEITS.get((round_no, n), ())))


@pytest.fixture
def tournament():
    t = new_tournament(16, time_control=TimeControl(3_600_000, 10_000))
    play(t, 1)
    play(t, 2)
    t.apply(t.withdraw("p16", 250, by_organiser=False))
    play(t, 3)
    return t


def test_final_standings_by_hand(tournament):
    table = standings(tournament)
    assert table.final and not table.live and table.through_round == 3
    got = [(r.rank, r.player_id, r.points, r.share, r.head_to_head) for r in table.rows]
    assert got == [(rank, p, F(str(pts)), F(str(sh)), F(str(hh))) for rank, p, pts, sh, hh in EXPECTED]
    rows = {r.player_id: r for r in table.rows}
    assert rows["p16"].withdrawn and rows["p16"].games == 2
    assert rows["p1"].total_score == 1200 and rows["p7"].rounds[2].forfeited


def test_standings_after_each_round(tournament):
    after_one = standings(tournament, through_round=1)
    # round 1 winners p1, p6, p11, p16 have 3 points; shares .4, .4, .3, .4 -> p11 is fourth
    assert [r.player_id for r in after_one.rows[:4]] == ["p1", "p6", "p16", "p11"]
    assert [r.rank for r in after_one.rows[:4]] == [1, 1, 1, 4]      # p1, p6, p16 equal and never met
    assert after_one.rows[0].points == 3 and after_one.rows[0].share == F(2, 5)


def test_live_standings_count_running_tables_provisionally():
    t = new_tournament(16)
    play(t, 1, finish=False)
    ids = [tb.game_id for tb in t.rounds[0].tables]
    t.apply(t.finish_table(ids[0], ROUNDS[0][0], "bank", 150))
    nothing_live = standings(t)
    assert not nothing_live.final and not nothing_live.live
    assert {r.player_id for r in nothing_live.rows if r.games} == {"p1", "p2", "p3", "p4"}
    live = standings(t, live={ids[1]: {"p5": 900, "p6": 300, "p7": 200, "p8": 100}})
    assert live.live and not live.final
    rows = {r.player_id: r for r in live.rows}
    assert rows["p5"].points == 3 and rows["p5"].finished == 0 and rows["p5"].rounds[0].provisional
    assert rows["p5"].share == F(900, 1500)
    assert rows["p9"].games == 0


def test_table_points_scale_to_the_table_size_and_forfeits_lose():
    assert table_points(("a", "b", "c"), {"a": 5, "b": 3, "c": 3}, (), 4) == \
        {"a": F(3), "b": F(3, 4), "c": F(3, 4)}                       # (1 + 1) x 3/2, (1/2) x 3/2
    assert table_points(("a", "b", "c", "d"), {"a": 9, "b": 5, "c": 1, "d": 7}, ("a", "d"), 4) == \
        {"a": F(1), "b": F(3), "c": F(2), "d": F(0)}           # forfeits last, between them by score


def test_exports(tournament):
    table = standings(tournament, ratings={"p1": 12.345})
    rows = list(csv.DictReader(io.StringIO(table.to_csv())))
    assert list(rows[0]) == ["rank", "player_id", "name", "points", "share", "head_to_head", "games", "finished",
                             "total_score", "withdrawn", "rating"]
    assert rows[0] == {"rank": "1", "player_id": "p1", "name": "Player 01", "points": "8.0", "share": "1.2",
                       "head_to_head": "1.0", "games": "3", "finished": "3", "total_score": "1200",
                       "withdrawn": "False", "rating": "12.35"}
    assert rows[10]["rank"] == rows[11]["rank"] == "11"
    data = json.loads(table.to_json_bytes())
    assert data["final"] and data["tiebreaks"] == ["rank points", "share of table value", "head-to-head"]
    assert data["rows"][5]["player_id"] == "p7" and data["rows"][5]["rounds"][2] == {
        "round": 3, "table": 2, "score": 200, "points": 0.0, "share": 0.2, "provisional": False, "forfeited": True}


def test_placements_put_forfeits_last_and_share_ties():
    assert placements(ROUNDS[2][1], ("p7",)) == {"p2": 1, "p13": 2, "p12": 3, "p7": 4}
    assert placements(ROUNDS[2][2]) == {"p3": 1, "p8": 1, "p9": 3, "p14": 3}


# ---------------------------------------------------------------------- ratings


def hand_ratings_of_fresh_four_player_game():
    """Plackett-Luce (Weng & Lin 2011, algorithm 4) for four new players finishing 1, 2, 3, 4, worked
    out by hand: equal ratings make every exp(mu / c) equal, so the sums over the players placed at
    or below place q are (5 - q) of them and

        mu_k    = mu + sigma'^2 / c * w_k,        w = 3/4, 5/12, -1/12, -13/12
        sigma_k = sigma' * sqrt(1 - sigma'^2 / c^2 * (sigma' / c) * d_k),
                  d = 3/16, 3/16 + 2/9, 3/16 + 2/9 + 1/4, the same + 0

    with sigma'^2 = sigma^2 + tau^2 (mu 25, sigma 25/3, tau 25/300) and c^2 = 4 (sigma'^2 + beta^2),
    beta 25/6. Numerically mu = 27.795, 26.553, 24.689, 20.962."""
    sigma2 = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(4 * (sigma2 + (25 / 6) ** 2))
    w = [3 / 4, 5 / 12, -1 / 12, -13 / 12]
    d = [3 / 16, 3 / 16 + 2 / 9, 3 / 16 + 2 / 9 + 1 / 4, 3 / 16 + 2 / 9 + 1 / 4]
    gamma = math.sqrt(sigma2) / c
    return [(25 + sigma2 / c * wk, math.sqrt(sigma2) * math.sqrt(1 - sigma2 / c ** 2 * gamma * dk))
            for wk, dk in zip(w, d)]


def test_a_first_game_rates_as_worked_out_by_hand():
    book = RatingBook()
    event = book.rate("g1", "1856", {"p3": 3, "p1": 1, "p4": 4, "p2": 2}, at_ms=5)
    book.apply(event)
    expected = hand_ratings_of_fresh_four_player_game()
    assert [round(m, 3) for m, _ in expected] == [27.795, 26.553, 24.689, 20.962]
    for player, (mu, sigma) in zip(("p1", "p2", "p3", "p4"), expected):
        for scope in ("1856", "overall"):
            r = book.rating(player, scope)
            assert r.mu == pytest.approx(mu, abs=1e-9) and r.sigma == pytest.approx(sigma, abs=1e-9)
    assert book.rating("p1", "1822") == book.initial                  # another title: untouched
    assert book.initial.ordinal == pytest.approx(0.0, abs=1e-12)


def test_ratings_of_the_whole_tournament(tournament):
    book = RatingBook()
    for rnd in tournament.rounds:
        for table in rnd.tables:
            book.apply(book.rate(table.game_id, "1856", placements(table.result, table.forfeited),
                                 at_ms=table.finished_at))
    # round 1's tables were everyone's first game: the hand formula holds for those without ties
    first = hand_ratings_of_fresh_four_player_game()
    history = book.games("p6", "1856")
    assert [h.game_id for h in history] == ["t1.r1.t2", "t1.r2.t2", "t1.r3.t1"]
    assert history[0].rating.mu == pytest.approx(first[0][0]) and history[0].placement == 1
    assert book.games("p5", "overall")[0].rating.mu == pytest.approx(first[3][0])
    assert len(book.games("p16")) == 2 and len(book.rated_games) == 12
    # one title: the title's ratings are the overall ones
    assert all(book.rating(p, "1856") == book.rating(p) for p in tournament.players)
    board = book.leaderboard("1856")
    assert sorted(row[0] for row in board) == sorted(tournament.players)
    assert all(a[1].ordinal >= b[1].ordinal for a, b in zip(board, board[1:]))
    assert dict((row[0], row[2]) for row in board)["p16"] == 2
    # a forfeit rates as last place: p7 lost rating in round 3 although it scored above p12
    p7 = book.games("p7")
    assert p7[2].placement == 4 and p7[2].rating.mu < p7[1].rating.mu
    # rebuilding from the events gives the same book
    again = RatingBook()
    for rnd in tournament.rounds:
        for table in rnd.tables:
            again.apply(book_events(book, table.game_id))
    assert again.ratings == book.ratings


def book_events(book, game_id):
    """The GameRated event of a game, rebuilt from the book's history (as a log would hold it)."""
    from tournament import GameRated, RatingChange
    changes = []
    for (scope, player), entries in book.history.items():
        for i, h in enumerate(entries):
            if h.game_id == game_id:
                before = entries[i - 1].rating if i else book.initial
                changes.append(RatingChange(player, scope, before, h.rating, h.placement))
    return GameRated(game_id, "1856", 0, tuple(changes))


def test_ratings_refuse_repeats_and_out_of_order_events():
    book = RatingBook()
    first = book.rate("g1", "1856", {"a": 1, "b": 2, "c": 3}, 1)
    second_computed_early = book.rate("g2", "1856", {"a": 2, "b": 1, "c": 3}, 2)
    book.apply(first)
    with pytest.raises(TournamentError, match="rated already"):
        book.rate("g1", "1856", {"a": 1, "b": 2, "c": 3}, 1)
    with pytest.raises(TournamentError, match="log order"):
        book.apply(second_computed_early)                             # computed before g1 was applied
    with pytest.raises(TournamentError, match="two players"):
        book.rate("g3", "1856", {"a": 1}, 3)


class Reader:
    """A reader of the ratings' log (a rater, or a gateway): a RatingsFeed and how far it has read."""

    def __init__(self):
        self.feed, self.read = RatingsFeed(), 0

    def catch_up(self, log, upto=None):
        for event in log[self.read:upto]:
            self.feed.take(event)
        self.read = len(log) if upto is None else upto


def test_raters_answer_from_the_log_and_never_from_a_book_of_their_own():
    requests = [RatingRequested("g1", "1856", {"a": 1, "b": 2, "c": 3}, 10),
                RatingRequested("g2", "1856", {"a": 3, "b": 1, "d": 2}, 11),
                RatingRequested("g3", "1856", {"c": 1, "d": 2}, 12)]
    log = [requests[0], requests[1], RatingRequested("g9", "1856", {"a": 1}, 13)]   # g9 cannot be rated
    a, b, gateway = Reader(), Reader(), Reader()
    a.catch_up(log)
    assert a.feed.next_request() == requests[0] and list(a.feed.pending) == ["g1", "g2"]
    log.append(a.feed.answer(20))                     # rater A answers g1; its book is not changed by that
    assert a.feed.book.rated_games == set()
    b.catch_up(log, upto=2)                           # rater B, behind: it has not read A's answer
    log.append(b.feed.answer(21))                     # the same numbers, another time: a repeat
    # a rater whose book went its own way (g2 computed before g1 was applied) is refused by everyone
    log.append(RatingBook().rate("g2", "1856", requests[1].places, 22))
    for reader in (a, b, gateway):
        reader.catch_up(log)
        assert reader.feed.book.rated_games == {"g1"} and reader.feed.next_request() == requests[1]
        assert reader.feed.book.games("a", "1856")[0].at_ms == 20, "the first answer in the log counts"
    log.append(b.feed.answer(30))
    log.append(requests[2])
    for reader in (a, b, gateway):
        reader.catch_up(log)
    log.append(a.feed.answer(31))
    for reader in (a, b, gateway):
        reader.catch_up(log)
        assert reader.feed.next_request() is None and reader.feed.answer(40) is None
    # every reader holds the same book, and it is the book of rating the games in log order
    expected = RatingBook()
    for request, at in zip(requests, (20, 30, 31)):
        expected.apply(expected.rate(request.game_id, request.title, request.places, at))
    for reader in (a, b, gateway):
        assert reader.feed.book.ratings == expected.ratings and reader.feed.book.history == expected.history


def test_tables_rate_by_name_and_ratings_show_in_standings(tournament):
    book = RatingBook()
    for rnd in tournament.rounds:
        for table in rnd.tables:
            request = table_request(tournament, table, table.finished_at)
            book.apply(book.rate_request(request, table.finished_at + 1))
            assert book.rate_request(request, table.finished_at + 2) is None     # a repeated request
    assert identity("  Player   01 ") == identity("player 01") == "player 01"
    assert len(book.games("player 01", "1856")) == 3 and book.games("p1") == []
    shown = tournament_ratings(book, tournament)
    assert shown["p1"] == book.rating("player 01", "1856").ordinal
    rows = {r.player_id: r for r in standings(tournament, ratings=shown).rows}
    assert rows["p2"].rating == shown["p2"]
    unrated = new_tournament(4, rated=False)
    with pytest.raises(TournamentError, match="not rated"):
        table_request(unrated, tournament.rounds[0].tables[0], 1)
