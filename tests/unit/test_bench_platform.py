"""The platform benchmark's load generator (runtime.bench): what it sends for a script's moves."""

from contracts.actions import action_to_json
from runtime.bench import Script

MOVES = [
    ({"type": "bid", "entity": 1, "entity_type": "player", "company": "P1", "price": 45}, "1", 0),
    ({"type": "pass", "entity": 2, "entity_type": "player"}, "2", 1),
    ({"type": "undo", "entity": 2, "entity_type": "player"}, "2", 2),
]


def test_a_scripts_moves_are_encoded_once_as_the_actions_they_are():
    script = Script("1856/example", {}, list(MOVES))
    encoded = script.encoded()
    assert [(action_to_json(action), kind, who, seq) for action, kind, who, seq in encoded] == [
        (move, move["type"], who, seq) for move, who, seq in MOVES]
    assert script.encoded() is encoded   # every copy of the script played sends the same messages
