"""The Prometheus series every service serves on /metrics (DESIGN.md, Metrics).

deploy/grafana/dashboards/roundhouse.json is built on exactly these series (and the standard
process_cpu_seconds_total / process_resident_memory_bytes of prometheus_client); keep them in step.
"""

from __future__ import annotations

from functools import lru_cache

from prometheus_client import Counter, Gauge, Histogram, start_http_server

LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10, 30)

ACTIONS_APPLIED = Counter(
    "roundhouse_actions_applied_total",
    "Actions applied to a game by its owner service",
    ["service", "title", "round_kind"],
)
ACTIONS_REJECTED = Counter(
    "roundhouse_actions_rejected_total",
    "Commands rejected (illegal action, stale or ahead sequence, malformed, not permitted, ...)",
    ["service", "title", "round_kind", "reason"],
)
COMMAND_LATENCY = Histogram(
    "roundhouse_command_latency_seconds",
    "A command's latency by outcome (`code`: the gRPC status the submitter gets, OK when applied):"
    " gateway, SubmitAction from call to answer; owner, from the command's append to its answer's",
    ["service", "code"],
    buckets=LATENCY_BUCKETS,
)
RPC_LATENCY = Histogram(
    "roundhouse_rpc_latency_seconds",
    "Gateway calls from arrival to answer, by method and gRPC status code (timeouts included)",
    ["method", "code"],
    buckets=LATENCY_BUCKETS,
)
EVENT_LOOP_LAG = Histogram(
    "roundhouse_event_loop_lag_seconds",
    "How late the event loop runs a timer that should fire now (work that holds the loop shows here)",
    ["process"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)
GC_PAUSES = Histogram(
    "roundhouse_gc_pause_seconds",
    "Pauses of the cyclic garbage collector's full collections and compactions, by service process"
    " and where (its event loop, or one of its engine processes): every request there waits",
    ["service", "where", "kind"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
ENGINE_CPU = Counter(
    "roundhouse_engine_cpu_seconds_total",
    "CPU time of the engine processes of a service process (add process_cpu_seconds_total for the"
    " whole cost), by request (decide, view, load, dump, query, ...; `between`: what a process does"
    " between requests: reading them, writing answers, the work an answer left for after it)",
    ["service", "op"],
)
ENGINE_REQUESTS = Counter(
    "roundhouse_engine_requests_total", "Requests the engine processes of a service process answered",
    ["service", "op"],
)
BETWEEN = "between"   # ENGINE_CPU's op for the work between requests
GAMES_ACTIVE = Gauge("roundhouse_games_active", "Games held that are not finished", ["service"])
GAMES_FINISHED = Gauge("roundhouse_games_finished", "Games held that are finished", ["service"])
GAMES_RESIDENT = Gauge(
    "roundhouse_games_resident", "Games whose engine this service holds (it owns their round)", ["service"]
)
GAMES_EVICTED = Gauge(
    "roundhouse_games_evicted",
    "Games held as a ledger only (no engine here: owned by another service, or idle)",
    ["service"],
)
EVICTIONS = Counter(
    "roundhouse_evictions_total", "Engines dropped by their owner after the game was idle", ["service"]
)
ENGINE_LOADS = Counter(
    "roundhouse_engine_loads_total",
    "Engines an owner took up: `in_place` (left in this process by the previous owner), `state` (an"
    " engine state plus the decided records after it), `setup` (built from the set-up and the log)",
    ["service", "how"],
)
REBUILD_SECONDS = Histogram(
    "roundhouse_rebuild_seconds",
    "Loading a game's engine for its owner, by what needed it (command, read, handover)",
    ["service", "trigger"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
VIEWS_PUBLISHED = Counter(
    "roundhouse_views_published_total", "Views an owner published to roundhouse.views", ["service", "legal_actions"]
)
QUERIES = Counter(
    "roundhouse_queries_total", "Engine queries an owner answered (export, history, best routes, ...)",
    ["service", "query", "status"],
)
REPLAY_SECONDS = Histogram(
    "roundhouse_replay_seconds",
    "Catching up a gained partition: snapshots loaded and the log read up to its end",
    ["service"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120),
)
SNAPSHOT_SECONDS = Histogram(
    "roundhouse_snapshot_seconds",
    "Writing one game's checkpoint (op=write: engine state, ledger, announcement)",
    ["service", "op"],
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
SNAPSHOT_LOADS = Counter(
    "roundhouse_snapshot_loads_total",
    "Ledgers loaded from snapshots on gaining a partition",
    ["service", "mode"],
)
CONSUMER_LAG = Gauge(
    "roundhouse_consumer_lag",
    "Records of roundhouse.games not yet read, per partition this instance holds",
    ["service", "partition"],
)
MALFORMED_RECORDS = Counter(
    "roundhouse_malformed_records_total",
    "Log records that are not valid envelopes (skipped)",
    ["service"],
)


@lru_cache(maxsize=8192)
def child(metric, *labels: str):
    """`metric.labels(*labels)`, looked up once (on hot paths: every action observes a few series).
    Not for series that are removed (roundhouse_consumer_lag)."""
    return metric.labels(*labels)


def serve(port: int, host: str = "0.0.0.0") -> int:
    """Serve /metrics on `port` (0: any free port); returns the port. PortInUse when it is taken."""
    from runtime.health import PortInUse

    try:
        server, _thread = start_http_server(port, addr=host)
    except OSError:
        raise PortInUse("metrics", host, port) from None
    return server.server_address[1]
