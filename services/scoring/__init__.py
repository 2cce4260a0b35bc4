"""The scoring service: live net worth and final results of every game; tournament clocks,
results, ratings and webhooks.

It reads every game's records and publishes the players' current net worth (ScoreUpdated) as the
game goes on: every `score_interval_s`, one record for each game whose values moved since its last
one (the latest values then: a burst of moves makes one record), all appended together (one write,
one produce request, instead of one per action); and a GameFinished with the result and end reason
as soon as a game is over. Both come from what the owner's ActionApplied carries: scoring holds no
engine and decides nothing.

For the tables of hosted tournaments (docs/architecture.md, "Tournaments"), the instance holding a
game's partition is also its clock keeper (a FlagFell once a running clock's deadline, computed from
the log, has passed), appends the table's TableFinished (and RatingRequested when rated) before its
GameFinished, and sends the seats' "your turn" webhooks the game's records leave outstanding
(services.scoring.webhooks), recording each one that ended. The instance holding the `ratings`
partition is the rater: it folds the ratings' records into a RatingsFeed as it reads them, and
answers the oldest unrated request with the GameRated that book gives, one at a time; it drops the
feed when it loses the partition.
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
from services.scoring.webhooks import Deliverer, seats_of
from tournament import GameRated, RatingRequested, RatingsFeed, TableFinished, identity, placements
from tournament.notify import RetryPolicy, Turn, TurnNotified, delivery_id, notice

log = logging.getLogger(__name__)
FLAG_CHECK_S = 0.1     # how often running clocks are compared with the time
RATING_RETRY_S = 1.0   # a GameRated that could not be appended is tried again after this
# a game's records after which its outstanding notices are looked at
NOTICE_BODIES = frozenset({"game_created", "action_applied", "game_clock", "turn_notified"})

NAME = "scoring"


class Scoring(Hooks):
    def __init__(self, interval_s: float, deliverer: Deliverer | None = None) -> None:
        self.interval_s = interval_s
        self.deliverer = deliverer
        self._flags_sent: set[tuple[str, str, int]] = set()   # (game, seat, seq) FlagFell appended here
        self._last_flag_check = 0.0
        # notices being sent here: game -> delivery id -> (turn, task; its result: True once the
        # notice ended and is recorded, or needs no record)
        self._notifying: dict[str, dict[str, tuple[Turn, asyncio.Task]]] = {}
        # the rater, while this instance holds the `ratings` partition: the ratings' records as read
        self.feed: RatingsFeed | None = None
        self._ratings_offset = -1                              # ratings records up to here are in the feed
        self._asked: str | None = None                         # the game whose GameRated is on its way
        self._rating: asyncio.Task | None = None
        self._rating_wanted = asyncio.Event()
        # game id -> (seq of the last ScoreUpdated this process appended, GameFinished appended)
        self._sent: dict[str, tuple[int, bool]] = {}
        self._round_at = 0.0   # when the last round of ScoreUpdated records went out
        self._ended: set[str] = set()   # games due whose last ActionApplied ended them
        self._due: set[str] = set()   # games whose values moved since their last ScoreUpdated

    async def on_record(self, worker: Worker, led: Ledger, env: Envelope, what: str, live: bool) -> None:
        body = env.WhichOneof("body")
        if live and body in ("game_created", "action_applied"):
            self._due.add(led.game_id)
            if led.finished:
                self._ended.add(led.game_id)
        if live and body in NOTICE_BODIES and (led.notices is not None or led.game_id in self._notifying):
            self._notify(worker, led)

    # notices ------------------------------------------------------------------------------------

    def _notify(self, worker: Worker, led: Ledger) -> None:
        """Send the game's outstanding notices that are not on their way from here; stop sending
        those whose turn is over."""
        deliverer = self.deliverer
        if deliverer is None:
            return
        sending = self._notifying.setdefault(led.game_id, {})
        notices = led.notices
        outstanding = {delivery_id(led.game_id, t.seq, t.seat): t for t in notices.outstanding()} if notices else {}
        for did, (turn, task) in list(sending.items()):
            if notices is None or not notices.current(turn.seat, turn.seq):
                task.cancel()          # the turn is over: its notice is no longer news
                del sending[did]
            elif task.done() and (did not in outstanding or task.cancelled() or task.exception() is not None
                                  or not task.result()):
                del sending[did]       # recorded and read back, or to be sent again (not recorded)
        for did, turn in outstanding.items():
            if did not in sending:
                task = asyncio.create_task(self._send(worker, deliverer, led.game_id, turn), name=f"webhook {did}")
                sending[did] = (turn, task)
        if not sending:
            del self._notifying[led.game_id]

    async def _send(self, worker: Worker, deliverer: Deliverer, game_id: str, turn: Turn) -> bool:
        """Deliver one notice, then record that it ended (if its turn still lasts). False when the
        record could not be appended (the notice is then outstanding still)."""
        led = worker.games.get(game_id)
        if led is None:
            return True
        made = notice(seats_of(led.created), game_id, turn, led.clock)
        if made is None:
            return True
        player_id, url, payload = made
        try:
            status, attempts = await deliverer.deliver(led.created.tournament_id, player_id, url, payload)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("webhook %s not sent", payload["delivery"])
            return True   # (not again from here: whoever holds the partition next tries it)
        led = worker.games.get(game_id)
        if led is None or led.notices is None or not led.notices.current(turn.seat, turn.seq):
            return True
        ended = TurnNotified(seat=turn.seat, seq=turn.seq, status=status, attempts=attempts, at_ms=now_ms())
        try:
            await worker.append(tc.to_envelope(ended, key=game_id, producer=worker.producer, seq=led.seq))
        except Exception as exc:
            log.warning("the end of webhook %s is not recorded (%s): it stays outstanding", payload["delivery"], exc)
            return False
        return True

    def _stop_notices(self, game_ids) -> None:
        for g in game_ids:
            for _, task in self._notifying.pop(g, {}).values():
                task.cancel()

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
        if env.WhichOneof("body") != "ratings_event" or self.feed is None or record.partition not in worker.live:
            return   # (the ratings partition is read whole when it goes live)
        if record.offset <= self._ratings_offset:
            return
        self._ratings_offset = record.offset
        self._take_rating(env)

    def _take_rating(self, env: Envelope) -> None:
        """The next ratings record, as read: the rater's feed (and book) is the log's, nothing else."""
        event = tc.from_envelope(env)
        assert self.feed is not None   # (on_tournament passes ratings records only while this is the rater)
        if isinstance(event, GameRated) and event.game_id == self._asked:
            self._asked = None     # the answer is read back (ours, or another rater's)
        if not self.feed.take(event) and isinstance(event, GameRated):
            log.info("ratings of %s skipped: rated already, or computed from another book", event.game_id)
        self._rating_wanted.set()

    async def _rate(self, worker: Worker) -> None:
        """Answer the oldest unrated request from the book of the records read, one at a time: the
        next answer waits until this one is read back (so it starts from the log's book)."""
        while True:
            await self._rating_wanted.wait()
            self._rating_wanted.clear()
            if self.feed is None or self._asked is not None:
                continue
            rated = self.feed.answer(now_ms())
            if rated is None:
                continue
            self._asked = rated.game_id
            try:
                await worker.append(tc.to_envelope(rated, key=tc.RATINGS_KEY, producer=worker.producer))
            except Exception as exc:
                log.warning("ratings of %s not appended (%s); trying again", rated.game_id, exc)
                self._asked = None
                await asyncio.sleep(RATING_RETRY_S)
                self._rating_wanted.set()

    async def _load_ratings(self, worker: Worker, partition: int) -> None:
        """The ratings partition is ours: the feed from every ratings record, and the rater started."""
        feed = RatingsFeed()
        offset = -1
        records = await worker.log.read_key(worker.settings.games_topic, partition, tc.RATINGS_KEY)
        for record in records:
            feed.take(tc.from_envelope(log_pb2.Envelope.FromString(record.value)))
            offset = max(offset, record.offset)
        self.feed, self._ratings_offset, self._asked = feed, offset, None
        if self._rating is None or self._rating.done():
            self._rating = asyncio.create_task(self._rate(worker), name="scoring-rater")
        self._rating_wanted.set()

    def _drop_ratings(self) -> None:
        """No longer the rater: the feed goes (nothing here answers from a book the log has left behind)."""
        if self._rating is not None:
            self._rating.cancel()
            self._rating = None
        self.feed, self._ratings_offset, self._asked = None, -1, None

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
        if now - self._round_at >= self.interval_s:   # every game due: one round of records
            self._round_at = now
            ready = list(self._due)
        else:   # a game over publishes at once
            ready = list(self._ended & self._due)
        if not ready:
            return
        self._due.difference_update(ready)
        self._ended.difference_update(ready)
        games = [worker.games[g] for g in ready if g in worker.games]
        await asyncio.gather(*(self.publish(worker, led) for led in games))

    async def on_live(self, worker: Worker, partition: int) -> None:
        if partition == partition_for(tc.RATINGS_KEY, worker.log.partitions):
            await self._load_ratings(worker, partition)
        ledgers = worker.ledgers(partition)
        for led in ledgers:
            if led.notices is not None and led.notices.outstanding():
                self._notify(worker, led)   # what the partition's last holder may not have sent
        await asyncio.gather(*(self.publish(worker, led) for led in ledgers))

    async def on_revoked(self, worker: Worker, partitions: set[int]) -> None:
        if partition_for(tc.RATINGS_KEY, worker.log.partitions) in partitions:
            self._drop_ratings()

    async def stop(self, worker: Worker) -> None:
        self._drop_ratings()
        tasks = [task for sending in self._notifying.values() for _, task in sending.values()]
        self._stop_notices(list(self._notifying))
        await asyncio.gather(*tasks, return_exceptions=True)

    async def on_dropped(self, worker: Worker, game_ids: list[str]) -> None:
        self._stop_notices(game_ids)   # the partition's next holder sends what is outstanding
        for g in game_ids:
            self._sent.pop(g, None)
            self._due.discard(g)
            self._ended.discard(g)

    async def publish(self, worker: Worker, led: Ledger) -> None:
        sent_seq, sent_finish = self._sent.get(led.game_id, (0, False))
        appends = []
        if led.seq > max(led.score_seq, sent_seq) and led.values:
            appends.append(worker.emit(led, log_pb2.ScoreUpdated(values=led.values)))
            sent_seq = led.seq
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
