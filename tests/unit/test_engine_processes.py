"""Engine processes (runtime.engines): requests and answers over the child's pipes."""

import asyncio
import os
import pickle
from types import SimpleNamespace

import orjson
import pytest

from runtime import app
from runtime.config import Settings
from runtime.engines import HEADER, EngineHost, _answer_all, _Requests
from runtime.owner import Owner
from runtime.service import Context
from tools import evidence


def _send(fd: int, *requests: tuple) -> None:
    """Requests written into an engine process's pipe, as its service writes them."""
    for request in requests:
        data = pickle.dumps(request)
        os.write(fd, HEADER.pack(len(data)) + data)


@pytest.mark.parametrize("event_loop", ["uvloop", "asyncio"])
def test_a_request_larger_than_one_pipe_read_reaches_the_engine_process(event_loop):
    # an import carries the whole export (1822/33845: about 400 KB), which the child reads in
    # several pieces; it must wait for the rest rather than take the pipe for closed
    export = orjson.dumps(evidence.load_game("1822", "33845"))
    assert len(export) > 1 << 16

    async def run():
        host = EngineHost(1, "test")
        await host.start()
        try:
            first = await host.job("import", target="g1", export=export, producer="test")
            second = await host.job("import", target="g2", export=export, producer="test")
            return first, second, host.pids()
        finally:
            await host.stop()

    first, second, pids = app.run(run(), event_loop)
    assert first["seq"] == second["seq"] == len(orjson.loads(export)["actions"])
    assert first["digest"] == second["digest"]
    assert len(pids) == 1


def test_a_process_runs_on_the_event_loop_its_settings_name(monkeypatch):
    async def loop_module():
        return type(asyncio.get_running_loop()).__module__

    assert Settings().event_loop == "uvloop"
    assert app.run(loop_module(), Settings().event_loop).startswith("uvloop")
    monkeypatch.setenv("ROUNDHOUSE_EVENT_LOOP", "asyncio")
    assert app.run(loop_module(), Settings().event_loop).startswith("asyncio")
    monkeypatch.setenv("ROUNDHOUSE_EVENT_LOOP", "trio")
    with pytest.raises(ValueError, match="event_loop"):
        Settings()


def test_engine_processes_run_at_the_lower_cpu_priority_they_are_given():
    async def run():
        host = EngineHost(1, "test", nice=3)
        await host.start()
        try:
            return [os.getpriority(os.PRIO_PROCESS, pid) for pid in host.pids()]
        finally:
            await host.stop()

    mine = os.getpriority(os.PRIO_PROCESS, 0)
    assert asyncio.run(run()) == [min(19, mine + 3)]


def test_an_engine_process_outlives_a_signal_to_its_process_group_and_ends_with_its_service():
    # Ctrl-C in a terminal (SIGINT) or a stop sent to the process group (SIGTERM) reaches the
    # engine processes too; their service stops them itself, after its last dumps
    import signal

    async def run():
        host = EngineHost(1, "test")
        await host.start()
        try:
            [pid] = host.pids()
            await host.call("has", "g0")   # serving (the signals then find it past its start)
            for sig in (signal.SIGINT, signal.SIGTERM):
                os.kill(pid, sig)
            answered = await host.call("has", "g1")
            return pid, answered, host.pids()
        finally:
            await host.stop()

    pid, answered, pids = asyncio.run(run())
    assert answered is None and pids == [pid]   # the same process answered: none was started again
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)                          # ended with its service


def test_urgent_requests_go_first_but_never_before_an_earlier_request_of_their_game():
    read, write = os.pipe()
    requests = [(1, "view", "a", {}), (2, "query", "b", {}), (3, "decide", "c", {}), (4, "drop", "a", {}),
                (5, "query", "c", {})]
    _send(write, *requests)
    os.close(write)
    queue = _Requests(read)
    served = [request[0] for request in iter(queue.next, None)]
    os.close(read)
    # the decision of c before b's query; a's drop after a's view (its owner stopped waiting for the
    # view: a revocation cancelled the task that asked)
    assert served == [3, 1, 4, 2, 5]


def test_a_dump_is_served_in_turn_with_the_decisions():
    # a checkpoint holds its game's lock while the game's engine state is dumped: the game's next
    # command waits for the dump, which must not wait behind every other game's decisions
    read, write = os.pipe()
    _send(write, (1, "view", "a", {}), (2, "decide", "b", {}), (3, "dump", "c", {}), (4, "decide", "d", {}))
    os.close(write)
    queue = _Requests(read, max_wait_s=3600.0)
    served = [request[0] for request in iter(queue.next, None)]
    os.close(read)
    assert served == [2, 3, 4, 1]


def test_a_checkpoint_waits_for_its_engine_processs_turn_before_it_takes_its_games_lock():
    # checkpoints come due together; one whose engine state another game's dump holds up on their
    # engine process must not hold its game's lock (the game's commands) while it waits
    async def run():
        owner = Owner("operating_round", Context(Settings(), None, EngineHost(0, "test")))
        written: list[tuple[str, bool, bool]] = []

        async def checkpoint(worker, led, *, with_state):
            written.append((led.game_id, with_state, owner._lock(led.game_id).locked()))
            return True

        owner._checkpoint = checkpoint
        game = SimpleNamespace(game_id="g")
        turn = owner.host.state_turn("g")
        await turn.acquire()   # another game's state is being dumped on g's engine process
        task = asyncio.create_task(owner._checkpoint_now(None, game, wait=False, with_state=True))
        await asyncio.sleep(0.01)
        waiting_unlocked = not task.done() and not owner._lock("g").locked()
        turn.release()
        await task
        # without an engine state, or at a stop (wait): no turn to wait for
        await owner._checkpoint_now(None, game, wait=False, with_state=False)
        await turn.acquire()
        await owner._checkpoint_now(None, game, wait=True, with_state=True)
        turn.release()
        return waiting_unlocked, written

    waiting_unlocked, written = asyncio.run(run())
    assert waiting_unlocked
    assert written == [("g", True, True), ("g", False, True), ("g", True, True)]


def test_a_request_that_waited_too_long_goes_before_urgent_ones_but_after_its_games_earlier_ones():
    # a takeover queues many loads; a player's view must not wait behind all of them
    read, write = os.pipe()

    _send(write, (1, "load", "a", {}), (2, "view", "a", {}), (3, "view", "b", {}))
    queue = _Requests(read, max_wait_s=0.0)   # every view has waited long enough at once
    first = queue.next()
    _send(write, (4, "load", "c", {}), (5, "load", "d", {}))
    os.close(write)
    served = [first[0]] + [request[0] for request in iter(queue.next, None)]
    os.close(read)
    # a's view after a's load (read before it); b's view before the loads of c and d read after it
    assert served == [1, 2, 3, 4, 5]

    read, write = os.pipe()
    _send(write, (1, "view", "a", {}), (2, "load", "b", {}), (3, "load", "c", {}))
    os.close(write)
    patient = _Requests(read, max_wait_s=3600.0)
    served = [request[0] for request in iter(patient.next, None)]
    os.close(read)
    assert served == [2, 3, 1]   # not waited long: the loads first


class _Recorder:
    """A shard and a collector that note what the engine process's loop asks of them, in order."""

    def __init__(self):
        self.events: list[str] = []

    def handle(self, op, game_id, kw):
        self.events.append(f"{op} {game_id}")
        return {}

    def settle_step(self):
        self.events.append("settle")
        return False

    def take_pauses(self):
        return []

    def between_requests(self):
        pass


def _answers_with(requests: list[tuple], settle_wait_s: float) -> list[str]:
    read, write = os.pipe()
    _send(write, *requests)
    os.close(write)
    recorder = _Recorder()
    _answer_all(_Requests(read), recorder, lambda data: recorder.events.append(f"answer {pickle.loads(data)[0]}"),
                recorder, settle_wait_s=settle_wait_s)
    os.close(read)
    return recorder.events


def test_work_left_for_after_an_answer_waits_while_other_requests_do():
    # an undo late in a game leaves 5-15 ms of work for after its answer (its copy, letting go of
    # the state it replaced): a request of another game that came in meanwhile goes first
    both = [(1, "decide", "a", {}), (2, "decide", "b", {})]
    assert _answers_with(both, settle_wait_s=3600.0) == [
        "decide a", "answer 1", "decide b", "answer 2", "settle"]
    # ... at most settle_wait_s: then between two requests, as when none waits
    assert _answers_with(both, settle_wait_s=0.0) == [
        "decide a", "answer 1", "settle", "decide b", "answer 2", "settle"]
    assert _answers_with(both[:1], settle_wait_s=3600.0) == ["decide a", "answer 1", "settle"]


def _shard_of_two_games(events: list, parts: tuple):
    """A shard holding games "a" and "b" whose settling notes each of its ``parts`` (a step each),
    and a request `noop` that notes itself."""
    from runtime.shard import Shard

    class Game:
        def __init__(self, name):
            self.name = name

        def settle_steps(self):
            for part in parts:
                events.append(f"{self.name}{part}")
                yield 0

    class Hosted:
        def __init__(self, name):
            self.game = Game(name)

    shard = Shard()
    shard.games = {"a": Hosted("a"), "b": Hosted("b")}
    shard.op_noop = lambda game_id: events.append(f"request {game_id}")
    return shard


def test_a_shard_settles_every_game_answered_since_its_last_settle():
    settled: list = []
    shard = _shard_of_two_games(settled, (1,))
    for game_id in ("a", "b", "a", None):
        shard.handle("noop", game_id, {})
    del settled[:]
    shard.settle()
    assert settled == ["a1", "b1"]
    shard.settle()
    assert settled == ["a1", "b1"]   # nothing answered since


def test_a_request_that_comes_in_while_work_is_settled_goes_between_two_of_its_steps():
    # work left for after an answer is done in steps of a millisecond or two (an undo's journal: a
    # walk of 10-30 ms late in a game): a request read meanwhile is answered before the next step
    read, write = os.pipe()

    class Stepping(_Recorder):
        steps = 3

        def settle_step(self):
            self.steps -= 1
            self.events.append("step")
            if self.steps == 2:   # another game's command arrives during the first step
                _send(write, (2, "decide", "b", {}))
                os.close(write)
            return self.steps > 0

    _send(write, (1, "decide", "a", {}))
    recorder = Stepping()
    _answer_all(_Requests(read), recorder, lambda data: recorder.events.append(f"answer {pickle.loads(data)[0]}"),
                recorder, settle_wait_s=3600.0)
    os.close(read)
    assert recorder.events == ["decide a", "answer 1", "step", "decide b", "answer 2", "step", "step"]


def _a_load_in_steps_while(*arriving: tuple) -> list[str]:
    """What the engine process's loop does with a load of game a (three steps) during whose first
    step the ``arriving`` requests are written into its pipe."""
    read, write = os.pipe()

    class Stepping(_Recorder):
        def handle_in_steps(self, op, game_id, kw):
            for part in (1, 2, 3):
                self.events.append(f"{op} {game_id} step {part}")
                if part == 1:
                    _send(write, *arriving)
                    os.close(write)
                yield None
            return {}

    _send(write, (1, "load", "a", {}))
    recorder = Stepping()
    _answer_all(_Requests(read, max_wait_s=3600.0), recorder,
                lambda data: recorder.events.append(f"answer {pickle.loads(data)[0]}"), recorder,
                settle_wait_s=3600.0)
    os.close(read)
    return recorder.events


def test_a_load_is_answered_in_steps_with_the_urgent_requests_that_come_in_between_them():
    # a load (5-15 ms: the state read or built, then every decided record after it) goes in steps:
    # a command of another game read meanwhile is decided before the load's next step
    assert _a_load_in_steps_while((2, "decide", "b", {}), (3, "view", "b", {})) == [
        "load a step 1", "decide b", "answer 2",                  # the urgent command between two steps
        "load a step 2", "load a step 3", "answer 1",             # (the view waits: not urgent)
        "view b", "answer 3", "settle"]


def test_a_request_of_a_game_being_loaded_in_steps_finishes_the_load_first():
    assert _a_load_in_steps_while((2, "decide", "a", {})) == [
        "load a step 1", "load a step 2", "load a step 3", "answer 1", "decide a", "answer 2", "settle"]


def test_a_load_in_steps_applies_each_record_after_the_state_in_a_step_of_its_own():
    from runtime.shard import Shard

    from .test_fencing import command, new_game

    shard, created = new_game()
    tail = [shard.op_decide("g", command(shard, n).SerializeToString(), "auction/a")["record"] for n in range(3)]
    loader = Shard()
    steps = loader.handle_in_steps("load", "g", {"created": created.SerializeToString(), "tail": tail})
    taken = 0
    while True:
        try:
            next(steps)
        except StopIteration as done:
            answer = done.value
            break
        taken += 1
        assert "g" not in loader.games   # (the game is held once it is loaded)
    assert taken == 4   # each of the 3 records, then the digest
    assert answer["seq"] == 3 and answer["digest"] == shard.games["g"].game.digest()
    assert loader.games["g"].game.digest() == answer["digest"]


def test_a_shard_finishes_the_settling_under_way_before_a_request_of_its_game():
    events: list = []
    shard = _shard_of_two_games(events, (1, 2))
    shard.handle("noop", "a", {})
    shard.handle("noop", "b", {})
    assert shard.settle_step() and events[-1] == "a1"
    shard.handle("noop", "b", {})                 # another game's request: a's settling waits
    assert events[-1] == "request b"
    shard.handle("noop", "a", {})                 # a's own: its settling is finished first
    assert events[-2:] == ["a2", "request a"]
    shard.settle()
    assert events[-4:] == ["b1", "b2", "a1", "a2"]   # then b's, and a's again (its request's)
    assert not shard.settle_step()


def test_an_engine_process_whose_service_is_gone_ends_quietly():
    # a service killed with SIGKILL leaves its engine processes answering into a closed pipe: they
    # end at once, with no traceback in the service's log
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-m", "runtime.engines"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child.stdout.close()   # the reader of its answers is gone
    data = pickle.dumps((1, "has", "g1", {}))
    child.stdin.write(HEADER.pack(len(data)) + data)
    child.stdin.flush()
    err = child.stderr.read()
    assert child.wait(timeout=60) == 0
    assert err == b""


def test_the_collector_freezes_survivors_and_frees_frozen_cycles_at_a_compaction():
    import gc
    import weakref

    from runtime.collector import Collector

    class Node:
        pass

    def cycle() -> tuple[Node, weakref.ref]:
        a, b = Node(), Node()
        a.other, b.other = b, a
        return a, weakref.ref(a)

    collector = Collector(growth=2.0, floor=0)
    try:
        kept, kept_ref = cycle()
        dropped, dropped_ref = cycle()
        gc.collect()                      # a full collection ran: what survived it is frozen next
        collector.between_requests()
        assert collector.compactions == 0  # the process has not grown twofold: no compaction
        del dropped
        gc.collect()
        assert dropped_ref() is not None  # frozen: no collection looks at it
        collector.baseline = 1            # as if the process's objects had doubled since
        collector.full_ran = True
        collector.between_requests()
        assert collector.compactions == 1
        assert dropped_ref() is None      # the compaction freed the frozen cycle
        assert kept_ref() is kept
        assert gc.get_freeze_count() > 0  # and froze what lives again
        kinds = [kind for kind, seconds in collector.take_pauses() if seconds >= 0]
        assert kinds.count("compaction") == 1 and "full" in kinds   # each pause reported once
        assert collector.take_pauses() == []
    finally:
        gc.callbacks.remove(collector._noted)
        gc.unfreeze()


def test_an_engine_processs_collector_freezes_what_outlives_the_young_generations():
    """young (an engine process's): what survives a young collection is frozen at once, so a full
    collection has nothing of it to trace; a cycle dropped after that waits for a compaction, which
    runs only past the floor, counted at most every count_every_s."""
    import gc
    import weakref

    from runtime.collector import Collector

    class Node:
        pass

    collector = Collector(young=True, floor=0, growth=2.0, count_every_s=0.0)
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a
        alive = weakref.ref(a)
        frozen = gc.get_freeze_count()
        gc.collect(1)                     # a young collection: the cycle outlived it
        assert gc.get_freeze_count() >= frozen + 2 and collector.full_ran
        del a, b
        gc.collect()
        assert alive() is not None        # frozen: not even a full collection looks at it
        assert [kind for kind, _s in collector.take_pauses()] == ["full"]
        collector.baseline = 1            # as if the process's objects had doubled since
        collector.full_ran = True
        collector.between_requests()
        assert collector.compactions == 1 and alive() is None
    finally:
        gc.callbacks.remove(collector._noted)
        gc.unfreeze()


def test_a_compaction_waits_for_the_process_to_grow_past_its_floor():
    """The trigger counts the process's objects as pymalloc's blocks (runtime.collector.heap_size:
    no walk of the frozen objects): a compaction once they have grown `growth`-fold since the last
    one, and past the floor; the count after it is the next baseline."""
    import gc

    from runtime.collector import Collector, heap_size

    for floor, compacts in ((0, True), (10 ** 12, False)):
        collector = Collector(growth=1.5, floor=floor)
        try:
            collector.full_ran = True
            collector.between_requests()
            assert collector.compactions == 0          # not grown since it was made
            before = collector.baseline
            grown = [[i] for i in range(before)]       # as many objects again as the process held, and more
            assert heap_size() > 1.5 * before
            collector.full_ran = True
            collector.between_requests()
            assert collector.compactions == (1 if compacts else 0)
            assert (collector.baseline > 1.5 * before) == compacts
            del grown
        finally:
            gc.callbacks.remove(collector._noted)
            gc.unfreeze()


def test_an_engine_process_sets_the_title_data_aside_from_the_collector():
    """freeze_title_data (run by every engine process before its first game) loads every title's data
    and copy templates and freezes them: a full collection no longer traces them, and games played
    after it still load, undo and dump as ever."""
    import subprocess
    import sys

    script = (
        "import gc, engine\n"
        "from runtime.engines import freeze_title_data\n"
        "from engine import statecopy, titles\n"
        "freeze_title_data()\n"
        "frozen = gc.get_freeze_count()\n"
        "game = engine.new_game('1856', ['A', 'B', 'C'], seed=3)\n"
        "loaded = engine.load(game.dump())\n"
        "assert loaded.loaded_by == 'state' and loaded.state.data is titles.load_data('1856')\n"
        "print(frozen, len(statecopy.title_seeds('1858')))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    frozen, seeds = (int(x) for x in out.split())
    assert frozen > seeds > 1000


def test_a_tail_that_does_not_follow_its_state_is_reported_as_such_not_as_an_internal_fault():
    # the owner loads such a game from its log instead; the engine process logs no traceback for it
    from runtime.engines import _failure
    from runtime.shard import TailGap

    assert _failure(TailGap("game g: the records after its state skip from seq 6 to 8")) == (
        "tail", "game g: the records after its state skip from seq 6 to 8", None, None)
    assert _failure(ValueError("something else"))[0] == "internal"


def test_engine_cpu_is_counted_by_request_and_between_requests():
    # operators (and the platform benchmark) see where the engine processes' CPU goes: each
    # request's own time under its op, the reading, writing and settling between requests apart
    from prometheus_client import REGISTRY, generate_latest

    from runtime.bench import engine_ops
    from runtime.metrics import ENGINE_CPU, ENGINE_REQUESTS

    service = "test-ops"
    export = orjson.dumps(evidence.load_game("1856", "hotseat001"))

    async def run():
        host = EngineHost(1, service)
        await host.start()
        try:
            await host.job("import", target="g1", export=export, producer="test")
            await host.job("import", target="g2", export=export, producer="test")
        finally:
            await host.stop()

    app.run(run(), "asyncio")
    ops = engine_ops("\n".join(
        line for line in generate_latest(REGISTRY).decode().splitlines() if f'service="{service}"' in line))
    assert ops["import"][0] == 2 and ops["import"][1] > 0.01   # two imports of a whole game
    assert ops["between"][0] == 0 and ops["between"][1] >= 0
    assert ENGINE_REQUESTS.labels(service, "import")._value.get() == 2
    assert ENGINE_CPU.labels(service, "import")._value.get() == ops["import"][1]
