"""The deployment files agree with the code: dashboard series, Prometheus targets, compose services."""

import json
import re

from prometheus_client import REGISTRY
from rh_support import REPO

import runtime.metrics  # noqa: F401  (registers the series)
from runtime.commandline import SERVICES

# DESIGN.md, Metrics, and docs/architecture.md: the series every service serves and the dashboard is
# built on (issue 8, Operators: SubmitAction latency by service and status code, event-loop lag,
# consumer lag per group and partition held, live engines and ledger-only games, CPU per action),
# with the process series every Prometheus client serves.
DESIGN_SERIES = {
    "roundhouse_actions_applied_total", "roundhouse_actions_rejected_total",
    "roundhouse_command_latency_seconds", "roundhouse_rpc_latency_seconds",
    "roundhouse_event_loop_lag_seconds", "roundhouse_engine_cpu_seconds_total",
    "roundhouse_games_active", "roundhouse_games_finished", "roundhouse_games_resident",
    "roundhouse_games_evicted", "roundhouse_evictions_total", "roundhouse_engine_loads_total",
    "roundhouse_rebuild_seconds", "roundhouse_views_published_total", "roundhouse_queries_total",
    "roundhouse_replay_seconds", "roundhouse_snapshot_seconds", "roundhouse_snapshot_loads_total",
    "roundhouse_consumer_lag", "roundhouse_malformed_records_total", "roundhouse_gc_pause_seconds",
    "process_cpu_seconds_total", "process_resident_memory_bytes",
}
# labels Prometheus adds to every series it scrapes (deploy/prometheus/prometheus.yml), and buckets
TARGET_LABELS = {"job", "instance", "component", "le"}


def served() -> dict[str, set[str]]:
    """Every series this code serves, with its labels: runtime.metrics, and the process series of
    the client library's default registry."""
    from prometheus_client.metrics import MetricWrapperBase

    out: dict[str, set[str]] = {}
    for metric in vars(runtime.metrics).values():
        if isinstance(metric, MetricWrapperBase):
            out[metric._name + ("_total" if metric._type == "counter" else "")] = set(metric._labelnames)
    for family in REGISTRY.collect():
        if family.name.startswith("process_"):
            out[family.name + ("_total" if family.type == "counter" else "")] = set()
    return out


def test_dashboard_uses_exactly_the_design_series():
    dash = json.loads((REPO / "deploy/grafana/dashboards/roundhouse.json").read_text())
    used = set()
    series = served()
    for panel in dash["panels"]:
        for target in panel["targets"]:
            names = {re.sub(r"_(bucket|sum|count)$", "", n) for n in re.findall(r"(?:roundhouse|process)_[a-z_]+", target["expr"])}
            used |= names
            # every label the expression groups or filters by is one its series have
            grouped = {label.strip() for group in re.findall(r"by \(([^)]*)\)", target["expr"]) for label in group.split(",")}
            filtered = set(re.findall(r"([a-z_]+)=~?\"", target["expr"]))
            known = set().union(*(series.get(n, set()) for n in names)) | TARGET_LABELS
            assert grouped | filtered <= known, (panel["title"], (grouped | filtered) - known)
    assert used == DESIGN_SERIES
    assert DESIGN_SERIES <= set(series)


def test_compose_and_prometheus_cover_every_service():
    compose = (REPO / "docker-compose.yml").read_text()
    prom = (REPO / "deploy/prometheus/prometheus.yml").read_text()
    for name in SERVICES:
        assert re.search(rf"^  {name}:$", compose, re.M), name
        assert re.search(rf'"service", "{name}"', compose), name
        assert name in prom
    assert "apache/kafka:4" in compose and "prom/prometheus" in compose and "grafana/grafana" in compose
