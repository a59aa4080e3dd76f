"""The browser's tables of three and four (RULES.md 9.4, 9.5) as a player reads them: the deal's
log names who won each trick; a game won on the count of brisques against a higher total says
why (RULES.md 2.6 counted in playing order from the dealer's left); and the scoreboard of four
seats and two sides fits its column on a desktop screen without a sideways scroll."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_fourhanded import deal4, win_trick

from bezique import Rules, State
from bezique.scoring import sides
from bezique.web.seats import TABLE
from bezique.web.store import GameRow
from bezique.web.tableview import table_view

NAMES = ["North", "East", "South", "West"]


def _row(n: int) -> GameRow:
    return GameRow(id="t", created=0, updated=0, opponent=TABLE, level=1, agent_spec="random",
                   agent_seed=0, seed=0, token_hashes=["a"] * n, invite_hash=None,
                   names=NAMES[:n], record={}, version=3,
                   seats=[{"kind": "you"}] + [{"kind": "friend", "invite": "x"}] * (n - 1))


def _view(state: State, seat: int) -> dict[str, Any]:
    n = state.rules.nplayers
    return table_view(state.observation(seat), _row(n), 1, [True] * n, [])


def test_the_log_says_who_won_each_trick() -> None:
    """Seat 2 takes a trick of four with the ace of trumps, played second: the trick's last
    line in every seat's log names the winner, as "you" on the winner's own page."""
    s = deal4({2: ["AH"]})
    win_trick(s, 2)
    assert s.current_player() == 2 and s.phase == "declare"
    for seat in range(4):
        log = [e["text"] for e in _view(s, seat)["deal"]["log"]]
        assert len(log) == 4 and log[0].startswith(("North led", "You led"))
        who = "you" if seat == 2 else "South"
        assert log[-1].endswith(f"; {who} won the trick"), log
        assert sum("won the trick" in t for t in log) == 1
    # five tricks on: one line per trick names its winner, in order
    rng = random.Random(1)
    while s.trick_count < 5:
        s.apply_action(rng.choice(s.legal_actions()))
    obs = s.observation(0)
    said = []
    for e in _view(s, 0)["deal"]["log"]:
        if e["text"].endswith(" and won the trick"):
            said.append(e["seat"])
        elif e["text"].endswith(" won the trick"):
            who = e["text"].rsplit("; ", 1)[1].split(" won the trick")[0]
            said.append(0 if who == "you" else NAMES.index(who))
    assert said == [t.winner for t in obs.tricks]


def _finished(variant: str, seed: int) -> State:
    rules = Rules.preset(variant, target=150)
    state = State.new_deal(rules, seed, dealer=seed % rules.nplayers)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("variant", "seed", "reason"), [
    ("bezique4", 2, "No side had 150 before the brisques, so they were counted, in turn from "
                    "the dealer's left: East's brisques took their side to 150 first."),
    ("bezique3", 210, "Nobody had 150 before the brisques, so they were counted, in turn from "
                      "the dealer's left: East's brisques took them to 150 first."),
])
def test_a_game_won_on_the_count_against_a_higher_total_says_why(variant: str, seed: int,
                                                                 reason: str) -> None:
    state = _finished(variant, seed)
    winner = state.winner
    assert winner == 1
    final = list(state.scores)
    tally = list(sides(final)) if state.partner(0) >= 0 else final
    assert max(tally) >= tally[winner] and tally.count(tally[winner]) + sum(
        x > tally[winner] for x in tally) > 1  # a higher or an equal total did not win
    view = _view(state, 0)
    assert view["game"]["winner"] == 1 and view["game"]["win_reason"] == reason
    mine = _view(state, 1)["game"]["win_reason"]
    assert mine is not None and ": your brisques took " in mine


def test_no_reason_is_given_when_the_highest_total_wins() -> None:
    for seed in range(40):
        state = _finished("bezique4", seed)
        if state.winner is None:
            assert _view(state, 0)["game"]["win_reason"] is None
            continue
        a, b = state.side_scores()
        if (a > b) == (state.winner == 0) and a != b:
            assert _view(state, 0)["game"]["win_reason"] is None
            return
    pytest.fail("no game won by the higher total among the seeds")


@pytest.mark.parametrize("width", [1200, 900])
def test_the_scoreboard_of_four_seats_fits_its_column(fast_site: str, browser: Any,
                                                      width: int) -> None:
    """Four seats and two sides, with four-figure totals: the table stays inside its panel
    and the page does not scroll sideways (it used to overflow the 250-pixel column)."""
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.set_default_timeout(15000)
    page.goto(fast_site + "/")
    page.fill("#name", "Ann")
    page.select_option("#tvariant", "bezique4")
    page.click("#start-table")
    page.wait_for_selector("#scores")
    page.evaluate("() => document.querySelectorAll('#scores tbody td:not(:first-child)')"
                  ".forEach(td => { td.textContent = '1990'; })")
    box = page.evaluate("""() => {
        const t = document.querySelector('#scores'), p = t.closest('.panel');
        const cs = getComputedStyle(p);
        return {table: t.getBoundingClientRect().right,
                panel: p.getBoundingClientRect().right - parseFloat(cs.paddingRight),
                page: document.documentElement.scrollWidth, view: innerWidth}; }""")
    assert box["table"] <= box["panel"] + 0.5, box
    assert box["page"] <= box["view"], box
    page.close()
