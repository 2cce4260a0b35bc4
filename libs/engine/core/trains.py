"""Trains, the depot that sells them, and the phases their purchases advance."""

from __future__ import annotations

from ..journal import Tracked
from ..jsoncopy import copy_json
from .money import Kind


class Train(Tracked):
    """One physical train card. ``variants`` maps a variant name to its definition; the card is
    bought as one of them (the first is the base)."""

    def __init__(self, name, distance, price, index=0, *, defn=None, **opts):
        self.sym = name
        self.id = f"{name}-{index}"   # (a train's symbol and index never change)
        self.name = name
        self.distance = distance
        self.price_ = price
        self.index = index
        self.rusts_on = opts.get("rusts_on")
        self.obsolete_on = opts.get("obsolete_on")
        self.available_on = opts.get("available_on")
        self.discount = opts.get("discount")
        self.multiplier = opts.get("multiplier")
        self.no_local = opts.get("no_local")
        requires = opts.get("requires_token")
        self.requires_token = True if requires is None else bool(requires)
        self.track_type = opts.get("track_type") or "broad"   # the gauge it runs on (broad or narrow)
        self.unlimited = opts.get("num") == "unlimited"
        self.events = [e for e in (opts.get("events") or []) if index == (e.get("when") or 1) - 1]
        self.owner = None
        self.buyable_ = True
        self.rusted = False
        self.obsolete = False
        self.operated = False
        self.ever_operated = False
        self.defn = defn if defn is not None else {"name": name, "distance": distance, "price": price, **opts}
        base = {"name": name, "distance": distance, "price": price, "rusts_on": self.rusts_on,
                "obsolete_on": self.obsolete_on, "discount": self.discount, "multiplier": self.multiplier,
                "track_type": self.track_type, "no_local": self.no_local}
        self.variants = {name: base}
        for v in opts.get("variants") or ():
            if v["name"] not in self.variants:
                self.variants[v["name"]] = {**base, **v}
        self.variant = base

    def set_variant(self, name) -> None:
        if not name or name not in self.variants:
            return
        v = self.variants[name]
        self.variant = v
        self.name = v["name"]
        self.distance = v["distance"]
        self.price_ = v["price"]
        self.rusts_on = v.get("rusts_on")
        self.obsolete_on = v.get("obsolete_on")
        self.discount = v.get("discount")
        self.multiplier = v.get("multiplier")
        self.track_type = v.get("track_type") or "broad"
        self.no_local = v.get("no_local")

    @property
    def local(self) -> bool:
        """A local train runs within one city (distance 1, or one city in its distance table)."""
        if self.no_local:
            return False
        distance = self.distance
        if not isinstance(distance, list):
            return distance == 1
        for row in distance:
            if "city" in row["nodes"]:
                return row.get("visit", row["pay"]) == 1
        return False

    def remove_variants(self) -> None:
        """The card may no longer be turned into its other variants."""
        self.variants = {self.name: self.variant}

    def price(self, exchange_train=None, variant=None) -> int:
        discount = variant.get("discount") if variant is not None else self.discount
        price = variant["price"] if variant is not None else self.price_
        if discount and exchange_train is not None:
            price -= discount.get(exchange_train.name, 0)
        return price

    def set_operated(self, value: bool) -> None:
        self.ever_operated = self.ever_operated or value
        self.operated = value

    def buyable(self, allow_obsolete=False) -> bool:
        return self.buyable_ and (not self.obsolete or allow_obsolete)

    def from_depot(self) -> bool:
        return isinstance(self.owner, Depot)

    def clone_unlimited(self) -> "Train":
        base = next(iter(self.variants.values()))
        opts = {k: v for k, v in self.defn.items() if k not in ("name", "distance", "price")}
        return Train(base["name"], base["distance"], base["price"], self.index + 1, defn=self.defn, **opts)

    def __repr__(self):
        return f"<Train {self.id}>"


class Depot(Kind):
    """The bank's trains: the queue still to be sold (``upcoming``) and trains discarded to it."""

    name = "The Depot"
    id = "depot"

    def __init__(self, trains, game):
        self.game = game
        self.trains = list(trains)
        for t in self.trains:
            t.owner = self
        self.upcoming = list(self.trains)
        self.discarded = []
        self._depot_trains = None

    def reclaim_train(self, train) -> None:
        if train.owner is None:
            return
        self.game.remove_train(train)
        train.owner = self
        if self.game.rules["discarded_trains"] == "discard" and not train.obsolete:
            self.discarded.append(train)
        self._depot_trains = None

    def forget_train(self, train) -> None:
        """Take a train out of the game for good (e.g. a scrapped train)."""
        if train in self.trains:
            self.trains.remove(train)
        self.remove_train(train)

    def remove_train(self, train) -> None:
        self._delete_from_upcoming(train)
        if train in self.discarded:
            self.discarded.remove(train)
        self._depot_trains = None

    def _delete_from_upcoming(self, train) -> None:
        try:
            index = self.upcoming.index(train)
        except ValueError:
            return
        del self.upcoming[index]
        if not train.unlimited:
            return
        if index < len(self.upcoming) and self.upcoming[index].name == train.name:
            return
        clone = train.clone_unlimited()
        clone.owner = self
        self.trains.append(clone)
        self.upcoming.insert(index, clone)
        self._depot_trains = None

    def depot_trains(self, clear=False) -> list:
        if clear:
            self._depot_trains = None
        if self._depot_trains is None:
            out, names = [], set()
            candidates = ([self.upcoming[0]] if self.upcoming else []) + [
                t for t in self.upcoming if self.game.phase.available(t.available_on)]
            for t in candidates:
                if t.name not in names:
                    names.add(t.name)
                    out.append(t)
            seen = set()
            for t in self.discarded:
                if t.name not in seen:
                    seen.add(t.name)
                    out.append(t)
            self._depot_trains = out
        return self._depot_trains

    def other_trains(self, corporation) -> list:
        return list(self._other_trains(corporation))

    def _other_trains(self, corporation):
        """The trains ``corporation`` could buy from other owners, one at a time."""
        rules = self.game.rules
        if not rules["allow_train_buy_from_others"]:
            return
        allow_obsolete = rules["allow_obsolete_train_buy"]
        any_player = rules["allow_train_buy_from_other_players"]
        for t in self.trains:
            owner = t.owner   # (most trains are the depot's or the buyer's: the cheaper checks first)
            if owner is not self and owner is not corporation and owner is not None and t.buyable(allow_obsolete) \
                    and (any_player or owner.owner is corporation.owner):
                yield t

    def available(self, corporation) -> list:
        return self.depot_trains() + self.other_trains(corporation)

    def min_depot_train(self):
        trains = self.depot_trains()
        return min(trains, key=lambda t: t.price()) if trains else None

    def min_depot_price(self) -> int:
        train = self.min_depot_train()
        if train is None:
            return 0
        return min(v["price"] for v in train.variants.values())

    def max_depot_price(self) -> int:
        trains = self.depot_trains()
        if not trains:
            return 0
        train = max(trains, key=lambda t: t.price())
        return max(v["price"] for v in train.variants.values())

    def min_price(self, corporation, discounts=()) -> int | None:
        """The cheapest price ``corporation`` could pay for any train (1 for a train from another
        owner), with ``discounts`` (train_discount abilities) applied to depot trains."""
        prices = [min(discounted_price(discounts, v) for v in t.variants.values()) if t.from_depot() else 1
                  for t in self.depot_trains()]
        best = min(prices) if prices else None
        if (best is None or best > 1) and next(self._other_trains(corporation), None) is not None:
            best = 1   # (a train from another owner: its price is agreed, at least 1)
        return best

    def empty(self) -> bool:
        return not self.depot_trains()


class Phase(Tracked):
    """The current phase and the ones still to come. A phase starts when its train is first bought."""

    def __init__(self, phases, game):
        self.phases = phases
        self.index = 0
        self.game = game
        self._setup()

    @property
    def current(self) -> dict:
        return self.phases[self.index]

    @property
    def name(self) -> str:
        return self.current["name"]

    @property
    def tiles(self) -> list:
        return self.current["tiles"]

    @property
    def status(self) -> list:
        return self.current.get("status") or []

    @property
    def operating_rounds(self) -> int:
        return self.current["operating_rounds"]

    def previous(self) -> list:
        return self.phases[: self.index]

    def future(self) -> list:
        return self.phases[self.index + 1:]

    def train_limit(self, entity) -> int:
        limit = self.current["train_limit"]
        if isinstance(limit, dict):
            return limit.get(entity.type, 0)
        return limit

    def available(self, phase_name) -> bool:
        if not phase_name:
            return False
        for i, p in enumerate(self.phases):
            if p["name"] == phase_name:
                return i <= self.index
        return False

    def _next_on(self) -> list:
        if self.index + 1 >= len(self.phases):
            return []
        on = self.phases[self.index + 1].get("on")
        if not on:
            return []
        return on if isinstance(on, list) else [on]

    def _setup(self) -> None:
        p = self.current
        limit = p["train_limit"]
        limit_s = ", ".join(f"{k}: {v}" for k, v in limit.items()) if isinstance(limit, dict) else str(limit)
        self.game.log.append(
            f"-- Phase {p['name']} (Operating Rounds: {p['operating_rounds']} | Train Limit: {limit_s} | "
            f"Available Tiles: {', '.join(t.capitalize() for t in p['tiles'])}) --")
        self.game.on_phase_start(p["name"])

    def advance(self) -> None:
        self.index += 1
        self._setup()

    def buying_train(self, entity, train, source) -> None:
        while train.id in self._next_on() or train.sym in self._next_on():
            self.advance()
        self.game.rust_trains(train, entity)
        self.game.depot.depot_trains(clear=True)
        events, train.events = train.events, []
        for event in events:
            self.game.trigger_event(event["type"], train)
        self.game.after_buying_train(train, source)


def discounted_price(discounts, variant) -> int:
    """A depot train variant's price after the best of the ``train_discount`` abilities (a discount
    above 1 is an amount, otherwise a fraction of the price; an ability may name the trains it
    applies to)."""
    price = variant["price"]
    best = price
    for ability in discounts:
        trains = ability.trains or ()
        if trains and variant["name"] not in trains:
            continue
        discount = ability.discount
        if isinstance(discount, dict):
            discount = discount.get(variant["name"], 0)
        cut = discount if discount > 1 else int(price * discount)
        best = min(best, price - cut)
    return best


def build_trains(definitions) -> list:
    """Every physical train card of a title's train list, in depot order."""
    trains = []
    for d in definitions:
        d = copy_json(d)
        num = d.get("num")
        if num == "unlimited":
            count = max([e["when"] for e in d.get("events") or () if e.get("when")] or [1])
        else:
            count = num
        opts = {k: v for k, v in d.items() if k not in ("name", "distance", "price")}
        for i in range(count):
            trains.append(Train(d["name"], d["distance"], d["price"], i, defn=d, **opts))
    return trains
