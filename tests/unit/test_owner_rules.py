"""What a game's owner decides without the rules: a game's limits, the undo rule, finished games,
and that every record it writes stays under the log's record limit (runtime.shard, in-process)."""

import random
import string

import orjson
import pytest

from contracts import limits, packed
from contracts.actions import action_from_json
from contracts.envelopes import make_envelope, parse
from contracts.v1 import log_pb2, tournament_pb2
from runtime.seats import OPERATOR
from runtime.shard import Shard

R = log_pb2.RejectReason
SEATS = ("Ann", "Bob", "Cid")


def new_shard(policy: int = 0) -> tuple[Shard, log_pb2.GameCreated]:
    created = log_pb2.GameCreated(title="1856", seed=7, undo_policy=policy,
                                  players=[log_pb2.Player(id=n, name=n) for n in SEATS])
    shard = Shard()
    shard.op_load("g", created=created.SerializeToString())
    return shard, created


class Table:
    """One game in a shard, commanded as the gateway would (any actor, the current sequence)."""

    def __init__(self, policy: int = 0):
        self.shard, _ = new_shard(policy)
        self.policy = policy
        self.n = 0

    @property
    def game(self):
        return self.shard.games["g"].game

    def send(self, action: dict, actor: str) -> dict:
        self.n += 1
        cmd = log_pb2.CommandSubmitted(expected_seq=self.game.seq, action=action_from_json(action), actor=actor)
        env = make_envelope(cmd, game_id="g", seq=self.game.seq, producer="t", command_id=f"c{self.n}")
        answer = self.shard.handle("decide", "g", {"command": env.SerializeToString(), "producer": "t",
                                                   "undo_policy": self.policy})
        if answer["outcome"] == "rejected":
            return {"rejected": answer["code"], "reason": answer["reason"]}
        return {"applied": parse(answer["record"]).action_applied.seq}

    def legal_move(self) -> tuple[dict, str]:
        """The acting player's first bid or pass, and that player."""
        for entry in self.game.legal_actions():
            base = {"entity": entry["entity"], "entity_type": entry["entity_type"]}
            if "pass" in entry["types"]:
                return {"type": "pass", **base}, str(entry["entity"])
        raise AssertionError("no pass offered")

    def move(self) -> str:
        action, actor = self.legal_move()
        assert "applied" in self.send(action, actor)
        return actor


def undo(actor: str, **extra) -> dict:
    return {"type": "undo", "entity": actor, "entity_type": "player", **extra}


def test_a_seat_undoes_only_its_own_moves_nobody_acted_after():
    t = Table()
    first = t.move()
    second = t.move()
    assert first != second
    digest = t.game.digest()
    refused = t.send(undo(first), first)   # the latest move is the second player's
    assert refused["rejected"] == R.NOT_PERMITTED
    assert "only its own moves that nobody has acted after" in refused["reason"] and f"player {second}" in refused["reason"]
    assert t.game.digest() == digest
    # undoing back past another's move is refused too, even by the one who moved first
    refused = t.send(undo(first, action_id=0), first)
    assert refused["rejected"] == R.NOT_PERMITTED
    assert "applied" in t.send(undo(second), second)   # its own latest move
    assert "applied" in t.send({"type": "redo", "entity": second, "entity_type": "player"}, second)
    assert "applied" in t.send(undo(first, action_id=0), OPERATOR)   # the operator may undo anything


def test_undo_policies():
    never = Table(tournament_pb2.UNDO_NEVER)
    actor = never.move()
    refused = never.send(undo(actor), actor)
    assert refused["rejected"] == R.NOT_PERMITTED and "organiser" in refused["reason"]
    assert "applied" in never.send(undo(actor), OPERATOR)

    own_turn = Table(tournament_pb2.UNDO_OWN_TURN)
    actor = own_turn.move()   # (its turn has passed)
    refused = own_turn.send(undo(actor), actor)
    assert refused["rejected"] == R.NOT_PERMITTED and "own turn" in refused["reason"]


def test_a_finished_game_stays_finished():
    t = Table()
    actor = t.move()
    ended = t.send({"type": "end_game", "entity": actor, "entity_type": "player"}, OPERATOR)
    assert "applied" in ended and t.game.finished
    digest = t.game.digest()
    for action in (undo(actor), {"type": "redo", "entity": actor, "entity_type": "player"}, t_pass(actor)):
        refused = t.send(action, actor)
        assert refused["rejected"] == R.GAME_FINISHED_ALREADY, refused
        assert "the game is over" in refused["reason"]
    assert t.game.digest() == digest
    assert "applied" in t.send({"type": "message", "entity": actor, "entity_type": "player", "message": "gg"}, actor)
    assert "applied" in t.send(undo(actor), OPERATOR)   # the operator reopens it
    assert not t.game.finished


def t_pass(actor: str) -> dict:
    return {"type": "pass", "entity": actor, "entity_type": "player"}


def test_actors_survive_a_dump_and_load():
    t = Table()
    first = t.move()
    state = t.shard.op_dump("g", covered_offset=0, producer="t")["record"]
    again = Shard()
    again.op_load("g", state=state)
    t.shard = again
    refused = t.send(undo(first), "Zed")
    assert refused["rejected"] == R.NOT_PERMITTED and f"player {first}" in refused["reason"]
    assert "applied" in t.send(undo(first), first)


def test_a_full_game_log_refuses_more_and_every_record_stays_under_the_record_limit():
    """A game filled with the longest messages of random text (incompressible, the worst case) up to
    its log budget: the next action is refused with LIMIT_REACHED (the operator may still end it),
    and its engine state, view and export each stay under the log's record limit."""
    t = Table()
    actor = t.move()
    rng = random.Random(1)
    text = lambda: "".join(rng.choices(string.printable, k=limits.MAX_MESSAGE_CHARS))  # noqa: E731
    while True:
        answer = t.send({"type": "message", "entity": actor, "entity_type": "player", "message": text()}, actor)
        if "rejected" in answer:
            break
    assert answer["rejected"] == R.LIMIT_REACHED and f"{limits.MAX_GAME_LOG_BYTES:,} bytes" in answer["reason"]
    used = sum(len(orjson.dumps(a)) for a in t.game.actions)
    assert limits.MAX_GAME_LOG_BYTES - 2 * limits.MAX_ACTION_BYTES < used <= limits.MAX_GAME_LOG_BYTES
    digest, seq = t.game.digest(), t.game.seq
    again = t.send({"type": "message", "entity": actor, "entity_type": "player", "message": text()}, actor)
    assert again["rejected"] == R.LIMIT_REACHED
    assert (t.game.digest(), t.game.seq) == (digest, seq)
    state = t.shard.op_dump("g", covered_offset=0, producer="t")["record"]
    view = t.shard.op_view("g", legal=True)["record"]
    export = t.shard.op_query("g", "export", b"{}")["payload"]
    for record in (state, view, export):
        assert len(record) < limits.MAX_RECORD_BYTES
    assert len(packed.unpack(export)) < limits.MAX_RESPONSE_BYTES
    assert "applied" in t.send({"type": "end_game", "entity": actor, "entity_type": "player"}, OPERATOR)


def test_entries_changed_by_changes_nothing():
    t = Table()
    t.move()
    digest, seq = t.game.digest(), t.game.seq
    assert t.game.entries_changed_by(undo("Ann")) == [1]
    with pytest.raises(Exception, match="Nothing to redo"):
        t.game.entries_changed_by({"type": "redo"})
    assert (t.game.digest(), t.game.seq) == (digest, seq)


def test_a_shard_lets_go_of_what_a_request_dropped_once_answered(monkeypatch):
    """The engine process calls Shard.let_go after each answer: the state an undo replaced (an undo
    that rebuilds, as beyond a journal's reach) and a dropped game's state are then emptied (freed by
    reference counts, not left to the collector)."""
    import gc

    from engine import api
    monkeypatch.setattr(api, "JOURNAL_KEPT", 0)

    t = Table()
    first = t.move()
    replaced = t.game.state
    gc.collect()   # (the state lived through a full collection: frozen in an engine process)
    assert "applied" in t.send(undo(first), first)
    t.shard.settle()
    assert vars(replaced) == {} and vars(t.game.state)
    game = t.game
    t.shard.handle("drop", "g", {})
    assert vars(game.state)   # (not yet: after the answer)
    t.shard.settle()
    assert game.state is None and t.shard._closing == []


def test_a_published_view_and_an_answer_carry_the_engine_json_packed():
    """The owner's records hold the view and a query's answer as the engine wrote them, packed."""
    t = Table()
    t.move()
    record = log_pb2.PublishedView.FromString(t.shard.op_view("g", legal=True)["record"])
    assert record.view_json_zstd and not record.view_json_zlib
    assert orjson.loads(packed.view_json(record)) == orjson.loads(
        orjson.dumps(t.game.view(legal_actions=True, shared=True)))
    answer = log_pb2.QueryAnswer(status=log_pb2.QueryAnswer.OK,
                                 payload_zstd=t.shard.op_query("g", "export", b"{}")["payload"])
    assert orjson.loads(packed.answer_json(answer))["actions"] == orjson.loads(orjson.dumps(t.game.actions))
