"""Tournament records and views: every library event survives the log as bytes, views say what they should."""

import json

import pytest
from .tournament_support import Logged, new_tournament, play_round, sha

from contracts.actions import action_from_json
from contracts.envelopes import TOURNAMENT_BODIES, parse
from contracts.tournament import (RATINGS_KEY, clock_view, export_standings, from_envelope, my_seats, notices_for,
                                  notices_from_proto, notices_to_proto, ratings_view, settings_to_proto,
                                  standings_to_proto, to_envelope, tournament_view, turn_from_applied)
from contracts.v1 import log_pb2, tournament_api_pb2 as api
from tournament import (ClockAdjusted, ClockPaused, ClockResumed, ClockStarted, FlagFell, GameClock, GameRated,
                        PlayerRegistered, PlayerWithdrawn, RatingBook, RatingRequested, RegistrationClosed,
                        RegistrationOpened, RoundSeated, RoundStarted, Settings, TableFinished, TimeControl, Tournament,
                        TournamentCreated, TournamentError, standings)
from tournament.notify import Notices, TurnNotified

SETTINGS = Settings.make("1847 AE", 4, 2, undo_policy="own_turn", flag_policy="remove_seat", rated=False,
                         time_control=TimeControl(900_000, 15_000, "round"))

EVENTS = [
    TournamentCreated("t9", "Spring cup", SETTINGS, sha("org"), at_ms=1_700_000_000_123),
    RegistrationOpened(at_ms=5),
    RegistrationClosed(at_ms=6),
    PlayerRegistered("p1", "Ann", sha("a"), at_ms=7, contact="ann@example.org", webhook_url="https://h.example/a"),
    PlayerWithdrawn("p1", by_organiser=True, at_ms=8, reason="no show"),
    RoundSeated(2, -42, (("p1", "p2", "p3"), ("p4", "p5", "p6", "p7")), at_ms=9),
    RoundStarted(2, ("t9.r2.t1", "t9.r2.t2"), at_ms=10),
    TableFinished(2, 1, {"p1": 310, "p2": -5, "p3": 0}, "bank", at_ms=11, forfeited=("p2",)),
    ClockStarted(("p1", "p2", "p3"), TimeControl(60_000, 0), ("p1",), "DR 0.1", 0, at_ms=12, flag_policy="remove_seat"),
    ClockPaused(at_ms=13, reason="lunch"),
    ClockResumed(at_ms=14),
    ClockAdjusted("p2", -30_000, at_ms=15, reason="late"),
    FlagFell("p2", 17, at_ms=16),
    RatingRequested("t9.r2.t2", "1847 AE", {"ann": 1, "bob": 2, "cid": 2}, at_ms=17),
    TurnNotified("p2", 17, 200, 2, at_ms=18),
    TurnNotified("p3", 18, None, 8, at_ms=19),                        # given up: no answer
]


@pytest.mark.parametrize("event", EVENTS + ["rated"], ids=lambda e: type(e).__name__ if e != "rated" else "GameRated")
def test_every_event_survives_the_log(event):
    if event == "rated":
        book = RatingBook()
        event = book.rate("t9.r2.t2", "1847_ae", {"p4": 1, "p5": 2, "p6": 2, "p7": 4}, at_ms=17)
    env = to_envelope(event, key=RATINGS_KEY if isinstance(event, (GameRated, RatingRequested)) else "t9",
                      producer="test")
    back = from_envelope(parse(env.SerializeToString(), env.game_id))
    assert back == event and type(back) is type(event)


def test_record_kinds_and_routing():
    kinds = {to_envelope(e, key="k", producer="t").WhichOneof("body") for e in EVENTS}
    assert kinds == {"tournament_created", "tournament_event", "game_clock", "ratings_event", "turn_notified"}
    assert {"tournament_created", "tournament_event", "ratings_event"} <= set(TOURNAMENT_BODIES)
    assert not {"game_clock", "turn_notified"} & set(TOURNAMENT_BODIES)   # records of their game
    ended = to_envelope(EVENTS[-2], key="t9.r2.t1", producer="scoring/1", seq=20)
    assert ended.turn_notified.delivery == "t9.r2.t1:17:p2" and ended.seq == 20


def test_notices_survive_a_snapshot():
    notices = Notices(seats=frozenset({"p1", "p2", "p4"}))
    notices.turn(3, ("p2", "p1", "p3"), "OR 1.1", 1_000)
    notices.notified(TurnNotified("p1", 3, 200, 1, 1_200))
    back = notices_from_proto(log_pb2.Snapshot.FromString(
        log_pb2.Snapshot(notices=notices_to_proto(notices)).SerializeToString()).notices)
    assert back == notices and [t.seat for t in back.outstanding()] == ["p2"]
    created = log_pb2.GameCreated(tournament_id="t9", players=[log_pb2.Player(id=p) for p in ("p1", "p2", "p3")],
                                  seat_webhook_urls=["https://h.example/1", "", "https://h.example/3"])
    assert notices_for(created).seats == {"p1", "p3"}
    created.ClearField("seat_webhook_urls")
    assert notices_for(created) is None                               # nobody to tell


def test_a_tournament_rebuilds_from_its_records_as_bytes():
    logged = Logged(time_control=TimeControl(600_000, 5_000))
    t, do = logged.t, logged.do
    for i in range(1, 9):
        do(t.register(f"P{i}", sha(f"k{i}"), 10 + i, webhook_url=f"https://hooks.example/{i}"))
    do(t.close_registration(20))
    do(t.seat_round(3, 21))
    do(t.start_round(22))
    for tb in t.rounds[0].tables:
        do(t.finish_table(tb.game_id, {p: 100 + i for i, p in enumerate(tb.seats)}, "bank", 23))
    wire = [to_envelope(e, key="t1", producer="gateway/1").SerializeToString() for e in logged.log]
    rebuilt = Tournament.replay(from_envelope(parse(data, "t1")) for data in wire)
    assert rebuilt == t


def test_settings_defaults_and_bad_settings():
    msg = settings_to_proto(Settings.make("1856", 4, 3))
    assert not msg.HasField("time_control") and msg.undo_policy and msg.flag_policy
    msg.ClearField("undo_policy")
    msg.ClearField("flag_policy")                                       # unspecified: the defaults
    created = log_pb2.TournamentCreated(name="x", operator_token_sha256=sha("o"), settings=msg)
    env = to_envelope(TournamentCreated("t", "x", Settings.make("1856", 4, 3), sha("o"), 1), key="t", producer="p")
    env.tournament_created.CopyFrom(created)
    assert from_envelope(env).settings == Settings.make("1856", 4, 3)
    env.tournament_created.settings.table_size = 9
    with pytest.raises(TournamentError, match="3 to 6 players"):
        from_envelope(env)
    env.tournament_created.ClearField("settings")
    with pytest.raises(TournamentError, match="not hosted"):
        from_envelope(env)


def test_an_applied_action_is_a_turn_of_the_clocks():
    env = log_pb2.Envelope(game_id="g", seq=5, timestamp_ms=99_000, action_applied=log_pb2.ActionApplied(
        seq=5, action=action_from_json({"type": "lay_tile", "entity": "CA", "entity_type": "corporation", "id": 5}),
        round_kind="operating_round", round_label="OR 1.1", actor="p3", acting_players=["p3"]))
    assert from_envelope(env) == turn_from_applied(env)
    turn = turn_from_applied(env)
    assert (turn.seq, turn.actor, turn.action_type, turn.acting, turn.round_label, turn.finished, turn.at_ms) == \
        (5, "p3", "lay_tile", ("p3",), "OR 1.1", False, 99_000)
    env.action_applied.actor = "operator"
    del env.action_applied.acting_players[:]
    turn = turn_from_applied(env)
    assert turn.actor == "" and turn.finished


def test_views():
    t = new_tournament(9)
    t.players["p1"].contact = "ann@example.org"
    play_round(t, 4, lambda n, seats: {p: 10 * int(p[1:]) for p in seats}, 100)
    public, private = tournament_view(t, organiser=False), tournament_view(t, organiser=True)
    assert public.players[0].contact == "" and private.players[0].contact == "ann@example.org"
    assert public.status == "between_rounds" and len(public.rounds[0].tables) == 3
    seats = my_seats(t, "p5")
    assert len(seats.seats) == 1 and seats.seats[0].game_id.startswith("t1.r1.t")
    table = t.rounds[0].tables[seats.seats[0].table - 1]
    assert table.seats[seats.seats[0].seat - 1] == "p5"
    s = standings(t)
    msg = standings_to_proto(s)
    assert [r.player_id for r in msg.rows] == [r.player_id for r in s.rows]
    assert msg.rows[0].points == float(s.rows[0].points) and not msg.rows[0].HasField("rating")
    doc = export_standings(s, api.STANDINGS_JSON)
    assert doc.content_type == "application/json" and json.loads(doc.document)["rows"][0]["rank"] == 1
    assert export_standings(s, api.STANDINGS_CSV).document.decode().startswith("rank,player_id,name,points")


def test_clock_and_ratings_views():
    clock = GameClock.start(ClockStarted(("p1", "p2"), TimeControl(60_000), ("p2",), "SR 1", 0, 1_000))
    view = clock_view("g", clock, now_ms=21_000)
    assert [(s.seat, s.remaining_ms, s.running) for s in view.seats] == [("p1", 60_000, False), ("p2", 40_000, True)]
    assert view.next_deadline_ms == 61_000
    book = RatingBook()
    book.apply(book.rate("g1", "1856", {"ann": 1, "bob": 2}, 5))
    overall = ratings_view(book, "", player="ann")
    assert overall.scope == "overall" and [r.player for r in overall.rows] == ["ann", "bob"]
    assert overall.rows[0].ordinal == pytest.approx(book.rating("ann").ordinal)
    assert [h.game_id for h in overall.history] == ["g1"]
    assert ratings_view(book, "1856", limit=1).rows[0].player == "ann"
