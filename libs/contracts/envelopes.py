"""Records of the game log: building envelopes and validating what is read back."""

from __future__ import annotations

import time
from typing import Any

from google.protobuf.message import DecodeError, Message

from contracts.v1 import log_pb2

Envelope = log_pb2.Envelope
Kind = log_pb2.Kind


# Envelope.body case -> Kind
BODY_KIND = {
    "command_submitted": Kind.COMMAND_SUBMITTED,
    "game_created": Kind.GAME_CREATED,
    "action_applied": Kind.ACTION_APPLIED,
    "action_rejected": Kind.ACTION_REJECTED,
    "round_started": Kind.ROUND_STARTED,
    "game_finished": Kind.GAME_FINISHED,
    "score_updated": Kind.SCORE_UPDATED,
    "tournament_created": Kind.TOURNAMENT_CREATED,
    "tournament_game_added": Kind.TOURNAMENT_GAME_ADDED,
    "duplicate_command": Kind.DUPLICATE_COMMAND,
    "checkpointed": Kind.CHECKPOINTED,
    "view_requested": Kind.VIEW_REQUESTED,
    "query_requested": Kind.QUERY_REQUESTED,
    "tournament_event": Kind.TOURNAMENT_EVENT,
    "game_clock": Kind.GAME_CLOCK,
    "ratings_event": Kind.RATINGS_EVENT,
    "owner_claimed": Kind.OWNER_CLAIMED,
    "turn_notified": Kind.TURN_NOTIFIED,
}
# Records keyed by a tournament id (or "ratings"), not by a game: game consumers pass them on to
# their tournament hook. (Clock events, game_clock, and ended notices, turn_notified, are records of
# their game.)
TOURNAMENT_BODIES = ("tournament_created", "tournament_game_added", "tournament_event", "ratings_event")
# Records that answer a command (each names it by command_id).
ANSWER_BODIES = ("action_applied", "action_rejected", "duplicate_command")
# Records that ask the owner something and change no game: never part of a game's history.
REQUEST_BODIES = ("view_requested", "query_requested")
NEEDS_COMMAND_ID = ("command_submitted", *ANSWER_BODIES, *REQUEST_BODIES)
# Records a game's owner writes that readers take only from the game's latest claim (OwnerClaimed,
# runtime.fence): its decisions, and (their engine state) its checkpoints.
FENCED_BODIES = (*ANSWER_BODIES, "checkpointed")


class MalformedEnvelope(ValueError):
    """A log record that is not a valid Envelope."""


def now_ms() -> int:
    return int(time.time() * 1000)


def make_envelope(
    body: Message, *, game_id: str, seq: int, producer: str, command_id: str = "", owner_epoch: int = 0
) -> Envelope:
    """An Envelope around one body message (CommandSubmitted, GameCreated, ActionApplied, ...);
    `owner_epoch`: the game's claim its owner writes a decision under (OwnerClaimed)."""
    env = Envelope(
        game_id=game_id, seq=seq, command_id=command_id, producer=producer, timestamp_ms=now_ms(),
        owner_epoch=owner_epoch,
    )
    for case, kind in BODY_KIND.items():
        field = env.DESCRIPTOR.fields_by_name[case]
        if field.message_type is body.DESCRIPTOR:
            getattr(env, case).CopyFrom(body)
            env.kind = kind
            return env
    raise TypeError(f"not an envelope body: {type(body).__name__}")


def validate(env: Envelope, key: str | None = None) -> Envelope:
    """Check the invariants every consumer relies on; raise MalformedEnvelope."""
    case = env.WhichOneof("body")
    if case is None:
        raise MalformedEnvelope("envelope has no body")
    if BODY_KIND[case] != env.kind:
        raise MalformedEnvelope(
            f"envelope kind {Kind.Name(env.kind)} does not match its body {case}"
        )
    if not env.game_id:
        raise MalformedEnvelope("envelope has no game_id")
    if key is not None and key != env.game_id:
        raise MalformedEnvelope(f"record key {key!r} is not the envelope's game id {env.game_id!r}")
    if case in NEEDS_COMMAND_ID and not env.command_id:
        raise MalformedEnvelope(f"{case} without command_id")
    if case == "command_submitted" and not env.command_submitted.HasField("action"):
        raise MalformedEnvelope("command_submitted without action")
    if case == "action_applied" and env.action_applied.seq != env.seq:
        raise MalformedEnvelope("action_applied seq differs from the envelope's")
    if case == "owner_claimed" and not (env.owner_epoch and env.owner_claimed.service):
        raise MalformedEnvelope("owner_claimed without an owner epoch or a service")
    return env


def parse(data: bytes, key: str | None = None) -> Envelope:
    """Decode and validate one log record's value."""
    env = Envelope()
    try:
        env.ParseFromString(data)
    except DecodeError as exc:
        raise MalformedEnvelope(f"not a protobuf Envelope: {exc}") from None
    return validate(env, key)


def describe(env: Envelope) -> dict[str, Any]:
    """A short dict for logs."""
    return {
        "game_id": env.game_id,
        "seq": env.seq,
        "kind": Kind.Name(env.kind),
        "command_id": env.command_id,
        "producer": env.producer,
    }
