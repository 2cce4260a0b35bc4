"""1858 stock rounds: private railways auctioned one at a time, starting public companies by exchange,
home tokens in the private's reserved city, conversion to 10-share companies, quick-start packets."""

import engine

from .helpers import act, corp, legal, player, position, rejected, scenario

GAME = "1858/1858_game_end_bank"
PLAYERS4 = [{"id": i + 1, "name": f"P{i + 1}"} for i in range(4)]


def company(game, cid):
    return game.state.company_by_id(cid)


def minor(game, mid):
    return game.state.minor_by_id(mid)


def named(game, name):
    """A player of a recorded game by name ("Player 1")."""
    return next(p for p in game.state.players if p.name == name)


@scenario
def new_1858(players=4, rules=()):
    return engine.new_game("1858", PLAYERS4[:players] if players <= 4 else
                           [{"id": i + 1, "name": f"P{i + 1}"} for i in range(players)], seed=1,
                           optional_rules=rules)


@scenario
def auction_of_lc():
    """P1 puts the Lisbon and Carregado up for its minimum, 70."""
    game = new_1858()
    act(game, 1, "bid", company="L&C", price=70)
    return game


def test_first_stock_round_offers_the_yellow_private_railways():
    game = new_1858()
    entry = legal(game)
    assert set(entry["types"]) == {"bid", "pass"}                 # no public company before SR 2
    offered = {c["company"]: c["min_bid"] for c in entry["companies"]}
    assert offered["L&C"] == 70 and offered["H&G"] == 30
    assert "M&S" not in offered                                   # green privates from phase 3
    assert entry["max_bid"]["L&C"] == 375


def test_bids_are_checked_before_anything_changes():
    game = new_1858()
    assert "Minimum bid is" in rejected(game, 1, "bid", company="L&C", price=65)
    assert "multiple of 5" in rejected(game, 1, "bid", company="L&C", price=72)
    assert "cannot be auctioned now" in rejected(game, 1, "bid", company="M&S", price=100)
    assert "Maximum possible bid is 375" in rejected(game, 1, "bid", company="L&C", price=400)
    assert "not P2's turn" in rejected(game, 2, "bid", company="L&C", price=70)


def auction_step(game):
    return game.state.round.active_step()


def test_the_auction_goes_round_the_players_still_in_it():
    game = auction_of_lc()
    assert auction_step(game).auctioning is company(game, "L&C")
    assert game.acting_players() == [2]
    assert set(legal(game)["types"]) == {"bid", "pass"}
    assert "Only Lisbon and Carregado Railway is being auctioned now" in rejected(game, 2, "bid", company="B&M",
                                                                                  price=90)
    assert "Minimum bid is" in rejected(game, 2, "bid", company="L&C", price=70)
    act(game, 2, "bid", company="L&C", price=75)
    act(game, 3, "pass")                                          # P3 is out of this auction
    act(game, 4, "pass")
    assert game.acting_players() == [1]
    act(game, 1, "pass")                                          # P2 is the last one in: P2 wins
    lc = company(game, "L&C")
    assert lc.owner is player(game, 2) and player(game, 2).cash == 375 - 75
    assert minor(game, "L&C").owner is player(game, 2) and minor(game, "L&C").floated()
    assert auction_step(game).auctioning is None
    assert game.acting_players() == [2]                           # after P1, who put it up


def test_the_only_bidder_left_wins_at_once():
    game = auction_of_lc()
    for pid in (2, 3, 4):
        act(game, pid, "pass")
    assert company(game, "L&C").owner is player(game, 1) and player(game, 1).cash == 305
    assert game.acting_players() == [2]


def test_players_who_cannot_afford_the_next_bid_drop_out():
    # SR 1 of a recorded game: Player 2 puts the Córdoba and Málaga up for 70; Players 1 and 3 cannot
    # bid 75 and are out, so Player 4 alone may answer
    game = position(GAME, 62)
    act(game, named(game, "Player 2").id, "bid", company="C&M", price=70)
    step = auction_step(game)
    assert step.auctioning is company(game, "C&M")
    assert [p.name for p in step.active_bidders] == ["Player 2", "Player 4"]
    assert game.acting_players() == [named(game, "Player 4").id]
    act(game, named(game, "Player 4").id, "pass")
    assert company(game, "C&M").owner is named(game, "Player 2")


def test_exchange_for_a_presidency_not_in_the_first_stock_round():
    game = new_1858()
    act(game, 1, "bid", company="P&L", price=90)
    for pid in (2, 3, 4):
        act(game, pid, "pass")
    for pid in (2, 3, 4):                                          # back to P1, still in SR 1
        act(game, pid, "pass")
    assert game.acting_players() == [1]
    assert not [e for e in game.legal_actions() if e["entity"] == "P&L"]
    assert "cannot be exchanged" in rejected(game, "P&L", "buy_shares", "company", shares=["RP_0"], percent=40)


@scenario
def exchange_pl_for_rp():
    """SR 2: P1 trades the Porto and Lisbon for the RP presidency (par 110, the highest par price
    up to the private's face value), paying 110 into RP's treasury."""
    game = position(GAME, 167)
    act(game, "P&L", "buy_shares", "company", shares=["RP_0"], percent=40)
    return game


def test_exchange_offered_with_the_president_certificate():
    game = position(GAME, 167)
    entries = [e for e in game.legal_actions() if e["entity"] == "P&L"]
    assert entries and {"shares": ["RP_0"], "percent": 40, "president": True} in entries[0]["exchange"]


def test_exchanging_a_private_for_a_presidency():
    game = exchange_pl_for_rp()
    rp = corp(game, "RP")
    assert rp.owner is named(game, "Player 1") and rp.share_price.price == 110 and rp.cash == 110
    assert company(game, "P&L").owner is rp and minor(game, "P&L").closed
    assert rp.floated() and rp.type == "5-share"


def test_exchange_rejections():
    game = position(GAME, 167)
    assert "president's certificate" in rejected(game, "P&L", "buy_shares", "company", shares=["RP_1"], percent=20)
    assert "can only be exchanged for one" in rejected(game, "P&L", "buy_shares", "company",
                                                       shares=["RP_0", "RP_1"], percent=60)
    assert "not Madrid and Valladolid Railway's turn" in rejected(game, "M&V", "buy_shares", "company",
                                                                   shares=["A_0"], percent=40)


def test_a_private_railway_is_exchanged_while_an_auction_waits_for_its_owner():
    """SR 2 of a game played on 18xx.games: Player 4 put SJ&C up for auction and the bid is Player
    1's; Player 1 may first trade his Castejón and Bilbao for a presidency (as the reference's
    Exchange step allows whatever the auction), then bid on. A private of a player the game does not
    wait for stays where it is."""
    game = position("1858/rand_1858_42_5p", 83)
    assert game.acting_players() == [1]
    entries = {e["entity"]: e for e in game.legal_actions()}
    assert entries[1]["types"] == ["bid", "pass"]
    assert {"shares": ["RP_0"], "percent": 40, "president": True} in entries["C&B"]["exchange"]
    assert "L&C" not in entries                                    # Player 3's: not waited for
    assert "not Lisbon and Carregado Railway's turn" in rejected(game, "L&C", "buy_shares", "company",
                                                                 shares=["RP_0"], percent=40)
    act(game, "C&B", "buy_shares", "company", shares=["RP_0"], percent=40)
    assert corp(game, "RP").owner is player(game, 1) and company(game, "C&B").owner is corp(game, "RP")
    assert legal(game, "RP")["types"] == ["place_token"]          # RP's home token first
    act(game, "RP", "place_token", city="6-0-0", slot=0)
    assert legal(game)["types"] == ["bid", "pass"]                # then the auction goes on
    assert game.state.round.active_step().auctioning is company(game, "SJ&C")


def test_the_home_token_goes_to_the_private_s_reserved_city():
    game = exchange_pl_for_rp()
    assert game.acting_players() == [named(game, "Player 1").id]
    entries = {e["entity"]: e for e in game.legal_actions()}
    assert entries["RP"]["types"] == ["place_token"]               # no passing: it has no token yet
    assert [c["hex"] for c in entries["RP"]["cities"]] == ["B9"]
    assert "cannot place a token" in rejected(game, "RP", "place_token", city="A14-0-0")
    act(game, "RP", "place_token", city="621-0-0")
    assert [t.hex.id for t in corp(game, "RP").placed_tokens()] == ["B9"]
    assert corp(game, "RP").cash == 110                            # a private's token is free


def test_converting_a_five_share_company():
    game = position(GAME, 432)
    tbf = corp(game, "TBF")
    owner = tbf.owner
    assert tbf.type == "5-share" and "convert" in legal(game)["types"]
    act(game, "TBF", "convert")
    assert tbf.type == "10-share" and tbf.total_shares == 10 and tbf.presidents_share.percent == 20
    assert owner.percent_of(tbf) + tbf.percent_of(tbf) + game.state.share_pool.percent_of(tbf) + \
        sum(p.percent_of(tbf) for p in game.state.players if p is not owner) == 100
    assert sorted(s.index for s in tbf.shares_of(tbf))[-5:] == [4, 5, 6, 7, 8]
    assert "convert" in rejected(game, "TBF", "convert")              # 10-share now: nothing to convert


def test_quick_start_deals_packets_and_begins_with_an_operating_round():
    game = new_1858(rules=("quick_start_a",))
    assert game.round_label == "OR 1.1"
    packets = game.state.facts["quick_start_packets_a"]["4"]
    dealt = sorted(sorted(c.id for c in p.companies) for p in game.state.players)
    assert dealt == sorted(sorted(p["companies"]) for p in packets)
    for p in game.state.players:
        packet = next(x for x in packets if sorted(x["companies"]) == sorted(c.id for c in p.companies))
        assert p.cash == 375 - packet["cost"] + sum(c.revenue for c in p.companies)
    assert all(minor(game, c.id).floated() for p in game.state.players for c in p.companies if c.id != "H&G")


def test_quick_start_packets_follow_the_seed():
    a = engine.new_game("1858", PLAYERS4, seed=7, optional_rules=["quick_start_b"])
    b = engine.new_game("1858", PLAYERS4, seed=7, optional_rules=["quick_start_b"])
    c = engine.new_game("1858", PLAYERS4, seed=8, optional_rules=["quick_start_b"])
    held = [[[x.id for x in p.companies] for p in g.state.players] for g in (a, b, c)]
    assert held[0] == held[1] and held[0] != held[2]
