"""GetGame, WatchGame, ListGames, ExportGame and health/reflection on the embedded platform."""

import threading

import grpc
import orjson
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from rh_support import InProcess, LiveGame, free_port

from contracts.actions import action_to_json
from contracts.v1 import gateway_pb2 as gw
from runtime.client import render
from runtime.config import Settings

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def platform(tmp_path):
    p = InProcess(Settings(data_dir=tmp_path, port=free_port(), metrics_port=0))
    yield p
    p.close()


def test_watch_list_export_and_view(platform):
    game = LiveGame(platform.address)
    stub = game.gateway
    game.step()

    events = []
    stream = stub.WatchGame(gw.WatchGameRequest(game_id=game.game_id, from_seq=0))

    def follow():
        try:
            for env in stream:
                events.append(env)
        except grpc.RpcError:
            pass

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    game.step()
    game.step()
    deadline_ok = False
    for _ in range(100):
        kinds = [e.WhichOneof("body") for e in events]
        if [e.seq for e in events if e.WhichOneof("body") == "action_applied"] == [1, 2, 3] and "score_updated" in kinds:
            deadline_ok = True
            break
        threading.Event().wait(0.05)
    stream.cancel()
    assert deadline_ok, [(e.seq, e.WhichOneof("body")) for e in events]
    first = next(e for e in events if e.WhichOneof("body") == "action_applied")
    stored = action_to_json(first.action_applied.action)
    assert {key: v for key, v in stored.items() if key in game.played[0]} == game.played[0]
    assert stored["id"] == 1 and "created_at" in stored  # set by the engine and the gateway

    listed = stub.ListGames(gw.ListGamesRequest())
    assert game.game_id in [g.game_id for g in listed.games]
    view = stub.GetGame(gw.GetGameRequest(game_id=game.game_id))
    assert view.seq == 3 and view.title == "1856"
    assert set(view.acting_players) <= {p.id for p in view.players}
    full = orjson.loads(view.view_json)
    assert full["legal_actions"]
    light = stub.GetGame(gw.GetGameRequest(game_id=game.game_id, without_legal_actions=True))
    assert (light.seq, light.digest, list(light.acting_players)) == (view.seq, view.digest, list(view.acting_players))
    assert orjson.loads(light.view_json) == {k: v for k, v in full.items() if k != "legal_actions"}
    text = render(view)
    assert game.game_id in text and "players:" in text

    exported = orjson.loads(stub.ExportGame(gw.ExportGameRequest(game_id=game.game_id)).export_json)
    assert len(exported["actions"]) == 3
    imported = stub.ImportGame(gw.ImportGameRequest(export_json=orjson.dumps(exported)))
    again = stub.GetGame(gw.GetGameRequest(game_id=imported.game_id))
    assert (again.seq, again.digest) == (view.seq, view.digest)


def test_health_and_reflection(platform):
    channel = grpc.insecure_channel(platform.address)
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "roundhouse.gateway", "roundhouse.auction", "roundhouse.scoring"):
        status = health.Check(health_pb2.HealthCheckRequest(service=service)).status
        assert status == health_pb2.HealthCheckResponse.SERVING, service
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

    reflect = reflection_pb2_grpc.ServerReflectionStub(channel)
    responses = reflect.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]))
    names = {s.name for r in responses for s in r.list_services_response.service}
    assert "roundhouse.v1.Gateway" in names and "grpc.health.v1.Health" in names


def test_titles_and_their_facts(platform):
    import engine
    from rh_support import gateway_stub

    stub = gateway_stub(platform.address)
    listed = stub.ListTitles(gw.ListTitlesRequest()).titles
    assert [(t.title, t.slug, t.min_players, t.max_players) for t in listed] == [
        (t["title"], t["slug"], t["min_players"], t["max_players"]) for t in engine.list_titles()]
    assert {r.sym for r in next(t for t in listed if t.slug == "1856").optional_rules} >= {"alternate_destinations"}
    for title in ("1856", "1858India", "1847_ae"):
        facts = stub.GetTitle(gw.GetTitleRequest(title=title))
        assert orjson.loads(facts.facts_json) == engine.title_facts(title)
        board = orjson.loads(facts.facts_json)["board"]
        # every tile a hex may carry is described, the shared catalogue's included
        assert set(board["tiles"]) >= {name for name, _count in board["supply"]}
    with pytest.raises(grpc.RpcError) as missing:
        stub.GetTitle(gw.GetTitleRequest(title="1830"))
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND


def test_tile_lays_of_an_offered_hex(platform):
    """GetGame's legal actions name the hexes where CV may lay track; GetTileLays gives a hex's tiles
    and rotations exactly as the engine does, and a lay taken from it is accepted."""
    import engine
    from rh_support import gateway_stub, load_fixture

    from contracts.actions import action_from_json

    export = load_fixture("51745.json")
    export = {**export, "actions": export["actions"][:201]}      # CV, $205, reaches the K14 mountain
    stub = gateway_stub(platform.address)
    created = stub.ImportGame(gw.ImportGameRequest(export_json=orjson.dumps(export)))
    view = orjson.loads(stub.GetGame(gw.GetGameRequest(game_id=created.game_id)).view_json)
    entry = next(e for e in view["legal_actions"] if e["entity"] == "CV")
    assert "K14" in entry["lay_hexes"]
    answer = stub.GetTileLays(gw.GetTileLaysRequest(game_id=created.game_id, entity="CV",
                                                    entity_type="corporation", hex="K14"))
    oracle = engine.import_game(export)
    expected = oracle.tile_lays("CV", "corporation", "K14")
    assert answer.seq == oracle.seq and answer.hex == "K14" and expected
    assert [(x.tile, list(x.rotations), x.cost) for x in answer.lays] == \
        [(x["tile"], x["rotations"], x["cost"]) for x in expected]
    lay = {"type": "lay_tile", "entity": "CV", "entity_type": "corporation", "hex": "K14",
           "tile": answer.lays[0].tile, "rotation": answer.lays[0].rotations[0]}
    done = stub.SubmitAction(gw.SubmitActionRequest(game_id=created.game_id, token=created.operator_token,
                                                    action=action_from_json(lay), expected_seq=created.seq))
    assert done.seq == created.seq + 1
    for bad, code in ((dict(hex="Z99"), grpc.StatusCode.INVALID_ARGUMENT),
                      (dict(entity="XX"), grpc.StatusCode.INVALID_ARGUMENT),
                      (dict(game_id="nope"), grpc.StatusCode.NOT_FOUND)):
        request = {"game_id": created.game_id, "entity": "CV", "entity_type": "corporation", "hex": "K14", **bad}
        with pytest.raises(grpc.RpcError) as refused:
            stub.GetTileLays(gw.GetTileLaysRequest(**request))
        assert refused.value.code() == code


def test_a_view_published_while_the_request_is_appended_answers_it(tmp_path):
    # The owner publishes a game's view after every action once the game is read; a GetGame that
    # asks for the view just as that one comes in must take it, not wait for the owner to be asked
    # again (request_retry_s later: here longer than the call may wait).
    from rh_support import gateway_stub

    from runtime.client import Replayer
    from tools import evidence

    p = InProcess(Settings(data_dir=tmp_path, port=free_port(), metrics_port=0, request_retry_s=600,
                           submit_timeout_s=20))
    try:
        replayer = Replayer(gateway_stub(p.address), evidence.load_game("1858", "1858_game_end_bank"))
        replayer.create()
        while replayer.next_index < 150:   # corporations' moves: each reads the game first
            replayer.step()
            view = replayer.view()
            assert view.seq == replayer.seq
    finally:
        p.close()
