"""A corporation's network: what its trains can reach from its tokens.

From each city holding one of the corporation's tokens (in map order) the network is walked depth
first, as the reference engine walks it: a city, town or offboard is entered once per walk (the other
token cities count as entered), a path once; from a path the walk first enters its nodes (unless the
path is terminal or the node is full of other corporations' tokens), then its tile's junction, then
crosses each of its edges into the paths of the neighbouring hex that meet it (matching lane and
gauge), never back across a hexside it is still crossing. Which paths a corporation reaches can
depend on that order (a path is walked in the direction it is first met), so the order is the
reference's: paths in tile order, edges in path order.

* ``connected_hexes``: hex -> set of edges where the corporation may lay track (the edges of the hexes
  it reaches, both sides of each hexside, and all passable edges of its token hexes, and of all its
  home hexes, bare or not, for a network that starts from them);
* ``connected_nodes``: the cities, towns and offboards it reaches (an ordered dict used as a set);
* ``connected_paths``: the paths it reaches; ``reachable_hexes``: the hexes of those paths;
* ``route_info``: ``route_available`` (a token reaches, by paths no earlier token reached, another
  mandatory stop, or one plus an optional one) and ``route_train_purchase`` (two mandatory stops).
"""

from __future__ import annotations

import sys

from .parts import paths_across

# The walk is recursive (one level per path or node entered); Python 3.11 keeps such calls off the C
# stack, so only the interpreter's own limit needs room for large maps.
if sys.getrecursionlimit() < 20000:
    sys.setrecursionlimit(20000)


def _walk(start_nodes, blocked_for, skip_track=None, on_path=None, stop_nodes=()):
    """Walk from ``start_nodes``; yields nothing but calls ``on_path(path)`` for each path reached
    (once) and returns the nodes reached in order. ``blocked_for`` is the corporation for which full
    cities cannot be passed (None: no blocking). ``stop_nodes`` are recorded but not walked through."""
    seen_paths = set()
    expanded = set(stop_nodes)
    reached = {}
    stack = []   # (path, the edge it was entered through, or None)

    def expand(node):
        expanded.add(node)
        for p in node.paths:
            if p.ignore or (skip_track is not None and p.track == skip_track):
                continue
            stack.append((p, None))

    for node in start_nodes:
        expand(node)
    while stack:
        path, entered = stack.pop()
        if path in seen_paths:
            continue
        if path.junction is not None and path.terminal:
            continue
        seen_paths.add(path)
        if on_path is not None:
            on_path(path)
        for e in path.edges:
            if e == entered:
                continue   # track leads on, never back out through the hexside it came in by
            facing = (e + 3) % 6
            for np in paths_across(path, e):
                if np not in seen_paths and (skip_track is None or np.track != skip_track):
                    stack.append((np, facing))
        if path.junction is not None:
            for jp in path.junction.paths:
                if jp not in seen_paths:
                    stack.append((jp, None))
        for node in path.nodes:
            reached[node] = True
            if path.terminal or node in expanded:
                continue
            if blocked_for is not None and node.blocks(blocked_for):
                continue
            expand(node)
    return reached


class _DepthFirst:
    """One token's walk (see the module docstring): ``on_path(path)`` is called for each path entered."""

    __slots__ = ("visited_nodes", "visited_paths", "counter", "blocked_for", "skip_track", "on_path")

    def __init__(self, visited_nodes, blocked_for, skip_track, on_path):
        self.visited_nodes = visited_nodes
        self.visited_paths = set()
        self.counter = {}
        self.blocked_for = blocked_for
        self.skip_track = skip_track
        self.on_path = on_path

    def node(self, node):
        if node in self.visited_nodes:
            return
        self.visited_nodes.add(node)
        skip_track = self.skip_track
        for path in node.paths:
            if path.ignore or (skip_track is not None and path.track == skip_track):
                continue
            self.path(path, None, None, node)

    def path(self, path, skip, jskip, origin):
        if path in self.visited_paths:
            return
        counter = self.counter
        junction = path.junction
        if junction is not None and (counter.get(junction, 0) > 1 or path.terminal):
            return
        hex_ = path.tile.hex
        lanes = path.exit_lanes
        for e in path.edges:
            if counter.get((hex_, e, lanes[e][1]), 0) > 0:
                return
        if self.skip_track is not None and path.track == self.skip_track:
            return
        self.visited_paths.add(path)
        if junction is not None:
            counter[junction] = counter.get(junction, 0) + 1
        self.on_path(path)
        if not path.terminal:
            blocked_for = self.blocked_for
            for node in path.nodes:
                if node is origin or (blocked_for is not None and node.blocks(blocked_for)):
                    continue
                self.node(node)
        if junction is not None and junction is not jskip:
            for jp in junction.paths:
                self.path(jp, None, junction, origin)
        for e in path.edges:
            if e == skip:
                continue
            across = paths_across(path, e)
            if not across:
                continue
            key = (hex_, e, lanes[e][1])
            counter[key] = counter.get(key, 0) + 1
            facing = (e + 3) % 6
            for np in across:
                self.path(np, facing, None, origin)
            counter[key] -= 1
        if junction is not None:
            counter[junction] -= 1


class Graph:
    """The network of one corporation on the board as it stands (``Board.graph`` caches it)."""

    __slots__ = ("board", "corporation", "connected_hexes", "connected_nodes", "connected_paths",
                 "reachable_hexes", "route_info", "token_cities", "footprints")

    def __init__(self, board, corporation, *, no_blocking=False, skip_track=None, extra_token_cities=(),
                 home_as_token=False, blocked_cities=()):
        self.board = board
        self.corporation = corporation
        hexes = {}
        nodes = {}
        paths = {}
        starts = token_starts(board, corporation, extra_token_cities, home_as_token)
        tokens = [node for _, node in starts]
        for hex_, node in starts:
            hexes.setdefault(hex_, set()).update(e for e in range(6) if hex_.neighbors[e] is not None)
            nodes[node] = True
        if home_as_token and getattr(corporation, "coordinates", None):
            # track may be laid in each home hex towards any neighbour, whatever track it holds yet
            for hex_ in home_hexes(board, corporation):
                hexes.setdefault(hex_, set()).update(e for e in range(6) if hex_.neighbors[e] is not None)
        self.token_cities = tokens
        # per token: the hexes its walk looked at (those of the paths it entered and those across
        # their edges); a walk that never looked at a hex is the same whatever tile lies there
        self.footprints = footprints = {}
        route_available = route_train_purchase = False
        local = {}
        looked = set()

        def on_path(path):
            hex_ = path.tile.hex
            looked.add(hex_)
            neighbors = hex_.neighbors
            for e in path.edges:
                looked.add(neighbors[e])
            if path in paths:
                return
            paths[path] = True
            for node in path.nodes:
                nodes[node] = True
                local[node] = True
            hex_ = path.tile.hex
            edges = hexes.get(hex_)
            if edges is None:
                edges = hexes[hex_] = set()
            for e in path.edges:
                edges.add(e)
                neighbor = hex_.neighbors[e]
                if neighbor is not None:
                    ne = hexes.get(neighbor)
                    if ne is None:
                        ne = hexes[neighbor] = set()
                    ne.add((e + 3) % 6)

        blocked_for = None if no_blocking else corporation
        for hex_, token_city in starts:
            local.clear()
            looked = set()
            others = {c for c in tokens if c is not token_city} | set(blocked_cities)
            _DepthFirst(others, blocked_for, skip_track, on_path).node(token_city)
            looked.add(hex_)
            looked.discard(None)
            footprints[token_city] = looked
            if route_train_purchase:
                continue
            mandatory = optional = 0
            for node in local:
                if node.route == "mandatory":
                    mandatory += 1
                elif node.route == "optional":
                    optional += 1
            if mandatory > 1:
                route_available = route_train_purchase = True
            elif mandatory == 1 and optional > 0:
                route_available = True
        self.connected_hexes = hexes
        self.connected_nodes = nodes
        self.connected_paths = paths
        self.reachable_hexes = {p.tile.hex: True for p in paths}
        self.route_info = {"route_available": route_available, "route_train_purchase": route_train_purchase}

    def tokenable_cities(self, *, tokens=None, cheater=False, same_hex_allowed=False) -> list:
        """Cities on the network where the corporation could put a token (price ignored)."""
        corp = self.corporation
        if tokens is None:
            tokens = corp.tokens_by_type()
        check = self.board._token_code
        return [n for n in self.connected_nodes
                if n.is_city and check(corp, n, tokens, True, cheater, False, same_hex_allowed, None) is None]

    def can_token(self, *, tokens=None, cheater=False, same_hex_allowed=False) -> bool:
        corp = self.corporation
        if tokens is None:
            tokens = corp.tokens_by_type()
        if not tokens:
            return False
        check = self.board._token_code
        for n in self.connected_nodes:
            if n.is_city and check(corp, n, tokens, True, cheater, False, same_hex_allowed, None) is None:
                return True
        return False


class PathNode:
    """A stand-in stop for a stretch of plain track, so a network can be walked from a home hex that
    has no city or town (it is never a stop of a route, nor a place for a token)."""

    __slots__ = ("paths", "hex", "tile")
    is_city = is_town = is_offboard = False
    route = "never"
    type = "path"
    groups = ()
    visit_cost = 0

    def __init__(self, path):
        self.paths = [path]
        self.tile = path.tile
        self.hex = path.tile.hex

    def blocks(self, corporation) -> bool:
        return False

    def tokened_by(self, corporation) -> bool:
        return False

    def __repr__(self):
        return f"<PathNode {self.hex.id} {self.paths[0].edges}>"


def token_starts(board, corporation, extra_token_cities=(), home_as_token=False) -> list:
    """(hex, node) where the corporation's network starts: the cities holding its tokens (and
    ``extra_token_cities``), in map order, then with ``home_as_token`` its home nodes (e.g. a minor
    that has no station markers)."""
    out = []
    seen = set()
    for hex_ in board.hexes:
        for city in hex_.tile.cities:
            if city.tokened_by(corporation) or city in extra_token_cities:
                out.append((hex_, city))
                seen.add(city)
    if home_as_token and getattr(corporation, "coordinates", None):
        for hex_, node in home_nodes(board, corporation):
            if node not in seen:
                out.append((hex_, node))
                seen.add(node)
    return out


class _Found(Exception):
    """Ends a walk that found what it was looking for."""


def paths_reached(corporation, tokens, walk_from, skip_track=None, blocked_cities=(), stop=()) -> set:
    """The paths the walks from the nodes ``walk_from`` (some of the network's ``tokens``) enter, as
    ``Graph`` walks them; the walks end as soon as they enter one of the paths ``stop`` (then among
    those returned)."""
    reached = set()
    on_path = reached.add
    if stop:
        def on_path(path):
            reached.add(path)
            if path in stop:
                raise _Found
    try:
        for node in walk_from:
            others = {c for c in tokens if c is not node} | set(blocked_cities)
            _DepthFirst(others, corporation, skip_track, on_path).node(node)
    except _Found:
        pass
    return reached


def home_hexes(board, entity) -> list:
    """The hexes named by an entity's coordinates (one or several)."""
    coords = entity.coordinates if isinstance(entity.coordinates, (list, tuple)) else [entity.coordinates]
    return [h for h in (board.hex_by_id(c) for c in coords) if h is not None]


def home_nodes(board, entity) -> list:
    """(hex, node) pairs where an entity's home hexes start its network: the cities named by its
    ``city`` index (all cities and towns when it has none); the title may decide instead
    (``game.home_hex_nodes(entity)``)."""
    hook = getattr(board.game, "home_hex_nodes", None)
    if hook is not None:
        return hook(entity)
    coords = entity.coordinates if isinstance(entity.coordinates, (list, tuple)) else [entity.coordinates]
    out = []
    for coord in coords:
        hex_ = board.hex_by_id(coord)
        if hex_ is None:
            continue
        tile = hex_.tile
        if entity.city is not None:
            indexes = entity.city if isinstance(entity.city, (list, tuple)) else [entity.city]
            out.extend((hex_, tile.cities[i]) for i in indexes if i < len(tile.cities))
        else:
            out.extend((hex_, ct) for ct in tile.city_towns)
    return out


def hexes_connected(board, start_hex, goal_ids: set) -> bool:
    """Whether track joins a city of ``start_hex`` to a hex in ``goal_ids`` (no blocking)."""
    found = []

    def on_path(path):
        if not found and path.tile.hex.id in goal_ids:
            found.append(True)

    cities = start_hex.tile.cities
    for city in cities:
        _walk([city], None, None, on_path, stop_nodes=[c for c in cities if c is not city])
        if found:
            return True
    return False
