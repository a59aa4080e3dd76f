"""A player's review of ``bezique play`` at a table of three and four, in Eight-pack, on the
start screen and at the game's end, and of ``bezique replay`` of a table's game: each test is a
thing a player tripped over in 80×24.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_tui import game_screen, screen_text, settle
from test_tui_ux import play_out, step

from bezique.cards import card_symbol, make_card
from bezique.cli import main
from bezique.tui.app import BeziqueApp
from bezique.tui.modals import SummaryScreen, rules_text
from bezique.tui.session import PlayConfig, Session, save_path
from bezique.tui.start import VARIANT_CHOICES, StartScreen
from bezique.tui.table_seats import whose_turn_n
from bezique.tui.widgets import HandView


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test saves into its own directory, never the user's."""
    d = tmp_path / "data"
    monkeypatch.setenv("BEZIQUE_DATA_DIR", str(d))
    return d


def session_until(variant: str, until: Callable[[Session], bool], seed: int = 3,
                  **options: Any) -> Session:
    """A saved session of ``variant`` played at random until ``until`` holds."""
    s = Session.new(PlayConfig(level=1, seed=seed, variant=variant, options=dict(options)),
                    save_path())
    rng = random.Random(seed)
    while not until(s):
        assert not s.game_over()
        step(s, rng)
    return s


def resumed() -> BeziqueApp:
    return BeziqueApp(PlayConfig(level=1), save_path(), resume=True, delay=0)


def panel_text(app: BeziqueApp, selector: str) -> str:
    """The lines a panel shows on screen, as plain text."""
    region = app.screen.query_one(selector).region
    strips = list(app.screen._compositor.render_strips())
    return "\n".join(strips[y].text[region.x:region.right] for y in range(region.y,
                                                                          region.bottom))


@pytest.mark.parametrize("variant", ["bezique3", "bezique4"])
async def test_whose_turn_stays_in_the_score_panel_once_the_stock_is_gone(variant: str) -> None:
    """In the last tricks "Stock: empty · follow suit" takes two lines in 80 columns, and the
    score panel of a table pushed its last line, whose turn it is, out of sight."""
    s = session_until(variant, lambda s: s.state.end_phase and s.human_to_act())
    async with resumed().run_test(size=(80, 24)) as pilot:
        app = pilot.app
        assert isinstance(app, BeziqueApp)
        await settle(pilot, app)
        score = panel_text(app, "#score")
        assert "follow" in score
        assert whose_turn_n(s.observation(), False) in score, score


async def test_the_four_card_trick_won_fits_the_declaring_title_in_80_columns() -> None:
    """"You won the trick (K♣ Q♥ J♠ J♥): declare, or …": the four cards of the trick left no
    room for the end of the title, which tells what to do."""
    def may_declare(s: Session) -> bool:
        obs = s.observation()
        return (s.human_to_act() and obs.phase == "declare" and bool(obs.tricks)
                and obs.tricks[-1].winner == 0)

    s = session_until("bezique4", may_declare)
    cards = " ".join(card_symbol(c) for c in s.observation().tricks[-1].cards)
    async with resumed().run_test(size=(80, 24)) as pilot:
        app = pilot.app
        assert isinstance(app, BeziqueApp)
        await settle(pilot, app)
        text = screen_text(app)
        assert f"({cards}): declare, or draw" in text, text
        assert "…" not in text


async def test_the_game_over_footer_says_enter_plays_again() -> None:
    """After the game Enter plays again, but the footer said "Continue" (and hid n)."""
    play_out(Session.new(PlayConfig(level=1, seed=3, target=300), save_path()),
             random.Random(1))
    async with resumed().run_test(size=(80, 24)) as pilot:
        app = pilot.app
        assert isinstance(app, BeziqueApp)
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        footer = screen_text(app).splitlines()[-1]
        assert "Play again" in footer and "New game" in footer and "Continue" not in footer
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)


async def test_eight_packs_cards_beyond_the_twelfth_are_reached_by_the_arrows() -> None:
    """A hand of 15 cards has keys for 12: the prompt says how the last three are reached."""
    app = BeziqueApp(PlayConfig(level=1, seed=4, variant="eightpack"), save_path(), delay=0,
                     show_start=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        gs = game_screen(app)
        hand = gs.query_one("#hand", HandView)
        assert len(hand.slots) == 15
        assert "1-9 0 - = (13-15: ←/→)" in screen_text(app)
        await pilot.press("equals_sign")
        for index in (12, 13, 14):
            await pilot.press("right")
            assert hand.selected == index
        assert "thirteenth to fifteenth" in rules_text()


def test_the_replay_of_a_table_names_each_computer_by_its_seat() -> None:
    """The terminal saves a table's computers as "West: Computer (level 1 beginner)", and the
    replay repeated that in full for every card of every trick."""
    s = session_until("bezique3", lambda s: s.state.tricks_played >= 3)
    out = CliRunner().invoke(main, ["replay", str(s.path)])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == "West and East: Computer (level 1 beginner)"
    assert "West: Computer" not in "\n".join(lines[1:])
    tricks = [line for line in lines if line.startswith("Trick ")]
    assert tricks and all("West" in t and "East" in t and "Player" in t for t in tricks)


async def test_every_variant_on_the_start_screen_shows_whole_in_80_columns() -> None:
    """"Four-handed, each alone (128 cards)" wrapped onto a second line of the field."""
    from textual.widgets import Select

    app = BeziqueApp(PlayConfig(level=1), save_path(), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        select = app.screen.query_one("#variant", Select)
        for i, (label, _, _) in enumerate(VARIANT_CHOICES):
            select.value = i
            await pilot.pause()
            assert label in screen_text(app), label


def test_play_help_gives_the_tables_target() -> None:
    """--target said "default 1000", which is wrong at a table of three or four."""
    out = CliRunner().invoke(main, ["play", "--help"])
    text = " ".join(out.output.split())
    assert "2000 at a table of three or four" in text and "default 1000)" not in text


async def test_binocles_dix_is_not_called_the_seven() -> None:
    """In Binocle the nine of trumps (the dix) scores 10, not the seven, which is not in the
    pack: the log said "You exchange the seven of trumps", the hint "exchange the seven", the
    end of the deal "Sevens"."""
    from bezique.tui.modals import summary_table

    s = session_until("binocle", lambda s: s.human_to_act()
                      and "exchange" in s.observation().legal, seed=1)
    async with resumed().run_test(size=(80, 24)) as pilot:
        app = pilot.app
        assert isinstance(app, BeziqueApp)
        await settle(pilot, app)
        gs = game_screen(app)
        obs = s.observation()
        nine = card_symbol(make_card(obs.rules.seven_rank, obs.trump))
        gs._hint_done(gs.gen, obs, "exchange", [])  # the hint's words, whoever suggests it
        assert f"Hint: exchange {nine} for the turn-up" in screen_text(app)
        gs.human("exchange")
        await settle(pilot, app)
        assert app.session is not None
        s = app.session
    log = "\n".join(s.log)
    assert "You exchange the nine of trumps (the dix) for the turn-up (+10)" in log
    assert "seven" not in log
    rng = random.Random(1)
    while not s.deal_over():
        step(s, rng)
    table = summary_table(s, s.state)
    rows = list(table.columns[0].cells)
    assert "Dix (nines)" in rows and "Sevens" not in rows


def test_the_duels_of_the_four_handed_end_are_told_with_their_last_tricks() -> None:
    """With ``four_hand_end = duels`` the log and the demo went on trick by trick without
    saying who now plays whom, and the first duel's last trick (+10) was silent in the demo and
    "the last trick" in the log, as if the deal were over."""
    s = session_until("bezique4", Session.deal_over, seed=4, four_hand_end="duels")
    log = "\n".join(s.log)
    assert "The last tricks are two duels: West v North, then East v you" in log
    assert "takes the last trick of the first duel (+10)" in log
    out = CliRunner().invoke(main, ["demo", "--variant", "bezique4", "--seed", "5",
                                    "-o", "four_hand_end=duels"])
    assert out.exit_code == 0, out.output
    assert "  The last tricks are two duels: North against East, then South against West." \
        in out.output
    assert "wins the last trick of the first duel: +10" in out.output
