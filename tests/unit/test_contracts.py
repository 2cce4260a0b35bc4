"""The contracts: generated code in step with proto/, lossless actions, envelope validation."""

import json
import subprocess
import sys
import zlib
from concurrent.futures import ThreadPoolExecutor

import orjson

import pytest
from rh_support import REPO, all_fixture_files

from tools import evidence

from contracts import packed
from contracts.actions import MalformedAction, action_from_json, action_to_json, action_type
from contracts.envelopes import MalformedEnvelope, make_envelope, parse
from contracts.v1 import actions_pb2, log_pb2


def test_generated_code_matches_protos():
    run = subprocess.run(
        [sys.executable, str(REPO / "proto" / "generate.py"), "--check"],
        capture_output=True, text=True, cwd=REPO,
    )
    assert run.returncode == 0, run.stderr


def roundtrip(action: dict) -> dict:
    msg = action_from_json(action)
    wire = actions_pb2.Action.FromString(msg.SerializeToString())
    return action_to_json(wire)


@pytest.mark.parametrize("path", all_fixture_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_recorded_action_roundtrips_losslessly(path):
    actions = evidence.read_json(path)["actions"]
    for action in actions:
        back = roundtrip(action)
        assert back == action
        assert type(back.get("entity")) is type(action.get("entity"))


def test_the_recorded_games_are_there_for_the_round_trip():
    assert len(all_fixture_files()) >= 21, "recorded games missing from evidence/ (the round trip needs them)"


def test_typed_fields_are_used_where_types_match():
    msg = action_from_json({"type": "buy_shares", "entity": 7202, "entity_type": "player",
                            "shares": ["CV_3"], "percent": 10})
    assert msg.WhichOneof("body") == "buy_shares"
    assert msg.entity_number == 7202
    assert list(msg.buy_shares.shares) == ["CV_3"] and msg.buy_shares.percent == 10
    assert msg.extra_json == ""


def test_values_of_another_type_and_unknown_keys_are_kept():
    action = {"type": "buy_shares", "entity": "P1", "entity_type": "player", "shares": ["A_1"],
              "percent": 10, "share_price": True, "novel": {"x": [1, None]}}
    msg = action_from_json(action)
    assert json.loads(msg.extra_json) == {"share_price": True, "novel": {"x": [1, None]}}
    assert roundtrip(action) == action


def test_unknown_action_types_and_nested_routes():
    other = {"type": "fly_zeppelin", "entity": "X", "speed": 3}
    assert action_type(action_from_json(other)) == "fly_zeppelin"
    assert roundtrip(other) == other
    routes = {"type": "run_routes", "entity": "CV", "entity_type": "corporation", "routes": [
        {"train": "2-0", "connections": [["N11", "M12"], []], "hexes": ["N11"], "revenue": 40,
         "revenue_str": "N11", "odd": 1.5}], "extra_revenue": 0}
    assert roundtrip(routes) == routes
    empty = {"type": "destination_connection", "entity": "CV", "corporations": []}
    assert roundtrip(empty) == empty


@pytest.mark.parametrize("bad", [None, [], {"entity": 1}, {"type": 3}, {"type": ""}])
def test_non_actions_are_refused(bad):
    with pytest.raises(MalformedAction):
        action_from_json(bad)


def test_envelopes_validate_kind_key_and_bytes():
    env = make_envelope(log_pb2.RoundStarted(round_kind="auction", round_label="ISR 1"),
                        game_id="g1", seq=0, producer="test")
    assert parse(env.SerializeToString(), "g1").round_started.round_label == "ISR 1"
    with pytest.raises(MalformedEnvelope, match="not a protobuf"):
        parse(b"\xff\xff\xff", "g1")
    with pytest.raises(MalformedEnvelope, match="key"):
        parse(env.SerializeToString(), "g2")
    env.kind = log_pb2.Kind.ACTION_APPLIED
    with pytest.raises(MalformedEnvelope, match="does not match"):
        parse(env.SerializeToString(), "g1")
    with pytest.raises(MalformedEnvelope, match="command_id"):
        parse(make_envelope(log_pb2.CommandSubmitted(expected_seq=0, action=action_from_json({"type": "pass"})),
                            game_id="g1", seq=0, producer="t").SerializeToString())


def test_the_limits_documented_in_gateway_proto_are_the_ones_checked():
    from pathlib import Path

    from contracts import limits as L

    text = (Path(__file__).resolve().parents[2] / "proto/roundhouse/v1/gateway.proto").read_text()
    kib, mib = 1024, 1024 * 1024
    documented = [
        f"an action: {L.MAX_ACTION_BYTES // kib} KiB", f"text: {L.MAX_MESSAGE_CHARS:,} characters",
        f"{L.MAX_GAME_ENTRIES:,} entries and {L.MAX_GAME_LOG_BYTES // mib} MiB", f"player ids: {L.MAX_NAME_CHARS} characters",
        f"seats: {L.MAX_SEATS}", f"command ids: {L.MAX_ID_CHARS} characters", f"tokens: {L.MAX_TOKEN_CHARS} characters",
        f"optional rules: {L.MAX_OPTIONAL_RULES} of {L.MAX_RULE_CHARS} characters",
        f"a tournament's name: {L.MAX_TOURNAMENT_NAME_CHARS}", f"hexes, corporations: {L.MAX_FIELD_CHARS} characters",
        f"export: {L.MAX_IMPORT_BYTES / mib:.2f} MiB", f"at most {L.MAX_GAME_ENTRIES:,} actions and {L.MAX_SEATS} players",
        f"a whole request: {L.MAX_REQUEST_BYTES / mib:.2f} MiB", f"an answer: at most {L.MAX_RESPONSE_BYTES // mib} MiB",
    ]
    flat = " ".join(line.lstrip("/ ").strip() for line in text.splitlines())
    assert [d for d in documented if d not in flat] == []


def test_a_view_and_an_answer_read_back_whichever_way_their_record_packed_them():
    """Records written now pack with zstd; those written before with zlib are read as they were."""
    body = {"round": "SR 1", "name": "Zoë", "legal_actions": [{"type": "pass"}], "values": list(range(300))}
    text = orjson.dumps(body)
    now = log_pb2.PublishedView.FromString(log_pb2.PublishedView(view_json_zstd=packed.pack(body)).SerializeToString())
    before = log_pb2.PublishedView(view_json_zlib=zlib.compress(text, 1))
    assert packed.view_json(now) == packed.view_json(before) == text
    answer_now = log_pb2.QueryAnswer(payload_zstd=packed.pack(body))
    answer_before = log_pb2.QueryAnswer(payload_zlib=zlib.compress(text, 1))
    assert packed.answer_json(answer_now) == packed.answer_json(answer_before) == text
    assert len(packed.pack(body)) < len(text)


def test_packing_from_several_threads_at_once():
    """Each thread packs with its own compressor: bodies packed at the same time do not mix."""
    bodies = [{"thread": i, "rows": [i] * (200 + i)} for i in range(8)]

    def round_trips(body):
        return all(orjson.loads(packed.unpack(packed.pack(body))) == body for _ in range(200))

    with ThreadPoolExecutor(max_workers=4) as pool:
        assert all(pool.map(round_trips, bodies))
