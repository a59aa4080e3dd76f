"""The records a match writes, one file per play (``deal-0001-2.json``: set 1, its second
seating), and reading them back to resume a match that was cut short.

A long strength run (an hour of one-second decisions) may be stopped by anything; with
``--save DIR --resume`` the arena reads the sets already saved in ``DIR`` and plays only the
others.  A set counts only when every one of its plays was saved (a set is saved whole, after
its last play).  A file from another match (other agents, other rules, other cards) is refused
with one line rather than mixed in; a file cut short by the stop is played again.

>>> import tempfile
>>> from bezique import Rules, State
>>> from bezique.record import game_record
>>> folder = records_folder(tempfile.mkdtemp())
>>> rules = Rules.preset("bezique")
>>> s = State.new_deal(rules, seed=3, dealer=1)
>>> saved_set(folder, "deals", 0, [["a", "b"]], rules, s) is None  # nothing saved yet
True
>>> while not s.is_terminal():
...     s.apply(s.legal_action_strings()[0])
>>> save_records(folder, "deals", 0, [dict(game_record(rules, [s]), players=["a", "b"])])
>>> again = saved_set(folder, "deals", 0, [["a", "b"]], rules,
...                   State.new_deal(rules, seed=3, dealer=1))
>>> [(deals[0].scores, winner) for deals, winner in again] == [(s.scores, -1)]  # no game won
True
>>> saved_set(folder, "deals", 0, [["b", "a"]], rules, State.new_deal(rules, seed=3, dealer=1))
Traceback (most recent call last):
bezique.errors.BeziqueError: ...: its players are ['a', 'b'], not ['b', 'a']
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import BeziqueError, RecordError
from .record import parse_record, record_players, states_from_record
from .rules import Rules
from .state import State


def records_folder(save: str | Path | None, resume: bool = True) -> Path | None:
    """The folder ``--save`` names, created now (so a bad path fails before any play).  A new
    match (not ``resume``) is refused a folder that already holds a match's records: its
    files would be overwritten in part and the rest mixed with the new ones."""
    if save is None:
        return None
    out_dir = Path(save)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        old = not resume and first_record(out_dir)
    except OSError as e:
        raise BeziqueError(f"cannot create {out_dir}: {e.strerror or e}") from None
    if old:
        raise BeziqueError(f"{out_dir} already holds the records of a match ({old.name}): "
                           f"give --resume to go on with it, or another folder")
    return out_dir


def first_record(folder: Path) -> Path | None:
    """The first record a match wrote in ``folder`` (``deal-*.json``, ``game-*.json``), if
    any (None too when the folder does not exist)."""
    return min((f for pattern in ("deal-*.json", "game-*.json") for f in folder.glob(pattern)),
               default=None)


def record_path(out_dir: Path, mode: str, index: int, k: int) -> Path:
    """The file of play ``k`` (from 1) of set ``index`` (from 0): ``deal-0001-1.json``."""
    return out_dir / f"{mode[:-1]}-{index + 1:04d}-{k}.json"


def save_records(out_dir: Path, mode: str, index: int, records: Sequence[Any]) -> None:
    """Write the records of duplicated set ``index`` as ``deal-0001-1.json``, ``-2``, ..."""
    for k, record in enumerate(records, 1):
        path = record_path(out_dir, mode, index, k)
        try:
            path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        except OSError as e:
            raise BeziqueError(f"cannot write {path}: {e.strerror or e}") from None


def saved_set(out_dir: Path, mode: str, index: int, players: Sequence[Sequence[str]],
              rules: Rules, first: State) -> list[tuple[list[State], int]] | None:
    """Set ``index`` as saved in ``out_dir``: for each play (``players[k]`` naming the agents
    of its seats), its deals replayed to their ends and the game's winner (-1 for none), or
    None when a file is missing or unreadable (the set is played again).  ``first`` is the
    set's first deal as dealt: a saved play must start with the same cards.  Raises
    :class:`BeziqueError` for a file of another match."""
    out = []
    for k, names in enumerate(players, 1):
        path = record_path(out_dir, mode, index, k)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            record = parse_record(data)
            deals = states_from_record(record)
        except (OSError, ValueError, RecordError):
            return None
        if not deals or not deals[-1].is_terminal():
            return None
        other = (f"{path} is not a record of this match, so the match cannot resume there "
                 f"(use another folder)")
        if record_players(data, len(names)) != tuple(names):
            raise BeziqueError(f"{other}: its players are {data.get('players')}, "
                               f"not {list(names)}")
        if record.rules.options() != rules.options() or record.rules.variant != rules.variant:
            raise BeziqueError(f"{other}: it is played by other rules")
        if _cards(deals[0]) != _cards(first):
            raise BeziqueError(f"{other}: its cards are not the cards of the match's seed")
        winner = deals[-1].winner
        out.append((deals, -1 if winner is None else winner))
    return out


def _cards(state: State) -> tuple[object, ...]:
    """The dealer, the hands as dealt and the stock, as cards (not copies)."""
    return (state.dealer, [[p & 31 for p in h] for h in state.deal_hands],
            [p & 31 for p in state.stock])
