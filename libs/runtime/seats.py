"""Who may send what: seat and operator tokens, and the action types that are not one seat's.

The gateway checks tokens (their SHA-256 is in GameCreated, so any gateway instance can); the
game's owner checks, with the engine, that the token's seat controls the action's entity.
"""

from __future__ import annotations

import hashlib
import secrets

OPERATOR = "operator"                       # the actor of the game's operator token
ANY_SEAT_TYPES = {"undo", "redo", "message"}  # any seat of the game (or the operator) may send these
OPERATOR_ONLY_TYPES = {"end_game"}  # ending a game early is the organiser's decision, not one seat's


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)
