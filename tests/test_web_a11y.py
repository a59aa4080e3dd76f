"""``bezique serve`` for a player who uses only the keyboard or a screen reader, in a real
headless Chromium: the cards and piles have names in words ("Play queen of spades"), what
changed is said once in live regions that stay while the page is redrawn, a hint is shown in
words as well as by colour, a keyboard player keeps their place when the page changes, the
pages fit a phone's width and a page zoomed to 200 %, and the front end's scripts stay small.

Without a Chromium the browser tests are skipped, unless ``BEZIQUE_REQUIRE_BROWSER=1``."""

from __future__ import annotations

import json
import random
import re
from importlib import resources
from pathlib import Path
from typing import Any

from live_site import TIMEOUT_MS, served_at
from test_web import Seat, make_client, new_game
from test_web_e2e import practice_game, seed_with_a_marriage
from ws_helpers import open_seat

from bezique.web.app import create_app

CARD = r"(ace|ten|king|queen|jack|nine|eight|seven) of (spades|hearts|diamonds|clubs)"
SYMBOLS = re.compile("[♠♥♦♣]")
FOCUSED_NAME = "() => document.activeElement.getAttribute('aria-label')"


def _page(chromium: Any, errors: list[str], width: int = 1200, height: int = 900) -> Any:
    page = chromium.new_context(viewport={"width": width, "height": height}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(TIMEOUT_MS)
    return page


def test_each_script_the_page_loads_is_served_and_small(tmp_path: Path) -> None:
    static = resources.files("bezique.web").joinpath("static")
    scripts = sorted(p.name for p in static.iterdir() if p.name.endswith(".js"))
    with make_client(tmp_path / "g.db") as client:
        page = client.get("/").text
        loaded = re.findall(r'<script src="/static/([^"]+)"></script>', page)
        assert sorted(loaded) == scripts and loaded[-1] == "app.js"  # app.js starts the routing
        for name in scripts:
            assert client.get(f"/static/{name}").status_code == 200, name
            assert static.joinpath(name).read_text("utf-8").count("\n") <= 600, name
    # the live regions are outside the part of the page that is redrawn
    main = page.index('<main id="app"')
    assert page.index('id="live"') > main and page.index('id="live-alert"') > main
    assert 'aria-live="polite"' in page and 'role="alert"' in page


def test_cards_and_piles_have_names_in_words(site: str, browser: Any) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    seed, _ = seed_with_a_marriage()
    practice_game(page, site, seed)
    hand = page.get_by_role("button", name=re.compile(rf"^Play {CARD}$"))
    assert hand.count() == 8
    # eight face-down cards are one picture with a count, not eight pictures to step through
    assert page.get_by_role("img", name="Computer holds 8 cards").count() == 1
    assert page.get_by_role("img", name="face-down card").count() == 0
    assert page.get_by_role("img", name="online").count() == 2  # (not a green dot only)
    stock = re.compile(rf"^Stock: 47 cards; turn-up {CARD}$")
    assert page.get_by_role("img", name=stock).count() == 1
    page.keyboard.press("1")  # lead: the computer answers, and its card is on the table
    page.wait_for_selector("#trick figure:nth-of-type(2)")
    trick = page.locator("#trick").aria_snapshot()
    assert len(re.findall(rf'img "{CARD}"', trick, re.I)) == 2, trick
    snap = page.locator("main").aria_snapshot()
    names = re.findall(r'- (?:button|img|figure) "([^"]*)"', snap)
    assert names and not [n for n in names if SYMBOLS.search(n)], snap
    assert not errors


def test_what_changed_is_said_once_in_live_regions(site: str, browser: Any) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    seed, _ = seed_with_a_marriage()
    practice_game(page, site, seed)
    page.wait_for_function(
        "() => document.getElementById('live').textContent.startsWith('Your lead')")
    live = page.evaluate_handle("() => document.getElementById('live')")
    page.keyboard.press("1")
    # the computer's card, in words, then the trick's winner
    page.wait_for_function(
        "() => / (played|led) (ace|ten|king|queen|jack|nine|eight|seven) of /"
        ".test(document.getElementById('live').textContent)")
    assert page.evaluate("l => l === document.getElementById('live') && l.isConnected", live)
    said = page.inner_text("#live")
    assert not SYMBOLS.search(said) and said.count("Computer") <= 2, said
    # the status is not a live region made afresh at each redraw (a screen reader says nothing)
    assert page.get_attribute("#status", "aria-live") is None
    # an error is said as an alert
    page.wait_for_selector(".seat.me.my-turn")
    page.evaluate("() => current.act('play ZZ')")
    page.wait_for_function("() => document.getElementById('live-alert').textContent.length > 0")
    alert = page.inner_text("#live-alert")
    assert alert.startswith("'ZZ' is not") and alert[:20] == page.inner_text("#msg")[:20]
    assert not SYMBOLS.search(alert), alert  # (its cards in words)
    assert not errors


# two views, the second changed by each kind of change, and what BezSpeech.news says of them
NEWS = """() => {
  const log = (...t) => t.map(([seat, text]) => ({ seat, text }));
  const view = (version, deal) => ({
    game: { version, deal: 1, you: 0, names: ["Ann", "Bo"], winner: null },
    deal: Object.assign({ log: [], trick: [], last_trick: null, drew: null, phase: "lead",
                          your_turn: false, one_deal: false, scores: [0, 0] }, deal) });
  const a = view(3, { log: log([0, "You led Q♠"]), trick: [{ seat: 0, card: "QS" }] });
  const b = view(4, { log: log([0, "You led Q♠"], [1, "Bo played K♠"]),
                      last_trick: { leader: 0, winner: 1, lead: "QS", follow: "KS" } });
  const c = view(5, { log: b.deal.log.concat(log([1, "Bo drew from the stock"],
                                                 [0, "You drew from the stock"])),
                      last_trick: b.deal.last_trick, drew: "7H", your_turn: true,
                      phase: "follow" });
  const d = view(6, { log: c.deal.log.concat(log([0, "You declared royal marriage K♥ Q♥ (+40)"])),
                      your_turn: true, phase: "declare" });
  const e = view(7, { log: d.deal.log, phase: "over", scores: [250, 130] });
  const s = (v, t) => BezSpeech.news(v[0], v[1], t);
  return [s([a, b], "Bo to play…"), s([b, c], "Play any card to J♣."),
          s([c, d], "Declare or draw."), s([d, e], "Deal 1 is over."),
          s([e, e], "Deal 1 is over."), s([d, c], "Your lead."), s([null, a], "Your lead."),
          spoken("Bo played 10♦ and A♣")];
}"""


def test_the_news_of_a_view_in_words(site: str, browser: Any) -> None:
    """The announcement of each kind of change (made by BezSpeech.news from two views)."""
    page = _page(browser, [])
    page.goto(site + "/")
    page.wait_for_selector("#start-computer")
    news = page.evaluate(NEWS)
    assert news == [
        "Bo played K♠. Bo won the trick.",
        "Bo drew from the stock. You drew 7♥. Play any card to J♣.",
        "You declared royal marriage K♥ Q♥ (+40). Declare or draw.",  # a meld scored
        "Deal 1 is over. You 250, Bo 130.",  # the deal's end, with the scores
        "",  # nothing changed: nothing said
        "Undone. Your lead.",
        "Your lead.",
        "Bo played ten of diamonds and ace of clubs",  # (what say() puts in the live region)
    ]


def test_a_hint_is_shown_in_words_not_by_colour_only(site: str, browser: Any) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.emulate_media(reduced_motion="reduce")  # (no lift: the hinted card does not move)
    seed, _ = seed_with_a_marriage()
    practice_game(page, site, seed)
    page.keyboard.press("h")
    page.wait_for_selector(".hinted")
    badge = page.locator(".hinted .hint-badge")
    assert badge.is_visible() and badge.inner_text().lower() == "hint"
    hinted = page.get_by_role("button", name=re.compile(r"\(the hint\)$"))
    assert hinted.count() == 1 and hinted.get_attribute("data-action") == page.get_attribute(
        ".hinted", "data-action")
    assert not errors


def test_a_keyboard_player_goes_on_in_the_new_page(site: str, browser: Any) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(site + "/")
    page.wait_for_selector("#start-computer")
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == "start-computer":
            break
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand button.card.playable")
    # the pressed button has gone: the focus is in the new page, not lost to the document
    assert page.evaluate("() => document.getElementById('app').contains(document.activeElement)")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "hint"
    assert not errors


def test_every_page_fits_a_phone_and_a_page_zoomed_to_200_percent(site: str, browser: Any) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    seed, _ = seed_with_a_marriage()
    practice_game(page, site, seed)  # (a game for the statistics and the list of games)
    game = page.url
    pages = [(site + "/#/", "#start-computer"), (game, "#hand button.card"),
             (site + "/#/help", "#rules[data-sections]"), (site + "/#/stats", "#stats-table"),
             (site + "/#/games", "#games li .btn")]
    for width in (320, 640):  # 320: a small phone (and 400 %); 640: a laptop's page at 200 %
        page.set_viewport_size({"width": width, "height": 700})
        for url, ready in pages:
            page.goto(url)
            page.wait_for_selector(ready)
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= width, (width, url, wide)
    assert not errors


def _luminance(rgb: tuple[float, float, float]) -> float:
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2])


def test_a_broken_meld_is_readable(site: str, browser: Any) -> None:
    """A broken meld's tag (a card of it was played) keeps a readable contrast (4.5:1)."""
    page = _page(browser, [])
    seed, _ = seed_with_a_marriage()
    practice_game(page, site, seed)
    color, opacity = page.evaluate("""() => {
      const tag = document.createElement("span");
      tag.className = "meld-tag broken"; tag.textContent = "marriage 20";
      document.querySelector(".seat.me").append(tag);
      const s = getComputedStyle(tag);
      return [s.color, +s.opacity];
    }""")
    fg = tuple(float(x) for x in re.findall(r"[\d.]+", color)[:3])
    felt = (0x0F * 0.84, 0x5C * 0.84, 0x3A * 0.84)  # the felt under a seat's shade
    seen = tuple(opacity * f + (1 - opacity) * b for f, b in zip(fg, felt, strict=True))
    ratio = (_luminance(seen) + 0.05) / (_luminance(felt) + 0.05)
    assert ratio >= 4.5, ratio


def test_the_focused_card_is_not_under_the_next_one_on_a_phone(site: str, browser: Any) -> None:
    page = _page(browser, [], width=375, height=800)  # (a phone's hand: the cards overlap)
    seed, _ = seed_with_a_marriage()
    practice_game(page, site, seed)
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.dataset.where") == "hand":
            break
    # the focused card and its ring are drawn over the card beside it
    assert page.evaluate("""() => {
      const el = document.activeElement, r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(r.right - 3, r.top + r.height / 2));
    }""")


def test_the_tutorial_says_each_step(site: str, browser: Any) -> None:
    page = _page(browser, [])
    page.goto(site + "/#/tutorial")
    page.wait_for_selector("#tutorial-next")
    page.wait_for_function(
        "() => document.getElementById('live').textContent.startsWith('Tutorial, step 1:')")
    page.keyboard.press("Tab")  # (a keyboard player)
    page.focus("#tutorial-next")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.getElementById('live').textContent.startsWith('Tutorial, step 2:')")
    assert page.get_attribute("#tutorial", "aria-live") is None  # (made afresh: never heard)


def test_the_replay_by_keyboard_says_each_step(tmp_path: Path, browser: Any) -> None:
    db, rng = tmp_path / "g.db", random.Random(2)
    with make_client(db) as client:  # a deal played to its end, by the protocol
        g = new_game(client, opponent="computer", level=1, seed=5, name="Ann")
        with open_seat(client, g["id"], g["token"]) as w:
            me = Seat(w)
            me.first()
            for _ in range(3000):
                me.settle()
                if me.view["deal"]["phase"] == "over":
                    break
                me.act(rng.choice(me.view["deal"]["legal"]))
    saved = json.dumps({g["id"]: {"token": g["token"], "seat": g["seat"], "invite": None}})
    with served_at(create_app(db, computer_delay=0.05)) as url:
        page = _page(browser, [])
        page.goto(url + "/")
        page.evaluate("s => localStorage.setItem('bezique.games', s)", saved)
        page.goto(f"{url}/#/replay/{g['id']}")
        page.wait_for_selector("#replay-step")
        assert page.query_selector("#replay-deal") is None  # one deal: nothing to choose
        for _ in range(30):
            page.keyboard.press("Tab")
            if page.evaluate(FOCUSED_NAME) == "next step":
                break
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.getElementById('live').textContent.includes('play')")
        said = page.inner_text("#live")
        assert re.search(CARD, said) and not re.search(r"\b[AKQJT987][SHDC]\b", said), said
        # what the eye reads is a sentence too, not the protocol's "Ann: play QS"
        step = page.inner_text("#replay-step")
        assert re.search(r"^\S+ (plays|declares|draws) ", step) and ":" not in step.split()[0]
        assert not re.search(r"\b[AKQJT987][SHDC]\b", step), step
        page.keyboard.press("Enter")  # the button keeps the focus as the page is redrawn
        page.keyboard.press("Enter")
        assert page.inner_text(".replay-controls .pos").startswith("step 3 of")
        assert page.evaluate(FOCUSED_NAME) == "next step"


def test_the_home_and_invitation_controls_have_names_of_their_own(site: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(site + "/")
    page.wait_for_selector("#start-friend")
    for name in ("Game against the computer", "Play to against the computer",
                 "Game with a friend", "Play to with a friend"):
        assert page.get_by_role("combobox", name=name, exact=True).count() == 1, name
    page.click("#start-friend")
    link = page.get_by_role("textbox", name="Invitation link", exact=True)
    link.wait_for()
    assert "/#/join/" in link.input_value()
    page.click("#copy-invite")  # copied: said and shown
    page.wait_for_function("() => document.getElementById('live').textContent.includes('copied')")
    assert "copied" in page.inner_text("#msg")
