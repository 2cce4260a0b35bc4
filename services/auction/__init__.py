"""The auction service: owns every game while its current round is of kind `auction`.

A thin adapter: runtime.decider holds the owner logic and the engine decides every rule.
"""

from runtime.decider import Decider
from runtime.config import Settings

NAME = "auction"


def hooks(settings: Settings) -> Decider:
    return Decider(NAME, command_wait_s=settings.command_wait_s)
