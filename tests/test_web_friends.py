"""Friends playing together over the internet, each in their own page: a seat taken back from
the computer while the others had all left, a table's absent player given to the computer even
when the server restarted in between (or when they never opened a page after taking their
seat), and one copy of a game in memory however pages open while games leave memory; in a
real Chromium (the browser fixture of conftest.py: skipped without one, unless
BEZIQUE_REQUIRE_BROWSER), a double click acts once, without a stale refusal shown."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient
from test_web import Seat
from ws_helpers import open_seat

from bezique.web.app import create_app
from bezique.web.manager import Manager
from bezique.web.store import Store
from bezique.web.workers import AgentPool

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]


def _client(db: Path, **kw: Any) -> tuple[TestClient, Manager]:
    manager = Manager(Store(db), pool=AgentPool(0), **kw)
    app = create_app(manager=manager, games_per_minute=0, pages_per_minute=0)
    return TestClient(app), manager


def _until(cond: Callable[[], bool], timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def test_taking_the_seat_back_wakes_the_computers_that_waited(tmp_path: Path) -> None:
    """Alone at a table with computers, "Leave the table" while a computer was about to move:
    the computers wait (nobody is watching).  "Take my seat back" gave the seat back but left
    the computer's move pending for ever (until the page was reloaded)."""
    client, manager = _client(tmp_path / "g.db", computer_delay=0.3)
    with client:
        g = client.post("/api/games", json={"variant": "bezique3", "name": "Ann",
                                            "level": 1}).json()
        live = manager.games[g["id"]]
        with open_seat(client, g["id"], g["token"]) as w:
            ann = Seat(w)
            ann.first()
            assert ann.act(ann.view["deal"]["legal"][0])["type"] == "ack"
            # leave before the computer's move (it waits computer_delay before thinking)
            assert ann.request({"type": "leave"})["type"] == "ack"
            _until(lambda: live.task is not None and live.task.done())
            assert live.game.state.current_player() == 1 and live.row.seats[0]["away"]
            assert ann.request({"type": "back"})["type"] == "ack"
            # the computers play on, up to Ann's turn
            _until(lambda: live.game.state.current_player() == 0)
            assert not live.row.seats[0]["away"]


def _friends_table(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    g = client.post("/api/games", json={
        "variant": "bezique3", "name": "Ann", "level": 1,
        "seats": [{"kind": "friend"}, {"kind": "computer", "level": 1}]}).json()
    j = client.post(f"/api/games/{g['id']}/join",
                    json={"invite": g["invites"][0]["invite"], "name": "Bob"}).json()
    return g, j


def test_a_player_gone_before_a_restart_is_still_given_to_the_computer(tmp_path: Path) -> None:
    """Bob closes his page, and the server restarts before his grace ends: his timer was lost
    with the old server, so Ann waited for him for ever ("whose pages stay closed for 45 s has
    the computer play their seat so the others go on")."""
    db = tmp_path / "g.db"
    client, manager = _client(db, away_seconds=0.5)
    with client:
        g, j = _friends_table(client)
        gid = g["id"]
        with open_seat(client, gid, j["token"]) as w:
            Seat(w).first()
        # Bob's page closed: the timer runs, and the server stops before it ends
    assert not Store(db).load(gid).seats[1]["away"]  # type: ignore[union-attr]
    client, manager = _client(db, away_seconds=0.5)
    with client:
        with open_seat(client, gid, g["token"]) as w:
            ann = Seat(w)
            ann.first()
            assert not ann.view["game"]["seats"][1]["away"]
            live = manager.games[gid]
            _until(lambda: bool(live.row.seats[1]["away"]), 10.0)  # the computer plays Bob's
            while not ann.view["game"]["seats"][1]["away"]:  # and Ann is told
                ann.recv()
            # and the game goes on: Ann leads, Bob's seat and the computer's answer
            assert ann.act(ann.view["deal"]["legal"][0])["type"] == "ack"
            _until(lambda: live.game.state.current_player() == 0)
            assert any(p == 1 for p, _ in live.game.state.history())
        # his link gives his seat back, after the restart too
        with open_seat(client, gid, j["token"]) as w:
            Seat(w).first()
            assert not manager.games[gid].row.seats[1]["away"]


def test_a_friend_who_sits_but_never_opens_the_table_is_played_by_the_computer(
        tmp_path: Path) -> None:
    client, manager = _client(tmp_path / "g.db", away_seconds=0.3)
    with client:
        g, _ = _friends_table(client)
        live = manager.games[g["id"]]
        _until(lambda: bool(live.row.seats[1]["away"]))
        with open_seat(client, g["id"], g["token"]) as w:
            ann = Seat(w)
            ann.first()
            assert ann.view["game"]["seats"][1]["away"] and ann.view["deal"]["your_turn"]


def _on_accept(app: Any, hook: Callable[[], None]) -> Callable[..., Awaitable[None]]:
    """The app, calling ``hook`` just as a WebSocket is accepted (as another request could be
    answered at that moment)."""

    async def wrapped(scope: Scope, receive: Any, send: Any) -> None:
        async def sending(message: Message) -> None:
            if message["type"] == "websocket.accept":
                hook()
            await send(message)

        await app(scope, receive, sending)

    return wrapped


def test_a_page_opened_while_its_game_leaves_memory_plays_the_one_copy(tmp_path: Path) -> None:
    """With many games held, a game with no page open may leave memory at any moment.  If it
    left while a page of it was opening, the page was attached to a copy nobody else had:
    the friend's moves never reached it, and its own could not be stored."""
    manager = Manager(Store(tmp_path / "g.db"), pool=AgentPool(0), max_games=1)
    app = create_app(manager=manager, games_per_minute=0, pages_per_minute=0)
    other: dict[str, str] = {}
    wrapped = _on_accept(app, lambda: manager.get(other["id"]) if other else None)
    with TestClient(wrapped) as client:  # type: ignore[arg-type]
        g = client.post("/api/games", json={"opponent": "friend", "name": "Ann"}).json()
        j = client.post(f"/api/games/{g['id']}/join",
                        json={"invite": g["invite"], "name": "Bob"}).json()
        other["id"] = client.post("/api/games", json={"opponent": "computer",
                                                      "level": 1}).json()["id"]
        with open_seat(client, g["id"], g["token"]) as w0:
            ann = Seat(w0)
            ann.first()
            other.clear()
            with open_seat(client, g["id"], j["token"]) as w1:
                bob = Seat(w1)
                bob.first()
                # both pages are on the one copy held (else Ann would never hear of Bob)
                live = manager.games[g["id"]]
                assert list(map(len, live.conns.values())) == [1, 1]
                ann.first()  # told Bob came
                assert ann.view["game"]["online"] == [True, True]
                assert ann.act(ann.view["deal"]["legal"][0])["type"] == "ack"
                while bob.view["game"]["version"] < ann.view["game"]["version"]:
                    bob.recv()
                assert bob.view["deal"]["your_turn"]
                assert bob.act(bob.view["deal"]["legal"][0])["type"] == "ack"
                while ann.view["game"]["version"] < bob.view["game"]["version"]:
                    ann.recv()


# ---------------------------------------------------------------------- in a real browser


def test_a_double_click_on_undo_takes_back_one_move(served: tuple[str, FastAPI],
                                                    browser: Any) -> None:
    """Undo (and "Next deal") went without the view's version: a double click on Undo took
    back two moves.  And a second click on a card, refused because the game had moved on,
    left "the game has moved on since that view" on the screen though nothing was wrong."""
    site, app = served
    g = httpx.post(f"{site}/api/games", json={"opponent": "computer", "level": 1,
                                              "seed": 3}).json()
    live = app.state.manager.games[g["id"]]

    def mine() -> int:
        return sum(1 for p, _ in live.game.state.history() if p == 0)

    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{site}/#/game/{g['id']}/{g['token']}")
        for _ in range(3):  # three moves of mine (a second click on each card, as a double)
            page.wait_for_selector("#hand button.card.playable")
            version = page.evaluate("document.body.dataset.version")
            page.evaluate("() => { const b = document.querySelector('#hand button.card."
                          "playable'); b.click(); b.click(); }")
            page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
            _until(lambda: live.task is None or live.task.done())
            _until(lambda: live.game.state.current_player() == 0
                   or live.game.state.is_terminal())
        page.wait_for_selector("#undo:not([disabled])")
        page.wait_for_function("v => document.body.dataset.version === v",
                               arg=str(live.row.version))
        time.sleep(0.3)  # the second click's refusal has come back
        assert "moved on" not in page.inner_text("#msg")
        before, version = mine(), live.row.version
        page.evaluate("() => { const b = document.querySelector('#undo'); b.click(); "
                      "b.click(); }")
        page.wait_for_function("v => document.body.dataset.version !== v", arg=str(version))
        time.sleep(0.5)
        assert live.row.version == version + 1, "two undos for one double click"
        assert mine() < before
        assert "moved on" not in page.inner_text("#msg")
        assert not errors, errors
    finally:
        context.close()
