"""The terminal player's history: the games saved by ``bezique play`` (the current one, the
kept unfinished ones, and the finished ones in ``history/``), read for the statistics
(:mod:`bezique.stats`) that ``bezique stats`` prints and the statistics screen shows.

Each game is counted once (by the ``id`` its record keeps; older saves by their seed); a game at
a table of three or four is counted by its kind of table (:func:`bezique.stats.table_label`).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import BeziqueError
from ..record import parse_record, record_players, states_from_record
from ..stats import GamePlayed, game_played, report, tally
from .session import data_dir, history_dir


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
        data = json.loads(path.read_text(encoding="utf-8"))
        record = parse_record(data)
        states = states_from_record(record)
        when = path.stat().st_mtime
    except (OSError, ValueError, RecursionError, BeziqueError):
        return None
    meta = data.get("play") if isinstance(data, dict) else None
    if not isinstance(meta, dict):
        return None
    n = record.rules.nplayers
    seat = meta["human"] if meta.get("human") in range(n) else 0
    level = meta.get("level") if meta.get("level") in (1, 2, 3, 4, 5) else None
    names = record_players(data, n)
    player = names[seat] if names else "You"
    game_id = str(meta.get("id") or f"seed-{meta.get('seed')}")
    return game_id, game_played(states, seat, player, "computer", level, when)


def saved_games() -> list[GamePlayed]:
    """The person's games, each once (a finished copy wins over a save of the same game)."""
    seen: dict[str, GamePlayed] = {}
    for f in saved_files():
        got = read_game(f)
        if got is not None and got[0] not in seen:
            seen[got[0]] = got[1]
    return list(seen.values())


def stats_lines() -> list[str]:
    """The statistics as text, per player and per level."""
    return report(tally(saved_games()))
