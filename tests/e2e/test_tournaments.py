"""Tournaments: created on the log, games added by the organiser, standings from the games."""

import grpc
import pytest
from rh_support import InProcess, LiveGame, free_port, gateway_stub

from contracts.v1 import gateway_pb2 as gw
from runtime.config import Settings

pytestmark = pytest.mark.timeout(300)


def test_tournament_standings_follow_the_games(tmp_path):
    import engine

    settings = Settings(data_dir=tmp_path, port=free_port(), metrics_port=0)
    platform = InProcess(settings)
    try:
        t = gateway_stub(platform.address).CreateTournament(gw.CreateTournamentRequest(name="Club night"))
        games = [LiveGame(platform.address) for _ in range(2)]
        stub = games[0].gateway
        for g in games:
            stub.AddGame(gw.AddGameRequest(tournament_id=t.tournament_id, game_id=g.game_id, token=t.operator_token,
                                           game_operator_token=g.operator))
        for _ in range(3):
            games[0].step()
        table = stub.GetStandings(gw.GetStandingsRequest(tournament_id=t.tournament_id))
        assert table.name == "Club night" and list(table.game_ids) == [g.game_id for g in games]
        assert sorted(row.player for row in table.rows) == sorted(LiveGame.SEATS)
        # live worth in unfinished games: the engine's values after the same moves, plus a new game
        played = engine.new_game("1856", list(LiveGame.SEATS), seed=7)
        for a in games[0].played:
            played.process(a)
        fresh = engine.new_game("1856", list(LiveGame.SEATS), seed=7)
        for row in table.rows:
            assert row.games == 2 and row.finished == 0 and row.points == 0
            assert row.live_value == played.player_values()[row.player] + fresh.player_values()[row.player]
        # bad input
        with pytest.raises(grpc.RpcError) as denied:
            stub.AddGame(gw.AddGameRequest(tournament_id=t.tournament_id, game_id=games[0].game_id, token="x"))
        assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
        with pytest.raises(grpc.RpcError) as missing:
            stub.GetStandings(gw.GetStandingsRequest(tournament_id="nope"))
        assert missing.value.code() == grpc.StatusCode.NOT_FOUND
        with pytest.raises(grpc.RpcError) as unknown_game:
            stub.AddGame(gw.AddGameRequest(tournament_id=t.tournament_id, game_id="nope", token=t.operator_token))
        assert unknown_game.value.code() == grpc.StatusCode.NOT_FOUND
        with pytest.raises(grpc.RpcError) as twice:
            stub.AddGame(gw.AddGameRequest(tournament_id=t.tournament_id, game_id=games[0].game_id, token=t.operator_token))
        assert twice.value.code() == grpc.StatusCode.ALREADY_EXISTS and "already in tournament" in twice.value.details()
        with pytest.raises(grpc.RpcError) as taken:   # a game may not take a tournament's id
            stub.CreateGame(gw.CreateGameRequest(title="1856", game_id=t.tournament_id,
                                                 seats=[gw.Seat(name=n) for n in LiveGame.SEATS]))
        assert taken.value.code() == grpc.StatusCode.ALREADY_EXISTS
        assert list(stub.GetStandings(gw.GetStandingsRequest(tournament_id=t.tournament_id)).game_ids) == list(table.game_ids)
    finally:
        platform.close()
    # the tournament is on the log: a restarted platform has it
    platform = InProcess(settings)
    try:
        again = gateway_stub(platform.address).GetStandings(gw.GetStandingsRequest(tournament_id=t.tournament_id))
        assert list(again.game_ids) == list(table.game_ids) and again.rows == table.rows
    finally:
        platform.close()
