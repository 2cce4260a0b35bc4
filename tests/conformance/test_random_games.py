"""Random legal play: every choice legal_actions() offers is accepted, and the game keeps its
invariants (money, certificates, replaying its own export) after every action to the end. Random
players (who go bankrupt early) and railway-building players (whose games run to a broken bank)."""

import pytest
from tools.randomplay import play

import engine

GAMES = ([("1856", "random", seed) for seed in range(1, 9)]
         + [("1847_ae", "random", seed) for seed in range(1, 5)]
         + [("1847_ae", "builder", seed) for seed in range(1, 3)])


@pytest.mark.slow
@pytest.mark.parametrize("title,style,seed", GAMES, ids=[f"{t}-{s}-{n}" for t, s, n in GAMES])
def test_random_game_keeps_invariants_and_offers_only_legal_choices(title, style, seed):
    info = next(t for t in engine.list_titles() if t["slug"] == title)
    low, high = info["min_players"], info["max_players"]
    players = low + seed % (high - low + 1)
    game, actions = play(seed, players, max_actions=1500, style=style, title=title)
    assert actions > 50
    assert game.finished or actions >= 1500
    if style == "builder":
        assert game.game_end_reason == "bank"
