"""A title's data is parsed once and shared by all its games, so playing must never change it."""

import json

import engine
from engine import titles
from tools.randomplay import play


def test_playing_games_leaves_the_shared_title_data_untouched():
    data = titles.load_data("1856")
    before = json.dumps(data, sort_keys=True)
    for seed in (3, 8):
        play(seed, 3 + seed % 4, max_actions=400)
    game = engine.new_game("1856", ["A", "B", "C"], optional_rules=["eight_train_variant", "alternate_destinations"])
    game.process({"type": "pass", "entity": "A", "entity_type": "player"})
    assert titles.load_data("1856") is data
    assert json.dumps(data, sort_keys=True) == before
