"""What a scoring instance leaves behind when another takes its partitions over (embedded log).

- Ratings: two raters at once (the platform's own and a second scoring worker on the `ratings`
  partition, as during a rebalance), then the second one losing the partition, then an append that
  fails: every reader ends with the same book, the book of the log (each game's first GameRated in
  log order), and a rater that lost the partition keeps no book.
- Notices: a "your turn" webhook still being retried when the platform stops (its game's ledger in a
  snapshot by then, so the restarted scoring does not read the turn's start again) is sent by the
  restarted platform, its end is recorded on the game's log, and a notice that ended is not sent
  again by the next restart.

The same takeovers across processes on Kafka (a scoring instance killed with SIGKILL) are in
tests/integration/test_kafka_tournament.py.
"""

from __future__ import annotations

import asyncio

import time

import pytest
from rh_support import HookReceiver, InProcess, Platform, RandomTable, free_port, host_table, wait_until

from bus.base import partition_for
from contracts import tournament as tc
from contracts.envelopes import parse
from contracts.v1 import gateway_pb2 as gw
from runtime.config import Settings
from runtime.worker import Worker
from services.scoring import Scoring
from tournament import RatingBook, RatingRequested
from tournament.notify import verify

pytestmark = pytest.mark.timeout(300)

PLAYERS = ("ann", "bob", "cid", "dan", "eve")


def request(n: int) -> RatingRequested:
    """Game n's request: four of the five players, placed in an order that changes with n."""
    seated = [PLAYERS[(n + i) % 5] for i in range(4)]
    return RatingRequested(game_id=f"g{n}", title="1856", at_ms=n, places={p: i + 1 for i, p in enumerate(seated)})


class Ratings:
    """The platform's log seen through its ratings' records."""

    def __init__(self, proc: InProcess):
        self.proc = proc
        self.log = proc.running.log
        self.topic = proc.running.workers[0].settings.games_topic
        self.partition = partition_for(tc.RATINGS_KEY, self.log.partitions)

    def ask(self, *games: int) -> None:
        for n in games:
            env = tc.to_envelope(request(n), key=tc.RATINGS_KEY, producer="scoring/test")
            self.proc.call(self.log.append(self.topic, tc.RATINGS_KEY, env.SerializeToString()))

    def records(self) -> list:
        """Every ratings record in the log (RatingRequested, GameRated), in log order."""
        records = self.proc.call(self.log.read_key(self.topic, self.partition, tc.RATINGS_KEY))
        return [tc.from_envelope(parse(r.value, r.key)) for r in records]

    def gateway_book(self) -> RatingBook:
        return self.proc.workers["gateway"].hooks.book


def test_two_raters_then_one_then_a_failed_append_leave_every_book_the_logs(tmp_path):
    proc = InProcess(Settings(data_dir=tmp_path, port=free_port(), metrics_port=0, web_port=0))
    try:
        ratings = Ratings(proc)
        scoring = proc.workers["scoring"]
        gateway_book = ratings.gateway_book

        # a second rater on the ratings partition, as while a rebalance has two instances believe it theirs
        async def second_rater():
            worker = Worker("scoring", scoring.settings, ratings.log, Scoring(1.0), group="scoring-second",
                            partitions=[ratings.partition])
            return worker, asyncio.create_task(worker.run())

        other, other_task = proc.call(second_rater())
        assert wait_until(lambda: proc.inspect(lambda: other.hooks.feed is not None), 30)
        ratings.ask(*range(1, 7))
        assert wait_until(lambda: len(proc.inspect(lambda: gateway_book().rated_games)) == 6, 60)
        assert wait_until(lambda: proc.inspect(lambda: other.hooks.feed.book.rated_games) == {f"g{n}" for n in
                                                                                             range(1, 7)}, 30)

        # the second rater loses the partition: it keeps no book to answer from
        async def lose():
            other.stop()
            await other_task
        proc.call(lose())
        assert other.hooks.feed is None

        # the remaining rater's first append fails: it answers again, and goes on
        failures = []

        def failing_once(append):
            async def append_or_fail(env):
                if env.WhichOneof("body") == "ratings_event" and not failures:
                    failures.append(env.ratings_event.rated.game_id)
                    raise ConnectionError("the log did not answer")
                return await append(env)
            return append_or_fail

        proc.inspect(lambda: setattr(scoring, "append", failing_once(scoring.append)))
        ratings.ask(7, 8, 9)
        assert wait_until(lambda: len(proc.inspect(lambda: gateway_book().rated_games)) == 9, 60)
        assert failures == ["g7"]

        # the log's book: each game rated from the ratings before it, in request order; the first
        # GameRated of a game in the log is the one every reader keeps
        expected = RatingBook()
        requests, first = {}, {}
        for event in ratings.records():
            (requests if isinstance(event, RatingRequested) else first).setdefault(event.game_id, event)
        assert list(requests) == list(first) == [f"g{n}" for n in range(1, 10)]
        for game_id, r in requests.items():
            assert r.places == request(int(game_id[1:])).places
            computed = expected.rate(game_id, r.title, r.places, first[game_id].at_ms)
            assert computed == first[game_id]
            expected.apply(computed)
        assert wait_until(lambda: proc.inspect(lambda: scoring.hooks.feed.book.rated_games) == expected.rated_games, 30)
        for book in (gateway_book(), proc.inspect(lambda: scoring.hooks.feed.book)):
            assert book.ratings == expected.ratings and book.history == expected.history
    finally:
        proc.close()


# ------------------------------------------------------------------------- notices


def ended_notices(envs) -> dict[str, tuple[int, str]]:
    """delivery id -> (status, producer) of each TurnNotified of a game's records."""
    return {e.turn_notified.delivery: (e.turn_notified.status, e.producer)
            for e in envs if e.WhichOneof("body") == "turn_notified"}


def test_a_notice_being_retried_at_a_restart_is_sent_after_it(tmp_path):
    hooks = HookReceiver()
    hooks.refusing.set()
    p = Platform(Settings(data_dir=tmp_path, port=free_port(), metrics_port=0, web_port=0, webhook_retry_first_s=0.1,
                        webhook_key="a test key of the platform", snapshot_idle_s=0.2))
    try:
        game, tokens, secrets = host_table(p.t, hooks.url, timed=True)
        first = p.g.GetGame(gw.GetGameRequest(game_id=game, without_legal_actions=True)).acting_players[0]
        delivery = f"{game}:0:{first}"
        assert wait_until(lambda: hooks.tried(delivery) >= 2, 30), "the notice is being retried"
        # the game's ledger is in a snapshot: the restarted scoring starts after the turn's start
        scoring = p.proc.workers["scoring"]
        assert wait_until(lambda: p.proc.inspect(lambda: scoring.games[game].dirty_since is None), 30)
        p.restart(meanwhile=hooks.refusing.clear)
        assert wait_until(lambda: hooks.delivered(delivery), 30), "the restarted platform sends it"
        body, signature = hooks.delivered(delivery)[0]
        payload = verify(secrets[first], body, signature, int(time.time()))
        assert (payload["delivery"], payload["player_id"], payload["seq"]) == (delivery, first, 0)
        assert 0 < payload["remaining_ms"] <= 3_600_000 and payload["deadline_ms"] > payload["as_of_ms"]
        assert wait_until(lambda: ended_notices(p.proc.records(game)).get(delivery, (0,))[0] == 200, 30)

        # the next turns: each told once; a notice that ended is not sent again after a restart
        table = RandomTable(p, game, tokens, seed=3)
        acting, seen = {first}, {delivery}

        def move() -> set[str]:
            """One move; the deliveries of the turns it begins, once they arrived."""
            nonlocal acting
            table.step(p)
            now = set(p.g.GetGame(gw.GetGameRequest(game_id=game, without_legal_actions=True)).acting_players)
            begun = {f"{game}:{table.local.seq}:{seat}" for seat in now - acting}
            acting = now
            assert begun, "the move passed the turn"
            assert wait_until(lambda: all(hooks.delivered(d) for d in begun), 30)
            return begun

        for _ in range(2):
            begun = move()
            seen |= begun
            assert wait_until(lambda: set(ended_notices(p.proc.records(game))) >= begun, 30)
            p.restart()
        move()    # read once the last restart's scoring is live, after anything it would send again
        assert all(len(hooks.delivered(d)) == 1 for d in seen), "no notice that ended was sent again"
    finally:
        p.close()
        hooks.close()
