"""End to end in a real headless Chromium: start a game against the computer, play cards by
clicking until a trick is won, declare a meld, reload, and find the game where it was.

Without a Chromium the test is skipped, unless ``BEZIQUE_REQUIRE_BROWSER=1`` (CI sets it): then a
missing browser is an error, so the test can never be skipped silently there."""

from __future__ import annotations

from typing import Any

from live_site import TIMEOUT_MS, press

from bezique.cards import KING, QUEEN, card_name, make_card
from bezique.game import Game
from bezique.rules import Rules


def seed_with_a_marriage() -> tuple[int, list[str]]:
    """The first deal number whose first deal gives seat 0 a king and queen of one suit."""
    rules = Rules.preset("bezique")
    for seed in range(1000):
        hand = Game(rules, seed=seed).state.hand(0)
        for suit in range(4):
            k, q = make_card(KING, suit), make_card(QUEEN, suit)
            if k in hand and q in hand:
                return seed, [card_name(k), card_name(q)]
    raise AssertionError("no deal with a marriage in 1000 seeds")  # pragma: no cover


CARDS_OF = "els => els.map(e => e.dataset.card)"


def _table(page: Any) -> dict[str, Any]:
    return {
        "hand": page.eval_on_selector_all("#hand button.card", CARDS_OF),
        "mine": page.eval_on_selector_all("#my-table .card", CARDS_OF),
        "scores": page.inner_text("#scores"),
        "stock": page.inner_text("#stock-count"),
        "trump": page.inner_text("#trump"),
    }


def _wait_for_my_move(page: Any, after: str) -> None:
    """Wait for a newer view than ``after`` in which it is my move (or the deal is over)."""
    page.wait_for_function(
        "v => document.body.dataset.version !== v && "
        "(document.querySelector('.seat.me.my-turn') || document.querySelector('#summary'))",
        arg=after, timeout=TIMEOUT_MS)



def practice_game(page: Any, site_url: str, seed: int) -> None:
    """From the home page, a practice game against level 1 with deal number ``seed``, open at
    the player's first move."""
    page.goto(site_url + "/")
    page.select_option("#level", "1")
    page.click("details:has(#seed) summary")
    page.fill("#seed", str(seed))
    page.click("#start-computer")
    page.wait_for_selector("#hand button.card.playable")


def test_play_in_the_browser_declare_a_meld_and_reload(site: str, browser: Any) -> None:
    seed, marriage = seed_with_a_marriage()
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # console errors include any Content-Security-Policy refusal (all assets are the site's own)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_default_timeout(TIMEOUT_MS)
    practice_game(page, site, seed)
    start_hand = _table(page)["hand"]
    assert set(marriage) <= set(start_hand)

    # play cards (never the king and queen) by clicking until a trick is won
    won = False
    for _ in range(40):
        version = page.evaluate("document.body.dataset.version")
        if page.query_selector("#declare [data-action^='meld']"):
            won = True
            break
        if page.query_selector("#pass"):  # won a trick with no meld yet offered: draw
            page.click("#pass")
        else:
            cards = page.query_selector_all("#hand button.card.playable")
            pick = next(c for c in cards if c.get_attribute("data-card") not in marriage)
            pick.click()
        page.mouse.move(0, 0)  # (the hand leaves the card: live_site.press)
        _wait_for_my_move(page, version)
    assert won, "no trick won in 40 moves"
    assert page.text_content("#trick-caption") == "You won the last trick"

    # declare the marriage
    meld = page.query_selector(f"#declare [data-action='meld {' '.join(marriage)}']")
    assert meld is not None, page.inner_text("#declare")
    points = 40 if page.inner_text("#trump").endswith(
        {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[marriage[0][1]]) else 20
    before = page.evaluate("document.body.dataset.version")
    meld.click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=before)
    page.wait_for_selector("#my-table")
    shown = _table(page)["mine"]
    assert sorted(shown) == sorted(marriage)
    assert f"This deal\t{points}" in page.inner_text("#scores")
    assert "marriage" in page.inner_text(".seat.me .meld-tags")
    here = _table(page)

    # reload: the same game, where it was
    page.reload()
    page.wait_for_selector("#hand button.card")
    assert _table(page) == here
    # and it is in the list of your games
    page.goto(site + "/#/games")
    page.wait_for_selector("#games a.btn")
    assert "vs Computer (level 1 beginner)" in page.inner_text("#games")
    page.click("#games a.btn")
    page.wait_for_selector("#hand button.card")
    assert _table(page) == here
    assert not errors, errors


# what the next move is chosen by, in one look at the page (each look is a round trip)
LOOK = """() => ({
  version: document.body.dataset.version,
  settlement: !!document.querySelector('#settlement'),
  play_again: !!document.querySelector('#play-again'),
  next_deal: !!document.querySelector('#next-deal'),
  declare: [...document.querySelectorAll('#declare [data-action]')].map((e) => e.dataset.action),
})"""
# the broken melds shown: folded into one line when many, else faded tags with their legend
BROKEN = """() => {
  const folded = document.querySelector('.broken-melds');
  if (folded) return { folded: document.querySelector('.broken-melds > summary').innerText };
  const tag = document.querySelector('.meld-tag.broken');
  const legend = !!document.querySelector('.meld-tags .legend');
  return tag ? { tag: tag.innerText, legend } : null;
}"""
MY_MOVE = ("v => document.body.dataset.version !== v && "
           "!!(document.querySelector('.seat.me.my-turn') || document.querySelector('#summary'))")


def _step(page: Any, seen: dict[str, int], look: dict[str, Any]) -> None:
    """Make one move a person would make (``look``: the page as it is, by :data:`LOOK`): the
    next deal, a meld, or the first playable card."""
    if look["next_deal"]:
        press(page, "#next-deal")
    elif look["declare"]:
        # with nothing to declare the page draws by itself: a lone "Draw" is never offered
        assert look["declare"] != ["pass"], look["declare"]
        press(page, "#declare [data-action]")
    else:
        press(page, "#hand button.card.playable, #my-table button.card.playable")
    broken = page.evaluate(BROKEN)
    if broken and "folded" in broken:  # many broken melds, folded into one line
        seen["broken"] += 1
        assert "a card of each was played" in broken["folded"]
    elif broken:
        seen["broken"] += 1
        assert "a card was played" in broken["tag"]
        assert broken["legend"]
    page.wait_for_function(MY_MOVE, arg=look["version"], timeout=TIMEOUT_MS)


def test_friend_waits_then_a_whole_game_ends_with_its_deals_and_play_again(
        site: str, browser: Any) -> None:
    import httpx

    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(TIMEOUT_MS)
    # a game for a friend: nobody plays before the friend sits; the link's limits are explained
    page.goto(site + "/")
    page.click("#start-friend")
    page.wait_for_selector("#invite")
    assert "Waiting for your friend" in page.inner_text("#status")
    assert page.query_selector(".seat.me.my-turn") is None
    assert page.query_selector("#hand button.card.playable") is None
    assert page.query_selector(".turn-flag") is None
    page.wait_for_selector("#loopback-note")
    # a short game against the computer, played to its end by clicks
    g = httpx.post(site + "/api/games", json={"opponent": "computer", "level": 1,
                                              "target": 100, "seed": 4}).json()
    page.goto(f"{site}/#/game/{g['id']}/{g['token']}")
    page.wait_for_selector("#hand button.card")
    seen = {"broken": 0}
    for _ in range(400):
        look = page.evaluate(LOOK)
        if look["play_again"]:
            break
        _step(page, seen, look)
    assert page.query_selector("#play-again"), "the game did not end in 400 moves"
    rows = page.eval_on_selector_all("#final-scores tbody tr", "els => els.map(e => e.innerText)")
    assert rows[0].startswith("Deal 1") and rows[-1].startswith("Final score")
    assert "win" in page.inner_text("#winner")
    assert page.inner_text("#status") == "Game over."  # the winner once, in the banner
    old = page.url
    page.click("#play-again")
    page.wait_for_function("u => location.href !== u", arg=old)
    page.wait_for_selector("#hand button.card")
    assert page.query_selector("#play-again") is None
    assert not errors, errors


def test_a_whole_rubicon_game_in_the_browser(site: str, browser: Any) -> None:
    """Issue #13: Rubicon against the computer in the browser, one deal to its settlement: no
    turn-up, trumps 'not yet fixed' until a marriage, the settlement in words at the end."""
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(site + "/")
    page.select_option("#level", "1")
    page.select_option("#cvariant", "rubicon")
    page.click("#start-computer")
    page.wait_for_selector("#hand button.card")
    assert "not yet fixed" in page.inner_text("#trump")
    assert len(_table(page)["hand"]) == 9
    seen = {"broken": 0}
    for _ in range(400):
        look = page.evaluate(LOOK)
        if look["settlement"]:
            break
        _step(page, seen, look)
    assert " = " in page.inner_text("#settlement")
    if "draw" not in page.inner_text("#winner").lower():  # which number is which
        assert page.inner_text("#settlement-legend").startswith("The winner's ")
    assert page.query_selector("#play-again") and not page.query_selector("#next-deal")
    assert not errors, errors
