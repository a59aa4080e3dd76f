"""A game in play on the site: :class:`LiveGame` (its stored row, the engine's game, the lock, the
open sockets and the record kept action by action), the two kinds of opponent, and
:class:`Refusal`, the one error a client request gets back.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from ..errors import BeziqueError
from ..game import Game
from ..record import deal_record
from ..rules import Rules
from .store import GameRow

COMPUTER = "computer"
FRIEND = "friend"


class Refusal(Exception):
    """A client request the server refuses; ``status`` is the HTTP status for REST callers."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class LiveGame:
    """A game in memory: its stored row, the engine's game, the lock and the open sockets."""

    row: GameRow
    game: Game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # each seat's open pages, oldest first
    conns: dict[int, dict[WebSocket, None]] = field(default_factory=dict)
    # a table's seats whose pages all closed: the computer takes them over when these end
    leaving: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None
    used: float = field(default_factory=time.monotonic)  # when last asked for
    # the record kept up to date action by action (Game.to_record() replays every deal)
    finished: list[dict[str, Any]] = field(default_factory=list)
    # the finished deals as JSON text, with how many there were (they never change)
    _finished_text: tuple[int, str] = field(default=(-1, ""), repr=False)

    def __post_init__(self) -> None:
        for seat in range(len(self.row.token_hashes)):
            self.conns.setdefault(seat, {})
        deals = self.row.record.get("deals") or []
        if len(deals) == len(self.game.deals) + 1:
            self.finished = [dict(d) for d in deals[:-1]]
        else:
            self.finished = self.game.to_record()["deals"][:-1]

    @property
    def practice(self) -> bool:
        """A practice game: its deal number was chosen, so its cards can be known."""
        return bool(self.row.record.get("practice"))

    def idle(self) -> bool:
        """No page open, no request under way, no computer move running: it may leave memory."""
        return (not any(self.conns.values()) and not self.lock.locked()
                and (self.task is None or self.task.done())
                and all(t.done() for t in self.leaving.values()))

    def record(self) -> dict[str, Any]:
        """The game as a record (RULES.md 8), the same as ``Game.to_record()`` (and marked if
        it is a practice game)."""
        deal = deal_record(self.game.state)
        out: dict[str, Any] = {"variant": self.game.rules.variant,
                               "options": self.game.rules.options(),
                               "deals": [*self.finished, deal]}
        if self.practice:
            out["practice"] = True
        return out

    def record_text(self, record: dict[str, Any] | None = None) -> str:
        """``record`` (by default :meth:`record`) as JSON text, the finished deals' text kept
        from one call to the next (a long game's record is mostly finished deals)."""
        rec = record if record is not None else self.record()
        n, done = self._finished_text
        if n != len(self.finished):
            done = ",".join(json.dumps(d, separators=(",", ":")) for d in self.finished)
            self._finished_text = (len(self.finished), done)
        head = {"variant": rec["variant"], "options": rec["options"]}
        tail = ',"practice":true' if rec.get("practice") else ""
        current = json.dumps(rec["deals"][-1], separators=(",", ":"))
        return (json.dumps(head, separators=(",", ":"))[:-1] + ',"deals":['
                + (done + "," if done else "") + current + "]" + tail + "}")

    def apply(self, text: str) -> None:
        """Apply an action of the seat to act (the record writes its canonical text)."""
        state = self.game.state
        state.apply_action(state.string_to_action(text))

    def undo(self) -> None:
        """Take back the current deal's last action."""
        self.game.state.undo_action()

    def next_deal(self) -> None:
        """Start the next deal, filing the finished one."""
        done = deal_record(self.game.state)
        self.game.next_deal()
        self.finished.append(done)

    def undo_next_deal(self) -> None:
        """Take back :meth:`next_deal` (the new deal could not be stored)."""
        self.game.undo_next_deal()
        self.finished.pop()

    @property
    def computer_seat(self) -> int | None:
        """The seat the computer plays against one person, if any (always seat 1)."""
        return 1 if self.row.opponent == COMPUTER else None

    def computer_to_act(self) -> bool:
        """True when the computer is to move in an unfinished deal against one person (a
        table's seats: :func:`bezique.web.seats.computer_to_act`)."""
        st = self.game.state
        return self.computer_seat is not None and st.current_player() == self.computer_seat


def stored_record(data: dict[str, Any]) -> dict[str, Any]:
    """A stored game's record as this version writes it.  Before, the deals of the games
    without a turn-up (Rubicon, Six- and Eight-pack) were stored with the seven of clubs as
    their turn-up (the name of no card, -1), which no record may have: such a game could not
    be loaded again once it had left memory.  Their turn-up is read as none.

    >>> stored_record({"variant": "rubicon", "deals": [{"turnup": "7C"}]})["deals"]
    [{'turnup': None}]
    >>> stored_record({"variant": "bezique", "deals": [{"turnup": "7C"}]})["deals"]
    [{'turnup': '7C'}]
    """
    try:
        rules = Rules.from_options(data["variant"], data.get("options"))
    except (BeziqueError, KeyError, TypeError):
        return data  # (the record's own check says what is wrong)
    deals = data.get("deals")
    if rules.turnup or not isinstance(deals, list):
        return data
    return {**data, "deals": [{**d, "turnup": None} if isinstance(d, dict) else d
                              for d in deals]}
