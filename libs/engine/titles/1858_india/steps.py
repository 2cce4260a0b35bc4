"""1858 India's steps: the Iberian ones, plus collecting mine/oil/port tokens, Pullmans and the
locomotive works."""

from __future__ import annotations

import importlib

from ...errors import GameError
from ...flow.step import Step

base = importlib.import_module("..1858.steps", __package__)

OperatingRound1858 = base.OperatingRound1858
Token = base.Token
Dividend = base.Dividend
IssueShares = base.IssueShares


class Track(base.Track):
    """Gauge conversions (same-colour tiles) are checked by the game's ``old_paths_problem``."""


class CollectTokens(Step):
    """After laying track a company may collect the mine, oil and port tokens its routes reach on
    hexes with track, paying for each."""

    ACTIONS = ["remove_hex_token", "pass"]
    description = "Collect mine, oil and port tokens"
    ability_time = "collect_tokens"

    def actions(self, entity):
        if entity is not self.current_entity() or not entity.is_corporation or not self.available_tokens(entity):
            return []
        return list(self.ACTIONS)

    def auto_actions(self, entity):
        if not entity.is_corporation or self.connected_tokens(entity):
            return None
        return [{"type": "pass", "entity": entity.id, "entity_type": "corporation"}]

    def log_skip(self, entity):
        if not entity.is_minor:
            super().log_skip(entity)

    def price(self, token) -> int:
        return self.game.facts["token_cost"][token.corporation.id]

    def available_tokens(self, corporation) -> list:
        """Tokens on hexes with track that the company could afford and the phase allows."""
        game = self.game
        status = game.phase.status
        out = []
        for kind, allowed in (("mine", True), ("oil", "oil_tokens" in status), ("port", "port_tokens" in status)):
            if not allowed or corporation.cash < game.facts["token_cost"][kind]:
                continue
            for hex_id in game.facts[f"{kind}_hexes"]:
                hex_ = game.board.hex_by_id(hex_id)
                out.extend(t for t in hex_.tokens if hex_.tile.color != "white")
        return out

    def connected_tokens(self, corporation) -> list:
        reachable = self.game.board.reachable_hexes(corporation)
        return [t for t in self.available_tokens(corporation) if t.hex in reachable]

    def choices(self, entity) -> dict:
        return {"hexes": [{"hex": t.hex.id, "kind": t.corporation.id, "price": self.price(t)}
                          for t in self.connected_tokens(entity)]}

    def process_remove_hex_token(self, action):
        corporation, hex_ = action.entity, action.hex
        if not hex_.tokens:
            raise GameError(f"There is no token to collect on {hex_.id}")
        token = hex_.tokens[0]
        if not self.game.loading and token not in self.connected_tokens(corporation):
            raise GameError(f"{corporation.name} cannot collect the token on {hex_.id}")
        price = self.price(token)
        spent = f"spends {self.game.fmt(price)} and " if price > 0 else ""
        self.log.append(f"{corporation.id} {spent}collects a {token.corporation.id} token from hex {hex_.id}.")
        if price > 0:
            corporation.spend(price, self.game.bank)
        hex_.tokens.remove(token)
        corporation.tokens.append(token)


class Route(base.Route):
    """A company owning a Pullman chooses the broad gauge train it rides with before running."""

    def round_state(self):
        state = super().round_state()
        state["pullmans"] = {}
        return state

    def actions(self, entity):
        if not entity.is_corporation or entity is not self.current_entity() or not self.game.route_trains(entity):
            return []
        out = list(self.ACTIONS)
        if self.choosing(entity):
            out.append("choose")
        return out

    def attachable_trains(self, corporation) -> list:
        return [t for t in corporation.trains if t.track_type == "broad" and not self.game.pullman(t)]

    def choosing(self, corporation) -> bool:
        return (self.game.owns_pullman(corporation) and self.round.pullmans.get(corporation) is None
                and bool(self.attachable_trains(corporation)))

    def choices(self, entity) -> dict:
        out = super().choices(entity)
        if self.choosing(entity):
            out["choices"] = [t.id for t in self.attachable_trains(entity)]   # where the Pullman rides
        return out

    def process_choose(self, action):
        corporation = action.entity
        train = self.game.train_by_id(action.raw.get("choice"))
        if train is None or (not self.game.loading and (not self.choosing(corporation)
                                                         or train not in self.attachable_trains(corporation))):
            raise GameError(f"{corporation.name} cannot attach its Pullman to that train")
        self.round.pullmans[corporation] = train
        self.game.clear_graph()

    def process_run_routes(self, action):
        super().process_run_routes(action)
        extra = self.round.extra_revenue
        if extra:
            self.log.append(f"{action.entity.name} receives {self.game.fmt(extra)} revenue from mines and ports.")


class DiscardTrain(base.DiscardTrain):
    """A Pullman is never discarded."""

    def choices(self, entity) -> dict:
        out = super().choices(entity)
        out["discard_train"] = [t for t in out.get("discard_train", []) if not self.game.pullman(self.game.train_by_id(t))]
        return out

    def process_discard_train(self, action):
        if self.game.pullman(action.train):
            raise GameError("A Pullman cannot be discarded")
        super().process_discard_train(action)


class BuyTrain(base.BuyTrain):
    """A Pullman may be bought (one per company) even at the train limit, never from another
    company; from phase 5 a company without one may buy a locomotive works for its face value."""

    def actions(self, entity):
        out = super().actions(entity)
        if self.can_buy_company(entity):
            out = out + [a for a in ("buy_company", "pass") if a not in out]
        return out

    def room(self, entity) -> bool:
        return super().room(entity) or not self.game.owns_pullman(entity)

    def at_train_limit(self, entity) -> bool:
        return self.game.num_corp_trains(entity) == self.game.train_limit(entity)

    def buyable_trains(self, entity) -> list:
        trains = super().buyable_trains(entity)
        if self.game.owns_pullman(entity):
            trains = [t for t in trains if not self.game.pullman(t)]
        if self.at_train_limit(entity):
            trains = [t for t in trains if self.game.pullman(t)]
        return trains

    def other_trains(self, entity) -> list:
        return [t for t in super().other_trains(entity) if not self.game.pullman(t)]

    def owns_loco_works(self, corporation) -> bool:
        return any(not self.game.private_railway(c) for c in corporation.companies)

    def can_buy_company(self, entity) -> bool:
        if entity is not self.current_entity() or entity.is_minor or self.owns_loco_works(entity):
            return False
        if "loco_works" not in self.game.phase.status:
            return False
        companies = self.game.purchasable_companies(entity)
        return bool(companies) and min(c.value for c in companies) <= entity.cash

    def choices(self, entity) -> dict:
        out = super().choices(entity)
        if self.can_buy_company(entity):
            out["companies"] = [{"company": c.id, "price": c.value} for c in self.game.purchasable_companies(entity)
                                if c.value <= entity.cash]
        return out

    def process_buy_company(self, action):
        corporation, company, price = action.entity, action.company, action.integer("price")
        if not self.game.loading and not self.can_buy_company(corporation):
            raise GameError(f"{corporation.name} cannot buy a locomotive works now")
        if not self.game.company_sellable(company) or company.owner is not None:
            raise GameError(f"Cannot buy {company.name}")
        if price != company.value:
            raise GameError(f"Price must be {self.game.fmt(company.value)}")
        company.owner = corporation
        corporation.companies.append(company)
        corporation.spend(price, self.game.bank)
        self.log.append(f"{corporation.name} buys {company.name} for {self.game.fmt(price)}")
