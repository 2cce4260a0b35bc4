"""Random legal play on 1856: every choice legal_actions() offers is accepted, and the game keeps its
invariants (money, certificates, replaying its own export) after every action to the end."""

import pytest
from tools.randomplay import play


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 9))
def test_random_game_keeps_invariants_and_offers_only_legal_choices(seed):
    players = 3 + seed % 4
    game, actions = play(seed, players, max_actions=1500)
    assert actions > 50
    assert game.finished or actions >= 1500
