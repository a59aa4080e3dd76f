"""The README walked through as a new user would: what the commands print matches what it says,
and the obvious mistakes are one line and status 2 (the fixes a walk-through found)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from bezique.cli import main
from bezique.tui.app import BeziqueApp
from bezique.tui.session import PlayConfig, Session, numbered_save, save_path


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test saves into its own directory, never the user's."""
    d = tmp_path / "data"
    monkeypatch.setenv("BEZIQUE_DATA_DIR", str(d))
    return d


def one_line(args: list[str]) -> str:
    """``bezique ARGS`` refuses with one line and status 2 (and never starts the app)."""
    def run(self: BeziqueApp) -> None:
        raise AssertionError("the app was started")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(BeziqueApp, "run", run)
        out = CliRunner().invoke(main, args)
    assert out.exit_code == 2, out.output
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.output, out.output
    return lines[0]


# ---------------------------------------------------------------- bezique serve

def test_serve_on_port_0_names_the_port_it_listens_on(tmp_path: Path) -> None:
    """``--port 0`` lets the system choose: the line to open says the chosen port, not 0."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bezique", "serve", "--port", "0", "--workers", "0",
         "--db", str(tmp_path / "g.sqlite3")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "BEZIQUE_DATA_DIR": str(tmp_path)})
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        found = re.search(r"open http://127\.0\.0\.1:(\d+)/ in your browser", first)
        assert found, first
        port = int(found.group(1))
        assert port != 0, first
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/levels", timeout=30) as r:
            assert json.loads(r.read())["default"] == 3
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_serve_names_an_ipv6_host_in_brackets() -> None:
    from bezique.cli.serve import _address

    assert _address("::1", 8000) == "http://[::1]:8000/"
    assert _address("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert _address("0.0.0.0", 8001) == "http://127.0.0.1:8001/"


def test_a_bad_public_url_is_said_before_the_database_is_made(tmp_path: Path) -> None:
    folder = tmp_path / "new"
    line = one_line(["serve", "--public-url", "example.com", "--workers", "0",
                     "--db", str(folder / "g.sqlite3")])
    assert "--public-url must start with http:// or https://" in line
    assert not folder.exists()


# ---------------------------------------------------------------- bezique selfplay

@pytest.mark.parametrize("flag,what", [("--deals", "1 deal"), ("--games", "1 game")])
def test_selfplay_counts_one_deal_or_game_in_the_singular(tmp_path: Path, flag: str,
                                                          what: str) -> None:
    out = tmp_path / "one.parquet"
    res = CliRunner().invoke(main, ["selfplay", "heuristic", "random", flag, "1", "-o",
                                    "target=200", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert f" decisions of {what} (heuristic vs random, bezique, seed 0)" in res.output


# ---------------------------------------------------------------- bezique play

def test_play_with_a_level_and_an_opponent_is_refused_not_ignored() -> None:
    line = one_line(["play", "--level", "2", "--opponent", "random"])
    assert line == ("bezique: error: give --level or --opponent, not both: --opponent plays any "
                    "agent instead of a level")


def test_saves_offers_no_resume_for_a_save_that_cannot_be_read() -> None:
    Session.new(PlayConfig(level=1, seed=3), save_path())
    numbered_save(2).write_text("{bad", encoding="utf-8")
    res = CliRunner().invoke(main, ["play", "--saves"])
    assert res.exit_code == 0, res.output
    lines = res.output.strip().splitlines()
    assert lines[0].startswith("current: bezique, level 1 beginner, deal 1")
    assert lines[0].endswith("(bezique play --resume)")
    assert len(lines) == 2 and lines[1].startswith("2: cannot be read (the saved game "), lines
    assert lines[1].endswith(", not resumable") and "--resume" not in lines[1], lines[1]


# ---------------------------------------------------------------- help that says what runs

def test_stats_help_says_it_counts_per_variant_and_kind_of_table() -> None:
    res = CliRunner().invoke(main, ["stats", "--help"])
    assert res.exit_code == 0
    text = " ".join(res.output.split())
    assert "per level and variant (and per kind of table)" in text


def test_demo_help_says_a_one_deal_game_is_one_deal() -> None:
    res = CliRunner().invoke(main, ["demo", "--help"])
    text = " ".join(res.output.split())
    assert "a game of rubicon, sixpack or eightpack is one deal" in text
    played = CliRunner().invoke(main, ["demo", "--variant", "rubicon", "--deals", "3",
                                       "--seed", "1"])
    assert played.exit_code == 0
    assert len(re.findall(r"^Deal \d+:", played.output, re.M)) == 1
