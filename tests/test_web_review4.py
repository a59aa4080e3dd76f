"""What a fourth review of the browser game found, each kept fixed: the "Record" link carried the
seat's token in its address (and so did the replay's request and the WebSocket's), where it
lands in the browser's history and the server's logs; the two-player log did not say who won
each trick, as the table's does; after a table's game ended, the seats the computer had taken
over still said "away · the computer plays"; a person away who pressed "Next deal" was only
welcomed back and had to press again; and the hints' "why" was given only in the game of two,
though a person alone with computers at a table gets hints.  The browser test drives a real
Chromium (as in test_web_e2e: skipped without one, unless BEZIQUE_REQUIRE_BROWSER)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from live_site import checked_page

from bezique import State
from bezique.agents.explain import explain
from bezique.cards import card_symbol
from bezique.game import Game
from bezique.observation import Observation
from bezique.rules import Rules
from bezique.web.app import STATIC_FILES, create_app
from bezique.web.live import LiveGame
from bezique.web.store import GameRow
from bezique.web.tableview import view_for
from bezique.worlds import resample_from_infostate

HTTP = httpx.Client()
STATIC = Path(__file__).resolve().parent.parent / "src" / "bezique" / "web" / "static"


def _app(tmp_path: Path) -> FastAPI:
    return create_app(tmp_path / "g.db", workers=0, games_per_minute=0, pages_per_minute=0)


def _finish_deal(client: Any, gid: str, tokens: list[str], seed: int = 1) -> None:
    """Both seats of a friends' game play random legal moves until the deal is over (through
    ``client``, a TestClient or an httpx.Client on the site)."""
    rng = random.Random(seed)
    while True:
        moved = False
        for token in tokens:
            v = client.post(f"/api/games/{gid}/state", json={"token": token}).json()
            if v["deal"]["phase"] == "over":
                return
            if v["deal"]["your_turn"]:
                r = client.post(f"/api/games/{gid}/act", json={
                    "token": token, "type": "action", "version": v["game"]["version"],
                    "action": rng.choice(v["deal"]["legal"])})
                assert r.status_code == 200, r.text
                moved = True
        assert moved


# ---------------------------------------------------------------------- 1. no token in an address


def test_the_record_and_the_replay_take_the_token_in_the_body_only(tmp_path: Path) -> None:
    """GET .../record?token=... put the seat's token in an address; the record and the replay
    are now asked for with the token in the body (POST), and no address takes it."""
    with TestClient(_app(tmp_path)) as client:
        g = client.post("/api/games", json={"opponent": "friend", "variant": "bezique",
                                            "name": "Ann"}).json()
        j = client.post(f"/api/games/{g['id']}/join", json={"invite": g["invite"]}).json()
        url = f"/api/games/{g['id']}"
        mid = client.post(f"{url}/record", json={"token": g["token"]})
        assert mid.status_code == 409 and "no deal" in mid.json()["error"]
        _finish_deal(client, g["id"], [g["token"], j["token"]])
        rec = client.post(f"{url}/record", json={"token": g["token"]})
        assert rec.status_code == 200, rec.text
        assert "attachment" in rec.headers["content-disposition"]
        assert rec.json()["deals"] and g["token"] not in rec.text
        rep = client.post(f"{url}/replay", json={"token": j["token"]}).json()
        assert rep["you"] == 1 and len(rep["deals"]) == 1
        for what in ("record", "replay"):  # no address carries a token any more
            r = client.get(f"{url}/{what}", params={"token": g["token"]})
            assert r.status_code == 405, r.text
            assert client.post(f"{url}/{what}", json={"token": "x"}).status_code == 403


def test_the_socket_takes_the_token_in_its_first_message(tmp_path: Path) -> None:
    """The page's WebSocket had the token in its address; it now sends it first, as a hello."""
    with TestClient(_app(tmp_path)) as client:
        g = client.post("/api/games", json={"opponent": "computer", "name": "Ann"}).json()
        with client.websocket_connect(f"/ws/{g['id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": g["token"]}))
            first = ws.receive_json()
            assert first["type"] == "state" and first["game"]["you"] == 0
            ws.send_text(json.dumps({"type": "hint", "ref": 7}))
            assert ws.receive_json()["ref"] == 7
        with client.websocket_connect(f"/ws/{g['id']}") as ws:  # a wrong token: refused
            ws.send_text(json.dumps({"type": "hello", "token": "guessed"}))
            m = ws.receive_json()
            assert m["type"] == "error" and m["fatal"] and "does not hold a seat" in m["message"]
        with client.websocket_connect(f"/ws/{g['id']}") as ws:  # no hello: said why, closed
            ws.send_text(json.dumps({"type": "hint"}))
            m = ws.receive_json()
            assert m["type"] == "error" and m["fatal"] and '"hello"' in m["message"]


def test_the_page_puts_no_token_in_a_query() -> None:
    """No script of the page builds an address with ``?token=`` (record, replay, socket); a
    seat's own link keeps it after ``#`` (never sent to the server)."""
    for name in STATIC_FILES:
        text = (STATIC / name).read_text(encoding="utf-8")
        assert "?token=" not in text and "token=${" not in text, name


# ---------------------------------------------------------------------- 2. who won each trick


def test_the_two_player_log_says_who_won_each_trick() -> None:
    """The table's log said "...; Bob won the trick" at each trick's last card; the game of two
    said only who led and who played."""
    game = Game(Rules.preset("bezique"), seed=5)
    rng = random.Random(5)
    st = game.state
    for _ in range(60):
        st.apply(rng.choice(st.legal_action_strings()))
    row = GameRow(id="g", created=0, updated=0, opponent="friend", level=1, agent_spec="",
                  agent_seed=0, seed=1, token_hashes=["a", "b"], invite_hash=None,
                  names=["Ann", "Bob"], record={}, version=0)
    obs = st.observation(0)
    for seat in (0, 1):
        log = view_for(LiveGame(row, game), seat, [True, True])["deal"]["log"]
        plays = [e for e in log if re.match(r"\w+ (led|played) ", e["text"])]
        follows = [e for e in plays if " played " in e["text"]]
        # the log's last tricks (up to 40 actions): each second card says who won it
        tricks = obs.tricks[len(obs.tricks) - len(follows):]
        assert follows and len(tricks) == len(follows)
        for e, t in zip(follows, tricks, strict=True):
            who = "You" if e["seat"] == seat else row.names[e["seat"]]
            if t.winner == e["seat"]:
                assert e["text"] == f"{who} played {card_symbol(t.follow)} and won the trick"
            else:
                winner = "you" if t.winner == seat else row.names[t.winner]
                assert e["text"] == f"{who} played {card_symbol(t.follow)}; {winner} won the trick"
        assert all("won" not in e["text"] for e in plays if " led " in e["text"])


# ---------------------------------------------------------------------- 3, 4. away at a table


def _table_row(nplayers: int = 3, away: bool = True) -> GameRow:
    seats = [{"kind": "you", "away": False}, {"kind": "friend", "away": away}] + [
        {"kind": "computer", "level": 1, "spec": "random"}] * (nplayers - 2)
    return GameRow(id="t", created=0, updated=0, opponent="table", level=1, agent_spec="random",
                   agent_seed=0, seed=1, token_hashes=["a", "b"] + [None] * (nplayers - 2),
                   invite_hash=None, names=["Ann", "Bob", "Computer 3"][:nplayers], record={},
                   version=0, seats=seats)


def test_a_seat_taken_over_says_nothing_of_the_computer_once_the_game_is_over() -> None:
    """After the game's end, a seat the computer had taken over still read "away · the
    computer plays": nobody plays it any more."""
    game = Game(Rules.preset("bezique3", target=100), seed=2)
    row = _table_row()
    live = LiveGame(row, game)
    assert view_for(live, 0, [True, False, True])["game"]["seats"][1]["away"] is True
    rng = random.Random(2)
    while not game.is_over():
        if game.state.is_terminal():
            game.next_deal()
        game.apply(rng.choice(game.state.legal_action_strings()))
    for seat in (0, 1):
        v = view_for(live, seat, [True, False, True])
        assert v["game"]["winner"] is not None
        assert not any(s["away"] for s in v["game"]["seats"])
    js = (STATIC / "table.js").read_text(encoding="utf-8")
    assert 'if (info.away) return h("span", { class: "seat-tag away" }, "away · the computer' in js


def test_next_deal_pressed_while_away_brings_the_person_back_and_deals(tmp_path: Path) -> None:
    """A person marked away who pressed "Next deal" was told "welcome back..." and had to press
    again: one press now does both."""
    app = _app(tmp_path)
    with TestClient(app) as client:
        g = client.post("/api/games", json={"variant": "bezique3", "name": "Ann",
                                            "seats": [{"kind": "computer", "level": 1}] * 2,
                                            "seed": 3}).json()
        gid, token = g["id"], g["token"]
        manager = app.state.manager
        live = manager.get(gid)
        rng = random.Random(3)
        while not live.game.state.is_terminal():  # the deal played to its end at once
            live.apply(rng.choice(live.game.state.legal_action_strings()))
        manager._save(live)
        assert client.post(f"/api/games/{gid}/act",
                           json={"token": token, "type": "leave"}).status_code == 200
        v = client.post(f"/api/games/{gid}/state", json={"token": token}).json()
        assert v["game"]["seats"][0]["away"] and v["deal"]["phase"] == "over"
        r = client.post(f"/api/games/{gid}/act", json={"token": token, "type": "next",
                                                       "version": v["game"]["version"]})
        assert r.status_code == 200, r.text
        after = client.post(f"/api/games/{gid}/state", json={"token": token}).json()
        assert after["game"]["deal"] == 2 and not after["game"]["seats"][0]["away"]
        # any other press from the away seat still only brings them back (its view was old)
        client.post(f"/api/games/{gid}/act", json={"token": token, "type": "leave"})
        r = client.post(f"/api/games/{gid}/act", json={"token": token, "type": "undo"})
        assert r.status_code == 409 and "welcome back" in r.json()["error"]


# ---------------------------------------------------------------------- 5. why, at a table


def test_the_why_of_a_hint_is_given_at_a_table_of_one_person_and_computers(
        tmp_path: Path) -> None:
    """POST .../explain answered "hints are only available against the computer" at a table,
    though a person alone with computers gets hints there; with another person, still no."""
    app = _app(tmp_path)
    with TestClient(app) as client:
        g = client.post("/api/games", json={"variant": "bezique4", "name": "Ann", "seed": 4,
                                            "seats": [{"kind": "computer", "level": 1}] * 3}
                        ).json()
        v = client.post(f"/api/games/{g['id']}/state", json={"token": g["token"]}).json()
        assert v["deal"]["your_turn"]  # (seat 0 leads the first trick)
        obs = app.state.manager.get(g["id"]).game.state.observation(0)
        for action in v["deal"]["legal"]:
            r = client.post(f"/api/games/{g['id']}/explain",
                            json={"token": g["token"], "action": action})
            assert r.status_code == 200, r.text
            assert r.json()["why"] == explain(obs, action) and r.json()["why"]
        f = client.post("/api/games", json={"variant": "bezique3", "name": "Ann",
                                            "seats": [{"kind": "friend"},
                                                      {"kind": "computer"}]}).json()
        r = client.post(f"/api/games/{f['id']}/explain",
                        json={"token": f["token"], "action": "play QS"})
        assert r.status_code == 409 and "you and the computer" in r.json()["error"]


SYMBOL = re.compile(r"(?:10|[AKQJ987])[♠♥♦♣]")
TAKERS = re.compile(r"only [^:;]*? can take it")  # what the other hands may hold, counted


def _seen(obs: Observation) -> set[str]:
    """The cards the seat sees: its hand, every seat's shown and known cards, the trick, the
    turn-up and the tricks played."""
    cards = set(obs.hand) | set(obs.trick)
    for s in range(obs.rules.nplayers):
        cards.update(obs.shown[s], obs.known_cards[s])
    for t in obs.tricks:
        cards.update(t.cards)
    if obs.turnup is not None:
        cards.add(obs.turnup)
    return {card_symbol(c) for c in cards}


def _counted(obs: Observation) -> set[str]:
    """The cards the seat counts the other hands may hold: unseen, or shown or known there."""
    pool = set(obs.unseen())
    for s in range(obs.rules.nplayers):
        if s != obs.seat:
            pool.update(obs.shown[s], obs.known_cards[s])
    return {card_symbol(c) for c in pool}


@pytest.mark.parametrize("variant,options", [("bezique3", {}), ("bezique4", {}),
                                             ("bezique4", {"partnership": False})])
def test_the_why_at_a_table_names_only_cards_the_seat_may_know_of(
        variant: str, options: dict[str, Any]) -> None:
    """Every card a table's "why" names is one the seat sees, or (in "only A♠ can take it")
    one it counts the other hands may hold; and the words are the same whatever the hidden
    cards are, dealt afresh as the seat cannot tell."""
    rng = random.Random(len(variant) + len(options))
    st = State.new_deal(Rules.preset(variant, **options), seed=9, dealer=0)
    asked = 0
    while not st.is_terminal():
        seat = st.current_player()
        if rng.random() < 0.2:
            obs = st.observation(seat)
            other = resample_from_infostate(st, seat, random.Random(asked)).observation(seat)
            for action in rng.sample(obs.legal, min(3, len(obs.legal))):
                why = explain(obs, action)
                asked += 1
                assert why == explain(other, action)
                for sentence in why:
                    takers = TAKERS.findall(sentence)
                    for clause in takers:
                        named = set(SYMBOL.findall(clause))
                        assert named <= _counted(obs), (sentence, named - _counted(obs))
                    named = set(SYMBOL.findall(TAKERS.sub("", sentence)))
                    assert named <= _seen(obs), (sentence, named - _seen(obs))
        st.apply(rng.choice(st.legal_action_strings()))
    assert asked > 20


# ---------------------------------------------------------------------- in a browser


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page; no page may raise an error."""
    with checked_page(browser, accept_downloads=True) as pg:
        yield pg


def test_the_page_opens_no_address_with_the_token_and_saves_the_record(
        served: tuple[str, FastAPI], page: Any) -> None:
    """The page's socket, its requests, the replay and the record's download: none has the
    seat's token in its address; the record is saved as a file all the same."""
    site, _ = served
    g = HTTP.post(f"{site}/api/games", json={"opponent": "friend", "name": "Ann"}).json()
    j = HTTP.post(f"{site}/api/games/{g['id']}/join", json={"invite": g["invite"]}).json()
    with httpx.Client(base_url=site) as client:
        _finish_deal(client, g["id"], [g["token"], j["token"]])
    opened: list[str] = []
    page.on("request", lambda r: opened.append(r.url))
    page.on("websocket", lambda w: opened.append(w.url))
    page.goto(f"{site}/#/game/{g['id']}/{g['token']}")
    page.wait_for_selector("#next-deal")
    with page.expect_download() as saved:
        page.click(".tools [data-record]")
    record = json.loads(Path(saved.value.path()).read_text(encoding="utf-8"))
    assert saved.value.suggested_filename == f"bezique-{g['id']}.json" and record["deals"]
    page.goto(f"{site}/#/replay/{g['id']}")
    page.wait_for_selector("text=step 0 of")
    page.goto(f"{site}/#/games")
    page.wait_for_selector(f"#games [data-record='{g['id']}']")
    with page.expect_download():
        page.click(f"#games [data-record='{g['id']}']")
    assert any("/ws/" in u for u in opened) and any("/replay" in u for u in opened)
    assert not [u for u in opened if g["token"] in u.split("#")[0]]


def test_a_table_of_one_person_and_computers_explains_its_hints(
        served: tuple[str, FastAPI], page: Any) -> None:
    """At a table the hint lit its card but never said why, and "Explain hints" was not
    offered there: it is now, as in the game of two."""
    site, _ = served
    g = HTTP.post(f"{site}/api/games", json={
        "variant": "bezique3", "name": "Ann", "seed": 4,
        "seats": [{"kind": "computer", "level": 1}] * 2}).json()
    page.goto(f"{site}/#/game/{g['id']}/{g['token']}")
    page.wait_for_selector("#hand button.playable")
    page.check("#explain")
    page.click("#hint")
    page.wait_for_function("() => document.querySelector('#msg').textContent.includes('Why: ')")
    assert page.query_selector("#hand button.hinted")
