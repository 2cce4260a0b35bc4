"""Share certificates, their holders and bundles of certificates."""

from __future__ import annotations

import math
from operator import attrgetter

from ..errors import GameError
from ..journal import Tracked


class Share(Tracked):
    __slots__ = ("corporation", "owner", "president", "percent", "index", "cert_size", "buyable",
                 "counts_for_limit", "preferred", "double_cert")

    def __init__(self, corporation, owner, *, president=False, percent=10, index=0, cert_size=1):
        self.corporation = corporation
        self.owner = owner
        self.president = president
        self.percent = percent
        self.index = index
        self.cert_size = cert_size
        self.buyable = True
        self.counts_for_limit = True
        self.preferred = False
        # a certificate worth two shares that counts as one certificate (it may be sold alone or with
        # ordinary shares, and swaps for two ordinary shares at a presidency change)
        self.double_cert = False

    @property
    def id(self) -> str:
        return f"{self.corporation.id}_{self.index}"

    def num_shares(self, ceil=True):
        num = self.percent / self.corporation.share_percent
        return math.ceil(num) if ceil else num

    def price_per_share(self):
        corp = self.corporation
        price = corp.par_price if self.owner is corp.ipo_owner else corp.share_price
        if price is not None and price.price:
            return price.price * corp.price_multiplier
        return corp.min_price

    @property
    def price(self) -> int:
        return math.ceil(self.price_per_share() * self.num_shares(ceil=False))

    def to_bundle(self, percent=None) -> "ShareBundle":
        return ShareBundle.trusted([self], self.percent if percent is None else percent)

    def __repr__(self):
        return f"<Share {self.id} {self.percent}%>"


_PERCENT = attrgetter("percent")


class ShareHolder(Tracked):
    """Mixin: holds certificates, grouped per corporation in the order they arrived."""

    def _init_holdings(self):
        self.shares_by_corporation = {}

    def shares_of(self, corporation) -> list:
        if corporation is None:
            return []
        lst = self.shares_by_corporation.get(corporation)
        if lst is None:
            lst = self.shares_by_corporation[corporation] = []
        return lst

    @property
    def shares(self) -> list:
        return [s for lst in self.shares_by_corporation.values() for s in lst]

    def percent_of(self, corporation) -> int:
        if corporation is None:
            return 0
        return sum(map(_PERCENT, self.shares_by_corporation.get(corporation, ())))

    def common_percent_of(self, corporation) -> int:
        if corporation is None:
            return 0
        return sum(s.percent for s in self.shares_by_corporation.get(corporation, ()) if not s.preferred)

    def num_shares_of(self, corporation, ceil=True):
        num = self.percent_of(corporation) / corporation.share_percent
        return math.ceil(num) if ceil else num


class ShareBundle(Tracked):
    """Certificates of one corporation from one holder, traded together.

    ``percent`` may be less than the certificates' total when part of a president's certificate is
    sold (the rest is swapped back as ordinary shares).
    """

    __slots__ = ("shares", "percent", "share_price", "_corporation")

    @classmethod
    def trusted(cls, shares, percent, corporation=None):
        """A bundle built by the engine itself from one holder's certificates of one corporation
        (with no certificates but a corporation: a probe for rules that look at the corporation)."""
        bundle = cls.__new__(cls)
        bundle.shares = shares
        bundle.percent = percent
        bundle.share_price = None
        bundle._corporation = corporation
        return bundle

    def __init__(self, shares, percent=None):
        shares = list(shares)
        if not shares:
            raise GameError("A share bundle must contain at least one share")
        corp = shares[0].corporation
        owner = shares[0].owner
        if any(s.corporation is not corp for s in shares):
            raise GameError("All shares must be from the same corporation")
        if any(s.owner is not owner for s in shares):
            raise GameError("All shares must be owned by the same owner")
        self.shares = shares
        self.percent = percent if percent is not None else sum(s.percent for s in shares)
        self.share_price = None
        self._corporation = None

    @property
    def corporation(self):
        return self.shares[0].corporation if self.shares else self._corporation

    @property
    def owner(self):
        return self.shares[0].owner

    @property
    def presidents_share(self):
        for s in self.shares:
            if s.president:
                return s
        return None

    def num_shares(self, ceil=True):
        num = self.percent / self.corporation.share_percent
        return math.ceil(num) if ceil else num

    def partial(self) -> bool:
        return self.percent != sum(s.percent for s in self.shares)

    def price_per_share(self):
        return self.share_price if self.share_price is not None else self.shares[0].price_per_share()

    @property
    def price(self) -> int:
        return math.ceil(self.price_per_share() * self.num_shares(ceil=False))

    @property
    def buyable(self) -> bool:
        return all(s.buyable for s in self.shares)

    @property
    def common_percent(self) -> int:
        return sum(s.percent for s in self.shares if not s.preferred)

    def can_dump(self, entity) -> bool:
        """A president's certificate may leave its owner only if someone else can take the presidency."""
        pres = self.presidents_share
        if pres is None:
            return True
        holders = self.corporation.player_share_holders(corporate=True)
        others = [p for h, p in holders.items() if h is not entity]
        return (max(others) if others else 0) >= pres.percent

    def to_bundle(self):
        return self

    def __repr__(self):
        return f"<Bundle {[s.id for s in self.shares]} {self.percent}%>"
