"""1847 AE: Pfalz (Anniversary Edition)."""

from .game import G1847AE as GAME

__all__ = ["GAME"]
