"""Every recorded 1856 game replays to exactly its recorded final scores and game-end reason, and
every recorded route is worth exactly its recorded revenue by our own computation (the best-route
search finding at least as much)."""

from .conftest import recorded_game_tests

globals().update(recorded_game_tests("1856"))
