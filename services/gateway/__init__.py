"""The gateway: the public gRPC API (roundhouse.v1.Gateway) over the game log.

It authenticates callers by seat token, appends commands, and answers from a read model built by
reading every partition of the log (services.gateway.readmodel): the games' ledgers and the views
their owners publish. It holds no engine and never decides game state; any number of gateways can
serve side by side.
"""

from __future__ import annotations

from runtime.service import Context, Service
from runtime.worker import Worker

NAME = "gateway"


def build(ctx: Context) -> Service:
    from services.gateway.readmodel import ReadModel
    from services.gateway.server import serve

    model = ReadModel(ctx)
    # (its engine processes check new games' set-up and replay imports)
    # (callers wait on what it reads: its games log and replies consumers fetch every
    # kafka_answer_batch_ms under load, its views consumer every kafka_view_batch_ms)
    service = Service(NAME, model, group=ctx.settings.group(NAME), all_partitions=True, engines=True, answers=True)

    async def start(worker: Worker, health_services: list[str]):
        address, service.web_url, stop = await serve(ctx, worker, model, health_services)
        service.address.append(address)
        return stop

    service.start = start
    return service
