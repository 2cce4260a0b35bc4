"""Seating a round: Swiss-style grouping for multiplayer tables (docs/tournaments.md, "Seating").

1. **Table sizes.** N players sit at the fewest tables of at most `table_size`: T = ceil(N /
   table_size), sizes as equal as possible (N mod T tables get one seat more), larger tables first.
   If that leaves a table below `min_table_size`, the round cannot be seated (no other split can
   do better: any split into T or more tables has a table at most floor(N / T) large).
2. **Order.** Round 1: by a seeded key. Later rounds: by the standings after the previous round
   (rank), equal ranks by the seeded key. The seeded key of a player is sha256 of "seed:player id",
   so the order is the same on any machine and Python version.
3. **Groups.** The ordered players fill the tables in turn: table 1 takes the first players, and
   so on (players of similar standing play each other).
4. **Repeats.** The cost of a seating is (repeat meetings, repeat small tables): the number of
   earlier rounds each pair of table-mates shared a table, summed over pairs; and, for every player
   at a table smaller than `table_size`, the number of earlier rounds they sat at one. Players with
   a cost are visited table by table, in seat order; for each, the tables at distance 1, 2, ... from
   its own are searched for a swap with one of their players that lowers the cost (compared as a
   pair: repeats first). At the first distance that has any, the swap taken is the one that lowers
   the cost most, then the one between players closest in the step 2 order, then the lower table
   and seat. Visits repeat until a full pass makes no swap. Each swap lowers the cost, so this ends;
   the result is a seating no single swap improves, as close to the step 3 groups as that allows.
5. **Seat order.** At each table, seats are assigned so that the total over its players of
   "times this player already had this seat number" is the least possible (an exact assignment
   over all orders); among equal assignments, seat 1 goes to the first possible player in seeded
   order, then seat 2, and so on.

Everything depends only on the tournament's events and the seed.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field

from .errors import TournamentError
from .state import Tournament


def table_sizes(players: int, table_size: int, min_table_size: int) -> list[int]:
    """Sizes of the tables for `players` (step 1)."""
    if players <= 0:
        raise TournamentError("Nobody to seat")
    tables = -(-players // table_size)
    base, extra = divmod(players, tables)
    if base < min_table_size:
        raise TournamentError(f"{players} players cannot sit at tables of {min_table_size} to {table_size}")
    return [base + 1] * extra + [base] * (tables - extra)


def seeded_key(seed: int, player_id: str) -> bytes:
    return hashlib.sha256(f"{seed}:{player_id}".encode()).digest()


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


@dataclass
class History:
    """What earlier rounds say about who sat where."""

    met: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    seats: dict[str, dict[int, int]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    small: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    @classmethod
    def of(cls, tournament: Tournament, before_round: int) -> "History":
        history = cls()
        for rnd in tournament.played_rounds():
            if rnd.number >= before_round:
                continue
            for table in rnd.tables:
                history.add(table.seats, small=len(table.seats) < tournament.settings.table_size)
        return history

    def add(self, seats, *, small: bool) -> None:
        for i, a in enumerate(seats):
            self.seats[a][i] += 1
            if small:
                self.small[a] += 1
            for b in seats[i + 1:]:
                self.met[_pair(a, b)] += 1

    def meetings(self, a: str, b: str) -> int:
        return self.met.get(_pair(a, b), 0)

    def repeats(self, tables) -> int:
        """Repeat meetings of a seating (step 4's first cost)."""
        return sum(self.meetings(a, b) for t in tables for i, a in enumerate(t) for b in t[i + 1:])


def plan_round(tournament: Tournament, round_no: int, seed: int) -> tuple[tuple[str, ...], ...]:
    """The seating of round `round_no` for the tournament's active players (steps 1-5)."""
    settings = tournament.settings
    active = tournament.active_players()
    sizes = table_sizes(len(active), settings.table_size, settings.min_table_size)
    keys = {p: seeded_key(seed, p) for p in active}
    if round_no == 1:
        order = sorted(active, key=keys.__getitem__)
    else:
        from .standings import compute
        rank = {row.player_id: row.rank for row in compute(tournament, through_round=round_no - 1).rows}
        order = sorted(active, key=lambda p: (rank[p], keys[p]))
    history = History.of(tournament, round_no)
    return seat(order, sizes, history, keys, settings.table_size, seed)


def seat(order: list[str], sizes: list[int], history: History, keys: dict[str, bytes],
         table_size: int, seed: int) -> tuple[tuple[str, ...], ...]:
    tables: list[list[str]] = []
    start = 0
    for size in sizes:
        tables.append(order[start:start + size])
        start += size
    tables = _reduce_repeats(tables, order, history, table_size, seed)
    return tuple(_seat_order(t, history, keys) for t in tables)


KICKS = 100            # step 4b: at most this many perturbations when single swaps leave repeats
EXACT_TABLES = 12      # step 4c: rounds of at most this many tables are searched exhaustively ...
EXACT_NODES = 20_000   # ... trying at most this many placements


class _Draws:
    """Numbers drawn from sha256 of the seed and a counter: the same everywhere, no global state."""

    def __init__(self, seed: int):
        self.seed, self.count = seed, 0

    def below(self, n: int) -> int:
        self.count += 1
        digest = hashlib.sha256(f"{self.seed}:kick:{self.count}".encode()).digest()
        return int.from_bytes(digest[:8], "big") % n


def _reduce_repeats(tables: list[list[str]], order: list[str], history: History, table_size: int,
                    seed: int) -> list[list[str]]:
    """Step 4: swap players between tables while a swap lowers (repeat meetings, repeat small tables);
    then, while the cost is not zero, perturb the best seating found (step 4b)."""
    if not history.met and not history.small:
        return tables
    tables_at_start = [list(tab) for tab in tables]
    position = {p: i for i, p in enumerate(order)}
    met, small_count = history.met, history.small

    def against(x: str, members: list[str], skip: str) -> int:
        return sum(met.get(_pair(x, y), 0) for y in members if y != skip and y != x)

    def own_cost(tabs, x: str, t: int) -> tuple[int, int]:
        small = small_count.get(x, 0) if len(tabs[t]) < table_size else 0
        return against(x, tabs[t], x), small

    def total(tabs) -> tuple[int, int]:
        rep = small = 0
        for t in range(len(tabs)):
            for x in tabs[t]:
                r, s = own_cost(tabs, x, t)
                rep, small = rep + r, small + s
        return rep // 2, small

    def delta(tabs, a: str, ta: int, b: str, tb: int) -> tuple[int, int]:
        ma, mb = tabs[ta], tabs[tb]
        rep = against(b, ma, a) + against(a, mb, b) - against(a, ma, a) - against(b, mb, b)
        # a small table costs a player its earlier small tables: the swap moves a to mb and b to ma,
        # which changes something only when one table is small and the other is not
        small = (small_count.get(b, 0) - small_count.get(a, 0)) * ((len(ma) < table_size) - (len(mb) < table_size))
        return rep, small

    def best_swap(tabs, a: str, ta: int):
        for distance in range(1, len(tabs)):
            best = None
            for tb in (ta - distance, ta + distance):
                if not 0 <= tb < len(tabs):
                    continue
                for seat_no, b in enumerate(tabs[tb]):
                    d = delta(tabs, a, ta, b, tb)
                    if d < (0, 0):
                        key = (d, abs(position[a] - position[b]), tb, seat_no)
                        if best is None or key < best[0]:
                            best = (key, tb, seat_no)
            if best is not None:
                return best
        return None

    def descend(tabs) -> None:
        changed = True
        while changed:
            changed = False
            for ta in range(len(tabs)):
                for a in list(tabs[ta]):
                    if own_cost(tabs, a, ta) == (0, 0):
                        continue
                    found = best_swap(tabs, a, ta)
                    if found is None:
                        continue
                    _, tb, seat_no = found
                    b = tabs[tb][seat_no]
                    tabs[ta][tabs[ta].index(a)] = b
                    tabs[tb][seat_no] = a
                    changed = True

    descend(tables)
    best, best_cost = tables, total(tables)
    current, current_cost = best, best_cost
    draws = _Draws(seed)
    for _ in range(KICKS if len(tables) > 1 else 0):
        if best_cost == (0, 0):
            break
        tabs = [list(t) for t in current]
        conflicted = [(t, x) for t in range(len(tabs)) for x in tabs[t] if own_cost(tabs, x, t) != (0, 0)]
        ta, a = conflicted[draws.below(len(conflicted))]
        tb = (ta + 1 + draws.below(len(tabs) - 1)) % len(tabs)
        seat_no = draws.below(len(tabs[tb]))
        tabs[ta][tabs[ta].index(a)], tabs[tb][seat_no] = tabs[tb][seat_no], a
        descend(tabs)
        cost = total(tabs)
        if cost <= current_cost:
            current, current_cost = tabs, cost
        if cost < best_cost:
            best, best_cost = tabs, cost
    if best_cost[0] and len(best) <= EXACT_TABLES:
        home = {x: i for i, tab in enumerate(tables_at_start) for x in tab}
        found = _search_without_repeats(order, [len(tab) for tab in best], met, home, position)
        if found is not None:
            descend(found)
            best = found
    return best


def _search_without_repeats(order: list[str], sizes: list[int], met, home: dict[str, int],
                            position: dict[str, int]) -> list[list[str]] | None:
    """Step 4c: a seating without any repeat meeting, by depth-first search, or None if there is none
    or none was found within EXACT_NODES placements. Players are placed most-met first (then in
    step 2 order), each at the tables nearest its step 3 table first; of several empty tables of one
    size only the nearest is tried (they are interchangeable)."""
    degree = {p: sum(1 for q in order if q != p and met.get(_pair(p, q), 0)) for p in order}
    players = sorted(order, key=lambda p: (-degree[p], position[p]))
    tables: list[list[str]] = [[] for _ in sizes]
    budget = [EXACT_NODES]

    def place(i: int) -> bool:
        if i == len(players):
            return True
        p = players[i]
        empty_sizes_tried = set()
        for t in sorted(range(len(sizes)), key=lambda t: (abs(t - home[p]), t)):
            if len(tables[t]) >= sizes[t] or any(met.get(_pair(p, q), 0) for q in tables[t]):
                continue
            if not tables[t]:
                if sizes[t] in empty_sizes_tried:
                    continue
                empty_sizes_tried.add(sizes[t])
            budget[0] -= 1
            if budget[0] < 0:
                return False
            tables[t].append(p)
            if place(i + 1):
                return True
            tables[t].pop()
        return False

    return tables if place(0) else None


def _seat_order(members: list[str], history: History, keys: dict[str, bytes]) -> tuple[str, ...]:
    """Step 5: the least total of earlier uses of each seat number, seeded order between equals."""
    players = sorted(members, key=keys.__getitem__)
    k = len(players)
    cost = [[history.seats.get(p, {}).get(s, 0) for s in range(k)] for p in players]
    full = (1 << k) - 1
    # rest[mask]: least cost of seating the players not in `mask` at seats popcount(mask)..k-1.
    rest = [0] * (1 << k)
    for mask in range(full - 1, -1, -1):
        s = mask.bit_count()
        rest[mask] = min(cost[i][s] + rest[mask | 1 << i] for i in range(k) if not mask >> i & 1)
    seated, mask = [], 0
    for s in range(k):
        i = next(i for i in range(k) if not mask >> i & 1 and cost[i][s] + rest[mask | 1 << i] == rest[mask])
        seated.append(players[i])
        mask |= 1 << i
    return tuple(seated)
