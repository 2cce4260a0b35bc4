"""The Prometheus series every service serves on /metrics (DESIGN.md, Metrics).

deploy/grafana/dashboards/roundhouse.json is built on exactly these series; keep them in step.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram, start_http_server

ACTIONS_APPLIED = Counter(
    "roundhouse_actions_applied_total",
    "Actions applied to a game by its owner service",
    ["service", "title", "round_kind"],
)
ACTIONS_REJECTED = Counter(
    "roundhouse_actions_rejected_total",
    "Commands rejected (illegal action, stale or ahead sequence, malformed, ...)",
    ["service", "title", "round_kind", "reason"],
)
COMMAND_LATENCY = Histogram(
    "roundhouse_command_latency_seconds",
    "From a command's append to its ActionApplied/ActionRejected (owner: append; gateway: seen)",
    ["service"],
    buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
GAMES_ACTIVE = Gauge("roundhouse_games_active", "Games held that are not finished", ["service"])
GAMES_FINISHED = Gauge("roundhouse_games_finished", "Games held that are finished", ["service"])
GAMES_RESIDENT = Gauge(
    "roundhouse_games_resident", "Games held with their engine state in memory", ["service"]
)
GAMES_EVICTED = Gauge(
    "roundhouse_games_evicted",
    "Games held as a summary only: engine state dropped when idle, rebuilt on demand",
    ["service"],
)
EVICTIONS = Counter(
    "roundhouse_evictions_total", "Idle games whose engine state was dropped", ["service"]
)
REBUILD_SECONDS = Histogram(
    "roundhouse_rebuild_seconds",
    "Rebuilding an evicted game from its latest snapshot plus the log after it, by what needed it"
    " (command: SubmitAction; read: GetGame/WatchGame/ExportGame; event: a record of the game)",
    ["service", "trigger"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
REPLAY_SECONDS = Histogram(
    "roundhouse_replay_seconds",
    "Catching up a gained partition: snapshots loaded and the log replayed up to its end",
    ["service"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120),
)
SNAPSHOT_SECONDS = Histogram(
    "roundhouse_snapshot_seconds",
    "Writing (op=write) or restoring (op=load) one game snapshot",
    ["service", "op"],
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
SNAPSHOT_LOADS = Counter(
    "roundhouse_snapshot_loads_total",
    "Games loaded from their snapshot on gaining a partition: engine state restored (mode=restore)"
    " or, idle or finished, taken evicted from the snapshot's summary alone (mode=summary)",
    ["service", "mode"],
)
CONSUMER_LAG = Gauge(
    "roundhouse_consumer_lag",
    "Records of roundhouse.games not yet read, per assigned partition",
    ["service", "partition"],
)
MALFORMED_RECORDS = Counter(
    "roundhouse_malformed_records_total",
    "Log records that are not valid envelopes (skipped)",
    ["service"],
)


def serve(port: int, host: str = "0.0.0.0") -> int:
    """Serve /metrics on `port` (0: any free port); returns the port."""
    server, _thread = start_http_server(port, addr=host)
    return server.server_address[1]
