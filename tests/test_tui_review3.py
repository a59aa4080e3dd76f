"""A third player's review of ``bezique play`` in 80×24: the hint while guessing the cut; the
start screen after a game of four each alone or to a target (the partnership and the target left
in its fields); the statistics wrapped in 80 columns; a game resumed at a deal's end; a click on
a card while declaring — each test a thing a player tripped over.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_tui import game_screen, screen_text, settle
from test_tui_family_review import session_until
from test_tui_ux import play_out
from textual.widgets import Input, Select

from bezique.tui.app import BeziqueApp
from bezique.tui.choices import ChoiceList
from bezique.tui.history import stats_lines
from bezique.tui.modals import StatsScreen, SummaryScreen
from bezique.tui.session import PlayConfig, Session, save_path
from bezique.tui.start import VARIANT_CHOICES, StartScreen


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test saves into its own directory, never the user's."""
    d = tmp_path / "data"
    monkeypatch.setenv("BEZIQUE_DATA_DIR", str(d))
    return d


def choice_index(label: str) -> int:
    """The entry of the start screen's Variant field with this label."""
    return next(i for i, (lab, _, _) in enumerate(VARIANT_CHOICES) if lab == label)


async def test_a_hint_while_guessing_the_cut_names_the_guess_and_highlights_it() -> None:
    """Six-pack with the cut bonus: h before the first trick said "thinking about a hint…" for
    ever (the guess "guess 21" was read as a card, and the answer was lost)."""
    app = BeziqueApp(PlayConfig(level=1, seed=1, variant="sixpack",
                                options={"cut_bonus": True}), save_path(), delay=0,
                     show_start=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        gs = game_screen(app)
        assert app.session is not None and app.session.observation().phase == "guess"
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = screen_text(app).splitlines()[-2]
        assert "thinking" not in status
        assert status.strip().startswith("Hint: guess a cut of "), status
        guess = int(status.split("cut of ")[1].split()[0])
        chosen = gs.query_one("#choices", ChoiceList).highlighted
        assert chosen is not None and gs.option_actions[chosen] == f"guess {guess}"
        await pilot.press("enter")  # the hinted guess is taken as it is highlighted
        await settle(pilot, app)
        assert f"You guess a cut of {guess} cards" in "\n".join(app.session.log)


async def test_after_a_game_each_alone_the_start_screen_starts_the_partnership_chosen() -> None:
    """After a four-handed game each alone, n (new game) showed "partnership=False" among the
    other options: choosing "4-handed, partners" still dealt a game each alone, and choosing any
    other variant was refused ("option 'partnership' does not apply to bezique")."""
    play_out(Session.new(PlayConfig(level=1, seed=3, variant="bezique4", target=300,
                                    options={"partnership": "false"}), save_path()),
             random.Random(1))
    app = BeziqueApp(PlayConfig(level=1), save_path(), resume=True, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("n")
        await pilot.pause()
        start = app.screen
        assert isinstance(start, StartScreen)
        variant = start.query_one("#variant", Select)
        assert variant.value == choice_index("4-handed, each alone (128 cards)")
        assert "partnership" not in start.query_one("#options", Input).value
        assert "partnership" not in screen_text(app)
        variant.value = choice_index("Bezique (64 cards)")
        await pilot.pause()
        assert start._config().variant == "bezique"  # (refused before)
        variant.value = choice_index("4-handed, partners (128 cards)")
        await pilot.pause()
        await pilot.click("#start")
        await settle(pilot, app)
        assert app.session is not None
        assert app.session.rules.variant == "bezique4" and app.session.state.partner(0) == 2
        assert "North (partner)" in screen_text(app)


async def test_partnership_typed_among_the_other_options_is_sent_to_the_variant_field() -> None:
    """The Variant field chooses partners or each alone; typed among the other options it
    contradicted the field without a word."""
    app = BeziqueApp(PlayConfig(level=1), save_path(), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        start = app.screen
        assert isinstance(start, StartScreen)
        start.query_one("#variant", Select).value = choice_index("4-handed, partners (128 cards)")
        start.query_one("#options", Input).value = "partnership=false"
        await pilot.pause()
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert "partnership is chosen in the Variant field" in screen_text(app)


async def test_a_one_deal_game_is_started_though_the_last_game_had_a_target() -> None:
    """The start screen after a game to 1500 kept "1500" in the target field: choosing
    Rubicon (one deal, no target) was refused with "option 'target' does not apply to
    rubicon"; the field is emptied and closed for a one-deal game."""
    app = BeziqueApp(PlayConfig(level=1, target=1500), save_path(), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        start = app.screen
        assert isinstance(start, StartScreen)
        target = start.query_one("#target", Input)
        assert target.value == "1500" and not target.disabled
        start.query_one("#variant", Select).value = choice_index("Rubicon (128 cards, one deal)")
        await pilot.pause()
        assert target.value == "" and target.disabled
        assert "one deal: no target" in screen_text(app)
        await pilot.click("#start")
        await settle(pilot, app)
        assert app.session is not None and app.session.rules.variant == "rubicon"


async def test_the_statistics_keep_each_wrapped_line_under_its_indent() -> None:
    """In 80 columns "games 1 won of 1 (100%) · … · best meld" wrapped its meld to the left
    edge, where it read as the heading of another group of games."""
    play_out(Session.new(PlayConfig(level=1, seed=3, target=200, name="Ann"), save_path()),
             random.Random(3))
    wrapped = next(line for line in stats_lines() if line.startswith("  games "))
    assert len(wrapped) > 76  # longer than the screen's 76 columns of text
    app = BeziqueApp(PlayConfig(level=1), save_path(), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.click("#stats")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        lines = [row[2:-2] for row in screen_text(app).splitlines()[1:-2]]  # in the box
        meld = wrapped.split("best meld")[1].strip()
        assert f"  {meld}" in [line.rstrip() for line in lines], lines
        # at the left edge only the headings: "Ann, all games", "Ann against computer, …"
        assert all(line.startswith(("Ann", "Your statistics")) for line in lines
                   if line.strip() and not line.startswith(" ")), lines


async def test_a_game_resumed_at_the_end_of_a_deal_shows_the_logs_end_beside_the_summary() -> None:
    """Resumed at the end of a deal, the summary opened before the log was laid out, and the
    log beside it stayed in mid-deal ("Computer draws; you draw 8♦"); its last lines did not
    say the deal was over."""
    s = session_until("bezique", Session.deal_over, seed=2)
    over = s.log[-1]
    assert over.startswith("Deal over: ")
    app = BeziqueApp(PlayConfig(level=1), save_path(), resume=True, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        assert app.session is not None and app.session.log[-2:] == [over, "Game resumed"]
        box = game_screen(app).query_one("#log").region  # under the summary, to its right
        rows = screen_text(app).splitlines()[box.y:box.bottom]
        log = [row[box.x:box.right].strip("│ ▁▂▃▄▅▆▇█") for row in rows]
        assert log[-2] == "Game resumed", log


async def test_a_click_on_a_card_while_declaring_leaves_the_keys_with_the_declarations() -> None:
    """A click on a card while declarations were on offer took the keys to the hand: ↓ no
    longer moved through the declarations, and the footer said Enter plays a card (it took the
    highlighted declaration)."""
    session_until("bezique", lambda s: s.human_to_act() and s.observation().phase == "declare"
                  and len(s.observation().legal) > 2, seed=2)
    app = BeziqueApp(PlayConfig(level=1), save_path(), resume=True, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        gs = game_screen(app)
        choices = gs.query_one("#choices", ChoiceList)
        assert choices.highlighted == 0
        await pilot.click("#hand", offset=(3, 1))  # the first card
        await pilot.pause()
        await pilot.press("down")
        await pilot.pause()
        assert choices.highlighted == 1
        footer = screen_text(app).splitlines()[-1]
        assert "Choose" in footer and "Play" not in footer, footer
