"""The meld tables of the family as data: one row per kind of meld, with its class and points.

A :class:`MeldKind` is a row of a table (RULES.md 3.1, 4, 9.1-9.4); a :class:`Pattern` is a kind
made concrete under one trump suit (:meth:`bezique.rules.Rules.patterns` makes them).  The
presets of :mod:`bezique.rules` pick a table; a new variant is mostly a new table here.

>>> [k.name for k in BEZIQUE_MELDS][:5]
['common marriage', 'royal marriage', 'sequence', 'bezique', 'double bezique']
>>> max(k.points for k in EIGHTPACK_MELDS)
9000
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import ACE, JACK, KING, QUEEN, RANK_NAMES, TEN

CLASS_A, CLASS_B, CLASS_C = 0, 1, 2
CLASS_NAMES = ("A", "B", "C")


@dataclass(frozen=True)
class MeldKind:
    """One row of the meld table: its name, class (0=A, 1=B, 2=C), points and shape.

    Shapes: ``marriage`` (K Q of a plain suit), ``royal`` (K Q of trumps), ``sequence``
    (A T K Q J of trumps), ``plain_sequence`` (A T K Q J of a plain suit), ``pair`` (the
    bezique), ``double_pair``, ``beziques`` (``count`` bezique pairs: triple, quadruple, ...),
    ``grand`` (K Q of the bezique queen's suit and the bezique jack), ``four`` and ``eight``
    (that many cards of ``rank``), ``trumps`` (``count`` trumps of ``rank``: the trump quartets
    and quintets of RULES.md 9.2-9.3).
    """

    name: str
    cls: int
    points: int
    shape: str
    rank: int = -1
    count: int = 0


@dataclass(frozen=True)
class Pattern:
    """A meld kind made concrete under one trump suit.

    Either ``counts`` (card -> copies needed) is given, or ``rank``/``n``/``distinct`` describe
    "n cards of this rank" (one of each suit when ``distinct``).
    """

    kind: int
    counts: tuple[tuple[int, int], ...] = ()
    rank: int = -1
    n: int = 0
    distinct: bool = False

    def matches(self, cards: Sequence[int]) -> bool:
        """True if these cards (ints 0..31, copies repeated) are exactly this pattern."""
        if self.n:
            if len(cards) != self.n or any(c & 7 != self.rank for c in cards):
                return False
            return not self.distinct or len({c >> 3 for c in cards}) == len(cards)
        if len(cards) != sum(n for _, n in self.counts):
            return False
        return all(cards.count(c) == n for c, n in self.counts)


def _fours(points: tuple[int, int, int, int], shape: str) -> tuple[MeldKind, ...]:
    word = "four" if shape == "four" else "eight"
    return tuple(
        MeldKind(f"{word} {RANK_NAMES[r]}s", CLASS_C, p, shape, r)
        for r, p in zip((ACE, KING, QUEEN, JACK), points, strict=True)
    )


BEZIQUE_MELDS: tuple[MeldKind, ...] = (
    MeldKind("common marriage", CLASS_A, 20, "marriage"),
    MeldKind("royal marriage", CLASS_A, 40, "royal"),
    MeldKind("sequence", CLASS_A, 250, "sequence"),
    MeldKind("bezique", CLASS_B, 40, "pair"),
    MeldKind("double bezique", CLASS_B, 500, "double_pair"),
    *_fours((100, 80, 60, 40), "four"),
)

BINOCLE_MELDS: tuple[MeldKind, ...] = (
    MeldKind("common marriage", CLASS_A, 20, "marriage"),
    MeldKind("royal marriage", CLASS_A, 40, "royal"),
    MeldKind("sequence", CLASS_A, 150, "sequence"),
    MeldKind("binocle", CLASS_B, 40, "pair"),
    MeldKind("double binocle", CLASS_B, 80, "double_pair"),
    MeldKind("grand binocle", CLASS_B, 80, "grand"),
    *_fours((100, 80, 60, 40), "four"),
    *_fours((200, 160, 120, 80), "eight"),
)

def _beziques(points: Sequence[int]) -> tuple[MeldKind, ...]:
    names = ("bezique", "double bezique", "triple bezique", "quadruple bezique",
             "quintuple bezique")
    return tuple(MeldKind(names[i], CLASS_B, p, "beziques", count=i + 1)
                 for i, p in enumerate(points))


def _trump_sets(count: int, points: tuple[int, int, int, int, int]) -> tuple[MeldKind, ...]:
    word = {4: "four", 5: "five"}[count]
    return tuple(
        MeldKind(f"{word} trump {RANK_NAMES[r]}s", CLASS_C, p, "trumps", r, count)
        for r, p in zip((ACE, TEN, KING, QUEEN, JACK), points, strict=True)
    )


# RULES.md 9.1-9.3: marriages and sequences in every suit, beziques up to the pack's copies.
RUBICON_MELDS: tuple[MeldKind, ...] = (
    MeldKind("common marriage", CLASS_A, 20, "marriage"),
    MeldKind("royal marriage", CLASS_A, 40, "royal"),
    MeldKind("plain sequence", CLASS_A, 150, "plain_sequence"),
    MeldKind("sequence", CLASS_A, 250, "sequence"),
    *_beziques((40, 500, 1500, 4500)),
    *_fours((100, 80, 60, 40), "four"),
)
SIXPACK_MELDS: tuple[MeldKind, ...] = (
    *RUBICON_MELDS,
    *_trump_sets(4, (1000, 900, 800, 600, 400)),
)
EIGHTPACK_MELDS: tuple[MeldKind, ...] = (
    *RUBICON_MELDS,
    MeldKind("quintuple bezique", CLASS_B, 9000, "beziques", count=5),
    *_trump_sets(4, (1000, 900, 800, 600, 400)),
    *_trump_sets(5, (2000, 1800, 1600, 1200, 800)),
)
FOUR_TENS = MeldKind("four tens", CLASS_C, 90, "four", TEN)
