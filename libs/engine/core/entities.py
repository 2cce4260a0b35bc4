"""Players, private companies, corporations, tokens and abilities."""

from __future__ import annotations

import copy

from ..errors import GameError
from ..journal import Tracked
from .money import Kind, Spender
from .shares import Share, ShareHolder

# --------------------------------------------------------------------------------------------
# Abilities


# What each kind of ability may carry beyond the common attributes Ability.__init__ reads, as
# attribute -> (type in the title data, value when the data leaves it out). This is the one list of
# what an ability may carry: an ability of another kind, or with an attribute its kind does not list,
# is refused when built; reading an attribute its kind does not have raises AttributeError (never a
# silent None); the title data builder leaves out values equal to these defaults, and
# engine.titles.schema checks the data files against this table.
_LIST = (list[str], None)
_FLAG = (bool, False)       # only ever tested for truth, so absent reads as False
ABILITY_KINDS: dict[str, dict[str, tuple]] = {
    "assign_corporation": {},
    "assign_hexes": {"hexes": _LIST, "cost": (int, None)},
    "base": {},
    "blocks_hexes": {"hexes": _LIST, "hidden": _FLAG},
    "blocks_hexes_consent": {"hexes": _LIST, "hidden": _FLAG},
    "borrow_train": {"train_types": _LIST},
    "close": {"corporation": (str, None), "silent": _FLAG},
    "description": {"key": (str, None)},
    "destination": {},
    "exchange": {"corporations": (str | list[str], None), "from": (str | list[str], None)},
    "exchange_token": {},
    "hex_bonus": {"hexes": _LIST, "amount": (int, None)},
    "no_buy": {},
    "reservation": {"hex": (str, None), "city": (int, None), "slot": (int, None), "tile": (str, None),
                    "icon": (str, None)},
    "revenue_change": {"revenue": (int, None)},
    "shares": {"shares": _LIST},
    "teleport": {"hexes": _LIST, "tiles": _LIST, "extra_action": _FLAG, "from_owner": _FLAG},
    # hexes None: every hex (an empty list would be none)
    "tile_discount": {"hexes": _LIST, "discount": (int, None), "terrain": (str, None)},
    "tile_lay": {"hexes": (list[str], []), "tiles": (list[str], []), "free": _FLAG, "discount": (int, 0),
                 "special": (bool, True), "connect": (bool, True), "cost": (int, 0), "consume_tile_lay": _FLAG,
                 "laid_hexes": (list[str], []), "lay_count": (int, None), "upgrade_count": (int, None),
                 "closed_when_used_up": _FLAG, "combo_entities": _LIST, "reachable": _FLAG,
                 "must_lay_together": _FLAG, "must_lay_all": _FLAG, "blocks": _FLAG},
    "token": {"hexes": (list[str], []), "city": (int, None), "price": (int, None), "teleport_price": (int, None),
              "discount": (float, None), "extra_action": _FLAG, "from_owner": _FLAG, "check_tokenable": (bool, True),
              "special_only": _FLAG, "cheater": _FLAG, "closed_when_used_up": _FLAG, "connected": _FLAG,
              "extra_slot": _FLAG, "neutral": _FLAG, "same_hex_allowed": _FLAG},
    "train_buy": {"face_value": _FLAG},
    "train_discount": {"discount": (float, None), "trains": _LIST},
    "train_limit": {"increase": (int, None)},
}
# The attributes every ability may carry (read by Ability.__init__), with their data types.
ABILITY_COMMON = {"description": str, "desc_detail": str, "owner_type": str, "when": str | list[str],
                  "on_phase": str, "after_phase": str, "count": int, "count_per_or": int, "use_across_ors": bool,
                  "remove": str, "passive": bool, "remove_when_used_up": bool}


class Ability(Tracked):
    """A special power of a company or corporation, described by data (its kind, ``type``, plus
    attributes; ABILITY_KINDS lists what each kind may carry and its defaults). ``when`` lists the
    moments it may be used; a passive ability (no ``when``) works by itself.
    """

    def __init__(self, type: str, **attrs):
        kind = ABILITY_KINDS.get(type)
        if kind is None:
            raise ValueError(f"Unknown kind of ability: {type!r}")
        self.type = type
        self.owner = None
        self.description = attrs.pop("description", None)
        self.desc_detail = attrs.pop("desc_detail", None)
        self.owner_type = attrs.pop("owner_type", None)
        when = attrs.pop("when", None)
        self.when = [str(w) for w in (when if isinstance(when, list) else ([when] if when else []))]
        # usable at a moment of the owning player's (so also by the corporations that player runs)
        self.owning_player_time = any("owning_player" in w for w in self.when)
        self.on_phase = attrs.pop("on_phase", None)
        self.after_phase = attrs.pop("after_phase", None)
        self.count = attrs.pop("count", None)
        self.count_per_or = attrs.pop("count_per_or", None)
        self.count_this_or = 0
        uao = attrs.pop("use_across_ors", None)
        self.use_across_ors = True if uao is None else uao
        self.used = False
        self.teardown = None    # called with the ability when it is removed from its owner (optional)
        remove = attrs.pop("remove", None)
        self.remove = None if remove is None else str(remove)
        passive = attrs.pop("passive", None)
        self.passive = (not self.when) if passive is None else passive
        rwu = attrs.pop("remove_when_used_up", None)
        self.remove_when_used_up = True if rwu is None else rwu
        unknown = sorted(set(attrs) - set(kind))
        if unknown:
            raise ValueError(f"A {type} ability has no attribute {', '.join(unknown)}")
        self.attrs = {name: copy.copy(default) for name, (_, default) in kind.items()}
        self.attrs.update(attrs)
        if type == "tile_lay" and self.count is None and self.attrs["lay_count"] is not None:
            self.count = self.attrs["lay_count"]
        self.start_count = self.count

    def __getattr__(self, name):
        # Only reached for names not set in __init__: the attributes of the ability's kind.
        try:
            return self.__dict__["attrs"][name]
        except KeyError:  # not an attribute of this kind (or, while unpickling, attrs not there yet)
            raise AttributeError(f"{self.__dict__.get('type', 'An')} ability has no attribute {name!r}") from None

    def when_any(self, *times) -> bool:
        return any(t in self.when for t in times)

    def use(self, *, upgrade: bool = False) -> None:
        if self.type == "tile_lay" and self.count is not None and self.count <= 0:
            return
        self.used = True
        if self.count_per_or:
            self.count_this_or += 1
        if self.count is not None:
            self.count -= 1
            if self.count <= 0 and self.remove_when_used_up and self.owner is not None:
                self.owner.remove_ability(self)
        if self.type == "tile_lay":
            self._use_tile_lay(upgrade)

    def _use_tile_lay(self, upgrade: bool) -> None:
        upgrades, lays = self.attrs.get("upgrade_count"), self.attrs.get("lay_count")
        if upgrades is None or lays is None:
            return
        if upgrade:
            if upgrades <= 0:
                raise GameError("Cannot use this ability to upgrade a tile now")
            self.attrs["lay_count"] = 0
            self.attrs["upgrade_count"] = upgrades - 1
            if upgrades - 1 <= 0:
                self.owner.remove_ability(self)
                self.count = 0
        else:
            if lays <= 0:
                raise GameError("Cannot use this ability to lay a tile now")
            self.attrs["upgrade_count"] = 0
            self.attrs["lay_count"] = lays - 1
            if lays - 1 <= 0:
                self.owner.remove_ability(self)
                self.count = 0

    def use_up(self) -> None:
        while self.count is not None and self.count > 0:
            self.use()

    @property
    def corporation(self):
        return self.owner.corporation if self.owner is not None else None

    @property
    def player(self):
        return self.owner.player if self.owner is not None else None

    def __repr__(self):
        return f"<Ability {self.type} of {getattr(self.owner, 'id', None)}>"


class AbilityOwner(Tracked):
    def _init_abilities(self, defs):
        self.abilities = []
        for d in defs or ():
            d = dict(d)
            self.add_ability(Ability(d.pop("type"), **d))

    def add_ability(self, ability: Ability) -> None:
        ability.owner = self
        self.abilities.append(ability)

    def remove_ability(self, ability) -> None:
        if ability is None:
            return
        self.abilities = [a for a in self.abilities if a is not ability]
        if ability.teardown is not None:
            ability.teardown(ability)

    def remove_ability_when(self, time: str) -> None:
        for ability in list(self.abilities):
            if ability.remove == str(time):
                self.remove_ability(ability)

    @property
    def all_abilities(self) -> list:
        return self.abilities

    def reset_ability_count_this_or(self) -> None:
        for ability in list(self.abilities):
            ability.count_this_or = 0
            if ability.used and not ability.use_across_ors:
                ability.use_up()


# --------------------------------------------------------------------------------------------
# Tokens


class Token(Tracked):
    """A station marker. ``city`` is the city part it stands in, once placed."""

    __slots__ = ("corporation", "price", "type", "used", "city", "hex")

    def __init__(self, corporation, price=0, type="normal"):
        self.corporation = corporation
        self.price = price
        self.type = type
        self.used = False
        self.city = None
        self.hex = None

    def place(self, city) -> None:
        self.used = True
        self.city = city
        self.hex = city.hex if city is not None else None

    def remove(self) -> None:
        """Take the token off the map (it stays with its corporation, unused)."""
        if self.city is not None:
            self.city.tokens = [None if t is self else t for t in self.city.tokens]
        self.city = None
        self.hex = None
        self.used = False

    def destroy(self) -> None:
        """Remove the token from the map and from its corporation."""
        self.corporation.tokens.remove(self)
        self.remove()

    def __repr__(self):
        where = self.hex.id if self.hex is not None else "-"
        return f"<Token {self.corporation.id} {where} ${self.price}>"


# --------------------------------------------------------------------------------------------
# Players


class Player(Kind, ShareHolder, Spender):
    is_player = True

    def __init__(self, pid, name):
        self.id = pid
        self.name = name
        self.cash = 0
        self.companies = []
        self.bankrupt = False
        self.passed = False
        self.penalty = 0
        self.debt = 0   # loans from the bank, interest included (titles with player loans)
        self._init_holdings()

    @property
    def owner(self):
        return self

    @property
    def player(self):
        return self

    @property
    def corporation(self):
        return None

    @property
    def closed(self):
        return False

    def value(self) -> int:
        shares = sum(s.price for s in self.shares if s.corporation.ipoed)
        return self.cash + shares + sum(c.value for c in self.companies) - self.debt - self.penalty

    def pass_(self):
        self.passed = True

    def unpass(self):
        self.passed = False

    def __repr__(self):
        return f"<Player {self.name}>"


# --------------------------------------------------------------------------------------------
# Private companies


class Company(Kind, AbilityOwner):
    is_company = True

    def __init__(self, sym, name, value, revenue=0, desc="", abilities=(), **opts):
        self.id = sym
        self.sym = sym
        self.name = name
        self.value = value
        self.revenue = revenue
        self.desc = desc
        self.discount = opts.get("discount", 0) or 0
        self.min_price = opts.get("min_price") if opts.get("min_price") is not None else -(-value // 2)
        self.max_price = opts.get("max_price") if opts.get("max_price") is not None else value * 2
        self.type = opts.get("type")
        self.owner = None
        self.closed = False
        self.passed = False
        self._init_abilities(abilities)

    @property
    def min_bid(self) -> int:
        return self.value - self.discount

    @property
    def player(self):
        o = self.owner
        if o is None:
            return None
        return o if o.is_player else o.player

    @property
    def corporation(self):
        o = self.owner
        return o.corporation if o is not None else None

    def owned_by_player(self) -> bool:
        return self.owner is not None and self.owner.is_player

    def close(self) -> None:
        self.closed = True
        for ability in list(self.abilities):
            self.remove_ability(ability)
        if self.owner is not None:
            comps = getattr(self.owner, "companies", None)
            if comps is not None and self in comps:
                comps.remove(self)
            self.owner = None

    def __repr__(self):
        return f"<Company {self.id}>"


# --------------------------------------------------------------------------------------------
# Operators


class Operator(Tracked):
    """Mixin for what runs trains from station tokens (corporations and minors): ``trains``,
    ``tokens``, ``operating_history`` and ``assignments`` (e.g. a port marker) are its own."""

    def runnable_trains(self) -> list:
        return [t for t in self.trains if not t.operated]

    def operated(self) -> bool:
        return bool(self.operating_history)

    def next_token(self):
        return next((t for t in self.tokens if not t.used), None)

    def find_token_by_type(self, type="normal"):
        return next((t for t in self.tokens if not t.used and t.type == type), None)

    def tokens_by_type(self) -> list:
        seen, out = set(), []
        for t in self.tokens:
            if not t.used and t.type not in seen:
                seen.add(t.type)
                out.append(t)
        return out

    def placed_tokens(self) -> list:
        return [t for t in self.tokens if t.city is not None]

    def assigned(self, key) -> bool:
        return key in self.assignments

    def assign(self, key, value=True) -> None:
        self.assignments[key] = value


# --------------------------------------------------------------------------------------------
# Minors


class Minor(Kind, Spender, AbilityOwner, Operator):
    """A minor company: an operator owned outright by one player (no shares, no market price). It
    floats when its owner gets it; its home hexes are listed in ``coordinates``."""

    is_minor = True
    is_operator = True
    receivership = False
    share_price = None
    par_price = None
    capitalization = "none"

    def __init__(self, sym, name, *, tokens=(), coordinates=None, city=None, abilities=(), **opts):
        self.id = sym
        self.sym = sym
        self.name = sym
        self.full_name = name
        self.type = opts.get("type")
        self.color = opts.get("color")
        self.text_color = opts.get("text_color", "#ffffff")
        self.coordinates = coordinates
        self.city = city
        self.owner = None
        self.cash = 0
        self.trains = []
        self.companies = []
        self.loans = []
        self.tokens = [Token(self, price=p) for p in tokens]
        self.operating_history = {}
        self.assignments = {}
        self.closed = False
        self.passed = False
        self._floated = False
        self._init_abilities(abilities)

    @property
    def corporation(self):
        return self

    @property
    def player(self):
        owner = self.owner
        return owner if owner is not None and owner.is_player else None

    def president(self, player) -> bool:
        return player is not None and self.owner is player

    def floated(self) -> bool:
        return self._floated

    def float(self) -> None:
        self._floated = True

    def close(self) -> None:
        self.closed = True
        self._floated = False
        self.owner = None

    def num_shares_of(self, corporation, ceil=True):
        return 0

    total_shares = 1
    share_percent = 100

    def sort_key(self):
        return None

    def __repr__(self):
        return f"<Minor {self.id}>"


# --------------------------------------------------------------------------------------------
# Corporations


class Corporation(Kind, ShareHolder, Spender, AbilityOwner, Operator):
    is_corporation = True
    is_operator = True

    def __init__(self, sym, name, *, tokens=(), shares=None, coordinates=None, city=None,
                 float_percent=60, max_ownership_percent=60, min_price=None, capitalization="full",
                 abilities=(), **opts):
        self.id = sym
        self.name = sym
        self.full_name = name
        self._init_holdings()
        self.cash = 0
        self.ipo_owner = self
        self.share_holders = {}
        percents = list(shares) if shares else [20] + [10] * 8
        corp_shares = [Share(self, self, president=(i == 0), percent=p, index=i) for i, p in enumerate(percents)]
        for i in opts.get("double_certs") or ():
            corp_shares[i].double_cert = True
        self.shares_of(self).extend(corp_shares)
        self.share_holders[self] = sum(percents)
        self.presidents_share = corp_shares[0]
        self.second_share = corp_shares[1] if len(corp_shares) > 1 else None
        self.share_price = None
        self.par_price = None
        # a corporation whose shares always sell at the market price (its "par" follows the market)
        self.always_market_price = bool(opts.get("always_market_price"))
        self.original_par_price = None
        self.ipoed = False
        self.companies = []
        self.capitalization = capitalization
        self.closed = False
        self.float_percent = float_percent
        # reserved (unbuyable) IPO certificates count as sold when checking the float
        self.float_includes_reserved = bool(opts.get("float_includes_reserved"))
        # a par price the corporation must use (None: the player chooses)
        self.required_par_price = opts.get("required_par_price")
        # a fixed share size (percent) overriding the one read from the certificates
        self.forced_share_percent = None
        self.floatable = True
        self._floated = False
        self.max_ownership_percent = max_ownership_percent
        self.min_price = min_price
        self.type = opts.get("type")
        self.price_percent = self.second_share.percent if self.second_share else self.presidents_share.percent // 2
        self.price_multiplier = 1
        self.owner = None
        self.coordinates = coordinates
        self.city = city
        self.color = opts.get("color")
        self.text_color = opts.get("text_color", "#ffffff")
        self.tokens = [Token(self, price=p) for p in tokens]
        self.trains = []
        self.loans = []
        self.operating_history = {}
        self.assignments = {}
        self.passed = False
        self._init_abilities(abilities)

    @property
    def par_price(self):
        return self.share_price if self.always_market_price else self._par_price

    @par_price.setter
    def par_price(self, value):
        self._par_price = value

    # ---- identity / ownership
    @property
    def corporation(self):
        return self

    @property
    def player(self):
        current = self.owner
        seen = set()
        while current is not None and current.is_corporation:
            if id(current) in seen:
                return None
            seen.add(id(current))
            current = current.owner
        if current is None:
            return None
        return current if current.is_player else None

    def president(self, player) -> bool:
        return player is not None and self.owner is player

    @property
    def receivership(self) -> bool:
        return self.owner is not None and self.owner.is_share_pool

    # ---- shares
    @property
    def share_percent(self) -> int:
        if self.forced_share_percent:
            return self.forced_share_percent
        return self.second_share.percent if self.second_share else self.presidents_share.percent // 2

    @property
    def presidents_percent(self) -> int:
        return self.presidents_share.percent

    @property
    def total_shares(self) -> int:
        return 100 // self.share_percent

    def holders_add(self, holder, percent) -> None:
        self.share_holders[holder] = self.share_holders.get(holder, 0) + percent

    def player_share_holders(self, corporate=False) -> dict:
        return {h: p for h, p in self.share_holders.items()
                if h.is_player or (corporate and h.is_corporation and h is not self)}

    @property
    def ipo_shares(self) -> list:
        return [s for s in self.ipo_owner.shares_of(self)]

    @property
    def all_shares(self) -> list:
        return list(self.shares)

    def num_player_shares(self) -> int:
        total = 0
        for holder, percent in self.share_holders.items():
            if holder.is_player:
                total += percent
        return total // self.share_percent

    def num_market_shares(self) -> int:
        return sum(p for h, p in self.share_holders.items() if h.is_share_pool) // self.share_percent

    def num_ipo_shares(self) -> int:
        return self.ipo_owner.num_shares_of(self)

    def reserved_shares(self) -> list:
        """IPO certificates that cannot be bought (kept for an exchange)."""
        return [s for s in self.ipo_owner.shares_of(self) if not s.buyable]

    def percent_in_reserved(self) -> int:
        return sum(s.percent for s in self.reserved_shares()) // self.share_percent * self.share_percent

    def holding_ok(self, holder, extra_percent=0) -> bool:
        if holder is self:
            return True
        common = holder.common_percent_of(self) + extra_percent
        price_type = self.share_price.type if self.share_price is not None else None
        return price_type in ("multiple_buy", "unlimited") or common <= self.max_ownership_percent

    @property
    def counts_for_limit(self) -> bool:
        return self.share_price.counts_for_limit if self.share_price is not None else True

    def buy_multiple(self) -> bool:
        return self.share_price.buy_multiple if self.share_price is not None else False

    # ---- floating
    def floated(self) -> bool:
        if not self.floatable:
            return False
        if not self._floated:
            self._floated = self.ipo_owner.percent_of(self) <= self._float_threshold()
        return self._floated

    def _float_threshold(self) -> int:
        """The most the IPO may still hold once the corporation has floated."""
        reserved = self.percent_in_reserved() if self.float_includes_reserved else 0
        return 100 - self.float_percent + reserved

    def percent_to_float(self) -> int:
        if self._floated:
            return 0
        return self.ipo_owner.percent_of(self) - self._float_threshold()

    # ---- abilities: a corporation also has the abilities of the companies it owns
    @property
    def all_abilities(self) -> list:
        out = [a for c in self.companies for a in c.all_abilities] + self.abilities if self.companies \
            else list(self.abilities)
        owner = self.owner
        companies = getattr(owner, "companies", None) if owner is not None else None
        if companies:
            out += [a for c in companies for a in c.all_abilities if a.owning_player_time]
        return out

    def remove_ability(self, ability) -> None:
        if ability is None:
            return
        if ability.owner is self:
            AbilityOwner.remove_ability(self, ability)
            return
        for company in self.companies:
            company.remove_ability(ability)

    # ---- ordering: higher price first, then further right, then higher on the market, then arrival
    def sort_key(self):
        sp = self.share_price
        if sp is None:
            return None
        try:
            pos = sp.corporations.index(self)
        except ValueError:
            pos = 0
        return (-sp.price, -sp.coordinates[1], sp.coordinates[0], pos, self.name)

    def close(self) -> None:
        if self.cash != 0:
            raise GameError(f"{self.name} cannot close with cash {self.cash}")
        if self.share_price is not None and self in self.share_price.corporations:
            self.share_price.corporations.remove(self)
        self.share_price = None
        self.par_price = None
        self.closed = True
        self.ipoed = False
        self._floated = False
        self.owner = None

    def __repr__(self):
        return f"<Corporation {self.id}>"


def sort_corporations(corps) -> list:
    """Corporations in operating order (those without a price keep their relative order at the end)."""
    with_price = [c for c in corps if c.sort_key() is not None]
    without = [c for c in corps if c.sort_key() is None]
    return sorted(with_price, key=lambda c: c.sort_key()) + without
