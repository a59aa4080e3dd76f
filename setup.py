"""Build hook: compile the engine's hot modules with mypyc when it can, else install pure Python.

``pip install .`` and ``pip install -e .`` run this (the metadata is in pyproject.toml).  The
modules of :data:`COMPILED_MODULES` are compiled with mypyc into C extensions that sit beside the
same ``.py`` files, so one install can also run as pure Python (``BEZIQUE_PURE=1`` at run time).

* ``BEZIQUE_PURE=1`` at build time skips the compile: a pure-Python install.
* No C compiler, mypyc missing, or the compile fails: a warning (``pip install -v`` shows it) and
  a pure-Python install, never a failed one.
* ``bezique --version`` and ``bezique.COMPILED`` tell which build is running.

mypyc runs inside ``build_ext`` only, so pip's metadata steps (which run this file too) stay fast.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig
import traceback
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent

# The modules compiled with mypyc, as paths from the project root: adding a module is one line
# here. A listed file that does not exist is skipped. Left out on purpose:
# - rules.py: ``Rules`` is a frozen dataclass that caches its hash and ``cached_property`` values
#   in its instance ``__dict__`` and pickles through it (the arena sends it to worker processes);
#   a mypyc native class has no ``__dict__``. It is read, not computed, on the hot path.
# - observation.py, agents/base.py and the rest: not hot (and observation.py is being reworked).
COMPILED_MODULES = (
    "src/bezique/cards.py",
    "src/bezique/actions.py",
    "src/bezique/deal.py",
    "src/bezique/copywords.py",
    "src/bezique/meldfilter.py",
    "src/bezique/melds.py",
    "src/bezique/notation.py",
    "src/bezique/tricks.py",
    "src/bezique/scoring.py",
    "src/bezique/position.py",
    "src/bezique/declaring.py",
    "src/bezique/plays.py",
    "src/bezique/state.py",
    "src/bezique/worlds.py",
    "src/bezique/agents/targets.py",
    "src/bezique/agents/solver_tables.py",
    "src/bezique/agents/solver.py",
    "src/bezique/agents/endgame.py",
    "src/bezique/agents/timeline.py",
    "src/bezique/agents/sampling.py",
    "src/bezique/agents/heuristic.py",
    "src/bezique/agents/evaluation.py",
    "src/bezique/agents/rollout.py",
    "src/bezique/agents/search.py",
    "src/bezique/agents/table_worlds.py",
    "src/bezique/agents/table_play.py",
    "src/bezique/agents/table_search.py",
)

# All compiled modules share one library, bezique_native__mypyc*.so (mypyc's "group"). It must be
# a top-level module: mypyc derives the modules' __file__ from its folder.
GROUP = "bezique_native"
# gcc -O2, not mypyc's default -O3: bench_engine.py measured no gain from -O3 here (random deals
# 3.6k/s at -O2, 2.5k/s at -O3 on a busy machine; the solver the same).
OPT_LEVEL = "2"
# A placeholder that tells setuptools (and the wheel's tag) that there are extensions; the real
# ones replace it when build_ext runs.
PLACEHOLDER = Extension("bezique._mypyc_placeholder", sources=[])
# The setup.py commands that build (pip's PEP 517 hooks run setup.py with one of them).
BUILDS = frozenset({"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop",
                    "bdist_egg"})
EDITABLE = frozenset({"editable_wheel", "develop"})  # they put the extensions in src/


def pure_requested() -> bool:
    """True when ``BEZIQUE_PURE`` is set to something other than empty or ``0``."""
    return os.environ.get("BEZIQUE_PURE", "").strip() not in ("", "0")


def warn(message: str) -> None:
    """A warning on the build's output (pip shows it with ``-v``)."""
    bar = "=" * 78
    print(f"{bar}\nWARNING (bezique): {message}\n{bar}", file=sys.stderr, flush=True)


def c_compiler() -> str | None:
    """The C compiler setuptools would call, if it is on the PATH."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(cc)
    return shutil.which(words[0]) if words else None


def compiled_files_in_tree() -> list[Path]:
    """Extensions an earlier editable build left in the source tree (``src/bezique``)."""
    out: list[Path] = []
    for rel in COMPILED_MODULES:
        py = ROOT / rel
        out += py.parent.glob(py.stem + ".*.so") if py.parent.is_dir() else []
        out += py.parent.glob(py.stem + ".*.pyd") if py.parent.is_dir() else []
    out += (ROOT / "src").glob(GROUP + "__mypyc.*")
    return out


def remove_compiled_files_in_tree() -> None:
    """Remove stale compiled modules from the source tree, so a pure build is really pure."""
    for f in compiled_files_in_tree():
        f.unlink(missing_ok=True)


def mypyc_extensions() -> list[Extension]:
    """mypycify's extensions for the listed modules that exist, or [] (with a warning)."""
    paths = [rel for rel in COMPILED_MODULES if (ROOT / rel).is_file()]
    if not paths:
        return []
    if c_compiler() is None:
        warn("no C compiler found: installing bezique as pure Python (slower engine and agents).")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as e:
        warn(f"mypyc is not available ({e}): installing bezique as pure Python.")
        return []
    cwd = os.getcwd()
    try:
        os.chdir(ROOT)  # mypycify takes the paths and its build/ folder relative to the cwd
        return list(mypycify(paths, opt_level=OPT_LEVEL, group_name=GROUP))
    except (Exception, SystemExit):  # mypyc reports its errors with sys.exit
        traceback.print_exc()
        warn("mypyc could not compile the engine: installing bezique as pure Python.")
        return []
    finally:
        os.chdir(cwd)


class BuildExt(build_ext):
    """build_ext that runs mypyc first and installs pure Python if anything fails."""

    def initialize_options(self) -> None:
        super().initialize_options()
        self.fell_back = False

    def finalize_options(self) -> None:
        dist = self.distribution
        commands = set(dist.commands)
        # egg_info and dist_info finalize build_ext too (for its source files): mypyc runs only
        # when something is being built.
        if any(ext is PLACEHOLDER for ext in dist.ext_modules or []) and BUILDS & commands:
            exts = mypyc_extensions()
            dist.ext_modules = exts
            self.fell_back = not exts
            if self.fell_back and (self.inplace or EDITABLE & commands):
                remove_compiled_files_in_tree()
        super().finalize_options()
        # The shims build beside the shared library. That library is one C file (mypyc's
        # default, which lets gcc inline across modules), so its compile is not split up.
        if self.parallel is None:
            self.parallel = max(1, min(os.cpu_count() or 1, 4))

    def run(self) -> None:
        if self.fell_back:
            return
        try:
            super().run()
        except (Exception, SystemExit):
            traceback.print_exc()
            warn("compiling the engine failed: installing bezique as pure Python.")
            for ext in self.extensions:  # what was built must not reach the wheel
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            self.extensions = []
            self.distribution.ext_modules = []
            if self.inplace or getattr(self, "editable_mode", False):
                remove_compiled_files_in_tree()
            return
        if self.inplace:  # newer than their sources, even when up to date and not rebuilt:
            for f in compiled_files_in_tree():  # bezique/_purepy.py checks that in src/
                os.utime(f)


def main() -> None:
    """setup() with the extensions placeholder, or none for a pure build."""
    options: dict[str, Any] = {"cmdclass": {"build_ext": BuildExt}}
    if pure_requested():
        warn("BEZIQUE_PURE is set: installing bezique as pure Python, without compiling.")
        remove_compiled_files_in_tree()
        options["ext_modules"] = []
    else:
        options["ext_modules"] = [PLACEHOLDER]
    setup(**options)


main()
