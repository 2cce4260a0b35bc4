"""A step's ``offers`` (what the round asks: whether there is anything, whether a type is offered)
answers exactly as its ``actions`` list, at every position of recorded games of the titles whose
stock steps answer lazily (``engine.flow.step.Offer``), for every player and every type asked."""

from __future__ import annotations

import pickle

import pytest

from engine.flow.step import Offer

from .conftest import RecordedGame

# one game per title whose stock round answers with an Offer, with sales, purchases and pars
GAMES = [RecordedGame("1856", "hotseat005"), RecordedGame("1847_ae", "1847AE_game_end_bank"),
         RecordedGame("1822", "hs_lxemeslq_30797"), RecordedGame("1858", "1858_game_end_bank")]

KINDS = ("pass", "buy_shares", "sell_shares", "par", "buy_company", "bid", "payoff_player_debt",
         "payoff_player_debt_partial", "choose_ability", "convert", "message", "lay_tile")


@pytest.mark.parametrize("recorded", GAMES, ids=repr)
def test_offers_answer_as_the_actions_listed_at_every_position(recorded):
    from rh_support import engine_prefix

    compared, lazy, copied = [], [], []

    def before(game, move, index):
        state = game.state
        kept = state.round._offered
        if kept is not None and isinstance(kept[2], Offer) and len(copied) < 5:
            # a state holding an offer (some of it asked) copies as undo copies it, and the copy's
            # offer answers alike
            copy = pickle.loads(pickle.dumps(state))
            offer = copy.round._offered[2]
            assert isinstance(offer, Offer) and offer.step in copy.round.steps
            assert bool(offer) == bool(kept[2]) and list(offer) == list(kept[2])
            copied.append(index)
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
    assert copied, "no state holding an offer was copied"


class _Conditions:
    """A step-like object whose conditions answer as given and record being asked."""

    def __init__(self, **answers):
        self.answers, self.asked = answers, []

    def __getattr__(self, name):
        if name not in self.answers:
            raise AttributeError(name)

        def ask(entity):
            self.asked.append(name)
            return self.answers[name]
        return ask


SPEC = ((("bid", "bid"), ("buy_shares", "buy"), ("sell_shares", "sell")), ("sell_shares", "forced"), "listed")


def test_an_offer_asks_each_condition_once_and_only_as_needed():
    step = _Conditions(bid=True, buy=False, sell=True, forced=False, listed=["bid", "sell_shares", "pass"])
    offer = Offer(step, "P1", SPEC)
    assert offer and step.asked == ["bid"]
    assert "buy_shares" not in offer and "pass" in offer and "par" not in offer
    assert step.asked == ["bid", "forced", "buy"]   # (not forced: whether a sale is offered is not asked)
    assert "buy_shares" not in offer and "sell_shares" in offer
    assert step.asked == ["bid", "forced", "buy", "sell"]
    assert list(offer) == ["bid", "sell_shares", "pass"]

    forced = Offer(_Conditions(bid=True, buy=True, sell=True, forced=True), "P1", SPEC)
    assert forced and "sell_shares" in forced
    assert "buy_shares" not in forced and "pass" not in forced and "bid" not in forced

    empty = Offer(_Conditions(bid=False, buy=False, sell=False, forced=True), "P1", SPEC)
    assert not empty and "pass" not in empty and "sell_shares" not in empty
