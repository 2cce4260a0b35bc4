"""'Your turn' webhooks of tournament games: HMAC-signed POSTs with retries (tournament.notify).

The scoring instance holding a game's partition sends the notices its records make outstanding
(`Ledger.notices`: the turns the game waits in whose notice has not ended) and, once a notice ends
(delivered, refused, or given up after the retry policy's attempts) while its turn lasts, appends
its TurnNotified. A notice that did not end is sent again by whichever instance holds the partition
next (after a restart, a rebalance or a kill), from the same records: at least once per turn, with
the same delivery id, so receivers drop repeats. A notice whose turn is over is not sent any more.
"""

from __future__ import annotations

import asyncio
import logging
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

from contracts.v1 import log_pb2
from tournament import notify
from tournament.notify import RetryPolicy

log = logging.getLogger(__name__)


def _post(url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> tuple[int | None, float | None]:
    """(HTTP status or None without an answer, Retry-After seconds if given)."""
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as answer:
            return answer.status, None
    except urllib.error.HTTPError as exc:
        retry_after = exc.headers.get("Retry-After") if exc.headers else None
        try:
            wait = float(retry_after) if retry_after else None
        except ValueError:
            wait = None
        return exc.code, wait
    except (urllib.error.URLError, OSError, TimeoutError):
        return None, None


@dataclass(frozen=True)
class Seat:   # a notify.Recipient
    name: str
    webhook_url: str


@dataclass(frozen=True)
class Seats:   # a notify.Roster
    id: str                      # the tournament's
    players: dict[str, Seat]     # player id -> seat


def seats_of(created: log_pb2.GameCreated) -> Seats:
    """What `notify.notice` reads of a tournament (a `notify.Roster`), from a table's GameCreated alone."""
    urls = list(created.seat_webhook_urls) + [""] * len(created.players)
    return Seats(id=created.tournament_id, players={
        p.id: Seat(name=p.name, webhook_url=url) for p, url in zip(created.players, urls)})


class Deliverer:
    """Posts one notice until the retry policy ends it."""

    def __init__(self, key_source, policy: RetryPolicy | None = None, timeout_s: float = 10.0):
        self._key_source = key_source     # () -> the platform's webhook key (read when first needed)
        self._key: bytes | None = None
        self.policy = policy or RetryPolicy()
        self.timeout_s = timeout_s
        self.delivered = 0

    async def deliver(self, tournament_id: str, player_id: str, url: str, payload: dict) -> tuple[int | None, int]:
        """Post `payload` signed with the player's secret, retried per the policy: (the last
        attempt's status, None without an answer; attempts made)."""
        if self._key is None:
            self._key = self._key_source()
        secret = notify.webhook_secret(self._key, tournament_id, player_id)
        attempt = 0
        while True:
            attempt += 1
            body, headers = notify.headers(secret, payload, int(time.time()))
            status, retry_after = await asyncio.to_thread(_post, url, body, headers, self.timeout_s)
            delay = self.policy.next_delay(payload["delivery"], attempt, status, retry_after)
            if delay is None:
                if status is not None and 200 <= status < 300:
                    self.delivered += 1
                else:
                    log.info("webhook %s to %s ended after %d attempts (status %s)", payload["delivery"], url,
                             attempt, status)
                return status, attempt
            await asyncio.sleep(delay)
