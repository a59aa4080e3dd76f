"""pytest: the doctests of modules that run compiled (mypyc) are collected from their ``.py`` file.

A compiled module keeps no docstrings and its ``__file__`` is the extension, so
``--doctest-modules`` would find nothing in it (or refuse the mismatched file).  For those modules
the doctests are read from a copy of the module executed from source; the examples themselves
import ``bezique`` as usual, so they exercise the compiled engine.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Generator, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from _pytest.doctest import DoctestModule

from bezique._purepy import is_compiled
from bezique.agents import base as agent_base

SRC = Path(__file__).resolve().parent / "src"

# The adapters of the optional extras are collected (for their doctests) only where their
# packages are installed; the README's test command installs them all (the test extra).
_OPTIONAL = {"pyspiel": "openspiel.py", "pettingzoo": "pettingzoo.py",
             "gymnasium": "gymnasium_env.py"}
collect_ignore = [f"src/bezique/{name}" for mod, name in _OPTIONAL.items()
                  if importlib.util.find_spec(mod) is None]


def _module_name(path: Path) -> str | None:
    """The dotted name of a module file under src/, or None."""
    try:
        rel = path.resolve().relative_to(SRC)
    except ValueError:
        return None
    parts = list(rel.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) if parts else None


class SourceDoctestModule(DoctestModule):
    """The doctests of a compiled module, found in its source executed as a separate copy."""

    def _getobj(self) -> ModuleType:
        name = _module_name(self.path)
        assert name is not None
        spec = importlib.util.spec_from_file_location(name, self.path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        compiled = sys.modules[name]
        sys.modules[name] = module  # while it runs, as for any module (dataclasses look it up)
        # the copy registers its agents again (``@register_agent``): the compiled module's
        # stay registered, or every later test would play the source copy's agents
        registry = dict(agent_base._REGISTRY)
        try:
            spec.loader.exec_module(module)
        finally:
            sys.modules[name] = compiled
            agent_base._REGISTRY.clear()
            agent_base._REGISTRY.update(registry)
        return module

    def collect(self) -> Iterator[Any]:
        """The doctests, found while the source copy stands for the module (doctest checks that
        each function's ``__module__`` is the module it searches)."""
        name = _module_name(self.path)
        assert name is not None
        module = self.obj
        compiled = sys.modules[name]
        sys.modules[name] = module
        try:
            yield from super().collect()
        finally:
            sys.modules[name] = compiled


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Generator[Any, Any, Any]:
    """On compiled modules, pytest's doctest collector becomes :class:`SourceDoctestModule`."""
    collectors: list[Any] = yield
    if not collectors or file_path.suffix != ".py":
        return collectors
    name = _module_name(file_path)
    if name is None or not is_compiled(importlib.import_module(name)):
        return collectors
    # A source module named on the command line is also collected as a test Module (that
    # would import the extension and refuse it): it holds no tests, so it is left out.
    return [SourceDoctestModule.from_parent(parent, path=file_path)
            if type(c) is DoctestModule else c
            for c in collectors if type(c) is not pytest.Module]
