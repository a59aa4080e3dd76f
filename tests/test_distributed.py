"""Matches and tournaments on Ray (bezique.distributed): a 2-worker local Ray gives exactly the
results of the local run for the same seed; a missing Ray is a one-line error."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import readme_examples

from bezique import Rules
from bezique.arena import run_match
from bezique.arena_tables import play_table_match
from bezique.cli import main
from bezique.distributed import check_reachable
from bezique.errors import BeziqueError
from bezique.tournament import run_tournament

ray = pytest.importorskip("ray", reason="tournaments on Ray need the research extra")

RULES = Rules.preset("bezique")
AGENTS = ("random", "heuristic", "heuristic:solver_cards=0")


def test_an_unreachable_cluster_is_a_one_line_error_at_once() -> None:
    # (before the tests below start their Ray: a running Ray would be used instead)
    assert not ray.is_initialized()
    with pytest.raises(BeziqueError, match=r"cannot reach the Ray cluster at 127\.0\.0\.1:1"):
        check_reachable("127.0.0.1:1")
    check_reachable("auto")  # left to Ray
    result = CliRunner().invoke(main, ["tournament", "random", "heuristic", "--deals", "2",
                                       "--ray", "ray://127.0.0.1:1"])
    assert result.exit_code == 2
    assert result.output.startswith("bezique: error: cannot reach the Ray cluster at "
                                    "ray://127.0.0.1:1: ")
    assert result.output.count("\n") == 1


@pytest.fixture(scope="module")
def two_workers() -> Iterator[None]:
    """A local Ray with two worker processes, shared by this module's tests."""
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR,
             log_to_driver=False)
    yield
    ray.shutdown()


def test_match_on_ray_equals_the_local_match(two_workers: None) -> None:
    local = run_match("heuristic", AGENTS[2], RULES, deals=6, seed=4)
    done: list[int] = []
    remote = run_match("heuristic", AGENTS[2], RULES, deals=6, seed=4, ray="local",
                       progress=done.append)
    assert remote.pairs == local.pairs
    assert remote.to_json() == local.to_json()
    assert done == [1, 2, 3]  # the same progress calls: pairs done so far


def test_table_match_on_ray_equals_the_local_match(two_workers: None) -> None:
    # the tables of three and four go through the same task path as the two-seat pairs
    rules = Rules.preset("bezique4")
    agents = ["random", "random:seed=1+random"]
    local = play_table_match(agents, rules, deals=8, seed=4)
    done: list[int] = []
    remote = play_table_match(agents, rules, deals=8, seed=4, ray="local", progress=done.append)
    assert remote.sets == local.sets
    assert remote.to_json() == local.to_json()
    assert done == [1, 2]


def test_table_arena_command_with_ray_prints_what_the_local_run_prints(two_workers: None
                                                                       ) -> None:
    args = ["arena", "random", "random:seed=2", "random", "--variant", "bezique3", "--deals",
            "6", "--seed", "9"]
    local = CliRunner().invoke(main, args)
    remote = CliRunner().invoke(main, [*args, "--ray"])
    assert local.exit_code == remote.exit_code == 0, remote.output
    assert remote.output == local.output


def test_tournament_on_ray_gives_the_same_table_as_the_local_run(two_workers: None) -> None:
    local = run_tournament(AGENTS, RULES, deals=4, seed=2)
    remote = run_tournament(AGENTS, RULES, deals=4, seed=2, ray="local")
    assert remote.markdown() == local.markdown()
    assert remote.csv() == local.csv()
    assert all(remote.matches[k].pairs == m.pairs for k, m in local.matches.items())


def test_arena_command_with_ray_prints_what_the_local_run_prints(two_workers: None) -> None:
    args = ["arena", "random", "heuristic", "--deals", "4", "--seed", "9"]
    local = CliRunner().invoke(main, args)
    remote = CliRunner().invoke(main, [*args, "--ray"])
    assert local.exit_code == remote.exit_code == 0, remote.output
    assert remote.output == local.output


def test_readme_ray_example_runs_and_writes_the_table_and_plot(
        two_workers: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (block,) = readme_examples("### Tournaments on Ray")
    monkeypatch.chdir(tmp_path)
    exec(compile(block, "README Tournaments on Ray", "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out
    assert "| rank | agent | Elo | 95% interval | score | games |" in out
    for name in ("ratings.md", "ratings.csv", "tournament.json", "ratings.png"):
        assert (tmp_path / "tournament" / name).is_file()
    assert ray.is_initialized()  # the Ray it found running is left running


def test_without_ray_the_ray_option_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(BeziqueError, match=r"--ray needs Ray.*pip install 'bezique\[research\]'"):
        run_match("random", "random", RULES, deals=2, ray="local")
    for cmd in (["arena", "random", "heuristic"], ["tournament", "random", "heuristic"]):
        result = CliRunner().invoke(main, [*cmd, "--deals", "2", "--ray"])
        assert result.exit_code == 2
        assert result.output == "bezique: error: --ray needs Ray, which is not installed: " \
                                "pip install 'bezique[research]'\n"
