"""The deterministic random number generator of a game.

Games recorded on 18xx.games use a linear congruential generator seeded from the game; titles that
shuffle at set-up (decks, packets) must draw the same numbers to reproduce those games.
"""

from __future__ import annotations

import re

from .journal import Tracked

RAND_A = 1103515245
RAND_C = 12345
RAND_M = 2**31


def seed_for(game_id, seed=None) -> int:
    """The seed of a game: an explicit non-empty seed, else the first run of digits in its id (0 if none)."""
    if seed is not None and seed != "":
        return int(seed)
    match = re.search(r"\d+", str(game_id or ""))
    return int(match.group(0)) if match else 0


class Rng(Tracked):
    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = seed % RAND_M

    def next(self) -> int:
        self.state = (RAND_A * self.state + RAND_C) % RAND_M
        return self.state

    def shuffle(self, items: list) -> list:
        """A new list ordered by one fresh draw per element, in the elements' current order."""
        keyed = [(self.next(), i, item) for i, item in enumerate(items)]
        keyed.sort(key=lambda k: (k[0], k[1]))
        return [item for _, _, item in keyed]
