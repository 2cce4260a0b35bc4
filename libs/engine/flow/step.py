"""A step: one stage of a round that accepts some action types from some entities.

A round asks its steps in order. A step that is *active* (not passed) and *blocking* (it blocks and
the entity it waits for has something to do) must handle the next action; non-blocking steps accept
actions on the side (private-company powers, ending the game). A step processes an action of type
``t`` in its method ``process_t``: a round does not ask a non-blocking step without one about it.
"""

from __future__ import annotations

from ..errors import GameError
from ..journal import Tracked


def for_life(method):
    """Marks a step's ``blocks`` whose answer depends only on how the step was made (its options),
    never on the game: a round asks it once, when it makes the step. (A subclass that overrides
    ``blocks`` is asked as usual unless it marks its own.)"""
    method.for_life = True
    return method


class Step(Tracked):
    ACTIONS: tuple = ()
    description = ""
    pass_description = "Pass"

    def __init__(self, game, round_, **opts):
        self.game = game
        self.round = round_
        self.log = game.log
        self.opts = opts
        self.acted = False
        self.passed = False

    # ------------------------------------------------------------ what it accepts
    def actions(self, entity) -> list:
        return []

    def auto_actions(self, entity):
        return None

    def round_state(self) -> dict:
        return {}

    def setup(self) -> None:
        pass

    def blocks(self) -> bool:
        return True

    def blocks_nothing(self) -> bool:
        """``blocks`` of a step that never blocks (``blocks = Step.blocks_nothing``): a round knows it
        from the step's class, and asks such a step only about the actions it processes."""
        return False

    def blocking(self) -> bool:
        return self.blocks() and bool(self.current_offers())

    def active(self) -> bool:
        return not self.passed

    def active_entities(self) -> list:
        entities = self.round.entities
        idx = self.round.entity_index
        return [entities[idx]] if idx < len(entities) else []

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls._round_entity = cls.active_entities is Step.active_entities

    _round_entity = True   # whether the step's entities are the round's current one (as ``Step``'s)

    def current_entity(self):
        if self._round_entity:   # (the round's entity, without a list)
            entities = self.round.entities
            idx = self.round.entity_index
            return entities[idx] if idx < len(entities) else None
        ents = self.active_entities()
        return ents[0] if ents else None

    def current_actions(self) -> list:
        entity = self.current_entity()
        if entity is None or entity.closed:
            return []
        return self.actions(entity)

    def offers(self, entity):
        """What the step offers ``entity``, for the round's own two questions: whether there is
        anything (``bool``) and whether an action type is among it (``in``). ``actions(entity)``
        unless the step works those answers out only as far as they are asked (see
        ``flow.steps.stock``); the round keeps the answer only while nothing changes."""
        return self.actions(entity)

    def current_offers(self):
        """``offers`` for the step's current entity (as ``current_actions``)."""
        entity = self.current_entity()
        if entity is None or entity.closed:
            return []
        return self.offers(entity)

    # ------------------------------------------------------------ passing
    def pass_(self) -> None:
        self.passed = True

    def unpass(self) -> None:
        self.passed = False
        self.acted = False

    def log_pass(self, entity) -> None:
        self.log.append(f"{entity.name} passes {self.description.lower()}")

    def log_skip(self, entity) -> None:
        self.log.append(f"{entity.name} skips {self.description.lower()}")

    def process_pass(self, action) -> None:
        self.log_pass(action.entity)
        self.pass_()

    def skip(self) -> None:
        entity = self.current_entity()
        if not self.acted and entity is not None:
            self.log_skip(entity)
        self.pass_()

    def buying_power(self, entity) -> int:
        return self.game.buying_power(entity)

    def help(self) -> str:
        return ""

    def __repr__(self):
        return f"<{type(self).__name__}>"


class Offer(Tracked):
    """What ``step`` offers ``entity``, each condition asked only when the round needs its answer
    (skipping needs only whether there is anything, and the first condition that holds settles it;
    an action only whether its own type is offered), and each at most once. ``spec`` is
    ``(options, only, listing)``: ``options`` pairs each action type with the name of the step's
    method telling whether it is offered to an entity, the cheaper first (``bool`` asks them in that
    order); ``pass`` is offered with any of them. ``only``, if not None, is ``(kind, method name)``:
    when ``kind`` is offered and that method says so, ``kind`` is all that is offered (a forced sale).
    ``listing`` names the method listing the offer as ``actions`` does (for iteration). Names rather
    than functions, so that a state holding an offer can be copied. The round keeps an offer only
    while nothing in the game changes."""

    __slots__ = ("step", "entity", "spec", "_answers")

    def __init__(self, step, entity, spec):
        self.step = step
        self.entity = entity
        self.spec = spec
        self._answers = {}

    def _has(self, kind) -> bool:
        answers = self._answers
        found = answers.get(kind)
        if found is None:
            for option, name in self.spec[0]:
                if option == kind:
                    found = bool(getattr(self.step, name)(self.entity))
                    break
            else:
                found = False
            answers[kind] = found
        return found

    def _forced(self) -> bool:
        only = self.spec[1]
        if only is None:
            return False
        answers = self._answers
        found = answers.get(None)
        if found is None:
            # (the method first: it is meant for an entity known to be offered ``kind``, but its answer
            # counts only when that holds, and it is nearly always the cheaper question and false)
            found = answers[None] = bool(getattr(self.step, only[1])(self.entity)) and self._has(only[0])
        return found

    def __bool__(self) -> bool:
        # (a forced kind is among the options and holds: there is something exactly when any holds)
        return any(self._has(kind) for kind, _ in self.spec[0])

    def __contains__(self, kind) -> bool:
        if self._forced():
            return kind == self.spec[1][0]
        if kind == "pass":
            return bool(self)
        return self._has(kind)

    def __iter__(self):
        return iter(getattr(self.step, self.spec[2])(self.entity))


class EndGameStep(Step):
    """Ends the game by agreement (the 'end_game' action); available to any non-company entity."""

    description = "End the game"

    def actions(self, entity):
        return [] if entity.is_company else ["end_game"]

    blocks = Step.blocks_nothing

    def process_end_game(self, action):
        self.log.append(f"Game ended manually by {action.entity.name}")
        self.game.end_game("manually_ended")


class SideStep(Step):
    """A step that is always available beside the others: it is never passed or skipped."""

    def skip(self):
        pass

    def pass_(self):
        pass

    def unpass(self):
        pass


class MessageStep(SideStep):
    """Chat messages: accepted from players at any time; they never change the game."""

    description = "Message"

    def actions(self, entity):
        return ["message", "log"] if entity.is_player else []

    def process_message(self, action):
        self.log.append(f"{action.entity.name}: {action.raw.get('message', '')}")

    process_log = process_message

    def blocks(self):
        return self.game.finished


class ProgramStep(SideStep):
    """Programmed (automatic) actions a player can arm, e.g. auto-pass. Recorded and honoured as data."""

    description = "Programmed actions"
    PROGRAM_TYPES = ("program_auction_bid", "program_buy_shares", "program_independent_mines",
                     "program_merger_pass", "program_harzbahn_draft_pass", "program_share_pass",
                     "program_close_pass", "program_disable")

    def actions(self, entity):
        return list(self.PROGRAM_TYPES) if entity.is_player else []

    blocks = Step.blocks_nothing

    def _enable(self, action):
        programs = self.game.programmed_actions.setdefault(action.entity, [])
        if programs:
            programs.pop()
        program = dict(action.raw)
        program.setdefault("id", action.seq)
        programs.append(program)
        hook = getattr(self.round, "player_enabled_program", None)
        if hook is not None:
            hook(action.entity)

    def _disable(self, action):
        programs = self.game.programmed_actions.get(action.entity)
        if programs:
            programs.pop()


for _kind in ProgramStep.PROGRAM_TYPES:   # a handler for each kind of program
    setattr(ProgramStep, "process_" + _kind, ProgramStep._disable if _kind == "program_disable" else ProgramStep._enable)


DEFAULT_STEPS = (EndGameStep, MessageStep, ProgramStep)


def require(condition, reason: str) -> None:
    """Reject the action with ``reason`` unless ``condition`` holds."""
    if not condition:
        raise GameError(reason)
