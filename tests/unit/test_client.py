"""The client's choice of seat token for replayed actions, and its text view."""

import orjson

from contracts.v1 import gateway_pb2 as gw
from runtime.client import _token_for, render

TOKENS = {"1": "t1", "2": "t2", "3": "t3"}
VIEW = {
    "corporations": [{"id": "CV", "president": 2, "cash": 100, "share_price": {"price": 65}}],
    "companies": [{"id": "FT", "owner": 3, "owner_type": "player"},
                  {"id": "GLSC", "owner": "CV", "owner_type": "corporation"}],
    "players": [{"name": "Ann", "cash": 150, "value": 500, "shares": {"CV": {"percent": 40, "president": True}}}],
}


def token(action, acting=("1",)):
    return _token_for(action, TOKENS, list(acting), "op", view=lambda: VIEW)


def test_seats_act_for_what_they_control():
    assert token({"type": "bid", "entity": 1, "entity_type": "player"}) == "t1"
    assert token({"type": "lay_tile", "entity": "CV", "entity_type": "corporation"}) == "t2"
    assert token({"type": "end_game", "entity": "CV", "entity_type": "corporation"}) == "op"  # organiser's call
    assert token({"type": "buy_company", "entity": "FT", "entity_type": "company"}) == "t3"
    assert token({"type": "assign", "entity": "GLSC", "entity_type": "company"}) == "t2"


def test_unknown_entities_fall_back_to_the_acting_seat_then_the_operator():
    assert token({"type": "pass", "entity": "XX", "entity_type": "corporation"}) == "t1"
    assert token({"type": "pass", "entity": "XX", "entity_type": "corporation"}, acting=("1", "2")) == "op"
    assert token({"type": "message", "entity": "XX", "entity_type": "corporation"}, acting=("2", "3")) == "t2"
    # a recorded undo may take back another player's move (18xx.games lets any player undo any move)
    assert token({"type": "undo", "entity": 1, "entity_type": "player"}) == "op"
    assert token({"type": "redo", "entity": 1, "entity_type": "player"}) == "op"


def test_text_view_shows_the_tables():
    view = gw.GameView(game_id="g", title="1856", seq=3, round_label="SR 1", round_kind="stock_round",
                       acting_players=["1"], players=[gw.PlayerView(id="1", name="Ann", value=500)],
                       view_json=orjson.dumps(VIEW))
    text = render(view)
    assert "acting: Ann" in text and "CV 40%P" in text and "corporations:" in text and "65" in text

