"""The deployment files agree with the code: dashboard series, Prometheus targets, compose services."""

import json
import re

from prometheus_client import REGISTRY
from rh_support import REPO

import runtime.metrics  # noqa: F401  (registers the series)
from runtime.config import SERVICES

# DESIGN.md, Metrics: the series every service serves and the dashboard is built on, plus idle
# eviction (games resident vs evicted, evictions, rebuilds, games loaded from snapshot summaries).
DESIGN_SERIES = {
    "roundhouse_actions_applied_total", "roundhouse_actions_rejected_total",
    "roundhouse_command_latency_seconds", "roundhouse_games_active", "roundhouse_games_finished",
    "roundhouse_replay_seconds", "roundhouse_snapshot_seconds", "roundhouse_consumer_lag",
    "roundhouse_games_resident", "roundhouse_games_evicted", "roundhouse_evictions_total",
    "roundhouse_rebuild_seconds", "roundhouse_snapshot_loads_total",
}


def served_series() -> set[str]:
    names = set()
    for metric in REGISTRY.collect():
        if metric.name.startswith("roundhouse_"):
            names.add(metric.name + ("_total" if metric.type == "counter" else ""))
    return names


def test_dashboard_uses_exactly_the_design_series():
    dash = json.loads((REPO / "deploy/grafana/dashboards/roundhouse.json").read_text())
    used = set()
    for panel in dash["panels"]:
        for target in panel["targets"]:
            for name in re.findall(r"roundhouse_[a-z_]+", target["expr"]):
                used.add(re.sub(r"_(bucket|sum|count)$", "", name))
    assert used == DESIGN_SERIES
    assert DESIGN_SERIES <= served_series()


def test_compose_and_prometheus_cover_every_service():
    compose = (REPO / "docker-compose.yml").read_text()
    prom = (REPO / "deploy/prometheus/prometheus.yml").read_text()
    for name in SERVICES:
        assert re.search(rf"^  {name}:$", compose, re.M), name
        assert re.search(rf'"service", "{name}"', compose), name
        assert name in prom
    assert "apache/kafka:4" in compose and "prom/prometheus" in compose and "grafana/grafana" in compose
