"""Routes: a train's run, from the ``run_routes`` action format to validated revenue.

A route is a list of *connections*; each connection is the list of hexes its track passes, from one
stop to the next (``["C14", "B15", "B13"]``; a junction tile counts once; a track joining two stops
inside one tile is written ``"H i.j"`` with the stops' part indices). Consecutive connections share
one stop. The rules a route must meet (checked in this order, first failure reported):

1. at least two stops; 2. one stop is a city holding a token of the corporation; 3. no group (e.g.
the two hexes of one offboard area) visited twice; 4. no terminal track (an offboard's spur) in the
middle of the route; 5. title check (``game.check_other(route)``); 6. title check on the set of routes
(``game.check_route_combination(routes)``); 7. no stop visited twice; 8. the train's distance (a title
may replace this with ``game.check_distance(route, visits)``); 9. no hexside (or intra-tile track)
used twice by the corporation's routes (``game.check_overlap(routes)`` replaces this); 10. no passing
through a city full of other corporations' tokens.

Revenue: ``game.revenue_for(route, stops)`` when the game defines it (stop revenues for the phase,
plus title bonuses), else the sum of ``stop.route_revenue(phase, train)``.
"""

from __future__ import annotations

from ..errors import GameError
from ..journal import Tracked
from .parts import chains_from

MAX_INTERPRETATIONS = 64


class RouteError(GameError):
    pass


# ------------------------------------------------------------------------------------------------
# connections -> track


def chain_hex_ids(paths) -> list:
    """The connection notation of a chain of paths (see module docstring)."""
    if len(paths) == 1 and len(paths[0].nodes) > 1 and \
            sum(1 for p in paths[0].tile.paths if len(p.nodes) > 1) > 1:
        a, b = sorted(n.index for n in paths[0].nodes)
        return [f"{paths[0].tile.hex.id} {a}.{b}"]
    return _hex_ids(paths)


def _hex_ids(paths) -> list:
    """The hexes of a chain of paths in order, a junction tile counted once."""
    seen = set()
    out = []
    for p in paths:
        j = p.junction
        if j is None or j not in seen:
            out.append(p.tile.hex.id)
        if j is not None:
            seen.add(j)
    return out


def matching_chains(board, hex_ids) -> list:
    """Every chain of track (start node, end node, paths in order) whose connection notation is
    ``hex_ids``."""
    if not hex_ids or not all(isinstance(h, str) for h in hex_ids):
        return []
    first = hex_ids[0]
    if " " in first:
        hex_id, pair = first.split(" ", 1)
        hex_ = board.hex_by_id(hex_id)
        if hex_ is None or len(hex_ids) != 1:
            return []
        try:
            wanted = sorted(int(x) for x in pair.split("."))
        except ValueError:
            return []
        out = []
        for p in hex_.tile.paths:
            if len(p.nodes) == 2 and sorted(n.index for n in p.nodes) == wanted:
                out.append((p.nodes[0], p.nodes[1], (p,)))
                out.append((p.nodes[1], p.nodes[0], (p,)))
        return out
    start_hex = board.hex_by_id(first)
    end_hex = board.hex_by_id(hex_ids[-1])
    if start_hex is None or end_hex is None:
        return []
    # A reading depends only on the tiles (and their rotations) of the hexes named: the walk never
    # leaves them. Routes repeat from one operating round to the next, so readings are kept per
    # hex sequence with the tiles they were made on, and made again once one of those tiles changed.
    key = tuple(hex_ids)
    known = board.chains_read.get(key)
    if known is not None:
        hexes, laid, out = known
        for hex_, (tile, rotation) in zip(hexes, laid):
            if hex_.tile is not tile or tile.rotation != rotation:
                break
        else:
            return list(out)
    out = _read_chains(start_hex, end_hex, hex_ids)
    hexes = [board.hex_by_id(h) for h in key]
    if all(h is not None for h in hexes):   # (a name that is no hex reads as nothing: not kept)
        board.chains_read[key] = (hexes, [(h.tile, h.tile.rotation) for h in hexes], out)
    return list(out)


def _read_chains(start_hex, end_hex, hex_ids) -> list:
    n = len(hex_ids)
    counts = []   # counts[i]: how many hexes the chain's first i + 1 paths pass (a junction tile once)

    def prune(paths):
        # The walk extends a chain one path at a time and prunes every prefix first, so only the
        # last path is new: it adds its hex unless it leaves a junction the chain already passed.
        k = len(paths)
        del counts[k - 1:]
        last = paths[-1]
        j = last.junction
        count = counts[-1] if counts else 0
        if j is None or all(p.junction is not j for p in paths[:-1]):
            count += 1
            counts.append(count)
            return count > n or hex_ids[count - 1] != last.tile.hex.id
        counts.append(count)
        return False

    def crosses(path, edge, paths):
        # A path across the edge survives ``prune`` only in the next hex named, or back in a
        # junction tile the chain passed (counted once): other crossings need not be looked at.
        count = counts[len(paths) - 1]
        neighbor = path.tile.hex.neighbors[edge]
        if neighbor is None:
            return False
        if count < n and hex_ids[count] == neighbor.id:
            return True
        j = neighbor.tile.junction
        return j is not None and any(p.junction is j for p in paths)

    out = []
    for start in start_hex.tile.nodes:
        for node, paths in chains_from(start, prune, crosses=crosses):
            if node.tile.hex is end_hex and len(_hex_ids(paths)) == n:
                out.append((start, node, paths))
    # shortest first, as a player would normally mean
    out.sort(key=lambda c: len(c[2]))
    return out


def local_connection(board, corporation, connections):
    """A local train's run within one city (``[["local", hex]]``): the chain (city, city, ()) for the
    corporation's token city in that hex, or None."""
    if len(connections) != 1 or len(connections[0]) != 2 or connections[0][0] != "local":
        return None
    hex_ = board.hex_by_id(connections[0][1])
    if hex_ is None:
        return None
    city = next((n for n in hex_.tile.nodes if n.tokened_by(corporation)), None)
    return None if city is None else (city, city, ())


def interpretations(board, corporation, connections, other_paths, node_sigs=None) -> list:
    """Consistent readings of a route's connections: lists of (left, right, paths) whose consecutive
    entries share their joining stop, with no path used twice (nor by ``other_paths``)."""
    local = local_connection(board, corporation, connections)
    if local is not None:
        return [[local]]
    options = [matching_chains(board, c) for c in connections]
    if any(not o for o in options):
        return []
    results = []
    if len(options) == 1:
        ranked = sorted(options[0], key=lambda c: not (c[0].tokened_by(corporation) or c[1].tokened_by(corporation)))
        for a, b, paths in ranked:
            if other_paths.isdisjoint(paths):
                results.append([(a, b, paths)])
        return results[:MAX_INTERPRETATIONS]

    def extend(i, chosen, used):
        if len(results) >= MAX_INTERPRETATIONS:
            return
        if i == len(options):
            results.append(list(chosen))
            return
        for a, b, paths in options[i]:
            if not used.isdisjoint(paths):
                continue
            if i == 0:
                chosen.append((a, b, paths))
                extend(1, chosen, used | set(paths))
                chosen.pop()
                continue
            pa, pb, ppaths = chosen[-1]
            shared = {pa, pb} & {a, b}
            if len(shared) != 1:
                continue
            (m,) = shared
            if i == 1:
                left = pa if m is pb else pb
                chosen[-1] = (left, m, ppaths)
            elif m is not pb:
                continue
            nxt = b if m is a else a
            chosen.append((m, nxt, paths))
            extend(i + 1, chosen, used | set(paths))
            chosen.pop()
            if i == 1:
                chosen[-1] = (pa, pb, ppaths)

    extend(0, [], set(other_paths))
    extend = None   # (it calls itself through its closure: let go, it is freed now rather than by the collector)
    results = [[_oriented(c) for c in r] for r in results]
    if node_sigs and len(results) > 1:   # (one reading or none stays as it is)
        sigs = set(node_sigs)
        matched = [r for r in results if all(f"{n.tile.hex.id}-{n.index}" in sigs for c in r for n in c[:2])]
        if matched:
            results = matched
    return results


def _oriented(chain):
    """(left, right, paths) with the paths running from left to right."""
    left, right, paths = chain
    if paths and left not in paths[0].nodes:
        paths = tuple(reversed(paths))
    return (left, right, paths)


# ------------------------------------------------------------------------------------------------
# the route


class Route(Tracked):
    """A train's route for a corporation in a phase. ``chains`` is a list of (left stop, right stop,
    paths from left to right). ``revenue`` is computed on construction when the route is valid
    (``error`` holds the reason otherwise) and may be overwritten by the caller."""

    def __init__(self, board, corporation, train, phase, chains, *, routes=None):
        self.board = board
        self.corporation = corporation
        self.train = train
        self.phase = phase
        self.chains = chains
        self.routes = routes if routes is not None else [self]
        self.error = None
        self.revenue = None
        self._stops = None
        self.subsidy = 0
        self.unresolved = None      # why the connections could not be read as track

    # ---- structure
    @property
    def visited_stops(self) -> list:
        out = []
        for left, right, _ in self.chains:
            for n in (left, right):
                if n not in out:
                    out.append(n)
        return out

    @property
    def node_sequence(self) -> list:
        if not self.chains:
            return []
        return [self.chains[0][0]] + [c[1] for c in self.chains]

    @property
    def paths(self) -> list:
        return [p for c in self.chains for p in c[2]]

    ordered_paths = paths

    @property
    def hexes(self) -> list:
        out = []
        for n in self.node_sequence:
            h = n.tile.hex
            if not out or out[-1] is not h:
                out.append(h)
        return out

    @property
    def all_hexes(self) -> list:
        return list(dict.fromkeys(p.tile.hex for p in self.paths))

    @property
    def is_local(self) -> bool:
        """A local train's run within one city (no track)."""
        return len(self.chains) == 1 and self.chains[0][0] is self.chains[0][1]

    @property
    def connections(self) -> list:
        if self.is_local:
            return [["local", self.chains[0][0].tile.hex.id]]
        return [chain_hex_ids(paths) for _, _, paths in self.chains]

    @property
    def node_signatures(self) -> list:
        return [f"{n.tile.hex.id}-{n.index}" for n in self.visited_stops]

    @property
    def revenue_str(self) -> str:
        return "-".join(h.id for h in self.hexes)

    @property
    def distance(self) -> int:
        return sum(n.visit_cost for n in self.visited_stops)

    @property
    def stops(self) -> list:
        if self._stops is None:
            self._stops = compute_stops(self)
        return self._stops

    def to_json(self) -> dict:
        """The route in the ``run_routes`` action format."""
        return {"train": self.train.id, "connections": self.connections, "hexes": [h.id for h in self.hexes],
                "revenue": self.revenue, "revenue_str": self.revenue_str, "nodes": self.node_signatures}

    def __repr__(self):
        return f"<Route {self.train.id} {self.revenue_str} ${self.revenue}>"

    # ---- rules
    def check(self) -> None:
        """Raise RouteError for the first rule the route breaks (module docstring order)."""
        corp = self.corporation
        game = self.board.game
        if self.unresolved:
            raise RouteError(self.unresolved)
        if not self.chains:
            raise RouteError("Route must contain token")
        visited = self.visited_stops
        local = self.is_local
        if local and not getattr(self.train, "local", False):
            raise RouteError("Only a local train may run within one city")
        if len(visited) < 2 and not local:
            raise RouteError("Route must have at least 2 stops")
        if not any(n.tokened_by(corp) for n in visited):
            raise RouteError("Route must contain token")
        groups = set()
        for n in visited:
            for g in n.groups:
                if g in groups:
                    raise RouteError(f"Cannot use group {g} more than once")
                groups.add(g)
        paths = self.paths
        if len(paths) >= 3 and any(p.terminal for p in paths[1:-1]):
            raise RouteError("Route cannot pass through terminal")
        hook = getattr(game, "check_other", None)
        if hook is not None:
            hook(self)
        hook = getattr(game, "check_route_combination", None)
        if hook is not None:
            hook(self.routes)
        seen = set()
        for left, right, _ in self.chains if not local else ():
            seen.add(left)
            if right in seen:
                raise RouteError(f"Cannot use {right.tile.hex.id} twice")
            seen.add(right)
        hook = getattr(game, "check_distance", None)
        (hook or check_distance)(self, visited)
        hook = getattr(game, "check_overlap", None)
        (hook or check_overlap)(self.routes)
        for left, right, _ in self.chains[:-1]:
            if right.blocks(corp):
                raise RouteError("Route is not connected")

    def compute_revenue(self) -> int:
        return _revenue(self, self.stops)


def _revenue(route, stops) -> int:
    hook = getattr(route.board.game, "revenue_for", None)
    if hook is not None:
        return hook(route, stops)
    return route.board.revenue_for(route, stops)


def check_overlap(routes) -> None:
    used = set()
    for route in routes:
        for p in route.paths:
            for key in p.overlap_keys():
                if key in used:
                    raise RouteError(f"Route cannot reuse track on {key[0]}")
                used.add(key)


def _stop_type(stop):
    return stop.type


def check_distance(route, visits) -> None:
    train = route.train
    distance = train.distance
    if not isinstance(distance, list):
        total = sum(v.visit_cost for v in visits)
        if total > distance:
            raise RouteError(f"{total} is too many stops for {distance} train")
        return
    rows = {}
    for row in distance:
        info = {"pay": row["pay"], "visit": row.get("visit", row["pay"])}
        for kind in row["nodes"]:
            rows.setdefault(kind, []).append(info)
    grouped = {}
    for v in visits:
        grouped.setdefault(_stop_type(v), []).append(v)
    for kind, group in sorted(grouped.items(), key=lambda kv: len(rows.get(kv[0], ()))):
        num = sum(v.visit_cost for v in group)
        for info in rows.get(kind, ()):
            if info["visit"] <= 0:
                continue
            if num <= info["visit"]:
                info["visit"] -= num
                num = 0
            else:
                num -= info["visit"]
                info["visit"] = 0
            if num <= 0:
                break
        if num > 0:
            raise RouteError("Route has too many stops")


def simple_table(distance) -> bool:
    """A distance table whose every row pays for each stop it lets the train visit, or for none, and
    no stop kind of a paying row is in a row that pays nothing (e.g. 3+3, 6E, 1858's trains): on a
    legal route the paying stops are then simply the visited stops of the paying kinds."""
    paying, unpaid = set(), set()
    for row in distance:
        if row["pay"] and row["pay"] < row.get("visit", row["pay"]):
            return False
        (paying if row["pay"] else unpaid).update(row["nodes"])
    return not paying & unpaid


def unpaid_kinds(distance) -> set:
    """Stop kinds a distance table lets a train visit without paying for them."""
    return {kind for row in distance if not row["pay"] for kind in row["nodes"]}


def compute_stops(route) -> list:
    """The stops that pay: all visited stops for a numeric distance; for a distance table, the best
    legal subset (as many stops as possible first)."""
    visits = route.visited_stops
    distance = route.train.distance
    if not isinstance(distance, list):
        return visits
    if not visits:
        return []
    requires_token = getattr(route.train, "requires_token", True)
    if simple_table(distance):
        # every paying kind's visits pay; with none of them a token city no subset would qualify
        unpaid = unpaid_kinds(distance)
        paid = [v for v in visits if _stop_type(v) not in unpaid]
        if not requires_token or any(s.tokened_by(route.corporation) for s in paid):
            return paid
        return []
    from itertools import combinations
    rows = sorted(distance, key=lambda r: len(r["nodes"]))
    max_stops = min(sum(int(r["pay"]) for r in rows), len(visits))
    for count in range(max_stops, 0, -1):
        best, best_rev = None, None
        for stops in combinations(visits, count):
            if requires_token and not any(s.tokened_by(route.corporation) for s in stops):
                continue
            used = [0] * len(rows)
            ok = True
            for s in stops:
                for i, r in enumerate(rows):
                    if _stop_type(s) in r["nodes"] and used[i] < r["pay"]:
                        used[i] += 1
                        break
                else:
                    ok = False
                    break
            if not ok:
                continue
            stops = list(stops)
            rev = _revenue(route, stops)
            if best_rev is None or rev > best_rev:
                best, best_rev = stops, rev
        if best_rev is not None and best_rev > 0:
            return best
    return []


# ------------------------------------------------------------------------------------------------
# building routes from actions


def _train_for(board, corporation, train_id):
    for t in getattr(corporation, "trains", ()) or ():
        if t.id == train_id:
            return t
    finder = getattr(board.game, "train_by_id", None)
    if finder is not None:
        return finder(train_id)
    return None


def build_routes(board, corporation, routes_json, phase, *, strict=True) -> list:
    """Routes of a ``run_routes`` action, resolved together (no track shared) and validated. With
    ``strict`` the first problem raises GameError; otherwise invalid routes keep ``error`` set and
    ``revenue`` None (stored games carry their own revenue)."""
    if not isinstance(routes_json, list):
        raise GameError("run_routes needs a list of routes")
    routes = []
    others_hook = getattr(board.game, "route_other_paths", None)
    for raw in routes_json:
        if not isinstance(raw, dict):
            raise GameError("Each route must be an object")
        train = _train_for(board, corporation, raw.get("train"))
        if train is None:
            raise GameError(f"Unknown train: {raw.get('train')}")
        connections = raw.get("connections") or []
        if not isinstance(connections, list) or not all(isinstance(c, list) for c in connections):
            raise GameError("A route's connections must be lists of hexes")
        # the track earlier routes use (a title may let some trains share track: route_other_paths)
        used_paths = others_hook(train, routes) if others_hook is not None else {p for r in routes for p in r.paths}
        options = interpretations(board, corporation, connections, used_paths, raw.get("nodes"))
        if not options and used_paths:
            options = interpretations(board, corporation, connections, set(), raw.get("nodes"))
        route = Route(board, corporation, train, phase, options[0] if options else [], routes=routes)
        route._options = options
        if not options:
            route.unresolved = _unmatched(board, connections)
        routes.append(route)
    for route in routes:
        _choose(route)
    errors = []
    for route in routes:
        try:
            route.check()
            route.revenue = route.compute_revenue()
        except GameError as err:
            route.error = err.reason
            errors.append(err)
    if strict and errors:
        raise GameError(errors[0].reason)
    return routes


def _unmatched(board, connections):
    """Why no reading of ``connections`` exists (None when there are no connections at all)."""
    for c in connections:
        if not matching_chains(board, c):
            return f"Route does not follow track: {'-'.join(map(str, c))}"
    if connections:
        return "Route connections do not join up without reusing track"
    return None


def _choose(route) -> None:
    """Among several readings of a route, take the valid one paying most (first on ties)."""
    options = getattr(route, "_options", None) or []
    if len(options) <= 1:
        return
    best, best_rev = None, None
    for chains in options:
        route.chains = chains
        route._stops = None
        try:
            route.check()
            rev = route.compute_revenue()
        except GameError:
            continue
        if best_rev is None or rev > best_rev:
            best, best_rev = chains, rev
    route.chains = best if best is not None else options[0]
    route._stops = None


def build_route(board, corporation, route_json, phase, *, train=None, other_routes=()) -> Route:
    """One route, validated together with ``other_routes`` (raises GameError)."""
    routes = list(other_routes)
    raw = dict(route_json)
    if train is not None:
        raw["train"] = train.id
    used = {p for r in routes for p in r.paths}
    t = train or _train_for(board, corporation, raw.get("train"))
    if t is None:
        raise GameError(f"Unknown train: {raw.get('train')}")
    options = interpretations(board, corporation, raw.get("connections") or [], used, raw.get("nodes"))
    route = Route(board, corporation, t, phase, options[0] if options else [], routes=routes)
    routes.append(route)
    route._options = options
    if not options:
        route.unresolved = _unmatched(board, raw.get("connections") or [])
    _choose(route)
    route.check()
    route.revenue = route.compute_revenue()
    return route
