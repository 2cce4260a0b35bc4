"""1822's best routes: the generic route enumeration (engine.board.search.RouteSet) priced by 1822's
rules, plus what the generic search does not know:

* local L trains run within one token city (or a token city and a town), each token city serving one
  local train;
* Pullman-coupled "+" trains visit towns for free;
* E trains pay only the corporation's token cities (doubled) and run between token cities; they may
  share track with the other trains, so the best E route is searched on its own (depth first, stopped
  once it holds every token city);
* the destination bonus goes to one route only: every route that earns it is also offered in a
  "with bonus" version, and a set holds at most one such version;
* track keys include towns left by an edge other than the one they are drawn at, and the two tracks
  joining Merthyr Tydfil and Pontypool count as one.

The packer picks at most one route per train, pairwise without shared keys, maximising the total
(branch and bound over per-class candidate lists sorted by revenue)."""

from __future__ import annotations

from ...board.search import RouteSet, finish_routes, route_network
from . import routes as R

E_MAX = 99


def best_routes(game, corporation) -> list:
    trains = game.route_trains(corporation)
    if not trains:
        return []
    board, phase = game.board, game.phase
    ctx = _Context(game, corporation)
    e_trains = [t for t in trains if game.train_type(t) == "etrain"]
    normal = [t for t in trains if t not in e_trains]
    picks = _best_normal(ctx, normal)            # {with_bonus: (total, [(train, chains)])}
    e = _best_e(ctx, e_trains[0]) if e_trains else {False: (0, None), True: None}
    best_total, best = -1, []
    for normal_bonus, e_bonus in ((False, False), (True, False), (False, True)):
        n, er = picks.get(normal_bonus), e.get(e_bonus)
        if n is None or er is None or n[0] + er[0] <= best_total:
            continue
        best_total = n[0] + er[0]
        best = list(n[1]) + ([(e_trains[0], er[1])] if er[1] is not None else [])
    return [r for r in finish_routes(board, corporation, phase, trains, best) if r.error is None]


class _Context:
    """What the search needs to know about the corporation, and the keys routes may not share."""

    def __init__(self, game, corporation):
        self.game = game
        self.corporation = corporation
        self.phase = game.phase
        facts = game.facts
        self.channel = facts["english_channel_hex"]
        self.france = facts["france_hex"]
        self.double = set(facts["double_hexes"])
        self.merthyr = facts["merthyr_pontypool_hex"]
        self.bits = {}
        self.home = self.destination = None
        if corporation.type == "major":
            dest = next((t for t in corporation.tokens if t.used and t.type == "destination"), None)
            if dest is not None:
                self.home, self.destination = corporation.tokens[0], dest

    def bit(self, key) -> int:
        b = self.bits.get(key)
        if b is None:
            b = self.bits[key] = 1 << len(self.bits)
        return b

    def bonus_value(self, train) -> int:
        return self.destination.city.route_revenue(self.phase, train) if self.destination is not None else 0

    def network(self, rs):
        return _Net(self, rs)


class _Net:
    """Per-node and per-chain facts of one enumeration's network."""

    def __init__(self, ctx, rs):
        self.rs = rs
        nodes = self.nodes = rs.net.nodes
        corp = ctx.corporation
        self.hex = [n.tile.hex for n in nodes]
        self.double = [h.id in ctx.double for h in self.hex]
        self.channel = [h.id in (ctx.channel, ctx.france) for h in self.hex]
        self.bonus = [1 if ctx.home is not None and n.is_city and any(
            t is ctx.home or t is ctx.destination for t in n.tokens if t is not None) else 0 for n in nodes]
        self.tokened = [n.is_city and n.tokened_by(corp) for n in nodes]
        self._arms = {}
        self.chain_mask = []
        self.chain_merthyr = []
        self.chain_ok = []
        merthyr_bit = self.merthyr_bit = ctx.bit("merthyr")
        for chain in rs.net.chains:
            mask, ok, merthyr = 0, True, set()
            for path in chain.paths:
                hex_ = path.tile.hex
                keys = [(hex_.id, e, path.exit_lanes[e][1]) for e in path.edges]
                for end, other, lane in ((path.a, path.b, path.lanes[0][1]), (path.b, path.a, path.lanes[1][1])):
                    if isinstance(other, int) and getattr(end, "is_town", False):
                        preferred = _preferred(ctx, path.tile).get(end)
                        if preferred is not None and preferred != other:
                            keys.append((hex_.id, end, lane))
                if len(path.nodes) > 1:
                    keys.append((hex_.id, "p", path.index))
                for key in keys:
                    b = ctx.bit(key)
                    ok = ok and not mask & b
                    mask |= b
                if hex_.id == ctx.merthyr:
                    merthyr.update(path.edges)
            flags = (1 if 1 in merthyr else 0) | (2 if 2 in merthyr else 0)
            self.chain_mask.append(mask | (merthyr_bit if flags else 0))
            self.chain_merthyr.append(flags)
            self.chain_ok.append(ok)

    def arm(self, arm, t):
        """Facts of one arm (from token node t): ok, keys mask, Merthyr flags, hexes (in order, t's
        first, consecutive repeats merged), any double hex, channel visits, bonus cities, revenue
        cache."""
        info = self._arms.get(id(arm))
        if info is None:
            mask = merthyr = 0
            ok = True
            shared = ~self.merthyr_bit
            for chain, _ in arm.steps:
                c = chain.index
                m = self.chain_mask[c]
                ok = ok and self.chain_ok[c] and not mask & m & shared
                merthyr |= self.chain_merthyr[c]
                mask |= m
            ok = ok and merthyr != 3
            seq = [self.hex[t]]
            for i in arm.stops:
                if self.hex[i] is not seq[-1]:
                    seq.append(self.hex[i])
            info = self._arms[id(arm)] = [ok, mask, merthyr, seq, set(seq),
                                          any(self.double[i] for i in arm.stops),
                                          sum(1 for i in arm.stops if self.channel[i]),
                                          sum(self.bonus[i] for i in arm.stops), {}]
        return info

    def facts(self, route):
        """(keys mask, channel visits, earns the bonus) of an enumerated route, or None when no train
        may run it."""
        t, a, b = route
        ia = self.arm(a, t)
        if not ia[0]:
            return None
        if b is None:
            dup = len(ia[4]) != len(ia[3])
            mask, double = ia[1], ia[5]
            channel, bonus = ia[6], ia[7]
        else:
            ib = self.arm(b, t)
            if not ib[0] or ia[1] & ib[1] & ~self.merthyr_bit or (ia[2] | ib[2]) == 3:
                return None
            dup = len(ia[4] | ib[4]) != len(ia[3]) + len(ib[3]) - 1
            mask, double = ia[1] | ib[1], ia[5] or ib[5]
            channel, bonus = ia[6] + ib[6], ia[7] + ib[7]
        if dup and not (double or self.double[t]):
            return None
        return mask, channel + self.channel[t], bonus + self.bonus[t] == 2

    def revenue(self, route, key, revs) -> int:
        t, a, b = route
        total = revs[t]
        for arm in (a, b) if b is not None else (a,):
            cache = self.arm(arm, t)[8]
            r = cache.get(key)
            if r is None:
                r = cache[key] = sum(revs[i] for i in arm.stops)
            total += r
        return total

    def describe(self, stops, chains):
        """(keys mask, channel visits, earns the bonus) of a route (stop indices, chain indices), or
        None when no train may run it (shared keys, the same hex twice, both Merthyr tracks)."""
        mask = merthyr = 0
        chain_mask, chain_merthyr, chain_ok = self.chain_mask, self.chain_merthyr, self.chain_ok
        shared = ~self.merthyr_bit     # the Merthyr key may be held by several chains of one route
        for c in chains:
            if not chain_ok[c]:
                return None
            merthyr |= chain_merthyr[c]
            if merthyr == 3:
                return None
            m = chain_mask[c]
            if mask & m & shared:
                return None
            mask |= m
        hexes = self.hex
        seen = []
        last = None
        for i in stops:
            h = hexes[i]
            if h is not last:
                seen.append(h)
                last = h
        if len(seen) != len(set(seen)) and not any(self.double[i] for i in stops):
            return None
        channel = sum(1 for i in stops if self.channel[i])
        bonus = sum(self.bonus[i] for i in stops) == 2
        return mask, channel, bonus


def _preferred(ctx, tile):
    cache = ctx.__dict__.setdefault("_preferred", {})
    key = (id(tile), tile.rotation)
    found = cache.get(key)
    if found is None:
        found = cache[key] = R.preferred_city_town_edges(tile)
    return found


# ====================================================================== the trains other than E
def _route_set(game, corp, max_cost, free_towns=False):
    """Every route up to ``max_cost`` (towns visited for free with ``free_towns``)."""
    net = route_network(game.board, corp)
    if free_towns:
        net.visit = [0 if n.is_town else v for n, v in zip(net.nodes, net.visit)]
    return RouteSet(net, max_cost)


def _free_towns(train) -> bool:
    d = train.distance
    return isinstance(d, list) and any("town" in r["nodes"] and r.get("visit", r["pay"]) >= E_MAX for r in d)


def _budget(train) -> int:
    d = train.distance
    if not isinstance(d, list):
        return d
    if _free_towns(train):
        return sum(r.get("visit", r["pay"]) for r in d if "town" not in r["nodes"])
    return sum(r.get("visit", r["pay"]) for r in d)


def _fitter(train, nodes):
    """A test of whether the train may run a route (stop indices, channel visits): distance and the
    English Channel. Distance tables whose node types each belong to one row are counted per row;
    other tables are checked stop by stop."""
    local = train.local
    d = train.distance

    def channel_ok(stops, channel):
        return not channel or not (local or channel == 1 or (channel == 2 and len(stops) == 2))

    if not isinstance(d, list):
        cost = [n.visit_cost for n in nodes]
        return lambda stops, channel: channel_ok(stops, channel) and sum(cost[i] for i in stops) <= d
    row_of = {}
    for k, row in enumerate(d):
        for kind in row["nodes"]:
            row_of.setdefault(kind, []).append(k)
    if all(len(v) == 1 for v in row_of.values()):
        caps = [(row.get("visit", row["pay"]), row["pay"]) for row in d]
        index = [row_of[n.type][0] if n.type in row_of else -1 for n in nodes]
        cost = [n.visit_cost for n in nodes]

        def fits(stops, channel):
            if not channel_ok(stops, channel):
                return False
            used = [0] * len(caps)
            count = [0] * len(caps)
            for i in stops:
                k = index[i]
                if k < 0:
                    return False
                used[k] += cost[i]
                count[k] += 1
            return all(u <= cap[0] and c <= cap[1] for u, c, cap in zip(used, count, caps))
        return fits

    def fits_any(stops, channel):
        if not channel_ok(stops, channel):
            return False
        room = {}
        for row in d:
            for kind in row["nodes"]:
                room.setdefault(kind, []).append([row.get("visit", row["pay"]), row["pay"]])
        for i in stops:
            n = nodes[i]
            for row in room.get(n.type, ()):
                if row[0] >= n.visit_cost and row[1] > 0:
                    row[0] -= n.visit_cost
                    row[1] -= 1
                    break
            else:
                return False
        return True
    return fits_any


def _candidates(ctx, trains):
    """Per class of identical trains: (trains, [(revenue, keys mask, (net, route))] best first)."""
    game, corp = ctx.game, ctx.corporation
    nets = []
    std = [t for t in trains if not _free_towns(t)]
    free = [t for t in trains if _free_towns(t)]
    if std:
        nets.append((False, ctx.network(_route_set(game, corp, max(_budget(t) for t in std)))))
    if free:
        nets.append((True, ctx.network(_route_set(game, corp, max(_budget(t) for t in free), free_towns=True))))
    described = []
    for free_towns, net in nets:
        for route in net.rs.routes:
            facts = net.facts(route)
            if facts is not None:
                described.append((free_towns, net, route) + facts)
    classes = {}
    for t in trains:
        classes.setdefault((t.name, str(t.distance), t.multiplier), []).append(t)
    out = []
    for key, group in classes.items():
        train = group[0]
        free_towns = _free_towns(train)
        numeric = not isinstance(train.distance, list)
        budget = _budget(train)
        revenue_of = {}
        cands = []
        local = train.local
        bonus_value = ctx.bonus_value(train)
        for ft, net, route, mask, channel, bonus in described:
            if ft != free_towns:
                continue
            known = revenue_of.get(id(net))
            if known is None:
                known = revenue_of[id(net)] = ([n.route_revenue(ctx.phase, train) for n in net.nodes],
                                               _fitter(train, net.nodes))
            revs, fits = known
            if numeric or free_towns:
                # the enumeration counts what the train counts (towns are free for "+" trains)
                if net.rs.cost(route) > budget or (channel and (
                        local or channel == 1 or (channel == 2 and len(net.rs.stop_indices(route)) == 2))):
                    continue
                stops = None
            else:
                stops = net.rs.stop_indices(route)
                if not fits(stops, channel):
                    continue
            revenue = net.revenue(route, key, revs)
            if revenue <= 0:
                continue
            if local:
                for i in stops if stops is not None else net.rs.stop_indices(route):
                    if net.nodes[i].is_city:
                        mask |= ctx.bit(("local", net.nodes[i]))
            cands.append((revenue, mask, (net, route)))
            if bonus:
                cands.append((revenue + bonus_value, mask | ctx.bit("bonus"), (net, route)))
        if train.local:
            for city in game.board.graph(corp).token_cities:
                revenue = city.route_revenue(ctx.phase, train)
                if city.is_city and revenue > 0:
                    cands.append((revenue, ctx.bit(("local", city)), (None, city)))
        cands.sort(key=lambda c: -c[0])
        out.append((group, cands))
    return out


def _chains(payload) -> list:
    net, route = payload
    if net is None:
        return [(route, route, ())]      # a local train within one city
    return net.rs.chains(route)


def _best_normal(ctx, trains) -> dict:
    """{False: best set without the destination bonus, True: best set whose one route earns it}, each
    (total, [(train, chains)]); True is absent when no set earns it."""
    if not trains:
        return {False: (0, [])}
    classes = _candidates(ctx, trains)
    out = {}
    bonus_bit = ctx.bits.get("bonus", 0)
    for with_bonus in (False, True):
        if with_bonus and not bonus_bit:
            continue
        lists = [(group, [c for c in cands if with_bonus or not c[1] & bonus_bit]) for group, cands in classes]
        total, picks = _pack(lists, bonus_bit if with_bonus else 0)
        if total is not None:
            out[with_bonus] = (total, [(t, _chains(p)) for t, p in picks])
    return out


def _pack(lists, required):
    """At most one candidate per train (identical trains take increasing indices), pairwise disjoint
    masks, using every bit of ``required``; the best total and its picks [(train, payload)]."""
    n = len(lists)
    best = [None, []]
    picks = []

    def top(i, used, r):
        total = 0
        for rev, mask, _ in lists[i][1]:
            if r == 0:
                break
            if not mask & used:
                total += rev
                r -= 1
        return total

    def search(i, start, r, used, total):
        if i == n:
            if (used & required) == required and (best[0] is None or total > best[0]):
                best[0] = total
                best[1] = list(picks)
            return
        group, cands = lists[i]
        following = len(lists[i + 1][0]) if i + 1 < n else 0
        if r == 0 or start >= len(cands):
            search(i + 1, 0, following, used, total)
            return
        rest = sum(top(j, used, len(lists[j][0])) for j in range(i + 1, n))
        if best[0] is not None and total + top(i, used, r) + rest <= best[0]:
            return
        for k in range(start, len(cands)):
            rev, mask, payload = cands[k]
            if best[0] is not None and total + rev * r + rest <= best[0]:
                break
            if mask & used:
                continue
            picks.append((group[len(group) - r], payload))
            search(i, k + 1, r - 1, used | mask, total + rev)
            picks.pop()
        search(i + 1, 0, following, used, total)   # the class's remaining trains run nothing

    if n:
        search(0, 0, len(lists[0][0]), 0, 0)
    return best[0], best[1]


# ====================================================================== the E train
def _best_e(ctx, train) -> dict:
    """{False: (revenue, chains) of the best E route, True: the best earning the destination bonus
    (revenue with the bonus)}; (0, None) when the train runs nothing."""
    game, corp = ctx.game, ctx.corporation
    net = ctx.network(_route_set(game, corp, 0))
    rs = net.rs
    nodes = rs.net.nodes
    phase = ctx.phase
    tokened = net.tokened
    blocked = [n.blocks(corp) and not tokened[i] for i, n in enumerate(nodes)]
    france = next((i for i, n in enumerate(nodes) if n.is_offboard and net.hex[i].id == ctx.france), None)
    channel_city = [net.hex[i].id == ctx.channel for i in range(len(nodes))]
    value = []
    for i, n in enumerate(nodes):
        if not tokened[i]:
            value.append(0)
        elif channel_city[i]:
            value.append(nodes[france].route_revenue(phase, train) if france is not None else 0)
        else:
            value.append(n.route_revenue(phase, train))
    channel_tokened = any(tokened[i] and channel_city[i] for i in range(len(nodes)))
    best = {False: (0, None), True: None}
    bonus_value = ctx.bonus_value(train) if ctx.home is not None else 0
    starts = [i for i in range(len(nodes)) if tokened[i]]
    all_value = sum(value[i] for i in starts)
    groups = [tuple(n.groups) for n in nodes]
    adj = rs.net.adj

    def consider(stops, chains):
        ends = tokened[stops[0]] + tokened[stops[-1]]
        if ends == 0 or (ends == 1 and not channel_tokened):
            return
        if sum(1 for i in stops if tokened[i]) < 2:
            return
        facts = net.describe(stops, [c.index for c, _ in chains])
        if facts is None:
            return
        _, channel, bonus = facts
        if channel and (channel == 1 or (channel == 2 and len(stops) == 2)):
            return
        if ends == 1 and channel != 2:
            return
        paths = [p for c, fwd in chains for p in (c.paths if fwd else reversed(c.paths))]
        if len(paths) >= 3 and any(p.terminal for p in paths[1:-1]):
            return
        revenue = sum(value[i] for i in stops)
        if france not in stops:
            revenue -= sum(value[i] for i in stops if channel_city[i])
        if revenue > best[False][0]:
            best[False] = (revenue, list(chains))
        if bonus and (best[True] is None or revenue + bonus_value > best[True][0]):
            best[True] = (revenue + bonus_value, list(chains))

    def done() -> bool:
        # nothing beats a route through every token city
        return best[False][0] >= all_value and (ctx.home is None or (
            best[True] is not None and best[True][0] >= all_value + bonus_value))

    def reachable_value(at, visited, used) -> int:
        """The token cities' value still reachable from ``at`` without reusing stops or track."""
        seen = visited
        stack = [at]
        total = 0
        while stack:
            node = stack.pop()
            for chain, other in adj[node]:
                if seen >> other & 1 or used & chain.mask:
                    continue
                seen |= 1 << other
                total += value[other]
                if not blocked[other]:
                    stack.append(other)
        return total

    def worth_going(at, earned, visited, used) -> bool:
        if best[False][1] is None:
            return True
        upper = earned + reachable_value(at, visited, used)
        if upper > best[False][0]:
            return True
        return ctx.home is not None and (best[True] is None or upper + bonus_value > best[True][0])

    def grow(at, stops, chains, visited, used, grp, earned=0):
        if not worth_going(at, earned, visited, used):
            return
        for chain, other in adj[at]:
            if done():
                return
            if visited >> other & 1 or used & chain.mask:
                continue
            g = groups[other]
            if g and any(x in grp for x in g):
                continue
            stops.append(other)
            chains.append((chain, chain.u == at))
            consider(stops, chains)
            if not blocked[other] and len(stops) <= E_MAX:
                grow(other, stops, chains, visited | (1 << other), used | chain.mask, grp + g,
                     earned + value[other])
            chains.pop()
            stops.pop()

    for s in starts:
        if done():
            break
        grow(s, [s], [], 1 << s, 0, groups[s], value[s])
    out = {}
    for key, found in best.items():
        if found is None:
            out[key] = None
            continue
        revenue, chains = found
        if chains is None:
            out[key] = (0, None)
            continue
        oriented = []
        for chain, forward in chains:
            u, v = (chain.u, chain.v) if forward else (chain.v, chain.u)
            oriented.append((nodes[u], nodes[v], chain.paths if forward else tuple(reversed(chain.paths))))
        out[key] = (revenue, oriented)
    return out
