"""Best routes: optimal against an exhaustive search built only on route validation."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from engine.board.routes import chain_hex_ids
from engine.errors import GameError

from tools.routepositions import brute_force

from .support import (Board, FakeGame, board_section, bonuses_1856, build_position, city, corporation, give_train,
                      phase_of, reference, tiny_board, token_in, train)


def _walks(board, corp, max_stops):
    """Every sequence of connections a train could follow from a token city (walking track stop to
    stop), whether legal or not; validity is left to the route rules."""
    out = []
    starts = [c for c in board.cities() if c.tokened_by(corp)]

    def next_stops(node):
        found = []

        def walk(path, entry, paths):
            paths = paths + [path]
            for n in path.nodes:
                if n is not node:
                    found.append((n, paths))
                    return
            hex_ = path.tile.hex
            for e in path.edges:
                if e == entry or hex_.neighbors[e] is None:
                    continue
                for np in hex_.neighbors[e].tile.paths_by_edge[(e + 3) % 6]:
                    if np not in paths:
                        walk(np, (e + 3) % 6, paths)

        for p in node.paths:
            walk(p, None, [])
        return found

    def extend(node, seen, conns):
        if conns:
            out.append(list(conns))
        if len(seen) >= max_stops:
            return
        for nxt, paths in next_stops(node):
            if nxt in seen:
                continue
            conns.append(chain_hex_ids(paths))
            extend(nxt, seen | {nxt}, conns)
            conns.pop()

    for s in starts:
        extend(s, {s}, [])
    # routes with the token city in the middle: join two walks at their start
    joined = []
    for a, b in itertools.combinations(out, 2):
        joined.append([list(reversed(c)) for c in reversed(a)] + b)
    return out + joined


def _exhaustive(board, corp, phase):
    trains = list(corp.trains)
    per_train = []
    for t in trains:
        options = [None]
        for conns in _walks(board, corp, max(tr.distance for tr in trains)):
            try:
                route = board.route(corp, {"train": t.id, "connections": conns}, phase)
            except GameError:
                continue
            options.append(route)
        per_train.append(options)
    best = 0
    for combo in itertools.product(*per_train):
        routes = [r for r in combo if r is not None]
        used = set()
        clash = False
        for r in routes:
            keys = {k for p in r.paths for k in p.overlap_keys()}
            if keys & used:
                clash = True
                break
            used |= keys
        if not clash:
            best = max(best, sum(r.revenue for r in routes))
    return best


RING_TILES = {
    "c": {"color": "yellow", "nodes": [city(30)], "paths": [[0, "n0"], [2, "n0"]]},
    "c2": {"color": "green", "nodes": [city(50, 2)], "paths": [[0, "n0"], [2, "n0"], [1, "n0"]]},
    "g": {"color": "yellow", "paths": [[0, 2]]},
    "spoke": {"color": "yellow", "nodes": [city(10)], "paths": [[0, "n0"], [3, "n0"]]},
}


def ring_board(game=None):
    """Six hexes around B4 joined in a ring by gentle curves, with cities on some of them and a spoke
    from B2 through B4 to B6 (so routes can cut across)."""
    hexes = [("B2", "c2"), ("C3", "g"), ("C5", "c"), ("B6", "c2"), ("A5", "c"), ("A3", "g"), ("B4", "spoke")]
    board = tiny_board(hexes, tiles=RING_TILES, game=game)
    for hid, rot in (("B2", 5), ("C3", 0), ("C5", 1), ("B6", 2), ("A5", 3), ("A3", 4)):
        board.hex_by_id(hid).tile.rotate(rot)
    # the green cities also reach the spoke: B2 edge 0 -> B4, B6 edge 3 -> B4
    board.clear_graph()
    return board


@pytest.mark.parametrize("trains", [[("2", 2)], [("3", 3)], [("2", 2), ("2", 2)], [("2", 2), ("3", 3)],
                                    [("4", 4), ("D", 999)], [("D", 999), ("D", 999)]])
def test_best_routes_on_a_ring_are_optimal(trains):
    board = ring_board()
    corp = corporation("AA")
    token_in(board, corp, board.hex_by_id("B2").tile.cities[0])
    for i, (name, distance) in enumerate(trains):
        give_train(corp, train(name, distance, i))
    phase = board.game.phase
    best = board.best_routes(corp, None, phase)
    assert all(r.error is None for r in best)
    assert sum(r.revenue for r in best) == _exhaustive(board, corp, phase)
    # the routes found are valid together as a run_routes action
    again = board.build_routes(corp, [r.to_json() for r in best], phase)
    assert [r.revenue for r in again] == [r.revenue for r in best]


def test_no_route_visits_a_stop_twice_around_the_ring():
    board = ring_board()
    corp = corporation("AA")
    token_in(board, corp, board.hex_by_id("B2").tile.cities[0])
    give_train(corp, train("D", 999))
    best = board.best_routes(corp, None, board.game.phase)
    (route,) = best
    stops = route.visited_stops
    assert len(stops) == len(set(stops))
    with pytest.raises(GameError, match="twice"):
        board.route(corp, {"train": "D-0", "connections": [["B2", "C3", "C5"], ["C5", "B6"], ["B6", "A5"],
                                                           ["A5", "A3", "B2"]]}, board.game.phase)


def test_blocked_cities_and_bonuses_shape_the_best_route():
    from engine.board.bonuses import RouteBonus
    game = FakeGame(bonuses=lambda g, c: [RouteBonus(["A5"], 100)])
    board = ring_board(game)
    corp, other = corporation("AA"), corporation("BB")
    token_in(board, corp, board.hex_by_id("B2").tile.cities[0])
    give_train(corp, train("2", 2))
    (route,) = board.best_routes(corp, None, game.phase)
    assert route.revenue == _exhaustive(board, corp, game.phase) == 50 + 30 + 100
    assert route.revenue_str == "B2-A5"
    corp.trains.clear()
    give_train(corp, train("4", 4))
    (route,) = board.best_routes(corp, None, game.phase)
    assert "A5" in route.revenue_str and route.revenue == _exhaustive(board, corp, game.phase)
    token_in(board, other, board.hex_by_id("A5").tile.cities[0])   # A5 full: a route may only end there
    (route,) = board.best_routes(corp, None, game.phase)
    assert route.revenue == _exhaustive(board, corp, game.phase)
    assert route.revenue_str.endswith("A5") or route.revenue_str.startswith("A5") or "A5" not in route.revenue_str


def test_no_trains_or_no_track_means_no_routes():
    board = ring_board()
    corp = corporation("AA")
    assert board.best_routes(corp, [], board.game.phase) == []
    token_in(board, corp, board.hex_by_id("B2").tile.cities[0])
    assert board.best_routes(corp, [], board.game.phase) == []
    lonely = tiny_board([("A1", "wcity")])
    z = corporation("ZZ")
    token_in(lonely, z, lonely.hex_by_id("A1").tile.cities[0])
    give_train(z, train("2", 2))
    assert lonely.best_routes(z, None, lonely.game.phase) == []


def _random_1856(seed):
    rnd = random.Random(seed)
    ref = reference("1856")
    corps = [corporation(c["id"], coordinates=c["coordinates"], city=c["city"]) for c in ref["corporations"]]
    game = FakeGame(rules={k.lower(): v for k, v in ref["rules_flags"].items()}, corporations=corps,
                    bonuses=bonuses_1856)
    board = Board(board_section("1856"), game)
    game.board = board
    for colors in (["yellow"], ["yellow", "green"], ["yellow", "green", "brown"]):
        game.phase = phase_of("x", colors)
        hexes = list(board.hexes)
        rnd.shuffle(hexes)
        for h in hexes:
            if rnd.random() < 0.3:
                continue
            options = board.upgradeable_tiles(None, h, reach=False)
            if options:
                tile, rotations = rnd.choice(options)
                board.lay_tile(h, tile, rnd.choice(rotations))
    game.phase = phase_of("5", ["yellow", "green", "brown"])
    return game, board, corps


@pytest.mark.parametrize("seed", range(4))
def test_best_routes_on_random_1856_maps_are_optimal(seed):
    game, board, corps = _random_1856(seed)
    corp = corps[-1]
    rnd = random.Random(seed)
    cities = [c for c in board.cities() if c.paths]
    for c in rnd.sample(cities, 2):
        token_in(board, corp, c)
    give_train(corp, train("2", 2, 0))
    give_train(corp, train("3", 3, 1))
    best = board.best_routes(corp, None, game.phase)
    assert sum(r.revenue for r in best) == _exhaustive(board, corp, game.phase)


TOWN_TILES = {
    "home": {"color": "yellow", "nodes": [city(40)], "paths": [[0, "n0"], [3, "n0"]]},
    "town": {"color": "yellow", "nodes": [{"type": "town", "revenue": 20}], "paths": [[0, "n0"], [3, "n0"]]},
    "big": {"color": "yellow", "nodes": [city(60)], "paths": [[3, "n0"], [0, "n0"]]},
    "end": {"color": "yellow", "nodes": [city(10)], "paths": [[3, "n0"]]},
}


def town_line():
    # A1 town, A3 home city, A5 town, A7 big city, A9 end city, one line through edges 0/3
    board = tiny_board([("A1", {"color": "yellow", "nodes": [{"type": "town", "revenue": 30}],
                                "paths": [[0, "n0"]]}), ("A3", "home"), ("A5", "town"), ("A7", "big"),
                        ("A9", "end")], tiles=TOWN_TILES)
    corp = corporation("AA")
    token_in(board, corp, board.hex_by_id("A3").tile.cities[0])
    return board, corp


@pytest.mark.parametrize("distance", [
    [{"nodes": ["city"], "pay": 1, "visit": 1}, {"nodes": ["town"], "pay": 1, "visit": 1}],     # 1822 L
    [{"nodes": ["city", "offboard"], "pay": 2, "visit": 2}, {"nodes": ["town"], "pay": 0, "visit": 99}],
    [{"nodes": ["town"], "pay": 1}, {"nodes": ["city", "town", "offboard"], "pay": 2}],          # 2+1
])
def test_distance_tables_are_searched_exactly(distance):
    board, corp = town_line()
    give_train(corp, train("T", distance))
    phase = board.game.phase
    best = board.best_routes(corp, None, phase)
    assert sum(r.revenue for r in best) == _exhaustive_tables(board, corp, phase)


def _exhaustive_tables(board, corp, phase):
    t = corp.trains[0]
    best = 0
    for conns in _walks(board, corp, 6):
        try:
            best = max(best, board.route(corp, {"train": t.id, "connections": conns}, phase).revenue)
        except GameError:
            continue
    return best


def test_a_title_revenue_rule_without_bonus_data_is_searched_exactly():
    class Doubling(FakeGame):
        route_bonuses = None            # no bonus data: the search must ask revenue_for

        def revenue_for(self, route, stops):
            base = sum(s.route_revenue(route.phase, route.train) for s in stops)
            return base * 2 if route.train.name == "X" and len(stops) == 2 else base

    board = town_line()[0]
    board.game.__class__ = Doubling
    corp = corporation("BB")
    token_in(board, corp, board.hex_by_id("A7").tile.cities[0])
    give_train(corp, train("X", 3, 0))
    give_train(corp, train("3", 3, 1))
    _assert_optimal(board, corp)


def _assert_optimal(board, corp) -> list:
    """The best routes, checked against the exhaustive search."""
    phase = board.game.phase
    best = board.best_routes(corp, None, phase)
    assert sum(r.revenue for r in best) == _exhaustive(board, corp, phase)
    return best


# ------------------------------------------------------------------------------------------------
# open trains (a distance beyond the network's size: searched route by route, not listed)


def test_trains_reaching_every_stop_are_searched_exactly_from_several_token_cities():
    # two 5-trains on a five-stop line with two token cities: each can run the whole line, so both
    # are searched as open trains; the best pair uses both token cities
    board, corp = town_line()
    token_in(board, corp, board.hex_by_id("A7").tile.cities[0])
    give_train(corp, train("5", 5, 0))
    give_train(corp, train("5", 5, 1))
    assert len(_assert_optimal(board, corp)) == 2


def _random_network(seed, tokens):
    game, board, corps = _random_1856(seed)
    corp = corps[-1]
    rnd = random.Random(seed)
    cities = [c for c in board.cities() if c.paths]
    for c in rnd.sample(cities, min(tokens, len(cities))):
        token_in(board, corp, c)
    return game, board, corp


OPEN_MIXES = [[("D", 999)], [("D", 999), ("D", 999)], [("D", 999), ("3", 3)], [("D", 999), ("D", 999), ("2", 2)],
              [("D", 999), ("D", 999), ("D", 999)], [("D", 999), ("X", 999, {"multiplier": 2}), ("4", 4)]]


@pytest.mark.parametrize("seed", range(8))
def test_open_trains_on_random_1856_maps_match_a_brute_force(seed):
    game, board, corp = _random_network(seed, 3)
    for mix in OPEN_MIXES:
        corp.trains.clear()
        for i, (name, distance, *opts) in enumerate(mix):
            give_train(corp, train(name, distance, i, **(opts[0] if opts else {})))
        best = board.best_routes(corp, None, game.phase)
        assert all(r.error is None for r in best)
        assert sum(r.revenue for r in best) == brute_force(board, corp, corp.trains, game.phase), mix
        again = board.build_routes(corp, [r.to_json() for r in best], game.phase)
        assert [r.revenue for r in again] == [r.revenue for r in best]


@pytest.mark.parametrize("seed", [1, 3, 4])
def test_open_trains_on_small_random_maps_are_optimal(seed):
    # small enough for the exhaustive search built on route validation alone
    game, board, corp = _random_network(seed, 2)
    give_train(corp, train("D", 999, 0))
    give_train(corp, train("D", 999, 1))
    assert sum(r.revenue for r in board.best_routes(corp, None, game.phase)) == \
        _exhaustive(board, corp, game.phase)


LATE_POSITIONS = json.loads((Path(__file__).parent / "late_positions.json").read_text())


@pytest.mark.parametrize("position", LATE_POSITIONS, ids=[p["source"] for p in LATE_POSITIONS])
def test_late_game_positions_match_a_brute_force(position):
    # positions from the late operating rounds of random builders' games (tools.routepositions),
    # rebuilt on a fresh board: D trains alone, in pairs and with a 5 or 6, on large networks
    game, board, corp = _late_position(position)
    best = board.best_routes(corp, None, game.phase)
    assert all(r.error is None for r in best)
    assert sum(r.revenue for r in best) == brute_force(board, corp, corp.trains, game.phase)


def _sub_routes(route):
    """(stops, chains, free ends) of each part of a route the open search grows on the way to it:
    its token city and a contiguous run of stops around it (both ends free), or its first arm whole
    and part of its second (only that arm's end free)."""
    t, a, b = route
    left = list(reversed(a.stops))
    right = list(b.stops) if b is not None else []
    stops = left + [t] + right
    chains = [c for c, _ in reversed(a.steps)] + ([c for c, _ in b.steps] if b is not None else [])
    at = len(left)
    for i in range(at + 1):
        for j in range(at, len(stops)):
            if (i, j) == (0, len(stops) - 1):
                continue
            part = stops[i:j + 1]
            ends = [(stops[i], 2)] if i == j else [(stops[j], 1)] if i == 0 else \
                [(stops[i], 1)] if j == len(stops) - 1 else [(stops[i], 1), (stops[j], 1)]
            yield part, chains[i:j], ends


def _late_position(position):
    cid = position["corporation"]
    state = {"phase": position["phase"], "tiles": position["tiles"], "corps": position["corps"]}
    port = (cid, position["port"]) if position["port"] else None
    game, board, corps = build_position(state, {cid: set(position["rights"])}, port)
    return game, board, corps[cid]


@pytest.mark.parametrize("source", [f"random {seed}" for seed in (0, 3, 7, 10)] + [p["source"] for p in LATE_POSITIONS])
def test_block_bounds_cover_every_route_and_every_route_the_rest_of_it(source):
    # the open search prunes with these bounds: no route may earn more than they allow, from any
    # part of it the search grows, on the track that part leaves
    from engine.board.search import RouteSet, _Blocks, route_network

    if source.startswith("random"):
        game, board, corp = _random_network(int(source.split()[1]), 3)
    else:
        game, board, corp = _late_position(next(p for p in LATE_POSITIONS if p["source"] == source))
    d = train("D", 999, 9)
    net = route_network(board, corp)
    rev = [n.route_revenue(game.phase, d) for n in net.nodes]
    blocks = _Blocks(net, rev)
    routes = RouteSet(net, 999).routes
    assert routes
    best = max(sum(rev[i] for i in RouteSet.stop_indices(None, r)) for r in routes)
    assert blocks.anywhere(net.tokens, 0) >= best
    earlier = {t: sum(1 << e for e in net.tokens[:k]) for k, t in enumerate(net.tokens)}
    for route in random.Random(source).sample(routes, min(len(routes), 200)):
        whole = sum(rev[i] for i in RouteSet.stop_indices(None, route))
        for part, chains, ends in _sub_routes(route):
            closed = earlier[route[0]]
            for i in part:
                closed |= 1 << i
            dead = 0
            for c in chains:
                dead |= c.conflicts
            assert blocks.bound(ends, closed, dead) >= whole - sum(rev[i] for i in part), (route, part)
