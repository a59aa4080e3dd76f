"""``bezique play`` as a demanding player finds it: the command line's refusals (one line, status
2, never a traceback), the game-over screen of a long game in 80×24, "play again" keeping the
player's name, the computer's panel with many shown cards, the title line at 80 columns, a hint
for a declaration naming the meld, a game whose end was taken back, and the save's record.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_tui import game_screen, screen_text, settle
from test_tui_ux import data_dir, play_out, step  # noqa: F401 (data_dir: every test saves apart)

from bezique.cli import main
from bezique.tui.app import BeziqueApp
from bezique.tui.modals import SummaryScreen
from bezique.tui.session import PlayConfig, Session, history_dir, save_path
from bezique.tui.table import title_bar


def one_line_error(args: list[str], words: str) -> None:
    """``bezique play ARGS`` refuses in one line with status 2, before the app starts."""
    def run(self: BeziqueApp) -> None:
        raise AssertionError("the app was started")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(BeziqueApp, "run", run)
        out = CliRunner().invoke(main, ["play", *args])
    assert out.exit_code == 2, out.output
    assert words in out.output and "Traceback" not in out.output
    assert len(out.output.strip().splitlines()) == 1, out.output


# ---------------------------------------------------------------- the command line

@pytest.mark.parametrize("value", ["²", "½"])
def test_resume_with_a_digit_that_is_not_a_number_is_one_line(value: str) -> None:
    one_line_error(["--resume", value], "--resume takes the number of a kept game")


@pytest.mark.parametrize("args,flags", [
    (["--level", "4"], "--level"),
    (["--variant", "rubicon", "-o", "reuse=true"], "--variant and -o"),
    (["--opponent", "random"], "--opponent"),
])
def test_resume_with_choices_of_a_new_game_is_refused_not_ignored(args: list[str],
                                                                  flags: str) -> None:
    Session.new(PlayConfig(level=1, seed=3), save_path())
    one_line_error(["--resume", *args], f"leave out {flags}")


def test_a_data_folder_that_cannot_be_written_is_one_line(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("BEZIQUE_DATA_DIR", str(blocker / "data"))
    one_line_error(["--level", "1"], "cannot save games in")


# ---------------------------------------------------------------- the game-over screen

async def test_the_game_over_screen_of_a_long_game_keeps_its_keys_and_scrolls() -> None:
    s = play_out(Session.new(PlayConfig(level=1, seed=1, variant="bezique3"), save_path()),
                 random.Random(4))
    assert s.deal_number() > 12  # more deals than 24 lines show
    app = BeziqueApp(PlayConfig(level=1), save_path(), resume=True, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        text = screen_text(app)
        assert "play again" in text and "q: quit" in text  # the keys, whole
        assert "wins the game" in text or "win the game" in text
        last = re.compile(rf"█\s+{s.deal_number()}\s+\d")  # the last deal's row
        assert not last.search(text)
        await pilot.press("end")  # the last deals scroll into view
        await pilot.pause()
        assert last.search(screen_text(app)), screen_text(app)
        assert "q: quit" in screen_text(app)


async def test_play_again_keeps_the_players_name() -> None:
    play_out(Session.new(PlayConfig(level=1, seed=3, target=100, name="Ann"), save_path()),
             random.Random(1))
    app = BeziqueApp(PlayConfig(level=1), save_path(), resume=True, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("a")
        await settle(pilot, app)
        s = app.session
        assert s is not None and not s.game_over()
        assert s.name == "Ann" and s.rules.target == 100
        assert "Ann" in screen_text(app).splitlines()[0]
        assert s.record()["players"][0] == "Ann"


# ---------------------------------------------------------------- the table at 80×24

def many_shown(seed: int, want: int) -> Session:
    """An Eight-pack deal, the person to play, where the computer shows ``want`` cards or more."""
    s = Session.new(PlayConfig(level=2, seed=seed, variant="eightpack"), save_path())
    rng = random.Random(seed)
    while not s.deal_over():
        obs = s.observation()
        if s.human_to_act():
            if len(obs.shown[1]) >= want and obs.phase in ("lead", "follow"):
                return s
            melds = [a for a in obs.legal if a.startswith("meld ")]
            s.play(melds[0] if melds else rng.choice(obs.legal))
        else:
            s.computer_move()
    raise AssertionError("the computer never showed so many cards")


async def test_the_computers_panel_grows_so_its_melds_are_not_cut_off() -> None:
    s = many_shown(2, 12)
    obs = s.observation()
    app = BeziqueApp(PlayConfig(level=1), save_path(), resume=True, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        opp = app.screen.query_one("#opp")
        region = opp.region
        lines = screen_text(app).splitlines()[region.y:region.y + region.height]
        panel = "\n".join(ln[region.x:region.x + region.width] for ln in lines)
        assert "Melds:" in panel, panel  # the computer's melds line is drawn
        assert f"({len(obs.shown[1])} shown)" in panel
        assert app.session is not None and app.session.human_to_act()
        assert any(w in screen_text(app) for w in ("Your lead", "Your turn to follow"))


@pytest.mark.parametrize("opponent,level", [("", 5), ("search:samples=200", 3)])
def test_the_title_line_fits_80_columns(opponent: str, level: int) -> None:
    s = Session.new(PlayConfig(level=level, seed=3, variant="eightpack",
                               name="Bartholomew Montgomery", opponent=opponent))
    line = title_bar(s, 78)
    assert line.cell_len <= 78
    assert s.strength() in line.plain and "Deal 1" in line.plain
    assert "Bartholomew" in title_bar(s).plain  # with room, the whole line


async def test_a_hint_for_a_declaration_names_the_meld() -> None:
    app = BeziqueApp(PlayConfig(level=1, seed=5), save_path(), delay=0, show_start=False)
    rng = random.Random(5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        s = app.session
        assert s is not None
        gs = game_screen(app)
        while not any(a.startswith("meld ") for a in gs.option_actions if gs._mode == "declare"):
            assert not s.deal_over()
            obs = s.observation()
            s.play(rng.choice(obs.legal))
            gs.refresh_view()
            gs.proceed()
            await settle(pilot, app)
        meld = next(a for a in gs.option_actions if a.startswith("meld "))
        obs = s.observation()
        gs._hint_done(gs.gen, obs, meld, [])
        status = str(gs.query_one("#status").render())
        kind = s.rules.melds[s.state.classify(s.state.string_to_action(meld) >> 9)]
        assert f"Hint: declare {kind.name}" in status, status
        assert f"+{kind.points}" in status


# ---------------------------------------------------------------- the end taken back

def test_an_end_taken_back_leaves_no_finished_copy_for_the_statistics() -> None:
    s = play_out(Session.new(PlayConfig(level=1, seed=3, target=50), save_path()),
                 random.Random(2))
    done = history_dir() / f"{s.game_id}.json"
    assert done.exists()
    s.undo()
    assert not s.game_over() and not done.exists()
    out = CliRunner().invoke(main, ["stats"])
    assert out.exit_code == 0
    resumed: Any = Session.resume(save_path())
    assert not resumed.game_over()


def test_the_save_holds_the_whole_record_though_finished_deals_are_written_once() -> None:
    """The save after each move writes each finished deal out once, not afresh: the file is
    still the whole record as ``json.dumps(record, indent=1)`` gives it, after moves, new
    deals and an undo."""
    s = Session.new(PlayConfig(level=1, seed=1, variant="bezique3"), save_path())
    rng = random.Random(4)
    undone = False
    while s.deal_number() < 4:
        step(s, rng)
        if s.deal_over() or rng.random() < 0.03:
            assert save_path().read_text() == json.dumps(s.record(), indent=1)
        if s.deal_number() == 3 and not undone and s.human_to_act() and s.state.history() \
                and any(p == 0 for p, _ in s.state.history()):
            s.undo()
            undone = True
            assert save_path().read_text() == json.dumps(s.record(), indent=1)
    assert undone and save_path().read_text() == json.dumps(s.record(), indent=1)
    assert len(json.loads(save_path().read_text())["deals"]) == 4
