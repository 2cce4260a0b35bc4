"""1856: Railroading in Upper Canada."""

from .game import G1856 as GAME

__all__ = ["GAME"]
