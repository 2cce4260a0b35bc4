"""1822's route rules (bound as methods of the game, see game.py): the English Channel, E trains
(paid only at the corporation's own token cities, doubled), local L trains (one per token city),
Pullmans that never run alone, track shared by E trains and other trains, towns drawn off-centre,
Merthyr Tydfil/Pontypool, destination bonuses and mail contracts."""

from __future__ import annotations

from ...board.routes import RouteError, check_distance as generic_check_distance


def _e_train(game, train) -> bool:
    return train.name == game.facts["e_train"]


def english_channel_visits(game, visits) -> int:
    channel, france = game.facts["english_channel_hex"], game.facts["france_hex"]
    return sum(1 for v in visits if v.tile.hex.id in (channel, france))


def _tokened_city(node, corporation) -> bool:
    return node.is_city and node.tokened_by(corporation)


def check_distance(game, route, visits) -> None:
    train = route.train
    if game.pullman_train(train):
        raise RouteError("Cannot run Pullman train")
    channel = english_channel_visits(game, visits)
    if channel > 0:
        if train.name in game.facts["local_trains"]:
            raise RouteError("LP train cannot have a route over the English Channel")
        if channel == 1:
            raise RouteError("Must connect English Channel to France")
        if channel == 2 and len(visits) == 2:
            raise RouteError("Route must have at least 2 stops; English Channel to France only counts as 1")
    if _e_train(game, train):
        corp = route.corporation
        tokened = sum(1 for v in visits if _tokened_city(v, corp))
        if tokened < 2:
            raise RouteError("E-train route must have at least 2 tokened cities")
        ends = sum(1 for v in (visits[0], visits[-1]) if _tokened_city(v, corp))
        if ends == 2:
            valid = True
        elif ends == 1:
            channel_city = game.board.hex_by_id(game.facts["english_channel_hex"]).tile.cities
            valid = channel == 2 and bool(channel_city) and channel_city[0].tokened_by(corp)
        else:
            valid = False
        if not valid:
            placed = sum(1 for t in corp.tokens if t.used and t.type in ("normal", "destination"))
            if tokened == placed:
                raise RouteError("E-train route cannot extend beyond tokened cities")
            raise RouteError("E-train route must start and end at tokened cities")
    generic_check_distance(route, visits)


_PREFERRED = {}   # (tile description, rotation) -> {city/town position in the tile's nodes: edge}


def preferred_city_town_edges(tile) -> dict:
    """Where the tile's cities and towns are drawn: the edge each one sits next to (None: centre).
    Two routes may not both leave a town through edges other than the one it is drawn at."""
    return {tile.nodes[i]: edge for i, edge in preferred_edges_by_position(tile).items()}


def preferred_edges_by_position(tile) -> dict:
    """``preferred_city_town_edges`` by the cities' and towns' positions in the tile's nodes: it
    follows from the tile's description and rotation alone, so it is worked out once for each."""
    key = (tile.tdef, tile.rotation)
    found = _PREFERRED.get(key)
    if found is None:
        found = _PREFERRED[key] = {ct.position: edge for ct, edge in _compute_edges(tile).items()}
    return found


def _loc(tile, loc):
    if loc is None or loc == "center":
        return None
    return (float(loc) + tile.rotation) % 6


def _compute_edges(tile) -> dict:
    cities, towns = tile.cities, tile.towns
    if not tile.paths:
        return {}
    if len(cities) == 1 and not towns and _loc(tile, cities[0].spec.loc) is None:
        return {cities[0]: None}
    if not cities and len(towns) == 1 and len(towns[0].exits) != 2 and _loc(tile, towns[0].spec.loc) is None:
        return {towns[0]: None}
    edge_count = {}

    def bump(edge, amount):
        edge_count[edge] = edge_count.get(edge, 0) + amount

    bump(0, 0.1)
    ct_edges = {}
    for path in tile.paths:
        ct = next((n for n in path.nodes if n.is_city), None) or next((n for n in path.nodes if n.is_town), None)
        if ct is None:
            continue
        for edge in path.edges:
            ct_edges.setdefault(ct, []).append(edge)
            bump(edge, 1)
            bump((edge + 1) % 6, 0.1)
            bump((edge - 1) % 6, 0.1)
    items = sorted(((ct, sorted(edges)) for ct, edges in ct_edges.items()), key=lambda kv: kv[1])
    out = {}
    for ct, edges in items:
        loc = _loc(tile, ct.spec.loc)
        if loc is not None:
            edge = loc
        else:
            edge = min(edges, key=lambda e: edge_count.get(e, 0))
            bump(edge, 1)
            bump((edge + 1) % 6, 0.1)
            bump((edge - 1) % 6, 0.1)
        out[ct] = edge
    return out


def check_overlap(game, routes) -> None:
    by_type = {}
    merthyr = set()
    merthyr_hex = game.facts["merthyr_pontypool_hex"]
    for route in routes:
        used = by_type.setdefault(game.train_type(route.train), set())
        for path in route.paths:
            hex_ = path.tile.hex
            keys = [(hex_.id, e, path.exit_lanes[e][1]) for e in path.edges]
            a, b = path.a, path.b
            for end, other, lane in ((a, b, path.lanes[0][1]), (b, a, path.lanes[1][1])):
                if isinstance(other, int) and getattr(end, "is_town", False):
                    preferred = preferred_edges_by_position(path.tile).get(end.position)
                    if preferred is not None and preferred != other:
                        keys.append((hex_.id, end, lane))
            if len(path.nodes) > 1:
                keys.append((hex_.id, "p", path.index))
            for key in keys:
                if key in used:
                    raise RouteError(f"Route can't reuse track on {hex_.id}")
                used.add(key)
            if hex_.id == merthyr_hex:
                merthyr.update(path.edges)
    check_local_cities(game, routes)
    if 1 in merthyr and 2 in merthyr:
        raise RouteError("May only use one of the tracks connecting Merthyr Tydfil and Pontypool")


def check_local_cities(game, routes) -> None:
    seen = set()
    for route in routes:
        if not getattr(route.train, "local", False) or not route.chains:
            continue
        for stop in route.visited_stops:
            if not stop.is_city:
                continue
            if stop in seen:
                raise RouteError(f"Local train can only use each token on {stop.tile.hex.id} once")
            seen.add(stop)


def check_other(game, route) -> None:
    check_local_cities(game, route.routes)


def route_other_paths(game, train, routes) -> set:
    """Track an earlier route holds against a new one: E trains share track with the other trains."""
    kind = game.train_type(train)
    return {p for r in routes if game.train_type(r.train) == kind for p in r.paths}


def revenue_for(game, route, stops) -> int:
    hexes = route.hexes
    double = game.facts["double_hexes"]
    if len(hexes) != len(set(hexes)) and not any(h.id in double for h in hexes):
        raise RouteError("Route visits same hex twice")
    train = route.train
    if not _e_train(game, train):
        revenue = sum(s.route_revenue(route.phase, train) for s in stops)
    else:
        corp = route.corporation
        france = next((s for s in stops if s.is_offboard and s.tile.hex.id == game.facts["france_hex"]), None)
        revenue = 0
        for stop in stops:
            if not stop.is_city or not stop.tokened_by(corp):
                continue
            if stop.tile.hex.id == game.facts["english_channel_hex"]:
                revenue += france.route_revenue(route.phase, train) if france is not None else 0
            else:
                revenue += stop.route_revenue(route.phase, train)
    bonus = destination_bonus(game, route.routes)
    if bonus is not None and bonus[0] is route:
        revenue += bonus[1]
    return revenue


def calculate_destination_bonus(game, route):
    corp = route.corporation
    if corp is None or getattr(corp, "type", None) != "major":
        return None
    destination = next((t for t in corp.tokens if t.used and t.type == "destination"), None)
    if destination is None:
        return None
    home = corp.tokens[0]
    count = 0
    for stop in route.visited_stops:
        if stop.is_city and any(t is home or t is destination for t in stop.tokens if t is not None):
            count += 1
    if count != 2:
        return None
    return (route, destination.city.route_revenue(route.phase, route.train))


def destination_bonus(game, routes):
    """(route, bonus): the one route (the best; the last of equals, as the reference picks it) that
    earns its destination bonus, or None."""
    best = None
    for route in routes:
        found = calculate_destination_bonus(game, route)
        if found is not None and (best is None or found[1] >= best[1]):
            best = found
    return best


def mail_contract_bonus(game, entity, routes) -> list:
    contracts = sum(1 for c in entity.companies if c.id in game.facts["mail_contracts"])
    if contracts <= 0:
        return []
    bonuses = []
    for r in routes:
        stops = r.visited_stops
        if not stops or r.train.name[0] == "L" or len(stops) < 2:
            continue
        first = stops[0].base_revenue(r.phase.tiles, r.train.name)
        last = stops[-1].base_revenue(r.phase.tiles, r.train.name)
        bonuses.append({"route": r, "subsidy": (first + last) // 2})
    bonuses.sort(key=lambda v: -v["subsidy"])
    return bonuses[:contracts]
