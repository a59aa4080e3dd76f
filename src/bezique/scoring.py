"""Scoring the end of a deal and of a game: who wins, the zero-sum result, the settlement.

The points themselves are scored by the deal as they happen (:class:`bezique.state.State` keeps
each score as an event); this module owns the decisions made from them, as pure functions of
plain numbers, so every variant's settlement is one more function here:

- :func:`game_winner`: RULES.md 2.6, the game to the target (1000 classic, 2000 three- and
  four-handed), with the count in playing order from the dealer's left and the ties.
- :func:`side_winner`: the same for the two partnerships of four-handed Bezique (RULES.md 9.5).
- :func:`zero_sum`: a deal's result per seat as search and learning code expect it.
- :func:`settle`: the one-deal games of RULES.md 9.0.7 (Rubicon, Six-pack, Eight-pack): the
  winner, the rubicon, whether brisques count, and the value, with hundreds rounded down;
  :func:`settlement_words` says how, in words, and :func:`settlement_legend` which number is
  which; :func:`settled_for` gives its value from one side.

>>> game_winner(1000, before=(950, 600), final=(990, 1010), order=(0, 1), last_trick_seat=0)
1
>>> zero_sum((120, 80))
[40.0, -40.0]
>>> settle((1230, 870), (60, 100), game_bonus=500, rubicon=1000, rubicon_bonus=1300)
Settlement(winner=0, rubicon=True, brisques_counted=False, value=3300)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


def game_winner(target: int, before: Sequence[int], final: Sequence[int], order: Sequence[int],
                last_trick_seat: int) -> int:
    """The game's winner at the end of a deal, or -1 if the game goes on (RULES.md 2.6).

    ``before`` are the game totals before the brisques were counted, ``final`` after; ``order``
    is the order in which brisques are counted (playing order from the dealer's left).  If no
    one had reached ``target`` before the brisques, the first to reach it while they are counted
    wins.  Otherwise the higher final total wins, then the higher total before brisques, then the
    taker of the last trick.
    """
    if all(b < target for b in before):
        return counted_first(target, before, final, order)
    best = max(final)
    leaders = [i for i, f in enumerate(final) if f == best]
    if len(leaders) == 1:
        return leaders[0]
    top = max(before[i] for i in leaders)
    leaders = [i for i in leaders if before[i] == top]
    return leaders[0] if len(leaders) == 1 else last_trick_seat


def sides(per_seat: Sequence[int]) -> tuple[int, int]:
    """Four seats' numbers added up by side (RULES.md 9.5: seats 0 & 2, then 1 & 3)."""
    return per_seat[0] + per_seat[2], per_seat[1] + per_seat[3]


def side_winner(target: int, before: Sequence[int], final: Sequence[int], order: Sequence[int],
                last_trick_seat: int) -> int:
    """:func:`game_winner` for two partnerships: the winning side (0: seats 0 & 2, 1: seats 1 &
    3) or -1.  Per-seat ``before``/``final`` as there; side totals decide, and while the
    brisques are counted seat by seat in ``order`` the first side to reach ``target`` wins.

    >>> side_winner(2000, before=(1000, 1000, 950, 950), final=(1060, 1050, 950, 950),
    ...             order=(1, 2, 3, 0), last_trick_seat=0)  # seat 1's brisques come first
    1
    """
    b = sides(before)
    if all(x < target for x in b):
        seat = counted_first(target, before, final, order, pair=True)
        return seat % 2 if seat >= 0 else -1
    return game_winner(target, b, sides(final), (0, 1), last_trick_seat % 2)


def counted_first(target: int, before: Sequence[int], final: Sequence[int],
                  order: Sequence[int], pair: bool = False) -> int:
    """The seat whose brisques, counted in ``order`` (playing order from the dealer's left),
    first took it (``pair``: its side) to ``target``, when no one (no side) had reached it
    before the brisques (RULES.md 2.6, 9.4, 9.5); -1 if someone had, or if none reaches it.

    >>> counted_first(1000, before=(950, 980), final=(1010, 1060), order=(0, 1))
    0
    """
    run = list(sides(before)) if pair else list(before)
    if any(x >= target for x in run):
        return -1
    for seat in order:
        k = seat % 2 if pair else seat
        run[k] += final[seat] - before[seat]
        if run[k] >= target:
            return seat
    return -1


def zero_sum(scores: Sequence[int]) -> list[float]:
    """Each seat's points less the average of the others' (for two seats: the difference)."""
    n = len(scores)
    total = sum(scores)
    if n == 2:
        d = float(scores[0] - scores[1])
        return [d, -d]
    return [(n * s - total) / (n - 1) for s in scores]


class Settlement(NamedTuple):
    """The result of a one-deal game (RULES.md 9.0.7): ``winner`` is -1 for a draw."""

    winner: int
    rubicon: bool
    brisques_counted: bool
    value: int


def _hundreds(x: int) -> int:
    return 100 * (x // 100)


def settle(s: Sequence[int], b: Sequence[int], *, game_bonus: int, rubicon: int,
           rubicon_bonus: int, has_brisques: bool = True) -> Settlement:
    """Settle a two-handed one-deal game from the deal scores ``s`` (without brisques) and the
    brisques ``b`` each side won (zeros where the variant has none), as RULES.md 9.0.7 says."""
    if s[0] != s[1]:
        w = 0 if s[0] > s[1] else 1
        by_brisques = False
    elif has_brisques and s[0] + b[0] != s[1] + b[1]:
        w = 0 if s[0] + b[0] > s[1] + b[1] else 1
        by_brisques = True
    else:
        return Settlement(-1, False, False, 0)
    lo = 1 - w
    if s[lo] + b[lo] < rubicon:
        value = _hundreds(s[w]) + max(100, _hundreds(s[lo])) + rubicon_bonus
        return Settlement(w, True, False, value)
    counted = has_brisques and (by_brisques or s[lo] < rubicon)
    t = [s[i] + b[i] for i in (0, 1)] if counted else list(s)
    value = game_bonus + max(100, _hundreds(t[w]) - _hundreds(t[lo]))
    return Settlement(w, False, counted, value)


def settled_for(res: Settlement, seat: int) -> int:
    """A settlement's value from ``seat``'s side of a two-handed one-deal game: + won, - lost,
    0 drawn.

    >>> res = settle((1320, 620), (0, 0), game_bonus=500, rubicon=1000, rubicon_bonus=1300)
    >>> settled_for(res, 0), settled_for(res, 1)
    (3200, -3200)
    """
    if res.winner < 0:
        return 0
    return res.value if res.winner == seat else -res.value


def _settled(s: Sequence[int], b: Sequence[int], game_bonus: int, rubicon: int,
             rubicon_bonus: int, has_brisques: bool) -> tuple[Settlement, int, int]:
    """:func:`settle`'s result, its winner and its loser (for a draw: -1 and 2)."""
    res = settle(s, b, game_bonus=game_bonus, rubicon=rubicon, rubicon_bonus=rubicon_bonus,
                 has_brisques=has_brisques)
    return res, res.winner, 1 - res.winner


def settlement_words(s: Sequence[int], b: Sequence[int], *, game_bonus: int, rubicon: int,
                     rubicon_bonus: int, has_brisques: bool = True) -> str:
    """How :func:`settle` reached its value, in words a player checks by hand (RULES.md 9.0.7:
    hundreds rounded down, the minimum of 100, the bonuses).

    >>> kw = dict(game_bonus=500, rubicon=1000, rubicon_bonus=1300)
    >>> settlement_words((1510, 1240), (0, 0), **kw)
    '1500 - 1200 = 300, + 500 for the game = 800'
    >>> settlement_words((1320, 620), (0, 0), **kw)
    'rubiconed: 1300 + 600 + 1300 = 3200'
    >>> settlement_words((1450, 1100 - 170), (150, 170), **kw)
    'brisques counted: 1600 - 1100 = 500, + 500 for the game = 1000'
    >>> settlement_words((1320, 60), (0, 0), **kw)
    'rubiconed: 1300 + the minimum 100 + 1300 = 2700'
    >>> settlement_words((1550, 1520), (0, 0), **kw)
    '1500 - 1500 = 0, the minimum 100, + 500 for the game = 600'
    >>> settlement_words((1230, 1230), (160, 160), **kw)
    'drawn: nobody scores'
    """
    res, w, lo = _settled(s, b, game_bonus, rubicon, rubicon_bonus, has_brisques)
    if res.winner < 0:
        return "drawn: nobody scores"
    if res.rubicon:
        low = _hundreds(s[lo])
        loser = f"{low}" if low >= 100 else "the minimum 100"
        return f"rubiconed: {_hundreds(s[w])} + {loser} + {rubicon_bonus} = {res.value}"
    t = [s[i] + b[i] for i in (0, 1)] if res.brisques_counted else list(s)
    diff = _hundreds(t[w]) - _hundreds(t[lo])
    text = f"{_hundreds(t[w])} - {_hundreds(t[lo])} = {diff}"
    if diff < 100:
        text += ", the minimum 100"
    text += f", + {game_bonus} for the game = {res.value}"
    return ("brisques counted: " if res.brisques_counted else "") + text


def settlement_legend(s: Sequence[int], b: Sequence[int], *, game_bonus: int, rubicon: int,
                      rubicon_bonus: int, has_brisques: bool = True) -> str:
    """Which number of :func:`settlement_words` is which: the points each side made and what
    they count for in whole hundreds, and where the bonuses come from ("" for a draw).

    >>> kw = dict(game_bonus=500, rubicon=1000, rubicon_bonus=1300)
    >>> print(settlement_legend((1320, 620), (0, 0), **kw))  # doctest: +NORMALIZE_WHITESPACE
    The winner's 1320 counts 1300 and the loser's 620 counts 600; the loser made less than
    1000, so is rubiconed, and the winner adds the rubicon bonus of 1300.
    >>> print(settlement_legend((1320, 60), (0, 30), **kw))  # doctest: +NORMALIZE_WHITESPACE
    The winner's 1320 counts 1300 and the loser's 60 counts the minimum 100; the loser made
    less than 1000 even with 30 brisques, so is rubiconed, and the winner adds the rubicon
    bonus of 1300.
    >>> print(settlement_legend((1510, 1240), (0, 0), **kw))  # doctest: +NORMALIZE_WHITESPACE
    The winner's 1510 counts 1500 and the loser's 1240 counts 1200; the winner scores the
    difference (at least 100) and 500 for the game.
    >>> print(settlement_legend((1450, 930), (150, 170), **kw))  # doctest: +NORMALIZE_WHITESPACE
    The winner's 1450 + 150 brisques counts 1600 and the loser's 930 + 170 brisques counts 1100;
    the winner scores the difference (at least 100) and 500 for the game.
    >>> settlement_legend((1230, 1230), (160, 160), **kw)
    ''
    """
    res, w, lo = _settled(s, b, game_bonus, rubicon, rubicon_bonus, has_brisques)
    if res.winner < 0:
        return ""
    if res.rubicon:
        low = _hundreds(s[lo])
        even = f" even with {b[lo]} brisques" if b[lo] else ""
        return (f"The winner's {s[w]} counts {_hundreds(s[w])} and the loser's {s[lo]} counts "
                f"{low if low >= 100 else 'the minimum 100'}; the loser made less than "
                f"{rubicon}{even}, so is rubiconed, and the winner adds the rubicon bonus of "
                f"{rubicon_bonus}.")

    def made(i: int) -> str:
        if not res.brisques_counted:
            return f"{s[i]} counts {_hundreds(s[i])}"
        return f"{s[i]} + {b[i]} brisques counts {_hundreds(s[i] + b[i])}"
    return (f"The winner's {made(w)} and the loser's {made(lo)}; the winner scores the "
            f"difference (at least 100) and {game_bonus} for the game.")
