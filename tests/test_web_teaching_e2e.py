"""In a real headless Chromium (see test_web_e2e for how it is found): the full rules page,
a name kept in the browser, a hint that lights up its card and says why, cards that slide (not
under prefers-reduced-motion) with WebAudio sounds, the statistics page, and the tutorial."""

from __future__ import annotations

from typing import Any

from live_site import TIMEOUT_MS

from bezique.howto import section_titles

MY_MOVE = ("v => document.body.dataset.version !== v && (document.querySelector('.seat.me.my-turn')"
           " || document.querySelector('#summary'))")


def _move(page: Any, selector: str) -> None:
    version = page.evaluate("document.body.dataset.version")
    page.click(selector)
    page.wait_for_function(MY_MOVE, arg=version, timeout=TIMEOUT_MS)


def test_rules_name_hint_motion_statistics_and_tutorial(site: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900},
                            reduced_motion="no-preference")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_default_timeout(TIMEOUT_MS)

    # How to play: every section of the terminal's rules text, with card pictures
    page.goto(site + "/#/help")
    page.wait_for_selector("#rules h3")
    titles = page.eval_on_selector_all("#rules h3", "els => els.map(e => e.textContent)")
    assert titles == section_titles()
    assert page.query_selector("#rules .rules-cards img[alt='Q♠']")

    # a name, kept in this browser and shown at the table
    page.goto(site + "/")
    page.fill("#name", "Ann")
    page.select_option("#level", "1")
    page.evaluate("localStorage.setItem('bezique.explain', 'on');"
                  "localStorage.setItem('bezique.sound', 'on')")
    page.click("#start-computer")
    page.wait_for_selector("#hand button.card.playable")
    assert "Ann (you)" in page.inner_text(".seat.me .seat-head")
    assert page.evaluate("localStorage.getItem('bezique.name')") == "Ann"

    # the hint lights up what it suggests, and says why
    page.click("#hint")
    page.wait_for_selector(".seat.me .hinted")
    page.wait_for_function("() => document.querySelector('#msg').textContent.includes('Why:')")
    hinted = page.get_attribute(".seat.me .hinted", "data-action")
    assert hinted in page.inner_text("#msg") or hinted.split()[0] in ("play", "meld", "pass")

    # the card a hint names is found on the table too; the field hint_action, else action, else
    # the hint's words say which
    picks = page.evaluate("""() => {
      const view = { game: { you: 0 }, deal: {
        hand: [{ card: "KS", action: "play KS" }],
        table: [[{ card: "QD", action: "play QD*" }], []],
        melds_available: [{ action: "meld KS QS*", cards: ["KS", "QS"] }], specials: ["pass"] } };
      const pick = (m) => Teach.pick(Teach.target(m), view);
      return [pick({ text: "play Q♦" }), pick({ action: "play QD*", text: "" }),
              pick({ hint_action: "play QD", action: "play KS", text: "" }),
              pick({ text: "declare common marriage K♠ Q♠ for 20" }),
              pick({ hint_action: "pass", text: "" }), pick({ text: "draw without declaring" }),
              pick({ text: "play 10♣" })];
    }""")
    assert picks == ["play QD*", "play QD*", "play QD*", "meld KS QS*", "pass", "pass", None]

    # cards slide, sounds play
    _move(page, ".seat.me .hinted")
    page.wait_for_function("() => BezMotion.started > 0 && BezSound.played > 0")

    # the system asks for reduced motion: nothing moves (and the box says why)
    page.emulate_media(reduced_motion="reduce")
    page.evaluate("BezMotion.started = 0")
    for _ in range(2):
        if page.query_selector("#summary"):
            break
        _move(page, "#hand button.card.playable, #my-table button.card.playable,"
                    " #declare [data-action]")
    assert page.evaluate("BezMotion.started") == 0
    assert page.is_disabled("#motion")

    # statistics: this browser's games, with the win-rate chart
    page.goto(site + "/#/stats")
    page.wait_for_selector("#stats-table")
    assert "Ann" in page.inner_text("#stats-table")
    # a one-deal game's group gives its settlements beside the points a deal
    assert page.evaluate("() => [pointsCell({average_points: 85, settled: 2900}), "
                         "pointsCell({average_points: 85, settled: -1600}), "
                         "pointsCell({average_points: 122.5, settled: null})]") == [
        "85 · settled +2900", "85 · settled -1600", "122.5"]
    assert page.query_selector("svg.rate-chart")
    assert "unfinished" in page.inner_text("#recent")
    # one player's name: said once, above the table, not in a column of its own; and on a
    # phone the whole table fits the screen (its last columns were behind a sideways scroll)
    assert page.inner_text("#stats-table caption") == "Ann"
    assert "Player" not in page.inner_text("#stats-table thead")
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    page.wait_for_selector("#stats-table")
    assert page.evaluate("(t => t.scrollWidth <= t.clientWidth)"
                         "(document.getElementById('stats-table'))")
    page.set_viewport_size({"width": 1200, "height": 900})

    # the tutorial deal: a guide over a real table
    page.goto(site + "/#/tutorial")
    page.wait_for_selector("#tutorial")
    page.wait_for_selector("#hand button.card")
    assert "step 1" in page.inner_text("#tutorial")
    page.click("#tutorial-next")
    page.wait_for_function(
        "() => document.querySelector('#tutorial').textContent.includes('step 2')")
    first = page.evaluate("localStorage.getItem('bezique.tutorial')")
    page.goto(site + "/#/games")  # a second tutorial replaces the first in the list of games
    page.goto(site + "/#/tutorial")
    page.wait_for_function("v => localStorage.getItem('bezique.tutorial') !== v", arg=first)
    assert page.evaluate("Object.keys(Saved.all()).length") == 2  # Ann's game and the tutorial
    assert not errors, errors
