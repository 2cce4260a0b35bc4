"""The open market (share pool) and every share transfer: buying, selling, presidency changes."""

from __future__ import annotations

from ..errors import GameError
from .money import Kind
from .shares import ShareBundle, ShareHolder


class SharePool(Kind, ShareHolder):
    name = "Market"
    id = "market"
    is_share_pool = True
    cash = 0
    owner = None
    player = None

    def __init__(self, game):
        self.game = game
        self._init_holdings()

    # ---------------------------------------------------------------- buying
    def buy_shares(self, entity, shares, *, exchange=None, exchange_price=None, swap=None,
                   allow_president_change=True, silent=False) -> None:
        game = self.game
        bundle = shares if isinstance(shares, ShareBundle) else ShareBundle(
            shares if isinstance(shares, list) else [shares])
        if bundle.owner.is_player and not game.can_gain_from_player(entity, bundle):
            raise GameError("Cannot buy share from player")
        corporation = bundle.corporation
        was_ipoed = corporation.ipoed
        was_floated = corporation.floated()
        name = entity.name
        if bundle.presidents_share is not None or (corporation.owner is not None and corporation.owner.is_player):
            corporation.ipoed = True
        price = bundle.price
        par_price = corporation.par_price.price if corporation.par_price is not None else None
        if was_ipoed != corporation.ipoed and par_price and not silent:
            game.log.append(f"{name} pars {corporation.name} at {game.fmt(par_price)}")

        share_str = f"a {bundle.percent}% share" + ("" if entity is corporation else f" of {corporation.name}")
        if bundle.owner is corporation.ipo_owner:
            source = "the IPO"
        elif bundle.owner.is_corporation or bundle.owner.is_player:
            source = bundle.owner.name
        else:
            source = "the market"

        if exchange is not None:
            price = exchange_price or 0
            if not silent:
                if exchange == "free":
                    game.log.append(f"{name} receives {share_str}")
                else:
                    game.log.append(f"{name} exchanges {exchange.name} for {share_str} from {source}")
        else:
            if swap is not None:
                price -= swap.price
            if not silent:
                swap_text = f" + swap of a {swap.percent}% share" if swap is not None else ""
                game.log.append(f"{name} buys {share_str} from {source} for {game.fmt(price)}{swap_text}")

        if price == 0:
            self.transfer_shares(bundle, entity, allow_president_change=allow_president_change)
        else:
            owner = bundle.owner
            if (corporation.capitalization in ("escrow", "incremental") and owner.is_corporation) \
                    or (owner.is_corporation and corporation.ipo_owner is not corporation) \
                    or (owner.is_corporation and owner is not corporation) or owner.is_player:
                receiver = owner
            else:
                receiver = game.bank
            self.transfer_shares(bundle, entity, spender=game.bank if entity is self else entity,
                                 receiver=receiver, price=price, swap=swap,
                                 swap_to_entity=self if swap is not None else None,
                                 allow_president_change=allow_president_change)
        if corporation.floatable and was_floated != corporation.floated():
            game.float_corporation(corporation)

    # ---------------------------------------------------------------- selling
    def sell_shares(self, bundle, *, allow_president_change=True, swap=None, silent=False) -> None:
        game = self.game
        entity = bundle.owner
        price = bundle.price
        if swap is not None:
            price -= swap.price
        if not silent:
            count = bundle.num_shares()
            what = f"a {bundle.percent}% share" if count == 1 else f"{count} shares"
            game.log.append(f"{entity.name} sells {what} of {bundle.corporation.name} and receives {game.fmt(price)}")
        to = bundle.corporation if game.rules["sold_shares_destination"] == "corporation" else self
        self.transfer_shares(bundle, to, spender=game.bank, receiver=entity, price=price,
                             allow_president_change=allow_president_change, swap=swap,
                             swap_to_entity=entity if swap is not None else None)

    def fit_in_bank(self, bundle) -> bool:
        return bundle.percent + self.percent_of(bundle.corporation) <= self.game.market_share_limit(bundle.corporation)

    # ---------------------------------------------------------------- transfers
    def transfer_shares(self, bundle, to_entity, *, spender=None, receiver=None, price=None,
                        allow_president_change=True, swap=None, swap_to_entity=None) -> None:
        game = self.game
        corporation = bundle.corporation
        owner = bundle.owner
        previous_president = corporation.owner
        if price is None:
            price = bundle.price

        corporation.holders_add(owner, -bundle.percent)
        corporation.holders_add(to_entity, bundle.percent)
        if swap is not None:
            corporation.holders_add(swap.owner, -swap.percent)
            corporation.holders_add(swap_to_entity, swap.percent)
            move_share(swap, swap_to_entity)

        if corporation.capitalization == "escrow" and receiver is corporation:
            if corporation.percent_of(corporation) > 50 and spender is not None and price > 0:
                spender.spend(price, receiver)
            else:
                # In the lower half of the IPO the bank holds the money in escrow for the corporation.
                spender.spend(price, game.bank)
                corporation.escrow += price
        elif spender is not None and receiver is not None and price > 0:
            spender.spend(price, receiver)

        for share in bundle.shares:
            move_share(share, to_entity)

        if not allow_president_change:
            return

        holders = corporation.player_share_holders()
        max_percent = max(holders.values()) if holders else 0
        majority = [h for h, p in holders.items() if p == max_percent]
        if previous_president is not None and previous_president in majority:
            return

        president = None
        if previous_president is None:
            pres_owner = corporation.presidents_share.owner
            president = next((h for h in majority if h is pres_owner), None)
        if president is None:
            seats = game.possible_presidents()
            # (holders that are not seats, e.g. a tax haven, never preside)
            eligible = [h for h in majority if h.percent_of(corporation) >= corporation.presidents_percent
                        and h in seats]
            if eligible:
                if previous_president is self:
                    president = eligible[0]
                else:
                    president = min(eligible, key=lambda p: self._distance(previous_president, p))
        if president is None:
            return

        corporation.owner = president
        game.log.append(f"{president.name} becomes the president of {corporation.name}")

        if to_entity is president and previous_president is owner and bundle.presidents_share is not None \
                and not bundle.partial():
            return
        if owner is corporation and bundle.presidents_share is None and game.can_swap_for_presidents_share_from_ipo():
            previous_president = previous_president or corporation
        if owner is president or previous_president is None:
            return

        presidents_share = bundle.presidents_share or next(
            (s for s in previous_president.shares_of(corporation) if s.president), None)
        if presidents_share is None:
            return

        if owner.is_player and to_entity.is_player and bundle.presidents_share is not None:
            transfer_to = to_entity
            swap_to = to_entity
        else:
            transfer_to = corporation if game.rules["sold_shares_destination"] == "corporation" else self
            swap_to = previous_president if previous_president.percent_of(corporation) >= presidents_share.percent \
                else transfer_to
        self.change_president(presidents_share, swap_to, president)
        if bundle.partial():
            self.handle_partial(bundle, transfer_to, owner)

    def handle_partial(self, bundle, source, to) -> None:
        """The part of a president's certificate that was not sold comes back as ordinary shares."""
        corp = bundle.corporation
        difference = sum(s.percent for s in bundle.shares) - bundle.percent
        ordinary = [s for s in source.shares_of(corp) if not s.double_cert]
        for share in ordinary[:difference // corp.share_percent]:
            move_share(share, to)

    def change_president(self, presidents_share, swap_to, president) -> None:
        corporation = presidents_share.corporation
        num = presidents_share.percent // corporation.share_percent
        for share in presidency_swap_shares(president.shares_of(corporation), num):
            move_share(share, swap_to)
        move_share(presidents_share, president)

    def _distance(self, a, b) -> int:
        if a is None or b is None:
            return 0
        entities = self.game.possible_presidents()
        ia, ib = entities.index(a), entities.index(b)
        return ib - ia if ia < ib else ib - (ia - len(entities))


def presidency_swap_shares(shares, num) -> list:
    """The certificates a new president hands over for the president's certificate (worth ``num``
    shares): the first ``num`` ordinary ones; lacking those, a double certificate (worth two) and
    ordinary ones for any rest."""
    singles = [s for s in shares if not s.double_cert]
    if len(singles) >= num or len(singles) == len(shares):
        return singles[:num]
    out, covered = [], 0
    for share in [s for s in shares if s.double_cert]:
        if covered >= num:
            break
        out.append(share)
        covered += 2
    return out + singles[:max(num - covered, 0)]


def move_share(share, to_entity) -> None:
    corporation = share.corporation
    share.owner.shares_of(corporation).remove(share)
    to_entity.shares_of(corporation).append(share)
    share.owner = to_entity
