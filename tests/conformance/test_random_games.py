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


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 5))
def test_random_1822_game_keeps_invariants_and_offers_only_legal_choices(seed):
    """Random and railway-building players in turn, 3 to 6 of them, the 1822+ expansion every other
    game: to the middle of the game (bid boxes, concessions, minors and their acquisition, privates)."""
    players = 3 + seed % 4
    rules = ["plus_expansion"] if seed % 2 == 0 else []
    game, actions = play(seed, players, max_actions=700, title="1822", optional_rules=rules,
                         style="builder" if seed % 2 else "random")
    assert actions > 300
    assert game.finished or game.state.phase.name >= "3"


# 1858 and 1858 India (their quick starts too), by random and by railway-building players.
GAMES_1858 = [("1858", (), "random"), ("1858", (), "builder"), ("1858", ("quick_start_a",), "builder"),
              ("1858", ("quick_start_b",), "random"), ("1858_india", (), "random"),
              ("1858_india", (), "builder"), ("1858_india", ("quick_start_b",), "builder")]


@pytest.mark.slow
@pytest.mark.parametrize("title,rules,style", GAMES_1858, ids=lambda v: "+".join(v) if isinstance(v, tuple) else v)
@pytest.mark.parametrize("seed", range(1, 3))
def test_random_1858_games_keep_invariants_and_offer_only_legal_choices(title, rules, style, seed):
    players = 3 + seed % 3
    game, actions = play(seed, players, max_actions=1200, style=style, title=title, optional_rules=rules)
    assert actions > 50
    assert game.finished or actions >= 1200
