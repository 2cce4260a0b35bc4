"""The stock round service: owns every game while its current round is of kind `stock_round`.

A thin adapter: runtime.owner holds the owner logic (engines, decisions, views, queries,
checkpoints) and the engine decides every rule.
"""

from runtime.owner import Owner
from runtime.service import Context, Service

NAME = "stock_round"


def build(ctx: Context) -> Service:
    return Service(NAME, Owner(NAME, ctx), group=ctx.settings.group(NAME), engines=True)
