"""A step's ``offers`` (what the round asks: whether there is anything, whether a type is offered)
answers exactly as its ``actions`` list, at every position of recorded games of the titles whose
stock steps answer lazily (``engine.flow.step.Offer``), for every player and every type asked."""

from __future__ import annotations

import pytest

from engine.flow.step import Offer

from .conftest import RecordedGame

# one game per title whose stock round answers with an Offer, with sales, purchases and pars
GAMES = [RecordedGame("1856", "hotseat005"), RecordedGame("1847_ae", "1847AE_game_end_bank"),
         RecordedGame("1822", "hs_lxemeslq_30797")]

KINDS = ("pass", "buy_shares", "sell_shares", "par", "buy_company", "bid", "payoff_player_debt",
         "payoff_player_debt_partial", "choose_ability", "message", "lay_tile")


@pytest.mark.parametrize("recorded", GAMES, ids=repr)
def test_offers_answer_as_the_actions_listed_at_every_position(recorded):
    from rh_support import engine_prefix

    compared, lazy = [], []

    def before(game, move, index):
        state = game.state
        for step in state.round.steps:
            for entity in state.players:
                offer = step.offers(entity)
                listed = step.actions(entity)
                if isinstance(offer, Offer):
                    lazy.append(index)
                where = f"action index {index}, {type(step).__name__}, {entity.name}"
                assert bool(offer) == bool(listed), where
                for kind in KINDS + tuple(listed):
                    assert (kind in offer) == (kind in listed), f"{where}: {kind}"
                assert list(offer) == listed, where
                compared.append(index)

    k, game, error = engine_prefix(recorded.export(), before=before)
    assert error is None and game.finished, f"{recorded.name}: action index {k} refused: {error}"
    assert compared and len(set(lazy)) > 20, "too few positions with a lazy offer"


def test_an_offer_asks_each_condition_once_and_only_as_needed():
    asked = []

    def condition(kind, answer):
        def ask():
            asked.append(kind)
            return answer
        return ask

    offer = Offer({"bid": condition("bid", True), "buy_shares": condition("buy_shares", False),
                   "sell_shares": condition("sell_shares", True)},
                  only=("sell_shares", condition("forced", False)))
    assert offer and asked == ["bid"]
    assert "buy_shares" not in offer and "pass" in offer and "par" not in offer
    assert asked == ["bid", "sell_shares", "forced", "buy_shares"]
    assert "buy_shares" not in offer and "sell_shares" in offer
    assert asked == ["bid", "sell_shares", "forced", "buy_shares"]

    forced = Offer({"buy_shares": lambda: True, "sell_shares": lambda: True},
                   only=("sell_shares", lambda: True))
    assert forced and "sell_shares" in forced
    assert "buy_shares" not in forced and "pass" not in forced

    empty = Offer({"buy_shares": lambda: False, "sell_shares": lambda: False},
                  only=("sell_shares", lambda: True))
    assert not empty and "pass" not in empty and "sell_shares" not in empty
