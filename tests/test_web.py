"""The web site in-process: games against the computer and between two seats, every refusal of
issue #6 point 5, privacy of every message sent to a seat, and games surviving a restart."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from ws_helpers import open_seat

from bezique.actions import CARTE, EXCHANGE, SEVEN
from bezique.cards import RANKS, SUITS, card_name, parse_card
from bezique.cli import main
from bezique.game import Game
from bezique.record import parse_record, replay
from bezique.web.app import MAX_MESSAGE, create_app
from bezique.web.live import LiveGame
from bezique.web.store import default_db_path
from bezique.web.svg import back_svg, card_svg

# Every key a message to a seat may carry.  A key outside this list (say "hands" or
# "stock_order") fails the privacy scan.
ALLOWED_KEYS = {
    # envelope
    "type", "game", "deal", "ref", "version", "message", "fatal", "action", "text",
    # game
    "id", "opponent", "level", "variant", "target", "options", "you", "names", "online",
    "totals", "winner", "win_reason", "waiting_for_friend", "can_undo", "finished_deals",
    "deal_scores", "kept", "next_game", "by",
    # deal
    "trump", "dealer", "turn", "phase", "your_turn", "stock", "turnup", "end_phase", "hand",
    "opponent_hidden", "opponent_known", "table", "melds", "trick", "last_trick",
    "tricks_played", "scores", "brisques", "melds_available", "specials", "legal", "log", "drew",
    "hint_action", "guesses", "settlement", "settlement_legend", "one_deal", "brisques_label",
    "carte_points", "cut_guessed", "cut_24",
    # nested
    "card", "name", "cards", "points", "intact", "seat", "leader", "lead", "follow",
}


def _keys(obj: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.add(k)
            out |= _keys(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= _keys(v)
    return out


def _names(cards: list[int]) -> list[str]:
    return sorted(card_name(c) for c in cards)


class PrivacyScan:
    """Checks each message at the moment the server sends it against the real state."""

    def __init__(self) -> None:
        self.checked = 0
        self.problems: list[str] = []
        self.seen: dict[tuple[str, int, int], Counter[str]] = {}

    def __call__(self, live: LiveGame, seat: int, msg: dict[str, Any]) -> None:
        try:
            self.check(live, seat, msg)
        except AssertionError as e:  # recorded, asserted by the test (the server must go on)
            self.problems.append(f"{msg.get('type')} to seat {seat}: {e}")

    def check(self, live: LiveGame, seat: int, msg: dict[str, Any]) -> None:
        extra = _keys(msg) - ALLOWED_KEYS
        assert not extra, f"unexpected fields {extra}"
        if msg["type"] == "hint":
            assert msg["action"] in live.game.state.legal_action_strings()
        if msg["type"] != "state":
            return
        self.checked += 1
        st = live.game.state
        other = 1 - seat
        d = msg["deal"]
        assert msg["game"]["you"] == seat
        # "your hand" is exactly the seat's concealed hand
        assert sorted(c["card"] for c in d["hand"]) == _names(st.hand(seat))
        # every other place a card lies in the message is a public place, exactly as it is
        for s in (0, 1):
            assert sorted(c["card"] for c in d["table"][s]) == _names(st.shown(s))
        assert [t["card"] for t in d["trick"]] == [card_name(c) for c in st.trick_cards()]
        assert d["turnup"] == (card_name(st.turnup) if st.turnup is not None else None)
        assert isinstance(d["stock"], int) and d["stock"] == st.stock_left
        assert d["opponent_hidden"] == len(st.hand(other))
        # cards said to be known in the other hand are in it, and were on show to this seat:
        # on the other seat's table (the most copies ever seen there), or by a public event that
        # shows a card: the first turn-up, a seven put under the stock by an exchange, a seven
        # declared by the other seat
        key = (live.row.id, seat, msg["game"]["deal"])
        tables = self.seen.setdefault(key, Counter())
        tables |= Counter(x["card"] for x in d["table"][other])
        seven = ("9" if msg["game"]["variant"] == "binocle" else "7") + (d["trump"] or "?")
        events = Counter([card_name(st.turnup_card)] if st.turnup_card >= 0 else [])
        for p, a in st.history():
            if a == EXCHANGE or (a == SEVEN and p == other):
                events[seven] += 1
            if a == CARTE and p == other:  # carte blanche shows the hand (RULES.md 9.0.4)
                events |= Counter(_names(st.hand(other)))
        known = Counter(d["opponent_known"])
        assert not known - Counter(_names(st.hand(other))), "known cards not in the other hand"
        assert not known - (tables + events), f"{known - (tables + events)} were never on show"
        # legal actions name only this seat's own cards
        mine = Counter(_names(st.hand(seat))) + Counter(_names(st.shown(seat)))
        for a in d["legal"]:
            for tok in a.split()[1:] if not a.startswith("guess ") else ():
                assert card_name(parse_card(tok.split("*")[0])) in mine
        # the log never says what the other seat drew
        for e in d["log"]:
            if e["seat"] == other and "drew" in e["text"]:
                assert not any(ch in e["text"] for ch in "♠♥♦♣"), e["text"]


class Seat:
    """One WebSocket client of a seat: keeps the latest state, waits for replies."""

    def __init__(self, ws: Any, label: str = "") -> None:
        self.ws = ws
        self.view: dict[str, Any] = {}
        self.ref = 0
        self.label = label

    def recv(self) -> dict[str, Any]:
        m: dict[str, Any] = self.ws.receive_json()
        if m["type"] == "state" and (
            not self.view or m["game"]["version"] >= self.view["game"]["version"]
        ):
            self.view = m
        return m

    def first(self) -> dict[str, Any]:
        m = self.recv()
        assert m["type"] == "state", m
        return m

    def send(self, obj: dict[str, Any]) -> int:
        self.ref += 1
        self.ws.send_text(json.dumps({**obj, "ref": self.ref}))
        return self.ref

    def request(self, obj: dict[str, Any]) -> dict[str, Any]:
        """Send and read until the reply to it (states met on the way are kept)."""
        ref = self.send(obj)
        while True:
            m = self.recv()
            if m["type"] != "state" and m.get("ref") == ref:
                return m

    def settle(self) -> None:
        """Read until the computer has moved: this seat's turn, or the deal over."""
        while not (self.view["deal"]["your_turn"] or self.view["deal"]["phase"] == "over"):
            self.recv()

    def act(self, action: str) -> dict[str, Any]:
        return self.request({"type": "action", "action": action,
                             "version": self.view["game"]["version"]})


@pytest.fixture
def scan() -> PrivacyScan:
    return PrivacyScan()


def make_client(db: Path, scan: PrivacyScan | None = None) -> TestClient:
    app = create_app(db)
    if scan is not None:
        app.state.manager.send_hooks.append(scan)
    return TestClient(app)


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


# ---------------------------------------------------------------------- against the computer


def test_whole_game_against_the_computer_with_hint_and_undo(tmp_path: Path,
                                                           scan: PrivacyScan) -> None:
    rng = random.Random(11)
    with make_client(tmp_path / "g.db", scan) as client:
        g = new_game(client, opponent="computer", level=1, target=300, seed=5)
        live = client.app.state.manager.games[g["id"]]  # type: ignore[attr-defined]
        with open_seat(client, g["id"], g["token"]) as ws:
            me = Seat(ws)
            me.first()
            me.settle()
            tried_undo = tried_hint = False
            deals = 1
            while me.view["game"]["winner"] is None:
                d = me.view["deal"]
                if d["phase"] == "over":
                    assert me.request({"type": "next"})["type"] == "ack"
                    deals += 1
                    me.settle()
                    continue
                if not tried_hint:
                    hint = me.request({"type": "hint"})
                    assert hint["type"] == "hint" and hint["action"] in d["legal"]
                    tried_hint = True
                if not tried_undo and d["tricks_played"] >= 3 and d["phase"] == "lead":
                    # undo takes back my action and the computer's replies: the same position
                    before = (me.view["deal"]["hand"], me.view["deal"]["scores"], d["legal"])
                    assert me.act(d["legal"][0])["type"] == "ack"
                    me.settle()
                    assert me.view["game"]["can_undo"]
                    assert me.request({"type": "undo"})["type"] == "ack"
                    while me.view["deal"]["legal"] != before[2] or not me.view["deal"]["your_turn"]:
                        me.recv()
                    assert (me.view["deal"]["hand"], me.view["deal"]["scores"]) == before[:2]
                    tried_undo = True
                    continue
                reply = me.act(rng.choice(d["legal"]))
                assert reply["type"] == "ack", reply
                me.settle()
            assert tried_undo and tried_hint
            final = me.view
        assert max(final["game"]["totals"]) >= 300
        # the stored record replays to the same result
        rec = client.post(f"/api/games/{g['id']}/record", json={"token": g["token"]})
        assert rec.status_code == 200
        result = replay(parse_record(rec.json()))
        assert result["game"]["scores"] == final["game"]["totals"]
        assert result["game"]["winner"] == final["game"]["winner"]
        assert len(rec.json()["deals"]) == deals == len(live.game.deals) + 1
        # the record kept action by action is the engine's own record of the game
        # (a chosen deal number makes it a practice game, and the record says so)
        assert live.row.record == {**live.game.to_record(), "practice": True} == live.record()
        assert rec.json()["practice"] is True
        # the text stored (finished deals' text kept between saves) is the same record
        assert json.loads(live.record_text()) == live.record()
        stored = client.app.state.manager.store.load(g["id"])  # type: ignore[attr-defined]
        assert stored.record == live.record()
    assert scan.checked > 50 and not scan.problems, scan.problems[:5]


# ---------------------------------------------------------------------- two seats


def test_two_seats_play_each_other_in_real_time(tmp_path: Path, scan: PrivacyScan) -> None:
    rng = random.Random(3)
    with make_client(tmp_path / "g.db", scan) as client:
        g = new_game(client, opponent="friend", target=300, name="Ann")
        assert "invite" in g and g["invite_path"].endswith(g["invite"])
        # a wrong invitation is refused; the right one gives the other seat once
        bad = client.post(f"/api/games/{g['id']}/join", json={"invite": "guess", "name": "Eve"})
        assert bad.status_code == 403
        j = client.post(f"/api/games/{g['id']}/join", json={"invite": g["invite"], "name": "Bob"})
        assert j.status_code == 200 and j.json()["seat"] == 1
        again = client.post(f"/api/games/{g['id']}/join", json={"invite": g["invite"]})
        assert again.status_code == 409
        tokens = [g["token"], j.json()["token"]]
        with open_seat(client, g["id"], tokens[0]) as w0:
            a = Seat(w0, "Ann")
            a.first()
            with open_seat(client, g["id"], tokens[1]) as w1:
                b = Seat(w1, "Bob")
                b.first()
                a.first()  # Ann is told Bob came online
                assert a.view["game"]["online"] == [True, True]
                assert a.view["game"]["names"] == ["Ann", "Bob"]
                seats = [a, b]
                while a.view["game"]["winner"] is None:
                    d = a.view["deal"]
                    if d["phase"] == "over":
                        ack = a.request({"type": "next"})
                    else:
                        mover = seats[d["turn"]]
                        ack = mover.act(rng.choice(mover.view["deal"]["legal"]))
                    assert ack["type"] == "ack", ack
                    for s in seats:
                        while s.view["game"]["version"] < ack["version"]:
                            s.recv()
                    # both seats see the same public table
                    va, vb = a.view["deal"], b.view["deal"]
                    for k in ("scores", "trick", "turn", "stock", "turnup", "melds"):
                        assert va[k] == vb[k], k
                    assert [[c["card"] for c in t] for t in va["table"]] == \
                        [[c["card"] for c in t] for t in vb["table"]]
                assert b.view["game"]["winner"] == a.view["game"]["winner"]
    assert scan.checked > 100 and not scan.problems, scan.problems[:5]


def test_a_seat_may_leave_and_come_back(tmp_path: Path) -> None:
    with make_client(tmp_path / "g.db") as client:
        g = new_game(client, opponent="friend", name="Ann")
        j = client.post(f"/api/games/{g['id']}/join",
                        json={"invite": g["invite"], "name": "Bob"}).json()
        with open_seat(client, g["id"], g["token"]) as w0:
            a = Seat(w0)
            a.first()
            with open_seat(client, g["id"], j["token"]) as w1:
                b = Seat(w1)
                b.first()
                a.first()
                assert a.act(a.view["deal"]["legal"][0])["type"] == "ack"
                b.first()
                left = b.view
            a.first()  # Bob left: Ann is told
            assert a.view["game"]["online"] == [True, False]
            with open_seat(client, g["id"], j["token"]) as w1:
                b = Seat(w1)
                b.first()
                assert b.view["deal"] == left["deal"] and b.view["deal"]["your_turn"]
                assert b.act(b.view["deal"]["legal"][0])["type"] == "ack"


def test_default_database_follows_bezique_data_dir(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BEZIQUE_DATA_DIR", str(tmp_path / "data"))
    assert default_db_path() == tmp_path / "data" / "games.sqlite3"
    app = create_app()
    assert app.state.store.path == str(tmp_path / "data" / "games.sqlite3")
    assert (tmp_path / "data" / "games.sqlite3").exists()


# ---------------------------------------------------------------------- refusals (point 5)


def _fixed(live: LiveGame) -> tuple[Any, ...]:
    return (live.row.version, live.game.state.key(), len(live.game.deals))


def test_every_bad_request_is_refused_and_changes_nothing(tmp_path: Path,
                                                          scan: PrivacyScan) -> None:
    with make_client(tmp_path / "g.db", scan) as client:
        g = new_game(client, opponent="friend")
        j = client.post(f"/api/games/{g['id']}/join", json={"invite": g["invite"]}).json()
        other = new_game(client, opponent="computer", level=1)
        live = client.app.state.manager.games[g["id"]]  # type: ignore[attr-defined]
        with open_seat(client, g["id"], g["token"]) as w0, \
                open_seat(client, g["id"], j["token"]) as w1:
            a, b = Seat(w0), Seat(w1)
            a.first()
            b.first()
            a.first()
            start = _fixed(live)
            lead = a.view["deal"]["legal"][0]
            cases: list[tuple[Seat, str, str]] = [
                # out of turn: seat 1 acts while seat 0 is to lead
                (b, json.dumps({"type": "action", "action": b.view["deal"]["legal"][0]
                                if b.view["deal"]["legal"] else "play AS"}), "not your turn"),
                (b, json.dumps({"type": "action", "action": lead}), "not your turn"),
                # malformed
                (a, "this is not json", "must be JSON"),
                (a, "[1, 2]", "JSON object"),
                (a, json.dumps({"action": lead}), "unknown message type"),
                (a, json.dumps({"type": "shuffle"}), "unknown message type"),
                (a, json.dumps({"type": "action"}), "an action must be a text"),
                (a, json.dumps({"type": "action", "action": 7}), "an action must be a text"),
                (a, json.dumps({"type": "action", "action": "play ZZ"}), "is not a card"),
                (a, json.dumps({"type": "action", "action": "dance"}), "is not an action"),
                (a, json.dumps({"type": "action", "action": "pass"}), "after winning a trick"),
                (a, json.dumps({"type": "action", "action": lead, "version": "x"}),
                 "whole number"),
                (a, json.dumps({"type": "action", "action": lead, "version": 99}), "moved on"),
                (a, json.dumps({"type": "undo"}), "only available against the computer"),
                (a, json.dumps({"type": "hint"}), "only available against the computer"),
                (a, json.dumps({"type": "next"}), "not over yet"),
                # oversized
                (a, json.dumps({"type": "action", "action": "play " + "A" * MAX_MESSAGE}),
                 "too large"),
            ]
            held = set(a.view["deal"]["legal"])
            missing = next(f"play {r}{s}" for r in RANKS for s in SUITS
                           if f"play {r}{s}" not in held)
            cases.append((a, json.dumps({"type": "action", "action": missing}), "do not hold"))
            for seat, text, expect in cases:
                seat.ws.send_text(text)
                m = seat.recv()
                assert m["type"] == "error", (text, m)
                assert expect in m["message"], (text, m["message"])
                assert _fixed(live) == start, text
            a.ws.send_bytes(b'{"type": "action"}')
            m = a.recv()
            assert m["type"] == "error" and "not binary" in m["message"]
            assert _fixed(live) == start
            # a good action still goes through afterwards
            assert a.act(lead)["type"] == "ack"
        after = _fixed(live)
        # REST: no token, another game's token, the other seat's turn, oversized body
        act = f"/api/games/{g['id']}/act"
        r = client.post(act, json={"type": "action", "action": lead})
        assert r.status_code == 403 and "does not hold a seat" in r.json()["error"]
        r = client.post(act, json={"token": other["token"], "type": "action", "action": lead})
        assert r.status_code == 403
        r = client.post(act, json={"token": g["token"], "type": "action", "action": lead})
        assert r.status_code == 409 and "not your turn" in r.json()["error"]
        r = client.post(act, content=b"{" + b" " * (MAX_MESSAGE + 1) + b"}")
        assert r.status_code == 413
        r = client.post(act, content=b"\xff\xfe")
        assert r.status_code == 400 and "JSON" in r.json()["error"]
        r = client.post("/api/games/nosuchgame/act", json={"token": g["token"]})
        assert r.status_code == 404
        assert _fixed(live) == after
        # a socket with a wrong token gets one error and is closed; it can do nothing
        with open_seat(client, g["id"], "guessed") as bad:
            m = bad.receive_json()
            assert m["type"] == "error" and m["fatal"] and "does not hold a seat" in m["message"]
        with open_seat(client, g["id"], other["token"]) as bad:
            assert bad.receive_json()["fatal"]
        assert _fixed(live) == after
        # creating games with bad settings
        for body in ({"opponent": "robot"}, {"level": 9}, {"target": -5},
                     {"variant": "poker"}, {"opponent": "friend", "seed": 3},
                     {"variant": "rubicon", "level": 0}, {"variant": "sixpack", "seats": []}):
            r = client.post("/api/games", json=body)
            assert r.status_code == 400, body
            assert "error" in r.json(), body
    assert not scan.problems, scan.problems[:5]


async def test_actions_arriving_together_are_applied_one_at_a_time(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.db")
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        g = (await client.post("/api/games", json={"opponent": "friend"})).json()
        await client.post(f"/api/games/{g['id']}/join", json={"invite": g["invite"]})
        view = (await client.post(f"/api/games/{g['id']}/state",
                                  json={"token": g["token"]})).json()
        legal = view["deal"]["legal"]
        # two different leads for the same seat at once: exactly one is applied
        results = await asyncio.gather(*(
            client.post(f"/api/games/{g['id']}/act",
                        json={"token": g["token"], "type": "action", "action": a})
            for a in legal[:4]
        ))
        codes = sorted(r.status_code for r in results)
        assert codes == [200, 409, 409, 409], [r.text for r in results]
        live = app.state.manager.games[g["id"]]
        assert len(live.game.state.history()) == 1 and live.row.version == 2


# ---------------------------------------------------------------------- lasting games


def test_a_restarted_server_serves_the_same_games(tmp_path: Path, scan: PrivacyScan) -> None:
    db = tmp_path / "games.db"
    rng = random.Random(8)
    with make_client(db, scan) as client:
        g = new_game(client, opponent="computer", level=1, target=1000)
        f = new_game(client, opponent="friend", name="Ann")
        fj = client.post(f"/api/games/{f['id']}/join", json={"invite": f["invite"]}).json()
        with open_seat(client, g["id"], g["token"]) as ws:
            me = Seat(ws)
            me.first()
            me.settle()
            for _ in range(25):
                if me.view["deal"]["phase"] == "over":
                    break
                assert me.act(rng.choice(me.view["deal"]["legal"]))["type"] == "ack"
                me.settle()
            before = me.view
    # a new app on the same database: the game is where it was
    with make_client(db, scan) as client:
        assert client.app.state.manager.games == {}  # type: ignore[attr-defined]
        with open_seat(client, g["id"], g["token"]) as ws:
            me = Seat(ws)
            me.first()
            now = me.view
            assert now["deal"] == before["deal"]
            assert now["game"]["version"] == before["game"]["version"]
            for _ in range(5):
                assert me.act(rng.choice(me.view["deal"]["legal"]))["type"] == "ack"
                me.settle()
        mine = client.post("/api/mine", json={"games": {g["id"]: g["token"],
                                                        f["id"]: fj["token"],
                                                        "forged": "x"}}).json()["games"]
        assert {(x["id"], x["seat"]) for x in mine} == {(g["id"], 0), (f["id"], 1)}
        # both seats of the friend game still hold after the restart
        for tok in (f["token"], fj["token"]):
            r = client.post(f"/api/games/{f['id']}/state", json={"token": tok})
            assert r.status_code == 200
    assert not scan.problems, scan.problems[:5]


def test_an_action_that_cannot_be_stored_is_refused_and_undone(tmp_path: Path) -> None:
    with make_client(tmp_path / "g.db") as client:
        g = new_game(client, opponent="friend")
        client.post(f"/api/games/{g['id']}/join", json={"invite": g["invite"]})
        manager = client.app.state.manager  # type: ignore[attr-defined]
        live = manager.games[g["id"]]
        start = _fixed(live)
        lead = client.post(f"/api/games/{g['id']}/state",
                           json={"token": g["token"]}).json()["deal"]["legal"][0]

        def broken(row: Any) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        real, manager.store.update = manager.store.update, broken
        act = {"token": g["token"], "type": "action", "action": lead}
        r = client.post(f"/api/games/{g['id']}/act", json=act)
        assert r.status_code == 503 and "could not be saved" in r.json()["error"]
        assert _fixed(live) == start and live.record()["deals"][0]["actions"] == []
        manager.store.update = real
        r = client.post(f"/api/games/{g['id']}/act", json=act)
        assert r.status_code == 200
        assert manager.store.load(g["id"]).record["deals"][0]["actions"] == [lead]


def test_a_next_deal_that_cannot_be_stored_is_dealt_again_the_same(tmp_path: Path) -> None:
    """The failed next deal is taken back whole: the retry deals the cards the game's seed
    deals next (not a third deal's), so a game's deals stay the ones its seed makes."""
    rng = random.Random(2)
    with make_client(tmp_path / "g.db") as client:
        g = new_game(client, opponent="friend")
        j = client.post(f"/api/games/{g['id']}/join", json={"invite": g["invite"]}).json()
        tokens = [g["token"], j["token"]]
        url = f"/api/games/{g['id']}"

        def view(seat: int) -> dict[str, Any]:
            data: dict[str, Any] = client.post(f"{url}/state",
                                               json={"token": tokens[seat]}).json()
            return data

        while (d := view(0)["deal"])["phase"] != "over":
            legal = view(d["turn"])["deal"]["legal"]
            r = client.post(f"{url}/act", json={"token": tokens[d["turn"]], "type": "action",
                                               "action": rng.choice(legal)})
            assert r.status_code == 200, r.text
        manager = client.app.state.manager  # type: ignore[attr-defined]
        live = manager.games[g["id"]]
        finished = live.game.state
        expected = Game.from_states(live.game.rules, [finished.clone()],
                                    seed=live.row.seed).next_deal().deal_hands

        def broken(row: Any, text: str) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        real, manager.store.update = manager.store.update, broken
        nxt = {"token": tokens[0], "type": "next"}
        r = client.post(f"{url}/act", json=nxt)
        assert r.status_code == 503 and "could not be saved" in r.json()["error"]
        assert live.game.state is finished and view(0)["deal"]["phase"] == "over"
        manager.store.update = real
        assert client.post(f"{url}/act", json=nxt).status_code == 200
        assert live.game.state.deal_hands == expected
        stored = manager.store.load(g["id"]).record["deals"]
        assert len(stored) == 2 and len(stored[1]["actions"]) == 0


def test_a_binocle_deal_against_the_computer(tmp_path: Path, scan: PrivacyScan) -> None:
    rng = random.Random(4)
    with make_client(tmp_path / "g.db", scan) as client:
        g = new_game(client, opponent="computer", level=1, variant="binocle", target=2000)
        with open_seat(client, g["id"], g["token"]) as ws:
            me = Seat(ws)
            me.first()
            me.settle()
            assert len(me.view["deal"]["hand"]) == 12 and me.view["game"]["variant"] == "binocle"
            while me.view["deal"]["phase"] != "over":
                assert me.act(rng.choice(me.view["deal"]["legal"]))["type"] == "ack"
                me.settle()
            d = me.view["deal"]
            # card points (RULES.md 4): 240 in the tricks, plus 10 for the last trick
            assert sum(d["brisques"]) == 240 and d["tricks_played"] == 24
    assert scan.checked > 20 and not scan.problems, scan.problems[:5]


def test_record_and_replay_show_only_finished_deals(tmp_path: Path) -> None:
    rng = random.Random(1)
    with make_client(tmp_path / "g.db") as client:
        g = new_game(client, opponent="computer", level=1, target=3000)
        url = f"/api/games/{g['id']}"
        # mid-deal the record would reveal the hands and the stock: refused
        assert client.post(f"{url}/record", json={"token": g["token"]}).status_code == 409
        assert client.post(f"{url}/replay", json={"token": g["token"]}).json()["deals"] == []
        assert client.post(f"{url}/record", json={"token": "x"}).status_code == 403
        with open_seat(client, g["id"], g["token"]) as ws:
            me = Seat(ws)
            me.first()
            me.settle()
            while me.view["deal"]["phase"] != "over":
                me.act(rng.choice(me.view["deal"]["legal"]))
                me.settle()
            final = me.view
            me.request({"type": "next"})
        rec = client.post(f"{url}/record", json={"token": g["token"]}).json()
        assert len(rec["deals"]) == 1  # the new deal is not in it
        rep = client.post(f"{url}/replay", json={"token": g["token"]}).json()
        frames = rep["deals"][0]["frames"]
        assert len(frames) == len(rec["deals"][0]["actions"]) + 1
        assert frames[0]["action"] is None and len(frames[0]["hands"][0]) == 8
        assert frames[-1]["scores"] == final["game"]["totals"]
        assert sum(fr["trick_done"] for fr in frames) == 32
        assert all(fr["hands"] == [[], []] for fr in frames[-1:])


# ---------------------------------------------------------------------- pages, cards, CLI


def test_site_serves_its_own_pages_and_cards(tmp_path: Path) -> None:
    with make_client(tmp_path / "g.db") as client:
        page = client.get("/")
        assert page.status_code == 200
        # no asset from elsewhere: every src/href is local
        for attr in ("src=\"http", "href=\"http", "//cdn"):
            assert attr not in page.text
        for name in ("app.js", "style.css"):
            r = client.get(f"/static/{name}")
            assert r.status_code == 200 and "http://" not in r.text and "https://" not in r.text
        assert client.get("/static/../app.py").status_code == 404
        for r in RANKS:
            for s in SUITS:
                svg = client.get(f"/cards/{r}{s}.svg")
                assert svg.headers["content-type"].startswith("image/svg+xml")
                ET.fromstring(svg.text)  # well-formed
        assert client.get("/cards/ZZ.svg").status_code == 404
        ET.fromstring(back_svg())
        ET.fromstring(card_svg("10h"))
        for s in SUITS:
            ET.fromstring(client.get(f"/suits/{s}.svg").text)


def test_serve_command_is_registered_and_reports_a_bad_database() -> None:
    runner = CliRunner()
    r = runner.invoke(main, ["serve", "--help"])
    assert r.exit_code == 0 and "--port" in r.output and "--db" in r.output
    r = runner.invoke(main, ["serve", "--db", "/proc/no/such/dir/games.db"])
    assert r.exit_code == 2
    assert "error" in r.output and "Traceback" not in r.output
