"""``bezique play`` at 80×24 when many declarations are on offer after a trick (Six-pack's
quartets of aces, the partner's shown cards at a table of four): every choice on screen where it
can be (two columns, or the hand on one line lending its rows), else a border saying how many
are out of sight and that the arrows reach them; and the computer's pauses, kept before a card
or a meld is shown and dropped before a draw, which shows nothing new.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers import deal
from test_fourhanded import deal4, declare, win_trick
from test_tui import screen_text, settle
from test_tui_family_review import panel_text
from textual.widgets import RichLog

import bezique.tui.game as game_module
from bezique import Rules, State
from bezique.cards import EIGHT, SEVEN, card_symbol, parse_card, rank_of
from bezique.game import Game
from bezique.tui.app import BeziqueApp
from bezique.tui.choices import ChoiceList
from bezique.tui.game import GameScreen
from bezique.tui.modals import result_text
from bezique.tui.session import PlayConfig, Session, save_path
from bezique.tui.table import choice_entries, hand_slots


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test saves into its own directory, never the user's."""
    d = tmp_path / "data"
    monkeypatch.setenv("BEZIQUE_DATA_DIR", str(d))
    return d


def low_deal(variant: str, hand: list[str]) -> State:
    """A deal of a multi-pack game where the person holds ``hand`` and the computer low cards
    only (sevens and eights first); the person leads."""
    r = Rules.preset(variant)
    left = Counter(p & 31 for p in r.deck)
    mine = [parse_card(c) for c in hand]
    left.subtract(mine)
    rest = sorted(left.elements(), key=lambda c: (rank_of(c) not in (SEVEN, EIGHT), c))
    return State.from_cards(r, [mine, rest[:r.hand_size]], None, rest[r.hand_size:], dealer=1)


def win_with_ten(state: State) -> None:
    """The person leads 10♠ and wins the trick against the computer's low card."""
    state.apply("play TS")
    state.apply(next(a for a in state.legal_action_strings() if a.startswith("play ")))
    assert state.current_player() == 0 and state.phase == "declare"


def sixpack_trick_won(hand: list[str]) -> State:
    """A Six-pack deal where the person held ``hand`` (with 10♠) and has just won the first
    trick with 10♠ against the computer's low cards."""
    state = low_deal("sixpack", hand)
    win_with_ten(state)
    return state


def resume(state: State) -> BeziqueApp:
    """The app going on with the game saved at ``state``."""
    Session(Game.from_states(state.rules, [state], seed=1), 1, 0, save_path()).save()
    return BeziqueApp(PlayConfig(level=1), save_path(), resume=True, delay=0)


def labels_on_screen(app: BeziqueApp) -> tuple[list[str], str]:
    """Each choice on offer as the list shows it (key and label, long or short), and the
    text of the centre panel."""
    gs = app.screen
    assert isinstance(gs, GameScreen) and gs.session is not None
    ch = gs.query_one("#choices", ChoiceList)
    shape = ch.shape(ch.size.width, ch.size.height)
    return shape.prompts, panel_text(app, "#center")


def hand_on_screen(app: BeziqueApp) -> str:
    """The lines of the hand's panel."""
    return panel_text(app, "#mine")


async def test_nine_declarations_all_show_with_the_hand_on_one_line() -> None:
    """Eight ways to make four aces and the draw: seven rows showed, the rest scrolled out of
    sight; the hand's panel lends its rows (its cards on one line) and all nine show."""
    hand = ["AS", "AS", "AH", "AD", "AC", "AC", "TS", "9S", "9H", "9D", "9C", "8S"]
    state = sixpack_trick_won(hand)
    full = [label for _, label, _ in choice_entries(state.observation(0), state)]
    assert len(full) == 9
    app = resume(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        _, center = labels_on_screen(app)
        for i, label in enumerate(full):  # the long labels, each with its key, none cut off
            assert f"{'1234567890'[i]} {label}" in center, center
        assert "more below" not in center
        mine = hand_on_screen(app)
        assert app.screen.query_one("#mine").has_class("compact")
        cards = [card_symbol(c) for c in state.observation(0).hand]
        assert " ".join(f"{c:>3}" for c in cards) in mine, mine  # every card, one line
        await pilot.press("9")
        await pilot.press("enter")  # the ninth, the draw: play goes on with the hand as before
        await settle(pilot, app)
        assert not app.screen.query_one("#mine").has_class("compact")
        assert "┌───┐" in hand_on_screen(app) or "┌───┬" in hand_on_screen(app)


async def test_a_table_of_four_shows_the_partners_combinations_in_two_columns() -> None:
    """North shows four queens: South's kings marry each of them, J♦ makes a bezique with Q♠,
    four kings, the offer and the draw: eight choices, four rows at a table of four."""
    state = deal4({2: ["QS", "QH", "QD", "QC", "AH"],
                   0: ["JD", "KS", "KH", "KD", "KC", "AH", "JD"]}, turnup="8H")
    assert declare(state, 2, "meld QS QH QD QC") == 60
    win_trick(state, 0)
    entries = choice_entries(state.observation(0), state)
    assert len(entries) == 8
    app = resume(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        gs = app.screen
        assert isinstance(gs, GameScreen)
        prompts, center = labels_on_screen(app)
        assert len(prompts) == 8
        for prompt in prompts:
            assert prompt in center, center
        assert "4K K♠ K♥ K♦ K♣ +80" in center and "marr. K♦ Q♦+ +20" in center
        assert "let North declare" in center and "draw (pass)" in center
        assert "more below" not in center
        # the hand keeps its card boxes: the two columns needed no rows of its panel
        assert not gs.query_one("#mine").has_class("compact")
        for c in state.observation(0).hand:
            assert card_symbol(c) in hand_on_screen(app)
        # ↓ runs down the first column into the second; → goes across; the key 7 offers
        ch = gs.query_one("#choices", ChoiceList)
        for _ in range(4):
            await pilot.press("down")
        assert ch.highlighted == 4
        await pilot.press("left")
        assert ch.highlighted == 0
        await pilot.press("right")
        assert ch.highlighted == 4
        await pilot.press("7")
        assert gs.option_actions[ch.highlighted or 0] == "offer"


async def test_too_many_declarations_say_how_many_are_below_and_the_arrows_reach_them() -> None:
    """Three aces of spades, two of each other suit, a marriage: twenty-four choices, too many
    even in two columns with the hand on one line."""
    hand = ["AS", "AS", "AS", "AH", "AH", "AD", "AD", "AC", "AC", "KH", "QH", "TS"]
    state = sixpack_trick_won(hand)
    n = len(choice_entries(state.observation(0), state))
    assert n == 24
    app = resume(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        gs = app.screen
        assert isinstance(gs, GameScreen)
        ch = gs.query_one("#choices", ChoiceList)
        prompts, center = labels_on_screen(app)
        shown = [p for p in prompts if p in center]
        assert len(shown) == 20 and prompts[-1] not in center  # two columns of ten rows
        assert "▼ 4 more below: ↓ reaches them" in center, center
        await pilot.press("end")
        assert ch.highlighted == n - 1
        _, center = labels_on_screen(app)
        assert prompts[-1] in center and "draw (pass)" in center
        assert prompts[0] not in center and "▲ 4 more above: ↑" in center
        await pilot.press("up")
        assert "▲" in panel_text(app, "#center")
        await pilot.press("home")
        _, center = labels_on_screen(app)
        assert ch.highlighted == 0 and prompts[0] in center and "more below" in center
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.session is not None and app.session.state.scores[0] == 100


async def test_the_computer_draws_without_a_pause_but_pauses_before_its_lead(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pause before each of the computer's moves lets a person see it; before a draw (the
    computer won a trick and has nothing to declare) it showed nothing new."""
    state = deal(["7C"], ["AC"], turnup="8H")
    state.apply("play 7C")
    state.apply("play AC")
    assert state.current_player() == 1 and state.legal_action_strings() == ["pass"]
    Session(Game.from_states(state.rules, [state], seed=1), 1, 0, save_path()).save()
    app = BeziqueApp(PlayConfig(level=1), save_path(), resume=True, delay=0.25)
    paused: list[tuple[int, float]] = []  # (actions played so far, seconds) of each pause

    def sleep(seconds: float) -> None:
        assert app.session is not None
        paused.append((len(app.session.state.history()), seconds))

    monkeypatch.setattr(game_module, "time", SimpleNamespace(monotonic=time.monotonic,
                                                             sleep=sleep))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        s = app.session
        assert s is not None and s.human_to_act()
        history = s.state.history_strings()
        assert history[2] == (1, "pass") and history[3][0] == 1  # the draw, then the lead
        lead = history[3][1]
        assert [at for at, _ in paused] == [3]  # before the lead only, none before the draw
        log = app.screen.query_one("#log", RichLog)
        lines = " ".join(strip.text.strip() for strip in log.lines)
        assert "Computer draws; you draw" in lines
        assert f"Computer leads {card_symbol(parse_card(lead.split()[1]))}" in lines


def three_aces_of_hearts_shown() -> State:
    """An Eight-pack deal where the person has shown A♥ in two four-aces melds, once then
    twice, and is to lead."""
    state = low_deal("eightpack", ["AH", "AH", "AH", "AS", "AS", "AD", "AD", "AC", "AC", "TS",
                                   "TS", "9S", "9H", "9D", "9C"])
    for meld in ("meld AS AH AD AC", "meld AH AH AD AC"):
        win_with_ten(state)
        state.apply(meld)
        state.apply("pass")
    return state


def test_every_shown_copy_of_a_card_plays_though_fewer_numbers_tell_them_apart() -> None:
    """Eight-pack: A♥ shown in two four-aces melds, once then twice.  The engine tells the
    groups apart as AH*1 and AH*2; the third A♥ on the table was drawn as not playable, and
    its key was refused with "your shown AH copies differ: write AH*1 or AH*2"."""
    state = three_aces_of_hearts_shown()
    obs = state.observation(0)
    assert [card_symbol(c) for c in obs.shown[0]].count("A♥") == 3
    slots, actions = hand_slots(obs)
    assert all(slot.playable for slot in slots)
    hearts = [a for slot, a in zip(slots, actions, strict=True)
              if slot.shown and card_symbol(slot.card) == "A♥"]
    assert hearts == ["play AH*1", "play AH*2", "play AH*2"]
    state.apply(hearts[2])
    assert state.phase == "follow"


async def test_an_eight_pack_deals_many_melds_leave_the_result_in_sight() -> None:
    """Two dozen melds filled the end-of-deal screen at 80×24 and pushed the result (who wins,
    the settlement) below it; the same meld made again is counted instead."""
    s = Session.new(PlayConfig(level=1, seed=6, variant="eightpack"), save_path())
    rng = random.Random(6)
    while not s.deal_over():
        if s.computer_to_act():
            s.computer_move()
            continue
        legal = s.observation().legal
        melds = [a for a in legal if a.startswith("meld ")]
        low = [a for a in legal if a.startswith("play ") and a.split()[1][0] in "789J"]
        s.play(melds[0] if melds else "pass" if "pass" in legal else rng.choice(low or legal))
    assert sum(1 for e in s.state.events if e[0] == 0 and e[2] == "meld") >= 20
    app = BeziqueApp(PlayConfig(level=1), save_path(), resume=True, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert " ×" in text
        for line in result_text(s).splitlines()[:2]:  # who wins, and the settlement
            assert " ".join(line.split()[:8]) in " ".join(text.split()), text
        assert "Enter/a: play again" in text


def test_a_one_deal_games_score_panel_says_how_far_each_side_is_from_the_rubicon() -> None:
    """Rubicon's score panel had a Game column repeating the deal's points (a one-deal game
    has no game score); it now says how many points each side still needs to pass the
    rubicon, brisques counted (RULES.md 9.0.7), and "past" once there."""
    from rich.console import Console

    from bezique.tui.table import score_panel

    def panel(state: State) -> str:
        console = Console(width=24, record=True, color_system=None)
        console.print(score_panel(state.observation(0), state.is_terminal(), False))
        return console.export_text()

    state = low_deal("rubicon", ["KS", "QS", "JS", "TS", "TS", "AS", "KH", "QH", "9D"])
    win_with_ten(state)
    state.apply("meld AS TS KS QS JS")  # the sequence fixes trumps: 250
    obs = state.observation(0)
    assert obs.scores[0] == 250 and obs.brisques[0] == 10
    text = panel(state)
    assert "To 1000" in text and "Game" not in text
    assert re.search(r"You\s+250\s+740\b", text), text
    assert re.search(r"Computer\s+0\s+1000\b", text), text
    classic = deal(["7C"], ["AC"], turnup="8H")
    assert "Game" in panel(classic) and "To 1000" not in panel(classic)


async def test_the_hand_says_what_its_double_borders_are_once_cards_are_on_the_table() -> None:
    """Cards shown in melds are drawn with double borders among the hand's; nothing on the
    screen said so."""
    state = low_deal("rubicon", ["KS", "QS", "JS", "TS", "TS", "AS", "KH", "QH", "9D"])
    app = resume(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert "on the table" not in hand_on_screen(app)
    win_with_ten(state)
    state.apply("meld KH QH")
    state.apply("pass")
    app = resume(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        mine = hand_on_screen(app)
        assert "╔═╗ = on the table" in mine and "╔═══╗" in mine, mine
