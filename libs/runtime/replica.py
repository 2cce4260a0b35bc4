"""One game's state as every consumer of the log keeps it, and its snapshots.

A replica is a pure function of the game's records in `roundhouse.games`: the engine game (rebuilt
by applying ActionApplied events, never by deciding), the commands already decided (idempotency),
the commands still pending, and which derived events (RoundStarted, ScoreUpdated, GameFinished) the
log already holds. Replicas of one game in different services are therefore equal, and a snapshot
written by any service can seed any other.
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


@dataclass
class Replica:
    game_id: str
    partition: int
    created: log_pb2.GameCreated
    game: Any  # engine.Game
    last_offset: int = -1          # offset of the last record of this game applied
    snapshot_offset: int = -1      # records at or before this offset are in the loaded snapshot
    dirty_since: int | None = None  # first offset not covered by a written snapshot
    actions_since_snapshot: int = 0
    touched_at: float = field(default_factory=time.monotonic)
    decided: dict[str, log_pb2.DecidedCommand] = field(default_factory=dict)
    pending: dict[str, Envelope] = field(default_factory=dict)
    pending_since: dict[str, float] = field(default_factory=dict)
    published_round: str = ""
    score_seq: int = 0
    finished_published: bool = False
    # seq -> command id of actions this process applied before reading them back from the log
    local: dict[int, str] = field(default_factory=dict)

    @property
    def seq(self) -> int:
        return self.game.seq

    @property
    def title(self) -> str:
        return self.created.title

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
            digest=self.game.digest(),
            producer=producer,
            timestamp_ms=int(time.time() * 1000),
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
            game=game,
            last_offset=snap.offset,
            snapshot_offset=snap.offset,
            decided={d.command_id: d for d in snap.decided},
            pending={e.command_id: e for e in snap.pending},
            pending_since={e.command_id: now for e in snap.pending},
            published_round=snap.published_round,
            score_seq=snap.score_seq,
            finished_published=snap.finished_published,
        )


def stored_action(game, seq: int) -> log_pb2.ActionApplied:
    """An ActionApplied for the stored action at `seq` (1-based), for history streams."""
    return log_pb2.ActionApplied(seq=seq, action=action_from_json(game.actions[seq - 1]))
