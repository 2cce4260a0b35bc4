"""One game's state as every consumer of the log keeps it, and its snapshots.

A replica is a pure function of the game's records in `roundhouse.games`: the engine game (rebuilt
by applying ActionApplied events, never by deciding), the commands already decided (idempotency),
the commands still pending, and which derived events (RoundStarted, ScoreUpdated, GameFinished) the
log already holds. Replicas of one game in different services are therefore equal, and a snapshot
written by any service can seed any other.

An idle replica may be *evicted* (runtime.worker): its engine game, its decided command ids and any
imported export are dropped, and a `Summary` (sequence, round, result, live values) stands in for
the game until the replica is rebuilt from its latest snapshot plus the log after it. What a
snapshot holds is exactly what eviction drops, so a rebuilt replica equals the evicted one. A
snapshot also carries the summary, so a replica can be loaded evicted from it without restoring
the engine state (`Replica.evicted_from_snapshot`).
"""

from __future__ import annotations

import logging
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

import orjson

import engine
from contracts.actions import action_from_json, action_to_json
from contracts.envelopes import Envelope
from contracts.v1 import log_pb2

log = logging.getLogger(__name__)


def engine_players(created: log_pb2.GameCreated) -> list[dict[str, Any]]:
    return [
        {"id": int(p.id) if p.id_is_number else p.id, "name": p.name} for p in created.players
    ]


def build_game(game_id: str, created: log_pb2.GameCreated) -> "engine.Game":
    """The engine game a GameCreated describes (raises engine.GameError if it is invalid)."""
    if created.import_json:
        return engine.import_game(orjson.loads(created.import_json))
    return engine.new_game(
        created.title,
        engine_players(created),
        seed=created.seed,
        game_id=game_id,
        optional_rules=list(created.optional_rules),
    )


class Evicted(RuntimeError):
    """The engine state of an evicted replica was used without loading it first."""


@dataclass(frozen=True, slots=True)
class Summary:
    """What an evicted game still answers without its engine state (ListGames, standings, metrics)."""

    seq: int
    round_kind: str
    round_label: str
    finished: bool
    game_end_reason: str
    result: dict[str, int]
    values: dict[str, int]
    digest: str

    @classmethod
    def of(cls, game) -> "Summary":
        return cls(
            seq=game.seq, round_kind=game.round_kind, round_label=game.round_label,
            finished=bool(game.finished), game_end_reason=game.game_end_reason or "",
            result=_ints(game.result), values=_ints(game.player_values()), digest=game.digest(),
        )


    def to_proto(self) -> log_pb2.ReplicaSummary:
        """The summary as a snapshot carries it (the digest is the snapshot's own field)."""
        return log_pb2.ReplicaSummary(
            seq=self.seq, round_kind=self.round_kind, round_label=self.round_label,
            finished=self.finished, game_end_reason=self.game_end_reason,
            result=self.result, values=self.values,
        )

    @classmethod
    def from_proto(cls, msg: log_pb2.ReplicaSummary, digest: str) -> "Summary":
        return cls(
            seq=msg.seq, round_kind=msg.round_kind, round_label=msg.round_label,
            finished=msg.finished, game_end_reason=msg.game_end_reason,
            result=_ints(msg.result), values=_ints(msg.values), digest=digest,
        )


def _ints(values) -> dict[str, int]:
    return {str(k): int(v) for k, v in (values or {}).items()}


@dataclass(eq=False)
class Replica:
    game_id: str
    partition: int
    created: log_pb2.GameCreated
    _game: Any  # engine.Game; None while evicted (then `summary` stands in)
    last_offset: int = -1          # offset of the last record of this game applied
    snapshot_offset: int = -1      # records at or before this offset are in the loaded snapshot
    dirty_since: int | None = None  # first offset not covered by a written snapshot
    snapshot_at: int | None = None  # where in roundhouse.snapshots the latest known snapshot is
    actions_since_snapshot: int = 0
    touched_at: float = field(default_factory=time.monotonic)   # last record applied
    used_at: float = field(default_factory=time.monotonic)      # last command or read
    pins: int = 0                  # callers using the engine state across awaits (no eviction)
    summary: Summary | None = None
    decided: dict[str, log_pb2.DecidedCommand] = field(default_factory=dict)
    pending: dict[str, Envelope] = field(default_factory=dict)
    pending_since: dict[str, float] = field(default_factory=dict)
    published_round: str = ""
    score_seq: int = 0
    finished_published: bool = False
    # seq -> command id of actions this process applied before reading them back from the log
    local: dict[int, str] = field(default_factory=dict)

    # the engine state, and what is known of it without loading it ------------------------------

    @property
    def game(self):
        if self._game is None:
            raise Evicted(f"game {self.game_id} is evicted: load it first")
        return self._game

    @game.setter
    def game(self, game) -> None:
        self._game = game

    @property
    def resident(self) -> bool:
        return self._game is not None

    @property
    def seq(self) -> int:
        return self.summary.seq if self._game is None else self._game.seq

    @property
    def round_kind(self) -> str:
        return self.summary.round_kind if self._game is None else self._game.round_kind

    @property
    def round_label(self) -> str:
        return self.summary.round_label if self._game is None else self._game.round_label

    @property
    def finished(self) -> bool:
        return self.summary.finished if self._game is None else bool(self._game.finished)

    @property
    def game_end_reason(self) -> str:
        return self.summary.game_end_reason if self._game is None else self._game.game_end_reason or ""

    def result(self) -> dict[str, int]:
        return self.summary.result if self._game is None else _ints(self._game.result)

    def player_values(self) -> dict[str, int]:
        return self.summary.values if self._game is None else _ints(self._game.player_values())

    @property
    def title(self) -> str:
        return self.created.title

    def evict(self) -> None:
        """Drop the engine state and what a snapshot restores (decided ids, an imported export);
        keep the summary, the seats and the offsets needed to rebuild."""
        self.summary = Summary.of(self.game)
        self._game = None
        self.decided = {}
        self.pending_since = {}
        self.created = _without_export(self.created)

    def adopt(self, fresh: "Replica") -> None:
        """Take the rebuilt state of this (evicted) game; offsets already read stay as they are."""
        self._game = fresh._game
        self.created = fresh.created
        self.decided = fresh.decided
        self.pending = fresh.pending
        self.pending_since = fresh.pending_since
        self.published_round = fresh.published_round
        self.score_seq = fresh.score_seq
        self.finished_published = fresh.finished_published
        self.snapshot_offset = max(self.snapshot_offset, fresh.snapshot_offset)
        self.snapshot_at = fresh.snapshot_at if fresh.snapshot_at is not None else self.snapshot_at
        self.dirty_since = fresh.dirty_since
        self.actions_since_snapshot = fresh.actions_since_snapshot
        self.summary = None

    def player_of_token_hash(self, digest: str) -> str | None:
        for player, h in zip(self.created.players, self.created.seat_token_sha256):
            if h == digest:
                return player.id
        return None

    def settle(self, command_id: str) -> None:
        """The command is decided: it is no longer pending."""
        self.pending.pop(command_id, None)
        self.pending_since.pop(command_id, None)

    def touch(self, offset: int) -> None:
        self.last_offset = offset
        if self.dirty_since is None:
            self.dirty_since = offset
        self.touched_at = time.monotonic()

    def apply_action(self, applied: log_pb2.ActionApplied) -> None:
        """Apply an ActionApplied event (the next seq) to the engine game and check the digest."""
        self.game.process(action_to_json(applied.action))
        if applied.digest and self.game.digest() != applied.digest:
            log.error(
                "game %s diverged at seq %d: digest %s, event says %s",
                self.game_id, applied.seq, self.game.digest(), applied.digest,
            )

    def rebuild_with(self, applied: log_pb2.ActionApplied) -> None:
        """Replace the action this process applied at applied.seq by the one the log holds there
        (another instance's append won the race for that sequence)."""
        game = build_game(self.game_id, self.created)
        for action in self.game.actions[game.seq : applied.seq - 1]:
            game.process(action)
        self.game = game
        self.apply_action(applied)

    # snapshots -------------------------------------------------------------------------------

    def snapshot(self, producer: str) -> log_pb2.Snapshot:
        state = zlib.compress(orjson.dumps(self.game.snapshot()), 6)
        summary = Summary.of(self.game)
        return log_pb2.Snapshot(
            game_id=self.game_id,
            seq=self.seq,
            partition=self.partition,
            offset=self.last_offset,
            state=state,
            created=self.created,
            decided=list(self.decided.values()),
            pending=list(self.pending.values()),
            published_round=self.published_round,
            score_seq=self.score_seq,
            finished_published=self.finished_published,
            digest=summary.digest,
            producer=producer,
            timestamp_ms=int(time.time() * 1000),
            summary=summary.to_proto(),
        )

    @classmethod
    def from_snapshot(cls, snap: log_pb2.Snapshot) -> "Replica":
        game = engine.restore(orjson.loads(zlib.decompress(snap.state)))
        if snap.digest and game.digest() != snap.digest:
            raise ValueError(f"snapshot of {snap.game_id} restores to another digest")
        now = time.monotonic()
        return cls(
            game_id=snap.game_id,
            partition=snap.partition,
            created=snap.created,
            _game=game,
            last_offset=snap.offset,
            snapshot_offset=snap.offset,
            decided={d.command_id: d for d in snap.decided},
            pending={e.command_id: e for e in snap.pending},
            pending_since={e.command_id: now for e in snap.pending},
            published_round=snap.published_round,
            score_seq=snap.score_seq,
            finished_published=snap.finished_published,
        )

    @classmethod
    def evicted_from_snapshot(cls, snap: log_pb2.Snapshot) -> "Replica | None":
        """The replica a snapshot describes, already evicted: its summary stands in for the game and
        `state` is not restored (the next use rebuilds it from this snapshot, as for any evicted
        game). None when the snapshot cannot serve so: written without a summary (before it was
        part of the contract), a summary at another seq or no digest to check the rebuild against,
        or commands pending (the owner decides those when the partition goes live, with the engine)."""
        if not snap.HasField("summary") or snap.summary.seq != snap.seq or not snap.digest or snap.pending:
            return None
        return cls(
            game_id=snap.game_id,
            partition=snap.partition,
            created=_without_export(snap.created),
            _game=None,
            last_offset=snap.offset,
            snapshot_offset=snap.offset,
            summary=Summary.from_proto(snap.summary, snap.digest),
            published_round=snap.published_round,
            score_seq=snap.score_seq,
            finished_published=snap.finished_published,
        )


def _without_export(created: log_pb2.GameCreated) -> log_pb2.GameCreated:
    """The set-up without an imported game's export (kept in the snapshot, not in memory)."""
    if not created.import_json:
        return created
    light = log_pb2.GameCreated()
    light.CopyFrom(created)
    light.ClearField("import_json")
    return light


def stored_action(game, seq: int) -> log_pb2.ActionApplied:
    """An ActionApplied for the stored action at `seq` (1-based), for history streams."""
    return log_pb2.ActionApplied(seq=seq, action=action_from_json(game.actions[seq - 1]))
