"""Play again between people: the next game after a finished game between friends, at two
seats or at a table of three or four (against the computer, Play again just starts another
game, and nothing here applies).

The first person to ask starts the next game (:func:`next_seats`): they sit at its seat 0 and
lead, the others in their places after them, each computer at its level, and each other
person's seat kept for them (``last``), empty until they take it with their own link to the
finished game (:func:`next_token`): no invitation to send, and no token ever goes to another
page.  The finished game's seats then name the next game (``next``, :func:`with_next`), which
is all its pages are told (:func:`next_game`).  A table keeps its seats in ``row.seats``
(:mod:`bezique.web.seats`); a two-seat game has none there but these links to the last and the
next game.

>>> row = GameRow(id="g1", created=0, updated=0, opponent="friend", level=0, agent_spec="",
...               agent_seed=0, seed=0, token_hashes=["a", "b"], invite_hash=None,
...               names=["Ann", "Bea"], record={}, version=0)
>>> next_seats(row, 1)
([{'kind': 'you', 'last': ['g1', 1]}, {'kind': 'friend', 'last': ['g1', 0]}], ['Bea', 'Ann'])
>>> row.seats = with_next(row, "g2", 1)
>>> next_game(row, 0), row.seats[1]["next"]
({'id': 'g2', 'by': 1}, {'id': 'g2', 'seat': 0, 'by': 1})
"""

from __future__ import annotations

import base64
import hmac
from typing import Any

from ..agents.levels import computer_name
from .seats import COMPUTER_SEAT, FRIEND_SEAT, YOU, is_table
from .store import GameRow


def people_seats(row: GameRow) -> list[dict[str, Any]]:
    """The seats of a game between people: a table's own, or a two-seat game's (you and the
    friend, with their links to the last and the next game, if any)."""
    if is_table(row) or row.seats:
        return row.seats
    return [{"kind": YOU}, {"kind": FRIEND_SEAT}]


def next_seats(row: GameRow, first: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The seats and names of the next game after a finished one, started by seat ``first``:
    the seats turned so that ``first`` sits at seat 0 (and leads), the others in their places
    after it (partners still across), each computer at its level, and each other person's
    seat kept for them (``last``: their seat in this game), empty until they take it."""
    seats_before = people_seats(row)
    n = len(seats_before)
    seats: list[dict[str, Any]] = []
    names = []
    for new in range(n):
        old = (first + new) % n
        info = seats_before[old]
        if info["kind"] == COMPUTER_SEAT:
            seats.append({"kind": COMPUTER_SEAT, "level": info["level"], "spec": info["spec"]})
            names.append(computer_name(info["level"]).replace("Computer", f"Computer {new + 1}",
                                                              1))
        else:
            seats.append({"kind": YOU if new == 0 else FRIEND_SEAT, "last": [row.id, old],
                          **({"away": False} if is_table(row) else {})})
            names.append(row.names[old])
    return seats, names


def with_next(row: GameRow, game_id: str, first: int) -> list[dict[str, Any]]:
    """The seats of a finished game with each person's seat in the next game (``game_id``,
    started by seat ``first``): all the next game tells this one's pages."""
    seats = [dict(s) for s in people_seats(row)]
    for old, info in enumerate(seats):
        if info["kind"] != COMPUTER_SEAT:
            info["next"] = {"id": game_id, "seat": (old - first) % len(seats), "by": first}
    return seats


def next_game(row: GameRow, seat: int) -> dict[str, Any] | None:
    """The next game started after this one, as ``seat`` is told of it (its id, and who
    started it), or None: this seat's token in it goes to this seat's own link only."""
    nxt = row.seats[seat].get("next") if seat < len(row.seats) else None
    return {"id": nxt["id"], "by": nxt["by"]} if nxt else None


def kept(row: GameRow, seat: int) -> bool:
    """True when ``seat`` is kept for a person of the last game (they take it from its page)."""
    return seat < len(row.seats) and "last" in row.seats[seat]


def next_token(token: str, game_id: str, seat: int) -> str:
    """The token of ``seat`` in the next game ``game_id``, made from the token of the same
    person's seat in the last one: only the holder of that link can have it, and asking again
    gives the same one (the server keeps digests only, never a token).

    >>> a = next_token("secret", "g2", 1)
    >>> a == next_token("secret", "g2", 1), a == next_token("other", "g2", 1), len(a)
    (True, False, 43)
    """
    mac = hmac.new(token.encode("utf-8", "surrogatepass"), f"next {game_id} {seat}".encode(),
                   "sha256")
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode("ascii")
