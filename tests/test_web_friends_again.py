"""Play again after a game of two friends.

"Play again" at the end of a game against a friend started a new game for whoever pressed it
and gave them an invitation link to copy and send.  Now it works as at the tables of three and
four: the first to press starts the next game (the same rules, they lead it), the friend's open
page (or their next visit to the finished game, or their list of games) is told and offered
their own seat in it, and each seat gets its own token only, never the other's; no link to send.
Against the computer, Play again still just starts the next game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient
from live_site import TIMEOUT_MS
from test_web import PrivacyScan, Seat
from test_web_tables_again import finish
from ws_helpers import open_seat

from bezique.web.app import create_app
from bezique.web.manager import Manager

Sent = list[tuple[str, int, str]]


def client_and_log(db: Path) -> tuple[TestClient, Manager, Sent, PrivacyScan]:
    """A test client whose every message to a page is checked (the two-seat privacy scan) and
    kept as text, with the game and seat it went to."""
    app = create_app(db, workers=0, games_per_minute=0, pages_per_minute=0)
    manager: Manager = app.state.manager
    scan, sent = PrivacyScan(), []
    manager.send_hooks.append(scan)
    manager.send_hooks.append(lambda live, seat, msg: sent.append(
        (live.row.id, seat, json.dumps(msg))))
    return TestClient(app), manager, sent, scan


def friends(post: Any, manager: Manager, site: str = "", **body: Any) -> tuple[str, list[str]]:
    """A game of Ann (seat 0) and Bea (seat 1) played to its end: its id and the two tokens
    (``post`` a test client's or httpx's, then on ``site``)."""
    r = post(f"{site}/api/games", json={"opponent": "friend", "name": "Ann", **body})
    assert r.status_code == 201, r.text
    g = r.json()
    j = post(f"{site}/api/games/{g['id']}/join", json={"invite": g["invite"], "name": "Bea"})
    assert j.status_code == 200, j.text
    finish(manager, g["id"])  # (no computer at a game of friends: nothing moves meanwhile)
    return g["id"], [g["token"], j.json()["token"]]


def test_play_again_after_a_game_of_two_friends_offers_the_friend_their_seat(
        tmp_path: Path) -> None:
    client, manager, sent, scan = client_and_log(tmp_path / "g.db")
    with client:
        gid, old = friends(client.post, manager, target=300, options={"last_trick": "stock"})
        before = client.post(f"/api/games/{gid}/state", json={"token": old[1]}).json()["game"]
        assert before["winner"] is not None and before["next_game"] is None
        with open_seat(client, gid, old[1]) as ws:
            bea_page = Seat(ws)
            assert bea_page.first()["game"]["next_game"] is None
            # Ann presses Play again: the next game starts, she at its seat 0 (she leads)
            r = client.post(f"/api/games/{gid}/again", json={"token": old[0]})
            assert r.status_code == 200, r.text
            ann = r.json()
            new = ann["id"]
            assert set(ann) == {"id", "seat", "token"} and ann["seat"] == 0 and new != gid
            # Bea's open page is told who started it, and its id: no token, no link
            while not bea_page.view["game"]["next_game"]:
                bea_page.recv()
            assert bea_page.view["game"]["next_game"] == {"id": new, "by": 0}
        # the same game again (variant, target, house rules), Bea's seat kept for her: no
        # invitation (the old one opens nothing), and nobody plays before she sits
        view = client.post(f"/api/games/{new}/state", json={"token": ann["token"]}).json()
        game = view["game"]
        assert (game["opponent"], game["variant"], game["target"], game["options"]) == (
            "friend", before["variant"], 300, before["options"])
        assert game["options"]["last_trick"] == "stock"
        assert game["names"] == ["Ann", "Bea"] and game["you"] == 0
        assert game["waiting_for_friend"] and game["kept"] and not view["deal"]["your_turn"]
        assert manager.get(new).row.invite_hash is None
        r = client.post(f"/api/games/{new}/join", json={"invite": "guess", "name": "Eve"})
        assert r.status_code == 403
        with open_seat(client, new, ann["token"]) as ws:
            ann_page = Seat(ws)
            first = ann_page.first()
            assert first["game"]["waiting_for_friend"]
            assert ann_page.request({"type": "action", "action": first["deal"]["legal"][0]})[
                "message"].startswith("wait for your friend")
            # Bea's next visit to the finished game offers it too; she takes her seat with her
            # own link to that game
            again = client.post(f"/api/games/{gid}/state", json={"token": old[1]}).json()
            assert again["game"]["next_game"] == {"id": new, "by": 0}
            bea = client.post(f"/api/games/{gid}/again", json={"token": old[1]}).json()
            assert (bea["id"], bea["seat"]) == (new, 1)
            # Ann's page hears that Bea sat: her move
            while ann_page.view["game"]["waiting_for_friend"]:
                ann_page.recv()
            assert ann_page.view["deal"]["your_turn"]
        view = client.post(f"/api/games/{new}/state", json={"token": bea["token"]}).json()
        assert view["game"]["you"] == 1 and not view["game"]["waiting_for_friend"]
        assert len({*old, ann["token"], bea["token"]}) == 4
        # asking again gives the same seat and token, and starts no other game
        count = manager.store.count()
        assert client.post(f"/api/games/{gid}/again", json={"token": old[1]}).json() == bea
        assert client.post(f"/api/games/{gid}/again", json={"token": old[0]}).json() == ann
        assert manager.store.count() == count
        # each one's list of games points the finished game to the next
        for token in old:
            mine = client.post("/api/mine", json={"games": {gid: token}}).json()["games"]
            assert mine[0]["next_game"] == new
        mine = client.post("/api/mine", json={"games": {new: bea["token"]}}).json()["games"]
        assert mine[0]["next_game"] is None and not mine[0]["waiting_for_friend"]
        # the new game plays on as any other: Ann leads
        legal = client.post(f"/api/games/{new}/state",
                            json={"token": ann["token"]}).json()["deal"]["legal"]
        r = client.post(f"/api/games/{new}/act", json={"token": ann["token"], "type": "action",
                                                       "action": legal[0]})
        assert r.status_code == 200, r.text
    # no token went to any page: each was given only in its own seat's answer
    tokens = [*old, ann["token"], bea["token"]]
    leaked = [(g, s) for g, s, text in sent if any(t in text for t in tokens)]
    assert sent and not leaked, leaked
    assert scan.checked and not scan.problems, scan.problems[:5]


def test_the_friend_may_start_it_and_a_one_deal_game_too_but_not_the_computer(
        tmp_path: Path) -> None:
    client, manager, sent, scan = client_and_log(tmp_path / "g.db")
    with client:
        gid, old = friends(client.post, manager, variant="rubicon")
        # Bea (seat 1) presses first: the game turns to her; Ann is offered her seat
        bea = client.post(f"/api/games/{gid}/again", json={"token": old[1]}).json()
        assert bea["seat"] == 0
        view = client.post(f"/api/games/{gid}/state", json={"token": old[0]}).json()
        assert view["game"]["next_game"] == {"id": bea["id"], "by": 1}
        ann = client.post(f"/api/games/{gid}/again", json={"token": old[0]}).json()
        assert (ann["id"], ann["seat"]) == (bea["id"], 1)
        game = client.post(f"/api/games/{ann['id']}/state",
                           json={"token": ann["token"]}).json()["game"]
        assert (game["variant"], game["names"], game["you"]) == ("rubicon", ["Bea", "Ann"], 1)
        # not before the end, nor for a stranger
        r = client.post(f"/api/games/{ann['id']}/again", json={"token": ann["token"]})
        assert r.status_code == 409 and "not over" in r.json()["error"]
        assert client.post(f"/api/games/{gid}/again", json={"token": "x"}).status_code == 403
        # against the computer Play again is a new game (POST /api/games): nothing is kept
        c = client.post("/api/games", json={"opponent": "computer", "level": 1}).json()
        count = manager.store.count()
        r = client.post(f"/api/games/{c['id']}/again", json={"token": c["token"]})
        assert r.status_code == 409 and "new game" in r.json()["error"]
        assert manager.store.count() == count
    tokens = [*old, ann["token"], bea["token"]]
    assert not [(g, s) for g, s, text in sent if any(t in text for t in tokens)]
    assert not scan.problems, scan.problems[:5]


def test_the_friends_page_is_offered_the_next_game_in_the_browser(
        served: tuple[str, Any], browser: Any) -> None:
    site, app = served
    gid, old = friends(httpx.post, app.state.manager, site, target=300)
    errors: list[str] = []
    pages = []
    for token in old:
        page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{site}/#/game/{gid}/{token}")
        page.wait_for_selector("#play-again")
        pages.append(page)
    ann, bea = pages
    # Ann presses Play again and is taken to the next game, which waits for Bea: no link
    ann.click("#play-again")
    ann.wait_for_selector("#kept-seats")
    assert ann.inner_text("#kept-seats").startswith("Bea is still to come from the last game")
    assert ann.query_selector("#invite-link") is None
    # Bea's page is told, and offered her own seat in it
    bea.wait_for_selector("#next-game")
    assert bea.inner_text("#next-game").startswith("Ann started a new game")
    bea.click("#take-next")
    bea.wait_for_function("id => current && current.view && current.view.game.id !== id",
                          arg=gid)
    assert bea.evaluate("current.view.game.you") == 1
    ann.wait_for_selector(".seat.me.my-turn")
    assert ann.query_selector("#invite") is None
    # Ann's list of games offers her seat in the next game from the finished one
    new = ann.evaluate("current.view.game.id")
    ann.goto(f"{site}/#/games")
    ann.click(f"button[data-next='{gid}']")
    ann.wait_for_function("id => current && current.view && current.view.game.id === id",
                          arg=new)
    assert not errors, errors
