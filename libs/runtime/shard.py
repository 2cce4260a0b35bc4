"""The games one engine process holds, and everything asked of them (runtime.engines sends the
requests). Pure engine work: no I/O, no asyncio; what it returns is plain data and serialized
records ready to append, so the event loop that asked only moves bytes.

Operations on a game: `load` (from an engine state or the set-up, then the decided records after
it, fenced as every reader fences them: runtime.fence), `decide` (a command: duplicate, sequence,
seat and rules checks, then the engine), `flag` (a flag policy's move), `dump` (an EngineState),
`view` (a PublishedView), `query` (export, history, best routes), `drop`. Jobs that hold no game:
`setup` (what a new game of a title starts as), `import` (an 18xx.games export). Every decision's
record carries the owner epoch its owner claimed the game with (OwnerClaimed).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Generator, Iterator, Sequence
from typing import Any

import orjson

import engine
from engine import stepwise
from contracts import limits, packed
from contracts.actions import MalformedAction, action_from_json, action_to_json, action_type
from contracts.envelopes import make_envelope, parse
from contracts.v1 import log_pb2, tournament_pb2
from runtime.fence import Fence
from runtime.ledger import ints
from runtime.seats import ANY_SEAT_TYPES, OPERATOR, OPERATOR_ONLY_TYPES, Refusal, finished_refusal, policy_refusal
from tournament import FlagPolicy, automatic_move, flag_decision

R = log_pb2.RejectReason
U = tournament_pb2.UndoPolicy
log = logging.getLogger(__name__)


def engine_players(created: log_pb2.GameCreated) -> list[dict[str, Any]]:
    return [{"id": int(p.id) if p.id_is_number else p.id, "name": p.name} for p in created.players]


def build_game(game_id: str, created: log_pb2.GameCreated) -> engine.Game:
    """The engine game a GameCreated describes (raises engine.GameError if it is invalid)."""
    if created.import_json:
        return engine.import_game(orjson.loads(created.import_json))
    return engine.new_game(
        created.title, engine_players(created), seed=created.seed, game_id=game_id,
        optional_rules=list(created.optional_rules),
    )


def summary_of(game: engine.Game) -> log_pb2.ReplicaSummary:
    return log_pb2.ReplicaSummary(
        seq=game.seq, round_kind=game.round_kind, round_label=game.round_label,
        finished=bool(game.finished), game_end_reason=game.game_end_reason or "",
        result=ints(game.result), values=ints(game.player_values()),
        acting_players=[str(p) for p in game.acting_players()],
    )


class QueryInvalid(Exception):
    """A query with bad arguments (the message says which)."""


class Hosted:
    """A game held here: its engine, the commands decided last, who made each entry of its log
    (`actors`, index seq - 1; "" when unknown) and the bytes of its log (counted at its first
    decision)."""

    __slots__ = ("game", "decided", "actors", "log_bytes")

    def __init__(self, game: engine.Game, decided: "OrderedDict[str, log_pb2.DecidedCommand]",
                 actors: list[str] | None = None):
        self.game = game
        self.decided = decided
        self.actors = list(actors or [])
        self.log_bytes: int | None = None

    def record(self, actor: str, stored: dict | None = None) -> None:
        """The entry just appended to the game's log was made by `actor`."""
        del self.actors[self.game.seq - 1:]
        self.actors.extend([""] * (self.game.seq - 1 - len(self.actors)))
        self.actors.append(actor)
        if stored is not None and self.log_bytes is not None:
            self.log_bytes += len(orjson.dumps(stored))

    def actor(self, seq: int) -> str:
        return self.actors[seq - 1] if 0 < seq <= len(self.actors) else ""

    def bytes_used(self) -> int:
        if self.log_bytes is None:
            self.log_bytes = sum(len(orjson.dumps(a)) for a in self.game.actions)
        return self.log_bytes


class TailGap(ValueError):
    """The decided records given after an engine state do not follow it (one is missing between):
    the owner loads the game from its set-up and log instead (`runtime.owner`). Not a fault of the
    engine process, which reports it without a traceback."""


class Shard:
    def __init__(self, window: int = 1000):
        self.window = window
        self.games: dict[str, Hosted] = {}
        self._setups: dict[tuple, dict] = {}
        self._unsettled: dict[str, None] = {}   # the games of the requests since they were last settled
        self._closing: list[engine.Game] = []   # engines dropped since the last settle
        self._steps: Iterator[int] | None = None   # the settling under way (see settle_step) ...
        self._steps_of: str | None = None          # ... of this game (None: of a dropped engine)

    def handle(self, op: str, game_id: str | None, kw: dict) -> Any:
        if game_id is not None:
            self._finish_settling(game_id)
            self._unsettled[game_id] = None
        return getattr(self, "op_" + op)(game_id, **kw)

    def handle_in_steps(self, op: str, game_id: str, kw: dict) -> Generator[None, None, Any]:
        """A request of an op in STEPPED (``steps_<op>``) answered in steps of a few milliseconds, so
        that the engine process answers other games' requests between two of them (runtime.engines);
        its answer is what the last step returns. Nothing else may use the game before then."""
        self._finish_settling(game_id)
        return getattr(self, "steps_" + op)(game_id, **kw)

    def _finish_settling(self, game_id: str) -> None:
        if game_id == self._steps_of:   # (its settling, begun, is finished before it is used)
            self._finish_steps()

    def settle(self) -> None:
        """The work the requests since the last call left for after their answers
        (engine.Game.settle): the undo copy of the state a game ended at when one is due, the journal
        an undo's rebuild asked for, and the reference cycles of the rules states they dropped cut
        (the state an undo replaced, a dropped or replaced game's, a job's). Done once their answers
        are written (runtime.engines), so that nobody waits for it, in steps (``settle_step``); freed
        by reference counts, the states leave nothing for the collector's compactions
        (runtime.collector). (A copy still due, or a journal not started, when its game's next move
        comes is taken, or started, then, before the move: engine.Game.process.)"""
        while self.settle_step():
            pass

    def settle_step(self) -> bool:
        """One step of ``settle`` (a millisecond or two: engine.stepwise); whether more is owed. A
        request of the game whose settling is under way finishes it first (``handle``)."""
        if self._steps is None:
            if self._closing:
                self._steps, self._steps_of = self._closing.pop(0).close_steps(), None
            elif self._unsettled:
                game_id = next(iter(self._unsettled))
                del self._unsettled[game_id]
                hosted = self.games.get(game_id)
                if hosted is not None:
                    self._steps, self._steps_of = hosted.game.settle_steps(), game_id
        if self._steps is not None and next(self._steps, None) is None:
            self._steps = self._steps_of = None
        return self._steps is not None or bool(self._closing or self._unsettled)

    def _finish_steps(self) -> None:
        assert self._steps is not None
        for _ in self._steps:
            pass
        self._steps = self._steps_of = None

    def _hosted(self, game_id: str) -> Hosted:
        hosted = self.games.get(game_id)
        if hosted is None:
            raise KeyError(f"game {game_id} is not loaded here")
        return hosted

    def _remember(self, hosted: Hosted, decided: log_pb2.DecidedCommand) -> None:
        hosted.decided[decided.command_id] = decided
        while len(hosted.decided) > self.window:
            hosted.decided.popitem(last=False)

    # games --------------------------------------------------------------------------------------

    def op_has(self, game_id: str) -> int | None:
        hosted = self.games.get(game_id)
        return None if hosted is None else hosted.game.seq

    def op_load(self, game_id: str, state: bytes | None = None, created: bytes | None = None,
                tail: Sequence[bytes] = ()) -> dict:
        return stepwise.finish(self.steps_load(game_id, state, created, tail))

    def steps_load(self, game_id: str, state: bytes | None = None, created: bytes | None = None,
                   tail: Sequence[bytes] = ()) -> Generator[None, None, dict]:
        """The game from an EngineState (else its set-up), then the decided records and claims after
        it: a decision counts only from the game's latest claim there, as in every ledger. In steps
        (STEPPED): the state read or built, then each action of the tail, then the digest; the game
        replaces the one held (if any) at the end."""
        decided: OrderedDict[str, log_pb2.DecidedCommand] = OrderedDict()
        actors: list[str] = []
        fence = Fence()
        if state:
            es = log_pb2.EngineState.FromString(state)
            game = engine.load(es.data)
            for d in es.decided:
                decided[d.command_id] = d
            actors = list(es.actors)[:game.seq]
            fence = Fence.from_proto(es.fence)
        else:
            game = build_game(game_id, log_pb2.GameCreated.FromString(created))
        hosted = Hosted(game, decided, actors + [""] * (game.seq - len(actors)))
        for value in tail:
            env = parse(value)
            body = env.WhichOneof("body")
            if body == "owner_claimed":
                fence.take_claim(env, game.round_kind)
                continue
            if not fence.admits(env):
                continue
            if body == "action_applied":
                applied = env.action_applied
                if applied.seq <= game.seq:
                    continue   # already in the state
                if applied.seq != game.seq + 1:
                    raise TailGap(f"game {game_id}: the records after its state skip from seq {game.seq} to {applied.seq}")
                yield None
                game.process(action_to_json(applied.action))
                hosted.record(applied.actor)
                self._remember(hosted, log_pb2.DecidedCommand(command_id=env.command_id, seq=applied.seq))
            elif body == "action_rejected":
                rej = env.action_rejected
                self._remember(hosted, log_pb2.DecidedCommand(command_id=env.command_id, rejected=rej.code, reason=rej.reason))
        yield None
        self._finish_settling(game_id)   # (of the engine it replaces, begun meanwhile)
        if game_id in self.games:
            self._closing.append(self.games[game_id].game)
        self.games[game_id] = hosted
        self._unsettled[game_id] = None
        return {"seq": game.seq, "digest": game.digest(), "loaded_by": game.loaded_by}

    def op_drop(self, game_id: str) -> None:
        hosted = self.games.pop(game_id, None)
        if hosted is not None:
            self._closing.append(hosted.game)

    def op_decide(self, game_id: str, command: bytes, producer: str, undo_policy: int = 0, epoch: int = 0) -> dict:
        """Decide one CommandSubmitted envelope: the record to append and what it was.
        `undo_policy`: the game's (GameCreated.undo_policy); `epoch`: the owner epoch the deciding
        owner claimed the game with (the record carries it)."""
        hosted = self._hosted(game_id)
        game = hosted.game
        env = log_pb2.Envelope.FromString(command)
        cmd, cid = env.command_submitted, env.command_id
        first = hosted.decided.get(cid)
        if first is not None:
            dup = log_pb2.DuplicateCommand(first=first)
            if first.seq and not first.rejected and first.seq <= game.seq:
                dup.action.CopyFrom(action_from_json(game.actions[first.seq - 1]))
            record = make_envelope(dup, game_id=game_id, seq=game.seq, producer=producer, command_id=cid,
                                   owner_epoch=epoch)
            return {"outcome": "duplicate", "record": record.SerializeToString()}
        if cmd.expected_seq > game.seq:
            return {"outcome": "ahead"}
        if cmd.expected_seq < game.seq:
            return self._reject(hosted, env, producer, epoch, R.STALE_SEQUENCE,
                                f"expected_seq {cmd.expected_seq} is stale: the game is at seq {game.seq}")
        try:
            action = action_to_json(cmd.action)
        except MalformedAction as exc:
            return self._reject(hosted, env, producer, epoch, R.MALFORMED_ACTION, str(exc))
        refusal = (finished_refusal(game.finished, action.get("type", ""), cmd.actor) or self._over_limit(hosted, action)
                   or self._not_permitted(hosted, action, cmd.actor, undo_policy))
        if refusal is not None:
            code, reason = refusal
            return self._reject(hosted, env, producer, epoch, code, reason)
        kind_before, label_before = game.round_kind, game.round_label
        try:
            stored = game.process(action)
        except engine.GameError as exc:
            reason = exc.reason
            if exc.__cause__ is not None and not isinstance(exc.__cause__, engine.GameError):
                # a defect of the rules code: the details go to the log, not to the player
                log.error("game %s: the engine failed on %s: %s", game_id, action.get("type"), exc.reason)
                reason = f"the engine could not apply this {action.get('type', 'action')} (a defect, logged)"
            return self._reject(hosted, env, producer, epoch, R.ILLEGAL_ACTION, reason)
        seq = game.seq
        hosted.record(cmd.actor, stored)
        self._remember(hosted, log_pb2.DecidedCommand(command_id=cid, seq=seq))
        changed = game.round_label != label_before or game.round_kind != kind_before
        applied = log_pb2.ActionApplied(
            seq=seq, action=action_from_json(stored), round_kind=game.round_kind,
            round_label=game.round_label, digest=game.digest() if changed or game.finished else "",
            actor=cmd.actor, finished=bool(game.finished), game_end_reason=game.game_end_reason or "",
            result=ints(game.result), values=ints(game.player_values()),
            acting_players=[str(p) for p in game.acting_players()],
        )
        record = make_envelope(applied, game_id=game_id, seq=seq, producer=producer, command_id=cid,
                               owner_epoch=epoch)
        return {"outcome": "applied", "record": record.SerializeToString(), "kind_before": kind_before,
                "type": action.get("type", "")}

    def op_flag(self, game_id: str, seats: list[str], policy: str, producer: str, epoch: int = 0) -> dict:
        """What the flag policy does now in a game whose `seats` flags fell (tournament.clock): the
        end of the game, or (remove_seat) the automatic move of a flagged seat the game waits for,
        decided as the operator's (a decision like any other: `epoch` as in op_decide).
        {"outcome": "none"} when nothing is due."""
        game = self._hosted(game_id).game
        if game.finished:
            return {"outcome": "none"}
        action = None
        if FlagPolicy(policy) is FlagPolicy.END_GAME:
            action = flag_decision(FlagPolicy.END_GAME, seats[0]).action
        else:
            acting = {str(p) for p in game.acting_players()}
            legal = None
            for seat in seats:
                if seat in acting:
                    legal = legal if legal is not None else game.legal_actions()
                    action = automatic_move(seat, legal)
                    if action is not None:
                        break
        if action is None:
            return {"outcome": "none"}
        command = make_envelope(
            log_pb2.CommandSubmitted(expected_seq=game.seq, action=action_from_json(action), actor=OPERATOR),
            game_id=game_id, seq=game.seq, producer=producer, command_id=f"clock:{game_id}:{game.seq}")
        return self.op_decide(game_id, command.SerializeToString(), producer, epoch=epoch)

    @staticmethod
    def _over_limit(hosted: Hosted, action: dict) -> Refusal | None:
        if action.get("type") == "end_game":
            return None   # the operator may always end a game that is full
        if hosted.game.seq >= limits.MAX_GAME_ENTRIES:
            return R.LIMIT_REACHED, f"the game holds {limits.MAX_GAME_ENTRIES:,} entries, the most a game may hold"
        size = len(orjson.dumps(action))
        if hosted.bytes_used() + size > limits.MAX_GAME_LOG_BYTES:
            return R.LIMIT_REACHED, (f"the game's log holds {hosted.bytes_used():,} bytes; with this action it"
                                     f" would pass the limit of {limits.MAX_GAME_LOG_BYTES:,} bytes")
        return None

    @staticmethod
    def _not_permitted(hosted: Hosted, action: dict, actor: str, undo_policy: int = 0) -> Refusal | None:
        game = hosted.game
        if actor == OPERATOR:
            return None
        kind = action.get("type")
        if kind in OPERATOR_ONLY_TYPES:
            return R.NOT_PERMITTED, f"only the game's operator token may {str(kind).replace('_', ' ')}"
        if kind in ("undo", "redo"):
            return Shard._undo_refusal(hosted, action, actor, undo_policy)
        if kind in ANY_SEAT_TYPES:
            return None
        try:
            controller = game.controller_of(action)
        except engine.GameError as exc:
            return R.ILLEGAL_ACTION, exc.reason
        if controller is None or str(controller) != actor:
            who = "nobody" if controller is None else f"player {controller}"
            return R.NOT_PERMITTED, (f"seat {actor} may not act for {action.get('entity_type', 'entity')} "
                                     f"{action.get('entity')!r} (controlled by {who})")
        return None

    @staticmethod
    def _undo_refusal(hosted: Hosted, action: dict, actor: str, policy: int) -> Refusal | None:
        """The undo rule: a seat undoes (or redoes) only its own moves that nobody acted after; a
        game's undo policy may leave undo to the operator (UNDO_NEVER) or allow it only while the
        seat is acting (UNDO_OWN_TURN)."""
        kind = action["type"]
        refusal = policy_refusal(policy, kind, actor)
        if refusal is not None:
            return refusal
        try:
            changed = hosted.game.entries_changed_by(action)
        except engine.GameError as exc:
            return R.ILLEGAL_ACTION, exc.reason
        others = [seq for seq in changed if hosted.actor(seq) != actor]
        if others:
            who = hosted.actor(others[0])
            by = "the operator" if who == OPERATOR else f"player {who}" if who else "another hand (before the game was imported here)"
            return R.NOT_PERMITTED, (f"a seat may {kind} only its own moves that nobody has acted after: entry"
                                     f" {others[0]} was made by {by}; ask them, or the game's operator")
        if policy == U.UNDO_OWN_TURN and actor not in [str(p) for p in hosted.game.acting_players()]:
            return R.NOT_PERMITTED, f"this game allows a seat to {kind} only during its own turn"
        return None

    def _reject(self, hosted: Hosted, env: log_pb2.Envelope, producer: str, epoch: int, code: log_pb2.RejectReason,
                reason: str) -> dict:
        game = hosted.game
        cmd = env.command_submitted
        self._remember(hosted, log_pb2.DecidedCommand(command_id=env.command_id, rejected=code, reason=reason))
        rejected = log_pb2.ActionRejected(
            code=code, reason=reason, expected_seq=cmd.expected_seq, current_seq=game.seq,
            action_type=action_type(cmd.action), round_kind=game.round_kind,
        )
        record = make_envelope(rejected, game_id=env.game_id, seq=game.seq, producer=producer,
                               command_id=env.command_id, owner_epoch=epoch)
        return {"outcome": "rejected", "record": record.SerializeToString(), "code": code, "reason": reason}

    def op_dump(self, game_id: str, covered_offset: int, producer: str, fence: bytes = b"") -> dict:
        """The game's EngineState; `fence`: the game's OwnerFence as of `covered_offset`."""
        hosted = self._hosted(game_id)
        game = hosted.game
        state = log_pb2.EngineState(
            game_id=game_id, seq=game.seq, digest=game.digest(), covered_offset=covered_offset,
            data=game.dump(), decided=list(hosted.decided.values()), producer=producer, actors=hosted.actors,
            timestamp_ms=int(time.time() * 1000), fence=log_pb2.OwnerFence.FromString(fence),
        )
        return {"record": state.SerializeToString(), "seq": game.seq, "digest": state.digest}

    def op_view(self, game_id: str, legal: bool) -> dict:
        game = self._hosted(game_id).game
        view = log_pb2.PublishedView(
            game_id=game_id, seq=game.seq, digest=game.digest(), legal_actions=legal,
            view_json_zstd=packed.pack(game.view(legal_actions=legal, shared=True)),
            summary=summary_of(game), timestamp_ms=int(time.time() * 1000),
        )
        return {"record": view.SerializeToString(), "seq": game.seq}

    def op_query(self, game_id: str, query: str, args: bytes) -> dict:
        game = self._hosted(game_id).game
        try:
            params = orjson.loads(args or b"{}")
            if not isinstance(params, dict):
                raise QueryInvalid("the query's arguments must be a JSON object")
            answer = self._answer(game, query, params)
        except (QueryInvalid, orjson.JSONDecodeError) as exc:
            return {"status": log_pb2.QueryAnswer.INVALID, "error": str(exc)}
        except engine.GameError as exc:
            return {"status": log_pb2.QueryAnswer.INVALID, "error": exc.reason}
        return {"status": log_pb2.QueryAnswer.OK, "payload": packed.pack(answer),
                "seq": game.seq}

    @staticmethod
    def _answer(game: engine.Game, query: str, params: dict) -> Any:
        if query == "export":
            return game.export()
        if query == "history":
            start = params.get("from_seq", 0)
            if not isinstance(start, int) or isinstance(start, bool) or start < 0:
                raise QueryInvalid("from_seq must be a whole number, 0 or more")
            return {"seq": game.seq, "actions": game.actions[start:]}
        if query == "best_routes":
            corporation = params.get("corporation")
            if not isinstance(corporation, str) or not corporation:
                raise QueryInvalid("best_routes needs a corporation id")
            return {"seq": game.seq, "routes": game.best_routes(corporation)}
        if query == "tile_lays":
            where = [params.get(k) for k in ("entity", "entity_type", "hex")]
            if not all(isinstance(v, str) and v for v in where):
                raise QueryInvalid("tile_lays needs an entity, its entity_type and a hex")
            return {"seq": game.seq, "lays": game.tile_lays(*where)}
        raise QueryInvalid(f"unknown query {query!r}; known: export, history, best_routes, tile_lays")

    # jobs ---------------------------------------------------------------------------------------

    def op_setup(self, game_id: None, title: str, optional_rules: list[str], players: int) -> dict:
        """What a new game of the title starts as, per seat index (the engine builds one such game
        per title, rules and player count; the result does not depend on the seats or the seed)."""
        key = (title, tuple(optional_rules), players)
        known = self._setups.get(key)
        if known is None:
            seats = [{"id": f"seat{i}", "name": f"seat{i}"} for i in range(players)]
            game = engine.new_game(title, seats, seed=0, optional_rules=optional_rules)
            index = {str(s["id"]): i for i, s in enumerate(seats)}
            values = game.player_values()
            known = {
                "title": game.title, "round_kind": game.round_kind, "round_label": game.round_label,
                "acting": [index[str(p)] for p in game.acting_players() if str(p) in index],
                "values": [int(values.get(f"seat{i}", 0)) for i in range(players)],
            }
            self._setups[key] = known
            self._closing.append(game)
        return known

    def op_import(self, _none: None, target: str, export: bytes, producer: str) -> dict:
        """Validate an 18xx.games export by replaying it; its engine state (as game `target`) and
        summary."""
        game_id = target
        game = engine.import_game(orjson.loads(export))
        state = log_pb2.EngineState(
            game_id=game_id, seq=game.seq, digest=game.digest(), covered_offset=-1, data=game.dump(),
            producer=producer, timestamp_ms=int(time.time() * 1000),
        )
        self._closing.append(game)
        return {
            "state": state.SerializeToString(), "summary": summary_of(game).SerializeToString(),
            "title": game.title, "players": game.players, "seed": int(game.seed),
            "optional_rules": list(game.optional_rules), "seq": game.seq, "digest": state.digest,
        }
