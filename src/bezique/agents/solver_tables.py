"""Move tables and hand masks for the exact end solver (:mod:`bezique.agents.solver`).

A hand is a *layered mask*: bits ``0..31`` are the cards held at least once, bits ``32..63``
those held twice, and so on.  The tables give, per suit, the representative cards of a hand (of
cards that are equivalent once the cards between them are gone, one is tried) and the ordered
leads and replies; they are filled lazily and shared by every solver with the same card points.

>>> bin(hand_mask([0, 0, 3]))
'0b100000000000000000000000000001001'
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import card_name
from ..errors import BeziqueError

M32 = (1 << 32) - 1


def hand_mask(cards: Iterable[int], copies: int = 2) -> int:
    """The layered mask of a list of cards (0..31, repeated for copies)."""
    h = 0
    for c in cards:
        for k in range(copies):
            bit = 1 << (32 * k + c)
            if not h & bit:
                h |= bit
                break
        else:
            raise BeziqueError(f"more than {copies} copies of {card_name(c)}")
    return h


def remove_card(h: int, c: int) -> int:
    """The hand ``h`` less one copy of card ``c`` (the highest layer holding it)."""
    bit = 1 << c
    k = bit << 32
    while h & k:
        k <<= 32
    return h ^ (k >> 32)


class Tables:
    """Move tables for one set of card points (filled lazily, shared by every solver with those
    points).  Indexes pack a suit ``s``, a flag, my 8 bits of the suit and the 8 bits of the
    cards that block equivalence (or of the other hand): ``s << 17 | flag << 16 | m << 8 | b``.
    """

    def __init__(self, points: tuple[int, ...]) -> None:
        self.points = points
        self.reps = [-1] * 65536
        self.replies: list[tuple[int, ...] | None] = [None] * (1 << 19)
        self.leads: list[tuple[int, ...] | None] = [None] * (1 << 19)

    def suit_reps(self, mine: int, block: int) -> int:
        """Representatives among my 8 bits of one suit: one per run of equal-point cards that
        no blocking card (the other side's, or the card led) separates."""
        key = mine << 8 | block
        r = self.reps[key]
        if r >= 0:
            return r
        pts = self.points
        out = 0
        open_ = False
        prev = -1
        for rank in range(8):
            b = block >> rank & 1
            if b:
                open_ = False
            if mine >> rank & 1 and (not open_ or pts[rank] != prev):
                out |= 1 << rank
                prev = pts[rank]
                open_ = True
            if b:
                open_ = False
        self.reps[key] = out
        return out

    def cheap_first(self, reps: int) -> list[int]:
        """The ranks of ``reps``, fewest points first, then the lowest card."""
        pts = self.points
        ranks = [r for r in range(8) if reps >> r & 1]
        ranks.sort(key=lambda r: (pts[r], -r))
        return ranks

    def fill_replies(self, idx: int) -> tuple[int, ...]:
        """A follower's cards of one suit (flag: dearest first, else cheapest first)."""
        s, dear, m, bl = idx >> 17, idx >> 16 & 1, idx >> 8 & 0xFF, idx & 0xFF
        ranks = self.cheap_first(self.suit_reps(m, bl))
        if dear:
            ranks.reverse()
        out = tuple(8 * s + r for r in ranks)
        self.replies[idx] = out
        return out

    def fill_leads(self, idx: int) -> tuple[int, ...]:
        """Sort keys of a leader's cards of one suit (flag: the other hand is void in the suit
        and holds trumps): cards the other side cannot beat, richest first, then the others,
        cheapest first; the card is the key's low 5 bits."""
        s, trumpable, m, ob = idx >> 17, idx >> 16 & 1, idx >> 8 & 0xFF, idx & 0xFF
        r = self.suit_reps(m, ob)
        out = []
        for rank in range(8):
            if r >> rank & 1:
                c = 8 * s + rank
                p = self.points[rank]
                if not trumpable and not ob & ((1 << rank) - 1):
                    out.append((64 - p) << 8 | rank << 5 | c)
                else:
                    out.append((128 + p) << 8 | (7 - rank) << 5 | c)
        t = tuple(out)
        self.leads[idx] = t
        return t


_TABLES: dict[tuple[int, ...], Tables] = {}


def tables(points: tuple[int, ...]) -> Tables:
    t = _TABLES.get(points)
    if t is None:
        t = _TABLES[points] = Tables(points)
    return t
