"""The one error type the tournament library raises for bad input."""

from __future__ import annotations


class TournamentError(Exception):
    """A request or event the tournament's rules do not allow.

    ``reason`` is a player-facing explanation. Whatever raised it left every state as it was.
    """

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
