"""1847 AE: Pfalz (Anniversary Edition).

What differs from the common rules:

* Set-up: L, Saar and LFK have their par markers on the market, L its home token and a president
  (through the PLP company); the investor companies reserve ordinary IPO certificates of Saar and HLB,
  paid into those treasuries at par. Every corporation has a fixed par price.
* Turn 0: draft rounds (companies at face value, the first pass in reverse seat order) alternate with
  short operating rounds until every company is drafted; then turn 1 starts with a stock round.
  Companies carry certificates (L shares, the Saar and LFK president's certificates), paid into the
  corporation's treasury at par by the bank.
* LFK (Locomotive Firm Krauss) is a private company kept as a one-certificate corporation: it never
  operates; the first train bought from the depot in each operating round pays its owner a tenth of the
  price and moves its price right, a round without such a purchase moves it left; its price never rises
  for being sold out; it may always be sold (and bought back from the market).
* Shares: double certificates (20% counting as one certificate) that must be bought from the IPO in
  order; investor companies exchanged for their reserved shares (by choice from phase 3+3 to 5 once the
  corporation floats, by force at the first stock round after the 5+5 train); a player holding 70% may
  buy another player's share at 150% of its price ("nationalization").
* Track: until the first 4-train two yellow lays per turn, only on hexes whose icon colour matches the
  corporation's; a corporation's first operation may lay and upgrade; double-town yellow tiles upgrade
  to single towns, green double-slot cities do not upgrade; E9 only from phase 5 (Rammelsbach then
  earns more).
* Routes: coal (G7/H6 to Z hexes, not by 6E trains) and A-to-B bonuses; corporations earn dividends only
  for their shares in the market; one train of each type from the depot per turn; no buying trains from
  other corporations in phase 3.
"""

from __future__ import annotations

from ...board.bonuses import RouteBonus
from ...core.entities import Corporation
from ...core.market import StockMarket
from ...core.pool import SharePool, move_share, presidency_swap_shares
from ...flow.round import DraftRound
from ...flow.steps import (BankruptStep, BuyCompanyStep, DiscardTrainStep, DraftStep, ExchangeStep, HomeTokenStep,
                           RouteStep, SpecialTokenStep, SpecialTrackStep, TokenStep)
from ...game import Game
from . import steps as S

LFK = "LFK"                      # the locomotive firm, kept as a corporation
L, SAAR, HLB = "L", "Saar", "HLB"
RAMMELSBACH = "R"
RAMMELSBACH_HEX = "E9"           # may be built from phase 5; a tile there raises Rammelsbach's revenue
RAMMELSBACH_REVENUE = 50
CLOSE_WHEN_BOUGHT = ("PLP", "LFKC")   # certificate holders that close once drafted
DOUBLE_TOWN_UPGRADES = {"1": "88", "55": "88", "56": "87", "69": "204"}
COAL_BONUS = 70
LOCAL_BONUS = 40
NATIONALIZATION_SHARES = 7       # shares a player must hold to buy another player's share
YELLOW_COLOR_ICONS = ("pink", "blue", "green")


class Corporation1847(Corporation):
    """A corporation with the colour of the hexes it may build in during the yellow phases."""

    def __init__(self, sym, name, **opts):
        super().__init__(sym, name, **opts)
        self.hex_color = opts.get("hex_color")
        own = self.shares_of(self)
        self.certificate_count = len(own)
        self.second_share_double = len(own) > 2 and own[2].double_cert
        self.last_share_double = bool(own) and own[-1].double_cert


class Market1847(StockMarket):
    """LFK's price never rises for being sold out."""

    def move_up(self, corporation):
        if corporation is getattr(self.game, "lfk", None):
            return None
        return super().move_up(corporation)


class SharePool1847(SharePool):
    """A new president hands two ordinary shares (or a double certificate) to wherever the president's
    certificate lies: the previous president, or the market when it was just sold there."""

    def change_president(self, presidents_share, swap_to, president) -> None:
        corporation = presidents_share.corporation
        num = presidents_share.percent // corporation.share_percent
        for share in presidency_swap_shares(president.shares_of(corporation), num):
            move_share(share, presidents_share.owner)
        move_share(presidents_share, president)


class G1847AE(Game):
    corporation_class = Corporation1847
    market_class = Market1847
    share_pool_class = SharePool1847

    # ================================================================== construction
    def init_round(self):
        return DraftRound(self, [DraftStep], 1, reverse_first=True)

    def setup(self):
        self.lfk = self.corporation_by_id(LFK)
        l_corp, saar = self.corporation_by_id(L), self.corporation_by_id(SAAR)
        for corporation in (l_corp, saar, self.lfk):
            self.market.set_par(corporation, corporation.par_price)
        # L's home token is on the map from the start (a short operating round may come first), and
        # its presidency is drafted with the PLP company.
        city = self.board.hex_by_id(l_corp.coordinates).tile.cities[0]
        self.board.place_token(l_corp, city, l_corp.next_token(), free=True)
        l_corp.ipoed = True
        # Each investor company reserves an ordinary IPO certificate of its corporation, paid for at par.
        for company_id in self.facts["investor_companies"]:
            corporation = self.investor_corporation(self.company_by_id(company_id))
            share = next(s for s in corporation.shares_of(corporation) if s.buyable and not s.president)
            share.buyable = False
        for corporation in self.corporations:
            reserved = corporation.reserved_shares()
            if reserved:
                self.bank.spend(corporation.par_price.price * sum(s.percent for s in reserved) // 10, corporation)
        self.turn = 0
        self.draft_round_num = 1
        self.draft_finished = False
        self.recently_floated = []
        self.extra_tile_lay = True
        self.yellow_tracks_restricted = True
        self.must_exchange_investor_companies = False
        self.train_bought_this_round = False
        self.nationalization_actions = []

    def investor_corporation(self, company):
        ability = next(a for a in company.abilities if a.type == "exchange")
        return self.corporation_by_id(ability.corporations[0])

    # ================================================================== rounds
    def draft_companies(self):
        companies = [c for c in self.companies if c.owner is None and not c.closed]
        return sorted(companies, key=lambda c: (c.revenue, c.value))

    def new_draft_round(self):
        self.log.append(f"-- Draft Round {self.turn} -- ")
        return DraftRound(self, [DraftStep], self.draft_round_num)

    def stock_round(self):
        return S.StockRound1847(self, [ExchangeStep, S.BuySellParShares1847])

    def operating_round(self, round_num):
        return S.OperatingRound1847(self, [
            BankruptStep, SpecialTrackStep, SpecialTokenStep, BuyCompanyStep, HomeTokenStep, S.Track1847,
            TokenStep, RouteStep, S.Dividend1847, DiscardTrainStep, S.BuyTrain1847,
            (BuyCompanyStep, {"blocks": True}),
        ], round_num)

    def next_round(self):
        round_ = self.round
        if round_.is_operating and self.lfk.floated() and not self.train_bought_this_round:
            self.log.append("No train purchased from supply this round")
            old = self.lfk.share_price
            self.market.move_left(self.lfk)
            self.log_share_price(self.lfk, old)
        if isinstance(round_, DraftRound):
            self.draft_finished = round_.all_drafted()
        if self.draft_finished:
            if self.turn == 0:
                self.turn = 1
            return super().next_round()
        # Turn 0: draft rounds and short operating rounds alternate until every company is drafted.
        self.programmed_actions.clear()
        if isinstance(round_, DraftRound):
            self.reorder_players()
            self.round = self.new_operating_round(self.draft_round_num)
        else:
            self.draft_round_num += 1
            self.round = self.new_draft_round()

    def or_round_finished(self):
        self.recently_floated = []

    def float_corporation(self, corporation):
        self.recently_floated.append(corporation)
        super().float_corporation(corporation)

    def operating_order(self):
        return [c for c in super().operating_order() if c is not self.lfk]

    # ================================================================== companies and shares
    def after_buy_company(self, player, company, price):
        for ability in list(self.abilities(company, "shares")):
            company.remove_ability(ability)
            for share_id in ability.shares or ():
                share = self.share_by_id(share_id)
                corporation = share.corporation
                if share.owner is not corporation.ipo_owner:
                    continue
                if corporation is self.lfk:
                    corporation.forced_share_percent = 100
                self.share_pool.buy_shares(player, share, exchange="free")
                if corporation is not self.lfk:
                    self.bank.spend(corporation.par_price.price * share.percent // 10, corporation)
        if company.id in CLOSE_WHEN_BOUGHT:
            company.close()

    def purchasable_companies(self, entity=None):
        if entity is None or not entity.is_player:
            return super().purchasable_companies(entity)
        allowed = self.facts["companies_purchasable_by_players"]
        return [c for c in self.companies if c.owner is not None and c.owner.is_player and c.owner is not entity
                and c.id in allowed]

    def exchange_problem(self, company, corporation):
        if "investor_exchange" not in self.phase.status:
            return f"{company.name} may be exchanged only in phases 3+3 to 5"
        if not corporation.floated():
            return f"{company.name} may be exchanged only once {corporation.name} has floated"
        return None

    def exchange_all_investor_companies(self):
        for company_id in self.facts["investor_companies"]:
            company = self.company_by_id(company_id)
            if company.closed or company.owner is None:
                continue
            corporation = self.investor_corporation(company)
            reserved = corporation.reserved_shares()
            if reserved:
                share = reserved[0]
                self.share_pool.buy_shares(company.owner, share.to_bundle(), exchange=company)
                share.buyable = True
            company.close()
        self.must_exchange_investor_companies = False

    def can_par(self, corporation, parrer):
        if corporation.id == HLB and not self.corporation_by_id(SAAR).floated():
            return False
        if corporation.id in self.facts["last_tranche_corporations"] and not self.corporation_by_id(HLB).floated():
            return False
        return not corporation.ipoed

    def after_par(self, corporation):
        self._remove_description(corporation, "May not be started until")
        super().after_par(corporation)

    @staticmethod
    def _remove_description(corporation, prefix):
        for ability in list(corporation.abilities):
            if (ability.description or "").startswith(prefix):
                corporation.remove_ability(ability)
                return

    def liquidity(self, player, emergency=False):
        value = super().liquidity(player, emergency)
        if self.lfk.owner is player:
            value += self.lfk.share_price.price
        return value

    def place_home_token(self, corporation):
        if corporation.tokens and corporation.tokens[0].used:
            return
        coordinates = corporation.coordinates
        if not isinstance(coordinates, list) or len(coordinates) < 2:
            return super().place_home_token(corporation)
        # HLB has two home stations: a token in each.
        for coordinate in coordinates:
            city = self.board.hex_by_id(coordinate).tile.cities[0]
            self.board.place_token(corporation, city, corporation.next_token(), free=True)
        corporation.coordinates = coordinates[0]
        self._remove_description(corporation, "Two home stations")

    def action_processed(self, action):
        super().action_processed(action)
        if action.type == "buy_shares":
            corporation = action.bundle.corporation
            if not any(s.buyable for s in corporation.shares_of(corporation)):
                self._remove_description(corporation, "IPO:")
                self.round.clear_cache()
        elif action.type == "sell_shares":
            if action.bundle.corporation is self.lfk:
                self.lfk.owner = self.share_pool
                self.round.clear_cache()   # (what the steps offer may change with it)
        elif action.type == "lay_tile" and action.hex.id == RAMMELSBACH_HEX:
            company = self.company_by_id(RAMMELSBACH)
            if company.revenue != RAMMELSBACH_REVENUE:
                company.revenue = RAMMELSBACH_REVENUE
                self.round.clear_cache()
                self.log.append(f"Tile laid in {RAMMELSBACH_HEX} - {company.name}'s revenue increased to "
                                f"{self.fmt(RAMMELSBACH_REVENUE)}")

    # ================================================================== events
    def event_must_exchange_investor_companies(self):
        self.log.append("-- At the beginning of the next Stock Round players must exchange their remaining "
                        "Investor companies for the associated Investor shares --")
        self.must_exchange_investor_companies = True

    def event_only_one_yellow(self):
        self.log.append("-- From now on, corporations may only lay one yellow track except for their very first "
                        "operation")
        self.extra_tile_lay = False

    def event_yellow_tracks_not_restricted(self):
        for hex_ in self.board.hexes:
            hex_.tile.icons = [i for i in hex_.tile.icons if i["name"] not in YELLOW_COLOR_ICONS]
        self.log.append("-- From now on, corporations may lay yellow tracks in any hexes they can reach, not only "
                        "in hexes of a given color --")
        self.yellow_tracks_restricted = False

    # ================================================================== map
    def tile_lays(self, entity):
        if entity in self.recently_floated:
            return self.facts["first_operation_lays"]
        return self.facts["two_yellow_lays"] if self.extra_tile_lay else self.facts["yellow_or_upgrade_lays"]

    def can_build_in_rammelsbach(self) -> bool:
        return "brown" in self.phase.tiles

    def upgrades_to(self, from_tile, to_tile, special=False, selected_company=None):
        lying = from_tile.hex.tile if from_tile.hex is not None else from_tile
        if lying.name in DOUBLE_TOWN_UPGRADES:
            return to_tile.name == DOUBLE_TOWN_UPGRADES[lying.name]
        if lying.name in self.facts["double_slot_green_cities"]:
            return False
        return super().upgrades_to(from_tile, to_tile, special, selected_company)

    def build_problem(self, entity, hex_):
        """Why ``entity`` may not lay track on ``hex_`` (title rules), or None."""
        if hex_.id == RAMMELSBACH_HEX and not self.can_build_in_rammelsbach():
            return f"{hex_.id} may not be built before phase 5"
        color = getattr(entity, "hex_color", None)
        if self.yellow_tracks_restricted and not any(i["name"] == color for i in hex_.tile.icons):
            return f"{entity.name} may only build in {color} hexes until the first 4-train"
        return None

    def route_bonuses(self, corporation):
        facts = self.facts
        return [RouteBonus(facts["coal_hexes"], COAL_BONUS, name="coal", partner_hexes=facts["z_hexes"],
                           excluded_trains=("6E",)),
                RouteBonus(facts["a_hexes"], LOCAL_BONUS, name="local", partner_hexes=facts["b_hexes"])]
