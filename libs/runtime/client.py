"""`roundhouse client ...`: a command-line client of the gateway (every subcommand takes --target)."""

from __future__ import annotations

import json
import os
import random
import string
import sys
from pathlib import Path
from typing import Any

import grpc
import orjson

from contracts import limits
from contracts.actions import MalformedAction, action_from_json, action_to_json
from contracts.envelopes import Kind
from contracts.v1 import gateway_pb2 as gw
from contracts.v1 import gateway_pb2_grpc
from runtime import tournament_client
from runtime.aligner import ReplayAligner, ReplayMismatch, play_entry
from runtime.commandline import BadInput, ClientError, read_json  # noqa: F401 (the client's errors)

DEFAULT_TARGET = "127.0.0.1:50051"
ADMIN_TOKEN = os.environ.get("ROUNDHOUSE_ADMIN_TOKEN", "")


def stub(target: str) -> gateway_pb2_grpc.GatewayStub:
    # (the gateway's answers may be as large as contracts.limits allows: an export of a full game)
    options = [("grpc.max_receive_message_length", limits.MAX_RESPONSE_BYTES),
               ("grpc.max_send_message_length", limits.MAX_REQUEST_BYTES)]
    return gateway_pb2_grpc.GatewayStub(grpc.insecure_channel(target, options=options))


def call(method, request, what: str):
    try:
        return method(request, timeout=120)
    except grpc.RpcError as exc:
        raise ClientError(f"{what}: {exc.code().name}: {exc.details()}") from None


def seat(name: str, pid: Any = None) -> gw.Seat:
    s = gw.Seat(name=name)
    if isinstance(pid, int) and not isinstance(pid, bool):
        s.id_number = pid
    elif pid not in (None, ""):
        s.id_name = str(pid)
    return s


# subcommands --------------------------------------------------------------------------------------

def create(args) -> int:
    req = gw.CreateGameRequest(title=args.title, seats=[seat(n) for n in args.player],
                               optional_rules=args.rule or [], game_id=args.game_id or "",
                               admin_token=args.admin_token)
    if args.seed is not None:
        req.seed = args.seed
    resp = call(stub(args.target).CreateGame, req, "create")
    out = {"game_id": resp.game_id, "operator_token": resp.operator_token, "spectator_token": resp.spectator_token,
           "seats": [{"player": s.player_id, "name": s.name, "token": s.token} for s in resp.seats]}
    print(json.dumps(out, indent=2))
    return 0


def show(args) -> int:
    view = call(stub(args.target).GetGame, gw.GetGameRequest(game_id=args.game_id), "show")
    if args.json:
        print(json.dumps(view_dict(view), indent=2))
    else:
        print(render(view))
    return 0


def view_dict(view: gw.GameView) -> dict:
    return {
        "game_id": view.game_id, "title": view.title, "seq": view.seq, "round": view.round_label,
        "round_kind": view.round_kind, "finished": view.finished,
        "game_end_reason": view.game_end_reason, "result": dict(view.result),
        "acting": list(view.acting_players),
        "players": [{"id": p.id, "name": p.name, "value": p.value} for p in view.players],
        "view": orjson.loads(view.view_json) if view.view_json else None,
    }


def _scalar(v: Any) -> bool:
    return isinstance(v, (str, int, float, bool)) or v is None


def _table(rows: list[dict]) -> list[str]:
    cols: list[str] = []
    for r in rows:
        for k, v in r.items():
            if _scalar(v) and k not in cols:
                cols.append(k)
    cols = cols[:8]
    cells = [[("" if r.get(c) is None else str(r.get(c))) for c in cols] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(cols)]
    lines = ["  " + "  ".join(c.ljust(w) for c, w in zip(cols, widths))]
    lines += ["  " + "  ".join(x.ljust(w) for x, w in zip(row, widths)) for row in cells]
    return lines


def _cell(v: Any) -> Any:
    """One table cell: counts for lists, prices for market cells, percents for holdings."""
    if isinstance(v, list):
        return len(v)
    if isinstance(v, dict):
        if "price" in v:
            return v["price"]
        if all(isinstance(x, dict) and "percent" in x for x in v.values()):
            return " ".join(f"{k} {x['percent']}%{'P' if x.get('president') else ''}" for k, x in v.items())
        return " ".join(f"{a}:{b}" for a, b in v.items())
    return v


def _pick(rows: Any, keys: tuple[str, ...]) -> list[dict]:
    out = []
    for r in rows if isinstance(rows, list) else []:
        if isinstance(r, dict):
            row = {}
            for k in keys:
                row[k] = _cell(r.get(k))
            out.append(row)
    return out


def render(view: gw.GameView) -> str:
    """A readable text view: round and who acts, players, companies, corporations, market."""
    status = f"finished ({view.game_end_reason})" if view.finished else f"{view.round_label} ({view.round_kind})"
    lines = [f"{view.title} game {view.game_id}: seq {view.seq}, {status}"]
    names = {p.id: p.name for p in view.players}
    detail = orjson.loads(view.view_json) if view.view_json else {}
    detail = detail if isinstance(detail, dict) else {}
    if not view.finished:
        lines.append("acting: " + (", ".join(names.get(a, a) for a in view.acting_players) or "nobody"))
        for legal in detail.get("legal_actions") or []:
            if isinstance(legal, dict):
                types = [t for t in legal.get("types", []) if not str(t).startswith("program_")]
                lines.append(f"  {legal.get('entity')} may: {', '.join(map(str, types))}")
    if view.result:
        lines.append("result: " + ", ".join(f"{names.get(k, k)} {v}" for k, v in view.result.items()))
    players = _pick(detail.get("players"), ("name", "cash", "value", "certs", "shares", "companies"))
    lines.append("players:")
    lines += _table(players) if players else [f"  {p.name}: worth {p.value}" for p in view.players]
    sections = (
        ("companies", ("id", "value", "revenue", "owner", "closed")),
        ("corporations", ("id", "president", "cash", "share_price", "par_price", "floated", "trains")),
    )
    for key, keys in sections:
        rows = _pick(detail.get(key), keys)
        if key == "corporations":
            rows = [r for r in rows if r.get("president") is not None or r.get("floated")]
        if rows:
            lines.append(f"{key}:")
            lines += _table(rows)
    market = detail.get("market")
    if isinstance(market, dict):
        placed = [
            f"{corp} {cell.get('price')}"
            for row in market.get("rows", []) for cell in row if isinstance(cell, dict)
            for corp in cell.get("corporations", [])
        ]
        if placed:
            lines.append("market: " + ", ".join(placed))
    depot = detail.get("depot")
    if isinstance(depot, dict) and depot.get("available"):
        lines.append("depot: " + ", ".join(f"{t.get('train')} ${t.get('price')}" for t in depot["available"] if isinstance(t, dict)))
    for extra in ("phase", "bank"):
        if detail.get(extra) is not None:
            lines.append(f"{extra}: {detail[extra]}")
    return "\n".join(lines)


def act(args) -> int:
    try:
        action = json.loads(args.action)
        msg = action_from_json(action)
    except (json.JSONDecodeError, MalformedAction) as exc:
        raise ClientError(f"act: the action is not valid action JSON: {exc}") from None
    s = stub(args.target)
    seq = args.seq
    if seq is None:
        seq = call(s.GetGame, gw.GetGameRequest(game_id=args.game_id, without_legal_actions=True), "act").seq
    resp = call(s.SubmitAction, gw.SubmitActionRequest(
        game_id=args.game_id, token=args.token, action=msg, expected_seq=seq,
        command_id=args.command_id or ""), "act")
    print(json.dumps({"seq": resp.seq, "round": resp.round_label, "finished": resp.finished,
                      "action": action_to_json(resp.action), "acting": list(resp.acting_players)}))
    return 0


def watch(args) -> int:
    stream = stub(args.target).WatchGame(gw.WatchGameRequest(game_id=args.game_id, from_seq=args.from_seq))
    try:
        for env in stream:
            body = env.WhichOneof("body")
            item: dict[str, Any] = {"seq": env.seq, "kind": Kind.Name(env.kind)}
            if body == "action_applied":
                item["action"] = action_to_json(env.action_applied.action)
                if env.action_applied.round_label:
                    item["round"] = env.action_applied.round_label
            elif body == "action_rejected":
                item["reason"] = env.action_rejected.reason
            elif body == "round_started":
                item["round"] = env.round_started.round_label
            elif body == "score_updated":
                item["values"] = dict(env.score_updated.values)
            elif body == "game_finished":
                item["result"] = dict(env.game_finished.result)
                item["game_end_reason"] = env.game_finished.game_end_reason
            print(json.dumps(item), flush=True)
    except grpc.RpcError as exc:
        if exc.code() != grpc.StatusCode.CANCELLED:
            raise ClientError(f"watch: {exc.code().name}: {exc.details()}") from None
    except KeyboardInterrupt:
        stream.cancel()
    return 0


def list_games(args) -> int:
    resp = call(stub(args.target).ListGames, gw.ListGamesRequest(include_finished=args.all), "list")
    for g in resp.games:
        state = "finished" if g.finished else g.round_label
        print(f"{g.game_id}  {g.title}  seq {g.seq}  {state}  {', '.join(g.players)}")
    return 0


def export(args) -> int:
    resp = call(stub(args.target).ExportGame, gw.ExportGameRequest(game_id=args.game_id), "export")
    sys.stdout.write(resp.export_json.decode() + "\n")
    return 0


def import_(args) -> int:
    data = Path(args.file).read_bytes()
    resp = call(stub(args.target).ImportGame, gw.ImportGameRequest(export_json=data, admin_token=args.admin_token), "import")
    print(json.dumps({"game_id": resp.game_id, "seq": resp.seq, "operator_token": resp.operator_token,
                      "seats": [{"player": s.player_id, "token": s.token} for s in resp.seats]}, indent=2))
    return 0


def tournament_create(args) -> int:
    resp = call(stub(args.target).CreateTournament, gw.CreateTournamentRequest(name=args.name, admin_token=args.admin_token),
                "tournament")
    print(json.dumps({"tournament_id": resp.tournament_id, "operator_token": resp.operator_token}, indent=2))
    return 0


def tournament_add(args) -> int:
    table = call(stub(args.target).AddGame, gw.AddGameRequest(
        tournament_id=args.tournament_id, game_id=args.game_id, token=args.token,
        game_operator_token=args.game_token or ""), "tournament-add")
    print_standings(table)
    return 0


def standings(args) -> int:
    table = call(stub(args.target).GetStandings, gw.GetStandingsRequest(tournament_id=args.tournament_id), "standings")
    print_standings(table)
    return 0


def print_standings(table: gw.Standings) -> None:
    print(f"{table.name} ({table.tournament_id}): {len(table.game_ids)} games")
    for i, r in enumerate(table.rows, 1):
        print(f"{i:3}. {r.player:20} points {r.points:5.1f}  finished {r.finished}/{r.games}  "
              f"total {r.total_score}  live {r.live_value}")


# replay ---------------------------------------------------------------------------------------

def create_request(export: dict) -> gw.CreateGameRequest:
    """The CreateGame request of a copy of an exported game: its seats with their ids, seed and
    the optional rules it was played under (`engine.rules_of_record`: its settings' and those that
    were every game's when it was created); without a recorded seed, a game id that keeps the
    export's id first (the engine derives the same seed from it, as 18xx.games does)."""
    from engine.api import rules_of_record

    settings = export.get("settings") or {}
    req = gw.CreateGameRequest(
        title=str(export["title"]),
        seats=[seat(p.get("name") or str(p.get("id")), p.get("id")) for p in export["players"]],
        optional_rules=rules_of_record(export), admin_token=ADMIN_TOKEN,
    )
    raw = settings.get("seed")
    if isinstance(raw, int) and not isinstance(raw, bool):
        req.seed = raw
    elif isinstance(raw, str) and raw.strip().isdigit():
        req.seed = int(raw)
    else:
        # a digit-free suffix keeps the derived seed and makes the id unique
        suffix = "".join(random.choices(string.ascii_lowercase, k=8))
        req.game_id = f"{export.get('id', 'game')}-{suffix}"
    return req


def _create_from_export(s, export: dict) -> gw.CreateGameResponse:
    req = create_request(export)
    return call(s.CreateGame, req, "replay: create")


class Replayer:
    """Plays an 18xx.games export through a gateway: creates the game with the export's seats, seed
    and optional rules, then submits the recorded actions one by one through SubmitAction with the
    acting seat's token, like the players did (undo, redo and already-undone entries included: the
    engine resolves them exactly as they happened). A ReplayAligner lines the record up with the
    automatic moves today's rules make (see there): entries our engine already made are not sent
    again, recorded automatic moves it no longer makes are sent as the players' own, undos name
    our actions, and a move today's rules refuse that the record undoes later is skipped (listed in
    the outcome's "skipped", with the undo that removed it)."""

    def __init__(self, gateway: gateway_pb2_grpc.GatewayStub, export: dict):
        self.gateway = gateway
        self.export = export
        self.actions: list[dict] = export["actions"]
        self.game_id = ""
        self.seq = 0
        self.next_index = 0
        self.tokens: dict[str, str] = {}
        self.operator = ""
        self.acting: list[str] = []
        self.aligner = ReplayAligner(self.actions)

    def create(self) -> str:
        created = _create_from_export(self.gateway, self.export)
        self.game_id, self.seq, self.operator = created.game_id, created.seq, created.operator_token
        self.tokens = {t.player_id: t.token for t in created.seats}
        self.acting = list(self.view().acting_players)
        return self.game_id

    def view(self) -> gw.GameView:
        """The game as it stands (seats and holdings: no legal actions, which cost the most)."""
        return call(self.gateway.GetGame, gw.GetGameRequest(game_id=self.game_id, without_legal_actions=True),
                    "replay")

    def _request_for(self, action: dict) -> gw.SubmitActionRequest:
        msg = action_from_json(action)
        token = _token_for(action, self.tokens, self.acting, self.operator,
                           view=lambda: orjson.loads(self.view().view_json or b"{}"))
        return gw.SubmitActionRequest(game_id=self.game_id, token=token, action=msg, expected_seq=self.seq)

    def step(self, timeout: float = 120) -> gw.SubmitActionResponse | None:
        """Play the next recorded entry; raises grpc.RpcError when the gateway refuses a move, and
        ClientError when the entry is malformed or cannot be lined up with today's rules. Returns
        the last SubmitAction response (None when the entry needed no submission)."""
        index = self.next_index
        recorded = self.actions[index]

        def submit(move):
            resp = self._submit(self._request_for(move), timeout)
            return resp.seq, [action_to_json(a) for a in resp.action.auto_actions], resp

        try:
            resp = play_entry(self.aligner, recorded, submit, _refusal)
        except (MalformedAction, ReplayMismatch) as exc:
            raise ClientError(f"replay: action index {index} (id {recorded.get('id')}): {exc}") from None
        self.next_index += 1
        return resp

    def _submit(self, request, timeout) -> gw.SubmitActionResponse:
        resp = self.gateway.SubmitAction(request, timeout=timeout)
        self.seq, self.acting = resp.seq, list(resp.acting_players)
        return resp

    def run(self, stop: int | None = None) -> None:
        stop = len(self.actions) if stop is None else stop
        while self.next_index < stop:
            recorded = self.actions[self.next_index]
            try:
                self.step()
            except grpc.RpcError as exc:
                raise ClientError(
                    f"replay: action index {self.next_index} (id {recorded.get('id')}, "
                    f"{recorded.get('type')}) in game {self.game_id}: {exc.code().name}: {exc.details()}"
                ) from None

    def outcome(self) -> dict:
        view = self.view()
        return {"game_id": view.game_id, "title": view.title, "actions": view.seq,
                "finished": view.finished, "game_end_reason": view.game_end_reason or None,
                "result": dict(view.result), "skipped": list(self.aligner.skipped),
                "optional_rules": list(view.optional_rules)}


def _refusal(exc) -> str | None:
    """The rules' reason when the gateway refused a move as illegal (else None)."""
    if isinstance(exc, grpc.RpcError) and exc.code() == grpc.StatusCode.INVALID_ARGUMENT:
        return exc.details()
    return None


def replay(args) -> int:
    replayer = Replayer(stub(args.target), read_json(args.file))
    replayer.create()
    try:
        replayer.run()
    except ClientError as exc:   # the game made so far stays: say which, so it can be looked at or ignored
        raise ClientError(f"{exc}\nthe partial game {replayer.game_id} stays on the server at seq {replayer.seq}"
                          " (nothing was removed)") from None
    out = replayer.outcome()
    if args.json:
        print(json.dumps(out))
    else:
        recorded = (replayer.export.get("settings") or {}).get("optional_rules") or []
        if out["optional_rules"] != list(recorded):
            print(f"played with the optional rules of its time: {', '.join(out['optional_rules'])} (its settings "
                  f"name {', '.join(recorded) or 'none'}; see engine.rules_of_record)")
        for skip in out["skipped"]:
            print(f"skipped action index {skip['index']} (id {skip['id']}, {skip['type']}): refused by today's "
                  f"rules ({skip['reason']}); the record undoes it at index {skip['undone_at']}")
        print(f"game {out['game_id']}: {out['actions']} actions, finished={out['finished']} "
              f"({out['game_end_reason']}); result {json.dumps(out['result'])}")
    return 0


def _token_for(action: dict, tokens: dict[str, str], acting: list[str], operator: str,
               view=None) -> str:
    """The seat that sends this action, as the players did: a player acts for itself; a
    corporation by its president, a company by its owner (per the game view); failing that, the
    one player the game waits for; the operator token only when all of that is ambiguous. Undo and
    redo go with the operator token: on 18xx.games any player of the game may undo any move, here a
    seat undoes only its own moves nobody acted after, and a record holds undos of both kinds."""
    if action.get("type") in ("end_game", "undo", "redo"):  # the operator's call (see above)
        return operator
    entity = str(action.get("entity"))
    if action.get("entity_type") == "player" and entity in tokens:
        return tokens[entity]
    if view is not None:
        controller = _controller_in_view(view(), action.get("entity_type"), entity)
        if controller in tokens:
            return tokens[controller]
    waiting = [a for a in acting if a in tokens]
    if len(waiting) == 1 or (waiting and action.get("type") == "message"):
        return tokens[waiting[0]]
    return operator


def _controller_in_view(detail: dict, entity_type, entity: str) -> str | None:
    corps = {str(c.get("id")): c for c in detail.get("corporations") or [] if isinstance(c, dict)}
    if entity_type in ("corporation", "minor"):
        holder = corps.get(entity) or next(
            (m for m in detail.get("minors") or [] if isinstance(m, dict) and str(m.get("id")) == entity), None)
        owner = holder and (holder.get("president") if "president" in holder else holder.get("owner"))
        return None if owner is None else str(owner)
    if entity_type == "company":
        company = next((c for c in detail.get("companies") or [] if isinstance(c, dict) and str(c.get("id")) == entity), None)
        if company is None or company.get("owner") is None:
            return None
        if company.get("owner_type") == "player":
            return str(company["owner"])
        corp = corps.get(str(company["owner"]))
        return None if not corp or corp.get("president") is None else str(corp["president"])
    return None


def add_parser(sub) -> None:
    client = sub.add_parser("client", help="talk to a running gateway")
    csub = client.add_subparsers(dest="client_command", required=True)

    def p(name, fn, help_):
        parser = csub.add_parser(name, help=help_)
        parser.add_argument("--target", default=DEFAULT_TARGET, help="gateway HOST:PORT (default %(default)s)")
        parser.set_defaults(func=fn)
        return parser

    c = p("create", create, "create a game; prints its id and the seat tokens")
    c.add_argument("--title", required=True)
    c.add_argument("--player", action="append", required=True, help="a seat's name (repeat, in seat order)")
    c.add_argument("--seed", type=int)
    c.add_argument("--rule", action="append", help="an optional rule (repeat)")
    c.add_argument("--game-id")
    c.add_argument("--admin-token", default=ADMIN_TOKEN, help="the platform admin's (default: $ROUNDHOUSE_ADMIN_TOKEN)")
    c = p("show", show, "a readable view of a game")
    c.add_argument("game_id")
    c.add_argument("--json", action="store_true")
    c = p("act", act, "submit an action (18xx.games action JSON)")
    c.add_argument("game_id")
    c.add_argument("action", help='e.g. \'{"type":"pass","entity":"Alice","entity_type":"player"}\'')
    c.add_argument("--token", required=True)
    c.add_argument("--seq", type=int, help="expected sequence (default: the game's current one)")
    c.add_argument("--command-id")
    c = p("watch", watch, "follow a game's events")
    c.add_argument("game_id")
    c.add_argument("--from-seq", type=int, default=0)
    c = p("list", list_games, "list games")
    c.add_argument("--all", action="store_true", help="include finished games")
    c = p("export", export, "print a game as an 18xx.games export")
    c.add_argument("game_id")
    c = p("import", import_, "import an 18xx.games export")
    c.add_argument("file")
    c.add_argument("--admin-token", default=ADMIN_TOKEN)
    c = p("tournament", tournament_create, "create a tournament; prints its id and organiser token")
    c.add_argument("name")
    c.add_argument("--admin-token", default=ADMIN_TOKEN)
    c = p("tournament-add", tournament_add, "add a game to a tournament (organiser token)")
    c.add_argument("tournament_id")
    c.add_argument("game_id")
    c.add_argument("--token", required=True)
    c.add_argument("--game-token", help="the game's operator token (a game the organiser did not create)")
    c = p("standings", standings, "a tournament's standings")
    c.add_argument("tournament_id")
    tournament_client.add_parsers(p, call)
    c = p("replay", replay, "create a game from an export and play its actions through the gateway")
    c.add_argument("file")
    c.add_argument("--json", action="store_true")
