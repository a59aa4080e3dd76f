"""Play again at a table of three or four, and the phone's view of a table of four.

"Play again" at a friends' table gave the new game's links only to whoever pressed it.  Now the
first to press starts the next game at the same table, every person's open page is told and
offered their own seat in it, and each seat is given its own token only (made from that seat's
token in the finished game), never another's.  At 390 px a table of four put its third other
seat alone on a row; the three now share one row.  And the two-seat page's cut-bonus words
took 150 and 250 from the page itself; the view now gives them, from the engine's constants.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient
from live_site import TIMEOUT_MS
from test_web import Seat
from test_web_tables import TableScan, create, table_client
from ws_helpers import open_seat

from bezique.position import CUT_24, CUT_GUESSED
from bezique.web.app import create_app
from bezique.web.manager import Manager

FRIEND, COMPUTER = {"kind": "friend"}, {"kind": "computer", "level": 2}
STATIC = Path(__file__).resolve().parent.parent / "src" / "bezique" / "web" / "static"


def finish(manager: Manager, gid: str) -> None:
    """Play the table's game to its end at once (random moves, in the server's memory): made
    while friends' seats are still empty, so that no computer moves meanwhile."""
    live = manager.get(gid)
    rng = random.Random(5)
    while not live.game.is_over():
        state = live.game.state
        if state.is_terminal():
            live.next_deal()
        else:
            live.apply(rng.choice(state.legal_action_strings()))
    manager._save(live)


def seated(post: Any, g: dict[str, Any], names: tuple[str, ...],
           site: str = "") -> dict[int, str]:
    """Each seat's token once the friends have sat (named in seat order); ``post`` is a test
    client's or httpx's (then on ``site``)."""
    tokens = {0: g["token"]}
    for link, name in zip(g["invites"], names, strict=True):
        r = post(f"{site}/api/games/{g['id']}/join", json={"invite": link["invite"],
                                                            "name": name})
        assert r.status_code == 200, r.text
        tokens[r.json()["seat"]] = r.json()["token"]
    return tokens


def test_play_again_at_a_friends_table_offers_each_person_their_own_seat(
        tmp_path: Path) -> None:
    scan = TableScan()
    sent: list[tuple[str, int, str]] = []
    with table_client(tmp_path / "g.db", scan) as client:
        manager: Manager = client.app.state.manager  # type: ignore[attr-defined]
        manager.send_hooks.append(lambda live, seat, msg: sent.append(
            (live.row.id, seat, json.dumps(msg))))
        # Ann, Bea, Computer 3 (Ann's partner) and Cy, to 100: the game is over
        g = create(client, variant="bezique4", partnership=True, target=100, name="Ann",
                   seats=[FRIEND, COMPUTER, FRIEND])
        gid = g["id"]
        finish(manager, gid)
        old = seated(client.post, g, ("Bea", "Cy"))
        with open_seat(client, gid, old[3]) as ws:
            cy = Seat(ws)
            assert cy.first()["game"]["next_game"] is None
            # Bea presses Play again: the next game starts, she at its seat 0 (she leads)
            r = client.post(f"/api/games/{gid}/again", json={"token": old[1]})
            assert r.status_code == 200, r.text
            bea = r.json()
            new = bea["id"]
            assert set(bea) == {"id", "seat", "token"} and bea["seat"] == 0 and new != gid
            # Cy's open page is told, without any token
            for _ in range(5):
                if cy.view["game"]["next_game"]:
                    break
                cy.recv()
            assert cy.view["game"]["next_game"] == {"id": new, "by": 1}
        # the table turned to Bea, everyone in their place around it (partners still across)
        view = client.post(f"/api/games/{new}/state", json={"token": bea["token"]}).json()
        game = view["game"]
        assert game["you"] == 0 and game["partnership"] is True and game["target"] == 100
        assert game["names"] == ["Bea", "Computer 2", "Cy", "Ann"]
        assert [s["kind"] for s in game["seats"]] == ["you", "computer", "friend", "friend"]
        assert game["seats"][1]["level"] == 2
        assert game["waiting_for"] == 2 and [s["kept"] for s in game["seats"]] == [
            True, False, True, True]
        assert view["deal"]["your_turn"] is False  # nobody plays before every seat is taken
        # each person takes their own seat with their own link to the last game
        cy2 = client.post(f"/api/games/{gid}/again", json={"token": old[3]}).json()
        ann = client.post(f"/api/games/{gid}/again", json={"token": old[0]}).json()
        assert (cy2["id"], cy2["seat"], ann["id"], ann["seat"]) == (new, 2, new, 3)
        tokens = {0: bea["token"], 2: cy2["token"], 3: ann["token"]}
        assert len(set(tokens.values()) | set(old.values())) == 6
        for seat, token in tokens.items():
            view = client.post(f"/api/games/{new}/state", json={"token": token}).json()
            assert view["game"]["you"] == seat
        assert view["game"]["waiting_for"] == 0
        # asking again gives the same seat and token, and starts no other game
        count = manager.store.count()
        again = client.post(f"/api/games/{gid}/again", json={"token": old[3]}).json()
        assert again == cy2 and manager.store.count() == count
        # the list of games points a seat of the finished table to the next game
        mine = client.post("/api/mine", json={"games": {gid: old[0]}}).json()["games"]
        assert mine[0]["next_game"] == new
    # no token ever went to a page: each was given only in its own seat's answer
    secrets = [*old.values(), *tokens.values()]
    leaked = [(g, s) for g, s, text in sent if any(t in text for t in secrets)]
    assert sent and not leaked, leaked
    assert not scan.problems, scan.problems[:5]


def test_play_again_is_refused_before_the_end_to_strangers_and_against_the_computer(
        tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "g.db", workers=0, games_per_minute=0)) as client:
        manager: Manager = client.app.state.manager  # type: ignore[attr-defined]
        g = create(client, variant="bezique3", name="Ann", seats=[FRIEND, COMPUTER])
        r = client.post(f"/api/games/{g['id']}/again", json={"token": g["token"]})
        assert r.status_code == 409 and "not over" in r.json()["error"]
        finish(manager, g["id"])
        r = client.post(f"/api/games/{g['id']}/again", json={"token": "forged"})
        assert r.status_code == 403
        # (two friends play again too: tests/test_web_friends_again.py; not before the end)
        two = client.post("/api/games", json={"opponent": "friend"}).json()
        r = client.post(f"/api/games/{two['id']}/again", json={"token": two["token"]})
        assert r.status_code == 409 and "not over" in r.json()["error"]
        one = client.post("/api/games", json={"opponent": "computer", "level": 1}).json()
        r = client.post(f"/api/games/{one['id']}/again", json={"token": one["token"]})
        assert r.status_code == 409 and "starting a new game" in r.json()["error"]
        seated(client.post, g, ("Bea",))
        r = client.post(f"/api/games/{g['id']}/again", json={"token": g["token"]})
        assert r.status_code == 200 and r.json()["seat"] == 0


def test_the_cut_bonus_words_take_their_points_from_the_view(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "g.db", workers=0, games_per_minute=0)) as client:
        g = client.post("/api/games", json={"opponent": "computer", "level": 1, "seed": 5,
                                            "variant": "sixpack",
                                            "options": {"cut_bonus": True}}).json()
        view = client.post(f"/api/games/{g['id']}/state", json={"token": g["token"]}).json()
    assert (view["deal"]["cut_guessed"], view["deal"]["cut_24"]) == (CUT_GUESSED, CUT_24)
    words = [line for line in (STATIC / "game.js").read_text().splitlines()
             if 'd.phase === "guess") return' in line]
    assert len(words) == 2 and all("${d.cut_24}" in line for line in words), words
    assert "${d.cut_guessed}" in words[1]
    assert not [line for line in words if re.search(r"\b(150|250)\b", line)], words


def test_every_page_at_the_table_is_offered_the_next_game_and_a_phone_shows_three_seats(
        served: tuple[str, Any], browser: Any) -> None:
    site, app = served
    g = httpx.post(site + "/api/games", json={
        "variant": "bezique4", "partnership": True, "target": 100, "name": "Ann",
        "seats": [FRIEND, COMPUTER, FRIEND]}).json()
    finish(app.state.manager, g["id"])
    old = seated(httpx.post, g, ("Bea", "Cy"), site)
    errors: list[str] = []
    pages = []
    for token, width in ((old[0], 1200), (old[1], 390)):
        page = browser.new_context(viewport={"width": width, "height": 844}).new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{site}/#/game/{g['id']}/{token}")
        page.wait_for_selector("#play-again")
        pages.append(page)
    ann, bea = pages
    # Ann presses Play again and is taken to the next game, which waits for Bea and Cy
    ann.click("#play-again")
    ann.wait_for_selector("#kept-seats")
    assert "Bea, Cy" in ann.inner_text("#kept-seats")
    # Bea's page is told, and offered her own seat in it
    bea.wait_for_selector("#next-game")
    assert bea.inner_text("#next-game").startswith("Ann started a new game at this table")
    bea.click("#take-next")
    bea.wait_for_function("id => current && current.view && current.view.game.id !== id",
                          arg=g["id"])
    assert bea.evaluate("current.view.game.you") == 1  # Bea keeps Ann's left
    ann.wait_for_function("() => current.view.game.waiting_for === 1")
    # on a phone the three other seats share one row
    tops = bea.eval_on_selector_all(".seat.other",
                                    "els => els.map(e => e.getBoundingClientRect().top)")
    assert len(tops) == 3 and max(tops) - min(tops) < 1, tops
    assert bea.evaluate("document.documentElement.scrollWidth") <= 390
    assert not errors, errors

