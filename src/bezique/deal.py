"""Dealing: a seeded shuffle dealt round from the dealer's left, or a deal checked card by card.

Both return the same plain values, physical cards as ints (see :mod:`bezique.cards`): one hand
per seat, the turn-up (-1 in a variant without one) and the stock, top first.  A deal given card
by card (a game record, a test, the engine protocol) must be exactly the variant's pack; anything
else is refused with :class:`~bezique.errors.RecordError` and a message naming what is wrong.

>>> from bezique import Rules
>>> hands, turnup, stock = shuffled_deal(Rules.preset("bezique"), 7, dealer=1)
>>> [len(h) for h in hands], turnup >= 0, len(stock)
([8, 8], True, 47)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from .cards import card_name, make_card, parse_card
from .errors import RecordError
from .rules import Rules, cut_bounds, variant_title

Deal = tuple[list[list[int]], int, list[int]]  # hands (one per seat), turn-up or -1, stock


def shuffled_deal(rules: Rules, seed: int | random.Random | None, dealer: int) -> Deal:
    """The pack shuffled by ``seed`` (same seed, same deal), ``hand_size`` cards to each seat
    from the dealer's left, then the turn-up if the variant has one."""
    n = checked_dealer(rules, dealer)
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    deck = list(rules.deck)
    shuffle(rng, deck)
    h = rules.hand_size
    hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        hands[(dealer + 1 + i) % n] = deck[i * h : (i + 1) * h]
    k = n * h
    if rules.turnup:
        return hands, deck[k], deck[k + 1 :]
    return hands, -1, deck[k:]


def checked_dealer(rules: Rules, dealer: object) -> int:
    """The number of seats, after a :class:`RecordError` unless ``dealer`` is one of them."""
    n = rules.nplayers
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        seats = " or ".join(str(i) for i in range(n))
        raise RecordError(f"the dealer must be player {seats}, not {dealer!r:.40}")
    return n


def shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)``: the same permutation from the same generator state, drawn straight
    from ``getrandbits`` (``random.shuffle`` spends most of a deal's set-up in Python-level calls).

    >>> a, b = list(range(64)), list(range(64))
    >>> random.Random(5).shuffle(a); shuffle(random.Random(5), b); a == b
    True
    """
    if type(rng) is not random.Random:  # a subclass may draw differently: let it
        rng.shuffle(x)
        return
    bits = rng.getrandbits
    for i, n, k in _shuffle_steps(len(x)):
        r: int = bits(k)
        while r >= n:
            r = bits(k)
        x[i], x[r] = x[r], x[i]


_STEPS: Final[dict[int, tuple[tuple[int, int, int], ...]]] = {}


def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """The steps of shuffling ``size`` items, last place first: ``(i, i + 1, bits)``, the draw
    for place ``i`` being below ``i + 1`` in ``bits`` random bits (made once per size)."""
    got = _STEPS.get(size)
    if got is None:
        got = _STEPS[size] = tuple((i, i + 1, (i + 1).bit_length())
                                   for i in range(size - 1, 0, -1))
    return got


def checked_deal(rules: Rules, hands: Sequence[Sequence[int | str]], turnup: int | str | None,
                 stock: Sequence[int | str], dealer: int) -> Deal:
    """A deal given card by card (cards as ints 0..31 or text), as physical cards; raises
    :class:`RecordError` unless the seats, hands, turn-up and stock are exactly the pack."""
    n = checked_dealer(rules, dealer)
    if len(hands) != n:
        raise RecordError(f"a deal needs {n} hands, not {len(hands)}")
    for i, hand in enumerate(hands):
        if len(hand) != rules.hand_size:
            raise RecordError(
                f"player {i}'s hand has {len(hand)} card{'' if len(hand) == 1 else 's'}; "
                f"{rules.variant} deals "
                f"{rules.hand_size}"
            )
    if len(stock) != rules.stock_size:
        raise RecordError(
            f"the stock has {len(stock)} card{'' if len(stock) == 1 else 's'}; in {rules.variant} "
            f"it has {rules.stock_size}"
        )
    if (turnup is None) == rules.turnup:
        raise RecordError(
            f"{rules.variant} has a turn-up card" if rules.turnup
            else f"{rules.variant} has no turn-up card"
        )
    seen = [0] * 32
    allowed = {make_card(r, s) for r in rules.ranks for s in range(4)}

    def phys(c: int | str) -> int:
        if isinstance(c, str):
            try:
                card = parse_card(c)
            except ValueError as e:
                raise RecordError(str(e)) from None
        elif isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 32:
            raise RecordError(f"{c!r} is not a card")
        else:
            card = c
        if card not in allowed:
            raise RecordError(f"{variant_title(rules.variant)} is played without "
                              f"{card_name(card)}")
        k = seen[card]
        if k >= rules.copies:
            raise RecordError(f"too many {card_name(card)}: {variant_title(rules.variant)} is "
                              f"played with {rules.copies} of each card")
        seen[card] = k + 1
        return k * 32 + card

    ph = [[phys(c) for c in hand] for hand in hands]
    tu = -1 if turnup is None else phys(turnup)
    return ph, tu, [phys(c) for c in stock]


def dealt_cut(rules: Rules, rng: random.Random) -> int | None:
    """With the cut bonus (RULES.md 9.2), the size of the dealer's cut, drawn uniformly from
    ``cut_range`` by the deal's generator after the shuffle; None without it."""
    return rng.randint(*cut_bounds(rules.cut_range)) if rules.cut_bonus else None


def checked_cut(rules: Rules, cut: int | None) -> int | None:
    """A deal's given cut, checked: within ``cut_range`` with the cut bonus, None without it;
    :class:`RecordError` otherwise."""
    if rules.cut_bonus:
        lo, hi = cut_bounds(rules.cut_range)
        if cut is None or isinstance(cut, bool) or not lo <= cut <= hi:
            raise RecordError(f"the cut bonus needs the deal's cut, {lo} to {hi} cards, not "
                              f"{cut!r:.20}")
    elif cut is not None:
        raise RecordError(f"a cut is only dealt with the cut bonus (cut_bonus = true), not in "
                          f"{rules.variant} as it is")
    return cut


def assumed_cut(rules: Rules, cut: int | None) -> int | None:
    """The cut of a world built from what a seat saw: the cut once guessed (``cut``); before
    the guess nobody knows it and nothing depends on it yet, so the smallest of ``cut_range``;
    None without the cut bonus."""
    if cut is not None or not rules.cut_bonus:
        return cut
    return cut_bounds(rules.cut_range)[0]
