"""``benchmarks/peek_ceiling.py``: its log names the setting of every pair, and a log of another
setting is refused rather than mixed into this run's summary."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "peek_ceiling.py"


def _run(log: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    # one pair, already in the log: nothing is played, the log is only read back
    return subprocess.run([sys.executable, str(SCRIPT), "--variant", "bezique", "--pairs", "1",
                           "--seed", "1", "--log", str(log), *extra],
                          capture_output=True, text=True, timeout=120)


# the setting of a default run of ``_run`` (``--peek hand``)
HAND = {"variant": "bezique", "seed": 1, "spec": "search", "opponent": "heuristic",
        "peek": "hand", "mode": "deals"}


def _row(**setting: object) -> str:
    return json.dumps({"pair": 0, **setting, "scores": [1.0, 0.0],
                       "points": [[300, 200], [150, 250]], "deals": [1, 1]}) + "\n"


def test_a_log_of_the_same_setting_is_read_back(tmp_path: Path) -> None:
    log = tmp_path / "peek.jsonl"
    log.write_text(_row(**HAND))
    got = _run(log)
    assert got.returncode == 0, got.stderr
    assert "peeking (hand)" in got.stdout and "won 1, lost 1" in got.stdout


def test_an_older_log_without_the_setting_is_still_read(tmp_path: Path) -> None:
    log = tmp_path / "peek.jsonl"
    log.write_text(_row())
    assert _run(log, "--peek", "all").returncode == 0


def test_a_log_of_another_peek_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "peek.jsonl"
    log.write_text(_row(**{**HAND, "peek": "all"}))
    got = _run(log, "--peek", "hand")
    assert got.returncode == 2
    assert "pair 0 was played with {'peek': 'all'}" in got.stderr
    assert "Traceback" not in got.stderr
    assert log.read_text().count("\n") == 1  # nothing was added to it
