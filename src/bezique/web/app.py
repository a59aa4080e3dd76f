"""The ``bezique serve`` site: the ASGI app (FastAPI), its HTTP routes and the WebSocket for live
play.

Games are against the computer or a friend.  Each seat is held by an unguessable token; every
message to a seat is built from that seat's :class:`~bezique.observation.Observation` only
(:mod:`bezique.web.views`), so the other hand and the stock never leave the server.  Every action
is stored (SQLite, as the game's record) before it is acknowledged, and a per-game
:class:`asyncio.Lock` applies concurrent actions one at a time (:mod:`bezique.web.manager`).
This module reads requests, checks their size and form, and hands them on.
"""

from __future__ import annotations

import contextlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.requests import ClientDisconnect

from ..agents.levels import DEFAULT_LEVEL, LEVEL_NAMES, level_spec
from ..cards import RANKS, SUITS
from .info import add_info_routes
from .live import COMPUTER, FRIEND, Refusal
from .manager import Manager
from .replay import finished_record, replay_frames
from .store import Store
from .svg import back_svg, card_svg, suit_svg
from .views import seat_view

MAX_MESSAGE = 4096  # bytes of one client message (WebSocket frame or request body)
# Everything the page loads comes from this server (no CDN, no outside assets).
CSP = ("default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
       "connect-src 'self' ws: wss:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def _static(name: str) -> bytes:
    return resources.files("bezique.web").joinpath("static", name).read_bytes()


_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html",
          ".svg": "image/svg+xml"}
_CARD_NAMES = {r + s for r in RANKS for s in SUITS}
STATIC_FILES = ("app.js", "pages.js", "motion.js", "teach.js", "style.css", "index.html")


def _error(e: Refusal) -> JSONResponse:
    return JSONResponse({"error": e.message}, status_code=e.status)


async def _body(request: Request) -> Any:
    try:
        raw = await request.body()
    except ClientDisconnect:
        raise Refusal("the request was cut off") from None
    if len(raw) > MAX_MESSAGE:
        raise Refusal(f"request too large ({len(raw)} bytes; the limit is {MAX_MESSAGE})", 413)
    try:
        return json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise Refusal("the request body must be JSON") from None


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def create_app(db: str | Path | Store | None = None, computer_delay: float = 0.0,
               public_url: str | None = None, host: str | None = None) -> FastAPI:
    """The ASGI app on the database ``db`` (a path, a :class:`Store`, or the default file).

    ``public_url`` is the address friends open (for invitation links); ``host`` the address the
    server listens on (a loopback one gets a note on the page that others cannot reach it)."""
    from .store import default_db_path

    store = db if isinstance(db, Store) else Store(db if db is not None else default_db_path())
    manager = Manager(store, computer_delay)
    app = FastAPI(title="Bezique", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.manager = manager
    app.state.store = store

    @app.exception_handler(Refusal)
    async def _refusal(request: Request, exc: Refusal) -> JSONResponse:
        return _error(exc)

    @app.get("/", response_class=HTMLResponse)
    async def index() -> Response:
        return Response(_static("index.html"), media_type="text/html; charset=utf-8",
                        headers={"Cache-Control": "no-cache", "Content-Security-Policy": CSP,
                                 "X-Content-Type-Options": "nosniff",
                                 "Referrer-Policy": "no-referrer"})

    @app.get("/static/{name}")
    async def static(name: str) -> Response:
        suffix = Path(name).suffix
        if name not in STATIC_FILES:
            return JSONResponse({"error": "not found"}, status_code=404)
        return Response(_static(name), media_type=_TYPES[suffix] + "; charset=utf-8",
                        headers={"Cache-Control": "no-cache"})

    @app.get("/cards/{name}.svg")
    async def card(name: str) -> Response:
        if name == "back":
            svg = back_svg()
        elif name.upper() in _CARD_NAMES:
            svg = card_svg(name.upper())
        else:
            return JSONResponse({"error": "no such card"}, status_code=404)
        return Response(svg, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/suits/{suit}.svg")
    async def suit(suit: str) -> Response:
        try:
            svg = suit_svg(suit)
        except ValueError:
            return JSONResponse({"error": "no such suit"}, status_code=404)
        return Response(svg, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/favicon.svg")
    async def favicon() -> Response:
        return Response(card_svg("QS"), media_type="image/svg+xml")

    @app.get("/api/levels")
    async def levels() -> dict[str, Any]:
        return {"levels": {lv: level_spec(lv) for lv in range(1, 6)}, "default": DEFAULT_LEVEL,
                "names": LEVEL_NAMES}

    base = public_url.rstrip("/") if public_url else None

    @app.get("/api/server")
    async def server() -> dict[str, Any]:
        return {"public_url": base, "loopback": host in LOOPBACK and base is None}

    @app.post("/api/games")
    async def create(request: Request) -> Response:
        data = await _body(request)
        if not isinstance(data, dict):
            raise Refusal("the request body must be a JSON object")
        live, token, invite = manager.create(
            opponent=data.get("opponent", COMPUTER),
            variant=data.get("variant", "bezique"),
            target=data.get("target", 1000),
            level=data.get("level", DEFAULT_LEVEL),
            name=data.get("name", ""),
            seed=data.get("seed"),
        )
        manager.kick_computer(live)
        out: dict[str, Any] = {"id": live.row.id, "seat": 0, "token": token}
        if invite:
            out["invite"] = invite
            out["invite_path"] = f"/#/join/{live.row.id}/{invite}"
            if base:
                out["invite_url"] = base + out["invite_path"]
        return JSONResponse(out, status_code=201)

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, request: Request) -> dict[str, Any]:
        data = await _body(request)
        if not isinstance(data, dict) or not isinstance(data.get("invite"), str):
            raise Refusal("send the invitation as {\"invite\": \"...\"}")
        live, token = await manager.join(game_id, data["invite"], data.get("name", ""))
        return {"id": live.row.id, "seat": 1, "token": token}

    @app.post("/api/games/{game_id}/state")
    async def state(game_id: str, request: Request) -> dict[str, Any]:
        data = await _body(request)
        token = data.get("token", "") if isinstance(data, dict) else ""
        live, seat = manager.seat_or_refuse(game_id, str(token))
        return seat_view(live, seat, manager.online(live))

    @app.post("/api/games/{game_id}/act")
    async def act(game_id: str, request: Request) -> dict[str, Any]:
        data = await _body(request)
        token = data.get("token", "") if isinstance(data, dict) else ""
        live, seat = manager.seat_or_refuse(game_id, str(token))
        return await manager.handle(live, seat, data)

    @app.post("/api/mine")
    async def mine(request: Request) -> dict[str, Any]:
        data = await _body(request)
        tokens = data.get("games") if isinstance(data, dict) else None
        if not isinstance(tokens, dict) or len(tokens) > 100:
            raise Refusal("send {\"games\": {game id: token, ...}} (at most 100)")
        out = []
        for gid, token in tokens.items():
            try:
                live, seat = manager.seat_or_refuse(str(gid), str(token))
            except Refusal:
                continue
            row = live.row
            out.append({"id": row.id, "seat": seat, "opponent": row.opponent,
                        "names": row.names, "created": row.created, "updated": row.updated,
                        "waiting_for_friend": row.opponent == FRIEND
                        and row.token_hashes[1] is None, **row.summary})
        out.sort(key=lambda g: -float(g["updated"]))
        return {"games": out}

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, token: str = "") -> Response:
        live, _ = manager.seat_or_refuse(game_id, token)
        rec = finished_record(live)
        if not rec["deals"]:
            raise Refusal("no deal of this game is finished yet", 409)
        return Response(json.dumps(rec, indent=1), media_type="application/json",
                        headers={"Content-Disposition":
                                 f'attachment; filename="bezique-{game_id}.json"'})

    @app.get("/api/games/{game_id}/replay")
    async def replay(game_id: str, token: str = "") -> dict[str, Any]:
        live, seat = manager.seat_or_refuse(game_id, token)
        rec = finished_record(live)
        return {"id": game_id, "you": seat, "names": live.row.names,
                "variant": live.game.rules.variant, "deals": replay_frames(rec)}

    @app.websocket("/ws/{game_id}")
    async def ws(websocket: WebSocket, game_id: str, token: str = "") -> None:
        await websocket.accept()
        try:
            live, seat = manager.seat_or_refuse(game_id, token)
        except Refusal as e:
            await websocket.send_json({"type": "error", "message": e.message, "fatal": True})
            await websocket.close(code=4403 if e.status == 403 else 4404)
            return
        live.conns[seat].add(websocket)
        try:
            await manager.broadcast(live)
            manager.kick_computer(live)
            while True:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                ref: Any = None
                try:
                    if text is None:
                        raise Refusal("send messages as JSON text, not binary")
                    size = len(text.encode("utf-8"))
                    if size > MAX_MESSAGE:
                        raise Refusal(f"message too large ({size} bytes; the limit is "
                                      f"{MAX_MESSAGE})", 413)
                    try:
                        data = json.loads(text)
                    except json.JSONDecodeError:
                        raise Refusal("a message must be JSON, such as {\"type\": \"action\", "
                                      "\"action\": \"play QS\"}") from None
                    if isinstance(data, dict):
                        ref = data.get("ref")
                        if not isinstance(ref, int | str | None) or isinstance(ref, bool):
                            ref = None
                    reply = await manager.handle(live, seat, data)
                except Refusal as e:
                    reply = {"type": "error", "message": e.message}
                if ref is not None:
                    reply["ref"] = ref
                await manager.send(live, seat, websocket, reply)
        except WebSocketDisconnect:
            pass
        finally:
            live.conns[seat].discard(websocket)
            with contextlib.suppress(Exception):
                await manager.broadcast(live)

    add_info_routes(app, manager, _body)
    return app
