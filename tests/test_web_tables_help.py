"""Hints and undo at the browser's tables of three and four (issue #14): given to a person
alone with computers, as in the two-seat game against the computer; refused with another person
at the table.  An undo takes back the person's last move and the computers' replies exactly, and
deals the cards the person has not seen afresh; every hint, acknowledgement and view goes
through the privacy scan of ``test_web_tables`` (no other seat's concealed card, a partner's
included, and the same view in every world the seat cannot tell apart)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from test_web import Seat
from test_web_tables import TableScan, catch_up, create, fix_secrets, post, table_client
from ws_helpers import open_seat

from bezique.schema import WebCreate, WebMessage, WebSeat
from bezique.web.live import LiveGame, Refusal
from bezique.web.manager import Manager
from bezique.web.store import Store
from bezique.web.workers import AgentPool


def _my_turn(me: Seat, live: LiveGame) -> None:
    """Read until the computers have moved: my turn, or the deal over."""
    catch_up([me], live.row.version)
    while not (me.view["deal"]["your_turn"] or me.view["deal"]["phase"] == "over"):
        me.recv()


def test_hints_and_undo_for_a_person_alone_with_three_computers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four-handed with a computer partner against two computers: the hint is an action of
    mine in words, undo takes back my move and the three replies, my view is exactly the one I
    had before the move, and the unseen cards are dealt afresh (the stock in another order)."""
    fix_secrets(monkeypatch, 3)  # a deal long enough for the undos counted below
    scan = TableScan(every=2)
    rng = random.Random(3)
    with table_client(tmp_path / "g.db", scan) as client:
        g = create(client, variant="bezique4", name="Ann", level=1,
                   seats=[{"kind": "computer", "level": 1}] * 3)
        gid = g["id"]
        live = client.app.state.manager.games[gid]  # type: ignore[attr-defined]
        with open_seat(client, gid, g["token"]) as w0:
            me = Seat(w0, "Ann")
            me.first()
            assert me.view["game"]["partner"] == 2 and me.view["deal"]["your_turn"]
            # nothing of mine to take back yet: refused, and can_undo said so
            assert me.view["game"]["can_undo"] is False
            no = me.request({"type": "undo"})
            assert no["type"] == "error" and "nothing to undo" in no["message"]
            hint = me.request({"type": "hint"})
            assert hint["type"] == "hint" and hint["action"] in me.view["deal"]["legal"]
            assert hint["text"].startswith("play ")
            undone = changed = stocked = 0
            for step in range(400):
                _my_turn(me, live)
                d = me.view["deal"]
                if d["phase"] == "over":
                    break
                st = live.game.state
                before_obs, before_version = st.observation(0), live.row.version
                before_next = list(st.stock[st.stock_pos:]) if st.stock_left else None
                choice = rng.choice(d["legal"])
                assert me.act(choice)["type"] == "ack"
                _my_turn(me, live)
                if step % 4 == 1 and len(d["legal"]) > 1 and me.view["deal"]["phase"] != "over":
                    # my move and the computers' replies are taken back (a draw with nothing
                    # else on offer would be taken back with the choice before it)
                    assert me.view["game"]["can_undo"] is True
                    ack = me.request({"type": "undo"})
                    assert ack["type"] == "ack", ack
                    catch_up([me], ack["version"])
                    st = live.game.state
                    assert st.observation(0) == before_obs
                    assert me.view["deal"]["your_turn"] and me.view["game"]["version"] > \
                        before_version
                    assert sorted(c["card"] for c in me.view["deal"]["hand"]) == sorted(
                        c["card"] for c in d["hand"])
                    # the cards I have not seen were dealt afresh: the stock is in another
                    # order (the same only if no other deal replays: then the deal stays)
                    if before_next is not None:
                        changed += list(st.stock[st.stock_pos:]) != before_next
                        stocked += 1
                    undone += 1
            assert me.view["deal"]["phase"] == "over" and undone >= 8 and stocked >= 4
            assert changed >= stocked - 1
            # a finished deal: my moves of it can still be taken back before the next deal
            if me.view["game"]["winner"] is None:
                assert me.view["game"]["can_undo"] is True
    assert scan.checked > 100 and scan.hints == 1 and not scan.problems, scan.problems[:5]


def test_hints_and_undo_are_refused_with_another_person_at_the_table(tmp_path: Path) -> None:
    scan = TableScan()
    with table_client(tmp_path / "g.db", scan) as client:
        g = create(client, variant="bezique3", name="Ann",
                   seats=[{"kind": "friend"}, {"kind": "computer", "level": 1}])
        gid = g["id"]
        live = client.app.state.manager.games[gid]  # type: ignore[attr-defined]
        j = post(client, scan, f"/api/games/{gid}/join", None,
                 {"invite": g["invites"][0]["invite"], "name": "Bob"})
        act = f"/api/games/{gid}/act"
        turn = live.game.state.current_player()
        token = g["token"] if turn == 0 else j["token"]
        before = (live.row.version, live.game.state.key())
        for kind, words in (("hint", "hints are for a table of you and the computer"),
                            ("undo", "undo is for a table of you and the computer")):
            r = client.post(act, json={"token": token, "type": kind})
            assert r.status_code == 409 and r.json()["error"] == words, r.text
        assert (live.row.version, live.game.state.key()) == before
        view = post(client, scan, f"/api/games/{gid}/state", turn, {"token": token})
        post(client, scan, act, turn, {"token": token, "type": "action",
                                       "action": view["deal"]["legal"][0]})
        # having moved changes nothing: never an undo with a friend at the table
        view = post(client, scan, f"/api/games/{gid}/state", turn, {"token": token})
        assert view["game"]["can_undo"] is False
        r = client.post(act, json={"token": token, "type": "undo"})
        assert r.status_code == 409 and "table of you and the computer" in r.json()["error"]
        # a friend who left (the computer plays their seat) is still a person at the table
        assert post(client, scan, act, 1, {"token": j["token"], "type": "leave"})["type"] == "ack"
        assert live.row.seats[1]["away"]
        r = client.post(act, json={"token": g["token"], "type": "hint"})
        assert r.status_code == 409 and "table of you and the computer" in r.json()["error"]
        view = post(client, scan, f"/api/games/{gid}/state", 0, {"token": g["token"]})
        assert view["game"]["can_undo"] is False
    assert not scan.problems, scan.problems[:5]


def test_bad_and_concurrent_requests_at_a_table_are_refused_cleanly(tmp_path: Path) -> None:
    """Two hints at once (the second is busy), a move made while a hint is thought out (the
    hint is stale: refused), an undo of a stale view, a hint out of turn: each refused in
    words, the game unchanged by every refusal."""

    async def run() -> None:
        manager = Manager(Store(tmp_path / "g.db"), pool=AgentPool(0))
        try:
            live, _, _ = manager.create(WebCreate(
                variant="bezique3", level=1, seed=5,
                seats=[WebSeat(kind="computer", level=1), WebSeat(kind="computer", level=1)]))
            st = live.game.state
            assert st.current_player() == 0

            def msg(**kw: Any) -> WebMessage:
                return WebMessage(**kw)

            key = (live.row.version, st.key())
            one, two = await asyncio.gather(manager.handle(live, 0, msg(type="hint")),
                                            manager.handle(live, 0, msg(type="hint")),
                                            return_exceptions=True)
            got = sorted([one, two], key=lambda r: isinstance(r, Refusal))
            assert isinstance(got[0], dict) and got[0]["type"] == "hint", got
            assert isinstance(got[1], Refusal) and "busy" in got[1].message
            assert (live.row.version, live.game.state.key()) == key
            # a move while the hint is thought out: the move is made, the stale hint refused
            legal = st.legal_action_strings()
            hint, ack = await asyncio.gather(
                manager.handle(live, 0, msg(type="hint")),
                manager.handle(live, 0, msg(type="action", action=legal[0])),
                return_exceptions=True)
            assert isinstance(ack, dict) and ack["type"] == "ack", ack
            assert isinstance(hint, Refusal) and "moved on" in hint.message, hint
            # the hint of the seat not to play is refused (the computers are to reply)
            try:
                await manager.handle(live, 0, msg(type="hint"))
                raise AssertionError("a hint out of turn was given")
            except Refusal as e:
                assert e.message == "it is not your turn"
            while live.task is not None and not live.task.done():
                await asyncio.sleep(0.01)  # the computers reply
            assert live.game.state.current_player() == 0
            # an undo of a view the game has left, a hint of a stale view: refused, unchanged
            key = (live.row.version, live.game.state.key())
            for kind in ("undo", "hint"):
                try:
                    await manager.handle(live, 0, msg(type=kind, version=key[0] - 1))
                    raise AssertionError(f"a stale {kind} was accepted")
                except Refusal as e:
                    assert "moved on" in e.message
            assert (live.row.version, live.game.state.key()) == key
            ok = await manager.handle(live, 0, msg(type="undo", version=key[0]))
            assert ok["type"] == "ack" and live.game.state.current_player() == 0
            assert live.game.state.history() == []
        finally:
            manager.close()

    asyncio.run(run())


def test_a_practice_table_replays_the_computers_same_moves(tmp_path: Path) -> None:
    """A chosen deal number at a table (a practice game) deals the same cards and gives the
    computers the same random numbers, as in the game of two: the same moves of mine meet the
    same replies."""
    histories = []
    for n in range(2):
        scan = TableScan(every=5)
        with table_client(tmp_path / f"g{n}.db", scan) as client:
            g = create(client, variant="bezique3", name="Ann", level=1, seed=11,
                       seats=[{"kind": "computer", "level": 1}] * 2)
            live = client.app.state.manager.games[g["id"]]  # type: ignore[attr-defined]
            with open_seat(client, g["id"], g["token"]) as w0:
                me = Seat(w0, "Ann")
                me.first()
                for _ in range(12):
                    _my_turn(me, live)
                    if me.view["deal"]["phase"] == "over":
                        break
                    assert me.act(me.view["deal"]["legal"][-1])["type"] == "ack"
                _my_turn(me, live)
                histories.append(list(live.game.state.history()))
        assert not scan.problems, scan.problems[:5]
    others = [a for seat, a in histories[0] if seat != 0]
    assert len(others) >= 12 and histories[0] == histories[1]
