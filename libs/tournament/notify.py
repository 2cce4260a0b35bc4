"""'Your turn' webhooks: whose turn a game's records begin, the payload, its HMAC-SHA256 signature,
the receiver's check, retries.

`Notices` follows a game's records (its start, each ActionApplied, and the `TurnNotified` records
the sender appends) and says, for each seat with a webhook URL, which turn the game waits for it
in (since which sequence) and whether that turn's notice has ended (delivered, refused or given up).
A turn whose notice has not ended is *outstanding*: whoever takes the game's records over (a
restarted or newly assigned sender) sends it, so a notice survives the death of its sender.

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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Mapping, Protocol

from .errors import TournamentError

if TYPE_CHECKING:
    from .clock import GameClock

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
              deadline_ms: int | None, as_of_ms: int | None = None) -> dict:
    """The payload telling a player the game waits for them (times in unix ms; no clock: None).
    `remaining_ms` is the seat's time left at `as_of_ms` (the turn's start unless the notice is
    sent again later); `deadline_ms` when its flag falls if nothing happens."""
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
        "as_of_ms": acting_since_ms if as_of_ms is None else as_of_ms,
        "remaining_ms": remaining_ms,
        "deadline_ms": deadline_ms,
    }


@dataclass(frozen=True)
class Turn:
    """A seat's turn: the game waits for `seat` since its sequence `seq` (the record at `at_ms`),
    without a break (a player who acts several times in a row is in one turn)."""

    seat: str
    seq: int
    at_ms: int
    round_label: str


@dataclass(frozen=True)
class TurnNotified:
    """The notice of a seat's turn has ended: `status` is the last attempt's HTTP status (None: no
    answer), after `attempts` attempts. Appended by the sender, read back like every game record."""

    seat: str
    seq: int                         # the turn's: the game's sequence when it began waiting for the seat
    status: int | None
    attempts: int
    at_ms: int

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


@dataclass
class Notices:
    """Which turn a game waits for each notified seat in, and whether that turn's notice has ended,
    from the game's records in log order. `seats`: the seats with a webhook URL (no one else is
    followed)."""

    seats: frozenset[str]
    waiting: dict[str, Turn] = field(default_factory=dict)   # seat -> its current turn
    ended: set[str] = field(default_factory=set)              # seats whose current turn's notice ended

    def turn(self, seq: int, acting: Iterable[str], round_label: str, at_ms: int) -> list[Turn]:
        """After the game's record at sequence `seq` (its start, or an ActionApplied) it waits for
        `acting`: the turns that begin (seats waiting now that were not before)."""
        now = [s for s in acting if s in self.seats]
        for seat in [s for s in self.waiting if s not in now]:
            del self.waiting[seat]
            self.ended.discard(seat)
        begun = []
        for seat in now:
            if seat not in self.waiting:
                self.waiting[seat] = Turn(seat=seat, seq=seq, at_ms=at_ms, round_label=round_label)
                begun.append(self.waiting[seat])
        return begun

    def notified(self, event: TurnNotified) -> bool:
        """A TurnNotified read from the log: True if it ends the seat's current turn's notice (one
        of an earlier turn, or a repeat, changes nothing)."""
        turn = self.waiting.get(event.seat)
        if turn is None or turn.seq != event.seq or event.seat in self.ended:
            return False
        self.ended.add(event.seat)
        return True

    def outstanding(self) -> list[Turn]:
        """The turns whose notice has not ended, in the order they began."""
        return [t for s, t in self.waiting.items() if s not in self.ended]

    def current(self, seat: str, seq: int) -> bool:
        """The game still waits for `seat` in the turn that began at `seq`."""
        turn = self.waiting.get(seat)
        return turn is not None and turn.seq == seq


class Recipient(Protocol):
    """What a notice reads of a player."""

    @property
    def name(self) -> str: ...

    @property
    def webhook_url(self) -> str: ...   # "": none given


class Roster(Protocol):
    """What a notice reads of a tournament: its id and its players by id. A `Tournament` is one;
    so are the seats a table's GameCreated names, for a sender that holds no tournament."""

    @property
    def id(self) -> str: ...

    @property
    def players(self) -> Mapping[str, Recipient]: ...


def notice(tournament: Roster, game_id: str, turn: Turn, clock: "GameClock | None") -> tuple[str, str, dict] | None:
    """The webhook of a turn: (player id, webhook URL, payload), or None when the player gave no URL.
    `clock`: the game's clocks as the records read so far leave them (None without clocks); the
    payload says the seat's time left as of the later of the turn's start and the clocks' last
    record, and when its flag falls if nothing happens."""
    player = tournament.players.get(turn.seat)
    if player is None or not player.webhook_url:
        return None
    remaining = deadline = None
    as_of = turn.at_ms
    if clock is not None:
        as_of = max(turn.at_ms, clock.since_ms)
        remaining = clock.remaining_at(as_of)[turn.seat]
        if turn.seat in clock.running():
            deadline = as_of + max(remaining, 0)
    return turn.seat, player.webhook_url, your_turn(
        tournament_id=tournament.id, game_id=game_id, player_id=turn.seat, player_name=player.name, seq=turn.seq,
        round_label=turn.round_label, acting_since_ms=turn.at_ms, remaining_ms=remaining, deadline_ms=deadline,
        as_of_ms=as_of)


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
