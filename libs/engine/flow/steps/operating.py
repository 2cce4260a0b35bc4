"""Operating-round steps other than track and trains: tokens, routes, dividends, buying companies,
assigning company markers, special purchases and bankruptcy."""

from __future__ import annotations

import math

from ...actions import Action
from ...core.entities import Token
from ...errors import GameError
from ..step import Step, for_life


# ====================================================================== tokens
def token_ability_price(ability, token):
    """What a token costs through a ``token`` ability: its ``price``, or with a ``discount`` (a
    fraction) the token's own price less that fraction."""
    if ability.discount and token is not None:
        return int(token.price - token.price * ability.discount)
    return ability.price


class TokenerMixin:
    def round_state(self):
        state = super().round_state()
        state["tokened"] = False
        return state

    def setup(self):
        super().setup()
        self.round.tokened = False

    def available_tokens(self, entity) -> list:
        holder = entity.owner if entity.is_company else entity
        return holder.tokens_by_type()

    def min_token_price(self, tokens) -> int:
        token = tokens[0]
        prices = [t.price for t in tokens]
        for ability in self.game.abilities(token.corporation, "token"):
            prices.append(token_ability_price(ability, token))
            prices.append(ability.teleport_price)
        return min(p for p in prices if p is not None)

    def can_place_token(self, entity) -> bool:
        if entity is not self.current_entity() or self.round.tokened:
            return False
        tokens = self.available_tokens(entity)
        return bool(tokens) and self.min_token_price(tokens) <= self.buying_power(entity) and \
            self.game.board.can_token(entity)

    def check_connected(self, entity, city):
        if self.game.loading or city in self.game.board.connected_nodes(entity):
            return
        which = f" city {city.index}" if len(city.tile.cities) > 1 else ""
        raise GameError(f"Cannot place token on {city.hex.id}{which} because it is not connected")

    def adjust_token_price_ability(self, entity, token, city, special_ability=None):
        hex_ = city.hex
        if special_ability is not None and special_ability.type == "teleport":
            if not special_ability.from_owner:
                token = Token(entity)
                entity.tokens.append(token)
            token.price = 0
            return token, special_ability
        for ability in self.game.abilities(entity, "token"):
            if ability.special_only and ability is not special_ability:
                continue
            if ability.hexes and hex_.id not in ability.hexes:
                continue
            if ability.city is not None and ability.city != city.index:
                continue
            if ability.owner.is_company and not ability.from_owner:
                token = Token(entity)
                entity.tokens.append(token)
            if ability.teleport_price is not None:
                token.price = ability.teleport_price
            if hex_ in self.game.board.reachable_hexes(entity):
                token.price = token_ability_price(ability, token)
            return token, ability
        return token, None

    def place_token(self, entity, city, token, *, connected=True, extra_action=False, special_ability=None,
                    check_tokenable=True, spender=None):
        hex_ = city.hex
        if special_ability is not None and special_ability.type in ("teleport", "token"):
            extra_action = extra_action or bool(special_ability.extra_action)
        if connected:
            self.check_connected(entity, city)
        if special_ability is not None and special_ability.type == "token" and special_ability.city is not None \
                and special_ability.city != city.index:
            raise GameError(f"{special_ability.owner.name} can only place token on {hex_.id} city "
                            f"{special_ability.city}, not on city {city.index}")
        if not extra_action and self.round.tokened:
            raise GameError("Token already placed this turn")
        token, ability = self.adjust_token_price_ability(entity, token, city, special_ability)
        tokener = entity.name
        if ability is not None:
            if ability.owner is not entity:
                tokener += f" ({ability.owner.sym})"
            entity.remove_ability(ability)
        if token.used:
            raise GameError("Token is already used")
        free = token.price <= 0
        self.game.board.place_token(entity, city, token, free=free, check_tokenable=check_tokenable)
        price_log = ""
        if not free:
            (spender or entity).spend(token.price, self.game.bank)
            price_log = f" for {self.game.fmt(token.price)}"
        where = f"{hex_.id} ({hex_.location_name}) " if hex_.location_name else f"{hex_.id} "
        self.log.append(f"{tokener} places a token on {where.rstrip()}{price_log}")
        if not extra_action:
            self.round.tokened = True


class TokenStep(TokenerMixin, Step):
    ACTIONS = ["place_token", "pass"]
    description = "Place a Token"
    pass_description = "Skip (Token)"
    ability_time = "token"

    def actions(self, entity):
        if entity is not self.current_entity() or not self.can_place_token(entity):
            return []
        return list(self.ACTIONS)

    def choices(self, entity) -> dict:
        tokens = self.available_tokens(entity)
        if not tokens or entity is not self.current_entity():
            return {"cities": []}
        if tokens[0].price > entity.cash:   # (a title may let the corporation borrow first)
            return {"cities": [], "token_price": tokens[0].price}
        cities = self.game.board.tokenable_cities(entity)
        return {"cities": [{"city": c.id, "slot": c.tokens.index(None) if None in c.tokens else 0,
                            "hex": c.hex.id, "price": tokens[0].price} for c in cities],
                "token_price": tokens[0].price}

    def process_place_token(self, action):
        entity, city = action.entity, action.city
        if not self.game.loading and city.hex not in self.game.board.reachable_hexes(entity):
            raise GameError(f"{entity.name} cannot place a token in {city.hex.id}: it is not reachable")
        tokens = self.available_tokens(entity)
        if not tokens:
            raise GameError(f"{entity.name} has no token left")
        self.place_token(entity, city, tokens[0])
        self.pass_()


class HomeTokenStep(TokenerMixin, Step):
    """A corporation must choose which city of its home hex gets its home token."""

    ACTIONS = ["place_token"]
    ability_time = "home_token"

    def round_state(self):
        state = super().round_state()
        state["pending_tokens"] = []
        return state

    def pending(self) -> dict:
        pending = getattr(self.round, "pending_tokens", None)
        return pending[0] if pending else {}

    def active(self):
        return bool(self.pending().get("entity"))

    def current_entity(self):
        return self.pending().get("entity")

    def active_entities(self):
        entity = self.pending().get("entity")
        return [entity] if entity is not None else []

    @property
    def description(self):
        token = self.pending().get("token")
        if token is not None and token.corporation.tokens and token.corporation.tokens[0] is token:
            return "Place Home Token"
        return "Place Token"

    def actions(self, entity):
        return list(self.ACTIONS) if entity is self.current_entity() else []

    def choices(self, entity) -> dict:
        pending = self.pending()
        cities = [c for h in pending.get("hexes", []) for c in h.tile.cities]
        return {"cities": [{"city": c.id, "slot": c.tokens.index(None), "hex": c.hex.id} for c in cities
                           if None in c.tokens]}

    def process_place_token(self, action):
        pending = self.pending()
        hex_ = action.city.hex
        if hex_ not in pending["hexes"]:
            raise GameError(f"Cannot place token on {hex_.id} as the hex is not available")
        token = pending["token"]
        self.place_token(token.corporation, action.city, token, connected=False, extra_action=True)
        self.round.pending_tokens.pop(0)


class SpecialTokenStep(TokenerMixin, Step):
    """Tokens placed through a private company's ability."""

    description = "Place teleport token"
    pass_description = "Pass (Token)"
    ability_time = "special_token"

    def round_state(self):
        state = {} if hasattr(self.round, "teleported") else {"teleported": None, "teleport_tokener": None}
        state.update(super().round_state())
        return state

    def choices(self, entity) -> dict:
        ability = self.ability(entity)
        if ability is None or entity.owner is None or not entity.owner.is_corporation:
            return {}
        if self.round.tokened and not ability.extra_action:
            return {"cities": []}   # the corporation has already placed its token this turn
        board, owner = self.game.board, entity.owner
        if ability.hexes:
            candidates = [c for hex_id in ability.hexes for c in board.hex_by_id(hex_id).tile.cities]
        elif ability.type == "token" and ability.connected:   # any city the owner's network reaches
            candidates = board.tokenable_cities(owner)
        else:
            candidates = board.cities()
        cities = []
        for city in candidates:
            if None in city.tokens and board.tokenable(city, owner, free=True) and self.available_hex(entity, city.hex):
                cities.append({"city": city.id, "slot": city.tokens.index(None), "hex": city.hex.id})
        return {"cities": cities}

    def ability(self, entity):
        if entity is None or not entity.is_company:
            return None
        found = self.game.abilities(entity, "token")
        if found:
            return found[0]
        for ability in self.game.abilities(entity, "teleport"):
            if ability.used:
                return ability
        return None

    def actions(self, entity):
        if self.ability(entity) is None or not self.available_tokens(entity):
            return []
        out = ["place_token"]
        if entity is self.round.teleported:
            out.append("pass")
        return out

    def can_token_after_teleport(self) -> bool:
        teleported = self.round.teleported
        return teleported is not None and bool(self.available_tokens(teleported))

    def blocks(self):
        return self.can_token_after_teleport()

    def blocking(self):
        return self.can_token_after_teleport()

    def active_entities(self):
        return [self.round.teleported] if self.round.teleported is not None else super().active_entities()

    def available_tokens(self, entity):
        ability = self.ability(entity)
        if ability is not None and ability.type in ("teleport", "token") and not ability.from_owner:
            return [Token(entity.owner)]
        owner = entity.owner if entity.is_company else entity
        return owner.tokens_by_type() if owner is not None and owner.is_operator else []

    def available_hex(self, entity, hex_) -> bool:
        ability = self.ability(entity)
        if ability.hexes and hex_.id not in ability.hexes:
            return False
        if ability.type == "token" and ability.connected:
            return hex_ in self.game.board.reachable_hexes(entity.owner)
        return True

    def process_place_token(self, action):
        entity, city = action.entity, action.city
        if not self.available_hex(entity, city.hex):
            which = f" city {city.index}" if len(city.tile.cities) > 1 else ""
            raise GameError(f"Cannot place token on {city.hex.id}{which}")
        ability = self.ability(entity)
        check_tokenable = ability.check_tokenable if ability.check_tokenable is not None else True
        connected = bool(ability.connected) if ability.type == "token" else False
        tokens = self.available_tokens(entity)
        self.place_token(entity.owner, city, tokens[0], connected=connected, special_ability=ability,
                         check_tokenable=check_tokenable)
        if ability.type == "token":
            ability.use()
            if ability.count == 0 and ability.closed_when_used_up:
                self.log.append(f"{ability.owner.name} closes")
                ability.owner.close()
        if self.round.teleported is not None:
            self.teleport_complete()

    def process_pass(self, action):
        self.log.append(f"{action.entity.owner.name} ({action.entity.id}) declines to place token")
        self.teleport_complete()

    def teleport_complete(self):
        ability = self.ability(self.round.teleported)
        if ability is not None:
            self.round.teleported.remove_ability(ability)
        self.round.teleported = None


# ====================================================================== routes and dividends
class RouteStep(Step):
    ACTIONS = ["run_routes"]
    description = "Run Routes"
    ability_time = "route"

    def round_state(self):
        return {"routes": []}

    def actions(self, entity):
        if entity is not self.current_entity() or not entity.is_operator:
            return []
        if not self.game.route_trains(entity) or not self.game.can_run_route(entity):
            return []
        return list(self.ACTIONS)

    def choices(self, entity) -> dict:
        """The trains to run (the best routes for them are a separate, costlier query: best_routes)."""
        if entity is not self.current_entity() or not entity.is_operator:
            return {"trains": []}
        return {"trains": [t.id for t in self.game.route_trains(entity)]}

    def process_run_routes(self, action):
        entity = action.entity
        routes = self.game.build_routes(entity, action.raw.get("routes"))
        seen = set()
        for route in routes:
            train = route.train
            if train.owner is not None and self.game.train_owner(train) is not entity:
                raise GameError("Cannot run another corporation's train")
            if train.id in seen:
                raise GameError("Cannot run a train twice")
            if train.operated:
                raise GameError("Cannot run a train that has already operated")
            seen.add(train.id)
        self.round.routes = routes
        hook = getattr(self.game, "extra_revenue", None)
        if hook is None or self.game.loading:
            self.round.extra_revenue = action.raw.get("extra_revenue") or 0
        else:
            # live play: the extra revenue is ours, whatever the client claimed
            self.round.extra_revenue = action.raw["extra_revenue"] = hook(entity, routes)
        for route in routes:
            self.log.append(f"{entity.name} runs a {route.train.name} train for "
                            f"{self.game.fmt(route.revenue)}: {route.revenue_str}")
        self.pass_()


class DividendStep(Step):
    ACTIONS = ["dividend"]
    description = "Pay or Withhold Dividends"
    ability_time = "dividend"
    DIVIDEND_TYPES = ("payout", "withhold")

    def round_state(self):
        return {"extra_revenue": 0}

    def actions(self, entity):
        if entity is not self.current_entity() or entity.is_company or self.total_revenue() == 0:
            return []
        return list(self.ACTIONS)

    def skip(self):
        # A corporation that earns nothing still records an operating turn (a withheld zero).
        entity = self.current_entity()
        action = Action({"type": "dividend", "entity": entity.id, "entity_type": "corporation",
                         "kind": "withhold"}, self.game)
        self.process_dividend(action)

    def routes(self) -> list:
        return self.round.routes

    def total_revenue(self) -> int:
        return self.game.routes_revenue(self.routes()) + (getattr(self.round, "extra_revenue", 0) or 0)

    def withhold(self, entity, revenue) -> dict:
        return {"corporation": revenue, "per_share": 0}

    def payout(self, entity, revenue) -> dict:
        return {"corporation": 0, "per_share": self.payout_per_share(entity, revenue)}

    def payout_per_share(self, entity, revenue):
        return revenue / entity.total_shares

    def holder_for_corporation(self, entity):
        return entity if entity.capitalization == "incremental" else self.game.share_pool

    def dividends_for_entity(self, entity, holder, per_share) -> int:
        return math.ceil(holder.num_shares_of(entity, ceil=False) * per_share)

    def corporation_dividends(self, entity, per_share) -> int:
        if entity.is_minor:
            return 0
        return self.dividends_for_entity(entity, self.holder_for_corporation(entity), per_share)

    def share_price_change(self, entity, revenue) -> dict:
        return {"share_direction": "right" if revenue > 0 else "left", "share_times": 1}

    def dividend_options(self, entity) -> dict:
        revenue = self.total_revenue()
        return {kind: self.dividend_option(entity, kind, revenue) for kind in self.DIVIDEND_TYPES}

    def dividend_option(self, entity, kind, revenue) -> dict:
        """What paying ``revenue`` out as ``kind`` gives (one of ``dividend_options``)."""
        payout = getattr(self, kind)(entity, revenue)
        payout["divs_to_corporation"] = self.corporation_dividends(entity, payout["per_share"])
        payout.update(self.share_price_change(entity, revenue - payout["corporation"]))
        return payout

    def choices(self, entity) -> dict:
        options = self.dividend_options(entity) if entity is self.current_entity() else {}
        return {"revenue": self.total_revenue(),
                "dividend_options": {k: {"to_corporation": v["corporation"], "per_share": v["per_share"]}
                                     for k, v in options.items()}}

    def chosen_dividend(self, entity, kind, revenue) -> dict:
        """The payout of the dividend ``kind`` a corporation chose (GameError when it is not one of
        its options): only that one worked out. A title whose options are not each worked out alone
        (``dividend_options`` overridden) overrides this too."""
        if not isinstance(kind, str) or kind not in self.DIVIDEND_TYPES:
            raise GameError(f"Dividend must be one of {', '.join(self.DIVIDEND_TYPES)}")
        return self.dividend_option(entity, kind, revenue)

    def process_dividend(self, action):
        entity = action.entity
        kind = action.raw.get("kind")
        revenue = self.total_revenue()
        payout = self.chosen_dividend(entity, kind, revenue)
        entity.operating_history[(self.game.turn, self.round.round_num)] = {
            "revenue": revenue, "kind": kind, "routes": [r.train.id for r in self.routes()],
            "laid_hexes": [h.id for h in getattr(self.round, "laid_hexes", [])]}
        if self.routes():
            self.game.close_companies_on_event(entity, "ran_train")
        for train in entity.trains:
            train.set_operated(True)
        self.rust_obsolete_trains(entity)
        self.round.routes = []
        self.round.extra_revenue = 0
        self.log_run_payout(entity, kind, revenue, payout)
        if payout["corporation"] > 0:
            self.game.bank.spend(payout["corporation"], entity)
        if payout["per_share"] > 0:
            self.payout_shares(entity, revenue - payout["corporation"])
        self.change_share_price(entity, payout)
        self.pass_()

    def log_run_payout(self, entity, kind, revenue, payout):
        if payout["corporation"] > 0:
            self.log.append(f"{entity.name} withholds {self.game.fmt(payout['corporation'])}")
        elif payout["per_share"] == 0:
            self.log.append(f"{entity.name} does not run")

    def payout_shares(self, entity, revenue):
        per_share = self.payout_per_share(entity, revenue)
        received = []
        # (a payee holding no certificate of the corporation gets nothing, unless a title pays its
        # dividends its own way)
        plain = type(self).dividends_for_entity is DividendStep.dividends_for_entity
        for payee in self.game.players + self.game.corporations:
            if payee is entity:
                amount = self.corporation_dividends(entity, per_share)
            elif plain and not payee.shares_by_corporation.get(entity):
                continue
            else:
                amount = self.dividends_for_entity(entity, payee, per_share)
            if amount == 0:
                continue
            received.append((payee, amount))
            self.game.bank.spend(amount, payee, check_positive=False)
        received.sort(key=lambda x: -x[1])
        detail = ", ".join(f"{self.game.fmt(a)} to {p.name}" for p, a in received)
        per = self.game.fmt(per_share if per_share != int(per_share) else int(per_share))
        self.log.append(f"{entity.name} pays out {self.game.fmt(revenue)} = {per} per share"
                        + (f" ({detail})" if detail else ""))

    def change_share_price(self, entity, payout):
        direction = payout.get("share_direction")
        if not direction or entity.share_price is None:
            return
        old = entity.share_price
        market = self.game.market
        rights = 0
        times = payout["share_times"] if isinstance(payout["share_times"], list) else [payout["share_times"]]
        dirs = direction if isinstance(direction, list) else [direction]
        for n, d in zip(times, dirs):
            for _ in range(n):
                if d == "left":
                    market.move_left(entity)
                elif d == "right":
                    market.move_right(entity)
                    rights += 1
                elif d == "up":
                    market.move_up(entity)
                elif d == "down":
                    market.move_down(entity)
        self.game.log_share_price(entity, old, rights)

    def rust_obsolete_trains(self, entity):
        obsolete = [t for t in entity.trains if t.obsolete]
        for train in obsolete:
            self.game.rust(train)
        if obsolete:
            self.log.append("-- Event: Obsolete trains rust --")

    def pass_(self):
        entity = self.current_entity()
        if entity is not None and len(entity.operating_history) == 1:
            self.game.close_companies_on_event(entity, "operated")
        super().pass_()


# ====================================================================== companies
class BuyCompanyStep(Step):
    ACTIONS = ["buy_company", "pass"]
    description = "Buy Companies"
    ability_time = "buy_company"

    @property
    def pass_description(self):
        return "Done (Companies)" if self.acted else "Skip (Companies)"

    def round_state(self):
        return {"just_sold_company": None, "company_sellers": {}}

    @for_life
    def blocks(self):
        return bool(self.opts.get("blocks"))

    def actions(self, entity):
        if entity.is_minor:
            return []
        if self.can_buy_company(entity):
            return ["buy_company", "pass"] if self.blocks() else ["buy_company"]
        if self.blocks() and entity.is_corporation and self.game.abilities(entity, passive_ok=False):
            return ["pass"]
        return []

    def can_buy_company(self, entity) -> bool:
        # (the companies are listed only once the entity's turn and the phase allow a purchase)
        if entity is not self.current_entity() or "can_buy_companies" not in self.game.phase.status:
            return False
        companies = self.game.purchasable_companies(entity)
        return bool(companies) and min(c.min_price for c in companies) <= self.buying_power(entity)

    def choices(self, entity) -> dict:
        if not self.can_buy_company(entity):
            return {"companies": []}
        # The price is paid from the treasury (a title may let the corporation borrow first).
        return {"companies": [{"company": c.id, "min_price": c.min_price, "max_price": min(c.max_price, entity.cash),
                               "owner": c.owner.id} for c in self.game.purchasable_companies(entity)
                              if c.min_price <= entity.cash]}

    def process_buy_company(self, action):
        entity, company, price = action.entity, action.company, action.integer("price")
        if company not in self.game.purchasable_companies(entity):
            raise GameError(f"{company.name} cannot be bought")
        self.buy_company(entity, company, price, company.owner)

    def buy_company(self, entity, company, price, owner):
        game = self.game
        if not game.company_sellable(company):
            raise GameError(f"Cannot buy {company.name} from {owner.name}")
        if not isinstance(price, int) or not company.min_price <= price <= company.max_price:
            raise GameError(f"Price must be between {game.fmt(company.min_price)} and {game.fmt(company.max_price)}")
        if price > entity.cash:
            raise GameError(f"{entity.name} has {game.fmt(entity.cash)} and cannot pay {game.fmt(price)}")
        later = []
        company.owner = entity
        if owner is not None and company in owner.companies:
            owner.companies.remove(company)
        for ability in game.abilities(company, "assign_corporation", time="sold"):
            for corp in game.corporations:
                if corp.assigned(company.id):
                    del corp.assignments[company.id]
                    if corp.name != entity.name:
                        later.append(f"{company.name} is unassigned from {corp.name}")
            entity.assign(company.id)
            ability.use()
            later.append(f"{company.name} is assigned to {entity.name}")
        for ability in game.abilities(company, "revenue_change", time="sold"):
            company.revenue = ability.revenue
        company.remove_ability_when("sold")
        self.round.just_sold_company = company
        self.round.company_sellers[company] = owner
        entity.companies.append(company)
        entity.spend(price, owner if owner is not None else game.bank)
        game.company_bought(company, entity)
        self.log.append(f"{entity.name} buys {company.name} from {owner.name if owner else 'the market'} "
                        f"for {game.fmt(price)}")
        self.log.extend(later)
        game.after_sell_company(entity, company, price, owner)


class AcquireCompanyStep(Step):
    """A corporation acquires private companies from players (``game.purchasable_companies``) without
    payment; what an acquired company does is the title's ``company_bought``."""

    ACTIONS = ["acquire_company", "pass"]
    description = "Acquire private companies"

    @property
    def pass_description(self):
        return "Done (Acquire companies)" if self.acted else "Skip (Acquire companies)"

    def round_state(self):
        return {"acquired_companies": []}

    def actions(self, entity):
        if entity is not self.current_entity() or not self.game.purchasable_companies(entity):
            return []
        return list(self.ACTIONS)

    def choices(self, entity) -> dict:
        return {"acquire_company": [c.id for c in self.game.purchasable_companies(entity)]}

    def process_acquire_company(self, action):
        entity, company = action.entity, action.company
        if company not in self.game.purchasable_companies(entity):
            raise GameError(f"{entity.name} cannot acquire {company.name}")
        owner = company.owner
        if owner is not None and company in owner.companies:
            owner.companies.remove(company)
        company.owner = entity
        entity.companies.append(company)
        self.round.acquired_companies.append(company)
        self.log.append(f"{entity.name} acquires {company.name} from {owner.name}")
        self.game.company_bought(company, entity)
        if not self.game.purchasable_companies(entity):
            self.pass_()


class AssignStep(Step):
    """Private companies placing their marker on a hex or a corporation."""

    ACTIONS = ["assign"]
    description = "Assign"
    ability_time = "assign"

    def actions(self, entity):
        if not entity.is_company:
            return []
        if self.game.abilities(entity, "assign_hexes") or self.game.abilities(entity, "assign_corporation"):
            return list(self.ACTIONS)
        return []

    def choices(self, entity) -> dict:
        hexes = [h for a in self.game.abilities(entity, "assign_hexes") for h in a.hexes or ()
                 if not self.game.board.hex_by_id(h).assigned(entity.id)]
        return {"assign_hexes": hexes}

    blocks = Step.blocks_nothing


class SpecialBuyStep(Step):
    """Buying special items (e.g. bonus tokens) during an operating turn."""

    ACTIONS = ["special_buy"]
    description = "Special Buy"
    ability_time = "special_buy"

    def buyable_items(self, entity) -> list:
        return []

    def actions(self, entity):
        if entity is not self.current_entity() or not self.buyable_items(entity):
            return []
        return list(self.ACTIONS)

    blocks = Step.blocks_nothing


class BankruptStep(Step):
    """A president whose corporation must buy a train it cannot afford, even with everything he could
    sell, may declare bankruptcy: he sells what he can, loses his cash, and is bankrupt."""

    ACTIONS = ["bankrupt"]
    description = "Bankrupt"
    ability_time = "bankrupt"

    def actions(self, entity):
        if entity is not self.current_entity() or not entity.is_corporation:
            return []
        step = self.round.active_step()
        player = entity.player
        if player is None or not hasattr(step, "must_buy_train") or not step.must_buy_train(entity):
            return []
        return list(self.ACTIONS) if self.game.can_go_bankrupt(player, entity) else []

    blocks = Step.blocks_nothing

    def process_bankrupt(self, action):
        game = self.game
        corporation = action.entity
        player = corporation.player
        if player is None or "bankrupt" not in self.actions(corporation):
            power = game.total_emr_buying_power(player, corporation) if player is not None else corporation.cash
            raise GameError(f"Cannot go bankrupt: {corporation.name}'s cash plus its president's cash and sellable "
                            f"shares total {game.fmt(power)}, and the cheapest train in the depot costs "
                            f"{game.fmt(game.depot.min_depot_price())}")
        self.sell_bankrupt_shares(player)
        if hasattr(self.round, "recalculate_order"):
            self.round.recalculate_order()
        player.spend(player.cash, game.bank, check_positive=False)
        game.declare_bankrupt(player)

    def sell_bankrupt_shares(self, player):
        self.log.append(f"-- {player.name} goes bankrupt and sells remaining shares --")
        self.sell_all_shares(player)

    def sell_all_shares(self, player):
        """A bankrupt player sells all he can, corporation by corporation in operating order."""
        game = self.game
        for corporation in sort_holdings(player):
            if corporation.share_price is None:
                continue
            while True:
                bundles = game.sellable_bundles(player, corporation)
                if not bundles:
                    break
                game.sell_shares_and_change_price(max(bundles, key=lambda b: b.price))


def sort_holdings(holder) -> list:
    """The corporations ``holder`` has certificates of, in operating order (unpriced ones last, in
    the order they were first held)."""
    corps = list(holder.shares_by_corporation.keys())
    priced = sorted([c for c in corps if c.sort_key() is not None], key=lambda c: c.sort_key())
    return priced + [c for c in corps if c.sort_key() is None]
