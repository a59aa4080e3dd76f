"""Masks of three packs and more as one 32-bit word per copy: the form their hot paths read.

A physical mask of three packs and more (see :mod:`bezique.cards`) is a Python int of 96 to
256 bits, and every operation on such an int allocates one; its *words* (word ``k``: the
32-bit card mask of copy ``k``, the mask's bits ``32 k`` to ``32 k + 31``) are machine-sized.
:class:`~bezique.position.Position` keeps the words of each seat's hand and shown cards beside
the masks (:meth:`~bezique.position.Position._hand_words`), updated in place as a card is
played or drawn; what reads them is here:

- :func:`split_words` and :func:`join_words` convert between a mask and its words,
  :func:`or_words` joins two holdings;
- :func:`count_keys`: per suit, the copies held of each of its ranks (a 4-bit count per rank),
  the key of :class:`~bezique.meldfilter.LevelFilter`'s tables;
- :func:`lowest_copies` moves each card's copies to the lowest ones (a key by the cards alone);
- :func:`copy_bits` reads which copies of one card a long mask holds in two operations on it,
  :func:`copies_held` lists them;
- :func:`word_plays` lists one physical card per distinct card (the lowest copy), for
  ``State.legal_actions``; :func:`seen_dup` tells the cards held and those held twice.

>>> w = split_words(0b11 | 0b10 << 32 | 0b10 << 64, 4)
>>> w
[3, 2, 2, 0]
>>> join_words(w) == 0b11 | 0b10 << 32 | 0b10 << 64
True
>>> word_plays(w)
([0, 1], 2)
"""

from __future__ import annotations

from typing import Final

from .cards import CARD_MASK32, COPIES_OF

# SPREAD[b]: the 8 bits of byte b spread to the low bits of 8 nibbles (bit i -> bit 4 i), so
# adding the spread bytes of several words counts each bit's copies in its nibble (up to 15).
SPREAD: Final[tuple[int, ...]] = tuple(
    sum(1 << (4 * i) for i in range(8) if b >> i & 1) for b in range(256)
)


def split_words(mask: int, copies: int) -> list[int]:
    """The ``copies`` 32-bit words of a physical mask (a long mask is shifted once per copy)."""
    out = []
    for _ in range(copies):
        out.append(mask & CARD_MASK32)
        mask >>= 32
    return out


def join_words(words: list[int]) -> int:
    """The physical mask of ``words`` (the inverse of :func:`split_words`)."""
    mask = 0
    for k in range(len(words) - 1, -1, -1):
        mask = mask << 32 | words[k]
    return mask


def or_words(a: list[int], b: list[int]) -> list[int]:
    """The words of the union of two holdings."""
    return [a[k] | b[k] for k in range(len(a))]


def count_keys(words: list[int], relevant: int) -> tuple[int, int, int, int]:
    """Per suit, the copies held (of the cards of ``relevant``) of each of its eight ranks, as
    nibbles: rank ``r``'s count is ``key >> 4 r & 15``.

    >>> count_keys([0b101, 0b1, 0b1 << 8, 0], 0xFFFFFFFF)
    (258, 1, 0, 0)
    """
    k0 = k1 = k2 = k3 = 0
    for w in words:
        w &= relevant
        if w:
            k0 += SPREAD[w & 255]
            k1 += SPREAD[w >> 8 & 255]
            k2 += SPREAD[w >> 16 & 255]
            k3 += SPREAD[w >> 24]
    return k0, k1, k2, k3


def word_plays(words: list[int]) -> tuple[list[int], int]:
    """One physical card per distinct card of ``words`` (its lowest copy held), by copy then
    card, and the 32-bit mask of the cards held more than once."""
    out: list[int] = []
    seen = dup = 0
    base = 0
    for w in words:
        if w:
            dup |= w & seen
            new = w & ~seen
            seen |= w
            while new:
                low = new & -new
                out.append(base + low.bit_length() - 1)
                new ^= low
        base += 32
    return out, dup


def lowest_copies(mask: int, copies: int) -> int:
    """The physical mask of the same cards with each card's copies moved to its lowest copies
    (the same multiset of cards: one key for what depends on the cards alone, not the copies).

    >>> lowest_copies(1 << 5 | 1 << 69 | 1 << 70, 4) == 1 << 5 | 1 << 37 | 1 << 6
    True
    """
    levels = [0] * copies  # level j: the cards held more than j times
    while mask:
        w = mask & CARD_MASK32
        mask >>= 32
        j = 0
        while w:  # (the cards of ``w`` already at level j go on to the next)
            up = levels[j] & w
            levels[j] |= w
            w = up
            j += 1
    return join_words(levels)


def seen_dup(words: list[int]) -> tuple[int, int]:
    """The 32-bit masks of the cards ``words`` hold, and of those they hold more than once."""
    seen = dup = 0
    for w in words:
        dup |= seen & w
        seen |= w
    return seen, dup


def copy_bits(mask: int, card: int, copies: int) -> int:
    """Bit ``k``: ``mask`` holds copy ``k`` of ``card`` (0..31).  The copies' bits of the mask
    (``32 k + card``) are gathered by one remainder: ``2 ** 32`` is 2 modulo ``2 ** 31 - 1``,
    so bit ``32 k`` leaves bit ``k`` (a few operations on a long mask, not one per copy).

    >>> copy_bits(1 << 5 | 1 << 69 | 1 << 101, 5, 4)
    13
    """
    if copies == 2:
        x = mask >> card
        return (x & 1) | (x >> 31 & 2)
    return ((mask & COPIES_OF[copies][card]) >> card) % 0x7FFFFFFF


def copies_held(mask: int, card: int, copies: int) -> list[int]:
    """The physical cards of the copies of ``card`` (0..31) that ``mask`` holds, lowest first.

    >>> copies_held(1 << 5 | 1 << 69 | 1 << 101, 5, 4)
    [5, 69, 101]
    """
    held = copy_bits(mask, card, copies)
    out = []
    q = card
    while held:
        if held & 1:
            out.append(q)
        held >>= 1
        q += 32
    return out
