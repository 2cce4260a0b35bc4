"""1822: The Railways of Great Britain.

What differs from the common rules: every company enters play through bid boxes in the stock round
(minors, concessions of the majors, private companies, dealt from a deck shuffled at set-up); minors
are one-certificate corporations that float on their winning bid; concessions convert into majors;
majors absorb minors; privates are acquired by corporations and give special trains, track, tokens
and money; local L trains, E trains, Pullmans, destinations, mail contracts; a choices round for the
double-cash private; player loans for trains.
"""

from __future__ import annotations


from ...core.entities import Ability, Corporation, Player, Token
from ...core.market import StockMarket
from ...core.shares import ShareBundle
from ...errors import GameError
from ...game import Game
from . import routes as R
from . import steps as S

MINOR, CONCESSION, PRIVATE = "M", "C", "P"


class Market1822(StockMarket):
    """Moving up from a cell with no cell above goes one row down and one column right."""

    def _up(self, r, c):
        if r > 0 and self.cell(r - 1, c) is not None:
            return (r - 1, c)
        return (r + 1, c + 1)


class Corporation1822(Corporation):
    def __init__(self, **kw):
        self.destination_coordinates = kw.pop("destination_coordinates", None)
        self.destination_icon = kw.pop("destination_icon", None)
        super().__init__(**kw)
        self.par_via_exchange = None   # the concession that converts into this major

    @property
    def is_major(self) -> bool:
        return self.type == "major"

    @property
    def is_minor_company(self) -> bool:
        return self.type == "minor"


class G1822(Game):
    market_class = Market1822
    corporation_class = Corporation1822
    # A costed border (river, estuary) is paid as soon as a tile's track points across it, whether or
    # not the neighbour's track meets it there (Board._borders).
    border_paid_one_side = True

    # ================================================================== construction
    @property
    def plus(self) -> bool:
        return "plus_expansion" in self.optional_rules

    def init_companies(self) -> list:
        start = set(self.facts["starting_companies_plus" if self.plus else "starting_companies"])
        return [c for c in super().init_companies() if c.sym in start]

    def init_corporations(self) -> list:
        start = set(self.facts["starting_corporations_plus" if self.plus else "starting_corporations"])
        return [c for c in super().init_corporations() if c.id in start]

    def init_round(self):
        return self.stock_round()

    def setup(self):
        facts = self.facts
        self.nothing_sold_in_sr = True
        self.bidding_token_per_player = facts["bidding_tokens"].get(str(len(self.players)))
        # holders of the phase-revenue privates' credits and of the tax haven's share and cash
        self.phase_revenue = {cid: Player(-1, cid) for cid in facts["phase_revenue_companies"]}
        self.tax_haven = Player(-1, "P16")
        self.double_cash_choice = None
        self.minor_14_city_exit = None
        self.setup_companies()
        self.bidbox_minors_cache = []
        for corp_id, count in facts["exchange_tokens"].items():
            corporation = self.corporation_by_id(corp_id)
            if corporation is not None:
                corporation.add_ability(Ability("exchange_token", description=f"Exchange tokens: {count}",
                                                count=count))
        self.setup_destinations()
        self.setup_blockers()
        for company in self.companies:
            for ability in company.abilities:
                if ability.type == "exchange" and "par" in (ability.attrs.get("from") or []):
                    for cid in ability.attrs.get("corporations") or []:
                        self.corporation_by_id(cid).par_via_exchange = company

    def setup_companies(self) -> None:
        facts = self.facts
        shuffled = self.rng.shuffle(self.companies)
        decks = {k: [c for c in shuffled if c.id[0] == k] for k in (MINOR, CONCESSION, PRIVATE)}
        for prefix, first in ((MINOR, facts["bidbox_start_minor"]), (CONCESSION, facts["bidbox_start_concession"]),
                              (PRIVATE, facts["bidbox_start_private"])):
            deck = decks[prefix]
            card = next(c for c in deck if c.id == first)
            deck.remove(card)
            deck.insert(0, card)
        if self.plus and "plus_expansion_no_removals" not in self.optional_rules:
            privates = decks[PRIVATE]
            boxes = [[c for c in privates if c.id in facts[f"plus_bidbox_{n}"]] for n in (1, 2, 3)]
            privates = boxes[0] + boxes[1] + boxes[2]
            removed = [next(c for c in boxes[1] if c.id != "P5")] + boxes[2][:2]
            for company in removed:
                privates.remove(company)
                self.log.append(f"{company.name} has been removed from the game")
            decks[PRIVATE] = privates
        self.companies[:] = decks[MINOR] + decks[CONCESSION] + decks[PRIVATE]
        for c in self.companies:
            c.min_price = c.value if c.id[0] in (MINOR, CONCESSION) else 0
            c.max_price = 10_000
        self.company_trains = {}
        for company_id, train_id, buyable in (("P3", "2P-0", False), ("P4", "2P-1", False), ("P1", "5P-0", True),
                                              ("P13", "P+-0", False), ("P14", "P+-1", False),
                                              ("P19", "LP-0", False)):
            train = self.train_by_id(train_id)
            self.depot.remove_train(train)
            train.buyable_ = buyable
            self.company_trains[company_id] = train

    def setup_blockers(self) -> None:
        """The holders of consent rights on a hex are its tile's blockers (objects, in data order); a
        right that goes away leaves the blockers of the tile then on the hex."""
        for hex_ in self.board.hexes:
            tile = hex_.tile
            if tile.blockers:
                tile.blockers = [self._blocker(b) for b in tile.blockers]
            if tile.hidden_blockers:
                tile.hidden_blockers = [self._blocker(b) for b in tile.hidden_blockers]
        for entity in self.companies + self.corporations:
            for ability in entity.abilities:
                if ability.type in ("blocks_hexes", "blocks_hexes_consent"):
                    ability.teardown = self.drop_blocker

    def drop_blocker(self, ability) -> None:
        owner = ability.owner
        for hex_id in ability.hexes or ():
            hex_ = self.board.hex_by_id(hex_id)
            if hex_ is None:
                continue
            tile = hex_.tile
            # (in place: a loop over the hex's blockers sees the list shift; see operating.py)
            if tile.blockers:
                tile.blockers[:] = [b for b in tile.blockers if b is not owner]
            if tile.hidden_blockers:
                tile.hidden_blockers[:] = [b for b in tile.hidden_blockers if b is not owner]

    def setup_destinations(self) -> None:
        self.destination_hexes = {}
        for corp in self.corporations:
            if not corp.destination_coordinates:
                continue
            self.destination_hexes[corp.destination_coordinates] = corp
            home = self.board.hex_by_id(corp.coordinates)
            corp.add_ability(Ability("base", description=f"Home: {home.location_name} ({home.id})"))
            dest = self.board.hex_by_id(corp.destination_coordinates)
            corp.add_ability(Ability("base", description=f"Destination: {dest.location_name} ({dest.id})"))
            corp.tokens.append(Token(corp, price=0, type="destination"))
            self.board.add_icon(dest.id, f"{corp.id}_destination")
            if corp.id == self.facts["two_home_corporation"]:
                corp.add_ability(Ability("destination", description="Places destination token in its first OR"))

    # ================================================================== lookups and helpers
    def extra_holders(self) -> list:
        return [self.tax_haven] + [h for h in self.phase_revenue.values() if h is not None]

    def company_in_play(self, cid):
        """The company if it is still in the game's list (removed ones are only found by id)."""
        return next((c for c in self.companies if c.id == cid), None)

    def find_corporation(self, company):
        return self.corporation_by_id(company.id[1:])

    def is_major(self, entity) -> bool:
        return entity is not None and entity.is_corporation and entity.type == "major"

    def is_minor(self, entity) -> bool:
        return entity is not None and entity.is_corporation and entity.type == "minor"

    def phase_number(self) -> int:
        return int(self.phase.name)

    def bank_companies(self, prefix) -> list:
        return [c for c in self.companies if c.id[0] == prefix and (c.owner is None or c.owner is self.bank)
                and not c.closed]

    def bidbox_minors(self) -> list:
        cache = self.bidbox_minors_cache
        return [c for c in self.bank_companies(MINOR)[:self.facts["bidbox_minor_count"]] if c.id in cache]

    def bidbox_concessions(self) -> list:
        return self.bank_companies(CONCESSION)[:self.facts["bidbox_concession_count"]]

    def bidbox_privates(self) -> list:
        privates = self.bank_companies(PRIVATE)
        if self.plus and "plus_expansion_single_stack" not in self.optional_rules:
            out = []
            for n in (1, 2, 3):
                box = self.facts[f"plus_bidbox_{n}"]
                found = next((c for c in privates if c.id in box), None)
                if found is not None:
                    out.append(found)
            return out
        return privates[:self.facts["bidbox_private_count"]]

    def bidbox_items(self) -> list:
        return self.bidbox_minors() + self.bidbox_concessions() + self.bidbox_privates()

    def bidbox_minors_refill(self) -> None:
        self.bidbox_minors_cache = [c.id for c in self.bank_companies(MINOR)[:self.facts["bidbox_minor_count"]]]

    def setup_bidboxes(self) -> None:
        self.bidbox_minors_refill()
        for company in self.bidbox_items():
            company.owner = self.bank
        self.double_cash_choice = None

    # ================================================================== rounds
    def stock_round(self):
        return S.StockRound1822(self, [S.DiscardTrain1822, S.BuySellParShares1822])

    def choices_entities(self) -> list:
        company = self.company_by_id("P9")
        if company is None or company.owner is None or not company.owner.is_player:
            return []
        return [company.owner]

    def operating_round(self, round_num):
        return S.OperatingRound1822(self, [
            S.DiscardTrain1822, S.PendingToken1822, S.FirstTurnHousekeeping, S.AcquireCompany1822,
            S.SpecialChoose, S.SpecialTrack1822, S.SpecialToken1822, S.Track1822, S.DestinationToken,
            S.Token1822, S.Route1822, S.Dividend1822, S.BuyTrain1822, S.MinorAcquisition,
            S.PendingToken1822, S.IssueShares1822,
        ], round_num)

    def next_round(self) -> None:
        r = self.round
        if isinstance(r, S.ChoicesRound1822):
            self.operating_rounds = self.phase.operating_rounds
            self.reorder_players()
            self.round = self.new_operating_round()
        elif r.is_stock:
            self.round = S.ChoicesRound1822(self, [S.Choose1822], r.round_num)
        else:
            super().next_round()

    def operating_order(self) -> list:
        from ...core.entities import sort_corporations
        floated = sort_corporations([c for c in self.corporations if c.floated()])
        return [c for c in floated if c.type == "minor"] + [c for c in floated if c.type != "minor"]

    def reorder_players(self, order=None, silent=False) -> None:
        current = list(reversed(self.players))

        def key(p):
            cash = p.cash * 2 if self.double_cash_choice is p else p.cash
            return (cash, current.index(p))

        self.players.sort(key=key, reverse=True)
        order_text = ", ".join(f"{p.name} ({self.fmt(p.cash)}{' doubled' if self.double_cash_choice is p else ''})"
                               for p in self.players)
        self.log.append(f"-- New player order: {order_text}")
        self.double_cash_choice = None

    def game_end_timing(self, reason, timing) -> str:
        if reason == "bank":
            return "full_or" if self.round.is_operating else "current_or"
        return timing

    # ================================================================== certificates and values
    def num_certs(self, entity) -> float:
        certs = super().num_certs(entity)
        if any(c.id == "P16" for c in entity.companies):
            certs -= 1
        return certs

    def tax_haven_value(self, player) -> int:
        company = self.company_by_id("P16")
        if company is None or company.owner is not player:
            return 0
        return max(self.tax_haven.value(), 0)

    def player_value(self, player) -> int:
        return player.value() + self.tax_haven_value(player)

    def sold_out(self, corporation) -> bool:
        return corporation.type == "major" and super().sold_out(corporation)

    def can_par(self, corporation, parrer) -> bool:
        status = self.phase.status
        if corporation.type == "minor" or not ("can_convert_concessions" in status or "can_par" in status):
            return False
        return super().can_par(corporation, parrer)

    def bundles_for_corporation(self, holder, corporation, shares=None) -> list:
        return super().bundles_for_corporation(holder, corporation, shares)

    # ================================================================== floating minors and majors
    def minor_float_share_price(self, price):
        max_par = max(p.price for p in self.market.par_prices)
        wanted = self.facts["minor_start_par_price"] if self.phase_number() == 1 else price // 2
        wanted = min(wanted, max_par)
        return next(p for p in self.market.par_prices if p.price <= wanted)

    def minor_float_starting_cash(self, bid_amount, presidency_price) -> int:
        return presidency_price if self.phase_number() < 3 else bid_amount

    def float_corporation(self, corporation) -> None:
        if "full_capitalisation" in self.phase.status and corporation.type == "major":
            if corporation.cash > 0:
                corporation.spend(corporation.cash, self.bank)
            bundle = ShareBundle(list(corporation.shares_of(corporation)))
            self.share_pool.transfer_shares(bundle, self.share_pool)
            self.log.append(f"{corporation.name}'s remaining shares are transferred to the Market")
        super().float_corporation(corporation)
        if corporation.type == "major":
            corporation.capitalization = "incremental"

    def place_home_token(self, corporation) -> None:
        if corporation.tokens and corporation.tokens[0].used:
            return
        super().place_home_token(corporation)
        if corporation.id != self.facts["two_home_corporation"]:
            return
        token = corporation.find_token_by_type("destination")
        if token is not None:
            self.place_destination_token(corporation, self.board.hex_by_id(corporation.destination_coordinates),
                                         token)

    def place_destination_token(self, entity, hex_, token, city=None, log=True) -> None:
        city = city or hex_.tile.cities[0]
        self.board.place_token(entity, city, token, free=True, check_tokenable=False, cheater=True)
        self.board.remove_icon(hex_.id, f"{entity.id}_destination")
        for ability in list(entity.abilities):
            if ability.type == "destination":
                entity.remove_ability(ability)
        self.clear_graph()
        if log:
            self.log.append(f"{entity.name} places its destination token on {hex_.id}")

    # ================================================================== company payouts
    def payout_companies(self) -> None:
        self.set_private_revenues()
        super().payout_companies()

    def set_private_revenues(self) -> None:
        for c in self.companies:
            if c.owner is None:
                continue
            if c.id in self.facts["phase_revenue_companies"]:
                multiplier = 10 if c.id == "P15" else 5
                revenue = self.phase_number() * multiplier
                c.revenue = revenue
                holder = self.phase_revenue.get(c.id)
                if holder is not None:
                    self.bank.spend(revenue, holder)
                self.log.append(f"{c.name} collects {self.fmt(revenue)}")
            if c.id == "P9" and c.owner.is_corporation:
                c.revenue = self.facts["double_cash_revenue"][self.phase_number()]

    # ================================================================== events
    def event_close_concessions(self) -> None:
        self.log.append("-- Event: Concessions close --")
        for company in [c for c in self.companies if c.id[0] == CONCESSION and not c.closed]:
            company.close()
        for corp in self.corporations:
            if not corp.floated() and corp.type == "major":
                corp.par_via_exchange = None
                corp.float_percent = 50

    def event_full_capitalisation(self) -> None:
        self.log.append("-- Event: Major companies receive full capitalisation when floated --")
        for corp in self.corporations:
            if not corp.floated() and corp.type == "major":
                corp.capitalization = "full"

    def event_phase_revenue(self) -> None:
        self.log.append("-- Event: Phase revenue companies close with money returned to the bank --")
        for company_id in self.facts["phase_revenue_companies"]:
            company = self.company_in_play(company_id)
            holder = self.phase_revenue.get(company_id)
            if company is None or company.closed or holder is None:
                continue
            self.log.append(f"{company.name} closes")
            if holder.cash > 0:
                holder.spend(holder.cash, self.bank)
            self.phase_revenue[company_id] = None
            company.close()

    # ================================================================== privates
    def acquire_private_company(self, entity, company) -> bool:
        rule = self.facts["private_acquisition"].get(company.id)
        if rule is None:
            return False
        return self.phase_number() >= rule["phase"] and entity.type in rule["acquire"]

    def purchasable_companies(self, entity=None) -> list:
        if entity is None:
            return []
        return [c for c in self.companies if c.owner is not None and c.owner.is_player and c.owner is not entity
                and not c.closed and self.acquire_private_company(entity, c) and not self.abilities(c, "no_buy")]

    def company_bought(self, company, entity) -> None:
        facts = self.facts
        if company.id in facts["train_companies"]:
            self.on_acquired_train(company, entity)
        if company.id in facts["remove_revenue_on_acquire"]:
            company.revenue = 0
        if company.id in facts["phase_revenue_companies"]:
            self.on_acquired_phase_revenue(company)
        if company.id == "P9":
            company.revenue = facts["double_cash_revenue"][self.phase_number()]

    def on_acquired_train(self, company, entity) -> None:
        train = self.company_trains[company.id]
        self.buy_train(entity, train, "free")
        self.log.append(f"{entity.name} gains a {train.name} train")
        company.close()
        self.log.append(f"{company.name} closes")

    def on_acquired_phase_revenue(self, company) -> None:
        holder = self.phase_revenue[company.id]
        self.log.append(f"{company.owner.name} gains {self.fmt(holder.cash)}")
        if holder.cash > 0:
            holder.spend(holder.cash, company.owner)
        self.phase_revenue[company.id] = None
        self.log.append(f"{company.name} closes")
        company.close()

    # ================================================================== exchange tokens
    def exchange_tokens(self, entity) -> int:
        if entity is None or not entity.is_corporation:
            return 0
        ability = next((a for a in entity.all_abilities if a.type == "exchange_token"), None)
        return ability.count if ability is not None else 0

    def add_exchange_token(self, entity) -> None:
        ability = next((a for a in entity.all_abilities if a.type == "exchange_token"), None)
        count = ability.count + 1 if ability is not None else 1
        if ability is not None:
            entity.remove_ability(ability)
        entity.add_ability(Ability("exchange_token", description=f"Exchange tokens: {count}", count=count))

    def remove_exchange_token(self, entity) -> None:
        ability = next(a for a in entity.all_abilities if a.type == "exchange_token")
        ability.use()
        ability.description = f"Exchange tokens: {ability.count}"

    def move_exchange_token(self, entity) -> None:
        self.remove_exchange_token(entity)
        entity.tokens.append(Token(entity, price=self.facts["token_price"]))

    # ================================================================== trains
    def extra_train(self, train) -> bool:
        return train.name in self.facts["extra_trains"]

    def extra_train_permanent(self, train) -> bool:
        return train.name in self.facts["extra_train_permanents"]

    def pullman_train(self, train) -> bool:
        return train.name == self.facts["pullman_train"]

    def extra_train_permanent_count(self, corporation) -> int:
        return sum(1 for t in corporation.trains if self.extra_train_permanent(t))

    def pullman_train_count(self, corporation) -> int:
        return sum(1 for t in corporation.trains if self.pullman_train(t))

    def crowded_corps(self) -> list:
        if self.crowded is None:
            self.crowded = [c for c in self.corporations if c.trains and self.crowded_corp(c)]
        return self.crowded

    def crowded_corp(self, corp) -> bool:
        trains = sum(1 for t in corp.trains if not self.extra_train(t))
        return trains > self.train_limit(corp) or self.extra_train_permanent_count(corp) > 1 or \
            self.pullman_train_count(corp) > 1

    def must_buy_train(self, entity) -> bool:
        return not any(not self.extra_train(t) for t in entity.trains) and bool(self.depot.depot_trains())

    def discountable_trains_for(self, corporation) -> list:
        out = super().discountable_trains_for(corporation)
        for train in corporation.trains:
            if train.name == "L":
                out.append((train, train, "2", self.facts["upgrade_cost_l_to_2"]))
        return out

    def remove_discarded_train(self, train) -> bool:
        return self.extra_train_permanent(train) or self.pullman_train(train)

    def route_trains(self, entity) -> list:
        return [t for t in entity.runnable_trains() if not self.pullman_train(t)]

    def can_run_route(self, entity) -> bool:
        return any(t.name in self.facts["local_trains"] for t in entity.trains) or super().can_run_route(entity)

    # ================================================================== stock market helpers
    def reduced_bundle_price_for_market_drop(self, bundle):
        corp = bundle.corporation
        r, c = corp.share_price.coordinates
        for _ in range(bundle.num_shares()):
            r2, c2 = self.market._down(r, c)
            if self.market.cell(r2, c2) is not None:
                r, c = r2, c2
        bundle.share_price = self.market.cell(r, c).price
        return bundle

    def issuable_shares(self, entity) -> list:
        if not self.is_major(entity) or entity.num_ipo_shares() == 0 or len(entity.operating_history) < 2:
            return []
        return [self.reduced_bundle_price_for_market_drop(b) for b in self.bundles_for_corporation(entity, entity)
                if self.share_pool.fit_in_bank(b)]

    def redeemable_shares(self, entity) -> list:
        if not self.is_major(entity):
            return []
        return [b for b in self.bundles_for_corporation(self.share_pool, entity) if entity.cash >= b.price]

    # ================================================================== tax haven
    def tax_haven_can_own_multiple(self) -> bool:
        return bool(self.facts.get("tax_haven_multiple")) or "tax_haven_multiple" in self.optional_rules

    def tax_haven_spender(self, company):
        if not self.tax_haven_can_own_multiple() or self.tax_haven.value() == 0:
            return company.owner
        return self.tax_haven

    def tax_haven_bundle(self, choice):
        corp_id, _, source = choice.rpartition("_")
        corporation = self.corporation_by_id(corp_id)
        if corporation is None or source not in ("ipo", "market"):
            raise GameError(f"Unknown tax haven choice {choice!r}")
        shares = corporation.shares_of(corporation) if source == "ipo" else self.share_pool.shares_of(corporation)
        if not shares:
            raise GameError(f"No share of {corporation.name} in the {'Treasury' if source == 'ipo' else 'market'}")
        return ShareBundle([shares[0]])

    def tax_haven_payout(self, entity, per_share) -> None:
        if self.tax_haven.value() <= 0:
            return
        amount = self.tax_haven.num_shares_of(entity) * per_share
        if amount <= 0:
            return
        amount = int(amount)
        self.bank.spend(amount, self.tax_haven)
        self.log.append(f"{entity.name} pays out {self.fmt(amount)} to tax haven")

    # ================================================================== company choices
    def company_choices(self, company, time) -> dict:
        handler = getattr(self, f"company_choices_{company.id.lower()}", None)
        return handler(company, time) if handler is not None else {}

    def company_made_choice(self, company, choice, time) -> None:
        choices = self.company_choices(company, time)
        if choice not in choices:
            raise GameError(f"{choice!r} is not a choice of {company.name} now")
        getattr(self, f"company_made_choice_{company.id.lower()}")(company, choice, time)

    # P18: move a token between the exchange and available sections
    def company_choices_p18(self, company, time) -> dict:
        owner = company.owner
        if time not in ("token", "track") or owner is None or not owner.is_corporation:
            return {}
        choices = {}
        count = self.exchange_tokens(owner)
        if count > 0:
            choices["exchange"] = "Move an exchange token to the available section"
        if owner.find_token_by_type() is not None and count < self.facts["exchange_tokens"].get(owner.id, 0):
            choices["available"] = "Move an available token to the exchange section"
        return choices

    def company_made_choice_p18(self, company, choice, time) -> None:
        owner = company.owner
        if choice == "exchange":
            self.move_exchange_token(owner)
            self.log.append(f"{owner.name} moves an exchange token into to the available station token section")
        else:
            owner.find_token_by_type().destroy()
            self.add_exchange_token(owner)
            self.log.append(f"{owner.name} moves an available token into to the exchange station token section")
        self.log.append(f"{company.name} closes")
        company.close()

    # P8: a discount token or a continuous discount
    def company_choices_p8(self, company, time) -> dict:
        if len(company.all_abilities) != 3 or time != "special_choose":
            return {}
        return {"token": "Receive a discount token that can be used to pay the full cost of a single track tile "
                         "lay on a rough terrain, hill or mountain hex.",
                "discount": "Receive a £20 continuous discount off the cost of all hill and mountain terrain "
                            "(i.e. NOT off the cost of rough terrain)."}

    def company_made_choice_p8(self, company, choice, time) -> None:
        company.desc = self.company_choices(company, time)[choice]
        remove = "tile_discount" if choice == "token" else "tile_lay"
        for ability in list(company.all_abilities):
            if ability.type == remove:
                company.remove_ability(ability)

    # P5: move an exchange token to the available section
    def company_choices_p5(self, company, time) -> dict:
        if time != "token" or company.owner is None or not company.owner.is_corporation:
            return {}
        if self.exchange_tokens(company.owner) > 0:
            return {"exchange": "Move an exchange station token to the available station token section"}
        return {}

    def company_made_choice_p5(self, company, choice, time) -> None:
        self.move_exchange_token(company.owner)
        self.log.append(f"{company.owner.name} moves an exchange token into to the available station token section")
        self.log.append(f"{company.name} closes")
        company.close()

    # P17: move a card to the top or bottom of its stack
    def company_choices_p17(self, company, time) -> dict:
        if time not in ("token", "track", "issue") or company.owner is None or not company.owner.is_corporation:
            return {}
        choices = {}
        names = self.facts["short_names"]
        for prefix, excluded in ((MINOR, self.bidbox_minors()), (CONCESSION, self.bidbox_concessions()),
                                 (PRIVATE, self.bidbox_privates())):
            for c in self.bank_companies(prefix):
                if c in excluded:
                    continue
                choices[f"{c.id}_top"] = f"{names.get(c.id, c.id)}-Top"
                choices[f"{c.id}_bottom"] = f"{names.get(c.id, c.id)}-Bottom"
        return choices

    def company_made_choice_p17(self, company, choice, time) -> None:
        cid, _, where = choice.rpartition("_")
        selected = self.company_by_id(cid)
        top = where == "top"
        self.companies.remove(selected)
        if top:
            box = {MINOR: self.bidbox_minors, CONCESSION: self.bidbox_concessions}.get(selected.id[0],
                                                                                       self.bidbox_privates)()
            last = box[-1] if box else None
            index = self.companies.index(last) if last is not None else -1
            self.companies.insert(index + 1, selected)
        else:
            self.companies.append(selected)
        self.log.append(f"{company.owner.name} moves {selected.name} to the {'top' if top else 'bottom'}")
        self.log.append(f"{company.name} closes")
        company.close()

    # P9: double cash for the player order
    def company_choices_p9(self, company, time) -> dict:
        if self.double_cash_choice is not None or company.owner is None or not company.owner.is_player or \
                time != "choose":
            return {}
        return {"double": "Double your actual cash holding when determining player turn order."}

    def company_made_choice_p9(self, company, choice, time) -> None:
        self.double_cash_choice = company.owner
        self.log.append(f"{company.owner.name} chooses to double actual cash holding when determining player turn "
                        "order.")

    # P16: the tax haven buys a share
    def company_choices_p16(self, company, time) -> dict:
        if self.tax_haven.value() > 0 and not self.tax_haven_can_own_multiple():
            return {}
        if company.owner is None or not company.owner.is_player or time != "stock_round" or \
                getattr(self.round, "tax_haven_bought", True):
            return {}
        choices = {}
        spender = self.tax_haven_spender(company)
        for corporation in self.corporations:
            if corporation.type != "major":
                continue
            price = corporation.share_price.price if corporation.share_price is not None else 0
            if price <= 0 or self.tax_haven.num_shares_of(corporation) > 0 or price > spender.cash:
                continue
            if corporation.num_ipo_shares() > 0:
                choices[f"{corporation.id}_ipo"] = f"{corporation.id} IPO ({self.fmt(price)})"
            if self.share_pool.num_shares_of(corporation) > 0:
                choices[f"{corporation.id}_market"] = f"{corporation.id} Market ({self.fmt(price)})"
        return choices

    def company_made_choice_p16(self, company, choice, time) -> None:
        spender = self.tax_haven_spender(company)
        bundle = self.tax_haven_bundle(choice)
        corporation = bundle.corporation
        floated = corporation.floated()
        receiver = self.bank if bundle.owner is self.share_pool else corporation
        self.share_pool.transfer_shares(bundle, self.tax_haven, spender=spender, receiver=receiver,
                                        price=bundle.price, allow_president_change=False)
        if spender is self.tax_haven:
            source = "Treasury" if choice.endswith("_ipo") else "market"
            self.log.append(f"Tax Haven ({company.owner.name}) buys a 10% share of {corporation.name} from the "
                            f"{source} for {self.fmt(bundle.price)}")
        else:
            self.log.append(f"{spender.name} spends {self.fmt(bundle.price)} and Tax Haven gains a share of "
                            f"{corporation.name}.")
        if corporation.floatable and floated != corporation.floated():
            self.float_corporation(corporation)

    # ================================================================== map
    def tile_lays(self, entity) -> list:
        if entity.id == "P21":
            return self.facts["hsbc_tile_lays"]
        operator = entity.owner if entity.is_company else entity
        if self.phase_number() >= 3 and operator is not None and operator.is_corporation and operator.type == "major":
            return self.facts["major_tile_lays"]
        return super().tile_lays(entity)

    def upgrades_to(self, from_tile, to_tile, special=False, selected_company=None) -> bool:
        facts = self.facts
        if from_tile.hex is not None and from_tile.hex.id == facts["s_hex"] and from_tile.color == "white":
            return to_tile.name == facts["s_yellow_tile"]
        if from_tile.name in facts["track_town"] and to_tile.name in facts["track_plain"]:
            order = self.board.color_order
            return to_tile.color in order and from_tile.color in order and \
                order.index(to_tile.color) == order.index(from_tile.color) + 1
        return super().upgrades_to(from_tile, to_tile, special, selected_company)

    def upgrade_cost(self, old_tile, hex_, entity, spender=None) -> int:
        operator = entity.owner if entity.is_company else entity
        abilities = [a for a in operator.all_abilities
                     if a.type == "tile_discount" and (a.hexes is None or hex_.id in a.hexes)]
        total = 0
        for upgrade in old_tile.tdef.terrain:
            cost = upgrade["cost"]
            terrains = list(dict.fromkeys(upgrade.get("terrains") or []))
            for ability in abilities:
                discount = ability.discount if terrains == ([ability.terrain] if ability.terrain else [None]) else 0
                if discount and spender is not None:
                    self.log.append(f"{operator.name} receives a discount of {self.fmt(discount)} from "
                                    f"{ability.owner.name}")
                cost -= discount
            total += cost
        return total

    def after_lay_tile(self, hex_, old_tile, tile) -> None:
        symbols = self.facts["plain_symbol_upgrades"]
        if old_tile.label:
            if tile.color in symbols and old_tile.label in symbols[tile.color] and not tile.label:
                tile.label = old_tile.label
            if old_tile.color in symbols and old_tile.label in symbols[old_tile.color]:
                old_tile.label = None
        if hex_.id == self.facts["minor_14_home_hex"]:
            self.upgrade_minor_14_home_hex(hex_)

    def upgrade_minor_14_home_hex(self, hex_) -> None:
        if self.minor_14_city_exit is None:
            return
        path = next((p for p in hex_.tile.paths if p.edges and p.edges[0] == self.minor_14_city_exit), None)
        if path is None or not path.nodes:
            return
        city = path.nodes[0]
        if len(city.tokens) <= city.slots:
            while len(city.tokens) <= city.slots:
                city.tokens.append(None)

    def min_city_slots(self, city) -> int:
        if city.hex.id != self.facts["minor_14_home_hex"]:
            return city.slots
        path = next((p for p in city.hex.tile.paths if city in p.nodes), None)
        if path is not None and path.edges and path.edges[0] == self.minor_14_city_exit:
            return city.slots + 1
        return city.slots

    def after_place_pending_token(self, city) -> None:
        if city.hex.id != self.facts["minor_14_home_hex"]:
            return
        path = next(p for p in city.hex.tile.paths if city in p.nodes)
        self.minor_14_city_exit = path.edges[0]

    def remove_extra_tokens(self, tile) -> None:
        """A corporation with several tokens in one city keeps one (its destination token if it has one)."""
        for city in tile.cities:
            counted = {}
            for token in city.tokens:
                if token is None:
                    continue
                entry = counted.setdefault(token.corporation, [[], 0])
                if token.type != "destination":
                    entry[0].append(token)
                entry[1] += 1
            removed = False
            for corp, (tokens, count) in counted.items():
                tokens.sort(key=lambda t: corp.tokens.index(t))
                for _ in range(count - 1):
                    self.log.append(f"Extra token for {corp.name} is returned to their available tokens")
                    token = tokens.pop()
                    token.remove()
                    token.price = self.facts["token_price"]
                    removed = True
            if removed:
                self.remove_cheater_slot(city)
        self.clear_graph()

    @staticmethod
    def remove_cheater_slot(city) -> None:
        if len(city.tokens) <= city.slots:
            return
        reservations = city.reservations + [None] * (len(city.tokens) - len(city.reservations))
        empty = next((i for i, (t, r) in enumerate(zip(city.tokens, reservations)) if t is None and r is None), None)
        if empty is None:
            return
        city.tokens[empty] = city.tokens.pop()

    def hex_blocked_by_ability(self, entity, ability, hex_) -> bool:
        if hex_.tile.color != "white":
            return False
        if ability.player is None or entity.player is ability.player:
            return False
        if hex_.id not in (ability.hexes or []):
            return False
        return not any(getattr(b, "player", None) is entity.player for b in self.blockers(hex_))

    def blockers(self, hex_) -> list:
        return hex_.tile.blockers

    def _blocker(self, ident):
        if not isinstance(ident, str):
            return ident
        return self.company_by_id(ident) or self.corporation_by_id(ident) or ident

    def acting_for_entity(self, entity):
        return entity.owner if entity is not None else None

    # ================================================================== routes (see routes.py)
    check_distance = R.check_distance
    check_overlap = R.check_overlap
    check_other = R.check_other
    revenue_for = R.revenue_for
    route_other_paths = R.route_other_paths

    def best_routes(self, corporation) -> list:
        from .search import best_routes
        return [r.to_json() for r in best_routes(self, corporation)]

    def train_type(self, train) -> str:
        return "etrain" if train.name == self.facts["e_train"] else "normal"

    def routes_subsidy(self, routes) -> int:
        if not routes:
            return 0
        return sum(v["subsidy"] for v in R.mail_contract_bonus(self, routes[0].train.owner, routes))

    def destination_bonus(self, routes):
        return R.destination_bonus(self, routes)
