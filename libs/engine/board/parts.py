"""Tiles and what they are made of: tile descriptions, tiles, paths, cities, towns, offboards, hexes.

A ``TileDef`` is the immutable description of a tile (one per tile name, shared by its copies); a
``Tile`` is one physical tile (a supply copy or a preprinted tile) with its own rotation, tokens,
reservations, icons and borders. Edges are numbered 0..5 clockwise (see ``geometry``); rotation r
moves a feature at edge e of the description to edge (e + r) % 6.
"""

from __future__ import annotations

from .. import journal
from ..journal import Tracked
from .geometry import invert

# ------------------------------------------------------------------------------------------------
# Tile descriptions

EDGE, NODE, JUNCTION = 0, 1, 2
SINGLE_LANE = (1, 0)
DEFAULT_LANES = (SINGLE_LANE, SINGLE_LANE)
BROAD_OK = ("broad", "dual")
NARROW_OK = ("narrow", "dual")


def _end_spec(raw):
    if isinstance(raw, int):
        return (EDGE, raw)
    if raw == "j":
        return (JUNCTION, 0)
    return (NODE, int(raw[1:]))


class NodeSpec:
    JOURNAL_EXEMPT = True   # (a description: never changed once made, shared by every game; engine.journal)

    __slots__ = ("type", "revenue", "slots", "groups", "hide", "visit_cost", "route", "part", "to_city",
                 "halt", "loc", "style", "boom", "kind_index")

    def __init__(self, raw: dict, position: int, kind_index: int):
        self.type = raw["type"]
        rev = raw.get("revenue", 0)
        self.revenue = dict(rev) if isinstance(rev, dict) else int(rev)
        self.slots = int(raw.get("slots", 1))
        self.groups = tuple(raw.get("groups") or ())
        self.hide = bool(raw.get("hide"))
        self.visit_cost = int(raw.get("visit_cost", 1))
        self.halt = raw.get("halt")
        self.route = raw.get("route", "optional" if self.halt else "mandatory")
        self.part = int(raw.get("part", position))
        self.to_city = raw.get("to_city")
        self.loc = raw.get("loc")
        self.style = raw.get("style")
        self.boom = raw.get("boom")
        self.kind_index = kind_index


class PathSpec:
    JOURNAL_EXEMPT = True   # (a description: never changed once made, shared by every game; engine.journal)

    __slots__ = ("a", "b", "terminal", "track", "lanes", "ignore", "edges", "nodes", "junction")

    def __init__(self, raw: list):
        self.a = _end_spec(raw[0])
        self.b = _end_spec(raw[1])
        opts = raw[2] if len(raw) > 2 else {}
        self.terminal = int(opts.get("terminal") or 0)
        self.track = opts.get("track", "broad")
        lanes = opts.get("lanes")
        self.lanes = (tuple(lanes[0]), tuple(lanes[1])) if lanes else DEFAULT_LANES
        self.ignore = bool(opts.get("ignore"))
        self.edges = tuple(e[1] for e in (self.a, self.b) if e[0] == EDGE)
        self.nodes = tuple(e[1] for e in (self.a, self.b) if e[0] == NODE)
        self.junction = self.a[0] == JUNCTION or self.b[0] == JUNCTION


def converging_exits(paths) -> frozenset:
    """The edges where two or more track ends of a tile meet (converging exits, at rotation 0). A
    track walk that leaves the tile through one may find the same stretch of the network again from
    another side (``graph``). The lanes of one multi-lane track (paths with the same ends and gauge,
    lanes wider than one) end there once; lanes given one by one (different ends) do not."""
    ends = [0] * 6
    tracks = set()
    for p in paths:
        widths = tuple(w for w, _ in p.lanes)
        if max(widths) > 1:
            track = (p.a, p.b, p.terminal, p.track, p.ignore, widths)
            if track in tracks:
                continue
            tracks.add(track)
        for e in p.edges:
            ends[e] += 1
    return frozenset(e for e in range(6) if ends[e] > 1)


class TileDef:
    """The description of a tile (data section ``board.tiles[key]``)."""

    JOURNAL_EXEMPT = True   # (a description: never changed once made, shared by every game; engine.journal)

    __slots__ = ("key", "color", "label", "labels", "future_label", "nodes", "paths", "future_paths", "terrain",
                 "borders", "icons", "stubs", "partitions", "blocks_lay", "hidden", "stripes", "frame", "junction",
                 "n_cities", "n_towns", "converging", "_rot", "_conv", "_ends", "_ct_edges")

    def __init__(self, key: str, raw: dict):
        self.key = key
        self.color = raw["color"]
        self.label = raw.get("label")
        self.labels = tuple(raw.get("labels") or ([self.label] if self.label else []))
        fl = raw.get("future_label")
        self.future_label = (fl[0], fl[1]) if fl else None
        counters = {}
        self.nodes = []
        for i, n in enumerate(raw.get("nodes") or ()):
            kind = n["type"]
            k = counters.get(kind, 0)
            counters[kind] = k + 1
            self.nodes.append(NodeSpec(n, i, k))
        self.n_cities = counters.get("city", 0)
        self.n_towns = counters.get("town", 0)
        self.paths = [PathSpec(p) for p in raw.get("paths") or ()]
        self.future_paths = [PathSpec(p) for p in raw.get("future_paths") or ()]
        self.terrain = [dict(t) for t in raw.get("terrain") or ()]
        self.borders = [dict(b) for b in raw.get("borders") or ()]
        self.icons = [dict(i) for i in raw.get("icons") or ()]
        self.stubs = [dict(s) for s in raw.get("stubs") or ()]
        self.partitions = list(raw.get("partitions") or ())
        self.blocks_lay = bool(raw.get("blocks_lay")) or any(i.get("blocks_lay") for i in self.icons)
        self.hidden = bool(raw.get("hidden"))
        self.stripes = raw.get("stripes")
        self.frame = raw.get("frame")
        self.junction = any(p.junction for p in self.paths)
        self.converging = converging_exits(self.paths)
        self._rot = {}
        self._conv = {}
        self._ends = None
        self._ct_edges = {}

    # ---- rotation-dependent facts, cached per rotation
    def exits(self, rotation: int = 0) -> tuple:
        found = self._rot.get(rotation)
        if found is None:
            found = tuple(sorted({(e + rotation) % 6 for p in self.paths for e in p.edges}))
            self._rot[rotation] = found
        return found

    def converging_at(self, rotation: int) -> tuple:
        """Per edge 0..5 at ``rotation``: whether it is a converging exit (see ``converging_exits``)."""
        found = self._conv.get(rotation)
        if found is None:
            turned = {(e + rotation) % 6 for e in self.converging}
            found = self._conv[rotation] = tuple(e in turned for e in range(6))
        return found

    def city_town_edges(self, rotation: int = 0) -> list:
        """For each city/town with paths (in order of first path), the edges its paths reach."""
        found = self._ct_edges.get(rotation)
        if found is None:
            order = []
            edges = {}
            for p in self.paths:
                ct = None
                for n in p.nodes:
                    if self.nodes[n].type == "city":
                        ct = n
                        break
                if ct is None:
                    for n in p.nodes:
                        if self.nodes[n].type == "town":
                            ct = n
                            break
                if ct is None:
                    continue
                if ct not in edges:
                    edges[ct] = set()
                    order.append(ct)
                edges[ct].update((e + rotation) % 6 for e in p.edges)
            found = [frozenset(edges[ct]) for ct in order]
            self._ct_edges[rotation] = found
        return found

    def path_ends(self) -> list:
        """Per path: (ends, track) where ends lists (kind, value) with junction ends replaced by the
        non-junction ends of the other junction paths; kind is "e" (value: edge at rotation 0),
        "city", "town" (value: the town's to_city flag), "halt" or "offboard"."""
        if self._ends is None:
            def expand(spec, own):
                kind, value = spec
                if kind == EDGE:
                    return [("e", value)]
                if kind == NODE:
                    n = self.nodes[value]
                    if n.type == "town":
                        return [("halt" if n.halt else "town", bool(n.to_city))]
                    return [(n.type, None)]
                out = []
                for other in self.paths:
                    if other is own or not other.junction:
                        continue
                    for s in (other.a, other.b):
                        if s[0] != JUNCTION:
                            out.extend(expand(s, other))
                return out
            self._ends = [(expand(p.a, p) + expand(p.b, p), p.track) for p in self.paths]
        return self._ends


# ------------------------------------------------------------------------------------------------
# Nodes (revenue centres)


class Node(Tracked):
    """A city, town or offboard on a tile. ``index`` is the part index (as in ids such as
    ``"15-0-0"``); ``kind_index`` is the position among the tile's nodes of the same type."""

    __slots__ = ("tile", "spec", "index", "kind_index", "position", "revenue", "groups", "visit_cost", "route",
                 "paths", "_id", "__weakref__")

    is_city = False
    is_town = False
    is_offboard = False
    type = "node"

    def __init__(self, tile, spec: NodeSpec, position: int):
        self.tile = tile
        self.spec = spec
        self.index = spec.part
        self.kind_index = spec.kind_index
        self.position = position
        self.revenue = spec.revenue
        self.groups = list(spec.groups)
        self.visit_cost = spec.visit_cost
        self.route = spec.route
        self.paths = []
        self._id = None

    @property
    def id(self) -> str:
        if self._id is None:
            self._id = f"{self.tile.id}-{self.index}"
        return self._id

    @property
    def hex(self):
        return self.tile.hex

    @property
    def exits(self) -> list:
        return [e for p in self.paths for e in p.exits]

    @property
    def max_revenue(self) -> int:
        r = self.revenue
        return max(r.values()) if isinstance(r, dict) else r

    def base_revenue(self, phase_colors, train_name=None) -> int:
        """Revenue for a phase whose tile colours are ``phase_colors``: the last listed colour present
        in the revenue table; a train named D uses a ``diesel`` value when there is one."""
        r = self.revenue
        if not isinstance(r, dict):
            return r
        if train_name is not None and train_name.upper() == "D" and "diesel" in r:
            return r["diesel"]
        for color in reversed(phase_colors):
            if color in r:
                return r[color]
        return 0

    def route_revenue(self, phase, train) -> int:
        """Revenue of this stop for ``train`` in ``phase`` (multiplier included)."""
        return revenue_multiplier(train, self.type) * self.base_revenue(phase.tiles, train.name)

    def blocks(self, corporation) -> bool:
        return False

    def tokened_by(self, corporation) -> bool:
        return False

    def __repr__(self):
        return f"<{type(self).__name__} {self.id}>"


def revenue_multiplier(train, node_type) -> int:
    base = getattr(train, "multiplier", None) or 1
    distance = train.distance
    if isinstance(distance, list):
        for row in distance:
            if node_type in row["nodes"]:
                return row.get("multiplier", base)
    return base


class City(Node):
    __slots__ = ("slots", "tokens", "reservations", "extra_tokens")
    is_city = True
    type = "city"

    def __init__(self, tile, spec, position):
        super().__init__(tile, spec, position)
        self.slots = spec.slots
        self.tokens = [None] * spec.slots
        self.reservations = []
        self.extra_tokens = []

    @property
    def normal_slots(self) -> int:
        return self.slots

    def tokened_by(self, corporation) -> bool:
        for t in self.tokens:
            if t is not None and t.corporation is corporation:
                return True
        for t in self.extra_tokens:
            if t.corporation is corporation:
                return True
        return False

    def tokened(self) -> bool:
        return any(t is not None for t in self.tokens)

    def blocks(self, corporation) -> bool:
        """A city whose slots are all taken by other corporations cannot be passed through."""
        if corporation is None:
            return False
        has_free = False
        for t in self.tokens:
            if t is None:
                has_free = True
            elif t.corporation is corporation:
                return False
            elif t.type == "neutral":
                return False
        for t in self.extra_tokens:
            if t.corporation is corporation:
                return False
        return not has_free

    def find_reservation(self, corporation):
        for i, r in enumerate(self.reservations):
            if r is not None and (r is corporation or getattr(r, "owner", None) is corporation
                                  or r == getattr(corporation, "id", None)):
                return i
        return None

    def reserved_by(self, corporation) -> bool:
        return self.find_reservation(corporation) is not None

    def available_slots(self) -> int:
        res = self.reservations
        return sum(1 for i, t in enumerate(self.tokens) if t is None and (i >= len(res) or res[i] is None))

    def get_slot(self, corporation, cheater=False):
        """The slot a token of ``corporation`` would take: its reservation, else the first free
        unreserved slot (with ``cheater``, a new slot beyond the printed ones if none is free)."""
        reservation = self.find_reservation(corporation)
        res = self.reservations
        open_slot = None
        for i, t in enumerate(self.tokens):
            if t is None and (i >= len(res) or res[i] is None):
                open_slot = i
                break
        if cheater:
            return open_slot if open_slot is not None else len(self.tokens)
        return reservation if reservation is not None else open_slot

    def add_reservation(self, entity, slot=None) -> None:
        if slot is None:
            self.reservations.append(entity)
        else:
            self.reservations.insert(slot, entity)

    def remove_reservation(self, entity) -> None:
        for i, r in enumerate(self.reservations):
            if r is entity:
                self.reservations[i] = None
                return

    def reset(self) -> None:
        self.tokens = [None] * self.slots
        self.extra_tokens = []


class Town(Node):
    __slots__ = ()
    is_town = True
    type = "town"

    @property
    def halt(self) -> bool:
        return bool(self.spec.halt)


class Halt(Town):
    __slots__ = ()
    type = "halt"


class Offboard(Node):
    __slots__ = ()
    is_offboard = True
    type = "offboard"

    def blocks(self, corporation) -> bool:
        """A route may end at an offboard area but never passes through it."""
        return True


NODE_CLASSES = {"city": City, "town": Town, "offboard": Offboard}


# ------------------------------------------------------------------------------------------------
# Paths


class Junction(Tracked):
    __slots__ = ("tile", "paths")

    def __init__(self, tile):
        self.tile = tile
        self.paths = []


# (a path description, rotation) -> (its ends' edges, None for an end at a node or junction, its
# edges, its exit lanes by edge): what a rotation makes of a description, the same for every copy of
# the tile (read, never written)
_TURNED: dict = {}


def _turned(spec, rotation: int) -> tuple:
    ends = []
    lanes = {}
    for pos, (kind, value) in enumerate((spec.a, spec.b)):
        if kind == EDGE:
            e = (value + rotation) % 6
            ends.append(e)
            lanes[e] = spec.lanes[pos]
        else:
            ends.append(None)
    found = _TURNED[(spec, rotation)] = (ends[0], ends[1], tuple(e for e in ends if e is not None), lanes)
    return found


class Path(Tracked):
    """One track segment of a tile. ``a``/``b`` are an edge number (at the tile's current rotation),
    a node, or the tile's junction. ``edges`` lists the edge numbers it reaches, ``exit_lanes`` maps
    each to its lane spec ``(width, index)``."""

    __slots__ = ("tile", "spec", "index", "a", "b", "edges", "exit_lanes", "nodes", "junction", "terminal",
                 "track", "lanes", "ignore", "keys", "keys_hex")
    JOURNAL_FIXED = frozenset(('edges', 'exit_lanes', 'keys', 'keys_hex'))   # (replaced as the tile turns, never changed in place: engine.journal)

    def __init__(self, tile, spec: PathSpec, index: int, nodes: list, junction):
        self.tile = tile
        self.spec = spec
        self.index = index
        self.terminal = spec.terminal
        self.track = spec.track
        self.lanes = spec.lanes
        self.ignore = spec.ignore
        self.nodes = tuple(nodes[i] for i in spec.nodes)
        self.junction = junction if spec.junction else None
        self.a = self.b = None
        self.edges = ()
        self.exit_lanes = {}
        self.keys = ()
        self.keys_hex = None

    def rotate(self, rotation: int) -> None:
        spec = self.spec
        turned = _TURNED.get((spec, rotation))
        if turned is None:
            turned = _turned(spec, rotation)
        a, b, self.edges, self.exit_lanes = turned
        self.a = a if a is not None else self._end(spec.a)
        self.b = b if b is not None else self._end(spec.b)
        self.keys = None

    def _end(self, end):
        """The node or junction an end of the path's description names."""
        return self.tile.nodes[end[1]] if end[0] == NODE else self.junction

    @property
    def exits(self) -> tuple:
        return self.edges

    @property
    def hex(self):
        return self.tile.hex

    @property
    def node_count(self) -> int:
        return len(self.nodes)

    def tracks_match(self, other, dual_ok=False) -> bool:
        t = self.track
        if t == "broad":
            return other.track in BROAD_OK
        if t == "narrow":
            return other.track in NARROW_OK
        if t == "dual":
            return dual_ok or other.track == "dual"
        return False

    def overlap_keys(self) -> tuple:
        """The track resources this path occupies on a route: (hex id, edge, lane index) per edge,
        plus the path itself when it joins two nodes inside the tile."""
        keys = self.keys
        hex_ = self.tile.hex
        # cached per hex: a tile taken back into the supply may be laid again elsewhere at the same
        # rotation (no rotate() call resets the cache then)
        if keys is None or self.keys_hex is not hex_:
            hex_id = hex_.id if hex_ is not None else None
            out = [(hex_id, e, self.exit_lanes[e][1]) for e in self.edges]
            if len(self.nodes) > 1:
                out.append((hex_id, "p", self.index))
            keys = self.keys = tuple(out)
            self.keys_hex = hex_
        return keys

    def __repr__(self):
        def show(x):
            return x if isinstance(x, int) else ("J" if isinstance(x, Junction) else x.id)
        return f"<Path {self.tile.id} {show(self.a)}-{show(self.b)}>"


def lane_match(l0, l1) -> bool:
    """Whether lanes meeting across a hexside line up (a lane i of width w meets lane w-1-i)."""
    if l0 is None or l1 is None:
        return False
    if l0[0] == l1[0]:
        return l1[1] == l0[0] - l0[1] - 1
    small, big = sorted((tuple(l0), tuple(l1)))
    delta = (big[0] - small[0]) // 2
    return small[1] + delta == big[0] - big[1] - 1


def paths_across(path, edge) -> list:
    """The paths of the neighbouring hex that continue ``path`` across its edge ``edge`` (the facing
    edge, matching lanes and a compatible gauge)."""
    neighbor = path.tile.hex.neighbors[edge]
    if neighbor is None:
        return []
    facing = (edge + 3) % 6
    candidates = neighbor.tile.paths_by_edge[facing]
    if not candidates:
        return []
    lanes = path.exit_lanes[edge]
    track = path.track
    out = []
    for np in candidates:
        theirs = np.exit_lanes[facing]
        if (theirs == lanes == SINGLE_LANE or lane_match(lanes, theirs)) and (
                np.track == track == "broad" or path.tracks_match(np, dual_ok=True)):
            out.append(np)
    return out


def chains_from(start, prune=None, skip_ignored=False, crosses=None) -> list:
    """Every run of track from the stop ``start`` to the next stop: (stop reached, paths in order).
    A run never uses a path or a hexside twice and passes a tile's junction at most once (in by one
    of its paths, out by another); ``prune(paths)`` returning True abandons a prefix, and
    ``crosses(path, edge, paths)`` returning False (``paths`` ending with ``path``) abandons every
    prefix going on across that edge of the last path, before the paths beyond are looked up."""
    out = []
    junctions = set()

    def walk(path, entry_edge, chain, used, via_junction):
        j = path.junction
        if j is not None and (path.terminal or (not via_junction and j in junctions)):
            return
        chain.append(path)
        if prune is None or not prune(chain):
            for node in path.nodes:
                if node is not start:
                    out.append((node, tuple(chain)))
                    break
            else:
                hex_id = path.tile.hex.id
                for e in path.edges:
                    key = (hex_id, e, path.exit_lanes[e][1])
                    if e == entry_edge or key in used or (crosses is not None and not crosses(path, e, chain)):
                        continue
                    used.add(key)
                    for np in paths_across(path, e):
                        if np not in chain:
                            walk(np, (e + 3) % 6, chain, used, False)
                    used.discard(key)
                if j is not None and not via_junction:
                    junctions.add(j)
                    for jp in j.paths:
                        if jp not in chain:
                            walk(jp, None, chain, used, True)
                    junctions.discard(j)
        chain.pop()

    for p in start.paths:
        if not (skip_ignored and p.ignore):
            walk(p, None, [], set(), False)
    walk = None   # (it calls itself through its closure: let go, it is freed now rather than by the collector)
    return out


# ------------------------------------------------------------------------------------------------
# Tiles


_NO_PATHS = ((), (), (), (), (), ())
_NOT_CONVERGING = (False,) * 6


def own_list(holder, name: str) -> list:
    """``holder``'s list ``name`` to add to: the list it holds, or a new one in place of the shared
    empty tuple that stands for an empty list until the first addition (a tile's ``borders``,
    ``icons``, ``stubs``, ``reservations``, ``blockers``, ``hidden_blockers``)."""
    held = getattr(holder, name)
    if not isinstance(held, list):
        held = list(held)
        setattr(holder, name, held)
    return held


class Tile(Tracked):
    """One physical tile. ``id`` is ``"<name>-<index>"``. The parts lists (``nodes``, ``cities``,
    ``towns``, ``offboards``, ``paths``), ``exits`` and ``converging`` (per edge: a converging exit)
    reflect the current ``rotation``."""

    __slots__ = ("id", "name", "index", "tdef", "color", "rotation", "hex", "preprinted", "unlimited", "label",
                 "labels", "future_label", "nodes", "cities", "towns", "offboards", "city_towns", "paths",
                 "paths_by_edge", "exits", "converging", "junction", "borders", "icons", "stubs", "reservations",
                 "blockers", "hidden_blockers", "terrain", "location_name", "blocks_lay", "_ct_edges", "__weakref__")
    JOURNAL_FIXED = frozenset(('paths_by_edge', 'exits', 'converging', '_ct_edges'))   # (replaced as the tile turns, never changed in place: engine.journal)

    def __init__(self, name: str, index: int, tdef: TileDef, *, preprinted=False, unlimited=False):
        self.id = f"{name}-{index}"
        self.name = name
        self.index = index
        self.tdef = tdef
        self.color = tdef.color
        self.preprinted = preprinted
        self.unlimited = unlimited
        self.label = tdef.label
        self.labels = tdef.labels
        self.future_label = tdef.future_label
        self.hex = None
        self.location_name = None
        self.blocks_lay = tdef.blocks_lay
        # The parts never change once made: tuples (an empty one is the one empty tuple, which a
        # state's copy names instead of writing; see engine.statecopy).
        if tdef.nodes:
            self.nodes = nodes = tuple((Halt if s.halt else NODE_CLASSES[s.type])(self, s, i)
                                       for i, s in enumerate(tdef.nodes))
            self.cities = tuple(n for n in nodes if n.is_city)
            self.towns = tuple(n for n in nodes if n.is_town)
            self.offboards = tuple(n for n in nodes if n.is_offboard)
            self.city_towns = tuple(n for n in nodes if not n.is_offboard)
        else:
            self.nodes = self.cities = self.towns = self.offboards = self.city_towns = ()
        self.junction = Junction(self) if tdef.junction else None
        if tdef.paths:
            self.paths = tuple(Path(self, s, i, self.nodes, self.junction) for i, s in enumerate(tdef.paths))
            for p in self.paths:
                for n in p.nodes:
                    if p not in n.paths:
                        n.paths.append(p)
                if p.junction is not None:
                    p.junction.paths.append(p)
        else:
            self.paths = ()
        # The lists a tile may come to hold, most of them empty for good: an empty one is the one
        # empty tuple until something is added (then a list of the tile's own; see ``own_list``).
        self.borders = [dict(b) for b in tdef.borders] if tdef.borders else ()
        self.icons = [dict(i) for i in tdef.icons] if tdef.icons else ()
        self.stubs = [dict(s) for s in tdef.stubs] if tdef.stubs else ()
        self.terrain = tdef.terrain
        self.reservations = self.blockers = self.hidden_blockers = ()
        self.rotation = -1
        self.rotate(0)

    def rotate(self, rotation: int) -> None:
        if rotation == self.rotation:
            return
        if journal.recording() and self.rotation >= 0:   # (one record puts the turn back: not what it derives)
            journal.note(self.rotate, self.rotation)
            with journal.unrecorded():
                self._turn(rotation)
        else:
            self._turn(rotation)

    def _turn(self, rotation: int) -> None:
        self.rotation = rotation
        if not self.paths:
            self.paths_by_edge = _NO_PATHS
            self.exits = ()
            self.converging = _NOT_CONVERGING
            self._ct_edges = None
            return
        by_edge = [[] for _ in range(6)]
        for p in self.paths:
            p.rotate(rotation)
            for e in p.edges:
                by_edge[e].append(p)
        self.paths_by_edge = tuple(tuple(paths) for paths in by_edge)
        self.exits = self.tdef.exits(rotation)
        self.converging = self.tdef.converging_at(rotation)
        self._ct_edges = None

    # ---- facts used by the rules
    @property
    def city_town_edges(self) -> list:
        if self._ct_edges is None:
            self._ct_edges = self.tdef.city_town_edges(self.rotation)
        return self._ct_edges

    @property
    def terrain_cost(self) -> int:
        return sum(t.get("cost") or 0 for t in self.terrain)

    @property
    def terrain_types(self) -> list:
        out = []
        for t in self.terrain:
            for kind in t.get("terrains") or ():
                if kind not in out:
                    out.append(kind)
        return out

    def has_icon(self, name) -> bool:
        return any(i["name"] == name for i in self.icons)

    def reserved_by(self, corporation) -> bool:
        return any(r is corporation or getattr(r, "owner", None) is corporation for r in self.reservations)

    def token_blocked_by_reservation(self, corporation, mode="never") -> bool:
        if not self.reservations:
            return False
        if mode == "always" or (mode == "single_slot_cities" and any(c.slots == 1 for c in self.cities)):
            return corporation not in self.reservations
        return sum(1 for r in self.reservations if r is not corporation) >= \
            sum(c.available_slots() for c in self.cities)

    def __repr__(self):
        where = self.hex.id if self.hex is not None else "-"
        return f"<Tile {self.id}@{self.rotation} {where}>"


# ------------------------------------------------------------------------------------------------
# Hexes


class Hex(Tracked):
    """A map hex. ``neighbors[e]`` is the hex across edge e that track may reach (None if there is
    none or the way is impassable); ``all_neighbors[e]`` is the adjacent hex whatever the terrain."""

    __slots__ = ("id", "x", "y", "index", "tile", "original_tile", "neighbors", "all_neighbors", "location_name",
                 "hide_location_name", "empty", "assignments", "tokens", "__weakref__")

    def __init__(self, hex_id: str, x: int, y: int, index: int, tile: Tile, location_name=None):
        self.id = hex_id
        self.x = x
        self.y = y
        self.index = index
        self.tile = tile
        self.original_tile = tile
        self.neighbors = [None] * 6
        self.all_neighbors = [None] * 6
        self.location_name = location_name
        self.hide_location_name = False
        self.empty = False
        self.assignments = {}
        self.tokens = []
        tile.hex = self
        tile.location_name = location_name

    @property
    def name(self) -> str:
        return self.id

    @property
    def coordinates(self) -> str:
        return self.id

    def targeting(self, other) -> bool:
        """Whether this hex's tile has an exit toward the adjacent hex ``other``."""
        for e in range(6):
            if self.all_neighbors[e] is other:
                return e in self.tile.exits
        return False

    def neighbor_direction(self, other):
        for e in range(6):
            if self.all_neighbors[e] is other:
                return e
        return None

    # ---- assignments (e.g. a port marker): the same protocol as corporations'
    def assigned(self, key) -> bool:
        return key in self.assignments

    def assign(self, key, value=True) -> None:
        self.assignments[key] = value

    def unassign(self, key) -> None:
        self.assignments.pop(key, None)

    def __repr__(self):
        return f"<Hex {self.id} {self.tile.id}@{self.tile.rotation}>"


__all__ = ["TileDef", "Tile", "Path", "Node", "City", "Town", "Offboard", "Hex", "Junction", "lane_match",
           "paths_across", "chains_from", "revenue_multiplier", "invert"]
