"""Choosing between the compiled (mypyc) and the pure-Python modules of one install.

The install compiles some modules with mypyc (``setup.py``'s ``COMPILED_MODULES``) and keeps
their ``.py`` sources beside the extensions.  :func:`install` runs first thing in
``bezique/__init__.py``: when pure Python is wanted it puts a finder on ``sys.meta_path`` that
answers every ``bezique.*`` module that has an extension with a spec for its ``.py`` file, so no
compiled module is ever loaded.  Pure Python is wanted when

* ``BEZIQUE_PURE`` is set (to anything but empty or ``0``), or
* in a source tree (``pip install -e .``), a compiled module's ``.py`` is newer than its
  extension: the extension would run old code, so the whole package runs from source, with a
  warning, until ``pip install -e .`` compiles again.  All or nothing: compiled modules call each
  other directly, so a mix would give two ``State`` classes.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

PACKAGE = __name__.rpartition(".")[0]
HERE = Path(__file__).resolve().parent
EXTENSION_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def pure_requested() -> bool:
    """True when ``BEZIQUE_PURE`` asks for pure Python."""
    return os.environ.get("BEZIQUE_PURE", "").strip() not in ("", "0")


def is_compiled(module: ModuleType) -> bool:
    """True when ``module`` was loaded from a C extension."""
    return str(getattr(module, "__file__", None) or "").endswith(EXTENSION_SUFFIXES)


def _source_of(extension: Path) -> Path | None:
    """The ``.py`` file beside an extension module file, if there is one."""
    for suffix in EXTENSION_SUFFIXES:
        if extension.name.endswith(suffix):
            source = extension.with_name(extension.name[: -len(suffix)] + ".py")
            return source if source.is_file() else None
    return None


def stale_extensions() -> list[Path]:
    """In a source tree, the compiled modules whose ``.py`` changed after they were compiled."""
    if not (HERE.parent.parent / "pyproject.toml").is_file():
        return []  # an installed wheel: its files are written together
    out = []
    for suffix in EXTENSION_SUFFIXES:
        for ext in HERE.rglob("*" + suffix):
            source = _source_of(ext)
            if source is not None and source.stat().st_mtime > ext.stat().st_mtime:
                out.append(source)
    return out


class SourceFinder:
    """A meta path finder: for ``bezique.*`` modules that have an extension, their ``.py``."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        """The spec of the source file where the normal finder would load an extension."""
        if not fullname.startswith(PACKAGE + "."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.origin is None or not isinstance(
            spec.loader, importlib.machinery.ExtensionFileLoader
        ):
            return None
        source = _source_of(Path(spec.origin))
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def install() -> bool:
    """Put :class:`SourceFinder` first on ``sys.meta_path`` if pure Python is wanted; whether."""
    pure = pure_requested()
    if not pure:
        stale = stale_extensions()
        if stale:
            warnings.warn(
                f"bezique: {stale[0].name} changed since it was compiled: running pure Python; "
                "run 'pip install -e .' to compile again (or set BEZIQUE_PURE=1)",
                RuntimeWarning, stacklevel=3,
            )
            pure = True
    if pure and not any(isinstance(f, SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder())
    return pure
