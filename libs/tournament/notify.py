"""'Your turn' webhooks: the payload, its HMAC-SHA256 signature, the receiver's check, retries.

A delivery is an HTTP POST of `encode(payload)` (compact JSON, sorted keys) with the headers

    Content-Type: application/json
    Roundhouse-Delivery: <delivery id>          (the same on every retry: receivers drop repeats)
    Roundhouse-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." + body>

The key is the player's webhook secret, `webhook_secret(server_key, tournament_id, player_id)`:
derived from a key only the platform holds, so no secret is on the log and any gateway can tell a
player theirs. A receiver checks with `verify(secret, body, header, now_s)`: the signature must match
and `t` be within `tolerance_s` of its own clock (a replayed old delivery fails).

Retries (`RetryPolicy`): a delivery that failed to connect, timed out or got 408, 425, 429 or 5xx is
tried again after `delays(delivery_id)[attempt - 1]` seconds, a Retry-After the receiver sent taking
precedence when longer (capped at `max_delay_s`); any other answer ends it. The delays grow by
`factor` from `first_delay_s` up to `max_delay_s`, each spread by up to +/- `jitter` of itself with
numbers drawn from sha256 of the delivery id, so receivers are not hit in step, yet the schedule
of a delivery is the same wherever it is computed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from .errors import TournamentError

if TYPE_CHECKING:
    from .clock import ClockStarted, GameClock, TurnChanged
    from .state import Tournament

SIGNATURE_HEADER = "Roundhouse-Signature"
DELIVERY_HEADER = "Roundhouse-Delivery"
RETRY_STATUSES = frozenset({408, 425, 429}) | frozenset(range(500, 600))


class WebhookSignatureError(TournamentError):
    """A delivery whose signature does not check (wrong key, altered body, too old, malformed)."""


def webhook_secret(server_key: bytes, tournament_id: str, player_id: str) -> str:
    """The player's webhook secret (hex), derived from the platform's key."""
    if len(server_key) < 16:
        raise TournamentError("The webhook server key must be at least 16 bytes")
    message = f"roundhouse-webhook:{tournament_id}:{player_id}".encode()
    return hmac.new(server_key, message, hashlib.sha256).hexdigest()


def delivery_id(game_id: str, seq: int, player_id: str) -> str:
    """One delivery per (game, sequence, player): the turn it announces."""
    return f"{game_id}:{seq}:{player_id}"


def your_turn(*, tournament_id: str, game_id: str, player_id: str, player_name: str, seq: int,
              round_label: str, acting_since_ms: int, remaining_ms: int | None,
              deadline_ms: int | None) -> dict:
    """The payload telling a player the game waits for them (times in unix ms; no clock: None)."""
    return {
        "event": "your_turn",
        "delivery": delivery_id(game_id, seq, player_id),
        "tournament_id": tournament_id,
        "game_id": game_id,
        "player_id": player_id,
        "player": player_name,
        "seq": seq,
        "round": round_label,
        "acting_since_ms": acting_since_ms,
        "remaining_ms": remaining_ms,
        "deadline_ms": deadline_ms,
    }


def announcements(tournament: "Tournament", game_id: str, before: Iterable[str],
                  turn: "TurnChanged | ClockStarted", clock: "GameClock | None") -> list[tuple[str, str, dict]]:
    """The webhooks a game event calls for: (player id, webhook URL, payload) for each seat the game
    waits for after `turn` (a TurnChanged, or the ClockStarted of a new game) and did not wait for
    `before` it, if the player gave a URL. `clock`: the game's clocks with `turn` applied (None
    without clocks); the payload then says the time left and when the flag falls if nothing happens."""
    waiting_before = set(before)
    out = []
    for seat in turn.acting:
        player = tournament.players.get(seat)
        if seat in waiting_before or player is None or not player.webhook_url:
            continue
        remaining = deadline = None
        if clock is not None:
            remaining = clock.remaining_at(turn.at_ms)[seat]
            if seat in clock.running():
                deadline = turn.at_ms + max(remaining, 0)
        out.append((seat, player.webhook_url, your_turn(
            tournament_id=tournament.id, game_id=game_id, player_id=seat, player_name=player.name, seq=turn.seq,
            round_label=turn.round_label, acting_since_ms=turn.at_ms, remaining_ms=remaining, deadline_ms=deadline)))
    return out


def encode(payload: dict) -> bytes:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _mac(secret: str, timestamp_s: int, body: bytes) -> str:
    return hmac.new(secret.encode(), f"{timestamp_s}.".encode() + body, hashlib.sha256).hexdigest()


def sign(secret: str, body: bytes, timestamp_s: int) -> str:
    """The Roundhouse-Signature header value for `body` sent at `timestamp_s`."""
    return f"t={timestamp_s},v1={_mac(secret, timestamp_s, body)}"


def headers(secret: str, payload: dict, timestamp_s: int) -> tuple[bytes, dict[str, str]]:
    """The body and headers of one delivery attempt."""
    body = encode(payload)
    return body, {"Content-Type": "application/json", DELIVERY_HEADER: payload["delivery"],
                  SIGNATURE_HEADER: sign(secret, body, timestamp_s)}


def verify(secret: str, body: bytes, header: str, now_s: int, tolerance_s: int = 300) -> dict:
    """Check a delivery as its receiver; return the payload, or raise WebhookSignatureError."""
    fields: dict[str, list[str]] = {}
    for part in (header or "").split(","):
        key, sep, value = part.strip().partition("=")
        if sep:
            fields.setdefault(key, []).append(value)
    try:
        timestamp = int(fields["t"][0])
    except (KeyError, ValueError):
        raise WebhookSignatureError("The signature header has no timestamp") from None
    if abs(now_s - timestamp) > tolerance_s:
        raise WebhookSignatureError(f"The delivery was signed {now_s - timestamp} s ago, beyond {tolerance_s} s")
    expected = _mac(secret, timestamp, body)
    if not any(hmac.compare_digest(expected, given) for given in fields.get("v1", ())):
        raise WebhookSignatureError("The signature does not match the body")
    try:
        return json.loads(body)
    except ValueError:
        raise WebhookSignatureError("The body is not JSON") from None


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 8                # attempts in all, the first included
    first_delay_s: float = 2.0
    factor: float = 3.0
    max_delay_s: float = 900.0
    jitter: float = 0.2

    def __post_init__(self):
        if self.attempts < 1 or self.first_delay_s <= 0 or self.factor < 1 or self.max_delay_s < self.first_delay_s \
                or not 0 <= self.jitter < 1:
            raise TournamentError("A retry policy needs attempts >= 1, delays > 0 growing by a factor >= 1 "
                                  "up to a maximum, and a jitter in [0, 1)")

    def delays(self, delivery: str) -> list[float]:
        """Seconds to wait before attempt 2, 3, ... of this delivery."""
        out = []
        for n in range(1, self.attempts):
            base = min(self.first_delay_s * self.factor ** (n - 1), self.max_delay_s)
            digest = hashlib.sha256(f"{delivery}:{n}".encode()).digest()
            spread = (int.from_bytes(digest[:8], "big") / 2**64) * 2 - 1   # in [-1, 1)
            out.append(round(min(base * (1 + self.jitter * spread), self.max_delay_s), 3))
        return out

    def next_delay(self, delivery: str, attempt: int, status: int | None,
                   retry_after_s: float | None = None) -> float | None:
        """After attempt `attempt` (1-based) answered `status` (None: no answer), the seconds to wait
        before trying again, or None when the delivery is over (delivered, refused or out of attempts)."""
        if status is not None and status not in RETRY_STATUSES:
            return None
        if attempt >= self.attempts:
            return None
        delay = self.delays(delivery)[attempt - 1]
        if retry_after_s is not None and retry_after_s > delay:
            delay = min(float(retry_after_s), self.max_delay_s)
        return delay
