"""Defects found reviewing the ``bezique`` command against its README: the replay's last line
says what ``--json``'s ``game`` says, mistakes name their command, long runs refuse a bad output
before playing, and a records folder never mixes two matches."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bezique.cli import main


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def one_line_error(result: Any, *words: str) -> str:
    """The single stderr line of a refused command (exit status 2), checked for ``words``."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bezique: error: "), result.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return str(lines[0])


def demo_record(tmp_path: Path, name: str, *args: str) -> Path:
    path = tmp_path / name
    r = run("demo", *args, "--save", str(path))
    assert r.exit_code == 0, r.output
    return path


def last_line(path: Path) -> str:
    r = run("replay", str(path))
    assert r.exit_code == 0, r.output
    return str(r.stdout.splitlines()[-1])


def json_game(path: Path) -> dict[str, Any]:
    r = run("replay", str(path), "--json")
    assert r.exit_code == 0, r.output
    game: dict[str, Any] = json.loads(r.stdout)["game"]
    return game


# ------------------------------------------------------------------ replay: the game's line


def test_replay_of_a_one_deal_game_ends_with_its_settled_value(tmp_path: Path) -> None:
    path = demo_record(tmp_path, "rubicon.json", "--variant", "rubicon", "--seed", "2")
    game = json_game(path)
    winner = game["winner"]
    assert winner is not None and sorted(game["scores"])[0] == 0
    line = last_line(path)
    totals = ", ".join(f"Player {i} {v}" for i, v in enumerate(game["scores"]))
    assert line == f"Game (its settled value): {totals}. Player {winner} wins the game."


def test_replay_of_two_one_deal_games_sums_their_values(tmp_path: Path) -> None:
    a = json.loads(demo_record(tmp_path, "a.json", "--variant", "rubicon", "--seed", "2")
                   .read_text())
    b = json.loads(demo_record(tmp_path, "b.json", "--variant", "rubicon", "--seed", "3")
                   .read_text())
    both = tmp_path / "both.json"
    both.write_text(json.dumps({**a, "deals": a["deals"] + b["deals"]}))
    game = json_game(both)
    totals = ", ".join(f"Player {i} {v}" for i, v in enumerate(game["scores"]))
    end = ("No winner." if game["winner"] is None
           else f"Player {game['winner']} wins overall.")
    assert last_line(both) == f"2 games (the sum of their settled values): {totals}. {end}"


def test_replay_of_a_partnership_names_the_sides(tmp_path: Path) -> None:
    path = demo_record(tmp_path, "four.json", "--variant", "bezique4", "--deals", "0",
                       "-o", "target=300", "--seed", "1")
    game = json_game(path)
    assert game["winner"] in (0, 1)
    sides = ["Player 0 & Player 2", "Player 1 & Player 3"]
    assert last_line(path) == (f"Game: {sides[0]} {game['scores'][0]}, {sides[1]} "
                               f"{game['scores'][1]}. {sides[game['winner']]} win the game.")


def test_replay_of_a_two_handed_game_is_unchanged(tmp_path: Path) -> None:
    path = demo_record(tmp_path, "two.json", "--seed", "1")
    game = json_game(path)
    assert last_line(path) == (f"Game: Player 0 {game['scores'][0]}, Player 1 "
                               f"{game['scores'][1]}. No winner yet.")


def test_replay_legal_without_json_is_refused(tmp_path: Path) -> None:
    path = demo_record(tmp_path, "two.json", "--seed", "1")
    one_line_error(run("replay", str(path), "--legal"), "--legal", "--json")


# ------------------------------------------------------------------ mistakes on the command line


@pytest.mark.parametrize(("args", "command"), [
    (("demo", "--variant"), "bezique demo"),
    (("arena", "random", "random", "--deals"), "bezique arena"),
    (("selfplay", "random", "random", "--out"), "bezique selfplay"),
])
def test_an_option_without_its_value_names_the_command(args: tuple[str, ...],
                                                        command: str) -> None:
    one_line_error(run(*args), "requires an argument", f"(see '{command} --help')")


def test_zero_games_is_said_as_games() -> None:
    one_line_error(run("arena", "random", "random", "--games", "0"),
                   "the number of games must be at least 1")


# ------------------------------------------------------------------ outputs refused before a run


def test_tournament_refuses_a_bad_out_before_playing(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import bezique.tournament

    def no_play(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("played before checking --out")

    monkeypatch.setattr(bezique.tournament, "run_tournament", no_play)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    one_line_error(run("tournament", "random", "heuristic", "--deals", "2", "--out",
                       str(blocker / "sub")), "cannot create")


def test_selfplay_refuses_a_bad_out_before_playing(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyarrow")
    import bezique.selfplay

    def no_play(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("played before checking --out")

    monkeypatch.setattr(bezique.selfplay, "play_selfplay", no_play)
    one_line_error(run("selfplay", "random", "random", "--deals", "2", "--out",
                       str(tmp_path / "missing" / "x.parquet")), "cannot write", "not a folder")


# ------------------------------------------------------------------ one match a records folder


@pytest.mark.parametrize("table", [False, True])
def test_a_new_match_refuses_a_folder_of_saved_records(tmp_path: Path, table: bool) -> None:
    agents = ["random", "heuristic", "random"] if table else ["random", "heuristic"]
    variant = ["--variant", "bezique3"] if table else []
    first = run("arena", *agents, *variant, "--deals", "3", "--save", str(tmp_path))
    assert first.exit_code == 0, first.output
    saved = sorted(p.name for p in tmp_path.iterdir())
    other = run("arena", *reversed(agents), *variant, "--deals", "3", "--save", str(tmp_path))
    one_line_error(other, "already holds the records of a match", "--resume")
    assert sorted(p.name for p in tmp_path.iterdir()) == saved
    again = run("arena", *agents, *variant, "--deals", "3", "--save", str(tmp_path), "--resume")
    assert again.exit_code == 0, again.output
