"""gRPC health checking and reflection for every service instance."""

from __future__ import annotations

from collections.abc import Sequence

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2_grpc

from runtime.commandline import PortInUse

# No SO_REUSEPORT: a second process on a taken port must fail to bind, not share the port.
SERVER_OPTIONS = [("grpc.so_reuseport", 0)]


class GenericOnly:
    """What the generated ``add_*Servicer_to_server`` functions see of a grpc.aio server: its
    handlers are added by the generic path alone. Each method added as a registered one (the other
    path they take too) keeps a task of its own waiting for its calls, and the server's main loop
    waits on all of them (asyncio.wait) at every call: with the Gateway's, the tournaments', health's
    and reflection's methods, 36 tasks whose callbacks are added and removed per call, about a
    seventh of the event loop's time in a closed loop. Calls are served the same either way; a
    generic handler is a lookup by the method's name."""

    def __init__(self, server: grpc.aio.Server):
        self._server = server

    def add_generic_rpc_handlers(self, handlers) -> None:
        self._server.add_generic_rpc_handlers(handlers)

    def add_registered_method_handlers(self, service: str, handlers) -> None:
        pass   # (served by the generic handlers added beside them)


def bind(server: grpc.aio.Server, host: str, port: int, what: str) -> int:
    """server.add_insecure_port, PortInUse when the port is taken."""
    try:
        return server.add_insecure_port(f"{host}:{port}")
    except RuntimeError:
        raise PortInUse(what, host, port) from None


class Health:
    """The standard grpc.health.v1.Health service on a grpc.aio server, one status per service."""

    def __init__(self, server: grpc.aio.Server, services: list[str], reflect: Sequence[str] = ()):
        self.servicer = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(self.servicer, GenericOnly(server))
        names = [health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, *reflect]
        # (reflection.enable_server_reflection, with the aio servicer it picks for an aio server)
        reflection_pb2_grpc.add_ServerReflectionServicer_to_server(
            reflection.aio.ReflectionServicer([*names, reflection.SERVICE_NAME]), GenericOnly(server))
        self.services = services

    async def set(self, serving: bool) -> None:
        status = (
            health_pb2.HealthCheckResponse.SERVING
            if serving
            else health_pb2.HealthCheckResponse.NOT_SERVING
        )
        for name in ["", *self.services]:
            await self.servicer.set(name, status)


async def standalone(host: str, port: int, services: list[str]) -> tuple[grpc.aio.Server, Health, int]:
    """A gRPC server with only health and reflection (for services without a gRPC API)."""
    server = grpc.aio.server(options=SERVER_OPTIONS)
    h = Health(server, services)
    bound = bind(server, host, port, "gRPC health")
    await server.start()
    return server, h, bound
