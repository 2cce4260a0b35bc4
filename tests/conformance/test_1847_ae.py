"""Every recorded 1847 AE game replays to exactly its recorded final scores and game-end reason, and
every recorded route is worth exactly its recorded revenue by our own computation (the best-route
search finding at least as much)."""

import pytest

from .conftest import check_played_move_by_move, fixture_params, recorded_game_tests

globals().update(recorded_game_tests("1847_ae"))


@pytest.mark.parametrize("path", fixture_params("1847_ae"))
def test_recorded_game_played_move_by_move_as_the_platform_submits_it(path):
    """Every entry submitted in order as `roundhouse client replay` does (the engine validates each
    move and makes the automatic ones itself; undos naming an action follow its new id): the game
    reaches exactly its recorded result."""
    check_played_move_by_move(path)
