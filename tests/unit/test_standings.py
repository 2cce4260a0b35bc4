"""Rank points of tournament standings, from the games' ledgers (no engine)."""

from contracts.v1 import log_pb2
from runtime.ledger import Ledger
from services.gateway.tournaments import standings


def finished(game_id, result, names):
    created = log_pb2.GameCreated(players=[log_pb2.Player(id=p, name=names[p]) for p in result])
    return Ledger(game_id, 0, created, 0, seq=1, round_kind="operating_round", round_label="OR 1.1",
                  finished=True, game_end_reason="bank", result=result)


def test_points_count_beaten_players_and_half_ties():
    names = {"1": "Ann", "2": "Bob", "3": "Cid"}
    table = standings("t", "T", [
        finished("g1", {"1": 900, "2": 800, "3": 800}, names),
        finished("g2", {"1": 500, "2": 700, "3": 600}, names),
    ])
    rows = {r.player: r for r in table.rows}
    assert rows["Ann"].points == 2 + 0 and rows["Bob"].points == 0.5 + 2 and rows["Cid"].points == 0.5 + 1
    assert [r.player for r in table.rows] == ["Bob", "Ann", "Cid"]  # 2.5 (1500), 2.0 (1400), 1.5
    assert rows["Ann"].total_score == 1400 and rows["Ann"].finished == 2 and rows["Ann"].games == 2
