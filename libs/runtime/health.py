"""gRPC health checking and reflection for every service instance."""

from __future__ import annotations

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from runtime.commandline import PortInUse

# No SO_REUSEPORT: a second process on a taken port must fail to bind, not share the port.
SERVER_OPTIONS = [("grpc.so_reuseport", 0)]


def bind(server: grpc.aio.Server, host: str, port: int, what: str) -> int:
    """server.add_insecure_port, PortInUse when the port is taken."""
    try:
        return server.add_insecure_port(f"{host}:{port}")
    except RuntimeError:
        raise PortInUse(what, host, port) from None


class Health:
    """The standard grpc.health.v1.Health service on a grpc.aio server, one status per service."""

    def __init__(self, server: grpc.aio.Server, services: list[str], reflect: list[str] = ()):
        self.servicer = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(self.servicer, server)
        names = [health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, *reflect]
        reflection.enable_server_reflection([*names, reflection.SERVICE_NAME], server)
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
