"""Every recorded 1858 India game replays to exactly its recorded final scores and game-end reason; every
recorded route is worth exactly its recorded revenue by our own computation, and the best-route
search finds at least as much (late-game positions with several long trains make that part slow)."""

from __future__ import annotations

import pytest

from .conftest import check_recorded_routes, fixture_params, replay_matches_recorded_result


@pytest.mark.parametrize("path", fixture_params("1858_india"))
def test_replay_matches_recorded_result(path):
    replay_matches_recorded_result(path)


@pytest.mark.parametrize("path", fixture_params("1858_india"))
def test_recorded_routes(path):
    check_recorded_routes(path, best=False)


@pytest.mark.slow
@pytest.mark.parametrize("path", fixture_params("1858_india"))
def test_best_routes_at_least_recorded(path):
    check_recorded_routes(path)
