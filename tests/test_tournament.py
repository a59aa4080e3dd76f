"""Round-robin tournaments: Bradley–Terry ratings and their intervals, the table, CSV, JSON and
plot ``bezique tournament --out`` writes, and bad input as one-line errors."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from bezique import Rules
from bezique.cli import main
from bezique.errors import BeziqueError
from bezique.tournament import ELO, bradley_terry, bradley_terry_fit, run_tournament

pytest.importorskip("matplotlib", reason="the tournament's plot needs the research extra")


def test_two_agents_rating_gap_is_the_elo_of_their_score_with_one_virtual_draw() -> None:
    ratings, se = bradley_terry_fit(2, {(0, 1): (15.0, 20)})
    p = 15.5 / 21  # one virtual draw added
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(p / (1 - p)))
    assert ratings[0] == pytest.approx(-ratings[1])  # mean 0
    # the gap's variance is 1 / (games p (1-p)) in natural units; each rating is half the gap
    assert se[0] == pytest.approx(ELO * 0.5 / math.sqrt(21 * p * (1 - p)))


def test_ratings_order_agents_by_strength_and_a_clean_sweep_stays_finite() -> None:
    r = bradley_terry(3, {(0, 1): (20.0, 20), (0, 2): (20.0, 20), (1, 2): (14.0, 20)})
    assert r[0] > r[1] > r[2]
    assert all(math.isfinite(x) for x in r)
    assert sum(r) == pytest.approx(0.0, abs=1e-9)


def test_equal_agents_get_equal_ratings() -> None:
    assert bradley_terry(3, {(0, 1): (5.0, 10), (0, 2): (5.0, 10), (1, 2): (5.0, 10)}) \
        == pytest.approx([0.0, 0.0, 0.0], abs=1e-9)


def test_round_robin_plays_every_pairing_on_the_same_cards() -> None:
    result = run_tournament(["random", "heuristic", "heuristic:solver_cards=0"],
                            Rules.preset("bezique"), deals=4, seed=3)
    assert sorted(result.matches) == [(0, 1), (0, 2), (1, 2)]
    assert all(m.games == 4 for m in result.matches.values())
    assert result.ratings[-1].agent == "random"
    top = result.ratings[0]
    assert top.low <= top.elo <= top.high
    assert result.score_of(1, 0) == 1.0 - result.score_of(0, 1)


def test_tournament_command_writes_table_csv_json_and_plot(tmp_path: Path) -> None:
    out = tmp_path / "t"
    res = CliRunner().invoke(main, ["tournament", "random", "heuristic", "--deals", "4",
                                    "--seed", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "| rank | agent | Elo | 95% interval | score | games |" in res.output
    assert (out / "ratings.md").read_text() in res.output
    rows = list(csv.DictReader(io.StringIO((out / "ratings.csv").read_text())))
    assert [r["agent"] for r in rows] == ["heuristic", "random"]
    assert float(rows[0]["elo_low"]) <= float(rows[0]["elo"]) <= float(rows[0]["elo_high"])
    data = json.loads((out / "tournament.json").read_text())
    assert data["matches"][0]["games"] == 4
    assert (out / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_matplotlib_the_ratings_are_written_and_the_plot_left_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plot needs the research extra; without it the tournament still writes its table,
    CSV and JSON (it used to play every match and then fail), and says so before playing."""
    import bezique.tournament

    monkeypatch.setattr(bezique.tournament, "can_plot", lambda: False)
    out = tmp_path / "t"
    res = CliRunner().invoke(main, ["tournament", "random", "heuristic", "--deals", "2",
                                    "--seed", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "note: ratings.png needs matplotlib" in res.stderr
    assert sorted(p.name for p in out.iterdir()) == ["ratings.csv", "ratings.md",
                                                     "tournament.json"]
    assert "ratings.png" not in res.stdout


@pytest.mark.parametrize("args, message", [
    (["random"], "a tournament needs at least two agents"),
    (["random", "random"], "each agent may appear only once"),
    (["random", "nosuch"], "unknown agent 'nosuch'"),
    (["random", "heuristic", "--deals", "2", "--games", "2"], "give --games or --deals"),
    (["random", "heuristic", "--deals", "0"], "must be at least 1"),
])
def test_bad_tournament_input_is_one_line_and_status_2(args: list[str], message: str) -> None:
    res = CliRunner().invoke(main, ["tournament", *args])
    assert res.exit_code == 2
    assert res.output.startswith("bezique: error: ") and res.output.count("\n") == 1
    assert message in res.output


def test_run_tournament_refuses_bad_counts() -> None:
    with pytest.raises(BeziqueError, match="either a number of games or a number of deals"):
        run_tournament(["random", "heuristic"], Rules.preset("bezique"))
