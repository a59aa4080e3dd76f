"""The tables for three and four (RULES.md 9.4, 9.5): who sits in each seat and who plays it.

A table's row (``opponent = "table"``) keeps one entry per seat in ``row.seats``: the creator
(``you``), a ``friend`` with a private invitation of their own (stored as a digest, like every
token) or the ``computer`` at a level.  The game waits until every friend seat is taken, in
any order.  A person who leaves (the "leave" request, or no page open for a while) is marked
``away`` and the computer plays their seat (at the table's takeover level) so that the others
can go on; their link gives the seat back.  Two-seat games have no ``seats`` of their own (a
friends' game keeps there only its links to the last and the next game, :mod:`bezique.web.again`).
A person alone with computers (:func:`alone_with_computers`) may ask for hints and take moves
back, as in the two-seat game against the computer; with another person at the table, not.
Once a table's game is over, the next one at the same table keeps a seat for each of its
people (:mod:`bezique.web.again`).

>>> row = GameRow(id="t", created=0, updated=0, opponent=TABLE, level=1, agent_spec="random",
...               agent_seed=0, seed=0, token_hashes=["a", None, None], invite_hash=None,
...               names=["Ann", "Player 2", "Computer"], record={}, version=0,
...               seats=[{"kind": YOU}, {"kind": FRIEND_SEAT, "invite": "x"},
...                      {"kind": COMPUTER_SEAT, "level": 1, "spec": "random"}])
>>> waiting(row), played_by_computer(row, 2), played_by_computer(row, 0)
(1, 'random', None)
>>> alone_with_computers(row, 0)
False
>>> seats, names, invites = new_seats([WebSeat(kind="friend"), WebSeat(kind="computer", level=1)],
...                                   3)
>>> names, list(invites), seats[2]["spec"]
(['', 'Player 2', 'Computer 3 (level 1 beginner)'], [1], 'random')
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from ..agents.levels import computer_name, level_spec
from ..schema import WebSeat
from .live import FRIEND, LiveGame, Refusal
from .store import GameRow, hash_token

TABLE = "table"  # a game's ``opponent`` when it is a table for three or four
TABLE_VARIANTS = ("bezique3", "bezique4")
YOU, FRIEND_SEAT, COMPUTER_SEAT = "you", "friend", "computer"


def is_table(row: GameRow) -> bool:
    """True for a table of three or four."""
    return row.opponent == TABLE


def new_seats(others: list[WebSeat], nplayers: int) -> tuple[list[dict[str, Any]], list[str],
                                                              dict[int, str]]:
    """The seats of a new table (the creator at seat 0 and ``others`` to their left), the
    names shown until friends sit, and each friend seat's invitation (to hand out once)."""
    if len(others) != nplayers - 1:
        raise Refusal(f"a table of {nplayers} needs {nplayers - 1} other seats, each a friend "
                      f"or the computer (not {len(others)})")
    seats: list[dict[str, Any]] = [{"kind": YOU, "away": False}]
    names = [""]
    invites: dict[int, str] = {}
    for i, other in enumerate(others, start=1):
        if other.kind == FRIEND_SEAT:
            invite = secrets.token_urlsafe(24)
            invites[i] = invite
            seats.append({"kind": FRIEND_SEAT, "invite": hash_token(invite), "away": False})
            names.append(f"Player {i + 1}")
        else:
            seats.append({"kind": COMPUTER_SEAT, "level": other.level,
                          "spec": level_spec(other.level)})
            # "Computer 2 (level 1 beginner)": the seat's number tells computers apart
            names.append(computer_name(other.level).replace("Computer", f"Computer {i + 1}", 1))
    return seats, names, invites


def waiting(row: GameRow) -> int:
    """How many friend seats are still empty (the game starts at 0)."""
    return sum(1 for s, h in zip(row.seats, row.token_hashes, strict=False)
               if s["kind"] == FRIEND_SEAT and h is None)


def waiting_words(n: int) -> str:
    """What everyone seated is told while the game waits.

    >>> waiting_words(1), waiting_words(2)
    ('waiting for 1 player', 'waiting for 2 players')
    """
    return f"waiting for {n} player{'s' if n != 1 else ''}"


def is_person(row: GameRow, seat: int) -> bool:
    """True for a seat a person holds (the creator's or a friend's)."""
    return is_table(row) and row.seats[seat]["kind"] != COMPUTER_SEAT


def alone_with_computers(row: GameRow, seat: int) -> bool:
    """True when every other seat of the table is the computer's (no other person sits there,
    even one away): then ``seat`` may ask for hints and take its moves back."""
    return is_table(row) and all(info["kind"] == COMPUTER_SEAT
                                 for s, info in enumerate(row.seats) if s != seat)


def is_away(row: GameRow, seat: int) -> bool:
    """True when the computer has taken over a person's seat."""
    return is_person(row, seat) and bool(row.seats[seat].get("away"))


def played_by_computer(row: GameRow, seat: int) -> str | None:
    """The agent spec the computer plays ``seat`` of a table with now, or None (a person)."""
    info = row.seats[seat]
    if info["kind"] == COMPUTER_SEAT:
        return str(info["spec"])
    return row.agent_spec if info.get("away") else None


def anyone_here(row: GameRow) -> bool:
    """True while some person still holds their seat (else the computer waits: nobody is
    watching its moves)."""
    return any(s["kind"] != COMPUTER_SEAT and not s.get("away") for s in row.seats)


def with_away(row: GameRow, seat: int, away: bool) -> list[dict[str, Any]]:
    """The seats with ``seat`` marked away (taken over) or back."""
    seats = [dict(s) for s in row.seats]
    seats[seat]["away"] = away
    return seats


def invited_seat(row: GameRow, invite: str) -> int:
    """The friend seat an invitation is for, or a refusal: a wrong link (403), a seat already
    taken or a full table (409)."""
    digest = hash_token(invite) if invite else ""
    for seat, info in enumerate(row.seats):
        h = info.get("invite")
        if info["kind"] == FRIEND_SEAT and h and hmac.compare_digest(h, digest):
            if row.token_hashes[seat] is not None:
                if waiting(row) == 0:
                    raise Refusal("that table is full: every seat has been taken", 409)
                raise Refusal(f"seat {seat + 1} of that table has already been taken", 409)
            return seat
    raise Refusal("that invitation is not valid for this game", 403)


def invitation_seat(row: GameRow, invite: str) -> int:
    """The seat an invitation is for, in a table or a game of two friends, or the refusal its
    friend is given: a wrong link (403), a seat already taken, a game against the computer
    (409)."""
    if is_table(row):
        return invited_seat(row, invite)
    if row.opponent != FRIEND:
        raise Refusal("that game is against the computer", 409)
    if row.token_hashes[1] is not None:
        raise Refusal("the other seat of that game has already been taken", 409)
    if not invite or row.invite_hash is None or not hmac.compare_digest(row.invite_hash,
                                                                        hash_token(invite)):
        raise Refusal("that invitation is not valid for this game", 403)
    return 1


def seats_view(row: GameRow, online: list[bool], you: int,
               over: bool = False) -> list[dict[str, Any]]:
    """What every seat is told about the seats (all public): name, kind, level, online, away
    (the computer playing a person's seat: never once the game is ``over``, when nobody plays
    it any more)."""
    out = []
    for seat, info in enumerate(row.seats):
        kind = str(info["kind"])
        out.append({
            "seat": seat,
            "name": row.names[seat],
            "kind": COMPUTER_SEAT if kind == COMPUTER_SEAT else (YOU if seat == you else
                                                                  FRIEND_SEAT),
            "level": int(info.get("level", row.level)),
            "online": kind == COMPUTER_SEAT or online[seat],
            "empty": kind == FRIEND_SEAT and row.token_hashes[seat] is None,
            # kept for a person of the last game at this table, to take from its page
            "kept": "last" in info,
            "away": bool(info.get("away")) and not over,
        })
    return out


def computer_spec(live: LiveGame, seat: int) -> str | None:
    """The agent spec the computer plays ``seat`` with now, or None (a person plays it)."""
    if is_table(live.row):
        return played_by_computer(live.row, seat)
    return live.row.agent_spec if seat == live.computer_seat else None


def computer_to_act(live: LiveGame) -> bool:
    """True when the computer is to move in an unfinished deal (at a table, once every seat is
    taken and while some person is still there)."""
    if not is_table(live.row):
        return live.computer_to_act()
    seat = live.game.state.current_player()
    row = live.row
    return (0 <= seat < len(row.seats) and played_by_computer(row, seat) is not None
            and waiting(row) == 0 and anyone_here(row))
