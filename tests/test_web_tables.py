"""The tables for three and four in the browser game, through the server (no browser): three
friends play a whole three-handed deal with their links, a four-handed partnership with
computers where a friend leaves, is replaced by the computer and comes back, and every
refusal (a full table, a wrong link, out of turn, while waiting).  Every message and HTTP
response a seat receives is scanned for the other seats' concealed cards, partners included."""

from __future__ import annotations

import contextlib
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fourhanded import deal4, declare, win_trick
from test_web import ALLOWED_KEYS, Seat, make_client
from ws_helpers import open_seat

import bezique.web.manager as manager_module
from bezique import Rules, State
from bezique.cards import card_name
from bezique.web.app import create_app
from bezique.web.live import LiveGame
from bezique.web.manager import Manager
from bezique.web.seats import TABLE, waiting
from bezique.web.store import GameRow, Store
from bezique.web.tableview import table_view, token_card
from bezique.web.workers import AgentPool
from bezique.worlds import resample_from_infostate

TABLE_KEYS = ALLOWED_KEYS | {
    "seats", "kind", "online", "empty", "away", "partnership", "partner", "side_totals",
    "waiting_for", "hidden", "known", "side_scores", "partner_cards", "winner", "invites",
    "invite", "invite_path", "win_reason", "options", "kept", "next_game", "by",
}


def _keys(obj: Any) -> set[str]:
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in _keys(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in _keys(v)}
    return set()


def _names(cards: list[int]) -> list[str]:
    return sorted(card_name(c) for c in cards)


def _card_names(obj: Any) -> set[str]:
    """Every card named anywhere in a message (card fields and action texts)."""
    out: set[str] = set()
    if isinstance(obj, dict):
        for v in obj.values():
            out |= _card_names(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= _card_names(v)
    elif isinstance(obj, str):
        for tok in obj.split():
            with contextlib.suppress(ValueError):
                out.add(card_name(token_card(tok)))
    return out


class TableScan:
    """Checks every message a seat is sent, at the moment it is sent, against the real deal:
    its own hand exactly, every other place public, nothing of another seat's concealed hand
    beyond what that seat's observation shows, and the same message in any world the seat
    cannot tell from this one (the other hands and the stock dealt afresh); a hint names only
    cards the seat holds or sees on its side's table."""

    def __init__(self, every: int = 4) -> None:
        self.checked = 0
        self.worlds = 0
        self.hints = 0
        self.every = every
        self.problems: list[str] = []
        self.rng = random.Random(5)

    def __call__(self, live: LiveGame, seat: int, msg: dict[str, Any]) -> None:
        try:
            self.check(live, seat, msg)
        except AssertionError as e:  # recorded, asserted by the test (the server must go on)
            self.problems.append(f"{msg.get('type')} to seat {seat}: {e}")

    def check(self, live: LiveGame, seat: int, msg: dict[str, Any]) -> None:
        extra = _keys(msg) - TABLE_KEYS
        assert not extra, f"unexpected fields {extra}"
        if msg.get("type") == "hint":
            # a hint names only the seat's own cards and its partner's shown ones, and is an
            # action the seat may take now
            st = live.game.state
            assert st.current_player() == seat and msg["action"] in st.legal_action_strings()
            assert msg["hint_action"] == msg["action"] and msg["text"]
            mine = set(_names(st.hand(seat))) | set(_names(st.shown(seat)))
            mate = st.rules.partner(seat)
            if mate >= 0:
                mine |= set(_names(st.shown(mate)))
            assert _card_names(msg) <= mine, f"{_card_names(msg) - mine} named in a hint"
            self.hints += 1
            return
        if msg.get("type") != "state":
            # a reply: an acknowledgement (of an undo too) names no card; a refusal echoes only
            # the request
            assert msg["type"] in ("ack", "error"), msg
            assert msg["type"] == "error" or not _card_names(msg), msg
            return
        self.checked += 1
        st = live.game.state
        n = st.rules.nplayers
        obs = st.observation(seat)
        d = msg["deal"]
        assert msg["game"]["you"] == seat
        assert sorted(c["card"] for c in d["hand"]) == _names(st.hand(seat))
        for s in range(n):
            assert sorted(c["card"] for c in d["table"][s]) == _names(st.shown(s))
            assert d["hidden"][s] == len(st.hand(s))
            if s != seat:
                known = Counter(d["known"][s])
                assert not known - Counter(_names(st.hand(s))), "known cards not in that hand"
                assert not known - Counter(card_name(c) for c in obs.known_cards[s])
        assert [t["card"] for t in d["trick"]] == [card_name(c) for c in st.trick_cards()]
        assert d["stock"] == st.stock_left
        # every card named anywhere was on show to this seat
        visible = set(_names(list(obs.hand))) | {card_name(c) for sh in obs.shown for c in sh}
        visible |= {card_name(c) for t in obs.tricks for c in t.cards}
        visible |= {card_name(c) for c in (*obs.trick, *obs.draws)}
        visible |= {card_name(c) for k in obs.known_cards for c in k}
        visible |= {card_name(c) for ms in obs.melds for m in ms for c in m.cards}
        if obs.turnup_dealt >= 0:
            visible.add(card_name(obs.turnup_dealt))
        if obs.turnup is not None:
            visible.add(card_name(obs.turnup))
        named = _card_names(d)
        assert named <= visible, f"{named - visible} were never on show to seat {seat}"
        # legal actions name only the seat's own cards and its partner's shown ones ("+")
        mine = Counter(_names(st.hand(seat))) + Counter(_names(st.shown(seat)))
        mate = st.rules.partner(seat)
        for a in d["legal"]:
            for tok in a.split()[1:]:
                c = card_name(token_card(tok))
                assert c in mine or ("+" in tok and mate >= 0
                                     and c in _names(st.shown(mate))), a
        # the log never says what another seat drew
        for e in d["log"]:
            if e["seat"] != seat and "drew" in e["text"]:
                assert not any(ch in e["text"] for ch in "♠♥♦♣"), e["text"]
        # a world this seat cannot tell apart gives it the very same message
        if self.checked % self.every == 0 and not st.is_terminal():
            world = resample_from_infostate(st, seat, self.rng)
            again = table_view(world.observation(seat), live.row, msg["game"]["deal"],
                               msg["game"]["online"], msg["game"]["deal_scores"])
            assert again == msg, "the message depends on cards the seat has not seen"
            self.worlds += 1


def fix_secrets(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Make the server's secrets (a table's deal and its computers' seeds, the deal of the
    unseen cards after an undo) a fixed sequence, so that a test that needs its deal to offer
    something (a declaring turn to pass on, enough moves to take back) always gets one."""
    rng = random.Random(seed)
    monkeypatch.setattr(manager_module.secrets, "randbits", rng.getrandbits)


def table_client(db: Path, scan: TableScan, away_seconds: float = 60.0) -> TestClient:
    manager = Manager(Store(db), pool=AgentPool(0), away_seconds=away_seconds)
    app = create_app(manager=manager, games_per_minute=0, pages_per_minute=0)
    app.state.manager.send_hooks.append(scan)
    return TestClient(app)


def still(live: LiveGame, timeout: float = 60.0) -> None:
    """Wait until no computer move and no request is under way at the table (the server runs
    in another thread): what is asked of it then is answered from the deal as it stays."""
    end = time.monotonic() + timeout
    while not ((live.task is None or live.task.done()) and not live.lock.locked()):
        assert time.monotonic() < end, "the computers never finished moving"
        time.sleep(0.005)


def post(client: TestClient, scan: TableScan, path: str, seat: int | None,
         body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    """A POST whose answer is scanned as a message to ``seat``.  A request for a view waits
    for the table to be still first, so the answer is scanned against the deal it was made
    from, not one a computer has moved on since."""
    gid = path.split("/")[3]
    manager = client.app.state.manager  # type: ignore[attr-defined]
    if path.endswith("/state") and gid in manager.games:
        still(manager.games[gid])
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    data: dict[str, Any] = r.json()
    if seat is not None and "type" in data:
        scan(manager.games[gid], seat, data)
    return data


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    assert _keys(out) <= TABLE_KEYS | {"token", "practice", "invite_url"}
    return out


def catch_up(seats: list[Seat], version: int) -> None:
    for s in seats:
        while s.view["game"]["version"] < version:
            s.recv()


def test_three_friends_play_a_whole_three_handed_deal_with_their_links(tmp_path: Path) -> None:
    scan = TableScan()
    rng = random.Random(7)
    with table_client(tmp_path / "g.db", scan) as client:
        g = create(client, variant="bezique3", name="Ann",
                   seats=[{"kind": "friend"}, {"kind": "friend"}])
        gid = g["id"]
        assert [i["seat"] for i in g["invites"]] == [1, 2]
        assert all(i["invite_path"] == f"/#/join/{gid}/{i['invite']}" for i in g["invites"])
        tokens = {0: g["token"]}
        with open_seat(client, gid, g["token"]) as w0:
            ann = Seat(w0, "Ann")
            assert ann.first()["game"]["waiting_for"] == 2
            # nobody plays before every seat is taken
            err = ann.act(ann.view["deal"]["legal"][0] if ann.view["deal"]["legal"]
                          else "play QS")
            assert err["type"] == "error" and "waiting for 2 players" in err["message"]
            # seats fill in any order: the second friend first
            j2 = post(client, scan, f"/api/games/{gid}/join", None,
                      {"invite": g["invites"][1]["invite"], "name": "Cy"})
            assert j2["seat"] == 2
            tokens[2] = j2["token"]
            assert ann.first()["game"]["waiting_for"] == 1
            assert ann.view["game"]["seats"][2]["name"] == "Cy"
            j1 = post(client, scan, f"/api/games/{gid}/join", None,
                      {"invite": g["invites"][0]["invite"], "name": "Bob"})
            tokens[1] = j1["token"]
            assert j1["seat"] == 1
            # the table is full now: an invitation used again, or a wrong one, is refused
            full = client.post(f"/api/games/{gid}/join",
                               json={"invite": g["invites"][0]["invite"], "name": "Eve"})
            assert full.status_code == 409 and "full" in full.json()["error"]
            wrong = client.post(f"/api/games/{gid}/join", json={"invite": "guess"})
            assert wrong.status_code == 403
            ann.first()
            assert ann.view["game"]["waiting_for"] == 0
            assert ann.view["game"]["names"] == ["Ann", "Bob", "Cy"]
            with open_seat(client, gid, tokens[1]) as w1:
                bob = Seat(w1, "Bob")
                bob.first()
                ws_seats = [ann, bob]
                acted = 0
                while True:
                    live = client.app.state.manager.games[gid]  # type: ignore[attr-defined]
                    view = ann.view
                    d = view["deal"]
                    if d["phase"] == "over":
                        break
                    turn = d["turn"]
                    if turn == 2:  # Cy plays over HTTP: the state, then the action
                        cy = post(client, scan, f"/api/games/{gid}/state", 2,
                                  {"token": tokens[2]})
                        assert cy["deal"]["your_turn"]
                        ack = post(client, scan, f"/api/games/{gid}/act", 2,
                                   {"token": tokens[2], "type": "action",
                                    "action": rng.choice(cy["deal"]["legal"]),
                                    "version": cy["game"]["version"]})
                    else:
                        mover = ws_seats[turn]
                        assert mover.view["deal"]["your_turn"]
                        # the seat not to play is refused, and nothing changes
                        idle = ws_seats[1 - turn]
                        no = idle.act("pass")
                        assert no["type"] == "error" and no["message"] == "it is not your turn"
                        ack = mover.act(rng.choice(mover.view["deal"]["legal"]))
                    assert ack["type"] == "ack", ack
                    acted += 1
                    catch_up(ws_seats, ack["version"])
                    va, vb = ann.view["deal"], bob.view["deal"]
                    for k in ("scores", "trick", "turn", "stock", "turnup", "melds", "hidden",
                              "last_trick"):
                        assert va[k] == vb[k], k
                assert live.game.state.is_terminal() and acted > 100
                assert ann.view["deal"]["scores"] == list(live.game.state.scores)
                assert ann.view["game"]["finished_deals"] == 1
                # the finished deal can be replayed, with three hands
                rep = client.post(f"/api/games/{gid}/replay", json={"token": tokens[2]})
                assert rep.status_code == 200
                assert len(rep.json()["deals"][0]["frames"][0]["hands"]) == 3
    assert scan.checked > 200 and scan.worlds > 40 and not scan.problems, scan.problems[:5]


def test_four_handed_partnership_with_computers_a_friend_leaves_and_comes_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a deal where seat 0 gets to ``offer`` (see fix_secrets)
    fix_secrets(monkeypatch, 1)
    scan = TableScan()
    rng = random.Random(2)
    with table_client(tmp_path / "g.db", scan) as client:
        g = create(client, variant="bezique4", name="Ann", level=1,
                   seats=[{"kind": "friend"}, {"kind": "computer", "level": 1},
                          {"kind": "computer", "level": 1}])
        gid = g["id"]
        live = client.app.state.manager.games[gid]  # type: ignore[attr-defined]
        j = post(client, scan, f"/api/games/{gid}/join", None,
                 {"invite": g["invites"][0]["invite"], "name": "Bob"})
        with open_seat(client, gid, g["token"]) as w0, \
                open_seat(client, gid, j["token"]) as w1:
            ann, bob = Seat(w0), Seat(w1)
            ann.first()
            bob.first()
            game = ann.view["game"]
            assert game["partnership"] and game["partner"] == 2
            assert [s["kind"] for s in game["seats"]] == ["you", "friend", "computer",
                                                          "computer"]
            assert bob.view["game"]["partner"] == 3
            left = back = offered = False
            for _ in range(3000):
                catch_up([ann, bob], live.row.version)
                d = ann.view["deal"]
                if d["phase"] == "over":
                    break
                ack: dict[str, Any] | None = None
                if d["turn"] == 0:
                    choice = "offer" if "offer" in d["legal"] else rng.choice(d["legal"])
                    offered |= choice == "offer"
                    ack = ann.act(choice)
                elif d["turn"] == 1 and not left and d["tricks_played"] >= 3:
                    # Bob leaves: the computer plays his seat, and the deal goes on
                    assert bob.request({"type": "leave"})["type"] == "ack"
                    left = True
                elif d["turn"] == 1 and not bob.view["game"]["seats"][1]["away"]:
                    ack = bob.act(rng.choice(bob.view["deal"]["legal"]))
                elif left and not back and d["tricks_played"] >= 10:
                    assert ann.view["game"]["seats"][1]["away"]
                    assert ann.view["game"]["seats"][1]["name"] == "Bob"
                    # his link gives the seat back
                    assert bob.request({"type": "back"})["type"] == "ack"
                    back = True
                else:
                    time.sleep(0.005)  # a computer is to play
                if ack is not None:  # or refused: a computer moved since the view
                    assert ack["type"] == "ack" or "moved on" in ack["message"], ack
            assert ann.view["deal"]["phase"] == "over"
            assert left and back and offered
            final = ann.view
            assert final["deal"]["scores"] == list(live.game.state.scores)
            assert final["deal"]["side_scores"] == [
                final["deal"]["scores"][0] + final["deal"]["scores"][2],
                final["deal"]["scores"][1] + final["deal"]["scores"][3]]
            assert final["game"]["side_totals"] == [final["game"]["totals"][0]
                                                    + final["game"]["totals"][2],
                                                    final["game"]["totals"][1]
                                                    + final["game"]["totals"][3]]
            assert not live.row.seats[1]["away"]
    assert scan.checked > 200 and not scan.problems, scan.problems[:5]



def test_table_refusals_are_clear_and_the_server_goes_on(tmp_path: Path) -> None:
    scan = TableScan()
    with table_client(tmp_path / "g.db", scan) as client:
        def refused(body: dict[str, Any], status: int, words: str) -> None:
            r = client.post("/api/games", json=body)
            assert r.status_code == status and words in r.json()["error"], r.text

        refused({"variant": "bezique3", "seats": [{"kind": "friend"}]}, 400,
                "a table of 3 needs 2 other seats")
        refused({"variant": "bezique3", "seats": [{"kind": "robot"}, {"kind": "friend"}]}, 400,
                "'kind' must be 'friend' or 'computer'")
        refused({"variant": "bezique4", "seats": [{"kind": "computer", "level": 9}] * 3}, 400,
                "'level' must be a whole number from 1 to 5")
        refused({"variant": "bezique4", "partnership": "yes"}, 400,
                "'partnership' must be true or false")
        refused({"variant": "bezique3", "partnership": True}, 400, "partnership")
        refused({"variant": "bezique", "seats": []}, 400, "tables of three and four")
        refused({"variant": "bezique3", "seed": 4,
                 "seats": [{"kind": "friend"}, {"kind": "computer"}]}, 400, "deal number")
        # all computers unless said; the partnership may be turned off; a chosen target
        g = create(client, variant="bezique4", partnership=False, level=1, target=500)
        live = client.app.state.manager.games[g["id"]]  # type: ignore[attr-defined]
        assert [s["kind"] for s in live.row.seats] == ["you"] + ["computer"] * 3
        assert live.game.rules.partnership is False and live.game.rules.target == 500
        assert "invites" in g and g["invites"] == []
        view = post(client, scan, f"/api/games/{g['id']}/state", 0, {"token": g["token"]})
        assert view["game"]["partner"] is None and view["game"]["side_totals"] is None
        # against one person, leaving is refused (close the page): two-seat games are as they were
        two = client.post("/api/games", json={"opponent": "friend"}).json()
        assert "invites" not in two and "invite" in two
        r = client.post(f"/api/games/{two['id']}/act", json={"token": two["token"],
                                                             "type": "leave"})
        assert r.status_code == 409 and "close the page" in r.json()["error"]

        t = create(client, variant="bezique3", name="Ann", opponent="friend")
        gid = t["id"]
        assert len(t["invites"]) == 2
        act = f"/api/games/{gid}/act"
        # a stranger's token, a wrong game, a wrong link
        assert client.post(act, json={"token": "nope", "type": "action",
                                      "action": "pass"}).status_code == 403
        assert client.post("/api/games/nope/join", json={"invite": "x"}).status_code == 404
        assert client.post(f"/api/games/{gid}/join", json={"invite": "x"}).status_code == 403
        # while friends are missing nobody plays, and everyone is told how many
        r = client.post(act, json={"token": t["token"], "type": "action", "action": "pass"})
        assert r.status_code == 409 and "waiting for 2 players" in r.json()["error"]
        js = [post(client, scan, f"/api/games/{gid}/join", None, {"invite": i["invite"]})
              for i in t["invites"]]
        assert [j["seat"] for j in js] == [1, 2]
        live = client.app.state.manager.games[gid]  # type: ignore[attr-defined]
        assert live.row.names == ["Ann", "Player 2", "Player 3"] and waiting(live.row) == 0
        again = client.post(f"/api/games/{gid}/join", json={"invite": t["invites"][1]["invite"]})
        assert again.status_code == 409 and "full" in again.json()["error"]
        tokens = [t["token"], js[0]["token"], js[1]["token"]]
        turn = live.game.state.current_player()
        other = (turn + 1) % 3
        before = (live.row.version, live.game.state.key())
        r = client.post(act, json={"token": tokens[other], "type": "action", "action": "pass"})
        assert r.status_code == 409 and r.json()["error"] == "it is not your turn"
        r = client.post(act, json={"token": tokens[turn], "type": "action", "action": "play 9Z"})
        assert r.status_code == 400
        for bad in ({"type": "dance"}, {"type": "action"}, [1, 2], {"type": "back"}):
            body = {"token": tokens[turn], **bad} if isinstance(bad, dict) else bad
            r = client.post(act, json=body)
            assert r.status_code in (400, 403, 409) and "error" in r.json(), r.text
        assert (live.row.version, live.game.state.key()) == before
        # the seat to play still plays
        view = post(client, scan, f"/api/games/{gid}/state", turn, {"token": tokens[turn]})
        ok = post(client, scan, act, turn, {"token": tokens[turn], "type": "action",
                                            "action": view["deal"]["legal"][0]})
        assert ok["type"] == "ack"
        # the list of games says what each table waits for
        mine = client.post("/api/mine", json={"games": {gid: tokens[1]}}).json()["games"]
        assert mine[0]["opponent"] == "table" and mine[0]["waiting_for_friend"] is False
    assert not scan.problems, scan.problems[:5]


def test_a_seat_whose_pages_close_is_played_by_the_computer_until_its_link_comes_back(
        tmp_path: Path) -> None:
    scan = TableScan()
    with table_client(tmp_path / "g.db", scan, away_seconds=0.2) as client:
        g = create(client, variant="bezique3", name="Ann", level=1,
                   seats=[{"kind": "friend"}, {"kind": "computer", "level": 1}])
        gid = g["id"]
        j = post(client, scan, f"/api/games/{gid}/join", None,
                 {"invite": g["invites"][0]["invite"], "name": "Bob"})
        live = client.app.state.manager.games[gid]  # type: ignore[attr-defined]
        with open_seat(client, gid, g["token"]) as w0:
            ann = Seat(w0)
            ann.first()
            with open_seat(client, gid, j["token"]) as w1:
                Seat(w1).first()
            # Bob's page closed: after the grace the computer plays his seat (on a slow
            # machine the grace may also have passed before his page first opened, and Ann
            # has that view queued: read on until the seat is away now)
            while not (ann.view["game"]["seats"][1]["away"] and live.row.seats[1]["away"]):
                ann.recv()
            # Ann plays; Bob's seat and the computer's answer by themselves
            for _ in range(6):
                catch_up([ann], live.row.version)
                while not ann.view["deal"]["your_turn"]:
                    ann.recv()
                reply = ann.act(ann.view["deal"]["legal"][0])
                assert reply["type"] == "ack" or "moved on" in reply["message"]
            assert any(p == 1 for p, _ in live.game.state.history())
            # his link gives the seat back, at once
            with open_seat(client, gid, j["token"]) as w1:
                bob = Seat(w1)
                bob.first()
                assert not live.row.seats[1]["away"]
                catch_up([bob], live.row.version)
                assert not bob.view["game"]["seats"][1]["away"]
    assert scan.checked > 10 and not scan.problems, scan.problems[:5]


def test_an_older_database_gains_the_seats_column(tmp_path: Path) -> None:
    import sqlite3

    from bezique.web.store import SCHEMA

    db = tmp_path / "old.db"
    con = sqlite3.connect(db)
    con.executescript(SCHEMA.replace(",\n    seats TEXT NOT NULL DEFAULT '[]'", ""))
    con.close()
    with table_client(db, TableScan()) as client:
        g = create(client, variant="bezique3", level=1)
        assert client.app.state.manager.store.load(g["id"]).seats[0]["kind"] == "you"  # type: ignore[attr-defined]


def test_computers_of_any_level_play_a_table(tmp_path: Path) -> None:
    """A level whose agent cannot play the seat (yet) falls back to the beginner: the table
    never stalls waiting for a computer."""
    scan = TableScan()
    with table_client(tmp_path / "g.db", scan) as client:
        g = create(client, variant="bezique4", level=4,
                   seats=[{"kind": "computer", "level": lv} for lv in (3, 5, 2)])
        live = client.app.state.manager.games[g["id"]]  # type: ignore[attr-defined]
        with open_seat(client, g["id"], g["token"]) as w0:
            me = Seat(w0)
            me.first()
            for _ in range(3):  # my lead, then three computers answer each time
                catch_up([me], live.row.version)
                while not me.view["deal"]["your_turn"]:
                    me.recv()
                d = me.view["deal"]
                assert me.act("pass" if "pass" in d["legal"] else d["legal"][0])["type"] == "ack"
            seats = {p for p, _ in live.game.state.history()}
            assert seats >= {1, 2, 3}
    assert not scan.problems, scan.problems[:5]



@pytest.mark.parametrize("variant", ["bezique", "bezique4"])
def test_a_computer_is_named_by_its_seat_and_its_level_said_beside_it(tmp_path: Path,
                                                                       variant: str) -> None:
    """On a phone "Computer 3 (level 5 expert)" took two lines wherever it was named (the
    seat, the trick, the scores, every line of the log): the page names a computer by its
    seat, the view gives its level for the seat's tag, and the records keep the whole name."""
    two = variant == "bezique"  # (the table scan checks a table's views)
    with (make_client(tmp_path / "g.db") if two else
          table_client(tmp_path / "g.db", TableScan())) as client:
        if two:
            g = create(client, opponent="computer", level=5, name="Ann")
            short, levels, whole = ["Ann", "Computer"], None, ["Ann", "Computer (level 5 expert)"]
        else:
            g = create(client, variant=variant, level=1, name="Ann",
                       seats=[{"kind": "computer", "level": lv} for lv in (3, 5, 2)])
            short = ["Ann", "Computer 2", "Computer 3", "Computer 4"]
            levels = [3, 5, 2]
            whole = ["Ann", "Computer 2 (level 3 club)", "Computer 3 (level 5 expert)",
                     "Computer 4 (level 2 casual)"]
        live = client.app.state.manager.games[g["id"]]  # type: ignore[attr-defined]
        with open_seat(client, g["id"], g["token"]) as w0:
            me = Seat(w0)
            me.first()
            logged = 0
            for _ in range(3):
                catch_up([me], live.row.version)
                while not me.view["deal"]["your_turn"]:
                    me.recv()
                view = me.view
                assert view["game"]["names"] == short
                assert "(level" not in repr(view["deal"]["log"])
                logged += sum(short[1] in line["text"] for line in view["deal"]["log"])
                d = view["deal"]
                assert me.act("pass" if "pass" in d["legal"] else d["legal"][0])["type"] == "ack"
        assert logged > 0  # the computers' moves were logged, by their short names
        if levels:
            assert [s["level"] for s in view["game"]["seats"][1:]] == levels
        assert live.row.names == whole
        # the replay names them as the page does, each computer's level beside (said once in
        # its list of players); the downloaded record (test_web_teaching) keeps the whole names
        replay = client.post(f"/api/games/{g['id']}/replay", json={"token": g["token"]})
        assert replay.json()["names"] == short
        assert replay.json()["levels"] == [None, *(levels or [5])]
        assert replay.json()["one_deal"] is False  # its seats' scores are the game's totals
        # the list of games gives a partnership's side totals
        mine = client.post("/api/mine", json={"games": {g["id"]: g["token"]}}).json()["games"]
        scores = live.game.state.game_scores
        assert mine[0]["sides"] == (None if two else [scores[0] + scores[2], scores[1] + scores[3]])


def _row(n: int) -> GameRow:
    return GameRow(id="t", created=0, updated=0, opponent=TABLE, level=1, agent_spec="random",
                   agent_seed=0, seed=0, token_hashes=["a"] * n, invite_hash=None,
                   names=["North", "East", "South", "West"][:n], record={}, version=3,
                   seats=[{"kind": "you"}] + [{"kind": "friend", "invite": "x"}] * (n - 1))


def test_the_view_offers_combining_with_the_partners_cards_and_the_offer() -> None:
    """RULES.md 9.5 example 20 at the table: South's page offers the bezique made of North's
    shown Q♠ and its own J♦ (the partner's card marked), and North's page the offer."""
    s = deal4({0: ["QS", "QH", "QD", "QC", "AH"], 2: ["JD", "AH"]})
    assert declare(s, 0, "meld QS QH QD QC") == 60
    win_trick(s, 2)
    south = table_view(s.observation(2), _row(4), 1, [True] * 4, [])
    meld = next(m for m in south["deal"]["melds_available"] if m["action"] == "meld QS+ JD")
    assert meld["partner_cards"] == ["QS"] and meld["points"] == 40
    assert meld["name"] == "bezique" and sorted(meld["cards"]) == ["JD", "QS"]
    assert "offer" in south["deal"]["specials"]
    assert south["game"]["partner"] == 0 and south["deal"]["table"][0]
    s.apply("meld QS+ JD")
    north = table_view(s.observation(0), _row(4), 1, [True] * 4, [])
    assert north["deal"]["log"][-1]["text"] == (
        "South declared bezique Q♠ J♦ (+40) with the partner's cards")
    assert north["deal"]["side_scores"] == [100, 0]
    assert north["game"]["side_totals"] == [100, 0]
    # North never learns South's hand: only its size and the cards on show
    assert north["deal"]["hidden"][2] == len(s.hand(2))
    assert north["deal"]["known"][2] == [card_name(c) for c in s.observation(0).known_cards[2]]
    # the trick of four: each card with its seat, the first one led
    s.apply("pass")
    for _ in range(4):
        s.apply_action(next(a for a in s.legal_actions() if a < 256))
    view = table_view(s.observation(1), _row(4), 1, [True] * 4, [])
    last = view["deal"]["last_trick"]
    assert [c["seat"] for c in last["cards"]] == [2, 3, 0, 1] and last["leader"] == 2
    texts = [e["text"] for e in view["deal"]["log"][-4:]]
    assert texts[0].startswith("South led") and all(" played " in t for t in texts[1:])


@settings(max_examples=20, deadline=None)
@given(variant=st.sampled_from(["bezique3", "bezique4"]), seed=st.integers(0, 10_000),
       steps=st.integers(0, 200))
def test_no_seat_can_tell_worlds_apart_from_its_messages(variant: str, seed: int,
                                                         steps: int) -> None:
    """Any position of a random deal: each seat's message is the same in every world that
    seat cannot tell apart (the others' concealed cards, a partner's included, and the stock
    dealt afresh), and it names no card that was never on show to it."""
    rules = Rules.preset(variant)
    state = State.new_deal(rules, seed, dealer=seed % rules.nplayers)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    row = _row(rules.nplayers)
    for seat in range(rules.nplayers):
        msg = table_view(state.observation(seat), row, 1, [True] * rules.nplayers, [])
        world = resample_from_infostate(state, seat, rng)
        assert table_view(world.observation(seat), row, 1, [True] * rules.nplayers, []) == msg
        hidden = Counter(_names(state.hand(seat)))
        for other in range(rules.nplayers):
            if other != seat:
                assert len(msg["deal"]["known"][other]) <= msg["deal"]["hidden"][other]
        assert sorted(c["card"] for c in msg["deal"]["hand"]) == sorted(hidden.elements())


def test_the_replay_says_whether_its_scores_are_a_game_or_a_deal(tmp_path: Path) -> None:
    """The replay labelled each seat's number "score": in a game to 1000 it is the game's
    running total (the page now says "game"), in a one-deal game the deal's points."""
    with make_client(tmp_path / "g.db") as client:
        for variant, one_deal in (("bezique", False), ("rubicon", True)):
            g = create(client, opponent="computer", level=1, variant=variant)
            r = client.post(f"/api/games/{g['id']}/replay", json={"token": g["token"]})
            assert r.status_code == 200 and r.json()["one_deal"] is one_deal


def test_the_log_tells_a_partner_passing_an_offered_turn_from_a_winner_drawing() -> None:
    """After an offer, the partner's pass was logged "North drew from the stock", as if they
    had won the trick and drawn first."""
    from bezique.actions import OFFER, PASS

    rng = random.Random(4)
    state = State.new_deal(Rules.preset("bezique4"), seed=2)
    while not (state.current_player() == 0 and OFFER in state.legal_actions()):
        state.apply_action(rng.choice([a for a in state.legal_actions() if a != OFFER]))
    state.apply_action(OFFER)
    state.apply_action(PASS)  # the partner, seat 2, declares nothing
    log = table_view(state.observation(0), _row(4), 1, [True] * 4, [])["deal"]["log"]
    assert [line["text"] for line in log[-2:]] == [
        "You offered the declaring turn to the partner",
        "South ended the declaring turn; each drew from the stock"]
    assert log[-3]["text"].endswith("won the trick")
