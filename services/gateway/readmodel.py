"""The gateway's read model: every game's ledger (from the worker), answers awaited by SubmitAction,
watchers, the latest published views, engine query answers, and the tournaments.

No engine here: views come from the owners (roundhouse.views), questions only an engine answers go
to the owner as QueryRequested records and come back on roundhouse.replies.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
import uuid
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from typing import TypeGuard

import orjson

from bus.base import Record
from contracts import packed
from contracts import tournament as tc
from contracts.envelopes import ANSWER_BODIES, REQUEST_BODIES, Envelope, make_envelope
from contracts.v1 import actions_pb2, log_pb2
from tournament import RatingBook, TournamentError
from tournament import Tournament as Hosted
from runtime.ledger import Ledger
from runtime.service import Context
from runtime.worker import Hooks, Worker

log = logging.getLogger(__name__)
ANSWERS_KEPT = 20_000  # recent command answers: a retried command id is answered from here
NOT_WATCHED = ("command_submitted", "checkpointed", "owner_claimed", "turn_notified", *REQUEST_BODIES)


@dataclass
class Tournament:
    tournament_id: str
    name: str
    operator_token_sha256: str
    game_ids: list[str] = field(default_factory=list)


def command_fingerprint(game_id: str, actor: str, action: actions_pb2.Action) -> bytes:
    """What a command id stands for: its game, its actor and its action (without what the gateway
    adds: created_at, auto_actions), so a resubmission is known to be the same command or not."""
    bare = actions_pb2.Action()
    bare.CopyFrom(action)
    bare.ClearField("created_at")
    bare.ClearField("auto_actions")
    return hashlib.sha256(b"\0".join((game_id.encode(), actor.encode(), bare.SerializeToString(deterministic=True)))).digest()


class Unanswered(Exception):
    """The owner did not answer a view request or a query in time."""


class QueryRefused(Exception):
    """The owner refused a query (bad arguments); the message says why."""


class ReadModel(Hooks):
    def __init__(self, ctx: Context) -> None:
        self.settings = ctx.settings
        self.log = ctx.log
        self.tournaments: dict[str, Tournament] = {}
        # hosted tournaments (libs/tournament), rebuilt from their records, and the rating book
        self.hosted: dict[str, Hosted] = {}
        self.book = RatingBook()
        self.versions: dict[str, int] = defaultdict(int)     # tournament -> records taken (caches)
        self.tournament_watchers: dict[str, set[asyncio.Queue]] = defaultdict(set)
        self.tournament_records: dict[str, list[Envelope]] = defaultdict(list)   # hosted ones, as taken
        self._taken: set[tuple[int, int]] = set()            # (partition, offset) of tournament records taken
        self.results: dict[str, asyncio.Future] = {}
        self.answers: OrderedDict[str, Envelope] = OrderedDict()
        self.commands: OrderedDict[str, bytes] = OrderedDict()   # command id -> command_fingerprint
        self.watchers: dict[str, set[asyncio.Queue]] = defaultdict(set)
        self.views: OrderedDict[str, log_pb2.PublishedView] = OrderedDict()
        self._view_events: dict[str, asyncio.Event] = {}
        self._asked: dict[str, tuple[int, bool, float]] = {}   # game -> (seq, legal, when) asked last
        self.replies: dict[str, asyncio.Future] = {}
        self._changed = asyncio.Event()
        self._facts_kept: set[tuple[int, int]] = set()          # (partition, offset) in the snapshots topic
        self._facts_writing: dict[tuple[int, int], asyncio.Task] = {}
        self._followers: list[asyncio.Task] = []

    # the games log ------------------------------------------------------------------------------

    def remember_command(self, command_id: str, fingerprint: bytes) -> None:
        self.commands[command_id] = fingerprint
        self.commands.move_to_end(command_id)
        while len(self.commands) > ANSWERS_KEPT:
            self.commands.popitem(last=False)

    async def on_record(self, worker: Worker, led: Ledger, env: Envelope, what: str, live: bool) -> None:
        body = env.WhichOneof("body")
        if body == "command_submitted" and env.command_id not in self.commands:
            cmd = env.command_submitted
            self.remember_command(env.command_id, command_fingerprint(env.game_id, cmd.actor, cmd.action))
        if body in ANSWER_BODIES:
            self.answers[env.command_id] = env
            while len(self.answers) > ANSWERS_KEPT:
                self.answers.popitem(last=False)
            waiter = self.results.pop(env.command_id, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(env)
        if body not in NOT_WATCHED:
            for queue in list(self.watchers.get(led.game_id, ())):
                queue.put_nowait(env)
        self._notify()

    async def on_tournament(self, worker: Worker, env: Envelope, record: Record) -> None:
        where = (record.partition, record.offset)
        self._apply_tournament(env, where)
        if where not in self._facts_kept and where not in self._facts_writing:
            task = asyncio.create_task(self._keep_fact(worker, env, record))
            self._facts_writing[where] = task
        self._notify()

    async def on_tournament_fact(self, worker: Worker, env: Envelope, partition: int, offset: int) -> None:
        self._apply_tournament(env, (partition, offset))
        self._facts_kept.add((partition, offset))

    def _apply_tournament(self, env: Envelope, where: tuple[int, int]) -> None:
        """Take a tournament record in once (kept in the snapshots topic and read again from the log
        after a restart, it is the same record)."""
        if where in self._taken:
            return
        self._taken.add(where)
        body = env.WhichOneof("body")
        tid = env.game_id
        if body == "tournament_created" and tid not in self.tournaments:
            t = env.tournament_created
            self.tournaments[tid] = Tournament(tid, t.name, t.operator_token_sha256)
            if t.HasField("settings"):
                try:
                    self.hosted[tid] = Hosted.create(tc.from_envelope(env))
                except TournamentError as exc:
                    log.warning("tournament %s not hosted: %s", tid, exc.reason)
        elif body == "tournament_game_added" and tid in self.tournaments:
            games = self.tournaments[tid].game_ids
            if env.tournament_game_added.added_game_id not in games:
                games.append(env.tournament_game_added.added_game_id)
        elif body == "tournament_event" and tid in self.hosted:
            try:
                event = tc.from_envelope(env)
                self.hosted[tid].apply(event)
            except TournamentError as exc:   # refused alike by every reader: skipped
                log.info("tournament %s: record at %s skipped: %s", tid, where, exc.reason)
                return
            if env.tournament_event.HasField("round_started"):
                self.tournaments[tid].game_ids.extend(env.tournament_event.round_started.game_ids)
        elif body == "ratings_event" and env.ratings_event.HasField("rated"):
            event = tc.from_envelope(env)
            if not self.book.take(event):   # (skipped alike by every reader, the rater included)
                log.info("ratings of %s at %s skipped: rated already, or computed from another book",
                         event.game_id, where)
                return
            for hosted in self.hosted.values():
                if event.game_id in hosted.games:
                    self.versions[hosted.id] += 1
            return
        else:
            return
        self.versions[tid] += 1
        if tid in self.hosted:
            self.tournament_records[tid].append(env)
        for queue in list(self.tournament_watchers.get(tid, ())):
            queue.put_nowait(env)

    async def _keep_fact(self, worker: Worker, env: Envelope, record: Record) -> None:
        """A tournament record, kept in the snapshots topic under a key of its own (so nothing
        replaces it): a gateway starting from its committed position still knows it."""
        where = (record.partition, record.offset)
        try:
            snap = log_pb2.Snapshot(partition=record.partition, offset=record.offset, tournament_record=env,
                                    producer=worker.producer, timestamp_ms=int(time.time() * 1000))
            await self.log.append(self.settings.snapshots_topic, f"{env.game_id}@{record.offset}",
                                  snap.SerializeToString(), partition=record.partition)
            self._facts_kept.add(where)
        except Exception as exc:   # not kept: the floor stays before it, so it is read again
            log.warning("tournament record %s not kept in the snapshots topic: %s", where, exc)
        finally:
            self._facts_writing.pop(where, None)

    def floor(self, worker: Worker, partition: int) -> int | None:
        pending = [o for p, o in self._facts_writing if p == partition]
        return min(pending) if pending else None

    def _notify(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def wait_until(self, predicate, timeout: float) -> bool:
        """Wait until predicate() holds (checked after every record), at most `timeout` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            changed = self._changed
            try:
                await asyncio.wait_for(changed.wait(), remaining)
            except asyncio.TimeoutError:
                return predicate()
        return True

    # views and answers --------------------------------------------------------------------------

    def start_following(self) -> None:
        """Read the views and replies topics from now on (all partitions, no group)."""
        self._followers = [
            asyncio.create_task(self._follow(self.settings.views_topic, self._view_arrived,
                                             self.settings.kafka_view_batch_ms), name="gateway-views"),
            asyncio.create_task(self._follow(self.settings.replies_topic, self._reply_arrived,
                                             self.settings.kafka_answer_batch_ms), name="gateway-replies"),
        ]

    async def stop_following(self) -> None:
        for task in self._followers:
            task.cancel()
        await asyncio.gather(*self._followers, return_exceptions=True)

    async def _follow(self, topic: str, handle, batch_ms: int) -> None:
        consumer = self.log.consumer(topic, group=None, batch_ms=batch_ms)
        await consumer.start()
        try:
            await consumer.seek_to_end()
            while True:
                for record in await consumer.poll(200):
                    try:
                        handle(record)
                    except Exception:
                        log.exception("bad record %s/%d@%d", topic, record.partition, record.offset)
        finally:
            await consumer.stop()

    def _view_arrived(self, record: Record) -> None:
        view = log_pb2.PublishedView.FromString(record.value)
        self._keep_view(view)

    def _keep_view(self, view: log_pb2.PublishedView) -> None:
        known = self.views.get(view.game_id)
        if known is not None and (known.seq, known.legal_actions) > (view.seq, view.legal_actions):
            return
        self.views[view.game_id] = view
        self.views.move_to_end(view.game_id)
        while len(self.views) > self.settings.view_cache:
            self.views.popitem(last=False)
        event = self._view_events.pop(view.game_id, None)
        if event is not None:
            event.set()

    def _reply_arrived(self, record: Record) -> None:
        answer = log_pb2.QueryAnswer.FromString(record.value)
        waiter = self.replies.pop(answer.query_id, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(answer)

    async def view_at(self, worker: Worker, led: Ledger, legal: bool) -> log_pb2.PublishedView:
        """The game's view at its current sequence (or later), with legal actions if asked: the
        latest published one when it is that recent, else the owner is asked to publish it."""
        g = led.game_id
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settings.submit_timeout_s
        seq = led.seq

        def fits(v: log_pb2.PublishedView | None) -> TypeGuard[log_pb2.PublishedView]:
            return v is not None and v.seq >= seq and (v.legal_actions or not legal)

        view = self.views.get(g)
        if view is None:
            # not read since this gateway started (or no longer cached): the log's latest, if it
            # can find it by key (a view published since the start came in through the follower)
            stored = await self.log.read_latest(self.settings.views_topic, led.partition, g)
            if stored is not None:
                self._keep_view(log_pb2.PublishedView.FromString(stored.value))
                view = self.views.get(g)
        while not fits(view):
            asked = self._asked.get(g)
            now = loop.time()
            if asked is None or asked[0] < seq or (legal and not asked[1]) or now - asked[2] >= self.settings.request_retry_s:
                self._asked[g] = (seq, legal or bool(asked and asked[0] == seq and asked[1]), now)
                request = log_pb2.ViewRequested(legal_actions=legal)
                await worker.append(make_envelope(request, game_id=g, seq=seq, producer=worker.producer,
                                                  command_id=uuid.uuid4().hex))
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise Unanswered(f"no view of game {g} at seq {seq}: its owner ({led.round_kind}) did not answer"
                                 f" within {self.settings.submit_timeout_s:g}s")
            view = self.views.get(g)
            if fits(view):   # it came in while the request was being appended
                break
            event = self._view_events.setdefault(g, asyncio.Event())
            try:
                await asyncio.wait_for(event.wait(), min(remaining, self.settings.request_retry_s))
            except asyncio.TimeoutError:
                pass
            view = self.views.get(g)
        self._asked.pop(g, None)
        return view

    async def query(self, worker: Worker, led: Ledger, query: str, args: dict) -> object:
        """Ask the game's owner a question only the engine answers; its JSON answer."""
        qid = uuid.uuid4().hex
        loop = asyncio.get_running_loop()
        waiter = self.replies[qid] = loop.create_future()
        request = log_pb2.QueryRequested(query=query, args_json=orjson.dumps(args))
        deadline = loop.time() + self.settings.submit_timeout_s
        try:
            while True:
                await worker.append(make_envelope(request, game_id=led.game_id, seq=led.seq,
                                                  producer=worker.producer, command_id=qid))
                remaining = deadline - loop.time()
                if remaining <= 0:
                    raise Unanswered(f"no answer to {query} for game {led.game_id}: its owner ({led.round_kind})"
                                     f" did not answer within {self.settings.submit_timeout_s:g}s")
                try:
                    answer = await asyncio.wait_for(asyncio.shield(waiter), min(remaining, self.settings.request_retry_s))
                    break
                except asyncio.TimeoutError:
                    continue   # asked again (same id): the owner answers it once
        finally:
            self.replies.pop(qid, None)
        if answer.status != log_pb2.QueryAnswer.OK:
            raise QueryRefused(answer.error or "the engine could not answer")
        return orjson.loads(packed.answer_json(answer))
