"""Auction steps: the waterfall private auction, a draft of private companies at face value, and
parring a corporation whose president's certificate came with a private company."""

from __future__ import annotations

from ...errors import GameError
from ..step import Step


class CompanyPendingParStep(Step):
    description = "Choose Corporation Par Value"

    def actions(self, entity):
        return ["par"] if entity is self.current_entity() else []

    def active(self):
        return bool(self.round.companies_pending_par)

    def active_entities(self):
        pending = self.round.companies_pending_par
        return [pending[0].owner] if pending and pending[0].owner is not None else []

    def round_state(self):
        return {"companies_pending_par": []}

    def process_par(self, action):
        corporation, share_price = action.corporation, action.share_price
        self.game.market.set_par(corporation, share_price)
        self.game.share_pool.buy_shares(action.entity, corporation.shares_of(corporation)[0], exchange="free")
        self.game.after_par(corporation)
        self.round.companies_pending_par.pop(0)


class WaterfallAuctionStep(Step):
    """Players in turn buy the cheapest private at its price or bid on a later one. Bids on a private
    are resolved when it becomes the cheapest; several bids mean an auction among those bidders."""

    ACTIONS = ["bid", "pass"]
    description = "Bid on Companies"
    ability_time = "waterfall_auction"

    def setup(self):
        self.bids = {}
        self.companies = sorted(self.game.initial_auction_companies(), key=lambda c: (c.min_bid, c.name))
        self.cheapest = self.companies[0] if self.companies else None
        self.bidders = {}
        self.auctioning = None

    def round_state(self):
        return {"companies_pending_par": []}

    # -------------------------------------------------------------- auction state
    def _bids(self, company) -> list:
        return self.bids.setdefault(company, [])

    def active_auction(self):
        """(company, bids) of the auction in progress, if any."""
        company = self.auctioning
        bids = self.bids.get(company, []) if company is not None else []
        if len(bids) > 1:
            return company, bids
        return None

    def active_entities(self):
        auction = self.active_auction()
        if auction is not None:
            return [min(auction[1], key=lambda b: b["price"])["entity"]]
        return super().active_entities()

    def actions(self, entity):
        if not self.companies:
            return []
        auction = self.active_auction()
        correct = auction is not None and min(auction[1], key=lambda b: b["price"])["entity"] is entity
        return list(self.ACTIONS) if correct or entity is self.current_entity() else []

    def may_purchase(self, company) -> bool:
        if self.active_auction() is not None:
            return False
        return company is not None and self.companies and company is self.companies[0]

    def highest_bid(self, company):
        bids = self.bids.get(company, [])
        return max(bids, key=lambda b: b["price"]) if bids else None

    def min_bid(self, company) -> int | None:
        if company is None:
            return None
        if self.may_purchase(company):
            return company.min_bid
        high = self.highest_bid(company)
        return (high["price"] if high else company.min_bid) + self.game.rules["min_bid_increment"]

    def committed_cash(self, player) -> int:
        total = 0
        for bids in self.bids.values():
            if self.game.rules["only_highest_bid_committed"]:
                top = max(bids, key=lambda b: b["price"]) if bids else None
                if top is not None and top["entity"] is player:
                    total += top["price"]
            else:
                total += sum(b["price"] for b in bids if b["entity"] is player)
        return total

    def current_bid_amount(self, player, company) -> int:
        for b in self.bids.get(company, []):
            if b["entity"] is player:
                return b["price"]
        return 0

    def max_bid(self, player, company) -> int:
        return player.cash - self.committed_cash(player) + self.current_bid_amount(player, company)

    # -------------------------------------------------------------- actions
    def process_pass(self, action):
        entity = action.entity
        if self.active_auction() is not None:
            self.log.append(f"{entity.name} passes on {self.auctioning.name}")
            bids = self.bids.get(self.auctioning, [])
            self.bids[self.auctioning] = [b for b in bids if b["entity"] is not entity]
            self.resolve_bids()
        else:
            self.log.append(f"{entity.name} passes bidding")
            entity.passed = True
            if all(e.passed for e in self.round.entities):
                self.all_passed()
            self.round.next_entity_index()

    def process_bid(self, action):
        entity = action.entity
        entity.passed = False
        company = action.company
        price = action.integer("price")
        if company not in self.companies:
            raise GameError(f"{company.name} is not available")
        if self.active_auction() is not None:
            if company is not self.auctioning:
                raise GameError(f"Only {self.auctioning.name} is being auctioned now")
            self.add_bid(entity, company, price)
        else:
            self.placement_bid(entity, company, price)
            self.round.next_entity_index()

    def placement_bid(self, entity, company, price):
        if self.may_purchase(company):
            if price < company.min_bid:
                raise GameError(f"{company.name} costs {self.game.fmt(company.min_bid)}")
            self.round.last_to_act = entity
            self.buy_company(entity, company, price)
            self.resolve_bids()
        else:
            self.add_bid(entity, company, price)

    def add_bid(self, entity, company, price):
        minimum = self.min_bid(company)
        if price < minimum:
            raise GameError(f"Minimum bid is {self.game.fmt(minimum)} for {company.name}")
        if self.game.rules["must_bid_increment_multiple"] and (price - minimum) % self.game.rules["min_bid_increment"]:
            raise GameError(f"Must increase bid by a multiple of {self.game.rules['min_bid_increment']}")
        maximum = self.max_bid(entity, company)
        if price > maximum:
            raise GameError(f"Cannot afford bid. Maximum possible bid is {maximum}")
        bids = [b for b in self._bids(company) if b["entity"] is not entity]
        bids.append({"entity": entity, "price": price})
        self.bids[company] = bids
        bidders = self.bidders.setdefault(company, [])
        if entity not in bidders:
            bidders.append(entity)
        self.log.append(f"{entity.name} bids {self.game.fmt(price)} for {company.name}")

    def resolve_bids(self):
        while self.companies:
            if not self.resolve_bids_for_company(self.companies[0]):
                break

    def resolve_bids_for_company(self, company) -> bool:
        is_new = company is not self.auctioning
        self.auctioning = None
        bids = self.bids.get(company, [])
        if len(bids) == 1:
            bid = bids[0]
            del self.bids[company]
            self.buy_company(bid["entity"], company, bid["price"])
            return True
        if company is self.companies[0] and len(bids) > 1:
            self.auctioning = company
            if is_new:
                self.log.append(f"{company.name} goes up for auction")
        return False

    def all_passed(self):
        if self.cheapest in self.companies:
            self.increase_discount(self.cheapest, 5)
        else:
            self.game.payout_companies()
            self.game.or_set_finished()
        for e in self.round.entities:
            e.passed = False

    def increase_discount(self, company, discount):
        before = company.min_bid
        company.discount += discount
        self.log.append(f"{company.name} minimum bid decreases from {self.game.fmt(before)} to "
                        f"{self.game.fmt(company.min_bid)}")
        if company.min_bid > 0:
            return
        self.round.next_entity_index()
        self.buy_company(self.current_entity(), company, 0)
        self.resolve_bids()

    def buy_company(self, player, company, price):
        available = self.max_bid(player, company)
        if available < price:
            raise GameError(f"{player.name} has {self.game.fmt(available)} available and cannot spend "
                            f"{self.game.fmt(price)}")
        company.owner = player
        player.companies.append(company)
        if price > 0:
            player.spend(price, self.game.bank)
        self.companies.remove(company)
        n = len(self.bidders.get(company, []))
        if n == 0:
            self.log.append(f"{player.name} buys {company.name} for {self.game.fmt(price)}")
        elif n == 1:
            self.log.append(f"{player.name} wins the auction for {company.name} with the only bid of "
                            f"{self.game.fmt(price)}")
        else:
            self.log.append(f"{player.name} wins the auction for {company.name} with a bid of {self.game.fmt(price)}")
        self.game.after_buy_company(player, company, price)

    # -------------------------------------------------------------- for clients
    def choices(self, entity) -> dict:
        return {
            "companies": [{"company": c.id, "min_bid": self.min_bid(c), "may_buy": self.may_purchase(c)}
                          for c in self.companies if self.active_auction() is None or c is self.auctioning],
            "max_bid": {c.id: self.max_bid(entity, c) for c in self.companies},
        }


class BidTracker:
    """Mixin: bids on several items at once (e.g. bid boxes in a stock round). ``self.bids`` maps an
    item to its bids, ``{"entity", "company", "price"}`` in the order made; an entity has at most one
    bid per item (a new bid replaces it) and the highest bid on an item is the winning one."""

    bids: dict

    def highest_bid(self, company):
        bids = self.bids.get(company)
        if not bids:
            return None
        best = bids[0]
        for bid in bids[1:]:
            if bid["price"] > best["price"]:
                best = bid
        return best

    def find_bid(self, player, company):
        return next((b for b in self.bids.get(company, ()) if b["entity"] is player), None)

    def place_bid(self, entity, company, price) -> None:
        bids = [b for b in self.bids.get(company, ()) if b["entity"] is not entity]
        bids.append({"entity": entity, "company": company, "price": price})
        self.bids[company] = bids

    def bids_for_player(self, player, only_committed=False) -> list:
        """The player's bids (only those that are the highest on their item, with ``only_committed``)."""
        out = []
        for company in self.bids:
            if only_committed:
                bid = self.highest_bid(company)
                if bid is not None and bid["entity"] is player:
                    out.append(bid)
            else:
                bid = self.find_bid(player, company)
                if bid is not None:
                    out.append(bid)
        return out

    def committed_cash(self, player) -> int:
        return sum(b["price"] for b in self.bids_for_player(player, only_committed=True))


class PassableAuctionMixin(BidTracker):
    """One item at a time goes up for auction among the round's players. The player who puts it up
    makes the first bid; the others may raise (by the minimum increment or multiples of it) or pass,
    and a player who passes (or can no longer afford the minimum) is out of that auction. The last
    bidder standing wins (``win_auction``). The step supplies ``min_bid(item)``, ``max_bid(player,
    item)`` and ``win_auction(bid, item)``."""

    def setup_auction(self):
        self.bids = {}               # item -> bids (see BidTracker), one per player
        self.auctioning = None
        self.active_bidders = []
        self.auction_triggerer = None

    def auction_bidder(self):
        """The bidder whose turn it is: the next one still in after the highest bidder."""
        bidders = self.active_bidders
        high = self.highest_bid(self.auctioning)
        if not bidders or high is None or high["entity"] not in bidders:
            return bidders[0] if bidders else None
        return bidders[(bidders.index(high["entity"]) + 1) % len(bidders)]

    def auction_entities(self) -> list:
        return list(self.round.entities)

    def check_bid(self, entity, item, price):
        minimum = self.min_bid(item)
        if price < minimum:
            raise GameError(f"Minimum bid is {self.game.fmt(minimum)} for {item.name}")
        step = self.game.rules["min_bid_increment"]
        if self.game.rules["must_bid_increment_multiple"] and (price - minimum) % step:
            raise GameError(f"Must increase bid by a multiple of {step}")
        maximum = self.max_bid(entity, item)
        if price > maximum:
            raise GameError(f"Cannot afford bid. Maximum possible bid is {maximum}")

    def start_auction(self, entity, item, price):
        """``entity`` puts ``item`` up with a first bid of ``price`` (already checked)."""
        self.place_bid(entity, item, price)
        self.auction_triggerer = entity
        self.auctioning = item
        minimum = self.min_bid(item)
        self.active_bidders = []
        for player in self.auction_entities():
            if player is entity or self.max_bid(player, item) >= minimum:
                self.active_bidders.append(player)
            else:
                self.log.append(f"{player.name} cannot bid {self.game.fmt(minimum)} and is out of the auction "
                                f"for {item.name}")
        self.resolve_auction()

    def raise_bid(self, entity, item, price):
        """A bid in the auction under way (already checked); bidders who cannot follow drop out."""
        self.place_bid(entity, item, price)
        minimum = self.min_bid(item)
        out = [p for p in self.active_bidders if p is not entity and self.max_bid(p, item) < minimum]
        for player in out:
            self.log.append(f"{player.name} cannot bid {self.game.fmt(minimum)} and is out of the auction "
                            f"for {item.name}")
            self.drop_bidder(player)
        self.resolve_auction()

    def pass_auction(self, entity):
        self.log.append(f"{entity.name} passes on {self.auctioning.name}")
        self.drop_bidder(entity)
        self.resolve_auction()

    def drop_bidder(self, entity):
        if entity in self.active_bidders:
            self.active_bidders.remove(entity)
        item = self.auctioning
        if item is not None and item in self.bids:
            self.bids[item] = [b for b in self.bids[item] if b["entity"] is not entity]

    def resolve_auction(self):
        item = self.auctioning
        if item is None:
            return
        if self.active_bidders:
            bids = self.bids.get(item) or []
            if len(self.active_bidders) != 1 or not bids:
                return
            winner = bids[0]
        else:
            winner = None
        self.win_auction(winner, item)
        self.bids.clear()
        self.active_bidders = []
        self.auctioning = None


class DraftStep(Step):
    """In turn, each player takes one private company at its face value or passes; a player who cannot
    afford any company passes by himself. The companies offered are ``game.draft_companies()``."""

    ACTIONS = ["bid", "pass"]
    description = "Draft Private Companies"
    ability_time = "draft"

    def setup(self):
        self.companies = list(self.game.draft_companies())

    def all_drafted(self) -> bool:
        return not any(c.owner is None and not c.closed for c in self.game.companies)

    def price(self, company) -> int:
        return company.value

    def can_buy_any(self, player) -> bool:
        return any(player.cash >= self.price(c) for c in self.companies)

    def actions(self, entity):
        if entity is not self.current_entity() or self.acted or not self.can_buy_any(entity):
            return []
        return list(self.ACTIONS)

    def process_bid(self, action):
        player, company = action.entity, action.company
        price = action.integer("price")
        if company not in self.companies:
            raise GameError(f"{company.name} is not available")
        if price != self.price(company):
            raise GameError(f"{company.name} costs {self.game.fmt(self.price(company))}")
        if player.cash < price:
            raise GameError(f"{player.name} has {self.game.fmt(player.cash)} and cannot pay {self.game.fmt(price)}")
        player.passed = False
        company.owner = player
        player.companies.append(company)
        player.spend(price, self.game.bank)
        self.companies.remove(company)
        self.log.append(f"{player.name} buys {company.name} for {self.game.fmt(price)}")
        self.game.after_buy_company(player, company, price)

    def process_pass(self, action):
        super().process_pass(action)
        action.entity.passed = True

    def log_pass(self, entity):
        self.log.append(f"{entity.name} passes")

    def log_skip(self, entity):
        self.log.append(f"{entity.name} cannot afford any company and passes")

    def skip(self):
        entity = self.current_entity()
        acted = self.acted
        super().skip()
        if entity is not None and not acted:
            entity.passed = True

    def choices(self, entity) -> dict:
        # the waterfall auction's format: a company is bought at its one price (min_bid = max_bid)
        affordable = [c for c in self.companies if entity.cash >= self.price(c)]
        return {"companies": [{"company": c.id, "min_bid": self.price(c), "may_buy": True} for c in affordable],
                "max_bid": {c.id: self.price(c) for c in affordable}}
