"""1858: The Railways of Iberia."""

from .game import G1858 as GAME

__all__ = ["GAME"]
