"""roundhouse.v1.Gateway: validate the caller, append commands, answer from the read model.

The gateway holds no engine. It knows each game's ledger (seats, token hashes, sequence, round,
result), so it authenticates, checks sequences, lists games and computes standings on its own;
GetGame answers from the view the game's owner published (asking for one when none is that recent);
WatchGame's history and ExportGame ask the owner (QueryRequested). Creating a game needs no engine
either: what a title's new game starts as is computed once per title, rules and player count.
Importing one replays it in an engine process, off the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
import re
import time
import uuid
from collections.abc import Mapping
from typing import NoReturn, TypeVar

import grpc
import orjson

import engine
from contracts.actions import MalformedAction, action_from_json, action_to_json, route_from_json
from contracts import limits, packed
from contracts.envelopes import Envelope, make_envelope
from contracts.v1 import gateway_pb2 as gw
from contracts.v1 import gateway_pb2_grpc, log_pb2
from engine.rng import seed_for
from runtime import metrics
from runtime.config import DEFAULT_WEB_PORT
from runtime.engines import EngineError, EngineHost
from runtime.ledger import Ledger
from runtime.owner import STATUS_OF_REJECTION as STATUS_NAMES
from runtime.service import Context
from runtime.seats import OPERATOR, OPERATOR_ONLY_TYPES, finished_refusal, new_token, policy_refusal, token_hash
from runtime.worker import Worker
from services.gateway.readmodel import QueryRefused, ReadModel, Unanswered, command_fingerprint
from services.gateway.tournaments import standings

log = logging.getLogger(__name__)
R = log_pb2.RejectReason
GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,%d}$" % (limits.MAX_ID_CHARS - 1))
STATUS_OF_REJECTION = {reason: grpc.StatusCode[name] for reason, name in STATUS_NAMES.items()}
T = TypeVar("T")


async def abort(context, code: grpc.StatusCode, details: str) -> NoReturn:
    """End the call with `code` and `details`. A context's abort raises (gRPC's, and the Connect
    one of services.gateway.web), but grpc has no type stubs: the raise after it says, to the type
    checker as to the reader, that nothing after an abort runs."""
    await context.abort(code, details)
    raise AssertionError(f"context.abort({code}) returned")


def timed(method):
    """The servicer boundary of every call: count it in roundhouse_rpc_latency_seconds{method, code}
    whatever its outcome (a stream: until it ends; a call the client gave up on or whose deadline
    passed: CANCELLED), and turn an unexpected exception into INTERNAL with a neutral message (the
    exception is logged with a reference the message gives), never its text."""
    name = method.__name__

    def observe(context, t0: float, cancelled: bool) -> None:
        code = context.code()
        if isinstance(code, grpc.StatusCode):
            label = code.name
        elif code not in (None, 0):
            label = str(code)
        else:
            label = "CANCELLED" if cancelled else "OK"
        metrics.child(metrics.RPC_LATENCY, name, label).observe(time.perf_counter() - t0)

    async def internal(context, exc: Exception) -> NoReturn:
        if _aborted(context):
            raise exc   # an answer already chosen (context.abort raised it)
        ref = uuid.uuid4().hex[:12]
        log.error("%s failed (ref %s)", name, ref, exc_info=exc)
        await abort(context, grpc.StatusCode.INTERNAL, f"internal error (ref {ref}); the server logged it")

    if inspect.isasyncgenfunction(method):
        @functools.wraps(method)
        async def stream(self, request, context):
            t0 = time.perf_counter()
            cancelled = False
            try:
                async for item in method(self, request, context):
                    yield item
            except asyncio.CancelledError:
                cancelled = True
                raise
            except Exception as exc:
                await internal(context, exc)
            finally:
                observe(context, t0, cancelled)

        return stream

    @functools.wraps(method)
    async def unary(self, request, context):
        t0 = time.perf_counter()
        cancelled = False
        try:
            return await method(self, request, context)
        except asyncio.CancelledError:
            cancelled = True
            raise
        except Exception as exc:
            await internal(context, exc)
        finally:
            observe(context, t0, cancelled)

    return unary


async def lookup(book: Mapping[str, T], key: str, what: str, context) -> T:
    """book[key], or the call ends: INVALID_ARGUMENT without a key, NOT_FOUND for an unknown one."""
    if not key:
        await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"{what.split()[-1]}_id is required")
    found = book.get(key)
    if found is None:
        await abort(context, grpc.StatusCode.NOT_FOUND, f"no {what} {key!r}")
    return found


async def require_admin(settings, token: str, context) -> None:
    """The platform admin's token, when one is configured (README, "Roles")."""
    expected = settings.admin_hash()
    if expected is None:
        return
    if not token:
        await abort(context, grpc.StatusCode.UNAUTHENTICATED, "this platform needs the admin token for this call")
    if token_hash(token) != expected:
        await abort(context, grpc.StatusCode.PERMISSION_DENIED, "the token is not the platform admin's")


def _aborted(context) -> bool:
    code = context.code()
    return code not in (None, 0, grpc.StatusCode.OK)


async def _at_most(context, value: str | bytes, limit: int, what: str, unit: str = "characters") -> None:
    """INVALID_ARGUMENT when `value` is longer than `limit` (naming the limit)."""
    if len(value) > limit:
        await abort(context, grpc.StatusCode.INVALID_ARGUMENT,
                    f"{what} is {len(value):,} {unit} long; the limit is {limit:,} {unit}")


class Gateway(gateway_pb2_grpc.GatewayServicer):
    def __init__(self, ctx: Context, worker: Worker, model: ReadModel):
        self.ctx = ctx
        self.settings = ctx.settings
        # (services.gateway builds its Service with engines: new games' set-up, imports)
        assert ctx.engines is not None, "the gateway needs an engine host"
        self.engines: EngineHost = ctx.engines
        self.worker = worker
        self.model = model
        self._setups: dict[tuple, asyncio.Future] = {}

    # helpers ------------------------------------------------------------------------------------

    async def _ledger(self, game_id: str, context) -> Ledger:
        if game_id:
            await _at_most(context, game_id, limits.MAX_ID_CHARS, "game_id")
        led = await lookup(self.worker.games, game_id, "game", context)
        led.used_at = time.monotonic()
        return led

    async def _append_created(self, game_id: str, created: log_pb2.GameCreated, seq: int, context) -> None:
        env = make_envelope(created, game_id=game_id, seq=seq, producer=self.worker.producer)
        await self.worker.append(env)
        if not await self.model.wait_until(lambda: game_id in self.worker.games, self.settings.submit_timeout_s):
            await abort(context, grpc.StatusCode.UNAVAILABLE, f"game {game_id} was logged but is not readable yet")
        if self.worker.games[game_id].created.operator_token_sha256 != created.operator_token_sha256:
            await abort(context, grpc.StatusCode.ALREADY_EXISTS, f"game {game_id!r} already exists")

    async def _new_game_id(self, requested: str, context) -> str:
        if not requested:
            return "rh-" + uuid.uuid4().hex[:12]
        if not GAME_ID.match(requested):
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"game_id must be {limits.ID_RULE}")
        if requested in self.worker.games or requested in self.model.tournaments:
            await abort(context, grpc.StatusCode.ALREADY_EXISTS, f"game {requested!r} already exists")
        return requested

    @staticmethod
    def _seats(players: list[dict]) -> tuple[list[log_pb2.Player], list[gw.SeatToken], list[str]]:
        seats, tokens, hashes = [], [], []
        for p in players:
            pid = p["id"]
            is_number = isinstance(pid, int) and not isinstance(pid, bool)
            seats.append(log_pb2.Player(id=str(pid), name=str(p["name"]), id_is_number=is_number))
            token = new_token()
            tokens.append(gw.SeatToken(player_id=str(pid), name=str(p["name"]), token=token))
            hashes.append(token_hash(token))
        return seats, tokens, hashes

    async def _setup(self, title: str, rules: list[str], players: int) -> dict:
        """What a new game of the title starts as (one engine job per title, rules and player count;
        concurrent creates share it). Raises EngineError when the engine refuses the set-up."""
        key = (engine.titles.slug_for(title), tuple(rules), players)
        known = self._setups.get(key)
        if known is None or (known.done() and known.exception() is not None):
            known = asyncio.ensure_future(self.engines.job(
                "setup", title=title, optional_rules=list(rules), players=players))
            self._setups[key] = known
        return await asyncio.shield(known)

    # games --------------------------------------------------------------------------------------

    @timed
    async def CreateGame(self, request: gw.CreateGameRequest, context) -> gw.CreateGameResponse:
        await require_admin(self.settings, request.admin_token, context)
        if not request.title:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "title is required")
        await _at_most(context, request.title, limits.MAX_FIELD_CHARS, "title")
        if not request.seats:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "at least one seat is required")
        if len(request.seats) > limits.MAX_SEATS:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT,
                        f"{len(request.seats)} seats; the limit is {limits.MAX_SEATS}")
        await self._check_rules(request.optional_rules, context)
        players, ids = [], set()
        for i, seat in enumerate(request.seats):
            if not seat.name.strip():
                await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"seat {i + 1} has no name")
            await _at_most(context, seat.name, limits.MAX_NAME_CHARS, f"seat {i + 1}'s name")
            which = seat.WhichOneof("id")
            pid = getattr(seat, which) if which else seat.name
            if isinstance(pid, str):
                await _at_most(context, pid, limits.MAX_NAME_CHARS, f"seat {i + 1}'s player id")
            if pid in ids:
                await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"seat {i + 1}: player id {pid!r} is used twice")
            ids.add(pid)
            players.append({"id": pid, "name": seat.name})
        rules = list(request.optional_rules)
        try:
            setup = await self._setup(request.title, rules, len(players))
        except engine.GameError as exc:   # an unknown title
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, exc.reason)
        except EngineError as exc:
            if exc.kind == "internal":
                raise   # (logged at the boundary, answered INTERNAL)
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, exc.reason)
        game_id = await self._new_game_id(request.game_id, context)
        seed = seed_for(game_id, request.seed if request.HasField("seed") else None)
        seats, tokens, hashes = self._seats(players)
        pids = [s.id for s in seats]
        summary = log_pb2.ReplicaSummary(
            seq=0, round_kind=setup["round_kind"], round_label=setup["round_label"],
            values={pid: value for pid, value in zip(pids, setup["values"])},
            acting_players=[pids[i] for i in setup["acting"]],
        )
        operator, spectator = new_token(), new_token()
        created = log_pb2.GameCreated(
            title=setup["title"], players=seats, seed=int(seed), optional_rules=rules,
            seat_token_sha256=hashes, operator_token_sha256=token_hash(operator),
            created_at=int(time.time()), summary=summary, spectator_token_sha256=token_hash(spectator),
        )
        await self._append_created(game_id, created, 0, context)
        log.info("game %s created: %s, %d seats", game_id, setup["title"], len(seats))
        return gw.CreateGameResponse(game_id=game_id, seats=tokens, operator_token=operator, seq=0,
                                     spectator_token=spectator)

    async def _check_rules(self, rules, context) -> None:
        if len(rules) > limits.MAX_OPTIONAL_RULES:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT,
                        f"{len(rules)} optional rules; the limit is {limits.MAX_OPTIONAL_RULES}")
        for rule in rules:
            await _at_most(context, rule, limits.MAX_RULE_CHARS, "an optional rule's name")

    @timed
    async def ImportGame(self, request: gw.ImportGameRequest, context) -> gw.CreateGameResponse:
        await require_admin(self.settings, request.admin_token, context)
        await _at_most(context, request.export_json, limits.MAX_IMPORT_BYTES, "export_json", "bytes")
        try:
            export = orjson.loads(request.export_json)
        except orjson.JSONDecodeError as exc:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT,
                        f"export_json is not JSON (line {exc.lineno}, column {exc.colno})")
        if not isinstance(export, dict) or not isinstance(export.get("actions"), list):
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "export_json must be an 18xx.games export (an object with actions)")
        if len(export["actions"]) > limits.MAX_GAME_ENTRIES:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"the export has {len(export['actions']):,} actions;"
                        f" a game holds at most {limits.MAX_GAME_ENTRIES:,}")
        players = export.get("players")
        if not isinstance(players, list) or len(players) > limits.MAX_SEATS:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT,
                        f"the export must list its players (at most {limits.MAX_SEATS})")
        for i, p in enumerate(players):
            if not isinstance(p, dict) or len(str(p.get("name", ""))) > limits.MAX_NAME_CHARS \
                    or len(str(p.get("id", ""))) > limits.MAX_NAME_CHARS:
                await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"player {i + 1} of the export: a name and id"
                            f" of at most {limits.MAX_NAME_CHARS} characters each are required")
        await self._check_rules(export.get("optional_rules") or [], context)
        game_id = await self._new_game_id(request.game_id, context)
        raw = orjson.dumps(export)
        try:
            imported = await self.engines.job("import", target=game_id, export=raw, producer=self.worker.producer)
        except EngineError as exc:
            if exc.kind == "internal":
                log.error("import_game failed: %s", exc.reason)
                await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "import failed: the engine could not replay it")
            where = f" at action index {exc.index} (id {exc.action_id})" if exc.index is not None else ""
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"import failed{where}: {exc.reason}")
        stored = await self.ctx.log.append(self.settings.states_topic, game_id, imported["state"])
        ref = log_pb2.StateRef(offset=stored.offset, seq=imported["seq"], digest=imported["digest"], covered_offset=-1)
        seats, tokens, hashes = self._seats(imported["players"])
        operator = new_token()
        created = log_pb2.GameCreated(
            title=imported["title"], players=seats, seed=imported["seed"],
            optional_rules=imported["optional_rules"], seat_token_sha256=hashes,
            operator_token_sha256=token_hash(operator), import_json=raw, created_at=int(time.time()),
            summary=log_pb2.ReplicaSummary.FromString(imported["summary"]), state=ref,
        )
        await self._append_created(game_id, created, imported["seq"], context)
        return gw.CreateGameResponse(game_id=game_id, seats=tokens, operator_token=operator, seq=imported["seq"])

    # actions ------------------------------------------------------------------------------------

    @timed
    async def SubmitAction(self, request: gw.SubmitActionRequest, context) -> gw.SubmitActionResponse:
        started = time.monotonic()
        try:
            return await self._submit_action(request, context)
        finally:
            code = context.code()
            label = code.name if isinstance(code, grpc.StatusCode) else "OK"
            metrics.child(metrics.COMMAND_LATENCY, "gateway", label).observe(time.monotonic() - started)

    async def _submit_action(self, request: gw.SubmitActionRequest, context) -> gw.SubmitActionResponse:
        if not request.HasField("action"):
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "action is required")
        if request.action.ByteSize() > limits.MAX_ACTION_BYTES:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"the action is {request.action.ByteSize():,} bytes;"
                        f" the limit is {limits.MAX_ACTION_BYTES:,} bytes")
        try:
            action = action_to_json(request.action)
        except MalformedAction as exc:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"malformed action: {exc}")
        await _at_most(context, orjson.dumps(action), limits.MAX_ACTION_BYTES, "the action (as JSON)", "bytes")
        if action.get("type") == "message":
            await _at_most(context, str(action.get("message") or ""), limits.MAX_MESSAGE_CHARS, "the message")
        await _at_most(context, request.command_id, limits.MAX_ID_CHARS, "command_id")
        led = await self._ledger(request.game_id, context)
        if not request.token:
            await abort(context, grpc.StatusCode.UNAUTHENTICATED, "a seat token is required")
        await _at_most(context, request.token, limits.MAX_TOKEN_CHARS, "the token")
        digest = token_hash(request.token)  # the seats are in the ledger
        actor = OPERATOR if digest == led.created.operator_token_sha256 else _seat_of(led, digest)
        if actor is None:
            if digest == led.created.spectator_token_sha256:
                await abort(context, grpc.StatusCode.PERMISSION_DENIED,
                            f"a spectator's token only reads game {led.game_id}; it may not act")
            await abort(context, grpc.StatusCode.PERMISSION_DENIED, f"the token is not a seat of game {led.game_id}")
        command_id = request.command_id or uuid.uuid4().hex
        fingerprint = command_fingerprint(led.game_id, actor, request.action)
        first = self.model.commands.get(command_id)
        if first is not None and first != fingerprint:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT,
                        f"command_id {command_id} was already used for another action (or game, or seat):"
                        " a command id names one command; use a new one")
        known = self.model.answers.get(command_id)
        if known is not None and known.game_id == led.game_id:
            return await self._answer(led, known, context)
        waiter = self.model.results.get(command_id)
        if waiter is None:
            if led.seq >= limits.MAX_GAME_ENTRIES and action["type"] != "end_game":
                await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, f"game {led.game_id} holds"
                            f" {limits.MAX_GAME_ENTRIES:,} entries, the most a game may hold")
            refusal = (finished_refusal(led.finished, action["type"], actor)
                       or policy_refusal(led.created.undo_policy, action["type"], actor))
            if refusal is not None:
                await abort(context, STATUS_OF_REJECTION[refusal[0]], f"game {led.game_id}: {refusal[1]}")
            await self._check_seq(led, request.expected_seq, context)
            if actor != OPERATOR and action["type"] in OPERATOR_ONLY_TYPES:
                await abort(context, grpc.StatusCode.PERMISSION_DENIED,
                            f"only the game's operator token may {action['type'].replace('_', ' ')}")
            waiter = self.model.results[command_id] = asyncio.get_running_loop().create_future()
            self.model.remember_command(command_id, fingerprint)
            cmd = log_pb2.CommandSubmitted(expected_seq=request.expected_seq, action=request.action, actor=actor)
            cmd.action.ClearField("auto_actions")   # the engine computes its own
            if not cmd.action.HasField("created_at"):
                cmd.action.created_at = int(time.time())
            env = make_envelope(cmd, game_id=led.game_id, seq=request.expected_seq, producer=self.worker.producer,
                                command_id=command_id)
            await self.worker.append(env)
        try:
            answer = await asyncio.wait_for(asyncio.shield(waiter), self.settings.submit_timeout_s)
        except asyncio.TimeoutError:
            if self.model.results.get(command_id) is waiter:
                self.model.results.pop(command_id, None)
            await abort(
                context,
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"no answer for command {command_id} within {self.settings.submit_timeout_s:g}s"
                " (is the service owning this round running?); resubmit with the same command_id",
            )
        return await self._answer(led, answer, context)

    async def _check_seq(self, led: Ledger, expected: int, context) -> None:
        if expected > led.seq:  # the ledger may lag the log by a moment
            await self.model.wait_until(lambda: led.seq >= expected, 2.0)
        if expected != led.seq:
            what = "stale" if expected < led.seq else "ahead of the game"
            await abort(
                context,
                grpc.StatusCode.FAILED_PRECONDITION,
                f"expected_seq {expected} is {what}: game {led.game_id} is at seq {led.seq}",
            )

    async def _answer(self, led: Ledger, env: Envelope, context) -> gw.SubmitActionResponse:
        body = env.WhichOneof("body")
        if body == "action_rejected":
            await abort(context, STATUS_OF_REJECTION.get(env.action_rejected.code, grpc.StatusCode.INTERNAL),
                        env.action_rejected.reason)
        if body == "duplicate_command":
            first = env.duplicate_command.first
            if first.rejected:
                await abort(context, STATUS_OF_REJECTION.get(first.rejected, grpc.StatusCode.INTERNAL), first.reason)
            now = led.seq == first.seq
            return gw.SubmitActionResponse(
                seq=first.seq, action=env.duplicate_command.action, command_id=env.command_id,
                finished=led.finished and now, acting_players=led.acting if now else [],
            )
        applied = env.action_applied
        return gw.SubmitActionResponse(
            seq=applied.seq, action=applied.action, round_kind=applied.round_kind,
            round_label=applied.round_label, finished=applied.finished,
            command_id=env.command_id, acting_players=list(applied.acting_players),
        )

    # reading ------------------------------------------------------------------------------------

    @timed
    async def GetGame(self, request: gw.GetGameRequest, context) -> gw.GameView:
        led = await self._ledger(request.game_id, context)
        legal = not request.without_legal_actions
        try:
            view = await self.model.view_at(self.worker, led, legal)
        except Unanswered as exc:
            await abort(context, grpc.StatusCode.UNAVAILABLE, str(exc))
        return game_view(led, view, legal)

    async def _query(self, led: Ledger, query: str, args: dict, context):
        try:
            return await self.model.query(self.worker, led, query, args)
        except Unanswered as exc:
            await abort(context, grpc.StatusCode.UNAVAILABLE, str(exc))
        except QueryRefused as exc:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(exc))

    @timed
    async def GetTileLays(self, request: gw.GetTileLaysRequest, context) -> gw.TileLays:
        """The engine's tile_lays for one hex of an entity's lay_hexes (see gateway.proto)."""
        if not request.entity or not request.entity_type or not request.hex:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "entity, entity_type and hex are required")
        for what in ("entity", "entity_type", "hex"):
            await _at_most(context, getattr(request, what), limits.MAX_FIELD_CHARS, what)
        answer = await self.engine_query(request.game_id, "tile_lays", {
            "entity": request.entity, "entity_type": request.entity_type, "hex": request.hex}, context)
        return gw.TileLays(game_id=request.game_id, seq=answer["seq"], hex=request.hex, lays=[
            gw.TileLay(tile=lay["tile"], rotations=lay["rotations"], cost=lay.get("cost")) for lay in answer["lays"]])

    async def engine_query(self, game_id: str, query: str, args: dict, context):
        """For calls that need the engine (best routes, ...): the owner's answer, as JSON data."""
        led = await self._ledger(game_id, context)
        return await self._query(led, query, args, context)

    @timed
    async def WatchGame(self, request: gw.WatchGameRequest, context):
        led = await self._ledger(request.game_id, context)
        queue: asyncio.Queue = asyncio.Queue()
        self.model.watchers[led.game_id].add(queue)
        try:
            sent = request.from_seq
            if request.from_seq < led.seq:
                history = await self._query(led, "history", {"from_seq": request.from_seq}, context)
                for i, action in enumerate(history["actions"]):
                    seq = request.from_seq + i + 1
                    applied = log_pb2.ActionApplied(seq=seq, action=action_from_json(action))
                    yield make_envelope(applied, game_id=led.game_id, seq=seq, producer=self.worker.producer)
                    sent = seq
            while True:
                env = await queue.get()
                if env.WhichOneof("body") == "action_applied" and env.seq <= sent:
                    continue
                yield env
        finally:
            watching = self.model.watchers.get(led.game_id, set())
            watching.discard(queue)
            if not watching:
                self.model.watchers.pop(led.game_id, None)

    @timed
    async def ListGames(self, request: gw.ListGamesRequest, context) -> gw.ListGamesResponse:
        games = []  # from the ledgers: listing loads no game
        for led in sorted(self.worker.games.values(), key=lambda r: (r.created.created_at, r.game_id)):
            if led.finished and not request.include_finished:
                continue
            games.append(gw.GameSummary(
                game_id=led.game_id, title=led.title, seq=led.seq, round_label=led.round_label,
                finished=led.finished, players=[p.name for p in led.created.players],
            ))
        return gw.ListGamesResponse(games=games)

    @timed
    async def BestRoutes(self, request: gw.BestRoutesRequest, context) -> gw.BestRoutesResponse:
        if not request.corporation:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "corporation is required")
        await _at_most(context, request.corporation, limits.MAX_FIELD_CHARS, "corporation")
        answer = await self.engine_query(request.game_id, "best_routes", {"corporation": request.corporation}, context)
        routes = answer["routes"]
        return gw.BestRoutesResponse(
            seq=answer["seq"], routes=[route_from_json(r) for r in routes],
            revenue=sum(int(r.get("revenue") or 0) for r in routes),
        )

    @timed
    async def ExportGame(self, request: gw.ExportGameRequest, context) -> gw.ExportGameResponse:
        led = await self._ledger(request.game_id, context)
        export = await self._query(led, "export", {}, context)
        return gw.ExportGameResponse(export_json=orjson.dumps(export))

    # tournaments --------------------------------------------------------------------------------

    @timed
    async def CreateTournament(self, request: gw.CreateTournamentRequest, context) -> gw.CreateTournamentResponse:
        await require_admin(self.settings, request.admin_token, context)
        if not request.name.strip():
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "a tournament needs a name")
        await _at_most(context, request.name, limits.MAX_TOURNAMENT_NAME_CHARS, "the tournament's name")
        tid = request.tournament_id or "t-" + uuid.uuid4().hex[:12]
        if not GAME_ID.match(tid):
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"tournament_id must be {limits.ID_RULE}")
        if tid in self.model.tournaments or tid in self.worker.games:
            await abort(context, grpc.StatusCode.ALREADY_EXISTS, f"id {tid!r} is taken")
        operator = new_token()
        body = log_pb2.TournamentCreated(
            name=request.name, operator_token_sha256=token_hash(operator), created_at=int(time.time())
        )
        await self.worker.append(make_envelope(body, game_id=tid, seq=0, producer=self.worker.producer))
        if not await self.model.wait_until(lambda: tid in self.model.tournaments, self.settings.submit_timeout_s):
            await abort(context, grpc.StatusCode.UNAVAILABLE, f"tournament {tid} was logged but is not readable yet")
        return gw.CreateTournamentResponse(tournament_id=tid, operator_token=operator)

    async def _tournament(self, tid: str, context):
        await _at_most(context, tid, limits.MAX_ID_CHARS, "tournament_id")
        t = self.model.tournaments.get(tid)
        if t is None:
            await abort(context, grpc.StatusCode.NOT_FOUND, f"no tournament {tid!r}")
        return t

    @timed
    async def AddGame(self, request: gw.AddGameRequest, context) -> gw.Standings:
        t = await self._tournament(request.tournament_id, context)
        await _at_most(context, request.token, limits.MAX_TOKEN_CHARS, "the token")
        if token_hash(request.token) != t.operator_token_sha256:
            await abort(context, grpc.StatusCode.PERMISSION_DENIED, f"the token is not the organiser's of {t.tournament_id}")
        led = await self._ledger(request.game_id, context)
        if request.game_id in t.game_ids:
            await abort(context, grpc.StatusCode.ALREADY_EXISTS,
                        f"game {request.game_id} is already in tournament {t.tournament_id}")
        mine = led.created.tournament_id == t.tournament_id or led.created.operator_token_sha256 == t.operator_token_sha256
        if not mine and (not request.game_operator_token
                         or token_hash(request.game_operator_token) != led.created.operator_token_sha256):
            await abort(context, grpc.StatusCode.PERMISSION_DENIED,
                        f"game {led.game_id} is not the organiser's: add it with its operator token "
                        "(game_operator_token)")
        body = log_pb2.TournamentGameAdded(added_game_id=request.game_id)
        await self.worker.append(make_envelope(body, game_id=t.tournament_id, seq=0, producer=self.worker.producer))
        await self.model.wait_until(lambda: request.game_id in t.game_ids, self.settings.submit_timeout_s)
        return self._standings(t)

    @timed
    async def GetStandings(self, request: gw.GetStandingsRequest, context) -> gw.Standings:
        return self._standings(await self._tournament(request.tournament_id, context))

    @timed
    async def ListTournaments(self, request: gw.ListTournamentsRequest, context) -> gw.ListTournamentsResponse:
        return gw.ListTournamentsResponse(tournaments=[
            gw.TournamentSummary(tournament_id=t.tournament_id, name=t.name, game_ids=list(t.game_ids),
                                 hosted=t.tournament_id in self.model.hosted)
            for t in self.model.tournaments.values()
        ])

    # titles ---------------------------------------------------------------------------------------

    @timed
    async def ListTitles(self, request: gw.ListTitlesRequest, context) -> gw.ListTitlesResponse:
        return _TITLES()

    @timed
    async def GetTitle(self, request: gw.GetTitleRequest, context) -> gw.TitleFacts:
        await _at_most(context, request.title, limits.MAX_FIELD_CHARS, "title")
        try:
            return _title_facts(request.title)
        except engine.GameError as exc:
            await abort(context, grpc.StatusCode.NOT_FOUND, exc.reason)

    def _standings(self, t) -> gw.Standings:
        games = [self.worker.games[g] for g in t.game_ids if g in self.worker.games]
        return standings(t.tournament_id, t.name, games)


def _seat_of(led: Ledger, digest: str) -> str | None:
    for player, h in zip(led.created.players, led.created.seat_token_sha256):
        if h == digest:
            return player.id
    return None


def game_view(led: Ledger, view: log_pb2.PublishedView, legal: bool) -> gw.GameView:
    """The GameView of a published view (its legal actions left out when not asked for)."""
    s = view.summary
    raw = packed.view_json(view)
    if view.legal_actions and not legal:
        detail = orjson.loads(raw)
        detail.pop("legal_actions", None)
        raw = orjson.dumps(detail)
    acting = list(s.acting_players)
    players = [
        gw.PlayerView(id=p.id, name=p.name, value=int(s.values.get(p.id, 0)), acting=p.id in acting)
        for p in led.created.players
    ]
    return gw.GameView(
        game_id=led.game_id, title=led.title, seq=view.seq, round_kind=s.round_kind,
        round_label=s.round_label, finished=s.finished, game_end_reason=s.game_end_reason,
        result=dict(s.result), players=players, acting_players=acting,
        optional_rules=list(led.created.optional_rules), seed=int(led.created.seed), view_json=raw,
        digest=view.digest,
    )


async def serve(ctx: Context, worker: Worker, model: ReadModel, health_services: list[str]):
    """Start the gRPC server (Gateway, health, reflection) and the web client's server (the same
    Gateway over the Connect protocol); returns (address, web client URL, stopper)."""
    from runtime import health
    from services.gateway import web

    settings = ctx.settings
    from contracts.v1 import tournament_api_pb2, tournament_api_pb2_grpc
    from services.gateway.hosting import Tournaments

    server = grpc.aio.server(options=[
        *health.SERVER_OPTIONS,
        ("grpc.max_receive_message_length", limits.MAX_REQUEST_BYTES),   # beyond: RESOURCE_EXHAUSTED
        ("grpc.max_send_message_length", limits.MAX_RESPONSE_BYTES),
    ])
    servicer = Gateway(ctx, worker, model)
    gateway_pb2_grpc.add_GatewayServicer_to_server(servicer, health.GenericOnly(server))
    tournaments = Tournaments(servicer)
    tournament_api_pb2_grpc.add_TournamentsServicer_to_server(tournaments, health.GenericOnly(server))
    status = health.Health(server, health_services, reflect=[
        gw.DESCRIPTOR.services_by_name["Gateway"].full_name,
        tournament_api_pb2.DESCRIPTOR.services_by_name["Tournaments"].full_name,
    ])
    bound = health.bind(server, settings.host, settings.port, "gateway gRPC")
    await server.start()
    if settings.web_port is not None:
        site = await web.serve(servicer, tournaments, settings.host, settings.web_port)
    else:  # the default port, or any free one when another instance on this host holds it
        try:
            site = await web.serve(servicer, tournaments, settings.host, DEFAULT_WEB_PORT)
        except OSError:
            site = await web.serve(servicer, tournaments, settings.host, 0)
    await status.set(True)
    model.start_following()

    async def stop(grace: float) -> None:
        with contextlib.suppress(Exception):
            await model.stop_following()
        await site.stop()
        await server.stop(grace)

    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    return f"{settings.host}:{bound}", f"http://{host}:{site.port}/", stop


@functools.cache
def _TITLES() -> gw.ListTitlesResponse:
    return gw.ListTitlesResponse(titles=[
        gw.TitleSummary(
            title=t["title"], slug=t["slug"], display=t["display"],
            min_players=t["min_players"], max_players=t["max_players"],
            optional_rules=[gw.OptionalRule(sym=r["sym"], short_name=r["short_name"], desc=r["desc"])
                            for r in t["optional_rules"]],
        )
        for t in engine.list_titles()
    ])


@functools.cache
def _title_facts(title: str) -> gw.TitleFacts:
    """A title's facts, serialised once per title (they never change while the process runs)."""
    facts = engine.title_facts(title)
    return gw.TitleFacts(title=facts["title"], slug=facts["slug"], facts_json=orjson.dumps(facts))
