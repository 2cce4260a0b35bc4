"""The one error type the engine raises for bad input."""

from __future__ import annotations


class GameError(Exception):
    """An action or request the rules do not allow.

    ``reason`` is a player-facing explanation. ``index`` and ``action_id`` are set when the error
    comes from replaying a stored action list (``import_game``/``restore``).
    """

    def __init__(self, reason: str, *, index: int | None = None, action_id: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.index = index
        self.action_id = action_id

    def at(self, index: int, action_id) -> "GameError":
        """The same error, located at a position of an action list."""
        return GameError(self.reason, index=index, action_id=action_id)

    def __str__(self) -> str:
        if self.index is None:
            return self.reason
        return f"action {self.index} (id {self.action_id}): {self.reason}"
