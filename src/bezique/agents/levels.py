"""Playing levels 1..5 for front ends: each level is an agent spec for :func:`make_agent`.

Level 3, the default, decides in a median 0.07 s on one core (0.18 s when there is a real
choice, 90th percentile 0.86 s: the last tricks before the end phase take longest; see
``benchmarks/STRENGTH.md``); level 5 takes a few seconds a move.  At a table of three or
four (``bezique3``, ``bezique4``) the search levels stop sampling after ``search.TABLE_MS``
(0.4 s) a decision.
"""

from __future__ import annotations

from .base import agent_names

# level -> agent spec, strongest last; a level whose agent is not registered falls back to the
# strongest registered one below it.
LEVELS: dict[int, str] = {
    1: "random",
    2: "heuristic",
    3: "search:samples=60",
    4: "search:samples=150",
    5: "search:samples=400",
}
DEFAULT_LEVEL = 3
# The names of the levels, one set for every front end (``bezique play``, ``bezique serve``,
# the statistics); the browser's copy in ``web/static/app.js`` is checked against it by a test.
LEVEL_NAMES = {1: "beginner", 2: "casual", 3: "club", 4: "strong", 5: "expert"}


def level_label(level: int) -> str:
    """A level as players read it.

    >>> level_label(5)
    'level 5 (expert)'
    """
    return f"level {level} ({LEVEL_NAMES[level]})" if level in LEVEL_NAMES else f"level {level}"


def computer_name(level: int) -> str:
    """The computer player's name at ``level``, the same in both front ends and their records.

    >>> computer_name(1)
    'Computer (level 1 beginner)'
    """
    return f"Computer (level {level} {LEVEL_NAMES[level]})" if level in LEVEL_NAMES else (
        f"Computer (level {level})")


def level_spec(level: int) -> str:
    """The agent spec of a level (1 = beginner ... 5 = strongest)."""
    if level not in LEVELS:
        raise ValueError(f"level must be 1 to 5, not {level}")
    names = set(agent_names())
    for lv in range(level, 0, -1):
        spec = LEVELS[lv]
        if spec.split(":")[0] in names:
            return spec
    return "random"
