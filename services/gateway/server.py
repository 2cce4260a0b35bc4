"""roundhouse.v1.Gateway: validate the caller, append commands, answer from the read model."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import re
import secrets
import time
import uuid

import grpc
import orjson

import engine
from contracts.actions import MalformedAction, action_from_json, action_to_json, route_from_json
from contracts.envelopes import Envelope, make_envelope
from contracts.v1 import gateway_pb2 as gw
from contracts.v1 import gateway_pb2_grpc, log_pb2
from runtime import metrics
from runtime.config import Settings
from runtime.replica import Replica, stored_action
from runtime.worker import RebuildError, Worker
from services.gateway.readmodel import ReadModel
from services.gateway.tournaments import standings

log = logging.getLogger(__name__)
R = log_pb2.RejectReason
GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$")
ANY_SEAT_TYPES = {"undo", "redo", "message"}  # any seat of the game (or the operator) may send these
OPERATOR_ONLY_TYPES = {"end_game"}  # ending a game early is the organiser's decision, not one seat's
OPERATOR = "operator"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Gateway(gateway_pb2_grpc.GatewayServicer):
    def __init__(self, settings: Settings, worker: Worker, model: ReadModel):
        self.settings = settings
        self.worker = worker
        self.model = model

    # helpers ------------------------------------------------------------------------------------

    async def _replica(self, game_id: str, context) -> Replica:
        """The game's replica, perhaps evicted (only its summary): for what needs no engine state."""
        if not game_id:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "game_id is required")
        rep = self.worker.games.get(game_id)
        if rep is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no game {game_id!r}")
        return rep

    @contextlib.asynccontextmanager
    async def _game(self, game_id: str, context, trigger: str = "read"):
        """The game's replica with its engine state (rebuilt when it was evicted), kept in memory
        while the call uses it."""
        rep = await self._replica(game_id, context)
        try:
            async with self.worker.pinned(rep, trigger) as loaded:
                yield loaded
        except RebuildError as exc:
            log.error("game %s could not be rebuilt: %s", game_id, exc)
            await context.abort(grpc.StatusCode.UNAVAILABLE, f"game {game_id} cannot be loaded now: {exc}")

    async def _append_created(self, game_id: str, created: log_pb2.GameCreated, seq: int, context) -> None:
        env = make_envelope(created, game_id=game_id, seq=seq, producer=self.worker.producer)
        await self.worker.append(env)
        if not await self.model.wait_until(lambda: game_id in self.worker.games, self.settings.submit_timeout_s):
            await context.abort(grpc.StatusCode.UNAVAILABLE, f"game {game_id} was logged but is not readable yet")

    async def _new_game_id(self, requested: str, context) -> str:
        if not requested:
            return "rh-" + uuid.uuid4().hex[:12]
        if not GAME_ID.match(requested):
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                "game_id must be 1-100 characters of letters, digits and _.:- (starting with a letter or digit)",
            )
        if requested in self.worker.games:
            await context.abort(grpc.StatusCode.ALREADY_EXISTS, f"game {requested!r} already exists")
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

    # games --------------------------------------------------------------------------------------

    async def CreateGame(self, request: gw.CreateGameRequest, context) -> gw.CreateGameResponse:
        if not request.title:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "title is required")
        if not request.seats:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "at least one seat is required")
        players, ids = [], set()
        for i, seat in enumerate(request.seats):
            if not seat.name.strip():
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"seat {i + 1} has no name")
            which = seat.WhichOneof("id")
            pid = getattr(seat, which) if which else seat.name
            if pid in ids:
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"seat {i + 1}: player id {pid!r} is used twice")
            ids.add(pid)
            players.append({"id": pid, "name": seat.name})
        game_id = await self._new_game_id(request.game_id, context)
        seed = request.seed if request.HasField("seed") else None
        try:
            game = engine.new_game(
                request.title, players, seed=seed, game_id=game_id,
                optional_rules=list(request.optional_rules),
            )
        except engine.GameError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, exc.reason)
        seats, tokens, hashes = self._seats(game.players)
        operator = new_token()
        created = log_pb2.GameCreated(
            title=game.title, players=seats, seed=int(game.seed),
            optional_rules=list(game.optional_rules), seat_token_sha256=hashes,
            operator_token_sha256=token_hash(operator), created_at=int(time.time()),
        )
        await self._append_created(game_id, created, 0, context)
        log.info("game %s created: %s, %d seats", game_id, game.title, len(seats))
        return gw.CreateGameResponse(game_id=game_id, seats=tokens, operator_token=operator, seq=0)

    async def ImportGame(self, request: gw.ImportGameRequest, context) -> gw.CreateGameResponse:
        try:
            export = orjson.loads(request.export_json)
        except orjson.JSONDecodeError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"export_json is not JSON: {exc}")
        if not isinstance(export, dict) or not isinstance(export.get("actions"), list):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "export_json must be an 18xx.games export (an object with actions)")
        game_id = await self._new_game_id(request.game_id, context)
        try:
            game = engine.import_game(export)
        except engine.GameError as exc:
            where = f" at action index {exc.index} (id {exc.action_id})" if exc.index is not None else ""
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"import failed{where}: {exc.reason}")
        except Exception as exc:  # the engine should raise GameError only; never crash the gateway
            log.exception("import_game raised %s", type(exc).__name__)
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"import failed: engine error {type(exc).__name__}: {exc}")
        seats, tokens, hashes = self._seats(game.players)
        operator = new_token()
        created = log_pb2.GameCreated(
            title=game.title, players=seats, seed=int(game.seed),
            optional_rules=list(game.optional_rules), seat_token_sha256=hashes,
            operator_token_sha256=token_hash(operator), import_json=orjson.dumps(export),
            created_at=int(time.time()),
        )
        await self._append_created(game_id, created, game.seq, context)
        return gw.CreateGameResponse(game_id=game_id, seats=tokens, operator_token=operator, seq=game.seq)

    # actions ------------------------------------------------------------------------------------

    async def SubmitAction(self, request: gw.SubmitActionRequest, context) -> gw.SubmitActionResponse:
        started = time.monotonic()
        if not request.HasField("action"):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "action is required")
        try:
            action = action_to_json(request.action)
        except MalformedAction as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"malformed action: {exc}")
        rep = await self._replica(request.game_id, context)
        if not request.token:
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "a seat token is required")
        digest = token_hash(request.token)  # the seats are known without loading the game
        actor = OPERATOR if digest == rep.created.operator_token_sha256 else rep.player_of_token_hash(digest)
        if actor is None:
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, f"the token is not a seat of game {rep.game_id}")
        async with self._game(request.game_id, context, "command") as rep:
            return await self._submit_action(rep, request, action, actor, started, context)

    async def _submit_action(self, rep: Replica, request, action: dict, actor: str, started: float, context):
        command_id = request.command_id or uuid.uuid4().hex
        if command_id in rep.decided:
            return await self._answer_decided(rep, rep.decided[command_id], command_id, context)
        if command_id not in rep.pending:
            await self._check_seq(rep, request.expected_seq, context)
            await self._authorize(rep, actor, action, context)
            action.pop("auto_actions", None)  # the engine computes its own
            action.setdefault("created_at", int(time.time()))
            await self._submit(rep, command_id, request.expected_seq, action, actor)
        env = await self._await_result(rep, command_id, context)
        metrics.COMMAND_LATENCY.labels("gateway").observe(time.monotonic() - started)
        if env is None:  # answered before this call started waiting
            return await self._answer_decided(rep, rep.decided[command_id], command_id, context)
        return await self._answer(rep, env, context)

    async def _check_seq(self, rep: Replica, expected: int, context) -> None:
        if expected > rep.seq:  # the read model may lag the log by a moment
            await self.model.wait_until(lambda: rep.seq >= expected, 2.0)
        if expected != rep.seq:
            what = "stale" if expected < rep.seq else "ahead of the game"
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"expected_seq {expected} is {what}: game {rep.game_id} is at seq {rep.seq}",
            )

    async def _authorize(self, rep: Replica, actor: str, action: dict, context) -> None:
        if actor == OPERATOR:
            return
        if action["type"] in OPERATOR_ONLY_TYPES:
            await context.abort(grpc.StatusCode.PERMISSION_DENIED,
                                f"only the game's operator token may {action['type'].replace('_', ' ')}")
        if action["type"] in ANY_SEAT_TYPES:
            return
        try:
            controller = rep.game.controller_of(action)
        except engine.GameError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, exc.reason)
        if controller is None or str(controller) != actor:
            who = "nobody" if controller is None else f"player {controller}"
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED,
                f"seat {actor} may not act for {action.get('entity_type', 'entity')} "
                f"{action.get('entity')!r} (controlled by {who})",
            )

    async def _submit(self, rep: Replica, command_id: str, expected: int, action: dict, actor: str) -> None:
        self.model.results.setdefault(command_id, asyncio.get_running_loop().create_future())
        cmd = log_pb2.CommandSubmitted(expected_seq=expected, action=action_from_json(action), actor=actor)
        env = make_envelope(cmd, game_id=rep.game_id, seq=expected, producer=self.worker.producer, command_id=command_id)
        await self.worker.append(env)

    async def _await_result(self, rep: Replica, command_id: str, context) -> Envelope | None:
        waiter = self.model.results.setdefault(command_id, asyncio.get_running_loop().create_future())
        if command_id in rep.decided and not waiter.done():
            self.model.results.pop(command_id, None)
            return None
        try:
            return await asyncio.wait_for(asyncio.shield(waiter), self.settings.submit_timeout_s)
        except asyncio.TimeoutError:
            self.model.results.pop(command_id, None)
            await context.abort(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"no answer for command {command_id} within {self.settings.submit_timeout_s:g}s"
                " (is the service owning this round running?); resubmit with the same command_id",
            )

    async def _answer(self, rep: Replica, env: Envelope, context) -> gw.SubmitActionResponse:
        if env.WhichOneof("body") == "action_rejected":
            rej = env.action_rejected
            await self._abort_rejected(rej.code, rej.reason, context)
        applied = env.action_applied
        return gw.SubmitActionResponse(
            seq=applied.seq, action=applied.action, round_kind=applied.round_kind,
            round_label=applied.round_label, finished=bool(rep.game.finished and rep.seq == applied.seq),
            command_id=env.command_id, acting_players=[str(p) for p in rep.game.acting_players()],
        )

    async def _answer_decided(self, rep: Replica, decided: log_pb2.DecidedCommand, command_id: str, context):
        if decided.rejected:
            await self._abort_rejected(decided.rejected, decided.reason, context)
        ap = stored_action(rep.game, decided.seq)
        return gw.SubmitActionResponse(
            seq=decided.seq, action=ap.action, command_id=command_id,
            finished=bool(rep.game.finished and rep.seq == decided.seq),
            acting_players=[str(p) for p in rep.game.acting_players()],
        )

    @staticmethod
    async def _abort_rejected(code: int, reason: str, context) -> None:
        status = {
            R.ILLEGAL_ACTION: grpc.StatusCode.INVALID_ARGUMENT,
            R.MALFORMED_ACTION: grpc.StatusCode.INVALID_ARGUMENT,
            R.STALE_SEQUENCE: grpc.StatusCode.FAILED_PRECONDITION,
            R.AHEAD_SEQUENCE: grpc.StatusCode.FAILED_PRECONDITION,
            R.GAME_FINISHED_ALREADY: grpc.StatusCode.FAILED_PRECONDITION,
        }.get(code, grpc.StatusCode.INTERNAL)
        await context.abort(status, reason)

    # reading ------------------------------------------------------------------------------------

    async def GetGame(self, request: gw.GetGameRequest, context) -> gw.GameView:
        async with self._game(request.game_id, context) as rep:
            return self.view(rep, legal_actions=not request.without_legal_actions)

    async def GetTileLays(self, request: gw.GetTileLaysRequest, context) -> gw.TileLays:
        """The engine's tile_lays for one hex of an entity's lay_hexes (see gateway.proto)."""
        if not request.entity or not request.entity_type or not request.hex:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "entity, entity_type and hex are required")
        async with self._game(request.game_id, context) as rep:
            try:
                lays = rep.game.tile_lays(request.entity, request.entity_type, request.hex)
            except engine.GameError as exc:
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, exc.reason)
            return gw.TileLays(game_id=rep.game_id, seq=rep.game.seq, hex=request.hex, lays=[
                gw.TileLay(tile=lay["tile"], rotations=lay["rotations"], cost=lay.get("cost")) for lay in lays])

    @staticmethod
    def view(rep: Replica, legal_actions: bool = True) -> gw.GameView:
        game = rep.game
        values = game.player_values()
        acting = [str(p) for p in game.acting_players()]
        players = [
            gw.PlayerView(id=p.id, name=p.name, value=int(values.get(p.id, 0)), acting=p.id in acting)
            for p in rep.created.players
        ]
        return gw.GameView(
            game_id=rep.game_id, title=game.title, seq=game.seq, round_kind=game.round_kind,
            round_label=game.round_label, finished=bool(game.finished),
            game_end_reason=game.game_end_reason or "",
            result={str(k): int(v) for k, v in (game.result or {}).items()},
            players=players, acting_players=acting, optional_rules=list(game.optional_rules),
            seed=int(game.seed), view_json=orjson.dumps(game.view(legal_actions=legal_actions)), digest=game.digest(),
        )

    async def WatchGame(self, request: gw.WatchGameRequest, context):
        queue: asyncio.Queue = asyncio.Queue()
        async with self._game(request.game_id, context) as rep:
            self.model.watchers[rep.game_id].add(queue)
            history = [stored_action(rep.game, seq) for seq in range(request.from_seq + 1, rep.seq + 1)]
        try:
            sent = request.from_seq
            for ap in history:
                yield make_envelope(ap, game_id=rep.game_id, seq=ap.seq, producer=self.worker.producer)
                sent = ap.seq
            while True:
                env = await queue.get()
                if env.WhichOneof("body") == "action_applied" and env.seq <= sent:
                    continue
                yield env
        finally:
            watching = self.model.watchers.get(rep.game_id, set())
            watching.discard(queue)
            if not watching:
                self.model.watchers.pop(rep.game_id, None)

    async def ListGames(self, request: gw.ListGamesRequest, context) -> gw.ListGamesResponse:
        games = []  # from what every replica knows, evicted or not: listing loads no game
        for rep in sorted(self.worker.games.values(), key=lambda r: (r.created.created_at, r.game_id)):
            if rep.finished and not request.include_finished:
                continue
            games.append(gw.GameSummary(
                game_id=rep.game_id, title=rep.title, seq=rep.seq, round_label=rep.round_label,
                finished=rep.finished, players=[p.name for p in rep.created.players],
            ))
        return gw.ListGamesResponse(games=games)

    async def BestRoutes(self, request: gw.BestRoutesRequest, context) -> gw.BestRoutesResponse:
        if not request.corporation:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "corporation is required")
        async with self._game(request.game_id, context) as rep:
            try:
                routes = rep.game.best_routes(request.corporation)
            except engine.GameError as exc:
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, exc.reason)
            return gw.BestRoutesResponse(
                seq=rep.game.seq, routes=[route_from_json(r) for r in routes],
                revenue=sum(int(r.get("revenue") or 0) for r in routes),
            )

    async def ExportGame(self, request: gw.ExportGameRequest, context) -> gw.ExportGameResponse:
        async with self._game(request.game_id, context) as rep:
            return gw.ExportGameResponse(export_json=orjson.dumps(rep.game.export()))

    # tournaments --------------------------------------------------------------------------------

    async def CreateTournament(self, request: gw.CreateTournamentRequest, context) -> gw.CreateTournamentResponse:
        if not request.name.strip():
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "a tournament needs a name")
        tid = request.tournament_id or "t-" + uuid.uuid4().hex[:12]
        if not GAME_ID.match(tid):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "tournament_id: 1-100 letters, digits and _.:-")
        if tid in self.model.tournaments or tid in self.worker.games:
            await context.abort(grpc.StatusCode.ALREADY_EXISTS, f"id {tid!r} is taken")
        operator = new_token()
        body = log_pb2.TournamentCreated(
            name=request.name, operator_token_sha256=token_hash(operator), created_at=int(time.time())
        )
        await self.worker.append(make_envelope(body, game_id=tid, seq=0, producer=self.worker.producer))
        if not await self.model.wait_until(lambda: tid in self.model.tournaments, self.settings.submit_timeout_s):
            await context.abort(grpc.StatusCode.UNAVAILABLE, f"tournament {tid} was logged but is not readable yet")
        return gw.CreateTournamentResponse(tournament_id=tid, operator_token=operator)

    async def _tournament(self, tid: str, context):
        t = self.model.tournaments.get(tid)
        if t is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no tournament {tid!r}")
        return t

    async def AddGame(self, request: gw.AddGameRequest, context) -> gw.Standings:
        t = await self._tournament(request.tournament_id, context)
        if token_hash(request.token) != t.operator_token_sha256:
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, f"the token is not the organiser's of {t.tournament_id}")
        await self._replica(request.game_id, context)
        if request.game_id not in t.game_ids:
            body = log_pb2.TournamentGameAdded(added_game_id=request.game_id)
            await self.worker.append(make_envelope(body, game_id=t.tournament_id, seq=0, producer=self.worker.producer))
            await self.model.wait_until(lambda: request.game_id in t.game_ids, self.settings.submit_timeout_s)
        return self._standings(t)

    async def GetStandings(self, request: gw.GetStandingsRequest, context) -> gw.Standings:
        return self._standings(await self._tournament(request.tournament_id, context))

    async def ListTournaments(self, request: gw.ListTournamentsRequest, context) -> gw.ListTournamentsResponse:
        return gw.ListTournamentsResponse(tournaments=[
            gw.TournamentSummary(tournament_id=t.tournament_id, name=t.name, game_ids=list(t.game_ids))
            for t in self.model.tournaments.values()
        ])

    # titles ---------------------------------------------------------------------------------------

    async def ListTitles(self, request: gw.ListTitlesRequest, context) -> gw.ListTitlesResponse:
        return _TITLES()

    async def GetTitle(self, request: gw.GetTitleRequest, context) -> gw.TitleFacts:
        try:
            return _title_facts(request.title)
        except engine.GameError as exc:
            await context.abort(grpc.StatusCode.NOT_FOUND, exc.reason)
            raise  # (abort raises)

    def _standings(self, t) -> gw.Standings:
        games = [self.worker.games[g] for g in t.game_ids if g in self.worker.games]
        return standings(t.tournament_id, t.name, games)


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
