"""Fixtures for conformance tests: the real games recorded on 18xx.games in ../shared/fixtures."""

from __future__ import annotations

import pytest
from rh_support import shared_dir


def fixture_files(slug: str) -> list:
    folder = shared_dir() / "fixtures" / slug
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def fixture_params(slug: str) -> list:
    files = fixture_files(slug)
    if not files:
        reason = f"no recorded {slug} games: {shared_dir() / 'fixtures' / slug} is absent"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason), id=f"{slug}-absent")]
    return [pytest.param(path, id=f"{slug}/{path.stem}") for path in files]


def replay_recorded_game(path):
    """Import a recorded game; it must end as recorded (reason and final scores). Returns the game."""
    import json

    import engine
    export = json.loads(path.read_text())
    game = engine.import_game(export)
    assert game.finished
    assert game.game_end_reason == export["game_end_reason"]
    assert game.result == {str(k): v for k, v in export["result"].items()}
    return game
