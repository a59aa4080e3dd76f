"""House rules in the browser: a new game may choose the rule options of RULES.md 6 and 9.7 (as
`bezique play -o name=value` does), every seat's view says which were chosen, and a bad option
is refused with the engine's own message and starts nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_web import make_client, new_game


def _view(client: Any, game: dict[str, Any]) -> dict[str, Any]:
    r = client.post(f"/api/games/{game['id']}/state", json={"token": game["token"]})
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()
    return view


def test_a_game_of_two_plays_by_the_options_chosen(tmp_path: Path) -> None:
    with make_client(tmp_path / "g.db") as client:
        g = new_game(client, opponent="friend", target=1500,
                     options={"last_trick": "stock", "seven": "played"})
        live = client.app.state.manager.get(g["id"])  # type: ignore[attr-defined]
        rules = live.game.rules
        assert (rules.last_trick, rules.seven, rules.target) == ("stock", "played", 1500)
        assert _view(client, g)["game"]["options"] == {"target": 1500, "last_trick": "stock",
                                                       "seven": "played"}
        # the friend who joins sees the same house rules
        j = client.post(f"/api/games/{g['id']}/join", json={"invite": g["invite"]}).json()
        assert _view(client, {"id": g["id"], "token": j["token"]})["game"]["options"] == (
            _view(client, g)["game"]["options"])


def test_a_table_takes_options_besides_its_partnership(tmp_path: Path) -> None:
    with make_client(tmp_path / "g.db") as client:
        g = new_game(client, variant="bezique4",
                     options={"four_hand_end": "duels", "partner_bezique": "either"})
        rules = client.app.state.manager.get(g["id"]).game.rules  # type: ignore[attr-defined]
        assert (rules.four_hand_end, rules.partner_bezique, rules.partnership) == (
            "duels", "either", True)
        assert _view(client, g)["game"]["options"] == {"partner_bezique": "either",
                                                       "four_hand_end": "duels"}


def test_a_game_with_no_options_says_none(tmp_path: Path) -> None:
    with make_client(tmp_path / "g.db") as client:
        assert _view(client, new_game(client))["game"]["options"] == {}


def test_a_bad_option_is_refused_and_starts_nothing(tmp_path: Path) -> None:
    with make_client(tmp_path / "g.db") as client:
        for options, words in (({"last_trik": "stock"}, "unknown option 'last_trik'"),
                               ({"seven": "sometimes"}, "option 'seven' must be one of"),
                               ({"target": 500}, "give the target as 'target'"),
                               ({"carte_blanche_repeat": False}, "does not apply to bezique"),
                               ("last_trick=stock", "'options' must be an object")):
            r = client.post("/api/games", json={"options": options})
            assert r.status_code == 400 and words in r.json()["error"], (options, r.text)
        assert client.app.state.manager.store.count() == 0  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- in the browser


def test_house_rules_typed_on_the_home_page_are_played_and_shown(
        fast_site: str, browser: Any) -> None:
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    page.set_default_timeout(15000)
    page.goto(fast_site + "/")
    page.click("details:has(#house-rules) summary")
    page.fill("#house-rules", "last_trik=stock")  # misspelt: refused, no game starts
    page.click("#start-computer")
    page.wait_for_selector(".msg.error")
    assert "unknown option 'last_trik'" in page.inner_text(".msg.error")
    assert "#/game/" not in page.url
    # the game's length has a control of its own: the message says which (it quoted the API)
    page.fill("#house-rules", "target=300")
    page.click("#start-computer")
    page.wait_for_function("() => document.querySelector('.msg.error').textContent"
                           ".includes('Play to')")
    assert "#/game/" not in page.url
    page.fill("#house-rules", "last_trick=stock seven=played")
    page.click("#start-computer")
    page.wait_for_selector("#house-rules-shown")
    assert page.inner_text("#house-rules-shown") == (
        "House rules: seven=played, last_trick=stock")  # (in the order of RULES.md 6)
    # a table takes them too
    page.goto(fast_site + "/")
    page.click("details:has(#house-rules) summary")
    page.fill("#house-rules", "four_hand_end=duels")
    page.select_option("#tvariant", "bezique4")
    page.click("#start-table")
    page.wait_for_selector("#house-rules-shown")
    assert page.inner_text("#house-rules-shown") == "House rules: four_hand_end=duels"
