"""A table of three or four (``bezique serve``) for a player who uses a screen reader, in a real
headless Chromium: the cards, the other seats' hands, the stock and the melds are named in
words, and what changed (each seat's plays and melds, who won the trick, the card drawn, the
player's turn, the deal's end) is said once in the live regions that stay while the page is
redrawn, an error as an alert; as the two-seat game does (test_web_a11y.py).

Without a Chromium the browser tests are skipped, unless ``BEZIQUE_REQUIRE_BROWSER=1``."""

from __future__ import annotations

import re
from typing import Any

from live_site import TIMEOUT_MS, press

CARD = r"(ace|ten|king|queen|jack|nine|eight|seven) of (spades|hearts|diamonds|clubs)"
SYMBOLS = re.compile("[♠♥♦♣]")
MY_MOVE = ("v => document.body.dataset.version !== v && "
           "!!(document.querySelector('.seat.me.my-turn') || document.querySelector('#summary'))")
# the page as it is, in one look (each look is a round trip to the browser)
LOOK = """() => ({ version: document.body.dataset.version,
  meld_tag: !!document.querySelector('.meld-tag'), summary: !!document.querySelector('#summary'),
  meld: !!document.querySelector("#declare [data-action^='meld']"),
  pass: !!document.querySelector('#pass') })"""
# every text put in the polite live region (say() empties it first: those are left out)
HEARD = """() => {
  window.heard = [];
  const live = document.getElementById("live");
  new MutationObserver(() => { if (live.textContent) window.heard.push(live.textContent); })
    .observe(live, { childList: true, characterData: true, subtree: true });
}"""


def _table(chromium: Any, site: str, errors: list[str]) -> Any:
    """Ann alone with two computers at a table of three (deal 5: she leads first)."""
    page = chromium.new_context(viewport={"width": 1200, "height": 900}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(site + "/")
    page.wait_for_selector("#start-table")
    page.evaluate("""async () => {
      const g = await api("/api/games", { variant: "bezique3", name: "Ann", level: 1, seed: 5,
        seats: [{ kind: "computer", level: 1 }, { kind: "computer", level: 1 }] });
      Saved.set(g.id, g.token, g.seat, null);
      location.hash = `#/game/${g.id}`;
    }""")
    page.wait_for_selector(".seat.me.my-turn #hand button.card.playable")
    return page


def _move(page: Any, look: dict[str, Any] | None = None) -> None:
    """One move: the first meld, else the draw, else the first playable card; then the view
    in which it is Ann's move again (or the deal is over).  (``look``: the page as it is, by
    :data:`LOOK`, if looked at already.)"""
    look = look or page.evaluate(LOOK)
    if look["meld"]:
        press(page, "#declare [data-action^='meld']")
    elif look["pass"]:
        press(page, "#pass")
    else:
        press(page, "#hand button.card.playable, #my-table button.card.playable")
    page.wait_for_function(MY_MOVE, arg=look["version"])


def _spoken(text: str) -> str:
    """A sentence of the server's with its cards in words (as app.js's spoken())."""
    ranks = {"A": "ace", "10": "ten", "K": "king", "Q": "queen", "J": "jack", "9": "nine",
             "8": "eight", "7": "seven"}
    suits = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs"}
    return re.sub(r"(10|[AKQJ987])([♠♥♦♣])", lambda m: f"{ranks[m[1]]} of {suits[m[2]]}", text)


def _names(page: Any) -> list[str]:
    snap = page.locator("main").aria_snapshot()
    return re.findall(r'- (?:button|img|figure) "([^"]*)"', snap)


def test_a_tables_cards_hands_stock_and_melds_have_names_in_words(
        fast_site: str, browser: Any) -> None:
    errors: list[str] = []
    page = _table(browser, fast_site, errors)
    hand = page.get_by_role("button", name=re.compile(rf"^Play {CARD}$"))
    assert hand.count() == 8 == page.locator("#hand button.card").count()
    # each other seat's hand: one picture with its count, not eight unnamed backs to step through
    for name in page.evaluate("() => current.view.game.names.slice(1)"):
        assert page.get_by_role("img", name=f"{name} holds 8 cards", exact=True).count() == 1
    assert page.get_by_role("img", name="face-down card").count() == 0
    assert page.get_by_role("img", name="online").count() == 3  # (not a green dot only)
    stock = re.compile(rf"^Stock: \d+ cards; turn-up {CARD}$")
    assert page.get_by_role("img", name=stock).count() == 1
    names = _names(page)
    assert names and not [n for n in names if SYMBOLS.search(n)], names
    # play on until a meld is on the table: its tag says its cards in words
    # (a chosen deal number: the computers' moves are the same on every run, see
    # test_web_tables_help.py's practice table)
    for _ in range(60):
        look = page.evaluate(LOOK)
        if look["meld_tag"] or look["summary"]:
            break
        _move(page, look)
    assert page.query_selector(".meld-tag"), "no meld on the table in this deal"
    tag = page.locator(".meld-tag").first
    words = rf": {CARD}(, {CARD})*( \(broken: a card of it was played\))?\.$"
    assert re.search(words, tag.text_content() or ""), tag.text_content()
    assert not SYMBOLS.search(tag.locator(".visually-hidden").text_content() or "")
    names = _names(page)
    assert not [n for n in names if SYMBOLS.search(n)], names
    assert not errors, errors


def test_what_changed_at_a_table_is_said_once_in_live_regions(
        fast_site: str, browser: Any) -> None:
    errors: list[str] = []
    page = _table(browser, fast_site, errors)
    page.wait_for_function(
        "() => document.getElementById('live').textContent.startsWith('Your lead')")
    live = page.evaluate_handle("() => document.getElementById('live')")
    page.evaluate(HEARD)
    _move(page)  # Ann leads; both computers play; one of the three won the trick
    page.wait_for_function(  # (the player's turn again: said last)
        "() => window.heard.some((t) => /Your lead|declare a meld|Play any card|Play to /.test(t))")
    log = page.evaluate("() => current.view.deal.log")
    assert page.evaluate("l => l === document.getElementById('live') && l.isConnected", live)
    heard = " ".join(page.evaluate("() => window.heard"))
    assert not SYMBOLS.search(heard), heard
    names = page.evaluate("() => current.view.game.names")
    plays = [_spoken(re.sub(r"(;| and won).*", "", e["text"])) for e in log
             if e["seat"] != 0 and re.search(" (led|played) ", e["text"])]
    assert len(plays) >= 2, log
    for play in plays:  # each computer's card, in words, said once
        assert re.search(rf" (led|played) {CARD}$", play) and heard.count(play) == 1, (play, heard)
    assert len(re.findall(rf"(played|led) {CARD}", heard)) == len(plays), heard
    winner = page.evaluate("() => current.view.deal.last_trick.winner")
    who = "You" if winner == 0 else names[winner]
    won = rf"{re.escape(who)} (played {CARD} and )?won the trick"
    assert len(re.findall(won, heard)) == 1, heard
    assert re.search(r"(Your lead|declare a meld, or draw|Play any card to)", heard), heard
    # the status and the message are not live regions made afresh at each redraw
    assert page.get_attribute("#status", "aria-live") is None
    assert page.get_attribute("#msg", "role") is None
    # an error is said as an alert, its cards in words
    page.evaluate("() => current.act('play ZZ')")
    page.wait_for_function("() => document.getElementById('live-alert').textContent.length > 0")
    alert = page.inner_text("#live-alert")
    assert alert and alert[:20] == page.inner_text("#msg")[:20] and not SYMBOLS.search(alert)
    assert not errors, errors


# two views of a table of three (or four, in partnership), the second changed by each kind of
# change, and what BezSpeech.tableNews says of them
NEWS = """() => {
  const log = (...t) => t.map(([seat, text]) => ({ seat, text }));
  const view = (version, deal, game) => ({
    game: Object.assign({ version, deal: 1, you: 0, names: ["Ann", "Bo", "Cy"], winner: null,
                          partnership: false, waiting_for: 0,
                          seats: [{ seat: 0 }, { seat: 1 }, { seat: 2 }] }, game),
    deal: Object.assign({ log: [], trick: [], last_trick: null, drew: null, phase: "lead",
                          your_turn: false, scores: [0, 0, 0], side_scores: null }, deal) });
  const a = view(3, { log: log([0, "You led Q♠"]) });
  const b = view(5, { log: log([0, "You led Q♠"], [1, "Bo played K♠"],
                               [2, "Cy played 10♠; Bo won the trick"]) });
  const c = view(7, { log: b.deal.log.concat(log([1, "Bo declared royal marriage K♥ Q♥ (+40)"],
                                                 [1, "Bo drew from the stock"],
                                                 [2, "Cy drew from the stock"],
                                                 [0, "You drew from the stock"])),
                      drew: "7H" });
  const d = view(9, { log: c.deal.log.concat(log([1, "Bo led A♣"], [2, "Cy played 7♣"])),
                      drew: "7H", your_turn: true, phase: "follow" });
  const e = view(10, { log: d.deal.log.concat(log([0, "You played 10♣ and won the trick"])),
                       drew: "7H", your_turn: true, phase: "declare" });
  const f = view(11, { log: e.deal.log.concat(log([0, "You declared bezique Q♠ J♦ (+40)"])),
                       drew: "7H", your_turn: true, phase: "declare" });
  const g = view(12, { log: f.deal.log, phase: "over", scores: [250, 130, 90] });
  const p1 = view(4, { log: log([0, "You led K♠"], [1, "Bo played 9♠"], [2, "Cy played A♠"]) },
                  { names: ["Ann", "Bo", "Cy", "Di"], partnership: true });
  const offered = [2, "Cy offered the declaring turn to the partner"];
  const p2 = view(5, { log: p1.deal.log.concat(log([3, "Di played 7♠; Cy won the trick"], offered)),
                       your_turn: true, phase: "declare" },
                  { names: ["Ann", "Bo", "Cy", "Di"], partnership: true });
  const p3 = view(6, { log: p2.deal.log, phase: "over", side_scores: [320, 180] },
                  { names: ["Ann", "Bo", "Cy", "Di"], partnership: true });
  const s = (v, t) => BezSpeech.tableNews(v[0], v[1], t);
  return [s([a, b], "Bo to play…"), s([b, c], "Bo to play…"), s([c, d], "Play any card to A♣."),
          s([d, e], "You won the trick: declare a meld, or draw."),
          s([e, f], "You won the trick: declare a meld, or draw."), s([f, g], "Deal 1 is over."),
          s([g, g], "Deal 1 is over."), s([f, c], "Bo to play…"), s([null, a], "Your lead."),
          s([p1, p2], "Your partner won the trick and offered you the declaring turn."),
          s([p2, p3], "Deal 1 is over.")];
}"""


def test_the_news_of_a_table_view_in_words(fast_site: str, browser: Any) -> None:
    """The announcement of each kind of change at a table (BezSpeech.tableNews, two views)."""
    page = browser.new_context().new_page()
    page.goto(fast_site + "/")
    page.wait_for_selector("#start-table")
    assert page.evaluate(NEWS) == [
        "Bo played K♠. Cy played 10♠. Bo won the trick.",  # each seat's card, the winner
        # a meld; the others' draws are not news, the player's is the card
        "Bo declared royal marriage K♥ Q♥ (+40). You drew 7♥.",
        "Bo led A♣. Cy played 7♣. Play any card to A♣.",  # the player's turn
        "You won the trick: declare a meld, or draw.",  # (the winner said once, by the status)
        "You declared bezique Q♠ J♦ (+40). You won the trick: declare a meld, or draw.",
        "Deal 1 is over. You 250, Bo 130, Cy 90.",  # the deal's end, each seat's points
        "",  # nothing changed: nothing said
        "Undone.",
        "Your lead.",
        "Di played 7♠. Cy won the trick. Cy offered the declaring turn to the partner. "
        "Your partner won the trick and offered you the declaring turn.",
        "Deal 1 is over. Your side 320, their side 180.",  # in partnership: the sides
    ]
