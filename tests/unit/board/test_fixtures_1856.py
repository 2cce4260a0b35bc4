"""Every run_routes of the recorded 1856 games, on the position the reference trace shows just before
it: the recorded routes are legal and worth exactly their recorded revenue, and the best-route search
finds at least as much."""

from __future__ import annotations
import pytest

from tools import evidence

from .support import build_position, fixture_names, positions_1856

NAMES = fixture_names("1856")


def test_the_recorded_1856_games_are_there():
    assert len(NAMES) >= 6, f"recorded 1856 games missing from {evidence.EVIDENCE / 'fixtures' / '1856'}"


@pytest.mark.parametrize("name", NAMES)
def test_recorded_routes_and_best_routes(name):
    header, positions = positions_1856(name)
    for i, action, line, state, rights, port in positions:
        game, board, corps = build_position(state, rights, port, header["optional_rules"])
        corp = corps[action["entity"]]
        # the trace lists the corporation's bonus rights: our reconstruction must agree
        held = (state["corps"][corp.id].get("abilities") or []).count("hex_bonus")
        assert held == sum(1 for a in corp.all_abilities if a.type == "hex_bonus"), f"action {i}"
        routes = board.build_routes(corp, action["routes"], game.phase, strict=True)
        for route, raw, traced in zip(routes, action["routes"], line["routes"]):
            assert route.revenue == raw["revenue"] == traced["calc"], f"action {i} train {raw['train']}"
            assert sorted(h.id for h in route.hexes) == sorted(raw["hexes"]), f"action {i}"
            assert route.train.id == raw["train"]
        recorded = sum(r["revenue"] for r in action["routes"])
        best = board.best_routes(corp, None, game.phase)
        assert all(r.error is None for r in best)
        assert sum(r.revenue for r in best) >= recorded, f"action {i}"
        # what the search returns is itself a valid run_routes action
        again = board.build_routes(corp, [r.to_json() for r in best], game.phase, strict=True)
        assert [r.revenue for r in again] == [r.revenue for r in best]


def test_every_recorded_route_is_checked():
    count = sum(len(positions_1856(name)[1]) for name in NAMES)
    assert count >= 60


@pytest.mark.parametrize("name", NAMES)
def test_recorded_tile_lays_and_tokens_are_legal(name):
    """On the position before each recorded lay_tile / place_token, our rules accept it: the tile is
    in the supply and may replace the old one at that rotation for that company (its network reaches
    a new exit), the track restriction holds, and a token goes into a connected, tokenable city."""
    from .support import read_trace
    fixture = evidence.load_game("1856", name)
    header, steps = read_trace(evidence.trace_path("1856", name))
    prev = header["state"]
    checked = 0
    for i, (line, state) in enumerate(steps):
        action = fixture["actions"][i]
        if line.get("skip") or action["type"] not in ("lay_tile", "place_token"):
            prev = state
            continue
        game, board, corps = build_position(prev, optional_rules=header["optional_rules"])
        corp = corps.get(action["entity"])          # None: a private company's special lay
        if action["type"] == "lay_tile":
            hex_, tile = board.hex_by_id(action["hex"]), board.tile_by_id(action["tile"])
            board.check_lay(corp, hex_, tile, action["rotation"], special=corp is None, reach=corp is not None)
            old = board.lay_tile(hex_, tile, action["rotation"])
            if corp is not None:
                board.check_track_restrictions(corp, old, tile)
        else:
            city = board.city_by_id(action["city"])
            chosen = any("must choose city for token" in m for m in steps[i - 1][0].get("log") or ())
            if corp is None:                        # a company's own token (no connection needed)
                assert None in city.tokens, f"action {i}"
            elif not chosen:                        # a displaced token being put back is not a new token
                assert city in board.connected_nodes(corp), f"action {i}"
                assert board.token_problem(corp, city, free=True) is None, f"action {i}"
        checked += 1
        prev = state
    assert checked or name == "move_up_price_sr1"
