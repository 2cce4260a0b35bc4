"""Tournaments: created on the log, games added by the organiser, standings from the games."""

import grpc
import pytest
from rh_support import InProcess, engine_prefix, free_port, gateway_stub, load_fixture

from contracts.v1 import gateway_pb2 as gw
from runtime.client import Replayer
from runtime.config import Settings

pytestmark = pytest.mark.timeout(300)


def test_tournament_standings_follow_the_games(tmp_path):
    export = load_fixture("hotseat004.json")
    k, oracle, error = engine_prefix(export)
    if k < 2:
        pytest.skip(f"the engine accepts only {k} actions of this game so far: {error}")
    settings = Settings(data_dir=tmp_path, port=free_port(), metrics_port=0)
    platform = InProcess(settings)
    try:
        stub = gateway_stub(platform.address)
        t = stub.CreateTournament(gw.CreateTournamentRequest(name="Club night"))
        games = []
        for _ in range(2):
            r = Replayer(stub, export)
            r.create()
            games.append(r)
            stub.AddGame(gw.AddGameRequest(tournament_id=t.tournament_id, game_id=r.game_id, token=t.operator_token))
        games[0].run(k)
        table = stub.GetStandings(gw.GetStandingsRequest(tournament_id=t.tournament_id))
        assert table.name == "Club night" and list(table.game_ids) == [g.game_id for g in games]
        names = [p["name"] for p in export["players"]]
        assert sorted(row.player for row in table.rows) == sorted(names)
        values = oracle.player_values()
        ids = {p["name"]: str(p.get("id", p["name"])) for p in export["players"]}
        fresh = engine_prefix({**export, "actions": []})[1].player_values()
        for row in table.rows:
            assert row.games == 2
            if error is not None:  # both unfinished: live worth of the played game plus the new one
                assert row.live_value == values[ids[row.player]] + fresh[ids[row.player]]
                assert row.finished == 0 and row.points == 0
            else:
                assert row.finished == 1
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
    finally:
        platform.close()
    # the tournament is on the log: a restarted platform has it
    platform = InProcess(settings)
    try:
        again = gateway_stub(platform.address).GetStandings(gw.GetStandingsRequest(tournament_id=t.tournament_id))
        assert list(again.game_ids) == list(table.game_ids) and again.rows == table.rows
    finally:
        platform.close()
