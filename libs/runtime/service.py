"""What a service package gives the runtime: `services.<name>.build(ctx) -> Service`.

The runtime knows services by name only (runtime.commandline.SERVICES): runtime.app imports the
service's package by that name and runs what `build` returns. Each service package holds what is
its own; what several share (the owner logic of the round services, the consumer loop) lives in
the runtime, and a Context holds what the services of one process share.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bus.base import Log
from runtime.config import Settings
from runtime.engines import EngineHost
from runtime.worker import Hooks


@dataclass
class Context:
    """What the services of one process share: settings, the log, the engine host, and which round
    kinds are owned in this process (their engines stay in place when a game changes hands)."""

    settings: Settings
    log: Log
    engines: EngineHost | None = None
    local_kinds: set[str] = field(default_factory=set)
    # game -> (until when, with legal actions): someone reads it, so its owner publishes its view
    # after every action instead of waiting to be asked (shared by the owners of this process)
    readers: dict[str, tuple[float, bool]] = field(default_factory=dict)


# Called once the service's worker caught up: starts what it serves (the gateway's gRPC API) and
# returns a stopper; `start(worker)` -> `stop(grace)`.
Starter = Callable[..., Awaitable[Callable[[float], Awaitable[None]]]]


@dataclass
class Service:
    name: str
    hooks: Hooks
    group: str | None                  # its consumer group (commits); None: no commits
    all_partitions: bool = False       # read every partition (not a member of the group)
    answers: bool = False              # callers wait on what it reads (consumers: kafka_answer_batch_ms)
    engines: bool = False              # it uses engine processes (started with the service)
    start: Starter | None = None       # what it serves once caught up (otherwise: gRPC health only)
    address: list[str] = field(default_factory=list)   # where it serves, once started
    web_url: str | None = None         # the web client it serves, once started (the gateway)
