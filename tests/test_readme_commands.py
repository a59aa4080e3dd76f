"""The README's tables and paths against the program: every command of the "Commands" table and
every option it shows exist, the "Opponents" tables are the registered agents and the levels,
and every file the README names (and every option of its benchmarks table) is there."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import click

from bezique.agents.levels import DEFAULT_LEVEL, LEVEL_MS, LEVEL_NAMES, LEVELS
from bezique.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def options_of(command: click.Command) -> set[str]:
    return {o for p in command.params for o in (*p.opts, *p.secondary_opts)}


def test_the_commands_table_names_every_command_and_only_its_options() -> None:
    rows = re.findall(r"^\| `bezique (\w+)([^`]*)` \|", section("Commands"), re.M)
    assert {name for name, _ in rows} == set(main.commands)
    for name, usage in rows:
        shown = set(re.findall(r"(?<![\w-])(--[a-z-]+|-o)\b", usage))
        assert shown <= options_of(main.commands[name]), (name, shown)


def shipped_agent_names() -> set[str]:
    """The agents a user's program registers: asked of a fresh interpreter, since the test
    modules register agents of their own in this one."""
    code = "import json; from bezique.agents import agent_names; print(json.dumps(agent_names()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout))


def test_the_opponents_tables_are_the_agents_and_the_levels() -> None:
    text = section("Opponents")
    assert set(re.findall(r"^\| `([a-z-]+)`", text, re.M)) == shipped_agent_names()
    levels = re.findall(r"^\| (\d) \| (\w+)( \(default\))? \| ([^|]+) \|$", text, re.M)
    assert [int(n) for n, *_ in levels] == sorted(LEVELS)
    for n, name, default, player in levels:
        level = int(n)
        assert name == LEVEL_NAMES[level] and bool(default) == (level == DEFAULT_LEVEL)
        if LEVEL_MS[level]:
            assert LEVELS[level] == f"search:ms={LEVEL_MS[level]}"
            assert f"within {LEVEL_MS[level] / 1000:g} s a move" in player
        else:
            assert LEVELS[level].split(":")[0] in ("random", "heuristic")


def test_the_files_the_readme_names_exist() -> None:
    named = set(re.findall(r"\]\(([\w./-]+)\)", README))
    named |= {p for p in re.findall(r"`([\w./*-]+\.(?:py|md|js|toml)|[\w.]+/[\w./*-]*)`", README)
              if "/" in p and not p.startswith(("DIR/", "OUT/", "bezique/"))}
    assert len(named) > 20
    missing = [p for p in sorted(named)
               if not list(ROOT.glob(p)) and not list((ROOT / "src" / "bezique").glob(p))]
    assert not missing


def test_the_benchmarks_table_options_are_the_scripts() -> None:
    rows = re.findall(r"^\| `python (benchmarks/\w+\.py)([^`]*)` \|", README, re.M)
    assert len(rows) > 10
    for script, usage in rows:
        source = (ROOT / script).read_text(encoding="utf-8")
        for option in re.findall(r"--[a-z-]+", usage):
            assert f'"{option}"' in source, (script, option)
