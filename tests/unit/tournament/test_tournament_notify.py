"""'Your turn' webhooks: signed payloads a receiver can check, and the retry schedule."""

import hashlib
import hmac
import json

import pytest
from .tournament_support import new_tournament, sha

from tournament import ClockStarted, GameClock, TimeControl, TurnChanged
from tournament.errors import TournamentError
from tournament.notify import (DELIVERY_HEADER, SIGNATURE_HEADER, RetryPolicy, WebhookSignatureError, announcements,
                               delivery_id, encode, headers, sign, verify, webhook_secret, your_turn)

KEY = b"platform key of 32 bytes........"


def payload():
    return your_turn(tournament_id="t1", game_id="t1.r1.t3", player_id="p7", player_name="Player 07", seq=42,
                     round_label="OR 2.1", acting_since_ms=1_700_000_000_000, remaining_ms=95_000,
                     deadline_ms=1_700_000_095_000)


def test_the_signature_is_hmac_sha256_of_timestamp_and_body():
    secret = webhook_secret(KEY, "t1", "p7")
    assert secret == hmac.new(KEY, b"roundhouse-webhook:t1:p7", hashlib.sha256).hexdigest()
    assert secret != webhook_secret(KEY, "t1", "p8") != webhook_secret(KEY, "t2", "p7")
    body, head = headers(secret, payload(), 1_700_000_001)
    assert head[DELIVERY_HEADER] == "t1.r1.t3:42:p7" == delivery_id("t1.r1.t3", 42, "p7")
    mac = hmac.new(secret.encode(), b"1700000001." + body, hashlib.sha256).hexdigest()
    assert head[SIGNATURE_HEADER] == f"t=1700000001,v1={mac}"
    assert json.loads(body) == payload() and body == encode(payload())
    assert verify(secret, body, head[SIGNATURE_HEADER], now_s=1_700_000_030) == payload()


def test_a_receiver_refuses_what_it_should():
    secret = webhook_secret(KEY, "t1", "p7")
    body, head = headers(secret, payload(), 1_700_000_001)
    signature = head[SIGNATURE_HEADER]
    with pytest.raises(WebhookSignatureError, match="does not match"):
        verify(secret, body.replace(b"42", b"43"), signature, now_s=1_700_000_001)
    with pytest.raises(WebhookSignatureError, match="does not match"):
        verify(webhook_secret(KEY, "t1", "p8"), body, signature, now_s=1_700_000_001)
    with pytest.raises(WebhookSignatureError, match="beyond 300 s"):
        verify(secret, body, signature, now_s=1_700_000_302)
    with pytest.raises(WebhookSignatureError, match="no timestamp"):
        verify(secret, body, "v1=abc", now_s=1_700_000_001)
    # a receiver rotating secrets may be sent several v1 values: any one matching is enough
    both = f"{sign('old', body, 1_700_000_001)},{signature.split(',')[1]}"
    assert verify(secret, body, both, now_s=1_700_000_001)["seq"] == 42
    with pytest.raises(TournamentError, match="16 bytes"):
        webhook_secret(b"short", "t1", "p1")


def test_retry_schedule_grows_with_jitter_and_is_the_same_everywhere():
    policy = RetryPolicy()
    delays = policy.delays("g:1:p1")
    assert len(delays) == 7 and delays == RetryPolicy().delays("g:1:p1")
    for n, delay in enumerate(delays):
        base = min(2.0 * 3.0 ** n, 900.0)
        assert base * 0.8 <= delay <= min(base * 1.2, 900.0)
    assert delays != policy.delays("g:2:p1")                          # spread across deliveries
    plain = RetryPolicy(attempts=4, first_delay_s=1, factor=2, max_delay_s=3, jitter=0)
    assert plain.delays("x") == [1, 2, 3]


def test_what_is_retried():
    policy = RetryPolicy(attempts=3, jitter=0)
    assert policy.next_delay("d", 1, None) == 2.0                     # no answer: again in 2 s
    assert policy.next_delay("d", 1, 503) == 2.0
    assert policy.next_delay("d", 2, 429, retry_after_s=60) == 60.0   # the receiver asks for longer
    assert policy.next_delay("d", 1, 429, retry_after_s=10_000) == 900.0
    assert policy.next_delay("d", 3, 500) is None                     # out of attempts
    assert policy.next_delay("d", 1, 200) is None                     # delivered
    assert policy.next_delay("d", 1, 404) is None                     # refused: not retried
    with pytest.raises(TournamentError):
        RetryPolicy(attempts=0)


def test_announcements_go_to_seats_whose_turn_begins():
    t = new_tournament(0, close=False)
    for name in ("Ann", "Bob", "Cid"):
        t.apply(t.register(name, sha(name), 5, webhook_url=f"https://hooks.example/{name}" if name != "Cid" else ""))
    start = ClockStarted(("p1", "p2", "p3"), TimeControl(60_000), ("p1",), "ISR 1", 0, 1_000)
    clock = GameClock.start(start)
    (first,) = announcements(t, "g", (), start, clock)
    assert first[:2] == ("p1", "https://hooks.example/Ann")
    assert first[2]["remaining_ms"] == 60_000 and first[2]["deadline_ms"] == 61_000 and first[2]["seq"] == 0
    same_seat = TurnChanged(1, "p1", "lay_tile", ("p1",), "ISR 1", False, 5_000)
    clock.apply(same_seat)
    assert announcements(t, "g", ("p1",), same_seat, clock) == []        # still p1's turn: nothing new
    to_bob = TurnChanged(2, "p1", "pass", ("p2", "p3"), "ISR 1", False, 9_000)
    clock.apply(to_bob)
    sent = announcements(t, "g", ("p1",), to_bob, clock)
    assert [(who, payload["player"], payload["delivery"]) for who, _, payload in sent] == [("p2", "Bob", "g:2:p2")]
    assert announcements(t, "g", ("p1",), to_bob, None)[0][2]["remaining_ms"] is None   # no clocks
