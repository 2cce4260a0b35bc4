"""roundhouse.v1.Tournaments: hosted tournaments, served by the gateway beside roundhouse.v1.Gateway.

Every call is checked against the gateway's copy of the tournament (libs/tournament's `Tournament`,
rebuilt from the tournament's records by the read model) and becomes records on the log: the
tournament's own events (key: the tournament id), each table's GameCreated and ClockStarted and the
organiser's clock records (key: the game id). The gateway waits until it has read its record back,
so the answer shows it. A restarted gateway rebuilds all of it from the log (and the tournament
records kept in the snapshots topic). docs/architecture.md, "Tournaments", says who appends what.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections import defaultdict
from typing import NoReturn

import grpc

from contracts import tournament as tc
from contracts.envelopes import now_ms
from contracts.v1 import log_pb2
from contracts.v1 import tournament_api_pb2 as api
from contracts.v1 import tournament_api_pb2_grpc
from runtime.engines import EngineError
from runtime.seats import new_token, token_hash
from services.gateway.server import GAME_ID, Gateway, abort, lookup, require_admin, timed
from tournament import ClockAdjusted, ClockPaused, ClockResumed, ClockStarted, Tournament, TournamentError, events
from tournament import Standings, notify, standings
from tournament.ratings import tournament_ratings
from tournament.settings import title_info

LIVE_STANDINGS_S = 1.0     # live standings are computed at most this often per tournament


def table_seed(round_seed: int, table: int) -> int:
    """A table's game seed, derived from its round's seed and its number."""
    digest = hashlib.sha256(f"{round_seed}:{table}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


class Tournaments(tournament_api_pb2_grpc.TournamentsServicer):
    def __init__(self, gateway: Gateway):
        self.gateway = gateway
        self.settings = gateway.settings
        self.worker = gateway.worker
        self.model = gateway.model
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._standings: dict[tuple, tuple[float, int, int, Standings]] = {}

    # helpers ------------------------------------------------------------------------------------

    async def _hosted(self, tid: str, context) -> Tournament:
        return await lookup(self.model.hosted, tid, "hosted tournament", context)

    async def _organiser(self, tid: str, token: str, context) -> Tournament:
        t = await self._hosted(tid, context)
        if not token:
            await abort(context, grpc.StatusCode.UNAUTHENTICATED, "the organiser's token is required")
        if token_hash(token) != t.organiser_token_sha256:
            await abort(context, grpc.StatusCode.PERMISSION_DENIED, f"the token is not the organiser's of {tid}")
        return t

    async def _refused(self, exc: TournamentError, context, code=grpc.StatusCode.FAILED_PRECONDITION) -> NoReturn:
        await abort(context, code, exc.reason)

    async def _append(self, key: str, event, context) -> None:
        """Append one library event as a record keyed `key`, and wait until this gateway took it in."""
        env = tc.to_envelope(event, key=key, producer=self.worker.producer)
        record = await self.worker.append(env)
        where = (record.partition, record.offset)
        if key in self.model.hosted or key not in self.worker.games:
            taken = lambda: where in self.model._taken   # noqa: E731
        else:
            led = self.worker.games[key]
            taken = lambda: led.last_offset >= record.offset   # noqa: E731
        if not await self.model.wait_until(taken, self.settings.submit_timeout_s):
            await abort(context, grpc.StatusCode.UNAVAILABLE, f"a record of {key} was logged but is not readable yet")

    async def _event(self, t: Tournament, decide, context, code=grpc.StatusCode.FAILED_PRECONDITION):
        """Decide an event with the tournament (`decide(t)`: a library command), append it, and wait
        until it is taken in; one at a time per tournament in this gateway."""
        async with self._locks[t.id]:
            try:
                event = decide(t)
            except TournamentError as exc:
                await self._refused(exc, context, code)
            await self._append(t.id, event, context)
        return event

    # hosting and registration -------------------------------------------------------------------

    @timed
    async def HostTournament(self, request: api.HostTournamentRequest, context) -> api.HostTournamentResponse:
        await require_admin(self.settings, request.admin_token, context)
        if not request.HasField("settings"):
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "settings are required")
        try:
            given = request.settings
            if not given.min_table_size:   # the usual smallest table (Settings.make)
                given.min_table_size = max(title_info(given.title)["min_players"], given.table_size - 1)
            settings = tc.settings_from_proto(given)
        except TournamentError as exc:
            await self._refused(exc, context, grpc.StatusCode.INVALID_ARGUMENT)
        tid = request.tournament_id or "t-" + secrets.token_hex(6)
        if not GAME_ID.match(tid):
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "tournament_id: 1-100 letters, digits and _.:-")
        if tid in self.model.tournaments or tid in self.worker.games:
            await abort(context, grpc.StatusCode.ALREADY_EXISTS, f"id {tid!r} is taken")
        organiser = new_token()
        created = events.TournamentCreated(tournament_id=tid, name=request.name, settings=settings,
                                           organiser_token_sha256=token_hash(organiser), at_ms=now_ms())
        try:
            Tournament.create(created)
        except TournamentError as exc:
            await self._refused(exc, context, grpc.StatusCode.INVALID_ARGUMENT)
        await self.worker.append(tc.to_envelope(created, key=tid, producer=self.worker.producer))
        if not await self.model.wait_until(lambda: tid in self.model.tournaments, self.settings.submit_timeout_s):
            await abort(context, grpc.StatusCode.UNAVAILABLE, f"tournament {tid} was logged but is not readable yet")
        if self.model.tournaments[tid].operator_token_sha256 != created.organiser_token_sha256:
            await abort(context, grpc.StatusCode.ALREADY_EXISTS, f"id {tid!r} is taken")
        return api.HostTournamentResponse(tournament_id=tid, organiser_token=organiser)

    @timed
    async def SetRegistration(self, request: api.SetRegistrationRequest, context) -> api.TournamentView:
        t = await self._organiser(request.tournament_id, request.token, context)
        at = now_ms()
        await self._event(t, (lambda t: t.open_registration(at)) if request.open else (lambda t: t.close_registration(at)),
                          context)
        return tc.tournament_view(t, organiser=True)

    @timed
    async def Register(self, request: api.RegisterRequest, context) -> api.RegisterResponse:
        t = await self._hosted(request.tournament_id, context)
        if request.token and token_hash(request.token) != t.organiser_token_sha256:
            await abort(context, grpc.StatusCode.PERMISSION_DENIED, f"the token is not the organiser's of {t.id}")
        if not t.registration_open:
            await abort(context, grpc.StatusCode.FAILED_PRECONDITION, "Registration is closed")
        secret = new_token()
        digest = token_hash(secret)
        at = now_ms()
        event = await self._event(t, lambda t: t.register(request.name, digest, at, contact=request.contact,
                                                          webhook_url=request.webhook_url),
                                  context, grpc.StatusCode.INVALID_ARGUMENT)
        player = t.player_by_token(digest)
        if player is None:   # another gateway registered someone first with the same id: refused
            await abort(context, grpc.StatusCode.ABORTED, "registration raced with another; register again")
        hook = ""
        if event.webhook_url:
            hook = notify.webhook_secret(self.settings.webhook_server_key(), t.id, player.id)
        return api.RegisterResponse(player_id=player.id, player_token=secret, webhook_secret=hook)

    @timed
    async def Withdraw(self, request: api.WithdrawRequest, context) -> api.TournamentView:
        t = await self._hosted(request.tournament_id, context)
        digest = token_hash(request.token) if request.token else ""
        if digest and digest == t.organiser_token_sha256:
            if not request.player_id:
                await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "player_id is required with the organiser's token")
            pid, by_organiser = request.player_id, True
        else:
            player = t.player_by_token(digest) if digest else None
            if player is None:
                await abort(context, grpc.StatusCode.PERMISSION_DENIED, "the token is neither a player's nor the organiser's")
            if request.player_id and request.player_id != player.id:
                await abort(context, grpc.StatusCode.PERMISSION_DENIED, "a player may withdraw only itself")
            pid, by_organiser = player.id, False
        at = now_ms()
        await self._event(t, lambda t: t.withdraw(pid, at, by_organiser=by_organiser, reason=request.reason), context)
        return tc.tournament_view(t, organiser=by_organiser)

    # rounds -------------------------------------------------------------------------------------

    @timed
    async def SeatRound(self, request: api.SeatRoundRequest, context) -> api.RoundView:
        t = await self._organiser(request.tournament_id, request.token, context)
        seed = request.seed if request.HasField("seed") else secrets.randbits(31)
        at = now_ms()
        if request.tables:
            tables = tuple(tuple(tb.player_ids) for tb in request.tables)

            def decide(t: Tournament):
                return t._checked(events.RoundSeated(round=t._round_to_seat(), seed=seed, tables=tables, at_ms=at))
        else:
            def decide(t: Tournament):
                return t.seat_round(seed, at)
        await self._event(t, decide, context)
        return tc.round_view(t.rounds[-1])

    @timed
    async def StartRound(self, request: api.StartRoundRequest, context) -> api.RoundView:
        """Create every table's game (GameCreated, then its ClockStarted), then the round started.
        Called again after a failure, it skips the tables whose game is on the log already."""
        t = await self._organiser(request.tournament_id, request.token, context)
        async with self._locks[t.id]:
            current = t.rounds[-1] if t.rounds else None
            if current is None or current.started:
                await abort(context, grpc.StatusCode.FAILED_PRECONDITION, "No round is seated and waiting to start")
            if request.round != current.number:
                await abort(context, grpc.StatusCode.FAILED_PRECONDITION,
                            f"Round {current.number} is the one waiting to start, not {request.round}")
            at = now_ms()
            try:
                started = t.start_round(at)
            except TournamentError as exc:
                await self._refused(exc, context)
            await asyncio.gather(*(self._create_table(t, current, table, game_id, context)
                                   for table, game_id in zip(current.tables, started.game_ids)))
            await self._append(t.id, events.RoundStarted(round=started.round, game_ids=started.game_ids,
                                                         at_ms=now_ms()), context)
        return tc.round_view(t.rounds[current.number - 1])

    async def _create_table(self, t: Tournament, rnd, table, game_id: str, context) -> None:
        s = t.settings
        led = self.worker.games.get(game_id)
        if led is None:
            try:
                setup = await self.gateway._setup(s.title, list(s.optional_rules), len(table.seats))
            except EngineError as exc:
                await abort(context, grpc.StatusCode.FAILED_PRECONDITION, f"table {table.number}: {exc.reason}")
            pids = list(table.seats)
            players = [t.players[p] for p in pids]
            created = log_pb2.GameCreated(
                title=setup["title"], players=[log_pb2.Player(id=p.id, name=p.name) for p in players],
                seed=table_seed(rnd.seed, table.number), optional_rules=list(s.optional_rules),
                seat_token_sha256=[p.token_sha256 for p in players],
                operator_token_sha256=t.organiser_token_sha256, created_at=int(time.time()),
                summary=log_pb2.ReplicaSummary(
                    seq=0, round_kind=setup["round_kind"], round_label=setup["round_label"],
                    values=dict(zip(pids, setup["values"])), acting_players=[pids[i] for i in setup["acting"]]),
                tournament_id=t.id, undo_policy=tc._UNDO[s.undo_policy],
                seat_webhook_urls=[p.webhook_url for p in players], tournament_round=rnd.number,
                tournament_table=table.number, rated=s.rated, timed=s.time_control is not None,
            )
            await self.gateway._append_created(game_id, created, 0, context)
            led = self.worker.games[game_id]
        if led.created.tournament_id != t.id:
            await abort(context, grpc.StatusCode.ALREADY_EXISTS,
                        f"game {game_id!r} exists and is not this tournament's")
        if s.time_control is not None and led.clock is None:
            started = ClockStarted(seats=tuple(p.id for p in led.created.players), control=s.time_control,
                                   acting=tuple(led.created.summary.acting_players),
                                   round_label=led.created.summary.round_label, seq=0, at_ms=now_ms(),
                                   flag_policy=s.flag_policy)
            await self._append(game_id, started, context)

    # clocks -------------------------------------------------------------------------------------

    async def _timed_game(self, t: Tournament, game_id: str, context):
        if game_id not in t.games:
            await abort(context, grpc.StatusCode.NOT_FOUND, f"game {game_id!r} is not a table of {t.id}")
        led = await self.gateway._ledger(game_id, context)
        if led.clock is None:
            await abort(context, grpc.StatusCode.FAILED_PRECONDITION, f"game {game_id} has no clocks")
        return led

    async def _clock_control(self, request: api.ClockControlRequest, context, pause: bool) -> api.ClocksResponse:
        t = await self._organiser(request.tournament_id, request.token, context)
        if request.game_id:
            games = [await self._timed_game(t, request.game_id, context)]
        else:
            current = [r for r in t.rounds if r.started]
            ids = [tb.game_id for tb in current[-1].tables if not tb.finished] if current else []
            games = [self.worker.games[g] for g in ids if g in self.worker.games and self.worker.games[g].clock]
        for led in games:
            clock = led.clock
            if clock.finished or clock.paused == pause:
                if request.game_id:
                    await abort(context, grpc.StatusCode.FAILED_PRECONDITION,
                                f"the clocks of {led.game_id} are {'paused' if clock.paused else 'running'}"
                                + (" (the game is over)" if clock.finished else ""))
                continue
            event = ClockPaused(at_ms=now_ms(), reason=request.reason) if pause else ClockResumed(at_ms=now_ms())
            await self._append(led.game_id, event, context)
        now = now_ms()
        return api.ClocksResponse(clocks=[tc.clock_view(led.game_id, led.clock, now) for led in games])

    @timed
    async def PauseClocks(self, request: api.ClockControlRequest, context) -> api.ClocksResponse:
        return await self._clock_control(request, context, True)

    @timed
    async def ResumeClocks(self, request: api.ClockControlRequest, context) -> api.ClocksResponse:
        return await self._clock_control(request, context, False)

    @timed
    async def AdjustClock(self, request: api.AdjustClockRequest, context) -> api.ClockView:
        t = await self._organiser(request.tournament_id, request.token, context)
        led = await self._timed_game(t, request.game_id, context)
        if request.seat not in led.clock.seats:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"{request.seat!r} is not a seat of {led.game_id}")
        if request.seat in led.clock.flagged:
            await abort(context, grpc.StatusCode.FAILED_PRECONDITION,
                        f"{request.seat}'s flag has fallen: the clock cannot be adjusted")
        if request.delta_ms == 0:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "delta_ms must not be 0")
        await self._append(led.game_id, ClockAdjusted(seat=request.seat, delta_ms=request.delta_ms, at_ms=now_ms(),
                                                      reason=request.reason), context)
        return tc.clock_view(led.game_id, led.clock, now_ms())

    @timed
    async def GetClocks(self, request: api.GetClocksRequest, context) -> api.ClockView:
        led = await self.gateway._ledger(request.game_id, context)
        if led.clock is None:
            await abort(context, grpc.StatusCode.FAILED_PRECONDITION, f"game {led.game_id} has no clocks")
        return tc.clock_view(led.game_id, led.clock, now_ms())

    # reading ------------------------------------------------------------------------------------

    @timed
    async def GetTournament(self, request: api.GetTournamentRequest, context) -> api.TournamentView:
        t = await self._hosted(request.tournament_id, context)
        organiser = bool(request.token) and token_hash(request.token) == t.organiser_token_sha256
        return tc.tournament_view(t, organiser=organiser)

    @timed
    async def GetMySeats(self, request: api.GetMySeatsRequest, context) -> api.MySeats:
        t = await self._hosted(request.tournament_id, context)
        player = t.player_by_token(token_hash(request.token)) if request.token else None
        if player is None:
            await abort(context, grpc.StatusCode.PERMISSION_DENIED, f"the token is not a player's of {t.id}")
        return tc.my_seats(t, player.id)

    def standings_of(self, t: Tournament, live: bool, through_round: int) -> Standings:
        """The library's standings (cached until the tournament's next record; live ones at most
        once a second)."""
        key = (t.id, live, through_round)
        version = self.model.versions[t.id]
        known = self._standings.get(key)
        now = time.monotonic()
        if known is not None and known[1] == version and (not live or now - known[0] < LIVE_STANDINGS_S):
            return known[3]
        values = {}
        if live:
            for g in t.games:
                led = self.worker.games.get(g)
                if led is not None and not led.finished:
                    values[g] = dict(led.values)
        table = standings(t, live=values, through_round=through_round or None,
                          ratings=tournament_ratings(self.model.book, t) if t.settings.rated else None)
        self._standings[key] = (now, version, 0, table)
        return table

    @timed
    async def GetTournamentStandings(self, request: api.GetTournamentStandingsRequest, context) -> api.TournamentStandings:
        t = await self._hosted(request.tournament_id, context)
        return tc.standings_to_proto(self.standings_of(t, request.live, request.through_round))

    @timed
    async def ExportStandings(self, request: api.ExportStandingsRequest, context) -> api.ExportStandingsResponse:
        q = request.standings
        t = await self._hosted(q.tournament_id, context)
        return tc.export_standings(self.standings_of(t, q.live, q.through_round), request.format)

    @timed
    async def GetRatings(self, request: api.GetRatingsRequest, context) -> api.RatingsView:
        try:
            return tc.ratings_view(self.model.book, request.scope, player=request.player, limit=request.limit)
        except TournamentError as exc:
            await self._refused(exc, context, grpc.StatusCode.INVALID_ARGUMENT)

    @timed
    async def WatchTournament(self, request: api.WatchTournamentRequest, context):
        t = await self._hosted(request.tournament_id, context)
        queue: asyncio.Queue = asyncio.Queue()
        watchers = self.model.tournament_watchers[t.id]
        watchers.add(queue)
        history = list(self.model.tournament_records.get(t.id, ()))   # (later records come on the queue)
        try:
            for env in history:
                yield env
            while True:
                yield await queue.get()
        finally:
            watchers.discard(queue)
