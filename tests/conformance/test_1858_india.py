"""Every recorded 1858 India game replays to exactly its recorded final scores and game-end reason; every
recorded route is worth exactly its recorded revenue by our own computation, and the best-route
search finds at least as much (late-game positions with several long trains make that part slow);
played move by move, every move validated as in live play, it reaches the same result."""

from .conftest import recorded_game_tests

globals().update(recorded_game_tests("1858_india", slow_best_routes=True))
