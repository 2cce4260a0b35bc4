"""The Gateway for browsers: the same servicer over the Connect protocol (and gRPC-Web), on HTTP,
beside the web client's built files.

The browser client (web/) calls roundhouse.v1.Gateway with @connectrpc/connect-web. Here the
generated Connect interface (contracts.v1.gateway_connect) is served by connectrpc's ASGI
application, each method forwarding to the gRPC servicer (services.gateway.server.Gateway) with a
context whose `abort` raises the Connect error of the same code: one implementation of the API,
two transports. Every other path serves the built client (web/dist, `make web`). uvicorn runs it in
the gateway's own event loop, so both transports share the read model.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import grpc
import uvicorn
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from connectrpc.server import ConnectASGIApplication
from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse
from starlette.staticfiles import StaticFiles

from contracts.v1 import gateway_pb2, tournament_api_pb2
from contracts.v1.gateway_connect import GatewayASGIApplication
from contracts.v1.tournament_api_connect import TournamentsASGIApplication
from runtime.health import PortInUse

log = logging.getLogger(__name__)

SERVICE = gateway_pb2.DESCRIPTOR.services_by_name["Gateway"]
TOURNAMENTS = tournament_api_pb2.DESCRIPTOR.services_by_name["Tournaments"]
API_PREFIX = f"/{SERVICE.full_name}/"
REPO_WEB_DIST = Path(__file__).resolve().parents[2] / "web" / "dist"


def web_dir() -> Path:
    """The built web client: ROUNDHOUSE_WEB_DIR, or web/dist of this checkout."""
    env = os.environ.get("ROUNDHOUSE_WEB_DIR")
    return Path(env) if env else REPO_WEB_DIST


class _Context:
    """What the gRPC servicer uses of its context, for a call that came over Connect."""

    __slots__ = ("connect", "_code")

    def __init__(self, connect) -> None:
        self.connect = connect
        self._code: grpc.StatusCode | None = None

    async def abort(self, code: grpc.StatusCode, details: str = "") -> NoReturn:
        self._code = code
        raise ConnectError(Code[code.name], details)

    def code(self) -> grpc.StatusCode | None:
        """The status the call ended with, once aborted (None: OK so far), as in gRPC."""
        return self._code


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _unary(method: str):
    async def call(self, request, ctx):
        return await getattr(self.servicer, method)(request, _Context(ctx))
    return call


def _stream(method: str):
    async def call(self, request, ctx):
        async for message in getattr(self.servicer, method)(request, _Context(ctx)):
            yield message
    return call


def connect_adapter(service):
    """A Connect interface class over a gRPC servicer of `service` (a service descriptor): one
    method per RPC, so a new RPC is served on both transports at once."""

    def __init__(self, servicer) -> None:
        self.servicer = servicer

    methods = {_snake(m.name): (_stream if m.server_streaming else _unary)(m.name) for m in service.methods}
    return type(f"Connect{service.name}", (), {"__init__": __init__, **methods})


ConnectGateway = connect_adapter(SERVICE)
ConnectTournaments = connect_adapter(TOURNAMENTS)


def asgi_app(servicer, tournaments=None, static_dir: Path | None = None):
    """One ASGI application: the Gateway's (and the Tournaments') Connect endpoints, and the web
    client's files."""
    apis: dict[str, ConnectASGIApplication] = {API_PREFIX: GatewayASGIApplication(ConnectGateway(servicer))}
    if tournaments is not None:
        apis[f"/{TOURNAMENTS.full_name}/"] = TournamentsASGIApplication(ConnectTournaments(tournaments))
    static_dir = static_dir or web_dir()
    files = StaticFiles(directory=static_dir, html=True, check_dir=False)
    missing = PlainTextResponse(
        f"The web client is not built ({static_dir} is missing): run `make web`.", status_code=503
    )

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            return
        api = next((a for prefix, a in apis.items() if scope["path"].startswith(prefix)), None)
        if api is not None:
            await api(scope, receive, send)
        elif (static_dir / "index.html").exists():
            try:
                await files(scope, receive, send)
            except HTTPException as exc:  # not found, method not allowed
                await PlainTextResponse(exc.detail, status_code=exc.status_code)(scope, receive, send)
        else:
            await missing(scope, receive, send)

    return app


@dataclass
class WebServer:
    server: uvicorn.Server
    task: asyncio.Task
    port: int

    async def stop(self) -> None:
        self.server.should_exit = True
        await asyncio.gather(self.task, return_exceptions=True)
        await self.server.shutdown()


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise PortInUse("web", host, port) from None
    sock.listen(128)
    sock.setblocking(False)
    return sock


async def serve(servicer, tournaments, host: str, port: int) -> WebServer:
    """Serve the web client and the Connect API on host:port (0: any free port) in this loop.
    Raises OSError when the port is taken."""
    sock = _listen(host, port)
    config = uvicorn.Config(
        asgi_app(servicer, tournaments), lifespan="off", log_level="warning", access_log=False,
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    config.load()
    server.lifespan = config.lifespan_class(config)
    await server.startup(sockets=[sock])
    return WebServer(server, asyncio.create_task(server.main_loop(), name="web"), sock.getsockname()[1])
