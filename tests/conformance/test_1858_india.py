"""Every recorded 1858 India game replays to exactly its recorded final scores and game-end reason; every
recorded route is worth exactly its recorded revenue by our own computation, and the best-route
search finds at least as much (late-game positions with several long trains make that part slow);
played move by move, every move validated as in live play, each reaches the same result but the one
stopped where noted below."""

from .conftest import recorded_game_tests

# rand_1858india_41_4p: a private railway's exchange during an auction of another private, refused
# as in 1858 (see test_1858.py), stops the game played move by move.
REFUSED = {"rand_1858india_41_4p": (98, "It is not Trichinopoly-Nagapatnam's turn to buy shares")}

globals().update(recorded_game_tests("1858_india", slow_best_routes=True, refused=REFUSED))
