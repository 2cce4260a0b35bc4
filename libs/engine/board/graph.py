"""A corporation's network: what its trains can reach from its tokens.

From each city holding one of the corporation's tokens (in map order) the network is walked depth
first, as the reference engine walks it. The walk marks each node (city, town, offboard) and path it
enters and enters nothing that is marked (the other token cities are marked from the start); from a
path it first enters the path's nodes (unless the path is terminal or the node is full of other
corporations' tokens), then its tile's junction, then crosses each of its edges into the paths of
the neighbouring hex that meet it (matching lane and gauge), never into a path that uses a hexside
the walk is still crossing. A mark normally stays for the whole walk, so a path is walked in the
direction it is first met, and which paths a corporation reaches can depend on the order of the
walk: it is the reference's (paths in tile order, edges in path order).

Converging exits are the exception. Once the walk leaves a tile through an edge where two or more of
the tile's tracks end (tile 23's 0-3 and 0-4 meet at edge 0), whatever it marks beyond that crossing
is unmarked when it comes back, so that track met there is walked again when met another way. A loop
that closes through one branch of such an exit would otherwise hide the other branch: met first from
the far side, the track in front of it stays marked and is never walked towards it.

``search`` (1856 destinations, 1822's destination token) walks as if every crossing converged, so it
tries every way through, and stops at the first path it looks for.

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


class _DepthFirst:
    """One walk (see the module docstring). ``node(start, converging)`` walks from ``start``; below a
    converging crossing (``converging`` set) a node or path is marked visited only while the walk is
    beyond it, so that it is walked again when met another way; elsewhere a mark stays for the whole
    walk. ``on_path(path)`` is called the first time the walk enters a path (later entries add
    nothing to what it reaches, but may lead elsewhere).

    ``links`` caches what the walk needs of each path (see ``_link``) and, per node and junction,
    the paths a walk may take from it; walks over the same board, gauge (``skip_track``) and
    blocking corporation may share it. A walk never enters a path of the gauge ``skip_track``, nor
    a terminal path into a junction."""

    __slots__ = ("visited_nodes", "visited_paths", "crossing", "junctions", "blocked_for", "skip_track",
                 "on_path", "entered", "links")

    def __init__(self, visited_nodes, blocked_for, skip_track, on_path, links=None):
        self.visited_nodes = visited_nodes
        self.visited_paths = set()
        self.crossing = set()    # the hexsides (hex, edge, lane) the walk is crossing out of
        self.junctions = {}      # junction -> how many of its paths the walk is on
        self.blocked_for = blocked_for
        self.skip_track = skip_track
        self.on_path = on_path
        self.entered = set()
        self.links = {} if links is None else links

    def node(self, node, converging):
        """Walk on from ``node`` (one the walk has not marked)."""
        visited = self.visited_nodes
        visited.add(node)
        paths = self.links.get(node)
        if paths is None:
            skip_track = self.skip_track
            paths = self.links[node] = [p for p in node.paths if not p.ignore and p.track != skip_track
                                        and not (p.junction is not None and p.terminal)]
        visited_paths = self.visited_paths
        for path in paths:
            if path not in visited_paths:
                self.path(path, None, None, node, converging)
        if converging:
            visited.discard(node)

    def path(self, path, skip, jskip, origin, converging):
        links = self.links.get(path)
        if links is None:
            links = self._link(path)
        hexsides, exits, nodes, junction = links
        if junction is not None and self.junctions.get(junction, 0) > 1:
            return
        crossing = self.crossing
        if not crossing.isdisjoint(hexsides):
            return
        visited = self.visited_paths
        visited.add(path)
        if junction is not None:
            self.junctions[junction] = self.junctions.get(junction, 0) + 1
        if path not in self.entered:
            self.entered.add(path)
            self.on_path(path)
        if nodes:
            visited_nodes = self.visited_nodes
            for node in nodes:
                if node is not origin and node not in visited_nodes:
                    self.node(node, converging)
        if junction is not None and junction is not jskip:
            paths = self.links.get(junction)
            if paths is None:
                skip_track = self.skip_track
                paths = self.links[junction] = [p for p in junction.paths
                                                if p.track != skip_track and not p.terminal]
            for jp in paths:
                if jp not in visited:
                    self.path(jp, None, junction, origin, converging)
        for crossing_out in exits:
            e, hexside, facing, across, converges = crossing_out
            if e == skip:
                continue
            if across is None:
                skip_track = self.skip_track
                across = crossing_out[3] = [
                    np for np in paths_across(path, e)
                    if np.track != skip_track and not (np.junction is not None and np.terminal)]
            if not across:
                continue
            crossing.add(hexside)
            beyond = converging or converges
            for np in across:
                if np not in visited:
                    self.path(np, facing, None, origin, beyond)
            crossing.discard(hexside)
        if converging:
            visited.discard(path)
        if junction is not None:
            self.junctions[junction] -= 1

    def _link(self, path):
        """(the hexsides ``path`` occupies, its crossings: [edge, hexside, facing edge, the paths of
        the neighbouring hex it continues into (found when first needed), whether the edge is a
        converging exit], the nodes a walk passes through from it (none from a terminal path, nor
        full cities of other companies), its junction)."""
        tile = path.tile
        hex_ = tile.hex
        lanes = path.exit_lanes
        hexsides = []
        exits = []
        for e in path.edges:
            hexside = (hex_, e, lanes[e][1])
            hexsides.append(hexside)
            if hex_.neighbors[e] is not None:
                exits.append([e, hexside, (e + 3) % 6, None, tile.converging[e]])
        nodes = path.nodes
        if path.terminal or not nodes:
            nodes = ()
        elif self.blocked_for is not None:
            nodes = [n for n in nodes if not n.blocks(self.blocked_for)]
        links = self.links[path] = (frozenset(hexsides), exits, nodes, path.junction)
        return links


class _Found(Exception):
    """Ends a walk that found what it was looking for."""


def search(start, wanted, *, blocked_for=None, visited=()) -> bool:
    """Whether track leads from the node ``start`` into a path for which ``wanted(path)`` is true,
    every way through tried (converging from the start, as the reference searches a destination):
    ``blocked_for`` is the corporation for which full cities cannot be passed (None: none), the
    nodes ``visited`` are entered but not passed through. A plain reachability pass, which finds
    every path the walk could enter and more, answers first when it finds nothing."""
    if not may_reach([start], wanted, blocked_for, visited):
        return False

    def on_path(path):
        if wanted(path):
            raise _Found

    try:
        _DepthFirst(set(visited), blocked_for, None, on_path).node(start, True)
    except _Found:
        return True
    return False


def may_reach(starts, wanted, blocked_for, visited, skip_track=None) -> bool:
    """Whether any path a walk from the nodes ``starts`` could enter, whichever way it went, is
    ``wanted`` (the paths joined to them by track, through nodes the walk may pass, none of the gauge
    ``skip_track``; the nodes ``visited`` are not passed through). It visits each path once, so a
    False answers for walks that may try a loop many ways over."""
    seen = set()
    expanded = set(visited)
    stack = []

    def expand(node):
        expanded.add(node)
        stack.extend(p for p in node.paths if not p.ignore)

    for start in starts:
        if start not in expanded:
            expand(start)
    while stack:
        path = stack.pop()
        if path in seen or path.track == skip_track or (path.junction is not None and path.terminal):
            continue
        if wanted(path):
            return True
        seen.add(path)
        for e in path.edges:
            stack.extend(paths_across(path, e))
        if path.junction is not None:
            stack.extend(path.junction.paths)
        if not path.terminal:
            for node in path.nodes:
                if node not in expanded and (blocked_for is None or not node.blocks(blocked_for)):
                    expand(node)
    return False


def _after_walk(name):
    """A property of ``Graph`` that the whole walk computes (walked when first asked)."""
    def get(self):
        if not self._walked:
            self._walk()
        return getattr(self, name)
    return property(get)


class Graph:
    """The network of one corporation on the board as it stands (``Board.graph`` caches it).

    The walk runs when first needed. ``route_info`` and ``can_token`` ask only whether something
    exists, so they walk only until they find it (a walk that finds nothing is the whole walk, and
    is kept); everything else needs the whole walk."""

    JOURNAL_EXEMPT = True   # (a cache the board forgets when a journal puts its state back: engine.journal)
    __slots__ = ("board", "corporation", "token_cities", "_starts", "_home_hexes", "_others", "_blocked_for",
                 "_skip_track", "_links", "_walked", "_route_info", "_token_hit", "_connected_hexes",
                 "_connected_nodes", "_connected_paths", "_reachable_hexes", "_footprints", "looked")

    def __init__(self, board, corporation, *, no_blocking=False, skip_track=None, extra_token_cities=(),
                 home_as_token=False, blocked_cities=()):
        self.board = board
        self.corporation = corporation
        starts = self._starts = token_starts(board, corporation, extra_token_cities, home_as_token)
        self.token_cities = [node for _, node in starts]
        # track may be laid in each home hex towards any neighbour, whatever track it holds yet
        self._home_hexes = home_hexes(board, corporation) \
            if home_as_token and getattr(corporation, "coordinates", None) else ()
        self._others = set(blocked_cities)
        self._blocked_for = None if no_blocking else corporation
        self._skip_track = skip_track
        self._links = {}
        self._walked = False
        self._route_info = None
        self._token_hit = None   # a city where a token could go, found by a walk cut short
        # every hex any walk of this network looked at so far, whole or cut short (see ``footprints``),
        # and the hexes it starts from: a change elsewhere on the map changes none of its answers
        self.looked = {h for h, _ in starts}
        self.looked.update(self._home_hexes)

    # ------------------------------------------------------------ the whole walk
    connected_hexes = _after_walk("_connected_hexes")
    connected_nodes = _after_walk("_connected_nodes")
    connected_paths = _after_walk("_connected_paths")
    reachable_hexes = _after_walk("_reachable_hexes")
    # per token: the hexes its walk looked at (those of the paths it entered and those across their
    # edges); a walk that never looked at a hex is the same whatever tile lies there
    footprints = _after_walk("_footprints")

    @property
    def route_info(self) -> dict:
        if self._route_info is None:
            self._walk(stop_at_route=True)
        return self._route_info

    def _walk(self, stop_at_route=False, stop_at_node=None) -> None:
        """Walk from every token city in turn. ``stop_at_route``: stop as soon as a token reaches two
        mandatory stops (then ``route_info`` is known and nothing else is kept); ``stop_at_node``:
        stop (raising ``_Found(node)``) at the first node it accepts. A walk that was not stopped is
        kept whole."""
        hexes = {}
        nodes = {}
        paths = {}
        starts = self._starts
        tokens = self.token_cities
        for hex_, node in starts:
            hexes.setdefault(hex_, set()).update(e for e in range(6) if hex_.neighbors[e] is not None)
            nodes[node] = True
        for hex_ in self._home_hexes:
            hexes.setdefault(hex_, set()).update(e for e in range(6) if hex_.neighbors[e] is not None)
        if stop_at_node is not None:
            for node in nodes:
                if stop_at_node(node):
                    raise _Found(node)
        footprints = {}
        route_available = route_train_purchase = False
        local = {}
        looked = set()
        mandatory = [0]

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
                if node not in nodes:
                    nodes[node] = True
                    if stop_at_node is not None and stop_at_node(node):
                        raise _Found(node)
                if node not in local:
                    local[node] = True
                    if node.route == "mandatory":
                        mandatory[0] += 1
                        if mandatory[0] > 1 and watching:
                            raise _Found(None)
            edges = hexes.get(hex_)
            if edges is None:
                edges = hexes[hex_] = set()
            for e in path.edges:
                edges.add(e)
                neighbor = neighbors[e]
                if neighbor is not None:
                    ne = hexes.get(neighbor)
                    if ne is None:
                        ne = hexes[neighbor] = set()
                    ne.add((e + 3) % 6)

        links = self._links
        blocked_for, skip_track, blocked = self._blocked_for, self._skip_track, self._others
        for hex_, token_city in starts:
            local.clear()
            mandatory[0] = 0
            watching = stop_at_route and not route_train_purchase
            looked = set()
            others = {c for c in tokens if c is not token_city} | blocked
            try:
                _DepthFirst(others, blocked_for, skip_track, on_path, links).node(token_city, False)
            except _Found:
                self.looked.update(looked)
                if watching:
                    self._route_info = {"route_available": True, "route_train_purchase": True}
                    return
                raise
            self.looked.update(looked)
            looked.add(hex_)
            looked.discard(None)
            footprints[token_city] = looked
            if route_train_purchase:
                continue
            optional = 0
            for node in local:
                if node.route == "optional":
                    optional += 1
            if mandatory[0] > 1:
                route_available = route_train_purchase = True
            elif mandatory[0] == 1 and optional > 0:
                route_available = True
        self._connected_hexes = hexes
        self._connected_nodes = nodes
        self._connected_paths = paths
        self._reachable_hexes = {p.tile.hex: True for p in paths}
        self._footprints = footprints
        self._route_info = {"route_available": route_available, "route_train_purchase": route_train_purchase}
        self._walked = True

    # ------------------------------------------------------------ tokens
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

        def tokenable(node):
            return node.is_city and check(corp, node, tokens, True, cheater, False, same_hex_allowed, None) is None

        if self._walked:
            return any(tokenable(n) for n in self._connected_nodes)
        hit = self._token_hit
        if hit is not None and tokenable(hit):
            return True
        try:
            self._walk(stop_at_node=tokenable)
        except _Found as found:
            self._token_hit = found.args[0]
            return True
        return False


class PathNode:
    """A stand-in stop for a stretch of plain track, so a network can be walked from a home hex that
    has no city or town (it is never a stop of a route, nor a place for a token)."""

    JOURNAL_EXEMPT = True   # (a network's, never changed once made: engine.journal)
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


def _map_cities(board, extra_token_cities) -> list:
    """The cities on the map, in map order: the board's list of them, unless a tile stands on a hex
    for a moment (a preview of a lay; the list then still names the cities of the tile it replaces)
    or extra cities are given (a preview's): then the hexes are read. (A tile put on a hex for a
    moment where the list names no city comes from the supply, so its cities hold no token.)"""
    listed = getattr(board, "_map_cities", None)
    if listed is not None and not extra_token_cities:
        for city in listed:
            tile = city.tile
            hex_ = tile.hex
            if hex_ is None or hex_.tile is not tile:
                break
        else:
            return listed
    return [city for hex_ in board.hexes for city in hex_.tile.cities]


def token_starts(board, corporation, extra_token_cities=(), home_as_token=False) -> list:
    """(hex, node) where the corporation's network starts: the cities holding its tokens (and
    ``extra_token_cities``), in map order, then with ``home_as_token`` its home nodes (e.g. a minor
    that has no station markers)."""
    out = []
    seen = set()
    for city in _map_cities(board, extra_token_cities):
        slots = city.tokens
        # (most cities of a map hold no token: they are passed over without asking them)
        if (((slots.count(None) < len(slots) or city.extra_tokens) and city.tokened_by(corporation))
                or city in extra_token_cities):
            out.append((city.tile.hex, city))
            seen.add(city)
    if home_as_token and getattr(corporation, "coordinates", None):
        for hex_, node in home_nodes(board, corporation):
            if node not in seen:
                out.append((hex_, node))
                seen.add(node)
    return out


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
    links = {}
    try:
        for node in walk_from:
            others = {c for c in tokens if c is not node} | set(blocked_cities)
            _DepthFirst(others, corporation, skip_track, on_path, links).node(node, False)
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
    """Whether track joins a city of ``start_hex`` to a hex in ``goal_ids`` (no blocking): a search
    from each of its cities, the others entered but not passed through."""
    cities = start_hex.tile.cities

    def in_goal(path):
        return path.tile.hex.id in goal_ids

    return any(search(city, in_goal, visited=[c for c in cities if c is not city]) for city in cities)
