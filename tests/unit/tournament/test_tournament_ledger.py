"""A tournament table's notices as every service's ledger follows them from the table's records."""

from contracts import tournament as tc
from contracts.actions import action_from_json
from contracts.envelopes import make_envelope
from contracts.v1 import log_pb2
from runtime.ledger import Ledger
from tournament import ClockStarted, FlagFell, TimeControl
from tournament.notify import TurnNotified

SEATS = ("p1", "p2", "p3")


class Table:
    """A table's records as they are read, each taken into a ledger."""

    def __init__(self, *, timed: bool, urls=("https://h.example/1", "https://h.example/2", "")):
        created = log_pb2.GameCreated(
            title="1856", tournament_id="t1", tournament_round=1, tournament_table=1, timed=timed,
            players=[log_pb2.Player(id=p, name=p.upper()) for p in SEATS], seat_webhook_urls=list(urls),
            summary=log_pb2.ReplicaSummary(seq=0, round_kind="auction", round_label="PR 1", acting_players=["p1"]))
        env = make_envelope(created, game_id="t1.r1.t1", seq=0, producer="gateway/1")
        env.timestamp_ms = 1_000
        self.offset = 0
        self.led = Ledger.created_from(env, 0, self.offset, tails=False)

    def take(self, env) -> str:
        self.offset += 1
        return self.led.take(env, env.WhichOneof("body"), self.offset, env.SerializeToString())

    def clock(self, event) -> str:
        return self.take(tc.to_envelope(event, key="t1.r1.t1", producer="gateway/1"))

    def act(self, seq: int, actor: str, acting: list[str], at_ms: int) -> str:
        applied = log_pb2.ActionApplied(
            seq=seq, action=action_from_json({"type": "pass", "entity": actor, "entity_type": "player", "id": seq}),
            round_kind="auction", round_label="PR 1", actor=actor, acting_players=acting)
        env = make_envelope(applied, game_id="t1.r1.t1", seq=seq, producer="auction/1")
        env.timestamp_ms = at_ms
        return self.take(env)

    def ended(self, seat: str, seq: int, status: int = 200) -> str:
        return self.take(tc.to_envelope(TurnNotified(seat, seq, status, 1, 9_000), key="t1.r1.t1",
                                        producer="scoring/1", seq=self.led.seq))

    def outstanding(self) -> list[tuple[str, int]]:
        return [(t.seat, t.seq) for t in self.led.notices.outstanding()]


def test_an_untimed_table_is_followed_from_its_creation():
    table = Table(timed=False)
    assert table.outstanding() == [("p1", 0)] and table.led.notices.waiting["p1"].at_ms == 1_000
    assert table.ended("p1", 0) == "applied" and table.outstanding() == []
    assert table.ended("p1", 0) == "same"                          # a repeat changes nothing
    table.act(1, "p1", ["p2"], 2_000)
    assert table.outstanding() == [("p2", 1)]
    assert table.ended("p2", 0) == "same"                          # not the turn p2 waits in
    table.act(2, "p2", ["p3"], 3_000)                              # p3 gave no URL: not followed
    assert table.outstanding() == [] and table.led.notices.waiting == {}
    table.act(3, "p3", ["p1"], 4_000)
    assert table.outstanding() == [("p1", 3)]
    # a consumer starting from the ledger's snapshot knows the same
    back = Ledger.from_snapshot(log_pb2.Snapshot.FromString(table.led.snapshot("auction/1").SerializeToString()),
                                tails=False, tail_from=-1)
    assert back.notices == table.led.notices


def test_a_timed_table_is_followed_from_its_clocks_and_a_removed_seat_is_not():
    table = Table(timed=True)
    assert table.led.notices is None                               # not before the clocks start
    assert table.clock(ClockStarted(SEATS, TimeControl(60_000), ("p1",), "PR 1", 0, 1_500, "remove_seat")) == "applied"
    assert table.outstanding() == [("p1", 0)] and table.led.notices.waiting["p1"].at_ms == 1_500
    table.act(1, "p1", ["p2"], 2_000)
    assert table.clock(FlagFell("p2", 1, 62_000)) == "applied"     # p2's time ran out while it was to act
    table.act(2, "p2", ["p1"], 62_100)                             # its automatic pass
    table.act(3, "p1", ["p2"], 63_000)
    assert table.outstanding() == [], "a removed seat is played automatically: nobody to tell"
    assert Table(timed=False, urls=("", "", "")).led.notices is None
