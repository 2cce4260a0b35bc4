"""Settings for every Roundhouse process. Each can be set by flag or environment (ROUNDHOUSE_*).

The runtime knows the services by name only (runtime.commandline.SERVICES): `runtime.app` imports `services.<name>`
when a process runs that service.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict



# Default ports per service, so that the five can run side by side on one machine.
DEFAULT_METRICS_PORT = {
    "serve": 9100, "gateway": 9100, "auction": 9101, "stock_round": 9102,
    "operating_round": 9103, "scoring": 9104,
}
DEFAULT_WEB_PORT = 8080
DEFAULT_HEALTH_PORT = {
    "auction": 50061, "stock_round": 50062, "operating_round": 50063, "scoring": 50064,
}


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ROUNDHOUSE_", extra="ignore")

    kafka: str | None = Field(None, description="Kafka bootstrap HOST:PORT; none: embedded log")
    data_dir: Path = Field(Path("var"), description="state folder of the embedded log")
    # Partitions of every topic: how many instances of a service can share the load. None: the
    # count the existing log or topics have, else 12.
    partitions: int | None = Field(None, ge=1, le=1024)
    replication_factor: int = Field(1, ge=1, description="Kafka topics created by this process")
    # Under load a Kafka consumer fetches at most once per `kafka_batch_ms`, taking everything that came
    # in meanwhile (each fetch costs about half a millisecond of CPU in Python, and as much in the
    # broker); an idle one waits in a fetch of up to `kafka_fetch_wait_ms` that returns with the
    # first record. The longer the batch, the fewer fetches and the later a record under load: 50 ms
    # halved the Kafka open loop's SubmitAction p99 against 25 (its CPU per action a tenth lower, its
    # p50 20 ms higher; docs/architecture.md, "Consumers batching for 50 ms").
    kafka_batch_ms: int = Field(50, ge=0)
    # The same for the consumers whose records answer a caller who waits (the gateway's: the
    # outcome SubmitAction returns, the answers to queries). One process's consumers, not every
    # service's: 10 against 50 took the Kafka open loop's SubmitAction p50 from 80-85 to 55-67 ms at
    # the same CPU per action, and its p99 to 116-150 ms on most of the machine's faster stretches
    # (181-341 at 50; docs/architecture.md, "The gateway reads answers every 10 ms").
    kafka_answer_batch_ms: int = Field(10, ge=0)
    # The gateway's views consumer. A view is read by a GetGame that comes after its player's think
    # time or by a person watching, and a GetGame that comes sooner waits for it, so it batches like
    # the services: 50 against 10, five pairs in turns (Kafka open loop), the gateway's CPU a tenth
    # lower in every pair (0.14 ms per action), the broker's 0.04 ms; a GetGame right after an
    # action waits up to 40 ms longer (docs/architecture.md, "The gateway reads views every 50 ms").
    kafka_view_batch_ms: int = Field(50, ge=0)
    kafka_fetch_wait_ms: int = Field(500, ge=0)
    # How long the producer holds an append for others to share its produce request (a quarter of a
    # millisecond of CPU each in Python, as much in the broker). 5 against 0 (at once): in the Kafka
    # open loop a twentieth less CPU per action and SubmitAction p99 150-203 against 176-245 ms; on
    # a quiet machine every record 5 ms later (docs/architecture.md, "Consumers batching for 50 ms").
    kafka_linger_ms: int = Field(5, ge=0, le=1000)
    # The embedded log's writer, under load (its batch before held several appends), waits this long
    # after an append for others to share its transaction and fsync. 5 against 0, in turns: in the
    # closed loop 0.69-0.73 against 0.89-0.99 ms of event-loop CPU per action and 1,060-1,120
    # against 871-973 actions/s; in the open loop SubmitAction p50 7-8 against 5 ms. A lone append
    # is written at once (docs/architecture.md, "The log's writer lingers").
    log_linger_ms: float = Field(5.0, ge=0, le=1000)
    min_insync_replicas: int = Field(1, ge=1)
    topic_prefix: str = Field("", description="prefix of every topic and group name (isolated test runs)")
    host: str = "127.0.0.1"
    port: int = Field(50051, ge=0, le=65535, description="gateway gRPC port")
    # The web client and the Gateway over the Connect protocol (HTTP), served by the gateway.
    # None: DEFAULT_WEB_PORT, or any free port when another process holds it; 0: any free port.
    web_port: int | None = Field(None, ge=0, le=65535, description="web client / Connect HTTP port")
    metrics_port: int | None = Field(None, ge=0, le=65535, description="0: any free port")
    health_port: int | None = Field(None, ge=0, le=65535, description="0: any free port")
    instance: str = Field(default_factory=lambda: f"{socket.gethostname()}-{os.getpid()}")
    # Engine worker processes of this process (None: one per core for `serve`, at most 16, and 1 for
    # one service; 0: the engine runs on the event loop, for tests and debugging).
    engine_workers: int | None = Field(None, ge=0, le=64)
    # How much lower the engine processes' CPU priority is than their service process's (nice): the
    # event loop moves every game's records and answers, an engine process only its own games'; on
    # a busy machine the loop goes first (open-loop benchmark: SubmitAction p99 320-384 ms against
    # 370-614 ms at 0, GetGame p99 196-228 against 451-1407 ms; docs/architecture.md).
    engine_nice: int = Field(5, ge=0, le=19)
    # The event loop of a service process: uvloop's, or the standard library's. The loop moves every
    # record and call, and uvloop's costs less CPU per action (closed-loop benchmark with 4
    # players, in turns: 2.30-2.31 against 2.72-2.89 ms of event-loop CPU per action;
    # docs/architecture.md, Platform benchmark).
    event_loop: Literal["uvloop", "asyncio"] = "uvloop"
    # The round services of one process share its engine processes, so a game changing hands
    # between them keeps its engine in place. False: each has its own, and every handover goes
    # through an engine state, as between processes (tests).
    shared_engines: bool = True
    # The owner checkpoints a game (its engine state and its ledger) after this many new actions,
    # or when the game was idle this long.
    snapshot_every: int = Field(100, ge=1)
    snapshot_idle_s: float = Field(5.0, gt=0)
    checkpoint_interval_s: float = Field(1.0, gt=0)
    # How often each worker measures its consumer lag (roundhouse_consumer_lag).
    lag_interval_s: float = Field(5.0, gt=0)
    # An owner drops the engine of a game nobody touched (no record, command or read) for this long;
    # the next use loads it from its latest engine state plus the log after it. 0 keeps engines.
    evict_idle_s: float = Field(600.0, ge=0)
    # Decided records a round service keeps per game beyond the latest engine state (to take the game
    # over without reading the log); a longer stretch is read from the log.
    tail_limit: int = Field(256, ge=0)
    # Command ids an engine state remembers, to answer a retry with its first outcome.
    decided_window: int = Field(1000, ge=1)
    # Scoring publishes ScoreUpdated records this often, together: one for each game whose values
    # moved since its last one (the latest values then; every ActionApplied carries them too).
    score_interval_s: float = Field(1.0, ge=0)
    # How long a command ahead of the owner's state waits before it is rejected.
    command_wait_s: float = Field(10.0, gt=0)
    # How long SubmitAction waits for the owner's answer; GetGame for a view; a query for its answer.
    submit_timeout_s: float = Field(30.0, gt=0)
    # A gateway asks again (same request) this often while it waits for a view or an answer: the
    # owner may have been restarting or rebalancing when the first request was read.
    request_retry_s: float = Field(3.0, gt=0)
    # A game whose view was asked for within this long has its owner publish its view after every
    # action (before the next reader asks); others get a view when asked. 0: only when asked.
    view_interest_s: float = Field(60.0, ge=0)
    # Games whose latest view a gateway keeps in memory (beyond: read from the views topic by key in
    # the embedded log, asked of the owner again on Kafka).
    view_cache: int = Field(5000, ge=0)
    # Roles (README, "Roles"): the platform admin's token, as its sha256 (hex) or as the token itself.
    # When either is set, creating games and tournaments needs it; unset, anyone may.
    admin_token_sha256: str | None = Field(None, pattern=r"^[0-9a-f]{64}$")
    admin_token: str | None = Field(None, min_length=16)
    # The key tournament webhook signatures derive from (each player's secret is an HMAC of it): the
    # same in every process of a platform. Unset: on the embedded log, a key kept in the data folder.
    webhook_key: str | None = Field(None, min_length=16)
    # The first retry of a webhook that failed waits about this long (then x3 each time, 8 attempts).
    webhook_retry_first_s: float = Field(2.0, gt=0)
    log_level: str = "INFO"

    def admin_hash(self) -> str | None:
        """The sha256 of the admin token configured (None: no admin role configured)."""
        if self.admin_token_sha256:
            return self.admin_token_sha256
        if self.admin_token:
            import hashlib
            return hashlib.sha256(self.admin_token.encode()).hexdigest()
        return None

    def webhook_server_key(self) -> bytes:
        """The webhook key: configured, or (embedded log) made once and kept in the data folder."""
        if self.webhook_key:
            return self.webhook_key.encode()
        if self.kafka:
            raise RuntimeError("tournament webhooks over Kafka need ROUNDHOUSE_WEBHOOK_KEY (the same in every process)")
        import secrets
        path = self.data_dir / "webhook.key"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_hex(32))
        return path.read_text().strip().encode()

    def topic(self, name: str) -> str:
        return f"{self.topic_prefix}roundhouse.{name}"

    @property
    def games_topic(self) -> str:
        return self.topic("games")

    @property
    def snapshots_topic(self) -> str:
        return self.topic("snapshots")

    @property
    def states_topic(self) -> str:
        return self.topic("states")

    @property
    def views_topic(self) -> str:
        return self.topic("views")

    @property
    def replies_topic(self) -> str:
        return self.topic("replies")

    def group(self, service: str) -> str:
        return f"{self.topic_prefix}roundhouse.{service}"
