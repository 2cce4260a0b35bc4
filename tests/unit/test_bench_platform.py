"""The platform benchmark (runtime.bench): what its load generator sends for a script's moves, and
which broker its report counts."""

import os

from contracts.actions import action_to_json
from runtime.bench import Script, broker_pid, process_cpu

MOVES = [
    ({"type": "bid", "entity": 1, "entity_type": "player", "company": "P1", "price": 45}, "1", 0),
    ({"type": "pass", "entity": 2, "entity_type": "player"}, "2", 1),
    ({"type": "undo", "entity": 2, "entity_type": "player"}, "2", 2),
]


def test_a_scripts_moves_are_encoded_once_as_the_actions_they_are():
    script = Script("1856/example", {}, list(MOVES))
    encoded = script.encoded()
    assert [(action_to_json(action), kind, who, seq) for action, kind, who, seq in encoded] == [
        (move, move["type"], who, seq) for move, who, seq in MOVES]
    assert script.encoded() is encoded   # every copy of the script played sends the same messages


def test_the_broker_counted_is_the_development_broker_on_this_machine(tmp_path, monkeypatch):
    """The report's broker CPU: the process in `make kafka-up`'s pidfile for the port, when the
    broker is on this machine and the process lives; nothing otherwise."""
    monkeypatch.setenv("KAFKA_HOME", str(tmp_path))
    (tmp_path / "broker-9092.pid").write_text(str(os.getpid()))
    assert broker_pid("127.0.0.1:9092") == os.getpid()
    assert broker_pid("localhost:9092") == os.getpid()
    assert broker_pid("127.0.0.1:9093") is None          # no pidfile for that port
    assert broker_pid("kafka.example:9092") is None      # another machine's
    assert broker_pid(None) is None                      # the embedded log
    (tmp_path / "broker-9093.pid").write_text("999999999")
    assert broker_pid("127.0.0.1:9093") is None          # a stale pidfile
    assert process_cpu(os.getpid()) > 0
    assert process_cpu(999999999) == 0.0
