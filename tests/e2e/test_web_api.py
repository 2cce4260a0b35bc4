"""The Gateway for browsers (services/gateway/web.py): the same API over the Connect protocol and
gRPC-Web on the web port, errors with the gRPC servicer's codes and messages, BestRoutes and
ListTournaments, WatchGame ended when its client leaves, and the web client's files served."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from rh_support import LOGS, InProcess, free_port, load_fixture, platform_settings, wait_until

import engine
from contracts.actions import action_to_json
from contracts.v1 import gateway_pb2 as gw
from contracts.v1.gateway_connect import GatewayClientSync
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType
from runtime.config import Settings

pytestmark = pytest.mark.timeout(300)


def _site(tmp_path, monkeypatch) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<!doctype html><title>Roundhouse</title>")
    monkeypatch.setenv("ROUNDHOUSE_WEB_DIR", str(site))


@pytest.fixture()
def platform(tmp_path, monkeypatch):
    _site(tmp_path, monkeypatch)
    p = InProcess(Settings(data_dir=tmp_path / "data", port=free_port(), web_port=0, metrics_port=0))
    try:
        yield p
    finally:
        p.close()


@pytest.fixture(params=LOGS)
def any_platform(request, tmp_path, monkeypatch):
    """The platform on the embedded log, and on Kafka (where the gateway service serves the same)."""
    _site(tmp_path, monkeypatch)
    p = InProcess(platform_settings(request, tmp_path / "data", web_port=0))
    try:
        yield p
    finally:
        p.close()


def post(url: str, method: str, body: dict) -> tuple[int, dict]:
    """A Connect unary call in JSON, as curl would make it."""
    req = urllib.request.Request(f"{url}roundhouse.v1.Gateway/{method}", data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_connect_json_calls_and_error_codes(platform):
    url = platform.running.web_url
    status, created = post(url, "CreateGame", {"title": "1856", "seats": [{"name": n} for n in ("Ann", "Bob", "Cid")]})
    assert status == 200 and created["gameId"].startswith("rh-") and len(created["seats"]) == 3
    status, listed = post(url, "ListGames", {})
    assert [g["gameId"] for g in listed["games"]] == [created["gameId"]]
    status, err = post(url, "GetGame", {"gameId": "nope"})
    assert (status, err["code"], err["message"]) == (404, "not_found", "no game 'nope'")
    status, err = post(url, "CreateGame", {"title": "1856"})
    assert (status, err["code"], err["message"]) == (400, "invalid_argument", "at least one seat is required")
    # an illegal action is refused with the engine's reason, over Connect as over gRPC
    bob = next(s for s in created["seats"] if s["name"] == "Bob")
    status, err = post(url, "SubmitAction", {
        "gameId": created["gameId"], "token": bob["token"], "expectedSeq": "0",
        "action": {"entityName": "Bob", "entityType": "player", "pass": {}},
    })
    assert (status, err["code"]) == (400, "invalid_argument") and err["message"], err


@pytest.mark.parametrize("protocol", [ProtocolType.CONNECT, ProtocolType.GRPC_WEB])
def test_binary_clients_play_and_read(any_platform, protocol):
    with GatewayClientSync(any_platform.running.web_url.rstrip("/"), protocol=protocol) as client:
        created = client.create_game(gw.CreateGameRequest(title="1856", seats=[gw.Seat(name=n) for n in ("Ann", "Bob", "Cid")], seed=3))
        ann = created.seats[0]
        from contracts.actions import action_from_json
        done = client.submit_action(gw.SubmitActionRequest(
            game_id=created.game_id, token=ann.token, expected_seq=0,
            action=action_from_json({"type": "bid", "entity": "Ann", "entity_type": "player", "company": "FT", "price": 20})))
        assert done.seq == 1 and action_to_json(done.action)["company"] == "FT"
        view = client.get_game(gw.GetGameRequest(game_id=created.game_id))
        assert json.loads(view.view_json)["players"][0]["companies"] == ["FT"]
        with pytest.raises(ConnectError) as refused:
            client.submit_action(gw.SubmitActionRequest(
                game_id=created.game_id, token=created.operator_token, expected_seq=1,
                action=action_from_json({"type": "bid", "entity": "Bob", "entity_type": "player", "company": "SCFTC", "price": 1})))
        assert refused.value.code.name == "INVALID_ARGUMENT" and refused.value.message


def test_best_routes_are_the_engines(platform):
    export = load_fixture("hotseat004.json")
    with GatewayClientSync(platform.running.web_url.rstrip("/")) as client:
        imported = client.import_game(gw.ImportGameRequest(export_json=json.dumps(export).encode(), game_id="h4"))
        oracle = engine.import_game(export)
        for corp in ("CPR", "CV"):
            found = client.best_routes(gw.BestRoutesRequest(game_id="h4", corporation=corp))
            from contracts.actions import _dump_with_extra
            routes = [_dump_with_extra(r) for r in found.routes]
            assert found.seq == imported.seq
            assert routes == oracle.best_routes(corp) and routes
            assert found.revenue == sum(r["revenue"] for r in routes) > 0
        for corp, reason in (("", "corporation is required"), ("XX", "Unknown corporation: XX")):
            with pytest.raises(ConnectError) as bad:
                client.best_routes(gw.BestRoutesRequest(game_id="h4", corporation=corp))
            assert (bad.value.code.name, bad.value.message) == ("INVALID_ARGUMENT", reason)


def test_tournaments_are_listed(platform):
    with GatewayClientSync(platform.running.web_url.rstrip("/")) as client:
        assert list(client.list_tournaments(gw.ListTournamentsRequest()).tournaments) == []
        made = client.create_tournament(gw.CreateTournamentRequest(name="Club night"))
        game = client.create_game(gw.CreateGameRequest(title="1856", seats=[gw.Seat(name=n) for n in ("Ann", "Bob", "Cid")]))
        client.add_game(gw.AddGameRequest(tournament_id=made.tournament_id, game_id=game.game_id, token=made.operator_token,
                                          game_operator_token=game.operator_token))
        listed = client.list_tournaments(gw.ListTournamentsRequest()).tournaments
        assert [(t.tournament_id, t.name, list(t.game_ids), t.hosted) for t in listed] == [
            (made.tournament_id, "Club night", [game.game_id], False)]
    from contracts.v1 import tournament_api_pb2 as api
    from contracts.v1 import tournament_pb2 as pb
    from contracts.v1.tournament_api_connect import TournamentsClientSync

    with TournamentsClientSync(platform.running.web_url.rstrip("/")) as hosting:   # a hosted one says so
        cup = hosting.host_tournament(api.HostTournamentRequest(name="Cup", settings=pb.TournamentSettings(
            title="1856", table_size=3, rounds=1)))
    with GatewayClientSync(platform.running.web_url.rstrip("/")) as client:
        listed = client.list_tournaments(gw.ListTournamentsRequest()).tournaments
        assert sorted((t.name, t.hosted) for t in listed) == [("Club night", False), ("Cup", True)]
        assert cup.tournament_id in [t.tournament_id for t in listed]


def test_watch_ends_when_its_client_leaves(platform):
    """A browser closing its tab just drops the connection (no deadline, no cancel message)."""
    import socket
    import struct
    from urllib.parse import urlparse

    model = next(w for w in platform.running.workers if w.service == "gateway").hooks
    with GatewayClientSync(platform.running.web_url.rstrip("/")) as client:
        created = client.create_game(gw.CreateGameRequest(title="1856", seats=[gw.Seat(name=n) for n in ("Ann", "Bob", "Cid")]))
    message = gw.WatchGameRequest(game_id=created.game_id).SerializeToString()
    body = struct.pack(">BI", 0, len(message)) + message   # one Connect envelope
    where = urlparse(platform.running.web_url)
    sock = socket.create_connection((where.hostname, where.port), timeout=30)
    sock.sendall(
        b"POST /roundhouse.v1.Gateway/WatchGame HTTP/1.1\r\nHost: x\r\n"
        b"Content-Type: application/connect+proto\r\nConnect-Protocol-Version: 1\r\n"
        + f"Content-Length: {len(body)}\r\n\r\n".encode() + body
    )
    watching = lambda: platform.inspect(lambda: len(model.watchers.get(created.game_id, ())))
    assert wait_until(lambda: watching() == 1, 30)
    sock.close()
    assert wait_until(lambda: watching() == 0, 30), "the watcher of a client that left stayed"


def test_web_client_files_are_served(platform):
    url = platform.running.web_url
    with urllib.request.urlopen(url, timeout=30) as resp:
        assert resp.status == 200 and b"<title>Roundhouse</title>" in resp.read()
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{url}nothing.js", timeout=30)
    assert missing.value.code == 404


def test_hosted_tournament_over_connect(platform):
    """The Tournaments service is served over Connect too, sharing the gateway's read model."""
    from contracts.v1 import tournament_api_pb2 as api
    from contracts.v1 import tournament_pb2 as pb
    from contracts.v1.tournament_api_connect import TournamentsClientSync

    with TournamentsClientSync(platform.running.web_url.rstrip("/")) as client:
        made = client.host_tournament(api.HostTournamentRequest(name="Web cup", settings=pb.TournamentSettings(
            title="1856", table_size=3, rounds=1)))
        ann = client.register(api.RegisterRequest(tournament_id=made.tournament_id, name="Ann"))
        view = client.get_tournament(api.GetTournamentRequest(tournament_id=made.tournament_id))
        assert (view.status, [p.player_id for p in view.players]) == ("registering", [ann.player_id])
        with pytest.raises(ConnectError) as denied:
            client.seat_round(api.SeatRoundRequest(tournament_id=made.tournament_id, token=ann.player_token))
        assert denied.value.code.name == "PERMISSION_DENIED"
