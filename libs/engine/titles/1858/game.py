"""1858: The Railways of Iberia.

What differs from the common rules:

* Private railways are a company (the certificate a player owns) and a minor (the railway that lays
  track from its home hexes) with the same id. They are auctioned one at a time inside stock rounds
  (the first batch from the start, the second from phase 3); quick-start games deal them in packets
  at set-up instead and begin with an operating round.
* A public company is started by exchanging a private railway for its president's certificate (from
  phase 5 also by buying it); a private may later be exchanged for a treasury or market share of a
  public company its home reaches. Exchanged privates add their revenue to the company's run and
  close after its first dividend, paying their face value to the treasury.
* 5-share companies convert to 10-share companies (by choice, or all at the first 5E/4M train).
* Broad, metre and dual gauge track: H trains run hexes on broad gauge, M trains count cities on
  metre gauge (towns free), E trains count cities on broad gauge (towns unpaid); wounded (obsolete)
  trains earn half. Networks are traced per gauge.
* Tokens cost by provincial borders crossed; companies issue and redeem shares; the share price moves
  along a single row; a closed company can be started again.
* At the first 5E/4M train a private closure round follows the operating round: each remaining
  private is exchanged for a share or sold to the bank.
"""

from __future__ import annotations

from ...board.parts import own_list
from ...board.routes import check_distance as plain_check_distance
from ...core.entities import sort_corporations
from ...core.shares import Share
from ...errors import GameError
from ...flow.round import StockRound
from ...game import Game
from . import steps as S

BROAD, METRE = ("narrow", True), ("broad", True)   # graph specs: the gauge each network skips


class G1858(Game):
    """The Iberian game; 1858 India subclasses it."""

    # ================================================================== construction
    def corporation_options(self, record):
        opts = super().corporation_options(record)
        if len(self.players) == 2:
            opts["max_ownership_percent"] = 70
        return opts

    def setup(self):
        self.grey_trains_bought = 0
        self.phase4_train_trigger = self._phase4_trigger()
        self.unbuyable_companies = []
        self.closure_reservations = {}   # corporation -> cities whose private's slot it holds (closure round)
        self.setup_unbuyable_privates()
        self.stubs = self.setup_stubs()

    def init_round(self):
        self.private_closure_round = None     # None, "next", "in_progress", "done"
        # Private railways belong to the bank until bought.
        for company in self.companies:
            if self.private_railway(company):
                company.owner = self.bank
        if self.quick_start():
            self.deal_quick_start_packets()
            return self.operating_round(1)
        return self.stock_round()

    def _phase4_trigger(self) -> int:
        value = self.facts["phase4_trains_rust"]
        return value.get(str(len(self.players))) if isinstance(value, dict) else value

    def quick_start(self) -> bool:
        return "quick_start_a" in self.optional_rules or "quick_start_b" in self.optional_rules

    def quick_start_packets(self) -> list:
        key = "quick_start_packets_b" if "quick_start_b" in self.optional_rules else "quick_start_packets_a"
        return self.facts[key][str(len(self.players))]

    def deal_quick_start_packets(self):
        packets = self.rng.shuffle(self.quick_start_packets())
        for player, packet in zip(self.players, packets):
            cost = packet["cost"]
            self.bank_receives(player, cost)
            for sym in packet["companies"]:
                self.purchase_company(player, self.company_by_id(sym), 0)
            self.log.append(f"{player.name} spends {self.fmt(cost)} and buys private companies "
                            f"{', '.join(packet['companies'])}")

    def bank_receives(self, player, amount):
        if amount > 0:
            player.spend(amount, self.bank)

    def setup_unbuyable_privates(self):
        """With two players five yellow and two green private railways cannot be bought."""
        if len(self.players) != 2:
            return
        yellow = [m for m in self.minors if m.color == "yellow"]
        green = [m for m in self.minors if m.color != "yellow"]
        reserved = self.rng.shuffle(yellow)[:5] + self.rng.shuffle(green)[:2]
        self.log.append("These private companies cannot be bought in this game: "
                        f"{', '.join(m.id for m in reserved)}")
        self.unbuyable_companies = [self.private_company(m) for m in reserved]

    def setup_stubs(self) -> dict:
        """Track stubs joining the home hexes of each private railway (a tile laid there must
        connect to them); they go when the railway closes or is taken over. The title data may
        already print them (the reference facts show the map after its set-up): a printed stub is
        claimed rather than doubled, so releasing the railway's stubs leaves none behind."""
        stubs = {}
        claimed = set()
        for minor in self.minors:
            coords = minor.coordinates or []
            if len(coords) < 2:
                continue
            homes = [self.board.hex_by_id(c) for c in coords]
            for hex_ in homes:
                tile = hex_.tile
                if tile.color != "white":
                    continue
                for edge, neighbor in enumerate(hex_.neighbors):
                    if neighbor is None or neighbor not in homes:
                        continue
                    stub = next((s for s in tile.stubs if s["edge"] == edge and id(s) not in claimed), None)
                    if stub is None:
                        stub = {"edge": edge, "track": "future"}
                        own_list(tile, "stubs").append(stub)
                    claimed.add(id(stub))
                    stubs.setdefault(minor, []).append((tile, stub))
        return stubs

    def release_stubs(self, minor):
        for tile, stub in self.stubs.pop(minor, ()):
            tile.stubs[:] = [s for s in tile.stubs if s is not stub]

    # ================================================================== networks
    def graph_specs(self, entity):
        """Two networks: one over broad and dual gauge track, one over metre and dual gauge; both
        start from a private railway's home hexes as if they held its tokens."""
        return (BROAD, METRE)

    def home_hex_nodes(self, entity) -> list:
        """Where a private railway's network starts in each home hex: its cities and towns; in a
        hex of several cities only those its company reserved; plain track counts as a stop of its
        own (so a route can be traced out of it)."""
        from ...board.graph import PathNode
        if not entity.is_minor:
            return []
        company = self.private_company(entity)
        out = []
        for coord in entity.coordinates:
            hex_ = self.board.hex_by_id(coord)
            tile = hex_.tile
            if not tile.city_towns:
                out.extend((hex_, PathNode(p)) for p in tile.paths)
            elif len(tile.cities) > 1:
                out.extend((hex_, c) for c in tile.cities if c.reserved_by(company))
            else:
                out.extend((hex_, ct) for ct in tile.city_towns)
        return out

    def home_hex(self, operator, hex_, gauge=None) -> bool:
        coords = operator.coordinates or []
        return hex_.id in (coords if isinstance(coords, list) else [coords])

    def corporation_private_connected(self, corporation, minor) -> bool:
        """Whether the public company reaches one of the private railway's home hexes (on either
        gauge) or has a token in one."""
        if corporation.closed or not corporation.floated():
            return False
        board = self.board
        for spec, gauge in ((BROAD, "broad"), (METRE, "narrow")):
            if any(self.home_hex(minor, h, gauge) for h in board.graph(corporation, spec).reachable_hexes):
                return True
        return any(self.home_hex(minor, t.city.hex) for t in corporation.placed_tokens())

    # ================================================================== rounds
    def stock_round(self):
        return StockRound(self, [S.Exchange, S.ExchangeApproval, S.HomeToken, S.BuySellParShares])

    def operating_round(self, round_num):
        return S.OperatingRound1858(self, [
            S.Track, S.Token, S.Route, S.Dividend, S.DiscardTrain, S.BuyTrain, S.IssueShares,
        ], round_num)

    def closure_round(self, round_num):
        self.log.append("-- Private Closure Round --")
        return S.ClosureRound(self, [S.ExchangeApproval, S.HomeToken, S.PrivateClosure], round_num)

    def next_round(self):
        if self.private_closure_round == "in_progress":
            self.private_closure_round = "done"
        if self.private_closure_round == "next":
            self.round = self.closure_round(self.round.round_num)
            return
        super().next_round()

    # ================================================================== private railways
    def private_railway(self, company) -> bool:
        return True

    def private_company(self, entity):
        return entity if entity.is_company else self.company_by_id(entity.id)

    def private_minor(self, entity):
        return entity if entity.is_minor else self.minor_by_id(entity.id)

    def purchase_company(self, player, company, price):
        if price > 0:
            player.spend(price, self.bank)
        player.companies.append(company)
        company.owner = player
        minor = self.private_minor(company)
        if minor is not None:
            minor.owner = player
            minor.float()

    def private_batches_available(self) -> list:
        batches = ["private_batch1"]
        if "green_privates" in self.phase.status:
            batches.append("private_batch2")
        return batches

    def buyable_bank_owned_companies(self):
        batches = self.private_batches_available()
        return [c for c in self.companies if not c.closed and c.owner is self.bank and c.type in batches
                and c not in self.unbuyable_companies]

    def private_order(self, entity) -> int:
        return self.facts["private_order"].get(entity.id, 0)

    def payout_companies(self):
        if self.private_closure_round == "in_progress":
            return
        # Private railways owned by public companies pay into the company's run instead.
        super().payout_companies(ignore=[c.id for c in self.companies if self.private_railway(c)
                                         and c.owner is not None and c.owner.is_corporation])

    def reserved_cities(self, corporation, company) -> list:
        """Cities reserved for the private railway where the public company could put a token."""
        return [c for c in self.board.cities() if c.reserved_by(company)
                and self.board.tokenable(c, corporation, free=True)]

    def company_reservation_available(self, company) -> bool:
        return any(c.reserved_by(company) and sum(1 for t in c.tokens if t is not None) < c.slots
                   for c in self.board.cities())

    def par_price_for(self, company):
        """The par price of a public company started with this private: the highest par price not
        above the private's face value."""
        if not any(a.type == "exchange" for a in company.abilities):
            raise GameError(f"{company.sym} cannot start a public company as it does not have a home city")
        candidates = [p for p in self.market.par_prices if p.price <= company.value]
        if not candidates:
            return self.market.par_prices[-1]
        best = max(p.price for p in candidates)
        return next(p for p in self.market.par_prices if p.price == best)

    def exchange_ability(self, entity):
        return next((a for a in entity.all_abilities if a.type == "exchange"), None)

    def exchange_corporations(self, ability, player) -> list:
        """The public companies the private (owner of ``ability``) may be exchanged into now."""
        if self.turn == 1:
            return []
        entity = ability.owner
        if ability.corporations == "ipoed":
            return [c for c in self.corporations if c.ipoed and not c.closed
                    and self.corporation_private_connected(c, entity)]
        if self.par_price_for(entity).price > player.cash:
            return []
        if not self.company_reservation_available(entity):
            return []
        return [c for c in self.corporations if not c.ipoed]

    def close_company(self, company):
        """A private railway closes: its owner (unless the bank) receives its face value."""
        if not self.private_railway(company):
            return
        owner = company.owner
        message = f"{company.id} closes."
        if owner is not None and owner is not self.bank:
            message += f" {owner.name} receives {self.fmt(company.value)}."
            self.bank.spend(company.value, owner)
        self.remove_company_reservations(company)
        company.close()
        self.log.append(message)

    def remove_company_reservations(self, company):
        for city in self.board.cities():
            city.remove_reservation(company)
        self.clear_graph()

    def close_companies(self, corporation):
        """The private railways a public company holds close, paying their face value to it."""
        if not corporation.is_corporation:
            return
        for company in list(corporation.companies):
            self.close_company(company)

    def close_private(self, entity):
        company = self.private_company(entity)
        minor = self.private_minor(entity)
        if minor is not None:
            self.release_stubs(minor)
            minor.close()
        self.close_company(company)

    def clear_reservation_icons(self, hex_):
        # A city that now has room for all its reservations keeps them in order; one whose
        # reserving railway closed drops the empty entries beyond its slots.
        for city in hex_.tile.cities:
            if len(city.reservations) > city.slots:
                city.reservations = [r for r in city.reservations if r is not None]

    # ================================================================== public companies
    def place_home_token(self, corporation):
        if any(t.used for t in corporation.tokens):
            return
        token = corporation.next_token()
        if token is None:
            return
        pending = self.round.pending_tokens
        if any(p["entity"] is corporation for p in pending):
            self.round.clear_cache()
            return
        hexes = self.home_token_locations(corporation)
        self.log.append(f"{corporation.name} must choose city for home token")
        pending.append({"entity": corporation, "hexes": hexes, "token": corporation.find_token_by_type()})
        self.round.clear_cache()
        if corporation.companies:
            pending[0]["cities"] = self.reserved_cities(corporation, corporation.companies[0])

    def home_token_locations(self, corporation) -> list:
        if not corporation.companies:
            # Started by buying its certificate (phase 5 on): any city with room.
            return [h for h in self.board.hexes
                    if any(self.board.tokenable(c, corporation, free=True) for c in h.tile.cities)]
        company = corporation.companies[0]
        cities = self.reserved_cities(corporation, company)
        if not cities:
            raise GameError(f"No available token slots for {company.id}")
        return list(dict.fromkeys(c.hex for c in cities))

    def can_par(self, corporation, parrer):
        return not corporation.ipoed

    def convert(self, corporation, quiet=False):
        """A 5-share company becomes a 10-share company: every certificate halves and five more
        10% shares appear in its treasury."""
        if not corporation.is_corporation or corporation.type != "5-share":
            return
        if not quiet:
            self.log.append(f"{corporation.name} converts to a 10-share company")
        corporation.type = "10-share"
        corporation.float_percent = 20
        for share in self.shares_for_corporation(corporation):
            share.percent //= 2
        for holder in list(corporation.share_holders):
            corporation.share_holders[holder] //= 2
        first = len(self.shares_for_corporation(corporation))
        for i in range(5):
            share = Share(corporation, corporation, percent=10, index=first + i)
            corporation.shares_of(corporation).append(share)
            corporation.holders_add(corporation, share.percent)
            self._shares[share.id] = share

    def close_corporation(self, corporation, quiet=False):
        super().close_corporation(corporation, quiet=quiet)
        self.corporations.append(self.reset_corporation(corporation))

    def reset_corporation(self, corporation):
        """A fresh copy of a closed company that can be started again."""
        for share in [s for s in self._shares.values() if s.corporation is corporation]:
            del self._shares[share.id]
            share.owner.shares_by_corporation.pop(corporation, None)
        for company in list(corporation.companies):
            company.close()
        record = next(r for r in self.data["corporations"] if r["sym"] == corporation.id)
        fresh = self.make_corporation(record)
        self._corporations[fresh.id] = fresh
        for share in fresh.shares_of(fresh):
            self._shares[share.id] = share
        if "brown" in self.phase.tiles:
            self.convert(fresh, quiet=True)
        return fresh

    def make_corporation(self, record):
        return self.corporation_class(**self.corporation_options(record))

    def issuable_shares(self, entity) -> list:
        if not entity.is_corporation or entity.num_ipo_shares() == 0:
            return []
        return [b for b in self.bundles_for_corporation(entity, entity) if self.share_pool.fit_in_bank(b)]

    def redeemable_shares(self, entity) -> list:
        if not entity.is_corporation:
            return []
        return [b for b in self.bundles_for_corporation(self.share_pool, entity) if entity.cash >= b.price]

    def emergency_issuable_bundles(self, entity) -> list:
        if not self.trainless(entity) or entity.cash >= self.depot.max_depot_price():
            return []
        bundles = self.issuable_shares(entity)
        target = self.depot.max_depot_price()
        eligible = [b for b in bundles if b.price + entity.cash < target]
        rest = [b for b in bundles if b.price + entity.cash >= target]
        return eligible + rest[:1]

    def trainless(self, corporation) -> bool:
        return not corporation.trains

    # ================================================================== operating
    def tile_lays(self, entity):
        return self.data["tile_lays"] if entity.is_corporation else self.facts["minor_tile_lays"]

    def operating_order(self):
        return [m for m in self.minors if m.floated()] + sort_corporations(
            [c for c in self.corporations if c.floated()])

    def upgrade_cost(self, old_tile, hex_, entity, spender=None):
        if not old_tile.terrain:
            return 0
        cost = old_tile.terrain[0].get("cost") or 0
        if entity.is_minor and self.home_hex(entity, hex_):
            return 0
        if not metre_gauge_upgrade(old_tile, hex_.tile):
            return cost
        discount = cost // 2
        if spender is not None:
            self.log_cost_discount(spender, discount, "terrain")
        return cost - discount

    def tile_cost_with_discount(self, tile, hex_, entity, spender, cost):
        added = self.round.gauges_added
        if len(added) == 1 or ["narrow"] not in added:
            return cost
        self.log_cost_discount(spender, 10, "tile_lay")
        return cost - 10

    def log_cost_discount(self, entity, discount, reason):
        if discount > 0:
            kind = "terrain" if reason == "terrain" else "second tile"
            self.log.append(f"{entity.name} receives a {self.fmt(discount)} {kind} discount for metre gauge track")

    def tile_valid_for_phase(self, tile, hex_=None):
        return tile.color in self.phase.tiles

    def hex_blocked_by_ability(self, entity, ability, hex_):
        return hex_.id in (ability.hexes or [])

    # ================================================================== trains and routes
    @staticmethod
    def hex_train(train) -> bool:
        return isinstance(train.distance, int)

    @staticmethod
    def express_train(train) -> bool:
        return train.name[-1] in ("E", "D")

    @staticmethod
    def metre_gauge_train(train) -> bool:
        return train.track_type == "narrow"

    def check_distance(self, route, visits):
        train = route.train
        if self.hex_train(train):
            distance = route_hex_distance(route)
            if distance > train.distance:
                raise GameError(f"{distance} is too many hex edges for {train.name} train")
            return
        plain_check_distance(route, visits)

    def check_other(self, route):
        tracks = {p.track for p in route.paths}
        if self.metre_gauge_train(route.train):
            if "broad" in tracks:
                raise GameError("Route cannot contain broad gauge track")
        elif "narrow" in tracks:
            raise GameError("Route cannot contain metre gauge track")

    def route_trains(self, entity):
        return entity.runnable_trains()

    def train_revenue(self, train, revenue):
        """Wounded (obsolete) trains earn half."""
        return revenue // 2 if train.obsolete else revenue

    def train_revenue_key(self, train):
        return bool(train.obsolete)

    def route_track_types(self, train):
        return ("narrow", "dual") if self.metre_gauge_train(train) else ("broad", "dual")

    def route_distance_kind(self, train):
        return "hexes" if self.hex_train(train) else "stops"

    def routes_revenue(self, routes):
        operator = self.round.current_operator if self.round.is_operating else None
        private = sum(c.revenue for c in operator.companies if self.private_railway(c)) if operator else 0
        return sum(r.revenue for r in routes) + private

    def buy_train(self, operator, train, price=None):
        from_depot = train.owner is self.depot
        super().buy_train(operator, train, price)
        if self.grey_trains_bought >= self.phase4_train_trigger or not from_depot:
            return
        if train.name not in self.facts["grey_trains"]:
            return
        self.grey_trains_bought += 1
        ordinal = ["First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh"][self.grey_trains_bought - 1]
        self.log.append(f"{ordinal} grey train has been bought")
        if self.grey_trains_bought == self.phase4_train_trigger:
            self.rust_wounded_trains(("6H", "3M"), train)

    def rust_wounded_trains(self, names, purchased):
        for t in self.depot.trains:
            if t.name in names:
                t.rusts_on = purchased.sym
        self.rust_trains(purchased, purchased.owner)

    # ================================================================== events
    def event_green_privates_available(self):
        self.log.append("-- Event: Green private companies can be started --")

    def event_corporations_convert(self):
        self.log.append("-- Event: All 5-share public companies must convert to 10-share companies --")
        for corporation in [c for c in self.corporations if c.type == "5-share"]:
            self.convert(corporation)

    def event_privates_close(self):
        self.log.append("-- Event: Private companies will close at the end of this operating round --")
        self.private_closure_round = "next"


def metre_gauge_upgrade(old_tile, new_tile) -> bool:
    """Whether all the track a new tile adds is metre gauge."""
    added = [p.track for p in new_tile.paths]
    for track in (p.track for p in old_tile.paths):
        if track in added:
            added.remove(track)
    return set(added) == {"narrow"}


def route_hex_distance(route) -> int:
    """Hex edges crossed by a route (an H train's distance)."""
    total = 0
    for _, _, paths in route.chains:
        for a, b in zip(paths, paths[1:]):
            if a.tile.hex is not b.tile.hex:
                total += 1
    return total
