"""A match cut short goes on from its saved records (``bezique arena --save DIR --resume``):
the same result as one uninterrupted run, only the missing sets played again, and a folder of
another match refused with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bezique import Rules
from bezique.arena import run_match
from bezique.arena_tables import play_table_match
from bezique.cli import main
from bezique.errors import BeziqueError


def _cut_short(folder: Path, what: str = "deal") -> dict[str, float]:
    """Lose what a stop would: one file of set 2, the end of one file of set 3.  Returns the
    modification times of the files left whole."""
    (folder / f"{what}-0002-2.json").unlink()
    third = folder / f"{what}-0003-1.json"
    third.write_text(third.read_text()[:200])
    return {f.name: f.stat().st_mtime_ns for f in folder.iterdir()
            if not f.name.startswith((f"{what}-0002", f"{what}-0003"))}


@pytest.mark.parametrize("mode", ["deals", "games"])
def test_a_resumed_two_seat_match_equals_one_run(tmp_path: Path, mode: str) -> None:
    rules = Rules.preset("bezique", target=300)
    count = {mode: 8}
    whole = run_match("random", "heuristic", rules, seed=5, **count)
    run_match("random", "heuristic", rules, seed=5, save=tmp_path, **count)
    kept = _cut_short(tmp_path, mode[:-1])
    seen: list[int] = []
    again = run_match("random", "heuristic", rules, seed=5, save=tmp_path, resume=True,
                      progress=seen.append, **count)
    assert again.to_json() == whole.to_json()
    assert [p.halves[0].score for p in again.pairs] == [p.halves[0].score for p in whole.pairs]
    assert [p.halves[1].points for p in again.pairs] == [p.halves[1].points for p in whole.pairs]
    assert seen == [2, 3, 4]  # two sets read back, two played
    assert {f.name: f.stat().st_mtime_ns for f in tmp_path.iterdir() if f.name in kept} == kept
    assert len(list(tmp_path.iterdir())) == 8


def test_a_resumed_table_match_equals_one_run(tmp_path: Path) -> None:
    rules = Rules.preset("bezique4")
    whole = play_table_match(["random", "heuristic"], rules, deals=8, seed=2)
    play_table_match(["random", "heuristic"], rules, deals=8, seed=2, save=tmp_path)
    assert len(list(tmp_path.iterdir())) == 8  # four sets of two seatings
    (tmp_path / "deal-0002-2.json").unlink()
    again = play_table_match(["random", "heuristic"], rules, deals=8, seed=2, save=tmp_path,
                             resume=True)
    assert again.to_json() == whole.to_json()


def test_resuming_in_the_folder_of_another_match_is_refused(tmp_path: Path) -> None:
    rules = Rules.preset("bezique")
    run_match("random", "heuristic", rules, deals=2, seed=1, save=tmp_path)
    with pytest.raises(BeziqueError, match="its players are"):
        run_match("heuristic", "random", rules, deals=2, seed=1, save=tmp_path, resume=True)
    with pytest.raises(BeziqueError, match="not the cards"):
        run_match("random", "heuristic", rules, deals=2, seed=2, save=tmp_path, resume=True)
    with pytest.raises(BeziqueError, match="other rules"):
        run_match("random", "heuristic", Rules.preset("bezique", target=500), deals=2, seed=1,
                  save=tmp_path, resume=True)


def test_resume_from_the_command(tmp_path: Path) -> None:
    args = ["arena", "random", "random:seed=3", "--deals", "4", "--json"]
    first = CliRunner().invoke(main, [*args, "--save", str(tmp_path)])
    assert first.exit_code == 0, first.output
    (tmp_path / "deal-0001-1.json").unlink()
    again = CliRunner().invoke(main, [*args, "--save", str(tmp_path), "--resume"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.output) == json.loads(first.output)
    bad = CliRunner().invoke(main, [*args, "--resume"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output
    assert bad.output.strip().splitlines() == [
        "bezique: error: --resume needs --save DIR: the folder of the records to go on from"]


def test_resume_into_an_empty_folder_says_it_starts_afresh(tmp_path: Path) -> None:
    """A mistyped folder would otherwise start a long match from scratch without a word."""
    args = ["arena", "random", "random:seed=3", "--deals", "2", "--json"]
    fresh = CliRunner().invoke(main, args)
    missing = tmp_path / "no-such-run"
    run = CliRunner().invoke(main, [*args, "--save", str(missing), "--resume"])
    assert run.exit_code == 0, run.output
    assert json.loads(run.stdout) == json.loads(fresh.stdout)
    assert run.stderr.strip() == (f"note: {missing} holds no saved records yet, so the match "
                                  f"starts from its first deal")
    again = CliRunner().invoke(main, [*args, "--save", str(missing), "--resume"])
    assert again.exit_code == 0 and again.stderr == ""
