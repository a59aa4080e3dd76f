"""The meld search's first filter: the meld table made concrete under a trump, and which
patterns a holding has the cards for, for all the patterns at once.

- :func:`quick_patterns` makes the variant's meld table concrete under a trump suit, with the
  masks the meld search needs to reject most patterns at once.
- :class:`SuitFilter` (two packs) passes the patterns whose cards needed once and twice are
  held, in four table look-ups keyed by each suit's byte of each copy.
- :class:`LevelFilter` (three packs and more) does the same from the copies held of each card
  (whichever copies they are), read off the holding's words (see :mod:`bezique.copywords`).

:mod:`bezique.melds` (the meld search and the judges) uses them; the state keeps the filter of
its trump (see :func:`suit_filter`).
"""

from __future__ import annotations

from typing import Any, Final

from .cards import CARD_MASK32, SUITS02, fold_copies, make_card, mask_of, replicate
from .copywords import count_keys, join_words, split_words
from .rules import Pattern, Rules

# (pattern, class, mask of every physical card that could take part, (mask, count) needs,
#  two packs: 32-bit masks of the cards needed at least once and twice, cards needed of "n of a
#  rank", any packs: the 32-bit mask of the cards needed at least once)
QuickPattern = tuple[Pattern, int, int, tuple[tuple[int, int], ...], int, int, int, int]
_QUICK: dict[tuple[Rules, int], tuple[QuickPattern, ...]] = {}
_FILTERS: dict[tuple[Rules, int], MeldFilter] = {}


def quick_patterns(rules: Rules, trump: int) -> tuple[QuickPattern, ...]:
    """The patterns under ``trump`` with what the meld search needs to reject them cheaply:
    the class, the physical mask of every card that could take part, (cards, count) needs (32-bit
    card masks: that many copies among those cards), for two packs the cards needed at least
    once and twice (32-bit card masks), and how many of the
    possible cards must be held (for "n of a rank" in any suits).  Cached per (rules, trump)."""
    key = (rules, trump)
    got = _QUICK.get(key)
    if got is not None:
        return got
    out: list[QuickPattern] = []
    for pat in rules.patterns(trump):
        cls = rules.melds[pat.kind].cls
        need1 = need2 = any1 = 0
        if pat.n:
            cards = [make_card(pat.rank, s) for s in range(4)]
            pm = replicate(mask_of(cards), rules.copies)
            if pat.distinct:
                reqs = tuple((1 << c, 1) for c in cards)
                need1 = any1 = mask_of(cards)
            else:
                reqs = ((mask_of(cards), pat.n),)
                if pat.n == 2 * len(cards):
                    need1 = need2 = mask_of(cards)
        else:
            pm = replicate(mask_of(c for c, _ in pat.counts), rules.copies)
            reqs = tuple((1 << c, n) for c, n in pat.counts)
            need1 = any1 = mask_of(c for c, _ in pat.counts)
            need2 = mask_of(c for c, n in pat.counts if n >= 2)
        nmin = pat.n if pat.n and not pat.distinct else 0
        out.append((pat, cls, pm, reqs, need1, need2, nmin, any1))
    res = tuple(out)
    _QUICK[key] = res
    return res


# ---------------------------------------------------------------------- the two-pack filter

_FIELD: Final = 12  # bits per pattern in a filter sum
_LOW16: Final = 0xFFFF


class MeldFilter:
    """The first filter of the meld search over the patterns of :func:`quick_patterns`
    ``(rules, trump)``: :meth:`passing` answers for a holding, :meth:`candidates` reads the
    patterns off the answer, in their order."""

    __slots__ = ("kinds", "patterns", "rules", "trump")

    def __init__(self, rules: Rules, trump: int) -> None:
        self.rules = rules
        self.trump = trump
        self.patterns = quick_patterns(rules, trump)
        # the meld kind of a physical mask under these patterns, remembered by
        # ``Position.classify`` (it depends on the rules and the trump only)
        self.kinds: dict[int, int] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (a state is, e.g. by OpenSpiel) as the cached filter of its rules and trump."""
        return suit_filter, (self.rules, self.trump)

    def passing(self, held_phys: int) -> int:
        """The patterns that pass for a holding (physical), as bits; 0 when none does."""
        raise NotImplementedError

    def passing_words(self, words: list[int]) -> int:
        """:meth:`passing` of the holding of these words (see :mod:`bezique.copywords`)."""
        return self.passing(join_words(words))

    def candidates(self, passing: int) -> list[QuickPattern]:
        """The patterns of the bits :meth:`passing` returned, in the patterns' order."""
        raise NotImplementedError


class SuitFilter(MeldFilter):
    """Two packs: the meld search's first filter (the cards needed once and twice, and the
    count of "n of a rank") as one sum of four per-suit table entries.

    Pattern ``i`` owns a 12-bit field of the sum: ``2047 + nmin - count + 32 * missing``, where
    ``missing`` counts the cards it needs once (twice) that are not held once (twice) and
    ``count`` the copies held of its cards when it is "n of a rank" (``nmin`` of them needed).
    Each of those decomposes by suit, so each suit's part is one table entry, indexed by the
    suit's byte of each copy (a list: no hash, no probe); the pattern passes the filter exactly
    when its field is below 2048 (its top bit clear).  The tables are made whole with the
    filter (4**5 holdings a suit for the classic table, whose melds use five ranks): an entry
    adds up by rank, so each is its holding's without the lowest rank plus what that rank adds
    (:meth:`_table`)."""

    __slots__ = ("bias", "needs", "relevant02", "relevant13", "tables", "tops")

    def __init__(self, rules: Rules, trump: int) -> None:
        super().__init__(rules, trump)
        patterns = self.patterns
        relevant = bias = tops = 0
        needs: list[tuple[int, int, int]] = []
        for i, q in enumerate(patterns):
            counted = fold_copies(q[2], 2) if q[6] else 0
            needs.append((q[4], q[5], counted))
            relevant |= q[4] | q[5] | counted
            bias += (2047 + q[6]) << (_FIELD * i)
            tops |= 2048 << (_FIELD * i)
        self.bias = bias
        self.tops = tops
        self.needs = tuple(needs)
        self.relevant02 = relevant & SUITS02
        self.relevant13 = relevant >> 8 & SUITS02
        # each suit's keys are below ``size``: its relevant ranks' bits in both bytes, plus one
        size = max(relevant >> (8 * s) & 255 for s in range(4)) * 0x101 + 1
        self.tables: tuple[list[int], ...] = tuple(
            self._table(s, relevant >> (8 * s) & 255, size) for s in range(4))

    def passing(self, held_phys: int) -> int:
        """The patterns that pass the filter for a holding (physical, two packs): bit
        ``12 * i + 11`` for pattern ``i``."""
        lo = held_phys & CARD_MASK32
        hi = held_phys >> 32
        r02 = self.relevant02
        r13 = self.relevant13
        even = lo & r02 | (hi & r02) << 8  # suits 0 and 2: (first copy, second copy) bytes
        odd = lo >> 8 & r13 | (hi >> 8 & r13) << 8
        t = self.tables
        total = (self.bias + t[0][even & _LOW16] + t[2][even >> 16] + t[1][odd & _LOW16]
                 + t[3][odd >> 16])
        return ~total & self.tops

    def candidates(self, passing: int) -> list[QuickPattern]:
        patterns = self.patterns
        out: list[QuickPattern] = []
        while passing:
            low = passing & -passing
            out.append(patterns[low.bit_length() // _FIELD - 1])
            passing ^= low
        return out

    def _table(self, suit: int, relevant: int, size: int) -> list[int]:
        """``suit``'s table: the entry of every holding of its ``relevant`` ranks (a bit per
        rank) in each copy, at ``second << 8 | first`` (the other places are 0, never read)."""
        shift = 8 * suit
        # adds[rank][state]: what the rank adds to an entry, ``state`` = first + 2 * second
        adds: list[list[int]] = []
        for rank in range(8):
            card = 1 << (shift + rank)
            row = []
            for state in range(4):
                got = 0
                for i, (need1, need2, counted) in enumerate(self.needs):
                    missing = (1 if need1 & card and not state else 0) + (
                        1 if need2 & card and state != 3 else 0)
                    count = (state & 1) + (state >> 1) if counted & card else 0
                    got += (32 * missing - count) << (_FIELD * i)
                row.append(got)
            adds.append(row)
        # (key, entry) of every holding: nothing held, then each relevant rank added in turn,
        # held as the first copy, the second or both
        entries = [(0, sum(row[0] for row in adds))]
        for rank in range(8):
            bit = 1 << rank
            if relevant & bit:
                row = adds[rank]
                steps = ((bit, row[1] - row[0]), (bit << 8, row[2] - row[0]),
                         (bit | bit << 8, row[3] - row[0]))
                entries += [(k | more, e + add) for k, e in entries for more, add in steps]
        table = [0] * size
        for k, e in entries:
            table[k] = e
        return table


def copy_levels(phys: int, copies: int, relevant: int = CARD_MASK32) -> list[int]:
    """``levels[n - 1]``: the cards (a 32-bit mask, within ``relevant``) of which ``phys`` holds
    at least n copies.

    >>> [bin(x) for x in copy_levels(0b11 | 0b10 << 32 | 0b10 << 64, 3)]
    ['0b11', '0b10', '0b10']
    """
    levels = [0] * copies
    for k in range(copies):
        w = phys & relevant
        phys >>= 32  # (a long mask is shifted once per copy, and shrinks)
        if w:
            for n in range(k, 0, -1):  # a card held n times so far now has n + 1
                levels[n] |= levels[n - 1] & w
            levels[0] |= w
    return levels


_CARD_FIELD: Final = 5  # a card pattern's field: 15 + the copies it misses (passes below 16)
_COUNT_FIELD: Final = 7  # an "n of a rank"'s field: 64 - n + the copies held of its cards


class LevelFilter(MeldFilter):
    """Three packs and more: the filter of :class:`SuitFilter` keyed per suit by the copies
    held of each of its ranks, whichever copies they are (a nibble per rank: see
    :func:`~bezique.copywords.count_keys`), so the tables meet few keys.

    Each suit's entry is a pair of sums: one 5-bit field per pattern of cards (15 + the copies
    of its cards it needs and the holding misses: the field's top bit says it fails) and one
    7-bit field per "n of a rank" (the copies held of its cards; with the bias 64 - n, the
    field's top bit says it passes); the four suits' entries add up to the holding's."""

    __slots__ = ("bias", "card_patterns", "card_tops", "copies", "counted", "needs",
                 "rank_bias", "rank_patterns", "rank_tops", "relevant", "tables")

    def __init__(self, rules: Rules, trump: int) -> None:
        super().__init__(rules, trump)
        self.copies = rules.copies
        cards: list[int] = []  # the pattern index of each card pattern's field
        needs: list[tuple[tuple[int, int], ...]] = []  # its (card, copies) needs
        ranks: list[int] = []  # the pattern index of each "n of a rank"'s field
        counted: list[int] = []  # the 32-bit mask of each "n of a rank"'s cards
        relevant = rank_bias = 0
        for i, q in enumerate(self.patterns):
            reqs = q[3]  # (cards mask, copies): one card, or the cards of "n of a rank"
            if any(m & (m - 1) for m, _ in reqs):
                (m, n), = reqs
                if n > m.bit_count() * self.copies:  # more copies than there are
                    continue
                rank_bias += (64 - n) << (_COUNT_FIELD * len(ranks))
                ranks.append(i)
                counted.append(m)
                relevant |= m
            else:
                if sum(n for _, n in reqs) > 16:  # (its field holds 15 + up to 16 missing)
                    raise ValueError(f"a meld of more than 16 cards: {q[0]}")
                cards.append(i)
                needs.append(tuple((m.bit_length() - 1, n) for m, n in reqs))
                for m, _ in reqs:
                    relevant |= m
        self.card_patterns = tuple(cards)
        self.needs = tuple(needs)
        self.rank_patterns = tuple(ranks)
        self.rank_bias = rank_bias
        self.rank_tops = sum(64 << (_COUNT_FIELD * j) for j in range(len(ranks)))
        self.counted = tuple(counted)
        self.relevant = relevant
        self.bias = sum(15 << (_CARD_FIELD * j) for j in range(len(cards)))
        self.card_tops = sum(16 << (_CARD_FIELD * j) for j in range(len(cards)))
        self.tables: tuple[dict[int, tuple[int, int]], ...] = ({}, {}, {}, {})

    def passing(self, held_phys: int) -> int:
        """The patterns that pass the filter for a holding (physical): bit ``i`` for pattern
        ``i``."""
        return self.passing_words(split_words(held_phys, self.copies))

    def passing_words(self, words: list[int]) -> int:
        """:meth:`passing` of the holding of these words (see :mod:`bezique.copywords`)."""
        k0, k1, k2, k3 = count_keys(words, self.relevant)
        t = self.tables
        try:
            e0, e1, e2, e3 = t[0][k0], t[1][k1], t[2][k2], t[3][k3]
        except KeyError:
            e0, e1, e2, e3 = (self._entry(0, k0), self._entry(1, k1), self._entry(2, k2),
                              self._entry(3, k3))
        ok = ~(self.bias + e0[0] + e1[0] + e2[0] + e3[0]) & self.card_tops
        out = 0
        while ok:  # (the card patterns that pass: few)
            low = ok & -ok
            out |= 1 << self.card_patterns[low.bit_length() // _CARD_FIELD - 1]
            ok ^= low
        ok = (self.rank_bias + e0[1] + e1[1] + e2[1] + e3[1]) & self.rank_tops
        while ok:  # (the "n of a rank" that pass)
            low = ok & -ok
            out |= 1 << self.rank_patterns[low.bit_length() // _COUNT_FIELD - 1]
            ok ^= low
        return out

    def candidates(self, passing: int) -> list[QuickPattern]:
        patterns = self.patterns
        out: list[QuickPattern] = []
        while passing:
            low = passing & -passing
            out.append(patterns[low.bit_length() - 1])
            passing ^= low
        return out

    def _entry(self, suit: int, key: int) -> tuple[int, int]:
        # ``key``: the copies held of each rank of ``suit``, a nibble per rank
        got = self.tables[suit].get(key)
        if got is not None:
            return got
        missing = 0
        for j, needs in enumerate(self.needs):
            miss = 0
            for c, n in needs:
                if c >> 3 == suit:
                    have = key >> 4 * (c & 7) & 15
                    miss += n - have if have < n else 0
            missing += miss << (_CARD_FIELD * j)
        counts = 0
        for j, m in enumerate(self.counted):
            held = sum(key >> 4 * r & 15 for r in range(8) if m >> (8 * suit + r) & 1)
            counts += held << (_COUNT_FIELD * j)
        got = self.tables[suit][key] = (missing, counts)
        return got


def suit_filter(rules: Rules, trump: int) -> MeldFilter:
    """The meld search's first filter of :func:`quick_patterns` ``(rules, trump)``: a
    :class:`SuitFilter` for two packs, else a :class:`LevelFilter`.  Cached per (rules, trump)."""
    key = (rules, trump)
    got = _FILTERS.get(key)
    if got is None:
        got = _FILTERS[key] = SuitFilter(rules, trump) if rules.copies == 2 else LevelFilter(
            rules, trump)
    return got
