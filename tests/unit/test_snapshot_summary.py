"""A snapshot carries the game's summary, so a replica can be loaded evicted from it without
restoring its engine state; snapshots written without the summary are restored in full."""

import pytest
from rh_support import engine_prefix, load_fixture

import engine
from contracts.v1 import log_pb2
from runtime.replica import Replica, Summary


def played(actions: int | None = None):
    """hotseat004 (an 1856 game) after `actions` actions, or to its end (finished)."""
    export = load_fixture("hotseat004.json")
    if actions is not None:
        export = {**export, "actions": export["actions"][:actions]}
    k, game, error = engine_prefix(export)
    assert error is None
    return game


def replica(game_id: str, game, *, pending: bool = False) -> Replica:
    created = log_pb2.GameCreated(
        title="1856", players=[log_pb2.Player(id=p, name=p) for p in ("Ann", "Bob", "Cid")],
        seat_token_sha256=["a", "b", "c"], import_json=b'{"dropped": "when evicted"}',
    )
    rep = Replica(game_id, 0, created, game, last_offset=41, published_round=game.round_label, score_seq=game.seq)
    if pending:
        rep.pending["c1"] = log_pb2.Envelope(game_id=game_id, command_id="c1", seq=game.seq)
    return rep


def reparsed(snap: log_pb2.Snapshot) -> log_pb2.Snapshot:
    return log_pb2.Snapshot.FromString(snap.SerializeToString())


@pytest.fixture
def count_restores(monkeypatch):
    calls = []
    real = engine.restore

    def counting(state):
        calls.append(1)
        return real(state)

    monkeypatch.setattr(engine, "restore", counting)
    return calls


@pytest.mark.parametrize("actions", [40, None], ids=["running", "finished"])
def test_summary_round_trips_through_the_snapshot(actions, count_restores):
    game = played(actions)
    assert bool(game.finished) == (actions is None)
    snap = reparsed(replica("g1", game).snapshot("test/1"))
    assert snap.HasField("summary") and snap.summary.seq == snap.seq == game.seq

    lazy = Replica.evicted_from_snapshot(snap)
    assert count_restores == []   # the summary alone: no engine state
    assert not lazy.resident and lazy.summary == Summary.of(game)
    # what answers from the summary is what the restored game answers
    full = Replica.from_snapshot(snap)
    assert len(count_restores) == 1
    assert lazy.summary == Summary.of(full.game)
    for attr in ("seq", "round_kind", "round_label", "finished", "game_end_reason", "title"):
        assert getattr(lazy, attr) == getattr(full, attr), attr
    assert lazy.result() == full.result() and lazy.player_values() == full.player_values()
    # the bookkeeping an evicted replica keeps, as evict() would leave it
    full.evict()
    for attr in ("last_offset", "snapshot_offset", "published_round", "score_seq", "finished_published",
                 "decided", "pending", "summary", "created"):
        assert getattr(lazy, attr) == getattr(full, attr), attr
    assert not lazy.created.import_json and lazy.created.seat_token_sha256 == ["a", "b", "c"]


def test_snapshot_without_summary_or_with_pending_commands_is_restored():
    game = played(40)
    old = reparsed(replica("g1", game).snapshot("test/1"))
    old.ClearField("summary")   # as written before the summary was part of the contract
    old = reparsed(old)
    assert not old.HasField("summary")
    assert Replica.evicted_from_snapshot(old) is None
    assert Replica.from_snapshot(old).summary is None and Replica.from_snapshot(old).seq == game.seq

    pending = reparsed(replica("g2", game, pending=True).snapshot("test/1"))
    assert Replica.evicted_from_snapshot(pending) is None   # the owner decides it when live

    skewed = reparsed(replica("g3", game).snapshot("test/1"))
    skewed.summary.seq += 1
    assert Replica.evicted_from_snapshot(skewed) is None

