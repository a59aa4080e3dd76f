"""The compiled (mypyc) and pure builds: ``bezique.COMPILED``, ``BEZIQUE_PURE``, --version."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

import bezique
from bezique._purepy import EXTENSION_SUFFIXES, is_compiled, pure_requested
from bezique.cli import main

PACKAGE = Path(bezique.__file__).resolve().parent
CORE = ("bezique.cards", "bezique.state")


def extension_modules() -> list[str]:
    """The bezique modules that have a compiled extension beside their source."""
    out = []
    for suffix in EXTENSION_SUFFIXES:
        for ext in PACKAGE.rglob("*" + suffix):
            source = ext.with_name(ext.name[: -len(suffix)] + ".py")
            if source.is_file():
                rel = source.relative_to(PACKAGE.parent).with_suffix("")
                out.append(".".join(rel.parts))
    return sorted(out)


def test_compiled_says_whether_the_core_modules_are_extensions() -> None:
    core = [importlib.import_module(name) for name in CORE]
    assert all(is_compiled(m) for m in core) == bezique.COMPILED
    if pure_requested():
        assert not bezique.COMPILED


def test_all_or_nothing_every_extension_is_used_or_none() -> None:
    loaded = {name: is_compiled(importlib.import_module(name)) for name in extension_modules()}
    assert all(v == bezique.COMPILED for v in loaded.values()), loaded
    if bezique.COMPILED:
        assert set(CORE) <= set(loaded)


def test_bezique_pure_loads_every_module_from_source() -> None:
    code = (
        "import json, sys, bezique, bezique.agents.search, bezique.agents.solver\n"
        "mods = {n: m.__file__ for n, m in sys.modules.items()\n"
        "        if n.startswith('bezique') and getattr(m, '__file__', None)}\n"
        "print(json.dumps({'compiled': bezique.COMPILED, 'files': mods}))\n"
    )
    env = dict(os.environ, BEZIQUE_PURE="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=PACKAGE.parent.parent,
                         check=True, capture_output=True, text=True).stdout
    got = json.loads(out)
    assert got["compiled"] is False
    assert all(f.endswith(".py") for f in got["files"].values()), got["files"]
    assert "bezique.state" in got["files"] and "bezique.agents.solver" in got["files"]


def test_version_says_which_build_runs() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    which = "compiled with mypyc" if bezique.COMPILED else "pure Python"
    assert result.output.strip() == f"bezique {bezique.__version__} ({which})"


def test_the_compile_does_not_need_the_extras_installed() -> None:
    """mypyc type-checks what the compiled modules import when ``pip install .`` builds, before
    the extras are installed: every package the source imports that is not a core dependency
    must be allowed to be missing (a fresh venv's first install fell back to pure Python on a
    missing numpy)."""
    import ast
    import tomllib

    root = PACKAGE.parent.parent
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    allowed = {m for o in data["tool"]["mypy"]["overrides"] if o.get("ignore_missing_imports")
               for m in o["module"]}
    core = {"click", "rich", "textual", "platformdirs", "fastapi", "starlette", "uvicorn",
            "pydantic", "pydantic_core", "websockets"}
    imported: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.split(".")[0])
    third_party = {m for m in imported - core - set(sys.stdlib_module_names) - {"bezique"}
                   if not m.startswith("_")}
    missing = {m for m in third_party if m not in allowed and f"{m}.*" not in allowed}
    assert not missing, f"add to [tool.mypy.overrides] ignore_missing_imports: {sorted(missing)}"


def test_the_registered_agents_are_the_loaded_modules_classes() -> None:
    # a compiled build plays its compiled agents (the doctests' source copies of the modules,
    # conftest.py, must not replace them in the registry)
    from bezique.agents import agent_names, make_agent
    for name in agent_names():
        if name.startswith("openspiel"):
            continue
        cls = type(make_agent(name, seed=1))
        assert getattr(sys.modules[cls.__module__], cls.__name__) is cls, name
        if bezique.COMPILED and cls.__module__ in extension_modules():
            assert is_compiled(sys.modules[cls.__module__]), name
