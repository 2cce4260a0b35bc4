"""1858's private closure round: after the operating round of the first 5E/4M train, unsold privates
and the Havana and Güines close; each remaining private railway is exchanged for a treasury share
(with the president's approval unless he owns it), for a market share, or sold to the bank."""

from .helpers import act, corp, legal, position, rejected, scenario

QUICK = "1858/1858-quick-start-a"
BANK = "1858/1858_game_end_bank"


def named(game, name):
    return next(p for p in game.state.players if p.name == name)


@scenario
def closure_begins():
    """Quick-start game: AVT's last pass ends OR 6.1; the closure round follows."""
    game = position(QUICK, 707)
    act(game, "AVT", "pass")
    return game


def test_the_closure_round_follows_the_operating_round():
    game = closure_begins()
    state = game.state
    assert game.round_label == "PCR 6.1" and state.private_closure_round == "in_progress"
    assert state.company_by_id("H&G").closed                       # paid off at face value
    assert [e.id for e in state.round.active_entities()] == ["V&J"]
    entry = legal(game, "V&J")
    assert set(entry["types"]) == {"choose", "pass"}
    assert {"corporation": "A", "from": "treasury"} in entry["choices"]


def test_a_treasury_share_of_another_president_needs_his_approval():
    game = closure_begins()
    act(game, "V&J", "choose", "minor", choice={"from": "treasury", "corporation": "A"})
    assert [e.id for e in game.state.round.active_entities()] == ["A"]
    assert game.acting_players() == [named(game, "Player 1").id]
    assert legal(game, "A")["choices"] == ["approve", "deny"]
    assert "approve or deny" in rejected(game, "A", "choose", choice="maybe")
    p3, a = named(game, "Player 3"), corp(game, "A")   # (a refusal rebuilds the game: fresh objects)
    cash = a.cash
    act(game, "A", "choose", choice="approve")
    assert p3.percent_of(a) >= 10 and game.state.company_by_id("V&J").closed
    assert a.cash == cash + 100                                    # the private's face value
    assert [e.id for e in game.state.round.active_entities()] == ["R&T"]


def test_a_refusal_opens_the_market_share():
    game = closure_begins()
    act(game, "V&J", "choose", "minor", choice={"from": "treasury", "corporation": "A"})
    act(game, "A", "choose", choice="deny")
    assert game.state.round.approvals[corp(game, "A")] == "denied"
    entry = legal(game, "V&J")
    assert {"corporation": "A", "from": "market"} in entry["choices"]


def test_a_market_share_needs_a_refusal_first():
    game = closure_begins()
    reason = rejected(game, "V&J", "choose", "minor", choice={"from": "market", "corporation": "A"})
    assert "cannot be exchanged" in reason or "denied" in reason


def test_selling_a_private_to_the_bank():
    game = closure_begins()
    p3 = named(game, "Player 3")
    cash = p3.cash
    act(game, "V&J", "pass", "minor")
    assert p3.cash == cash + 100 and game.state.company_by_id("V&J").closed
    assert game.state.minor_by_id("V&J").closed


def test_the_president_s_own_private_takes_its_token_along():
    game = position(BANK, 571)            # OR 4.1 ends; Player 4 owns V&J and presides W
    act(game, "AVT", "pass")
    assert game.round_label == "PCR 4.1"
    act(game, "V&J", "choose", "minor", choice={"from": "treasury", "corporation": "W"})
    w = corp(game, "W")
    assert game.state.company_by_id("V&J").closed and named(game, "Player 4").percent_of(w) >= 10
    entries = {e["entity"]: e for e in game.legal_actions()}
    assert entries["W"]["types"] == ["place_token", "pass"]         # W already has a token: may decline
    act(game, "W", "place_token", city="207-2-0")
    assert "L13" in [t.hex.id for t in w.placed_tokens()]
    assert [e.id for e in game.state.round.active_entities()] == ["R&T"]


def test_the_round_after_the_closure_round():
    game = position(BANK, 576)
    act(game, "M&S", "choose", "minor", choice={"from": "treasury", "corporation": "W"})
    assert game.round_label == "OR 4.2" and game.state.private_closure_round == "done"
    assert all(m.closed for m in game.state.minors)
