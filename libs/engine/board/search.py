"""Best routes: the set of routes, one per train at most, paying the most in total.

1. The corporation's track is cut into *chains*: runs of track from one stop to the next (a stop's
   path, the plain track beyond it, the next stop's path). Each chain knows the track it occupies
   (hexsides and intra-tile links, as bits of an int), which other chains share track with it, and
   where its terminal paths are. A run crossing its own track is no chain.
2. Every legal route contains a city holding one of the corporation's tokens. From each token city T,
   in a fixed order, *arms* are grown: simple walks over chains starting at T that never reuse a stop,
   a group or track, never pass a city full of other corporations' tokens or a terminal path, and
   never enter an earlier token city. A route is one arm (T at an end) or two arms joined at T, so
   each route is seen once (or twice, see 4), from its first token city.
3. *Limited* trains (a distance some routes of the network exceed: 2 to 6 in 1856) get every legal
   route up to their distance listed once per *measure* (``RouteSet``; a measure is the gauges a
   train may use, what each stop and each run of track costs (stops, or hex edges for 1858's H
   trains), and its budget; routes ending where none of its trains earns are left out), priced per
   train class from per-arm sums (stop revenues for the phase, multipliers, the title's per-stop
   train bonuses and train revenue adjustment) plus the title's ``route_bonuses``, and packed by a
   branch and bound (``_Packer``): at most one route per train, pairwise without shared track.
   Candidate sets are ints (bit k = k-th best candidate), conflicts are precomputed per chain,
   identical trains take increasing candidate indices, and the bound is the sum of the best
   still-compatible candidates of each train. Quick packings (greedy, and greedy with each
   class's leading candidates forced first) give a floor; candidates that cannot reach it with the
   best of every other train are dropped; the exact search stops after ``PACK_BUDGET`` candidates
   (the best packing found then stands: only huge late-game positions with several long trains
   get there).
4. *Open* trains (numeric distance at least the whole network's: 1856's D) have too many routes to
   list (they grow exponentially with the network). ``_OpenSearch`` grows their routes stop by stop,
   depth first, train after train, and packs the limited trains from the candidates each leaves. Of a
   route's two arms the first is the one earning more (both orders on a tie). It prunes with
   - an upper bound on what a route can still collect (``_Blocks``): the track its free ends still
     reach falls into blocks (biconnected components) joined in a tree at cut stops; a route
     collects at most the stops of the blocks along one line of that tree (stops it can only end at,
     such as full cities and offboards, are leaves);
   - for the trains after it: what each earns alone, what a new route could collect on the track
     left (the same bound, from the token cities),
     the best limited candidates left, and identical trains earning no more than the one before;
   - a memo: what can follow a partial route depends only on its ends' state, on the part of the
     network they still reach and the taken track there (and, when trains follow, on what they still
     reach, and on the limited candidates left), so a partial route whose future was explored from an
     at least as good one is dropped;
   - maximal routes: some best solution has no route that could run on to another stop on free
     track, so a route ending where it could go on needs the trains after it to take that track.

A title whose ``revenue_for`` adds bonuses without describing them in ``route_bonuses`` is priced by
calling ``revenue_for`` per candidate (exact, slower); so are trains with an irregular distance table
(``[{nodes, pay, visit}]`` where a row pays for fewer stops than it lets the train visit), through
the route's own stop selection. Both, and any position whose
stop revenues or bonuses could be negative, use the enumeration for every train.
"""

from __future__ import annotations

import gc
from types import SimpleNamespace

from .parts import chains_from
from .routes import Route, RouteError, _revenue, check_distance, compute_stops, simple_table, unpaid_kinds

ANCHORS = 64         # leading candidates per train class tried as the first pick of a quick packing
PACK_BUDGET = 50000  # candidates the exact packing may try before the best packing found so far stands


def _indices(bits):
    """The positions of the set bits of ``bits``, lowest first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


class _Chain:
    __slots__ = ("u", "v", "paths", "mask", "n", "t_first", "t_last", "t_mid", "index", "conflicts", "hex_edges")

    def __init__(self, u, v, paths, mask, index):
        self.u = u
        self.v = v
        self.paths = paths
        self.mask = mask
        self.n = len(paths)
        self.t_first = bool(paths[0].terminal)
        self.t_last = bool(paths[-1].terminal)
        self.t_mid = any(p.terminal for p in paths[1:-1])
        self.hex_edges = sum(1 for a, b in zip(paths, paths[1:]) if a.tile is not b.tile)
        self.index = index
        self.conflicts = 0      # bits of the chains sharing track with this one (itself included)


def route_network(board, corporation) -> "Network":
    """The track ``corporation``'s routes can use, as the route searches read it (see ``Network``)."""
    return Network(board, corporation, board.graph(corporation))


class Network:
    """Stops (indexed) and chains of the track the corporation's routes can use, with per stop its
    visit cost, whether a route must end there (``blocked``: full of other corporations' tokens) and
    its groups (as bits); ``tokens``: the token cities' indices, in the graph's order.

    What a title's own search reads: ``nodes`` (the stops), ``chains`` (``_Chain``: stop indices
    ``u`` and ``v``, ``paths``, track bits ``mask``), ``adj`` (per stop: (chain, other stop index)),
    ``visit``, ``blocked``, ``groups``, ``tokens``. A title may set ``visit`` (a list, one cost per
    stop) before building a ``RouteSet`` on the network, e.g. to let a train visit towns for free."""

    def __init__(self, board, corporation, graph):
        self.corporation = corporation
        self.nodes = []
        self.node_index = {}
        self.adj = []             # per node: list of (chain, other node index)
        self.chains = []
        self._seen = set()
        self._bits = {}
        tokens = graph.token_cities
        for t in tokens:
            self._node(t)
        queue = list(tokens)
        expanded = set()
        while queue:
            node = queue.pop()
            if node in expanded:
                continue
            expanded.add(node)
            if node not in tokens and node.blocks(corporation):
                continue
            for other in self._chains_from(node):
                if other not in expanded:
                    queue.append(other)
        by_bit = {}
        for c in self.chains:
            for k in _indices(c.mask):
                by_bit[k] = by_bit.get(k, 0) | (1 << c.index)
        for c in self.chains:
            conflicts = 1 << c.index
            for k in _indices(c.mask):
                conflicts |= by_bit[k]
            c.conflicts = conflicts
        nodes = self.nodes
        self.tokens = [self.node_index[c] for c in tokens if c in self.node_index]
        self.visit = [n.visit_cost for n in nodes]
        self.blocked = [n.blocks(corporation) and not n.tokened_by(corporation) for n in nodes]
        group_bits = {}
        self.groups = []
        for n in nodes:
            g = 0
            for name in n.groups:
                if name not in group_bits:
                    group_bits[name] = 1 << len(group_bits)
                g |= group_bits[name]
            self.groups.append(g)

    def _node(self, node):
        i = self.node_index.get(node)
        if i is None:
            i = self.node_index[node] = len(self.nodes)
            self.nodes.append(node)
            self.adj.append([])
        return i

    def _add_chain(self, u, v, paths) -> bool:
        """Adds the chain unless known already; False for a chain no route can use."""
        key = frozenset(paths)
        if key in self._seen:
            return True
        self._seen.add(key)
        mask = 0
        bits = self._bits
        for p in paths:
            for k in p.overlap_keys():
                b = bits.get(k)
                if b is None:
                    b = bits[k] = 1 << len(bits)
                if mask & b:
                    return False        # the run crosses its own track (in and out by one hexside)
                mask |= b
        iu, iv = self._node(u), self._node(v)
        chain = _Chain(iu, iv, tuple(paths), mask, len(self.chains))
        self.chains.append(chain)
        self.adj[iu].append((chain, iv))
        self.adj[iv].append((chain, iu))
        return True

    def _chains_from(self, start):
        found = []
        for node, paths in chains_from(start, skip_ignored=True):
            if self._add_chain(start, node, paths):
                found.append(node)
        return found

    def route_chains(self, t, a_steps, b_steps=None) -> list:
        """(left, right, paths left to right) in route order for the route made of token city ``t``
        and one or two arms, each a sequence of (chain, walked from u to v)."""
        nodes = self.nodes

        def oriented(steps, at):
            out = []
            for chain, forward in steps:
                other = chain.v if forward else chain.u
                paths = chain.paths if forward else tuple(reversed(chain.paths))
                out.append((nodes[at], nodes[other], paths))
                at = other
            return out

        first = oriented(a_steps, t)
        if b_steps is None:
            return first
        left = [(r, l, tuple(reversed(p))) for l, r, p in reversed(first)]
        return left + oriented(b_steps, t)


def _extend_arm(k, last_term, inner, alone, chain_n, t_first, t_mid, joined=None):
    """The terminal-path flags of an arm of ``k`` paths whose last path is terminal (``last_term``)
    once extended by a chain of ``chain_n`` paths (``t_first``: its first path, walked from the arm's
    end, is terminal; ``t_mid``: a middle path is). ``inner``: the arm has a terminal path before its
    far end (it cannot be joined to a second arm); ``alone``: the arm, as a route by itself, has a
    terminal path strictly inside. Returns (inner, alone), or None when the extended arm breaks the
    terminal rule (from three paths on, terminal paths only at a route's ends): as a route by itself,
    or with ``joined``: as the second arm of a route whose first arm has that many paths."""
    head = chain_n > 1 and (t_first or t_mid)       # terminal among all but the chain's last path
    new_inner = inner or (k >= 1 and last_term) or head
    if k >= 1:
        new_alone = alone or (k >= 2 and last_term) or head
    else:
        new_alone = chain_n > 2 and t_mid
    total = k + chain_n
    if (new_inner and joined + total >= 3) if joined is not None else (new_alone and total >= 3):
        return None
    return new_inner, new_alone


class _Arm:
    """A walk from a token city: the stops after it, its chains (with direction), and its resources."""

    __slots__ = ("stops", "steps", "chain_bits", "mask", "nodes", "groups", "cost", "n_paths", "inner",
                 "inner_alone", "first", "revs", "bonus", "children")

    def __init__(self, stops, steps, chain_bits, mask, nodes, groups, cost, n_paths, inner, inner_alone, first):
        self.stops = stops
        self.steps = steps
        self.chain_bits = chain_bits
        self.mask = mask
        self.nodes = nodes
        self.groups = groups
        self.cost = cost
        self.n_paths = n_paths
        self.inner = inner
        self.inner_alone = inner_alone
        self.first = first
        self.revs = {}
        self.bonus = 0
        self.children = []      # the arms extending this one by a chain



class Measure:
    """How a kind of train measures a route: the track it may use (``tracks``: gauges, None for any),
    what each stop costs (``node_costs``, indexed like the network's stops), whether each run of
    track costs the hex edges it crosses (``hexes``), and the most it may spend (``max_cost``).
    ``exact``: the cost bound is the whole distance rule (else each route is checked)."""

    __slots__ = ("tracks", "node_costs", "hexes", "max_cost", "exact")

    def __init__(self, tracks, node_costs, hexes, max_cost, exact=True):
        self.tracks = tracks
        self.node_costs = node_costs
        self.hexes = hexes
        self.max_cost = max_cost
        self.exact = exact

    @property
    def key(self):
        return (self.tracks, self.node_costs, self.hexes)

    @property
    def plain(self) -> bool:
        """Stops counted by their visit cost on any track (what open trains are searched with)."""
        return self.tracks is None and not self.hexes


def measure_for(game, train, net) -> Measure:
    """The measure of ``train`` on the network. The title may restrict the gauges a train runs on
    (``game.route_track_types(train)``) and count hex edges instead of stops
    (``game.route_distance_kind(train) == "hexes"``). For a distance table only the stop kinds whose
    rows could ever be full cost anything."""
    nodes = net.nodes
    hook = getattr(game, "route_track_types", None)
    tracks = tuple(hook(train)) if hook is not None and hook(train) else None
    hook = getattr(game, "route_distance_kind", None)
    if hook is not None and hook(train) == "hexes":
        return Measure(tracks, (0,) * len(nodes), True, train.distance)
    distance = train.distance
    if not isinstance(distance, list):
        return Measure(tracks, tuple(net.visit), False, distance)
    limited, free = set(), set()
    budget = rows = 0
    for row in distance:
        visit = row.get("visit", row["pay"])
        if visit >= len(nodes):          # a row that can never fill does not bound the route
            free.update(row["nodes"])
        else:
            limited.update(row["nodes"])
            budget += visit
            rows += 1
    costs = tuple(n.visit_cost if n.type in limited and n.type not in free else 0 for n in nodes)
    return Measure(tracks, costs, False, budget, exact=rows <= 1 and not (limited & free))


class RouteSet:
    """Every legal route of a corporation within a measure (or a number of stops): ``routes`` holds (token node index, arm,
    second arm or None). Route sets of several measures share one network. ``ends``: the stops where
    a route may end (some train earns there; a route ending where nobody earns is no better than the
    same route stopping short, on less track); None: anywhere."""

    def __init__(self, net, measure, ends=None):
        self.net = net
        if not isinstance(measure, Measure):    # a plain number of stops
            measure = Measure(None, tuple(net.visit), False, measure)
        max_cost = measure.max_cost
        self.visit = visit = measure.node_costs
        tracks = measure.tracks
        allowed = [tracks is None or all(p.track in tracks for p in c.paths) for c in net.chains]
        chain_cost = [c.hex_edges if measure.hexes else 0 for c in net.chains]
        earns = ends if ends is not None else [True] * len(net.nodes)
        blocked = net.blocked
        groups = net.groups
        self.routes = []
        self.arms = []
        forbidden = 0
        for t in net.tokens:
            tbit = 1 << t
            arms = []

            def grow(at, stops, steps, cbits, mask, vis, grp, cost, k, inner, inner_alone, first, last_term, into):
                for chain, other in net.adj[at]:
                    obit = 1 << other
                    if vis & obit or mask & chain.mask or groups[other] & grp or not allowed[chain.index]:
                        continue
                    ncost = cost + visit[other] + chain_cost[chain.index]
                    if ncost > max_cost:
                        continue
                    forward = chain.u == at
                    tf, tl = (chain.t_first, chain.t_last) if forward else (chain.t_last, chain.t_first)
                    flags = _extend_arm(k, last_term, inner, inner_alone, chain.n, tf, chain.t_mid)
                    if flags is None:
                        continue
                    new_inner, new_alone = flags
                    total = k + chain.n
                    arm = _Arm(stops + (other,), steps + ((chain, forward),), cbits | (1 << chain.index),
                               mask | chain.mask, vis | obit, grp | groups[other], ncost, total, new_inner,
                               new_alone, first if first is not None else chain.index)
                    arms.append(arm)
                    into.append(arm)
                    if not blocked[other]:
                        grow(other, arm.stops, arm.steps, arm.chain_bits, arm.mask, arm.nodes, arm.groups, ncost,
                             total, new_inner, new_alone, arm.first, tl, arm.children)

            roots = []
            grow(t, (), (), 0, 0, tbit | forbidden, groups[t], visit[t], 0, False, False, None, False, roots)
            self.arms.extend(arms)
            routes = self.routes
            for a in arms:
                if earns[a.stops[-1]] or len(a.stops) == 1:
                    routes.append((t, a, None))
            # two arms joined at T: walk the tree of arms, dropping a whole subtree as soon as its
            # root clashes with the first arm (clashes only grow along an arm)
            shared = tbit | forbidden
            tgroups = ~groups[t]
            tcost = visit[t]
            for a in arms:
                if a.inner or not earns[a.stops[-1]]:   # an inner terminal path inside the joined route
                    continue
                amask, anodes, agroups = a.mask, a.nodes & ~shared, a.groups & tgroups
                budget = max_cost - a.cost + tcost
                ak = a.n_paths
                stack = [b for b in roots if b.first > a.first]
                while stack:
                    b = stack.pop()
                    if amask & b.mask or anodes & b.nodes or agroups & b.groups or b.cost > budget:
                        continue
                    if b.inner and ak + b.n_paths >= 3:
                        continue
                    if earns[b.stops[-1]]:
                        routes.append((t, a, b))
                    stack.extend(b.children)
            forbidden |= tbit
        grow = None             # (it refers to itself: freed now, not by the collector)

    def cost(self, route) -> int:
        t, a, b = route
        return a.cost if b is None else a.cost + b.cost - self.visit[t]

    def stops(self, route) -> list:
        t, a, b = route
        nodes = self.net.nodes
        if b is None:
            return [nodes[t]] + [nodes[i] for i in a.stops]
        return [nodes[i] for i in reversed(a.stops)] + [nodes[t]] + [nodes[i] for i in b.stops]

    def chains(self, route) -> list:
        """(left, right, paths left to right) in route order."""
        t, a, b = route
        return self.net.route_chains(t, a.steps, None if b is None else b.steps)

    def stop_indices(self, route) -> list:
        """The route's stops as indices into ``net.nodes``, in route order."""
        t, a, b = route
        if b is None:
            return [t] + list(a.stops)
        return list(reversed(a.stops)) + [t] + list(b.stops)



def chain_bits(route) -> int:
    """The chains a route (token node, arm, arm or None) runs on, as bits."""
    _, a, b = route
    return a.chain_bits if b is None else a.chain_bits | b.chain_bits

    def stop_indices(self, route) -> list:
        """The route's stops as indices into ``net.nodes``, in route order."""
        t, a, b = route
        if b is None:
            return [t] + list(a.stops)
        return list(reversed(a.stops)) + [t] + list(b.stops)


def _train_class(train, diesel=True):
    distance = train.distance
    dist_key = tuple(sorted((tuple(r["nodes"]), r["pay"], r.get("visit", r["pay"]), r.get("multiplier"))
                            for r in distance)) if isinstance(distance, list) else distance
    return (_pricing_key(train, diesel), dist_key)


def _pricing_key(train, diesel=True):
    """Trains with equal keys earn the same on every route (``diesel``: some stop has a diesel value)."""
    distance = train.distance
    rows = tuple((tuple(r["nodes"]), r.get("multiplier")) for r in distance) if isinstance(distance, list) else None
    return (diesel and train.name.upper() == "D", getattr(train, "multiplier", None) or 1, rows)


class _Bonuses:
    """The title's route bonuses as bits: one per (bonus, hex) for per-hex bonuses, one per side of a
    pair bonus (``partner_hexes``), one per bonus otherwise. ``node_bits[i]``: the bits a stop at node
    i earns (none where ``paid[i]`` is false: a stop the train visits without pay earns no bonus);
    ``value(bits)``: what a route holding those bits earns; ``total``: the most any route earns."""

    def __init__(self, nodes, bonuses, paid=None):
        slots = []

        def bit(slot) -> int:
            if slot not in slots:
                slots.append(slot)
            return 1 << slots.index(slot)

        self.node_bits = []
        for i, n in enumerate(nodes):
            hid = n.tile.hex.id
            bits = 0
            for bi, b in enumerate(bonuses if paid is None or paid[i] else ()):
                if hid in b.hexes:
                    bits |= bit((bi, hid) if b.per_hex else (bi,))
                if hid in b.partner_hexes:
                    bits |= bit((bi, "partner"))
            self.node_bits.append(bits)
        self._rules = []      # (amount, bits that earn it, bits one of which must come too or None)
        for bi, b in enumerate(bonuses):
            own = sum(1 << k for k, slot in enumerate(slots) if slot[0] == bi and slot[-1] != "partner")
            partner = sum(1 << k for k, slot in enumerate(slots) if slot == (bi, "partner"))
            if own:
                self._rules.append((b.amount, own, partner if b.partner_hexes else None))
        self._values = {0: 0}
        self.total = self.value((1 << len(slots)) - 1)

    def value(self, bits) -> int:
        v = self._values.get(bits)
        if v is None:
            v = 0
            for amount, own, partner in self._rules:
                hit = bits & own
                if hit and (partner is None or bits & partner):
                    v += amount * bin(hit).count("1")
            self._values[bits] = v
        return v


def _price_fast(rs, nodes, train, phase, bonuses, adjust=None, stop_bonus=None, extra_key=None) -> list:
    unpaid = unpaid_kinds(train.distance) if isinstance(train.distance, list) else ()
    key = (train.name.upper() == "D", getattr(train, "multiplier", None) or 1, tuple(sorted(unpaid)), extra_key)
    node_rev = [0 if n.type in unpaid else n.route_revenue(phase, train) for n in nodes]
    if stop_bonus is not None:
        node_rev = [r + (stop_bonus(train, n) if n.type not in unpaid else 0) for r, n in zip(node_rev, nodes)]
    bonuses = [b for b in bonuses if b.applies_to(train)]
    bonus = _Bonuses(nodes, bonuses, [n.type not in unpaid for n in nodes]) if bonuses else None
    bonus_bits = bonus.node_bits if bonus is not None else None
    for arm in rs.arms:
        if key not in arm.revs:
            arm.revs[key] = sum(node_rev[i] for i in arm.stops)
        if bonus_bits is not None:      # (trains of one key may earn different bonuses)
            bits = 0
            for i in arm.stops:
                bits |= bonus_bits[i]
            arm.bonus = bits
    out = []
    for route in rs.routes:
        t, a, b = route
        # a route ending at a stop that earns nothing is no better than the same route stopping
        # short of it (which uses less track)
        if node_rev[a.stops[-1]] == 0 and (b is not None or len(a.stops) > 1):
            continue
        if b is not None and node_rev[b.stops[-1]] == 0:
            continue
        rev = node_rev[t] + a.revs[key]
        if b is not None:
            rev += b.revs[key]
        if bonus_bits is not None:
            bits = bonus_bits[t] | a.bonus | (b.bonus if b is not None else 0)
            if bits:
                rev += bonus.value(bits)
        if adjust is not None:
            rev = adjust(train, rev)
        if rev > 0:
            out.append((rev, route))
    return out


def _priced_route(board, corporation, train, phase, rs, route, exact_hook):
    if isinstance(train.distance, list):
        r = Route(board, corporation, train, phase, rs.chains(route))
        r._stops = compute_stops(r)
        return r.compute_revenue()
    fake = SimpleNamespace(board=board, corporation=corporation, train=train, phase=phase, routes=[])
    return _revenue(fake, rs.stops(route))


def _table_ok(board, corporation, train, phase, rs, route) -> bool:
    r = Route(board, corporation, train, phase, rs.chains(route))
    try:
        check_distance(r, r.visited_stops)
    except RouteError:
        return False
    return True


def _int_from_bits(indices, size) -> int:
    """The int with the given bit indices set (built in one go: or-ing bits one by one into a growing
    int costs quadratic time)."""
    raw = bytearray((size >> 3) + 1)
    for k in indices:
        raw[k >> 3] |= 1 << (k & 7)
    return int.from_bytes(raw, "little")


class _Packer:
    """Packs the limited trains: for each class of identical trains (``groups``: (pricing key, trains,
    allowed candidate bits)), indices into its pricing list of the routes it runs, at most one per
    train, pairwise without shared track. ``avail`` lists per class the candidates still allowed."""

    def __init__(self, net, lists, groups):
        self.n = len(groups)
        self.net = net
        self.chains = net.chains if net is not None else []
        self._node_cache = {}
        self.revs = [[c[0] for c in lists[pkey]] for pkey, _, _ in groups]
        self.routes = [[c[1] for c in lists[pkey]] for pkey, _, _ in groups]
        self.counts = [len(group) for _, group, _ in groups]
        users = {}          # pricing key -> chain index -> candidates using that chain
        self.users = []
        for pkey, _, _ in groups:
            if pkey not in users:
                by_chain = {}
                for k, (_, route) in enumerate(lists[pkey]):
                    for c in _indices(chain_bits(route)):
                        by_chain.setdefault(c, []).append(k)
                size = len(lists[pkey])
                users[pkey] = {c: _int_from_bits(ks, size) for c, ks in by_chain.items()}
            self.users.append(users[pkey])
        self._chain_conf = [{} for _ in groups]
        self._route_conf = [{} for _ in groups]
        self._memo = {}

    def chain_conflicts(self, h, c) -> int:
        """Candidates of class ``h`` sharing track with chain ``c``."""
        found = self._chain_conf[h].get(c)
        if found is None:
            index = self.users[h]
            found = 0
            for other in _indices(self.chains[c].conflicts):
                found |= index.get(other, 0)
            self._chain_conf[h][c] = found
        return found

    def without_chain(self, avail, c) -> tuple:
        """``avail`` less the candidates sharing track with chain ``c``."""
        return tuple(a & ~self.chain_conflicts(h, c) for h, a in enumerate(avail))

    def conflicts(self, h, route) -> int:
        """Candidates of class ``h`` sharing track with ``route`` (a candidate of any class)."""
        key = id(route)
        found = self._route_conf[h].get(key)
        if found is None:
            _, a, b = route
            bits = a.chain_bits if b is None else a.chain_bits | b.chain_bits
            found = 0
            for c in _indices(bits):
                found |= self.chain_conflicts(h, c)
            self._route_conf[h][key] = found
        return found

    def kept(self, avail, region, ends) -> tuple:
        """What of ``avail`` matters to the future of an open route whose ends (``ends``: (stop,
        free ends)) reach the stops ``region``: the candidates it may still take track from, and (one
        train to pack) the best of those it can no longer touch; all of ``avail`` otherwise."""
        if self.n != 1 or self.counts[0] != 1:
            return (avail,)
        (a,) = avail
        near = self._node_conf
        touch = 0
        for e, _ in ends:
            touch |= near(e)
        for u in _indices(region):
            touch |= near(u)
        safe = a & ~touch
        return (a & touch, self.revs[0][(safe & -safe).bit_length() - 1] if safe else 0)

    def _node_conf(self, u) -> int:
        """Candidates (of the only class) sharing track with a chain at node ``u``."""
        found = self._node_cache.get(u)
        if found is None:
            found = 0
            for c, _ in self.net.adj[u]:
                found |= self.chain_conflicts(0, c.index)
            self._node_cache[u] = found
        return found

    def top(self, h, avail, r) -> int:
        """The most ``r`` trains of class ``h`` could earn from the candidates ``avail``."""
        total = 0
        rv = self.revs[h]
        while avail and r:
            low = avail & -avail
            total += rv[low.bit_length() - 1]
            avail ^= low
            r -= 1
        return total

    def upper(self, avail) -> int:
        """An upper bound on what the limited trains earn from ``avail``."""
        top = self.top
        counts = self.counts
        return sum(top(h, a, counts[h]) for h, a in enumerate(avail))

    def solve(self, avail, floor=0):
        """(total, picks) of the best packing from ``avail`` paying more than ``floor``, or None."""
        memo = self._memo.get(avail)
        if memo is not None:
            total, picks = memo
            if picks is not None:                    # exact
                return (total, picks) if total > floor else None
            if floor >= total:                       # known: nothing pays more than ``total``
                return None
        found = self._search(list(avail), floor)
        if found is None:
            prev = self._memo.get(avail)
            self._memo[avail] = (min(floor, prev[0]) if prev is not None else floor, None)
            return None
        self._memo[avail] = found
        return found

    def greedy(self, avail, first=None):
        """(total, picks) of a quick packing: each class in turn takes its best candidates still
        compatible (``first``: (class, candidate) taken before anything else)."""
        avail = list(avail)
        chosen = [[] for _ in range(self.n)]
        total = 0

        def take(g, k):
            nonlocal total
            route = self.routes[g][k]
            for h in range(self.n):
                avail[h] &= ~self.conflicts(h, route)
            avail[g] &= ~(1 << k)
            chosen[g].append(k)
            total += self.revs[g][k]

        if first is not None:
            take(*first)
        for g in range(self.n):
            while len(chosen[g]) < self.counts[g] and avail[g]:
                take(g, (avail[g] & -avail[g]).bit_length() - 1)
        return total, [sorted(c) for c in chosen]

    def best(self, avail, budget=None):
        """The best packing found: quick packings first (also with each class's leading candidates
        forced first, which helps when the very best routes of different trains get in each other's
        way), then the exact search, which stops after trying ``budget`` candidates."""
        best = self.greedy(avail)
        if sum(self.counts) > 1:
            for g in range(self.n):
                mine, tried = avail[g], 0
                while mine and tried < ANCHORS:
                    low = mine & -mine
                    found = self.greedy(avail, (g, low.bit_length() - 1))
                    if found[0] > best[0]:
                        best = found
                    mine ^= low
                    tried += 1
        found = self._search(list(avail), best[0], budget)
        return found if found is not None else best

    def _search(self, avail0, floor, budget=None):
        n = self.n
        revs, counts, routes, conflicts, top = self.revs, self.counts, self.routes, self.conflicts, self.top
        best_total = [floor]
        best_pick = [None]
        picks = [[] for _ in range(n)]
        spent = [0]

        def record(total):
            best_total[0] = total
            best_pick[0] = [list(p) for p in picks]

        def search(g, r, avail, total):
            if g == n:
                if total > best_total[0]:
                    best_total[0] = total
                    best_pick[0] = [list(p) for p in picks]
                return
            if r == 0 or not avail[g]:
                search(g + 1, counts[g + 1] if g + 1 < n else 0, avail, total)
                return
            rest = 0
            for h in range(g + 1, n):
                rest += top(h, avail[h], counts[h])
            if total + top(g, avail[g], r) + rest <= best_total[0]:
                return
            rv = revs[g]
            mine = avail[g]
            # one train left after this one: its best completion is read off directly
            if r == 2 and g == n - 1:
                last = g
            elif r == 1 and g == n - 2 and counts[n - 1] == 1:
                last = n - 1
            else:
                last = None
            while mine:
                if budget is not None:
                    if spent[0] >= budget:
                        return
                    spent[0] += 1
                low = mine & -mine
                k = low.bit_length() - 1
                rev = rv[k]
                if total + rev * r + rest <= best_total[0]:
                    break
                mine ^= low
                route = routes[g][k]
                if last is not None:
                    av = avail[last] & ~conflicts(last, route)
                    if last == g:
                        av &= ~((low << 1) - 1)
                    base = total + rev
                    picks[g].append(k)
                    if av:
                        k2 = (av & -av).bit_length() - 1
                        if base + revs[last][k2] > best_total[0]:
                            picks[last].append(k2)
                            record(base + revs[last][k2])
                            picks[last].pop()
                    elif base > best_total[0]:
                        record(base)
                    picks[g].pop()
                    continue
                nxt = list(avail)
                for h in range(g, n):
                    nxt[h] &= ~conflicts(h, route)
                nxt[g] &= ~((low << 1) - 1)
                picks[g].append(k)
                search(g, r - 1, nxt, total + rev)
                picks[g].pop()
            # the class's remaining trains run nothing
            if total + rest > best_total[0]:
                search(g + 1, counts[g + 1] if g + 1 < n else 0, avail, total)

        if n:
            search(0, counts[0], avail0, 0)
        search = None           # (it refers to itself: freed now, not by the collector)
        if not n and floor < 0:
            return (0, [])
        if best_pick[0] is None:
            return None
        return (best_total[0], best_pick[0])


class _Blocks:
    """What a route can still collect, for one pricing of the stops (``rev`` per node), read off the
    blocks of the track it can still use.

    A route is a simple path of stops. The track a route can still use (live chains, through stops
    a route may pass) falls into *blocks* (biconnected components) joined at cut stops into a tree;
    a path enters a block at most once and leaves it at most once, so it collects at most the stops
    of the blocks along one line of that tree, each block's stops at most once. Stops a route may
    not pass (full cities, offboards, stops with fewer than two ports a route can pass through) only
    end it: each is a leaf of the stop it is reached from. A stop's ports are its own paths (chains
    leaving a stop by the same path share track), so a route passing a stop enters and leaves it by
    two different ports.

    Each walk also leaves in ``region`` the stops reached (but the walk's own starting stops) and in
    ``cut`` the dead chains among them: with a route's ends, what it can still do depends on nothing
    else. Track taken is given as *dead* chains (bits by chain index): those sharing track with it."""

    def __init__(self, net, rev):
        self.rev = rev
        size = len(net.nodes)
        self.adj = [tuple((1 << c.index, o) for c, o in net.adj[u]) for u in range(size)]
        through = 0
        for u in range(size):
            ports = {}
            passable = set()
            for c, o in net.adj[u]:
                path = c.paths[0] if c.u == u else c.paths[-1]
                # a path without track resources (into a junction) does not make chains share track
                port = ports.setdefault(path if path.overlap_keys() else c, len(ports))
                # a chain whose path at the stop is a terminal spur cannot carry a route through it
                if not (c.t_first if c.u == u else c.t_last) or c.n < 2:
                    passable.add(port)
            if not net.blocked[u] and len(passable) >= 2:
                through |= 1 << u
        self.through = through
        # what a walk reads, per stop it passes: the state (closed or not) of the stop and of its
        # neighbours, and whether the chains there are dead
        self.around = [1 << u for u in range(size)]
        self.chains_at = [0] * size
        for u in range(size):
            for bit, o in self.adj[u]:
                self.around[u] |= 1 << o
                self.chains_at[u] |= bit
        self.region = self.cut = 0
        self.reads = (0, 0)
        self._known = {}        # (ends, closed, dead) -> (bound, region, cut)
        # per ends: per (stops, chains) a walk read, the answers by the closed stops and dead chains
        # among them (a walk that reads the same gives the same answer)
        self._shapes = {}

    def _walk(self, root, closed, dead, others=(), twin=None):
        """Depth first from ``root`` (then from each of ``others`` not reached yet) over the chains
        not ``dead``, through the stops a route may pass that are not ``closed`` (the starting stops
        and ``twin`` always may); ``twin``: a stop joined to ``root`` (by the route's own track).

        Returns (the most a path anywhere in the walked track collects, the options at ``root``: per
        block hanging there (its stops' revenue, its two best ways out, whether ``twin`` is in it), the
        root's best leaf, its best and second best way out (blocks or leaves))."""
        rev, adj, through = self.rev, self.adj, self.through
        starts = 1 << root
        for o in others:
            starts |= 1 << o
        if twin is not None:
            starts |= 1 << twin
        closed &= ~starts
        passable = (through | starts) & ~closed
        size = len(rev)
        disc = [0] * size
        low = [0] * size
        cont = [0] * size               # per stop: the most a path leaving it onwards collects
        stack = []
        blocks = []                     # the blocks hanging at ``root``
        root_ways = [0, 0, 0]           # at root: best leaf, best two ways out
        clock = best = reached = cut = read_stops = read_chains = 0
        around, chains_at = self.around, self.chains_at

        def visit(u, pbit):
            nonlocal clock, best, reached, cut, read_stops, read_chains
            clock += 1
            read_stops |= around[u]
            read_chains |= chains_at[u]
            disc[u] = low_u = disc_u = clock
            stack.append(u)
            w1 = w2 = leaf = leaves = 0
            ru = rev[u]
            edges = adj[u]
            if twin is not None and (u == root or u == twin):
                edges = edges + ((0, twin if u == root else root),)
            for bit, o in edges:
                if bit == pbit:
                    continue
                if dead & bit:
                    if not closed >> o & 1:
                        cut |= bit
                    continue
                if passable >> o & 1:
                    d = disc[o]
                    if d:
                        if d < low_u:
                            low_u = d
                        continue
                    visit(o, bit)
                    lo = low[o]
                    if lo < disc_u:
                        if lo < low_u:
                            low_u = lo
                        continue
                    # a block: u and the stops above o on the stack
                    total = ru
                    c1 = c2 = 0
                    has_twin = False
                    while True:
                        w = stack.pop()
                        total += rev[w]
                        cw = cont[w]
                        if cw > c1:
                            c1, c2 = cw, c1
                        elif cw > c2:
                            c2 = cw
                        if w == o:
                            break
                        if w == twin:
                            has_twin = True
                    if o == twin:
                        has_twin = True
                    if total + c1 + c2 > best:
                        best = total + c1 + c2
                    way = total - ru + c1
                    if u == root:
                        blocks.append((total, c1, c2, has_twin, way))
                elif closed >> o & 1 or leaves >> o & 1:
                    continue
                else:
                    leaves |= 1 << o
                    way = rev[o]
                    if way > leaf:
                        leaf = way
                if way > w1:
                    w1, w2 = way, w1
                elif way > w2:
                    w2 = way
            low[u] = low_u
            cont[u] = w1
            if ru + w1 + w2 > best:
                best = ru + w1 + w2
            reached |= leaves | 1 << u
            if u == root:
                root_ways[:] = (leaf, w1, w2)

        visit(root, None)
        for o in others:
            if not disc[o]:
                visit(o, None)
        visit = None            # (it refers to itself: freed now, not by the collector)
        self.region = reached & ~starts
        self.cut = cut
        self.reads = (read_stops, read_chains)
        return best, blocks, root_ways

    def anywhere(self, starts, dead) -> int:
        """The most a route on the chains not ``dead``, in the track reached from ``starts``,
        collects (its own stops included)."""
        group = (None, tuple(starts))
        known = self._recall(group, 0, dead)
        if known is None:
            known = (self._walk(starts[0], 0, dead, starts[1:])[0], self.region, self.cut)
            self._remember(group, 0, dead, known)
        self.region, self.cut = known[1], known[2]
        return known[0]

    def bound(self, ends, closed, dead) -> int:
        """The most a route can add to its stops. ``ends``: (stop, number of free ends there) for the
        ends it may still grow from (one stop with two, or one or two stops with one each);
        ``closed``: stops it may not visit (its own, earlier token cities); ``dead``: chains it may
        not use. A route reached in another order, or by a single train's search, asks again: the
        answers are kept."""
        key = (tuple(ends), closed, dead)
        known = self._known.get(key)
        if known is None:
            known = self._recall(key[0], closed, dead)
            if known is None:
                known = (self._bound(ends, closed, dead), self.region, self.cut)
                self._remember(key[0], closed, dead, known)
            self._known[key] = known
        self.region, self.cut = known[1], known[2]
        return known[0]

    def _recall(self, group, closed, dead):
        """The answer of an earlier walk of ``group`` (its starts) that read the same of ``closed``
        and ``dead``, or None."""
        for (stops, chains), table in self._shapes.get(group, {}).items():
            known = table.get((closed & stops, dead & chains))
            if known is not None:
                return known
        return None

    def _remember(self, group, closed, dead, known) -> None:
        stops, chains = self.reads
        self._shapes.setdefault(group, {}).setdefault(self.reads, {})[(closed & stops, dead & chains)] = known

    def _bound(self, ends, closed, dead) -> int:
        rev = self.rev
        if len(ends) == 2:
            # two ends of one route: their ways out leave the block the route's own track closes
            e1, e2 = ends[0][0], ends[1][0]
            _, blocks, (leaf, w1, w2) = self._walk(e1, closed, dead, twin=e2)
            for total, c1, c2, has_twin, way in blocks:
                if has_twin:
                    break
            own = leaf
            for other in blocks:
                if not other[3] and other[4] > own:
                    own = other[4]
            if own > c1:
                c1, c2 = own, c1
            elif own > c2:
                c2 = own
            return total - rev[e1] - rev[e2] + c1 + c2
        (e, slots), = ends
        _, blocks, (leaf, w1, w2) = self._walk(e, closed, dead)
        if slots == 1:
            return w1
        # a route through e: two ways out, or both into one block
        best = w1 + w2
        for total, c1, c2, _, _ in blocks:
            if total - rev[e] + c1 + c2 > best:
                best = total - rev[e] + c1 + c2
        return best


_UNCAPPED = float("inf")
_SMALL = 8          # stops within a route's reach below which the search stops bounding


class _OpenSearch:
    """The best routes for the open trains (``opens``: (train, pricing key, stop revenues) in search
    order, identical trains next to each other) together with the limited trains packed by ``packer``
    from the candidates ``avail``. ``run()`` returns (open routes as (index into ``opens``, token
    city, first arm steps, second arm steps or None), limited picks or None).

    Routes are built depth first, train after train: each position of a route (every one is a legal
    route) is bounded (``_Blocks.bound`` for its own growth, ``_later`` for the trains after it) and
    looked up in a memo: what follows a position depends only on a few facts (its ends and terminal
    state, the stops and free track its ends can still reach, for an earlier train what a new route
    could still reach, the limited candidates left), so a position whose future was already explored
    from an at least as good one is dropped. Identical open trains run in non-increasing revenue
    order (a train earns at most the one before it)."""

    def __init__(self, net, opens, packer, avail, bonus, pricing=None):
        self.net = net
        self.opens = opens
        self.packer = packer
        self.avail = tuple(avail)
        self.bonus = bonus
        self.bonus_total = bonus.total if bonus is not None else 0
        self.same = [i > 0 and opens[i][1] == opens[i - 1][1] for i in range(len(opens))]
        # per pricing key: (stop revenues, their _Blocks, chains per stop best first); shared with
        # the searches of single trains (for the bound on later trains), whose bounds ask much the same
        self.pricing = {} if pricing is None else pricing
        for _, key, rev in opens:
            if key not in self.pricing:
                order = [sorted(((o, c.conflicts, c.index, c.n, *((c.t_first, c.t_last) if c.u == u else
                                                              (c.t_last, c.t_first)), c.t_mid, c, c.u == u)
                                 for c, o in net.adj[u]), key=lambda s: -rev[s[0]])
                         for u in range(len(net.nodes))]
                self.pricing[key] = (rev, _Blocks(net, rev), order)
        # per chain: the stops at the ends of the chains sharing track with it (a route can only
        # take its track from there)
        self.blockers = [0] * len(net.chains)
        for c in net.chains:
            for k in _indices(c.conflicts):
                other = net.chains[k]
                self.blockers[c.index] |= 1 << other.u | 1 << other.v
        self.token_bits = sum(1 << t for t in net.tokens)
        self.single = {}
        self.fresh_known = {}   # (pricing key, dead chains) -> _fresh (it depends on nothing else)
        self.memo = {}
        self.finished = {}
        self.best = 0
        self.solution = ([], None)

    def run(self):
        if len(self.opens) > 1:
            # each open train alone, for the bound on the trains after the one being routed
            for train, key, rev in self.opens[1:]:
                if key not in self.single:
                    alone = _OpenSearch(self.net, [(train, key, rev)], _Packer(None, {}, []), (), self.bonus,
                                        self.pricing)
                    alone.run()
                    self.single[key] = alone.best
        self._open(0, 0, self.avail, 0, _UNCAPPED, [])
        return self.solution

    def _pack(self, avail, done, chosen):
        """The limited trains' best packing with the open routes ``chosen`` already running."""
        packer = self.packer
        if packer.n:
            if done + packer.upper(avail) <= self.best:
                return
            found = packer.solve(avail, self.best - done)
            if found is None:
                return
            total, picks = found
        elif done > self.best:
            total, picks = 0, []
        else:
            return
        self.best = done + total
        self.solution = ([(j, cur[0], tuple(cur[1]), tuple(cur[2]) if cur[2] else None) for j, cur in chosen],
                         picks)

    def _open(self, j, dead, avail, done, cap, chosen, req=()):
        """Routes for the open trains from the j-th on, the earlier ones (earning ``done``) leaving the
        chains ``dead`` (bits) unusable; ``cap``: the j-th train earns at most this (it is identical to
        the one before).

        ``req``: chains by which earlier routes could run further (legally, for more revenue): among
        the solutions paying the most there is one where no route can (extend its routes as long as
        they can), so the trains from the j-th on, or the limited ones, must take track from each."""
        if j == len(self.opens):
            if all(self._limited_blocks(e, avail) for e in req):
                self._pack(avail, done, chosen)
            return
        if cap > 0:
            self._routes(j, dead, avail, done, cap, chosen, req)
        # the j-th train runs nothing (and so do the identical ones after it)
        nxt = j + 1
        self._open(nxt, dead, avail, done, 0 if nxt < len(self.opens) and self.same[nxt] else _UNCAPPED, chosen,
                   req)

    def _limited_blocks(self, c, avail) -> bool:
        """Whether some limited candidate left in ``avail`` takes track from chain ``c``."""
        packer = self.packer
        return any(a & packer.chain_conflicts(h, c) for h, a in enumerate(avail))

    def _fresh(self, j, dead) -> tuple:
        """What a new route of the j-th open train could earn at most on the chains not ``dead`` (the
        best line through the blocks of the track reached from the token cities); with the part of
        the network such a route can reach: (bound, stops reached, token cities included, dead chains
        among them)."""
        key = self.opens[j][1]
        found = self.fresh_known.get((key, dead))
        if found is None:
            blocks = self.pricing[key][1]
            bound = blocks.anywhere(self.net.tokens, dead) + self.bonus_total
            found = self.fresh_known[(key, dead)] = (bound, blocks.region | self.token_bits, blocks.cut)
        return found

    def _later(self, j, rmax, avail, fresh) -> int:
        """An upper bound on what the trains after the j-th open train earn, the j-th earning at most
        ``rmax``; ``fresh``: the (j+1)-th train's ``_fresh`` bound."""
        packer = self.packer
        ub = packer.upper(avail) if packer.n else 0
        same = True
        nxt = self.opens[j + 1][1] if j + 1 < len(self.opens) else None
        for i in range(j + 1, len(self.opens)):
            same = same and self.same[i]
            key = self.opens[i][1]
            b = self.single[key]
            if same and rmax < b:
                b = rmax
            if key == nxt and fresh < b:
                b = fresh
            ub += b
        return ub

    def _routes(self, j, dead, avail, done, cap, chosen, req):
        """Every route of the j-th open train worth exploring, each followed by the trains after it.

        A route is grown from its first token city T: a first arm A, then possibly a second arm B from
        T. Of the two arms of a route, A is the one whose stops earn more (on a tie both orders are
        tried): B never earns more than A, which keeps the second arm's search small while A is."""
        net = self.net
        key = self.opens[j][1]
        rev, blocks, adj = self.pricing[key]
        ext_bound = blocks.bound
        visit, grp, blocked = net.visit, net.groups, net.blocked
        max_cost = self.opens[j][0].distance
        packer = self.packer
        without = packer.without_chain if packer.n else None
        limited_blocks = self._limited_blocks
        blockers = self.blockers
        bonus = self.bonus
        bon = bonus.node_bits if bonus is not None else None
        bval = bonus.value if bonus is not None else None
        btotal = self.bonus_total
        last = j + 1 == len(self.opens)
        nxt_same = not last and self.same[j + 1]
        later = self._later
        fresh = self._fresh
        cur = [None, [], []]            # token city, first arm steps, second arm steps
        a_steps, b_steps = cur[1], cur[2]
        chosen.append((j, cur))
        fb = [0]                        # earlier token cities
        # positions are compared by what the trains so far earn, by how much more this route may earn
        # (the train before caps it; a second arm earns at most the first), in this and later
        # searches for the same train
        memo = self.memo.setdefault(j, {})
        finished = self.finished.setdefault(j, {})
        with_avail = bool(packer.n)

        def worth(r, ends, vis, dead, bbits, avail2, rem, left, state, room=_UNCAPPED, pfub=None):
            """Whether the route (earning ``r``, ``left``: the required chains it has not taken track
            from) or a longer one may lead to a better total: False if not, else (for the routes
            extending it: what they can still collect at most when that is worth tracking instead of
            bounding, or None; the bound on the trains after this one and the part of the network
            they can still reach, as a whole when known). ``pfub``: the bound on the trains after
            this one at the route it extends (the track left only shrinks), tried first."""

            def ceiling(ext, fub):
                if ext > room:
                    ext = room
                rmax = r + ext
                if bval is not None:
                    rmax += btotal - bval(bbits)
                if rmax > cap:
                    rmax = cap
                return done + rmax + (later(j, rmax, avail2, fub) if not last or with_avail else 0)

            view = None
            if not ends:
                ext = 0
                if last and left and not all(limited_blocks(e, avail2) for e in left):
                    return False
            elif rem is not None:
                ext = rem[0]
            else:
                if pfub is not None and ceiling(_UNCAPPED, pfub) <= self.best:
                    return False        # even earning all it may (its cap, a second arm's room)
                ext = ext_bound(ends, vis | fb[0], dead)
                region, cut = blocks.region, blocks.cut
                if pfub is not None and ceiling(ext, pfub) <= self.best:
                    return False
            if last:
                fub = freach = 0
            elif rem is not None:
                fub, freach = rem[1], rem[2]    # the parent's: the track left only shrinks
            else:
                fub, freach, fcut = fresh(j + 1, dead)
                # the later trains' future depends on what track they can still reach
                view = (freach, fcut)
                state += view
            if ends and rem is None:
                if left:
                    if last:
                        # each required chain must still be within this route's reach (or a limited
                        # candidate's)
                        near = region
                        for e, _ in ends:
                            near |= 1 << e
                        for e in left:
                            if not blockers[e] & near and not (with_avail and limited_blocks(e, avail2)):
                                return False
                    state += (left,)
                if with_avail:
                    # (the chains required of it may be left to candidates out of its reach)
                    state += (avail2,) if left else packer.kept(avail2, region, ends)
                key = (state, region, cut)
                old = memo.get(key)
                if old is not None and done + r <= old[0] and cap - r <= old[1] and room <= old[2]:
                    return False
                memo[key] = (done + r, cap - r, room)
                if region.bit_count() <= _SMALL:
                    # few stops left within reach: below here, the plain sum of their revenues
                    # bounds well enough, and costs nothing to keep
                    rem = (sum(rev[u] for u in _indices(region)), fub, freach)
            if ceiling(ext, fub) <= self.best:
                return False
            return rem, fub, freach, view

        def finish(r, dead, avail2, fub, freach, view, left, runs_on):
            """The route ends here; ``runs_on()``: the chains by which it could run further."""
            total = done + r
            if last:
                if with_avail:
                    if any(not limited_blocks(e, avail2) for e in left):
                        return
                    if any(not limited_blocks(e, avail2) for e in runs_on()):
                        return
                elif left:
                    return
                self._pack(avail2, total, chosen)
            elif total + later(j, r, avail2, fub) > self.best:
                need = left + runs_on()
                for e in need:
                    if not blockers[e] & freach and not (with_avail and limited_blocks(e, avail2)):
                        return
                nxt_cap = r if nxt_same else _UNCAPPED
                if view is None:
                    fub, freach, fcut = fresh(j + 1, dead)
                    if total + later(j, r, avail2, fub) <= self.best:
                        return
                    view = (freach, fcut)
                # the trains after this one have been routed from the same part of the network, the
                # earlier ones earning as much and allowing as much?
                key = (view, need, avail2 if with_avail else None)
                old = finished.get(key)
                if old is not None and total <= old[0] and nxt_cap <= old[1]:
                    return
                finished[key] = (total, nxt_cap)
                self._open(j + 1, dead, avail2, total, nxt_cap, chosen, need)

        def shrink(rem, o):
            return None if rem is None else (rem[0] - rev[o], rem[1], rem[2])

        def taken(left, dead):
            return tuple(e for e in left if not dead >> e & 1) if left else left

        def runs_from(at, k, last_term, inner, alone, vis, dead, g, ak):
            """Chains by which an arm ending at ``at`` could run further (``ak``: when the route has
            two arms, the paths of the other one); not into earlier token cities, so that they follow
            from what the memo compares."""
            if blocked[at]:
                return ()
            closed = vis | fb[0]
            out = []
            for o, conf, ci, n, tf, tl, tmid, chain, fwd in adj[at]:
                if not (closed >> o & 1 or dead >> ci & 1 or grp[o] & g) and \
                        _extend_arm(k, last_term, inner, alone, n, tf, tmid, ak) is not None:
                    out.append(ci)
            return tuple(out)

        def grow(t, at, k, last_term, inner, alone, ak, vis, dead, g, cost, ba, bb, bbits, avail2, rem, left, fub):
            """Extends the arm ending at ``at`` by each chain it may take next: the first arm, or with
            ``ak`` (the first arm's paths) the second, which earns no more than the first."""
            closed = vis | fb[0]
            second = ak is not None
            steps = b_steps if second else a_steps
            for o, conf, ci, n, tf, tl, tmid, chain, fwd in adj[at]:
                value = rev[o]
                if second and bb + value > ba or closed >> o & 1 or dead >> ci & 1 or grp[o] & g:
                    continue
                ncost = cost + visit[o]
                if ncost > max_cost:
                    continue
                flags = _extend_arm(k, last_term, inner, alone, n, tf, tmid, ak)
                if flags is None:
                    continue
                steps.append((chain, fwd))
                after = dead | conf
                node(t, o, k + n, tl, flags[0], flags[1], ak, vis | 1 << o, after, g | grp[o], ncost,
                     ba if second else ba + value, bb + value if second else 0, bbits | bon[o] if bon else 0,
                     without(avail2, ci) if without else avail2, shrink(rem, o), taken(left, after), fub)
                steps.pop()

        def node(t, end, k, last_term, inner, alone, ak, vis, dead, g, cost, ba, bb, bbits, avail2, rem, left, pfub):
            """A route: token city ``t``, a first arm earning ``ba`` and, with ``ak`` (the first arm's
            paths), a second one earning ``bb``, ending at ``end`` (``k`` paths, terminal flags)."""
            second = ak is not None
            r = rev[t] + ba + bb
            if bval is not None:
                r += bval(bbits)
            if r > cap:
                return
            grows = not blocked[end]
            ends = [(end, 1)] if grows and not (last_term and k >= 2) else []
            if second:
                state, room = (end, inner, last_term, min(k, 3), min(ak, 3), g, bbits), ba - bb
            else:
                state, room = (end, t, inner, alone, last_term, min(k, 3), g, bbits), _UNCAPPED
                if not inner:
                    ends.append((t, 1))
            sub = worth(r, ends, vis, dead, bbits, avail2, rem, left, state, room, pfub)
            if sub is False:
                return
            rem, fub, freach, view = sub
            if grows:
                grow(t, end, k, last_term, inner, alone, ak, vis, dead, g, cost, ba, bb, bbits, avail2, rem, left, fub)
            if not second and not inner:
                grow(t, t, 0, False, False, False, k, vis, dead, g, cost, ba, 0, bbits, avail2, rem, left, fub)

            def runs_on():
                out = runs_from(end, k, last_term, inner, alone, vis, dead, g, ak)
                if not second and not inner:
                    out += runs_from(t, 0, False, False, False, vis, dead, g, k)
                return out
            finish(r, dead, avail2, fub, freach, view, left, runs_on)

        for t in net.tokens:
            cur[0] = t
            tbit = 1 << t
            bbits = bon[t] if bon else 0
            r = rev[t] + (bval(bbits) if bval is not None else 0)
            sub = worth(r, [(t, 2)], tbit, dead, bbits, avail, None, req, (t,))
            if sub is not False:
                grow(t, t, 0, False, False, False, None, tbit, dead, grp[t], visit[t], 0, 0, bbits, avail, sub[0], req,
                     sub[1])
            fb[0] |= tbit
        chosen.pop()
        grow = None             # (grow and node refer to each other: freed now, with the memos they hold)


def best_routes(board, corporation, trains, phase):
    """The most paying set of routes for ``trains`` (default: the corporation's runnable trains), as
    validated ``Route`` objects (trains without a route are left out).

    The cyclic garbage collector waits meanwhile: the search's memos make many containers that live
    until it ends, and collecting along the way would trace them and the whole game over and over
    (about a sixth of the calls' time in builder game 1/5, full collections of 20-30 ms included);
    the search's recursive inner functions are let go as it ends, so that what it leaves is freed by
    reference counting, not left to the collector."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _best_routes(board, corporation, trains, phase)
    finally:
        if paused:
            gc.enable()


def _best_routes(board, corporation, trains, phase):
    if trains is None:
        runnable = getattr(corporation, "runnable_trains", None)
        trains = runnable() if runnable is not None else list(getattr(corporation, "trains", ()))
    trains = list(trains)
    if not trains:
        return []
    net = route_network(board, corporation)
    if not net.chains:
        return []
    game = board.game
    exact_hook = getattr(game, "revenue_for", None) is not None and getattr(game, "route_bonuses", None) is None
    bonuses = [] if exact_hook else board.route_bonuses(corporation)
    nodes = net.nodes
    diesel = any(isinstance(n.revenue, dict) and "diesel" in n.revenue for n in nodes)
    adjust = getattr(game, "train_revenue", None)
    stop_bonus = getattr(game, "train_stop_bonus", None)
    # trains a title pays differently (wounded, with a Pullman...) must not share candidate lists
    revenue_key = getattr(game, "train_revenue_key", None)
    measures = {t: measure_for(game, t, net) for t in trains}

    # ---- open trains: a numeric distance the network cannot exhaust, searched stop by stop (their
    # routes are too many to list); only where a longer route never earns less
    opens = []
    if not exact_hook and adjust is None and stop_bonus is None and all(b.amount >= 0 for b in bonuses):
        reach = sum(net.visit)
        revs = {}
        for t in trains:
            if isinstance(t.distance, list) or t.distance < reach or not measures[t].plain or \
                    not all(b.applies_to(t) for b in bonuses):
                continue
            key = _pricing_key(t, diesel)
            if key not in revs:
                revs[key] = [n.route_revenue(phase, t) for n in nodes]
            if min(revs[key]) >= 0:
                opens.append((t, key, revs[key]))
        order = list(revs)
        opens.sort(key=lambda o: order.index(o[1]))     # identical trains next to each other
    open_trains = {id(o[0]) for o in opens}
    limited = [t for t in trains if id(t) not in open_trains]

    # ---- limited trains: one route set per measure (gauge, stop or hex counting), sized for its
    # longest train; candidates per pricing key, best first; classes of identical trains
    route_sets = {}
    by_measure = {}
    for t in limited:
        known = by_measure.get(measures[t].key)
        if known is None or known.max_cost < measures[t].max_cost:
            by_measure[measures[t].key] = measures[t]
    for key, m in by_measure.items():
        ends = None
        if not bonuses and not exact_hook:
            ends = [False] * len(nodes)
            for t in limited:
                if measures[t].key != key:
                    continue
                unpaid = unpaid_kinds(t.distance) if isinstance(t.distance, list) else ()
                for i, n in enumerate(nodes):
                    if not ends[i] and n.type not in unpaid and (
                            n.route_revenue(phase, t) > 0 or (stop_bonus is not None and stop_bonus(t, n) > 0)):
                        ends[i] = True
        route_sets[key] = RouteSet(net, m, ends)
    lists = {}
    classes = {}
    for t in limited:
        # a title's own revenue_for may tell trains apart by name: then only same-named trains group
        key = _train_class(t, diesel) + (measures[t].key, revenue_key(t) if revenue_key is not None else None,
                                         tuple(b.applies_to(t) for b in bonuses))
        classes.setdefault(key + (t.name,) if exact_hook else key, []).append(t)

    def irregular(train):
        return isinstance(train.distance, list) and not simple_table(train.distance)

    def pricing(key, group):
        # trains sharing a pricing list earn the same on every route; a title's own revenue_for and
        # irregular distance tables may depend on the train itself
        if exact_hook or irregular(group[0]):
            return key
        return (key[0],) + key[2:]

    for key, group in classes.items():
        pkey = pricing(key, group)
        if pkey in lists:
            continue
        sample = group[0]
        rs = route_sets[measures[sample].key]
        if irregular(sample) or exact_hook:
            priced = []
            for route in rs.routes:
                rev = _priced_route(board, corporation, sample, phase, rs, route, exact_hook)
                if rev is not None and rev > 0:
                    priced.append((rev, route))
        else:
            priced = _price_fast(rs, nodes, sample, phase, bonuses, adjust, stop_bonus,
                                 revenue_key(sample) if revenue_key is not None else None)
        priced.sort(key=lambda c: -c[0])
        lists[pkey] = (rs, priced)

    # ---- which candidates each class may run (its own distance), among those that could matter:
    # a quick packing gives a total no packing falls below, so a candidate is kept only if it plus
    # the best of every other train could still reach that total
    def fits(sample, rs, route):
        measure = measures[sample]
        if measure.exact:
            return rs.cost(route) <= measure.max_cost
        return _table_ok(board, corporation, sample, phase, rs, route)

    def conflict_mask(route):
        mask, bits = 0, chain_bits(route)
        while bits:
            low = bits & -bits
            mask |= net.chains[low.bit_length() - 1].conflicts
            bits ^= low
        return mask

    tops = []
    for key, group in classes.items():
        pkey = pricing(key, group)
        rs, priced = lists[pkey]
        top = next((rev for rev, route in priced if fits(group[0], rs, route)), None)
        if top is not None:
            tops.append((key, pkey, group, top))
    tops.sort(key=lambda c: -c[3])
    thresholds = {}
    if not opens:
        used = floor = 0
        for _, pkey, group, _ in tops:
            rs, priced = lists[pkey]
            taken = 0
            for rev, route in priced:
                if taken >= len(group):
                    break
                if chain_bits(route) & used or not fits(group[0], rs, route):
                    continue
                used |= conflict_mask(route)
                floor += rev
                taken += 1
        best_sum = sum(top * len(group) for _, _, group, top in tops)
        thresholds = {key: floor - (best_sum - top) for key, _, _, top in tops}

    groups = []
    for key, pkey, group, _ in tops:
        rs, priced = lists[pkey]
        threshold = thresholds.get(key)
        allowed = []
        for k, (rev, route) in enumerate(priced):
            if threshold is not None and rev < threshold:
                break
            if fits(group[0], rs, route):
                allowed.append(k)
        if allowed:
            groups.append((pkey, group, _int_from_bits(allowed, len(priced))))
    groups.sort(key=lambda g: -lists[g[0]][1][(g[2] & -g[2]).bit_length() - 1][0])
    packer = _Packer(net, {k: v[1] for k, v in lists.items()}, groups)
    avail = tuple(allowed for _, _, allowed in groups)
    if opens:
        open_routes, picked = _OpenSearch(net, opens, packer, avail, _Bonuses(nodes, bonuses) if bonuses else None).run()
    else:
        open_routes, picked = [], packer.best(avail, PACK_BUDGET)[1]

    picks = [(opens[j][0], net.route_chains(t, a, b)) for j, t, a, b in open_routes]
    for (pkey, group, _), ks in zip(groups, picked or ()):
        rs, priced = lists[pkey]
        picks.extend((t, rs.chains(priced[k][1])) for t, k in zip(group, ks))
    return finish_routes(board, corporation, phase, trains, picks)


def finish_routes(board, corporation, phase, trains, picks) -> list:
    """``Route`` objects for the search's picks ((train, chains) pairs), checked and priced (a route
    the rules refuse keeps its ``error``), in the order of ``trains``."""
    out = []
    for train, chains in picks:
        out.append(Route(board, corporation, train, phase, chains, routes=out))
    for r in out:
        try:
            r.check()
            r.revenue = r.compute_revenue()
        except RouteError as err:  # pragma: no cover - the search only builds legal routes
            r.error = err.reason
    order_index = {t: i for i, t in enumerate(trains)}
    out.sort(key=lambda r: order_index.get(r.train, 0))
    return out
