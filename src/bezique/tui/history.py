"""The terminal player's history: the games saved by ``bezique play`` (the current one, the
kept unfinished ones, and the finished ones in ``history/``), read for the statistics
(:mod:`bezique.stats`) that ``bezique stats`` prints and the statistics screen shows.

Each game is counted once (by the ``id`` its record keeps; older saves by their seed); a game at
a table of three or four is counted by its kind of table (:func:`bezique.stats.table_label`).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import BeziqueError, RecordError
from ..record import parse_record, record_players, states_from_record
from ..stats import GamePlayed, game_played, report, tally
from .session import data_dir, game_id_of, history_dir


def saved_files() -> list[Path]:
    """Every saved game file: finished ones first, then the current and the kept ones."""
    files: list[Path] = []
    if history_dir().is_dir():
        files.extend(sorted(history_dir().glob("*.json")))
    if data_dir().is_dir():
        files.extend(sorted(data_dir().glob("game*.json")))
    return files


def read_game(path: Path) -> tuple[str, GamePlayed] | None:
    """A saved game as (its id, the game from the person's seat), or None if it is not one."""
    try:
        return load_game(path)
    except (OSError, ValueError, RecursionError, BeziqueError):
        return None


def load_game(path: Path) -> tuple[str, GamePlayed]:
    """A saved game as (its id, the game from the person's seat); an exception (``OSError``,
    ``ValueError``, :class:`BeziqueError`) when it cannot be read or is no game of ``bezique
    play``."""
    data = json.loads(path.read_text(encoding="utf-8"))
    record = parse_record(data)
    states = states_from_record(record)
    when = path.stat().st_mtime
    meta = data.get("play") if isinstance(data, dict) else None
    if not isinstance(meta, dict):
        raise RecordError("it has no 'play' entry: it is no game of 'bezique play'")
    n = record.rules.nplayers
    human = meta.get("human")
    seat = human if isinstance(human, int) and not isinstance(human, bool) and 0 <= human < n \
        else 0
    level = meta.get("level")
    if isinstance(level, bool) or level not in (1, 2, 3, 4, 5):
        level = None
    names = record_players(data, n)
    player = names[seat] if names else "You"
    return game_id_of(meta), game_played(states, seat, player, "computer", level, when)


def gather() -> tuple[list[GamePlayed], list[str]]:
    """The person's games, each once, and a line for each saved file that cannot be read.

    A game kept in several files (its finished copy, a save another terminal moved) counts once:
    finished before unfinished, then the latest."""
    seen: dict[str, GamePlayed] = {}
    problems: list[str] = []
    for f in saved_files():
        try:
            gid, game = load_game(f)
        except (OSError, ValueError, RecursionError, BeziqueError) as e:
            why = (e.strerror if isinstance(e, OSError) and e.strerror else str(e)).strip()
            why = why.splitlines()[0][:120] if why else type(e).__name__
            problems.append(f"Not counted: {f} cannot be read ({why})")
            continue
        old = seen.get(gid)
        if old is None or (game.won is not None, game.when) > (old.won is not None, old.when):
            seen[gid] = game
    return list(seen.values()), problems


def saved_games() -> list[GamePlayed]:
    """The person's games, each once (a finished copy wins over a save of the same game)."""
    return gather()[0]


def stats_lines() -> list[str]:
    """The statistics as text, per player and per level (and a line for each saved file that
    cannot be read, which is not counted)."""
    games, problems = gather()
    return report(tally(games)) + problems
