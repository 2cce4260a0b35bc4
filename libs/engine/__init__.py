"""Roundhouse rules engine: pure, synchronous, deterministic. See docs/engine-api.md."""

from .api import Game, import_game, list_titles, load, new_game, replay_copy, restore, rules_of_record, title_facts
from .errors import GameError

__all__ = ["Game", "GameError", "import_game", "list_titles", "load", "new_game", "replay_copy", "restore", "rules_of_record", "title_facts"]
