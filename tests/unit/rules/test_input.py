"""Malformed actions are refused with a reason, and the log never shares data with its caller."""

import json

import pytest

import engine

from .helpers import fingerprint, position, rejected


@pytest.mark.parametrize("n, action, reason", [
    (94, {"type": "lay_tile", "entity": "WR", "hex": "O18", "rotation": 1}, "needs a tile"),
    (94, {"type": "lay_tile", "entity": "WR", "tile": "15-0", "rotation": 1}, "needs a hex"),
    (94, {"type": "lay_tile", "entity": "WR", "hex": "O18", "tile": ["15-0"], "rotation": 1}, "by its id"),
    (94, {"type": "lay_tile", "entity": "WR", "hex": "O18", "tile": "15-0", "rotation": "1"}, "whole-number rotation"),
    (140, {"type": "take_loan", "entity": "CV"}, "needs a loan"),
    (60, {"type": "buy_train", "entity": "CV", "train": "3-0"}, "whole-number price"),
    (60, {"type": "buy_train", "entity": "CV", "train": "3-0", "price": "225"}, "whole-number price"),
    (60, {"type": "buy_train", "entity": "CV", "price": 225}, "needs a train"),
    (460, {"type": "merge", "entity": "GT"}, "needs a corporation"),
])
def test_missing_or_mistyped_fields_are_refused_with_a_reason(n, action, reason):
    game = position("51745", n)
    fields = {k: v for k, v in action.items() if k not in ("type", "entity")}
    assert reason in rejected(game, action["entity"], action["type"], "corporation", **fields)


def test_the_log_keeps_its_own_copy_of_every_action():
    game = position("51745", 51)                                  # WR is about to run its trains
    routes = [{"train": "2-0", "connections": [["O16", "O18"]]}]
    stored = game.process({"type": "run_routes", "entity": "WR", "entity_type": "corporation", "routes": routes})
    assert routes == [{"train": "2-0", "connections": [["O16", "O18"]]}]    # the caller's data untouched
    assert stored["routes"][0]["revenue"] > 0                             # the stored action has ours
    routes[0]["train"] = "2-2"
    stored["routes"][0]["train"] = "2-3"
    assert game.actions[-1]["routes"][0]["train"] == "2-0"
    before = fingerprint(game)
    assert engine.import_game(json.loads(json.dumps(game.export()))).digest() == game.digest()
    assert fingerprint(game) == before
