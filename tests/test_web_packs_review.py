"""Six- and Eight-pack in the browser as a player reads them (RULES.md 9.0.4, 9.2, 9.3): the
deal's log names carte blanche and the cut bonus's guess (both read "drew from the stock"), the
hand shown for carte blanche is shown to the opponent, the replay says what the cut scored and
names each meld; the long deals' broken melds fold into one line (on a phone they pushed the
hand a screen below the trick); the cut's hint is highlighted; and the tables of three and four
can be set to a length other than 2000."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
from live_site import TIMEOUT_MS

from bezique import Rules, State
from bezique.cards import card_name
from bezique.record import game_record
from bezique.web.live import COMPUTER
from bezique.web.replay import replay_frames
from bezique.web.store import GameRow
from bezique.web.views import build_view

ROW = GameRow(id="g", created=0, updated=0, opponent=COMPUTER, level=1, agent_spec="",
              agent_seed=0, seed=1, token_hashes=["a", "b"], invite_hash=None,
              names=["Ann", "Computer (level 1 beginner)"], record={}, version=0)


def _log(state: State, seat: int) -> list[str]:
    view = build_view(state.observation(seat), ROW, 1, [True] * 2)
    return [e["text"] for e in view["deal"]["log"]]


def test_the_log_names_carte_blanche_and_shows_its_hand_to_the_opponent() -> None:
    s = next(st for st in (State.new_deal(Rules.preset("sixpack"), seed=i) for i in range(5000))
             if "carte" in st.legal_action_strings())
    p = s.current_player()
    hand = sorted(s.observation(p).hand)
    s.apply("carte")
    mine, theirs = _log(s, p), _log(s, 1 - p)
    assert mine == ["You declared carte blanche: no king, queen or jack in the hand (+250)"]
    assert theirs == [mine[0].replace("You", ["Ann", "Computer"][p])]
    shown = build_view(s.observation(1 - p), ROW, 1, [True] * 2)["deal"]["opponent_known"]
    assert sorted(shown) == sorted(card_name(c) for c in hand)


def test_the_log_says_the_guess_the_cut_and_what_they_scored() -> None:
    rules = Rules.preset("sixpack", cut_bonus=True)
    seen = set()
    for seed in range(300):
        s = State.new_deal(rules, seed=seed)
        guesser, dealer = s.current_player(), s.dealer
        cut = s.cut
        s.apply(f"guess {24 if cut == 24 else cut if seed % 2 else 18 + (cut == 18)}")
        right = s.cut_guess == cut
        line = _log(s, guesser)[0]
        assert line.startswith(f"You guessed the cut at {s.cut_guess} cards; ")
        assert f"cut {cut}: " in line and "drew" not in line
        assert ("+150 for the right guess" in line) == right
        assert ("+250 to" in line) == (cut == 24)
        if not right and cut != 24:
            assert line.endswith(": no score")
        other = _log(s, dealer)[0]
        name = ROW.names[guesser].split(" (")[0]
        assert other.startswith(f"{name} guessed") and "you cut" in other
        seen.add((right, cut == 24))
    assert seen == {(True, False), (False, False), (True, True)}


def test_the_replay_says_what_the_cut_scored_and_names_each_meld() -> None:
    rules = Rules.preset("sixpack", cut_bonus=True)
    s = State.new_deal(rules, seed=7)
    s.apply(f"guess {s.cut}")  # a right guess: 150 before the first card
    rng = random.Random(7)
    while not s.is_terminal():
        legal = s.legal_action_strings()
        s.apply(next((a for a in legal if a.startswith("meld")), rng.choice(legal)))
    deal = replay_frames(game_record(rules, [s]))[0]
    guesser = 1 - deal["dealer"]
    assert deal["cut"] == {"cut": s.cut, "guess": s.cut, "scored": [[guesser, 150]]}
    assert deal["frames"][0]["scores"][guesser] == 150
    melds = [f for f in deal["frames"] if f["action"] and f["action"].startswith("meld")]
    assert melds and all(f["scored"][0][2] == "meld" and f["scored"][0][3] for f in melds)
    last = deal["frames"][-1]["scored"]
    assert [e[1:3] for e in last if e[2] == "last trick"] == [[250, "last trick"]]


def _sixpack(site: str, browser: Any, width: int) -> Any:
    g = httpx.post(site + "/api/games", json={"opponent": "computer", "level": 1, "seed": 5,
                                              "variant": "sixpack",
                                              "options": {"cut_bonus": True}}).json()
    page = browser.new_page(viewport={"width": width, "height": 844})
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{site}/#/game/{g['id']}/{g['token']}")
    page.wait_for_selector("#status")
    return page


def test_a_players_page_of_the_long_deals(fast_site: str, browser: Any) -> None:
    page = _sixpack(fast_site, browser, 390)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the guesser is told both bonuses; the one waiting for the guess is told what happens
    page.wait_for_function("() => current && current.view && current.view.deal.phase === 'guess'")
    status = page.evaluate("""() => { const d = current.view.deal, mine = current.statusLine();
        d.your_turn = false; const theirs = current.statusLine(); d.your_turn = true;
        return [mine, theirs]; }""")
    assert "150" in status[0] and "24" in status[0], status
    assert "guessing how many cards" in status[1], status
    # a hint on the guess is highlighted on its button
    page.evaluate("() => { current.hinted = Teach.target({action: 'guess 21'}); "
                  "current.render(); }")
    assert page.inner_text("#declare .hinted").startswith("21 cards")
    # carte blanche says its points, and whether it shows the hand or a card just drawn
    carte = page.evaluate("""() => { const d = current.view.deal, was = d.specials, out = [];
        d.specials = ['carte'];
        for (const tricks of [0, 3]) { d.tricks_played = tricks; current.render();
            out.push(document.querySelector('#carte').innerText); }
        d.specials = was; d.tricks_played = 0; current.render(); return out; }""")
    assert carte[0].endswith("show a hand without a court card · 250"), carte
    assert "again: show the card you drew" in carte[1] and carte[1].endswith(" · 250"), carte
    # many broken melds fold into one line; a few stay as they are
    folded = page.evaluate("""() => {
        const m = (intact) => ({name: 'four kings', points: 80, cards: ['KS'], intact});
        const tag = (x) => h('span', {class: 'meld-tag' + (x.intact ? '' : ' broken')}, x.name);
        const many = meldList([m(true), m(false), m(false), m(false), m(false)], tag, null);
        const few = meldList([m(true), m(false), m(false)], tag, h('span', {class: 'legend'}, 'x'));
        return [many.querySelectorAll(':scope > .meld-tag').length,
                many.querySelector('details.broken-melds summary').textContent,
                many.querySelectorAll('details .meld-tag.broken').length,
                !!few.querySelector('details'), few.querySelectorAll('.meld-tag').length,
                !!few.querySelector('.legend')]; }""")
    assert folded[0] == 1 and folded[1].startswith("4 broken melds") and folded[2] == 4
    assert folded[3:] == [False, 3, True]
    # the opponent's known cards (a hand shown for carte blanche) are on the page
    page.evaluate("() => { current.view.deal.opponent_known = ['AS', 'TH', '7D']; "
                  "current.render(); }")
    known = page.eval_on_selector("#opp-known", "e => [...e.querySelectorAll('[aria-hidden]')]"
                                                ".map((x) => x.textContent)")
    assert page.inner_text("#opp-known").startswith("Known in hand: ")
    assert known == ["A♠", "10♥", "7♦"]
    # the replay's words: a meld by name and points, the cut and what it scored
    words = page.evaluate("""() => [stepWords('meld QS JD', [[0, 40, 'meld', 'bezique']]),
        stepWords('carte', [[1, 250, 'carte', 'hand']]), stepWords('play AS', []),
        cutWords({dealer: 0, cut: {cut: 24, guess: 24, scored: [[1, 150], [0, 250]]}},
                 ['Ann', 'Bob'])]""")
    assert words == ["declares bezique Q♠ J♦ (+40)", "declares carte blanche (+250)", "plays A♠",
                     ": Bob guessed the cut at 24 cards, Ann cut 24 (Bob +150, Ann +250)"]
    assert not errors, errors


def test_a_table_is_set_to_the_length_chosen(fast_site: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(fast_site + "/")
    page.select_option("#tvariant", "bezique3")
    for i in (1, 2):
        page.select_option(f"#seat-{i}", "computer:1")
    assert page.input_value("#ttarget") == "2000"  # the rules' length (RULES.md 9.4)
    page.select_option("#ttarget", "1000")
    page.click("#start-table")
    page.wait_for_selector("#scores")
    assert "to 1000" in page.inner_text("#scores thead")
    # each seat's points are named: this deal's, and the game's
    assert re.fullmatch(r"deal \d+ · game \d+", page.inner_text(".seat.other .seat-score"))
    # a finished table in the list of games says who won, and offers its replay and record
    listed = page.evaluate("""async () => {
        Saved.set('T1', 'tok', 0, null);
        window.api = async () => ({games: [{id: 'T1', seat: 0, opponent: 'table', winner: 1,
            names: ['Ann', 'Bob', 'Cy', 'Di'], sides: [650, 1130], deal: 4, deal_over: true,
            scores: [1, 2, 3, 4], updated: 0, variant: 'bezique4', variant_title: 'Four-handed',
            target: 1000}]});
        gamesPage();
        await new Promise((r) => setTimeout(r, 50));
        const li = document.querySelector('#games li');
        const links = [...li.querySelectorAll('a, button')];
        return [li.innerText, links.map((a) => a.textContent)]; }""")
    assert "Their side won" in listed[0] and listed[1] == ["Open", "Replay", "Record"], listed


def test_every_shown_copy_of_a_card_is_playable_in_the_browser() -> None:
    """Eight-pack: A♥ shown in two four-aces melds, once then twice.  The engine tells the
    groups apart as AH*1 and AH*2, and the page offered the third A♥ on the table no action
    (drawn as not playable).  Every copy now plays, each pressed one a legal action."""
    from test_tui_layout import three_aces_of_hearts_shown

    state = three_aces_of_hearts_shown()
    view = build_view(state.observation(0), ROW, 1, [True] * 2)
    mine = view["deal"]["table"][0]
    hearts = [c["action"] for c in mine if c["card"] == "AH"]
    assert sorted(hearts) == ["play AH*1", "play AH*2", "play AH*2"]
    assert all(c["action"] in state.legal_action_strings() for c in mine)
    assert all(c["action"] is None for c in view["deal"]["table"][1])
    state.apply(hearts[-1])
    assert state.phase == "follow"
