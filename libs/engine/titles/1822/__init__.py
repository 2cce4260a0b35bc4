from .game import G1822

GAME = G1822

__all__ = ["GAME", "G1822"]
