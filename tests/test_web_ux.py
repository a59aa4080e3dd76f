"""``bezique serve``: what a player from a card-game app expects (no play before the friend
sits, invitation links that others can open, one set of level names, the game-over account)."""

from __future__ import annotations

import random
import re
from importlib import resources
from pathlib import Path

from click.testing import CliRunner
from fastapi.testclient import TestClient
from test_web import PrivacyScan, Seat, make_client, new_game
from ws_helpers import open_seat

from bezique.agents.levels import LEVEL_NAMES
from bezique.cli import main
from bezique.tui.session import LEVEL_NAMES as TUI_LEVEL_NAMES
from bezique.web.app import create_app


def test_nobody_plays_before_the_friend_takes_the_seat(tmp_path: Path) -> None:
    scan = PrivacyScan()
    with make_client(tmp_path / "g.db", scan) as client:
        g = new_game(client, opponent="friend", name="Ann")
        with open_seat(client, g["id"], g["token"]) as w0:
            a = Seat(w0, "Ann")
            a.first()
            v = a.view
            assert v["game"]["waiting_for_friend"] is True
            assert v["deal"]["your_turn"] is False  # even when seat 0 is to lead
            action = v["deal"]["legal"][0]
            reply = a.act(action)
            assert reply["type"] == "error" and "wait for your friend" in reply["message"]
            j = client.post(f"/api/games/{g['id']}/join", json={"invite": g["invite"]})
            assert j.status_code == 200
            while a.view["game"]["waiting_for_friend"]:
                a.recv()
            assert a.view["deal"]["your_turn"] == (a.view["deal"]["turn"] == 0)
    assert not scan.problems, scan.problems


def test_invitation_links_use_the_public_url(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.db", public_url="http://cards.example:8000/", host="0.0.0.0")
    with TestClient(app) as client:
        g = new_game(client, opponent="friend")
        assert g["invite_url"] == f"http://cards.example:8000/#/join/{g['id']}/{g['invite']}"
        assert client.get("/api/server").json() == {"public_url": "http://cards.example:8000",
                                                     "loopback": False}
    with TestClient(create_app(tmp_path / "h.db", host="127.0.0.1")) as client:
        assert client.get("/api/server").json() == {"public_url": None, "loopback": True}
        assert "invite_url" not in new_game(client, opponent="friend")
    js = resources.files("bezique.web").joinpath("static", "game.js").read_text("utf-8")
    assert "loopback-note" in js and "SERVER.public_url" in js


def test_serve_refuses_a_public_url_that_is_not_one(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["serve", "--public-url", "cards.example",
                                    "--db", str(tmp_path / "g.db")])
    assert out.exit_code == 2 and "--public-url must start with http://" in out.output


def test_one_set_of_level_names_in_the_terminal_and_the_browser(tmp_path: Path) -> None:
    assert TUI_LEVEL_NAMES is LEVEL_NAMES
    with make_client(tmp_path / "g.db") as client:
        names = client.get("/api/levels").json()["names"]
    assert {int(k): v for k, v in names.items()} == LEVEL_NAMES
    js = resources.files("bezique.web").joinpath("static", "app.js").read_text("utf-8")
    found = re.search(r"const LEVEL_NAMES = \{([^}]*)\}", js)
    assert found is not None
    in_js = {int(k): v.lower() for k, v in re.findall(r'(\d): "([^"]*)"', found.group(1))}
    assert in_js == LEVEL_NAMES
    assert "Master" not in js


def test_the_game_over_view_has_each_deals_scores(tmp_path: Path) -> None:
    rng = random.Random(5)
    scan = PrivacyScan()
    with make_client(tmp_path / "g.db", scan) as client:
        g = new_game(client, opponent="computer", level=1, target=100, seed=3)
        with open_seat(client, g["id"], g["token"]) as w:
            me = Seat(w, "me")
            me.first()
            for _ in range(2000):
                me.settle()
                v = me.view
                if v["game"]["winner"] is not None:
                    break
                if v["deal"]["phase"] == "over":
                    assert len(v["game"]["deal_scores"]) == v["game"]["deal"]
                    me.request({"type": "next"})
                else:
                    me.act(rng.choice(v["deal"]["legal"]))
            v = me.view
            assert v["game"]["winner"] is not None
            scores = v["game"]["deal_scores"]
            assert len(scores) == v["game"]["deal"]
            assert [sum(s[0] for s in scores), sum(s[1] for s in scores)] == v["game"]["totals"]
    assert not scan.problems, scan.problems


def test_undo_after_a_forced_draw_takes_back_the_choice_before_it(tmp_path: Path) -> None:
    rng = random.Random(2)
    with make_client(tmp_path / "g.db") as client:
        g = new_game(client, opponent="computer", level=1, seed=6)
        with open_seat(client, g["id"], g["token"]) as w:
            me = Seat(w, "me")
            me.first()
            done = 0
            for _ in range(300):
                me.settle()
                d = me.view["deal"]
                if d["phase"] == "over" or done >= 2:
                    break
                if d["legal"] == ["pass"]:
                    ack = me.act("pass")  # what the page does by itself
                    assert ack["type"] == "ack"
                    while me.view["game"]["version"] < ack["version"]:
                        me.recv()
                    me.settle()
                    ack = me.request({"type": "undo"})
                    assert ack["type"] == "ack", ack
                    while me.view["game"]["version"] < ack["version"]:
                        me.recv()
                    d = me.view["deal"]
                    assert d["your_turn"] and d["legal"] != ["pass"], d["legal"]
                    assert not d["log"] or not d["log"][-1]["text"].startswith("You drew")
                    done += 1
                me.act(rng.choice(me.view["deal"]["legal"]))
            assert done >= 2
