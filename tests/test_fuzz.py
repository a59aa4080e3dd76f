"""Bounded fuzzing (hardening issue): the record parser, the action-text parser, the engine
protocol and the web API get random and mutated input from hypothesis, a few seconds each in the
normal run and many more examples under ``pytest -m slow``.

What must hold: every refusal is the project's own exception (or, on the web, a JSON error with
a 4xx status), with a one-line message; nothing else escapes; a refused action changes nothing.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ws_helpers import open_seat

from bezique import Rules, State
from bezique.engine import COMMANDS, Engine
from bezique.errors import IllegalActionError, RecordError
from bezique.game import Game
from bezique.record import parse_record, replay
from bezique.web.app import create_app

FAST, SLOW = 200, 1500

scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(
    allow_nan=False) | st.text(max_size=12) | st.sampled_from(
    ["AS", "QS*", "play QS", "pass", "meld KH QH", "7H", "bezique", "binocle", "rubicon", "0",
     "1", "seat", "dealer"])
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["variant", "options", "deals", "dealer", "hands", "turnup", "stock",
                         "actions", "target", "seven", "x"]) | st.text(max_size=6), inner,
        max_size=4), max_leaves=12)

RECORD = Game(Rules.preset("bezique"), seed=3).to_record()
_s = State.new_deal(Rules.preset("bezique"), seed=3)
for _ in range(10):
    _s.apply_action(_s.legal_actions()[0])
RECORD["deals"][0]["actions"] = [text for _, text in _s.history_strings()]


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:3]):
            out += _paths(v, (*prefix, i))
    return out


PATHS = _paths(RECORD)[1:]


def one_line(e: BaseException) -> None:
    text = str(e)
    assert text and "\n" not in text and len(text) < 400, text


def both(target: Callable[..., None], **strategies: st.SearchStrategy[Any]
         ) -> tuple[Callable[..., None], Callable[..., None]]:
    """The same fuzz target, bounded for the normal run and longer under ``-m slow``."""
    out = []
    for n in (FAST, SLOW):
        @functools.wraps(target)
        def run(**kw: Any) -> None:
            target(**kw)

        run = settings(max_examples=n, deadline=None,
                       suppress_health_check=[HealthCheck.too_slow])(given(**strategies)(run))
        out.append(run)
    return out[0], pytest.mark.slow(out[1])


# ---------------------------------------------------------------- the record parser


def _record_any(data: Any) -> None:
    try:
        parse_record(data)
    except RecordError as e:
        one_line(e)


def _record_mutated(path: tuple[Any, ...], value: Any) -> None:
    rec = copy.deepcopy(RECORD)
    node = rec
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    try:
        parsed = parse_record(rec)
    except RecordError as e:
        one_line(e)
        return
    out = replay(parsed, legal=True)  # a record that parses replays without an exception
    json.dumps(out)


test_fuzz_record_any, test_fuzz_record_any_long = both(_record_any, data=json_values)
test_fuzz_record_mutated, test_fuzz_record_mutated_long = both(
    _record_mutated, path=st.sampled_from(PATHS), value=json_values)


# ---------------------------------------------------------------- the action-text parser

words = st.sampled_from(["play", "meld", "pass", "exchange", "seven", "draw", "PLAY", "carte"])
tokens = st.text(alphabet="AKQJT987SHDC*0123456789²₂١ ", max_size=8) | st.sampled_from(
    ["QS", "QS*", "QS*2", "JD", "7H", "KH", "AS*1"])


def _action_text(seed: int, steps: int, text: str) -> None:
    s = State.new_deal(Rules.preset("bezique"), seed=seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply_action(s.legal_actions()[seed % len(s.legal_actions())])
    key = s.key()
    try:
        s.apply(text)
    except IllegalActionError as e:
        one_line(e)
        assert s.key() == key
    else:
        s.undo_action()
        assert s.key() == key


test_fuzz_action_text, test_fuzz_action_text_long = both(
    _action_text, seed=st.integers(0, 50), steps=st.integers(0, 40),
    text=st.one_of(st.text(max_size=30), st.builds(lambda w, ts: " ".join([w, *ts]), words,
                                                   st.lists(tokens, max_size=4))))


# ---------------------------------------------------------------- the engine protocol

HAND = ["9D", "QD", "AH", "KS", "7S", "8C", "TD", "AS"]
requests = st.one_of(
    st.text(max_size=40),
    json_values.map(json.dumps),
    st.builds(lambda cmd, extra: json.dumps({"cmd": cmd, **extra}),
              st.sampled_from(COMMANDS),
              st.dictionaries(st.sampled_from(["seat", "dealer", "hand", "turnup", "totals",
                                               "seed", "agent", "actions", "draws", "action",
                                               "player", "draw", "points", "budget_ms",
                                               "variant", "options"]), json_values,
                              max_size=4)),
)


def _engine(lines: list[str]) -> None:
    e = Engine()
    start = {"cmd": "new", "seat": 0, "dealer": 1, "turnup": "JD", "hand": HAND,
             "agent": "random"}
    assert e.handle(json.dumps(start))["ok"]
    for line in lines:
        answer = e.handle(line)
        assert isinstance(answer, dict) and isinstance(answer["ok"], bool)
        if not answer["ok"]:
            assert "internal error" not in answer["error"], (line, answer)
            one_line(ValueError(answer["error"]))
        json.dumps(answer)
        if e.finished:
            break


test_fuzz_engine, test_fuzz_engine_long = both(
    _engine, lines=st.lists(requests, min_size=1, max_size=5))


# ---------------------------------------------------------------- the web API


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = Path(tmp_path_factory.mktemp("fuzz")) / "g.db"
    with TestClient(create_app(db, workers=0, games_per_minute=0, pages_per_minute=0)) as client:
        g = client.post("/api/games", json={"opponent": "computer", "level": 1}).json()
        yield client, g


bodies = st.one_of(json_values.map(json.dumps), st.text(max_size=60),
                   st.binary(max_size=60).map(lambda b: b.decode("latin-1")))


def _web(site: Any, body: str, route: str) -> None:
    client, g = site
    url = {"create": "/api/games", "act": f"/api/games/{g['id']}/act", "mine": "/api/mine",
           "join": f"/api/games/{g['id']}/join", "state": f"/api/games/{g['id']}/state"}[route]
    r = client.post(url, content=body.encode("utf-8", "surrogatepass"))
    assert r.status_code < 500, (route, body, r.text)
    if r.status_code >= 400:
        one_line(ValueError(r.json()["error"]))


@given(body=bodies, route=st.sampled_from(["create", "act", "mine", "join", "state"]))
@settings(max_examples=FAST, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_fuzz_web_api(site: Any, body: str, route: str) -> None:
    _web(site, body, route)


@given(messages=st.lists(st.one_of(
    bodies,
    st.builds(lambda t, extra: json.dumps({"type": t, **extra}),
              st.sampled_from(["action", "undo", "next", "hint", "x"]),
              st.dictionaries(st.sampled_from(["action", "version", "ref", "token"]),
                              json_values, max_size=3))), min_size=1, max_size=6))
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_fuzz_web_socket(site: Any, messages: list[str]) -> None:
    client, g = site
    with open_seat(client, g["id"], g["token"]) as ws:
        assert ws.receive_json()["type"] == "state"
        for text in messages:
            ws.send_text(text)
            while True:  # the reply (states may come first); an error never closes the socket
                m = ws.receive_json()
                if m["type"] != "state":
                    break
            assert m["type"] in ("ack", "error", "hint"), m
            if m["type"] == "error":
                assert not m.get("fatal"), m
                one_line(ValueError(m["message"]))
