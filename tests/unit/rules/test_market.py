from engine.core.entities import Corporation
from engine.core.market import StockMarket

ROWS = [["70", "80", "90p", "100e"],
        ["60", "70", "80p"],
        ["0c", "50"]]


def corp_at(market, cell_id):
    corp = Corporation("X", "Test")
    market.set_par(corp, market.by_id[cell_id])
    return corp


def test_par_prices_are_ordered_highest_first():
    market = StockMarket(ROWS)
    assert [p.id for p in market.par_prices] == ["90,0,2", "80,1,2"]


def test_two_dimensional_moves_at_edges():
    market = StockMarket(ROWS)
    corp = corp_at(market, "80,1,2")
    market.move_right(corp)          # end of row: goes up
    assert corp.share_price.id == "90,0,2"
    market.move_right(corp)
    assert corp.share_price.id == "100,0,3" and market.max_reached
    market.move_up(corp)             # top row: stays
    assert corp.share_price.id == "100,0,3"
    corp2 = corp_at(market, "80,1,2")
    market.move_down(corp2)          # no cell below column 2: stays
    assert corp2.share_price.id == "80,1,2"
    corp3 = corp_at(market, "60,1,0")
    market.move_left(corp3)          # left edge: goes down
    assert corp3.share_price.id == "0,2,0"
    assert corp3 not in market.by_id["60,1,0"].corporations


def test_cells_record_type_and_cert_limit_effect():
    market = StockMarket([["50y", "60p"]], unlimited_types=["no_cert_limit"])
    assert not market.by_id["50,0,0"].counts_for_limit
    assert market.by_id["60,0,1"].counts_for_limit
    assert market.by_id["60,0,1"].can_par
