"""Fencing a game's owner (runtime.fence): which claims hold, whose decisions every ledger and every
engine load takes, and that every decision an owner's engine writes (a flag policy's included)
carries the epoch it claimed the game with."""

from contracts.actions import action_from_json
from contracts.envelopes import make_envelope, parse
from contracts.v1 import log_pb2
from runtime.fence import STALE_CLAIM_MS, Fence
from runtime.ledger import Ledger
from runtime.seats import OPERATOR
from runtime.shard import Shard, summary_of
from tournament import FlagPolicy

SEATS = ("Ann", "Bob", "Cid")
A, B, Z = "auction/a", "auction/b", "auction/zombie"
GEN = 5


def epoch(generation: int, count: int = 1) -> int:
    return generation << 32 | count


def claim(service: str, producer: str, owner_epoch: int, at_ms: int = 1_000_000, game_id: str = "g"):
    env = make_envelope(log_pb2.OwnerClaimed(service=service), game_id=game_id, seq=0, producer=producer,
                        owner_epoch=owner_epoch)
    env.timestamp_ms = at_ms
    return env


def decision(producer: str, owner_epoch: int, seq: int = 1, round_kind: str = "auction", command_id: str = "c1"):
    applied = log_pb2.ActionApplied(seq=seq, round_kind=round_kind, round_label="x", actor="Ann",
                                    action=action_from_json({"type": "pass", "entity": "Ann", "entity_type": "player"}))
    return make_envelope(applied, game_id="g", seq=seq, producer=producer, command_id=command_id,
                         owner_epoch=owner_epoch)


def test_which_claims_hold():
    fence = Fence()
    assert fence.admits(decision(Z, 0)), "before the first claim every decision counts"
    assert not fence.take_claim(claim("stock_round", "stock_round/s", epoch(9)), "auction"), \
        "only the owner of the game's round may claim it"
    assert fence.take_claim(claim("auction", A, epoch(GEN)), "auction")
    assert fence.admits(decision(A, epoch(GEN)))
    assert not fence.admits(decision(A, epoch(GEN - 1))), "an earlier epoch of the same instance"
    assert not fence.admits(decision(Z, epoch(GEN))), "the same epoch from another instance"
    assert not fence.take_claim(claim("auction", Z, epoch(GEN)), "auction"), "a repeated epoch"
    assert fence.next_epoch("auction", GEN) == epoch(GEN, 2)
    assert fence.next_epoch("auction", GEN + 1) == epoch(GEN + 1)
    assert fence.take_claim(claim("auction", A, epoch(GEN, 2), at_ms=2_000_000), "auction")
    assert not fence.admits(decision(A, epoch(GEN))), "the instance's own earlier claim"
    # an earlier generation (a zombie) is fenced, until the broker may have forgotten the group
    assert not fence.take_claim(claim("auction", Z, epoch(GEN - 1, 7), at_ms=2_000_000 + 60_000), "auction")
    later = 2_000_000 + STALE_CLAIM_MS + 1
    assert fence.would_hold("auction", epoch(1), later, "auction")
    # each service's latest claim counts: a zombie of an earlier generation stays fenced after the
    # game went to another round and came back
    assert fence.take_claim(claim("stock_round", "stock_round/s", epoch(2)), "stock_round")
    assert fence.owner == "stock_round" and not fence.admits(decision(A, epoch(GEN, 2)))
    assert not fence.take_claim(claim("auction", Z, epoch(GEN - 1)), "auction")
    assert fence.take_claim(claim("auction", B, epoch(GEN + 1)), "auction")
    assert Fence.from_proto(fence.to_proto()) == fence


def new_game() -> tuple[Shard, log_pb2.GameCreated]:
    created = log_pb2.GameCreated(title="1856", seed=7, players=[log_pb2.Player(id=n, name=n) for n in SEATS])
    shard = Shard()
    shard.op_load("g", created=created.SerializeToString())
    created.summary.CopyFrom(summary_of(shard.games["g"].game))
    return shard, created


def ledger(created: log_pb2.GameCreated) -> Ledger:
    env = make_envelope(created, game_id="g", seq=0, producer="gateway/t")
    return Ledger.created_from(env, partition=0, offset=0, tails=True)


def command(shard: Shard, n: int, move: str = "pass", game_id: str = "g") -> log_pb2.Envelope:
    game = shard.games[game_id].game
    entry = game.legal_actions()[0]
    action = {"type": move, "entity": entry["entity"], "entity_type": entry["entity_type"]}
    if move == "bid":
        company = next(c for c in entry["companies"] if c.get("may_buy"))
        action.update(company=company["company"], price=company["min_bid"])
    cmd = log_pb2.CommandSubmitted(expected_seq=game.seq, action=action_from_json(action), actor=str(entry["entity"]))
    return make_envelope(cmd, game_id=game_id, seq=game.seq, producer="gateway/t", command_id=f"c{n}")


class Log:
    """One game's records, taken into a ledger as a reader takes them (offsets in order)."""

    def __init__(self, led: Ledger):
        self.led = led
        self.records: list[tuple[int, bytes]] = []

    def read(self, env: log_pb2.Envelope) -> str:
        value = env.SerializeToString()
        offset = len(self.records) + 1
        self.records.append((offset, value))
        what = self.led.take(env, env.WhichOneof("body"), offset, value)
        if what != "dirty-free":
            self.led.mark(offset)   # (as a service's reader does)
        return what


def test_every_decision_an_engine_writes_carries_the_owners_epoch():
    shard, _ = new_game()
    e = epoch(GEN, 3)
    applied = parse(shard.op_decide("g", command(shard, 1).SerializeToString(), A, epoch=e)["record"])
    assert applied.WhichOneof("body") == "action_applied" and applied.owner_epoch == e
    stale = command(shard, 2)
    stale.command_submitted.expected_seq = 0
    rejected = parse(shard.op_decide("g", stale.SerializeToString(), A, epoch=e)["record"])
    assert rejected.action_rejected.code == log_pb2.STALE_SEQUENCE and rejected.owner_epoch == e
    again = command(shard, 1)
    duplicate = parse(shard.op_decide("g", again.SerializeToString(), A, epoch=e)["record"])
    assert duplicate.WhichOneof("body") == "duplicate_command" and duplicate.owner_epoch == e
    # a flag policy's move is a decision like any other
    flagged = shard.op_flag("g", seats=["Bob"], policy=FlagPolicy.END_GAME.value, producer=A, epoch=e)
    ended = parse(flagged["record"])
    assert flagged["outcome"] == "applied" and ended.action_applied.actor == OPERATOR
    assert ended.action_applied.finished and ended.owner_epoch == e and ended.producer == A


def test_a_ledger_takes_decisions_only_from_the_latest_claim():
    shard, created = new_game()
    log = Log(ledger(created))
    led = log.led
    assert log.read(claim("auction", A, epoch(GEN))) == "applied"
    assert log.read(command(shard, 1)) == "applied"
    first = parse(shard.op_decide("g", command(shard, 1).SerializeToString(), A, epoch=epoch(GEN))["record"])
    assert log.read(first) == "applied" and led.seq == 1
    # B claims after a rebalance; what A still appends is ignored: a decision, a flag policy's
    # ending, a checkpoint pointing at an engine state of its own
    assert log.read(claim("auction", B, epoch(GEN + 1))) == "applied"
    ending = parse(shard.op_flag("g", seats=["Bob"], policy=FlagPolicy.END_GAME.value, producer=A,
                                 epoch=epoch(GEN))["record"])
    assert log.read(ending) == "fenced"
    assert led.seq == 1 and not led.finished and not led.result
    cp = log_pb2.Checkpointed(covered_offset=4, state=log_pb2.StateRef(offset=77, seq=2, covered_offset=4))
    assert log.read(make_envelope(cp, game_id="g", seq=1, producer=A, owner_epoch=epoch(GEN))) == "dirty-free"
    assert led.state is None and led.covered == 4, "what it covers stands, not its state"
    assert log.read(decision(A, epoch(GEN), seq=2, command_id="c2")) == "fenced"
    theirs = decision(B, epoch(GEN + 1), seq=2, command_id="c2")
    theirs.action_applied.digest = "d2"   # (a round change)
    assert log.read(theirs) == "applied" and led.seq == 2
    # an engine state at the log's latest digest is the log's game, whoever wrote it (the previous
    # round's owner hands a game over so); at another digest it is not taken
    for digest, taken in (("d1", False), ("d2", True)):
        ref = log_pb2.StateRef(offset=78, seq=2, digest=digest, covered_offset=8)
        cp = log_pb2.Checkpointed(covered_offset=8, state=ref)
        assert log.read(make_envelope(cp, game_id="g", seq=2, producer=A, owner_epoch=epoch(GEN))) == "dirty-free"
        assert (led.state == ref) is taken, digest
    # a reader starting from the ledger's snapshot fences alike
    again = Ledger.from_snapshot(led.snapshot("auction/b"), tails=True, tail_from=0)
    assert again.fence == led.fence
    assert again.take(decision(A, epoch(GEN), seq=3, command_id="c3"), "action_applied", 9, b"") == "fenced"
    assert again.seq == 2


def test_a_decision_made_here_and_fenced_off_is_undone_and_its_command_pending_again():
    shard, created = new_game()
    log = Log(ledger(created))
    led = log.led
    log.read(claim("auction", A, epoch(GEN)))
    cmd = command(shard, 1, "bid")
    log.read(cmd)
    # A decides c1 (its ledger moves on before the decision is read back) ...
    mine = parse(shard.op_decide("g", cmd.SerializeToString(), A, epoch=epoch(GEN))["record"])
    led.settle("c1")
    led.apply_local(mine.action_applied, "c1", A)
    assert led.seq == 1 and not led.pending
    assert [e.command_id for e in led.snapshot(A).pending] == ["c1"], "pending at the snapshot's offset"
    # ... but B claimed the game first: A's decision is fenced off when it is read back
    assert log.read(claim("auction", B, epoch(GEN + 1))) == "applied"
    assert log.read(mine) == "conflict"
    assert led.seq == 0 and not led.local and list(led.pending) == ["c1"]
    assert led.tail_after(0) == [log.records[0][1], log.records[2][1]], "the claims, not A's decision"
    # B decides it (another move): every reader, A's ledger included, takes B's
    theirs = decision(B, epoch(GEN + 1), seq=1, command_id="c1")
    assert log.read(theirs) == "applied" and led.seq == 1 and not led.pending


def test_a_claim_is_judged_by_the_round_the_log_has():
    """An owner whose own decision ended its round has not read it back yet: a claim by the next
    round's service before that decision in the log does not hold, for it as for every reader."""
    shard, created = new_game()
    log = Log(ledger(created))
    led = log.led
    log.read(claim("auction", A, epoch(GEN)))
    led.apply_local(decision(A, epoch(GEN), seq=1, round_kind="stock_round").action_applied, "c1", A)
    assert led.round_kind == "stock_round" and led.logged("round_kind") == "auction"
    assert log.read(claim("stock_round", "stock_round/s", epoch(2))) == "fenced"
    assert log.read(claim("auction", B, epoch(GEN + 1))) == "applied"


def test_an_engine_loads_only_the_decisions_its_fence_takes():
    shard, created = new_game()          # A, the owner
    other, _ = new_game()                # Z, a zombie deciding another move at the same seq
    records = [claim("auction", A, epoch(GEN)).SerializeToString()]
    forged = other.op_decide("g", command(other, 9, "bid").SerializeToString(), Z, epoch=epoch(GEN - 1))
    records.append(forged["record"])
    for n in (1, 2):
        records.append(shard.op_decide("g", command(shard, n).SerializeToString(), A, epoch=epoch(GEN))["record"])
    game = shard.games["g"].game
    loaded = Shard()
    answer = loaded.op_load("g", created=created.SerializeToString(), tail=records)
    assert (answer["seq"], answer["digest"]) == (2, game.digest())
    # from an engine state: the fence as of the state fences the records after it
    led = ledger(created)
    for offset, value in enumerate(records, start=1):
        led.take(parse(value), parse(value).WhichOneof("body"), offset, value)
    state = loaded.op_dump("g", covered_offset=4, producer=A, fence=led.fence.to_proto().SerializeToString())
    other.op_decide("g", command(other, 10).SerializeToString(), Z, epoch=epoch(GEN - 1))
    after = [other.op_decide("g", command(other, 11, "bid").SerializeToString(), Z, epoch=epoch(GEN - 1))["record"],
             shard.op_decide("g", command(shard, 3).SerializeToString(), A, epoch=epoch(GEN))["record"]]
    assert parse(after[0]).action_applied.action != parse(after[1]).action_applied.action
    answer = Shard().op_load("g", state=state["record"], tail=after)
    assert (answer["seq"], answer["digest"]) == (3, game.digest())


def test_an_engine_state_never_covers_a_seq_it_does_not_hold():
    """The previous round's owner hands the game over with an engine state at its last seq; when the
    next owner has already decided on top of it and this ledger has read that, the state may not be
    written (its covered offset would include the next seq, and a reader loading it would skip
    that seq), and a state at the ledger's seq covers what the ledger read."""
    shard, created = new_game()
    log = Log(ledger(created))
    led = log.led
    log.read(claim("auction", A, epoch(GEN)))
    log.read(command(shard, 1))
    first = parse(shard.op_decide("g", command(shard, 1).SerializeToString(), A, epoch=epoch(GEN))["record"])
    first.action_applied.digest = "d1"   # (its round ended: the stock round's owner takes the game)
    first.action_applied.round_kind = "stock_round"
    log.read(first)
    assert led.state_cover(1) == led.last_offset == 3
    log.read(claim("stock_round", "stock_round/s", epoch(2)))
    theirs = decision("stock_round/s", epoch(2), seq=2, round_kind="stock_round", command_id="c2")
    assert log.read(theirs) == "applied" and led.seq == 2 and led.digest_seq == 1
    assert led.state_cover(1) is None, "the engine of seq 1 would claim to cover seq 2"
    assert led.state_cover(2) == led.last_offset == 5
    # and the owner's own decision not yet read back
    led.apply_local(decision("stock_round/s", epoch(2), seq=3, round_kind="stock_round",
                             command_id="c3").action_applied, "c3", "stock_round/s")
    assert led.state_cover(3) is None and led.state_cover(2) is None
