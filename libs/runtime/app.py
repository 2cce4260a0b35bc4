"""Running services: all in one process (`roundhouse serve`) or one per process (`roundhouse service`).

The same classes run in both shapes; only the log differs (embedded SQLite or Kafka).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import signal
from dataclasses import dataclass, field

import grpc

from bus.base import Log
from bus.embedded import EmbeddedLog
from bus.kafka import KafkaLog
from runtime import health, metrics
from runtime.config import DEFAULT_HEALTH_PORT, DEFAULT_METRICS_PORT, DEFAULT_WEB_PORT, SERVICES, Settings
from runtime.worker import Worker

log = logging.getLogger(__name__)


def open_log(settings: Settings) -> Log:
    topics = [settings.games_topic]
    compacted = [settings.snapshots_topic]
    if settings.kafka:
        return KafkaLog(
            settings.kafka, partitions=settings.partitions, topics=topics, compacted=compacted,
            client_id=f"roundhouse-{settings.instance}",
        )
    return EmbeddedLog(
        settings.data_dir / "log.sqlite3", partitions=settings.partitions, compacted=compacted
    )


@dataclass
class Running:
    """What `start` started; `stop` ends it."""

    log: Log
    workers: list[Worker]
    tasks: list[asyncio.Task]
    servers: list[grpc.aio.Server] = field(default_factory=list)
    aux: list[asyncio.Task] = field(default_factory=list)  # helpers that may finish early
    gateway_address: str | None = None
    web: object | None = None            # services.gateway.web.WebServer
    web_url: str | None = None
    metrics_port: int | None = None
    health_port: int | None = None

    async def stop(self, grace: float = 2.0) -> None:
        for w in self.workers:
            w.stop()
        if self.web is not None:
            await self.web.stop()
        for server in self.servers:
            await server.stop(grace)
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for task in self.aux:
            task.cancel()
        await self.log.stop()


def _worker(name: str, settings: Settings, log_: Log):
    if name == "gateway":
        from services.gateway.readmodel import ReadModel

        model = ReadModel()
        return Worker(name, settings, log_, model, group=None), model
    module = importlib.import_module(f"services.{name}")
    return Worker(name, settings, log_, module.hooks(settings), group=settings.group(name)), None


async def start(settings: Settings, services: list[str], *, ready_timeout: float = 120.0) -> Running:
    """Start `services` over one log in this process; returns once the gateway (if any) serves."""
    unknown = [s for s in services if s not in SERVICES]
    if unknown:
        raise ValueError(f"unknown service(s): {', '.join(unknown)}; known: {', '.join(SERVICES)}")
    log_ = open_log(settings)
    await log_.start()
    workers, tasks, gateway = [], [], None
    for name in services:
        worker, model = _worker(name, settings, log_)
        workers.append(worker)
        if model is not None:
            gateway = (worker, model)
        tasks.append(asyncio.create_task(worker.run(), name=f"worker-{name}"))
    running = Running(log_, workers, tasks)
    key = "serve" if len(services) > 1 else services[0]
    if settings.metrics_port is not None:
        running.metrics_port = metrics.serve(settings.metrics_port, settings.host)
    else:  # the default port, or any free one when another instance on this host holds it
        try:
            running.metrics_port = metrics.serve(DEFAULT_METRICS_PORT[key], settings.host)
        except OSError:
            running.metrics_port = metrics.serve(0, settings.host)
    labels = [f"roundhouse.{s}" for s in services]
    if gateway is not None:
        from contracts.v1 import gateway_pb2, gateway_pb2_grpc
        from services.gateway import web
        from services.gateway.server import Gateway

        worker, model = gateway
        await _wait_ready(worker, tasks, ready_timeout)
        server = grpc.aio.server(options=health.SERVER_OPTIONS)
        servicer = Gateway(settings, worker, model)
        gateway_pb2_grpc.add_GatewayServicer_to_server(servicer, server)
        status = health.Health(
            server, labels, reflect=[gateway_pb2.DESCRIPTOR.services_by_name["Gateway"].full_name]
        )
        bound = server.add_insecure_port(f"{settings.host}:{settings.port}")
        await server.start()
        await status.set(True)
        running.servers.append(server)
        running.gateway_address = f"{settings.host}:{bound}"
        if settings.web_port is not None:
            running.web = await web.serve(servicer, settings.host, settings.web_port)
        else:  # the default port, or any free one when another instance on this host holds it
            try:
                running.web = await web.serve(servicer, settings.host, DEFAULT_WEB_PORT)
            except OSError:
                running.web = await web.serve(servicer, settings.host, 0)
        host = f"[{settings.host}]" if ":" in settings.host else settings.host
        running.web_url = f"http://{host}:{running.web.port}/"
    else:
        hport = settings.health_port if settings.health_port is not None else DEFAULT_HEALTH_PORT[services[0]]
        try:
            server, status, bound = await health.standalone(settings.host, hport, labels)
        except RuntimeError:  # port taken (another instance on this host): any free port
            if settings.health_port is not None:
                raise
            server, status, bound = await health.standalone(settings.host, 0, labels)
        running.servers.append(server)
        running.health_port = bound
        running.aux.append(asyncio.create_task(_serving_when_ready(workers, status)))
    return running


async def _wait_ready(worker: Worker, tasks: list[asyncio.Task], timeout: float) -> None:
    waiter = asyncio.create_task(worker.ready.wait())
    done, _ = await asyncio.wait([waiter, *tasks], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if waiter not in done:
        waiter.cancel()
        for t in done:
            t.result()  # a worker that died says why
        raise TimeoutError(f"the gateway's read model did not catch up within {timeout:g}s")


async def _serving_when_ready(workers: list[Worker], status: health.Health) -> None:
    await asyncio.gather(*(w.ready.wait() for w in workers))
    await status.set(True)


async def serve_forever(settings: Settings, services: list[str], announce=print) -> None:
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
        raise failed[0].exception()
    if ended and not stop.is_set():
        raise RuntimeError(f"{', '.join(ended)} ended unexpectedly")
