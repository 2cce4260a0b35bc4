"""Fuzzing the engine: random and mutated actions at positions of a live 1856 game. Every rejection
is an engine.GameError with a reason and leaves the game exactly as it was (digest and log); nothing
else is ever raised. The default run is bounded (a few hundred examples, well under a minute); the
slow variant throws thousands."""

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine

SEATS = ["Ann", "Bob", "Cid"]
TYPES = ["bid", "par", "buy_shares", "sell_shares", "pass", "lay_tile", "place_token", "run_routes", "dividend",
         "buy_train", "discard_train", "buy_company", "choose", "assign", "bankrupt", "take_loan", "payoff_loan",
         "undo", "redo", "message", "end_game", "program_buy_shares", "program_share_pass", "program_disable",
         "convert", "merge", "no_such_type"]
KEYS = ["type", "entity", "entity_type", "company", "price", "corporation", "share_price", "shares", "percent",
        "hex", "tile", "rotation", "city", "routes", "kind", "train", "choice", "target", "action_id", "message",
        "loan", "exchange", "variant", "id", "auto_actions", "created_at"]
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ_LONG = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def positions() -> list[bytes]:
    """Engine states of one game at a few positions: the start, mid-auction, into the stock round."""
    game = engine.new_game("1856", SEATS, seed=7)
    states = [game.dump()]
    for step in range(40):
        for entry in game.legal_actions():
            base = {"entity": entry["entity"], "entity_type": entry["entity_type"]}
            if "pass" in entry["types"]:
                game.process({"type": "pass", **base})
                break
            if "par" in entry["types"] and entry.get("corporations"):
                corp = entry["corporations"][0]
                game.process({"type": "par", **base, "corporation": corp["corporation"],
                              "share_price": corp["share_prices"][0]})
                break
        else:
            break
        if step in (3, 12, 25, 39):
            states.append(game.dump())
    return states


STATES = positions()
OFFERED = {state: engine.load(state).legal_actions() for state in STATES}   # what each position offers

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(string.printable, max_size=30),
    st.sampled_from(["CV", "GW", "FT", "P1", "57-1", "H12", "65,5,4", "CV_3", "2-0", "Ann", "Bob", "0", "-1", ""]),
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                      max_leaves=10)
random_actions = st.dictionaries(st.sampled_from(KEYS), values, max_size=8).map(
    lambda d: d if "type" in d else {**d, "type": "pass"})


@st.composite
def mutated_actions(draw):
    """A legal action now (from the engine's legal actions), then some keys changed, dropped or added."""
    state = draw(st.sampled_from(STATES))
    offered = OFFERED[state]
    entry = draw(st.sampled_from(offered)) if offered else {"entity": "Ann", "entity_type": "player", "types": ["pass"]}
    action = {"type": draw(st.sampled_from(entry["types"] + TYPES)), "entity": entry["entity"],
              "entity_type": entry["entity_type"]}
    for key in draw(st.lists(st.sampled_from(KEYS), max_size=4)):
        action[key] = draw(values)
    for key in draw(st.lists(st.sampled_from(sorted(action)), max_size=2)):
        action.pop(key, None)
    return state, action


def check(state: bytes, action) -> None:
    game = engine.load(state)
    before = (game.digest(), game.seq, game.actions)
    try:
        game.process(action)
    except engine.GameError as exc:
        assert isinstance(exc.reason, str) and exc.reason, "a rejection has a reason"
        assert (game.digest(), game.seq, game.actions) == before, f"rejected {action!r} changed the game"
        return
    assert game.seq == before[1] + 1   # accepted: one more entry


@FUZZ
@given(st.sampled_from(STATES), random_actions)
def test_random_actions(state, action):
    check(state, action)


@FUZZ
@given(mutated_actions())
def test_mutated_legal_actions(case):
    check(*case)


@FUZZ
@given(st.sampled_from(STATES), st.one_of(values, st.binary(max_size=20)))
def test_not_even_an_action(state, action):
    check(state, action)


@pytest.mark.slow
@FUZZ_LONG
@given(mutated_actions())
def test_mutated_legal_actions_long(case):
    check(*case)
