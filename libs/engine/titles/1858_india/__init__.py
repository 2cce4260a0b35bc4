"""1858 India."""

from .game import G1858India as GAME

__all__ = ["GAME"]
