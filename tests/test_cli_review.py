"""Defects found reviewing the ``bezique`` command against its README: the replay's last line
says what ``--json``'s ``game`` says, mistakes name their command, long runs refuse a bad output
before playing, and a records folder never mixes two matches."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bezique import Rules
from bezique.cli import main
from bezique.game import Game


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


def names(path: Path) -> list[str]:
    """The players' names the demo kept in its record (North, South; East and West at four)."""
    got: list[str] = json.loads(path.read_text())["players"]
    return got


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
    who = names(path)
    assert who == ["North", "South"]
    totals = ", ".join(f"{who[i]} {v}" for i, v in enumerate(game["scores"]))
    assert line == f"Game (its settled value): {totals}. {who[winner]} wins the game."


def test_replay_of_two_one_deal_games_sums_their_values(tmp_path: Path) -> None:
    a = json.loads(demo_record(tmp_path, "a.json", "--variant", "rubicon", "--seed", "2")
                   .read_text())
    # the second game is dealt by the other player: the deal alternates (RULES.md 9.0.1), so
    # two demo games (both dealt by seat 1) glued together are no record (test_records_review)
    assert a["deals"][0]["dealer"] == 1
    b = Game(Rules.preset("rubicon"), seed=3, first_dealer=0)
    rng = random.Random(3)
    while not b.state.is_terminal():
        b.state.apply_action(rng.choice(b.state.legal_actions()))
    both = tmp_path / "both.json"
    both.write_text(json.dumps({**a, "deals": a["deals"] + b.to_record()["deals"]}))
    game = json_game(both)
    who = names(both)
    totals = ", ".join(f"{who[i]} {v}" for i, v in enumerate(game["scores"]))
    end = ("No winner." if game["winner"] is None
           else f"{who[game['winner']]} wins overall.")
    assert last_line(both) == f"2 games (the sum of their settled values): {totals}. {end}"


def test_replay_of_a_partnership_names_the_sides(tmp_path: Path) -> None:
    path = demo_record(tmp_path, "four.json", "--variant", "bezique4", "--deals", "0",
                       "-o", "target=300", "--seed", "1")
    game = json_game(path)
    assert game["winner"] in (0, 1)
    sides = ["North & South", "East & West"]  # seats 0 & 2, then 1 & 3
    assert names(path) == ["North", "East", "South", "West"]
    assert last_line(path) == (f"Game: {sides[0]} {game['scores'][0]}, {sides[1]} "
                               f"{game['scores'][1]}. {sides[game['winner']]} win the game.")


def test_replay_of_a_two_handed_game_is_unchanged(tmp_path: Path) -> None:
    path = demo_record(tmp_path, "two.json", "--seed", "1")
    game = json_game(path)
    assert last_line(path) == (f"Game: North {game['scores'][0]}, South "
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


@pytest.mark.parametrize("args, first", [
    (["random", "random", "--deals", "1"], "random vs random: 2 deals (1 duplicated pair), "),
    (["random", "random", "--deals", "3"], "random vs random: 4 deals (2 duplicated pairs), "),
    (["random", "random", "random", "--variant", "bezique3", "--deals", "1"],
     "random vs random vs random: 3 deals (1 duplicated deal x 3 seatings), "),
])
def test_the_arena_counts_its_pairs_in_good_english(args: list[str], first: str) -> None:
    """An odd number of deals is rounded up to whole sets (as --help says), and one pair is
    "1 duplicated pair", not "1 duplicated pairs"."""
    res = CliRunner().invoke(main, ["arena", *args, "--seed", "1"])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[0].startswith(first)
    assert "rounded up to whole sets" in CliRunner().invoke(main, ["arena", "--help"]).output
