"""The seat's WebSocket takes its token only from its first message, the hello: a token in the
address (``/ws/<id>?token=...``, which lands in the server's logs and the browser's history)
is not read at all, and such a socket is answered as any socket that sends no hello."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect
from ws_helpers import open_seat

import bezique.web.app as app_module
from bezique.web.app import create_app


def _client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "g.db", workers=0, games_per_minute=0,
                                 pages_per_minute=0))


def _refused_for_no_hello(ws: WebSocketTestSession) -> None:
    """The answer to a socket without a hello: one fatal error naming the hello, then 4400."""
    m = ws.receive_json()
    assert m["type"] == "error" and m["fatal"] is True and '"hello"' in m["message"], m
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 4400


def test_a_token_only_in_the_address_opens_no_seat(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "HELLO_SECONDS", 0.2)
    with _client(tmp_path) as client:
        g = client.post("/api/games", json={"opponent": "friend", "name": "Ann"}).json()
        live = client.app.state.manager.games[g["id"]]  # type: ignore[attr-defined]
        url = f"/ws/{g['id']}?token={g['token']}"
        # waiting for the state, as a client that counted on the address did: none comes
        with client.websocket_connect(url) as ws:
            _refused_for_no_hello(ws)
        # a first message that is no hello: the same
        with client.websocket_connect(url) as ws:
            ws.send_text(json.dumps({"type": "next", "ref": 1}))
            _refused_for_no_hello(ws)
        assert not any(live.conns.values())
        r = client.post(f"/api/games/{g['id']}/state", json={"token": g["token"]})
        assert r.json()["game"]["online"] == [False, False]


def test_the_hello_opens_the_seat_and_the_address_is_not_read(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        g = client.post("/api/games", json={"opponent": "computer", "name": "Ann"}).json()
        with open_seat(client, g["id"], g["token"]) as ws:
            first = ws.receive_json()
            assert first["type"] == "state" and first["game"]["you"] == 0
            ws.send_text(json.dumps({"type": "hint", "ref": 7}))
            assert ws.receive_json()["ref"] == 7
        # a wrong token in the address beside a right hello: the hello decides
        with client.websocket_connect(f"/ws/{g['id']}?token=guessed") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": g["token"]}))
            assert ws.receive_json()["type"] == "state"
        # the right token in the address beside a wrong hello: refused, as any wrong token
        with client.websocket_connect(f"/ws/{g['id']}?token={g['token']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": "guessed"}))
            m = ws.receive_json()
            assert m["type"] == "error" and m["fatal"] and "does not hold a seat" in m["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403
