"""Prototype: the engine core compiled with mypyc, measured against pure Python on one core.

(``pip install .`` now compiles the hot modules itself, see setup.py; ``bench_engine.py`` with
and without ``BEZIQUE_PURE=1`` compares the two builds of one install.)  Copies ``src/bezique``
to a temporary folder, compiles ``state.py``, ``cards.py`` and
``actions.py`` with mypyc (it ships with mypy, which the test extras install; needs a C
compiler), runs the project's tests on the compiled copy (optional) and ``bench_engine.py`` on
both, and prints the two result objects side by side.

    python benchmarks/mypyc_prototype.py [--seconds S] [--tests]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ("bezique/state.py", "bezique/cards.py", "bezique/actions.py")


def bench(pythonpath: Path, seconds: float, pure: bool = False) -> dict[str, object]:
    """Run bench_engine.py with ``pythonpath`` first on the path; its JSON result."""
    env = dict(os.environ, PYTHONPATH=str(pythonpath), BEZIQUE_PURE="1" if pure else "")
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_engine.py"), "--json",
         "--seconds", str(seconds)],
        env=env, cwd=tempfile.gettempdir(), check=True, capture_output=True, text=True,
    ).stdout
    result: dict[str, object] = json.loads(out)
    return result


def main() -> int:
    """Build, optionally test, measure, print."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--tests", action="store_true", help="run the test suite on the build")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        build = Path(tmp)
        shutil.copytree(ROOT / "src" / "bezique", build / "bezique",
                        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
        subprocess.run([sys.executable, "-m", "mypyc", *CORE], cwd=build, check=True,
                       capture_output=True)
        if args.tests:
            env = dict(os.environ, PYTHONPATH=str(build))
            subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                 str(ROOT / "tests"), "--ignore", str(ROOT / "tests" / "test_web_e2e.py"),
                 "-x"],
                env=env, cwd=build, check=True,
            )
        compiled = bench(build, args.seconds)
    pure = bench(ROOT / "src", args.seconds, pure=True)
    keys = [k for k in pure if isinstance(pure[k], (int, float))]
    width = max(len(k) for k in keys)
    print(f"{'measure':<{width}}  {'pure':>12}  {'mypyc':>12}  ratio")
    for k in keys:
        p, c = pure[k], compiled.get(k)
        ratio = f"{c / p:.2f}" if isinstance(c, (int, float)) and p else ""
        print(f"{k:<{width}}  {p!s:>12}  {c!s:>12}  {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
