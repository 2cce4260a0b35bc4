"""Every recorded 1856 game replays to exactly its recorded final scores and game-end reason, and
every recorded route is worth exactly its recorded revenue by our own computation (the best-route
search finding at least as much); played move by move, every move validated as in live play, each
reaches the same result."""

import engine
from tools import evidence

from .conftest import recorded_game_tests

# hotseat001 was played on 2021-03-05, when 18xx.games gave every 1856 game the destinations that are
# today the optional "alternate destinations": WGB's was Lake Huron (H5), today it is Goderich (F9).
# Played move by move it is created with the rules of its time (`engine.rules_of_record`, from the
# title's former defaults) and reaches its result; an import follows its recorded automatic moves.
globals().update(recorded_game_tests("1856"))


def test_hotseat001_is_played_with_the_destinations_of_its_time():
    """The record's rules are its time's: with today's destinations the move at index 79 (WGB lays
    I6, joining its home Guelph, J11, to Lake Huron and not to Goderich) would be refused, since the
    record has WGB reach its destination there."""
    from rh_support import engine_prefix

    export = evidence.load_game("1856", "hotseat001")
    assert engine.rules_of_record(export) == ["alternate_destinations"]
    later = {**export, "created_at": "2021-05-05"}
    assert engine.rules_of_record(later) == [] == export["settings"]["optional_rules"]
    k, _, error = engine_prefix(later)
    assert k == 79 and '"corporations": ["WGB"]' in error
    game = engine.import_game({**export, "actions": export["actions"][:80]})
    state = game.state
    start, goals = state.destinations["WGB"]
    assert (start, list(goals)) == ("J11", ["F9"]), "an import takes the settings as they are"
    assert state.board.hexes_connected("J11", ["H5"])
    assert not state.board.hexes_connected("J11", ["F9"])
    k, game, error = engine_prefix(export)
    assert error is None and k == len(export["actions"])
    start, goals = game.state.destinations["WGB"]
    assert (start, list(goals)) == ("J11", ["H5"])
