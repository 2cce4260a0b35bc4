"""Choices offered by private companies: a power used by choosing one option (``choose_ability``
from the company during another step), and the choices round's step (``choose`` by a player for a
company he owns). The options come from the game: ``game.company_choices(company, time)`` ->
{choice: label}, and ``game.company_made_choice(company, choice, time)`` applies one."""

from __future__ import annotations

from ...errors import GameError
from ..step import Step


class ChooseAbilityMixin:
    """Mixin for a step during which companies may use a choice power (``choice_time`` names the
    moment, e.g. "track" or "stock_round")."""

    choice_time = ""

    def choices_ability(self, entity) -> dict:
        if entity is None or not entity.is_company or entity.closed:
            return {}
        return self.game.company_choices(entity, self.choice_time)

    def process_choose_ability(self, action):
        company, choice = action.entity, action.raw.get("choice")
        if choice not in self.choices_ability(company):
            raise GameError(f"{choice!r} is not a choice of {company.name} now")
        self.game.company_made_choice(company, choice, self.choice_time)


class ChoicesStep(Step):
    """A player makes the choice one of his companies offers (time "choose"), or passes."""

    ACTIONS = ["choose", "pass"]
    description = "Choose"
    choice_time = "choose"
    company_id = None    # the company whose choice this is (None: any company of the player offering one)

    def company(self, entity):
        if entity is None or not entity.is_player:
            return None
        if self.company_id is not None:
            company = self.game.company_by_id(self.company_id)
            return company if company is not None and company.owner is entity else None
        return next((c for c in entity.companies if self.game.company_choices(c, self.choice_time)), None)

    def actions(self, entity):
        if entity is not self.current_entity() or self.company(entity) is None:
            return []
        return list(self.ACTIONS)

    def choices(self, entity) -> dict:
        company = self.company(entity)
        return {"choose": self.game.company_choices(company, self.choice_time) if company is not None else {}}

    def process_choose(self, action):
        company = self.company(action.entity)
        choice = action.raw.get("choice")
        if company is None or choice not in self.game.company_choices(company, self.choice_time):
            raise GameError(f"{choice!r} is not a choice of {action.entity.name} now")
        self.game.company_made_choice(company, choice, self.choice_time)
        self.after_choice()

    def after_choice(self):
        self.pass_()

    def skip(self):
        self.pass_()
