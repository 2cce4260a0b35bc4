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
