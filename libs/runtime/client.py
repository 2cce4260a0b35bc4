"""`roundhouse client ...`: a command-line client of the gateway (every subcommand takes --target)."""

from __future__ import annotations

import json
import random
import string
import sys
from pathlib import Path
from typing import Any

import grpc
import orjson

from contracts.actions import MalformedAction, action_from_json, action_to_json
from contracts.envelopes import Kind
from contracts.v1 import gateway_pb2 as gw
from contracts.v1 import gateway_pb2_grpc
from engine.actions import NON_GAME, live_entries

DEFAULT_TARGET = "127.0.0.1:50051"
# Keys of a recorded action that the platform or the engine sets itself.
RECORDED_ONLY = ("id", "original_id", "auto_actions")


class ClientError(Exception):
    """A failed call, already phrased for the user."""


def stub(target: str) -> gateway_pb2_grpc.GatewayStub:
    return gateway_pb2_grpc.GatewayStub(grpc.insecure_channel(target))


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
                               optional_rules=args.rule or [], game_id=args.game_id or "")
    if args.seed is not None:
        req.seed = args.seed
    resp = call(stub(args.target).CreateGame, req, "create")
    out = {"game_id": resp.game_id, "operator_token": resp.operator_token,
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


def _pick(rows: list, keys: tuple[str, ...]) -> list[dict]:
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
    resp = call(stub(args.target).ImportGame, gw.ImportGameRequest(export_json=data), "import")
    print(json.dumps({"game_id": resp.game_id, "seq": resp.seq, "operator_token": resp.operator_token,
                      "seats": [{"player": s.player_id, "token": s.token} for s in resp.seats]}, indent=2))
    return 0


def tournament_create(args) -> int:
    resp = call(stub(args.target).CreateTournament, gw.CreateTournamentRequest(name=args.name), "tournament")
    print(json.dumps({"tournament_id": resp.tournament_id, "operator_token": resp.operator_token}, indent=2))
    return 0


def tournament_add(args) -> int:
    table = call(stub(args.target).AddGame, gw.AddGameRequest(
        tournament_id=args.tournament_id, game_id=args.game_id, token=args.token), "tournament-add")
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
    optional rules; without a recorded seed, a game id that keeps the export's id first (the engine
    derives the same seed from it, as 18xx.games does)."""
    settings = export.get("settings") or {}
    req = gw.CreateGameRequest(
        title=str(export["title"]),
        seats=[seat(p.get("name") or str(p.get("id")), p.get("id")) for p in export["players"]],
        optional_rules=list(settings.get("optional_rules") or []),
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
    again, recorded automatic moves it no longer makes are sent as the players' own, and undos
    name our actions."""

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
            resp = play_entry(self.aligner, recorded, submit)
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
                "result": dict(view.result)}


# Recorded games through today's rules -----------------------------------------------------------

# Fields of a recorded action that describe the record rather than the move.
NOT_THE_MOVE = ("id", "original_id", "auto_actions", "skip", "user", "created_at")
# Automatic actions only the rules make (a player cannot submit them).
ENGINE_ONLY_TYPES = ("destination_connection", "program_disable")
# Recorded choices an automatic pass of the same entity makes unnecessary: 1822's double-cash
# choice, skipped today when it cannot change the player order.
CHOICES_AN_AUTOMATIC_PASS_SKIPS = ("choose",)


class ReplayMismatch(Exception):
    """A recorded entry that cannot be lined up with what today's rules do (phrased for the user)."""


def move_fields(action: dict) -> dict:
    """The move an action makes, without what describes its record (a program_disable's reason is
    free text naming the players as they were called then)."""
    out = {k: v for k, v in action.items() if k not in NOT_THE_MOVE}
    if out.get("type") == "program_disable":
        out.pop("reason", None)
    return out


def same_move(a: dict, b: dict) -> bool:
    return move_fields(a) == move_fields(b)


def _moves(actions) -> list[dict]:
    # program_disable only disarms a program; the moves programs make are compared themselves
    return [a for a in actions or () if a.get("type") != "program_disable"]


def _describe(action: dict) -> str:
    return json.dumps(move_fields(action), sort_keys=True, default=str)


def _describe_all(actions: list) -> str:
    return "[" + ", ".join(_describe(a) for a in actions) + "]"


class ReplayAligner:
    """Lines a recorded game's entries up with the automatic moves today's rules make, for replays
    that submit every entry as the players did (`client replay`, and the tests' engine oracle).

    For each recorded entry `next` says what to submit: the entry without its record fields, or
    None when nothing is to be submitted because
    - an earlier automatic move of ours is this very move (same fields apart from id, time, user):
      rules made automatic after the game was played (1822's destination token, a major with no
      connected minor skipping the acquisition, a programmed pass on the player's own turn), or
    - an automatic pass of ours made this recorded choice of the same entity unnecessary (1822's
      double-cash choice that cannot change the order), or
    - it is an undo/redo touching only such entries.
    After each submission `submitted(our_id, generated)` compares the engine's automatic moves with
    the recorded ones: ours may go further (the record has the rest as its next entries, which must
    then be exactly those moves), or the record may (older rules made more moves automatically: those
    are returned, to be submitted by hand). Anything else raises ReplayMismatch.

    Undo and redo follow the record: the entries they remove or restore are mapped to our actions
    (an undo becomes an undo to just before our first removed action when the plain form would not
    remove exactly those), and what is still ahead of the record is restored with them.

    An entry the record itself undoes later (`actions`: the whole record, else its "skip" mark) may
    differ from ours in the rules' own checks (destination_connection): its effects are discarded
    with it."""

    def __init__(self, actions: list | None = None):
        try:
            self.undone = None if actions is None else [not live for live in live_entries(actions)]
        except Exception:   # an undo naming an unknown action: refused when it comes
            self.undone = None
        self.entries: list[dict] = []      # recorded entries so far
        self.live: list[bool] = []         # which of them are live (undo/redo resolved)
        self.ours: list[list[int]] = []    # per entry: ids of the actions submitted for it
        self.ahead_after: list[tuple] = []  # per entry: our automatic moves the record still has to make
        self.ahead: list[dict] = []
        self.undos: list[bool] = []        # the record's undo stack: was each undo submitted?
        self.extras = 0                    # recorded automatic moves being submitted by hand
        self._saved = None                 # state before an entry whose submission is unconfirmed

    # ----------------------------------------------------------------- per entry
    def next(self, recorded: dict) -> dict | None:
        """The move to submit for the next recorded entry (None: nothing to submit). When the
        previous move returned was never confirmed by `submitted` (the engine refused it), that
        entry is forgotten first, so the same entry may be tried again."""
        if self._saved is not None:
            self._restore()
        self._save()
        index = len(self.entries)
        self.entries.append(recorded)
        self.ours.append([])
        self.ahead_after.append(())
        move = {k: v for k, v in recorded.items() if k not in RECORDED_ONLY}
        kind = recorded.get("type")
        if kind in ("undo", "redo"):
            move = self._undo_redo(index, move)
        elif kind in NON_GAME:
            self.live.append(True)
        else:
            self.live.append(True)
            self.undos.clear()
            if self.ahead and not str(kind).startswith("program_"):
                # (a program is armed out of turn: it is submitted, what it makes compared with ours)
                move = self._against_ahead(index, recorded)
        if move is None:
            self.ahead_after[index] = tuple(self.ahead)
            self._saved = None
        return move

    def submitted(self, our_id: int, generated: list | None) -> list[dict]:
        """The move last returned by `next` (or by this method) was applied as our action `our_id`
        with the automatic moves `generated`. Returns recorded automatic moves our engine did not
        make, to be submitted by hand (each confirmed by calling this again)."""
        self._saved = None   # the engine took the move: the entry stays
        index = len(self.entries) - 1
        recorded = self.entries[index]
        self.ours[index].append(our_id)
        extras: list[dict] = []
        if self.extras:   # a recorded automatic move submitted by hand: what it causes is ahead
            self.extras -= 1
            self.ahead.extend(_moves(generated))
        elif recorded.get("type") not in ("undo", "redo", *NON_GAME):
            self.ahead = self.ahead + _moves(generated)
            extras = self._recorded_automatic(index, recorded)
        self.ahead_after[index] = tuple(self.ahead)
        return extras

    # ----------------------------------------------------------------- helpers
    def _recorded_automatic(self, index: int, recorded: dict) -> list[dict]:
        """Line the entry's recorded automatic moves up with ours (`self.ahead`): ours may go
        further (the rest stays ahead), or the record's (the rest is returned, to submit by hand)."""
        ours, theirs = self.ahead, _moves(recorded.get("auto_actions"))
        a, b = [move_fields(x) for x in ours], [move_fields(x) for x in theirs]
        if a[:len(b)] != b and b[:len(a)] != a and self._undone(index):
            # the record undoes this entry later: the rules' own checks may differ meanwhile
            ours = [x for x in ours if x.get("type") not in ENGINE_ONLY_TYPES]
            theirs = [x for x in theirs if x.get("type") not in ENGINE_ONLY_TYPES]
            a, b = [move_fields(x) for x in ours], [move_fields(x) for x in theirs]
        if a[:len(b)] == b:
            self.ahead = ours[len(b):]
            return []
        if b[:len(a)] == a:
            extras = theirs[len(a):]
            only = [x for x in extras if x.get("type") in ENGINE_ONLY_TYPES]
            if only:
                raise ReplayMismatch(f"the record's automatic {_describe(only[0])} is not what "
                                     f"today's rules do (ours: {_describe_all(ours)})")
            self.ahead, self.extras = [], len(extras)
            return [{k: v for k, v in x.items() if k not in RECORDED_ONLY} for x in extras]
        raise ReplayMismatch(f"the record's automatic moves {_describe_all(theirs)} differ from "
                             f"today's rules' {_describe_all(ours)}")

    def _undone(self, index: int) -> bool:
        if self.undone is not None and index < len(self.undone):
            return self.undone[index]
        return bool(self.entries[index].get("skip"))

    def _against_ahead(self, index: int, recorded: dict) -> None:
        """A recorded entry while our automatic moves are ahead of the record: it must be the next of them."""
        head = self.ahead[0]
        if same_move(recorded, head):
            self.ahead.pop(0)       # our automatic move made it already
        elif (head.get("type") == "pass" and recorded.get("type") in CHOICES_AN_AUTOMATIC_PASS_SKIPS
                and str(head.get("entity")) == str(recorded.get("entity"))
                and head.get("entity_type") == recorded.get("entity_type")):
            self.ahead.pop(0)       # our automatic pass made the recorded choice unnecessary
        else:
            self._restore()
            raise ReplayMismatch(f"today's rules made {_describe(head)} automatically, but the "
                                 f"record's next move is {_describe(recorded)}")
        try:
            extras = self._recorded_automatic(index, recorded)
        except ReplayMismatch:
            self._restore()
            raise
        if extras:
            # the record made more moves automatically after a move ours made earlier: not lined up
            self._restore()
            raise ReplayMismatch(f"the record's automatic moves after {_describe(recorded)} go beyond "
                                 "today's rules' and cannot be submitted in their place")
        return None

    def _undo_redo(self, index: int, move: dict) -> dict | None:
        try:
            after = live_entries(self.entries)
        except Exception as exc:
            self._restore()
            raise ReplayMismatch(str(exc)) from None
        before = self.live + [False]
        changed = [i for i in range(index) if before[i] != after[i]]
        self.live = after
        if move["type"] == "redo":
            real = self.undos.pop() if self.undos else False
        else:
            ids = sorted(our for i in changed for our in self.ours[i])
            real = bool(ids)
            self.undos.append(real)
            plain = "action_id" not in move and len(changed) == 1 and len(ids) == 1
            if real and not plain:
                move = {**move, "action_id": ids[0] - 1}
        latest = [i for i in range(index) if after[i] and self.entries[i].get("type") not in NON_GAME]
        self.ahead = list(self.ahead_after[latest[-1]]) if latest else []
        return move if real else None

    def _save(self):
        self._saved = (len(self.entries), list(self.live), list(self.undos), list(self.ahead), self.extras)

    def _restore(self):
        n, live, undos, ahead, extras = self._saved
        del self.entries[n:], self.ours[n:], self.ahead_after[n:]
        self.live, self.undos, self.ahead, self.extras = live, undos, ahead, extras
        self._saved = None


def play_entry(aligner: ReplayAligner, recorded: dict, submit) -> Any:
    """Play one recorded entry through `submit(move) -> (our_id, generated automatic moves, result)`
    as the aligner says; returns the last submission's result (None when nothing was submitted)."""
    move = aligner.next(recorded)
    if move is None:
        return None
    our_id, generated, result = submit(move)
    for extra in aligner.submitted(our_id, generated):
        our_id, generated, result = submit(extra)
        aligner.submitted(our_id, generated)
    return result


def replay(args) -> int:
    replayer = Replayer(stub(args.target), json.loads(Path(args.file).read_text()))
    replayer.create()
    replayer.run()
    out = replayer.outcome()
    if args.json:
        print(json.dumps(out))
    else:
        print(f"game {out['game_id']}: {out['actions']} actions, finished={out['finished']} "
              f"({out['game_end_reason']}); result {json.dumps(out['result'])}")
    return 0


def _token_for(action: dict, tokens: dict[str, str], acting: list[str], operator: str,
               view=None) -> str:
    """The seat that sends this action, as the players did: a player acts for itself; a
    corporation by its president, a company by its owner (per the game view); failing that, the
    one player the game waits for; the operator token only when all of that is ambiguous."""
    if action.get("type") == "end_game":  # ending a game early is the operator's call
        return operator
    entity = str(action.get("entity"))
    if action.get("entity_type") == "player" and entity in tokens:
        return tokens[entity]
    if view is not None:
        controller = _controller_in_view(view(), action.get("entity_type"), entity)
        if controller in tokens:
            return tokens[controller]
    waiting = [a for a in acting if a in tokens]
    if len(waiting) == 1 or (waiting and action.get("type") in ("undo", "redo", "message")):
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
    c = p("tournament", tournament_create, "create a tournament; prints its id and organiser token")
    c.add_argument("name")
    c = p("tournament-add", tournament_add, "add a game to a tournament (organiser token)")
    c.add_argument("tournament_id")
    c.add_argument("game_id")
    c.add_argument("--token", required=True)
    c = p("standings", standings, "a tournament's standings")
    c.add_argument("tournament_id")
    c = p("replay", replay, "create a game from an export and play its actions through the gateway")
    c.add_argument("file")
    c.add_argument("--json", action="store_true")
