"""Running services: all in one process (`roundhouse serve`) or one per process (`roundhouse service`).

The same classes run in both shapes; only the log differs (embedded SQLite or Kafka). Services are
known by name: `services.<name>` is imported when a process runs it, and its `build(ctx)` says what
it is (runtime.service.Service). The services of one process share the log and one engine host, so
a game changing hands between two round services of the same process keeps its engine in place.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import signal
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

import grpc

from bus.base import Log, Topic
from bus.embedded import EmbeddedLog
from bus.kafka import KafkaLog
from runtime import collector, health, metrics
from runtime.commandline import SERVICES
from runtime.config import DEFAULT_HEALTH_PORT, DEFAULT_METRICS_PORT, Settings
from runtime.engines import EngineHost
from runtime.service import Context, Service
from runtime.worker import Worker

log = logging.getLogger(__name__)
LAG_PROBE_S = 0.1
T = TypeVar("T")


def topics(settings: Settings) -> list[Topic]:
    return [
        Topic(settings.games_topic, "log"),
        Topic(settings.snapshots_topic, "compact"),
        Topic(settings.states_topic, "compact"),
        Topic(settings.views_topic, "compact", derived=True),   # (asked for again: ViewRequested)
        Topic(settings.replies_topic, "ephemeral", retention_ms=3_600_000),
    ]


def open_log(settings: Settings) -> Log:
    if settings.kafka:
        return KafkaLog(
            settings.kafka, partitions=settings.partitions, topics=topics(settings),
            client_id=f"roundhouse-{settings.instance}", replication_factor=settings.replication_factor,
            min_insync_replicas=settings.min_insync_replicas, batch_ms=settings.kafka_batch_ms,
            fetch_wait_ms=settings.kafka_fetch_wait_ms, linger_ms=settings.kafka_linger_ms,
        )
    return EmbeddedLog(settings.data_dir / "log.sqlite3", partitions=settings.partitions, topics=topics(settings),
                       linger_ms=settings.log_linger_ms)


@dataclass
class Running:
    """What `start` started; `stop` ends it."""

    ctx: Context
    services: list[Service]
    workers: list[Worker]
    tasks: list[asyncio.Task]
    hosts: list[EngineHost] = field(default_factory=list)
    stoppers: list[Callable[[float], Awaitable[None]]] = field(default_factory=list)
    servers: list[grpc.aio.Server] = field(default_factory=list)
    aux: list[asyncio.Task] = field(default_factory=list)  # helpers that may finish early
    gateway_address: str | None = None
    web_url: str | None = None
    metrics_port: int | None = None
    health_port: int | None = None

    @property
    def log(self) -> Log:
        return self.ctx.log

    async def stop(self, grace: float = 2.0) -> None:
        for stop in self.stoppers:
            await stop(grace)
        for server in self.servers:
            await server.stop(grace)
        for w in self.workers:
            w.stop()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for task in self.aux:
            task.cancel()
        await asyncio.gather(*self.aux, return_exceptions=True)
        for host in self.hosts:
            await host.stop()
        await self.log.stop()


def build_services(ctx: Context, names: list[str]) -> list[Service]:
    unknown = [s for s in names if s not in SERVICES]
    if unknown:
        raise ValueError(f"unknown service(s): {', '.join(unknown)}; known: {', '.join(SERVICES)}")
    return [importlib.import_module(f"services.{name}").build(ctx) for name in names]


async def start(settings: Settings, services: list[str], *, ready_timeout: float = 120.0) -> Running:
    """Start `services` over one log in this process; returns once the gateway (if any) serves."""
    log_ = open_log(settings)
    await log_.start()
    workers_wanted = settings.engine_workers
    if workers_wanted is None:
        # one per core for `serve`: more processes than cores cost CPU in switching between them
        # (closed loop: 0.85-0.91 against 0.94-1.13 ms of engine CPU per action with two per
        # core), and the open loop's tails are the same (docs/architecture.md, "One engine process
        # per core")
        workers_wanted = min(16, os.cpu_count() or 1) if len(services) > 1 else 1
    key = "serve" if len(services) > 1 else services[0]
    shared = EngineHost(workers_wanted, key, settings.decided_window, settings.engine_nice)
    ctx = Context(settings, log_, shared)
    hosts: list[EngineHost]
    if settings.shared_engines:
        built = build_services(ctx, services)
        hosts = [shared] * len(built)
    else:   # each service with engine processes of its own
        built, hosts = [], []
        for name in services:
            own = EngineHost(workers_wanted, name, settings.decided_window, settings.engine_nice)
            hosts.append(own)
            built += build_services(Context(settings, log_, own), [name])
    for service, host in zip(built, hosts):
        if service.engines:
            await host.start()   # (started once however many services share it)
    hosts = list({id(h): h for h in hosts}.values())
    workers, tasks = [], []
    for service in built:
        partitions = range(log_.partitions) if service.all_partitions else None
        worker = Worker(service.name, settings, log_, service.hooks, group=service.group, partitions=partitions,
                        batch_ms=settings.kafka_answer_batch_ms if service.answers else None)
        workers.append(worker)
        tasks.append(asyncio.create_task(worker.run(), name=f"worker-{service.name}"))
    running = Running(ctx, built, workers, tasks, hosts)
    try:   # (a port in use, a worker that failed: stop what started, then say why)
        running.aux.append(asyncio.create_task(_probe_loop(key), name="loop-lag"))
        if settings.metrics_port is not None:
            running.metrics_port = metrics.serve(settings.metrics_port, settings.host)
        else:  # the default port, or any free one when another instance on this host holds it
            try:
                running.metrics_port = metrics.serve(DEFAULT_METRICS_PORT[key], settings.host)
            except OSError:
                running.metrics_port = metrics.serve(0, settings.host)
        labels = [f"roundhouse.{s}" for s in services]
        serving = [(s, w) for s, w in zip(built, workers) if s.start is not None]
        for service, worker in serving:
            await _wait_ready(worker, tasks, ready_timeout)
            assert service.start is not None
            running.stoppers.append(await service.start(worker, labels))
            running.gateway_address = running.gateway_address or (service.address[0] if service.address else None)
            running.web_url = running.web_url or service.web_url
        if not serving:
            hport = settings.health_port if settings.health_port is not None else DEFAULT_HEALTH_PORT[services[0]]
            try:
                server, status, bound = await health.standalone(settings.host, hport, labels)
            except health.PortInUse:  # taken (another instance on this host): any free port
                if settings.health_port is not None:
                    raise
                server, status, bound = await health.standalone(settings.host, 0, labels)
            running.servers.append(server)
            running.health_port = bound
            running.aux.append(asyncio.create_task(_serving_when_ready(workers, status)))
    except BaseException:
        await running.stop(grace=0)
        raise
    return running


async def _probe_loop(process: str) -> None:
    """roundhouse_event_loop_lag_seconds: how late a timer fires (anything holding the loop)."""
    loop = asyncio.get_running_loop()
    series = metrics.EVENT_LOOP_LAG.labels(process)
    while True:
        t0 = loop.time()
        await asyncio.sleep(LAG_PROBE_S)
        series.observe(max(0.0, loop.time() - t0 - LAG_PROBE_S))
        for kind, seconds in collector.between_requests():
            metrics.GC_PAUSES.labels(process, "event_loop", kind).observe(seconds)


async def _wait_ready(worker: Worker, tasks: list[asyncio.Task], timeout: float) -> None:
    waiter = asyncio.create_task(worker.ready.wait())
    done, _ = await asyncio.wait([waiter, *tasks], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if waiter not in done:
        waiter.cancel()
        for t in done:
            t.result()  # a worker that died says why
        raise TimeoutError(f"the {worker.service} did not catch up within {timeout:g}s")


async def _serving_when_ready(workers: list[Worker], status: health.Health) -> None:
    await asyncio.gather(*(w.ready.wait() for w in workers))
    await status.set(True)


def run(main: Coroutine[Any, Any, T], event_loop: str = "uvloop") -> T:
    """Run ``main`` to its end on a new event loop of the kind ``Settings.event_loop`` names."""
    factory = None
    if event_loop == "uvloop":
        try:
            import uvloop
        except ImportError as exc:   # (a platform uvloop does not support)
            raise SystemExit("roundhouse: uvloop is not installed here; set ROUNDHOUSE_EVENT_LOOP=asyncio") from exc
        factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)


async def serve_forever(settings: Settings, services: list[str], announce=print) -> None:
    collector.install()
    running = await start(settings, services)
    where = f"Kafka {settings.kafka}" if settings.kafka else f"embedded log in {settings.data_dir}/"
    if running.gateway_address:
        announce(f"roundhouse: gateway listening on {running.gateway_address} ({where})")
        announce(f"roundhouse: web client on {running.web_url} (the Gateway over the Connect protocol at the same address)")
    else:
        announce(f"roundhouse: {services[0]} running on {where}; gRPC health on {settings.host}:{running.health_port}")
    announce(f"roundhouse: metrics on http://{settings.host}:{running.metrics_port}/metrics")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    waiter = asyncio.create_task(stop.wait())
    await asyncio.wait([waiter, *running.tasks], return_when=asyncio.FIRST_COMPLETED)
    failed = [t for t in running.tasks if t.done() and not t.cancelled() and t.exception()]
    ended = [t.get_name() for t in running.tasks if t.done()]
    await running.stop()
    if failed:
        raise failed[0].exception() or RuntimeError(f"{failed[0].get_name()} failed")
    if ended and not stop.is_set():
        raise RuntimeError(f"{', '.join(ended)} ended unexpectedly")
