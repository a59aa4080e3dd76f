"""Trick rules: which card wins a trick, what a follower must play once the stock is gone, and
which two seats play the four-handed end's duels.

Pure functions of physical cards and masks (see :mod:`bezique.cards`).  While the stock lasts
any card may be played; in the end phase (RULES.md 2.4, 9.0.6, 9.4, 9.5) the follower must
follow suit and beat the best card so far if able (with two seats the best card is the lead),
and when void must trump, above a trump already played if able.

>>> from bezique.cards import parse_card as c
>>> beats(c("TH"), c("KH"), trump=0), beats(c("7S"), c("AH"), trump=0)
(True, True)
>>> beats(c("AH"), c("AH"), trump=0)  # of identical cards the earlier wins
False
"""

from __future__ import annotations

from .cards import CARD_MASK32, card_symbol, fold_copies, replicate, suit_of


def beats(p: int, best: int, trump: int) -> bool:
    """True if ``p``, played after ``best``, takes the trick from it: higher in ``best``'s
    suit, or a trump on a plain card (``trump`` is -1 while there are none)."""
    ps, bs = p >> 3 & 3, best >> 3 & 3
    return (ps == bs and p & 7 < best & 7) or (ps == trump and bs != trump)


def follow_mask(hand: int, lead: int, best: int, trump: int, copies: int) -> int:
    """The cards of ``hand`` a follower may play in the end phase against the trick led by
    ``lead`` whose best card so far is ``best``.  (The rule is :func:`follow_allow`'s, written
    out again here: a call more per end-phase card costs the pure-Python build.)"""
    ls = lead >> 3 & 3
    bs, br = best >> 3 & 3, best & 7
    two = copies == 2
    folded = (hand | hand >> 32) & CARD_MASK32 if two else fold_copies(hand, copies)
    same = folded & (0xFF << (ls * 8))
    if same:
        if bs == ls:
            higher = same & (((1 << br) - 1) << (ls * 8))
            allow = higher or same
        else:  # a trump has taken the lead: follow suit, there is no beating it
            allow = same
    else:
        trumps = folded & (0xFF << (trump * 8)) if trump >= 0 else 0
        if trumps and bs == trump:
            allow = (trumps & (((1 << br) - 1) << (trump * 8))) or CARD_MASK32
        else:
            allow = trumps or CARD_MASK32
    return hand & (allow | allow << 32 if two else replicate(allow, copies))


def follow_allow(folded: int, lead: int, best: int, trump: int) -> int:
    """:func:`follow_mask` as a 32-bit card mask, for a follower holding the cards ``folded``
    (32-bit: the cards held, whichever copies): the cards it may play (of those it holds)."""
    ls = lead >> 3 & 3
    bs, br = best >> 3 & 3, best & 7
    same = folded & (0xFF << (ls * 8))
    if same:
        if bs == ls:
            higher = same & (((1 << br) - 1) << (ls * 8))
            allow = higher or same
        else:  # a trump has taken the lead: follow suit, there is no beating it
            allow = same
    else:
        trumps = folded & (0xFF << (trump * 8)) if trump >= 0 else 0
        if trumps and bs == trump:
            allow = (trumps & (((1 << br) - 1) << (trump * 8))) or CARD_MASK32
        else:
            allow = trumps or CARD_MASK32
    return allow


def follow_problem(hand: int, p: int, lead: int, best: int, trump: int, copies: int) -> str:
    """Why playing ``p`` breaks the end-phase duty (see :func:`follow_mask`), for the player."""
    ls = suit_of(lead)
    same = fold_copies(hand, copies) & (0xFF << (ls * 8))
    if same:
        if suit_of(p) != ls:
            higher = suit_of(best) == ls and same & (((1 << (best & 7)) - 1) << (ls * 8))
            return f"you must follow suit to {card_symbol(lead)}" + (
                f", and win the trick with a higher card than {card_symbol(best)}"
                if higher else "")
        return f"you must win the trick with a higher card than {card_symbol(best)}"
    if suit_of(best) == trump:
        return (f"you have no card of {card_symbol(lead)[-1]}: you must trump above "
                f"{card_symbol(best)}")
    return f"you have no card of {card_symbol(lead)[-1]}: you must trump"


def duel_seats(first_winner: int, tricks_played: int, second_from: int) -> tuple[int, ...]:
    """The two seats of the current duel of the four-handed end (RULES.md 9.5,
    ``four_hand_end = duels``), its leader first: the winner of the last stock trick
    (``first_winner``, -1 before the duels) plays the seat at their left, then from trick
    ``second_from`` (the stock's tricks and a hand's) that winner's partner the other opponent.

    >>> duel_seats(-1, 0, 32), duel_seats(3, 24, 32), duel_seats(3, 32, 32)
    ((), (3, 0), (1, 2))
    """
    w = first_winner
    if w < 0:
        return ()
    if tricks_played < second_from:
        return (w, (w + 1) % 4)
    return ((w + 2) % 4, (w + 3) % 4)
