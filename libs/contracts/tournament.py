"""Tournament records and views <-> libs/tournament's objects (proto/roundhouse/v1/tournament*.proto).

An event's time is its Envelope's `timestamp_ms`: `to_envelope` writes the event's `at_ms` there and
`from_envelope` reads it back, so a record converts to exactly the object it was made from. A record
whose content the library refuses (unknown title, bad settings) raises TournamentError.
"""

from __future__ import annotations

from typing import Any

from contracts.actions import action_type
from contracts.envelopes import Envelope, make_envelope
from contracts.v1 import log_pb2, tournament_api_pb2 as api, tournament_pb2 as pb
from tournament import clock as clk, events as ev
from tournament.errors import TournamentError
from tournament.notify import Notices, Turn, TurnNotified, delivery_id
from tournament.ratings import OVERALL, GameRated, Rating, RatingBook, RatingChange, RatingRequested
from tournament.settings import FlagPolicy, IncrementMode, Settings, TimeControl, UndoPolicy, title_info
from tournament.standings import Standings
from tournament.state import Tournament

RATINGS_KEY = "ratings"

_UNDO = {UndoPolicy.ALWAYS: pb.UNDO_ALWAYS, UndoPolicy.OWN_TURN: pb.UNDO_OWN_TURN, UndoPolicy.NEVER: pb.UNDO_NEVER}
_FLAG = {FlagPolicy.END_GAME: pb.FLAG_END_GAME, FlagPolicy.REMOVE_SEAT: pb.FLAG_REMOVE_SEAT}
_INCREMENT = {IncrementMode.ACTION: pb.INCREMENT_PER_ACTION, IncrementMode.ROUND: pb.INCREMENT_PER_ROUND}


def _back(mapping: dict, value: int, default):
    """The library's enum member for a proto enum value (unspecified: the default)."""
    for member, number in mapping.items():
        if number == value:
            return member
    return default


# ---------------------------------------------------------------------- settings


def time_control_to_proto(tc: TimeControl) -> pb.TimeControl:
    return pb.TimeControl(base_ms=tc.base_ms, increment_ms=tc.increment_ms, mode=_INCREMENT[tc.mode])


def time_control_from_proto(msg: pb.TimeControl) -> TimeControl:
    return TimeControl(base_ms=msg.base_ms, increment_ms=msg.increment_ms,
                       mode=_back(_INCREMENT, msg.mode, IncrementMode.ACTION))


def settings_to_proto(s: Settings) -> pb.TournamentSettings:
    msg = pb.TournamentSettings(title=s.title, table_size=s.table_size, min_table_size=s.min_table_size,
                                rounds=s.rounds, undo_policy=_UNDO[s.undo_policy], flag_policy=_FLAG[s.flag_policy],
                                rated=s.rated, optional_rules=list(s.optional_rules))
    if s.time_control is not None:
        msg.time_control.CopyFrom(time_control_to_proto(s.time_control))
    return msg


def settings_from_proto(msg: pb.TournamentSettings) -> Settings:
    return Settings(title=msg.title, table_size=msg.table_size, min_table_size=msg.min_table_size, rounds=msg.rounds,
                    undo_policy=_back(_UNDO, msg.undo_policy, UndoPolicy.ALWAYS),
                    time_control=time_control_from_proto(msg.time_control) if msg.HasField("time_control") else None,
                    flag_policy=_back(_FLAG, msg.flag_policy, FlagPolicy.END_GAME), rated=msg.rated,
                    optional_rules=tuple(msg.optional_rules))


# ---------------------------------------------------------------------- records


def to_body(obj, key: str = "") -> Any:
    """The Envelope body of a library event: TournamentCreated, a TournamentEvent, a GameClockEvent
    (clock events; TurnChanged is not a record of its own: it is read from ActionApplied), a
    RatingsEvent (RatingRequested, GameRated) or a TurnNotified (of the game `key`)."""
    if isinstance(obj, ev.TournamentCreated):
        return log_pb2.TournamentCreated(name=obj.name, operator_token_sha256=obj.organiser_token_sha256,
                                         created_at=obj.at_ms // 1000, settings=settings_to_proto(obj.settings))
    if isinstance(obj, ev.RegistrationOpened):
        return pb.TournamentEvent(registration_opened=pb.RegistrationOpened())
    if isinstance(obj, ev.RegistrationClosed):
        return pb.TournamentEvent(registration_closed=pb.RegistrationClosed())
    if isinstance(obj, ev.PlayerRegistered):
        return pb.TournamentEvent(player_registered=pb.PlayerRegistered(
            player_id=obj.player_id, name=obj.name, token_sha256=obj.token_sha256, contact=obj.contact,
            webhook_url=obj.webhook_url))
    if isinstance(obj, ev.PlayerWithdrawn):
        return pb.TournamentEvent(player_withdrawn=pb.PlayerWithdrawn(
            player_id=obj.player_id, by_organiser=obj.by_organiser, reason=obj.reason))
    if isinstance(obj, ev.RoundSeated):
        return pb.TournamentEvent(round_seated=pb.RoundSeated(
            round=obj.round, seed=obj.seed, tables=[pb.TableSeats(player_ids=list(t)) for t in obj.tables]))
    if isinstance(obj, ev.RoundStarted):
        return pb.TournamentEvent(round_started=pb.TournamentRoundStarted(round=obj.round, game_ids=list(obj.game_ids)))
    if isinstance(obj, ev.TableFinished):
        return pb.TournamentEvent(table_finished=pb.TableFinished(
            round=obj.round, table=obj.table, result=obj.result, end_reason=obj.end_reason,
            forfeited=list(obj.forfeited)))
    if isinstance(obj, clk.ClockStarted):
        return pb.GameClockEvent(started=pb.ClockStarted(
            seats=list(obj.seats), control=time_control_to_proto(obj.control), acting=list(obj.acting),
            round_label=obj.round_label, seq=obj.seq, flag_policy=_FLAG[obj.flag_policy]))
    if isinstance(obj, clk.ClockPaused):
        return pb.GameClockEvent(paused=pb.ClockPaused(reason=obj.reason))
    if isinstance(obj, clk.ClockResumed):
        return pb.GameClockEvent(resumed=pb.ClockResumed())
    if isinstance(obj, clk.ClockAdjusted):
        return pb.GameClockEvent(adjusted=pb.ClockAdjusted(seat=obj.seat, delta_ms=obj.delta_ms, reason=obj.reason))
    if isinstance(obj, clk.FlagFell):
        return pb.GameClockEvent(flag_fell=pb.FlagFell(seat=obj.seat, seq=obj.seq))
    if isinstance(obj, RatingRequested):
        return pb.RatingsEvent(requested=pb.RatingRequested(game_id=obj.game_id, title=obj.title, places=obj.places))
    if isinstance(obj, GameRated):
        return pb.RatingsEvent(rated=pb.GameRated(game_id=obj.game_id, title=obj.title, changes=[
            pb.RatingChange(player=c.player, scope=c.scope, before=_rating(c.before), after=_rating(c.after),
                            placement=c.placement) for c in obj.changes]))
    if isinstance(obj, TurnNotified):
        return pb.TurnNotified(seat=obj.seat, seq=obj.seq, delivery=delivery_id(key, obj.seq, obj.seat),
                               status=obj.status or 0, attempts=obj.attempts)
    raise TypeError(f"not a tournament record: {type(obj).__name__}")


def to_envelope(obj, *, key: str, producer: str, seq: int = 0) -> Envelope:
    """A log record of the event, stamped with the event's time. `key`: the tournament id for a
    tournament's events, the game id for clock events and notices, RATINGS_KEY for ratings."""
    env = make_envelope(to_body(obj, key), game_id=key, seq=seq, producer=producer)
    env.timestamp_ms = obj.at_ms
    return env


def from_envelope(env: Envelope):
    """The library event a tournament record holds (TournamentCreated of a hosted tournament,
    TournamentEvent, GameClockEvent, RatingsEvent, TurnNotified; an ActionApplied gives the
    clocks' TurnChanged)."""
    at = env.timestamp_ms
    case = env.WhichOneof("body")
    if case == "tournament_created":
        msg = env.tournament_created
        if not msg.HasField("settings"):
            raise TournamentError(f"Tournament {env.game_id} is not hosted (no settings): its games are added by hand")
        return ev.TournamentCreated(tournament_id=env.game_id, name=msg.name, settings=settings_from_proto(msg.settings),
                                    organiser_token_sha256=msg.operator_token_sha256, at_ms=at)
    if case == "tournament_event":
        return _tournament_event(env.tournament_event, at)
    if case == "game_clock":
        return _clock_event(env.game_clock, at)
    if case == "ratings_event":
        return _ratings_event(env.ratings_event, at)
    if case == "action_applied":
        return turn_from_applied(env)
    if case == "turn_notified":
        n = env.turn_notified
        return TurnNotified(seat=n.seat, seq=n.seq, status=n.status or None, attempts=n.attempts, at_ms=at)
    raise TournamentError(f"Not a tournament record: {case}")


def _tournament_event(msg: pb.TournamentEvent, at: int):
    case = msg.WhichOneof("event")
    if case == "registration_opened":
        return ev.RegistrationOpened(at_ms=at)
    if case == "registration_closed":
        return ev.RegistrationClosed(at_ms=at)
    if case == "player_registered":
        r = msg.player_registered
        return ev.PlayerRegistered(player_id=r.player_id, name=r.name, token_sha256=r.token_sha256, at_ms=at,
                                   contact=r.contact, webhook_url=r.webhook_url)
    if case == "player_withdrawn":
        w = msg.player_withdrawn
        return ev.PlayerWithdrawn(player_id=w.player_id, by_organiser=w.by_organiser, at_ms=at, reason=w.reason)
    if case == "round_seated":
        s = msg.round_seated
        return ev.RoundSeated(round=s.round, seed=s.seed, tables=tuple(tuple(t.player_ids) for t in s.tables), at_ms=at)
    if case == "round_started":
        return ev.RoundStarted(round=msg.round_started.round, game_ids=tuple(msg.round_started.game_ids), at_ms=at)
    if case == "table_finished":
        f = msg.table_finished
        return ev.TableFinished(round=f.round, table=f.table, result=dict(f.result), end_reason=f.end_reason, at_ms=at,
                                forfeited=tuple(f.forfeited))
    raise TournamentError("A tournament event without an event")


def _ratings_event(msg: pb.RatingsEvent, at: int):
    case = msg.WhichOneof("event")
    if case == "requested":
        r = msg.requested
        return RatingRequested(game_id=r.game_id, title=r.title, places=dict(r.places), at_ms=at)
    if case == "rated":
        g = msg.rated
        return GameRated(game_id=g.game_id, title=g.title, at_ms=at, changes=tuple(
            RatingChange(player=c.player, scope=c.scope, before=Rating(c.before.mu, c.before.sigma),
                         after=Rating(c.after.mu, c.after.sigma), placement=c.placement) for c in g.changes))
    raise TournamentError("A ratings event without an event")


def _clock_event(msg: pb.GameClockEvent, at: int):
    case = msg.WhichOneof("event")
    if case == "started":
        s = msg.started
        return clk.ClockStarted(seats=tuple(s.seats), control=time_control_from_proto(s.control),
                                acting=tuple(s.acting), round_label=s.round_label, seq=s.seq, at_ms=at,
                                flag_policy=_back(_FLAG, s.flag_policy, FlagPolicy.END_GAME))
    if case == "paused":
        return clk.ClockPaused(at_ms=at, reason=msg.paused.reason)
    if case == "resumed":
        return clk.ClockResumed(at_ms=at)
    if case == "adjusted":
        a = msg.adjusted
        return clk.ClockAdjusted(seat=a.seat, delta_ms=a.delta_ms, at_ms=at, reason=a.reason)
    if case == "flag_fell":
        return clk.FlagFell(seat=msg.flag_fell.seat, seq=msg.flag_fell.seq, at_ms=at)
    raise TournamentError("A clock event without an event")


OPERATOR = "operator"


def clock_state_to_proto(c: clk.GameClock) -> pb.GameClockState:
    """A game's clocks as a ledger snapshot keeps them."""
    return pb.GameClockState(
        seats=list(c.seats), control=time_control_to_proto(c.control), remaining_ms=c.remaining,
        acting=sorted(c.acting), round_label=c.round_label, seq=c.seq, since_ms=c.since_ms, paused=c.paused,
        finished=c.finished, flagged_at_ms=c.flagged, flag_policy=_FLAG[c.flag_policy])


def clock_state_from_proto(msg: pb.GameClockState) -> clk.GameClock:
    return clk.GameClock(
        seats=tuple(msg.seats), control=time_control_from_proto(msg.control), remaining=dict(msg.remaining_ms),
        acting=frozenset(msg.acting), round_label=msg.round_label, seq=msg.seq, since_ms=msg.since_ms,
        paused=msg.paused, finished=msg.finished, flagged=dict(msg.flagged_at_ms),
        flag_policy=_back(_FLAG, msg.flag_policy, FlagPolicy.END_GAME))


def notices_for(created: log_pb2.GameCreated) -> Notices | None:
    """The notices a tournament table follows (its seats with a webhook URL), None for a game
    without any."""
    seats = frozenset(p.id for p, url in zip(created.players, created.seat_webhook_urls) if url)
    return Notices(seats=seats) if created.tournament_id and seats else None


def notices_to_proto(n: Notices) -> pb.TurnNotices:
    """A table's notices as a ledger snapshot keeps them."""
    return pb.TurnNotices(seats=sorted(n.seats), waiting=[
        pb.TurnNotice(seat=t.seat, seq=t.seq, since_ms=t.at_ms, round_label=t.round_label, ended=t.seat in n.ended)
        for t in n.waiting.values()])


def notices_from_proto(msg: pb.TurnNotices) -> Notices:
    return Notices(seats=frozenset(msg.seats),
                   waiting={w.seat: Turn(seat=w.seat, seq=w.seq, at_ms=w.since_ms, round_label=w.round_label)
                            for w in msg.waiting},
                   ended={w.seat for w in msg.waiting if w.ended})


def turn_from_applied(env: Envelope) -> clk.TurnChanged:
    """What an ActionApplied means to the clocks: who moved (the operator is nobody's seat), who acts
    next, the round; the game is over when it waits for nobody."""
    applied = env.action_applied
    return clk.TurnChanged(seq=applied.seq, actor="" if applied.actor == OPERATOR else applied.actor,
                           action_type=action_type(applied.action), acting=tuple(applied.acting_players),
                           round_label=applied.round_label, finished=not applied.acting_players,
                           at_ms=env.timestamp_ms)


def _rating(r: Rating) -> pb.Rating:
    return pb.Rating(mu=r.mu, sigma=r.sigma)


# ---------------------------------------------------------------------- views


def tournament_view(t: Tournament, *, organiser: bool) -> api.TournamentView:
    """GetTournament's answer; contacts and webhook URLs only for the organiser."""
    return api.TournamentView(
        tournament_id=t.id, name=t.name, settings=settings_to_proto(t.settings), status=t.status,
        registration_open=t.registration_open,
        players=[api.TournamentPlayer(player_id=p.id, name=p.name, withdrawn=not p.active,
                                      contact=p.contact if organiser else "",
                                      webhook_url=p.webhook_url if organiser else "") for p in t.players.values()],
        rounds=[round_view(r) for r in t.rounds])


def round_view(r) -> api.RoundView:
    return api.RoundView(round=r.number, seed=r.seed, started=r.started, complete=r.complete, tables=[
        api.TableView(table=tb.number, player_ids=list(tb.seats), game_id=tb.game_id, finished=tb.finished,
                      result=tb.result or {}, forfeited=list(tb.forfeited)) for tb in r.tables])


def my_seats(t: Tournament, player_id: str) -> api.MySeats:
    return api.MySeats(player_id=player_id, seats=[
        api.MySeat(round=r.number, table=tb.number, seat=tb.seats.index(player_id) + 1, game_id=tb.game_id)
        for r in t.rounds for tb in r.tables if player_id in tb.seats])


def standings_to_proto(s: Standings) -> api.TournamentStandings:
    return api.TournamentStandings(
        tournament_id=s.tournament_id, name=s.name, title=s.title, through_round=s.through_round, final=s.final,
        live=s.live, rows=[api.TournamentStanding(
            rank=r.rank, player_id=r.player_id, name=r.name, points=float(r.points), share=float(r.share),
            head_to_head=float(r.head_to_head), games=r.games, finished=r.finished, total_score=r.total_score,
            withdrawn=r.withdrawn, rating=r.rating,
            rounds=[api.RoundResult(round=x.round, table=x.table, score=x.score, points=float(x.points),
                                    share=float(x.share), provisional=x.provisional, forfeited=x.forfeited)
                    for x in r.rounds]) for r in s.rows])


def export_standings(s: Standings, fmt: int) -> api.ExportStandingsResponse:
    if fmt == api.STANDINGS_JSON:
        return api.ExportStandingsResponse(document=s.to_json_bytes(), content_type="application/json")
    return api.ExportStandingsResponse(document=s.to_csv().encode(), content_type="text/csv")


def clock_view(game_id: str, clock: clk.GameClock, now_ms: int) -> api.ClockView:
    remaining, running = clock.remaining_at(now_ms), set(clock.running())
    deadline = clock.next_deadline()
    return api.ClockView(game_id=game_id, now_ms=now_ms, paused=clock.paused, finished=clock.finished,
                         next_deadline_ms=deadline[0] if deadline else 0,
                         seats=[api.SeatClock(seat=s, remaining_ms=remaining[s], running=s in running,
                                              flagged=s in clock.flagged) for s in clock.seats])


def ratings_view(book: RatingBook, scope: str, *, player: str = "", limit: int = 0) -> api.RatingsView:
    """GetRatings' answer: `scope` a title, a slug, or "" / "overall"."""
    scope = OVERALL if scope in ("", OVERALL) else title_info(scope)["slug"]
    rows = book.leaderboard(scope)
    if limit:
        rows = rows[:limit]
    return api.RatingsView(scope=scope, rows=[
        api.RatingRow(player=p, rating=_rating(r), ordinal=r.ordinal, games=n) for p, r, n in rows],
        history=[api.RatingHistoryEntry(game_id=h.game_id, at_ms=h.at_ms, rating=_rating(h.rating),
                                        placement=h.placement) for h in book.games(player, scope)] if player else [])
