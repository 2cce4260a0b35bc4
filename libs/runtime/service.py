"""What a service package gives the runtime: `services.<name>.build(ctx) -> Service`.

The runtime knows services by name only (runtime.config.SERVICES): runtime.app imports the
service's package by that name and runs what `build` returns. Each service package holds what is
its own; what several share (the owner logic of the round services, the consumer loop) lives here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from runtime.worker import Hooks

# Called once the service's worker caught up: starts what it serves (the gateway's gRPC API) and
# returns a stopper; `start(worker)` -> `stop(grace)`.
Starter = Callable[..., Awaitable[Callable[[float], Awaitable[None]]]]


@dataclass
class Service:
    name: str
    hooks: Hooks
    group: str | None                  # its consumer group (commits); None: no commits
    all_partitions: bool = False       # read every partition (not a member of the group)
    engines: bool = False              # it uses engine processes (started with the service)
    start: Starter | None = None       # what it serves once caught up (otherwise: gRPC health only)
    address: list[str] = field(default_factory=list)   # where it serves, once started
