"""The melds worth aiming at under one rule set and trump, and per-card counts of card masks.

:func:`meld_targets` gives the (cached) :class:`MeldTargets` of a rule set and trump: the melds
with their points and the cards they need, quick necessary conditions for a legal meld
(:meth:`MeldTargets.may_meld`) and the tables the heuristic, the evaluation and the sampler's
inference share.  :func:`card_counts` folds a physical mask into counts per card.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import make_card, replicate
from ..rules import Rules
from ..state import State

M32 = 0xFFFFFFFF


def _fold(mask: int) -> list[int]:
    """Per-card counts (32 entries) of a physical mask."""
    counts = [0] * 32
    while mask:
        low = mask & -mask
        counts[(low.bit_length() - 1) & 31] += 1
        mask ^= low
    return counts


def _count_table() -> list[tuple[int, ...]]:
    """Per-card counts of 8 cards, indexed by (held at least once) | (held twice) << 8."""
    table: list[tuple[int, ...]] = [()] * 65536
    for once in range(256):
        twice = once
        while True:  # every subset of ``once``
            table[once | twice << 8] = tuple((once >> i & 1) + (twice >> i & 1) for i in range(8))
            if not twice:
                break
            twice = (twice - 1) & once
    return table


_COUNTS2 = _count_table()


def card_counts(mask: int, copies: int) -> Sequence[int]:
    """Per-card counts (32 entries) of a physical mask: :func:`_fold`, by table for two packs."""
    if copies != 2:
        return _fold(mask)
    hi = mask >> 32
    o = (mask | hi) & M32
    t = mask & hi
    tab = _COUNTS2
    return (tab[(o & 255) | (t & 255) << 8] + tab[(o >> 8 & 255) | (t >> 8 & 255) << 8]
            + tab[(o >> 16 & 255) | (t >> 16 & 255) << 8] + tab[o >> 24 | (t >> 24) << 8])


def held_once_twice(held: int, copies: int) -> tuple[int, int]:
    """The cards (32-bit masks) held at least once and at least twice in the physical mask
    ``held``, in whichever copy layers the deal put the copies.

    >>> once, twice = held_once_twice(1 << 32 + 5 | 1 << 64 + 5 | 1 << 96 + 6, 4)
    >>> once == 1 << 5 | 1 << 6, twice == 1 << 5
    (True, True)
    """
    if copies == 2:
        hi = held >> 32
        return (held | hi) & M32, held & hi
    once = twice = 0
    for k in range(copies):
        layer = (held >> (32 * k)) & M32
        twice |= once & layer
        once |= layer
    return once, twice


class MeldTargets:
    """The melds worth aiming at under one rule set and trump: (kind index, points, needs).

    ``needs`` is a tuple of (card, copies) for fixed melds; fours are ("four", rank, distinct).
    Also the tables the policy needs for this rule set and trump, computed once.
    """

    def __init__(self, rules: Rules, trump: int) -> None:
        self.fixed: list[tuple[int, int, tuple[tuple[int, int], ...]]] = []
        self.fours: list[tuple[int, int, int, int]] = []  # kind, points, rank, n
        for pat in rules.patterns(trump):
            kind = rules.melds[pat.kind]
            if pat.n:
                self.fours.append((pat.kind, kind.points, pat.rank, pat.n))
            else:
                self.fixed.append((pat.kind, kind.points, pat.counts))
        self.distinct = rules.fours_distinct_suits
        # quick necessary conditions for a legal meld: (class, cards needed once, cards needed
        # twice) for fixed melds; (class, rank, n) for fours
        self.quick_fixed: list[tuple[int, int, int]] = []
        self.quick_fours: list[tuple[int, int, int]] = []
        for pat in rules.patterns(trump):
            cls = rules.melds[pat.kind].cls
            if pat.n:
                self.quick_fours.append((cls, pat.rank, pat.n))
            else:
                once = twice = 0
                for c, n in pat.counts:
                    once |= 1 << c
                    if n >= 2:
                        twice |= 1 << c
                self.quick_fixed.append((cls, once, twice))
        self.copies = copies = rules.copies
        # the same with the 32-bit card sets: fixed melds with their card set; fours with their
        # four cards, the rank's card set and its physical mask
        self.fixed_sets = [(k, p, needs, _cards32(needs)) for k, p, needs in self.fixed]
        self.four_cards = [(k, p, n, tuple(make_card(r, s) for s in range(4)),
                            0x01010101 << r, replicate(0x01010101 << r, copies))
                           for k, p, r, n in self.fours]
        self.quick_four_masks = [(cls, 0x01010101 << r, replicate(0x01010101 << r, copies), n)
                                 for cls, r, n in self.quick_fours]
        self.deck_mask = sum(1 << p for p in rules.deck)
        self.seven_card = make_card(rules.seven_rank, trump) if trump >= 0 else -1
        # cards that beat a lead of each card: lower ranks of its suit, and trumps if it is not
        # one (32-bit set and physical mask)
        self.beat32: list[int] = []
        for c in range(32):
            s, r = c >> 3, c & 7
            m = ((1 << r) - 1) << (s * 8)
            if s != trump and trump >= 0:  # (no trumps yet in the multi-pack games)
                m |= 0xFF << (trump * 8)
            self.beat32.append(m)
        self.beat_phys = [replicate(m, copies) for m in self.beat32]
        # meld kind of a physical meld mask (State.classify), filled as masks are met
        self.kinds: dict[int, int] = {}

    def kind(self, state: State, mask: int) -> int:
        """``state.classify(mask)``, remembered (it depends on the rules and trump only)."""
        k = self.kinds.get(mask)
        if k is None:
            k = self.kinds[mask] = state.classify(mask)
        return k

    def may_meld(self, state: State, seat: int) -> bool:
        """False when no meld can be legal for ``seat`` (cheap test before the enumeration)."""
        held = state.hand_masks[seat] | state.shown_masks[seat]
        used = state.used_masks[seat]
        once, twice = held_once_twice(held, self.copies)
        if self.copies == 2:
            for cls, need1, need2 in self.quick_fixed:
                if once & need1 == need1 and twice & need2 == need2:
                    f = held & ~used[cls]
                    if (f | f >> 32) & need1:
                        return True
        else:
            for cls, need1, need2 in self.quick_fixed:
                if (once & need1 == need1 and twice & need2 == need2
                        and fold32(held & ~used[cls]) & need1):
                    return True
        distinct = self.distinct
        for cls, rmask, rphys, n in self.quick_four_masks:
            if (distinct and (once & rmask).bit_count() < n) or (held & rphys).bit_count() < n:
                continue
            if fold32(held & ~used[cls]) & rmask:
                return True
        return False


_CACHE: dict[tuple[Rules, int], MeldTargets] = {}


def fold32(mask: int) -> int:
    """The 32-bit set of cards of a physical mask."""
    out = 0
    while mask:
        out |= mask & M32
        mask >>= 32
    return out


def _cards32(needs: tuple[tuple[int, int], ...]) -> int:
    out = 0
    for c, _ in needs:
        out |= 1 << c
    return out


def meld_targets(rules: Rules, trump: int) -> MeldTargets:
    key = (rules, trump)
    t = _CACHE.get(key)
    if t is None:
        t = _CACHE[key] = MeldTargets(rules, trump)
    return t


__all__ = ["M32", "MeldTargets", "card_counts", "fold32", "held_once_twice", "meld_targets"]
