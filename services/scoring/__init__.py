"""The scoring service: live net worth and final results of every game; tournament clocks,
results, ratings and webhooks.

It reads every game's records and publishes the players' current net worth (ScoreUpdated) as the
game goes on, at most once per `score_interval_s` per game (the latest values then: a burst of moves
makes one record), and a GameFinished with the result and end reason once a game is over. Both
come from what the owner's ActionApplied carries: scoring holds no engine and decides nothing.

For the tables of hosted tournaments (docs/architecture.md, "Tournaments"), the instance holding a
game's partition is also its clock keeper (a FlagFell once a running clock's deadline, computed from
the log, has passed), appends the table's TableFinished (and RatingRequested when rated) before its
GameFinished, and sends the seats' "your turn" webhooks (services.scoring.webhooks). The instance
holding the `ratings` partition is the rater: it answers each RatingRequested, in log order, with the
GameRated its RatingBook computes.
"""

from __future__ import annotations

import asyncio
import logging
import time

from bus.base import Record, partition_for
from contracts import tournament as tc
from contracts.envelopes import Envelope, now_ms
from contracts.v1 import log_pb2
from runtime.ledger import Ledger
from runtime.service import Context, Service
from runtime.worker import Hooks, Worker
from services.scoring.webhooks import Deliverer
from tournament import RatingBook, RatingRequested, TableFinished, TournamentError, TurnChanged, identity, placements
from tournament.notify import RetryPolicy

log = logging.getLogger(__name__)
FLAG_CHECK_S = 0.1     # how often running clocks are compared with the time

NAME = "scoring"


class Scoring(Hooks):
    def __init__(self, interval_s: float, deliverer: Deliverer | None = None) -> None:
        self.interval_s = interval_s
        self.deliverer = deliverer
        self._flags_sent: set[tuple[str, str, int]] = set()   # (game, seat, seq) FlagFell appended here
        self._last_flag_check = 0.0
        self._acting: dict[str, tuple[str, ...]] = {}           # tournament game -> seats it waited for
        # the rater (the instance holding the `ratings` partition)
        self.book = RatingBook()
        self._ratings_offset = -1                              # ratings records up to here are in the book
        self._rating: asyncio.Task | None = None
        self._requests: asyncio.Queue = asyncio.Queue()
        # game id -> (seq of the last ScoreUpdated this process appended, GameFinished appended)
        self._sent: dict[str, tuple[int, bool]] = {}
        self._sent_at: dict[str, float] = {}
        self._due: set[str] = set()   # games whose values moved since their last ScoreUpdated

    async def on_record(self, worker: Worker, led: Ledger, env: Envelope, what: str, live: bool) -> None:
        body = env.WhichOneof("body")
        if live and body in ("game_created", "action_applied"):
            self._due.add(led.game_id)
        if live and self.deliverer is not None and led.created.tournament_id:
            self._announce(led, env, body)

    def _announce(self, led: Ledger, env: Envelope, body: str) -> None:
        turn = None
        if body == "game_created" and not led.created.timed:
            s = led.created.summary
            turn = TurnChanged(seq=s.seq, actor="", action_type="", acting=tuple(s.acting_players),
                               round_label=s.round_label, finished=s.finished, at_ms=env.timestamp_ms)
        elif body == "action_applied":
            turn = tc.turn_from_applied(env)
        elif body == "game_clock" and env.game_clock.HasField("started"):
            turn = tc.from_envelope(env)
        if turn is None:
            return
        before = self._acting.get(led.game_id, ())
        self._acting[led.game_id] = tuple(turn.acting)
        self.deliverer.announce(led.game_id, led.created, before, turn, led.clock)

    # clocks -------------------------------------------------------------------------------------

    async def _check_flags(self, worker: Worker) -> None:
        """Append a FlagFell for every running clock of a live partition past its deadline."""
        now = now_ms()
        for led in list(worker.games.values()):
            clock = led.clock
            if clock is None or led.finished or led.partition not in worker.live:
                continue
            fell = clock.flag_check(now)
            if fell is None or clock.seq != led.seq:
                continue
            key = (led.game_id, fell.seat, fell.seq)
            if key in self._flags_sent:
                continue
            self._flags_sent.add(key)
            log.info("game %s: %s's flag fell at seq %d", led.game_id, fell.seat, fell.seq)
            await worker.append(tc.to_envelope(fell, key=led.game_id, producer=worker.producer, seq=led.seq))

    # tournament results and ratings -------------------------------------------------------------

    async def _table_finished(self, worker: Worker, led: Ledger) -> None:
        """A tournament table's result (and its rating request), before the game's GameFinished: a
        successor that finds no GameFinished appends them again, and the tournament and the rater
        refuse the repeats."""
        c = led.created
        if not c.tournament_id or not c.tournament_round:
            return
        forfeited = tuple(led.clock.flagged) if led.clock is not None else ()
        result = {k: int(v) for k, v in led.result.items()}
        at = now_ms()
        finished = TableFinished(round=c.tournament_round, table=c.tournament_table, result=result,
                                 end_reason=led.game_end_reason, at_ms=at, forfeited=forfeited)
        await worker.append(tc.to_envelope(finished, key=c.tournament_id, producer=worker.producer))
        if c.rated and len(result) >= 2:
            names = {p.id: p.name for p in c.players}
            places = placements(result, forfeited)
            request = RatingRequested(game_id=led.game_id, title=c.title, at_ms=at,
                                      places={identity(names[p]): place for p, place in places.items()})
            await worker.append(tc.to_envelope(request, key=tc.RATINGS_KEY, producer=worker.producer))

    async def on_tournament(self, worker: Worker, env: Envelope, record: Record) -> None:
        if env.WhichOneof("body") != "ratings_event" or record.partition not in worker.live:
            return   # (a ratings partition catching up is read whole when it goes live)
        if record.offset <= self._ratings_offset:
            return
        self._ratings_offset = record.offset
        self._take_rating(env)

    def _take_rating(self, env: Envelope) -> None:
        event = tc.from_envelope(env)
        if isinstance(event, RatingRequested):
            self._requests.put_nowait(event)
        elif event.game_id not in self.book.rated_games:
            try:
                self.book.apply(event)
            except TournamentError as exc:
                log.warning("ratings of %s skipped: %s", event.game_id, exc.reason)

    async def _rate(self, worker: Worker) -> None:
        """Answer rating requests one at a time, in log order (each from the book its predecessors
        made: the book takes our own GameRated at once)."""
        while True:
            request = await self._requests.get()
            rated = self.book.rate_request(request, now_ms())
            if rated is None:
                continue
            self.book.apply(rated)
            await worker.append(tc.to_envelope(rated, key=tc.RATINGS_KEY, producer=worker.producer))

    async def _load_ratings(self, worker: Worker, partition: int) -> None:
        """The ratings partition is ours: the book from every ratings record, requests not answered
        yet answered."""
        self.book = RatingBook()
        pending: dict[str, RatingRequested] = {}
        records = await worker.log.read_key(worker.settings.games_topic, partition, tc.RATINGS_KEY)
        for record in records:
            env = log_pb2.Envelope.FromString(record.value)
            event = tc.from_envelope(env)
            if isinstance(event, RatingRequested):
                pending.setdefault(event.game_id, event)
            else:
                self._take_rating(env)
            self._ratings_offset = max(self._ratings_offset, record.offset)
        for game_id, request in pending.items():
            if game_id not in self.book.rated_games:
                self._requests.put_nowait(request)
        if self._rating is None or self._rating.done():
            self._rating = asyncio.create_task(self._rate(worker), name="scoring-rater")

    async def on_batch(self, worker: Worker) -> None:
        await self._publish_due(worker)

    async def on_tick(self, worker: Worker) -> None:
        if self._due:
            await self._publish_due(worker)
        now = time.monotonic()
        if now - self._last_flag_check >= FLAG_CHECK_S:
            self._last_flag_check = now
            await self._check_flags(worker)

    async def _publish_due(self, worker: Worker) -> None:
        now = time.monotonic()
        ready = [g for g in self._due if now - self._sent_at.get(g, 0.0) >= self.interval_s
                 or (g in worker.games and worker.games[g].finished)]
        if not ready:
            return
        self._due.difference_update(ready)
        games = [worker.games[g] for g in ready if g in worker.games]
        await asyncio.gather(*(self.publish(worker, led) for led in games))

    async def on_live(self, worker: Worker, partition: int) -> None:
        if partition == partition_for(tc.RATINGS_KEY, worker.log.partitions):
            await self._load_ratings(worker, partition)
        await asyncio.gather(*(self.publish(worker, led) for led in worker.ledgers(partition)))

    async def on_revoked(self, worker: Worker, partitions: set[int]) -> None:
        if partition_for(tc.RATINGS_KEY, worker.log.partitions) in partitions and self._rating is not None:
            self._rating.cancel()
            self._requests = asyncio.Queue()
            self._ratings_offset = -1

    async def stop(self, worker: Worker) -> None:
        if self._rating is not None:
            self._rating.cancel()
        if self.deliverer is not None:
            await self.deliverer.stop()

    async def on_dropped(self, worker: Worker, game_ids: list[str]) -> None:
        for g in game_ids:
            self._sent.pop(g, None)
            self._sent_at.pop(g, None)
            self._due.discard(g)
            self._acting.pop(g, None)

    async def publish(self, worker: Worker, led: Ledger) -> None:
        sent_seq, sent_finish = self._sent.get(led.game_id, (0, False))
        appends = []
        if led.seq > max(led.score_seq, sent_seq) and led.values:
            appends.append(worker.emit(led, log_pb2.ScoreUpdated(values=led.values)))
            sent_seq = led.seq
            self._sent_at[led.game_id] = time.monotonic()
        if led.finished and not (led.finished_published or sent_finish):
            await self._table_finished(worker, led)
            appends.append(worker.emit(
                led, log_pb2.GameFinished(result=led.result, game_end_reason=led.game_end_reason)))
            sent_finish = True
        self._sent[led.game_id] = (sent_seq, sent_finish)
        for append in appends:
            await append


def build(ctx: Context) -> Service:
    settings = ctx.settings
    deliverer = Deliverer(settings.webhook_server_key, RetryPolicy(first_delay_s=settings.webhook_retry_first_s))
    return Service(NAME, Scoring(settings.score_interval_s, deliverer), group=settings.group(NAME))
