"""The game: owner of the model (players, bank, companies, corporations, market, trains, map) and of
the sequence of rounds. Common 18xx rules live here; a title subclasses it for what differs."""

from __future__ import annotations

import math

from .actions import Action
from .core.entities import Company, Corporation, Minor, Player, sort_corporations
from .core.market import StockMarket
from .core.money import Bank
from .core.pool import SharePool
from .core.shares import ShareBundle
from .core.trains import Depot, Phase, build_trains
from .errors import GameError
from .journal import Tracked
from .jsoncopy import copy_json
from .rng import Rng

GAME_END_TIMINGS = ("immediate", "current_round", "current_or", "full_or", "one_more_full_or_set")


class Game(Tracked):
    """Rules core. Created by a title (see ``engine.titles``) with the title's data."""

    corporation_class = Corporation
    company_class = Company
    minor_class = Minor
    market_class = StockMarket
    share_pool_class = SharePool
    operating_round_name = "Operating"

    def __reduce_ex__(self, protocol):
        """Any pickle of a state names the title's data and tile descriptions instead of writing them
        (``engine.statecopy``): a state read back shares them with every game of its title."""
        from .statecopy import reduce_state
        return reduce_state(self, protocol)

    def __init__(self, data: dict, players: list, *, seed: int, optional_rules=(), game_id=""):
        self.data = data
        self.title = data["title"]
        self.game_id = game_id
        self.optional_rules = [r for r in optional_rules]
        self.rules = dict(data["rules"])
        self.facts = data.get("facts", {})
        self.log: list = []
        self.turn = 1
        self.final_turn = None
        self.finished = False
        self.game_end_reason = None
        self.game_end_trigger = None
        self.loading = False
        self.programmed_actions = {}
        self.crowded = None
        self.revenue_mismatches = []
        self.rng = Rng(seed)
        self.seed = seed

        self.players = [Player(p["id"], p["name"]) for p in players]
        self._check_player_count()
        sections = self._sections()
        self.phases_data = sections["phases"]
        self.trains_data = sections["trains"]

        self.companies = self.init_companies()
        self.market = self.init_market()
        self.minors = self.init_minors()
        self.loans = self.init_loans()
        self.total_loans = len(self.loans)
        self.corporations = self.init_corporations()
        self.closing_queue = {}
        self.corporations_are_closing = False
        self.bank = Bank(self.bank_starting_cash(), check="bank" in self.game_end_check_values(), log=self.log)
        self.cert_limit_value = None
        self.cert_limit_value = self.init_cert_limit()
        self.depot = Depot(build_trains(self.trains_data), self)
        self.init_starting_cash()
        self.share_pool = self.share_pool_class(self)
        self.board = self.init_board()
        self.phase = Phase(self.phases_data, self)
        self.operating_rounds = self.phase.operating_rounds
        self.round_history = []
        self._index()
        self.round = self.init_round()
        self.setup()
        self.round.setup()

    # ================================================================== setup
    def _sections(self) -> dict:
        sections = {"phases": self.data["phases"], "trains": self.data["trains"]}
        sections.update(self.data.get("player_count_overrides", {}).get(str(len(self.players)), {}))
        for rule in self.optional_rules:
            sections.update(self.data.get("optional_rule_overrides", {}).get(rule, {}))
        return copy_json(sections)

    def _check_player_count(self) -> None:
        low, high = self.data["meta"]["player_range"]
        if not low <= len(self.players) <= high:
            raise GameError(f"{self.title} is for {low} to {high} players, not {len(self.players)}")
        ids = [p.id for p in self.players]
        if len(set(map(str, ids))) != len(ids):
            raise GameError("Player ids must be unique")

    def init_companies(self) -> list:
        return [self.company_class(**copy_json(c)) for c in self.data["companies"]]

    def init_market(self):
        market = self.market_class(self.data["market"], unlimited_types=self.rules["cert_limit_types"],
                                   multiple_buy_types=self.rules["multiple_buy_types"])
        market.game = self   # titles' markets may treat some corporations differently
        return market

    def init_minors(self) -> list:
        return [self.minor_class(**copy_json(m)) for m in self.data.get("minors") or ()]

    def init_loans(self) -> list:
        return []

    def corporation_options(self, record: dict) -> dict:
        opts = copy_json(record)
        sym, name = opts.pop("sym"), opts.pop("name")
        return {"sym": sym, "name": name, "min_price": min(p.price for p in self.market.par_prices),
                "capitalization": self.data["capitalization"], **opts}

    def init_corporations(self) -> list:
        corporations = [self.corporation_class(**self.corporation_options(c)) for c in self.data["corporations"]]
        for corporation in corporations:
            self.set_required_par_price(corporation)
        return corporations

    def set_required_par_price(self, corporation) -> None:
        """A corporation that must par at a given price knows its par price (and the price of its IPO
        shares) from the start; its share price is set only when it is parred."""
        price = corporation.required_par_price
        if price is None:
            return
        cell = next((p for p in self.market.par_prices if p.price == price), None)
        if cell is None:
            raise GameError(f"{corporation.name}: no par space at {price}")
        corporation.par_price = cell
        corporation.min_price = price

    def init_board(self):
        if "board" not in self.data:
            return None
        from .board import Board
        return Board(self.data["board"], self)

    def bank_starting_cash(self) -> int:
        cash = self.data["bank_cash"]
        return cash[str(len(self.players))] if isinstance(cash, dict) else cash

    def init_cert_limit(self):
        limit = self.data["cert_limit"]
        if isinstance(limit, dict):
            count = len([p for p in self.players if not p.bankrupt]) if self.rules[
                "cert_limit_change_on_bankruptcy"] else len(self.players)
            limit = limit.get(str(count))
        return limit if limit is not None else self.cert_limit_value

    def init_starting_cash(self) -> None:
        cash = self.data["starting_cash"]
        cash = cash[str(len(self.players))] if isinstance(cash, dict) else cash
        for player in self.players:
            self.bank.spend(cash, player)

    def _index(self) -> None:
        self._players = {str(p.id): p for p in self.players}
        self._corporations = {c.id: c for c in self.corporations}
        self._companies = {c.id: c for c in self.companies}
        self._minors = {m.id: m for m in self.minors}
        self._shares = {s.id: s for c in self.corporations for s in c.shares_of(c)}
        self._loans = {str(loan.id): loan for loan in self.loans}

    def journal_caches(self) -> list:
        """The instances of the state with caches a journal forgets when it goes back
        (``Tracked.JOURNAL_CACHES``): the board."""
        return [self.board] if self.board is not None else []

    def parts(self) -> list:
        """The state's own long-lived objects, found without a walk: the board's parts
        (``Board.parts``), the market's cells, the players, companies, minors, corporations, shares
        and loans the state indexes, and the trains. ``statecopy.let_go`` empties them without
        walking what they hold (what else of the state they point at is reached from elsewhere, or
        freed by reference counts once they are emptied); none is shared with another game."""
        out = self.board.parts() if self.board is not None else []
        out += self.market.by_id.values()
        for index in (self._players, self._companies, self._minors, self._corporations, self._shares, self._loans):
            out += index.values()
        out += self.depot.trains
        return out

    def setup(self) -> None:
        """Title set-up after the model is built and the first round exists."""

    def init_round(self):
        raise NotImplementedError

    # ================================================================== lookups
    def player_by_id(self, pid):
        return self._players.get(str(pid))

    def corporation_by_id(self, cid):
        return self._corporations.get(cid)

    def company_by_id(self, cid):
        return self._companies.get(cid)

    def minor_by_id(self, mid):
        return self._minors.get(mid)

    def share_by_id(self, sid):
        return self._shares.get(sid)

    def share_price_by_id(self, sid):
        for price in self.market.par_prices:
            if price.id == sid:
                return price
        return None

    def train_by_id(self, tid):
        for train in self.depot.trains:
            if train.id == tid:
                return train
        return None

    def loan_by_id(self, lid):
        return self._loans.get(str(lid))

    def entity_for(self, entity_type, key):
        if entity_type == "player":
            found = self.player_by_id(key)
        elif entity_type == "corporation":
            found = self.corporation_by_id(key)
        elif entity_type == "company":
            found = self.company_by_id(key)
        elif entity_type == "minor":
            found = self.minor_by_id(key)
        else:
            raise GameError(f"Unknown entity type: {entity_type!r}")
        if found is None:
            raise GameError(f"Unknown {entity_type}: {key!r}")
        return found

    def fmt(self, amount) -> str:
        parts = _CURRENCY_PARTS.get(self.data["currency"])
        if parts is None:   # (the text around each "%s" or "%d" of the title's format, found once)
            currency = self.data["currency"]
            parts = _CURRENCY_PARTS[currency] = currency.replace("%d", "%s").split("%s")
        return str(amount).join(parts)

    # ================================================================== processing
    def process(self, raw: dict, *, auto_actions=None) -> list:
        """Apply one action; then either the recorded ``auto_actions`` (replay) or the ones the rules
        generate (``auto_actions=None``, live play). Returns the automatic actions applied."""
        seq = raw.get("id") or 0
        self._process_single(Action(raw, self, seq))
        applied = []
        if auto_actions is None:
            guard = 0
            while not self.finished:
                generated = self.round.auto_actions() or []
                if not generated:
                    break
                for auto in generated:
                    self._process_single(Action(auto, self, seq))
                applied.extend(generated)
                guard += 1
                if guard > 200:
                    raise GameError("Automatic actions did not settle")
        else:
            for auto in auto_actions:
                self._process_single(Action(auto, self, seq))
            applied = list(auto_actions)
        return applied

    def _process_single(self, action: Action) -> None:
        self.round.process_action(action)
        self.action_processed(action)
        reason, timing = self.game_end_check() or (None, None)
        if timing == "immediate":
            self.end_game(reason)
        while not self.finished and self.round.finished():
            for e in self.round.entities:
                e.passed = False
            if self.end_now(timing):
                self.end_game(reason)
            elif self.turn >= 100:
                self.end_game("dnf")
            else:
                self.transition_to_next_round()

    def action_processed(self, action) -> None:
        if not self.close_corporations_in_close_cell():
            return
        # Closing corporations may leave the current entity with nothing to do: move on.
        self.round.clear_cache()
        step = self.round.active_step()
        entity = self.round.current_entity
        if step is None or entity is None or not step.actions(entity):
            if not self.round.finished():
                self.round.skip_steps()
                self.round.next_entity()

    def transition_to_next_round(self) -> None:
        self.next_round()
        if self.finished:
            return
        self.check_programmed_actions()
        self.round.at_start = True
        self.round.setup()
        self.round_history.append(self.round.label)

    def check_programmed_actions(self) -> None:
        """Programs that only make sense in the round just left are dropped."""
        stock = self.round.is_stock
        for player, programs in self.programmed_actions.items():
            keep = []
            for program in programs:
                kind = program.get("type")
                if kind == "program_share_pass":
                    drop = not stock and not program.get("indefinite")
                elif kind == "program_buy_shares":
                    drop = not stock
                else:
                    drop = False
                if drop:
                    self.log.append(f"-- Programmed action {kind} of {player.name} removed due to round change")
                else:
                    keep.append(program)
            programs[:] = keep

    def shares_for_corporation(self, corporation) -> list:
        return [s for s in self._shares.values() if s.corporation is corporation]

    def next_turn(self) -> None:
        """Hook called whenever a round's turn moves (kept for titles that track it)."""

    # ================================================================== rounds
    def new_auction_round(self):
        raise NotImplementedError

    def stock_round(self):
        raise NotImplementedError

    def operating_round(self, round_num):
        raise NotImplementedError

    def new_stock_round(self):
        self.log.append(f"-- Stock Round {self.turn} --")
        return self.stock_round()

    def new_operating_round(self, round_num=1):
        self.log.append(f"-- {self.operating_round_name} Round {self.turn}.{round_num} "
                        f"(of {self.operating_rounds}) --")
        return self.operating_round(round_num)

    def next_round(self) -> None:
        r = self.round
        if r.is_stock:
            self.operating_rounds = self.phase.operating_rounds
            self.reorder_players()
            self.round = self.new_operating_round()
        elif r.is_operating:
            if r.round_num < self.operating_rounds:
                self.or_round_finished()
                self.round = self.new_operating_round(r.round_num + 1)
            else:
                self.turn += 1
                self.or_round_finished()
                self.or_set_finished()
                self.round = self.new_stock_round()
        else:
            self.init_round_finished()
            self.reorder_players()
            self.round = self.new_stock_round()

    def init_round_finished(self) -> None:
        pass

    def or_round_finished(self) -> None:
        pass

    def or_set_finished(self) -> None:
        pass

    def reorder_players(self, order=None, silent=False) -> None:
        order = order or self.rules["next_sr_player_order"]
        if order == "after_last_to_act":
            active = [p for p in self.players if not p.bankrupt]
            player = active[self.round.entity_index]
            i = self.players.index(player)
            self.players[:] = self.players[i:] + self.players[:i]
        elif order == "first_to_pass":
            if self.round.pass_order:
                self.players[:] = list(self.round.pass_order)
        elif order == "most_cash":
            current = list(reversed(self.players))
            self.players.sort(key=lambda p: (p.cash, current.index(p)), reverse=True)
        elif order == "least_cash":
            current = list(self.players)
            self.players.sort(key=lambda p: (p.cash, current.index(p)))
        elif order == "next_clockwise":
            self.players[:] = self.players[1:] + self.players[:1]
        if not silent:
            self.log.append(f"{self.players[0].name} has priority deal")

    def operating_order(self) -> list:
        return [m for m in self.minors if m.floated()] + sort_corporations(
            [c for c in self.corporations if c.floated()])

    def priority_deal_player(self):
        players = [p for p in self.players if not p.bankrupt]
        entity = self.round.current_entity
        if entity is not None and entity.is_player:
            last = self.round.last_to_act
            idx = (players.index(last) + 1) % len(players) if last is not None else 0
            return players[idx]
        return players[0]

    def extra_holders(self) -> list:
        """Holders of cash and shares that are not seats (e.g. a title's tax haven)."""
        return []

    def choices_entities(self) -> list:
        """The players who act in a choices round (titles that have one)."""
        return []

    def possible_presidents(self) -> list:
        return [p for p in self.players if not p.bankrupt]

    def acting_for_entity(self, entity):
        return entity.owner if entity is not None else None

    def after_end_of_operating_turn(self, operator) -> None:
        pass

    # ================================================================== game end
    def game_end_check_values(self) -> dict:
        return self.data["game_end_check"]

    def game_end_check(self):
        if self.rules["game_end_lock_first_trigger"] and self.game_end_trigger:
            return self.game_end_trigger
        priority = self.rules["game_end_timing_priority"]
        for reason, timing in self.game_end_check_values().items():
            if not self.game_end_condition(reason):
                continue
            timing = self.game_end_timing(reason, timing)
            if self.game_end_trigger and priority.index(timing) >= priority.index(self.game_end_trigger[1]):
                continue
            self.game_end_trigger = (reason, timing)
            if self.rules["game_end_lock_first_trigger"]:
                break
        if self.game_end_trigger and self.game_end_trigger[1] == "one_more_full_or_set" and self.final_turn is None:
            self.final_turn = self.turn + 1
        return self.game_end_trigger

    def game_end_timing(self, reason, timing) -> str:
        """When the game ends once ``reason`` triggered (the data's timing; titles may vary it)."""
        return timing

    def game_end_condition(self, reason) -> bool:
        if reason == "bankrupt":
            after = self.rules["bankruptcy_ends_game_after"]
            if after == "one":
                for p in self.players:
                    if p.bankrupt:
                        return True
                return False
            return len([p for p in self.players if not p.bankrupt]) == 1
        if reason == "bank":
            return self.bank.broken
        if reason == "stock_market":
            return self.market.max_reached
        if reason == "final_train":
            return self.depot.empty()
        if reason == "final_phase":
            return self.phase.index == len(self.phase.phases) - 1
        if reason == "all_closed":
            return not [e for e in self.corporations + self.companies if not e.closed]
        return False

    def end_now(self, timing) -> bool:
        if not timing:
            return False
        if timing in ("immediate", "current_round"):
            return True
        if not self.round.is_operating:
            return False
        if timing == "current_or":
            return True
        final_or_in_set = self.round.round_num == self.operating_rounds
        if final_or_in_set and timing == "one_more_full_or_set":
            return self.turn == self.final_turn
        return final_or_in_set

    def end_game(self, reason) -> None:
        if self.finished:
            return
        self.finished = True
        self.game_end_reason = reason
        scores = ", ".join(f"{p.name} ({self.fmt(self.player_value(p))})" for p in self.players)
        self.log.append(f"-- Game over: {scores} --")

    def player_value(self, player) -> int:
        return player.value()

    def result(self) -> dict:
        values = [(p.id, self.player_value(p)) for p in self.players]
        values.sort(key=lambda kv: kv[1], reverse=True)
        return {str(pid): value for pid, value in values}

    # ================================================================== money, certificates, shares
    def buying_power(self, entity, **_kw) -> int:
        return entity.cash

    def cert_limit(self, player=None) -> int:
        return self.cert_limit_value

    def market_share_limit(self, corporation=None) -> int:
        return self.rules["market_share_limit"]

    def num_certs(self, entity) -> float:
        certs = 0
        for corporation, held in entity.shares_by_corporation.items():
            if held and corporation.counts_for_limit:
                certs += sum(s.cert_size for s in held if s.counts_for_limit)
        if self.rules["cert_limit_includes_privates"]:
            certs += len(entity.companies)
        return certs

    def can_gain_from_player(self, entity, bundle) -> bool:
        return bool(self.rules["buy_share_from_other_player"] and entity.is_player)

    def can_swap_for_presidents_share_from_ipo(self) -> bool:
        return True

    def can_par(self, corporation, parrer) -> bool:
        return not corporation.ipoed

    def sold_out(self, corporation) -> bool:
        return sum(corporation.player_share_holders().values()) == 100

    def check_sale_timing(self, entity, bundle) -> bool:
        rule = self.rules["sell_after"]
        corporation = bundle.corporation
        if rule == "first":
            return self.turn > 1 or self.round.is_operating
        if rule == "after_sr_floated":
            return corporation.operated() or self.round.is_operating
        if rule == "operate":
            return corporation.operated()
        if rule == "p_any_operate":
            return corporation.operated() or corporation.president(entity)
        if rule == "full_or_turn":
            # after the corporation's first complete operating turn
            if self.round.is_operating and corporation is self.round.current_operator:
                return len(corporation.operating_history) > 1
            return corporation.operated()
        if rule == "any_time":
            return True
        raise GameError(f"Unsupported sale timing rule {rule}")

    def sellable_turn(self) -> bool:
        return (self.turn > 1 or not self.round.is_stock) if self.rules["sell_after"] == "first" else True

    def bundles_for_corporation(self, holder, corporation, shares=None) -> list:
        """Every bundle ``holder`` could sell: growing prefixes of its certificates, cheapest first,
        plus partial sales of a president's certificate."""
        bundles = list(self._bundles_made(holder, corporation, shares))
        bundles.sort(key=lambda b: b.percent)
        return bundles

    def sale_candidates(self, holder, corporation):
        """The bundles of ``bundles_for_corporation``, made one at a time and in no set order: for
        the question whether any of them may be sold, which the first nearly always settles."""
        if type(self).bundles_for_corporation is not Game.bundles_for_corporation:
            return self.bundles_for_corporation(holder, corporation)
        return self._bundles_made(holder, corporation, None)

    def _bundles_made(self, holder, corporation, shares):
        """``bundles_for_corporation``'s bundles before its sort (double certificates: already sorted)."""
        if not corporation.ipoed:
            return
        shares = list(shares if shares is not None else holder.shares_of(corporation))
        if not shares:
            return
        shares.sort(key=lambda s: (1 if s.president else 0, s.percent))
        if any(s.double_cert for s in shares):
            yield from self._bundles_with_double_certs(holder, corporation, shares)
            return
        percent = 0
        for i, share in enumerate(shares):
            percent += share.percent
            yield ShareBundle.trusted(shares[:i + 1], percent)
        if shares[-1].president:
            normal = corporation.share_percent
            extra = (corporation.presidents_percent - normal) // normal
            for n in range(1, extra + 1):
                yield ShareBundle.trusted(shares, percent - normal * n)

    def _bundles_with_double_certs(self, holder, corporation, shares) -> list:
        """Holdings with double certificates sell as any choice of certificates (one bundle per
        distinct mix of ordinary shares, double certificates and the president's). A president may
        only offer his certificate in a bundle large enough for someone else to take the presidency
        (the margin to the next holding, plus a share)."""
        ordinary = [s for s in shares if not s.double_cert and not s.president]
        doubles = [s for s in shares if s.double_cert and not s.president]
        president = [s for s in shares if s.president]
        pres_needed = None
        if president and corporation.owner is holder:
            values = sorted(corporation.share_holders.values(), reverse=True)
            pres_needed = values[0] - values[1] + corporation.share_percent if len(values) > 1 else None
        bundles = []
        for with_pres in range(len(president) + 1):
            for d in range(len(doubles) + 1):
                for k in range(len(ordinary) + 1):
                    chosen = ordinary[:k] + doubles[:d] + president[:with_pres]
                    if not chosen:
                        continue
                    percent = sum(s.percent for s in chosen)
                    if with_pres and corporation.owner is holder and (pres_needed is None or percent < pres_needed):
                        continue
                    bundles.append(ShareBundle.trusted(chosen, percent))
        bundles.sort(key=lambda b: (b.percent, len(b.shares)))
        return bundles

    def sellable_bundles(self, player, corporation) -> list:
        step = self.round.active_step()
        if step is None or not hasattr(step, "can_sell"):
            return []
        return [b for b in self.bundles_for_corporation(player, corporation) if step.can_sell(player, b)]

    def value_for_sellable(self, player, corporation) -> int:
        bundles = self.sellable_bundles(player, corporation)
        return max((b.price for b in bundles), default=0)

    def value_for_dumpable(self, player, corporation) -> int:
        if self.rules["president_sales_to_market"]:
            return self.value_for_sellable(player, corporation)
        bundles = [b for b in self.bundles_for_corporation(player, corporation)
                   if b.can_dump(player) and self.share_pool.fit_in_bank(b)]
        return max((b.price for b in bundles), default=0)

    def liquidity(self, player, emergency=False) -> int:
        if not self.sellable_turn():
            return player.cash
        value = player.cash
        if emergency:
            for corporation, shares in list(player.shares_by_corporation.items()):
                if shares:
                    value += self.value_for_sellable(player, corporation)
        else:
            for corporation, shares in list(player.shares_by_corporation.items()):
                if not shares:
                    continue
                rule = self.rules["sell_after"]
                if rule == "operate" and not corporation.operated():
                    continue
                if rule == "p_any_operate" and not corporation.operated() and not corporation.president(player):
                    continue
                value += self.value_for_dumpable(player, corporation)
        return value

    def sell_shares_and_change_price(self, bundle, *, allow_president_change=True, swap=None, movement=None):
        corporation = bundle.corporation
        old_price = corporation.share_price
        was_president = corporation.president(bundle.owner)
        self.share_pool.sell_shares(bundle, allow_president_change=allow_president_change, swap=swap)
        movement = movement or self.rules["sell_movement"]
        market = self.market
        if movement == "down_share":
            for _ in range(bundle.num_shares()):
                market.move_down(corporation)
        elif movement == "down_per_10":
            percent = bundle.percent - (swap.percent if swap is not None else 0)
            for _ in range(percent // 10):
                market.move_down(corporation)
        elif movement == "down_block":
            market.move_down(corporation)
        elif movement == "left_share":
            for _ in range(bundle.num_shares()):
                market.move_left(corporation)
        elif movement == "left_block":
            market.move_left(corporation)
        elif movement == "left_block_pres":
            if was_president:
                market.move_left(corporation)
        elif movement != "none":
            raise GameError(f"Unsupported sale movement {movement}")
        if movement != "none":
            self.log_share_price(corporation, old_price)

    def move_share_price(self, corporation, direction) -> None:
        """Move the corporation's marker one step (``left``, ``right``, ``up``, ``down``) and log it."""
        old = corporation.share_price
        getattr(self.market, "move_" + direction)(corporation)
        self.log_share_price(corporation, old)

    def log_share_price(self, entity, old, steps=None) -> None:
        new = entity.share_price
        if new is None or old is None or new is old:
            return
        dirs = []
        if new.row < old.row:
            dirs.append("up")
        if new.row > old.row:
            dirs.append("down")
        if new.column < old.column:
            dirs.append("left")
        if new.column > old.column:
            dirs.append("right")
        jumps = f" ({steps} steps)" if steps and steps > 1 else ""
        self.log.append(f"{entity.name}'s share price moves {' and '.join(dirs)} from {self.fmt(old.price)} "
                        f"to {self.fmt(new.price)}{jumps}")

    def float_corporation(self, corporation) -> None:
        self.log.append(f"{corporation.name} floats")
        if corporation.capitalization in ("incremental", "none"):
            return
        self.bank.spend(corporation.par_price.price * corporation.total_shares, corporation)
        self.log.append(f"{corporation.name} receives {self.fmt(corporation.cash)}")

    def after_par(self, corporation) -> None:
        self.close_companies_on_event(corporation, "par")
        if self.rules["home_token_timing"] == "par":
            self.place_home_token(corporation)

    # ================================================================== companies and abilities
    def abilities(self, entity, type=None, time=None, on_phase=None, passive_ok=None, strict_time=None) -> list:
        """The abilities of ``entity`` usable now (list, possibly empty)."""
        if entity is None:
            return []
        held = entity.all_abilities
        if held and type is not None:
            held = [a for a in held if a.type == type]
        if not held:
            return []
        out = []
        for ability in held:
            if not self._ability_right_owner(ability.owner, ability):
                continue
            if ability.count_per_or and ability.count_this_or >= ability.count_per_or:
                continue
            if not self._ability_right_time(ability, time, on_phase,
                                            True if passive_ok is None else passive_ok,
                                            True if strict_time is None else strict_time):
                continue
            if not self.ability_usable(ability):
                continue
            out.append(ability)
        return out

    def ability(self, entity, type=None, **kw):
        found = self.abilities(entity, type, **kw)
        return found[0] if found else None

    def _ability_right_owner(self, owner, ability) -> bool:
        if ability.owner_type == "player":
            return owner.owner is None or owner.owner.is_player
        if ability.owner_type == "corporation":
            return owner.owner is not None and owner.owner.is_corporation
        return True

    def ability_blocking_step(self):
        kinds = _ABILITY_STEP_KINDS or _ability_step_kinds()
        for step in self.round.steps_of(kinds):   # (the round's steps of those kinds, in order)
            if not step.passed and step.active() and step.blocks():
                return step
        return None

    def _ability_right_time(self, ability, time, on_phase, passive_ok, strict_time) -> bool:
        r = self.round
        if r is None:
            return True
        if ability.on_phase and on_phase not in ("any", ability.on_phase):
            return False
        if ability.after_phase and ability.after_phase not in [p["name"] for p in self.phase.previous()]:
            return False
        if time == "any" or "any" in ability.when:
            return True
        if ability.passive and not passive_ok:
            return False
        if ability.passive and not ability.when:
            return True
        current_step = self.ability_blocking_step()
        current_name = current_step.ability_time if current_step is not None else None
        times = [current_name if t == "%current_step%" else str(t) for t in
                 (time if isinstance(time, (list, tuple)) else ([time] if time is not None else []))]
        if not times:
            check, default = ability.when, False
        else:
            check = [w for w in ability.when if w in times]
            default = True
            if check and not strict_time:
                return True
        for when in check:
            if when == current_name and current_name is not None:
                if (r.is_operating and r.current_operator is ability.corporation) or \
                        (r.is_stock and r.current_entity is ability.player):
                    return True
            elif when == "owning_corp_or_turn":
                if r.is_operating and self._corporation_owned(ability) and r.current_operator is ability.corporation:
                    return True
            elif when == "owning_player_or_turn":
                if r.is_operating and self._player_owned(ability) and r.current_operator is not None \
                        and r.current_operator.player is ability.player:
                    return True
            elif when == "owning_player_track":
                if r.is_operating and self._player_owned(ability) and r.current_operator is not None \
                        and r.current_operator.player is ability.player and current_name == "track":
                    return True
            elif when == "owning_player_token":
                if r.is_operating and self._player_owned(ability) and r.current_operator is not None \
                        and r.current_operator.player is ability.player and current_name == "token":
                    return True
            elif when == "owning_player_sr_turn":
                if r.is_stock and self._player_owned(ability) and r.current_entity is ability.player:
                    return True
            elif when == "or_between_turns":
                if r.is_operating and not r.current_operator_acted:
                    return True
            elif when == "or_start":
                if r.is_operating and r.at_start:
                    return True
            elif when == "stock_round":
                if r.is_stock:
                    return True
            elif default:
                return True
        return False

    @staticmethod
    def _player_owned(ability) -> bool:
        o = ability.owner
        return o is not None and (o.is_player or ((o.is_company or o.is_minor) and o.owner is not None
                                                  and o.owner.is_player))

    @staticmethod
    def _corporation_owned(ability) -> bool:
        o = ability.owner
        return o is not None and (o.is_corporation or (o.is_company and o.owner is not None
                                                       and o.owner.is_corporation))

    def ability_usable(self, ability) -> bool:
        if ability.type != "token" or not ability.hexes:
            return True
        owner = ability.owner
        corporation = owner if owner.is_corporation else (owner.owner if owner.owner is not None
                                                          and owner.owner.is_corporation else None)
        if corporation is None:
            return True
        if ability.from_owner and corporation.find_token_by_type() is None:
            return False
        if ability.same_hex_allowed:
            return True
        tokened = {t.city.hex.id for t in corporation.tokens if t.used and t.city is not None}
        return bool(set(ability.hexes) - tokened)

    def all_companies_with_ability(self, type):
        for company in self.companies:
            for ability in self.abilities(company, type):
                yield company, ability

    def purchasable_companies(self, entity=None) -> list:
        return [c for c in self.companies if c.owner is not None and c.owner.is_player and entity is not c.owner
                and not self.abilities(c, "no_buy")]

    def buyable_bank_owned_companies(self) -> list:
        return [c for c in self.companies if not c.closed and c.owner is self.bank]

    def exchange_problem(self, company, corporation):
        """Why ``company``'s exchange ability may not be used for a share of ``corporation`` now, or None."""
        return None

    def company_sellable(self, company) -> bool:
        return not (company.owner is not None and company.owner.is_corporation)

    def after_buy_company(self, player, company, price) -> None:
        for ability in self.abilities(company, "shares"):
            for share in ability.shares:
                if share.president:
                    self.round.companies_pending_par.append(company)
                else:
                    self.share_pool.buy_shares(player, share, exchange="free")

    def company_bought(self, company, buyer) -> None:
        pass

    def after_sell_company(self, buyer, company, price, seller) -> None:
        pass

    def close_companies_on_event(self, entity, event) -> None:
        if entity is None:
            return   # (a closing ability names the corporation whose event closes it)
        name = entity.name
        for company in self.companies:
            if company.closed:
                continue
            if not any(a.type == "close" and a.attrs.get("corporation") == name for a in company.all_abilities):
                continue   # (none of its closing abilities names the corporation: none can apply)
            for ability in self.abilities(company, "close", time=event):
                if name != ability.attrs.get("corporation"):
                    continue
                company.close()
                if not ability.silent:
                    self.log.append(f"{company.name} closes")

    def payout_companies(self, ignore=()) -> None:
        companies = [c for c in self.companies if c.owner is not None and c.revenue > 0 and c.id not in ignore]

        def key(c):
            owner_key = (0, self.players.index(c.owner)) if c.owned_by_player() else (1, c.owner.id)
            return (owner_key, c.revenue, c.name)

        companies.sort(key=key)
        for company in companies:
            owner = company.owner
            if owner is self.bank:
                continue
            self.bank.spend(company.revenue, owner)
            self.log.append(f"{owner.name} collects {self.fmt(company.revenue)} from {company.name}")

    def event_close_companies(self) -> None:
        self.log.append("-- Event: Private companies close --")
        for company in self.companies:
            ability = self.ability(company, "close", on_phase="any")
            if ability is not None and (ability.on_phase == "never" or any(
                    ability.on_phase == p["name"] for p in self.phase.future())):
                continue
            company.close()

    def on_phase_start(self, name) -> None:
        """A new phase began: apply phase-timed company abilities."""
        if not hasattr(self, "phase"):
            return
        for company in self.companies:
            if company.owner is None:
                continue
            for ability in self.abilities(company, "revenue_change", on_phase=name):
                company.revenue = ability.revenue
            for _ in self.abilities(company, "close", on_phase=name):
                self.log.append(f"Company {company.name} closes")
                company.close()
        for entity in self.companies + self.corporations:
            entity.remove_ability_when(name)
        self.after_phase_change(name)

    def after_phase_change(self, name) -> None:
        pass

    # ================================================================== corporations
    def close_corporation(self, corporation, quiet=False) -> None:
        if not quiet:
            self.log.append(f"{corporation.name} closes")
        if self.board is not None:
            self.board.remove_corporation(corporation,
                                          tokens=self.rules["closed_corp_tokens_removed"],
                                          reservations=self.rules["closed_corp_reservations_removed"])
        corporation.set_cash(0, self.bank)
        if self.rules["closed_corp_trains_removed"]:
            for train in corporation.trains:
                train.buyable_ = False
        else:
            for train in list(corporation.trains):
                self.depot.reclaim_train(train)
        if corporation.companies:
            self.log.append(f"{corporation.name}'s companies close: {', '.join(c.sym for c in corporation.companies)}")
            for company in list(corporation.companies):
                company.close()
        if self.round.current_entity is corporation:
            self.round.force_next_entity()
        for holder in list(corporation.share_holders):
            holder.shares_by_corporation.pop(corporation, None)
        self.share_pool.shares_by_corporation.pop(corporation, None)
        if corporation.share_price is not None and corporation in corporation.share_price.corporations:
            corporation.share_price.corporations.remove(corporation)
        if corporation in self.corporations:
            self.corporations.remove(corporation)
        corporation.close()
        self.cert_limit_value = self.init_cert_limit()
        self.crowded = None
        self.close_corporations_in_close_cell()

    def close_corporations_in_close_cell(self) -> bool:
        if not self.market.close_cells:
            return False
        if self.market.corporations_in_close_cells():   # (nearly always none: the corporations are not looked at)
            for corp in self.corporations:
                if not corp.closed and corp.share_price is not None and corp.share_price.type == "close":
                    self.closing_queue[corp] = True
        if self.corporations_are_closing:
            return False
        closed_any = False
        self.corporations_are_closing = True
        while self.closing_queue:
            corp = next(iter(self.closing_queue))
            del self.closing_queue[corp]
            self.close_corporation(corp)
            closed_any = True
        self.corporations_are_closing = False
        return closed_any

    def place_home_token(self, corporation) -> None:
        """Put the corporation's home token in its home city; when its home tile has several cities
        and track, the corporation chooses (a pending home-token placement)."""
        if corporation.next_token() is None:
            return
        if corporation.tokens and corporation.tokens[0].used:
            return
        where = self.board.home_token_city(corporation)
        if isinstance(where, list):
            pending = self.round.pending_tokens
            if any(p["entity"] is corporation for p in pending):
                self.round.clear_cache()
                return
            coords = corporation.coordinates
            hex_ = self.board.hex_by_id(coords[0] if isinstance(coords, list) else coords)
            self.log.append(f"{corporation.name} must choose city for home token")
            pending.append({"entity": corporation, "hexes": [hex_], "token": corporation.find_token_by_type()})
            self.round.clear_cache()
            return
        city = self.board.place_home_token(corporation, cheater_ok=self.home_token_can_be_cheater())
        if city is not None and not isinstance(city, list):
            self.log.append(f"{corporation.name} places a token on {city.hex.id}")

    def home_token_can_be_cheater(self) -> bool:
        return False

    # ================================================================== trains
    def train_limit(self, entity) -> int:
        return self.phase.train_limit(entity) + sum(a.increase or 0 for a in self.abilities(entity, "train_limit"))

    def num_corp_trains(self, entity) -> int:
        if self.rules["obsolete_trains_count_for_limit"]:
            return len(entity.trains)
        return len([t for t in entity.trains if not t.obsolete])

    def crowded_corps(self) -> list:
        if self.crowded is None:
            self.crowded = [c for c in self.minors + self.corporations
                            if c.trains and self.num_corp_trains(c) > self.train_limit(c)]
        return self.crowded

    def buy_train(self, operator, train, price=None) -> None:
        if price != "free":
            operator.spend(price if price is not None else train.price(), train.owner if train.owner is not self.depot
                           else self.bank)
        self.remove_train(train)
        train.owner = operator
        operator.trains.append(train)
        self.crowded = None
        self.close_companies_on_event(operator, "bought_train")

    def transfer(self, kind, source, target) -> list:
        """Move every ``kind`` ("trains" or "companies") of ``source`` to ``target``; returns them."""
        moved = list(getattr(source, kind))
        getattr(source, kind).clear()
        for item in moved:
            item.owner = target
            getattr(target, kind).append(item)
        if kind == "trains":
            self.crowded = None
        return moved

    def remove_train(self, train) -> None:
        owner = train.owner
        if owner is None:
            return
        if train.from_depot():
            self.depot.remove_train(train)
            return
        owner.trains.remove(train)
        self.crowded = None

    def rust(self, train) -> None:
        train.rusted = True
        self.remove_train(train)
        train.owner = None

    def rusts(self, train, purchased) -> bool:
        rusts_on = train.rusts_on
        names = rusts_on if isinstance(rusts_on, list) else ([rusts_on] if rusts_on else [])
        return purchased.sym in names or (train.obsolete_on == purchased.sym and train in self.depot.discarded)

    def rust_trains(self, purchased, entity) -> None:
        obsolete, removed, rusted, owners = [], [], [], {}
        for t in list(self.depot.trains):
            if t.obsolete or t.obsolete_on != purchased.sym:
                continue
            obsolete.append(t.name)
            t.obsolete = True
        for t in list(self.depot.trains):
            if t.rusted or not self.rusts(t, purchased):
                continue
            if t.obsolete and t.owner is self.depot:
                removed.append(t.name)
            else:
                rusted.append(t.name)
                if t.owner is not None:
                    owners[t.owner.name] = owners.get(t.owner.name, 0) + 1
            self.rust(t)
        self.crowded = None
        if obsolete:
            self.log.append(f"-- Event: {', '.join(dict.fromkeys(obsolete))} trains are obsolete --")
        if rusted:
            detail = ", ".join(f"{k} x{v}" for k, v in owners.items())
            self.log.append(f"-- Event: {', '.join(dict.fromkeys(rusted))} trains rust ({detail}) --")

    def after_buying_train(self, train, source) -> None:
        pass

    def trigger_event(self, event_type, train) -> None:
        handler = getattr(self, "event_" + event_type, None)
        if handler is None:
            raise GameError(f"Unsupported event {event_type}")
        handler()

    def must_buy_train(self, entity) -> bool:
        if entity.trains or not self.depot.depot_trains():
            return False
        rule = self.rules["must_buy_train"]
        if rule == "always":
            return True
        if rule == "route":
            return bool(self.board.route_info(entity).get("route_train_purchase"))
        return False

    def can_run_route(self, entity) -> bool:
        return bool(self.board.route_info(entity).get("route_available"))

    def route_trains(self, entity) -> list:
        return entity.runnable_trains()

    def discountable_trains_for(self, corporation) -> list:
        discountable = [t for t in self.depot.depot_trains()
                        if t.discount or any(v.get("discount") for v in t.variants.values())]
        out = []
        for train in corporation.trains:
            for dt in discountable:
                price = dt.price(train)
                if dt.price() > price:
                    out.append((train, dt, dt.name, price))
                for name, v in dt.variants.items():
                    if name == dt.name:
                        continue
                    vprice = dt.price(train, variant=v)
                    if v["price"] > vprice:
                        out.append((train, dt, name, vprice))
        return out

    # ================================================================== map
    def tile_lays(self, entity) -> list:
        return self.data["tile_lays"]

    def tile_valid_for_phase(self, tile, hex_=None) -> bool:
        return tile.color in self.phase.tiles

    def upgrades_to(self, from_tile, to_tile, special=False, selected_company=None) -> bool:
        """Whether ``to_tile`` (at its current rotation) may replace ``from_tile``; titles override.

        What an override may read: the two tiles' descriptions (``name``, ``tdef``), colours and
        labels (``label``, ``future_label``), the hex ``from_tile`` lies on (its id, its tile), the
        phase (name and tile colours) and ``special``; nothing else of the game. The track steps rely
        on it: ``Board.lay_candidates`` remembers, per hex, its tile and the phase, which supply
        tiles may replace it (``Board.replacements``), and ``old_paths_problem`` (1858 India) is
        remembered alike with the rotation checks (``Board._fitting``). A rule reading more must
        give it to that key. tests/unit/test_lay_memory.py compares the answers with the memory
        off."""
        return self.board.upgrades_to(from_tile, to_tile, special)

    def upgrade_cost(self, old_tile, hex_, entity, spender=None) -> int:
        """Terrain cost of replacing ``old_tile``, less the entity's tile discounts (logged for
        ``spender``; a preview passes no spender)."""
        if not entity.is_corporation and entity.owner is not None and entity.owner.is_corporation:
            entity = entity.owner
        discounts = [a for a in entity.all_abilities
                     if a.type == "tile_discount" and (not a.hexes or hex_.id in a.hexes)]
        cost = self.board.terrain_cost(old_tile)
        discount = 0
        for a in discounts:
            if not a.terrain or a.terrain in self.board.terrain_types(old_tile):
                discount += a.discount or 0
        discount = min(cost, discount)
        if discount > 0 and spender is not None:
            self.log.append(f"{spender.name} receives a discount of {self.fmt(discount)} from "
                            f"{', '.join(a.owner.name for a in discounts)}")
        return cost - discount

    def tile_cost_with_discount(self, tile, hex_, entity, spender, cost) -> int:
        """What a tile lay finally costs once its terrain, border and lay costs are summed (a title
        may discount it)."""
        return cost

    def hex_blocked_by_ability(self, entity, ability, hex_) -> bool:
        return hex_.id in (ability.hexes or [])

    def clear_graph(self) -> None:
        if self.board is not None:
            self.board.clear_graph()

    def train_owner(self, train):
        return train.owner

    def build_routes(self, entity, routes_json) -> list:
        """Routes of a run_routes action, validated by the board; when replaying a recorded game the
        recorded revenue is used (as 18xx.games does) and differences are noted, not rejected."""
        if not isinstance(routes_json, list):
            raise GameError("run_routes needs a list of routes")
        routes = self.board.build_routes(entity, routes_json, self.phase, strict=not self.loading)
        for route, raw in zip(routes, routes_json):
            if not isinstance(raw, dict):
                raise GameError("Each route must be an object")
            if self.loading:
                # A recorded game keeps its recorded revenue; a difference is noted, not rejected.
                recorded = raw.get("revenue")
                if isinstance(recorded, int) and recorded != route.revenue:
                    self.revenue_mismatches.append({"train": route.train.id, "recorded": recorded,
                                                    "computed": route.revenue,
                                                    "error": getattr(route, "error", None)})
                    route.revenue = recorded
            else:
                # Live play: the revenue is ours, whatever the client claimed; the log records it.
                raw["revenue"] = route.revenue
                raw["revenue_str"] = route.revenue_str
        return routes

    def best_routes(self, corporation) -> list:
        """The most profitable routes for the corporation's runnable trains, in run_routes format."""
        trains = self.route_trains(corporation)
        if not trains:
            return []
        return [r.to_json() for r in self.board.best_routes(corporation, trains, self.phase)]

    # ================================================================== routes
    def routes_revenue(self, routes) -> int:
        return sum(r.revenue for r in routes)

    def route_bonuses(self, corporation) -> list:
        """Revenue bonuses of a corporation's routes, as data the route search can price exactly
        (see engine.board.bonuses); titles override."""
        return []

    # ================================================================== player loans
    def take_player_loan(self, player, amount) -> None:
        """The bank lends ``amount`` to ``player``; the debt grows by the title's interest rate."""
        rate = self.facts.get("player_loan_interest_rate", 0)
        debt = amount + math.ceil(amount * rate / 100)
        self.bank.spend(amount, player)
        player.debt += debt
        penalty = math.ceil(amount * self.facts.get("player_loan_endgame_penalty", 0) / 100)
        player.penalty += penalty
        message = f"{player.name} takes a loan of {self.fmt(amount)} from {self.bank.name}."
        if rate:
            message += f" With {rate}% interest, the total amount owed is {self.fmt(debt)}."
        if penalty:
            message += f" {player.name} takes a game end penalty of {self.fmt(penalty)}"
        self.log.append(message)

    def add_player_loan_interest(self, player) -> None:
        if player.debt <= 0:
            return
        rate = self.facts.get("player_loan_interest_rate", 0)
        added = math.ceil(player.debt * rate / 100)
        player.debt += added
        self.log.append(f"{player.name} increases their loan by {rate}% ({self.fmt(added)}) to {self.fmt(player.debt)}")

    def payoff_player_loan(self, player, amount=None) -> None:
        amount = min(player.cash if amount is None else min(amount, player.cash), player.debt)
        if amount <= 0:
            raise GameError(f"{player.name} has nothing to pay off a loan with")
        player.spend(amount, self.bank)
        player.debt -= amount
        if player.debt == 0:
            self.log.append(f"{player.name} pays off their loan of {self.fmt(amount)}.")
        else:
            self.log.append(f"{player.name} pays {self.fmt(amount)} toward their loan. {self.fmt(player.debt)} is still "
                            "owed.")

    # ================================================================== bankruptcy
    def declare_bankrupt(self, player) -> None:
        if player.bankrupt:
            raise GameError(f"{player.name} is already bankrupt")
        player.bankrupt = True
        if self.rules["cert_limit_change_on_bankruptcy"]:
            self.cert_limit_value = self.init_cert_limit()

    def can_go_bankrupt(self, player, corporation) -> bool:
        if not self.rules["bankruptcy_allowed"]:
            return False
        return self.total_emr_buying_power(player, corporation) < self.depot.min_depot_price()

    def total_emr_buying_power(self, player, corporation) -> int:
        power = self.liquidity(player, emergency=True)
        if corporation is not None:
            power += corporation.cash
        return power


_ABILITY_STEP_KINDS: tuple = ()
_CURRENCY_PARTS: dict = {}   # a title's money format -> the text around its placeholders (Game.fmt)


def _ability_step_kinds() -> tuple:
    """The kinds of step whose moment an ability's "current step" names (found once: the flow
    package imports this module)."""
    global _ABILITY_STEP_KINDS
    from .flow import steps as S
    _ABILITY_STEP_KINDS = (S.TrackerMixin, S.TokenStep, S.RouteStep, S.DividendStep, S.BuyTrainStep)
    return _ABILITY_STEP_KINDS
