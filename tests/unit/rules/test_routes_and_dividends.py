"""Running routes in live play (the engine computes the revenue) and paying or withholding it."""

import pytest

from .helpers import act, corp, legal, player, position, rejected

# OR 2.1 of a recorded game: WR has two 2-trains at home in Niagara Falls (O16, a yellow $20 city);
# Fort Erie (O18, a yellow $20 city) and Buffalo (P17, offboard, $30 in phase 2) are in reach.
WR_RUNS = ("51745", 51)


def wr_routes():
    game = position(*WR_RUNS)
    assert game.state.round.current_operator.id == "WR"
    assert [t.id for t in corp(game, "WR").trains] == ["2-0", "2-1"]
    return game


def route(train, *connections):
    return {"train": train, "connections": [list(c) for c in connections]}


def test_the_engine_computes_revenue_whatever_the_client_claims():
    game = wr_routes()
    claimed = [{**route("2-0", ("O16", "O18")), "revenue": 999, "revenue_str": "lots"},
               {**route("2-1", ("O16", "P17")), "revenue": 5}]
    stored = act(game, "WR", "run_routes", routes=claimed)
    assert [(r["revenue"], r["revenue_str"]) for r in stored["routes"]] == [(40, "O16-O18"), (50, "O16-P17")]
    assert game.actions[-1]["routes"] == stored["routes"]
    assert legal(game)["revenue"] == 90


def test_best_routes_are_a_legal_run_worth_at_least_any_other():
    game = wr_routes()
    best = game.best_routes("WR")
    best_total = sum(r["revenue"] for r in best)
    assert best_total == 90 and {r["train"] for r in best} == {"2-0", "2-1"}
    alternatives = [[route("2-0", ("O16", "O18"))], [route("2-1", ("O16", "P17"))],
                    [route("2-0", ("O16", "P17")), route("2-1", ("O16", "O18"))]]
    for routes in alternatives:
        other = wr_routes()
        act(other, "WR", "run_routes", routes=routes)
        assert legal(other)["revenue"] <= best_total
    act(game, "WR", "run_routes", routes=[{k: r[k] for k in ("train", "connections")} for r in best])
    assert legal(game)["revenue"] == best_total


@pytest.mark.parametrize("routes, reason", [
    ([route("2-0", ("P9", "Q8"))], "Route must contain token"),                      # GT's track
    ([route("2-0", ("O16", "O18")), route("2-1", ("O16", "O18"))], "cannot reuse track"),
    ([route("2-0", ("O18", "O16"), ("O16", "P17"))], "too many stops for 2 train"),
    ([route("2-0", ("O16", "O18")), route("2-0", ("O16", "P17"))], "Cannot run a train twice"),
    ([route("2-2", ("O16", "O18"))], "Cannot run another corporation's train"),     # CV's 2-train
    ([route("9-9", ("O16", "O18"))], "Unknown train"),
    ([route("2-0", ("O16", "N17"))], "does not follow track"),
    ("O16-O18", "needs a list of routes"),
])
def test_illegal_routes_are_refused(routes, reason):
    assert reason in rejected(wr_routes(), "WR", "run_routes", routes=routes)


def test_routes_are_run_once_per_turn():
    game = wr_routes()
    act(game, "WR", "run_routes", routes=[route("2-0", ("O16", "O18"))])
    assert "run_routes" not in legal(game)["types"]
    rejected(game, "WR", "run_routes", routes=[route("2-1", ("O16", "P17"))])


# ------------------------------------------------------------------ dividends

# OR 5.1 of the same game, LPS's dividend: $110 earned. LPS is incremental (it reached its
# destination); P4 holds 5 shares, P3 one, the market one, its IPO three.
LPS_PAYS = ("51745", 306)


def test_payout_pays_players_and_the_market_shares_to_the_corporation_but_not_the_ipo():
    game = position(*LPS_PAYS)
    lps = corp(game, "LPS")
    assert lps.capitalization == "incremental" and lps.num_ipo_shares() == 3 and lps.num_market_shares() == 1
    assert legal(game)["dividend_options"]["payout"] == {"to_corporation": 0, "per_share": 11}
    cash = {pid: player(game, pid).cash for pid in (4022, 4310, 7202, 4332)}
    lps_cash, bank = lps.cash, game.state.bank.cash
    act(game, "LPS", "dividend", kind="payout")
    lps = corp(game, "LPS")
    assert player(game, 4022).cash == cash[4022] + 5 * 11
    assert player(game, 4310).cash == cash[4310] + 11
    assert player(game, 7202).cash == cash[7202] and player(game, 4332).cash == cash[4332]
    assert lps.cash == lps_cash + 11                     # the one market share; nothing for the IPO's three
    assert game.state.bank.cash == bank - 7 * 11
    assert (lps.share_price.price, lps.share_price.column) == (125, 9)      # from $110, one step right


def test_withholding_keeps_the_revenue_and_moves_the_price_left():
    game = position(*LPS_PAYS)
    cash = corp(game, "LPS").cash
    players = [p.cash for p in game.state.players]
    act(game, "LPS", "dividend", kind="withhold")
    lps = corp(game, "LPS")
    assert lps.cash == cash + 110
    assert [p.cash for p in game.state.players] == players
    assert (lps.share_price.price, lps.share_price.column) == (100, 7)      # from $110, one step left


@pytest.mark.parametrize("kind", ["half", None, "PAYOUT"])
def test_unknown_dividend_kinds_are_refused(kind):
    assert "Dividend must be one of" in rejected(position(*LPS_PAYS), "LPS", "dividend", kind=kind)


def test_a_dividend_is_decided_only_after_running():
    assert "not dividend" in rejected(wr_routes(), "WR", "dividend", kind="payout")
