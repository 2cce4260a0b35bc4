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
(``[{nodes, pay, visit}]``) whose paying stops follow from their types alone (every row pays all the
stops it visits, or none; e.g. 3+3 or 6E trains) are priced like numbered trains, their legality
checked from the number of stops of each type; other tables go through the route's own stop selection.
"""

from __future__ import annotations

from types import SimpleNamespace

from .parts import chains_from
from .routes import Route, RouteError, _revenue, check_distance, compute_stops


class _Chain:
    __slots__ = ("u", "v", "paths", "mask", "n", "t_first", "t_last", "t_mid", "index", "conflicts")

    def __init__(self, u, v, paths, mask, index):
        self.u = u
        self.v = v
        self.paths = paths
        self.mask = mask
        self.n = len(paths)
        self.t_first = bool(paths[0].terminal)
        self.t_last = bool(paths[-1].terminal)
        self.t_mid = any(p.terminal for p in paths[1:-1])
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
                 "inner_alone", "first", "revs", "bonus", "children", "kinds")

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
        self.kinds = None       # visit cost per stop type (distance tables)


class RouteSet:
    """Every legal route of a corporation up to a number of stops: ``routes`` holds (token node index,
    arm, second arm or None)."""

    def __init__(self, board, corporation, max_cost):
        graph = board.graph(corporation)
        net = self.net = _Network(board, corporation, graph)
        nodes = net.nodes
        corp = corporation
        self.visit = visit = [n.visit_cost for n in nodes]
        blocked = [n.blocks(corp) and not n.tokened_by(corp) for n in nodes]
        group_bits = {}
        groups = []
        for n in nodes:
            g = 0
            for name in n.groups:
                if name not in group_bits:
                    group_bits[name] = 1 << len(group_bits)
                g |= group_bits[name]
            groups.append(g)
        self.routes = []
        self.arms = []
        forbidden = 0
        for t in [net.node_index[c] for c in graph.token_cities if c in net.node_index]:
            tbit = 1 << t
            arms = []

            def grow(at, stops, steps, cbits, mask, vis, grp, cost, k, inner, inner_alone, first, last_term, into):
                for chain, other in net.adj[at]:
                    obit = 1 << other
                    if vis & obit or mask & chain.mask or groups[other] & grp:
                        continue
                    ncost = cost + visit[other]
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
            for a in arms:
                routes.append((t, a, None))
            # two arms joined at T: walk the tree of arms, dropping a whole subtree as soon as its
            # root clashes with the first arm (clashes only grow along an arm)
            shared = tbit | forbidden
            tgroups = ~groups[t]
            tcost = visit[t]
            for a in arms:
                if a.inner:                 # its inner terminal path would sit inside the joined route
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

    def chain_bits(self, route) -> int:
        t, a, b = route
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


def _max_cost(trains):
    best = 0
    for t in trains:
        d = t.distance
        best = max(best, sum(r.get("visit", r["pay"]) for r in d) if isinstance(d, list) else d)
    return best


def enumerate_routes(board, corporation, max_cost) -> RouteSet:
    return RouteSet(board, corporation, max_cost)


def best_routes(board, corporation, trains, phase):
    """The most paying set of routes for ``trains`` (default: the corporation's runnable trains), as
    validated ``Route`` objects (trains without a route are left out)."""
    if trains is None:
        runnable = getattr(corporation, "runnable_trains", None)
        trains = runnable() if runnable is not None else list(getattr(corporation, "trains", ()))
    trains = list(trains)
    if not trains:
        return []
    rs = RouteSet(board, corporation, _max_cost(trains))
    if not rs.routes:
        return []
    game = board.game
    exact_hook = getattr(game, "revenue_for", None) is not None and getattr(game, "route_bonuses", None) is None
    bonuses = [] if exact_hook else board.route_bonuses(corporation)
    nodes = rs.net.nodes

    # ---- candidates per pricing key, best first; classes of identical trains allow a subset
    lists = {}
    classes = {}
    diesel = any(isinstance(n.revenue, dict) and "diesel" in n.revenue for n in nodes)
    for t in trains:
        # a title's own revenue_for may tell trains apart by name: then only same-named trains group
        key = _train_class(t, diesel)
        classes.setdefault(key + (t.name,) if exact_hook else key, []).append(t)
    def pricing(key, group):
        # trains sharing a pricing list earn the same on every route; a title's own revenue_for and
        # distance tables may depend on the train itself
        if exact_hook or isinstance(group[0].distance, list):
            return key
        return key[0]

    for key, group in classes.items():
        pkey = pricing(key, group)
        if pkey in lists:
            continue
        sample = group[0]
        table = None if exact_hook else _typed_table(sample)
        if table is not None:
            priced = _price_fast(rs, nodes, sample, phase, bonuses, table)
        elif isinstance(sample.distance, list) or exact_hook:
            priced = []
            for route in rs.routes:
                rev = _priced_route(board, corporation, sample, phase, rs, route, exact_hook)
                if rev is not None and rev > 0:
                    priced.append((rev, route))
        else:
            priced = _price_fast(rs, nodes, sample, phase, bonuses)
        priced.sort(key=lambda c: -c[0])
        lists[pkey] = priced

    groups = []
    for key, group in classes.items():
        pkey, dist = pricing(key, group), key[1]
        priced = lists[pkey]
        allowed = 0
        if isinstance(dist, tuple):
            sample = group[0]
            if not exact_hook and _typed_table(sample) is not None:
                allowed = (1 << len(priced)) - 1      # priced only where the table allows the route
            for k, (_, route) in enumerate(priced if not allowed else ()):
                if _table_ok(board, corporation, sample, phase, rs, route):
                    allowed |= 1 << k
        else:
            for k, (_, route) in enumerate(priced):
                if rs.cost(route) <= dist:
                    allowed |= 1 << k
        if allowed:
            groups.append((pkey, group, allowed))
    groups.sort(key=lambda g: -lists[g[0]][(g[2] & -g[2]).bit_length() - 1][0])
    picked = _pack(rs, lists, groups)

    out = []
    for (pkey, group, _), ks in zip(groups, picked):
        for t, k in zip(group, ks):
            route = lists[pkey][k][1]
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


def _typed_table(train):
    """For a distance table whose paying stops follow from their types (each row pays every stop it
    visits, or none, a type's rows all pay or none do, no multipliers, no token requirement): (paying
    types, rows as (types, visits)); else None."""
    distance = train.distance
    if not isinstance(distance, list) or getattr(train, "requires_token", False):
        return None
    paying, unpaid, rows = set(), set(), []
    for row in distance:
        pay, visit = int(row["pay"]), int(row.get("visit", row["pay"]))
        if row.get("multiplier") or pay not in (0, visit):
            return None
        (paying if pay else unpaid).update(row["nodes"])
        rows.append((tuple(row["nodes"]), visit))
    if paying & unpaid:
        return None
    return frozenset(paying), tuple(rows)


def _kinds(rs, route) -> dict:
    """Visit cost per stop type of a route (cached per arm)."""
    t, a, b = route
    nodes = rs.net.nodes
    out = {nodes[t].type: rs.visit[t]}
    for arm in (a, b):
        if arm is None:
            continue
        if arm.kinds is None:
            kinds = {}
            for i in arm.stops:
                kinds[nodes[i].type] = kinds.get(nodes[i].type, 0) + rs.visit[i]
            arm.kinds = kinds
        for kind, n in arm.kinds.items():
            out[kind] = out.get(kind, 0) + n
    return out


def _kinds_fit(rows, kinds) -> bool:
    """The generic distance check on counts: types accepted by fewer rows take their places first."""
    left = [visit for _, visit in rows]
    for kind, num in sorted(kinds.items(), key=lambda kv: sum(1 for nodes, _ in rows if kv[0] in nodes)):
        for i, (types, _) in enumerate(rows):
            if kind not in types or left[i] <= 0:
                continue
            used = min(num, left[i])
            left[i] -= used
            num -= used
            if num <= 0:
                break
        if num > 0:
            return False
    return True


def _price_fast(rs, nodes, train, phase, bonuses, table=None) -> list:
    key = (train.name.upper() == "D", getattr(train, "multiplier", None) or 1)
    node_rev = [n.route_revenue(phase, train) for n in nodes]
    pays = None
    if table is not None:
        paying, rows = table
        key += (paying,)
        pays = [n.type in paying for n in nodes]
        node_rev = [r if p else 0 for r, p in zip(node_rev, pays)]
    bonus_bits = None
    values = {}
    bonuses = [b for b in bonuses if b.applies_to(train)]
    if bonuses:
        # one bit per (bonus, hex) for per-hex bonuses, one per side of a pair bonus, one per bonus
        # otherwise; a bonus is then valued from the bits of the stops a route holds
        slots = []

        def slot_bit(slot):
            if slot not in slots:
                slots.append(slot)
            return 1 << slots.index(slot)

        node_bits = []
        for ni, n in enumerate(nodes):
            hid = n.tile.hex.id
            bits = 0
            for bi, b in enumerate(bonuses if pays is None or pays[ni] else ()):
                if hid in b.hexes:
                    bits |= slot_bit((bi, hid) if b.per_hex else (bi,))
                if hid in b.partner_hexes:
                    bits |= slot_bit((bi, "partner"))
            node_bits.append(bits)
        masks = []
        for bi, b in enumerate(bonuses):
            own = sum(1 << k for k, s in enumerate(slots) if s[0] == bi and s[-1] != "partner")
            partner = sum(1 << k for k, s in enumerate(slots) if s[0] == bi and s[-1] == "partner")
            masks.append((b, own, partner))
        bonus_bits = node_bits

        def bonus_value(bits):
            v = values.get(bits)
            if v is None:
                v = 0
                for b, own, partner in masks:
                    hit = bits & own
                    if not hit:
                        continue
                    if b.partner_hexes:
                        v += b.amount if bits & partner else 0
                    elif b.per_hex:
                        v += b.amount * bin(hit).count("1")
                    else:
                        v += b.amount
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
        if table is not None and not _kinds_fit(table[1], _kinds(rs, route)):
            continue
        rev = node_rev[t] + a.revs[key]
        if b is not None:
            rev += b.revs[key]
        if bonus_bits is not None:
            bits = bonus_bits[t] | a.bonus | (b.bonus if b is not None else 0)
            if bits:
                rev += bonus_value(bits)
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


def _pack(rs, lists, groups) -> list:
    """For each class of identical trains, the indices (into its pricing list) of the routes it runs:
    at most one per train, pairwise without shared track, total revenue maximal."""
    n = len(groups)
    chains = rs.net.chains
    revs = [[c[0] for c in lists[pkey]] for pkey, _, _ in groups]
    counts = [len(group) for _, group, _ in groups]
    users = {}          # pricing key -> chain bit -> candidates using that chain
    for pkey, _, _ in groups:
        if pkey in users:
            continue
        by_arm = {}
        for k, (_, route) in enumerate(lists[pkey]):
            flag = 1 << k
            _, a, b = route
            by_arm[a] = by_arm.get(a, 0) | flag
            if b is not None:
                by_arm[b] = by_arm.get(b, 0) | flag
        index = {}
        for arm, flags in by_arm.items():
            bits = arm.chain_bits
            while bits:
                low = bits & -bits
                index[low] = index.get(low, 0) | flags
                bits ^= low
        users[pkey] = index
    forbid_cache = {}

    def conflicts(pkey, route):
        """Candidates (of ``pkey``'s list) sharing track with ``route``."""
        found = forbid_cache.get((pkey, id(route)))
        if found is None:
            forbidden = 0
            bits = rs.chain_bits(route)
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
            forbid_cache[(pkey, id(route))] = found
        return found

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
    picks = [[] for _ in groups]

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
        while mine:
            low = mine & -mine
            k = low.bit_length() - 1
            rev = rv[k]
            if total + rev * r + rest <= best_total[0]:
                break
            mine ^= low
            route = lists[pkey][k][1]
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
