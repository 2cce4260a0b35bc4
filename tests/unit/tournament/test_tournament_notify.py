"""'Your turn' webhooks: signed payloads a receiver can check, and the retry schedule."""

import hashlib
import hmac
import json

import pytest
from .tournament_support import new_tournament, sha

from tournament import ClockPaused, ClockResumed, ClockStarted, GameClock, TimeControl, TurnChanged
from tournament.errors import TournamentError
from tournament.notify import (DELIVERY_HEADER, SIGNATURE_HEADER, Notices, RetryPolicy, Turn, TurnNotified,
                               WebhookSignatureError, delivery_id, encode, headers, notice, sign, verify, webhook_secret,
                               your_turn)

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


def test_notices_go_to_seats_whose_turn_begins():
    t = new_tournament(0, close=False)
    for name in ("Ann", "Bob", "Cid"):
        t.apply(t.register(name, sha(name), 5, webhook_url=f"https://hooks.example/{name}" if name != "Cid" else ""))
    notices = Notices(seats=frozenset({"p1", "p2"}))          # Cid gave no URL: not followed
    start = ClockStarted(("p1", "p2", "p3"), TimeControl(60_000), ("p1",), "ISR 1", 0, 1_000)
    clock = GameClock.start(start)
    (first,) = notices.turn(start.seq, start.acting, start.round_label, start.at_ms)
    assert first == Turn("p1", 0, 1_000, "ISR 1")
    who, url, payload = notice(t, "g", first, clock)
    assert (who, url) == ("p1", "https://hooks.example/Ann")
    assert payload["remaining_ms"] == 60_000 and payload["deadline_ms"] == 61_000 and payload["seq"] == 0
    assert payload["as_of_ms"] == payload["acting_since_ms"] == 1_000 and payload["delivery"] == "g:0:p1"
    same_seat = TurnChanged(1, "p1", "lay_tile", ("p1",), "ISR 1", False, 5_000)
    clock.apply(same_seat)
    assert notices.turn(1, same_seat.acting, "ISR 1", 5_000) == []         # still p1's turn: nothing new
    assert notices.outstanding() == [first]
    to_bob = TurnChanged(2, "p1", "pass", ("p2", "p3"), "ISR 1", False, 9_000)
    clock.apply(to_bob)
    (bob,) = notices.turn(2, to_bob.acting, "ISR 1", 9_000)
    sent = notice(t, "g", bob, clock)
    assert (sent[0], sent[2]["player"], sent[2]["delivery"]) == ("p2", "Bob", "g:2:p2")
    assert notices.outstanding() == [bob], "Ann's turn is over: her notice is no longer owed"
    assert notice(t, "g", bob, None)[2]["remaining_ms"] is None                # no clocks
    assert notice(t, "g", Turn("p3", 2, 9_000, "ISR 1"), clock) is None      # no URL


def test_a_notice_is_outstanding_until_its_end_is_read():
    notices = Notices(seats=frozenset({"p1", "p2"}))
    notices.turn(0, ("p1",), "SR 1", 1_000)
    assert not notices.notified(TurnNotified("p1", 3, 200, 1, 1_500))         # another turn's: nothing
    assert not notices.notified(TurnNotified("p2", 0, 200, 1, 1_500))         # not p2's turn
    assert notices.notified(TurnNotified("p1", 0, 503, 8, 2_000))             # given up: ended all the same
    assert not notices.notified(TurnNotified("p1", 0, 200, 1, 2_100))         # a repeat
    assert notices.outstanding() == [] and notices.current("p1", 0)
    notices.turn(1, ("p2",), "SR 1", 3_000)
    notices.turn(2, ("p1",), "SR 1", 4_000)                                   # p1 again: a new turn
    assert [(t.seat, t.seq) for t in notices.outstanding()] == [("p1", 2)]
    assert not notices.current("p1", 0) and not notices.current("p2", 1)
    notices.turn(3, (), "SR 1", 5_000)                                        # the game is over
    assert notices.outstanding() == [] and notices.waiting == {}
    assert TurnNotified("p1", 0, 204, 1, 0).delivered and not TurnNotified("p1", 0, None, 8, 0).delivered


def test_a_notice_sent_again_later_says_the_time_left_then():
    t = new_tournament(0, close=False)
    t.apply(t.register("Ann", sha("Ann"), 5, webhook_url="https://hooks.example/Ann"))
    clock = GameClock.start(ClockStarted(("p1", "p2"), TimeControl(60_000), ("p1",), "ISR 1", 0, 1_000))
    turn = Turn("p1", 0, 1_000, "ISR 1")
    clock.apply(ClockPaused(11_000))
    clock.apply(ClockResumed(20_000))                                         # 10 s used, 50 s left at 20 s
    payload = notice(t, "g", turn, clock)[2]
    assert (payload["acting_since_ms"], payload["as_of_ms"], payload["remaining_ms"]) == (1_000, 20_000, 50_000)
    assert payload["deadline_ms"] == 70_000 and payload["delivery"] == "g:0:p1"
