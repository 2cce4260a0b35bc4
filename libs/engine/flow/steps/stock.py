"""The stock round's main step: buy, sell and par shares (and buy private companies where allowed);
exchanging a private company for a share."""

from __future__ import annotations

from ...core.shares import ShareBundle
from ...errors import GameError
from ..step import Offer, Step

PURCHASES = ("buy_company", "buy_shares", "par")


class ShareBuying:
    """Mixin: buying certificates with the legality checks common to every title."""

    def buy_shares(self, entity, bundle, *, exchange=None, exchange_price=None, swap=None,
                   allow_president_change=True, silent=False):
        if not self.can_buy(entity, bundle) and swap is None:
            raise GameError(f"Cannot buy a share of {bundle.corporation.name}")
        self.game.share_pool.buy_shares(entity, bundle, exchange=exchange, exchange_price=exchange_price, swap=swap,
                                        allow_president_change=allow_president_change, silent=silent)
        self.maybe_place_home_token(bundle.corporation)

    def maybe_place_home_token(self, corporation):
        timing = self.game.rules["home_token_timing"]
        if (timing == "float" and corporation.floated()) or (timing == "par" and corporation.ipoed):
            self.game.place_home_token(corporation)

    def can_gain(self, entity, bundle, exchange=False):
        if bundle is None or entity is None:
            return False
        if bundle.owner.is_player and not self.game.can_gain_from_player(entity, bundle):
            return False
        corporation = bundle.corporation
        return corporation.holding_ok(entity, bundle.common_percent) and (
            not corporation.counts_for_limit or exchange
            or self.game.num_certs(entity) < self.game.cert_limit(entity))


class BuySellParSharesStep(ShareBuying, Step):
    ability_time = "buy_sell_par_shares"

    @property
    def description(self):
        order = self.game.rules["sell_buy_order"]
        return {"sell_buy_or_buy_sell": "Buy or Sell Shares", "sell_buy": "Sell then Buy Shares",
                "sell_buy_sell": "Sell/Buy/Sell Shares"}.get(order, "Buy or Sell Shares")

    @property
    def pass_description(self):
        return "Pass (Share)" if not self.round.current_actions else "Done (Share)"

    def round_state(self):
        return {"players_sold": {}, "players_bought": {}, "current_actions": [], "bought_from_ipo": False,
                "players_history": {}}

    def setup(self):
        for corps in self.round.players_sold.values():
            for corp in corps:
                corps[corp] = "prev"
        entity = self.current_entity()
        self.round.players_history[entity] = {}
        self.round.current_actions = []
        self.round.bought_from_ipo = False

    # -------------------------------------------------------------- helpers on round state
    def sold(self, entity) -> dict:
        return self.round.players_sold.setdefault(entity, {})

    def bought(self) -> bool:
        return any(a.type in PURCHASES for a in self.round.current_actions)

    def did_sell(self) -> bool:
        return any(a.type == "sell_shares" for a in self.round.current_actions)

    def available_cash(self, entity) -> int:
        return entity.cash

    # -------------------------------------------------------------- what may be done
    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        can_sell = self.can_sell_any(entity)
        if can_sell and self.must_sell(entity, can_sell):
            return ["sell_shares"]
        out = []
        if self.can_buy_any(entity):
            out.append("buy_shares")
        if self.can_ipo_any(entity):
            out.append("par")
        if self.purchasable_companies(entity) or self.buyable_bank_owned_companies(entity):
            out.append("buy_company")
        if can_sell:
            out.append("sell_shares")
        if out:
            out.append("pass")
        return out

    def offers(self, entity):
        """``actions(entity)`` worked out as far as the round asks (an ``Offer``), unless a title's
        step lists its actions its own way."""
        if type(self).actions is not BuySellParSharesStep.actions:
            return self.actions(entity)
        return self.share_offer(entity)

    # what ``actions`` lists, as an ``Offer`` asks it: (type, condition) in the order cheapest first
    OFFER = ((("sell_shares", "can_sell_any"), ("buy_shares", "can_buy_any"), ("par", "can_ipo_any"),
              ("buy_company", "can_buy_any_company")), ("sell_shares", "must_sell_now"), "plain_actions")

    def share_offer(self, entity):
        """What ``BuySellParSharesStep.actions`` lists, as an ``Offer``."""
        if entity is not self.current_entity():
            return []
        return Offer(self, entity, BuySellParSharesStep.OFFER)

    def plain_actions(self, entity) -> list:
        return BuySellParSharesStep.actions(self, entity)

    def can_buy_any_company(self, entity) -> bool:
        return bool(self.purchasable_companies(entity) or self.buyable_bank_owned_companies(entity))

    def must_sell_now(self, entity) -> bool:
        """``must_sell`` for an entity known to be able to sell."""
        return self.must_sell(entity, True)

    def can_buy(self, entity, bundle) -> bool:
        if bundle is None or not bundle.buyable:
            return False
        if entity is bundle.owner:
            return False
        corporation = bundle.corporation
        return (self.available_cash(entity) >= self.modify_purchase_price(bundle)
                and not self.sold(entity).get(corporation)
                and (self.can_buy_multiple(entity, corporation, bundle.owner) or not self.bought())
                and self.can_gain(entity, bundle))

    def modify_purchase_price(self, bundle) -> int:
        return bundle.price

    def must_sell(self, entity, can_sell=None) -> bool:
        if not (self.can_sell_any(entity) if can_sell is None else can_sell):
            return False
        if self.game.num_certs(entity) > self.game.cert_limit(entity):
            return True
        return bool(self.must_sell_corporations(entity))

    def must_sell_corporations(self, entity) -> list:
        held = [c for c, shares in entity.shares_by_corporation.items() if shares and not c.closed]
        return [c for c in held if not c.holding_ok(entity) and self.can_sell_any_bundles(entity, c)]

    def can_sell(self, entity, bundle) -> bool:
        if bundle is None or entity is not bundle.owner:
            return False
        corporation = bundle.corporation
        limit = self.game.rules["turn_sell_limit"]
        return bool(self.game.check_sale_timing(entity, bundle)
                    and not (limit and bundle.percent + self.sold_this_turn(corporation) > limit)
                    and not (self.game.rules["must_sell_in_blocks"] and self.sold(entity).get(corporation) == "now")
                    and self.can_sell_order()
                    and self.game.share_pool.fit_in_bank(bundle)
                    and bundle.can_dump(entity))

    def can_sell_order(self) -> bool:
        order = self.game.rules["sell_buy_order"]
        acts = self.round.current_actions
        if order == "sell_buy_or_buy_sell":
            kinds = {a.type for a in acts}
            return not (len(kinds) == 2 and acts[-1].type in PURCHASES)
        if order == "sell_buy":
            return not self.bought()
        return True

    def sold_this_turn(self, corporation) -> int:
        return sum(a.bundle.percent for a in self.round.current_actions
                   if a.type == "sell_shares" and a.bundle.corporation is corporation)

    def can_buy_multiple(self, entity, corporation, owner) -> bool:
        if self.game.rules["multiple_buy_only_from_market"]:
            if not owner.is_share_pool or self.round.bought_from_ipo:
                return False
        return (corporation.buy_multiple()
                and not any(a.type == "par" for a in self.round.current_actions)
                and not any(a.type == "buy_shares" and a.bundle.corporation is not corporation
                            for a in self.round.current_actions))

    def can_sell_any_bundles(self, entity, corporation) -> bool:
        # Conditions that hold for every bundle of the corporation are checked once, first.
        if self.game.rules["must_sell_in_blocks"] and self.sold(entity).get(corporation) == "now":
            return False
        if not self.can_sell_order() or not self.may_sell_now(entity, corporation):
            return False
        return any(self.can_sell(entity, b) for b in self.game.sale_candidates(entity, corporation))

    def may_sell_now(self, entity, corporation) -> bool:
        """Whether the sale timing allows selling ``corporation`` at all now (checked once, before its
        bundles are built)."""
        return self.game.check_sale_timing(entity, ShareBundle.trusted([], 0, corporation))

    def can_sell_any(self, entity) -> bool:
        # Only corporations the entity holds certificates of can have sellable bundles.
        held = [c for c, shares in entity.shares_by_corporation.items() if shares and not c.closed]
        return any(self.can_sell_any_bundles(entity, c) for c in held)

    def can_buy_shares(self, entity, shares) -> bool:
        if not shares:
            return False
        sample = shares[0]
        corporation, owner = sample.corporation, sample.owner
        if self.sold(entity).get(corporation) or (self.bought() and not self.can_buy_multiple(entity, corporation, owner)):
            return False
        smallest = None
        for share in shares:
            if share.buyable and (smallest is None or share.percent < smallest.percent):
                smallest = share
        if smallest is None:
            return False
        bundle = smallest.to_bundle()
        return self.available_cash(entity) >= self.modify_purchase_price(bundle) and self.can_gain(entity, bundle)

    def can_buy_any_from_market(self, entity) -> bool:
        # (the pool holds its certificates per corporation already)
        return any(self.can_buy_shares(entity, shares)
                   for shares in self.game.share_pool.shares_by_corporation.values() if shares)

    def can_buy_any_from_ipo(self, entity) -> bool:
        return any(c.ipoed and self.can_buy_shares(entity, c.shares_of(c)) for c in self.game.corporations)

    def can_buy_any(self, entity) -> bool:
        return self.can_buy_any_from_market(entity) or self.can_buy_any_from_ipo(entity)

    def can_ipo_any(self, entity) -> bool:
        if self.bought():
            return False
        for c in self.game.corporations:
            if not self.game.can_par(c, entity):
                continue
            own = c.shares_of(c)
            if own and self.can_buy(entity, own[0].to_bundle()):
                return True
        return False

    def purchasable_companies(self, entity) -> list:
        if self.bought() or self.available_cash(entity) <= 0 or \
                "can_buy_companies_from_other_players" not in self.game.phase.status:
            return []
        return self.game.purchasable_companies(entity)

    def buyable_bank_owned_companies(self, entity) -> list:
        if not entity.is_player or self.bought():
            return []
        return [c for c in self.game.buyable_bank_owned_companies() if self.available_cash(entity) >= c.value]

    def par_prices(self, entity, corporation) -> list:
        if corporation is not None and corporation.required_par_price is not None:
            return [corporation.par_price] if corporation.par_price is not None else []
        return [p for p in self.game.market.par_prices if p.price * 2 <= self.available_cash(entity)]

    # -------------------------------------------------------------- processing
    def track_action(self, action, corporation, player_action=True):
        player = action.entity.player
        self.round.last_to_act = player
        if player_action:
            self.round.current_actions.append(action)
        self.round.players_history.setdefault(player, {}).setdefault(corporation, []).append(action)

    def process_buy_shares(self, action):
        bundle = action.bundle
        entity = action.entity
        bought = self.round.players_bought.setdefault(entity, {})
        if bundle.owner.is_corporation:
            self.round.bought_from_ipo = True
        self.buy_shares(entity, bundle, swap=action.swap,
                        allow_president_change=self.allow_president_change(bundle.corporation))
        bought[bundle.corporation] = bought.get(bundle.corporation, 0) + bundle.percent
        self.track_action(action, bundle.corporation)

    def allow_president_change(self, corporation) -> bool:
        return True

    def process_sell_shares(self, action):
        self.sell_shares(action.entity, action.bundle, swap=action.swap)
        self.track_action(action, action.bundle.corporation)

    def sell_shares(self, entity, bundle, swap=None):
        if not self.can_sell(entity, bundle) and swap is None:
            raise GameError(f"Cannot sell shares of {bundle.corporation.name}")
        self.sold(bundle.owner)[bundle.corporation] = "now"
        self.game.sell_shares_and_change_price(bundle, swap=swap)

    def check_par(self, entity, corporation, share_price):
        """The president's certificate ``entity`` would buy by parring, once the par is legal."""
        if corporation is None or share_price is None:
            raise GameError("Par needs a corporation and a par price")
        if not self.game.can_par(corporation, entity):
            raise GameError(f"{corporation.name} cannot be parred")
        if not share_price.can_par:
            raise GameError(f"{share_price.price} is not a par price")
        if corporation.required_par_price is not None and share_price is not corporation.par_price:
            raise GameError(f"{corporation.name} must par at {self.game.fmt(corporation.required_par_price)}")
        if self.bought():
            raise GameError("Cannot par after buying this turn")
        share = corporation.shares_of(corporation)[0]
        if not self.can_buy(entity, share.to_bundle()):
            raise GameError(f"Cannot afford or hold the president's certificate of {corporation.name}")
        return share

    def set_par(self, corporation, share_price):
        """Give the corporation its par price (titles also settle how it is capitalised)."""
        self.game.market.set_par(corporation, share_price)

    def process_par(self, action):
        entity, corporation, share_price = action.entity, action.corporation, action.share_price
        share = self.check_par(entity, corporation, share_price)
        self.set_par(corporation, share_price)
        bought = self.round.players_bought.setdefault(entity, {})
        bought[corporation] = bought.get(corporation, 0) + share.percent
        self.buy_shares(entity, share.to_bundle())
        self.game.after_par(corporation)
        self.track_action(action, corporation)

    def process_buy_company(self, action):
        entity, company, price = action.entity, action.company, action.integer("price")
        owner = company.owner
        if owner is not None and owner.is_corporation:
            raise GameError(f"Cannot buy {company.name} from {owner.name}")
        if company not in self.purchasable_companies(entity) + self.buyable_bank_owned_companies(entity):
            raise GameError(f"Cannot buy {company.name} now")
        low, high = self.company_price_range(entity, company)
        if not low <= price <= high:
            raise GameError(f"{company.name} costs {self.game.fmt(low)}" if low == high else
                            f"{entity.name} may pay {self.game.fmt(low)} to {self.game.fmt(high)} for {company.name}")
        company.owner = entity
        if owner is not None and company in owner.companies:
            owner.companies.remove(company)
        entity.companies.append(company)
        entity.spend(price, self.game.bank if owner is None else owner)
        self.round.current_actions.append(action)
        self.log.append(f"{entity.name} buys {company.name} from {owner.name if owner else 'the market'} "
                        f"for {self.game.fmt(price)}")
        if entity.is_player:
            self.game.after_buy_company(entity, company, price)

    def company_price_range(self, entity, company):
        """What ``entity`` may pay for ``company``: a bank-owned one costs its value; another player's
        goes for any price both agree on, up to the buyer's cash."""
        if company.owner is None or not company.owner.is_player:
            return company.value, company.value
        return 1, self.available_cash(entity)

    def pass_(self):
        super().pass_()
        entity = self.current_entity()
        if self.round.current_actions:
            if entity in self.round.pass_order:
                self.round.pass_order.remove(entity)
            if entity is not None:
                entity.passed = False
        else:
            if entity not in self.round.pass_order:
                self.round.pass_order.append(entity)
            if entity is not None:
                entity.passed = True

    def log_pass(self, entity):
        if not self.round.current_actions:
            self.log.append(f"{entity.name} passes")
        elif not (self.bought() and self.did_sell()):
            self.log.append(f"{entity.name} declines to {'sell' if self.bought() else 'buy'} shares")

    def log_skip(self, entity):
        self.log.append(f"{entity.name} has no valid actions and passes")

    # -------------------------------------------------------------- programmed (automatic) actions
    def auto_actions(self, entity):
        programs = self.game.programmed_actions.get(entity.player) or []
        out = []
        for program in list(programs):
            method = getattr(self, "activate_" + program["type"], None)
            if method is None:
                continue
            generated = method(entity, program)
            if generated:
                out.extend(generated)
        return out

    def _auto(self, entity, kind, **fields) -> dict:
        return {"type": kind, "entity": entity.id, "entity_type": "player", **fields}

    def _disable(self, entity, reason) -> dict:
        return self._auto(entity, "program_disable", reason=reason)

    def activate_program_share_pass(self, entity, program):
        if "pass" not in self.actions(entity):
            return None
        if not program.get("unconditional"):
            reason = self.should_stop_applying_program(entity, program, None)
            if reason:
                return [self._disable(entity, reason)]
        return [self._auto(entity, "pass")]

    def activate_program_buy_shares(self, entity, program):
        game = self.game
        corporation = game.corporation_by_id(program.get("corporation"))
        if corporation is None:
            return [self._disable(entity, "Unknown corporation")]
        until = program.get("until_condition")
        finished = None
        if until == "float":
            if corporation.floated() or corporation.percent_to_float() == 0:
                finished = f"{corporation.name} is floated"
        elif isinstance(until, int) and entity.num_shares_of(corporation, ceil=False) >= until:
            finished = f"{until} share(s) bought in {corporation.name}, end condition met"
        if finished:
            out = [self._disable(entity, finished)]
            if program.get("auto_pass_after"):
                out.append(self._auto(entity, "program_share_pass", unconditional=False, indefinite=False))
            return out
        available = self.actions(entity)
        if "buy_shares" in available:
            if program.get("from_market"):
                source, shares = "market", game.share_pool.shares_of(corporation)
            else:
                source, shares = "IPO", corporation.shares_of(corporation)
            by_percent = {}
            for share in shares:
                if self.can_buy(entity, share.to_bundle()):
                    by_percent.setdefault(share.percent, []).append(share)
            if not by_percent:
                return [self._disable(entity, f"Cannot buy {corporation.name} from {source}")]
            if len(by_percent) != 1:
                return [self._disable(entity, "Shares of different sizes exist, cannot auto buy "
                                              f"{corporation.name} from {source}")]
            share = next(iter(by_percent.values()))[0]
            reason = self.should_stop_applying_program(entity, program, share)
            if reason:
                return [self._disable(entity, reason)]
            return [self._auto(entity, "buy_shares", shares=[share.id], percent=share.percent)]
        if self.bought() and "pass" in available:
            if until == "float" and corporation.floated():
                return None
            return [self._auto(entity, "pass")]
        return None

    def should_stop_applying_program(self, entity, program, share_to_buy):
        if self.must_sell(entity):
            return f"{entity.name} must sell shares"
        armed_at = program.get("id") or 0
        for other, corporations in self.round.players_history.items():
            if other is entity:
                continue
            for corporation, actions in corporations.items():
                for action in actions:
                    if action.seq < armed_at:
                        continue
                    reason = self.action_is_shenanigan(entity, other, action, corporation, share_to_buy)
                    if reason:
                        return reason
        return None

    def action_is_shenanigan(self, entity, other, action, corporation, share_to_buy):
        """Whether another player's action since the program was armed should stop it."""
        buying = share_to_buy.corporation if share_to_buy is not None else None
        if action.type == "par":
            from ...core.shares import Share
            probe = Share(corporation, corporation).to_bundle()
            if buying is None or self.game.check_sale_timing(entity, probe):
                return f"Corporation {corporation.name} parred"
            return None
        if action.type == "buy_shares":
            if action.entity is corporation:
                return f"{corporation.name} redeemed a share."
            if corporation.owner is entity:
                if corporation.owner.percent_of(corporation) >= 50:
                    return None
                if corporation is not buying:
                    return f"{other.name} bought on corporation {corporation.name} and is unsecure"
                percentage = corporation.owner.percent_of(corporation) + share_to_buy.percent
                if percentage > 50:
                    return None
                bigger = [s for s in self.game.shares_for_corporation(corporation)
                          if s.percent > share_to_buy.percent and (s.owner is not entity or s.owner is not corporation.owner)]
                if bigger:
                    big = max(bigger, key=lambda s: s.percent)
                    if percentage < action.entity.percent_of(corporation) + big.percent:
                        return f"{action.entity.player.name} has bought, shares exist that could allow them to gain presidency"
            return None
        if action.type == "sell_shares":
            return "Shares were sold"
        if action.type == "take_loan":
            return f"{corporation.name} took a loan"
        return f"Unknown action {action.type} disabling for safety"

    # -------------------------------------------------------------- for clients
    def choices(self, entity) -> dict:
        game = self.game
        # one certificate of each kind (size, president's or not) that may be bought, per corporation
        # and place (the treasury/IPO, the market)
        buyable = []
        seen = set()
        for c in game.corporations:
            if c.ipoed:
                for share in c.shares_of(c):
                    kind = (c, "ipo", share.percent, share.president)
                    if kind not in seen and self.can_buy(entity, share.to_bundle()):
                        seen.add(kind)
                        buyable.append({"share": share.id, "from": "ipo", "price": share.price})
        for share in game.share_pool.shares:
            kind = (share.corporation, "market", share.percent, share.president)
            if kind not in seen and self.can_buy(entity, share.to_bundle()):
                seen.add(kind)
                buyable.append({"share": share.id, "from": "market", "price": share.price})
        sellable = []
        for c in game.corporations:
            for bundle in game.bundles_for_corporation(entity, c):
                if self.can_sell(entity, bundle):
                    sellable.append({"shares": [s.id for s in bundle.shares], "percent": bundle.percent,
                                     "price": bundle.price})
        parable = []
        if "par" in self.actions(entity):
            for c in game.corporations:
                own = c.shares_of(c)
                if game.can_par(c, entity) and own and self.can_buy(entity, own[0].to_bundle()):
                    prices = [p.id for p in self.par_prices(entity, c)]
                    if prices:
                        parable.append({"corporation": c.id, "share_prices": prices})
        companies = []
        if "buy_company" in self.actions(entity):
            for c in self.purchasable_companies(entity) + self.buyable_bank_owned_companies(entity):
                low, high = self.company_price_range(entity, c)
                companies.append({"company": c.id, "min_price": low, "max_price": high,
                                  "owner": c.owner.id if c.owner is not None else None})
        return {"buy_shares": buyable, "sell_shares": sellable, "par": parable, "companies": companies}


class ExchangeStep(ShareBuying, Step):
    """A private company's ``exchange`` ability: when the ability's timing allows, its owner trades it
    for one certificate of a listed corporation (``corporations``) from the sources the ability names
    (``from``: ``ipo``, ``market``, ``reserved`` = reserved IPO certificates). The company closes; in a
    stock round the exchange counts as the player's purchase. Titles add conditions through
    ``game.exchange_problem(company, corporation)``."""

    ACTIONS = ["buy_shares"]
    description = "Exchange a company for a share"
    ability_time = "exchange"

    blocks = Step.blocks_nothing

    def ability(self, entity):
        if entity is None or not entity.is_company or entity.owner is None or not entity.owner.is_player:
            return None
        found = self.game.abilities(entity, "exchange")
        return found[0] if found else None

    def corporations(self, ability) -> list:
        return [c for c in (self.game.corporation_by_id(cid) for cid in ability.corporations or ()) if c is not None]

    def source_shares(self, ability, corporation) -> list:
        sources = ability.attrs.get("from") or ["ipo"]
        out = []
        for source in (sources if isinstance(sources, list) else [sources]):
            if source == "reserved":
                shares = corporation.reserved_shares()
            elif source == "ipo":
                shares = [s for s in corporation.ipo_shares if s.buyable and not s.president]
            elif source == "market":
                shares = list(self.game.share_pool.shares_of(corporation))
            else:
                shares = []
            out.extend(s for s in shares if s not in out)
        return out

    def exchangeable_shares(self, company) -> list:
        ability = self.ability(company)
        if ability is None:
            return []
        return [s for c in self.corporations(ability) if self.game.exchange_problem(company, c) is None
                for s in self.source_shares(ability, c) if self.can_buy(company.owner, s.to_bundle())]

    def actions(self, entity):
        return list(self.ACTIONS) if self.ability(entity) is not None else []

    def can_buy(self, entity, bundle) -> bool:
        return self.can_gain(entity, bundle, exchange=True)

    def process_buy_shares(self, action):
        company, bundle = action.entity, action.bundle
        ability = self.ability(company)
        corporation = bundle.corporation
        if ability is None:
            raise GameError(f"{company.name} cannot be exchanged now")
        if corporation not in self.corporations(ability):
            raise GameError(f"{company.name} is exchanged only for a share of "
                            f"{', '.join(c.name for c in self.corporations(ability))}")
        problem = self.game.exchange_problem(company, corporation)
        if problem is not None:
            raise GameError(problem)
        if len(bundle.shares) != 1 or bundle.shares[0] not in self.source_shares(ability, corporation):
            raise GameError(f"Cannot exchange {company.name} for {', '.join(s.id for s in bundle.shares)}")
        player = company.owner
        if not self.can_buy(player, bundle):
            raise GameError(f"{player.name} cannot hold another share of {corporation.name}")
        for share in bundle.shares:
            share.buyable = True
        self.buy_shares(player, bundle, exchange=company)
        company.close()
        if hasattr(self.round, "current_actions"):
            self.round.current_actions.append(action)

    def choices(self, entity) -> dict:
        return {"buy_shares": [{"share": s.id, "from": "exchange", "price": 0}
                               for s in self.exchangeable_shares(entity)]}
