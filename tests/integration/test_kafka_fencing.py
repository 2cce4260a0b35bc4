"""Fencing over Kafka (OwnerClaimed, runtime.fence): once another instance claims a game, as the new
owner does after a rebalance, what the instance that lost it (a zombie) still appends is ignored by
every reader (every service of a running platform, and a platform started afresh on the same
topics), the zombie drops the game's engine and decides nothing more of it, and the game goes on
under the new claim."""

import uuid

import pytest
from rh_support import InProcess, LiveGame, free_port, gateway_stub, wait_until

from contracts.envelopes import ANSWER_BODIES, make_envelope
from contracts.v1 import gateway_pb2 as gw
from contracts.v1 import log_pb2
from runtime.commandline import SERVICES
from runtime.config import Settings
from runtime.fence import GENERATION_BITS
from runtime.owner import TAIL_BODIES
from runtime.shard import Shard
from tournament import FlagPolicy

pytestmark = [pytest.mark.kafka, pytest.mark.timeout(300)]

NEW_OWNER = "auction/new-instance"


def engine_of(records: list, game_id: str) -> Shard:
    """The game's engine loaded from its log as any owner loads it (the set-up, then the decided
    records and claims, fenced)."""
    created = next(e for e in records if e.WhichOneof("body") == "game_created")
    shard = Shard()
    shard.op_load(game_id, created=created.game_created.SerializeToString(),
                  tail=[e.SerializeToString() for e in records if e.WhichOneof("body") in TAIL_BODIES])
    return shard


def test_a_zombie_owners_appends_after_a_new_claim_are_ignored_by_every_reader(kafka_bootstrap, tmp_path):
    settings = Settings(kafka=kafka_bootstrap, topic_prefix=f"t{uuid.uuid4().hex[:8]}.", data_dir=tmp_path,
                        port=free_port(), metrics_port=0, submit_timeout_s=60)
    platform = InProcess(settings)
    try:
        game = LiveGame(platform.address)
        for _ in range(3):
            game.step()
        g, seq = game.game_id, game.seq
        auction = platform.workers["auction"]
        led = lambda service: platform.workers[service].games[g]  # noqa: E731
        append = lambda value: platform.call(platform.running.log.append(settings.games_topic, g, value))  # noqa: E731
        owner = platform.inspect(lambda: led("auction").fence.current())
        generation = platform.inspect(auction.consumer.generation)
        assert owner.producer == auction.producer and owner.epoch >> GENERATION_BITS == generation >= 1
        assert platform.inspect(lambda: g in auction.hooks.loaded), "the auction holds the game's engine"
        move = game.legal()   # (the next move, asked while the game's owner still answers)

        # a rebalance gives the game's partition to another auction instance, of the group's next
        # generation: it claims the game
        new_epoch = (generation + 1) << GENERATION_BITS | 1
        append(make_envelope(log_pb2.OwnerClaimed(service="auction"), game_id=g, seq=seq, producer=NEW_OWNER,
                             owner_epoch=new_epoch).SerializeToString())
        owner_of = lambda service: tuple(led(service).fence.current()[:2])  # noqa: E731
        assert wait_until(lambda: platform.inspect(lambda: all(owner_of(s) == (new_epoch, NEW_OWNER) for s in SERVICES)), 60)
        assert wait_until(lambda: platform.inspect(lambda: g not in auction.hooks.loaded
                                                   and g not in auction.hooks.host.held), 60), \
            "the instance that lost the game dropped its engine"

        # what the zombie still appends under its claim, decided by its engine: a flag policy
        # ending the game, a rejection, a checkpoint pointing at an engine state of its own; and
        # claims that do not hold: its own again (an earlier generation), the new owner's epoch
        # repeated, a service that does not own the game's round
        zombie = engine_of(platform.records(g), g)
        ending = zombie.op_flag(g, seats=["Bob"], policy=FlagPolicy.END_GAME.value, producer=owner.producer,
                                epoch=owner.epoch)
        assert ending["outcome"] == "applied"
        stale = make_envelope(log_pb2.CommandSubmitted(expected_seq=0, action=game.request(move).action, actor="Ann"),
                              game_id=g, seq=0, producer="gateway/t", command_id="zombie-stale")
        rejected = zombie.op_decide(g, stale.SerializeToString(), owner.producer, epoch=owner.epoch)
        checkpoint = log_pb2.Checkpointed(covered_offset=0, state=log_pb2.StateRef(offset=10**6, seq=seq + 1))
        claims = [("auction", owner.producer, owner.epoch + 1), ("auction", "auction/zombie", new_epoch),
                  ("stock_round", "stock_round/zombie", new_epoch + 5)]
        writes = [ending["record"], rejected["record"],
                  make_envelope(checkpoint, game_id=g, seq=seq + 1, producer=owner.producer,
                                owner_epoch=owner.epoch).SerializeToString()]
        writes += [make_envelope(log_pb2.OwnerClaimed(service=s), game_id=g, seq=seq, producer=p,
                                 owner_epoch=e).SerializeToString() for s, p, e in claims]
        for value in writes:
            append(value)

        # a player's next command: the zombie does not decide it; the new owner does, under its claim
        answer = game.gateway.SubmitAction.future(game.request(move))
        command = lambda: next((e for e in platform.records(g) if e.WhichOneof("body") == "command_submitted"  # noqa: E731
                                and e.command_submitted.expected_seq == seq), None)
        assert wait_until(lambda: command() is not None, 60)
        decided = engine_of(platform.records(g), g).op_decide(g, command().SerializeToString(), NEW_OWNER,
                                                             epoch=new_epoch)
        assert decided["outcome"] == "applied"
        append(decided["record"])
        assert answer.result(60).seq == seq + 1
        game.seq = seq + 1
        game.played.append(move)

        assert wait_until(lambda: platform.inspect(lambda: all(led(s).seq == seq + 1 for s in SERVICES)), 60)
        for s in SERVICES:
            state = platform.inspect(lambda s=s: (led(s).finished, dict(led(s).result), owner_of(s), led(s).state))
            assert state[:3] == (False, {}, (new_epoch, NEW_OWNER)), (s, state)
            assert state[3] is None or state[3].offset != 10**6, s
        records = platform.records(g)
        claimed = next(i for i, e in enumerate(records) if e.producer == NEW_OWNER)
        decisions = [e for e in records[claimed:] if e.WhichOneof("body") in ANSWER_BODIES]
        assert [(e.producer, e.owner_epoch) for e in decisions] == [(owner.producer, owner.epoch)] * 2 + [
            (NEW_OWNER, new_epoch)], "the zombie decided nothing after the claim but what it was made to append"
    finally:
        platform.close()

    # a platform started afresh on the same topics (from the snapshots and the log) fences alike; its
    # auction, of a later group generation, claims the game and plays on
    again = InProcess(settings.model_copy(update={"port": free_port()}))
    try:
        game.gateway = gateway_stub(again.address)
        view = game.gateway.GetGame(gw.GetGameRequest(game_id=g, without_legal_actions=True))
        assert view.seq == seq + 1 and not view.finished
        game.step()
        assert game.seq == seq + 2
        latest = again.inspect(lambda: again.workers["scoring"].games[g].fence.current())
        assert latest.producer == again.workers["auction"].producer and latest.epoch > new_epoch
    finally:
        again.close()
