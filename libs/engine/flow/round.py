"""Rounds: an ordered list of entities taking turns, and the pipeline of steps they act through."""

from __future__ import annotations

from ..core.entities import sort_corporations
from ..errors import GameError
from ..journal import Tracked
from .step import DEFAULT_STEPS, Step


class Round(Tracked):
    JOURNAL_FIXED = frozenset(("_offered",))   # (replaced, never changed in place: engine.journal)
    kind = ""            # auction | stock_round | operating_round (the service that owns it)
    short_name = ""      # as in round labels: ISR, SR, OR, DR
    name = ""

    def __init__(self, game, steps, round_num=1):
        self.game = game
        self.log = game.log
        self.entity_index = 0
        self.round_num = round_num
        self.entities = self.select_entities()
        self.last_to_act = None
        self.pass_order = []
        self.at_start = False
        self._active_step = None
        self._offered = None   # (active step, its entity, what it offers that entity), as skipping or the lookup found
        self._none_active = False   # skipping found no step that could be active
        self._by_class = None   # step class -> the round's steps of that class (once all are made)
        self.steps = []
        for spec in list(DEFAULT_STEPS) + list(steps):
            cls, opts = (spec if isinstance(spec, tuple) else (spec, {}))
            step = cls(game, self, **opts)
            for key, value in step.round_state().items():
                setattr(self, key, value)
            game.next_turn()
            step.setup()
            self.steps.append(step)
        self._by_class = {}
        self._plan = _plan(self.steps)
        self._blocking_plan = tuple(p for p in self._plan if p[2] != 0 or p[3])
        self._plans_by_kind = {}   # action type -> which steps of the plan could process it (_plan_for)

    # ------------------------------------------------------------ entities
    def select_entities(self) -> list:
        raise NotImplementedError

    @property
    def current_entity(self):
        ents = self.active_entities()
        return ents[0] if ents else None

    def active_entities(self) -> list:
        step = self.active_step()
        return step.active_entities() if step is not None else []

    def setup(self) -> None:
        pass

    # ------------------------------------------------------------ steps
    def clear_cache(self) -> None:
        self._active_step = None
        self._offered = None
        self._none_active = False

    def active_step(self, entity=None):
        if entity is not None:
            for step in self.steps:
                if step.active() and (entity.is_company or step.blocking()) and step.actions(entity):
                    return step
            return None
        # Remembered until the cache is cleared; a missing step is looked up again unless skipping
        # found that every step was passed or blocks nothing.
        if self._active_step is None and not self._none_active:
            self._look_up_active_step()
        return self._active_step

    def _look_up_active_step(self) -> None:
        """The first step that is active and blocking; what it offers its entity is kept as skipping
        keeps it (for the next action, and for skipping right after, when nothing changed between)."""
        for step, plain_active, blocks, own_blocking in self._blocking_plan:
            if step.passed if plain_active else not step.active():
                continue
            if own_blocking:
                if step.blocking():
                    self._active_step = step
                    return
            elif step.blocks() if blocks is None else blocks:   # (blocks, and has something to do)
                offered = step.current_offers()
                if offered:
                    self._active_step = step
                    self._offered = (step, step.current_entity(), offered)
                    return

    def step_passed(self, step_class) -> bool:
        for s in self.steps_of(step_class):
            if s.passed:
                return True
        return False

    def step_of(self, step_class):
        found = self.steps_of(step_class)
        return found[0] if found else None

    def steps_of(self, step_class) -> list:
        """The round's steps of ``step_class`` (a class or a tuple of classes, as ``isinstance``
        takes; a round's steps never change once made)."""
        known = self._by_class
        found = known.get(step_class) if known is not None else None
        if found is None:
            found = [s for s in self.steps if isinstance(s, step_class)]
            if known is not None:
                known[step_class] = found
        return found

    def actions_for(self, entity) -> list:
        out = []
        if entity is None:
            return out
        for step in self.steps:
            if not step.active():
                continue
            for a in step.actions(entity):
                if a not in out:
                    out.append(a)
            if step.blocking():
                break
        return out

    def step_for(self, entity, action_type):
        if entity is None:
            return None
        for step in self.steps:
            if not step.active():
                continue
            if action_type in step.actions(entity):
                return step
            if step.blocking():
                break
        return None

    def process_action(self, action) -> None:
        # What the active step offered when skipping (or the lookup of the active step) stopped at
        # it: nothing has changed since (any change clears it), so the step is not asked again. The
        # cache stays while the steps are asked (a before_process that changes the game clears it).
        known = self._offered
        if self.game.finished and action.type != "message":
            raise GameError(f"The game is over; cannot {action.type.replace('_', ' ')}")
        self.before_process(action)
        handler = None
        entity = action.entity
        kind = action.type
        plan = self._plans_by_kind.get(kind)
        if plan is None:
            plan = self._plans_by_kind[kind] = _plan_for(self._plan, kind)
        # The steps before the active step were found not blocking when it was found; with nothing
        # changed since, those that cannot process this action need not be asked at all.
        before = self._offered[0] if self._offered is not None else None
        steps = self._plan
        for index, handles in plan:
            step, plain_active, blocks, own_blocking = steps[index]
            if before is not None:
                if step is before:
                    before = None
                elif not handles:
                    continue
            if step.passed if plain_active else not step.active():
                continue
            if blocks is None:
                blocks = step.blocks()
            if not blocks and not own_blocking and not handles:
                continue   # a step on the side that could not process this action: no need to ask it
            if known is not None and step is known[0] and entity is known[1]:
                offered = known[2]
            else:
                offered = step.offers(entity)
            accepts = kind in offered
            if own_blocking:
                blocking = step.blocking()
            elif not blocks:
                blocking = False
            elif step.current_entity() is entity and not entity.closed:
                blocking = bool(offered)  # the step waits for this very entity: reuse its actions
            else:
                blocking = step.blocking()
            if blocking and not accepts:
                raise GameError(self._refusal(step, action))
            if blocking or accepts:
                handler = step
                break
        if handler is None:
            raise GameError(f"{action.entity.name} cannot {action.type.replace('_', ' ')} now")
        self.clear_cache()
        handler.acted = True
        process = getattr(handler, "process_" + action.type, None)
        if process is None:
            raise GameError(f"{action.type} is not supported here")
        process(action)
        self.at_start = False
        self.after_process_before_skip(action)
        self.clear_cache()
        self.skip_steps()
        self.after_process(action)

    def _refusal(self, step, action) -> str:
        waiting = step.current_entity()
        allowed = ", ".join(step.current_actions()) or "nothing"
        who = waiting.name if waiting is not None else "nobody"
        if waiting is not None and waiting is not action.entity:
            return (f"It is not {action.entity.name}'s turn to {action.type.replace('_', ' ')}: "
                    f"waiting for {who} ({step.description}: {allowed})")
        return f"{step.description}: {who} may {allowed}, not {action.type.replace('_', ' ')}"

    def auto_actions(self):
        entity = self.current_entity
        step = self.active_step(entity) if entity is not None else None
        return step.auto_actions(entity) if step is not None else None

    def finished(self) -> bool:
        return self.active_step() is None

    def skip_steps(self) -> None:
        """Skip (pass) the blocking steps that have nothing to do, up to the first that has; that step
        is then the active step (remembered, so that the round does not ask it again). What the first
        step asked offers is taken from the cache when the last lookup of the active step found it
        (nothing having changed since)."""
        known = self._offered
        self.clear_cache()
        plan = self._blocking_plan
        found = offered = None
        # Whether the steps before the current one are known to block nothing: true while every one
        # was passed or blocks nothing in the way every step answers ``blocking``, and nothing skipped.
        clear = True
        for index, (step, plain_active, blocks, own_blocking) in enumerate(plan):
            if step.passed if plain_active else not step.active():
                continue
            if not (step.blocks() if blocks is None else blocks):
                # (a step answering ``blocking`` its own way may block all the same: asked now, its
                # answer holds as long as nothing is skipped, after which all are asked again)
                if own_blocking and clear and step.blocking():
                    clear = False
                continue
            ents = self.entities
            if self.entity_index < len(ents) and ents[self.entity_index].closed:
                clear = False
                continue
            if not own_blocking:   # (blocks, and has something to do)
                if known is not None and step is known[0] and step.current_entity() is known[1]:
                    offered = known[2]
                else:
                    offered = step.current_offers()
                blocking = bool(offered)
            else:
                offered = None
                blocking = step.blocking()
            known = None   # (only the first step asked: a skip may change what the next ones say)
            if blocking:
                if clear or _before_not_blocking(plan, index):
                    found = step
                break
            step.skip()
            self.clear_cache()   # (what the steps said before the skip may have changed)
            clear = False
        else:
            self._none_active = clear or _before_not_blocking(plan, len(plan))
        self._active_step = found
        if found is not None and offered is not None:
            self._offered = (found, found.current_entity(), offered)

    def goto_entity(self, entity) -> None:
        self.game.next_turn()
        self.entity_index = self.entities.index(entity)

    def next_entity_index(self) -> None:
        self.game.next_turn()
        self.entity_index = (self.entity_index + 1) % len(self.entities)

    def reset_entity_index(self) -> None:
        self.game.next_turn()
        self.entity_index = 0

    # ------------------------------------------------------------ hooks
    def before_process(self, action) -> None:
        pass

    def after_process_before_skip(self, action) -> None:
        pass

    def after_process(self, action) -> None:
        pass

    @property
    def is_operating(self) -> bool:
        return False

    @property
    def is_stock(self) -> bool:
        return False

    @property
    def is_auction(self) -> bool:
        return False

    @property
    def label(self) -> str:
        return f"{self.short_name} {self.game.turn}"

    def __repr__(self):
        return f"<{type(self).__name__} {self.label}>"


_HANDLES = {}


def _handles(step_class, kind) -> bool:
    """Whether steps of ``step_class`` have a ``process_<kind>`` method (remembered per class)."""
    key = (step_class, kind)
    found = _HANDLES.get(key)
    if found is None:
        found = _HANDLES[key] = callable(getattr(step_class, "process_" + kind, None))
    return found


# ``blocks`` of the steps on the side that never block (ending the game, programmed actions, powers
# and exchanges used beside the other steps)
_NEVER_BLOCKS = (Step.blocks_nothing,)


def _plan(steps) -> tuple:
    """Per step, (step, whether it is active exactly when not passed, what it answers ``blocks``:
    True always, False never, None to be asked (a ``for_life`` answer is asked here, once), whether
    it answers ``blocking`` its own way): what the loops over a round's steps need to know of each
    step, found once per round instead of at every action. The round's ``_blocking_plan`` leaves out the steps that never block and
    answer ``blocking`` as every step does: they are never the active step and never stand before
    it, so only ``process_action`` asks them (about the actions they process)."""
    out = []
    for s in steps:
        cls = type(s)
        blocks = _class_blocks(cls)
        if blocks is None and getattr(cls.blocks, "for_life", False):
            blocks = bool(s.blocks())   # (the step's answer for its life: asked once)
        out.append((s, cls.active is Step.active, blocks, cls.blocking is not Step.blocking))
    return tuple(out)


def _class_blocks(cls):
    """What steps of class ``cls`` answer ``blocks``, as far as the class says: True always, False
    never, None to be asked (of each step, or once per step for a ``for_life`` answer)."""
    return True if cls.blocks is Step.blocks else False if cls.blocks in _NEVER_BLOCKS else None


_PLANS_FOR = {}   # (the plan's step classes, action type) -> ((index in the plan, handles), ...)


def _plan_for(plan, kind) -> tuple:
    """Which entries of ``plan`` actions of type ``kind`` go through: (index in the plan, whether its
    step has ``process_<kind>``) per entry, without the steps that never block, answer ``blocking``
    as every step does and have no ``process_<kind>`` (they can neither take nor refuse such an
    action). Which entries those are follows from the steps' classes alone, so it is found once per
    sequence of classes and type, and every round of a kind shares it (a round makes no tuples of
    its own for it, which would only be garbage for the collector once the round is over)."""
    key = (tuple(type(p[0]) for p in plan), kind)
    chosen = _PLANS_FOR.get(key)
    if chosen is None:
        found = []
        for index, p in enumerate(plan):
            cls = type(p[0])
            handles = _handles(cls, kind)
            if _class_blocks(cls) is not False or p[3] or handles:
                found.append((index, handles))
        chosen = _PLANS_FOR[key] = tuple(found)
    return chosen


def _before_not_blocking(plan, index) -> bool:
    """Whether none of the first ``index`` steps of ``plan`` is blocking (so that the next, if
    blocking, is the active step): each is passed, blocks nothing (for a step that answers
    ``blocking`` as every step does), or answers ``blocking`` false (a step that answers it its own
    way). Asked once the round has skipped steps, since a skip may change what the steps before say."""
    for step, plain_active, blocks, own_blocking in plan[:index]:
        if step.passed if plain_active else not step.active():
            continue
        if step.blocking() if own_blocking else (step.blocks() if blocks is None else blocks):
            return False
    return True


class AuctionRound(Round):
    kind = "auction"
    short_name = "ISR"
    name = "Auction Round"

    def select_entities(self):
        return self.game.players

    @property
    def is_auction(self):
        return True


class DraftRound(Round):
    """Players in turn take private companies (see ``DraftStep``) until every company is taken or
    every player has passed. ``reverse_first``: the first pass goes in reverse seat order, later
    passes in seat order (the last player of the first pass is the first of the second)."""

    kind = "auction"
    short_name = "DR"
    name = "Draft Round"

    def __init__(self, game, steps, round_num=1, *, reverse_first=False):
        self.reverse_first = reverse_first
        super().__init__(game, steps, round_num)

    def select_entities(self):
        players = [p for p in self.game.players if not p.bankrupt]
        return list(reversed(players)) if self.reverse_first else players

    @property
    def label(self):
        return f"{self.short_name} {self.game.turn}.{self.round_num}"

    @property
    def is_auction(self):
        return True

    def next_entity_index(self):
        if self.reverse_first and self.entity_index == len(self.entities) - 1:
            self.entities.reverse()
            self.reverse_first = False
        super().next_entity_index()

    def setup(self):
        self.skip_steps()
        if self.active_step() is None:
            self.next_entity()

    def after_process(self, action):
        if self.active_step() is None:
            self.next_entity()

    def draft_step(self):
        return next((s for s in self.steps if hasattr(s, "all_drafted")), None)

    def all_drafted(self) -> bool:
        step = self.draft_step()
        return step is None or step.all_drafted()

    def finished(self) -> bool:
        return self.game.finished or self.all_drafted() or all(e.passed for e in self.entities)

    def next_entity(self):
        self.next_entity_index()
        if self.finished():
            return
        for step in self.steps:
            step.unpass()
        self.clear_cache()
        self.skip_steps()
        if self.active_step() is None:
            self.next_entity()


class StockRound(Round):
    kind = "stock_round"
    short_name = "SR"
    name = "Stock Round"

    def select_entities(self):
        return [p for p in self.game.players if not p.bankrupt]

    @property
    def is_stock(self):
        return True

    def setup(self):
        self.skip_steps()
        if self.active_step() is None:
            self.next_entity()

    def after_process(self, action):
        if self.active_step() is not None:
            return
        self.next_entity()

    def finished(self):
        return self.game.finished or all(e.passed for e in self.entities)

    def next_entity(self):
        if self.finished():
            # Move once more so the round ends pointing at the priority holder.
            self.next_entity_index()
            self.finish_round()
            return
        self.next_entity_index()
        self.start_entity()

    def start_entity(self):
        for step in self.steps:
            step.unpass()
        for step in self.steps:
            step.setup()
        self.clear_cache()   # a new entity: what the previous one could do says nothing about it
        self.skip_steps()
        if self.active_step() is None:
            self.next_entity()

    def corporations_to_move_price(self):
        return [c for c in self.game.corporations if c.floated() and c.type != "minor"]

    def finish_round(self):
        game = self.game
        for corp in sort_corporations(self.corporations_to_move_price()):
            if corp.share_price is None:
                continue
            old = corp.share_price
            if game.sold_out(corp) and game.rules["sold_out_increase"]:
                game.market.move_up(corp)
            drop = game.rules["pool_share_drop"]
            if drop != "none" and corp.num_market_shares() > 0:
                if drop == "down_block":
                    game.market.move_down(corp)
                elif drop == "down_share":
                    for _ in range(corp.num_market_shares()):
                        game.market.move_down(corp)
                elif drop == "left_block":
                    game.market.move_left(corp)
            game.log_share_price(corp, old)


class ChoicesRound(Round):
    """A short round in which some players make the choices their companies offer (e.g. between a stock
    round and the operating rounds); its entities come from ``game.choices_entities()``."""

    kind = "stock_round"
    short_name = "Choices"
    name = "Choices"

    def select_entities(self):
        return self.game.choices_entities()


class OperatingRound(Round):
    kind = "operating_round"
    short_name = "OR"
    name = "Operating Round"

    def select_entities(self):
        return self.game.operating_order()

    @property
    def is_operating(self):
        return True

    @property
    def label(self):
        return f"OR {self.game.turn}.{self.round_num}"

    def setup(self):
        self.current_operator = None
        self.current_operator_acted = False
        game = self.game
        game.payout_companies()
        if game.rules["home_token_timing"] == "operating_round":
            for entity in self.entities:
                game.place_home_token(entity)
        for entity in self.entities:
            for train in entity.trains:
                train.set_operated(False)
        for e in game.corporations + game.minors + game.companies:
            e.reset_ability_count_this_or()
        self.after_setup()

    def after_setup(self):
        if self.any_to_act():
            self.start_operating()

    def any_to_act(self) -> bool:
        entities = self.entities
        index = self.entity_index
        if index < len(entities) and not self.skip_entity(entities[index]):
            return True   # (the usual answer: the entity operating now)
        return any(not self.skip_entity(e) for e in entities)

    def skip_entity(self, entity) -> bool:
        return entity.closed

    def after_process(self, action):
        if action.type == "message":
            return
        if action.entity.corporation is self.current_operator and not self.current_operator_acted:
            self.current_operator_acted = True
            self._offered = None   # (some powers may be used only before the operator acts)
        if self.active_step() is not None:
            entity = self.entities[self.entity_index]
            owner = entity.owner
            if (owner is not None and owner.is_player) or entity.receivership:
                return
        self._offered = None   # (the turn's end may change what the steps say)
        self._none_active = False
        self.after_end_of_turn(self.current_operator)
        if not self.game.finished:
            self.next_entity()

    def after_end_of_turn(self, operator):
        self.game.after_end_of_operating_turn(operator)

    def force_next_entity(self):
        for step in self.steps:
            step.pass_()
        self.next_entity()
        self.clear_cache()

    def next_entity(self):
        if self.entity_index == len(self.entities) - 1:
            return
        self.next_entity_index()
        if self.skip_entity(self.entities[self.entity_index]):
            return self.next_entity()
        for step in self.steps:
            step.unpass()
        for step in self.steps:
            step.setup()
        self.start_operating()

    def start_operating(self):
        entity = self.entities[self.entity_index]
        if self.skip_entity(entity):
            return self.next_entity()
        self.current_operator = entity
        self.current_operator_acted = False
        if not self.finished():
            self.log.append(f"{self.game.acting_for_entity(entity).name} operates {entity.name}")
        if self.game.rules["home_token_timing"] == "operate":
            self.game.place_home_token(entity)
            self.clear_cache()   # (a token changes what the steps offer)
        self.skip_steps()
        if not self.finished():
            return
        self.after_end_of_turn(entity)
        self.next_entity()

    def recalculate_order(self):
        keep = self.entities[: self.entity_index + 1]
        rest = self.entities[self.entity_index + 1:]
        self.entities = keep + [e for e in self.game.operating_order() if e in rest]

    def finished(self):
        done = self.active_step() is None or not self.any_to_act()
        if done:
            self.current_operator = None
        return done
