"""'Your turn' webhooks of tournament games: HMAC-signed POSTs with retries (tournament.notify).

The scoring instance holding a game's partition reads every record of the game, so it tells the
seats whose turn begins (`notify.announcements`: from the game's GameCreated, its ClockStarted and
each ActionApplied). A delivery is a POST of the payload, signed with the player's secret
(`webhook_secret(platform key, tournament, player)`), tried again per `RetryPolicy` when it gets no
answer, 408, 425, 429 or 5xx. Deliveries are not logged; they are made for records read while the
partition is live (a successor does not send again what its predecessor may have missed):
WatchGame remains the way to follow a game.
"""

from __future__ import annotations

import asyncio
import logging
import time
import urllib.error
import urllib.request
from types import SimpleNamespace

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


def seats_of(created) -> SimpleNamespace:
    """What `notify.announcements` reads of a tournament, from a table's GameCreated alone."""
    urls = list(created.seat_webhook_urls) + [""] * len(created.players)
    return SimpleNamespace(id=created.tournament_id, players={
        p.id: SimpleNamespace(name=p.name, webhook_url=url) for p, url in zip(created.players, urls)})


class Deliverer:
    def __init__(self, key_source, policy: RetryPolicy | None = None, timeout_s: float = 10.0):
        self._key_source = key_source     # () -> the platform's webhook key (read when first needed)
        self._key: bytes | None = None
        self.policy = policy or RetryPolicy()
        self.timeout_s = timeout_s
        self.tasks: set[asyncio.Task] = set()
        self.delivered = 0

    def announce(self, game_id: str, created, before, turn, clock) -> None:
        """Send the webhooks `turn` calls for (seats the game waits for now and did not before)."""
        if not any(created.seat_webhook_urls):
            return
        for player_id, url, payload in notify.announcements(seats_of(created), game_id, before, turn, clock):
            task = asyncio.create_task(self._deliver(created.tournament_id, player_id, url, payload))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _deliver(self, tournament_id: str, player_id: str, url: str, payload: dict) -> None:
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
                return
            await asyncio.sleep(delay)

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

