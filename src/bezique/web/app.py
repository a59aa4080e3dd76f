"""The ``bezique serve`` site: the ASGI app (FastAPI), its HTTP routes and the WebSocket for live
play.

Games are against the computer or a friend.  Each seat is held by an unguessable token, sent in
a request's body or in the socket's first message, never in an address (which lands in the
browser's history and the server's logs); every message to a seat is built from that seat's
:class:`~bezique.observation.Observation` only (:mod:`bezique.web.views`), so the other hand and
the stock never leave the server.  Every action is stored (SQLite, as the game's record) before
it is acknowledged, and a per-game :class:`asyncio.Lock` applies concurrent actions one at a
time (:mod:`bezique.web.manager`).
This module reads requests, checks their size and their form (by the one schema,
:mod:`bezique.schema`: every refusal is a JSON error, never a 500 or a dropped socket), limits
how fast one client creates games, and hands them on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect

from ..agents.levels import DEFAULT_LEVEL, LEVEL_NAMES, level_spec
from ..cards import RANKS, SUITS
from ..errors import BeziqueError, RequestError
from ..rules import variant_title
from ..schema import WebCreate, WebJoin, WebMessage, WebMine, WebToken, check, parse_json
from .again import next_game
from .info import add_info_routes
from .limits import GAMES_PER_MINUTE, PAGES_PER_MINUTE, RateLimit
from .live import FRIEND, Refusal
from .manager import Manager
from .replay import finished_record, replay_frames
from .seats import invitation_seat, is_table, waiting
from .store import Store
from .svg import back_svg, card_svg, suit_svg
from .tableview import view_for
from .views import computer_levels, invitation_view, shown_names
from .workers import AgentPool

MAX_MESSAGE = 4096  # bytes of one client message (WebSocket frame or request body)
# Everything the page loads comes from this server (no CDN, no outside assets).
CSP = ("default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
       "connect-src 'self' ws: wss:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def _static(name: str) -> bytes:
    return resources.files("bezique.web").joinpath("static", name).read_bytes()


_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html",
          ".svg": "image/svg+xml"}
_CARD_NAMES = {r + s for r in RANKS for s in SUITS}
STATIC_FILES = ("app.js", "game.js", "pages.js", "motion.js", "teach.js", "table.js",
                "style.css", "index.html")


def _error(e: Refusal) -> JSONResponse:
    # busy (503) and too many games (429) may be asked again: say when
    retry = {503: "1", 429: "60"}.get(e.status)
    return JSONResponse({"error": e.message}, status_code=e.status,
                        headers={"Retry-After": retry} if retry else None)


F = TypeVar("F", WebCreate, WebJoin, WebMessage, WebMine, WebToken)


def _form(model: type[F], data: Any) -> F:
    """``data`` checked by the schema; a refusal (400) with its one-line reason if wrong."""
    try:
        return check(model, data)
    except BeziqueError as e:
        raise Refusal(str(e)) from None


async def _body(request: Request, model: type[F]) -> F:
    return _form(model, await _json(request))


async def _json(request: Request) -> Any:
    # read no further than the limit: a body of a gigabyte was held whole in memory first
    too_large = Refusal(f"request too large (the limit is {MAX_MESSAGE} bytes)", 413)
    size = request.headers.get("content-length", "")
    if size.isascii() and size.isdigit() and (len(size) > 9 or int(size) > MAX_MESSAGE):
        raise too_large
    raw = b""
    try:
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_MESSAGE:
                raise too_large
    except ClientDisconnect:
        raise Refusal("the request was cut off") from None
    try:
        return parse_json(raw or b"{}", RequestError, "the request body must be JSON")
    except RequestError as e:
        raise Refusal(str(e)) from None


def _message(text: str | None) -> WebMessage:
    """A WebSocket message checked by the schema, or a refusal."""
    if text is None:
        raise Refusal("send messages as JSON text, not binary")
    size = len(text.encode("utf-8", "replace"))
    if size > MAX_MESSAGE:
        raise Refusal(f"message too large ({size} bytes; the limit is {MAX_MESSAGE})", 413)
    try:
        data = parse_json(text, RequestError, 'a message must be JSON, such as {"type": '
                                              '"action", "action": "play QS"}')
    except RequestError as e:
        raise Refusal(str(e)) from None
    return _form(WebMessage, data)


def _ref(text: str | None) -> int | str | None:
    """The ``ref`` of a message, to echo even when the message is refused."""
    if text is None or len(text) > MAX_MESSAGE:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    ref = data.get("ref") if isinstance(data, dict) else None
    if isinstance(ref, bool) or not isinstance(ref, int | str) or len(str(ref)) > 64:
        return None
    try:  # a text no socket can carry back (a lone surrogate, sent as a JSON escape)
        str(ref).encode("utf-8")
    except UnicodeEncodeError:
        return None
    return ref


HELLO_SECONDS = 10.0  # how long a new socket may take to send its token


async def _hello(websocket: WebSocket) -> str | None:
    """The seat token of a socket's first message, ``{"type": "hello", "token": "..."}``; None
    (the socket closed, with the reason if it is still there) if it sends none in time."""
    try:
        msg = await asyncio.wait_for(websocket.receive(), HELLO_SECONDS)
    except TimeoutError:
        msg = {"type": "websocket.receive"}
    if msg["type"] == "websocket.disconnect":
        return None
    text = msg.get("text")
    try:
        data = parse_json(text or "", RequestError, "")
    except RequestError:
        data = None
    if isinstance(data, dict) and data.get("type") == "hello":
        with contextlib.suppress(Refusal):
            return _form(WebToken, data).token
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", "fatal": True, "message":
                                   'send the seat\'s token first: {"type": "hello", '
                                   '"token": "..."}'})
        await websocket.close(code=4400)
    return None


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def create_app(db: str | Path | Store | None = None, computer_delay: float = 0.0,
               public_url: str | None = None, host: str | None = None,
               games_per_minute: float = GAMES_PER_MINUTE, workers: int | None = None,
               manager: Manager | None = None,
               pages_per_minute: float = PAGES_PER_MINUTE) -> FastAPI:
    """The ASGI app on the database ``db`` (a path, a :class:`Store`, or the default file).

    ``public_url`` is the address friends open (for invitation links); ``host`` the address the
    server listens on (a loopback one gets a note on the page that others cannot reach it);
    ``games_per_minute`` how many games one client may create a minute (0: no limit);
    ``workers`` the computer's worker processes (0: a thread; default: one per core but one);
    ``manager`` a :class:`Manager` with other limits; ``pages_per_minute`` how many pages one
    seat may open a minute (after a burst of ten; 0: no limit)."""
    from .store import default_db_path

    if manager is None:
        store = db if isinstance(db, Store) else Store(db if db is not None else
                                                        default_db_path())
        manager = Manager(store, computer_delay, AgentPool(workers))
    store = manager.store
    creating = RateLimit(games_per_minute)
    opening = RateLimit(pages_per_minute, burst=10)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        manager.close()

    app = FastAPI(title="Bezique", docs_url=None, redoc_url=None, openapi_url=None,
                  lifespan=lifespan)
    app.state.manager = manager
    app.state.store = store

    @app.exception_handler(Refusal)
    async def _refusal(request: Request, exc: Refusal) -> JSONResponse:
        return _error(exc)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> JSONResponse:
        # an unknown address or method: the same {"error": ...} as every other refusal
        words = {404: f"there is no such address: {request.url.path[:80]}",
                 405: f"{request.method} is not the method for {request.url.path[:80]}"}
        return JSONResponse({"error": words.get(exc.status_code, str(exc.detail))},
                            status_code=exc.status_code, headers=exc.headers)

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
        form = await _body(request, WebCreate)
        client = request.client.host if request.client else "?"
        if not creating.allow(client):
            raise Refusal("too many new games from here: wait a minute and try again", 429)
        live, token, invites = manager.create(form)
        manager.kick_computer(live)
        out: dict[str, Any] = {"id": live.row.id, "seat": 0, "token": token,
                               "practice": live.practice}
        links = []
        for seat, invite in invites.items():
            link: dict[str, Any] = {"seat": seat, "invite": invite,
                                    "invite_path": f"/#/join/{live.row.id}/{invite}"}
            if base:
                link["invite_url"] = base + link["invite_path"]
            links.append(link)
        if is_table(live.row):
            out["invites"] = links  # one private link per friend seat
        elif links:
            out.update({k: v for k, v in links[0].items() if k != "seat"})
        return JSONResponse(out, status_code=201)

    @app.post("/api/games/{game_id}/invitation")
    async def invitation(game_id: str, request: Request) -> dict[str, Any]:
        # what an invitation is for, shown before its friend takes the seat (or why it cannot)
        form = await _body(request, WebJoin)
        live = manager.get(game_id)
        return invitation_view(live, invitation_seat(live.row, form.invite))

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, request: Request) -> dict[str, Any]:
        form = await _body(request, WebJoin)
        live, seat, token = await manager.join(game_id, form.invite, form.name)
        return {"id": live.row.id, "seat": seat, "token": token}

    @app.post("/api/games/{game_id}/again")
    async def again(game_id: str, request: Request) -> dict[str, Any]:
        # the next game after a finished friends' game (two seats or a table): the seat of this
        # token in it, and its token only
        form = await _body(request, WebToken)
        live, seat = manager.seat_or_refuse(game_id, form.token)
        new, new_seat, token = await manager.again(live, seat, form.token)
        return {"id": new.row.id, "seat": new_seat, "token": token}

    @app.post("/api/games/{game_id}/state")
    async def state(game_id: str, request: Request) -> dict[str, Any]:
        form = await _body(request, WebToken)
        live, seat = manager.seat_or_refuse(game_id, form.token)
        return view_for(live, seat, manager.online(live))

    @app.post("/api/games/{game_id}/act")
    async def act(game_id: str, request: Request) -> dict[str, Any]:
        data = await _json(request)
        # the seat first, so that a stranger learns nothing of a game from the error
        token = data.get("token", "") if isinstance(data, dict) else ""
        live, seat = manager.seat_or_refuse(game_id, token if isinstance(token, str) else "")
        return await manager.handle(live, seat, _form(WebMessage, data))

    @app.post("/api/mine")
    async def mine(request: Request) -> dict[str, Any]:
        form = await _body(request, WebMine)
        out = []
        for gid, token in form.games.items():
            try:
                live, seat = manager.seat_or_refuse(gid, token)
            except Refusal:
                continue
            row = live.row
            out.append({"id": row.id, "seat": seat, "opponent": row.opponent,
                        "names": row.names, "created": row.created, "updated": row.updated,
                        "practice": live.practice,
                        "waiting_for_friend": waiting(row) > 0 if is_table(row)
                        else row.opponent == FRIEND and row.token_hashes[1] is None,
                        # a finished friends' game's next, started by one of them (its id)
                        "next_game": (next_game(row, seat) or {}).get("id"),
                        **row.summary,
                        "variant_title": variant_title(live.game.rules.variant)})
        out.sort(key=lambda g: -float(g["updated"]))
        return {"games": out}

    # the record and the replay are asked for with the token in the body (POST), as every other
    # request of a seat: a token in an address's query lands in the browser's history and the
    # server's logs; the page saves the record as a file itself
    @app.post("/api/games/{game_id}/record")
    async def record(game_id: str, request: Request) -> Response:
        form = await _body(request, WebToken)
        live, _ = manager.seat_or_refuse(game_id, form.token)
        rec = finished_record(live)
        if not rec["deals"]:
            raise Refusal("no deal of this game is finished yet", 409)
        return Response(json.dumps(rec, indent=1), media_type="application/json",
                        headers={"Content-Disposition":
                                 f'attachment; filename="bezique-{game_id}.json"',
                                 "Cache-Control": "no-store"})

    @app.post("/api/games/{game_id}/replay")
    async def replay(game_id: str, request: Request) -> dict[str, Any]:
        form = await _body(request, WebToken)
        live, seat = manager.seat_or_refuse(game_id, form.token)
        rec = finished_record(live)
        # the players named as the game's page names them ("Computer 3"), each computer's
        # level beside (said once, in the replay's list of players)
        return {"id": game_id, "you": seat, "names": shown_names(live.row),
                "levels": computer_levels(live.row),
                "variant": live.game.rules.variant, "deals": replay_frames(rec),
                # each deal a game of its own (its points), or the game's running totals
                "one_deal": live.game.rules.settlement == "portland"}

    @app.websocket("/ws/{game_id}")
    async def ws(websocket: WebSocket, game_id: str) -> None:
        # the page sends its token in its first message, {"type": "hello", "token": "..."},
        # never in the address (a query lands in the server's logs and the browser's history):
        # an address's ?token= is not read, and such a socket is answered as any without hello
        await websocket.accept()
        token = await _hello(websocket)
        if token is None:
            return
        try:
            live, seat = manager.seat_or_refuse(game_id, token)
        except Refusal as e:
            await websocket.send_json({"type": "error", "message": e.message, "fatal": True})
            await websocket.close(code=4403 if e.status == 403 else 4404)
            return
        if not opening.allow(f"{game_id}/{seat}"):
            # a storm of tabs: once the hello names the seat, closed with no state sent (a
            # page learns of it as a dropped connection)
            await websocket.close(code=4429)
            return
        # the game again: it may have left memory (and come back as another copy) meanwhile
        live = manager.get(game_id)
        try:
            await manager.connect(live, seat, websocket)
            manager.kick_computer(live)
            while True:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                try:
                    reply = await manager.handle(live, seat, _message(text))
                except Refusal as e:
                    reply = {"type": "error", "message": e.message}
                ref = _ref(text)
                if ref is not None:
                    reply["ref"] = ref
                await manager.send(live, seat, websocket, reply)
        except (WebSocketDisconnect, RuntimeError):  # gone, or closed for a newer page
            pass
        finally:
            with contextlib.suppress(Exception):
                await manager.disconnect(live, seat, websocket)

    add_info_routes(app, manager, _json)
    return app
