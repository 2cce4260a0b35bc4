"""Platform benchmark: ``python -m runtime.bench MODE [options]`` (`make bench-platform ARGS=...`).

Starts the platform as child processes on this machine, embedded (`roundhouse serve`) or over Kafka
(`--kafka HOST:PORT`: every service its own process, `--instances` of each, as many gateways), and
drives it through the gateways with grpc.aio clients. The moves are the recorded games of every title
(the repository's evidence/fixtures), as `roundhouse client replay` submits them: each game
is a copy of a recorded one, with the acting seat's token, at the sequence the engine predicts.

Modes:
  open     N live games; the seat to move waits an exponentially distributed think time (mean
           games/rate seconds), reads the game (GetGame with legal actions), then moves; a game
           whose record ends is replaced by a new one. Runs --duration seconds.
  closed   --clients players each playing games back to back as fast as they go (SubmitAction only;
           --reads adds a GetGame with legal actions before each move).
  create   --games concurrent CreateGame calls.
  hold     --games games created (a tenth played a few moves, --finished recorded games imported
           finished), then the memory of every process once idle, then a restart: the time until
           the gateway serves again and lists every game.
  idle     the platform started and left alone for --duration seconds: what each process costs
           when nothing happens (consumers waiting on the log, timers, heartbeats).
  engine   no platform: the engine alone plays the same moves, as an engine process does, and prints
           per title the CPU of a view with legal actions at every position (the open loop's read
           before each move; the board's share apart), of a move and of an undo or redo (and of
           letting go of the state an undo dropped, an old one as in a busy engine process).

Printed: games created, actions/s, SubmitAction and GetGame latency percentiles, CPU per action of
each process (with its engine processes) and in all, the load generator's own, resident memory of
each process, the checkpoints written per action, the consumer lag of each service, errors by status
code, the load average and the CPU time the hypervisor took (the machine may be shared: the CPU per
action is what carries over). A Kafka run's topics (a prefix of its own) are deleted at the end
unless --keep-topics.

`--cpus N` runs the platform, the load generator and (Kafka) this checkout's development broker in a
control group held to N CPUs together (runtime.cpuquota; Linux, as root): the same load on a smaller
or slower machine, to see how much headroom a target has. The report then says how often the quota
ran out.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import lzma
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import grpc

from contracts.actions import action_from_json
from contracts.v1 import gateway_pb2 as gw
from contracts.v1 import gateway_pb2_grpc
from runtime import app, collector
from runtime.aligner import RECORDED_ONLY, ReplayAligner, ReplayMismatch, play_entry
from runtime.client import _token_for, create_request
from runtime.cpuquota import CpuQuota, QuotaUnavailable

RECORDED = Path(__file__).resolve().parents[2] / "evidence" / "fixtures"   # <title>/<game>.json.xz
SERVICES = ("gateway", "auction", "stock_round", "operating_round", "scoring")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# recorded games as scripts ------------------------------------------------------------------------

@dataclass
class Script:
    """A recorded game as the platform is to be driven through it: how to create it, and each
    submission (the move, the seat that sends it, the sequence it expects)."""

    name: str
    export: dict
    moves: list[tuple[dict, str, int]]
    _encoded: list | None = field(default=None, repr=False, compare=False)

    def create_request(self) -> gw.CreateGameRequest:
        return create_request(self.export)

    def encoded(self) -> list:
        """Each move as an Action message, with its type (made once: every copy played of the script
        sends the same messages, and the load generator's own CPU is taken from the platform's)."""
        if self._encoded is None:
            self._encoded = [(action_from_json(move), move.get("type"), who, expected)
                             for move, who, expected in self.moves]
        return self._encoded


def build_script(path: Path) -> Script:
    """Play the recorded game in the engine alone, as the client replay plays it, noting each move."""
    import engine

    export = json.loads(lzma.decompress(path.read_bytes()))
    game = engine.replay_copy(export)
    seats = {str(p["id"]): str(p["id"]) for p in game.players}
    moves: list[tuple[dict, str, int]] = []

    def submit(move):
        who = _token_for(move, seats, [str(a) for a in game.acting_players()], "operator",
                         view=lambda: game.view(legal_actions=False))
        expected = game.seq
        stored = game.process(move)
        moves.append(({k: v for k, v in move.items() if k not in RECORDED_ONLY}, who, expected))
        return stored["id"], stored.get("auto_actions") or [], stored

    aligner = ReplayAligner(export["actions"])
    for recorded in export["actions"]:
        try:
            play_entry(aligner, recorded, submit)
        except (engine.GameError, ReplayMismatch):
            break
    return Script(f"{path.parent.name}/{_name(path)}", export, moves)


def _name(path: Path) -> str:
    return path.name.removesuffix(".json.xz")


def cached_script(path: Path) -> Script:
    """build_script, kept on disk (keyed by the recorded game and the engine build) for the next run."""
    import hashlib
    import pickle

    from engine.api import engine_build

    key = hashlib.sha256(path.read_bytes() + engine_build().encode()).hexdigest()[:20]
    cache = Path(tempfile.gettempdir()) / "roundhouse-bench-scripts" / f"{_name(path)}-{key}.pickle"
    if cache.exists():
        return Script(*pickle.loads(cache.read_bytes()))
    script = build_script(path)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(pickle.dumps((script.name, script.export, script.moves)))
    return script


def load_scripts(names: list[str] | None) -> list[Script]:
    paths = sorted(RECORDED.glob("*/*.json.xz"))
    if names:
        paths = [p for p in paths if _name(p) in names or f"{p.parent.name}/{_name(p)}" in names]
    if not paths:
        raise SystemExit(f"no recorded games under {RECORDED}" + (f" named {', '.join(names)}" if names else ""))
    t0 = time.perf_counter()
    scripts = [cached_script(p) for p in paths]
    print(f"scripts:  {len(scripts)} recorded games, {sum(len(s.moves) for s in scripts)} moves "
          f"({time.perf_counter() - t0:.0f} s to build or read them)", flush=True)
    return scripts


# the platform as child processes ------------------------------------------------------------------

class Server:
    """One platform process (and the engine processes it starts)."""

    def __init__(self, name: str, args: list[str], env: dict, logdir: Path, gateway: bool):
        self.name = name
        self.metrics_port = free_port()
        self.port = free_port() if gateway else None
        cmd = [sys.executable, "-m", "runtime.cli", *args, "--metrics-port", str(self.metrics_port)]
        if self.port:
            cmd += ["--port", str(self.port)]
        self.logfile = logdir / f"{name}.log"
        self.env = env
        self.cmd = cmd
        self.start()

    def start(self) -> None:
        self.log = open(self.logfile, "a")
        self.proc = subprocess.Popen(self.cmd, stdout=self.log, stderr=subprocess.STDOUT, env=self.env)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def pids(self) -> list[int]:
        """This process and its children (the engine processes)."""
        out = [self.proc.pid]
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == self.proc.pid:
                    out.append(int(entry.name))
        return out

    def cpu(self) -> float:
        """CPU seconds of this process and its children so far (user + system)."""
        return sum(self.cpus())

    def cpus(self) -> list[float]:
        """CPU seconds so far of this process, then of each of its children."""
        return [process_cpu(pid) for pid in self.pids()]

    def waited(self) -> float:
        """Seconds the threads of this process and of its children spent runnable but waiting for a CPU
        so far, summed over the threads (/proc/PID/task/TID/schedstat, second field; threads that ended are not counted): on a
        shared machine, how much of a latency is the queue for a CPU rather than our own work."""
        total = 0
        for pid in self.pids():
            try:
                tasks = list(Path(f"/proc/{pid}/task").iterdir())
            except OSError:
                continue
            for task in tasks:
                try:
                    total += int((task / "schedstat").read_text().split()[1])
                except (OSError, IndexError, ValueError):
                    continue
        return total / 1e9

    def rss_mb(self) -> float:
        total = 0.0
        for pid in self.pids():
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            m = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
            total += int(m.group(1)) / 1024 if m else 0
        return total

    def metrics(self) -> str:
        try:
            return urllib.request.urlopen(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=5).read().decode()
        except OSError:
            return ""

    def output(self) -> str:
        try:
            return self.logfile.read_text()
        except OSError:
            return ""

    def stop(self, sig=signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


class Platform:
    """Embedded: one `roundhouse serve`. Kafka: every service its own process, `instances` each."""

    def __init__(self, args, data: Path, quota: CpuQuota | None = None):
        self.args = args
        self.data = data
        self.quota = quota   # (--cpus: the group every process here was started in)
        env = {**os.environ, "ROUNDHOUSE_LOG_LEVEL": "WARNING", "ROUNDHOUSE_EVICT_IDLE_S": str(args.evict_idle)}
        if args.partitions:
            env["ROUNDHOUSE_PARTITIONS"] = str(args.partitions)
        if args.engine_workers is not None:
            env["ROUNDHOUSE_ENGINE_WORKERS"] = str(args.engine_workers)
        self.servers: list[Server] = []
        self.prefix = ""
        if args.kafka:
            self.prefix = env["ROUNDHOUSE_TOPIC_PREFIX"] = f"bench{uuid.uuid4().hex[:8]}."
            env["ROUNDHOUSE_LOG_LEVEL"] = "INFO"   # the instances say which partitions they hold
            for name in SERVICES:
                for i in range(args.instances):
                    key = f"{name}-{i + 1}"
                    extra = [] if name == "gateway" else ["--health-port", "0"]
                    self.servers.append(Server(key, ["service", name, "--kafka", args.kafka, "--instance", key, *extra],
                                               env, data, gateway=name == "gateway"))
        else:
            self.servers.append(Server("serve", ["serve", "--data", str(data / "log")], env, data, gateway=True))
        self.wait_ready()

    @property
    def gateways(self) -> list[Server]:
        return [s for s in self.servers if s.port]

    def wait_ready(self, timeout: float = 300) -> float:
        """Until every gateway answers and (Kafka) every group shares its partitions; seconds taken."""
        t0 = time.monotonic()
        for g in self.gateways:
            channel = grpc.insecure_channel(g.address)
            try:
                grpc.channel_ready_future(channel).result(timeout=timeout)
            except grpc.FutureTimeoutError:
                raise SystemExit(f"{g.name} did not start; see {g.logfile}") from None
            finally:
                channel.close()
        if self.args.kafka:
            while time.monotonic() - t0 < timeout and not self._groups_settled():
                time.sleep(0.5)
        return time.monotonic() - t0

    def _groups_settled(self) -> bool:
        partitions = self.args.partitions or 12
        for name in SERVICES[1:]:
            held: list[int] = []
            for s in self.servers:
                if s.name.startswith(name + "-"):
                    mine: set[int] = set()
                    for line in s.output().splitlines():
                        if m := re.search(r"holds partitions \[([\d, ]*)\]", line):
                            mine = {int(x) for x in m.group(1).split(",") if x.strip()}
                        elif m := re.search(r"released partitions \[([\d, ]*)\]", line):
                            mine -= {int(x) for x in m.group(1).split(",") if x.strip()}
                    if not mine or "caught up" not in s.output():
                        return False
                    held += sorted(mine)
            if sorted(held) != list(range(partitions)):
                return False
        return True

    def lag(self) -> dict[str, float]:
        """roundhouse_consumer_lag summed per service over every instance (the partitions held)."""
        out: dict[str, float] = defaultdict(float)
        for s in self.servers:
            for service, value in re.findall(r'^roundhouse_consumer_lag\{service="(\w+)",partition="\d+"\} (\S+)$',
                                             s.metrics(), re.M):
                out[service] += float(value)
        return dict(out)

    def stop(self) -> None:
        for s in self.servers:
            s.stop()
        if self.prefix and not self.args.keep_topics:
            asyncio.run(self._delete_topics())

    async def _delete_topics(self) -> None:
        """The run's topics (its own prefix), so that runs do not pile partitions up in the broker:
        every run makes five topics of 12 partitions and writes tens of megabytes to them."""
        from aiokafka.admin import AIOKafkaAdminClient

        admin = AIOKafkaAdminClient(bootstrap_servers=self.args.kafka, client_id="roundhouse-bench")
        try:
            await admin.start()
            mine = [t for t in await admin.list_topics() if t.startswith(self.prefix)]
            if mine:
                await admin.delete_topics(mine)
                print(f"topics:   deleted the run's {len(mine)} topics ({self.prefix}*)")
        except Exception as exc:   # (the figures are printed already)
            print(f"topics:   the run's topics ({self.prefix}*) were not deleted: {exc}")
        finally:
            await admin.close()


# measuring --------------------------------------------------------------------------------------

@dataclass
class Tally:
    submit: list[float] = field(default_factory=list)
    get: list[float] = field(default_factory=list)
    create: list[float] = field(default_factory=list)
    done_at: list[float] = field(default_factory=list)   # when each SubmitAction was answered
    undo: list[bool] = field(default_factory=list)       # whether each SubmitAction was an undo or a redo
    created: int = 0
    create_failed: int = 0
    games_done: int = 0
    errors: Counter = field(default_factory=Counter)
    first_errors: list[str] = field(default_factory=list)

    def error(self, what: str, exc: grpc.RpcError) -> None:
        code = exc.code().name if hasattr(exc, "code") else type(exc).__name__
        self.errors[f"{what} {code}"] += 1
        if len(self.first_errors) < 5:
            details = exc.details() if hasattr(exc, "details") else str(exc)
            self.first_errors.append(f"{what} {code}: {details}")


def quantile_ms(ordered: list[float], q: float) -> float:
    """The `q` quantile of sorted seconds, in milliseconds."""
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def percentiles(values: list[float]) -> str:
    if not values:
        return "n/a"
    ordered = sorted(values)
    at = lambda q: quantile_ms(ordered, q)  # noqa: E731
    return f"p50 {at(0.50):.0f} / p95 {at(0.95):.0f} / p99 {at(0.99):.0f} / max {ordered[-1] * 1000:.0f} ms"


def over_time(tally: Tally, since: float, step: float) -> str:
    """SubmitAction p50/p99 in each `step` seconds after `since` (a tail at the start is the set-up's
    engines still loading; a tail all along is the machine)."""
    slices: dict[int, list[float]] = {}
    for latency, at in zip(tally.submit, tally.done_at):
        slices.setdefault(max(0, int((at - since) // step)), []).append(latency)
    parts = []
    for i in sorted(slices):
        ordered = sorted(slices[i])
        parts.append(f"{quantile_ms(ordered, 0.5):.0f}/{quantile_ms(ordered, 0.99):.0f}")
    return " ".join(parts) + " ms (p50/p99)"


class Client:
    """The load: grpc.aio stubs over every gateway, games spread over them."""

    def __init__(self, platform: Platform, tally: Tally, channels_per_gateway: int = 4):
        self.tally = tally
        self.channels = [grpc.aio.insecure_channel(g.address) for g in platform.gateways for _ in range(channels_per_gateway)]
        self.stubs = [gateway_pb2_grpc.GatewayStub(c) for c in self.channels]
        self._next = 0
        self._prefix = uuid.uuid4().hex   # command ids: this client's prefix and a count (unique, and
        self._sent = 0                    # cheaper than a random id each)

    def stub(self):
        self._next += 1
        return self.stubs[self._next % len(self.stubs)]

    async def close(self) -> None:
        for c in self.channels:
            await c.close()

    async def create(self, script: Script):
        stub = self.stub()
        t0 = time.perf_counter()
        try:
            created = await stub.CreateGame(script.create_request(), timeout=60)
        except grpc.RpcError as exc:
            self.tally.create_failed += 1
            self.tally.error("CreateGame", exc)
            return None
        self.tally.create.append(time.perf_counter() - t0)
        self.tally.created += 1
        tokens = {t.player_id: t.token for t in created.seats}
        tokens["operator"] = created.operator_token
        return stub, created.game_id, tokens

    async def ready(self, script: Script):
        """A new game, read once (its owner builds its engine and publishes its first view)."""
        made = await self.create(script)
        if made is not None:
            t0 = time.perf_counter()
            try:
                await made[0].GetGame(gw.GetGameRequest(game_id=made[1]), timeout=600)
            except grpc.RpcError as exc:
                self.tally.error("GetGame (set-up)", exc)
                return None
            self.tally.get.append(time.perf_counter() - t0)
        return made

    async def play(self, script: Script, think: float, reads: bool, until: float, made=None) -> bool:
        """Play one copy of the script (in the game `made`, or a new one); False when time ran out
        or a call failed."""
        made = made or await self.create(script)
        if made is None:
            return False
        stub, game_id, tokens = made
        for action, kind, who, expected in script.encoded():
            if think:
                await asyncio.sleep(min(random.expovariate(1 / think), max(0.0, until - time.monotonic())))
            if time.monotonic() >= until:
                return False
            if reads:
                t0 = time.perf_counter()
                try:
                    await stub.GetGame(gw.GetGameRequest(game_id=game_id), timeout=60)
                except grpc.RpcError as exc:
                    self.tally.error("GetGame", exc)
                    return False
                self.tally.get.append(time.perf_counter() - t0)
            self._sent += 1
            request = gw.SubmitActionRequest(game_id=game_id, token=tokens[who], action=action,
                                             expected_seq=expected, command_id=f"{self._prefix}-{self._sent}")
            t0 = time.perf_counter()
            try:
                await stub.SubmitAction(request, timeout=60)
            except grpc.RpcError as exc:
                self.tally.error("SubmitAction", exc)
                return False
            self.tally.submit.append(time.perf_counter() - t0)
            self.tally.done_at.append(time.monotonic())
            self.tally.undo.append(kind in ("undo", "redo"))
        self.tally.games_done += 1
        return True


async def run_games(client: Client, scripts: list[Script], players: int, think: float, reads: bool,
                    duration: float, stagger: float = 0.0, first: list | None = None) -> float:
    """`players` loops, each playing copies of the scripts in turn until `duration` is over (the
    first copy in the game `first[i]` when given)."""
    until = time.monotonic() + duration

    async def player(i: int) -> None:
        if stagger:
            await asyncio.sleep(random.uniform(0, stagger))
        n = i
        made = first[i] if first else None
        while time.monotonic() < until:
            await client.play(scripts[n % len(scripts)], think, reads, until, made)
            made = None
            n += players

    await asyncio.gather(*(player(i) for i in range(players)))
    return duration


def report(platform: Platform, tally: Tally, wall: float, cpu0: dict[str, float], lag_max: dict[str, float],
           since: float | None = None) -> None:
    actions = len(tally.submit)
    print(f"games:    {tally.created} created ({tally.create_failed} failed), {tally.games_done} played to their end")
    if since is not None:   # the moves answered within the run's duration (calls in flight then end later)
        within = sum(1 for t in tally.done_at if t <= since + wall)
        print(f"actions:  {within} answered in {wall:.0f} s = {within / wall:.0f} actions/s ({actions} in all)")
    else:
        print(f"actions:  {actions} in {wall:.1f} s = {actions / max(wall, 1e-9):.0f} actions/s")
    print(f"latency:  SubmitAction {percentiles(tally.submit)}")
    undos = [latency for latency, undo in zip(tally.submit, tally.undo) if undo]
    if undos:
        # (an undo rebuilds the game's state from a kept copy: the dearest move, see "engine" mode)
        print(f"          of which the {len(undos)} undos and redos {percentiles(undos)}; the other moves "
              f"{percentiles([latency for latency, undo in zip(tally.submit, tally.undo) if not undo])}")
    if since is not None and wall >= 20:
        print(f"          SubmitAction by {wall / 6:.0f} s of the run: {over_time(tally, since, wall / 6)}")
    if tally.get:
        print(f"          GetGame (legal actions) {percentiles(tally.get)}")
    if tally.create:
        print(f"          CreateGame {percentiles(tally.create)}")
    total = 0.0
    for s in platform.servers:
        cpus = s.cpus()
        used = sum(cpus) - cpu0[s.name]
        main, engines = cpus[0] - cpu0[s.name + "/main"], sum(cpus[1:]) - (cpu0[s.name] - cpu0[s.name + "/main"])
        total += used
        per = lambda x: x / max(actions, 1) * 1000  # noqa: E731
        probes, late = (a - cpu0[s.name + k] for a, k in zip(loop_probes(s.metrics()), ("/probes", "/late")))
        waited = s.waited() - cpu0[s.name + "/waited"]
        print(f"process:  {s.name:18} cpu {used:7.1f} s = {per(used):6.2f} ms/action (event loop {per(main):.2f},"
              f" {len(cpus) - 1} engine processes {per(engines):.2f}), rss {s.rss_mb():6.0f} MB,"
              f" event loop 100 ms late {late / max(probes, 1):.1%}, waited for a CPU {waited:.1f} s"
              f" ({waited / max(used, 1e-9):.1f} s per s of cpu)")
    for s in platform.servers:
        ops = {op: (count - cpu0.get(f"{s.name}/op/{op}/n", 0.0), seconds - cpu0.get(f"{s.name}/op/{op}/s", 0.0))
               for op, (count, seconds) in engine_ops(s.metrics()).items()}
        ops = {op: cs for op, cs in ops.items() if cs[1] >= 0.005}
        if ops:
            print(f"engine:   {s.name:18} " + ", ".join(
                f"{op} {1000 * seconds / max(actions, 1):.2f}" + (f" ({count:.0f} x {1000 * seconds / count:.1f})" if count else "")
                for op, (count, seconds) in sorted(ops.items(), key=lambda kv: -kv[1][1]))
                + " ms/action (requests x ms each)")
    pauses = []
    for s in platform.servers:
        for (where, kind), (count, seconds) in sorted(gc_pauses(s.metrics()).items()):
            count -= cpu0.get(f"{s.name}/gc/{where}/{kind}/n", 0.0)
            seconds -= cpu0.get(f"{s.name}/gc/{where}/{kind}/s", 0.0)
            if count:
                pauses.append(f"{s.name} {where} {count:.0f} {kind} ({seconds:.1f} s)")
    print(f"collector: {', '.join(pauses) or 'no full collection'}")
    mine = collector.install().take_pauses()
    print(f"           load generator {len(mine)} full ({sum(t for _k, t in mine):.1f} s, the longest "
          f"{1000 * max((t for _k, t in mine), default=0.0):.0f} ms)")
    generator = time.process_time() - cpu0["load generator"]
    broker = broker_pid(platform.args.kafka)
    outside = f"load generator not counted: it took {generator:.1f} s = {generator / max(actions, 1) * 1000:.2f} ms per action"
    if broker is not None and "broker" in cpu0:
        used = process_cpu(broker) - cpu0["broker"]
        outside += f"; nor the broker: {used:.1f} s = {used / max(actions, 1) * 1000:.2f} ms per action"
    print(f"cpu:      {total:.1f} s in all = {total / max(actions, 1) * 1000:.2f} ms per action ({outside})")
    if platform.quota is not None:
        periods, throttled, waited = (a - cpu0[k] for a, k in zip(platform.quota.throttled(), QUOTA_KEYS))
        print(f"cpus:     held to {platform.quota.cpus:g} CPUs: the quota ran out in {throttled:.0f} of "
              f"{periods:.0f} periods of {platform.quota.period_us / 1000:g} ms, {waited:.1f} s waited in all")
    written = sum(checkpoints_written(s.metrics()) - cpu0[s.name + "/checkpoints"] for s in platform.servers)
    print(f"checkpoints: {written:.0f} written ({written / max(actions, 1):.2f} per action)")
    print(f"lag:      consumer lag now {platform.lag() or 'none'}; most seen {dict(lag_max) or 'none'}")
    if tally.errors:
        print(f"errors:   {dict(tally.errors)}")
        for e in tally.first_errors:
            print(f"          {e}")
    print(load_line(cpu0))


QUOTA_KEYS = ("quota/periods", "quota/throttled", "quota/waited")
QUOTA_GROUP = "roundhouse-bench-"   # + the load generator's process number (--cpus)


def broker_pid(kafka: str | None) -> int | None:
    """The Kafka broker's process when the broker at `kafka` (HOST:PORT; None: the embedded log) is
    the development broker of this checkout on this machine (`make kafka-up` writes its pidfile,
    deploy/kafka/run.sh); None otherwise (its CPU is not known)."""
    host, _, port = (kafka or "").rpartition(":")
    if host not in ("127.0.0.1", "localhost"):
        return None
    home = Path(os.environ.get("KAFKA_HOME") or Path(__file__).resolve().parents[2] / ".cache" / "kafka")
    try:
        pid = int((home / f"broker-{port}.pid").read_text())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    return pid


def process_cpu(pid: int) -> float:
    """CPU seconds so far of one process (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_now(platform: Platform) -> dict[str, float]:
    """CPU seconds so far of each process (with its engine processes, and of its own alone), and its
    event-loop probes so far (how many, and how many fired 100 ms late or more)."""
    out = {}
    for s in platform.servers:
        cpus = s.cpus()
        out[s.name], out[s.name + "/main"] = sum(cpus), cpus[0]
        out[s.name + "/waited"] = s.waited()
        text = s.metrics()
        out[s.name + "/probes"], out[s.name + "/late"] = loop_probes(text)
        out[s.name + "/checkpoints"] = checkpoints_written(text)
        for (where, kind), (count, seconds) in gc_pauses(text).items():
            out[f"{s.name}/gc/{where}/{kind}/n"], out[f"{s.name}/gc/{where}/{kind}/s"] = count, seconds
        for op, (count, seconds) in engine_ops(text).items():
            out[f"{s.name}/op/{op}/n"], out[f"{s.name}/op/{op}/s"] = count, seconds
    out["load generator"] = time.process_time()
    broker = broker_pid(platform.args.kafka)
    if broker is not None:
        out["broker"] = process_cpu(broker)
    if platform.quota is not None:
        out.update(zip(QUOTA_KEYS, platform.quota.throttled()))
    out["machine"], out["machine/steal"] = machine_cpu()
    return out


def load_line(since: dict[str, float] | None = None) -> str:
    """The load average, and with `since` (cpu_now's figures at the start) the CPU time the
    hypervisor took from the machine meanwhile."""
    line = (f"load:     load average {os.getloadavg()[0]:.1f} / {os.getloadavg()[1]:.1f} (1 / 5 min) on "
            f"{os.cpu_count()} cpus")
    if since is not None:
        machine, steal = (a - since[k] for a, k in zip(machine_cpu(), ("machine", "machine/steal")))
        line += f"; stolen by the hypervisor {steal:.1f} s of {machine:.0f} s of cpu time ({steal / max(machine, 1e-9):.1%})"
    return line


def machine_cpu() -> tuple[float, float]:
    """The machine's CPU seconds so far (every CPU, busy and idle) and those stolen from it by the
    hypervisor (`/proc/stat`: on a shared virtual machine, a slow run often is a run with steal)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    return sum(fields[:8]) / tick, (fields[7] if len(fields) > 7 else 0) / tick


def gc_pauses(metrics: str) -> dict[tuple[str, str], tuple[float, float]]:
    """roundhouse_gc_pause_seconds so far: (where, kind) -> (pauses, seconds in them)."""
    out: dict[tuple[str, str], tuple[float, float]] = {}
    for part, labels, value in re.findall(
            r'^roundhouse_gc_pause_seconds_(count|sum)\{([^}]*)\} (\S+)$', metrics, re.M):
        where = re.search(r'where="(\w+)"', labels)
        kind = re.search(r'kind="(\w+)"', labels)
        if where is None or kind is None:
            continue
        count, total = out.get((where.group(1), kind.group(1)), (0.0, 0.0))
        out[where.group(1), kind.group(1)] = (count + float(value), total) if part == "count" else (count, total + float(value))
    return out


def engine_ops(metrics: str) -> dict[str, tuple[float, float]]:
    """op -> (requests answered, CPU seconds) of a process's engine processes (`between`: the work
    between requests, no requests of its own)."""
    out: dict[str, tuple[float, float]] = {}
    for name, labels, value in re.findall(
            r'^roundhouse_engine_(cpu_seconds|requests)_total\{([^}]*)\} (\S+)$', metrics, re.M):
        op = re.search(r'op="(\w+)"', labels)
        if op is not None:
            count, seconds = out.get(op.group(1), (0.0, 0.0))
            out[op.group(1)] = (float(value), seconds) if name == "requests" else (count, float(value))
    return out


def checkpoints_written(metrics: str) -> float:
    """roundhouse_snapshot_seconds (op=write): checkpoints written, every service of the process."""
    return sum(float(n) for n in re.findall(
        r'^roundhouse_snapshot_seconds_count\{op="write",service="\w+"\} (\S+)$', metrics, re.M))


def loop_probes(metrics: str) -> tuple[float, float]:
    """roundhouse_event_loop_lag_seconds: probes taken, and probes 100 ms late or more."""
    buckets = {float(le): float(n) for le, n in re.findall(
        r'^roundhouse_event_loop_lag_seconds_bucket\{le="([\d.]+)",process="\w+"\} (\S+)$', metrics, re.M)}
    count = re.search(r'^roundhouse_event_loop_lag_seconds_count\{process="\w+"\} (\S+)$', metrics, re.M)
    total = float(count.group(1)) if count else 0.0
    return total, total - buckets.get(0.1, total)


async def watch_lag(platform: Platform, lag_max: dict[str, float], stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        collector.install().between_requests()   # (its pauses are reported at the end)
        for service, value in (await loop.run_in_executor(None, platform.lag)).items():
            lag_max[service] = max(lag_max.get(service, 0.0), value)
        try:
            await asyncio.wait_for(stop.wait(), 2.0)
        except asyncio.TimeoutError:
            pass


# modes ------------------------------------------------------------------------------------------

async def mode_load(args, platform: Platform, scripts: list[Script]) -> int:
    tally = Tally()
    client = Client(platform, tally)
    lag_max: dict[str, float] = {}
    stop = asyncio.Event()
    watcher = asyncio.create_task(watch_lag(platform, lag_max, stop))
    if args.mode == "open":
        think = args.games / args.rate
        print(f"open loop: {args.games} games, think time mean {think:.1f} s (~{args.rate:g} actions/s), "
              f"GetGame before every move, {args.duration:g} s", flush=True)
        # the tables are set up first: every game created and read once (its engine built, its first
        # view published), as before a tournament round starts
        cpu0, t0 = cpu_now(platform), time.monotonic()
        sem = asyncio.Semaphore(100)

        async def set_up(i: int):
            async with sem:
                return await client.ready(scripts[i % len(scripts)])

        first = await asyncio.gather(*(set_up(i) for i in range(args.games)))
        cpu1 = cpu_now(platform)
        cpu = sum(cpu1[s.name] - cpu0[s.name] for s in platform.servers)
        each = ", ".join(f"{s.name} {(cpu1[s.name] - cpu0[s.name]) / args.games * 1000:.1f}" for s in platform.servers)
        print(f"set-up:   {sum(1 for m in first if m)} games created and read once in {time.monotonic() - t0:.1f} s "
              f"({cpu:.1f} s of cpu, {cpu / args.games * 1000:.0f} ms per game: {each}); GetGame {percentiles(tally.get)}",
              flush=True)
        tally.get.clear()
        tally.create.clear()
        cpu0, since = cpu_now(platform), time.monotonic()
        wall = await run_games(client, scripts, args.games, think, True, args.duration, first=first)
    else:
        cpu0, since = cpu_now(platform), time.monotonic()
        print(f"closed loop: {args.clients} players back to back{' with GetGame before every move' if args.reads else ''}, "
              f"{args.duration:g} s", flush=True)
        wall = await run_games(client, scripts, args.clients, 0.0, args.reads, args.duration)
    stop.set()
    await watcher
    await client.close()
    report(platform, tally, wall, cpu0, lag_max, since)
    return 0 if not tally.errors else 1


async def mode_create(args, platform: Platform, scripts: list[Script]) -> int:
    tally = Tally()
    client = Client(platform, tally, channels_per_gateway=8)
    cpu0 = cpu_now(platform)
    print(f"create: {args.games} CreateGame calls at once", flush=True)
    t0 = time.monotonic()
    await asyncio.gather(*(client.create(scripts[i % len(scripts)]) for i in range(args.games)))
    wall = time.monotonic() - t0
    await client.close()
    print(f"created:  {tally.created}/{args.games} in {wall:.1f} s; CreateGame {percentiles(tally.create)}")
    for s in platform.servers:
        cpus = s.cpus()
        print(f"process:  {s.name:18} cpu {sum(cpus) - cpu0[s.name]:5.2f} s "
              f"(event loop {cpus[0] - cpu0[s.name + '/main']:.2f} s), rss {s.rss_mb():6.0f} MB")
    if tally.errors:
        print(f"errors:   {dict(tally.errors)}")
    print(load_line(cpu0))
    return 0 if tally.created == args.games else 1


async def mode_round(args, platform: Platform, scripts: list[Script]) -> int:
    """A hosted tournament of `--games` x 4 registered players of 1856 (tables of 4, with clocks):
    registration and seating first, then StartRound timed (every table's GameCreated and
    ClockStarted, then the round started)."""
    from contracts.v1 import tournament_api_pb2 as api
    from contracts.v1 import tournament_api_pb2_grpc
    from contracts.v1 import tournament_pb2 as pb

    players = args.games * 4
    channel = grpc.aio.insecure_channel(platform.gateways[0].address)
    t = tournament_api_pb2_grpc.TournamentsStub(channel)
    h = await t.HostTournament(api.HostTournamentRequest(name="Bench cup", settings=pb.TournamentSettings(
        title="1856", table_size=4, min_table_size=3, rounds=3, rated=True,
        time_control=pb.TimeControl(base_ms=3_600_000, increment_ms=5000))))
    for first in range(0, players, 50):
        await asyncio.gather(*(t.Register(api.RegisterRequest(tournament_id=h.tournament_id, name=f"Player {i:05d}"))
                               for i in range(first, min(players, first + 50))))
    await t.SetRegistration(api.SetRegistrationRequest(tournament_id=h.tournament_id, token=h.organiser_token))
    t0 = time.monotonic()
    seated = await t.SeatRound(api.SeatRoundRequest(tournament_id=h.tournament_id, token=h.organiser_token, seed=1))
    seating = time.monotonic() - t0
    cpu0 = cpu_now(platform)
    print(f"round: {players} players registered, {len(seated.tables)} tables seated in {seating:.2f} s; "
          "starting the round", flush=True)
    t0 = time.monotonic()
    started = await t.StartRound(api.StartRoundRequest(tournament_id=h.tournament_id, token=h.organiser_token,
                                                       round=1), timeout=300)
    wall = time.monotonic() - t0
    await channel.close()
    games = sum(1 for tb in started.tables if tb.game_id)
    print(f"started:  {games} table games created (each GameCreated + ClockStarted) in {wall:.2f} s")
    for s in platform.servers:
        cpus = s.cpus()
        print(f"process:  {s.name:18} cpu {sum(cpus) - cpu0[s.name]:5.2f} s "
              f"(event loop {cpus[0] - cpu0[s.name + '/main']:.2f} s), rss {s.rss_mb():6.0f} MB")
    print(load_line(cpu0))
    return 0 if games == len(seated.tables) else 1


async def mode_hold(args, platform: Platform, scripts: list[Script]) -> int:
    tally = Tally()
    client = Client(platform, tally, channels_per_gateway=8)
    print(f"hold: {args.games} games created, one in ten played {args.moves} moves, "
          f"{args.finished} recorded games imported finished", flush=True)
    sem = asyncio.Semaphore(200)
    played = [s for s in scripts if len(s.moves) >= args.moves]

    async def one(i: int) -> None:
        async with sem:
            script = played[i % len(played)]
            made = await client.create(script)
            if made is None or i % 10:
                return
            stub, game_id, tokens = made
            for action, _kind, who, expected in script.encoded()[:args.moves]:
                try:
                    await stub.SubmitAction(gw.SubmitActionRequest(
                        game_id=game_id, token=tokens[who], action=action, expected_seq=expected), timeout=60)
                except grpc.RpcError as exc:
                    tally.error("SubmitAction", exc)
                    return

    finished = [s for s in scripts if s.export.get("status") == "finished" or s.export.get("result")]

    async def imported(i: int) -> None:
        async with sem:
            export = finished[i % len(finished)].export
            try:
                await client.stub().ImportGame(gw.ImportGameRequest(export_json=json.dumps(export).encode()), timeout=300)
                tally.created += 1
            except grpc.RpcError as exc:
                tally.error("ImportGame", exc)

    t0 = time.monotonic()
    await asyncio.gather(*(one(i) for i in range(args.games)), *(imported(i) for i in range(args.finished)))
    print(f"made:     {tally.created} games in {time.monotonic() - t0:.0f} s; errors {dict(tally.errors) or 'none'}", flush=True)
    await client.close()
    await asyncio.sleep(args.settle)   # idle: checkpoints written, engines evicted
    rss = {s.name: s.rss_mb() for s in platform.servers}
    for name, mb in rss.items():
        print(f"memory:   {name:18} rss {mb:6.0f} MB")
    print(f"memory:   {sum(rss.values()):.0f} MB in all for {tally.created} games held")
    expected = tally.created
    for s in platform.servers:
        s.stop()
    t0 = time.monotonic()
    for s in platform.servers:
        s.start()
    platform.wait_ready()
    stub = gateway_pb2_grpc.GatewayStub(grpc.aio.insecure_channel(platform.gateways[0].address))
    while True:
        try:
            listed = await stub.ListGames(gw.ListGamesRequest(include_finished=True), timeout=30)
            if len(listed.games) >= expected:
                break
        except grpc.RpcError:
            pass
        await asyncio.sleep(0.1)
    print(f"restart:  serving {len(listed.games)} games {time.monotonic() - t0:.1f} s after the start "
          f"(load average {os.getloadavg()[0]:.1f})")
    return 0 if not tally.errors else 1


async def mode_idle(args, platform: Platform, scripts: list[Script]) -> int:
    await asyncio.sleep(5)   # (started: the first checkpoints and lag measurements are behind)
    cpu0, t0 = cpu_now(platform), time.monotonic()
    print(f"idle: the platform left alone for {args.duration:g} s", flush=True)
    await asyncio.sleep(args.duration)
    wall = time.monotonic() - t0
    total = 0.0
    for s in platform.servers:
        used = s.cpu() - cpu0[s.name]
        total += used
        waited = s.waited() - cpu0[s.name + "/waited"]
        print(f"process:  {s.name:18} {used / wall:6.1%} of a core, rss {s.rss_mb():6.0f} MB,"
              f" waited for a CPU {waited:.1f} s ({waited / max(used, 1e-9):.1f} s per s of cpu)")
    print(f"cpu:      {total / wall:.1%} of a core in all")
    print(load_line(cpu0))
    return 0


def mode_engine(scripts: list[Script]) -> int:
    """CPU per view (with legal actions), per move and per undo, by title: the engine alone playing
    the scripts, a view read before every move, the cyclic garbage collector waiting during each
    timed call (its pauses depend on all the process holds). After each move the game does what the
    move left for after its answer (``Game.settle``: an undo copy when one is due, letting go of what
    it dropped), as an engine process does once it has answered, timed apart; before each undo or
    redo a full collection runs (untimed), so the state it drops is an old one, as in a busy engine
    process (a young one is freed by a young collection instead: ``engine.api``)."""
    import gc

    import engine

    rows: dict[str, dict[str, list[float]]] = {}
    for script in scripts:
        game = engine.replay_copy(script.export)
        row = rows.setdefault(game.slug, {"view": [], "board": [], "move": [], "undo": [], "after_move": [],
                                          "after_undo": []})
        for move, _who, _expected in script.moves:
            undo = move.get("type") in ("undo", "redo")
            if undo:
                gc.collect()
            gc.disable()
            try:
                t0 = time.process_time()
                game.view(legal_actions=True)
                t1 = time.process_time()
                if game.state.board is not None:
                    game.state.board.view()
                t2 = time.process_time()
                game.process(move)
                t3 = time.process_time()
                game.settle()
                t4 = time.process_time()
            finally:
                gc.enable()
            row["view"].append(t1 - t0)
            row["board"].append(t2 - t1)
            row["undo" if undo else "move"].append(t3 - t2)
            row["after_undo" if undo else "after_move"].append(t4 - t3)
        game.close()

    def ms(xs: list[float]) -> str:
        return f"{1000 * sum(xs) / len(xs):6.2f}" if xs else "-"

    print("(ms: CPU until the answer; after: what a call leaves for after its answer, Game.settle)")
    print(f"{'title':<12} {'views':>6} {'view ms':>8} {'board ms':>9} {'moves':>6} {'move ms':>8} {'after':>6} "
          f"{'undos':>6} {'undo ms':>8} {'after':>6} {'undo s in all':>14}")
    for slug, row in sorted(rows.items()):
        undos = sum(row["undo"]) + sum(row["after_undo"])
        print(f"{slug:<12} {len(row['view']):>6} {ms(row['view']):>8} {ms(row['board']):>9} {len(row['move']):>6} "
              f"{ms(row['move']):>8} {ms(row['after_move']):>6} {len(row['undo']):>6} {ms(row['undo']):>8} "
              f"{ms(row['after_undo']):>6} {undos:>14.1f}")
    print(load_line())
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", nargs="?", default="open", choices=("open", "closed", "create", "hold", "round", "idle", "engine"))
    ap.add_argument("--games", type=int, default=1000, help="open: live games; create/hold: games made; round: tables (x4 players) (default 1000)")
    ap.add_argument("--rate", type=float, default=200.0, help="open: actions per second in all (default 200)")
    ap.add_argument("--duration", type=float, default=60.0, help="open/closed: seconds of load; idle: seconds left alone (default 60)")
    ap.add_argument("--keep-topics", action="store_true",
                    help="Kafka: keep the run's topics (deleted at the end otherwise)")
    ap.add_argument("--clients", type=int, default=50, help="closed: players (default 50)")
    ap.add_argument("--reads", action="store_true", help="closed: GetGame with legal actions before every move")
    ap.add_argument("--moves", type=int, default=5, help="hold: moves played in a tenth of the games")
    ap.add_argument("--finished", type=int, default=100, help="hold: finished recorded games imported")
    ap.add_argument("--settle", type=float, default=20.0, help="hold: idle seconds before memory is measured")
    ap.add_argument("--fixtures", nargs="*", help="recorded games to play (names; default: every one)")
    ap.add_argument("--kafka", help="Kafka at HOST:PORT: every service its own process")
    ap.add_argument("--instances", type=int, default=1, help="Kafka: instances of every service, gateways included")
    ap.add_argument("--partitions", type=int, help="partitions of the topics (default 12)")
    ap.add_argument("--engine-workers", type=int, help="engine processes per service process")
    ap.add_argument("--evict-idle", type=float, default=600.0, help="seconds before an idle engine is dropped")
    ap.add_argument("--logs", type=Path, help="keep the processes' logs in this folder (default: deleted)")
    ap.add_argument("--cpus", type=float,
                    help="hold the platform, the load generator and (Kafka) this checkout's development broker "
                         "to this many CPUs together: a smaller machine (a Linux cgroup CPU quota; needs root)")
    args = ap.parse_args(argv)
    scripts = load_scripts(args.fixtures)
    if args.mode == "engine":
        return mode_engine(scripts)
    # the load generator's own full collections would pause its event loop with replies waiting,
    # counted as the platform's latency: it freezes its scripts and what outlives a full
    # collection, as the platform's processes do
    collector.install()
    data = Path(tempfile.mkdtemp(prefix="roundhouse-bench-"))
    where = f"Kafka {args.kafka}, {args.instances} instance(s) of every service" if args.kafka else "embedded (roundhouse serve)"
    print(f"platform: {where}; load average {os.getloadavg()[0]:.1f} before the start", flush=True)
    quota = hold_to_cpus(args) if args.cpus is not None else None
    try:
        platform = Platform(args, data, quota)
        try:
            mode = {"open": mode_load, "closed": mode_load, "create": mode_create, "hold": mode_hold,
                    "round": mode_round, "idle": mode_idle}[args.mode]
            return app.run(mode(args, platform, scripts))   # on uvloop, as the platform's processes
        finally:
            platform.stop()
            if args.logs:
                args.logs.mkdir(parents=True, exist_ok=True)
                for s in platform.servers:
                    shutil.copy(s.logfile, args.logs / s.logfile.name)
    finally:
        shutil.rmtree(data, ignore_errors=True)
        if quota is not None:
            quota.close()


def hold_to_cpus(args) -> CpuQuota:
    """--cpus: this process (whose children the platform's processes are) and the development
    broker in a control group of their own, held to `args.cpus` CPUs."""
    try:
        quota = CpuQuota(args.cpus, f"{QUOTA_GROUP}{os.getpid()}")
    except (QuotaUnavailable, ValueError) as exc:
        raise SystemExit(f"bench: --cpus: {exc}") from None
    for group in quota.sweep(QUOTA_GROUP):
        print(f"cpus:     removed {group}, left by a run that was killed (its processes set free)")
    try:
        quota.add(os.getpid())
        broker = broker_pid(args.kafka)
        if broker is not None:
            quota.add(broker)
    except QuotaUnavailable as exc:
        quota.close()
        raise SystemExit(f"bench: --cpus: {exc}") from None
    with_broker = " and the broker" if broker is not None else (" (not the broker: not this checkout's)" if args.kafka else "")
    print(f"cpus:     the platform, the load generator{with_broker} held to {args.cpus:g} CPUs together "
          f"(cgroup v{quota.version} {quota.path})", flush=True)
    return quota


if __name__ == "__main__":
    raise SystemExit(main())
