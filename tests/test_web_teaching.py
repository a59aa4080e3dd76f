"""``bezique serve``, issue 16 items 10, 13, 15, 16: the rules page's text, names in the
downloaded record, the statistics of the games a browser holds, and why a hint."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path

from test_web import Seat, make_client, new_game
from ws_helpers import open_seat

from bezique.agents.explain import explain
from bezique.howto import rules_html, section_titles
from bezique.record import record_players


def test_the_rules_page_is_the_terminals_text_and_loads_its_scripts(tmp_path: Path) -> None:
    with make_client(tmp_path / "g.db") as client:
        r = client.get("/api/rules").json()
        assert r["sections"] == section_titles() and r["html"] == rules_html()
        page = client.get("/").text
        for name in ("motion.js", "pages.js", "teach.js", "app.js"):
            assert f'src="/static/{name}"' in page
            got = client.get(f"/static/{name}")
            assert got.status_code == 200 and got.headers["content-type"].startswith(
                "text/javascript")
        assert client.get("/static/nope.js").status_code == 404
    for name in ("app.js", "pages.js", "teach.js", "motion.js"):  # each file stays small
        text = resources.files("bezique.web").joinpath("static", name).read_text("utf-8")
        assert text.count("\n") <= 600, name


def _finish(client: object, g: dict[str, object], rng: random.Random) -> dict[str, object]:
    with open_seat(client, str(g["id"]), str(g["token"])) as w:  # type: ignore[arg-type]
        me = Seat(w)
        me.first()
        for _ in range(3000):
            me.settle()
            v = me.view
            if v["game"]["winner"] is not None:
                return v
            if v["deal"]["phase"] == "over":
                me.request({"type": "next"})
            else:
                me.act(rng.choice(v["deal"]["legal"]))
    raise AssertionError("the game did not end")


def test_names_in_the_record_and_statistics_of_the_browsers_games(tmp_path: Path) -> None:
    rng = random.Random(4)
    with make_client(tmp_path / "g.db") as client:
        g = new_game(client, opponent="computer", level=1, target=100, seed=8, name="Ann")
        v = _finish(client, g, rng)
        assert v["game"]["names"][0] == "Ann"
        rec = client.post(f"/api/games/{g['id']}/record", json={"token": g["token"]}).json()
        assert record_players(rec, 2) == ("Ann", "Computer (level 1 beginner)")
        other = new_game(client, opponent="computer", level=2, target=100, seed=9, name="Ann")
        stranger = new_game(client, opponent="computer", level=1, seed=1, name="Bo")
        r = client.post("/api/stats", json={"games": {
            g["id"]: g["token"], other["id"]: other["token"], stranger["id"]: "not-the-token"}})
        assert r.status_code == 200
        groups = {(x["player"], x["against"]): x for x in r.json()["groups"]}
        assert set(groups) == {("Ann", "all"), ("Ann", "computer, level 1 (beginner)"),
                               ("Ann", "computer, level 2 (casual)")}
        everyone = groups[("Ann", "all")]
        assert everyone["games"] == 1 and everyone["games_won"] == int(v["game"]["winner"] == 0)
        assert everyone["deals"] == len(v["game"]["deal_scores"])
        mine = [s[0] for s in v["game"]["deal_scores"]]
        assert everyone["average_points"] == round(sum(mine) / len(mine), 1)
        assert len(everyone["rate_over_time"]) == 1
        assert len(r.json()["recent"]) == 2  # the game without its token is not counted
        assert client.post("/api/stats", json={"games": []}).status_code == 400


def test_why_a_hint_is_told_from_the_seats_observation(tmp_path: Path) -> None:
    with make_client(tmp_path / "g.db") as client:
        g = new_game(client, opponent="computer", level=1, seed=12)
        live = client.app.state.manager.games[g["id"]]  # type: ignore[attr-defined]
        with open_seat(client, g["id"], g["token"]) as w:
            me = Seat(w)
            me.first()
            me.settle()
            hint = me.request({"type": "hint"})
            assert hint["type"] == "hint"
            url = f"/api/games/{g['id']}/explain"
            r = client.post(url, json={"token": g["token"], "action": hint["action"]})
            assert r.status_code == 200, r.text
            obs = live.game.state.observation(0)
            assert r.json()["why"] == explain(obs, hint["action"]) and r.json()["why"]
            assert client.post(url, json={"token": g["token"], "action": "play XX"}
                               ).status_code == 409
            assert client.post(url, json={"token": "nope", "action": hint["action"]}
                               ).status_code == 403
            body = json.dumps({"token": g["token"], "action": "x" * 5000})
            assert client.post(url, content=body).status_code == 413
        f = new_game(client, opponent="friend", name="Ann")
        r = client.post(f"/api/games/{f['id']}/explain", json={"token": f["token"],
                                                               "action": "pass"})
        assert r.status_code == 409
