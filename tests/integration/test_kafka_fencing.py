"""Fencing over Kafka: decisions from an owner epoch that is not the game's latest claim are ignored
by every reader (every service, and a platform started afresh on the same topics)."""

import uuid

import pytest
from rh_support import InProcess, LiveGame, free_port, gateway_stub, wait_until

from contracts.actions import action_from_json
from contracts.envelopes import make_envelope
from contracts.v1 import gateway_pb2 as gw
from contracts.v1 import log_pb2
from runtime.config import Settings

pytestmark = [pytest.mark.kafka, pytest.mark.timeout(300)]


def forged(body, game_id, seq, producer, epoch, command_id=""):
    env = make_envelope(body, game_id=game_id, seq=seq, producer=producer, command_id=command_id)
    env.owner_epoch = epoch
    return env.SerializeToString()


def test_a_zombie_owners_decisions_are_ignored_by_every_reader(kafka_bootstrap, tmp_path):
    settings = Settings(kafka=kafka_bootstrap, topic_prefix=f"t{uuid.uuid4().hex[:8]}.", data_dir=tmp_path,
                        port=free_port(), metrics_port=0, submit_timeout_s=30)
    platform = InProcess(settings)
    try:
        game = LiveGame(platform.address)
        for _ in range(3):
            game.step()
        g = game.game_id
        led = lambda service: platform.workers[service].games[g]  # noqa: E731
        owner = platform.inspect(lambda: led("auction").owner_producer)
        epoch = platform.inspect(lambda: led("auction").owner_epoch)
        assert owner.startswith("auction/") and epoch >= 1, "the auction claimed the game"
        seq = game.seq
        move = game.legal()
        finished = dict(action=action_from_json(move), round_kind="auction", finished=True,
                        result={"Ann": 999}, actor="Ann")
        zombie = "auction/zombie-instance"
        writes = [
            # the owner's own producer, an epoch it held before: a decision and an engine state
            forged(log_pb2.ActionApplied(seq=seq + 1, **finished), g, seq + 1, owner, epoch - 1, "z-1"),
            forged(log_pb2.Checkpointed(covered_offset=0, state=log_pb2.StateRef(offset=10**6, seq=seq + 1)),
                   g, seq + 1, owner, epoch - 1),
            # the current epoch from another instance
            forged(log_pb2.ActionApplied(seq=seq + 1, **finished), g, seq + 1, zombie, epoch, "z-2"),
            # a claim of an epoch already claimed, then a decision under it
            forged(log_pb2.OwnerClaimed(service="auction"), g, seq, zombie, epoch),
            forged(log_pb2.ActionRejected(code=log_pb2.ILLEGAL_ACTION, reason="zombie"), g, seq, zombie, epoch, "z-3"),
            # a claim by a service that does not own the game's round
            forged(log_pb2.OwnerClaimed(service="stock_round"), g, seq, "stock_round/zombie", epoch + 5),
        ]
        for value in writes:
            platform.call(platform.running.log.append(settings.games_topic, g, value))
        game.step()   # the real owner decides the next move
        services = ("gateway", "auction", "stock_round", "operating_round", "scoring")
        assert wait_until(lambda: platform.inspect(lambda: all(led(s).seq == seq + 1 for s in services)), 60)
        for s in services:
            state = platform.inspect(lambda s=s: (led(s).finished, dict(led(s).result), led(s).owner_producer,
                                                  led(s).owner_epoch, led(s).state))
            assert state[:4] == (False, {}, owner, epoch), (s, state)
            assert state[4] is None or state[4].offset != 10**6, s
        applied = [e for e in platform.records(g) if e.WhichOneof("body") == "action_applied"]
        kept = [e.command_id for e in applied if e.seq == seq + 1]
        assert "z-1" in kept and "z-2" in kept   # on the log, but taken by no reader
        view = game.view()
        assert view.seq == seq + 1 and not view.finished
        game.step()
    finally:
        platform.close()
    # a reader that starts afresh (from the snapshots and the log) ignores them the same way
    again = InProcess(settings.model_copy(update={"port": free_port()}))
    try:
        stub = gateway_stub(again.address)
        view = stub.GetGame(gw.GetGameRequest(game_id=g, without_legal_actions=True))
        assert view.seq == seq + 2 and not view.finished
        assert again.inspect(lambda: again.workers["scoring"].games[g].owner_epoch) >= epoch
    finally:
        again.close()
