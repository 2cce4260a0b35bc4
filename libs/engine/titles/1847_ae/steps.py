"""1847 AE's rounds and steps."""

from __future__ import annotations

import math

from ...errors import GameError
from ...flow.round import OperatingRound, StockRound
from ...flow.steps import BuySellParSharesStep, BuySingleTrainOfTypeStep, DividendStep, TrackStep


# ====================================================================== rounds
class StockRound1847(StockRound):
    """Investor companies still held are exchanged when the stock round after the 5+5 train begins."""

    def setup(self):
        game = self.game
        if game.must_exchange_investor_companies:
            game.exchange_all_investor_companies()
        game.nationalization_actions = []
        super().setup()


class OperatingRound1847(OperatingRound):
    def setup(self):
        self.game.train_bought_this_round = False
        super().setup()


# ====================================================================== stock round
class BuySellParShares1847(BuySellParSharesStep):
    """Double certificates leave the IPO in order; a player holding 70% of a corporation may buy
    another player's share of it at 150% of its price (nationalization); LFK may always be sold."""

    def nationalization_price(self, price) -> int:
        return math.ceil(price * 1.5)

    def can_nationalize(self, player, corporation) -> bool:
        return corporation is not self.game.lfk and player.num_shares_of(corporation) >= 7

    def can_buy(self, entity, bundle) -> bool:
        if bundle is None:
            return False
        corporation = bundle.corporation
        if bundle.owner.is_player:
            return (bundle.owner is not entity and self.can_nationalize(entity, corporation)
                    and entity.cash >= self.nationalization_price(bundle.price)
                    and not self.sold(entity).get(corporation) and self.can_gain(entity, bundle))
        if not super().can_buy(entity, bundle):
            return False
        cert = bundle.shares[0]
        if cert.owner is not corporation.ipo_owner:
            return True
        # the second and last certificates leaving the IPO may be doubles, which must go in that order
        ipo = [s for s in corporation.ipo_shares if s.buyable]
        if corporation.second_share_double and len(ipo) == corporation.certificate_count - 1:
            return cert.double_cert
        if corporation.last_share_double and len(ipo) == 1:
            return cert.double_cert
        return not cert.double_cert

    def can_gain(self, entity, bundle, exchange=False):
        if bundle is None or entity is None:
            return False
        return bundle.corporation.holding_ok(entity, bundle.common_percent) and (
            exchange or self.game.num_certs(entity) < self.game.cert_limit(entity))

    def can_buy_any_from_player(self, entity) -> bool:
        if self.bought():
            return False
        return any(self.can_nationalize(entity, c) and entity.cash >= self.nationalization_price(c.share_price.price)
                   for c in self.game.corporations if c.floated())

    def can_buy_any(self, entity) -> bool:
        return super().can_buy_any(entity) or self.can_buy_any_from_player(entity)

    def process_buy_shares(self, action):
        bundle = action.bundle
        if not bundle.owner.is_player:
            return super().process_buy_shares(action)
        player, owner, corporation = action.entity, bundle.owner, bundle.corporation
        if not self.can_nationalize(player, corporation):
            raise GameError(f"{player.name} cannot nationalize {corporation.name}: it needs "
                            f"{7 * corporation.share_percent}% of it")
        price = self.nationalization_price(bundle.price)
        if player.cash < price:
            raise GameError(f"Not enough cash for nationalization: {self.game.fmt(price)} needed")
        if not self.can_buy(player, bundle):
            raise GameError(f"Cannot buy {owner.name}'s share of {corporation.name}")
        self.log.append(f"-- Nationalization: {player.name} buys a {bundle.percent}% share of {corporation.name} "
                        f"from {owner.name} for {self.game.fmt(price)} --")
        self.game.share_pool.transfer_shares(bundle, player, spender=player, receiver=owner, price=price)
        self.game.nationalization_actions.append(action)
        self.track_action(action, corporation)

    def can_sell(self, entity, bundle) -> bool:
        if bundle is not None and bundle.corporation is self.game.lfk and entity is bundle.owner:
            return not self.bought()
        return super().can_sell(entity, bundle)

    def may_sell_now(self, entity, corporation) -> bool:
        return corporation is self.game.lfk or super().may_sell_now(entity, corporation)

    def action_is_shenanigan(self, entity, other, action, corporation, share_to_buy):
        if action in self.game.nationalization_actions:
            return "Nationalization"
        return super().action_is_shenanigan(entity, other, action, corporation, share_to_buy)

    def choices(self, entity) -> dict:
        out = super().choices(entity)
        if "buy_shares" in self.actions(entity):
            for other in self.game.players:
                if other is entity:
                    continue
                for corporation, shares in other.shares_by_corporation.items():
                    for share in shares:
                        if not share.president and self.can_buy(entity, share.to_bundle()):
                            out["buy_shares"].append({"share": share.id, "from": other.id,
                                                      "price": self.nationalization_price(share.price)})
        return out


# ====================================================================== operating round
class Track1847(TrackStep):
    """Yellow lays go only to hexes of the corporation's colour until the first 4-train; E9 waits for
    phase 5; double-town tiles upgrade without the usual track restriction."""

    def tracker_available_hex(self, entity, hex_, network=None):
        if self.game.build_problem(entity, hex_) is not None:
            return None
        return super().tracker_available_hex(entity, hex_, network)

    def process_lay_tile(self, action):
        if not self.game.loading:
            problem = self.game.build_problem(action.entity, action.hex)
            if problem is not None:
                raise GameError(problem)
        super().process_lay_tile(action)

    def check_track_restrictions(self, entity, old_tile, tile):
        if old_tile.name not in self.game.facts["double_town_tiles"]:
            super().check_track_restrictions(entity, old_tile, tile)

    def restriction_problem(self, entity, hex_, tile):
        if hex_.tile.name in self.game.facts["double_town_tiles"]:
            return None
        return super().restriction_problem(entity, hex_, tile)


class Dividend1847(DividendStep):
    def holder_for_corporation(self, entity):
        # a corporation earns dividends only for its shares in the market
        return self.game.share_pool


class BuyTrain1847(BuySingleTrainOfTypeStep):
    """Trains come only from the depot before phase 3+3; the first new train of an operating round pays
    LFK's owner and moves LFK's price; LFK may be sold to raise money."""

    def buyable_trains(self, entity) -> list:
        trains = super().buyable_trains(entity)
        if "can_buy_trains" in self.game.phase.status:
            return trains
        return [t for t in trains if t.from_depot()]

    def process_buy_train(self, action):
        train = action.train
        if not self.game.loading and not train.from_depot() and "can_buy_trains" not in self.game.phase.status:
            raise GameError("Trains may be bought from other corporations from phase 3+3 on")
        new_train = train in self.depot.upcoming
        super().process_buy_train(action)
        game = self.game
        lfk = game.lfk
        if game.train_bought_this_round or not lfk.floated() or not new_train:
            return
        owner = lfk.owner
        if owner is not None and owner.is_player:
            revenue = train.price() // 10
            game.bank.spend(revenue, owner)
            self.log.append(f"{lfk.name} pays {game.fmt(revenue)} to {owner.name}")
        old = lfk.share_price
        game.market.move_right(lfk)
        game.log_share_price(lfk, old)
        game.train_bought_this_round = True

    def can_sell(self, entity, bundle) -> bool:
        if bundle.corporation is not self.game.lfk:
            return super().can_sell(entity, bundle)
        return entity is bundle.owner and self.selling_minimum_shares(bundle)
