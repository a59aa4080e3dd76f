"""A seat's WebSocket opened as the page opens it: ``/ws/<game id>`` with no token in the
address (a query lands in the server's logs), then the seat's token in the first message,
``{"type": "hello", "token": "..."}``.

``with open_seat(client, game_id, token) as ws:`` stands where ``with
client.websocket_connect(f"/ws/{game_id}?token={token}") as ws:`` stood: ``ws`` is the test
client's socket, the hello already sent; the server answers it as it answered the address's
token (the state, or one fatal error and a close).
"""

from __future__ import annotations

import json
from types import TracebackType
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession


class SeatSocket:
    """The context manager of :func:`open_seat` (``__enter__`` connects and says hello)."""

    def __init__(self, client: TestClient, game_id: str, token: str) -> None:
        self._connect = client.websocket_connect(f"/ws/{game_id}")
        self._token = token

    def __enter__(self) -> WebSocketTestSession:
        ws = self._connect.__enter__()
        try:
            ws.send_text(json.dumps({"type": "hello", "token": self._token}))
        except BaseException:
            self._connect.__exit__(None, None, None)
            raise
        return ws

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> Any:
        return self._connect.__exit__(kind, error, trace)


def open_seat(client: TestClient, game_id: str, token: str) -> SeatSocket:
    """The socket of the seat that ``token`` holds in game ``game_id`` (a path segment, quoted
    by the caller if it must be), to use in a ``with``."""
    return SeatSocket(client, game_id, token)
