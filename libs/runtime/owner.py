"""The owner of a game: the round service whose round kind is the game's current round.

Only the owner holds the game's engine (in its process's engine host, runtime.engines); every other
service keeps the game's ledger (runtime.ledger). The owner decides the game's commands, publishes
its views, answers engine queries, and checkpoints it (engine state, ledger snapshot, Checkpointed).

Taking a game over: when an ActionApplied moves the game into this owner's round kind, the owner
loads its engine at once (before the next command arrives): left in place by the previous owner when
both share this process's engine host, otherwise from the latest engine state plus the decided
records after it (the tail every round service keeps, else read from the log), or from the set-up.
Handing it over: the owner whose decision ended its round lets the engine go, leaving it in place
for a next owner in this process, or else writing its engine state first.

Fencing (runtime.fence): having loaded a game's engine, an owner claims the game (OwnerClaimed, with
the next owner epoch of its consumer group's generation) before it decides anything of it, and every
decision it appends (flag policies' included) and every checkpoint carries that epoch. An owner that
reads another instance's claim taken after its own, or its own claim or decision fenced off, lost
the game: it drops the engine (the claim's holder decides from there).

All work on one game runs in one task at a time (a lock per game), so the consumer loop never
waits for an engine; commands of different games are decided concurrently, in every engine process.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections import OrderedDict

from contracts.envelopes import ANSWER_BODIES, Envelope, MalformedEnvelope, now_ms, parse
from contracts.v1 import log_pb2
from runtime import metrics
from runtime.engines import EngineCrashed, EngineError, EngineHost
from runtime.ledger import Ledger
from runtime.service import Context
from runtime.seats import OPERATOR
from runtime.worker import Hooks, Worker
from tournament import FlagPolicy

log = logging.getLogger(__name__)
R = log_pb2.RejectReason

# gRPC status the submitter gets for each rejection (also the `code` of the latency histogram)
STATUS_OF_REJECTION = {
    R.ILLEGAL_ACTION: "INVALID_ARGUMENT",
    R.MALFORMED_ACTION: "INVALID_ARGUMENT",
    R.STALE_SEQUENCE: "FAILED_PRECONDITION",
    R.AHEAD_SEQUENCE: "FAILED_PRECONDITION",
    R.GAME_FINISHED_ALREADY: "FAILED_PRECONDITION",
    R.NOT_PERMITTED: "PERMISSION_DENIED",
    R.OUT_OF_TIME: "FAILED_PRECONDITION",
    R.LIMIT_REACHED: "RESOURCE_EXHAUSTED",
}
CRASHES_TOLERATED = 3  # engine processes lost while working on one game before giving up for now
ANSWERED_KEPT = 10_000
WAIT_CHECK_S = 0.25
# The records of a game an engine loads after its engine state (runtime.shard op_load)
TAIL_BODIES = (*ANSWER_BODIES, "owner_claimed")
REPUBLISH_S = 1.0      # a view asked for again this long after it went out is sent again


class NotReady(Exception):
    """The game cannot be loaded yet (records decided here are not read back), or not decided here
    (this owner's claim of it would not hold: an instance of a later group generation holds it)."""


class Owner(Hooks):
    tails = True

    def __init__(self, kind: str, ctx: Context):
        self.kind = kind
        self.ctx = ctx
        self.settings = ctx.settings
        assert ctx.engines is not None, "an owner needs an engine host"
        self.host: EngineHost = ctx.engines
        ctx.local_kinds.add(kind)
        self.loaded: dict[str, int] = {}        # game -> seq of the engine this owner holds
        self.tasks: dict[str, asyncio.Task] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.views_wanted: dict[str, bool] = {}  # game -> a view was asked for (with legal actions?)
        # game -> (seq, with legal actions, when, the record) of the view published last
        self.published: dict[str, tuple[int, bool, float, bytes]] = {}
        self.queries: dict[str, dict[str, Envelope]] = {}
        self.answered: OrderedDict[str, None] = OrderedDict()
        self.handing_over: set[str] = set()     # handed over: checkpoint once our records are read back
        self.taking_over: set[str] = set()      # just became ours: load the engine ahead of commands
        self.checkpointing: dict[str, asyncio.Task] = {}
        self.flag_tried: dict[str, int] = {}    # game -> seq where its flag policy had nothing to do
        self.epochs: dict[str, int] = {}        # game -> the owner epoch this owner claimed it with
        self.claims_unread: set[str] = set()    # games whose claim by this owner is not read back yet
        self.lost: set[str] = set()             # games another instance claimed: their engine goes
        self._sweeping: asyncio.Task | None = None
        self._last_sweep = time.monotonic()
        self._last_wait_check = 0.0

    def owns(self, led: Ledger) -> bool:
        return led.round_kind == self.kind

    def resident(self, worker: Worker) -> int:
        return len(self.loaded)

    # the consumer loop's view ------------------------------------------------------------------

    async def on_record(self, worker: Worker, led: Ledger, env: Envelope, what: str, live: bool) -> None:
        g = led.game_id
        body = env.WhichOneof("body")
        if body == "owner_claimed":
            await self._claim_read(worker, led, env, what, live)
            return
        if what == "conflict":
            # another instance decided this seq first (the log wins, our engine took another action),
            # or the log fenced off a decision of ours: another instance claimed the game since
            log.warning("%s: game %s seq %d was decided elsewhere; reloading its engine", worker.service, g, led.seq)
            await self._unload(g)
            if live and self.owns(led) and led.pending:
                self._kick(worker, led)   # (a command whose decision was fenced off is pending again)
        if not live:
            return
        if body == "view_requested":
            legal = env.view_requested.legal_actions
            if self.settings.view_interest_s:
                known = self.ctx.readers.get(g)
                self.ctx.readers[g] = (time.monotonic() + self.settings.view_interest_s,
                                       legal or bool(known and known[1]))
            if self.owns(led) or g in self.loaded:
                self.views_wanted[g] = self.views_wanted.get(g, False) or legal
                self._kick(worker, led)
        elif body == "query_requested":
            if (self.owns(led) or g in self.loaded) and env.command_id not in self.answered:
                self.queries.setdefault(g, {})[env.command_id] = env
                self._kick(worker, led)
        elif body == "game_created":
            if self.owns(led):
                self._kick(worker, led)   # announces its first round
        elif body in ("command_submitted", "game_clock"):
            if self.owns(led):
                self._kick(worker, led)   # (a flag fell: its policy may apply now)
        elif body == "action_applied":
            if g in self.handing_over and not led.local:
                self._kick(worker, led)   # our last decision is read back: hand the game over
            elif self.owns(led) and g not in self.loaded and not led.finished:
                self.taking_over.add(g)   # now ours: load it before the next command comes
                readers = self.ctx.readers.get(g)
                if readers is not None and readers[0] >= time.monotonic():
                    self.views_wanted[g] = self.views_wanted.get(g, False) or readers[1]
                self._kick(worker, led)

    async def _claim_read(self, worker: Worker, led: Ledger, env: Envelope, what: str, live: bool) -> None:
        g = led.game_id
        if env.producer == worker.producer:
            self.claims_unread.discard(g)
            if what == "fenced" and self.epochs.get(g) == env.owner_epoch:
                self.epochs.pop(g, None)   # our claim did not hold: our next decision claims anew
        elif what != "fenced" and g in self.epochs:
            # another instance claimed the game since we did: only its decisions count from here
            self.epochs.pop(g, None)
            self.claims_unread.discard(g)
            if env.owner_claimed.service != self.kind:
                return   # the next round's owner: our handover (if it is not done) lets the engine go
            # another instance of this service: we lost the game (a rebalance we have not noticed
            # yet); the engine goes, once what works on it is done
            log.warning("%s: game %s claimed by %s (owner epoch %d); letting it go", worker.service, g,
                        env.producer, env.owner_epoch)
            if live:
                self.lost.add(g)
                self._kick(worker, led)
            else:
                await self._unload(g)

    async def on_live(self, worker: Worker, partition: int) -> None:
        for led in worker.ledgers(partition):
            if self.owns(led) and (led.pending or self._round_to_announce(led)):
                self._kick(worker, led)

    async def on_tick(self, worker: Worker) -> None:
        now = time.monotonic()
        if now - self._last_wait_check < WAIT_CHECK_S:
            return
        self._last_wait_check = now
        for led in [led for led in worker.games.values() if led.pending and self.owns(led)]:
            if led.partition not in worker.live:
                continue
            for cid, env in list(led.pending.items()):
                ahead = env.command_submitted.expected_seq > led.seq
                if ahead and now - led.pending_since.get(cid, now) >= self.settings.command_wait_s:
                    with contextlib.suppress(NotReady):   # (not this owner's to decide)
                        await self._reject_ahead(worker, led, env)
        evict = self.settings.evict_idle_s
        if evict and now - self._last_sweep >= min(1.0, evict / 4) and (self._sweeping is None or self._sweeping.done()):
            self._last_sweep = now
            self._sweeping = asyncio.create_task(self._evict_idle(worker, now), name=f"{self.kind}:evict")

    async def on_checkpoint(self, worker: Worker, partitions: set[int], force: bool) -> None:
        """Checkpoint the games whose time has come, in tasks of their own (the commit floor then
        moves at the next round); on a revocation or a stop, every dirty game, waiting for all.

        A game idle for `snapshot_idle_s` gets a ledger snapshot (cheap: it lets every consumer
        commit past its records); its engine state is written only after `snapshot_every` actions,
        and when the engine leaves this owner (handover, eviction, revocation, stop): a dump costs
        milliseconds of engine time, and between two of them the decided records are the tail."""
        now = time.monotonic()
        started = []
        for led in list(worker.games.values()):
            if led.partition not in partitions or led.dirty_since is None or not self.owns(led):
                continue
            if led.game_id in self.checkpointing:
                started.append(self.checkpointing[led.game_id])
                continue
            with_state = force or led.actions_since_state >= self.settings.snapshot_every
            if with_state or now - led.touched_at >= self.settings.snapshot_idle_s:
                task = asyncio.create_task(self._checkpoint_now(worker, led, wait=force, with_state=with_state))
                self.checkpointing[led.game_id] = task
                task.add_done_callback(functools.partial(self._checkpointed, led.game_id))
                started.append(task)
        if force and started:
            await asyncio.gather(*started, return_exceptions=True)

    def _checkpointed(self, game_id: str, task: asyncio.Task) -> None:
        if self.checkpointing.get(game_id) is task:
            del self.checkpointing[game_id]
        if not task.cancelled() and task.exception() is not None:
            log.error("%s: checkpoint of %s failed: %s", self.kind, game_id, task.exception())

    async def on_revoked(self, worker: Worker, partitions: set[int]) -> None:
        for g, task in list(self.tasks.items()):
            led = worker.games.get(g)
            if led is not None and led.partition in partitions:
                task.cancel()

    async def on_dropped(self, worker: Worker, game_ids: list[str]) -> None:
        for g in game_ids:
            await self._unload(g)
            for book in (self.views_wanted, self.published, self.queries, self.locks, self.flag_tried):
                book.pop(g, None)
            self.handing_over.discard(g)

    async def stop(self, worker: Worker) -> None:
        tasks = [*self.tasks.values(), *self.checkpointing.values()]
        if self._sweeping is not None:
            tasks.append(self._sweeping)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # one game's work ----------------------------------------------------------------------------

    def _kick(self, worker: Worker, led: Ledger) -> None:
        task = self.tasks.get(led.game_id)
        if task is None or task.done():
            self.tasks[led.game_id] = asyncio.create_task(self._serve(worker, led), name=f"{self.kind}:{led.game_id}")

    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self.locks.get(game_id)
        if lock is None:
            lock = self.locks[game_id] = asyncio.Lock()
        return lock

    async def _serve(self, worker: Worker, led: Ledger) -> None:
        g = led.game_id
        crashes = 0
        try:
            async with self._lock(g):
                while worker.games.get(g) is led and led.partition in worker.live:
                    try:
                        if not await self._step(worker, led):
                            return
                    except EngineCrashed as exc:
                        # its engine process died (and is started again): load the game anew
                        self.loaded.pop(g, None)
                        crashes += 1
                        if crashes > CRASHES_TOLERATED:
                            raise
                        log.warning("%s: game %s: %s; loading it again", worker.service, g, exc)
        except asyncio.CancelledError:
            raise
        except NotReady:
            return   # kicked again when our records are read back
        except Exception:
            log.exception("%s: work on game %s failed", worker.service, g)
        finally:
            if self.tasks.get(g) is asyncio.current_task():
                del self.tasks[g]

    async def _step(self, worker: Worker, led: Ledger) -> bool:
        """Do what the game needs now; False when there is nothing more (found without waiting for
        anything, so no record of the game came in meanwhile: a kick then starts a new task)."""
        g = led.game_id
        if g in self.lost:
            await self._unload(g)
        if g in self.handing_over:
            if led.local:
                return False
            await self._hand_over(worker, led)
            return True
        if not self.owns(led):
            if g in self.loaded and (self.views_wanted.get(g) is not None or self.queries.get(g)):
                await self._answer_requests(worker, led)   # asked while we still held it
                return True
            self.views_wanted.pop(g, None)
            self.queries.pop(g, None)
            return False
        if self._round_to_announce(led):
            await self._announce_round(worker, led)
            return True
        if self._flag_due(led):
            await self._ensure_loaded(worker, led, "command")
            await self._apply_flag(worker, led)
            return True
        ready = [e for e in led.pending.values() if e.command_submitted.expected_seq <= led.seq]
        if ready:
            await self._ensure_loaded(worker, led, "command")
            for env in ready:
                if not self.owns(led) or env.command_id not in led.pending:
                    break
                await self._decide(worker, led, env)
            return True
        if self.views_wanted.get(g) is not None or self.queries.get(g):
            await self._ensure_loaded(worker, led, "read")
            await self._answer_requests(worker, led)
            return True
        if g in self.taking_over:
            self.taking_over.discard(g)
            if g not in self.loaded and not led.finished:
                await self._ensure_loaded(worker, led, "handover")   # ready for the next command
                return True   # (which may have come meanwhile)
        return False

    # loading ------------------------------------------------------------------------------------

    async def _ensure_loaded(self, worker: Worker, led: Ledger, trigger: str) -> None:
        g = led.game_id
        led.used_at = time.monotonic()
        if self.loaded.get(g) == led.seq and self.host.held.get(g) == led.seq:
            return
        if led.local:
            raise NotReady(g)
        if self._claimed(worker, led) is None:
            self._next_claim(worker, led)   # (no engine is loaded for a game this owner may not claim)
        if self.host.held.get(g) == led.seq and self.host.holder.get(g) in ("", self.kind):
            self._hold(g, led.seq)   # left in place by the previous owner in this process
            metrics.child(metrics.ENGINE_LOADS, worker.service, "in_place").inc()
            await self._claim(worker, led)
            return
        t0 = time.perf_counter()
        try:
            answer, how = await self._load(worker, led)
        except (EngineError, ValueError) as exc:
            # a state that does not load (or a tail that does not fit it): the set-up and the log
            log.error("%s: game %s did not load from its state (%s); replaying its log", worker.service, g, exc)
            answer, how = await self._load(worker, led, from_state=False)
        if answer["seq"] != led.seq:
            log.error("%s: game %s loaded at seq %d, its ledger is at seq %d", worker.service, g, answer["seq"], led.seq)
        elif led.digest_seq == led.seq and led.digest and answer["digest"] != led.digest:
            log.error("%s: game %s loaded to digest %s at seq %d, the log says %s",
                      worker.service, g, answer["digest"], led.seq, led.digest)
        self._hold(g, answer["seq"])
        await self._claim(worker, led)
        metrics.child(metrics.ENGINE_LOADS, worker.service, how).inc()
        metrics.child(metrics.REBUILD_SECONDS, worker.service, trigger).observe(time.perf_counter() - t0)

    def _claimed(self, worker: Worker, led: Ledger) -> int | None:
        """This owner's claim of the game while that is on its way or the game's latest (None: it
        must claim the game again)."""
        g = led.game_id
        mine = self.epochs.get(g)
        if mine is None:
            return None
        latest = led.fence.current()
        if g in self.claims_unread or (led.fence.owner == self.kind and latest is not None
                                       and latest.epoch == mine and latest.producer == worker.producer):
            return mine
        return None

    def _next_claim(self, worker: Worker, led: Ledger) -> int:
        """The epoch of this owner's next claim of the game; NotReady when no reader would take it
        (a claim of a later group generation of this service holds the game: this instance lost it,
        and only learns so from its group later)."""
        epoch = led.fence.next_epoch(self.kind, worker.consumer.generation())
        if not led.fence.would_hold(self.kind, epoch, now_ms(), led.logged("round_kind")):
            raise NotReady(led.game_id)
        return epoch

    async def _claim(self, worker: Worker, led: Ledger) -> int:
        """The owner epoch this owner decides the game under: its claim (_claimed), else a new claim
        (OwnerClaimed) with the next epoch."""
        g = led.game_id
        mine = self._claimed(worker, led)
        if mine is not None:
            return mine
        epoch = self._next_claim(worker, led)
        self.epochs[g] = epoch
        self.claims_unread.add(g)
        await worker.emit(led, log_pb2.OwnerClaimed(service=self.kind), owner_epoch=epoch)
        return epoch

    def _hold(self, game_id: str, seq: int) -> None:
        self.loaded[game_id] = seq
        self.host.held[game_id] = seq
        self.host.holder[game_id] = self.kind
        self.host.released_at.pop(game_id, None)

    async def _load(self, worker: Worker, led: Ledger, from_state: bool = True) -> tuple[dict, str]:
        """Load the game into the host: its latest engine state (or its set-up), then the decided
        records after that."""
        log_ = worker.log
        p, g = led.partition, led.game_id
        state = created = None
        base = led.created_offset
        if from_state and led.state is not None:
            record = await log_.read_at(self.settings.states_topic, p, led.state.offset)
            if record is None:   # compacted away by a newer one
                record = await log_.read_latest(self.settings.states_topic, p, g)
            if record is not None:
                es = log_pb2.EngineState.FromString(record.value)
                if es.game_id == g and es.seq <= led.seq:
                    state, base = record.value, es.covered_offset
        if state is None and not led.created.HasField("state"):
            # a game made by CreateGame: its ledger holds the whole set-up (only an import's
            # GameCreated, which always names an engine state, carries more: its export)
            created = led.created.SerializeToString()
        elif state is None:
            record = await log_.read_at(self.settings.games_topic, p, led.created_offset)
            if record is None:
                raise ValueError(f"game {g}: no engine state and no GameCreated at offset {led.created_offset}")
            created = parse(record.value, record.key).game_created.SerializeToString()
        tail = led.tail_after(base)
        if tail is None:
            tail = []
            for record in await log_.read_key(self.settings.games_topic, p, g, start=base + 1, end=led.last_offset + 1):
                try:
                    env = parse(record.value, record.key)
                except MalformedEnvelope:
                    continue
                if env.WhichOneof("body") in TAIL_BODIES:
                    tail.append(record.value)
        answer = await self.host.call("load", g, state=state, created=created, tail=tail)
        return answer, "state" if state is not None else "setup"

    async def _unload(self, game_id: str) -> None:
        self.epochs.pop(game_id, None)
        self.claims_unread.discard(game_id)
        self.lost.discard(game_id)
        if self.loaded.pop(game_id, None) is not None:
            await self.host.drop(game_id)
        self.published.pop(game_id, None)

    # deciding -----------------------------------------------------------------------------------

    # clocks (tournament games) -------------------------------------------------------------------

    @staticmethod
    def _out_of_time(led: Ledger, env: Envelope) -> str | None:
        """Why a seat's command is refused by the game's clocks (None: it is not)."""
        clock, actor = led.clock, env.command_submitted.actor
        if clock is None or clock.finished or actor == OPERATOR:
            return None
        if clock.paused:
            return "the game's clocks are paused: no seat may act until the organiser resumes them"
        if actor in clock.flagged:
            return f"out of time: {actor}'s flag has fallen"
        if actor in clock.running() and clock.remaining_at(now_ms())[actor] <= 0:
            return f"out of time: {actor}'s clock is at zero"
        return None

    def _flag_due(self, led: Ledger) -> bool:
        """A flag fell and its policy has a move to make: the end of the game, or (remove_seat) a
        flagged seat the game waits for."""
        clock = led.clock
        if clock is None or not clock.flagged or led.finished or self.flag_tried.get(led.game_id) == led.seq:
            return False
        return (clock.flag_policy is FlagPolicy.END_GAME or len(clock.flagged) == len(clock.seats)
                or bool(set(led.acting) & clock.flagged.keys()))

    async def _apply_flag(self, worker: Worker, led: Ledger) -> None:
        g = led.game_id
        clock = led.clock
        assert clock is not None   # (_flag_due said so)
        seats = sorted(clock.flagged, key=lambda s: (clock.flagged[s], s))
        # (with every seat's flag fallen nobody is left to play: the game ends)
        policy = FlagPolicy.END_GAME if len(seats) == len(clock.seats) else clock.flag_policy
        answer = await self.host.call("flag", g, seats=seats, policy=policy.value, producer=worker.producer,
                                      epoch=await self._claim(worker, led))
        if answer["outcome"] != "applied":
            self.flag_tried[g] = led.seq   # nothing to do at this position
            if answer["outcome"] == "rejected":
                await worker.append_raw(g, answer["record"])
            return
        await self._applied(worker, led, answer, log_pb2.Envelope.FromString(answer["record"]).command_id, 0.0)
        if self.views_wanted.get(g) is not None or self.queries.get(g):
            await self._answer_requests(worker, led)   # (automatic moves may follow each other)

    # deciding -----------------------------------------------------------------------------------

    async def _decide(self, worker: Worker, led: Ledger, env: Envelope) -> None:
        g = led.game_id
        late = self._out_of_time(led, env)
        if late is not None:
            await self._reject(worker, led, env, R.OUT_OF_TIME, late)
            return
        try:
            answer = await self.host.call("decide", g, command=env.SerializeToString(), producer=worker.producer,
                                          undo_policy=led.created.undo_policy, epoch=await self._claim(worker, led))
        except EngineError as exc:   # a defect, not a rule: refuse the command and keep serving
            log.error("%s: game %s: the engine failed on command %s: %s", worker.service, g, env.command_id, exc)
            answer = None
        outcome = answer["outcome"] if answer else "failed"
        if outcome == "ahead":
            return
        latency = max(0, now_ms() - env.timestamp_ms) / 1000
        if outcome == "failed":
            # (whatever the engine did with it, its state goes: it is loaded again from the log)
            await self._unload(g)
            await self._reject(worker, led, env, R.ILLEGAL_ACTION, "the engine could not decide this action")
            return
        if outcome == "applied":
            await self._applied(worker, led, answer, env.command_id, latency)
            return
        led.settle(env.command_id)
        await worker.append_raw(g, answer["record"])
        if outcome == "rejected":
            code = answer["code"]
            metrics.child(metrics.ACTIONS_REJECTED, worker.service, led.title, led.round_kind, R.Name(code).lower()).inc()
            metrics.child(metrics.COMMAND_LATENCY, worker.service, STATUS_OF_REJECTION.get(code, "UNKNOWN")).observe(latency)
            log.info("%s: %s rejected in %s: %s", worker.service, env.command_id, g, answer["reason"])

    async def _applied(self, worker: Worker, led: Ledger, answer: dict, command_id: str, latency: float) -> None:
        """Append an action the engine applied, the game's ledger and engine moved on to it."""
        g = led.game_id
        record_env = log_pb2.Envelope.FromString(answer["record"])
        led.settle(command_id)
        applied = record_env.action_applied
        label_before = led.round_label
        led.apply_local(applied, command_id, worker.producer)
        self.loaded[g] = self.host.held[g] = applied.seq
        if applied.round_kind != self.kind:
            self._let_go(led, applied.round_kind)
        await worker.append_raw(g, answer["record"])
        metrics.child(metrics.ACTIONS_APPLIED, worker.service, led.title, answer["kind_before"]).inc()
        metrics.child(metrics.COMMAND_LATENCY, worker.service, "OK").observe(latency)
        readers = self.ctx.readers.get(g)
        if readers is not None:
            if readers[0] >= time.monotonic():   # read lately: its next view goes out now
                self.views_wanted[g] = self.views_wanted.get(g, False) or readers[1]
            else:
                del self.ctx.readers[g]
        if applied.round_label != label_before and not applied.finished:
            await self._announce_round(worker, led)

    def _let_go(self, led: Ledger, new_kind: str) -> None:
        """Our decision ended our round: the engine goes to the owner of `new_kind`."""
        g = led.game_id
        if new_kind in self.ctx.local_kinds:   # it runs here: the engine stays where it is
            self.loaded.pop(g, None)
            self.epochs.pop(g, None)   # (its next owner claims the game)
            self.host.release(g)
        else:
            self.handing_over.add(g)   # checkpointed with its state once our records are read back

    async def _hand_over(self, worker: Worker, led: Ledger) -> None:
        g = led.game_id
        if g in self.loaded:
            await self._checkpoint(worker, led, with_state=True)
            await self._unload(g)
        self.handing_over.discard(g)

    async def _reject(self, worker: Worker, led: Ledger, env: Envelope, code: log_pb2.RejectReason, reason: str) -> None:
        cmd = env.command_submitted
        epoch = await self._claim(worker, led)
        if env.command_id not in led.pending:
            return   # decided while the claim was being appended
        led.settle(env.command_id)
        rejected = log_pb2.ActionRejected(
            code=code, reason=reason, expected_seq=cmd.expected_seq, current_seq=led.seq,
            round_kind=led.round_kind,
        )
        await worker.emit(led, rejected, command_id=env.command_id, owner_epoch=epoch)
        metrics.child(metrics.ACTIONS_REJECTED, worker.service, led.title, led.round_kind, R.Name(code).lower()).inc()
        metrics.child(metrics.COMMAND_LATENCY, worker.service, STATUS_OF_REJECTION.get(code, "UNKNOWN")).observe(
            max(0, now_ms() - env.timestamp_ms) / 1000)
        log.info("%s: %s rejected in %s: %s", worker.service, env.command_id, led.game_id, reason)

    async def _reject_ahead(self, worker: Worker, led: Ledger, env: Envelope) -> None:
        """A command ahead of the game that never became current (no engine needed: an id decided
        before cannot be ahead)."""
        expected = env.command_submitted.expected_seq
        await self._reject(worker, led, env, R.AHEAD_SEQUENCE,
                           f"expected_seq {expected} is ahead of the game (seq {led.seq}) and did not become current")

    def _round_to_announce(self, led: Ledger) -> bool:
        return self.owns(led) and not led.finished and led.round_label != led.published_round

    async def _announce_round(self, worker: Worker, led: Ledger) -> None:
        led.published_round = label = led.round_label
        await worker.emit(led, log_pb2.RoundStarted(round_kind=led.round_kind, round_label=label))

    # views and queries --------------------------------------------------------------------------

    async def _answer_requests(self, worker: Worker, led: Ledger) -> None:
        g = led.game_id
        legal = self.views_wanted.pop(g, None)
        if legal is not None:
            await self._publish_view(worker, led, legal)
        for qid, env in list((self.queries.pop(g, None) or {}).items()):
            await self._answer_query(worker, led, qid, env)

    async def _publish_view(self, worker: Worker, led: Ledger, legal: bool) -> None:
        """Publish the view at the game's position: computed once per position; asked again a while
        later (by a gateway that missed it: one started since), the same record goes out again."""
        g = led.game_id
        last = self.published.get(g)
        now = time.monotonic()
        if last is not None and last[0] == self.host.held.get(g) and (last[1] or not legal):
            if now - last[2] < REPUBLISH_S:
                return   # this position's view went out just now
            record, seq = last[3], last[0]
        else:
            answer = await self.host.call("view", g, legal=legal)
            record, seq = answer["record"], answer["seq"]
            metrics.child(metrics.VIEWS_PUBLISHED, worker.service, str(legal).lower()).inc()
        await worker.log.append(self.settings.views_topic, g, record, partition=led.partition)
        self.published[g] = (seq, legal, now, record)

    async def _answer_query(self, worker: Worker, led: Ledger, qid: str, env: Envelope) -> None:
        q = env.query_requested
        try:
            answer = await self.host.call("query", led.game_id, query=q.query, args=q.args_json)
        except EngineError as exc:   # a defect: answered, and logged here rather than in the answer
            log.error("%s: game %s: query %s failed: %s", worker.service, led.game_id, q.query, exc)
            answer = {"status": log_pb2.QueryAnswer.FAILED, "error": f"the engine could not answer {q.query}"}
        reply = log_pb2.QueryAnswer(game_id=led.game_id, query_id=qid, status=answer["status"],
                                    error=answer.get("error", ""), payload_zstd=answer.get("payload", b""))
        await worker.log.append(self.settings.replies_topic, led.game_id, reply.SerializeToString(),
                                partition=led.partition)
        self.answered[qid] = None
        while len(self.answered) > ANSWERED_KEPT:
            self.answered.popitem(last=False)
        metrics.child(metrics.QUERIES, worker.service, q.query, log_pb2.QueryAnswer.Status.Name(answer["status"]).lower()).inc()

    # checkpoints and eviction -------------------------------------------------------------------

    async def _checkpoint_now(self, worker: Worker, led: Ledger, *, wait: bool, with_state: bool) -> None:
        """Checkpoint unless the game is busy (then the next round of checkpoints does it), or wait
        for it (`wait`: a revocation or a stop)."""
        lock = self._lock(led.game_id)
        if lock.locked() and not wait:
            return
        if with_state and not wait:
            # Checkpoints come due together (every dirty game at the same tick); with its engine
            # state, each waits for the engine process to dump it. Waiting for that turn while
            # holding the game's lock made the game's next command wait behind the dumps of every
            # game queued before it (closed loop: up to 1.1 s); the turn is taken first.
            async with self.host.state_turn(led.game_id), lock:
                await self._checkpoint(worker, led, with_state=True)
            return
        async with lock:
            await self._checkpoint(worker, led, with_state=with_state)

    async def _checkpoint(self, worker: Worker, led: Ledger, *, with_state: bool) -> bool:
        """Write the game's engine state (when it moved on since the last one), its ledger snapshot,
        and a Checkpointed record. Not while records decided here are unread (the ledger would not
        yet be a function of the log up to its offset)."""
        if led.local:
            return False
        g = led.game_id
        t0 = time.perf_counter()
        held = self.loaded.get(g)
        # (readers take an engine state from the game's latest claim, or at the log's latest digest:
        # at a handover the next owner may have claimed the game already)
        covered = None if held is None else led.state_cover(held)
        if (with_state and held is not None and covered is not None and held == self.host.held.get(g)
                and (led.state is None or held > led.state.seq)
                and (self._claimed(worker, led) is not None or held == led.digest_seq)):
            answer = await self.host.call("dump", g, covered_offset=covered, producer=worker.producer,
                                          fence=led.fence.to_proto().SerializeToString())
            record = await worker.log.append(self.settings.states_topic, g, answer["record"], partition=led.partition)
            led.record_state(log_pb2.StateRef(offset=record.offset, seq=answer["seq"], digest=answer["digest"],
                                              covered_offset=covered))
        snap = led.snapshot(worker.producer)
        covered = snap.offset
        await worker.log.append(self.settings.snapshots_topic, g, snap.SerializeToString(), partition=led.partition)
        cp = log_pb2.Checkpointed(covered_offset=covered)
        if led.state is not None:
            cp.state.CopyFrom(led.state)
        await worker.emit(led, cp, owner_epoch=self.epochs.get(g, 0))
        led.covered = max(led.covered, covered)
        led.dirty_since = None if led.last_offset <= covered else covered + 1
        metrics.child(metrics.SNAPSHOT_SECONDS, worker.service, "write").observe(time.perf_counter() - t0)
        return True

    async def _evict_idle(self, worker: Worker, now: float) -> None:
        idle = self.settings.evict_idle_s
        await self.host.drop_released(idle)
        for g in [g for g, (until, _) in self.ctx.readers.items() if until < now]:
            self.ctx.readers.pop(g, None)   # nobody read it lately
        for g in list(self.loaded):
            led = worker.games.get(g)
            if led is None:
                await self._unload(g)
                continue
            if now - max(led.touched_at, led.used_at) < idle or led.local or led.pending:
                continue
            lock = self._lock(g)
            if lock.locked():
                continue
            async with lock:
                if g not in self.loaded or led.local:
                    continue
                await self._checkpoint(worker, led, with_state=True)
                await self._unload(g)
                metrics.child(metrics.EVICTIONS, worker.service).inc()
