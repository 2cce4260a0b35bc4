"""Every recorded 1856 game replays to exactly its recorded final scores and game-end reason, and
every recorded route is worth exactly its recorded revenue by our own computation (the best-route
search finding at least as much); played move by move, every move validated as in live play, each
reaches the same result but the one stopped where noted below."""

import engine
from tools import evidence

from .conftest import recorded_game_tests

# hotseat001 was played on 2021-03-06, when 18xx.games gave every 1856 game the destinations that are
# today the optional "alternate destinations": WGB's was Lake Huron (H5), today it is Goderich (F9).
# Its record has WGB destinate as its track reaches Lake Huron: imports honour the recorded check,
# but played move by move our rules' check (today's destinations) differs and the replay stops there,
# saying so.
REFUSED = {"hotseat001": (79, "the record's automatic moves [{\"corporations\": [\"WGB\"]")}

globals().update(recorded_game_tests("1856", refused=REFUSED))


def test_hotseat001_stops_on_the_destination_table_of_its_time_not_on_the_walk():
    """At the stop (WGB lays I6), WGB's home Guelph (J11) is joined by track to Lake Huron, its
    destination when the game was played, and not to Goderich, its destination today."""
    export = evidence.load_game("1856", "hotseat001")
    index, _ = REFUSED["hotseat001"]
    game = engine.import_game({**export, "actions": export["actions"][:index + 1]})
    state = game.state
    start, goals = state.destinations["WGB"]
    assert (start, list(goals)) == ("J11", ["F9"])
    assert state.board.hexes_connected("J11", ["H5"])
    assert not state.board.hexes_connected("J11", ["F9"])
    assert not state.destination_connected(state.corporation_by_id("WGB"))
