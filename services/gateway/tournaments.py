"""Tournament standings: a projection of the games' results in the gateway's read model."""

from __future__ import annotations

from collections import defaultdict

from contracts.v1 import gateway_pb2 as gw
from runtime.ledger import Ledger


def standings(tournament_id: str, name: str, games: list[Ledger]) -> gw.Standings:
    """Rank points per finished game: players with a lower final score count 1, ties 1/2."""
    rows: dict[str, dict] = defaultdict(lambda: {"games": 0, "finished": 0, "points": 0.0, "total": 0, "live": 0})
    for led in games:
        names = {p.id: p.name for p in led.created.players}
        if led.finished:  # results and live values come from the ledger
            result = led.result
            for pid, score in result.items():
                row = rows[names.get(pid, pid)]
                row["finished"] += 1
                row["total"] += score
                row["points"] += sum(1.0 if s < score else 0.5 for q, s in result.items() if q != pid and s <= score)
        else:
            for pid, value in led.values.items():
                rows[names.get(pid, pid)]["live"] += value
        for p in led.created.players:
            rows[p.name]["games"] += 1
    ordered = sorted(rows.items(), key=lambda kv: (-kv[1]["points"], -kv[1]["total"], kv[0]))
    return gw.Standings(
        tournament_id=tournament_id,
        name=name,
        game_ids=[g.game_id for g in games],
        rows=[
            gw.Standing(player=player, games=r["games"], finished=r["finished"], points=r["points"],
                        total_score=r["total"], live_value=r["live"])
            for player, r in ordered
        ],
    )
