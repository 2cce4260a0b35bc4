"""Every recorded 1856 game replays to exactly its recorded final scores and game-end reason, and
every recorded route is worth exactly its recorded revenue by our own computation."""

from __future__ import annotations

import pytest

from .conftest import check_recorded_result, check_recorded_routes, fixture_params


@pytest.mark.parametrize("path", fixture_params("1856"))
def test_replay_matches_recorded_result(path):
    check_recorded_result(path)


@pytest.mark.parametrize("path", fixture_params("1856"))
def test_recorded_routes_and_best_routes(path):
    """Before each run_routes, our computation of the recorded routes equals the recorded revenue,
    and the best-route search finds at least as much."""
    check_recorded_routes(path)
