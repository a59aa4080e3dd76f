"""Cards as small ints, physical copies as bits of an int mask, and their text forms.

With two packs, :func:`suit_plays` tabulates one suit's distinct cards as plays (one copy each).

A *card* is an int ``suit * 8 + rank`` with rank 0..7 for A T K Q J 9 8 7 (high to low) and
suit 0..3 for S H D C, so a lower rank number is a higher card.  A *physical card* (one copy of
a card in a multi-pack game) is ``copy * 32 + card``; a set of physical cards is an int bitmask
with bit ``p`` for physical card ``p``.  This stretches to eight packs (256 bits).

>>> parse_card("10h") == parse_card("TH") == parse_card("T♥")
True
>>> card_name(parse_card("q♠"))
'QS'
>>> card_symbol(parse_card("TD"))
'10♦'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Final

from .errors import BeziqueError

# Constants are ``Final``: the compiled build reads them as C constants, not from a module dict.
RANKS: Final = "ATKQJ987"
SUITS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
RANK_NAMES: Final = ("ace", "ten", "king", "queen", "jack", "nine", "eight", "seven")
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")

ACE: Final = 0
TEN: Final = 1
KING: Final = 2
QUEEN: Final = 3
JACK: Final = 4
NINE: Final = 5
EIGHT: Final = 6
SEVEN: Final = 7
SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3

NCARDS: Final = 32
CARD_MASK32: Final = 0xFFFFFFFF  # the 32 cards of one pack
# _ONES[n]: bit 0 of each of n packs' 32-bit words (a 32-bit mask times it repeats it n times)
_ONES: Final = tuple(sum(1 << (32 * c) for c in range(n)) for n in range(9))


def make_card(rank: int, suit: int) -> int:
    """The card of this rank and suit."""
    return suit * 8 + rank


def rank_of(card: int) -> int:
    """Rank 0..7 (A..7) of a card or a physical card."""
    return card & 7


def suit_of(card: int) -> int:
    """Suit 0..3 (S H D C) of a card or a physical card."""
    return (card >> 3) & 3


def card_of(phys: int) -> int:
    """The card (0..31) of a physical card."""
    return phys & 31


def copy_of(phys: int) -> int:
    """Which copy (0-based pack number) a physical card is."""
    return phys >> 5


def phys_card(card: int, copy: int) -> int:
    """The physical card that is copy ``copy`` of ``card``."""
    return copy * 32 + card


_SYMBOL_TO_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


def parse_card(text: str) -> int:
    """Read a card such as ``QS``, ``10h``, ``t♦``; raise :class:`BeziqueError` if it is none.

    >>> card_name(parse_card(" 7c "))
    '7C'
    """
    t = text.strip().upper()
    for sym, letter in _SYMBOL_TO_SUIT.items():
        t = t.replace(sym, letter)
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise BeziqueError(f"{text.strip()!r} is not a card (write it like QS, 10H, TD or J♦)")
    return make_card(RANKS.index(t[0]), SUITS.index(t[1]))


def split_token(token: str) -> tuple[int, str]:
    """The card an action's card token names, and the token's mark: ``""`` (a concealed card),
    ``"*"`` or ``"*2"`` (the seat's own shown copy, RULES.md 3.4), ``"+"`` (at a four-handed
    table, the partner's shown copy, RULES.md 9.5).

    >>> [(card_name(c), mark) for c, mark in map(split_token, ("QS", "QS*2", "KH+"))]
    [('QS', ''), ('QS', '*2'), ('KH', '+')]
    """
    cut = min((i for i in (token.find("*"), token.find("+")) if i >= 0), default=-1)
    if cut < 0:
        return parse_card(token), ""
    return parse_card(token[:cut]), token[cut:]


def card_name(card: int) -> str:
    """Canonical text of a card (or physical card): rank letter then suit letter, e.g. ``TD``."""
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def card_symbol(card: int) -> str:
    """Text of a card for people: ``10♦``, ``Q♠``."""
    r = rank_of(card)
    return ("10" if r == TEN else RANKS[r]) + SUIT_SYMBOLS[suit_of(card)]


def bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first.

    >>> list(bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bit_list(mask: int) -> list[int]:
    """The set bits of ``mask`` as a list, lowest first (for hot loops that want a list).

    >>> bit_list(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(items: Iterable[int]) -> int:
    """The bitmask with a bit set for each item."""
    m = 0
    for i in items:
        m |= 1 << i
    return m


def fold_copies(mask: int, copies: int) -> int:
    """The 32-bit mask of cards of which ``mask`` holds at least one physical copy (up to eight
    packs: the halves of the mask are or-ed together, three shifts of a long int at most).

    >>> fold_copies(0b1 | 0b10 << 32 | 0b100 << 96 | 0b1000 << 224, 8)
    15
    """
    if copies > 4:
        mask |= mask >> 128
    if copies > 2:
        mask |= mask >> 64
    return (mask | mask >> 32) & CARD_MASK32


def card_count(mask: int, card: int, copies: int) -> int:
    """How many physical copies of ``card`` are in ``mask``."""
    n = 0
    for c in range(copies):
        n += (mask >> (c * 32 + card)) & 1
    return n


def suit_mask(suit: int, copies: int) -> int:
    """Physical mask of every copy of every card of one suit."""
    m = 0xFF << (suit * 8)
    return replicate(m, copies)


def replicate(mask32: int, copies: int) -> int:
    """Repeat a 32-bit card mask for each copy, giving a physical mask (one product: the copies
    of a 32-bit mask cannot carry into each other).

    >>> replicate(0b101, 3) == 0b101 | 0b101 << 32 | 0b101 << 64
    True
    """
    return mask32 * _ONES[copies]  # (one to eight packs)


# BITS[p]: the mask of physical card ``p`` (0..255), ``1 << p`` without the shift: with three
# packs and more most cards are past a machine word, where a shift allocates a long int.
BITS: Final[tuple[int, ...]] = tuple(1 << p for p in range(256))

# COPIES_OF[n][card]: the physical mask of every copy of ``card`` in ``n`` packs (1 to 8).
COPIES_OF: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(replicate(1 << c, n) for c in range(32)) for n in range(9)
)


def sort_key(card: int) -> tuple[int, int]:
    """Canonical order of cards: suits S H D C, ranks high to low."""
    return (suit_of(card), rank_of(card))


def cards_text(cards: Iterable[int]) -> str:
    """Canonical text of several cards, sorted, separated by spaces."""
    return " ".join(card_name(c) for c in sorted(cards, key=sort_key))


# Two packs: one suit's distinct cards as plays (the first copy of a card held as the first, else
# the second), in rank order: one table per suit indexed by ``only_second << 8 | first`` (the
# rank bits of the suit's cards held as the first copy, and held only as the second).  A list
# indexed by the key costs less than a dict keyed by it (no hash, no probe), in both builds.
# The tables are filled all at once when first read (:func:`suit_plays`: 3**8 holdings a suit,
# about 10 ms in pure Python, once); until then every place holds None (and the other places,
# ``first & only_second`` not 0, always do).  ``Plays.legal_actions`` reads them.
SUITS02: Final = 0x00FF00FF  # the bytes of suits 0 and 2 of a 32-bit card mask
SUIT_PLAYS0: Final[list[Any]] = [None] * 0x10000
SUIT_PLAYS1: Final[list[Any]] = [None] * 0x10000
SUIT_PLAYS2: Final[list[Any]] = [None] * 0x10000
SUIT_PLAYS3: Final[list[Any]] = [None] * 0x10000
_SUIT_PLAYS: Final = (SUIT_PLAYS0, SUIT_PLAYS1, SUIT_PLAYS2, SUIT_PLAYS3)


def suit_plays(suit: int, key: int) -> tuple[int, ...]:
    """The plays of ``suit``'s table for ``key`` (see above), filling the tables if need be.

    >>> suit_plays(1, 0b10 << 8 | 0b1)  # A♥ held as the first copy, 10♥ only as the second
    (8, 41)
    """
    if key >> 8 & key:
        raise ValueError(f"no holding has key {key:#x}: a card both first and only second")
    table = _SUIT_PLAYS[suit]
    if table[key] is None:
        _fill_suit_plays()
    got: tuple[int, ...] = table[key]
    return got


def _fill_suit_plays() -> None:
    """Every holding of every suit's play table: nothing held, then each rank from the lowest
    card up, held as the first copy or only as the second, its play put in front."""
    for suit, table in enumerate(_SUIT_PLAYS):
        entries: list[tuple[int, tuple[int, ...]]] = [(0, ())]
        for rank in range(7, -1, -1):
            bit = 1 << rank
            card = suit * 8 + rank
            ways = ((bit, (card,)), (bit << 8, (card + 32,)))  # (key bit, its play)
            entries += [(k | more, play + plays) for k, plays in entries for more, play in ways]
        for k, plays in entries:
            table[k] = plays
