"""1856's rounds and steps."""

from __future__ import annotations

from ...errors import GameError
from ...flow.round import OperatingRound, StockRound
from ...flow.step import Step
from ...flow.steps import (AssignStep, BankruptStep, BuyCompanyStep, BuySellParSharesStep, BuyTrainStep,
                           DiscardTrainStep, DividendStep, EmergencyMoneyMixin, HomeTokenStep, RouteStep,
                           SpecialBuyStep, SpecialTokenStep, SpecialTrackStep, TokenStep, TrackStep)

__all__ = ["DiscardTrainStep", "HomeTokenStep", "RouteStep"]


# ====================================================================== rounds
class StockRound1856(StockRound):
    def __init__(self, game, steps, round_num=1):
        self.players_unvested_holdings = {}
        super().__init__(game, steps, round_num)

    def start_entity(self):
        self.players_unvested_holdings[self.entities[self.entity_index]] = None
        super().start_entity()

    def corporations_to_move_price(self):
        out = super().corporations_to_move_price()
        for c in self.game.corporations:
            if self.game.sold_out(c) and c not in out:
                out.append(c)
        return out


class OperatingRound1856(OperatingRound):
    """Interest is paid after running routes; loans over the limit are repaid after buying trains;
    a president who cannot cover either enters a cash crisis."""

    def after_setup(self):
        self.paid_interest = {}
        self.after_track = {}
        self.redeemed_loan = {}
        self.took_loan = {}
        self.interest_penalty = {}
        self.player_interest_penalty = {}
        self.wsrc_activated = False
        self.cash_crisis_player = None
        self.cash_crisis_due_to_interest = None
        self.cash_crisis_due_to_forced_repay = None
        super().after_setup()

    def finished(self):
        done = super().finished()
        if self.wsrc_activated and done:
            wsrc = self.game.wsrc
            self.log.append(f"{wsrc.name} closes")
            wsrc.close()
            self.wsrc_activated = False
        return done

    def start_operating(self):
        corporation = self.entities[self.entity_index]
        if not corporation.floated() and corporation.can_start():
            self.log.append(f"{corporation.name} floats")
            corporation.start()
        if not corporation.floated():
            self.log.append(f"{corporation.name} failed to float and is skipped")
            return self.force_next_entity()
        return super().start_operating()

    def after_process_before_skip(self, action):
        entity = self.entities[self.entity_index]
        self.cash_crisis_player = entity.player
        self.pay_interest(entity)
        if self.step_passed(Track1856):
            self.after_track[entity] = True
        self.force_repay_loans(entity)

    def skip_steps(self):
        # Never skip past dividends while a president owes money: the game can end in between.
        crisis = self.cash_crisis_player
        if not (crisis is not None and crisis.cash < 0) and not self.game.bankrupted:
            super().skip_steps()

    def force_repay_loans(self, entity):
        game = self.game
        self.cash_crisis_due_to_forced_repay = None
        if not entity.loans or not self.step_passed(BuyTrain1856):
            return
        excess = len(entity.loans) - game.maximum_loans(entity)
        if excess <= 0:
            return
        owed = 100 * excess
        self.log.append(f"{entity.name} must repay {excess} {'loan' if excess == 1 else 'loans'} and owes "
                        f"{game.fmt(owed)}")
        repaid = entity.loans[-excess:]
        del entity.loans[-excess:]
        game.loans.extend(repaid)
        self.redeemed_loan[entity] = True
        payment = min(owed, entity.cash)
        if payment > 0:
            entity.spend(payment, game.bank)
        owed -= payment
        self.log.append(f"{entity.name} pays {game.fmt(payment)} to redeem loans")
        if owed <= 0:
            return
        self.log.append(f"{entity.name} cannot pay remaining {game.fmt(owed)} in loans and president must cover "
                        "the difference")
        self.cash_crisis_due_to_forced_repay = entity
        entity.owner.spend(owed, game.bank, check_cash=False)

    def pay_interest(self, entity):
        game = self.game
        self.cash_crisis_due_to_interest = None
        if self.paid_interest.get(entity) or not self.step_passed(RouteStep):
            return
        owed = game.interest_owed(entity)
        detail = f" for {len(entity.loans)} loans" if entity.loans else ""
        self.log.append(f"{entity.name} owes {game.fmt(owed) if owed > 0 else 'no'} interest{detail}")
        self.paid_interest[entity] = True
        if not entity.loans:
            return
        payment = min(owed, entity.cash - entity.cash % 10)
        if payment > 0:
            owed -= payment
            entity.spend(payment, game.bank)
            self.log.append(f"{entity.name} pays {game.fmt(payment)} interest")
        if owed <= 0:
            return
        self.log.append(f"{entity.name} still owes {game.fmt(owed)} interest")
        deduction = min(owed, game.routes_revenue(self.routes))
        if deduction > 0:
            owed -= deduction
            self.log.append(f"{entity.name} deducts {game.fmt(deduction)} from its run")
            self.interest_penalty[entity] = deduction
        if owed <= 0:
            return
        self.player_interest_penalty[entity] = owed
        self.log.append(f"{entity.name} cannot afford remaining {game.fmt(owed)} interest and president must "
                        "cover the difference")
        self.cash_crisis_due_to_interest = entity
        entity.owner.spend(owed, game.bank, check_cash=False)


# ====================================================================== stock round
class BuySellParShares1856(BuySellParSharesStep):
    def round_state(self):
        state = super().round_state()
        state["false_national_president_warning_issued"] = False
        return state

    def actions(self, entity):
        game = self.game
        if game.false_national_president is not entity or entity is not self.current_entity():
            return super().actions(entity)
        if not self.round.false_national_president_warning_issued:
            self.log.append(f"-- {entity.name} must raise funds to buy a {game.national.name} share --")
            self.round.false_national_president_warning_issued = True
        out = []
        if self.can_sell_any(entity):
            out.append("sell_shares")
        if self.can_buy_any(entity):
            out.append("buy_shares")
        if not out and not self.national_buy_liquidity(entity):
            self.log.append(f"-- {entity.name} is unable to raise funds and is bankrupt --")
            game.end_game("bankrupt")
        return out

    def offers(self, entity):
        # (the false national president's turn is listed below, with its warning; any other as usual)
        if self.game.false_national_president is not entity or entity is not self.current_entity():
            return self.share_offer(entity)
        return self.actions(entity)

    def national_buy_liquidity(self, player) -> bool:
        national = self.game.national
        price = national.share_price.price
        if national.holding_ok(self.game.share_pool, 10):
            price = min(price, national.par_price.price)
        value = player.cash
        for corporation, shares in list(player.shares_by_corporation.items()):
            if shares and corporation is not national:
                value += max((b.price for b in self.game.bundles_for_corporation(player, corporation)
                              if self.can_sell(player, b)), default=0)
        return value >= price

    def can_buy_shares(self, entity, shares):
        game = self.game
        if game.false_national_president is entity and entity is self.current_entity() and shares and \
                shares[0].corporation is not game.national:
            return False
        return super().can_buy_shares(entity, shares)

    def not_started_national(self, bundle) -> bool:
        return bundle.corporation is self.game.national and not bundle.corporation.floated()

    def can_buy(self, entity, bundle):
        if bundle is None:
            return False
        corporation = bundle.corporation
        # The market may hold at most 50% here: buying from the IPO needs room for one more share there.
        if bundle.owner is corporation and not corporation.holding_ok(self.game.share_pool, 10):
            return False
        if self.game.false_national_president is not None and entity is self.game.false_national_president:
            return corporation is self.game.national and super().can_buy(entity, bundle)
        return super().can_buy(entity, bundle) and not self.not_started_national(bundle)

    def can_sell(self, entity, bundle):
        return super().can_sell(entity, bundle) and not self.not_started_national(bundle) and \
            self.vested(entity, bundle)

    def can_gain(self, entity, bundle, exchange=False):
        if bundle is None or entity is None or bundle.owner.is_player:
            return False
        corporation = bundle.corporation
        return corporation.holding_ok(entity, bundle.percent) and not self.not_started_national(bundle) and (
            not corporation.counts_for_limit or exchange
            or self.game.num_certs(entity) + sum(s.cert_size for s in bundle.shares) <= self.game.cert_limit())

    def vested(self, player, bundle) -> bool:
        # A share bought this turn may not be sold back unless the player keeps at least one.
        if self.round.players_unvested_holdings.get(player) is not bundle.corporation:
            return True
        return bundle.num_shares() < player.num_shares_of(bundle.corporation)

    def process_buy_shares(self, action):
        game = self.game
        corporation = action.bundle.corporation
        false_president = game.false_national_president
        national = game.national
        if false_president is not None and corporation is national and action.entity is false_president:
            self.buy_and_grow_presidency(action.entity, action.bundle)
            self.track_action(action, corporation)
        elif false_president is not None and corporation is national and action.entity.shares_of(national):
            game.share_pool.change_president(national.presidents_share, false_president, action.entity)
            national.owner = action.entity
            self.buy_and_grow_presidency(action.entity, action.bundle)
            self.track_action(action, corporation)
        else:
            super().process_buy_shares(action)
        self.round.players_unvested_holdings[action.entity] = corporation

    def buy_and_grow_presidency(self, entity, bundle):
        game = self.game
        if not self.can_buy(entity, bundle):
            raise GameError(f"Cannot buy a share of {bundle.corporation.name}")
        national = game.national
        price = bundle.price
        entity.spend(price, game.bank)
        grow = national.presidents_share.percent
        national.presidents_share.percent += grow
        national.holders_add(entity, grow)
        game.false_national_president = None
        game._remove_description(national, "false_presidency")
        self.log.append(f"{entity.name} spends {game.fmt(price)} to buy up to the presidency of the {national.name}")

    def activate_program_buy_shares(self, entity, program):
        corporation = self.game.corporation_by_id(program.get("corporation"))
        status = self.game.phase.status
        if corporation is not None and "buy_shares" in self.actions(entity) and program.get("until_condition") == "float" \
                and "facing_6" not in status and corporation.can_start():
            facing = next((s.split("_")[1] for s in status if s.startswith("facing_")), "?")
            return [self._disable(entity, f"{corporation.name} has enough shares sold to operate next OR unless all "
                                          f"of the {facing} and {facing}' trains are sold out")]
        return super().activate_program_buy_shares(entity, program)

    def set_par(self, corporation, share_price):
        # Capitalisation (escrow, incremental, full) is fixed when the corporation is parred.
        corporation.par()
        kind = {"full": "Full", "incremental": "Incremental", "escrow": "Escrow"}[corporation.capitalization]
        self.log.append(f"{corporation.name} is parred as a {kind} cap corporation")
        super().set_par(corporation, share_price)


# ====================================================================== operating round
class Track1856(TrackStep):
    def legal_tile_rotation(self, entity, hex_, tile):
        return self.board.legal_tile_rotation(entity, hex_, tile, gray_town_rule=self.game.gray_phase())

    def process_lay_tile(self, action):
        wsrc = self.game.wsrc
        if action.hex.id == "I12" and not wsrc.closed:
            # Kitchener was built: the Waterloo & Saugeen's free lay is no longer needed.
            for ability in self.game.abilities(wsrc, "tile_lay"):
                wsrc.remove_ability(ability)
        super().process_lay_tile(action)


class SpecialTrack1856(SpecialTrackStep):
    def process_lay_tile(self, action):
        if action.hex.id == "I12":
            self.log.append(f"{self.game.wsrc.name} is used and will close at the end of the operating round")
            self.round.wsrc_activated = True
        super().process_lay_tile(action)


class SpecialToken1856(SpecialTokenStep):
    def actions(self, entity):
        # The Waterloo & Saugeen token is placed by its owning corporation after laying track and
        # before interest is paid.
        owner = entity.owner if entity is not None else None
        if (entity.is_company and owner is not None and owner.is_player) or self.round.paid_interest.get(owner) \
                or not self.round.after_track.get(owner):
            return []
        return super().actions(entity)

    def process_place_token(self, action):
        self.log.append(f"{self.game.wsrc.name} is used and will close at the end of the operating round")
        self.round.wsrc_activated = True
        super().process_place_token(action)


class LoanBuyingPower:
    """Buying power that counts a loan the corporation could still take."""

    def buying_power(self, entity):
        power = entity.cash
        if self.game.can_take_loan(entity):
            power += 90 if self.round.paid_interest.get(entity) else 100
        return power


class Token1856(LoanBuyingPower, TokenStep):
    pass


class BuyCompany1856(LoanBuyingPower, BuyCompanyStep):
    pass


class Escrow(Step):
    """After track is laid, any corporation whose destination is now connected gets its escrow."""

    ACTIONS = ["destination_connection"]
    description = "Escrow Calculation"
    ability_time = "escrow"

    def actions(self, entity):
        return list(self.ACTIONS)

    def auto_actions(self, entity):
        game = self.game
        corps = [c.id for c in game.corporations if game.destination_connected(c)]
        return [{"type": "destination_connection", "entity": entity.id,
                 "entity_type": "corporation" if entity.is_corporation else "company", "corporations": corps}]

    def process_destination_connection(self, action):
        for cid in action.raw.get("corporations") or []:
            corp = self.game.corporation_by_id(cid)
            if corp is None:
                raise GameError(f"Unknown corporation: {cid}")
            self.game.destinated(corp)
        self.pass_()


class Loan(Step):
    description = "Take Loans"
    ability_time = "loan"

    def actions(self, entity):
        if not entity.is_corporation or entity is not self.current_entity():
            return []
        out = []
        if self.can_payoff(entity) or self.must_payoff(entity):
            out.append("payoff_loan")
        if self.game.can_take_loan(entity):
            out.append("take_loan")
        if self.blocks() and out:
            out.append("pass")
        return out

    def can_payoff(self, entity) -> bool:
        return bool(entity.loans) and entity.cash >= entity.loans[0].amount and self.round.step_passed(BuyTrain1856)

    def must_payoff(self, entity) -> bool:
        return len(entity.loans) > self.game.maximum_loans(entity) and self.round.step_passed(BuyTrain1856)

    def blocks(self):
        if self.game.post_nationalization:
            return False
        return self.round.step_passed(BuyTrain1856)

    def choices(self, entity) -> dict:
        out = {}
        if self.game.can_take_loan(entity) and self.game.loans:
            out["take_loan"] = {"loan": self.game.loans[0].id}
        if entity.loans and entity.cash >= entity.loans[0].amount and \
                (self.can_payoff(entity) or self.must_payoff(entity)):
            out["payoff_loan"] = {"loan": entity.loans[0].id}
        return out

    def process_take_loan(self, action):
        self.game.take_loan(action.entity, action.loan)
        self.round.took_loan[action.entity] = True

    def process_payoff_loan(self, action):
        entity, loan = action.entity, action.loan
        if loan not in entity.loans:
            raise GameError("Loan doesn't belong to that entity")
        self.log.append(f"{entity.name} pays off a loan for {self.game.fmt(loan.amount)}")
        entity.spend(loan.amount, self.game.bank)
        entity.loans.remove(loan)
        self.game.loans.append(loan)
        self.round.redeemed_loan[entity] = True


class CashCrisis(EmergencyMoneyMixin, Step):
    """A president who owes the bank (interest or forced loan repayment) must sell shares."""

    description = "Emergency Fundraising"
    ability_time = "cash_crisis"

    def setup(self):
        self.active_entity = None

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        if self.active_entity is None:
            self.active_entity = entity
            self.log.append(f"{entity.name} enters Emergency Fundraising and owes the bank "
                            f"{self.game.fmt(self.needed_cash(entity))}")
        return ["sell_shares"]

    def active(self):
        return bool(self.active_entities())

    def active_entities(self):
        player = getattr(self.round, "cash_crisis_player", None)
        return [player] if player is not None and player.cash < 0 else []

    def needed_cash(self, entity):
        return -entity.cash

    def available_cash(self, entity):
        return 0

    def choices(self, entity) -> dict:
        sales = []
        for corporation, shares in list(entity.shares_by_corporation.items()):
            if shares:
                sales += [{"shares": [s.id for s in b.shares], "percent": b.percent, "price": b.price}
                          for b in self.game.bundles_for_corporation(entity, corporation) if self.can_sell(entity, b)]
        return {"owed": self.needed_cash(entity), "sell_shares": sales}

    def process_sell_shares(self, action):
        super().process_sell_shares(action)
        if action.entity.cash >= 0:
            self.active_entity = None

    def sellable_bundle(self, bundle):
        player = bundle.owner
        if not bundle.can_dump(player) or not self.game.share_pool.fit_in_bank(bundle):
            return False
        corporation = bundle.corporation
        r = self.round
        if corporation.president(player) and (r.cash_crisis_due_to_interest is corporation
                                              or r.cash_crisis_due_to_forced_repay is corporation
                                              or corporation is self.current_entity()):
            holders = corporation.player_share_holders()
            remaining = holders.get(player, 0) - bundle.percent
            others = [p for h, p in holders.items() if h is not player]
            if remaining < (max(others) if others else 0):
                return False
        return True


class Bankrupt1856(BankruptStep):
    def active(self):
        return bool(self.active_entities())

    def actions(self, entity):
        # Bankruptcy is open to a president who owes money he cannot raise: a cash crisis, or a
        # corporation that must buy a train it cannot afford even with the president's help.
        if entity.is_company:
            return []
        game = self.game
        player = entity if entity.is_player else entity.player
        if player is None or player is not getattr(self.round, "cash_crisis_player", None):
            return []
        if player.cash < 0 and game.can_go_bankrupt(player, None):
            return list(self.ACTIONS)   # owes the bank more than everything he could sell
        operator = self.round.current_operator
        step = self.round.active_step()
        if operator is not None and operator.player is player and isinstance(step, BuyTrain1856) \
                and step.must_buy_train(operator) and game.can_go_bankrupt(player, operator):
            return list(self.ACTIONS)
        return []

    def active_entities(self):
        player = getattr(self.round, "cash_crisis_player", None)
        return [player] if player is not None else []

    def process_bankrupt(self, action):
        game = self.game
        player = action.entity if action.entity.is_player else action.entity.owner
        self.log.append(f"-- {player.name} goes bankrupt --")
        self.sell_all_shares(player)
        if hasattr(self.round, "recalculate_order"):
            self.round.recalculate_order()
        player.spend(player.cash, game.bank, check_positive=False)
        game.declare_bankrupt(player)


class Assign1856(AssignStep):
    def process_assign(self, action):
        company, target = action.entity, action.target
        ability = self.game.ability(company, "assign_hexes")
        if ability is None:
            raise GameError(f"Could not assign {company.name} to {target.id}; it has no hex assignment")
        if company.id == self.game.port.id:
            if target.id not in ability.hexes:
                raise GameError(f"{company.name} cannot be assigned to {target.id}")
            target.assign(company.id)
            ability.use()
            self.log.append(f"{company.name} builds port on {target.id} and closes")
            company.close()


class BorrowTrain(Step):
    ACTIONS = ["borrow_train", "pass"]
    description = "Borrow Train"
    pass_description = "Pass (Borrow Train)"
    ability_time = "borrow_train"

    def actions(self, entity):
        if not entity.is_corporation or not self.can_borrow_train(entity):
            return []
        return list(self.ACTIONS)

    def blocks(self):
        entity = self.current_entity()
        return entity is not None and self.can_borrow_train(entity)

    def can_borrow_train(self, entity) -> bool:
        return bool(self.borrowable_trains(entity)) and not entity.trains

    def borrowable_trains(self, entity) -> list:
        out = []
        for ability in self.game.abilities(entity, "borrow_train"):
            for kind in ability.train_types:
                for train in self.game.depot.depot_trains():
                    if train.sym == kind and train not in out:
                        out.append(train)
                        break
        return out

    def choices(self, entity) -> dict:
        return {"borrow_train": [t.id for t in self.borrowable_trains(entity)]}

    def process_borrow_train(self, action):
        if action.train not in self.borrowable_trains(action.entity):
            raise GameError(f"{action.entity.name} cannot borrow {action.train.id}")
        self.game.borrow_train(action.entity, action.train)
        self.pass_()


class Dividend1856(DividendStep):
    def actions(self, entity):
        game = self.game
        if entity.is_corporation and entity is game.national and not game.national_ever_owned_permanent:
            return []
        if entity.is_company or not self.routes():
            return []
        return list(self.ACTIONS)

    def share_price_change(self, entity, revenue):
        if entity is self.game.national and not self.game.national_ever_owned_permanent:
            return {}
        return super().share_price_change(entity, revenue)

    def holder_for_corporation(self, entity):
        # Incremental corporations are not paid for the shares left in their IPO.
        return self.game.share_pool

    def total_revenue(self):
        return super().total_revenue() - (self.round.interest_penalty.get(self.round.current_operator) or 0)

    def log_run_payout(self, entity, kind, revenue, payout):
        r = self.round
        if (r.interest_penalty.get(entity) or 0) > 0:
            self.log.append(f"{entity.name} deducts {self.game.fmt(r.interest_penalty[entity])} for unpaid interest")
        if (r.player_interest_penalty.get(entity) or 0) > 0:
            self.log.append(f"{entity.owner.name} must personally contribute "
                            f"{self.game.fmt(r.player_interest_penalty[entity])} for unpaid interest")
        super().log_run_payout(entity, kind, revenue, payout)


class BuyTrain1856(BuyTrainStep):
    def must_buy_train(self, entity):
        game = self.game
        if entity is not game.national or game.national_ever_owned_permanent:
            return super().must_buy_train(entity)
        tradeable = any(t.rusts_on for t in entity.trains)
        return entity.cash > 1100 or (tradeable and entity.cash > 750)

    def process_buy_train(self, action):
        self.check_spend(action)
        self.buy_train_action(action)
        game = self.game
        if action.entity is game.national and not action.train.rusts_on:
            game.national_bought_permanent()
        if not self.can_buy_train(action.entity):
            self.pass_()

    def buyable_trains(self, entity):
        trains = super().buyable_trains(entity)
        if entity is self.game.national:
            trains = [t for t in trains if not t.rusts_on]
        return trains

    def pass_(self):
        entity = self.current_entity()
        borrowed = self.game.borrowed_trains.get(entity)
        if borrowed is not None:
            self.log.append(f"{entity.name} returns {borrowed.name}")
            self.game.depot.reclaim_train(borrowed)
            self.game.borrowed_trains[entity] = None
        super().pass_()


class NationalizationPayoff(Step):
    """When the CGR forms, each corporation with loans either merges into it ('merge') or its
    president pays off what the corporation cannot ('pass')."""

    ACTIONS = ["merge", "pass"]
    description = "Nationalization - Loan payoffs"
    ability_time = "nationalization_payoff"

    def ongoing(self) -> bool:
        return bool(self.game.nationalizables)

    def actions(self, entity):
        # Each corporation in turn: its president merges it ('merge') or pays its debt ('pass').
        return list(self.ACTIONS) if self.ongoing() and entity is self.game.nationalizables[0] else []

    def active_entities(self):
        return [self.game.nationalizables[0]] if self.ongoing() else []

    def active(self):
        return self.ongoing()

    def blocking(self):
        return self.ongoing()

    def amount_owed(self) -> int:
        return 100 * len(self.game.nationalizables[0].loans)

    def choices(self, entity) -> dict:
        if not self.ongoing():
            return {}
        major = self.game.nationalizables[0]
        return {"merge": {"corporation": major.id}, "president_pays": max(self.amount_owed() - major.cash, 0)}

    def process_merge(self, action):
        major = self.game.nationalizables[0]
        if action.corporation is not major:
            raise GameError(f"It is {major.name}'s turn to merge into the CGR or be paid off, not "
                            f"{action.corporation.name}'s")
        self.game.merge_major(major)

    def process_pass(self, action):
        major = self.game.nationalizables[0]
        self.game.nationalization_president_payoff(major, self.amount_owed() - major.cash)


class RemoveTokens(Step):
    description = "Choose token(s) to remove"
    ability_time = "remove_tokens"

    def round_state(self):
        return {"duplicate_tokens": [], "pending_removals": []}

    def duplicate(self) -> dict:
        return self.round.duplicate_tokens[0] if self.round.duplicate_tokens else {}

    def removal(self) -> dict:
        return self.round.pending_removals[0] if self.round.pending_removals else {}

    def pending_entity(self):
        return self.duplicate().get("corp") or self.removal().get("corp")

    def actions(self, entity):
        return ["remove_token"] if entity is not None and entity is self.pending_entity() else []

    def active(self):
        return self.pending_entity() is not None

    def active_entities(self):
        entity = self.pending_entity()
        return [entity] if entity is not None else []

    def hexes(self) -> list:
        return self.duplicate().get("hexes") or self.removal().get("hexes") or []

    def can_replace_token(self, entity, token) -> bool:
        if token is None or entity is not self.pending_entity() or token.hex not in self.hexes():
            return False
        if token.corporation is not self.pending_entity():
            return False
        tokens = self.duplicate().get("tokens")
        return tokens is None or token in tokens

    def choices(self, entity) -> dict:
        out = []
        for token in list(entity.tokens) if entity is self.pending_entity() else []:
            if token.city is not None and self.can_replace_token(entity, token):
                out.append({"city": token.city.id, "slot": token.city.tokens.index(token), "hex": token.hex.id})
        return {"remove_token": out}

    def process_remove_token(self, action):
        city = action.city
        slot = action.raw.get("slot")
        if not isinstance(slot, int) or not 0 <= slot < len(city.tokens):
            raise GameError(f"No slot {slot} in {city.id}")
        token = city.tokens[slot]
        if not self.can_replace_token(action.entity, token):
            raise GameError("Cannot remove that token")
        self.log.append(f"{action.entity.name} removes token from {city.hex.id} ({city.hex.location_name})")
        token.destroy()
        self.game.clear_graph()
        if self.round.duplicate_tokens:
            self.round.duplicate_tokens.pop(0)
        if not self.round.pending_removals:
            return
        count = self.round.pending_removals[0]["count"] - 1
        if count > 0:
            self.round.pending_removals[0]["count"] = count
        if count == 0:
            self.round.pending_removals.pop(0)


class NationalizationDiscardTrains(Step):
    description = "CGR Formation: Discard Trains"
    ability_time = "nationalization_discard_trains"

    def discardable(self) -> list:
        trains = self.game.national.trains
        temporary = [t for t in trains if t.rusts_on]
        permanent = [t for t in trains if not t.rusts_on]
        return temporary + (permanent if len(permanent) > 3 else [])

    def can_discard(self, entity) -> bool:
        return entity is self.game.national and self.game.nationalization_train_discard_trigger and \
            bool(self.discardable())

    def must_discard(self, entity) -> bool:
        return entity is self.game.national and self.game.nationalization_train_discard_trigger and \
            len(self.game.national.trains) > 3

    def actions(self, entity):
        if not self.can_discard(entity):
            return []
        return ["discard_train"] if self.must_discard(entity) else ["discard_train", "pass"]

    def crowded(self) -> list:
        return [self.game.national] if self.can_discard(self.game.national) else []

    def active_entities(self):
        return self.crowded()[:1]

    def active(self):
        return bool(self.crowded())

    def choices(self, entity) -> dict:
        return {"discard_train": [t.id for t in self.discardable()] if self.can_discard(entity) else []}

    def process_discard_train(self, action):
        if action.entity is not self.game.national:
            raise GameError("Only the national can discard trains now")
        train = action.train
        if train not in self.discardable():
            raise GameError(f"{train.id} cannot be discarded")
        self.game.depot.reclaim_train(train)
        if not self.can_discard(self.game.national):
            self.done_discarding()
        self.log.append(f"{action.entity.name} discards a {train.name} train to the pool")

    def pass_(self):
        self.done_discarding()
        super().pass_()

    def done_discarding(self):
        game = self.game
        national = game.national
        game.nationalization_train_discard_trigger = False
        national.remove_ability(game.ability(national, "train_limit"))
        from ...core.entities import Ability
        national.add_ability(Ability("train_limit", description="Train Limit of 3", increase=1))


class SpecialBuy1856(SpecialBuyStep):
    description = "Tunnel & Bridge Tokens"
    ITEMS = {"Tunnel Token": "tunnel", "Bridge Token": "bridge"}

    def buyable_items(self, entity):
        return [{"description": f"{kind.capitalize()} Token", "cost": self.game.facts["right_cost"]}
                for kind in ("tunnel", "bridge") if self.game.can_buy_right(entity, kind)]

    def choices(self, entity) -> dict:
        return {"special_buy": self.buyable_items(entity)}

    def process_special_buy(self, action):
        kind = self.ITEMS.get(action.raw.get("description"))
        if kind is None:
            raise GameError(f"Cannot buy unknown item: {action.raw.get('description')}")
        if not self.game.can_buy_right(action.entity, kind):
            raise GameError(f"{action.entity.name} cannot buy a {kind} token now")
        self.game.buy_right(action.entity, kind)
