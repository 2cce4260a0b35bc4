"""1856: Railroading in Upper Canada.

What differs from the common rules: escrow/incremental/full capitalisation by phase, a rising share
of the IPO that must be sold before a corporation first operates, destinations that release escrow,
government loans with interest, bridge/tunnel/port bonuses, and the Canadian Government Railway (CGR)
formed when the first 6-train is bought.
"""

from __future__ import annotations

from ...board.bonuses import assignment_bonus, hex_bonus_abilities
from ...core.entities import Ability, Corporation, Token, sort_corporations
from ...core.market import StockMarket
from ...core.shares import Share, ShareBundle
from ...errors import GameError
from ...flow.round import AuctionRound
from ...flow.steps import CompanyPendingParStep, WaterfallAuctionStep
from ...game import Game
from ...journal import Tracked
from . import steps as S

LOAN_VALUE = 100
INTEREST_RATE = 10
NUM_LOANS = 110
NATIONAL_TOKEN_PRICE = 100
NATIONAL_TOKEN_LIMIT = 10
NATIONAL_MAX_SHARES = 20
ULTIMATE_TRAIN_PRICE = 1100
ULTIMATE_TRAIN_TRADE_IN = 750


class Loan(Tracked):
    __slots__ = ("id", "amount")

    def __init__(self, lid, amount):
        self.id = lid
        self.amount = amount

    def __repr__(self):
        return f"<Loan {self.id}>"


class Corporation1856(Corporation):
    """A corporation that 'starts' (operates for the first time) once enough of its IPO is sold."""

    def __init__(self, game, **kw):
        self.game = game
        super().__init__(**kw)
        self.started = False
        self.escrow = None
        self.capitalization = None
        self.destinated = False

    def floated(self) -> bool:
        return self.started or (self.capitalization == "full" and self.can_start())

    def can_start(self) -> bool:
        return self.percent_of(self) <= 100 - self.game.percent_to_operate

    def start(self) -> None:
        self.started = True

    def par(self) -> None:
        self.capitalization = self.capitalization_type()
        if self.capitalization == "escrow":
            self.escrow = 0

    def capitalization_type(self) -> str:
        mode = self.game.capitalization
        if mode == "escrow":
            return "incremental" if self.destinated else "escrow"
        return mode

    def close(self) -> None:
        super().close()
        self.started = False


class Market1856(StockMarket):
    """The national's price does not move until it has owned a permanent train, and never closes."""

    def move(self, corporation, coordinates) -> None:
        game = self.game
        if game is None or corporation is not game.national:
            return super().move(corporation, coordinates)
        if not game.national_ever_owned_permanent:
            return None
        target = self.cell(*coordinates)
        if target is not None and "close" in target.types:
            game.log.append(f"{corporation.name} may not close")
            return None
        return super().move(corporation, coordinates)


class G1856(Game):
    market_class = Market1856

    # ================================================================== construction
    def init_loans(self):
        return [Loan(i, LOAN_VALUE) for i in range(NUM_LOANS)]

    def init_corporations(self):
        min_price = min(p.price for p in self.market.par_prices)
        out = []
        for record in self.data["corporations"]:
            opts = self.corporation_options(record)
            opts["min_price"] = min_price
            out.append(Corporation1856(self, **opts))
        return out

    def init_round(self):
        return AuctionRound(self, [CompanyPendingParStep, WaterfallAuctionStep])

    def initial_auction_companies(self):
        return self.companies

    def setup(self):
        self.post_nationalization = False
        self.nationalization_train_discard_trigger = False
        self.national_formed = False
        self.pre_national_percent_by_player = {}
        self.pre_national_market_percent = 0
        self.pre_national_market_prices = {}
        self.nationalized_corps = []
        self.nationalizables = []
        self.nationalization_trigger = None
        self.bankrupted = False
        self.false_national_president = None
        self.national_ever_owned_permanent = False
        self.borrowed_trains = {}
        self.percent_to_operate = 20
        self.capitalization = "escrow"
        self.national = self.corporation_by_id("CGR")
        dests = self.facts["alternate_destinations" if "alternate_destinations" in self.optional_rules
                            else "destinations"]
        self.destinations = {}
        for corp_id, dest in dests.items():
            parts = dest if isinstance(dest, list) else [dest]
            goals = parts[0] if isinstance(parts[0], list) else [parts[0]]
            start = parts[-1] if len(parts) > 1 else self.corporation_by_id(corp_id).coordinates
            self.destinations[corp_id] = (start, list(goals))
            if self.board is not None:
                for d in parts:
                    self.board.add_icon(d[0] if isinstance(d, list) else d, corp_id)
        self.national.destinated = True
        self.national.add_ability(self._description("Share price may not change",
                                                    "Share price may not change until this corporation has owned "
                                                    "a permanent train", "immobile_price"))
        self.national.add_ability(self._description("May not pay dividends",
                                                    "Must withhold earnings until this corporation has owned a "
                                                    "permanent train", "forced_withhold"))

    @staticmethod
    def _description(text, detail, key):
        ability = Ability("description", description=text, desc_detail=detail)
        ability.attrs["key"] = key
        return ability

    def _remove_description(self, corporation, key):
        for ability in list(corporation.abilities):
            if ability.type == "description" and ability.attrs.get("key") == key:
                corporation.remove_ability(ability)

    # ================================================================== rounds
    def stock_round(self):
        return S.StockRound1856(self, [S.DiscardTrainStep, S.BuySellParShares1856])

    def operating_round(self, round_num):
        return S.OperatingRound1856(self, [
            S.Bankrupt1856, S.CashCrisis, S.Assign1856, S.Loan, S.SpecialTrack1856, S.SpecialToken1856,
            S.BuyCompany1856, S.HomeTokenStep, S.NationalizationPayoff, S.RemoveTokens,
            S.NationalizationDiscardTrains, S.SpecialBuy1856, S.Track1856, S.Escrow, S.Token1856,
            S.BorrowTrain, S.RouteStep, S.Dividend1856, S.DiscardTrainStep, S.BuyTrain1856,
            (S.BuyCompany1856, {"blocks": True}),
        ], round_num)

    def operating_order(self):
        return sort_corporations([c for c in self.corporations if c.floated() or c.can_start()])

    def float_corporation(self, corporation):
        corporation.start()
        super().float_corporation(corporation)

    def can_par(self, corporation, parrer):
        return corporation is not self.national and super().can_par(corporation, parrer)

    def can_swap_for_presidents_share_from_ipo(self):
        return False

    # ================================================================== loans and interest
    def maximum_loans(self, entity) -> int:
        return entity.num_player_shares()

    def interest_rate(self):
        return None if self.post_nationalization else INTEREST_RATE

    def interest_owed(self, entity) -> int:
        return 0 if self.post_nationalization else INTEREST_RATE * len(entity.loans)

    def can_take_loan(self, entity) -> bool:
        r = self.round
        return (entity.is_corporation and len(entity.loans) < self.maximum_loans(entity)
                and not r.took_loan.get(entity) and not r.redeemed_loan.get(entity) and bool(self.loans)
                and "no_loans" not in self.phase.status and not self.post_nationalization)

    def take_loan(self, entity, loan) -> None:
        if not self.can_take_loan(entity):
            raise GameError(f"{entity.name} cannot take a loan")
        if loan not in self.loans:
            raise GameError(f"Loan {loan.id} is not available")
        amount = LOAN_VALUE - INTEREST_RATE if self.round.paid_interest.get(entity) else LOAN_VALUE
        self.log.append(f"{entity.name} takes a loan and receives {self.fmt(amount)}")
        self.bank.spend(amount, entity)
        entity.loans.append(loan)
        self.loans.remove(loan)

    def player_value(self, player) -> int:
        # At the end each share is worth $10 less per loan its corporation still has.
        return player.value() - sum(s.percent * len(s.corporation.loans) for s in player.shares)

    # ================================================================== destinations and escrow
    def destination_connected(self, corp) -> bool:
        if (corp.capitalization or corp.capitalization_type()) != "escrow":
            return False
        dest = self.destinations.get(corp.id)
        return dest is not None and self.board.hexes_connected(dest[0], dest[1])

    def destinated(self, corp) -> None:
        self.log.append(f"-- {corp.name} has destinated --")
        self.remove_dest_icons(corp)
        self.release_escrow(corp)
        corp.destinated = True

    def remove_dest_icons(self, corp) -> None:
        dest = self.destinations.get(corp.id)
        if dest is None or self.board is None:
            return
        for hex_id in [dest[0]] + list(dest[1]):
            self.board.remove_icon(hex_id, corp.id)

    def release_escrow(self, corp) -> None:
        if corp.escrow is not None:
            self.log.append(f"Releasing {self.fmt(corp.escrow)} from escrow for {corp.name}")
            if corp.escrow > 0:
                self.bank.spend(corp.escrow, corp)
        corp.escrow = None
        if corp.capitalization == "escrow":
            corp.capitalization = "incremental"

    # ================================================================== map rules
    def gray_phase(self) -> bool:
        return "gray" in self.phase.tiles

    TOWN_CONVERSIONS = {("55", "14"), ("1", "14"), ("56", "15"), ("2", "15"), ("3", "5"), ("4", "57"),
                        ("58", "6"), ("3", "7"), ("4", "9"), ("58", "8")}

    def upgrades_to(self, from_tile, to_tile, special=False, selected_company=None) -> bool:
        if from_tile.name == "470":
            return False
        if (from_tile.name, to_tile.name) in self.TOWN_CONVERSIONS:
            return self.gray_phase()
        if from_tile.color == "brown" and from_tile.hex is not None and \
                from_tile.hex.id == self.facts["hamilton_hex"]:
            return to_tile.name == "123"
        return super().upgrades_to(from_tile, to_tile, special, selected_company)

    def route_bonuses(self, corporation) -> list:
        # +20 for a stop in the hex holding the port marker (GLSC) of the corporation that placed it;
        # +10 per bridge (Buffalo) or tunnel (Sarnia) hex for a holder of the matching right.
        return assignment_bonus(self.board, corporation, "GLSC", 20) + hex_bonus_abilities(corporation)

    # ================================================================== bridge, tunnel, port
    @property
    def port(self):
        return self.company_by_id("GLSC")

    @property
    def tunnel(self):
        return self.company_by_id("SCFTC")

    @property
    def bridge(self):
        return self.company_by_id("NFSBC")

    @property
    def wsrc(self):
        return self.company_by_id("WSRC")

    def has_right(self, corporation, kind) -> bool:
        hexes = ("B13",) if kind == "tunnel" else ("P17",)
        return any(a.type == "hex_bonus" and any(h in a.hexes for h in hexes) for a in corporation.all_abilities)

    def right_hex(self, kind) -> str:
        return self.facts["tunnel_token_hex" if kind == "tunnel" else "bridge_token_hex"]

    def right_token_available(self, kind) -> bool:
        return self.board.has_icon(self.right_hex(kind), kind)

    def can_buy_right(self, entity, kind) -> bool:
        company = self.tunnel if kind == "tunnel" else self.bridge
        if not entity.is_corporation or company.owned_by_player():
            return False
        return self.right_token_available(kind) and not self.has_right(entity, kind) and \
            self.buying_power(entity) >= self.facts["right_cost"]

    def buy_right(self, entity, kind) -> None:
        company = self.tunnel if kind == "tunnel" else self.bridge
        seller = self.bank if company.closed else company.owner
        cost = self.facts["right_cost"]
        self.log.append(f"{entity.name} buys a {kind} token from {'the bank' if company.closed else seller.name} "
                        f"for {self.fmt(cost)}")
        entity.spend(cost, seller)
        if "unlimited_bonus_tokens" not in self.optional_rules:
            self.board.remove_icon(self.right_hex(kind), kind)
            self.clear_graph()
        self.grant_right(entity, kind)

    def grant_right(self, corporation, kind) -> None:
        where = "Sarnia" if kind == "tunnel" else "Buffalo"
        corporation.add_ability(Ability("hex_bonus", description=f"+10 bonus when running to {where}",
                                        hexes=["B13"] if kind == "tunnel" else ["P17", "P19"], amount=10,
                                        owner_type="corporation"))

    def return_right_marker(self, kind) -> None:
        self.board.add_icon(self.right_hex(kind), kind)

    def company_bought(self, company, buyer) -> None:
        if company is self.bridge:
            self.grant_right(buyer, "bridge")
        if company is self.tunnel:
            self.grant_right(buyer, "tunnel")

    # ================================================================== events
    def event_change_float(self):
        if self.percent_to_operate == 60:
            raise GameError("The share needed to operate cannot rise above 60%")
        self.percent_to_operate += 10
        self.log.append(f"-- Event: {int(self.phase.name) + 1}-trains are available. Unoperated corporations need "
                        f"to have sold {self.percent_to_operate}% from the IPO to operate. --")

    def event_no_more_escrow_corps(self):
        self.log.append("New corporations will be started as incremental cap corporations")
        for corp in self.corporations:
            if not corp.capitalization:
                self.remove_dest_icons(corp)
        self.capitalization = "incremental"

    def event_no_more_incremental_corps(self):
        self.log.append("New corporations will be started as full cap corporations")
        self.capitalization = "full"

    def event_close_companies(self):
        unlimited = "unlimited_bonus_tokens" in self.optional_rules
        if self.bridge.owned_by_player() and not unlimited:
            self.return_right_marker("bridge")
        if self.tunnel.owned_by_player() and not unlimited:
            self.return_right_marker("tunnel")
        super().event_close_companies()

    def event_remove_tokens(self):
        removals = {}
        for corp in self.corporations:
            for key in list(corp.assignments):
                removals.setdefault(key, {})["corporation"] = corp.name
                del corp.assignments[key]
        for hex_ in self.board.all_hexes():
            for key in list(hex_.assignments):
                removals.setdefault(key, {})["hex"] = hex_.id
                del hex_.assignments[key]
        for hex_id in self.facts["port_hexes"]:
            self.board.remove_icon(hex_id, "port")
        for key, where in removals.items():
            self.log.append(f"-- Event: {where.get('corporation')}'s {self.company_by_id(key).name} token removed "
                            f"from {where.get('hex')} --")

    def event_nationalization(self):
        if self.nationalization_trigger is None:
            self.nationalization_trigger = self.train_by_id("6-0").owner.owner
        self.log.append(f"-- Event: {self.national.id} merger --")
        self.corporations_repay_loans()
        self.nationalizables = self.nationalizable_corporations()
        if self.nationalizables:
            names = ", ".join(f"{c.name} ({c.player.name})" for c in self.nationalizables)
            self.log.append(f"Merge candidates: {names}")

    # ================================================================== the national (CGR)
    def num_corporations(self) -> int:
        return len(self.corporations) if self.post_nationalization else len(self.corporations) - 1

    def update_cert_limit(self) -> None:
        table = self.facts["post_nationalization_cert_limit"]
        self.cert_limit_value = table[str(self.num_corporations())][str(len(self.players))]

    def corporations_repay_loans(self) -> None:
        for corp in self.corporations:
            if not corp.floated() or not corp.loans:
                continue
            repaid = min(len(corp.loans), corp.cash // LOAN_VALUE)
            amount = LOAN_VALUE * repaid
            if amount <= 0:
                continue
            corp.spend(amount, self.bank)
            for _ in range(repaid):
                self.loans.append(corp.loans.pop())
            self.log.append(f"{corp.name} repays {self.fmt(amount)} to redeem {repaid} loans")

    def _trigger_order(self) -> dict:
        index = self.players.index(self.nationalization_trigger)
        return {p: (i + 10 if i < index else i) for i, p in enumerate(self.players)}

    def nationalizable_corporations(self) -> list:
        corps = [c for c in self.corporations if c.floated() and c is not self.national and c.loans]
        order = self._trigger_order()
        entities = self.round.entities

        def key(c):
            return (order[c.player], entities.index(c) if c in entities else len(entities))

        return sorted(corps, key=key)

    def national_bought_permanent(self) -> None:
        if self.national_ever_owned_permanent:
            return
        self.national_ever_owned_permanent = True
        self._remove_description(self.national, "forced_withhold")
        self._remove_description(self.national, "immobile_price")
        self.log.append(f"-- {self.national.name} now owns a permanent train, may no longer borrow a train when "
                        "trainless --")
        for ability in list(self.national.abilities):
            if ability.type == "borrow_train":
                self.national.remove_ability(ability)
                break

    def merge_major(self, major) -> None:
        if major in self.nationalized_corps:
            raise GameError(f"{major.name} cannot merge twice")
        if major not in self.nationalizables:
            raise GameError(f"{major.name} isn't eligible for merging")
        national = self.national
        self.national_formed = True
        self.log.append(f"-- {major.name} merges into {national.name} --")
        for train in list(major.trains):
            if not train.rusts_on:
                self.national_bought_permanent()
            self.buy_train(national, train, "free")
        if major.cash > 0:
            major.spend(major.cash, national)
        while major.loans:
            self.loans.append(major.loans.pop(0))
        unlimited = "unlimited_bonus_tokens" in self.optional_rules
        for kind in ("tunnel", "bridge"):
            if not self.has_right(major, kind):
                continue
            if self.has_right(national, kind):
                self.log.append(f"{national.name} already has a {kind} token, the token is returned to the bank pool")
                if not unlimited:
                    self.return_right_marker(kind)
            else:
                self.log.append(f"{national.name} gets {major.name}'s {kind} token")
                self.grant_right(national, kind)
        self.remove_dest_icons(major)
        self.board.vacate_corporation_tokens(major)
        for player, percent in major.player_share_holders().items():
            self.pre_national_percent_by_player[player] = self.pre_national_percent_by_player.get(player, 0) + percent
        self.pre_national_market_percent += major.num_market_shares() * 10
        self.pre_national_market_prices[major.name] = major.share_price.price
        self.nationalized_corps.append(major)
        self.nationalizables.remove(major)
        self.post_corp_nationalization()

    def nationalization_president_payoff(self, major, owed) -> None:
        if major in self.nationalized_corps:
            raise GameError(f"{major.name} cannot pay off loans twice")
        if major not in self.nationalizables:
            raise GameError(f"{major.name} isn't eligible for paying off loans")
        if major.cash > 0:
            major.spend(major.cash, self.bank)
        major.owner.spend(owed, self.bank)
        while major.loans:
            self.loans.append(major.loans.pop())
        self.log.append(f"{major.name} spends the remainder of its cash towards repaying loans")
        self.log.append(f"{major.owner.name} pays off the {self.fmt(owed)} debt for {major.name}")
        self.nationalizables.remove(major)
        self.post_corp_nationalization()

    def post_corp_nationalization(self) -> None:
        if self.nationalizables:
            return
        national = self.national
        if not self.national_formed:
            self.log.append(f"{national.name} does not form")
            national.close()
            return
        national.start()
        self.market.set_par(national, self.calculate_national_price())
        self.national_share_swap()
        self.national_token_swap()
        for corp in self.nationalized_corps:
            self.close_corporation(corp)
        entities = self.round.entities
        indexes = [entities.index(c) for c in self.nationalized_corps if c in entities]
        earliest = min(indexes) if indexes else None
        buyer = self.train_by_id("6-0").owner
        current = entities.index(buyer) if buyer in entities else None
        if current is not None and earliest is not None and current < earliest:
            entities.insert(current + 1, national)
        self.nationalization_train_discard_trigger = True
        self.post_nationalization = True
        self.update_cert_limit()
        self.total_loans = 0

    def calculate_national_price(self):
        prices = list(self.pre_national_market_prices.values())
        if len(prices) > 2:
            prices.remove(min(prices))
        average = int(0.2 * sum(prices) / len(prices)) * 5
        if average < 105:
            price = 100
        elif average <= 115:
            price = 110
        else:
            delta = average % 25
            price = average - delta if delta < 12.5 else average - delta + 25
        for cell in self.market.grid[0]:
            if cell is not None and cell.price == price:
                return cell
        raise GameError(f"No top-row market space at {price}")

    def national_issue_shares(self) -> None:
        national = self.national
        if national.total_shares != 10:
            return
        self.log.append(f"{national.name} issues 10 more shares and all shares are now 5% shares")
        own = national.shares_of(national)
        for i, share in enumerate(own):
            share.percent = 10 if i == 0 else 5
            share.cert_size = 1 if i == 0 else 0.5
        count = national.total_shares
        for i in range(10):
            share = Share(national, national, percent=5, index=count + i, cert_size=0.5)
            self._shares[share.id] = share
            own.append(share)
        national.add_ability(self._description("20 Share Corporation", None, "twenty_share"))

    def national_share_swap(self) -> None:
        national = self.national
        index = self.players.index(self.nationalization_trigger)
        order = sorted(range(len(self.players)), key=lambda i: i + 10 if i < index else i)
        left = NATIONAL_MAX_SHARES
        president_shares, president = 0, None
        for i in order:
            player = self.players[i]
            percent = self.pre_national_percent_by_player.get(player)
            if not percent:
                continue
            awarded = min(percent // 20, left)
            self.pre_national_market_percent += percent % 20
            left -= awarded
            self.log.append(f"{player.name} gets {awarded} shares of {national.name}")
            if awarded <= president_shares:
                continue
            self.log.append(f"{player.name} becomes president of the {national.name}")
            if awarded == 1:
                self.log.append(f"{player.name} will need to buy the 2nd share of the {national.name} president's "
                                "cert in the next SR unless a new president is found")
                self.false_national_president = player
                national.add_ability(self._description("(Temporary) 1-Share presidency", None, "false_presidency"))
            elif self.false_national_president is not None:
                self.false_national_president = None
                self._remove_description(national, "false_presidency")
            president_shares = awarded
            president = player
        market_count = min(self.pre_national_market_percent // 20, left)
        left -= market_count
        if left < 10:
            self.national_issue_shares()
        pool = self.share_pool
        issued = 1
        for i in order:
            player = self.players[i]
            percent = self.pre_national_percent_by_player.get(player)
            if not percent:
                continue
            count = percent // 20
            if count <= 0:
                continue
            if player is president:
                if self.false_national_president is not None:
                    self.log.append(f"{player.name} is the president of the {national.name} but is only awarded "
                                    "1 share")
                    national.presidents_share.percent //= 2
                    pool.buy_shares(player, national.presidents_share, exchange="free", exchange_price=0)
                    national.holders_add(national, -national.share_percent)
                    count -= 1
                else:
                    pool.buy_shares(player, national.presidents_share, exchange="free", exchange_price=0)
                    count -= 2
            while count > 0:
                if issued == NATIONAL_MAX_SHARES - 1:
                    self.log.append(f"{national.name} is out of shares to issue, {player.name} gets no more shares")
                    count = 0
                else:
                    pool.buy_shares(player, national.shares_of(national)[-1], exchange="free", exchange_price=0)
                    count -= 1
                    issued += 1
        if market_count > 0:
            pool.buy_shares(pool, ShareBundle(national.shares_of(national)[-market_count:]), exchange="free")

    def create_national_token(self, price=NATIONAL_TOKEN_PRICE):
        token = Token(self.national, price=price)
        self.national.tokens.append(token)
        return token

    def national_token_swap(self) -> None:
        national = self.national
        homes = []
        for corp in self.nationalized_corps:
            token = self.create_national_token()
            token.price = 0
            home = corp.tokens[0]
            city = home.city
            self.replace_token(corp, home, token)
            homes.append(city)
        for corp in self.nationalized_corps:
            for token in list(corp.tokens):
                if not token.used or token.city is None or any(h.hex is token.city.hex for h in homes):
                    continue
                self.remove_duplicate_tokens(corp, homes)
                new = self.create_national_token()
                new.price = 0
                self.replace_token(corp, token, new)
        by_hex = {}
        for token in national.tokens:
            by_hex.setdefault(token.hex, []).append(token)
        duplicates = False
        for hex_, tokens in by_hex.items():
            if len(tokens) <= 1:
                continue
            if not duplicates:
                self.log.append(f"-- {national.name} has to remove duplicate tokens from hexes --")
                duplicates = True
            self.round.duplicate_tokens.append({"corp": national, "hexes": [hex_], "tokens": tokens})
        keep = max(len(homes), NATIONAL_TOKEN_LIMIT)
        if len(national.tokens) - len(self.round.duplicate_tokens) > keep:
            self.log.append(f"-- {national.name} is above token limit and must decide which tokens to remove --")
            home_hexes = [h.hex for h in homes]
            self.round.pending_removals.append({
                "corp": national, "count": len(national.tokens) - keep,
                "hexes": [t.hex for t in national.tokens if t.hex not in home_hexes]})
        spare = max(keep - len(national.tokens) + len(self.round.duplicate_tokens), 0)
        self.log.append(f"{national.name} has {spare} spare {self.fmt(NATIONAL_TOKEN_PRICE)} "
                        f"token{'' if spare == 1 else 's'}")
        for _ in range(spare):
            national.tokens.append(Token(national, price=NATIONAL_TOKEN_PRICE))

    def remove_duplicate_tokens(self, corp, homes) -> None:
        cities = [t.city for t in corp.tokens if t.city is not None]
        for token in list(self.national.tokens):
            if token.city in cities and token.city not in homes:
                token.destroy()

    def replace_token(self, major, major_token, token) -> None:
        city = major_token.city
        self.log.append(f"{major.name}'s token in {city.hex.id} is replaced with a {self.national.name} token")
        major_token.remove()
        self.board.place_token(self.national, city, token, free=True, check_tokenable=False)

    def borrow_train(self, entity, train) -> None:
        self.buy_train(entity, train, "free")
        train.set_operated(False)
        self.borrowed_trains[entity] = train
        self.log.append(f"{entity.name} borrows a {train.name}")

    # ================================================================== bankruptcy
    def declare_bankrupt(self, player) -> None:
        self.bankrupted = True
        super().declare_bankrupt(player)

    def can_go_bankrupt(self, player, corporation) -> bool:
        if corporation is None:
            return self.liquidity(player, emergency=True) < 0
        return super().can_go_bankrupt(player, corporation)
