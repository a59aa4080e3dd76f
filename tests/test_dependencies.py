"""The project's dependencies are the packages they are meant to be (hardening item 12).

Look-alike names are how supply-chain attacks arrive: every name in pyproject.toml must be on
this list of checked projects, and the tests use encode's ``httpx`` (the client Starlette's
TestClient is built on), not the ``httpx2`` fork that recent Starlette versions prefer.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Each name checked by hand against its project (home page, maintainers, history).
KNOWN = {
    "click": "pallets/click", "rich": "Textualize/rich", "textual": "Textualize/textual",
    "platformdirs": "tox-dev/platformdirs", "fastapi": "fastapi/fastapi",
    "uvicorn": "encode/uvicorn", "pydantic": "pydantic/pydantic", "pytest": "pytest-dev/pytest",
    "hypothesis": "HypothesisWorks/hypothesis", "mypy": "python/mypy", "ruff": "astral-sh/ruff",
    "pytest-asyncio": "pytest-dev/pytest-asyncio", "pytest-xdist": "pytest-dev/pytest-xdist",
    "httpx": "encode/httpx",
    "playwright": "microsoft/playwright-python", "pettingzoo": "Farama-Foundation/PettingZoo",
    "gymnasium": "Farama-Foundation/Gymnasium", "open_spiel": "google-deepmind/open_spiel",
    "numpy": "numpy/numpy", "setuptools": "pypa/setuptools", "wheel": "pypa/wheel",
    "ray": "ray-project/ray", "pyarrow": "apache/arrow", "matplotlib": "matplotlib/matplotlib",
}


def _names() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    reqs = list(data["build-system"]["requires"]) + list(data["project"]["dependencies"])
    for extra in data["project"]["optional-dependencies"].values():
        reqs += extra
    return {re.split(r"[\[<>=!~; ]", r, maxsplit=1)[0] for r in reqs}


def test_every_dependency_is_a_checked_name() -> None:
    assert _names() - set(KNOWN) == set()


def test_the_tests_use_httpx_not_a_look_alike() -> None:
    assert "httpx" in _names() and "httpx2" not in _names()
    for path in [*(ROOT / "tests").glob("*.py"), *(ROOT / "benchmarks").glob("*.py")]:
        if path.name == Path(__file__).name:
            continue
        assert "httpx2" not in path.read_text(encoding="utf-8"), path.name
