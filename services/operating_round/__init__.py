"""The operating round service: owns every game while its current round is of kind `operating_round`.

A thin adapter: runtime.decider holds the owner logic and the engine decides every rule.
"""

from runtime.decider import Decider
from runtime.config import Settings

NAME = "operating_round"


def hooks(settings: Settings) -> Decider:
    return Decider(NAME, command_wait_s=settings.command_wait_s)
