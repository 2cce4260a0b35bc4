"""Engine work off the event loop: a pool of engine processes, each holding some games.

`EngineHost` (in a service process) starts `workers` child processes (`python -m runtime.engines`)
and sends them requests over their stdin, answers coming back on their stdout (length-prefixed
pickles). A game always lives in the same child (its id picks one), so its engine state stays in
one place; jobs that hold no game (a new game's set-up, validating an import) go to the least busy
child. The event loop only writes and reads bytes: rules, views, digests, state dumps and loads
all run in the children, on every core.

With `workers=0` the same requests run on the event loop itself (tests, debugging).

A child that dies is started again; the games it held are forgotten (`EngineCrashed` to whoever
waited on it), and their owners load them again from their latest state plus the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import signal
import struct
import sys
import time
import zlib
from typing import Any

from runtime import collector as collector_module
from runtime import metrics

log = logging.getLogger(__name__)
HEADER = struct.Struct(">I")


class EngineCrashed(RuntimeError):
    """The engine process holding the game ended while a request waited on it."""


class EngineError(Exception):
    """A request the engine refused. `kind`: "game" (engine.GameError: `reason` is the engine's,
    `index`/`action_id` name an import's failing action), "tail" (`shard.TailGap`: records given to
    a load that do not follow its state; the owner loads from the log instead) or "internal"."""

    def __init__(self, kind: str, reason: str, index: int | None = None, action_id: Any = None):
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
        self.index = index
        self.action_id = action_id


def _failure(exc: BaseException) -> tuple:
    import engine

    if isinstance(exc, engine.GameError):
        return ("game", exc.reason, exc.index, exc.action_id)
    from runtime.shard import TailGap

    if isinstance(exc, TailGap):
        return ("tail", str(exc), None, None)
    return ("internal", f"{type(exc).__name__}: {exc}", None, None)


class _Child:
    """One engine process."""

    def __init__(self, index: int, window: int, nice: int):
        self.index = index
        self.window = window
        self.nice = nice
        self.proc: asyncio.subprocess.Process | None = None
        self.reader: asyncio.Task | None = None
        self.waiting: dict[int, asyncio.Future] = {}
        self.started: asyncio.Future | None = None
        self.outgoing: list[bytes] = []   # requests written at the end of this turn of the loop

    async def start(self, host: "EngineHost") -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "runtime.engines", "--window", str(self.window),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        if self.nice:
            with contextlib.suppress(OSError):   # (a process gone already: its reader says so)
                os.setpriority(os.PRIO_PROCESS, self.proc.pid, min(19, os.getpriority(os.PRIO_PROCESS, 0) + self.nice))
        self.reader = asyncio.create_task(self._read(host), name=f"engine-{self.index}-reader")

    async def _read(self, host: "EngineHost") -> None:
        assert self.proc is not None and self.proc.stdout is not None
        stdout = self.proc.stdout
        try:
            while True:
                head = await stdout.readexactly(HEADER.size)
                body = await stdout.readexactly(HEADER.unpack(head)[0])
                rid, ok, payload, op, op_cpu, between_cpu, pauses = pickle.loads(body)
                metrics.child(metrics.ENGINE_CPU, host.service, op).inc(op_cpu)
                metrics.child(metrics.ENGINE_CPU, host.service, metrics.BETWEEN).inc(between_cpu)
                metrics.child(metrics.ENGINE_REQUESTS, host.service, op).inc()
                for kind, seconds in pauses:
                    metrics.GC_PAUSES.labels(host.service, "engine", kind).observe(seconds)
                future = self.waiting.pop(rid, None)
                if future is None or future.done():
                    continue
                if ok:
                    future.set_result(payload)
                else:
                    future.set_exception(EngineError(*payload))
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            host._lost(self)

    def send(self, rid: int, message: tuple) -> None:
        """Queue a request; the requests of one turn of the event loop go out in one write (one
        system call and one wake-up of the child however many games asked)."""
        assert self.proc is not None and self.proc.stdin is not None
        data = pickle.dumps((rid, *message), pickle.HIGHEST_PROTOCOL)
        if not self.outgoing:
            asyncio.get_running_loop().call_soon(self._write)
        self.outgoing.append(HEADER.pack(len(data)))
        self.outgoing.append(data)

    def _write(self) -> None:
        chunks, self.outgoing = self.outgoing, []
        if chunks and self.proc is not None and self.proc.stdin is not None:
            self.proc.stdin.write(b"".join(chunks))

    async def stop(self) -> None:
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), 10)
        except asyncio.TimeoutError:
            proc.kill()
            await proc.wait()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)


class EngineHost:
    """The engine processes of one service process (shared by every service in it)."""

    def __init__(self, workers: int, service: str, window: int = 1000, nice: int = 0):
        """`nice`: how much lower than this process's the engine processes' CPU priority is. The
        event loop moves every game's records and answers; an engine process serves its own games:
        when both want one of the machine's cores, the loop goes first."""
        self.workers = workers
        self.service = service
        self.window = window
        self.held: dict[str, int] = {}      # game -> sequence of the engine held for it
        self.holder: dict[str, str] = {}    # game -> the owner (round kind) using it; "" released
        self.released_at: dict[str, float] = {}
        self._children = [_Child(i, window, nice) for i in range(workers)]
        self._shard = None
        if workers == 0:
            from runtime.shard import Shard

            self._shard = Shard(window)
        self._rid = 0
        self._settling = False
        self._stopping = False
        self._starting: dict[int, asyncio.Task] = {}
        self._state_turns = [asyncio.Semaphore(1) for _ in range(max(1, workers))]

    async def start(self) -> None:
        """Start the engine processes now (otherwise each starts at its first request)."""
        await asyncio.gather(*(self._ensure(c) for c in self._children))

    async def stop(self) -> None:
        self._stopping = True
        await asyncio.gather(*(c.stop() for c in self._children))

    def child_of(self, game_id: str) -> int:
        return zlib.crc32(game_id.encode()) % max(1, self.workers)

    def state_turn(self, game_id: str) -> asyncio.Semaphore:
        """The turn of the game's engine process to write a checkpoint's engine state: one at a
        time per process, taken before the game's lock (Owner._checkpoint_now), so that a game's
        commands never wait behind the dumps of other games queued in its process."""
        return self._state_turns[self.child_of(game_id)]

    def pids(self) -> list[int]:
        return [c.proc.pid for c in self._children if c.proc is not None]

    async def _ensure(self, child: _Child) -> None:
        if child.proc is not None and child.proc.returncode is None:
            return
        task = self._starting.get(child.index)
        if task is None:
            task = asyncio.ensure_future(child.start(self))
            self._starting[child.index] = task
            index = child.index
            task.add_done_callback(lambda _t: self._starting.pop(index, None))
        await asyncio.shield(task)

    def _lost(self, child: _Child) -> None:
        """A child's output ended: it died (or is stopping). Whoever waited on it learns so."""
        for future in child.waiting.values():
            if not future.done():
                future.set_exception(EngineCrashed(f"engine process {child.index} ended"))
        child.waiting.clear()
        child.outgoing.clear()   # (never sent to the process that replaces it)
        for game in [g for g in self.held if self.child_of(g) == child.index]:
            self.forget(game)
        if not self._stopping and child.proc is not None:
            log.error("%s: engine process %d (pid %s) ended; starting another", self.service, child.index, child.proc.pid)
            child.proc = None

    async def _send(self, child: _Child, op: str, game_id: str | None, kw: dict) -> Any:
        await self._ensure(child)
        self._rid += 1
        future = asyncio.get_running_loop().create_future()
        child.waiting[self._rid] = future
        child.send(self._rid, (op, game_id, kw))
        return await future

    async def call(self, op: str, game_id: str, **kw) -> Any:
        """`op` on a game, in the process that holds it."""
        if self._shard is not None:
            return self._inline(op, game_id, kw)
        return await self._send(self._children[self.child_of(game_id)], op, game_id, kw)

    async def job(self, op: str, **kw) -> Any:
        """A request that holds no game, in the least busy process."""
        if self._shard is not None:
            return self._inline(op, None, kw)
        child = min(self._children, key=lambda c: len(c.waiting))
        return await self._send(child, op, None, kw)

    def _inline(self, op: str, game_id: str | None, kw: dict) -> Any:
        t0 = time.process_time()
        assert self._shard is not None   # (called without engine processes only)
        try:
            return self._shard.handle(op, game_id, kw)
        except Exception as exc:
            raise EngineError(*_failure(exc)) from exc
        finally:
            metrics.child(metrics.ENGINE_CPU, self.service, op).inc(time.process_time() - t0)
            metrics.child(metrics.ENGINE_REQUESTS, self.service, op).inc()
            if not self._settling:
                # what the call left for later (an undo copy, what it dropped) is done once the
                # caller has its answer (the loop's next turn), as an engine process does after
                # writing it
                self._settling = True
                asyncio.get_running_loop().call_soon(self._settle_inline)

    def _settle_inline(self) -> None:
        """A step of the work calls left for later (Shard.settle_step); the next one at the loop's
        next turn, so that the loop's other work goes between two of them."""
        t0 = time.process_time()
        assert self._shard is not None
        more = self._shard.settle_step()
        metrics.child(metrics.ENGINE_CPU, self.service, metrics.BETWEEN).inc(time.process_time() - t0)
        if more:
            asyncio.get_running_loop().call_soon(self._settle_inline)
        else:
            self._settling = False

    def forget(self, game_id: str) -> None:
        self.held.pop(game_id, None)
        self.holder.pop(game_id, None)
        self.released_at.pop(game_id, None)

    def release(self, game_id: str) -> None:
        """The owner that held the game let it go; another owner in this process may take it."""
        if game_id in self.held:
            self.holder[game_id] = ""
            self.released_at[game_id] = time.monotonic()

    async def drop_released(self, older_than_s: float) -> int:
        """Drop the games released longer ago than that and taken by nobody since."""
        now = time.monotonic()
        stale = [g for g, t in self.released_at.items() if self.holder.get(g) == "" and now - t >= older_than_s]
        for game in stale:
            await self.drop(game)
        return len(stale)

    async def drop(self, game_id: str) -> None:
        self.forget(game_id)
        try:
            await self.call("drop", game_id)
        except EngineCrashed:
            pass


# Requests a player waits on go first: of those waiting, a decision, a load or a dump (a checkpoint
# holds its game's lock while it dumps the state: the game's next command waits for it) is served
# before a view or a query of other games (a game's requests keep their order: one its owner stopped
# waiting for, a view whose task a revocation cancelled, still comes before that game's next drop).
# A request that has waited MAX_WAIT_S goes first whatever its kind, so that views are not starved
# while many games are being loaded (a takeover after a rebalance).
URGENT = frozenset({"decide", "load", "has", "drop", "setup", "dump"})
# Requests answered in steps (Shard.handle_in_steps): a load reads or builds the state, then applies
# each decided record after it, 5-15 ms in all; the urgent requests that come in meanwhile go
# between two of its steps. NEXT_STEP: the queue's entry for such a request's next step.
STEPPED = frozenset({"load"})
NEXT_STEP = "next step"
MAX_WAIT_S = 1.0
# What a request leaves for after its answer (Shard.settle: an undo's copy and journal, letting go of
# the state it replaced, 5-30 ms late in a game, in steps of a millisecond or two) waits while other
# requests do; once it has waited SETTLE_WAIT_S, a step of it goes between two requests.
SETTLE_WAIT_S = 0.05


class _Requests:
    """The child's side of the pipe: every complete request read so far, the urgent ones first,
    unless the oldest of the others has waited too long."""

    def __init__(self, fd: int, max_wait_s: float = MAX_WAIT_S):
        self.fd = fd
        self.max_wait_s = max_wait_s
        self.buffer = bytearray()
        self.urgent: list[tuple] = []
        self.later: list[tuple[float, tuple]] = []   # (when it was read, request)
        self.closed = False

    def _read(self, block: bool) -> None:
        import select

        while not self.closed:
            if not block and not select.select([self.fd], [], [], 0)[0]:
                return
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                self.closed = True
                return
            self.buffer += chunk
            block = False
            while len(self.buffer) >= HEADER.size:
                size = HEADER.unpack_from(self.buffer)[0]
                if len(self.buffer) < HEADER.size + size:
                    break
                request = pickle.loads(bytes(self.buffer[HEADER.size:HEADER.size + size]))
                del self.buffer[:HEADER.size + size]
                self._queue(request)

    def _queue(self, request: tuple) -> None:
        if request[1] not in URGENT:
            self.later.append((time.monotonic(), request))
            return
        game_id = request[2]
        if game_id is not None and any(r[2] == game_id for _, r in self.later):
            self.urgent.extend(r for _, r in self.later if r[2] == game_id)
            self.later = [(t, r) for t, r in self.later if r[2] != game_id]
        self.urgent.append(request)

    def _pop_urgent_of(self, game_id: str | None) -> tuple | None:
        if game_id is None:
            return None
        for i, request in enumerate(self.urgent):
            if request[2] == game_id:
                return self.urgent.pop(i)
        return None

    def again(self, request: tuple) -> None:
        """``request`` (a request's next step) after the urgent requests waiting now (what the pipe
        holds read first)."""
        self._read(block=False)
        self.urgent.append(request)

    def forget(self, rid: int) -> None:
        """Take out request ``rid``'s next step (``again``): it was finished otherwise."""
        self.urgent = [r for r in self.urgent if r[0] != rid or r[1] != NEXT_STEP]

    def waiting(self) -> bool:
        """Whether a complete request waits to be answered (what the pipe holds read first)."""
        self._read(block=False)
        return bool(self.urgent or self.later)

    def next(self) -> tuple | None:
        """The next request, waiting for one if none is complete yet (a large one arrives in several
        reads); None once stdin is closed."""
        self._read(block=not (self.urgent or self.later))
        while not (self.urgent or self.later or self.closed):
            self._read(block=True)
        if self.later and (not self.urgent or time.monotonic() - self.later[0][0] >= self.max_wait_s):
            # the oldest other request, after any urgent one of its game that was read before it
            return self._pop_urgent_of(self.later[0][1][2]) or self.later.pop(0)[1]
        if self.urgent:
            return self.urgent.pop(0)
        return None


def freeze_title_data() -> None:
    """Every title's data, tile descriptions and state-copy templates loaded, then set aside from the
    cyclic garbage collector (``gc.freeze``): they live as long as the process and are never garbage,
    yet a full collection would trace them all (about 36,000 objects; a full collection with two
    late games held: 14.6 ms before, 3.6 ms after; see docs/architecture.md). Called once, before
    any game: the process's collector (`runtime.collector`), made here, freezes what is alive then,
    which only a compaction looks at again."""
    from engine import statecopy, titles

    for slug in titles.SLUGS:
        statecopy.prepare(slug)
    collector_module.install(young=True)


def _serve(window: int) -> None:
    """The child: requests from stdin, answers to stdout, until stdin closes."""
    from runtime.shard import Shard

    # Its service ends it (closing stdin) after the stop's checkpoints, which dump engine states
    # here. Ctrl-C in a terminal (SIGINT) or a stop sent to the whole process group (SIGTERM) also
    # reaches this process: ended then, it would print a KeyboardInterrupt, its service would log it
    # as died and start another, and the stop's dumps would wait for a fresh load.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)

    freeze_title_data()
    requests = _Requests(sys.stdin.fileno())
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr  # anything printed goes to the log, never into the answers
    shard = Shard(window)
    collector = collector_module.install(young=True)

    def write(data: bytes) -> None:
        try:
            stdout.write(HEADER.pack(len(data)) + data)
            stdout.flush()
        except BrokenPipeError:
            # the service process is gone (killed): nobody is waiting for answers; end quietly,
            # without the interpreter's flush of the dead pipe at exit
            os._exit(0)

    _answer_all(requests, shard, write, collector)


class _InSteps:
    """A request answered in steps (an op in STEPPED, ``Shard.handle_in_steps``)."""

    def __init__(self, rid: int, op: str, game_id: str, steps):
        self.rid = rid
        self.op = op
        self.game_id = game_id
        self.steps = steps
        self.cpu = 0.0   # its steps' CPU so far

    def step(self) -> tuple | None:
        """One step; the answer once it is the last."""
        try:
            next(self.steps)
        except StopIteration as done:
            return (self.rid, True, done.value)
        except Exception as exc:
            return _failed(self.rid, self.op, self.game_id, exc)
        return None


def _failed(rid: int, op: str, game_id: str | None, exc: Exception) -> tuple:
    failure = _failure(exc)
    if failure[0] == "internal":
        log.exception("engine request %s on %s failed", op, game_id)
    return (rid, False, failure)


def _answer_all(requests: _Requests, shard, write, collector, settle_wait_s: float = SETTLE_WAIT_S) -> None:
    """Answer every request until stdin closes. A request of an op in STEPPED (a load) is answered in
    steps: after each, the urgent requests that came in meanwhile go first (its next step waits at
    the end of the urgent ones); a request of its game finishes it first. What a request leaves for
    after its answer (``shard.settle``: an undo's copy and journal, letting go of what it dropped) is
    done once its answer is out, in steps between which the requests that came in go first
    (``_settle``: another game's player waits on a request, nobody on that work)."""
    cpu = time.process_time()   # when the last answer was written
    owned = 0.0                 # the CPU of requests (and their steps) since then
    owed_since: float | None = None   # since when work left for after an answer waits
    stepping: dict[str, _InSteps] = {}   # game -> its request being answered in steps

    def run(work: _InSteps) -> tuple | None:
        nonlocal owned
        started = time.process_time()
        answer = work.step()
        spent = time.process_time() - started
        work.cpu += spent
        owned += spent
        return answer

    def answered(answer: tuple, op: str, own: float, settle: bool = True) -> None:
        # the request's own CPU, and what came between the last answer and it that no request took
        # (writing that answer, the work it left for after it, reading requests: the service counts
        # it as `between`)
        nonlocal cpu, owned, owed_since
        now = time.process_time()
        write(pickle.dumps((*answer, op, own, now - cpu - owned, collector.take_pauses()), pickle.HIGHEST_PROTOCOL))
        cpu, owned = now, 0.0
        owed_since = time.monotonic() if owed_since is None else owed_since
        if settle:
            owed_since = _settle(requests, shard, owed_since, settle_wait_s)
            collector.between_requests()

    while (request := requests.next()) is not None:
        rid, op, game_id, kw = request
        work = stepping.get(game_id) if game_id is not None else None
        if op == NEXT_STEP:
            assert work is not None and work.rid == rid
        else:
            if work is not None:   # a request of a game whose request is being answered in steps
                while (answer := run(work)) is None:
                    pass
                del stepping[game_id]
                requests.forget(work.rid)
                answered(answer, work.op, work.cpu, settle=False)   # (this request is next)
            work = None
            if op in STEPPED and game_id is not None:
                work = stepping[game_id] = _InSteps(rid, op, game_id, shard.handle_in_steps(op, game_id, kw))
        if work is not None:
            answer = run(work)
            if answer is None:
                requests.again((rid, NEXT_STEP, game_id, None))
                continue
            del stepping[game_id]
            answered(answer, work.op, work.cpu)
            continue
        started = time.process_time()
        try:
            answer = (rid, True, shard.handle(op, game_id, kw))
        except Exception as exc:
            answer = _failed(rid, op, game_id, exc)
        own = time.process_time() - started
        owned += own
        answered(answer, op, own)


def _settle(requests: _Requests, shard, owed_since: float, settle_wait_s: float) -> float | None:
    """Steps of the work answers left for after them (``shard.settle_step``, a millisecond or two
    each) while no request waits; once that work has waited ``settle_wait_s``, one step between two
    requests. When the work still owed began to wait (None once it is done)."""
    while True:
        waiting = requests.waiting()
        if waiting and time.monotonic() - owed_since < settle_wait_s:
            return owed_since
        if not shard.settle_step():
            return None
        if waiting:
            return owed_since


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="a Roundhouse engine process (started by runtime.engines.EngineHost)")
    parser.add_argument("--window", type=int, default=1000)
    logging.basicConfig(level=logging.WARNING, format="engine %(process)d %(levelname)s %(message)s")
    _serve(parser.parse_args().window)
