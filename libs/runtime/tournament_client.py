"""`roundhouse client tournament-*`: the organiser's (and players') hosted-tournament commands, over
the gateway's roundhouse.v1.Tournaments service. Each prints its answer as JSON (standings also as
a table, or the CSV / JSON export)."""

from __future__ import annotations

import json
import os

import grpc
from google.protobuf.json_format import MessageToDict

from contracts.v1 import tournament_api_pb2 as api
from contracts.v1 import tournament_api_pb2_grpc
from contracts.v1 import tournament_pb2 as pb

UNDO = {"always": pb.UNDO_ALWAYS, "own_turn": pb.UNDO_OWN_TURN, "never": pb.UNDO_NEVER}
FLAG = {"end_game": pb.FLAG_END_GAME, "remove_seat": pb.FLAG_REMOVE_SEAT}


def tstub(target: str) -> tournament_api_pb2_grpc.TournamentsStub:
    return tournament_api_pb2_grpc.TournamentsStub(grpc.insecure_channel(target))


def _out(message) -> int:
    print(json.dumps(MessageToDict(message, preserving_proto_field_name=True), indent=2))
    return 0


def host(args, call) -> int:
    settings = pb.TournamentSettings(
        title=args.title, table_size=args.table_size, min_table_size=args.min_table_size or 0,
        rounds=args.rounds, undo_policy=UNDO[args.undo], flag_policy=FLAG[args.flag_policy], rated=not args.unrated,
        optional_rules=args.rule or [])
    if args.base_s:
        settings.time_control.CopyFrom(pb.TimeControl(
            base_ms=int(args.base_s * 1000), increment_ms=int(args.increment_s * 1000),
            mode=pb.INCREMENT_PER_ROUND if args.per_round else pb.INCREMENT_PER_ACTION))
    return _out(call(tstub(args.target).HostTournament, api.HostTournamentRequest(
        name=args.name, settings=settings, tournament_id=args.tournament_id or "", admin_token=args.admin_token),
        "tournament-host"))


def register(args, call) -> int:
    return _out(call(tstub(args.target).Register, api.RegisterRequest(
        tournament_id=args.tournament_id, name=args.name, contact=args.contact or "", webhook_url=args.webhook or "",
        token=args.token or ""), "tournament-register"))


def registration(args, call) -> int:
    return _out(call(tstub(args.target).SetRegistration, api.SetRegistrationRequest(
        tournament_id=args.tournament_id, token=args.token, open=args.state == "open"), "tournament-registration"))


def withdraw(args, call) -> int:
    return _out(call(tstub(args.target).Withdraw, api.WithdrawRequest(
        tournament_id=args.tournament_id, token=args.token, player_id=args.player or "", reason=args.reason or ""),
        "tournament-withdraw"))


def seat(args, call) -> int:
    request = api.SeatRoundRequest(tournament_id=args.tournament_id, token=args.token)
    if args.seed is not None:
        request.seed = args.seed
    return _out(call(tstub(args.target).SeatRound, request, "tournament-seat"))


def start(args, call) -> int:
    return _out(call(tstub(args.target).StartRound, api.StartRoundRequest(
        tournament_id=args.tournament_id, token=args.token, round=args.round), "tournament-start"))


def show(args, call) -> int:
    return _out(call(tstub(args.target).GetTournament, api.GetTournamentRequest(
        tournament_id=args.tournament_id, token=args.token or ""), "tournament-show"))


def standings(args, call) -> int:
    query = api.GetTournamentStandingsRequest(tournament_id=args.tournament_id, live=args.live,
                                              through_round=args.through_round)
    if args.csv or args.json:
        doc = call(tstub(args.target).ExportStandings, api.ExportStandingsRequest(
            standings=query, format=api.STANDINGS_JSON if args.json else api.STANDINGS_CSV), "tournament-standings")
        print(doc.document.decode(), end="" if args.csv else "\n")
        return 0
    table = call(tstub(args.target).GetTournamentStandings, query, "tournament-standings")
    state = "final" if table.final else "live" if table.live else "so far"
    print(f"{table.name} ({table.tournament_id}), {table.title}, through round {table.through_round} ({state})")
    for r in table.rows:
        rating = f"  rating {r.rating:6.2f}" if r.HasField("rating") else ""
        print(f"{r.rank:3}. {r.name:24} points {r.points:6.2f}  share {r.share:.4f}  h2h {r.head_to_head:4.1f}  "
              f"games {r.finished}/{r.games}  total {r.total_score}{rating}{'  (withdrawn)' if r.withdrawn else ''}")
    return 0


def clocks(args, call) -> int:
    return _out(call(tstub(args.target).GetClocks, api.GetClocksRequest(game_id=args.game_id), "tournament-clocks"))


def pause(args, call) -> int:
    method = tstub(args.target).ResumeClocks if args.resume else tstub(args.target).PauseClocks
    return _out(call(method, api.ClockControlRequest(tournament_id=args.tournament_id, token=args.token,
                                                     game_id=args.game or "", reason=args.reason or ""),
                     "tournament-pause"))


def adjust(args, call) -> int:
    return _out(call(tstub(args.target).AdjustClock, api.AdjustClockRequest(
        tournament_id=args.tournament_id, token=args.token, game_id=args.game_id, seat=args.seat,
        delta_ms=int(args.delta_s * 1000), reason=args.reason or ""), "tournament-adjust"))


def ratings(args, call) -> int:
    return _out(call(tstub(args.target).GetRatings, api.GetRatingsRequest(
        scope=args.scope or "", player=args.player or "", limit=args.limit), "ratings"))


def add_parsers(p, call) -> None:
    """The subcommands, added with `p(name, fn, help)` (client.add_parser's helper); `call(method,
    request, what)` makes the call and phrases its failure."""

    def q(name, fn, help_):
        return p(name, lambda args: fn(args, call), help_)

    c = q("tournament-host", host, "host a tournament (registration opens); prints its id and organiser token")
    c.add_argument("name")
    c.add_argument("--title", required=True)
    c.add_argument("--table-size", type=int, required=True)
    c.add_argument("--min-table-size", type=int, help="default: one fewer than --table-size (not below the title's minimum)")
    c.add_argument("--rounds", type=int, required=True)
    c.add_argument("--undo", choices=sorted(UNDO), default="always")
    c.add_argument("--base-s", type=float, help="clock: each seat's time in seconds (none: no clocks)")
    c.add_argument("--increment-s", type=float, default=0.0)
    c.add_argument("--per-round", action="store_true", help="the increment per game round, not per action")
    c.add_argument("--flag-policy", choices=sorted(FLAG), default="end_game")
    c.add_argument("--unrated", action="store_true")
    c.add_argument("--rule", action="append", help="an optional rule (repeat)")
    c.add_argument("--tournament-id")
    c.add_argument("--admin-token", default=os.environ.get("ROUNDHOUSE_ADMIN_TOKEN", ""))
    c = q("tournament-register", register, "register a player; prints its id and secret token")
    c.add_argument("tournament_id")
    c.add_argument("name")
    c.add_argument("--contact")
    c.add_argument("--webhook", help="http(s) URL for signed 'your turn' webhooks")
    c.add_argument("--token", help="the organiser's (registering someone else)")
    c = q("tournament-registration", registration, "open or close registration (organiser)")
    c.add_argument("tournament_id")
    c.add_argument("state", choices=["open", "close"])
    c.add_argument("--token", required=True)
    c = q("tournament-withdraw", withdraw, "withdraw a player (its own token, or the organiser's with --player)")
    c.add_argument("tournament_id")
    c.add_argument("--token", required=True)
    c.add_argument("--player")
    c.add_argument("--reason")
    c = q("tournament-seat", seat, "seat the next round, or the waiting one again (organiser)")
    c.add_argument("tournament_id")
    c.add_argument("--token", required=True)
    c.add_argument("--seed", type=int)
    c = q("tournament-start", start, "start the seated round: every table's game is created (organiser)")
    c.add_argument("tournament_id")
    c.add_argument("round", type=int)
    c.add_argument("--token", required=True)
    c = q("tournament-show", show, "a hosted tournament: settings, players, rounds and tables")
    c.add_argument("tournament_id")
    c.add_argument("--token", help="the organiser's: contacts and webhook URLs too")
    c = q("tournament-standings", standings, "standings with tiebreaks (and ratings)")
    c.add_argument("tournament_id")
    c.add_argument("--live", action="store_true", help="count running tables at their current net worth")
    c.add_argument("--through-round", type=int, default=0)
    c.add_argument("--csv", action="store_true")
    c.add_argument("--json", action="store_true")
    c = q("tournament-clocks", clocks, "a tournament game's clocks now")
    c.add_argument("game_id")
    c = q("tournament-pause", pause, "pause (or --resume) the clocks of a game or of the whole round (organiser)")
    c.add_argument("tournament_id")
    c.add_argument("--token", required=True)
    c.add_argument("--game", help="one game (default: every unfinished game of the current round)")
    c.add_argument("--resume", action="store_true")
    c.add_argument("--reason")
    c = q("tournament-adjust", adjust, "add (or take away, negative) seconds from a seat's clock (organiser)")
    c.add_argument("tournament_id")
    c.add_argument("game_id")
    c.add_argument("seat", help="the player id")
    c.add_argument("delta_s", type=float)
    c.add_argument("--token", required=True)
    c.add_argument("--reason")
    c = q("ratings", ratings, "ratings of a title (or overall), or a player's history")
    c.add_argument("--scope", help="a title or slug (default: overall)")
    c.add_argument("--player", help="a player's rating name: its history")
    c.add_argument("--limit", type=int, default=0)
