"""Weeks of play as a returning player meets them: the saved games and the statistics.  Two
terminals at once lose no game, a damaged save is neither overwritten nor silently left out of
``bezique stats``, a folder that cannot be written does not end the game, a hand-edited save
writes nothing outside the data folder, the games of two are told apart by variant (a deal of
Rubicon is not one of Bezique), a game kept in two files counts its latest copy, and the replay
of an unnamed player's game reads in the third person."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_tui_ux import play_out, step

from bezique.cli import main
from bezique.stats import tally
from bezique.tui.history import saved_games, stats_lines
from bezique.tui.session import (
    PlayConfig,
    Session,
    history_dir,
    keep_unfinished,
    numbered_save,
    numbered_saves,
    save_path,
)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test saves into its own directory (``data_dir`` names it for the tests)."""
    d = tmp_path / "data"
    monkeypatch.setenv("BEZIQUE_DATA_DIR", str(d))
    return d


def started(seed: int, moves: int = 12, **kw: object) -> Session:
    s = Session.new(PlayConfig(level=1, seed=seed, name="Ann", **kw), save_path())  # type: ignore[arg-type]
    rng = random.Random(seed)
    for _ in range(moves):
        step(s, rng)
    return s


# ---------------------------------------------------------------- two terminals at once

def test_a_new_game_in_a_second_terminal_is_not_overwritten_by_the_first() -> None:
    rng = random.Random(1)
    a = started(3)  # terminal 1 plays on
    assert keep_unfinished(save_path()) == 1  # terminal 2: `bezique play`, a new game
    b = started(4)
    step(a, rng)  # terminal 1's next move
    step(a, rng)
    on_disk = {Session.resume(f).game_id: Session.resume(f) for f in
               [save_path(), *(f for _, f in numbered_saves())]}
    assert set(on_disk) == {a.game_id, b.game_id}  # both games are kept
    assert on_disk[b.game_id].state.history_strings() == b.state.history_strings()
    assert on_disk[a.game_id].state.history_strings() == a.state.history_strings()
    assert a.path == numbered_save(1)  # terminal 1 goes on in the save its game was kept as
    assert len(saved_games()) == 2


def test_a_game_whose_file_another_game_took_takes_a_number_of_its_own() -> None:
    a = play_out(started(5, moves=0, target=100), random.Random(5))
    b = started(6)  # over a finished game: nothing is kept aside
    a.undo()  # terminal 1 takes back the end of its finished game
    assert Session.resume(save_path()).game_id == b.game_id
    assert a.path is not None and a.path != save_path()
    assert Session.resume(a.path).state.history_strings() == a.state.history_strings()


# ---------------------------------------------------------------- damaged and hand-edited files

def test_a_damaged_save_is_kept_aside_not_overwritten_by_a_new_game(data_dir: Path) -> None:
    started(3)
    text = save_path().read_text(encoding="utf-8")[:300]  # as an editor might leave it
    save_path().write_text(text, encoding="utf-8")
    assert keep_unfinished(save_path()) == 1
    assert numbered_save(1).read_text(encoding="utf-8") == text  # nothing is lost
    out = CliRunner().invoke(main, ["play", "--saves"])
    assert "1: cannot be read" in out.output and "Traceback" not in out.output


def test_stats_name_a_file_they_cannot_read_and_count_the_rest() -> None:
    play_out(started(3, moves=0, target=100), random.Random(3))
    history_dir().joinpath("broken.json").write_text('{"variant": "bezique", "dea',
                                                     encoding="utf-8")
    lines = stats_lines()
    bad = [ln for ln in lines if "broken.json" in ln]
    assert len(bad) == 1 and bad[0].startswith("Not counted:") and "cannot be read" in bad[0]
    assert "Ann, all games" in lines[0]
    from bezique.tui.history import gather

    games, problems = gather()
    assert len(games) == 1 and len(problems) == 1
    out = CliRunner().invoke(main, ["stats"])
    assert out.exit_code == 0 and "Not counted:" in out.output and "Traceback" not in out.output
    out = CliRunner().invoke(main, ["stats", "--json"])
    rows = json.loads(out.stdout)  # the JSON stays whole; the warning goes to stderr
    assert next(r for r in rows if r["against"] == "all")["games"] == 1
    assert "Not counted:" in out.stderr


def test_a_hand_edited_id_writes_nothing_outside_the_history(data_dir: Path) -> None:
    started(3, target=100)
    data = json.loads(save_path().read_text(encoding="utf-8"))
    data["play"]["id"] = "../../escaped"
    data["play"]["human"] = True  # not a seat: the person is seat 0
    data["play"]["level"] = True  # not a level
    save_path().write_text(json.dumps(data), encoding="utf-8")
    s = play_out(Session.resume(save_path()), random.Random(1))
    assert s.level == 3 and "True" not in s.strength()
    assert not (data_dir.parent / "escaped.json").exists()
    assert not (data_dir / "escaped.json").exists()
    assert list(history_dir().glob("*.json")) == [history_dir() / f"{s.game_id}.json"]
    games = saved_games()
    assert len(games) == 1 and games[0].player == "Ann" and games[0].won == (s.game.winner == 0)


# ---------------------------------------------------------------- a folder that cannot be written

def test_a_history_folder_that_cannot_be_written_does_not_end_the_game(data_dir: Path) -> None:
    s = started(3, moves=0, target=100)
    history_dir().write_text("", encoding="utf-8")  # the folder cannot be made
    play_out(s, random.Random(3))  # no exception at the end of the game
    assert s.unsaved and str(history_dir()) in s.unsaved
    told = [ln for ln in s.log if "cannot be saved" in ln]
    assert len(told) == 1 and "goes on" in told[0]
    history_dir().unlink()
    s.undo()  # the end taken back, and saved: the log says so
    assert not s.unsaved and s.log[-1] == f"The game is saved again in {save_path()}."
    play_out(s, random.Random(4))
    assert (history_dir() / f"{s.game_id}.json").exists()


# ---------------------------------------------------------------- what the statistics count

def test_the_games_of_two_are_counted_by_variant() -> None:
    rng = random.Random(2)
    played = {}
    for variant, target in (("bezique", 100), ("binocle", 100), ("rubicon", None),
                            ("bezique", 100)):
        keep_unfinished(save_path())
        s = Session.new(PlayConfig(level=1, seed=rng.randrange(999), variant=variant,
                                   target=target, name="Ann"), save_path())
        played.setdefault(variant, []).append(play_out(s, rng))
    t = tally(saved_games())
    groups = {"bezique": "computer, level 1 (beginner)",
              "binocle": "computer, level 1 (beginner), Binocle",
              "rubicon": "computer, level 1 (beginner), Rubicon"}
    for variant, against in groups.items():
        got = t[("Ann", against)]
        mine = played[variant]
        assert got.games == len(mine)
        assert got.games_won == sum(s.game.winner == 0 for s in mine)
        deals = [st for s in mine for st in s.game.all_deals()]
        assert got.deals == len(deals) and got.points == sum(st.scores[0] for st in deals)
    assert t[("Ann", "all")].games == 4
    assert "Ann against computer, level 1 (beginner), Rubicon" in stats_lines()


def test_of_two_copies_of_one_unfinished_game_the_latest_counts(data_dir: Path) -> None:
    s = started(3, moves=4)  # a game of 1000: one deal does not end it
    old = save_path().read_text(encoding="utf-8")
    rng = random.Random(3)
    while len([st for st in s.game.all_deals() if st.is_terminal()]) < 1:
        step(s, rng)
    numbered_save(1).write_text(old, encoding="utf-8")  # a stale copy, as an older version left
    past = save_path().stat().st_mtime - 60
    os.utime(numbered_save(1), (past, past))
    games = saved_games()
    assert len(games) == 1 and games[0].won is None
    assert len(games[0].deals) == 1  # the deal finished in the latest copy is counted


# ---------------------------------------------------------------- the replay

def test_the_replay_of_an_unnamed_players_game_reads_in_the_third_person() -> None:
    s = play_out(Session.new(PlayConfig(level=1, seed=3, target=100), save_path()),
                 random.Random(3))
    assert s.record()["players"][0] == "You"
    out = CliRunner().invoke(main, ["replay", str(save_path())])
    assert out.exit_code == 0
    assert "You wins" not in out.output and "You leads" not in out.output
    assert "Player" in out.output.splitlines()[-1]


def test_bezique_play_names_the_save_a_game_went_on_in() -> None:
    """The line after the game names the file the game is really in: another terminal's new
    game moved this one to save 1, so 'bezique play --resume' alone would open the other."""
    from bezique.tui.app import BeziqueApp

    def run(self: BeziqueApp) -> None:  # the person plays while a second terminal starts anew
        self.session = Session.resume(save_path())
        step(self.session, random.Random(1))
        keep_unfinished(save_path())
        started(9)
        step(self.session, random.Random(2))

    started(3)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(BeziqueApp, "run", run)
        out = CliRunner().invoke(main, ["play", "--resume"])
    assert out.exit_code == 0, out.output
    assert f"Game saved in {numbered_save(1)}" in out.output
    assert "Continue with: bezique play --resume 1" in out.output
