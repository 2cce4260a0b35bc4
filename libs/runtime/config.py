"""Settings for every Roundhouse process. Each can be set by flag or environment (ROUNDHOUSE_*)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

SERVICES = ("gateway", "auction", "stock_round", "operating_round", "scoring")
ROUND_SERVICES = ("auction", "stock_round", "operating_round")

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
    partitions: int = Field(4, ge=1, le=256)
    topic_prefix: str = Field("", description="prefix of both topic names (isolated test runs)")
    host: str = "127.0.0.1"
    port: int = Field(50051, ge=0, le=65535, description="gateway gRPC port")
    # The web client and the Gateway over the Connect protocol (HTTP), served by the gateway.
    # None: DEFAULT_WEB_PORT, or any free port when another process holds it; 0: any free port.
    web_port: int | None = Field(None, ge=0, le=65535, description="web client / Connect HTTP port")
    metrics_port: int | None = Field(None, ge=0, le=65535, description="0: any free port")
    health_port: int | None = Field(None, ge=0, le=65535, description="0: any free port")
    instance: str = Field(default_factory=lambda: f"{socket.gethostname()}-{os.getpid()}")
    # A game's state is snapshotted after this many new actions, or when idle this long.
    snapshot_every: int = Field(25, ge=1)
    snapshot_idle_s: float = Field(5.0, gt=0)
    checkpoint_interval_s: float = Field(1.0, gt=0)
    # How often each worker measures its consumer lag (roundhouse_consumer_lag).
    lag_interval_s: float = Field(5.0, gt=0)
    # A game nobody touched (no record, command or read) for this long has its engine state dropped:
    # only a small summary stays; the next command, read or event rebuilds it from its latest
    # snapshot plus the log after it. 0 keeps every game in memory.
    evict_idle_s: float = Field(600.0, ge=0)
    # How long a command ahead of the owner's state waits before it is rejected.
    command_wait_s: float = Field(10.0, gt=0)
    # How long SubmitAction waits for the owner's answer.
    submit_timeout_s: float = Field(30.0, gt=0)
    log_level: str = "INFO"

    @property
    def games_topic(self) -> str:
        return f"{self.topic_prefix}roundhouse.games"

    @property
    def snapshots_topic(self) -> str:
        return f"{self.topic_prefix}roundhouse.snapshots"

    def group(self, service: str) -> str:
        return f"{self.topic_prefix}roundhouse.{service}"
