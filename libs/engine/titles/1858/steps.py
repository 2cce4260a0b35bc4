"""1858's rounds and steps."""

from __future__ import annotations

from ...errors import GameError
from ...flow.round import OperatingRound
from ...flow.step import Offer, Step
from ...flow.steps import (BuySellParSharesStep, BuyTrainStep, DiscardTrainStep, DividendStep, HomeTokenStep,
                           IssueSharesStep, PassableAuctionMixin, RouteStep, TokenStep, TrackStep)

PURCHASES = ("bid", "buy_shares", "par")


def offer(*options) -> list:
    """The action types whose condition holds, and ``pass`` when there is any."""
    out = [kind for kind, allowed in options if allowed]
    return out + ["pass"] if out else out


class _Marker:
    """A turn-log entry for an exchange that does not count as buying (the turn goes on)."""

    type = "exchange"
    JOURNAL_EXEMPT = True   # (never changed once made: engine.journal)

    def __init__(self, entity):
        self.entity = entity


# ====================================================================== rounds
class OperatingRound1858(OperatingRound):
    pass


class ClosureRound(OperatingRound):
    """After the operating round in which the first 5E/4M train is bought: the privates not sold
    close, and each remaining private railway is exchanged for a share or sold to the bank."""

    short_name = "PCR"
    name = "Private Closure Round"

    def select_entities(self):
        return [m for m in self.game.minors if not m.closed]

    @property
    def label(self):
        return f"PCR {self.game.turn}.{self.round_num}"

    def setup(self):
        game = self.game
        game.private_closure_round = "in_progress"
        for company in list(game.companies):
            if company.closed:
                continue
            if company.sym == "H&G" or company.owner is game.bank:
                game.close_private(company)
        super().setup()

    def next_entity(self):
        if self.pending_tokens:
            return None
        return super().next_entity()

    def any_to_act(self):
        return super().any_to_act() or bool(self.pending_tokens)


# ====================================================================== exchanges
class PrivateExchange:
    """Exchanging a private railway for a share of a public company (stock rounds and the closure
    round)."""

    def acquire_private(self, corporation, entity):
        game = self.game
        company, minor = game.private_company(entity), game.private_minor(entity)
        player = company.owner
        game.release_stubs(minor)
        # The private's hold on its home hexes outlives the railway until the company closes.
        blocker = game.ability(minor, "blocks_hexes")
        if blocker is not None:
            company.add_ability(blocker)
        minor.close()
        if company in player.companies:
            player.companies.remove(company)
        company.owner = corporation
        corporation.companies.append(company)
        self.log.append(f"{corporation.name} acquires {company.name} from {player.name}")

    def exchange_for_share(self, bundle, corporation, minor, player, treasury_share):
        game = self.game
        if not game.loading and not game.corporation_private_connected(corporation, minor):
            raise GameError(f"{minor.name} is not connected to {corporation.full_name}")
        game.share_pool.buy_shares(player, bundle, exchange="free")
        if not treasury_share:
            return
        self.acquire_private(corporation, minor)
        self.claim_token(corporation, minor)

    def claim_token(self, corporation, minor):
        game = self.game
        if corporation.next_token() is None:
            return
        company = game.private_company(minor)
        cities = game.reserved_cities(corporation, company)
        if not any(sum(1 for t in c.tokens if t is not None) < c.slots for c in cities):
            return
        self.round.pending_tokens.append({"entity": corporation, "cities": cities,
                                          "hexes": [c.hex for c in cities], "token": corporation.next_token()})
        if game.private_closure_round != "in_progress":
            return
        # The private closes before its new owner places the token: its reserved slots pass to the
        # public company for that choice (so a single-slot city shared with another private stays
        # available).
        held = []
        for city in game.board.cities():
            for i, r in enumerate(city.reservations):
                if r is company:
                    city.reservations[i] = corporation
                    held.append(city)
                    break
        game.closure_reservations.setdefault(corporation, []).extend(held)

    def log_request(self, corporation, minor):
        self.log.append(f"{minor.owner.name}: • requested {corporation.owner.name}’s permission to exchange "
                        f"{minor.name} for a {corporation.id} treasury share.")

    def log_response(self, corporation, minor, approved):
        verb = "approved" if approved else "denied"
        self.log.append(f"{corporation.owner.name}: • {verb} {minor.owner.name}’s request to exchange "
                        f"{minor.name} for a {corporation.id} treasury share.")


class Exchange(PrivateExchange, Step):
    """A private railway (its company or its minor) traded for a public company's share: the
    president's certificate of an unstarted company (paying the par price into its treasury), or
    a share of a started one its home reaches (a treasury share needs its president's approval
    unless the same player presides)."""

    description = "Exchange a private railway"

    blocks = Step.blocks_nothing

    def actions(self, entity):
        if not (entity.is_company or entity.is_minor):
            return []
        if not self.game.loading and not self.may_exchange(entity):
            return []
        return ["buy_shares"]

    def may_exchange(self, entity) -> bool:
        """Live play: only when the game waits for the owner, either in his own turn before he
        bought, or for his bid while another private railway is auctioned (the bid waiting on him
        does not stop him trading a private he holds)."""
        owner = entity.owner
        step = self.round.step_of(BuySellParShares)
        if owner is None or not owner.is_player or step is None or owner is not step.current_entity():
            return False
        if step.auctioning is None and step.bought():
            return False
        return (self.round.pending_approval is None and not self.round.pending_tokens
                and self.game.exchange_ability(entity) is not None)

    def choices(self, entity) -> dict:
        game = self.game
        ability = game.exchange_ability(entity)
        if ability is None or entity.owner is None or not entity.owner.is_player:
            return {"exchange": []}
        step = self.round.step_of(BuySellParShares)
        out = []
        for corporation in game.exchange_corporations(ability, entity.owner):
            if not corporation.ipoed:
                share = corporation.presidents_share
                if share.owner is not corporation or not game.can_par(corporation, entity.owner):
                    continue
            else:
                share = next((s for s in corporation.shares_of(corporation) if not s.president), None)
                if share is None:
                    continue
            if step.can_gain(entity.owner, share.to_bundle(), exchange=True):
                out.append({"shares": [share.id], "percent": share.percent, "president": share.president})
        return {"exchange": out}

    def process_buy_shares(self, action):
        game = self.game
        bundle = action.bundle
        corporation = bundle.corporation
        minor = action.entity
        player = minor.owner
        if not game.loading:
            self.check_exchange(minor, bundle)
        if not corporation.floated() and not bundle.shares[0].president:
            raise GameError("Cannot exchange a private railway for a single share of a public company.")
        if bundle.percent == corporation.presidents_percent and bundle.presidents_share is not None:
            self.exchange_for_presidency(bundle, corporation, minor, player)
            self.round.current_actions.append(action)
        elif corporation.owner is player:
            self.exchange_for_share(bundle, corporation, minor, player, True)
            self.round.current_actions.append(_Marker(minor))
        else:
            self.log_request(corporation, minor)
            self.round.pending_approval = corporation
            self.round.minor = minor

    def check_exchange(self, entity, bundle):
        game = self.game
        ability = game.exchange_ability(entity)
        if ability is None:
            raise GameError(f"{entity.name} cannot be exchanged for a share")
        corporation = bundle.corporation
        if corporation not in game.exchange_corporations(ability, entity.owner):
            raise GameError(f"{entity.name} cannot be exchanged for a share of {corporation.name}")
        if bundle.owner is not corporation or len(bundle.shares) != 1:
            raise GameError(f"{entity.name} can only be exchanged for one {corporation.name} treasury share")
        if not corporation.ipoed and not bundle.shares[0].president:
            raise GameError(f"{entity.name} starts {corporation.name} with its president's certificate")
        if corporation.ipoed and (bundle.shares[0].president or not ability.corporations == "ipoed"):
            raise GameError(f"{entity.name} cannot be exchanged for that share")
        step = self.round.step_of(BuySellParShares)
        if not step.can_gain(entity.owner, bundle, exchange=True):
            raise GameError(f"{entity.owner.name} cannot hold another {corporation.name} share")

    def exchange_for_presidency(self, bundle, corporation, minor, player):
        game = self.game
        if not game.can_par(corporation, player):
            raise GameError(f"{corporation.name} cannot be parred")
        company = game.private_company(minor)
        share_price = game.par_price_for(company)
        if player.cash < share_price.price:
            raise GameError(f"{player.name} cannot pay {game.fmt(share_price.price)} to start {corporation.name}")
        self.acquire_private(corporation, minor)
        game.market.set_par(corporation, share_price)
        bought = self.round.players_bought.setdefault(player, {})
        bought[corporation] = bought.get(corporation, 0) + bundle.percent
        self.log.append(f"{player.name} exchanges {minor.name} and {game.fmt(share_price.price)} for a "
                        f"{bundle.percent}% share of {corporation.id}")
        game.share_pool.buy_shares(player, bundle, exchange=minor, exchange_price=share_price.price, silent=True)
        if corporation.floated():
            game.place_home_token(corporation)
        game.after_par(corporation)


class ExchangeApproval(PrivateExchange, Step):
    """The president of a public company allows or refuses a private railway's exchange for one
    of its treasury shares."""

    ACTIONS = ["choose"]
    description = "Approve or deny exchange request"

    def round_state(self):
        return {"minor": None, "approvals": {}, "pending_approval": None}

    @property
    def corporation(self):
        return self.round.pending_approval

    def in_closure(self) -> bool:
        return self.game.private_closure_round == "in_progress"

    def active(self):
        return self.round.pending_approval is not None

    def current_entity(self):
        return self.corporation

    def active_entities(self):
        corporation = self.corporation
        if corporation is None:
            return []
        return [corporation] if self.in_closure() else [corporation.owner]

    def actions(self, entity):
        return list(self.ACTIONS) if entity is self.corporation else []

    def choices(self, entity) -> dict:
        return {"choices": ["approve", "deny"]}

    def process_choose(self, action):
        choice = action.raw.get("choice")
        if choice not in ("approve", "deny"):
            raise GameError("Choose approve or deny")
        corporation, minor = self.corporation, self.round.minor
        approved = choice == "approve"
        self.log_response(corporation, minor, approved)
        if approved:
            if not corporation.shares_of(corporation):
                raise GameError(f"{corporation.name} has no treasury share left")
            share = corporation.shares_of(corporation)[0]
            self.exchange_for_share(share, corporation, minor, minor.owner, True)
            if self.in_closure():
                self.game.close_private(minor)
            else:
                self.round.current_actions.append(_Marker(minor))
        elif self.in_closure():
            self.round.approvals[corporation] = "denied"
            if corporation.num_market_shares() > 0:
                self.log.append(f"{minor.name} may now be exchanged for a {corporation.id} market share.")
        self.round.pending_approval = None


class HomeToken(HomeTokenStep):
    """A public company places the token its private railway brought (free), or its home token when
    started by purchase (twice the city's revenue); a company with a token on the map may decline."""

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        return ["place_token"] if not entity.placed_tokens() else ["place_token", "pass"]

    pass_description = "Do not place station token"

    def active_entities(self):
        entity = self.pending().get("entity")
        return [entity.owner] if entity is not None else []

    def choices(self, entity) -> dict:
        pending = self.pending()
        cities = pending.get("cities")
        if cities is None:
            cities = [c for h in pending.get("hexes", []) for c in h.tile.cities]
        corporation = pending.get("entity")
        if corporation is None:
            return {"cities": []}
        out = []
        for c in cities:
            price = self.home_token_price(corporation, c)
            if self.game.board.tokenable(c, corporation, free=True) and price <= corporation.cash:
                out.append({"city": c.id, "hex": c.hex.id, "price": price})
        return {"cities": out}

    @staticmethod
    def home_token_price(corporation, city) -> int:
        """Free for a token a private railway brought; a company started by purchase pays twice the
        city's revenue for its home token."""
        if corporation.companies or corporation.placed_tokens():
            return 0
        color = city.tile.color
        return 0 if color == "white" else 2 * city.base_revenue([color])

    def process_place_token(self, action):
        pending = self.pending()
        city = action.city
        entity = action.entity
        if "cities" in pending and city not in pending["cities"]:
            raise GameError(f"{entity.id} cannot place a token in {city.hex.id} ({city.hex.location_name}) "
                            f"city #{city.index}")
        pending["token"].price = self.home_token_price(entity, city)
        super().process_place_token(action)
        self.delete_reservations(entity, city)

    def process_pass(self, action):
        self.log_pass(action.entity)
        self.round.pending_tokens.pop(0)
        self.delete_reservations(action.entity)

    def delete_reservations(self, corporation, city=None):
        game = self.game
        if game.private_closure_round == "in_progress":
            for held in game.closure_reservations.pop(corporation, []):
                held.remove_reservation(corporation)
            game.clear_graph()
        elif city is not None:
            for company in corporation.companies:
                if any(r is company for r in city.reservations):
                    city.remove_reservation(company)


# ====================================================================== stock round
class BuySellParShares(PassableAuctionMixin, BuySellParSharesStep):
    """Shares are sold then bought; a player may instead put a private railway up for auction, or
    convert a 5-share company he presides. Starting a public company by exchange is the Exchange
    step's; by purchase only from phase 5."""

    def setup(self):
        self.setup_auction()
        super().setup()

    def bought(self) -> bool:
        return any(a.type in PURCHASES for a in self.round.current_actions)

    def active_entities(self):
        if self.auctioning is not None:
            bidder = self.auction_bidder()
            return [bidder] if bidder is not None else []
        return super().active_entities()

    def actions(self, entity):
        if entity.is_corporation:
            return self.corporation_actions(entity)
        if entity is not self.current_entity():
            return []
        if self.auctioning is not None:
            return ["bid", "pass"]
        can_sell = self.can_sell_any(entity)
        if self.must_sell(entity, can_sell):
            return ["sell_shares"]
        if self.bought():
            return []
        return offer(("sell_shares", can_sell), ("convert", self.can_convert_any()),
                     ("buy_shares", self.can_buy_any(entity) or self.can_exchange_any(entity, False)),
                     ("par", self.can_ipo_any(entity)), ("bid", self.can_bid_any(entity)))

    # ``actions`` for a player on turn outside an auction, before buying, as an ``Offer`` asks it
    OFFER = ((("sell_shares", "can_sell_any"), ("buy_shares", "may_buy_shares"), ("par", "can_ipo_any"),
              ("bid", "can_bid_any"), ("convert", "may_convert")), ("sell_shares", "must_sell_now"), "actions")

    def offers(self, entity):
        if (type(self).actions is not BuySellParShares.actions or entity.is_corporation
                or entity is not self.current_entity() or self.auctioning is not None or self.bought()):
            return self.actions(entity)
        return Offer(self, entity, self.OFFER)

    def may_buy_shares(self, entity) -> bool:
        return self.can_buy_any(entity) or self.can_exchange_any(entity, False)

    def may_convert(self, entity) -> bool:
        return self.can_convert_any()

    def corporation_actions(self, corporation):
        if corporation.owner is not self.current_entity() or self.bought() or not self.can_convert(corporation):
            return []
        return ["convert", "pass"]

    def must_sell_corporations(self, entity) -> list:
        # Holding more than 60% of one company is allowed; only the certificate limit forces sales.
        return []

    def can_convert(self, corporation) -> bool:
        return (corporation.owner is self.current_entity() and corporation.type == "5-share"
                and corporation.floated() and not self.bought())

    def can_convert_any(self) -> bool:
        return any(self.can_convert(c) for c in self.game.corporations)

    def can_gain(self, entity, bundle, exchange=False):
        if not exchange:
            return super().can_gain(entity, bundle)
        return super().can_gain(entity, bundle, exchange=True) and (
            bundle.corporation.floated() or bundle.presidents_share is not None)

    def can_ipo_any(self, entity) -> bool:
        return "public_companies" in self.game.phase.status and super().can_ipo_any(entity)

    # ---- exchanges (made through the Exchange step)
    def can_exchange_for_share(self, entity, check_connected) -> bool:
        return any(c.num_ipo_shares() > 0 and (not check_connected or self.game.corporation_private_connected(c, entity))
                   for c in self.game.corporations)

    def can_exchange_for_presidency(self, entity, player) -> bool:
        game = self.game
        if game.turn == 1:
            return False
        return game.par_price_for(game.private_company(entity)).price <= player.cash and \
            not all(c.ipoed for c in game.corporations)

    def can_exchange(self, entity, player, check_connected) -> bool:
        for ability in entity.all_abilities:
            if ability.type != "exchange":
                continue
            if ability.corporations == "ipoed":
                if self.can_exchange_for_share(entity, check_connected):
                    return True
            elif self.can_exchange_for_presidency(entity, player):
                return True
        return False

    def can_exchange_any(self, player, check_connected) -> bool:
        minors = [m for m in self.game.minors if m.owner is player]
        return any(self.can_exchange(e, player, check_connected) for e in player.companies + minors)

    def auto_actions(self, entity):
        programmed = super().auto_actions(entity)
        if programmed:
            return programmed
        # An exchange looked possible but no private railway reaches any public company: pass.
        if self.round.pending_tokens or self.actions(entity) != ["buy_shares", "pass"]:
            return None
        if self.can_buy_any(entity) or self.can_exchange_any(entity, True):
            return None
        return [self._auto(entity, "pass")]

    # ---- converting
    def process_convert(self, action):
        entity = action.entity
        if not entity.is_corporation or (not self.game.loading and not self.can_convert(entity)):
            raise GameError(f"{entity.name} cannot convert now")
        self.game.convert(entity)

    def process_par(self, action):
        super().process_par(action)
        self.pass_()

    # ---- auctions of private railways
    def auctionable_companies(self) -> list:
        return self.game.buyable_bank_owned_companies()

    def min_bid(self, company):
        if self.auctioning is not None:
            return self.highest_bid(company)["price"] + self.game.rules["min_bid_increment"]
        return company.min_bid

    def max_bid(self, player, company=None):
        if self.game.num_certs(player) >= self.game.cert_limit(player):
            return 0
        return player.cash

    def can_bid_company(self, player, company) -> bool:
        return ((self.auctioning is None or self.auctioning is company) and company in self.auctionable_companies()
                and self.min_bid(company) <= player.cash)

    def can_bid_any(self, player) -> bool:
        return any(self.can_bid_company(player, c) for c in self.auctionable_companies())

    def process_bid(self, action):
        entity, company, price = action.entity, action.company, action.integer("price")
        if self.auctioning is None:
            if company not in self.auctionable_companies():
                raise GameError(f"{company.name} cannot be auctioned now")
        elif company is not self.auctioning:
            raise GameError(f"Only {self.auctioning.name} is being auctioned now")
        self.check_bid(entity, company, price)
        self.drop_share_pass_programs()
        entity.passed = False
        if self.auctioning is not None:
            self.log.append(f"{entity.name} bids {self.game.fmt(price)} for {company.name}")
            self.raise_bid(entity, company, price)
        else:
            self.log.append(f"{entity.name} auctions {company.name} for {self.game.fmt(price)}")
            self.start_auction(entity, company, price)

    def drop_share_pass_programs(self):
        """An auction is starting: automatic passes armed by players who could bid are dropped."""
        companies = self.game.buyable_bank_owned_companies()
        if not companies:
            return
        cheapest = min(c.min_bid for c in companies)
        for player, programs in self.game.programmed_actions.items():
            if player.cash < cheapest:
                continue
            kept = [p for p in programs if p.get("type") != "program_share_pass" or p.get("unconditional")]
            if len(kept) != len(programs):
                self.log.append(f"Programmed action removed for {player.name}: private railway company auction "
                                "taking place.")
                programs[:] = kept

    def win_auction(self, bid, company):
        player, price = bid["entity"], bid["price"]
        self.log.append(f"{player.name} wins bid on {company.name} for {self.game.fmt(price)}")
        self.game.purchase_company(player, company, price)
        self.acted = False
        # The player after the one who put the private up for auction goes next.
        self.round.next_entity_index()
        self.round.current_actions.clear()

    def process_pass(self, action):
        if self.auctioning is not None:
            self.pass_auction(self.current_entity())
            return
        super().process_pass(action)

    def log_skip(self, entity):
        if not self.round.current_actions:
            super().log_skip(entity)

    def choices(self, entity) -> dict:
        if not entity.is_player:
            return {}
        out = super().choices(entity) if self.auctioning is None else {}
        actions = self.actions(entity)
        if "bid" in actions:
            biddable = [c for c in self.auctionable_companies() if self.can_bid_company(entity, c)]
            out["companies"] = [{"company": c.id, "min_bid": self.min_bid(c)} for c in biddable]
            out["max_bid"] = {c.id: self.max_bid(entity, c) for c in biddable}
        if "convert" in actions:
            out["convert"] = [c.id for c in self.game.corporations if self.can_convert(c)]
        return out


# ====================================================================== operating round
def gauges_added(old_tile, new_tile) -> list:
    """The gauges of the track a tile adds to the one it replaces."""
    added = [p.track for p in new_tile.paths]
    for track in (p.track for p in old_tile.paths):
        if track in added:
            added.remove(track)
    return sorted(set(added))


class Track(TrackStep):
    """Corporations lay or upgrade two tiles (the second costs 20), private railways lay two yellow
    tiles paid by their owner; metre gauge track is discounted; a president helps pay for track."""

    def actions(self, entity):
        return list(self.ACTIONS) if entity is self.current_entity() else []

    def auto_actions(self, entity):
        if not entity.is_minor or self.can_lay_tile(entity, check_graph=True):
            return None
        return [{"type": "pass", "entity": entity.id, "entity_type": "minor"}]

    def round_state(self):
        state = super().round_state()
        state["gauges_added"] = []
        return state

    def setup(self):
        super().setup()
        self.round.gauges_added = []

    def can_lay_tile(self, entity, check_graph=True) -> bool:
        if self.get_tile_lay(entity) is None:
            return False
        if not check_graph:
            return True
        return any(self.available_hex(entity, h) for h in self.board.connected_hexes(entity))

    def process_lay_tile(self, action):
        entity = action.entity
        if not self.game.loading and "broad_gauge" in self.game.phase.status and \
                any(p.track == "narrow" for p in action.tile.tdef.paths):
            raise GameError("Metre gauge track cannot be built before phase 3")
        self.lay_tile_action(action, spender=entity.owner if entity.is_minor else None)
        if not self.can_lay_tile(entity, check_graph=False):
            self.pass_()

    def lay_tile(self, action, extra_cost=0, entity=None, spender=None):
        hex_, tile = action.hex, action.tile
        old_tile = hex_.tile
        self.round.gauges_added.append(gauges_added(old_tile, tile))
        try:
            super().lay_tile(action, extra_cost=extra_cost, entity=entity, spender=spender)
        except GameError:
            self.round.gauges_added.pop()
            raise
        if tile.cities and self.track_upgrade(old_tile, tile, hex_):
            self.game.clear_reservation_icons(hex_)

    def before_tile_cost(self, spender, cost):
        # A public company short of money for its track is helped by its president.
        if not spender.is_corporation or cost <= 0 or cost <= spender.cash:
            return
        president = spender.owner
        shortfall = cost - spender.cash
        if shortfall > president.cash:
            raise GameError(f"The tile lay costs {self.game.fmt(cost)} but {spender.name} has "
                            f"{self.game.fmt(spender.cash)} and {president.name} has {self.game.fmt(president.cash)}")
        self.log.append(f"{president.name} contributes {self.game.fmt(shortfall)} towards the cost of "
                        f"{spender.name}'s tile lay")
        president.spend(shortfall, spender)

    def buying_power(self, entity):
        owner = entity.owner
        if entity.is_minor:
            return owner.cash
        return entity.cash + (owner.cash if owner is not None and owner.is_player else 0)

    def ability_blocking_hex(self, entity, hex_):
        if hex_.tile.color != "white":
            return None
        found = []
        for other in self.game.companies + self.game.minors:
            if other.closed:
                continue
            ability = self.game.ability(other, "blocks_hexes")
            if ability is not None and self.game.hex_blocked_by_ability(entity, ability, hex_):
                found.append(ability)
        if not found or any(entity is a.owner or entity is a.owner.owner for a in found):
            return None
        return found[0]

    def lay_options(self, entity, hex_, first=False):
        options = super().lay_options(entity, hex_, first)
        if "broad_gauge" not in self.game.phase.status:
            return options
        # no metre gauge track before phase 3
        return ((t, r) for t, r in options if not any(p.track == "narrow" for p in t.tdef.paths))


class Token(TokenStep):
    """A token costs 40 per provincial border between it and the company's nearest token (at least
    20)."""

    def available_tokens(self, entity):
        return entity.tokens_by_type() if entity.is_corporation else []

    def can_place_token(self, entity) -> bool:
        return entity is self.current_entity() and not self.round.tokened and bool(self.available_tokens(entity))

    def auto_actions(self, entity):
        if not entity.is_corporation:
            return None
        cities = self.game.board.tokenable_cities(entity)
        if cities and min(self.token_cost(entity, c) for c in cities) <= self.buying_power(entity):
            return None
        return [{"type": "pass", "entity": entity.id, "entity_type": "corporation"}]

    def token_cost(self, corporation, city) -> int:
        distances = self.game.facts["token_distances"]
        crossed = [distances[city.hex.id][t.city.hex.id] for t in corporation.placed_tokens()]
        return max(20, 40 * min(crossed)) if crossed else 20

    def choices(self, entity) -> dict:
        if not self.can_place_token(entity):
            return {"cities": []}
        return {"cities": [{"city": c.id, "hex": c.hex.id, "price": self.token_cost(entity, c)}
                           for c in self.game.board.tokenable_cities(entity)
                           if self.token_cost(entity, c) <= entity.cash]}

    def process_place_token(self, action):
        entity, city = action.entity, action.city
        tokens = self.available_tokens(entity)
        if not tokens:
            raise GameError(f"{entity.name} has no token left")
        cost = self.token_cost(entity, city)
        if self.game.loading and isinstance(action.raw.get("cost"), int):
            cost = action.raw["cost"]
        tokens[0].price = cost
        super().process_place_token(action)


class Route(RouteStep):
    def actions(self, entity):
        if not entity.is_corporation or entity is not self.current_entity() or not entity.runnable_trains():
            return []
        return list(self.ACTIONS)

    def process_run_routes(self, action):
        super().process_run_routes(action)
        self.log_company_revenue(action.entity)

    def log_company_revenue(self, corporation):
        for company in corporation.companies:
            if self.game.private_railway(company):
                self.log.append(f"{corporation.name} receives {self.game.fmt(company.revenue)} revenue from "
                                f"private railway {company.name}")

    def log_skip(self, entity):
        if entity.is_minor:
            return
        super().log_skip(entity)
        self.log_company_revenue(entity)


class Dividend(DividendStep):
    """Full, half or no payout; what does not divide among the shares goes to the treasury. The price
    moves right when a share earns at least a tenth of its price, left when nothing is paid. The
    private railways the company holds close after its first run."""

    DIVIDEND_TYPES = ("payout", "half", "withhold")

    def actions(self, entity):
        if not entity.is_corporation or entity is not self.current_entity() or self.total_revenue() == 0:
            return []
        return list(self.ACTIONS)

    def skip(self):
        entity = self.current_entity()
        if entity is not None and entity.is_corporation:
            super().skip()

    def process_dividend(self, action):
        if action.entity.is_minor:
            return
        super().process_dividend(action)
        self.game.close_companies(action.entity)

    def rust_obsolete_trains(self, entity):
        pass   # wounded trains run on at half revenue

    def share_price_change(self, entity, revenue):
        if revenue == 0:
            return {"share_direction": "left", "share_times": 1}
        if self.payout_per_share(entity, revenue) * 10 >= entity.share_price.price:
            return {"share_direction": "right", "share_times": 1}
        return {}

    def payout_per_share(self, entity, revenue):
        return revenue // entity.total_shares

    def payout(self, entity, revenue):
        per_share = self.payout_per_share(entity, revenue)
        return {"corporation": revenue - per_share * entity.total_shares, "per_share": per_share}

    def half(self, entity, revenue):
        per_share = self.payout_per_share(entity, revenue // 2)
        return {"corporation": revenue - per_share * entity.total_shares, "per_share": per_share}


class DiscardTrain(DiscardTrainStep):
    def crowded_corps(self):
        crowded = self.game.crowded_corps()
        if not crowded:
            return []
        from ...core.entities import sort_corporations
        return sort_corporations(crowded)

    def process_discard_train(self, action):
        super().process_discard_train(action)
        if action.train.obsolete:
            self.game.depot.forget_train(action.train)


class BuyTrain(BuyTrainStep):
    """Wounded (obsolete) trains may be scrapped; a trainless company may issue shares to buy a train
    from the depot and its president contributes the rest; a company ending its turn trainless loses
    a step of share price."""

    def setup(self):
        super().setup()
        self.last_share_issued_price = None

    def actions(self, entity):
        if entity.is_minor or entity is not self.current_entity():
            return []
        can_buy = self.can_buy_train(entity)
        out = offer(("sell_shares", self.ebuy_can_issue(entity, can_buy)), ("buy_train", can_buy),
                    ("scrap_train", self.can_scrap_train(entity)))
        if self.must_buy_after_issue(entity) and "buy_train" in out:
            out.remove("pass")
        return out

    def must_buy_after_issue(self, entity) -> bool:
        """Shares issued for a train: the company may not end its turn without one."""
        closing = entity.share_price is not None and entity.share_price.price == 0
        return self.last_share_issued_price is not None and self.game.trainless(entity) and not closing

    def president_may_contribute(self, entity) -> bool:
        return self.game.trainless(entity)

    def issuable_shares(self, entity) -> list:
        return self.game.issuable_shares(entity)

    def ebuy_can_issue(self, entity, can_buy=None) -> bool:
        if not entity.is_corporation or not (self.can_buy_train(entity) if can_buy is None else can_buy):
            return False
        bundles = self.issuable_shares(entity)
        if not bundles:
            return False
        return self.depot.min_depot_price() <= entity.cash + entity.owner.cash + max(b.price for b in bundles)

    def scrappable_trains(self, entity) -> list:
        return [t for t in entity.trains if t.obsolete]

    def can_scrap_train(self, entity) -> bool:
        return bool(self.scrappable_trains(entity))

    def pass_if_cannot_buy_train(self, entity) -> bool:
        return not self.can_scrap_train(entity)

    def choices(self, entity) -> dict:
        out = super().choices(entity)
        if self.last_share_issued_price is not None and not entity.trains:
            # after issuing: a depot train the issue was needed for
            floor = entity.cash - self.last_share_issued_price
            out["trains"] = [t for t in out.get("trains", [])
                             if self.game.train_by_id(t["train"]).from_depot() and t.get("price", 0) >= floor]
        out["scrap_train"] = [t.id for t in self.scrappable_trains(entity)]
        out["sell_shares"] = [{"shares": [s.id for s in b.shares], "percent": b.percent, "price": b.price}
                              for b in self.useful_issues(entity)]
        return out

    def useful_issues(self, entity) -> list:
        """Bundles whose issue leads to a depot train the company may then buy: one the last share
        issued was needed for, within what the treasury and the president can pay."""
        if self.last_share_issued_price is not None or not self.ebuy_can_issue(entity):
            return []
        prices = {v["price"] for t in self.depot.depot_trains() for v in t.variants.values()}
        owner_cash = entity.owner.cash if entity.owner is not None else 0
        out = []
        for bundle in self.issuable_shares(entity):
            cash = entity.cash + bundle.price
            if any(cash - bundle.price_per_share() <= p <= cash + owner_cash for p in prices):
                out.append(bundle)
        return out

    def process_scrap_train(self, action):
        train = action.train
        if train.owner is not action.entity or not train.obsolete:
            raise GameError(f"{action.entity.name} can only scrap its own wounded trains")
        self.log.append(f"{action.entity.name} discards wounded {train.name} train")
        self.game.remove_train(train)
        self.game.depot.forget_train(train)

    def process_sell_shares(self, action):
        entity, bundle = action.entity, action.bundle
        if not entity.is_corporation or bundle.owner is not entity:
            raise GameError(f"{entity.name} cannot sell shares at this time")
        if not self.game.loading and not any(set(b.shares) == set(bundle.shares) and b.percent == bundle.percent
                                             for b in self.issuable_shares(entity)):
            raise GameError(f"{entity.name} cannot issue those shares")
        self.last_share_issued_price = bundle.price_per_share()
        self.game.share_pool.sell_shares(bundle)
        self.game.move_share_price(entity, "left")

    def process_buy_train(self, action):
        entity = action.entity
        if self.last_share_issued_price is not None and not entity.trains:
            if not action.train.from_depot():
                raise GameError("Must buy a train from the train depot after issuing shares")
            if entity.cash - self.last_share_issued_price > action.integer("price"):
                raise GameError(f"More shares issued than needed to buy a {action.raw.get('variant')} train")
        super().process_buy_train(action)

    def pass_(self):
        entity = self.current_entity()
        closing = entity is not None and entity.share_price is not None and entity.share_price.price == 0
        if entity is not None and self.must_buy_after_issue(entity):
            raise GameError("Must buy a train from the train depot after issuing shares")
        super().pass_()
        if entity is None or entity.is_minor or closing or not self.game.trainless(entity):
            return
        self.log.append(f"{entity.name} does not own a train")
        self.game.move_share_price(entity, "left")

    def log_skip(self, entity):
        if not entity.is_minor:
            super().log_skip(entity)


class IssueShares(IssueSharesStep):
    """Not in a company's first operating turn; issuing moves the price one step left."""

    def issuable_shares(self, entity) -> list:
        if len(entity.operating_history) == 1:
            return []
        return super().issuable_shares(entity)

    def issue(self, entity, bundle):
        super().issue(entity, bundle)
        self.game.move_share_price(entity, "left")

    def log_skip(self, entity):
        if not entity.is_minor:
            super().log_skip(entity)


# ====================================================================== private closure round
class PrivateClosure(PrivateExchange, Step):
    """Each remaining private railway is exchanged for a share of a public company it reaches (a
    treasury share needs the president's approval; a market share may be taken when there is no
    treasury share, when the president refused, or when the same player presides) or sold to the
    bank for its face value."""

    description = "Exchange Private Companies"

    def setup(self):
        minor = self.current_entity()
        self.round.minor = minor
        self.round.approvals = {c: ("approved" if minor is not None and c.owner is minor.owner else "pending")
                                for c in self.game.corporations if c.floated()}

    @property
    def pass_description(self):
        entity = self.current_entity()
        return f"Sell {entity.id} to bank" if entity is not None else "Pass"

    def actions(self, entity):
        return ["choose", "pass"] if entity is self.current_entity() else []

    def auto_actions(self, entity):
        if self.exchange_corporations(entity):
            return None
        return [{"type": "pass", "entity": entity.id, "entity_type": "minor"}]

    def exchange_corporations(self, minor) -> list:
        game = self.game
        return [c for c in game.corporations if game.corporation_private_connected(c, minor)
                and (c.num_ipo_shares() > 0 or c.num_market_shares() > 0)]

    def options(self, minor) -> list:
        out = []
        approvals = self.round.approvals
        for corporation in self.exchange_corporations(minor):
            if corporation.num_ipo_shares() > 0:
                out.append({"corporation": corporation.id, "from": "treasury"})
            if corporation.num_market_shares() == 0:
                continue
            if corporation.num_ipo_shares() > 0 and approvals.get(corporation) != "denied" \
                    and corporation.owner is not minor.owner:
                continue
            out.append({"corporation": corporation.id, "from": "market"})
        return out

    def choices(self, entity) -> dict:
        return {"choices": self.options(entity)} if entity is self.current_entity() else {}

    def process_pass(self, action):
        self.game.close_private(action.entity)

    def process_choose(self, action):
        game = self.game
        choice = action.raw.get("choice")
        if not isinstance(choice, dict):
            raise GameError("Choose a public company and where the share comes from")
        corporation = game.corporation_by_id(choice.get("corporation"))
        location = choice.get("from")
        if corporation is None or location not in ("treasury", "market"):
            raise GameError("Choose a public company and 'treasury' or 'market'")
        minor = action.entity
        if not game.loading and choice not in self.options(minor):
            raise GameError(f"{minor.name} cannot be exchanged for a {corporation.id} {location} share")
        company = game.private_company(minor)
        player = company.owner
        if location == "market" and corporation.num_ipo_shares() > 0 and \
                self.round.approvals.get(corporation) == "pending":
            raise GameError("Cannot exchange for a treasury share unless a request for a treasury share has "
                            "been denied.")
        if location == "treasury" and self.round.approvals.get(corporation) != "approved":
            self.log_request(corporation, minor)
            self.round.pending_approval = corporation
            return
        if location == "treasury":
            share = corporation.shares_of(corporation)[0]
        else:
            share = game.share_pool.shares_of(corporation)[0]
        self.exchange_for_share(share, corporation, minor, player, location == "treasury")
        if location != "treasury":
            company.owner = game.bank
            if company in player.companies:
                player.companies.remove(company)
        game.close_private(company)
