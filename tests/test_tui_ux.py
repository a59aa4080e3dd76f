"""``bezique play``: what a player from a card-game app expects (kept games, log lines that say
why, drawing when there is nothing to declare, undo that leaves no trace, …)."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner
from test_tui import (
    first_legal,
    game_screen,
    make_app,
    play_first_legal,
    press_for,
    screen_text,
    settle,
)
from textual.widgets import RichLog, Static

from bezique.cli import main
from bezique.tui.app import BeziqueApp
from bezique.tui.session import (
    PlayConfig,
    Session,
    numbered_save,
    numbered_saves,
    save_description,
    save_path,
)
from bezique.tui.table import melds_text, opponent_panel
from bezique.tui.widgets import HandView


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test saves into its own directory, never the user's."""
    d = tmp_path / "data"
    monkeypatch.setenv("BEZIQUE_DATA_DIR", str(d))
    return d


def step(s: Session, rng: random.Random) -> None:
    """One step of a session: a random move for the player, the computer's own, or the next
    deal."""
    if s.deal_over():
        s.next_deal()
    elif s.human_to_act():
        s.play(rng.choice(s.observation().legal))
    else:
        s.computer_move()


def play_out(s: Session, rng: random.Random) -> Session:
    """Play a session to the end of its game (:func:`step` by step)."""
    while not s.game_over():
        step(s, rng)
    return s


def unfinished_game(seed: int = 5) -> Session:
    s = Session.new(PlayConfig(level=1, seed=seed), save_path())
    while not s.human_to_act():
        s.computer_move()
    s.play(s.observation().legal[0])
    return s


async def test_a_new_game_keeps_the_unfinished_one_as_a_numbered_save() -> None:
    old = unfinished_game()
    history = old.state.history_strings()
    app = make_app(seed=8)  # as `bezique play --level 1`: no start screen
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert "kept as save 1" in screen_text(app)
    assert app.kept == 1
    assert [n for n, _ in numbered_saves()] == [1]
    assert Session.resume(numbered_save(1)).state.history_strings() == history
    assert Session.resume(save_path()).game.seed == 8
    out = CliRunner().invoke(main, ["play", "--saves"])
    assert out.exit_code == 0
    assert "current:" in out.output and "1: bezique, level 1" in out.output
    assert "--resume 1" in out.output



@pytest.mark.parametrize("variant", ["bezique", "rubicon"])
def test_the_list_of_saves_gives_the_scores_the_game_shows(variant: str) -> None:
    """``--saves`` added the deal in play to the game's scores, which already hold it: a game
    standing at 50 to 0 was listed as "you 100 · computer 0"."""
    s = Session.new(PlayConfig(level=1, seed=4, variant=variant), save_path())
    rng = random.Random(1)
    while s.state.scores[0] == 0:
        if s.human_to_act():
            s.play(rng.choice(s.observation().legal))
        else:
            s.computer_move()
    a, b = s.state.game_scores
    assert a > 0 and save_description(save_path()).endswith(f"you {a} · computer {b}")

async def test_a_second_new_game_keeps_the_next_number_and_resume_n_goes_on() -> None:
    unfinished_game(1)
    for seed in (2, 3):
        app = make_app(seed=seed)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            s = app.session
            assert s is not None
            gs = game_screen(app)
            await press_for(pilot, gs, first_legal(gs, s.observation()))
            await settle(pilot, app)
    assert [n for n, _ in numbered_saves()] == [1, 2]
    app = make_app(resume=True)
    app.path = numbered_save(1)  # as `bezique play --resume 1`
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert app.session is not None and app.session.game.seed == 1


def test_resume_of_a_missing_kept_game_is_one_line_and_status_2() -> None:
    out = CliRunner().invoke(main, ["play", "--resume", "4"])
    assert out.exit_code == 2 and "no kept game 4" in out.output
    assert len(out.output.strip().splitlines()) == 1


def test_a_finished_or_missing_game_is_not_kept(data_dir: Path) -> None:
    from bezique.tui.session import keep_unfinished

    assert keep_unfinished(save_path()) is None
    assert numbered_saves() == []


def _melds(*items: tuple[str, int, bool]) -> Any:
    ms = [SimpleNamespace(name=n, points=p, intact=i) for n, p, i in items]
    return SimpleNamespace(melds=(ms, ms))


def test_meld_line_shortens_then_counts_but_never_cuts() -> None:
    obs = _melds(("four kings", 80, True), ("common marriage", 20, False),
                 ("bezique", 40, True), ("four aces", 100, True))
    full = melds_text(obs, 0).plain
    assert full == "Melds: four kings 80, common marriage 20, bezique 40, four aces 100"
    assert melds_text(obs, 0, 100).plain == full
    short = melds_text(obs, 0, 50).plain
    assert short == "Melds: 4K 80 marr. 20 bez. 40 4A 100"
    assert melds_text(obs, 0, 30).plain == "Melds: 4 for 240 (1 broken)"
    many = _melds(*[("four queens", 60, True)] * 7, ("common marriage", 20, False))
    assert melds_text(many, 0, 48).plain == "Melds: 8 melds, 440 points (1 broken)"


def meldy_session(seed: int) -> Session:
    """A game where you declare whatever you can, until you have three melds on the table."""
    s = Session.new(PlayConfig(level=1, seed=seed), save_path())
    while len(s.observation().melds[0]) < 3 and not s.deal_over():
        if s.human_to_act():
            legal = s.observation().legal
            s.play(next((a for a in legal if a.startswith("meld")), legal[0]))
        else:
            s.computer_move()
    return s


async def test_the_meld_lines_fit_the_panels_at_80_columns() -> None:
    s = meldy_session(0)  # two marriages and four queens
    obs = s.observation()
    assert len(obs.melds[0]) >= 3
    app = make_app(resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.pause()
        gs = game_screen(app)
        mine = gs.query_one("#mymelds", Static)
        width = mine.content_size.width
        expected = melds_text(app.session.observation(), 0, width).plain  # type: ignore[union-attr]
        assert len(expected) <= width < len(melds_text(obs, 0).plain)
        assert expected in screen_text(app)


def test_the_computer_panel_counts_all_its_cards_and_the_shown_ones() -> None:
    obs = SimpleNamespace(opponent_hand_size=8, shown=((), (1, 2, 3, 4)), tricks=[], turn=0,
                          opponent_known=[], melds=([], []))
    text = opponent_panel(obs, False, False).plain  # type: ignore[arg-type]
    assert text.startswith("8 cards (4 shown) · 0 tricks won")


def test_the_dealers_ten_for_a_turned_up_seven_is_logged() -> None:
    for seed in range(200):
        s = Session.new(PlayConfig(level=1, seed=seed))
        if any(e[2] == "turnup" for e in s.state.events):
            break
    else:
        raise AssertionError("no turned-up seven in 200 deals")
    dealer = "You score" if s.state.dealer == 0 else "Computer scores"
    assert any(line.startswith(dealer) and "is a seven" in line and "(+10)" in line
               for line in s.log), s.log


def play_deal(s: Session) -> None:
    while not s.deal_over():
        if s.human_to_act():
            s.play(s.observation().legal[0])
        else:
            s.computer_move()


def test_every_score_of_a_deal_has_a_log_line_saying_why() -> None:
    s = Session.new(PlayConfig(level=1, seed=11))
    play_deal(s)
    text = "\n".join(s.log)
    assert "the last trick (+10)" in text
    assert "for brisques: the aces and tens won in tricks" in text
    # the points in the log add up to the deal's scores
    import re

    got = [0, 0]
    for line in s.log:
        m = re.search(r"\(\+(\d+)\)$", line)
        if m:
            got[0 if line.startswith("You") else 1] += int(m.group(1))
    assert tuple(got) == s.state.scores, s.log


def test_undo_cuts_the_log_back_to_what_it_was_before_the_move() -> None:
    s = Session.new(PlayConfig(level=1, seed=4))
    undone = 0
    while not s.deal_over() and undone < 6:
        if not s.human_to_act():
            s.computer_move()
            continue
        if s.forced_draw():
            s.play("pass")
            continue
        before = list(s.log)
        history = s.state.history_strings()
        s.play(s.observation().legal[-1])
        while not s.deal_over() and (s.computer_to_act() or s.forced_draw()):
            if s.computer_to_act():
                s.computer_move()
            else:
                s.play("pass")
        if any("You draw" in line for line in s.log[len(before):]):
            s.undo()
            assert s.log == before  # no "You draw …": nothing a fresh player would not see
            assert s.state.history_strings() == history
            undone += 1
            s.play(s.observation().legal[0])
    assert undone >= 3


async def test_undo_in_the_app_leaves_no_taken_back_line_in_the_log() -> None:
    app = make_app(seed=4)
    async with app.run_test(size=(100, 30)) as pilot:
        gs = await play_first_legal(pilot, app, 4)
        s = app.session
        assert s is not None
        before = list(s.log)
        await press_for(pilot, gs, first_legal(gs, s.observation()))
        await settle(pilot, app)
        await pilot.press("u")
        await settle(pilot, app)
        assert s.log == before
        log = gs.query_one("#log", RichLog)
        assert [strip.text.rstrip() for strip in log.lines][-1] == before[-1]


async def test_a_trick_won_with_nothing_to_declare_draws_by_itself() -> None:
    for auto in (True, False):
        app = make_app(seed=6, auto_draw=auto)
        forced = 0
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            s = app.session
            assert s is not None
            gs = game_screen(app)
            for _ in range(12):  # (a forced draw comes within them, seed 6)
                if s.deal_over():
                    break
                if s.forced_draw():
                    forced += 1
                    assert not auto, "the app waits for a key although there is only 'draw'"
                    await pilot.press("d")
                else:
                    await press_for(pilot, gs, first_legal(gs, s.observation()))
                await settle(pilot, app)
            drawn = sum(1 for line in s.log if line.startswith("You draw"))
        assert drawn > 0
        if not auto:
            assert forced > 0


async def test_the_chosen_radio_buttons_show_without_colour(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(show_start=True)  # level 1, Bezique
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert text.count("●") == 1 and text.count("○") == 4
        assert "●▌ 1 beginner" in text and "Bezique (64 cards)" in text
        app.screen.query_one("#level").query("RadioButton").last().value = True
        await pilot.pause()
        text = screen_text(app)
        assert "●▌ 5 expert" in text and "○▌ 1 beginner" in text


async def test_game_over_shows_each_deal_and_plays_again_with_the_same_rules() -> None:
    from bezique.tui.modals import SummaryScreen

    s = play_out(Session.new(PlayConfig(level=1, seed=3, target=300), save_path()),
                 random.Random(1))
    deals = [*s.game.deals, s.state]
    assert len(deals) >= 2
    app = make_app(resume=True)
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        text = screen_text(app)
        assert f"Game over after {len(deals)} deals" in text
        assert "Deal by deal" in text and "play again" in text
        for i, st in enumerate(deals, 1):
            a, b = st.scores
            g0, g1 = st.game_scores
            assert re.search(rf"{i}\s+{a}\s+{b}\s+{g0}–{g1}", text), text
        await pilot.press("enter")
        await settle(pilot, app)
        new = app.session
        assert new is not None and new is not s and not new.game_over()
        assert new.rules.target == 300 and new.level == 1 and new.rules.variant == "bezique"
        assert numbered_saves() == []  # a finished game is not kept as unfinished


def test_undo_deals_the_unseen_cards_afresh_so_the_next_draw_is_not_known() -> None:
    """Taking back a move and making it again must not show the same next card every time
    (the peeking of the hardening issue): after an undo the person sees exactly what they saw
    before the move, and the cards they have not seen are dealt afresh."""
    changed = 0
    for seed in range(10):
        s = Session.new(PlayConfig(level=1, seed=seed))
        while not (s.human_to_act() and not s.forced_draw() and s.state.stock_left > 10
                   and s.state.tricks_played >= 2):
            if s.human_to_act():
                s.play(s.observation().legal[0])
            else:
                s.computer_move()
        view = s.observation()
        unseen = s.state.stock[s.state.stock_pos:]
        s.play(view.legal[0])
        while s.computer_to_act() or s.forced_draw():
            if s.computer_to_act():
                s.computer_move()
            else:
                s.play("pass")
        s.undo()
        assert s.observation() == view
        changed += s.state.stock[s.state.stock_pos:] != unseen
    assert changed >= 8


@pytest.mark.parametrize("text", ["[" * 100_000, '{"deals": [{"dealer": ' + "9" * 5000 + "}]}",
                                  '{"variant": "bezique", "options": [], "deals": []}'])
def test_a_damaged_save_is_one_line_and_exit_2(tmp_path: Path, text: str) -> None:
    import subprocess
    import sys

    env = {**os.environ, "BEZIQUE_DATA_DIR": str(tmp_path)}
    where = subprocess.run([sys.executable, "-m", "bezique", "play", "--where"], env=env,
                           capture_output=True, text=True, timeout=60).stdout.strip()
    Path(where).parent.mkdir(parents=True, exist_ok=True)
    Path(where).write_text(text)
    done = subprocess.run([sys.executable, "-m", "bezique", "play", "--resume"], env=env,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr


@pytest.mark.parametrize(("variant", "options", "seeds"), [
    ("bezique", {}, range(3)),
    ("rubicon", {}, range(3)),
    ("sixpack", {"cut_bonus": True}, [*range(3), 159]),  # 159: seat 0 is dealt carte blanche
])
def test_the_end_of_deal_rows_add_up_to_the_deal(variant: str, options: dict[str, Any],
                                                  seeds: list[int]) -> None:
    """The rows of the end-of-deal table left out carte blanche (and the cut bonus): a Six-pack
    deal's melds and last trick made 3360 where "This deal" said 3610."""
    from bezique import Rules
    from bezique.game import Game
    from bezique.tui.words import deal_summary

    rules = Rules.preset(variant, **options)
    extras = 0
    for seed in seeds:
        state = Game(rules, seed=seed).state
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_action_strings()
            state.apply("carte" if "carte" in legal else rng.choice(legal))
        for seat, d in enumerate(deal_summary(state)):
            counted = d.brisques if rules.settlement != "portland" else 0
            parts = sum(p for _, p in d.melds) + d.sevens + d.last_trick + d.cut + counted
            assert parts == d.deal == state.scores[seat], (seed, seat, d)
            extras += d.cut + sum(p for n, p in d.melds if n == "carte blanche")
    assert extras > 0 or variant != "sixpack"


async def test_six_packs_eleventh_and_twelfth_cards_have_keys() -> None:
    """A Six-pack hand has twelve cards; keys 1-9 and 0 reached ten of them, and the prompt
    said "1-0".  The keys - and = (beside 0 on a keyboard) choose the eleventh and twelfth."""
    app = BeziqueApp(PlayConfig(level=1, seed=3, variant="sixpack"), save_path(), delay=0,
                     show_start=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        hand = game_screen(app).query_one("#hand", HandView)
        assert len(hand.slots) == 12
        for key, index in (("minus", 10), ("equals_sign", 11), ("0", 9), ("1", 0)):
            await pilot.press(key)
            assert hand.selected == index, key
        text = screen_text(app)
        assert "1-9 0 - =" in text and "1-0" not in text
        assert re.search(r"9\s+0\s+-\s+=", text), text  # the labels under the cards


async def test_a_new_game_after_the_game_starts_from_its_choices() -> None:
    """After a resumed game, "n: new game" opened the start screen on the defaults (level 3,
    1000 points) rather than the choices of the game just played."""
    from textual.widgets import Input, RadioSet

    from bezique.tui.start import StartScreen

    play_out(Session.new(PlayConfig(level=1, seed=3, target=300), save_path()),
             random.Random(1))
    app = make_app(resume=True)
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert app.screen.query_one("#target", Input).value == "300"
        assert app.screen.query_one("#level", RadioSet).pressed_index == 0  # level 1


async def test_the_log_fits_the_terminal_again_after_a_resize() -> None:
    """The log's lines stayed wrapped at the width they were written at: after growing and
    shrinking the terminal they were cut off, and the newest were out of sight."""
    app = make_app(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        gs = await play_first_legal(pilot, app, 4)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await settle(pilot, app)
        await pilot.pause()
        log = gs.query_one("#log", RichLog)
        width = log.scrollable_content_region.width
        lines = [strip.text.rstrip() for strip in log.lines]
        assert lines and all(len(line) <= width for line in lines), (width, lines)
        assert lines[-1] in screen_text(app)  # the newest line in sight


async def test_a_hints_reasons_stay_in_the_log_after_a_resize() -> None:
    """The log is rewritten from the game's account after a resize; the reasons an explained
    hint gave ("Why: ...") are not in that account and were lost."""
    app = make_app(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        gs = await play_first_legal(pilot, app, 2)
        await pilot.press("e")  # explain mode: a hint says why, in the log
        await pilot.press("h")
        await settle(pilot, app)
        log = gs.query_one("#log", RichLog)

        def text() -> str:
            return " ".join(strip.text.strip() for strip in log.lines)
        assert "Why: " in text()
        before = text()
        await pilot.resize_terminal(120, 40)
        await settle(pilot, app)
        await pilot.pause()
        assert text().split() == before.split()  # the same words, rewrapped


def test_the_log_says_when_the_first_marriage_fixes_trumps() -> None:
    """In Rubicon the first marriage or sequence fixes trumps; the log named the marriage only,
    and the change showed in the score panel alone."""
    from bezique import Rules, State
    from bezique.tui.words import describe

    rng = random.Random(2)
    state = State.new_deal(Rules.preset("rubicon"), seed=5)
    said: list[str] = []
    while state.trump < 0 and not state.is_terminal():
        legal = state.legal_actions()
        melds = [a for a in legal if state.action_to_string(a).startswith("meld")]
        action = melds[0] if melds else rng.choice(legal)
        before = state.clone()
        state.apply_action(action)
        said += describe(before, action, state)
    suit = ("Spades", "Hearts", "Diamonds", "Clubs")[state.trump]
    assert said[-1].startswith(f"{suit} (") and said[-1].endswith("are trumps now"), said[-3:]
    assert sum("are trumps now" in line for line in said) == 1


def test_a_partner_who_passes_an_offered_turn_is_said_to_declare_nothing() -> None:
    """After "You let North declare instead", North's pass was logged "North draws; you draw
    K♠", as if North had won the trick and drew first."""
    from bezique import Rules, State
    from bezique.actions import OFFER, PASS
    from bezique.tui.words import describe

    rng = random.Random(4)
    state = State.new_deal(Rules.preset("bezique4"), seed=2)
    names = ("You", "West", "North", "East")
    while True:
        legal = state.legal_actions()
        if state.current_player() == 0 and OFFER in legal:
            break
        state.apply_action(rng.choice([a for a in legal if a != OFFER] or legal))
    state.apply_action(OFFER)
    assert state.current_player() == 2
    before = state.clone()
    state.apply_action(PASS)
    line = describe(before, PASS, state, names)[0]
    assert line.startswith("North declares nothing; you draw "), line
    # a partner who declared after the offer is done declaring, not "declares nothing"
    for seed in range(40):
        state = State.new_deal(Rules.preset("bezique4"), seed=seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            turn = state.current_player()
            if turn != state.last_trick_winner and PASS in legal and len(legal) > 1:
                state.apply_action(next(a for a in legal if a != PASS))  # the partner declares
                if PASS in state.legal_actions() and state.current_player() == turn:
                    before = state.clone()
                    state.apply_action(PASS)
                    line = describe(before, PASS, state, names)[0]
                    who = "You are" if turn == 0 else f"{names[turn]} is"
                    assert line.startswith(f"{who} done declaring; you draw "), line
                    return
                continue
            state.apply_action(rng.choice([a for a in legal if a != PASS] or legal))
    raise AssertionError("no partner declared after an offer in 40 deals")


async def test_the_footer_names_the_explain_key() -> None:
    """The footer never listed e (explain hints): only the rules screen did."""
    app = make_app(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for _ in range(50):  # (the footer is rebuilt after a refresh: slow on a loaded machine)
            footer = screen_text(app).splitlines()[-1]
            if "h Hint" in footer:
                break
            await pilot.pause(0.02)
        assert "e Explain" in footer and "h Hint" in footer and "q Quit" in footer, footer
