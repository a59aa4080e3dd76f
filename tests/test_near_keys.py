"""A mistake in a record or a request is named where it is.  A misspelt key is refused, not
ignored: records (the replay command), the engine protocol and the browser's messages take
other keys as they come (a record may carry the players' names, an event, a date), but a key
that is nearly one of theirs, with that one not given, is a mistake that would change the game
quietly ('option' read as no house rules, 'action' as a deal never played), so it gets one line
that names the key meant.  A bad action of an engine ``position`` is named by its number."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from bezique import Rules
from bezique.cli import main
from bezique.engine import Engine
from bezique.game import Game
from bezique.record import parse_record, replay
from bezique.web.app import create_app


def a_record() -> dict[str, Any]:
    game = Game(Rules.preset("bezique", target=500), seed=5)
    state = game.state
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    record: dict[str, Any] = game.to_record()
    return record


@pytest.mark.parametrize(("edit", "message"), [
    (lambda r: r.__setitem__("option", r.pop("options")),
     "'option' is not a key of a record: did you mean 'options'?"),
    (lambda r: r.__setitem__("varient", r.pop("variant")),
     "'varient' is not a key of a record: did you mean 'variant'?"),
    (lambda r: r["deals"][0].__setitem__("action", r["deals"][0].pop("actions")),
     "deal 1: 'action' is not a key of a deal: did you mean 'actions'?"),
    (lambda r: r["deals"][0].__setitem__("turn_up", r["deals"][0].pop("turnup")),
     "deal 1: 'turn_up' is not a key of a deal: did you mean 'turnup'?"),
])
def test_a_misspelt_key_of_a_record_is_refused_in_one_line(tmp_path: Path, edit: Any,
                                                           message: str) -> None:
    record = a_record()
    edit(record)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 2
    assert result.output == f"bezique: error: {message}\n"


def test_other_keys_of_a_record_are_still_read_past() -> None:
    record = a_record()
    plain = replay(parse_record(record))
    record.update(players=["Ann", "Bob"], event="club night", date="1887-05-01")
    record["deals"][0]["note"] = "a fine deal"
    assert replay(parse_record(record)) == plain


def test_a_key_given_twice_over_is_no_misspelling() -> None:
    """'hand' beside 'hands' is another key (say, a tool's note), not a slip for 'hands'."""
    record = a_record()
    record["deals"][0]["hand"] = "not read"
    assert replay(parse_record(record))["deals"][0]["steps"]


HAND = ["9D", "QD", "AH", "KS", "7S", "8C", "TD", "AS"]


def test_the_engine_names_the_key_meant_and_keeps_its_position() -> None:
    e = Engine()
    new = {"cmd": "new", "seat": 0, "dealer": 1, "turnup": "JD", "agent": "heuristic"}
    assert e.handle(json.dumps({**new, "hands": HAND})) == {
        "ok": False, "error": "'hands' is not a key of this request: did you mean 'hand'?"}
    assert e.handle(json.dumps({**new, "hand": HAND})) == {"ok": True, "to_act": 0}
    before = e.handle('{"cmd": "status"}')
    for request, error in [
        ({"cmd": "go", "budget": 300},
         "'budget' is not a key of this request: did you mean 'budget_ms'?"),
        ({"cmd": "action", "acton": "play 7S"},
         "'acton' is not a key of an action: did you mean 'action'?"),
        ({**new, "hand": HAND, "cmd": "position",
          "actions": [{"action": "play 7S", "player": 0, "pont": 0}]},
         "action 1: 'pont' is not a key of an action: did you mean 'points'?"),
    ]:
        assert e.handle(json.dumps(request)) == {"ok": False, "error": error}
        assert e.handle('{"cmd": "status"}') == before
    assert e.handle(json.dumps({"cmd": "go", "budget_ms": 300, "id": 7}))["ok"]  # others pass


def test_the_site_names_the_key_meant(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "g.db")) as client:
        g = client.post("/api/games", json={"opponent": "friend"}).json()
        r = client.post(f"/api/games/{g['id']}/act",
                        json={"token": g["token"], "typ": "undo"})
        assert r.status_code == 400
        assert r.json() == {"error": "'typ' is not a key of this request: did you mean "
                                     "'type'?"}


@pytest.mark.parametrize(("action", "error"), [
    (5, "action 2: an action must be a text such as \"play QS\", a [player, text] pair or an "
        "object with 'action' (not 5)"),
    ([9, "play 7C"], "action 2: the player of a [player, text] pair must be a seat number, 0 "
                     "to 3 (not 9)"),
    ([1, 5], "action 2: the text of a [player, text] pair must be an action text such as "
             "\"play QS\" (not 5)"),
    ([1, "play 7C", 3], "action 2: an action must be a text such as \"play QS\", a [player, "
                        "text] pair or an object with 'action' (not [1, 'play 7C', 3])"),
    ({"action": "play 7C", "player": 7}, "action 2: 'player' must be a seat number, 0 to 3 "
                                         "(not 7)"),
    ({"player": 1}, "action 2: 'action' must be an action text such as \"play QS\" (it is "
                    "missing)"),
])
def test_a_bad_action_of_a_position_is_named_by_its_place(action: Any, error: str) -> None:
    """Among forty actions, the one that is wrong is numbered, and the part of it that is."""
    e = Engine()
    request = {"cmd": "position", "seat": 0, "hand": HAND, "turnup": "JD",
               "actions": ["play 7S", action]}
    assert e.handle(json.dumps(request)) == {"ok": False, "error": error}
