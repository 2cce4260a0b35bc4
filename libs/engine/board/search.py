"""Best routes: the set of routes, one per train at most, paying the most in total.

1. The corporation's track is cut into *chains*: runs of track from one stop to the next (a stop's
   path, the plain track beyond it, the next stop's path). Each chain knows the track it occupies
   (hexsides and intra-tile links, as bits of an int), which other chains share track with it, and
   where its terminal paths are.
2. Every legal route contains a city holding one of the corporation's tokens. From each token city T,
   in a fixed order, *arms* are enumerated: simple walks over chains starting at T that never reuse a
   stop, a group or track, never pass a city full of other corporations' tokens or a terminal path,
   never enter an earlier token city, and stop growing at the largest train's distance. A route is one
   arm (T at an end) or two arms joined at T (ordered by their first chain), so each route is seen
   exactly once, from its first token city. Arms form a tree (each extends its parent by a chain);
   partners for an arm are found by walking that tree and dropping a subtree at its first clash.
3. Routes are priced per train class from per-arm sums (stop revenues for the phase, diesel values for
   D trains, multipliers) plus the title's ``route_bonuses``.
4. A branch-and-bound search picks at most one route per train with pairwise disjoint track,
   maximising the total. Candidate sets are ints (bit k = k-th best candidate), conflicts are looked up
   through the chains, identical trains take increasing candidate indices, and the bound is the sum of
   the best still-compatible candidates of each train.

A title whose ``revenue_for`` adds bonuses without describing them in ``route_bonuses`` is priced by
calling ``revenue_for`` per candidate (exact, slower). Trains with a distance table
(``[{nodes, pay, visit}]``) are priced through the route's own stop selection.
"""

from __future__ import annotations

from types import SimpleNamespace

from .parts import chains_from
from .routes import Route, RouteError, _revenue, check_distance, compute_stops, simple_table, unpaid_kinds


ANCHORS = 64        # leading routes per train class tried as the first pick of a quick packing
PACK_BUDGET = 50000  # candidate routes the exact packing may try before the best found so far stands


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


class _Network:
    """Stops (indexed) and chains of the track the corporation's routes can use."""

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
            m = c.mask
            while m:
                low = m & -m
                by_bit[low] = by_bit.get(low, 0) | (1 << c.index)
                m ^= low
        for c in self.chains:
            m = c.mask
            conflicts = 1 << c.index
            while m:
                low = m & -m
                conflicts |= by_bit[low]
                m ^= low
            c.conflicts = conflicts
        names = {}
        self.group_bits = []
        for n in self.nodes:
            g = 0
            for name in n.groups:
                if name not in names:
                    names[name] = 1 << len(names)
                g |= names[name]
            self.group_bits.append(g)

    def _node(self, node):
        i = self.node_index.get(node)
        if i is None:
            i = self.node_index[node] = len(self.nodes)
            self.nodes.append(node)
            self.adj.append([])
        return i

    def _add_chain(self, u, v, paths):
        key = frozenset(paths)
        if key in self._seen:
            return
        self._seen.add(key)
        mask = 0
        bits = self._bits
        for p in paths:
            for k in p.overlap_keys():
                b = bits.get(k)
                if b is None:
                    b = bits[k] = 1 << len(bits)
                mask |= b
        iu, iv = self._node(u), self._node(v)
        chain = _Chain(iu, iv, tuple(paths), mask, len(self.chains))
        self.chains.append(chain)
        self.adj[iu].append((chain, iv))
        self.adj[iv].append((chain, iu))

    def _chains_from(self, start):
        found = []
        for node, paths in chains_from(start, skip_ignored=True):
            self._add_chain(start, node, paths)
            found.append(node)
        return found


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
    track costs the hex edges it crosses (``hexes``), and the most it may spend (``max_cost``)."""

    __slots__ = ("tracks", "node_costs", "hexes", "max_cost", "exact")

    def __init__(self, tracks, node_costs, hexes, max_cost, exact=True):
        self.tracks = tracks
        self.node_costs = node_costs
        self.hexes = hexes
        self.max_cost = max_cost
        self.exact = exact      # the cost bound is the whole distance rule (else check each route)

    @property
    def key(self):
        return (self.tracks, self.node_costs, self.hexes)


def measure_for(game, train, nodes) -> Measure:
    """The measure of ``train`` on a network whose stops are ``nodes``. The title may restrict the
    gauges a train runs on (``game.route_track_types(train)``) and count hex edges instead of stops
    (``game.route_distance_kind(train) == "hexes"``). For a distance table only the stop kinds whose
    rows could ever be full cost anything."""
    hook = getattr(game, "route_track_types", None)
    tracks = tuple(hook(train)) if hook is not None and hook(train) else None
    hook = getattr(game, "route_distance_kind", None)
    if hook is not None and hook(train) == "hexes":
        return Measure(tracks, (0,) * len(nodes), True, train.distance)
    distance = train.distance
    if not isinstance(distance, list):
        return Measure(tracks, tuple(n.visit_cost for n in nodes), False, distance)
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
    """Every legal route of a corporation within a measure: ``routes`` holds (token node index, arm,
    second arm or None). Route sets of several measures share one network (``net``)."""

    def __init__(self, net, measure, token_cities, ends=None):
        self.net = net
        nodes = net.nodes
        corp = net.corporation
        max_cost = measure.max_cost
        self.visit = visit = measure.node_costs
        tracks = measure.tracks
        allowed = [tracks is None or all(p.track in tracks for p in c.paths) for c in net.chains]
        chain_cost = [c.hex_edges if measure.hexes else 0 for c in net.chains]
        blocked = [n.blocks(corp) and not n.tokened_by(corp) for n in nodes]
        groups = net.group_bits
        self.routes = []
        self.arms = []
        forbidden = 0
        for t in [net.node_index[c] for c in token_cities if c in net.node_index]:
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
                    head = chain.n > 1 and (tf or chain.t_mid)     # terminal among all but its last path
                    new_inner = inner or (k >= 1 and last_term) or head
                    if k >= 1:
                        new_alone = inner_alone or (k >= 2 and last_term) or head
                    else:
                        new_alone = chain.n > 2 and chain.t_mid
                    total = k + chain.n
                    if new_alone and total >= 3:
                        continue
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
            # ``ends``: stops where a route may end (some train earns there); a route ending where
            # nobody earns is no better than the same route stopping short, on less track.
            earns = ends if ends is not None else [True] * len(nodes)
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
        nodes = self.net.nodes

        def oriented(steps, at):
            out = []
            for chain, forward in steps:
                other = chain.v if forward else chain.u
                paths = chain.paths if forward else tuple(reversed(chain.paths))
                out.append((nodes[at], nodes[other], paths))
                at = other
            return out

        first = oriented(a.steps, t)
        if b is None:
            return first
        left = [(r, l, tuple(reversed(p))) for l, r, p in reversed(first)]
        return left + oriented(b.steps, t)


def bitset(indexes, size) -> int:
    """The int whose bits ``indexes`` are set."""
    flags = bytearray(size // 8 + 1)
    for k in indexes:
        flags[k >> 3] |= 1 << (k & 7)
    return int.from_bytes(flags, "little")


def chain_bits(route) -> int:
    _, a, b = route
    return a.chain_bits if b is None else a.chain_bits | b.chain_bits


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


def best_routes(board, corporation, trains, phase):
    """The most paying set of routes for ``trains`` (default: the corporation's runnable trains), as
    validated ``Route`` objects (trains without a route are left out)."""
    if trains is None:
        runnable = getattr(corporation, "runnable_trains", None)
        trains = runnable() if runnable is not None else list(getattr(corporation, "trains", ()))
    trains = list(trains)
    if not trains:
        return []
    graph = board.graph(corporation)
    net = _Network(board, corporation, graph)
    nodes = net.nodes
    game = board.game
    exact_hook = getattr(game, "revenue_for", None) is not None and getattr(game, "route_bonuses", None) is None
    bonuses = [] if exact_hook else board.route_bonuses(corporation)
    adjust = getattr(game, "train_revenue", None)
    # trains a title pays differently (wounded, with a Pullman...) must not share candidate lists
    revenue_key = getattr(game, "train_revenue_key", None)

    # ---- one route set per measure (gauge, stop or hex counting), sized for its longest train
    measures = {}
    train_measure = {}
    for t in trains:
        m = train_measure[t] = measure_for(game, t, nodes)
        known = measures.get(m.key)
        if known is None or known.max_cost < m.max_cost:
            measures[m.key] = m
    route_sets = {}
    for key, m in measures.items():
        ends = [False] * len(nodes)
        for t in trains:
            if train_measure[t].key != key:
                continue
            unpaid = unpaid_kinds(t.distance) if isinstance(t.distance, list) else ()
            for i, n in enumerate(nodes):
                if not ends[i] and n.type not in unpaid and n.route_revenue(phase, t) > 0:
                    ends[i] = True
        route_sets[key] = RouteSet(net, m, graph.token_cities, ends if not bonuses and not exact_hook else None)

    # ---- candidates per pricing key, best first; classes of identical trains allow a subset
    lists = {}
    classes = {}
    diesel = any(isinstance(n.revenue, dict) and "diesel" in n.revenue for n in nodes)
    for t in trains:
        # a title's own revenue_for may tell trains apart by name: then only same-named trains group
        key = _train_class(t, diesel) + (train_measure[t].key, revenue_key(t) if revenue_key is not None else None)
        classes.setdefault(key + (t.name,) if exact_hook else key, []).append(t)

    def pricing(key, group):
        # trains sharing a pricing list earn the same on every route; a title's own revenue_for and
        # irregular distance tables may depend on the train itself
        if exact_hook or (isinstance(group[0].distance, list) and not simple_table(group[0].distance)):
            return key
        return (key[0],) + key[2:]

    for key, group in classes.items():
        pkey = pricing(key, group)
        if pkey in lists:
            continue
        sample = group[0]
        rs = route_sets[train_measure[sample].key]
        if (isinstance(sample.distance, list) and not simple_table(sample.distance)) or exact_hook:
            priced = []
            for route in rs.routes:
                rev = _priced_route(board, corporation, sample, phase, rs, route, exact_hook)
                if rev is not None and rev > 0:
                    priced.append((rev, route))
        else:
            priced = _price_fast(rs, nodes, sample, phase, bonuses, adjust, getattr(game, "train_stop_bonus", None),
                                 revenue_key(sample) if revenue_key is not None else None)
        priced.sort(key=lambda c: -c[0])
        lists[pkey] = (rs, priced)

    # ---- which candidates each class may run (its own distance), among those that could matter:
    # a greedy choice gives a total no packing can fall below, so a candidate is kept only if it
    # plus the best of every other train could still reach that total.
    def fits(sample, rs, route):
        measure = train_measure[sample]
        if measure.exact:
            return rs.cost(route) <= measure.max_cost
        return _table_ok(board, corporation, sample, phase, rs, route)

    chains = net.chains

    def conflict_mask(route):
        mask, bits = 0, chain_bits(route)
        while bits:
            low = bits & -bits
            mask |= chains[low.bit_length() - 1].conflicts
            bits ^= low
        return mask

    classes_list = []
    for key, group in classes.items():
        pkey = pricing(key, group)
        rs, priced = lists[pkey]
        top = next((rev for rev, route in priced if fits(group[0], rs, route)), None)
        if top is not None:
            classes_list.append((key, pkey, group, top))
    classes_list.sort(key=lambda c: -c[3])

    # a quick packing (each class's best routes that still fit, best classes first) gives a total
    # no packing can fall below
    used = floor = 0
    for _, pkey, group, _ in classes_list:
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
    best_sum = sum(top * len(group) for _, _, group, top in classes_list)
    cut, thresholds = {}, {}
    for key, pkey, group, top in classes_list:
        threshold = thresholds[key] = floor - (best_sum - top)
        cut[pkey] = min(cut.get(pkey, threshold), threshold)
    for pkey, threshold in cut.items():
        rs, priced = lists[pkey]
        keep = len(priced)
        while keep and priced[keep - 1][0] < threshold:
            keep -= 1
        lists[pkey] = (rs, priced[:keep])

    groups = []
    for key, pkey, group, _ in classes_list:
        rs, priced = lists[pkey]
        allowed = []
        threshold = thresholds[key]
        for k, (rev, route) in enumerate(priced):
            if rev < threshold:
                break
            if fits(group[0], rs, route):
                allowed.append(k)
        if allowed:
            groups.append((pkey, group, allowed))
    groups.sort(key=lambda g: -lists[g[0]][1][g[2][0]][0])
    picked = _pack(net, {k: v[1] for k, v in lists.items()}, groups, budget=PACK_BUDGET)

    out = []
    for (pkey, group, _), ks in zip(groups, picked):
        rs, priced = lists[pkey]
        for t, k in zip(group, ks):
            route = priced[k][1]
            out.append(Route(board, corporation, t, phase, rs.chains(route), routes=out))
    for r in out:
        try:
            r.check()
            r.revenue = r.compute_revenue()
        except RouteError as err:  # pragma: no cover - the search only builds legal routes
            r.error = err.reason
    order_index = {t: i for i, t in enumerate(trains)}
    out.sort(key=lambda r: order_index.get(r.train, 0))
    return out


def _price_fast(rs, nodes, train, phase, bonuses, adjust=None, stop_bonus=None, extra_key=None) -> list:
    unpaid = unpaid_kinds(train.distance) if isinstance(train.distance, list) else ()
    key = (train.name.upper() == "D", getattr(train, "multiplier", None) or 1, tuple(sorted(unpaid)), extra_key)
    node_rev = [0 if n.type in unpaid else n.route_revenue(phase, train) for n in nodes]
    if stop_bonus is not None:
        node_rev = [r + (stop_bonus(train, n) if n.type not in unpaid else 0) for r, n in zip(node_rev, nodes)]
    bonus_bits = None
    values = {}
    if bonuses:
        # one bit per (bonus, hex) for per-hex bonuses, one per bonus otherwise
        slots = []
        node_bits = []
        for n in nodes:
            hid = n.tile.hex.id
            bits = 0
            for bi, b in enumerate(bonuses):
                if hid in b.hexes:
                    slot = (bi, hid) if b.per_hex else (bi,)
                    if slot not in slots:
                        slots.append(slot)
                    bits |= 1 << slots.index(slot)
            node_bits.append(bits)
        amounts = [bonuses[s[0]].amount for s in slots]
        bonus_bits = node_bits

        def bonus_value(bits):
            v = values.get(bits)
            if v is None:
                v = 0
                i = 0
                while bits >> i:
                    if bits >> i & 1:
                        v += amounts[i]
                    i += 1
                values[bits] = v
            return v

    for arm in rs.arms:
        if key not in arm.revs:
            arm.revs[key] = sum(node_rev[i] for i in arm.stops)
            if bonus_bits is not None:
                bits = 0
                for i in arm.stops:
                    bits |= bonus_bits[i]
                arm.bonus = bits
    out = []
    for route in rs.routes:
        t, a, b = route
        # A route ending at a stop that earns nothing is no better than the same route stopping
        # short of it (which uses less track): leave it out.
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
                rev += bonus_value(bits)
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


def _pack(net, lists, groups, budget=None) -> list:
    """For each class of identical trains, the indices (into its pricing list) of the routes it runs:
    at most one per train, pairwise without shared track, total revenue maximal."""
    n = len(groups)
    chains = net.chains
    groups = [(pkey, group, bitset(allowed, len(lists[pkey]))) for pkey, group, allowed in groups]
    revs = [[c[0] for c in lists[pkey]] for pkey, _, _ in groups]

    counts = [len(group) for _, group, _ in groups]
    users = {}          # pricing key -> chain bit -> candidates using that chain
    for pkey, _, _ in groups:
        if pkey in users:
            continue
        by_arm = {}
        for k, (_, route) in enumerate(lists[pkey]):
            _, a, b = route
            found = by_arm.get(a)
            if found is None:
                by_arm[a] = [k]
            else:
                found.append(k)
            if b is not None:
                found = by_arm.get(b)
                if found is None:
                    by_arm[b] = [k]
                else:
                    found.append(k)
        per_chain = {}
        for arm, ks in by_arm.items():
            bits = arm.chain_bits
            while bits:
                low = bits & -bits
                per_chain.setdefault(low, []).extend(ks)
                bits ^= low
        users[pkey] = {low: bitset(ks, len(lists[pkey])) for low, ks in per_chain.items()}
    forbid_cache = {}

    def arm_conflicts(pkey, arm):
        """Candidates (of ``pkey``'s list) sharing track with the arm (cached: arms recur in many
        routes)."""
        key = (pkey, id(arm))
        found = forbid_cache.get(key)
        if found is None:
            forbidden = 0
            bits = arm.chain_bits
            while bits:
                low = bits & -bits
                forbidden |= chains[low.bit_length() - 1].conflicts
                bits ^= low
            index = users[pkey]
            found = 0
            while forbidden:
                low = forbidden & -forbidden
                found |= index.get(low, 0)
                forbidden ^= low
            forbid_cache[key] = found
        return found

    def conflicts(pkey, route):
        """Candidates (of ``pkey``'s list) sharing track with ``route``."""
        _, a, b = route
        found = arm_conflicts(pkey, a)
        return found if b is None else found | arm_conflicts(pkey, b)

    def top(h, avail, r):
        total = 0
        rv = revs[h]
        while avail and r:
            low = avail & -avail
            total += rv[low.bit_length() - 1]
            avail ^= low
            r -= 1
        return total

    best_total = [0]
    best_pick = [[[] for _ in groups]]
    spent = [0]         # candidates tried; past ``budget`` the best packing found so far stands
    picks = [[] for _ in groups]

    def greedy(first=None):
        """Each class in turn takes its best candidates still compatible (``first``: (class,
        candidate) taken before anything else)."""
        avail = [allowed for _, _, allowed in groups]
        chosen = [[] for _ in groups]
        total = 0

        def take(g, k):
            nonlocal total
            route = lists[groups[g][0]][k][1]
            for h in range(n):
                avail[h] &= ~conflicts(groups[h][0], route)
            avail[g] &= ~(1 << k)
            chosen[g].append(k)
            total += revs[g][k]

        if first is not None:
            take(*first)
        for g in range(n):
            while len(chosen[g]) < counts[g] and avail[g]:
                take(g, (avail[g] & -avail[g]).bit_length() - 1)
        if total > best_total[0]:
            best_total[0] = total
            best_pick[0] = [sorted(c) for c in chosen]

    if n:
        greedy()
        if sum(counts) > 1:
            # the same with each class's leading candidates forced first: a much better start when
            # the very best routes of different trains get in each other's way
            for g in range(n):
                mine, tried = groups[g][2], 0
                while mine and tried < ANCHORS:
                    low = mine & -mine
                    greedy((g, low.bit_length() - 1))
                    mine ^= low
                    tried += 1

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
        pkey = groups[g][0]
        mine = avail[g]
        if g == n - 1 and r == 1:
            # the last train to place takes the best candidate still available
            low = mine & -mine
            k = low.bit_length() - 1
            if total + rv[k] > best_total[0]:
                picks[g].append(k)
                best_total[0] = total + rv[k]
                best_pick[0] = [list(p) for p in picks]
                picks[g].pop()
            return
        # one train left after this one: its best completion is read off directly
        if r == 2 and g == n - 1:
            last = g
        elif r == 1 and g == n - 2 and counts[n - 1] == 1:
            last = n - 1
        else:
            last = None
        while mine:
            if budget is not None and spent[0] >= budget:
                return
            spent[0] += 1
            low = mine & -mine
            k = low.bit_length() - 1
            rev = rv[k]
            if total + rev * r + rest <= best_total[0]:
                break
            mine ^= low
            route = lists[pkey][k][1]
            if last is not None:
                av = avail[last] & ~conflicts(groups[last][0], route)
                if last == g:
                    av &= ~((low << 1) - 1)
                base = total + rev
                if av:
                    low2 = av & -av
                    k2 = low2.bit_length() - 1
                    if base + revs[last][k2] > best_total[0]:
                        picks[g].append(k)
                        picks[last].append(k2)
                        best_total[0] = base + revs[last][k2]
                        best_pick[0] = [list(p) for p in picks]
                        picks[last].pop()
                        picks[g].pop()
                elif base > best_total[0]:
                    picks[g].append(k)
                    best_total[0] = base
                    best_pick[0] = [list(p) for p in picks]
                    picks[g].pop()
                continue
            nxt = list(avail)
            for h in range(g, n):
                nxt[h] &= ~conflicts(groups[h][0], route)
            nxt[g] &= ~((low << 1) - 1)
            picks[g].append(k)
            search(g, r - 1, nxt, total + rev)
            picks[g].pop()
        # the class's remaining trains run nothing
        if total + rest > best_total[0]:
            search(g + 1, counts[g + 1] if g + 1 < n else 0, avail, total)

    if n:
        search(0, counts[0], [allowed for _, _, allowed in groups], 0)
    return best_pick[0]
