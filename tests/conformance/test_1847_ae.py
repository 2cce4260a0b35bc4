"""Every recorded 1847 AE game replays to exactly its recorded final scores and game-end reason, and
every recorded route is worth exactly its recorded revenue by our own computation (the best-route
search finding at least as much); played move by move, every move validated as in live play, it
reaches the same result."""

from .conftest import recorded_game_tests

globals().update(recorded_game_tests("1847_ae"))
