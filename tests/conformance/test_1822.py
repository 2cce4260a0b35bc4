"""Every recorded 1822 game replays to exactly its recorded final scores and game-end reason; every
recorded route is worth its recorded revenue by our own computation (except the one the reference
itself no longer accepts, see below), and the best-route search finds at least as much. Played move
by move as the platform submits them, the games reach their recorded results too (the rules made
automatic since they were played lined up with their manual entries), but for that same route."""

from __future__ import annotations

from .conftest import recorded_game_tests

# discard_trains_after_sr_export, action id 823: CR's E train runs beyond its token cities. Today's
# rules reject that route (the reference's trace says so too); the recorded revenue (500) is kept and
# the difference reported, as when the reference loads the game.
KNOWN_MISMATCHES = {"discard_trains_after_sr_export": [
    {"train": "7-0", "recorded": 500, "computed": None,
     "error": "E-train route cannot extend beyond tokened cities"}]}

# Submitted as a live move, that route is refused (as the reference refuses it today), so the game
# played move by move stops there.
REFUSED = {"discard_trains_after_sr_export": (822, "E-train route cannot extend beyond tokened cities")}

globals().update(recorded_game_tests("1822", KNOWN_MISMATCHES, refused=REFUSED))
