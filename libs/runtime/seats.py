"""Who may send what: seat and operator tokens, and the action types that are not one seat's.

The gateway checks tokens (their SHA-256 is in GameCreated, so any gateway instance can); the
game's owner checks, with the engine, that the token's seat controls the action's entity.
"""

from __future__ import annotations

import hashlib
import secrets

from contracts.v1 import log_pb2, tournament_pb2

OPERATOR = "operator"                       # the actor of the game's operator token
# Any seat of the game (or the operator) may send these; an undo or redo then follows the undo rule
# (runtime.shard: a seat's own moves nobody acted after, as the game's undo policy allows).
ANY_SEAT_TYPES = {"undo", "redo", "message"}
OPERATOR_ONLY_TYPES = {"end_game"}  # ending a game early is the organiser's decision, not one seat's
UNDO_TYPES = ("undo", "redo")
R = log_pb2.RejectReason
Refusal = tuple[log_pb2.RejectReason, str]   # a reason code and its text


def finished_refusal(finished: bool, kind: str, actor: str) -> Refusal | None:
    """A finished game stays finished: seats may still send messages; only the operator may undo
    (and so reopen) it. The gateway checks this against its ledger, the owner against the engine."""
    if not finished or kind == "message" or (actor == OPERATOR and kind in UNDO_TYPES):
        return None
    return R.GAME_FINISHED_ALREADY, ("the game is over: only its operator may undo, and so reopen it"
                                     if kind in UNDO_TYPES else f"the game is over: no {kind} any more")


def policy_refusal(policy: int, kind: str, actor: str) -> Refusal | None:
    """A game whose undo policy is UNDO_NEVER leaves undo and redo to its organiser (the operator)."""
    if actor == OPERATOR or kind not in UNDO_TYPES or policy != tournament_pb2.UNDO_NEVER:
        return None
    return R.NOT_PERMITTED, f"this game leaves {kind} to its organiser: only the operator token may {kind}"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)
