"""The engine protocol sessions in the README are real: each request, sent to a fresh engine,
gets the answer printed there (thinking times aside)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bezique.engine import Engine

README = Path(__file__).resolve().parent.parent / "README.md"


def sessions() -> list[list[tuple[str, str]]]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Engine protocol"):]
    out = []
    for block in section.split("```\n")[1::2]:
        lines = [line for line in block.splitlines() if line[:2] in ("> ", "< ")]
        if not lines:
            continue
        pairs = [(a[2:], b[2:]) for a, b in zip(lines[::2], lines[1::2], strict=True)]
        out.append(pairs)
    return out


def _same(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in answer.items() if k not in ("ms", "version")}


@pytest.mark.parametrize("number", range(len(sessions())))
def test_the_readme_sessions_replay(number: int) -> None:
    engine = Engine()
    for request, printed in sessions()[number]:
        answer = engine.handle(request)
        expected = json.loads(printed)
        if "agents" in expected:  # the hello lists what this install has
            assert set(expected["agents"]) <= set(answer["agents"])
            expected["agents"] = answer["agents"]
        assert _same(answer) == _same(expected), request


def test_there_is_a_three_handed_session() -> None:
    assert any('"variant": "bezique3"' in req for s in sessions() for req, _ in s)
