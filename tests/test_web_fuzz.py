"""A generative fuzz of the browser server's API (``bezique serve``): every POST and GET of a
game and the WebSocket, fed bodies and frames drawn by hypothesis (a valid request with one
field changed, dropped or added, random JSON, bytes that are no JSON, wrong tokens, unknown
games), in games of two (against the computer and a friend; Bezique, Rubicon, Six-pack) and
at tables of three and four.

What a client relies on, checked after every request: the server never answers 500 (only a
stored game it cannot read is a server error, said in words); each refusal is a JSON object
whose "error" is a sentence a person can read (no traceback, no Python or pydantic text); a
refused request changes nothing stored (the record, the version, the seats) and the right
seat's legal move still goes through; a socket answers every bad frame with an error and
stays open (or, for a wrong link, says why and closes) and is forgotten once closed; every
message can be sent as UTF-8 JSON; a game stored loads again as the same game; and no seat is
ever sent another seat's concealed cards (the privacy scans of ``test_web`` and
``test_web_tables`` see every message).

The computers play at random here (their level is not under test) and the examples are
derandomized, so the run is the same on every machine."""

from __future__ import annotations

import faulthandler
import json
import os
import random
import re
import secrets
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect
from test_web import PrivacyScan
from test_web_tables import TableScan
from ws_helpers import open_seat

import bezique.web.computer as computer_module
import bezique.web.manager as manager_module
import bezique.web.seats as seats_module
from bezique.cards import RANKS, SUITS
from bezique.record import parse_record, replay
from bezique.rules import OPTION_NAMES
from bezique.web.app import MAX_MESSAGE, create_app
from bezique.web.live import LiveGame
from bezique.web.manager import Manager
from bezique.web.seats import is_away
from bezique.web.store import Store
from bezique.web.tableview import view_for
from bezique.web.workers import AgentPool

# BEZIQUE_FUZZ_SCALE=20 runs twenty times the examples, new ones each run (a hunt by hand)
SCALE = float(os.environ.get("BEZIQUE_FUZZ_SCALE", "1"))
FUZZ = settings(max_examples=int(200 * SCALE), deadline=None, derandomize=SCALE == 1,
                database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# ---------------------------------------------------------------------- the server under test


class Hooks:
    """Every message the server sends, checked at the moment it is sent: it encodes as UTF-8
    JSON (what a real socket needs; the test client would pass anything) and the privacy scan
    of its kind of game finds nothing."""

    def __init__(self) -> None:
        self.pair = PrivacyScan()
        self.table = TableScan(every=6)
        self.problems: list[str] = []

    def __call__(self, live: LiveGame, seat: int, msg: dict[str, Any]) -> None:
        try:
            json.dumps(msg, ensure_ascii=False, allow_nan=False).encode("utf-8")
        except (ValueError, UnicodeEncodeError) as e:
            self.problems.append(f"{msg.get('type')} to seat {seat} cannot be sent: {e}")
        if live.row.seats:  # (its scan builds the message again, options and all)
            self.table(live, seat, msg)
            return
        options = msg.get("game", {}).get("options")
        if options:  # rule options by name (public): not fields the scan knows
            if set(options) - set(OPTION_NAMES):
                self.problems.append(f"unknown options sent: {sorted(options)}")
            msg = {**msg, "game": {**msg["game"], "options": {}}}
        self.pair(live, seat, msg)

    def all_problems(self) -> list[str]:
        return self.problems + self.pair.problems + self.table.problems

    def take_problems(self) -> list[str]:
        out = self.all_problems()
        for scan in (self, self.pair, self.table):
            scan.problems.clear()
        return out


@dataclass
class Server:
    client: TestClient
    manager: Manager
    hooks: Hooks


# The server's secrets (each game's shuffle, its computer's seed, the deal of the unseen cards
# after an undo) drawn from here, seeded by the game's settings as it is created: an example
# plays the same game each time hypothesis runs it.
DEALS = random.Random(0)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    mp = pytest.MonkeyPatch()
    # the computer and its hints play at random: quick, and the server is what is under test
    mp.setattr(computer_module, "HINT_SPEC", "random")
    mp.setattr(manager_module, "level_spec", lambda level: "random")
    mp.setattr(seats_module, "level_spec", lambda level: "random")
    mp.setattr(secrets, "randbits", DEALS.getrandbits)
    manager = Manager(Store(tmp_path_factory.mktemp("fuzz") / "g.db"), pool=AgentPool(0))
    hooks = Hooks()
    manager.send_hooks.append(hooks)
    app = create_app(manager=manager, games_per_minute=0, pages_per_minute=0)
    try:
        with TestClient(app) as client:
            yield Server(client, manager, hooks)
    finally:
        mp.undo()
    assert not hooks.all_problems(), hooks.all_problems()[:5]


@pytest.fixture(autouse=True)
def _no_problems(server: Server) -> Iterator[None]:
    # a server that never answers would leave the test client waiting for ever: a hang ends
    # the run with every thread's stack instead
    faulthandler.dump_traceback_later(120 * SCALE, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
    problems = server.hooks.take_problems()
    assert not problems, problems[:5]


# ---------------------------------------------------------------------- what is drawn

NASTY_TEXT = st.sampled_from([
    "", " ", "\x00", "\ud800", "a\udfffb", "\u202eevil", "😀" * 40, "Ünïcödé ♠♥", "null",
    "<script>alert(1)</script>", "' OR 1=1 --", "../../etc/passwd", "%00", "\n\r\t",
    "NaN", "{}", "[]", "9" * 40,
]) | st.sampled_from([("x", 300), ("y", 5000), ("é", 3000)]).map(lambda c: c[0] * c[1])
SCALARS = (st.none() | st.booleans() | st.integers(-(2 ** 70), 2 ** 70)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12) | NASTY_TEXT)
JSON_VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8) | NASTY_TEXT, inner, max_size=4), max_leaves=8)
# raw bodies and frames that are no JSON object (or too big, or nested too deep)
RAW = st.sampled_from([
    b"", b"{", b"}", b"[]", b"null", b"true", b"0", b'"text"', b"\xff\xfe\x00", b"{'a': 1}",
    b'{"type": "action", "action": "play AS",}', b"NaN", b"-Infinity", b'{"x": "\\ud800"}',
    b'{"token": "\\udfff"}', b'{"token": ["x"]}', b'{"token": null}', b'\xef\xbb\xbf{}',
    b'{"a": 1, "a": 2}', b"\x00" * 10,
]) | st.binary(max_size=40) | st.sampled_from([
    # long ones, each made when drawn (their repr stays short)
    (b"1", 4200), (b"9", 4096), (b"[", 3000), (b'{"a":', 700), (b" ", MAX_MESSAGE + 1),
]).map(lambda c: c[0] * c[1])

CARD_TOKENS = st.builds(
    lambda r, s, suffix: r + s + suffix, st.sampled_from([*RANKS, "10", "X", "", "a"]),
    st.sampled_from([*SUITS, "x", "", "♠"]),
    st.sampled_from(["", "*", "*1", "*2", "*0", "*-1", "*99999999999999999999", "+", "+*",
                     "++", "*+"]))
ACTION_TEXTS = st.builds(
    lambda verb, toks, sep: sep.join([verb, *toks]),
    st.sampled_from(["play", "meld", "pass", "exchange", "seven", "offer", "carte", "guess",
                     "cut", "PLAY", " play", "declare", ""]),
    st.lists(CARD_TOKENS | st.integers(-5, 10 ** 22).map(str), max_size=6),
    st.sampled_from([" ", "  ", "\t"])) | st.text(max_size=20) | NASTY_TEXT


def weird(valid: Any = None) -> st.SearchStrategy[Any]:
    """A value in the place of a valid one: of another type, out of range, huge, odd text."""
    out = JSON_VALUES | NASTY_TEXT | st.sampled_from([-1, 0, 2 ** 63, 10 ** 30, 1.5, True, [],
                                                     {}, {"nested": {"deep": [1]}}])
    if isinstance(valid, str):
        out |= st.just(valid + "x") | st.just(valid[:-1]) | st.just(valid.upper())
    if isinstance(valid, int) and not isinstance(valid, bool):
        out |= st.integers(valid - 3, valid + 3) | st.just(float(valid)) | st.just(str(valid))
    return out


def _paths(obj: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*at, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*at, i))
    return out


def mutate(data: st.DataObject, valid: dict[str, Any]) -> Any:
    """``valid`` with one place changed (another value), dropped or given an extra key; or a
    random JSON value in its stead."""
    body = json.loads(json.dumps(valid))
    how = data.draw(st.sampled_from(["change", "change", "drop", "extra", "random"]), "how")
    if how == "random":
        return data.draw(JSON_VALUES, "random body")
    path = data.draw(st.sampled_from(_paths(body)), "where")
    if not path:
        if how == "change":
            return data.draw(weird(), "body")
        how = "extra"
    *up, last = path or (None,)
    parent = body
    for k in up:
        parent = parent[k]
    if how == "change":
        parent[last] = data.draw(weird(parent[last]), "value")
    elif how == "drop":
        del parent[last]
    else:
        target = parent if not path else parent[last]
        if isinstance(target, dict):
            target[data.draw(st.text(max_size=10) | NASTY_TEXT, "extra key")] = data.draw(
                JSON_VALUES, "extra value")
        else:
            parent[last] = [target, target] if data.draw(st.booleans()) else {"v": target}
    return body


def encode(body: Any) -> bytes:
    return json.dumps(body).encode()  # NaN and Infinity as Python writes them, surrogates escaped


# ---------------------------------------------------------------------- what is checked

NOT_FOR_PEOPLE = ("Traceback", "traceback", 'File "', "object at 0x", "pydantic",
                  "input_value", "validation error", "errors.pydantic.dev", "Internal Server",
                  "Exception", "NoneType")


def readable(message: Any) -> str:
    """An error message a person can read: one short line of words, no program text."""
    assert isinstance(message, str), message
    assert 0 < len(message) <= 400 and "\n" not in message, message
    assert re.match(r"['\"A-Za-z]", message), message  # a sentence, or a quoted input
    assert len(re.findall(r"[A-Za-z]{2,}", message)) >= 3, message
    shown = message.replace("\\", "")
    assert not any(w in shown for w in NOT_FOR_PEOPLE), message
    return message


def answered(r: Any) -> Any:
    """A response that is never a 500; a refusal is ``{"error": sentence}``."""
    assert r.status_code < 500 or r.status_code == 503, (r.status_code, r.text[:300])
    if r.status_code >= 400:
        body = r.json()
        assert isinstance(body, dict) and set(body) == {"error"}, body
        readable(body["error"])
        if r.status_code == 503:
            assert r.headers.get("retry-after"), r.headers
    return r.json() if r.headers.get("content-type", "").startswith("application/json") else None


def still(live: LiveGame, timeout: float = 30.0) -> None:
    """No computer move and no request under way: the stored game stays as it is."""
    end = time.monotonic() + timeout
    while not ((live.task is None or live.task.done()) and not live.lock.locked()):
        assert time.monotonic() < end, "the computer never finished moving"
        time.sleep(0.002)


def snapshot(server: Server, gid: str) -> tuple[Any, ...]:
    """All that is stored of a game, and the game in memory."""
    live = server.manager.get(gid)
    still(live)
    row = server.manager.store.load(gid)
    assert row is not None
    return (row.version, row.record, row.token_hashes, row.names, row.seats, row.invite_hash,
            live.row.version, live.game.state.key(), len(live.game.deals))


def nothing_lost(server: Server, gid: str) -> None:
    """The stored game is the game in memory, and loads again as the same position."""
    live = server.manager.get(gid)
    still(live)
    row = server.manager.store.load(gid)
    assert row is not None and row.version == live.row.version
    assert row.record == live.record()
    # (the same cards by name: two copies of a card may change places, which nobody sees)
    again = Manager(server.manager.store, pool=AgentPool(0)).get(gid)
    assert again.record() == live.record()
    online = [False] * len(live.row.token_hashes)
    for seat in range(len(online)):
        assert view_for(again, seat, online) == view_for(live, seat, online)


# ---------------------------------------------------------------------- games to fuzz


@dataclass
class Game:
    id: str
    tokens: dict[int, str]  # the seats held by people, with their tokens
    invites: dict[int, str]  # the friend seats not yet taken


def create(server: Server, body: dict[str, Any], join: bool = True) -> Game:
    DEALS.seed(json.dumps(body, sort_keys=True))
    r = server.client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    out = r.json()
    invites = {i["seat"]: i["invite"] for i in out.get("invites", [])}
    if "invite" in out:
        invites[1] = out["invite"]
    g = Game(out["id"], {0: out["token"]}, invites)
    if join:
        for seat, invite in sorted(invites.items()):
            j = server.client.post(f"/api/games/{g.id}/join", json={"invite": invite})
            assert j.status_code == 200 and j.json()["seat"] == seat, j.text
            g.tokens[seat] = j.json()["token"]
        g.invites = {}
    still(server.manager.get(g.id))
    return g


GAMES = {
    "friend": {"opponent": "friend", "name": "Ann"},
    "computer": {"opponent": "computer", "level": 1, "target": 300},
    "rubicon-friend": {"opponent": "friend", "variant": "rubicon"},
    "sixpack-computer": {"opponent": "computer", "variant": "sixpack", "level": 1,
                         "options": {"cut_bonus": True}},
    "table3": {"variant": "bezique3", "level": 1,
               "seats": [{"kind": "friend"}, {"kind": "computer", "level": 1}]},
    "table4": {"variant": "bezique4", "level": 1, "partnership": True,
               "seats": [{"kind": "computer", "level": 1}, {"kind": "friend"},
                         {"kind": "computer", "level": 2}]},
}


def to_act(server: Server, g: Game) -> tuple[int, list[str]] | None:
    """The person to act and their legal moves (a finished deal: the next one is started);
    None when the game is over or the computer plays that seat."""
    live = server.manager.get(g.id)
    still(live)
    state = live.game.state
    if state.is_terminal():
        if live.game.is_over():
            return None
        r = server.client.post(f"/api/games/{g.id}/act",
                               json={"token": g.tokens[0], "type": "next"})
        assert r.status_code == 200, r.text
        still(live)
        state = live.game.state
    seat = state.current_player()
    if seat not in g.tokens or is_away(live.row, seat):
        return None
    return seat, list(state.legal_action_strings())


def legal_move_works(server: Server, g: Game, pick: int = 0) -> None:
    """The seat to act plays a legal move by REST; it is stored and acknowledged."""
    turn = to_act(server, g)
    if turn is None:
        return
    seat, legal = turn
    action = legal[pick % len(legal)]
    before = server.manager.get(g.id).row.version
    r = server.client.post(f"/api/games/{g.id}/act",
                           json={"token": g.tokens[seat], "type": "action", "action": action,
                                 "version": before})
    assert r.status_code == 200 and r.json() == {"type": "ack", "version": before + 1}, r.text
    row = server.manager.store.load(g.id)
    assert row is not None and row.version >= before + 1
    nothing_lost(server, g.id)


# ---------------------------------------------------------------------- 1. HTTP


GAME_KINDS = st.sampled_from(sorted(GAMES))


def _post_refused_changes_nothing(server: Server, g: Game, path: str, raw: bytes) -> Any:
    before = snapshot(server, g.id)
    r = server.client.post(path, content=raw)
    body = answered(r)
    if r.status_code >= 400:
        assert snapshot(server, g.id) == before, (path, raw[:200])
    return r, body


@FUZZ
@given(kind=GAME_KINDS, data=st.data())
def test_act_bodies(server: Server, kind: str, data: st.DataObject) -> None:
    """POST /act: the seat's legal move with one field changed, another text for the action,
    bytes, or another seat's token."""
    g = create(server, GAMES[kind])
    turn = to_act(server, g)
    assert turn is not None
    seat, legal = turn
    version = server.manager.get(g.id).row.version
    valid = {"token": g.tokens[seat], "type": "action",
             "action": legal[data.draw(st.integers(0, 99), "action") % len(legal)],
             "version": version,
             "ref": 1}
    which = data.draw(st.sampled_from(["mutated", "action text", "raw", "other seat"]), "which")
    if which == "mutated":
        raw = encode(mutate(data, valid))
    elif which == "action text":
        raw = encode({**valid, "action": data.draw(ACTION_TEXTS, "text")})
    elif which == "raw":
        raw = data.draw(RAW, "raw")
    else:
        others = [t for s, t in g.tokens.items() if s != seat] or ["nope"]
        raw = encode({**valid, "token": data.draw(st.sampled_from(others), "token")})
    r, body = _post_refused_changes_nothing(server, g, f"/api/games/{g.id}/act", raw)
    if r.status_code == 200:  # still a legal move of the seat to act: applied and stored
        assert body == {"type": "ack", "version": version + 1}, body
        nothing_lost(server, g.id)
    elif which == "other seat":
        assert r.status_code in (403, 409), body
    legal_move_works(server, g, data.draw(st.integers(0, 50), "pick"))


@FUZZ
@given(kind=GAME_KINDS, path=st.sampled_from(["state", "join", "explain", "mine", "stats",
                                              "games"]),
       data=st.data())
def test_other_post_bodies(server: Server, kind: str, path: str, data: st.DataObject) -> None:
    """The other POSTs (a new game, joining, a view, a hint's reason, the browser's games and
    statistics): a good body with one field changed, or bytes."""
    g = create(server, GAMES[kind], join=path != "join")
    token = g.tokens[0]
    count = server.manager.store.count()
    if path == "join":
        valid: dict[str, Any] = {"invite": next(iter(g.invites.values()), "none"),
                                 "name": "Bob"}
    elif path in ("state", "explain"):
        valid = {"token": token, "action": "pass"}
    elif path in ("mine", "stats"):
        valid = {"games": {g.id: token, "unknown": "x"}}
    else:
        valid = dict(GAMES[data.draw(GAME_KINDS, "settings of")])
    raw = encode(mutate(data, valid)) if data.draw(st.booleans(), "mutated") else data.draw(RAW)
    url = f"/api/{path}" if path in ("mine", "stats", "games") else f"/api/games/{g.id}/{path}"
    before = snapshot(server, g.id)
    r = server.client.post(url, content=raw)
    body = answered(r)
    if r.status_code >= 400 or path != "join":
        assert snapshot(server, g.id) == before, raw[:200]
    if path == "games":
        # a new game only when the settings were good; a refused one stores nothing
        assert server.manager.store.count() == count + (r.status_code == 201), r.text
        if r.status_code == 201:
            assert server.client.post(f"/api/games/{body['id']}/state",
                                      json={"token": body["token"]}).status_code == 200
    if path == "state" and r.status_code == 200:
        assert body["game"]["you"] == 0 and body["game"]["id"] == g.id
    if path == "mine" and r.status_code == 200:
        # only the games whose token holds a seat: a changed token lists nothing
        assert all(x["id"] == g.id and x["seat"] == 0 for x in body["games"]), body
    if path == "join" and r.status_code == 200:
        g.tokens[body["seat"]] = body["token"]
        g.invites.pop(body["seat"], None)
    # every friend seat still taken by its own link, then the game goes on
    for seat, invite in sorted(g.invites.items()):
        j = server.client.post(f"/api/games/{g.id}/join", json={"invite": invite})
        assert j.status_code == 200, j.text
        g.tokens[seat] = j.json()["token"]
    legal_move_works(server, g)


GAME_IDS = st.sampled_from(["", "x", "nosuchgame", "%00", "..%2F..%2Fetc", "a" * 70,
                            "%ED%A0%80", "%F0%9F%98%80", "game%20id"]) | st.text(
    st.characters(min_codepoint=33, max_codepoint=0x2FFF, exclude_characters="/?#%"),
    max_size=12)


def sendable(text: str) -> bool:
    """Whether ``text`` can travel in a JSON message (UTF-8 has no lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@FUZZ
@given(kind=GAME_KINDS, what=st.sampled_from(["record", "replay", "state", "act", "ws"]),
       data=st.data())
def test_unknown_games_and_wrong_tokens(server: Server, kind: str, what: str,
                                        data: st.DataObject) -> None:
    """POST /record, /replay, /state and /act, and the socket, for a game that is
    there or not with a token that holds a seat in it or not."""
    g = create(server, GAMES[kind])
    other = create(server, GAMES["friend"])
    gid = data.draw(st.sampled_from([g.id, other.id]) | GAME_IDS, "game id")
    token = data.draw(st.sampled_from([g.tokens[0], other.tokens[0], g.tokens[0][:-1],
                                       g.tokens[0].upper(), "", "x" * 300, "\ud800",
                                       "%00"]) | st.text(max_size=30), "token")
    quoted = urllib.parse.quote(gid, safe="%")
    holds = (gid, token) in {(g.id, t) for t in g.tokens.values()} | {
        (other.id, t) for t in other.tokens.values()}
    before = [snapshot(server, x.id) for x in (g, other)]
    routed = bool(gid) and "/" not in urllib.parse.unquote(gid)
    if what == "ws" and not routed:  # no such address: closed before the handshake
        with pytest.raises(WebSocketDisconnect):
            open_seat(server.client, quoted, token).__enter__()
    elif what == "ws":
        with open_seat(server.client, quoted, token) as ws:
            m = ws.receive_json()
            if holds:
                assert m["type"] == "state"
            else:  # the protocol closes a stranger's socket, saying why
                assert m["type"] == "error" and m["fatal"] is True, m
                readable(m["message"])
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                # (a hello whose token is over the schema's 256 characters, or is no text
                # JSON can carry, a lone surrogate, is no hello at all)
                assert closed.value.code in ((4400,) if len(token) > 256 or not sendable(token)
                                             else (4403, 4404))
    elif what in ("record", "replay"):
        r = server.client.post(f"/api/games/{quoted}/{what}", content=encode({"token": token}))
        body = answered(r)
        if not holds:
            assert r.status_code in (400, 403, 404), body
        elif what == "replay":
            assert r.status_code == 200 and body["deals"] == [], body
        else:  # mid-deal the record would show the hands: refused
            assert r.status_code == 409, body
    else:
        r = server.client.post(f"/api/games/{quoted}/{what}",
                               content=encode({"token": token, "type": "hint"}))
        body = answered(r)
        if not holds:
            assert r.status_code in (400, 403, 404), body
    assert [snapshot(server, x.id) for x in (g, other)] == before
    legal_move_works(server, g)


# ---------------------------------------------------------------------- 2. the WebSocket


class Socket:
    """One page of a seat: sends frames, reads the reply to each (states met on the way are
    passed over)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        first = ws.receive_json()
        assert first["type"] == "state", first

    def reply(self) -> dict[str, Any]:
        while True:
            m: dict[str, Any] = self.ws.receive_json()
            if m["type"] != "state":
                return m


def _ref_of(frame: str | bytes) -> Any:
    """The ``ref`` the server should echo: a number or a short text of a JSON object."""
    if isinstance(frame, bytes) or len(frame.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        return None
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError):
        return None
    ref = data.get("ref") if isinstance(data, dict) else None
    if isinstance(ref, bool) or not isinstance(ref, int | str) or len(str(ref)) > 64:
        return None
    try:
        json.dumps(ref, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return None  # a text that no socket can carry back
    return ref


MESSAGE_TYPES = st.sampled_from(["action", "undo", "hint", "next", "leave", "back", "ACTION",
                                 "", "play", "state", "ack"])
MESSAGES = st.fixed_dictionaries(
    {"type": MESSAGE_TYPES},
    optional={"action": ACTION_TEXTS | weird(), "version": weird(0) | st.integers(0, 12),
              "ref": st.integers(-5, 10 ** 20) | st.text(max_size=70) | NASTY_TEXT | weird(),
              "token": weird("t"), "extra": JSON_VALUES})
FRAMES = (MESSAGES.map(json.dumps) | JSON_VALUES.map(json.dumps)
          | RAW.map(lambda b: b.decode("utf-8", "replace"))
          | RAW.map(lambda b: ("bytes", b)) | st.text(max_size=30)
          | st.integers(MAX_MESSAGE - 40, MAX_MESSAGE + 40).map(
              lambda n: json.dumps({"type": "action", "action": "play " + "A" * n})))


@settings(FUZZ, max_examples=int(100 * SCALE))
@given(kind=GAME_KINDS, data=st.data())
def test_socket_frames_between_legal_moves(server: Server, kind: str,
                                           data: st.DataObject) -> None:
    """Random frames from the seats' pages, between legal moves: each gets one answer."""
    g = create(server, GAMES[kind])
    opened = [open_seat(server.client, g.id, tok) for tok in g.tokens.values()]
    sockets = dict(zip(g.tokens, (Socket(w.__enter__()) for w in opened), strict=True))
    try:
        for _ in range(data.draw(st.integers(3, 14), "steps")):
            if data.draw(st.integers(0, 3), "move?") == 0:
                turn = to_act(server, g)
                if turn is None:
                    continue
                seat, legal = turn
                action = legal[data.draw(st.integers(0, 99), "legal") % len(legal)]
                version = server.manager.get(g.id).row.version
                sockets[seat].ws.send_text(json.dumps({"type": "action", "action": action,
                                                       "version": version, "ref": "m"}))
                m = sockets[seat].reply()
                assert m == {"type": "ack", "version": version + 1, "ref": "m"}, m
                continue
            seat = data.draw(st.sampled_from(sorted(sockets)), "seat")
            frame = data.draw(FRAMES, "frame")
            live = server.manager.get(g.id)
            away = is_away(live.row, seat)
            before = snapshot(server, g.id)
            if isinstance(frame, tuple):
                sockets[seat].ws.send_bytes(frame[1])
                frame = frame[1]
            else:
                sockets[seat].ws.send_text(frame)
            m = sockets[seat].reply()
            # one answer to each frame, the socket open, the request's ref echoed
            assert m["type"] in ("error", "ack", "hint"), m
            ref = _ref_of(frame)
            assert m.get("ref") == ref or ref is None, (frame[:200], m)
            if m["type"] == "error":
                readable(m["message"])
                assert "fatal" not in m, m
                if not away:  # (a seat the computer held is given back, then told so)
                    assert snapshot(server, g.id) == before, (frame[:200], m)
        # the game goes on: a legal move through the socket of the seat to act
        still(server.manager.get(g.id))
        for seat, s in sockets.items():
            if is_away(server.manager.get(g.id).row, seat):
                s.ws.send_text(json.dumps({"type": "back"}))
                assert s.reply()["type"] == "ack"
        turn = to_act(server, g)
        if turn is not None:
            seat, legal = turn
            sockets[seat].ws.send_text(json.dumps({"type": "action", "action": legal[0]}))
            assert sockets[seat].reply()["type"] == "ack"
        nothing_lost(server, g.id)
    finally:
        for w in opened:
            w.__exit__(None, None, None)
    # every closed page is forgotten: the game holds no socket of them
    live = server.manager.get(g.id)
    end = time.monotonic() + 10
    while any(live.conns.values()):
        assert time.monotonic() < end, live.conns
        time.sleep(0.002)


def test_a_page_over_the_cap_is_told_why_it_closes(server: Server) -> None:
    """The one close the protocol makes of a good page: a newer page of the same seat."""
    g = create(server, GAMES["friend"])
    with open_seat(server.client, g.id, g.tokens[0]) as oldest:
        assert oldest.receive_json()["type"] == "state"
        pages = [open_seat(server.client, g.id, g.tokens[0])
                 for _ in range(server.manager.sockets_per_seat)]
        try:
            for p in pages:
                assert p.__enter__().receive_json()["type"] == "state"
            m = oldest.receive_json()
            while m["type"] == "state":
                m = oldest.receive_json()
            assert m["fatal"] is True and "another page" in readable(m["message"])
            with pytest.raises(WebSocketDisconnect) as closed:
                oldest.receive_json()
            assert closed.value.code == 4409
        finally:
            for p in pages:
                p.__exit__(None, None, None)
    legal_move_works(server, g)


# ---------------------------------------------------------------------- defects pinned


def test_a_token_that_is_no_utf8_is_a_wrong_token_not_a_500(server: Server) -> None:
    """``{"token": "\\ud800"}`` (a lone surrogate, written as JSON escapes) made /act,
    /explain and /api/stats answer 500: the token was hashed as UTF-8 before any check (and
    /api/stats looked such a game id up in the database)."""
    g = create(server, GAMES["computer"])
    before = snapshot(server, g.id)
    bad = b'{"token": "\\ud800", "type": "hint", "action": "pass"}'
    for url in (f"/api/games/{g.id}/act", f"/api/games/{g.id}/explain"):
        r = server.client.post(url, content=bad)
        assert r.status_code == 403 and "does not hold a seat" in r.json()["error"], r.text
    r = server.client.post("/api/stats", content=b'{"games": {"%s": "\\ud800"}}'
                           % g.id.encode())
    assert r.status_code == 200 and r.json()["recent"] == []
    # a game id that is no UTF-8 either (it reached SQLite)
    r = server.client.post("/api/stats", content=b'{"games": {"\\ud800": "x"}}')
    assert r.status_code == 200 and r.json()["recent"] == []
    assert snapshot(server, g.id) == before
    legal_move_works(server, g)


def test_a_ref_no_socket_can_carry_is_not_echoed(server: Server) -> None:
    """A message's ``ref`` of a lone surrogate was echoed in the reply, which a real socket
    cannot send as UTF-8: the connection dropped with an error in the server's log."""
    g = create(server, GAMES["computer"])
    with open_seat(server.client, g.id, g.tokens[0]) as ws:
        s = Socket(ws)
        ws.send_text('{"type": "next", "ref": "\\ud800"}')
        m = s.reply()
        assert m["type"] == "error" and "'ref'" in m["message"] and "ref" not in m, m
        ws.send_text('{"type": "next", "ref": "ok ♠"}')
        assert s.reply()["ref"] == "ok ♠"
    assert not server.hooks.all_problems()
    legal_move_works(server, g)


def test_a_table_seat_that_left_comes_back_by_any_message(server: Server,
                                                          tmp_path: Path) -> None:
    """At a table, "leave" gives the seat to the computer; the next message gives it back
    (refused, with the reason, if it was not "back"), and nothing of the deal is lost."""
    g = create(server, GAMES["table3"])
    with open_seat(server.client, g.id, g.tokens[0]) as w0, \
            open_seat(server.client, g.id, g.tokens[1]) as w1:
        a, _ = Socket(w0), Socket(w1)
        w0.send_text(json.dumps({"type": "leave", "ref": 1}))
        assert a.reply()["type"] == "ack"
        still(server.manager.get(g.id))
        w0.send_text(json.dumps({"type": "action", "action": "dance", "ref": 2}))
        m = a.reply()
        assert m["type"] == "error" and "welcome back" in readable(m["message"])
        assert not is_away(server.manager.get(g.id).row, 0)
        nothing_lost(server, g.id)
    legal_move_works(server, g)


def _play_to_the_end(server: Server, g: Game, pick: int = 3) -> None:
    """The people play the deal to its end by REST (the computer answering)."""
    live = server.manager.get(g.id)
    for i in range(2000):
        still(live)
        if live.game.state.is_terminal():
            return
        turn = to_act(server, g)
        assert turn is not None
        seat, legal = turn
        r = server.client.post(f"/api/games/{g.id}/act", json={
            "token": g.tokens[seat], "type": "action", "action": legal[(i * pick) % len(legal)]})
        assert r.status_code == 200, r.text
    raise AssertionError("the deal never ended")


@pytest.mark.parametrize("kind", ["rubicon-friend", "sixpack-computer"])
def test_a_one_deal_game_loads_again_and_its_record_replays(server: Server, kind: str) -> None:
    """A Rubicon or Six-pack game was stored with the seven of clubs as its turn-up (they have
    none) and, with the cut bonus, without its cut: once it left memory (idle ten minutes, or a
    restart) every request for it answered 500, "your games" failed for every game with it, and
    its finished deal had neither record nor replay."""
    g = create(server, GAMES[kind])
    legal_move_works(server, g)
    nothing_lost(server, g.id)  # (a fresh server on the same database)
    _play_to_the_end(server, g)
    nothing_lost(server, g.id)
    url = f"/api/games/{g.id}"
    rec = server.client.post(f"{url}/record", json={"token": g.tokens[0]})
    assert rec.status_code == 200, rec.text
    deal = rec.json()["deals"][0]
    assert deal["turnup"] is None
    assert ("cut" in deal) == (kind == "sixpack-computer")
    final = parse_record(rec.json())
    engine = parse_record(server.manager.get(g.id).game.to_record())
    assert replay(final) == replay(engine)  # the engine's own record of the game, replayed
    rep = server.client.post(f"{url}/replay", json={"token": g.tokens[0]})
    assert rep.status_code == 200 and len(rep.json()["deals"]) == 1, rep.text
    mine = server.client.post("/api/mine", json={"games": {g.id: g.tokens[0]}})
    assert [x["id"] for x in mine.json()["games"]] == [g.id]


def test_a_game_stored_with_the_old_turn_up_loads(server: Server) -> None:
    """The rows written before the fix (turn-up "7C" in Rubicon) load as they are."""
    g = create(server, GAMES["rubicon-friend"])
    legal_move_works(server, g)
    store = server.manager.store
    row = store.load(g.id)
    assert row is not None
    for d in row.record["deals"]:
        d["turnup"] = "7C"
    with store._lock:
        store._conn.execute("UPDATE games SET record = ? WHERE id = ?",
                            (json.dumps(row.record), g.id))
    again = Manager(store, pool=AgentPool(0)).get(g.id)
    assert again.record() == server.manager.get(g.id).record()


def test_a_damaged_row_is_an_error_and_the_rest_go_on(server: Server) -> None:
    """A stored record that cannot be read is said to be so (not a traceback); the list of
    games leaves it out instead of failing for all of them; every other game goes on."""
    bad, good = create(server, GAMES["friend"]), create(server, GAMES["computer"])
    store = server.manager.store
    with store._lock:
        store._conn.execute("UPDATE games SET record = ? WHERE id = ?",
                            ('{"variant": "bezique", "deals": []}', bad.id))
    server.manager.games.pop(bad.id)  # (it left memory)
    r = server.client.post(f"/api/games/{bad.id}/state", json={"token": bad.tokens[0]})
    assert r.status_code == 500 and "cannot be read" in readable(r.json()["error"])
    with open_seat(server.client, bad.id, bad.tokens[0]) as ws:
        m = ws.receive_json()
        assert m["fatal"] is True and "cannot be read" in m["message"]
    mine = server.client.post("/api/mine", json={"games": {bad.id: bad.tokens[0],
                                                           good.id: good.tokens[0]}})
    assert mine.status_code == 200 and [x["id"] for x in mine.json()["games"]] == [good.id]
    legal_move_works(server, good)


BAD_FRAMES: list[str | bytes] = [
    "", "not json", "[1, 2]", "null", '{"type": "shuffle"}', '{"type": "action"}',
    '{"type": "action", "action": 7}', '{"type": "action", "action": "play ZZ"}',
    '{"type": "action", "action": "dance"}', '{"type": "action", "action": "meld AS AS AS"}',
    '{"type": "action", "action": "guess 999999"}', '{"type": "action", "action": "play AS*9"}',
    '{"type": "action", "action": "pass", "version": 999999}', '{"type": "undo", "version": -1}',
    '{"type": "next", "ref": "\\ud800"}', '{"type": "back"}', '{"type": "hint", "ref": [1]}',
    '{"type": "action", "action": "play AS AS", "extra": {"a": [1, {"b": null}]}}',
    "[" * 3000, b'{"type": "next"}', b"\xff\xfe", "x" * (MAX_MESSAGE + 1),
]


@pytest.mark.parametrize("kind", ["computer", "rubicon-friend", "sixpack-computer", "table3",
                                  "table4"])
def test_whole_games_over_the_socket_with_bad_frames_between_moves(server: Server,
                                                                   kind: str) -> None:
    """Every move of a whole game comes after a bad frame from some seat: each is answered
    with an error, nothing changes, and the game goes on through the ends of its deals to its
    winner; its record then replays to the same result."""
    rng = random.Random(kind)
    g = create(server, {**GAMES[kind], "target": 300} if "variant" not in GAMES[kind]
               or GAMES[kind]["variant"].startswith("bezique") else GAMES[kind])
    live = server.manager.get(g.id)
    opened = [open_seat(server.client, g.id, tok) for tok in g.tokens.values()]
    sockets = dict(zip(g.tokens, (Socket(w.__enter__()) for w in opened), strict=True))
    try:
        for _ in range(3000):
            still(live)
            if live.game.is_over():
                break
            seat = rng.choice(sorted(sockets))
            frame = rng.choice(BAD_FRAMES)
            before = snapshot(server, g.id)
            if isinstance(frame, bytes):
                sockets[seat].ws.send_bytes(frame)
            else:
                sockets[seat].ws.send_text(frame)
            m = sockets[seat].reply()
            assert m["type"] == "error", (frame[:80], m)
            readable(m["message"])
            assert snapshot(server, g.id) == before, frame[:80]
            if live.game.state.is_terminal():
                sockets[0].ws.send_text('{"type": "next"}')
                assert sockets[0].reply()["type"] == "ack"
                continue
            turn = to_act(server, g)
            assert turn is not None
            seat, legal = turn
            sockets[seat].ws.send_text(json.dumps({"type": "action",
                                                   "action": rng.choice(legal)}))
            assert sockets[seat].reply()["type"] == "ack"
        assert live.game.is_over(), "the game never ended"
        # the game is over: every request that would change it is refused, with the reason
        for text, why in [('{"type": "next"}', "the game is over"),
                          ('{"type": "action", "action": "pass"}', "the deal is over")]:
            sockets[0].ws.send_text(text)
            m = sockets[0].reply()
            assert m["type"] == "error" and readable(m["message"]) == why, m
    finally:
        for w in opened:
            w.__exit__(None, None, None)
    nothing_lost(server, g.id)
    rec = server.client.post(f"/api/games/{g.id}/record", json={"token": g.tokens[0]})
    assert rec.status_code == 200
    assert len(rec.json()["deals"]) == len(live.game.deals) + 1
    assert replay(parse_record(rec.json())) == replay(parse_record(live.game.to_record()))
    rep = server.client.post(f"/api/games/{g.id}/replay", json={"token": g.tokens[0]})
    assert rep.status_code == 200 and len(rep.json()["deals"]) == len(rec.json()["deals"])


@pytest.mark.parametrize("declared", [False, True])
async def test_a_huge_body_is_refused_before_it_is_read(tmp_path: Path, declared: bool) -> None:
    """A body was read whole into memory before its size was checked: a gigabyte sent to
    /api/games was held by the server to be refused.  Now the server reads no further than the
    limit (and nothing at all when the request says its length)."""
    app = create_app(tmp_path / "b.db", workers=0)
    chunks = 0

    async def receive() -> dict[str, Any]:
        nonlocal chunks
        chunks += 1  # a gigabyte, 64 KB at a time
        return {"type": "http.request", "body": b" " * 65536, "more_body": chunks < 16384}

    out: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        out.append(message)

    headers = [(b"content-length", str(1 << 30).encode())] if declared else []
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/api/games", "raw_path": b"/api/games",
             "query_string": b"", "root_path": "", "headers": headers,
             "client": ("10.0.0.1", 5000), "server": ("test", 80)}
    await app(scope, receive, send)
    assert out[0]["status"] == 413
    assert "too large" in readable(json.loads(out[1]["body"])["error"])
    assert chunks == (0 if declared else 1)
