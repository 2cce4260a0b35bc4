"""1822's rounds and steps."""

from __future__ import annotations

from ...errors import GameError
from ...flow.round import ChoicesRound, OperatingRound, StockRound
from ...flow.step import Offer, Step
from ...flow.steps import BuySellParSharesStep, DiscardTrainStep
from ...flow.steps.auction import BidTracker
from ...flow.steps.choices import ChooseAbilityMixin, ChoicesStep
from .operating import (AcquireCompany1822, BuyTrain1822, DestinationToken, Dividend1822, FirstTurnHousekeeping,
                        IssueShares1822, MinorAcquisition, PendingToken1822, Route1822, SpecialChoose,
                        SpecialToken1822, SpecialTrack1822, Token1822, Track1822)

__all__ = ["AcquireCompany1822", "BuyTrain1822", "DestinationToken", "Dividend1822", "FirstTurnHousekeeping",
           "IssueShares1822", "MinorAcquisition", "PendingToken1822", "Route1822", "SpecialChoose",
           "SpecialToken1822", "SpecialTrack1822", "Token1822", "Track1822"]


# ====================================================================== stock round
class StockRound1822(StockRound):
    """The bid boxes are dealt at the start; bids are settled at the end: concessions and privates go
    to their highest bidders, minors float in order of their winning bids, and a minor nobody bid on
    exports a train."""

    def __init__(self, game, steps, round_num=1):
        self.bids = None
        self.stored_winning_bids = {}
        super().__init__(game, steps, round_num)

    def setup(self):
        self.game.setup_bidboxes()
        self.stored_winning_bids = {}
        super().setup()

    def player_enabled_program(self, entity):
        self.update_stored_winning_bids(entity)

    def highest_bid(self, company):
        bids = (self.bids or {}).get(company)
        return max(bids, key=lambda b: b["price"]) if bids else None

    def update_stored_winning_bids(self, entity):
        self.stored_winning_bids[entity] = [c for c in self.game.bidbox_items()
                                            if (bid := self.highest_bid(c)) is not None and bid["entity"] is entity]

    def finish_round(self):
        game = self.game
        if game.facts.get("end_if_nothing_sold_in_sr1") and game.nothing_sold_in_sr:
            game.end_game("dnf")
            return
        float_minors = []
        remove_l_count = 0
        remove_minor = None
        minors = game.bidbox_minors()
        for index, minor in enumerate(minors):
            bid = self.highest_bid(minor)
            if bid is not None:
                float_minors.append((bid, index))
            else:
                minor.owner = None
                remove_l_count += 1
                if index == 0:
                    remove_minor = minor
        for company in game.bidbox_concessions() + game.bidbox_privates():
            bid = self.highest_bid(company)
            if bid is not None:
                self.buy_company(bid)
            else:
                company.owner = None
        count = len(minors)
        for bid, _ in sorted(float_minors, key=lambda m: (m[0]["price"], count - m[1]), reverse=True):
            self.float_minor(bid)
        upcoming = game.depot.upcoming
        if remove_l_count > 0 and upcoming and upcoming[0].name == "L":
            self.remove_l_trains(remove_l_count)
        if remove_minor is not None:
            self.remove_minor_and_first_train(remove_minor)
        game.bidbox_minors_refill()
        for player in game.players:
            game.add_player_loan_interest(player)
        super().finish_round()

    def buy_company(self, bid):
        game = self.game
        player, company, price = bid["entity"], bid["company"], bid["price"]
        company.owner = player
        if company.id == "P16":
            game.tax_haven.name = f"{game.tax_haven.name} ({player.name})"
        player.companies.append(company)
        if price > 0:
            player.spend(price, game.bank)
        self.log.append(f"{player.name} wins the bid {company.name} for {game.fmt(price)}")

    def float_minor(self, bid):
        game = self.game
        player, company, amount = bid["entity"], bid["company"], bid["price"]
        minor = game.find_corporation(company)
        share_price = game.minor_float_share_price(amount)
        presidency = share_price.price * 2
        game.market.set_par(minor, share_price)
        share = minor.shares_of(minor)[0]
        game.share_pool.buy_shares(player, share.to_bundle())
        game.after_par(minor)
        if minor.cash > 0:
            minor.spend(minor.cash, game.bank)
        treasury = game.minor_float_starting_cash(amount, presidency)
        excess = amount - presidency
        if excess:
            player.spend(excess, game.bank, check_positive=False)
        game.bank.spend(treasury, minor)
        game.companies.remove(company)
        if amount - treasury > 0:
            self.log.append(f"{player.name} pays {game.fmt(amount - treasury)} to the bank")
        if treasury - presidency:
            self.log.append(f"{minor.name} receives an additional {game.fmt(treasury - presidency)} from the bid")

    def remove_l_trains(self, count):
        game = self.game
        total, removed = count, 0
        while game.depot.upcoming and game.depot.upcoming[0].name == "L" and count > 0:
            game.remove_train(game.depot.upcoming[0])
            count -= 1
            removed += 1
        if total != removed:
            self.log.append(f"{total} minors with no bids. The last {removed} L trains have been removed")
        else:
            self.log.append(f"{total} minors with no bids. {removed} L trains have been removed")

    def remove_minor_and_first_train(self, company):
        game = self.game
        train = self.remove_train()
        self.log.append(f"No bids on minor {company.id}, it will close and a {train.name} train is removed")
        game.close_corporation(game.find_corporation(company))
        company.close()
        if company in game.companies:
            game.companies.remove(company)

    def remove_train(self):
        game = self.game
        train = game.depot.upcoming[0]
        source = train.owner
        game.remove_train(train)
        game.phase.buying_train(None, train, source)
        return train


class BuySellParShares1822(BidTracker, ChooseAbilityMixin, BuySellParSharesStep):
    """A turn is one of: buy a share, convert a concession (par), or up to three bids on the bid
    boxes; shares may be sold first. A player in debt must pay it off before buying or bidding."""

    choice_time = "stock_round"

    @property
    def description(self):
        return "Bid, convert concession or buy/sell shares"

    @property
    def pass_description(self):
        return "Pass (Bids)" if self.bid_actions else "Pass"

    def round_state(self):
        state = super().round_state()
        state["tax_haven_bought"] = False
        return state

    def setup(self):
        super().setup()
        self.bid_actions = 0
        if self.round.bids is None:
            self.round.bids = {}
        self.bids = self.round.bids

    # -------------------------------------------------------------- what may be done
    def choices_ability(self, entity) -> dict:
        if not entity.is_company:
            return {}
        choices = self.game.company_choices(entity, self.choice_time)
        if choices and entity.id == "P16":
            player = entity.owner
            if self.bid_actions > 0 or player.debt > 0:
                return {}
            spender = self.game.tax_haven_spender(entity)
            cash = self.available_cash(spender) if spender is player else spender.cash
            choices = {k: v for k, v in choices.items()
                       if not self.sold(player).get(self.game.tax_haven_bundle(k).corporation)
                       and self.game.tax_haven_bundle(k).price <= cash}
        return choices

    def actions(self, entity):
        if self.choices_ability(entity):
            return ["choose_ability"]
        if entity is not self.current_entity():
            return []
        can_sell = self.can_sell_any(entity)
        if self.must_sell(entity, can_sell):
            return ["sell_shares"]
        debt = entity.debt
        out = []
        if self.bid_actions == 0 and debt == 0 and self.can_buy_any(entity):
            out.append("buy_shares")
        if self.bid_actions == 0 and debt == 0 and self.can_ipo_any(entity):
            out.append("par")
        if can_sell:
            out.append("sell_shares")
        if debt == 0:
            out.append("bid")
        if debt > 0 and entity.cash > 0:
            out += ["payoff_player_debt", "payoff_player_debt_partial"]
        if out:
            out.append("pass")
        return out

    def offers(self, entity):
        """``actions`` as an ``Offer`` for a player on turn (a bid is offered whenever there is no
        debt, so skipping rarely asks anything more)."""
        if type(self).actions is not BuySellParShares1822.actions or entity.is_company:
            return self.actions(entity)
        if entity is not self.current_entity():
            return []
        return Offer(self, entity, self.OFFER_1822)

    OFFER_1822 = ((("bid", "may_bid"), ("payoff_player_debt", "may_pay_off_debt"),
                   ("payoff_player_debt_partial", "may_pay_off_debt"), ("buy_shares", "may_buy_shares"),
                   ("par", "may_par"), ("sell_shares", "can_sell_any")),
                  ("sell_shares", "must_sell_now"), "actions")

    def may_bid(self, entity) -> bool:
        return entity.debt == 0

    def may_pay_off_debt(self, entity) -> bool:
        return entity.debt > 0 and entity.cash > 0

    def may_buy_shares(self, entity) -> bool:
        return self.bid_actions == 0 and entity.debt == 0 and self.can_buy_any(entity)

    def may_par(self, entity) -> bool:
        return self.bid_actions == 0 and entity.debt == 0 and self.can_ipo_any(entity)

    def must_sell_corporations(self, entity) -> list:
        # only the certificate limit forces sales
        return []

    def available_cash(self, entity) -> int:
        return entity.cash - self.committed_cash(entity)

    def available_par_cash(self, entity, corporation, share_price=None) -> int:
        available = self.available_cash(entity)
        concession = corporation.par_via_exchange
        if concession is not None:
            if share_price is not None and corporation.id == self.game.facts["two_home_corporation"]:
                available += share_price.price
            else:
                available += concession.value
        return available

    def can_buy(self, entity, bundle, available_cash=None) -> bool:
        if bundle is None or not bundle.buyable:
            return False
        corporation = bundle.corporation
        if corporation.type != "major":
            return False
        exchange = bundle.presidents_share is not None and "can_convert_concessions" in self.game.phase.status
        cash = self.available_cash(entity) if available_cash is None else available_cash
        return (cash >= bundle.price and not self.sold(entity).get(corporation)
                and (self.can_buy_multiple(entity, corporation, bundle.owner) or not self.bought())
                and self.can_gain(entity, bundle, exchange=exchange))

    def can_gain(self, entity, bundle, exchange=False):
        if bundle is None or entity is None or bundle.owner.is_player:
            return False
        corporation = bundle.corporation
        return corporation.holding_ok(entity, bundle.percent) and (
            not corporation.counts_for_limit or exchange
            or self.num_certs_with_bids(entity) < self.game.cert_limit(entity))

    def can_buy_any_from_ipo(self, entity) -> bool:
        return any(c.type == "major" and c.ipoed and self.can_buy_shares(entity, c.shares_of(c))
                   for c in self.game.corporations)

    def can_ipo_any(self, entity) -> bool:
        if self.bought():
            return False
        for c in self.game.corporations:
            if c.type != "major" or not self.game.can_par(c, entity):
                continue
            own = c.shares_of(c)
            if own and self.can_buy(entity, own[0].to_bundle(),
                                    available_cash=self.available_par_cash(entity, c)):
                return True
        return False

    def num_certs_with_bids(self, entity) -> float:
        return self.game.num_certs(entity) + len(self.bids_for_player(entity, only_committed=True))

    def par_prices(self, entity, corporation) -> list:
        multiplier = corporation.shares_of(corporation)[0].percent // 10 if corporation is not None else 2
        cash = self.available_par_cash(entity, corporation) if corporation is not None else self.available_cash(entity)
        return [p for p in self.game.market.par_prices if p.type == "par_1" and p.price * multiplier <= cash]

    # -------------------------------------------------------------- bid boxes
    def bid_targets(self) -> list:
        return self.game.bidbox_items()

    def min_bid(self, company):
        high = self.highest_bid(company)
        return high["price"] + self.game.rules["min_bid_increment"] if high is not None else company.min_bid

    def max_bid(self, player, company=None) -> int:
        return player.cash - self.committed_cash(player)

    def bidding_tokens(self, player):
        per_player = self.game.bidding_token_per_player
        if per_player is None:
            return None
        return per_player - len(self.bids_for_player(player))

    def bid_problem(self, entity, company, price):
        """Why ``entity`` may not bid ``price`` on ``company`` now (None: it may)."""
        if company not in self.bid_targets():
            return f"{company.name} is not in a bid box"
        minimum = self.min_bid(company)
        if price < minimum:
            return f"Minimum bid is {self.game.fmt(minimum)} for {company.name}"
        increment = self.game.rules["min_bid_increment"]
        if self.game.rules["must_bid_increment_multiple"] and (price - minimum) % increment:
            return f"Must increase bid by a multiple of {increment}"
        maximum = self.max_bid(entity, company)
        if price > maximum:
            return f"Cannot afford bid. Maximum possible bid is {maximum}"
        if self.game.loading:
            return None
        # Live play also applies the limits the reference's client enforces (replays of recorded games
        # do not: the reference engine accepts bids beyond them).
        if self.highest_player_bid(entity, company):
            return f"{entity.name} already holds the highest bid on {company.name}"
        if self.num_certs_with_bids(entity) >= self.game.cert_limit(entity):
            return f"{entity.name} would exceed the certificate limit"
        tokens = self.bidding_tokens(entity)
        if tokens is not None and self.find_bid(entity, company) is None and tokens <= 0:
            return f"{entity.name} has no bidding tokens left"
        return None

    def highest_player_bid(self, player, company) -> bool:
        bid = self.find_bid(player, company)
        if bid is None:
            return False
        high = self.highest_bid(company)
        return bid["price"] >= (high["price"] if high is not None else 0)

    def process_bid(self, action):
        entity, company = action.entity, action.company
        price = action.integer("price")
        problem = self.bid_problem(entity, company, price)
        if problem:
            raise GameError(problem)
        self.game.nothing_sold_in_sr = False
        entity.passed = False
        self.place_bid(entity, company, price)
        self.track_action(action, company)
        self.log.append(f"{entity.name} bids {self.game.fmt(price)} for {company.name}")
        self.bid_actions += 1
        if self.bid_actions >= self.game.facts["bidding_tokens_per_action"]:
            self.log_pass(entity)
            self.pass_()

    # -------------------------------------------------------------- shares
    def process_buy_shares(self, action):
        super().process_buy_shares(action)
        self.log_pass(action.entity)
        self.pass_()

    def check_par(self, entity, corporation, share_price):
        if corporation is None or share_price is None:
            raise GameError("Par needs a corporation and a par price")
        if not self.game.can_par(corporation, entity):
            raise GameError(f"{corporation.name} can't be parred")
        if share_price not in self.par_prices(entity, corporation) and not self.game.loading:
            raise GameError(f"{corporation.name} cannot be parred at {self.game.fmt(share_price.price)}")
        return super().check_par(entity, corporation, share_price) if corporation.par_via_exchange is None else None

    def process_par(self, action):
        entity, corporation, share_price = action.entity, action.corporation, action.share_price
        concession = corporation.par_via_exchange if corporation is not None else None
        self.check_par(entity, corporation, share_price)
        if concession is None:
            super().process_par(action)
        else:
            game = self.game
            share = corporation.shares_of(corporation)[0]
            bundle = share.to_bundle()
            if self.bought() or not self.can_buy(entity, bundle, available_cash=self.available_par_cash(
                    entity, corporation)):
                raise GameError(f"Can't buy a share of {corporation.name}")
            exchange_price = share_price.price * (bundle.percent // 10) - concession.value
            if exchange_price < 0:
                exchange_price = None
            if exchange_price and exchange_price > self.available_cash(entity):
                raise GameError(f"{entity.name} cannot afford to convert {concession.name}")
            game.market.set_par(corporation, share_price)
            game.share_pool.buy_shares(entity, bundle, exchange=concession, exchange_price=exchange_price)
            game.bank.spend(concession.value if exchange_price else share_price.price, corporation)
            concession.close()
            game.after_par(corporation)
            self.track_action(action, corporation)
        self.log_pass(entity)
        self.pass_()

    # -------------------------------------------------------------- the tax haven and debts
    def process_choose_ability(self, action):
        company = action.entity
        if company.id != "P16":
            self.game.company_made_choice(company, action.raw.get("choice"), self.choice_time)
            return
        choice = action.raw.get("choice")
        if choice not in self.choices_ability(company):
            raise GameError(f"{choice!r} is not a choice of {company.name} now")
        game = self.game
        bundle = game.tax_haven_bundle(choice)
        player = company.owner
        spender = game.tax_haven_spender(company)
        if (self.available_cash(spender) if spender.is_player and spender is player else spender.cash) < bundle.price \
                or self.sold(player).get(bundle.corporation) or self.round.tax_haven_bought:
            raise GameError(f"Can't buy a share of {bundle.corporation.name}")
        game.company_made_choice(company, choice, self.choice_time)
        self.round.tax_haven_bought = True
        self.track_action(action, company)
        self.log_pass(player)
        self.pass_()

    def process_payoff_player_debt(self, action):
        player = action.entity
        self.game.payoff_player_loan(player)
        self.round.last_to_act = player
        self.round.current_actions.append(action)

    def process_payoff_player_debt_partial(self, action):
        player = action.entity
        self.game.payoff_player_loan(player, action.integer("amount"))
        self.round.last_to_act = player
        self.round.current_actions.append(action)

    # -------------------------------------------------------------- passing and programs
    def pass_(self):
        self.round.update_stored_winning_bids(self.current_entity())
        super().pass_()

    def action_is_shenanigan(self, entity, other, action, corporation, share_to_buy):
        if action.type == "bid":
            if corporation in self.round.stored_winning_bids.get(entity, []):
                return f"No longer winning bid on {corporation.id}"
            return None
        if action.type == "choose_ability" and action.entity.id == "P16":
            return None
        return super().action_is_shenanigan(entity, other, action, corporation, share_to_buy)

    # -------------------------------------------------------------- for clients
    def choices(self, entity) -> dict:
        if entity.is_company:
            return {"choose_ability": self.choices_ability(entity)}
        out = super().choices(entity)
        parable = []
        if "par" in self.actions(entity):
            for c in self.game.corporations:
                own = c.shares_of(c)
                if c.type != "major" or not own or not self.game.can_par(c, entity) or not self.can_buy(
                        entity, own[0].to_bundle(), available_cash=self.available_par_cash(entity, c)):
                    continue
                prices = [x.id for x in self.par_prices(entity, c)]
                if prices:
                    parable.append({"corporation": c.id, "share_prices": prices})
        out["par"] = parable
        out["companies"] = [{"company": c.id, "min_bid": self.min_bid(c)} for c in self.bid_targets()
                            if self.bid_problem(entity, c, self.min_bid(c)) is None]
        out["max_bid"] = {c["company"]: self.max_bid(entity) for c in out["companies"]}
        out["bid_increment"] = self.game.rules["min_bid_increment"]
        if entity.debt > 0:
            out["payoff_player_debt"] = {"debt": entity.debt, "max": min(entity.debt, entity.cash)}
        return out


class DiscardTrain1822(DiscardTrainStep):
    """Extra trains (a second permanent, a second Pullman) are discarded out of the game."""

    def trains(self, corporation) -> list:
        game = self.game
        if game.extra_train_permanent_count(corporation) > 1:
            return [t for t in corporation.trains if game.extra_train_permanent(t)]
        if game.pullman_train_count(corporation) > 1:
            return [t for t in corporation.trains if game.pullman_train(t)]
        return [t for t in corporation.trains if not game.extra_train(t)]

    def choices(self, entity) -> dict:
        return {"discard_train": [t.id for t in self.trains(entity)] if entity in self.crowded_corps() else []}

    def process_discard_train(self, action):
        train = action.train
        game = self.game
        if train.owner is not action.entity or train not in self.trains(action.entity):
            raise GameError(f"{action.entity.name} cannot discard {train.id}")
        if game.remove_discarded_train(train):
            game.remove_train(train)
            train.owner = None
            self.log.append(f"{action.entity.name} discards {train.name}, {train.name} is removed from the game")
        else:
            train.remove_variants()
            game.depot.reclaim_train(train)
            self.log.append(f"{action.entity.name} discards {train.name}")


# ====================================================================== the choices round
class ChoicesRound1822(ChoicesRound):
    name = "Choose"


class Choose1822(ChoicesStep):
    """The owner of the double-cash private may double his cash for the next player order; when that
    could not change the order the choice is skipped."""

    company_id = "P9"

    def auto_actions(self, entity):
        if self.company(entity) is None:
            return None
        # (as the reference decides it: compared with the second-smallest cash holding)
        cash = sorted(p.cash for p in self.game.players)
        richest = max(self.game.players, key=lambda p: p.cash)
        if richest is entity or entity.cash * 2 < (cash[1] if len(cash) > 1 else 0):
            self.log.append(f"Doubling {entity.name}'s cash would not affect player order, skipping choice for "
                            f"{self.company(entity).name}")
            return [{"type": "pass", "entity": entity.id, "entity_type": "player"}]
        return None


class OperatingRound1822(OperatingRound):
    pass


__all__ += ["BuySellParShares1822", "ChoicesRound1822", "Choose1822", "DiscardTrain1822", "OperatingRound1822",
            "StockRound1822", "Step"]
