"""Playing levels 1..5 for front ends: each level is an agent spec for :func:`make_agent`.

The levels that think are defined by time, not by a number of worlds: the search samples and
plays out worlds until its budget is spent and never takes more than 10% over it
(``tests/test_clock.py``), so a level is the same wait on every machine (and stronger on a
faster one, or the compiled build).

=====  ==========  ================================================================
level  name        player
=====  ==========  ================================================================
1      beginner    random legal moves
2      casual      the heuristic (no search): answers at once
3      club        the search within 0.3 s a move (the default)
4      strong      the search within 1 s a move
5      expert      the search within 3 s a move
=====  ==========  ================================================================

At a table of three or four (``bezique3``, ``bezique4``) the same budgets bound the table
search.  A decision with a single sensible action (one legal move, the solved end phase)
answers at once.  :data:`LEVEL_MS` holds each level's budget in milliseconds.

Measured against each other (``benchmarks/levels_elo.py``, 100 duplicated deals a pair, Elo
with 95% intervals in ``benchmarks/STRENGTH.md``): 2 over 1 +676, 3 over 2 +67, 4 over 3 +42,
5 over 4 +0 [-52, +52]: levels 4 and 5 play at one strength so far (the search is saturated at
about a second a move).
"""

from __future__ import annotations

from .base import agent_names

# level -> agent spec, strongest last; a level whose agent is not registered falls back to the
# strongest registered one below it.
LEVELS: dict[int, str] = {
    1: "random",
    2: "heuristic",
    3: "search:ms=300",
    4: "search:ms=1000",
    5: "search:ms=3000",
}
# each level's thinking time a move in milliseconds (0: it does not search)
LEVEL_MS: dict[int, int] = {1: 0, 2: 0, 3: 300, 4: 1000, 5: 3000}
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
