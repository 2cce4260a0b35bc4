"""Every recorded 1847 AE game replays to exactly its recorded final scores and game-end reason, and
every recorded route is worth exactly its recorded revenue by our own computation (the best-route
search finding at least as much)."""

from .conftest import recorded_game_tests

globals().update(recorded_game_tests("1847_ae"))


def test_recorded_game_played_move_by_move_as_the_platform_submits_it():
    """Every entry submitted in order as `roundhouse client replay` does (the engine validates each
    move and makes the automatic ones itself; undos naming an action follow its new id): the game
    reaches exactly its recorded result."""
    import json

    from rh_support import engine_prefix

    from .conftest import fixture_files
    for path in fixture_files("1847_ae"):
        export = json.loads(path.read_text())
        k, game, error = engine_prefix(export)
        assert error is None, f"{path.stem}: action index {k} refused: {error}"
        assert game.finished and game.game_end_reason == export["game_end_reason"]
        assert game.result == {str(p): v for p, v in export["result"].items()}
