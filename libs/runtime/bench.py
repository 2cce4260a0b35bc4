"""Platform benchmark: ``python -m runtime.bench [--games N] [--kafka HOST:PORT] ...`` (`make bench-platform`).

Starts `roundhouse serve` (every service in one process; the embedded log, or Kafka with
--kafka) as a child process, then plays N copies of a recorded game concurrently through the
gateway, one client thread per game, each action a SubmitAction with the acting seat's token (as
`roundhouse client replay` does). It prints the actions per second, SubmitAction latency
percentiles, the games each service holds in memory (from the server's /metrics) and the server's
memory, during play, once every game went idle and was evicted, and after reading every game back
(each read rebuilds one game from its snapshot plus the log after it).

Default game: 1856/hotseat004.json from ../shared/fixtures (or $ROUNDHOUSE_SHARED/fixtures).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from pathlib import Path

import grpc

from contracts.v1 import gateway_pb2_grpc
from runtime.client import Replayer

SHARED = Path(os.environ.get("ROUNDHOUSE_SHARED", Path(__file__).resolve().parents[3] / "shared"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`roundhouse serve` as a child process."""

    def __init__(self, args, data: Path):
        self.port, self.metrics_port = free_port(), free_port()
        cmd = [sys.executable, "-m", "runtime.cli", "serve", "--port", str(self.port),
               "--metrics-port", str(self.metrics_port), "--data", str(data)]
        if args.kafka:
            cmd += ["--kafka", args.kafka, "--topic-prefix", f"bench{uuid.uuid4().hex[:8]}."]
        env = {**os.environ, "ROUNDHOUSE_EVICT_IDLE_S": str(args.evict_idle),
               "ROUNDHOUSE_LOG_LEVEL": "WARNING", "ROUNDHOUSE_PARTITIONS": str(args.partitions)}
        self.log = open(data / "serve.log", "w")
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.address = f"127.0.0.1:{self.port}"
        channel = grpc.insecure_channel(self.address)
        try:
            grpc.channel_ready_future(channel).result(timeout=120)
        except grpc.FutureTimeoutError:
            self.stop()
            raise SystemExit(f"the server did not start; see {data / 'serve.log'}")
        self.stub = gateway_pb2_grpc.GatewayStub(channel)

    def memory_mb(self) -> tuple[float, float]:
        """(current, peak) resident set size of the server process, in MB."""
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        field = lambda name: int(re.search(rf"^{name}:\s+(\d+) kB", status, re.M).group(1)) / 1024
        return field("VmRSS"), field("VmHWM")

    def cpu_seconds(self) -> float:
        """CPU time the server process used so far (user + system)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def gauges(self) -> dict[str, dict[str, float]]:
        """roundhouse_games_resident / _evicted per service, from /metrics."""
        text = urllib.request.urlopen(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=10).read().decode()
        out: dict[str, dict[str, float]] = {"resident": {}, "evicted": {}}
        for kind, service, value in re.findall(r'^roundhouse_games_(resident|evicted)\{service="(\w+)"\} (\S+)$', text, re.M):
            out[kind][service] = float(value)
        return out

    def rebuild_seconds(self) -> tuple[float, float]:
        """(count, total seconds) of rebuilds over every service and trigger."""
        text = urllib.request.urlopen(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=10).read().decode()
        count = sum(float(v) for v in re.findall(r"^roundhouse_rebuild_seconds_count\{[^}]*\} (\S+)$", text, re.M))
        total = sum(float(v) for v in re.findall(r"^roundhouse_rebuild_seconds_sum\{[^}]*\} (\S+)$", text, re.M))
        return count, total

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()


class TimedGateway:
    """A gateway stub that times every SubmitAction (the latency a player sees)."""

    def __init__(self, stub, latencies: list[float]):
        self._stub = stub
        self._latencies = latencies

    def SubmitAction(self, request, **kwargs):
        t0 = time.perf_counter()
        try:
            return self._stub.SubmitAction(request, **kwargs)
        finally:
            self._latencies.append(time.perf_counter() - t0)

    def __getattr__(self, name):
        return getattr(self._stub, name)


def percentiles(values: list[float]) -> str:
    if not values:
        return "n/a"
    ordered = sorted(values)
    at = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000
    return (f"p50 {at(0.50):.1f} ms, p95 {at(0.95):.1f} ms, p99 {at(0.99):.1f} ms, "
            f"max {ordered[-1] * 1000:.1f} ms")


def held(server: Server) -> str:
    g = server.gauges()
    services = sorted(g["resident"])
    return ", ".join(f"{s} {int(g['resident'][s])}/{int(g['resident'][s] + g['evicted'].get(s, 0))}" for s in services)


def play(server: Server, export: dict, clients: int, total: int, actions: int,
         think: float) -> tuple[list[Replayer], list[float], float, list[str]]:
    """`clients` threads play `total` games between them, one after another, each game its first
    `actions` recorded actions."""
    latencies: list[float] = []
    errors: list[str] = []
    replayers: list[Replayer] = []
    todo = iter(range(total))
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)

    def client() -> None:
        start.wait()
        while True:
            with lock:
                if next(todo, None) is None:
                    return
            r = Replayer(TimedGateway(server.stub, latencies), export)
            try:
                r.create()
                with lock:
                    replayers.append(r)
                while r.next_index < actions:
                    r.step()
                    if think:
                        time.sleep(think)
            except Exception as exc:  # report, do not hide
                errors.append(f"{r.game_id} at action index {r.next_index}: {exc}")

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    return replayers, latencies, time.perf_counter() - t0, errors


def evict_and_rebuild(server: Server, replayers: list[Replayer], idle: float) -> None:
    """Wait until every game is evicted, then read each back (one rebuild per game)."""
    time.sleep(idle + 2.0)
    deadline = time.monotonic() + 60
    while any(server.gauges()["resident"].values()) and time.monotonic() < deadline:
        time.sleep(0.5)
    print(f"idle:     resident/known per service: {held(server)}; server RSS {server.memory_mb()[0]:.0f} MB")
    count0, sum0 = server.rebuild_seconds()
    reads = []
    for r in replayers:
        t0 = time.perf_counter()
        r.view()
        reads.append(time.perf_counter() - t0)
    count1, sum1 = server.rebuild_seconds()
    time.sleep(1.2)  # the gauges are refreshed about every second
    rebuilt = count1 - count0
    mean = (sum1 - sum0) / rebuilt * 1000 if rebuilt else 0.0
    print(f"rebuild:  GetGame of every evicted game {percentiles(reads)}; "
          f"{rebuilt:.0f} rebuilds, mean {mean:.1f} ms in the server")
    print(f"held:     after reading every game: {held(server)}; server RSS {server.memory_mb()[0]:.0f} MB")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games played at once (default 20)")
    ap.add_argument("--total", type=int, help="games played in all, --games at a time (default: --games)")
    ap.add_argument("--actions", type=int, help="recorded actions each game plays (default: all)")
    ap.add_argument("--fixture", type=Path, default=SHARED / "fixtures" / "1856" / "hotseat004.json",
                    help="the recorded game every client plays")
    ap.add_argument("--kafka", help="run against Kafka at HOST:PORT instead of the embedded log")
    ap.add_argument("--partitions", type=int, default=4)
    ap.add_argument("--evict-idle", type=float, default=10.0,
                    help="idle seconds before a game is evicted (default 10; 0: never)")
    ap.add_argument("--think", type=float, default=0.0, help="seconds each player waits between actions")
    args = ap.parse_args(argv)
    if not args.fixture.exists():
        print(f"no fixture at {args.fixture} (set ROUNDHOUSE_SHARED)", file=sys.stderr)
        return 1
    export = json.loads(args.fixture.read_text())
    total = args.total or args.games
    actions = min(args.actions or len(export["actions"]), len(export["actions"]))
    data = Path(tempfile.mkdtemp(prefix="roundhouse-bench-"))
    where = f"Kafka {args.kafka}" if args.kafka else "embedded log"
    evict = f"eviction after {args.evict_idle:g} s idle" if args.evict_idle else "no eviction"
    print(f"platform bench: {total} games of {args.fixture.name} ({actions} of its "
          f"{len(export['actions'])} recorded actions each), {args.games} at a time, on the {where}, "
          f"{args.partitions} partitions, {evict}", flush=True)
    server = Server(args, data)
    try:
        idle_mb = server.memory_mb()[0]
        cpu0 = server.cpu_seconds()
        replayers, latencies, wall, errors = play(server, export, args.games, total, actions, args.think)
        cpu = server.cpu_seconds() - cpu0
        for e in errors:
            print(f"error: {e}", file=sys.stderr)
        played = len(latencies)
        rss, peak = server.memory_mb()
        print(f"played:   {played} actions in {wall:.1f} s = {played / wall:.0f} actions/s "
              f"({played / wall / max(1, args.games):.1f} per game at a time)")
        print(f"latency:  SubmitAction {percentiles(latencies)}")
        print(f"cpu:      server {cpu:.1f} s = {cpu / max(1, played) * 1000:.1f} ms per action "
              f"(all five services and the log in one process)")
        print(f"memory:   server RSS {idle_mb:.0f} MB empty, {rss:.0f} MB after play (peak {peak:.0f} MB)")
        time.sleep(1.2)  # the gauges are refreshed about every second
        print(f"held:     resident/known per service after play: {held(server)}")
        finals = {(v.seq, v.digest) for v in (r.view() for r in replayers)}
        if args.evict_idle:
            evict_and_rebuild(server, replayers, args.evict_idle)
        same = len(finals) == 1
        print(f"check:    every game reached the same seq and digest: {same}; errors: {len(errors)}")
        return 0 if same and not errors else 1
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
