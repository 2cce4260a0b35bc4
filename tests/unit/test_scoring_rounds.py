"""Scoring publishes ScoreUpdated records in rounds: every `score_interval_s`, one record for each
game whose values moved since its last one, appended together; a game over publishes at once."""

import asyncio
from types import SimpleNamespace

from services.scoring import Scoring


class FakeWorker:
    def __init__(self, games):
        self.games = games
        self.appended = []   # (round, game id, body kind)
        self.round = 0

    async def emit(self, led, body, **_):
        self.appended.append((self.round, led.game_id, type(body).__name__))


def ledger(game_id, seq, finished=False):
    created = SimpleNamespace(tournament_id="", tournament_round=0)
    return SimpleNamespace(game_id=game_id, seq=seq, score_seq=0, values={"1": 100 + seq}, finished=finished,
                           finished_published=False, result={"1": 1} if finished else {}, game_end_reason="bank",
                           created=created, clock=None, notices=None)


def applied():
    return SimpleNamespace(WhichOneof=lambda _: "action_applied")


def test_score_records_go_out_in_rounds_and_a_finished_game_at_once(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr("services.scoring.time.monotonic", lambda: clock[0])

    async def main():
        scoring = Scoring(1.0)
        games = {g: ledger(g, 1) for g in ("a", "b", "c")}
        worker = FakeWorker(games)

        async def moved(g, finished=False):
            games[g] = ledger(g, games[g].seq + 1, finished)
            await scoring.on_record(worker, games[g], applied(), "applied", True)
            await scoring.on_batch(worker)

        await moved("a")                           # the first move: a round at once
        assert worker.appended == [(0, "a", "ScoreUpdated")]
        worker.round = 1
        clock[0] += 0.3
        for g in ("a", "b", "c", "b"):            # within the interval: nothing yet
            await moved(g)
        assert len(worker.appended) == 1
        clock[0] += 0.2
        await moved("c", finished=True)            # a game over: its records at once, alone
        assert sorted(worker.appended[1:]) == [(1, "c", "GameFinished"), (1, "c", "ScoreUpdated")]
        worker.round = 2
        clock[0] += 0.6                            # the interval has passed: one round, every game due
        await scoring.on_tick(worker)
        assert sorted(worker.appended[3:]) == [(2, "a", "ScoreUpdated"), (2, "b", "ScoreUpdated")]
        worker.round = 3
        clock[0] += 5.0
        await scoring.on_tick(worker)              # nothing moved since: nothing
        assert len(worker.appended) == 5

    asyncio.run(main())
