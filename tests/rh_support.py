"""Shared helpers of the platform tests: fixtures, processes, the engine as the oracle."""

from __future__ import annotations

import os
import queue
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import orjson
import pytest

from tools import evidence

from contracts.actions import action_from_json
from contracts.v1 import gateway_pb2 as gw

REPO = Path(__file__).resolve().parent.parent
ROUNDHOUSE = [sys.executable, "-m", "runtime.cli"]


def load_fixture(name: str, title: str = "1856") -> dict:
    """A recorded game of the repository's evidence (evidence/fixtures or fixtures-new), by name."""
    return evidence.load_game(title, name)


def all_fixture_files() -> list[Path]:
    """Every recorded game file of the evidence (compressed; read them with evidence.read_json)."""
    return evidence.all_game_paths()


def engine_prefix(export: dict, skipped: list | None = None, before=None):
    """Play the export's actions, as the client replay submits them, in the engine alone.

    Returns (k, game, error): the engine accepted the first k actions; `error` is the reason it
    refused action k (None when it accepted all). The platform must reach exactly this game.
    Entries today's rules refuse that the record undoes later are skipped, as the client replay
    skips them: listed in ``skipped`` when a list is given (see runtime.aligner.ReplayAligner).
    ``before(game, move, index)`` is called before each move is submitted for entry ``index``.
    """
    import engine
    from runtime.aligner import ReplayAligner, ReplayMismatch, play_entry

    game = engine.replay_copy(export)
    index = 0

    def submit(move):
        if before is not None:
            before(game, move, index)
        stored = game.process(move)
        return stored["id"], stored.get("auto_actions") or [], stored

    def refusal(exc):
        return exc.reason if isinstance(exc, engine.GameError) else None

    aligner = ReplayAligner(export["actions"])
    try:
        for index, recorded in enumerate(export["actions"]):
            try:
                play_entry(aligner, recorded, submit, refusal)
            except engine.GameError as exc:
                return index, game, exc.reason
            except ReplayMismatch as exc:
                return index, game, str(exc)
        return len(export["actions"]), game, None
    finally:
        if skipped is not None:
            skipped.extend(aligner.skipped)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Proc:
    """A `roundhouse` subprocess whose output is collected line by line."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None, name: str = ""):
        self.args = args
        self.name = name or args[0]
        self.lines: list[str] = []
        self._q: queue.Queue[str] = queue.Queue()
        full_env = {**os.environ, **(env or {})}
        full_env.setdefault("PYTHONUNBUFFERED", "1")
        self.p = subprocess.Popen(
            [*ROUNDHOUSE, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, env=full_env, cwd=REPO,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.p.stdout is not None
        for line in self.p.stdout:
            self.lines.append(line.rstrip("\n"))
            self._q.put(line)

    def wait_for(self, pattern: str, timeout: float = 90.0) -> re.Match:
        rx = re.compile(pattern)
        for line in list(self.lines):
            if m := rx.search(line):
                return m
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self._q.get(timeout=0.2)
            except queue.Empty:
                if self.p.poll() is not None:
                    break
                continue
            if m := rx.search(line):
                return m
        raise AssertionError(
            f"{self.name}: no line matching {pattern!r} within {timeout}s; output:\n" + "\n".join(self.lines[-40:])
        )

    def kill(self) -> None:
        """kill -9: no shutdown, no final checkpoint."""
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGKILL)
        self.p.wait(timeout=30)

    def stop(self) -> None:
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


def gateway_stub(address: str):
    import grpc

    from contracts.v1 import gateway_pb2_grpc

    channel = grpc.insecure_channel(address)
    grpc.channel_ready_future(channel).result(timeout=30)
    return gateway_pb2_grpc.GatewayStub(channel)


class InProcess:
    """The whole platform (runtime.app.start) on an event loop in a background thread."""

    def __init__(self, settings, services=None):
        import asyncio

        from runtime import app
        from runtime.commandline import SERVICES

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.running = self.call(app.start(settings, list(services or SERVICES)))
        self.address = self.running.gateway_address

    def call(self, coro, timeout: float = 60):
        import asyncio

        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def inspect(self, fn):
        """fn() run on the platform's event loop (so it sees no half-applied record)."""
        async def run():
            return fn()

        return self.call(run())

    @property
    def workers(self) -> dict:
        return {w.service: w for w in self.running.workers}

    def resident(self) -> dict[str, int]:
        """Games whose engine each service holds (only owners hold any)."""
        return self.inspect(lambda: {w.service: w.hooks.resident(w) for w in self.running.workers})

    def evicted_everywhere(self, game_id: str) -> bool:
        """Every service knows the game and none holds its engine."""
        return self.inspect(lambda: all(
            game_id in w.games and game_id not in getattr(w.hooks, "loaded", ()) for w in self.running.workers))

    def records(self, game_id: str) -> list:
        """Every envelope of one game in the log, in order."""
        from bus.base import partition_for
        from contracts.envelopes import MalformedEnvelope, parse

        settings = self.running.workers[0].settings
        part = partition_for(game_id, self.running.log.partitions)
        out = []
        for r in self.call(self.running.log.read_key(settings.games_topic, part, game_id)):
            try:
                out.append(parse(r.value, r.key))
            except MalformedEnvelope:
                pass
        return out

    def close(self) -> None:
        try:
            self.call(self.running.stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)


class Platform:
    """The whole platform in this process (InProcess) with stubs of its gateway: `g` (Gateway) and
    `t` (Tournaments); `restart()` stops it and starts it again on the same log."""

    def __init__(self, settings):
        self.settings = settings
        self.start()

    def start(self) -> None:
        import grpc

        from contracts.v1 import gateway_pb2_grpc, tournament_api_pb2_grpc

        self.proc = InProcess(self.settings)
        channel = grpc.insecure_channel(self.proc.address)
        grpc.channel_ready_future(channel).result(timeout=30)
        self.t = tournament_api_pb2_grpc.TournamentsStub(channel)
        self.g = gateway_pb2_grpc.GatewayStub(channel)

    def restart(self, meanwhile=None) -> None:
        """Stop, run `meanwhile()` (if given) while nothing runs, start again."""
        self.proc.close()
        if meanwhile is not None:
            meanwhile()
        self.start()

    def close(self) -> None:
        self.proc.close()


def platform_settings(request, tmp_path, **overrides):
    """Settings of a whole platform in this process, on the embedded log (request.param
    "embedded") or on the real Kafka broker ("kafka": a fresh topic prefix per test)."""
    import uuid

    from runtime.config import Settings

    if request.param == "kafka":
        overrides = {"kafka": request.getfixturevalue("kafka_bootstrap"),
                     "topic_prefix": f"t{uuid.uuid4().hex[:8]}.", **overrides}
    return Settings(data_dir=tmp_path, port=free_port(), metrics_port=0, **overrides)


LOGS = ["embedded", pytest.param("kafka", marks=pytest.mark.kafka)]


def taken(envs: list) -> list:
    """One game's records as every reader takes them (runtime.fence): without the claims that do not
    hold, nor the decisions and checkpoints of an instance that is not the game's latest claim."""
    from contracts.envelopes import FENCED_BODIES
    from runtime.fence import Fence

    fence, kind, seq, out = Fence(), "", 0, []
    for e in envs:
        body = e.WhichOneof("body")
        if body == "owner_claimed" and not fence.take_claim(e, kind):
            continue
        if body in FENCED_BODIES and not fence.admits(e):
            continue
        if body == "game_created":
            kind, seq = e.game_created.summary.round_kind, e.game_created.summary.seq
        elif body == "action_applied" and e.seq == seq + 1:
            kind, seq = e.action_applied.round_kind, e.seq
        out.append(e)
    return out


def assert_applied_exactly_once(envs: list, seq: int) -> None:
    """One game's records, as readers take them: each seq 1..seq applied once, in order; every
    command answered once."""
    envs = taken(envs)
    applied = [e for e in envs if e.WhichOneof("body") == "action_applied"]
    assert [e.seq for e in applied] == list(range(1, seq + 1)), "each seq applied once, in order"
    commands = [e.command_id for e in envs if e.WhichOneof("body") == "command_submitted"]
    answers = [e.command_id for e in envs if e.WhichOneof("body") in ("action_applied", "action_rejected")]
    assert sorted(set(commands)) == sorted(answers), "every command answered exactly once"


def wait_until(predicate, timeout: float = 30.0, interval: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()


class LiveGame:
    """A new 1856 game played through the gateway with legal moves taken from the engine's view."""

    SEATS = ("Ann", "Bob", "Cid")

    def __init__(self, address: str):
        self.gateway = gateway_stub(address)
        created = self.gateway.CreateGame(gw.CreateGameRequest(
            title="1856", seats=[gw.Seat(name=n) for n in self.SEATS], seed=7))
        self.game_id, self.seq = created.game_id, created.seq
        self.tokens = {s.player_id: s.token for s in created.seats}
        self.operator = created.operator_token
        self.played: list[dict] = []

    def view(self):
        return self.gateway.GetGame(gw.GetGameRequest(game_id=self.game_id))

    def legal(self) -> dict:
        """A legal action now: the acting player's cheapest allowed bid, or a pass."""
        for entry in orjson.loads(self.view().view_json)["legal_actions"]:
            base = {"entity": entry["entity"], "entity_type": entry["entity_type"]}
            if "bid" in entry["types"]:
                buyable = [c for c in entry.get("companies", []) if c.get("may_buy")]
                if buyable:
                    return {"type": "bid", **base, "company": buyable[0]["company"], "price": buyable[0]["min_bid"]}
            if "pass" in entry["types"]:
                return {"type": "pass", **base}
        raise AssertionError("no legal bid or pass offered")

    def request(self, action: dict | None = None) -> gw.SubmitActionRequest:
        action = action or self.legal()
        return gw.SubmitActionRequest(game_id=self.game_id, token=self.tokens[str(action["entity"])],
                                     action=action_from_json(action), expected_seq=self.seq)

    def step(self) -> None:
        action = self.legal()
        self.seq = self.gateway.SubmitAction(self.request(action)).seq
        self.played.append(action)

    def oracle_reason(self, action: dict) -> str | None:
        """What the engine alone says to `action` after the same moves."""
        import engine

        game = engine.new_game("1856", list(self.SEATS), seed=7, game_id=self.game_id)
        for a in self.played:
            game.process(a)
        try:
            game.process(action)
        except engine.GameError as exc:
            return exc.reason
        return None


def check_end(replayer, export: dict, oracle, error: str | None) -> None:
    """After replaying the engine's prefix: the platform is exactly where the engine alone is; with
    the whole game played, the recorded result; otherwise the next entry is refused with the
    engine's own reason and changes nothing (or, an entry the replay cannot line up with today's
    automatic moves, stops the replay where the engine alone stopped)."""
    import grpc

    from runtime.client import ClientError

    view = replayer.view()
    if error is None:
        assert (view.seq, view.digest) == (oracle.seq, oracle.digest())
        assert view.finished
        assert dict(view.result) == {str(p): s for p, s in export["result"].items()}
        assert view.game_end_reason == export["game_end_reason"]
        return
    with pytest.raises((grpc.RpcError, ClientError)) as refused:
        replayer.step()
    after = replayer.view()
    assert (after.seq, after.digest) == (oracle.seq, oracle.digest())
    if isinstance(refused.value, ClientError):
        assert str(refused.value).endswith(error)
    else:
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert refused.value.details() == error
        assert (after.seq, after.digest) == (view.seq, view.digest)


def engine_loads(how: str) -> float:
    """Engine loads by the round services of this process so far (roundhouse_engine_loads_total),
    "state" (from an engine state) or "replay"."""
    from prometheus_client import REGISTRY

    return sum(REGISTRY.get_sample_value("roundhouse_engine_loads_total", {"service": s, "how": how}) or 0
               for s in ("auction", "stock_round", "operating_round"))


def round_changes(export: dict, k: int) -> int:
    """How often the round kind changes in the first k recorded entries, played in one engine."""
    from runtime.aligner import RECORDED_ONLY

    _, game, _ = engine_prefix({**export, "actions": []})
    changes, kind = 0, game.round_kind
    for recorded in export["actions"][:k]:
        try:
            game.process({key: v for key, v in recorded.items() if key not in RECORDED_ONLY})
        except Exception:
            break
        changes += game.round_kind != kind
        kind = game.round_kind
    return changes


class RandomTable:
    """A tournament table's game, mirrored by a local engine that picks random legal moves; `step(p)`
    submits one through `p.g` (a Gateway stub) with the acting seat's token."""

    def __init__(self, p, game_id: str, tokens: dict[str, str], seed: int):
        import engine

        view = p.g.GetGame(gw.GetGameRequest(game_id=game_id, without_legal_actions=True))
        self.game_id, self.tokens, self.rng = game_id, tokens, random.Random(seed)
        self.local = engine.new_game(view.title, [{"id": x.id, "name": x.name} for x in view.players],
                                     seed=view.seed, game_id=game_id)
        self.seats = [x.id for x in view.players]

    def step(self, p) -> bool:
        """One random legal move through the gateway; False once the game is over."""
        from tools.randomplay import candidates

        if self.local.finished:
            return False
        legal = self.local.legal_actions()
        entry = legal[0] if self.rng.random() < 0.8 else self.rng.choice(legal)
        options = candidates(self.local, entry, self.rng)
        action = options[0] if self.rng.random() < 0.7 else self.rng.choice(options)
        token = self.tokens[str(entry["player"])]
        resp = p.g.SubmitAction(gw.SubmitActionRequest(game_id=self.game_id, token=token, expected_seq=self.local.seq,
                                                       action=action_from_json(action)))
        self.local.process(action)
        assert resp.seq == self.local.seq
        return not self.local.finished


class HookReceiver:
    """A local HTTP server taking "your turn" webhooks: it answers 503 (retry) while `refusing` is
    set, 200 otherwise, and keeps every attempt as (delivery id, status answered, body, signature)."""

    def __init__(self):
        self.refusing = threading.Event()
        self.attempts: list[tuple[str, int, bytes, str]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                status = 503 if receiver.refusing.is_set() else 200
                receiver.attempts.append((self.headers["Roundhouse-Delivery"], status, body,
                                          self.headers["Roundhouse-Signature"]))
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def tried(self, delivery: str) -> int:
        return sum(1 for d, *_ in list(self.attempts) if d == delivery)

    def delivered(self, delivery: str) -> list[tuple[bytes, str]]:
        """(body, signature) of each attempt of `delivery` answered 200."""
        return [(body, sig) for d, status, body, sig in list(self.attempts) if d == delivery and status == 200]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def host_table(t, url: str, *, timed: bool) -> tuple[str, dict[str, str], dict[str, str]]:
    """A one-table tournament of three players with webhooks, its round started: (game id, player
    tokens, webhook secrets)."""
    from contracts.v1 import tournament_api_pb2 as api
    from contracts.v1 import tournament_pb2 as pb

    settings = pb.TournamentSettings(title="1856", table_size=3, min_table_size=3, rounds=1)
    if timed:
        settings.time_control.CopyFrom(pb.TimeControl(base_ms=3_600_000))
    h = t.HostTournament(api.HostTournamentRequest(name="Hooks", settings=settings))
    tokens, secrets = {}, {}
    for name in ("Ann", "Bob", "Cid"):
        r = t.Register(api.RegisterRequest(tournament_id=h.tournament_id, name=name, webhook_url=url))
        tokens[r.player_id], secrets[r.player_id] = r.player_token, r.webhook_secret
    t.SetRegistration(api.SetRegistrationRequest(tournament_id=h.tournament_id, token=h.organiser_token))
    t.SeatRound(api.SeatRoundRequest(tournament_id=h.tournament_id, token=h.organiser_token, seed=1))
    started = t.StartRound(api.StartRoundRequest(tournament_id=h.tournament_id, token=h.organiser_token, round=1))
    return started.tables[0].game_id, tokens, secrets
