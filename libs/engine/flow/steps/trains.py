"""Buying and discarding trains, including emergency money raising by the president."""

from __future__ import annotations

from ...core.trains import discounted_price
from ...errors import GameError
from ..step import Step


class EmergencyMoneyMixin:
    """Selling shares to raise money the president owes (for a train, interest, a forced loan repayment)."""

    def process_sell_shares(self, action):
        if not self.can_sell(action.entity, action.bundle):
            raise GameError(f"Cannot sell shares of {action.bundle.corporation.name}")
        self.game.sell_shares_and_change_price(action.bundle)
        if hasattr(self.round, "recalculate_order"):
            self.round.recalculate_order()

    def can_sell(self, entity, bundle) -> bool:
        if entity is not bundle.owner:
            return False
        if not self.game.check_sale_timing(entity, bundle):
            return False
        if not self.sellable_bundle(bundle):
            return False
        if self.game.rules["ebuy_sell_more_than_needed"]:
            return True
        return self.selling_minimum_shares(bundle)

    def selling_minimum_shares(self, bundle) -> bool:
        seller = bundle.owner
        needed = self.needed_cash(seller) - self.available_cash(seller)
        smaller = bundle.price - min(s.price for s in bundle.shares)
        return smaller < needed

    def sellable_bundle(self, bundle) -> bool:
        seller = bundle.owner
        if not bundle.can_dump(seller) or not self.game.share_pool.fit_in_bank(bundle):
            return False
        corporation = bundle.corporation
        if not corporation.president(seller) or not self.president_swap_concern(corporation):
            return True
        return not self.causes_president_swap(corporation, bundle)

    def president_swap_concern(self, corporation) -> bool:
        return not self.game.rules["ebuy_pres_swap"] or corporation is self.current_entity()

    def causes_president_swap(self, corporation, bundle) -> bool:
        seller = bundle.owner
        holders = corporation.player_share_holders(corporate=True)
        remaining = holders.get(seller, 0) - bundle.percent
        others = [p for h, p in holders.items() if h is not seller]
        return remaining < (max(others) if others else 0)


class TrainMixin(EmergencyMoneyMixin):
    def setup(self):
        super().setup()
        self.depot = self.game.depot
        self.last_share_sold_price = None
        self.corporations_sold = []

    def room(self, entity) -> bool:
        return self.game.num_corp_trains(entity) < self.game.train_limit(entity)

    def train_discounts(self, entity) -> list:
        return self.game.abilities(entity, "train_discount") if entity is not None else []

    def can_buy_train(self, entity=None) -> bool:
        entity = entity or self.current_entity()
        price = self.depot.min_price(entity, self.train_discounts(entity))
        if self.room(entity) and price is not None and self.buying_power(entity) >= price:
            return True
        return any(self.buying_power(entity) >= p for _, _, _, p in self.game.discountable_trains_for(entity))

    def must_buy_train(self, entity) -> bool:
        return self.game.must_buy_train(entity)

    def president_may_contribute(self, entity) -> bool:
        return self.must_buy_train(entity)

    def can_ebuy_sell_shares(self, entity) -> bool:
        return self.game.rules["ebuy_can_sell_shares"]

    def needed_cash(self, entity) -> int:
        if self.game.rules["ebuy_depot_train_must_be_cheapest"]:
            return self.depot.min_depot_price()
        return self.depot.max_depot_price()

    def available_cash(self, entity) -> int:
        current = self.current_entity()
        if entity is current:
            return current.cash
        return entity.cash + current.cash

    def can_sell(self, entity, bundle) -> bool:
        if self.game.rules["must_sell_in_blocks"] and bundle.corporation in self.corporations_sold:
            return False
        return super().can_sell(entity, bundle)

    def process_sell_shares(self, action):
        if action.entity is not self.current_entity():
            self.last_share_sold_price = action.bundle.price_per_share()
        super().process_sell_shares(action)
        if action.entity is not self.current_entity():
            self.corporations_sold.append(action.bundle.corporation)

    def other_trains(self, entity) -> list:
        return self.depot.other_trains(entity)

    def buyable_trains(self, entity) -> list:
        depot_trains = list(self.depot.depot_trains())
        others = list(self.other_trains(entity)) if self.game.rules["allow_train_buy_from_others"] else []
        if entity.cash < self.depot.min_depot_price():
            if self.game.rules["ebuy_depot_train_must_be_cheapest"]:
                cheapest = self.depot.min_depot_train()
                depot_trains = [cheapest] if cheapest is not None else []
            if self.last_share_sold_price is not None:
                if self.game.rules["ebuy_from_others"] != "never":
                    others = [t for t in others if t.price() >= self.spend_minmax(entity, t)[0]]
                else:
                    others = []
        if entity.cash == 0 and self.game.rules["ebuy_from_others"] == "never":
            others = []
        if not self.president_may_contribute(entity):
            others = [t for t in others if not (entity.cash < t.price() and self.must_buy_at_face_value(t, entity))]
        return depot_trains + others

    def face_value_ability(self, entity) -> bool:
        for ability in self.game.abilities(entity, "train_buy"):
            return bool(ability.face_value)
        return False

    def must_buy_at_face_value(self, train, entity) -> bool:
        return bool(self.game.rules["always_buy_trains_at_face_value"] or self.face_value_ability(entity)
                    or (train.owner is not None and self.face_value_ability(train.owner)))

    def spend_minmax(self, entity, train):
        if self.game.rules["ebuy_from_others"] != "never" and self.buying_power(entity) < train.price():
            max_possible = self.buying_power(entity) + entity.owner.cash
            low = max_possible - self.last_share_sold_price + 1 if self.last_share_sold_price else 1
            high = min(train.price(), max_possible) if self.game.rules["ebuy_from_others"] == "value" else max_possible
            return low, high
        return 1, self.buying_power(entity)

    def check_spend(self, action):
        low, high = self.spend_minmax(action.entity, action.train)
        price = action.integer("price")
        if low <= price <= high:
            return
        if not (action.train.owner is not None and action.train.owner.is_corporation):
            return
        if high == 0 and self.game.rules["ebuy_from_others"] == "never":
            raise GameError(f"{action.entity.name} may not buy a train from another corporation.")
        raise GameError(f"{action.entity.name} may not spend {self.game.fmt(price)} on "
                        f"{action.train.owner.name}'s {action.train.name} train; may only spend between "
                        f"{self.game.fmt(low)} and {self.game.fmt(high)}.")

    def buyable_train_variants(self, train, entity) -> list:
        if not any(bt.name in bt.variants for bt in self.buyable_trains(entity)):
            return []
        return list(train.variants.values())

    def exchangeable_train_variants(self, train, entity) -> list:
        info = self.game.discountable_trains_for(entity)
        if not any(dt.name in dt.variants for _, dt, _, _ in info):
            return []
        return list(train.variants.values())

    def buy_train_action(self, action, entity=None):
        game = self.game
        entity = entity or action.entity
        train = action.train
        price = action.integer("price")
        exchange = action.exchange
        if price < 0:
            raise GameError("A train purchase needs a price of at least 0")
        variant_name = action.raw.get("variant")
        if variant_name and variant_name not in train.variants:
            raise GameError(f"{train.id} has no variant {variant_name}")
        variants = self.exchangeable_train_variants(train, entity) if exchange is not None else \
            self.buyable_train_variants(train, entity)
        chosen = train.variants.get(variant_name) if variant_name else train.variant
        if chosen not in variants or not (train in self.depot.available(entity) or train in self.buyable_trains(entity)):
            raise GameError(f"Not a buyable train: {train.id}")
        if not train.from_depot() and self.must_buy_at_face_value(train, entity) and train.price() != price:
            raise GameError("Must pay face value")
        if train.owner is entity:
            raise GameError("An entity cannot buy a train from itself")
        if train.from_depot():
            expected = train.price(exchange, variant=chosen) if exchange is not None else chosen["price"]
            discounted = discounted_price(self.train_discounts(entity), chosen) if exchange is None else expected
            if price not in (expected, discounted):
                raise GameError(f"The {chosen['name']} train costs {game.fmt(discounted)}")
        train.set_variant(variant_name)
        remaining = price - self.buying_power(entity)
        if remaining > 0 and self.president_may_contribute(entity):
            self.check_for_cheapest_train(train)
            if exchange is not None:
                raise GameError("Cannot contribute funds when exchanging")
            if price > train.price() and not (train.owner is not None and train.owner.is_corporation):
                raise GameError("Cannot buy for more than cost")
            self.president_contribution(entity, remaining)
        self.before_train_cost(entity, price)
        verb = "buys"
        if exchange is not None:
            verb = f"exchanges a {exchange.name} for"
            self.depot.reclaim_train(exchange)
        source = train.owner
        source_name = "The Discard" if train in self.depot.discarded else source.name
        self.log.append(f"{entity.name} {verb} a {train.name} train for {game.fmt(price)} from {source_name}")
        game.buy_train(entity, train, price)
        game.phase.buying_train(entity, train, source)
        if not self.can_buy_train(entity) and self.pass_if_cannot_buy_train(entity):
            self.pass_()

    def president_contribution(self, entity, remaining):
        """The president pays what the treasury lacks (a title may lend him the money first)."""
        player = entity.owner
        player.spend(remaining, entity)
        self.log.append(f"{player.name} contributes {self.game.fmt(remaining)}")

    def before_train_cost(self, entity, price):
        """Hook: a title may raise money (e.g. a loan) before paying for a train."""

    def pass_if_cannot_buy_train(self, entity) -> bool:
        return True

    def president_funds(self, entity) -> int:
        """What the president can put towards a train now (his cash; a title may add a loan)."""
        return entity.owner.cash if entity.owner is not None else 0

    def cheapest_variant(self, train, name) -> bool:
        """Whether ``train`` bought as variant ``name`` passes the cheapest-train rule of emergency buys."""
        try:
            saved = train.name
            train.name = name
            self.check_for_cheapest_train(train)
            return True
        except GameError:
            return False
        finally:
            train.name = saved

    def check_for_cheapest_train(self, train):
        cheapest = self.depot.min_depot_train()
        if cheapest is None:
            return
        prices = {}
        for name, v in cheapest.variants.items():
            prices.setdefault(v["price"], []).append(name)
        names = prices[min(prices)]
        if train.name not in names and self.game.rules["ebuy_depot_train_must_be_cheapest"] and (
                self.game.rules["ebuy_from_others"] == "never" or train.from_depot()):
            raise GameError(f"Cannot purchase {train.name} train: cheaper train available ({names[0]})")


class BuyTrainStep(TrainMixin, Step):
    description = "Buy Trains"
    ability_time = "buy_train"

    @property
    def pass_description(self):
        return "Done (Trains)" if self.acted else "Skip (Trains)"

    def actions(self, entity):
        if entity.is_minor:
            return []
        current = self.current_entity()
        if current is not None and entity is current.owner and self.can_ebuy_sell_shares(current):
            return ["sell_shares"]
        if entity is not current:
            return []
        if self.president_may_contribute(entity):
            return ["sell_shares", "buy_train"]
        if self.can_buy_train(entity):
            return ["buy_train", "pass"]
        return []

    def choices(self, entity) -> dict:
        if entity is not self.current_entity():
            return {"trains": []}
        out = []
        power = self.buying_power(entity)
        contribute = self.president_may_contribute(entity)
        for train in self.buyable_trains(entity):
            for name, variant in train.variants.items():
                entry = {"train": train.id, "variant": name,
                         "owner": train.owner.id if train.owner is not None else None}
                if train.from_depot():
                    # Beyond the treasury only when the president must help (then only the cheapest
                    # train, where the rules say so), and only as far as his cash goes (he sells shares
                    # first: see emergency_sales; a title may lend him the rest).
                    cost = discounted_price(self.train_discounts(entity), variant)
                    if cost > power:
                        if not contribute or not self.cheapest_variant(train, name):
                            continue
                        if cost > power + max(self.president_funds(entity), 0):
                            continue
                    entry["price"] = cost
                elif self.must_buy_at_face_value(train, entity):
                    if train.price() > power:
                        continue
                    entry["price"] = train.price()
                else:
                    low, high = self.spend_minmax(entity, train)
                    if not contribute:
                        high = min(high, power)   # only a president who must help may add his cash
                    if high < low:
                        continue
                    entry.update({"min_price": low, "max_price": high})
                out.append(entry)
        exchanges = [{"train": dt.id, "variant": name, "exchange": t.id, "price": price}
                     for t, dt, name, price in self.game.discountable_trains_for(entity) if price <= power]
        return {"trains": out, "exchanges": exchanges, "must_buy": self.must_buy_train(entity),
                "emergency_sales": self.sellable(entity.owner) if self.president_may_contribute(entity)
                and self.can_ebuy_sell_shares(entity) else []}

    def sellable(self, player) -> list:
        """Bundles the president may sell to raise money now."""
        out = []
        if player is None:
            return out
        for corporation, shares in list(player.shares_by_corporation.items()):
            if not shares:
                continue
            for bundle in self.game.bundles_for_corporation(player, corporation):
                if self.can_sell(player, bundle):
                    out.append({"entity": player.id, "entity_type": "player",   # the president sells
                                "shares": [s.id for s in bundle.shares], "percent": bundle.percent,
                                "price": bundle.price})
        return out

    def process_buy_train(self, action):
        self.check_spend(action)
        self.buy_train_action(action)
        if not self.can_buy_train(action.entity) and self.pass_if_cannot_buy_train(action.entity):
            self.pass_()

    def pass_(self):
        self.last_share_sold_price = None
        super().pass_()

    def log_skip(self, entity):
        if self.game.num_corp_trains(entity) < self.game.train_limit(entity):
            super().log_skip(entity)
        else:
            self.log.append(f"{entity.name} automatically skips {self.description.lower()} because it has no "
                            "room for more trains")


class BuySingleTrainOfTypeStep(BuyTrainStep):
    """Buying trains where a corporation may buy at most one train of each type from the depot per
    turn (trains from other corporations are not limited)."""

    def setup(self):
        super().setup()
        self.depot_types_bought = []

    def buyable_trains(self, entity) -> list:
        return [t for t in super().buyable_trains(entity)
                if not (t.from_depot() and t.sym in self.depot_types_bought)]

    def process_buy_train(self, action):
        train = action.train
        if train.from_depot() and train.sym in self.depot_types_bought:
            raise GameError(f"{action.entity.name} has already bought a {train.name} train from the depot this turn")
        from_depot = train.from_depot()
        super().process_buy_train(action)
        if not from_depot:
            return
        self.depot_types_bought.append(train.sym)
        if not self.passed and not self.buyable_trains(action.entity):
            self.pass_()


class DiscardTrainStep(Step):
    ACTIONS = ["discard_train"]
    description = "Discard Trains"
    ability_time = "discard_train"

    def crowded_corps(self) -> list:
        return self.game.crowded_corps()

    def actions(self, entity):
        return list(self.ACTIONS) if entity in self.crowded_corps() else []

    def active_entities(self):
        return self.crowded_corps()[:1]

    def active(self):
        return bool(self.crowded_corps())

    def choices(self, entity) -> dict:
        return {"discard_train": [t.id for t in entity.trains] if entity in self.crowded_corps() else []}

    def process_discard_train(self, action):
        train = action.train
        if train.owner is not action.entity:
            raise GameError(f"{action.entity.name} does not own {train.id}")
        self.game.depot.reclaim_train(train)
        self.log.append(f"{action.entity.name} discards {train.name}")
