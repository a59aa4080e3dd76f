"""The README's "For researchers" examples run as written (OpenSpiel, PettingZoo, the cut bonus,
self-play data; the Ray example runs in test_distributed.py, on its two-worker Ray)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import readme_examples


def _run(heading: str, capsys: pytest.CaptureFixture[str], block: int = 0,
         blocks: int = 1) -> str:
    """The output of example ``block`` of the section (which has ``blocks`` of them)."""
    found = readme_examples(heading)
    assert len(found) == blocks, f"{heading}: {blocks} example(s) expected"
    exec(compile(found[block], f"README {heading}", "exec"), {"__name__": "readme"})
    return capsys.readouterr().out


def test_readme_openspiel_example_plays_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel", reason="the example needs the openspiel extra")
    returns = eval(_run("### OpenSpiel", capsys))
    assert len(returns) == 2 and returns[0] == -returns[1]


def test_readme_pettingzoo_example_plays_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pettingzoo", reason="the example needs the rl extra")
    returns = eval(_run("### PettingZoo and Gymnasium", capsys, 0, 2))
    assert set(returns) == {"player_0", "player_1"}
    assert returns["player_0"] == -returns["player_1"] != 0


def test_readme_gymnasium_loop_is_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    """Three episodes against the random agent; the seed makes every run the same, and each
    return is a deal's point difference (a multiple of 10, not 0 for all three)."""
    pytest.importorskip("gymnasium", reason="the example needs the rl extra")
    first = eval(_run("### PettingZoo and Gymnasium", capsys, 1, 2))
    assert len(first) == 3 and all(r % 10 == 0 for r in first) and any(first)
    assert eval(_run("### PettingZoo and Gymnasium", capsys, 1, 2)) == first


def test_readme_selfplay_example_reads_the_file_back(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyarrow", reason="the example needs the research extra")
    monkeypatch.chdir(tmp_path)
    rows, rest = _run("### Self-play data", capsys).split(" ", 1)
    columns, records = rest.rsplit(" ", 1)
    assert int(rows) > 100 and int(records) == 2
    assert eval(columns)[:4] == ["game", "deal", "step", "seat"]
    assert (tmp_path / "selfplay.parquet").is_file()


def test_readme_cut_bonus_example_guesses(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel", reason="the example needs the openspiel extra")
    pytest.importorskip("pettingzoo", reason="the example needs the rl extra")
    first, public, agent = _run("### The cut bonus", capsys).splitlines()
    assert first == "0 guess 24"  # seat 0 guesses: the dealer is seat 1
    assert eval(public) == ["guess=24", "cut=30"]  # the last outcome: the largest cut
    assert agent == "player_0 " + str(list(range(87, 100)))
