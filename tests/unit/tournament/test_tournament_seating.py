"""Seating: table sizes, every player once, repeat opponents avoided, seat order balanced."""

import itertools

import pytest
from hypothesis import given, settings, strategies as st
from .tournament_support import new_tournament, play_round

from tournament import TournamentError
from tournament.seating import History, seat, seeded_key, table_sizes


@pytest.mark.parametrize("players, size, low, expected", [
    (60, 4, 3, [4] * 15),
    (61, 4, 3, [4] * 13 + [3] * 3),
    (62, 4, 3, [4] * 14 + [3] * 2),
    (63, 4, 3, [4] * 15 + [3]),
    (5, 4, 3, None),                    # 4 + 1 or 3 + 2: no table of 3-4 works
    (5, 5, 3, [5]),
    (7, 4, 3, [4, 3]),
    (1000, 4, 3, [4] * 250),
    (2, 6, 3, None),
])
def test_table_sizes(players, size, low, expected):
    if expected is None:
        with pytest.raises(TournamentError, match="cannot sit"):
            table_sizes(players, size, low)
    else:
        assert table_sizes(players, size, low) == expected


def test_sixty_players_of_1856_sit_at_fifteen_tables_of_four():
    t = new_tournament(60)
    tables = t.seat_round(seed=5, at_ms=3).tables
    assert [len(tb) for tb in tables] == [4] * 15
    assert sorted(p for tb in tables for p in tb) == sorted(t.players)


def test_the_same_seed_seats_the_same_and_another_seed_differently():
    t = new_tournament(40)
    assert t.seat_round(3, 10).tables == t.seat_round(3, 99).tables
    assert t.seat_round(3, 10).tables != t.seat_round(4, 10).tables


def test_later_rounds_group_by_standings():
    # Scores by the players' numbers: the four winners of round 1 are p-numbers known in advance.
    t = new_tournament(16)
    play_round(t, 1, lambda n, seats: {p: int(p[1:]) * 10 for p in seats}, 3)
    winners = {max(tb.seats, key=lambda p: int(p[1:])) for tb in t.rounds[0].tables}
    t.apply(t.seat_round(2, 10))
    assert set(t.rounds[1].tables[0].seats) == winners             # table 1: the round's winners
    assert History.of(t, 2).repeats([tb.seats for tb in t.rounds[1].tables]) == 0


def test_when_repeats_cannot_be_avoided_the_fewest_are_made():
    # 8 players, 2 tables of 4, round 1 by the seeded key; round 2 must mix the two tables 2 + 2, and
    # no seating avoids every repeat: the least is 2 repeat pairs per table.
    t = new_tournament(8, rounds=2)
    play_round(t, 1, lambda n, seats: {p: int(p[1:]) for p in seats}, 3)
    seating = t.seat_round(2, 10).tables
    first = [set(tb.seats) for tb in t.rounds[0].tables]
    for tb in seating:
        assert [len(first[0] & set(tb)), len(first[1] & set(tb))] == [2, 2]
    assert History.of(t, 2).repeats(seating) == 4


def brute_force_seat_cost(members, history):
    return min(sum(history.seats.get(p, {}).get(i, 0) for i, p in enumerate(order))
               for order in itertools.permutations(members))


def test_seat_order_takes_the_least_used_seats():
    history = History()
    history.add(("a", "b", "c", "d"), small=False)
    history.add(("b", "a", "d", "c"), small=False)
    keys = {p: seeded_key(1, p) for p in "abcd"}
    (order,) = seat(list("abcd"), [4], history, keys, 4, seed=1)
    # a had seats 1 and 2, b seats 2 and 1, c 3 and 4, d 4 and 3: a and b must take 3 and 4.
    assert set(order[2:]) == {"a", "b"} and set(order[:2]) == {"c", "d"}
    assert sum(history.seats[p].get(i, 0) for i, p in enumerate(order)) == 0


# ---------------------------------------------------------------------- properties

TITLES = {"1856": (3, 6), "1822": (2, 7), "1847 AE": (3, 5)}


@st.composite
def seating_cases(draw):
    title = draw(st.sampled_from(sorted(TITLES)))
    low, high = TITLES[title]
    size = draw(st.integers(low, high))
    smallest = draw(st.integers(low, size))
    players = draw(st.integers(smallest, 120))
    rounds = draw(st.integers(0, 3))
    seed = draw(st.integers(0, 2**32))
    withdrawn = draw(st.lists(st.integers(1, players), max_size=3, unique=True))
    return title, size, smallest, players, rounds, seed, withdrawn


@settings(max_examples=60, deadline=None)
@given(seating_cases())
def test_every_player_is_seated_exactly_once_at_allowed_tables(case):
    title, size, smallest, players, rounds, seed, withdrawn = case
    t = new_tournament(players, title=title, table_size=size, rounds=rounds + 1, min_table_size=smallest)
    scores = lambda n, seats: {p: (int(p[1:]) * 7919 + n * 104729 + seed) % 1000 for p in seats}  # noqa: E731

    def seatable() -> bool:
        try:
            table_sizes(len(t.active_players()), size, smallest)
            return True
        except TournamentError:
            with pytest.raises(TournamentError, match="cannot sit|Nobody"):
                t.seat_round(seed, 60)
            return False

    for r in range(rounds):
        if not seatable():
            return
        play_round(t, seed + r, scores, 10 * r + 3)
    for w in withdrawn:
        t.apply(t.withdraw(f"p{w}", 50, by_organiser=True))
    if not seatable():
        return
    event = t.seat_round(seed, 60)
    seated = [p for tb in event.tables for p in tb]
    assert sorted(seated) == sorted(t.active_players())
    assert all(smallest <= len(tb) <= size for tb in event.tables)
    assert len(event.tables) == -(-len(seated) // size)
    assert t.seat_round(seed, 61).tables == event.tables            # deterministic
    history = History.of(t, event.round)
    for tb in event.tables:
        if len(tb) <= 5:
            assert sum(history.seats.get(p, {}).get(i, 0) for i, p in enumerate(tb)) == \
                brute_force_seat_cost(tb, history)


@pytest.mark.timeout(60)
def test_a_swap_between_two_small_tables_of_different_sizes_changes_no_small_table_cost():
    # tables of 4 and 3 where tables seat 5: both are small, so moving the player who sat at a
    # small table before from one to the other gains nothing (it was taken for a gain either way,
    # and the swaps went back and forth without end)
    history = History()
    history.small["p1"] = 1
    order = [f"p{i}" for i in range(1, 8)]
    keys = {p: seeded_key(7, p) for p in order}
    tables = seat(order, [4, 3], history, keys, 5, 7)
    assert sorted(p for t in tables for p in t) == sorted(order)
    assert sorted(len(t) for t in tables) == [3, 4]
