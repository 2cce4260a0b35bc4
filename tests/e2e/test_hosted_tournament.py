"""Hosted tournaments through the gateway's Tournaments service, on the embedded platform.

The big test plays a 3-round tournament of 16 players of 1856 to the end with random legal moves (a
local engine per table picks them and must agree with the platform's result), with a withdrawal
after round 1, a flag fall in round 2 and a restart of the platform in the middle of round 2. It
checks the seatings, and the standings (points, share, head-to-head, ranks) and the ratings
(openskill Plackett-Luce) against values computed here from the tables' results alone.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections import defaultdict
from fractions import Fraction
from http.server import BaseHTTPRequestHandler, HTTPServer

import grpc
import pytest
from rh_support import LOGS, Platform, RandomTable, free_port, platform_settings, wait_until

from contracts.actions import action_from_json
from contracts.v1 import gateway_pb2 as gw
from contracts.v1 import tournament_api_pb2 as api
from contracts.v1 import tournament_pb2 as pb
from runtime.config import Settings

pytestmark = pytest.mark.timeout(900)


def settings_for(tmp_path, **extra) -> Settings:
    return Settings(data_dir=tmp_path, port=free_port(), metrics_port=0, web_port=0, **extra)


def host(p: Platform, players: int, **settings) -> tuple[str, str, dict[str, str]]:
    h = p.t.HostTournament(api.HostTournamentRequest(name="Spring cup", settings=pb.TournamentSettings(**settings)))
    tokens = {}
    for i in range(players):
        r = p.t.Register(api.RegisterRequest(tournament_id=h.tournament_id, name=f"Player {i + 1:02d}"))
        tokens[r.player_id] = r.player_token
    return h.tournament_id, h.organiser_token, tokens


# ------------------------------------------------------------------------- computed here


def points_and_shares(seats, scores, forfeited, table_size):
    """Rank points (1 per seat beaten, 1/2 per tie; a forfeited seat is beaten by every other, and
    forfeits compare by score), scaled to a table of `table_size`; share of the table's total."""
    def beats(a, b):
        fa, fb = a in forfeited, b in forfeited
        if fa != fb:
            return Fraction(int(fb))
        return Fraction(1) if scores[a] > scores[b] else Fraction(1, 2) if scores[a] == scores[b] else Fraction(0)
    scale = Fraction(table_size - 1, len(seats) - 1)
    total = sum(scores.values())
    points = {a: scale * sum(beats(a, b) for b in seats if b != a) for a in seats}
    shares = {a: Fraction(scores[a], total) if total > 0 else Fraction(1, len(seats)) for a in seats}
    h2h = {a: {b: beats(a, b) for b in seats if b != a} for a in seats}
    return points, shares, h2h


def expected_standings(tables, players, table_size):
    """[(rank, player id)] from the tables' results: points, then share, then head-to-head among
    the players tied on both; equal on all three share a rank."""
    points, shares = defaultdict(Fraction), defaultdict(Fraction)
    h2h = defaultdict(lambda: defaultdict(Fraction))
    for seats, scores, forfeited in tables:
        pts, sh, hh = points_and_shares(seats, scores, forfeited, table_size)
        for a in seats:
            points[a] += pts[a]
            shares[a] += sh[a]
            for b, v in hh[a].items():
                h2h[a][b] += v
    by_first = defaultdict(list)
    for pid in players:
        by_first[(points[pid], shares[pid])].append(pid)
    order = []
    for key in sorted(by_first, reverse=True):
        group = by_first[key]
        head = {a: sum(h2h[a][b] for b in group if b != a) for a in group}
        for a in sorted(group, key=lambda a: (-head[a], players[a])):
            order.append((key, head[a], a))
    ranked = []
    for i, (key, head, a) in enumerate(order):
        same = i and (order[i - 1][0], order[i - 1][1]) == (key, head)
        ranked.append((ranked[-1][0] if same else i + 1, a))
    return ranked, points, shares


def expected_ratings(games, names):
    """Each player's ordinal per scope after rating the games in order, with openskill directly."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    book = {}
    for seats, scores, forfeited in games:
        order = sorted(seats, key=lambda a: (a in forfeited, -scores[a]))
        place = {}
        for i, a in enumerate(order):
            prev = order[i - 1] if i else None
            same = prev is not None and (prev in forfeited, scores[prev]) == (a in forfeited, scores[a])
            place[a] = place[prev] if same else i + 1
        for scope in ("1856", "overall"):
            teams = [[book.get((scope, names[a]), model.rating())] for a in seats]
            rated = model.rate(teams, ranks=[float(place[a]) for a in seats])
            for a, (r,) in zip(seats, rated):
                book[(scope, names[a])] = r
    return {key: r.mu - 3 * r.sigma for key, r in book.items()}


# ------------------------------------------------------------------------- the tournament


def play_tournament(p: Platform, players: int, tables: tuple[int, ...], *, no_repeats: bool) -> None:
    """A rated, timed tournament of `players` players of 1856 at tables of 4 (3 allowed), played to
    the end with random legal moves, `tables[r]` tables in round r + 1: p7 withdraws after round 1; in
    round 2 the first table's acting seat loses its time (a flag fall) and the platform restarts in
    the middle of the second table's game. Checked: the seatings (every active player once, allowed
    sizes, and no repeat opponents if `no_repeats`), the standings (points, share, head-to-head,
    ranks), the ratings, the exports, and that a restarted platform rebuilds them all."""
    rounds = len(tables)
    tid, org, tokens = host(p, players, title="1856", table_size=4, min_table_size=3, rounds=rounds, rated=True,
                            time_control=pb.TimeControl(base_ms=3_600_000, increment_ms=1000),
                            flag_policy=pb.FLAG_END_GAME)
    names = {pid: f"player {int(pid[1:]):02d}" for pid in tokens}
    p.t.SetRegistration(api.SetRegistrationRequest(tournament_id=tid, token=org, open=False))
    played = []          # (seats, scores, forfeited) of each table, in the order they finished
    met = defaultdict(set)
    for rnd in range(1, rounds + 1):
        if rnd == 2:     # a withdrawal between rounds
            p.t.Withdraw(api.WithdrawRequest(tournament_id=tid, token=tokens["p7"], reason="train home"))
        seated = p.t.SeatRound(api.SeatRoundRequest(tournament_id=tid, token=org, seed=100 + rnd))
        active = sorted(set(tokens) - ({"p7"} if rnd > 1 else set()))
        seats = [list(t.player_ids) for t in seated.tables]
        assert sorted(x for s in seats for x in s) == active, "every active player seated once"
        assert all(3 <= len(s) <= 4 for s in seats) and len(seats) == tables[rnd - 1]
        for s in seats:
            assert not no_repeats or not any(b in met[a] for a in s for b in s if b != a), "no repeat opponents"
        for s in seats:
            for a in s:
                met[a].update(b for b in s if b != a)
        if rnd == 2:     # re-seat before the start: the same seed seats the same way
            again = p.t.SeatRound(api.SeatRoundRequest(tournament_id=tid, token=org, seed=100 + rnd))
            assert [list(t.player_ids) for t in again.tables] == seats
        started = p.t.StartRound(api.StartRoundRequest(tournament_id=tid, token=org, round=rnd))
        for i, t in enumerate(started.tables):
            table = RandomTable(p, t.game_id, tokens, seed=rnd * 10 + i)
            forfeited = ()
            if rnd == 2 and i == 0:   # a flag fall: the organiser takes the acting seat's time away
                for _ in range(20):
                    table.step(p)
                clocks = p.t.GetClocks(api.GetClocksRequest(game_id=t.game_id))
                seat = next(c for c in clocks.seats if c.running)
                p.t.AdjustClock(api.AdjustClockRequest(tournament_id=tid, token=org, game_id=t.game_id,
                                                       seat=seat.seat, delta_ms=-seat.remaining_ms - 1))
                assert wait_until(lambda: p.g.GetGame(gw.GetGameRequest(
                    game_id=t.game_id, without_legal_actions=True)).finished, 30), "the flag ended the game"
                forfeited = (seat.seat,)
                table.local.process({"type": "end_game", "entity": seat.seat, "entity_type": "player"})
            else:
                if rnd == 2 and i == 1:
                    for _ in range(30):
                        table.step(p)
                    p.restart()   # the platform stops and starts again mid-game
                while table.step(p):
                    pass
            view = p.g.GetGame(gw.GetGameRequest(game_id=t.game_id, without_legal_actions=True))
            assert view.finished and dict(view.result) == {str(k): v for k, v in table.local.result.items()}
            played.append((table.seats, dict(view.result), forfeited))
            assert wait_until(lambda: t.game_id in {h.game_id for h in p.t.GetRatings(
                api.GetRatingsRequest(scope="1856", player=names[table.seats[0]])).history}, 30)
        done = p.t.GetTournament(api.GetTournamentRequest(tournament_id=tid))
        assert done.status == ("finished" if rnd == rounds else "between_rounds")
    ids = {pid: f"Player {int(pid[1:]):02d}" for pid in tokens}
    ranked, points, shares = expected_standings(played, ids, 4)
    table = p.t.GetTournamentStandings(api.GetTournamentStandingsRequest(tournament_id=tid))
    assert table.final and not table.live
    assert [(r.rank, r.player_id) for r in table.rows] == ranked
    ratings = expected_ratings(played, names)
    for row in table.rows:
        assert row.points == pytest.approx(float(points[row.player_id]))
        assert row.share == pytest.approx(float(shares[row.player_id]))
        assert row.rating == pytest.approx(ratings[("1856", names[row.player_id])], abs=1e-9)
        assert row.withdrawn == (row.player_id == "p7")
    forfeits = [x for r in table.rows for x in r.rounds if x.forfeited]
    assert len(forfeits) == 1 and forfeits[0].round == 2
    overall = p.t.GetRatings(api.GetRatingsRequest(scope="overall"))
    assert {r.player: r.ordinal for r in overall.rows} == pytest.approx(
        {n: v for (s, n), v in ratings.items() if s == "overall"}, abs=1e-9)
    csv = p.t.ExportStandings(api.ExportStandingsRequest(
        standings=api.GetTournamentStandingsRequest(tournament_id=tid), format=api.STANDINGS_CSV))
    lines = csv.document.decode().splitlines()
    assert len(lines) == players + 1 and lines[1].split(",")[1] == ranked[0][1]
    exported = json.loads(p.t.ExportStandings(api.ExportStandingsRequest(
        standings=api.GetTournamentStandingsRequest(tournament_id=tid), format=api.STANDINGS_JSON)).document)
    assert [r["player_id"] for r in exported["rows"]] == [pid for _, pid in ranked]
    # a restarted platform rebuilds the same tournament, standings and ratings from the log
    p.restart()
    assert p.t.GetTournamentStandings(api.GetTournamentStandingsRequest(tournament_id=tid)) == table
    assert p.t.GetRatings(api.GetRatingsRequest(scope="overall")) == overall


@pytest.mark.slow
def test_three_rounds_of_sixteen_to_the_end(tmp_path):
    p = Platform(settings_for(tmp_path))
    try:
        play_tournament(p, 16, (4, 4, 4), no_repeats=True)
    finally:
        p.close()


@pytest.mark.kafka
@pytest.mark.slow
def test_two_rounds_of_seven_over_kafka_restarted_mid_game(kafka_bootstrap, tmp_path):
    """The same on Kafka, shorter: 7 players (4 + 3, then 3 + 3 once p7 withdrew), so repeat
    opponents cannot all be avoided in round 2; the restart rejoins every consumer group."""
    p = Platform(settings_for(tmp_path, kafka=kafka_bootstrap, topic_prefix=f"t{uuid.uuid4().hex[:8]}."))
    try:
        play_tournament(p, 7, (2, 2), no_repeats=False)
    finally:
        p.close()


# ------------------------------------------------------------------------- webhooks, clocks, roles


class Receiver(BaseHTTPRequestHandler):
    """Answers the first delivery 503 (so it is retried), then 200; keeps what it got."""

    got: list = []
    attempts: dict = defaultdict(int)

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        delivery = self.headers["Roundhouse-Delivery"]
        type(self).attempts[delivery] += 1
        if type(self).attempts[delivery] == 1:
            self.send_response(503)
            self.end_headers()
            return
        type(self).got.append((body, self.headers["Roundhouse-Signature"]))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(params=LOGS)
def log_settings(request, tmp_path):
    """Settings of a platform on the embedded log, or on the Kafka broker (every record of a hosted
    tournament then goes through Kafka: the tournament's, the tables', clocks and webhooks)."""
    return lambda **extra: platform_settings(request, tmp_path, web_port=0, **extra)


def test_webhooks_signed_and_retried_clocks_paused(log_settings):
    import time

    from tournament.notify import verify

    Receiver.got, Receiver.attempts = [], defaultdict(int)
    server = HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    p = Platform(log_settings(webhook_retry_first_s=0.1, webhook_key="a test key of the platform"))
    try:
        h = p.t.HostTournament(api.HostTournamentRequest(name="Hooks", settings=pb.TournamentSettings(
            title="1856", table_size=3, min_table_size=3, rounds=1, rated=False,
            time_control=pb.TimeControl(base_ms=600_000))))
        secrets, tokens = {}, {}
        for n in ("Ann", "Bob", "Cid"):
            r = p.t.Register(api.RegisterRequest(tournament_id=h.tournament_id, name=n, webhook_url=url))
            secrets[r.player_id], tokens[r.player_id] = r.webhook_secret, r.player_token
        p.t.SetRegistration(api.SetRegistrationRequest(tournament_id=h.tournament_id, token=h.organiser_token))
        p.t.SeatRound(api.SeatRoundRequest(tournament_id=h.tournament_id, token=h.organiser_token, seed=1))
        rnd = p.t.StartRound(api.StartRoundRequest(tournament_id=h.tournament_id, token=h.organiser_token, round=1))
        game = rnd.tables[0].game_id
        first = p.g.GetGame(gw.GetGameRequest(game_id=game, without_legal_actions=True)).acting_players[0]
        assert wait_until(lambda: Receiver.got, 30), "the first seat is told it is its turn"
        body, signature = Receiver.got[0]
        payload = verify(secrets[first], body, signature, int(time.time()))
        assert (payload["event"], payload["game_id"], payload["player_id"]) == ("your_turn", game, first)
        assert 0 < payload["remaining_ms"] <= 600_000 and Receiver.attempts[payload["delivery"]] == 2
        with pytest.raises(Exception):
            verify(secrets[next(s for s in secrets if s != first)], body, signature, int(time.time()))
        # paused clocks: no seat may act
        paused = p.t.PauseClocks(api.ClockControlRequest(tournament_id=h.tournament_id, token=h.organiser_token))
        assert [c.paused for c in paused.clocks] == [True]
        table = RandomTable(p, game, tokens, seed=1)
        with pytest.raises(grpc.RpcError) as late:
            table.step(p)
        assert late.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "paused" in late.value.details()
        p.t.ResumeClocks(api.ClockControlRequest(tournament_id=h.tournament_id, token=h.organiser_token))
        table.step(p)
        with pytest.raises(grpc.RpcError) as denied:
            p.t.PauseClocks(api.ClockControlRequest(tournament_id=h.tournament_id, token=tokens[first]))
        assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
    finally:
        p.close()
        server.shutdown()


def test_roles_refusals(tmp_path):
    admin = "admin-secret-of-this-platform"
    p = Platform(settings_for(tmp_path, admin_token=admin))
    try:
        seats = [gw.Seat(name=n) for n in ("Ann", "Bob", "Cid")]
        for call, request in ((p.g.CreateGame, gw.CreateGameRequest(title="1856", seats=seats)),
                              (p.g.CreateTournament, gw.CreateTournamentRequest(name="Club")),
                              (p.g.ImportGame, gw.ImportGameRequest(export_json=b"{}")),
                              (p.t.HostTournament, api.HostTournamentRequest(name="Cup"))):
            with pytest.raises(grpc.RpcError) as missing:
                call(request)
            assert missing.value.code() == grpc.StatusCode.UNAUTHENTICATED
            request.admin_token = "not the admin"
            with pytest.raises(grpc.RpcError) as wrong:
                call(request)
            assert wrong.value.code() == grpc.StatusCode.PERMISSION_DENIED
        game = p.g.CreateGame(gw.CreateGameRequest(title="1856", seats=seats, admin_token=admin))
        club = p.g.CreateTournament(gw.CreateTournamentRequest(name="Club", admin_token=admin))
        # an organiser adds another's game only with that game's operator token
        with pytest.raises(grpc.RpcError) as foreign:
            p.g.AddGame(gw.AddGameRequest(tournament_id=club.tournament_id, game_id=game.game_id,
                                          token=club.operator_token))
        assert foreign.value.code() == grpc.StatusCode.PERMISSION_DENIED
        added = p.g.AddGame(gw.AddGameRequest(tournament_id=club.tournament_id, game_id=game.game_id,
                                              token=club.operator_token, game_operator_token=game.operator_token))
        assert list(added.game_ids) == [game.game_id]
        # a spectator's token reads and may not act
        assert p.g.GetGame(gw.GetGameRequest(game_id=game.game_id, without_legal_actions=True)).seq == 0
        with pytest.raises(grpc.RpcError) as spectator:
            p.g.SubmitAction(gw.SubmitActionRequest(game_id=game.game_id, token=game.spectator_token, expected_seq=0,
                                                    action=action_from_json({"type": "message", "entity": "Ann",
                                                                             "entity_type": "player", "message": "hi"})))
        assert spectator.value.code() == grpc.StatusCode.PERMISSION_DENIED and "spectator" in spectator.value.details()
        # a player of a hosted tournament may not run it
        h = p.t.HostTournament(api.HostTournamentRequest(name="Cup", admin_token=admin, settings=pb.TournamentSettings(
            title="1856", table_size=3, min_table_size=3, rounds=1)))
        r = p.t.Register(api.RegisterRequest(tournament_id=h.tournament_id, name="Ann"))
        for call, request in ((p.t.SetRegistration, api.SetRegistrationRequest(tournament_id=h.tournament_id)),
                              (p.t.SeatRound, api.SeatRoundRequest(tournament_id=h.tournament_id)),
                              (p.t.StartRound, api.StartRoundRequest(tournament_id=h.tournament_id, round=1))):
            request.token = r.player_token
            with pytest.raises(grpc.RpcError) as player:
                call(request)
            assert player.value.code() == grpc.StatusCode.PERMISSION_DENIED
    finally:
        p.close()
