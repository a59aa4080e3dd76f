"""The ``bezique`` command's demo and its contract: readable, reproducible, records that replay,
and one-line errors with exit status 2 for bad options."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bezique.cli import main


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def game_line(text: str) -> tuple[int, int]:
    """The game scores of the last ``Deal over`` line of a demo."""
    found = re.findall(r"Game: North (\d+), South (\d+)\.", text)
    assert found, text
    return int(found[-1][0]), int(found[-1][1])


def test_demo_is_readable() -> None:
    result = run("demo", "--seed", "7")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Deal 1: South deals. Turn-up ")
    assert lines[1].startswith("  North  ") and lines[2].startswith("  South  ")
    tricks = [ln for ln in lines if ln.startswith("Trick ")]
    assert len(tricks) == 32
    shape = (r"Trick \d+: (North|South) leads \S+( \(shown\))?, (North|South) plays \S+"
             r"( \(shown\))?\. (North|South) wins\.")
    assert all(re.fullmatch(shape, t) for t in tricks), tricks
    assert [int(t.split()[1].rstrip(":")) for t in tricks] == list(range(1, 33))
    assert any("The stock is gone" in ln for ln in lines)
    assert any("wins the last trick: +10. Brisques" in ln for ln in lines)
    assert lines[-1].startswith("Deal over: North ")
    assert result.stderr == ""


def test_demo_seed_is_reproducible() -> None:
    a, b = run("demo", "--seed", "11"), run("demo", "--seed", "11")
    assert a.exit_code == b.exit_code == 0
    assert a.stdout == b.stdout
    c = run("demo", "--seed", "12")
    assert c.stdout != a.stdout


def test_demo_binocle_has_twenty_four_tricks_and_card_points() -> None:
    result = run("demo", "--variant", "binocle", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert sum(ln.startswith("Trick ") for ln in result.stdout.splitlines()) == 24
    assert "Card points (counted now)" in result.stdout


@pytest.mark.parametrize("variant", ["bezique", "binocle"])
def test_demo_save_replays_to_the_same_scores(tmp_path: Path, variant: str) -> None:
    path = tmp_path / "demo.json"
    result = run("demo", "--variant", variant, "--seed", "5", "--deals", "3", "--save", str(path))
    assert result.exit_code == 0, result.output
    assert f"Record written to {path}" in result.stdout
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["variant"] == variant and len(record["deals"]) == 3
    replayed = run("replay", str(path), "--json")
    assert replayed.exit_code == 0
    out = json.loads(replayed.stdout)
    assert tuple(out["game"]["scores"]) == game_line(result.stdout)
    assert all(step["ok"] for deal in out["deals"] for step in deal["steps"])
    # the readable replay tells the same deals as the demo did
    plain = run("replay", str(path)).stdout
    demo_tricks = [ln for ln in result.stdout.splitlines() if ln.startswith("Trick")]
    replay_tricks = [ln for ln in plain.splitlines() if ln.startswith("Trick")]
    assert replay_tricks == demo_tricks  # with the demo's names, kept in the record
    assert record["players"] == ["North", "South"]


def test_a_demo_that_stops_early_leaves_the_old_file_whole(tmp_path: Path) -> None:
    """The record is written at the end, all at once: a demo cut short (a closed pipe,
    simulated) leaves the file it was to write as it was, and nothing else behind."""
    path = tmp_path / "kept.json"
    path.write_text('{"old": true}\n', encoding="utf-8")
    from unittest import mock

    with mock.patch("bezique.cli.demo.step_lines", side_effect=BrokenPipeError):
        run("demo", "--seed", "1", "--save", str(path))
    assert path.read_text(encoding="utf-8") == '{"old": true}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["kept.json"]
    new = tmp_path / "new.json"  # before: a new file was left empty, "not a record"
    with mock.patch("bezique.cli.demo.step_lines", side_effect=BrokenPipeError):
        run("demo", "--seed", "1", "--save", str(new))
    assert not new.exists()


def test_demo_whole_game_to_a_target(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = run("demo", "--seed", "1", "--deals", "0", "-o", "target=600", "--save", str(path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert re.fullmatch(r"(North|South) wins the game\.", lines[-2])
    north, south = game_line(result.stdout)
    assert max(north, south) >= 600
    out = json.loads(run("replay", str(path), "--json").stdout)
    assert out["game"]["winner"] == (0 if lines[-2].startswith("North") else 1)
    assert json.loads(path.read_text())["options"] == {"target": 600}


def test_demo_options_change_the_rules(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = run("demo", "--seed", "4", "-o", "last_trick=stock", "-o", "brisques=immediate",
                 "--save", str(path))
    assert result.exit_code == 0, result.output
    assert "wins the last trick of the stock: +10" in result.stdout
    assert "Brisques (scored as taken)" in result.stdout
    assert json.loads(path.read_text())["options"] == {
        "brisques": "immediate", "last_trick": "stock"
    }


BAD_OPTIONS = [
    ["--variant", "piquet"],
    ["-o", "colour=red"],
    ["-o", "target=lots"],
    ["-o", "target=0"],
    ["-o", "brisques"],
    ["-o", "fresh_card=sometimes"],
    ["--deals", "two"],
    ["--deals", "-1"],
    ["--seed", "abc"],
    ["--save", "/no/such/dir/x.json"],
]


@pytest.mark.parametrize("args", BAD_OPTIONS)
def test_demo_bad_options_one_line_exit_2(args: list[str]) -> None:
    result = run("demo", *args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""  # nothing was played
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bezique: error: "), result.stderr


def test_demo_error_names_the_bad_option() -> None:
    assert "colour" in run("demo", "-o", "colour=red").stderr
    assert "piquet" in run("demo", "--variant", "piquet").stderr
    assert "--deals" in run("demo", "--deals", "-1").stderr


def test_python_dash_m_bezique_runs_the_demo() -> None:
    done = subprocess.run([sys.executable, "-m", "bezique", "demo", "--seed", "7"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == run("demo", "--seed", "7").stdout
    bad = subprocess.run([sys.executable, "-m", "bezique", "demo", "-o", "nope=1"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "Traceback" not in bad.stderr


def test_help_lists_demo_and_replay() -> None:
    result = run("--help")
    assert result.exit_code == 0
    assert "demo" in result.stdout and "replay" in result.stdout


def test_agents_lists_names_options_and_levels() -> None:
    r = run("agents")
    assert r.exit_code == 0
    assert "search:" in r.output and "heuristic:" in r.output and "random:" in r.output
    assert "samples=60" in r.output and "model=0.0" in r.output
    assert "3 = search:ms=300 (default)" in r.output
    # every listed option is accepted by make_agent
    from bezique.agents import agent_options, make_agent

    for name in ("search", "heuristic", "random"):
        opts = agent_options(name)
        spec = name + (":" + ",".join(f"{k}={v}" for k, v in opts.items()) if opts else "")
        assert make_agent(spec, seed=1).name == name


def test_replay_tells_the_first_refusal_and_sums_up_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "demo.json"
    assert run("demo", "--seed", "5", "--save", str(path)).exit_code == 0
    record = json.loads(path.read_text(encoding="utf-8"))
    actions = record["deals"][0]["actions"]
    first = actions[0].split()[1]
    actions[0] = "play " + ("7C" if first != "7C" else "7D")  # most likely not in the hand
    actions.insert(0, "meld QS JD")  # refused: nobody may declare before a trick
    path.write_text(json.dumps(record), encoding="utf-8")
    as_json = json.loads(run("replay", str(path), "--json").stdout)
    refusals = [s for s in as_json["deals"][0]["steps"] if not s["ok"]]
    assert len(refusals) > 3  # every later action is out of step, each with its reason
    plain = run("replay", str(path)).stdout
    lines = [ln for ln in plain.splitlines() if "refused" in ln]
    assert len(lines) == 2, lines
    assert "'meld QS JD'" in lines[0] and "refused:" in lines[0]
    assert f"{len(refusals) - 1} later actions refused as well" in lines[1]


def test_serve_on_a_port_in_use_is_one_line_and_status_2(tmp_path: Path) -> None:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        out = subprocess.run(
            [sys.executable, "-m", "bezique", "serve", "--port", str(port),
             "--db", str(tmp_path / "g.sqlite3")],
            capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    lines = (out.stdout + out.stderr).strip().splitlines()
    assert len(lines) == 1, lines
    assert f"port {port} on 127.0.0.1 is already in use" in lines[0]
