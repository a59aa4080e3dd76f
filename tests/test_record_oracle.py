"""Records and ``bezique replay FILE --json`` for the one-deal games and the tables, against an
independent reading of RULES.md 9.8, 9.0.7 and 9.5.

This file plays random deals and games through the public ``State`` / ``Game`` API (any legal
action, seeded), writes them as records with :func:`bezique.record.game_record`, replays each
record with the command ``bezique replay FILE --json`` (click's ``CliRunner``) and reads the
record again itself: its hands, stock, turn-up, dealer, cut and guess, and the text of every
action.  From those alone (never from :mod:`bezique.scoring`, the replay code or the engine's
state) it works out what the replay must print, starting with every step's ``player`` and
``ok``.  (The seats' policies do look ahead with the engine, to choose: to score high, or to
tie.  Some deals are stacked for them: a hand without court cards for carte blanche, both
hands so with the low cards atop the stock for long runs of repeats, or the bezique pairs
dealt out; so ties, draws and games that are not rubicons happen in a few records.)

1. **The one-deal games** (``rubicon``, ``sixpack``, ``eightpack``; 9.0-9.3 and 9.8), several to
   a record, with options of 9.7 (``rubicon_brisque_bonus``, ``rubicon_bonus``,
   ``carte_blanche_repeat``, ``bezique_fixes_trumps``, ``four_tens``, ``cut_bonus``): the record's
   ``"turnup"`` is ``null`` and each deal is exactly the pack (9.0.1); per deal of the replay,
   ``"trumps"`` is the suit of the first marriage or sequence declared (9.0.2; null if none ever
   was), ``scores`` the points without brisques (melds as typed in below from 9.1-9.3, carte
   blanche, the last trick, the cut bonus), and after every step the deal's points so far
   (9.10), ``brisques`` the aces and tens each side won (zeros in Six- and Eight-pack),
   ``last_trick`` the winner of the final trick, and ``result`` this file's own settlement
   (:func:`settle`, 9.0.7), which must also give the worked examples 9-13 and 16 of 9.9.
2. **A session:** ``game.scores`` sums each player's settled values (9.0.7 "a session total is
   the sum of the values", 9.8, the README) and ``game.winner`` is the player with the higher
   sum (9.10), null when the sums are equal.
3. **The tables** (``bezique3``; ``bezique4`` with ``partnership`` true and false; 9.4, 9.5),
   whole games to a low ``target``: each step's ``scores`` are the seats' game totals (8), each
   deal's ``brisques`` and ``last_trick``, in a partnership each deal's ``sides`` and
   ``game.scores`` as the side totals of seats 0 & 2 and 1 & 3 (9.5 "side scores add", 9.8),
   otherwise the seats' totals; every deal but the last leaves the game undecided and the
   last decides ``game.winner`` by 2.6 (as read below).
4. **Impossible records** (8, 9.8): a card short or over, one copy of a card too many (a fifth
   in Rubicon, a seventh in Six-pack, ...), another variant's pack, a turn-up in a one-deal
   game: refused with exit status 2 and one line, nothing on stdout.

Readings this file makes (each from the text cited):
- Whose action it is comes from the record alone: the non-dealer (at a table, the dealer's
  left) leads; play goes round to the left (9.4, 9.5); the winner of a stock trick declares
  until ``pass``, ``offer`` hands the turn to the partner (9.5); the winner draws first, then
  the others in playing order, the last drawer taking the turn-up (2.3, 9.4); ``carte`` is the
  action of the seat to lead or follow (9.0.4, 9.10: before its first card, a repeat before its
  next play).
- Trick winner: the highest trump, else the highest card of the suit led; of identical cards
  the earlier (2.2, 9.0.2, 9.4); no trumps before the first marriage or sequence (9.0.2).
- A meld is valued by its cards as the highest kind they make (9.10).  Before trumps, a
  marriage counts 40 and a sequence 250 and fixes trumps (9.0.2); with ``bezique_pair = trump``
  no bezique exists then, unless ``bezique_fixes_trumps``: the queen's suit becomes trumps
  (9.2).  A card set that is no meld of the variant is a failure of the test.
- The seven of trumps at the tables (2.1, 2.3, README): a turned-up seven scores 10 for the
  dealer; ``seven`` scores 10; ``exchange`` scores 10 only with a seven that has not scored;
  ``play 7x`` while the stock lasts plays a scored seven first.  Brisques at the tables are
  added at the deal's end (default ``brisques = end``), in the deal-ending step (8).
- 9.0.7's *b* is 0 where the variant has no brisques; brisques decide the winner only on equal
  *s*; "saved the rubicon" means s_L < R <= s_L + b_L; ``brisques_counted`` is true exactly when
  brisques decided the winner or saved the rubicon (false when drawn or rubiconed, 9.10).
- 2.6 at the tables: "before brisques" is the total less this deal's brisques (the last trick's
  10 included); the count runs in playing order from the dealer's left (9.4); in a
  partnership each player counts their own brisques and a side wins when one partner's count
  takes the side's total to the target (the README's reading of 9.5); equal higher totals go to
  the higher total less brisques, then to the last trick's winner (left unchecked if that
  winner is not among the tied).

``pytest -s`` prints the counts of what was checked.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import oracle_run

from bezique import Rules, State
from bezique.cli import main
from bezique.game import Game
from bezique.record import game_record

RANKS = "ATKQJ987"  # RULES.md 1: high to low
SUITS = "SHDC"
COURT = "KQJ"  # 9.0.4: carte blanche is a hand without them
PAIRED = {"S": "D", "D": "S", "H": "C", "C": "H"}  # 9.2: the queen's suit -> the jack's
ANY_FOUR = {"A": 100, "K": 80, "Q": 60, "J": 40}  # 3.1, 9.1 (tens: option four_tens, 9.2)
TRUMP_FOUR = {"A": 1000, "T": 900, "K": 800, "Q": 600, "J": 400}  # 9.2
TRUMP_FIVE = {"A": 2000, "T": 1800, "K": 1600, "Q": 1200, "J": 800}  # 9.3
BEZIQUES = {1: 40, 2: 500, 3: 1500, 4: 4500, 5: 9000}  # 3.1, 9.1, 9.3 (by pairs of cards)


# ------------------------------------------------------------------ the variants, typed in


@dataclass(frozen=True)
class Spec:
    """A variant with its options as RULES.md 9 sets it (not read from ``Rules``)."""

    variant: str
    players: int
    packs: int
    hand: int
    turnup: bool
    last: int  # the last trick's bonus
    brisques: bool
    carte: int = 0  # carte blanche (9.0.4), 0: none
    repeat: bool = False  # its repeats (carte_blanche_repeat)
    game: int = 0  # 9.0.7: G, R, H (0: not a one-deal game)
    rubicon: int = 0
    bonus: int = 0
    beziques: int = 2  # the largest bezique, in pairs
    pair: str = "standard"  # the bezique pair: standard (Q♠ J♦) or trump (9.2)
    fixes_by_bezique: bool = False
    four_tens: bool = False
    trump_fours: bool = False
    trump_fives: bool = False
    cut_bonus: bool = False
    cut_range: tuple[int, int] = (18, 30)
    partnership: bool = False
    target: int = 0

    @property
    def one_deal(self) -> bool:
        return self.game > 0

    @property
    def stock_tricks(self) -> int:  # 9.0.6: (N - 2h) / 2; at the tables the turn-up counts
        return (32 * self.packs - self.players * self.hand) // self.players

    @property
    def tricks(self) -> int:
        return self.stock_tricks + self.hand

    def side(self, seat: int) -> int:
        """The unit that scores: the seat, or in a partnership its side (9.5)."""
        return seat % 2 if self.partnership else seat


def spec_of(variant: str, o: dict[str, Any]) -> Spec:
    if variant == "rubicon":  # 9.1
        return Spec(variant, 2, 4, 9, False, 50, True, carte=50,
                    repeat=o.get("carte_blanche_repeat", True), game=500, rubicon=1000,
                    bonus=1000 + o.get("rubicon_brisque_bonus", 300), beziques=4,
                    pair=o.get("bezique_pair", "standard"),
                    fixes_by_bezique=o.get("bezique_fixes_trumps", False),
                    four_tens=o.get("four_tens") == 90)
    if variant in ("sixpack", "eightpack"):  # 9.2, 9.3
        six = variant == "sixpack"
        lo, _, hi = str(o.get("cut_range", "18-30")).partition("-")
        return Spec(variant, 2, 6 if six else 8, 12 if six else 15, False, 250, False,
                    carte=250 if six else 0, repeat=six and o.get("carte_blanche_repeat", True),
                    game=1000, rubicon=3000 if six else 5000,
                    bonus=o.get("rubicon_bonus", 1000), beziques=4 if six else 5,
                    pair=o.get("bezique_pair", "trump"),
                    fixes_by_bezique=o.get("bezique_fixes_trumps", False),
                    four_tens=o.get("four_tens") == 90, trump_fours=True, trump_fives=not six,
                    cut_bonus=o.get("cut_bonus", False), cut_range=(int(lo), int(hi)))
    assert variant in ("bezique3", "bezique4"), variant  # 9.4, 9.5
    assert set(o) <= {"target", "partnership"}, "the reading below knows these options only"
    four = variant == "bezique4"
    return Spec(variant, 4 if four else 3, 4 if four else 3, 8, True, 10, True, beziques=3,
                partnership=four and o.get("partnership", True), target=o.get("target", 2000))


def pack(sp: Spec) -> Counter[str]:
    """Every card of the variant's pack with its copies (9.0.1, 9.4, 9.5)."""
    return Counter({r + s: sp.packs for r in RANKS for s in SUITS})


def is_pack(sp: Spec, d: dict[str, Any]) -> bool:
    """A record's deal holds one hand per player and is exactly the pack (8, 9.8)."""
    hands = d.get("hands")
    if not isinstance(hands, list) or len(hands) != sp.players:
        return False
    if any(len(h) != sp.hand for h in hands) or (d.get("turnup") is None) == sp.turnup:
        return False
    cards = [c for h in hands for c in h] + list(d.get("stock", []))
    return Counter(cards + ([d["turnup"]] if sp.turnup else [])) == pack(sp)


# ------------------------------------------------------------------ the reading


def meld_value(sp: Spec, cards: list[str], trumps: str | None) -> tuple[int, str | None, str]:
    """A meld's points, the suit it makes trumps (or None) and its kind, from its cards
    (3.1, 9.0.2-9.4, 9.10: the highest kind the cards make)."""
    ranks = {c[0] for c in cards}
    suits = {c[1] for c in cards}
    if len(cards) == 2 and ranks == {"K", "Q"} and len(suits) == 1:
        (s,) = suits
        if trumps is None:  # 9.0.2: the first marriage is royal and fixes trumps
            return 40, s, "marriage"
        return (40 if s == trumps else 20), None, "marriage"
    if len(cards) == 5 and ranks == set("ATKQJ") and len(suits) == 1:
        (s,) = suits
        if trumps is None:  # 9.0.2
            return 250, s, "sequence"
        if s == trumps:
            return 250, None, "sequence"
        if sp.one_deal:  # 9.0.3: the plain sequence; classic has none
            return 150, None, "sequence"
    queens = [c for c in cards if c[0] == "Q"]
    jacks = [c for c in cards if c[0] == "J"]
    k = len(queens)
    if k and k == len(jacks) == len(cards) // 2 and len(set(queens)) == len(set(jacks)) == 1:
        q, j = queens[0][1], jacks[0][1]
        fixes = None
        if sp.pair == "standard":
            ok = (q, j) == ("S", "D")
        elif trumps is not None:  # 9.2: the queen of trumps and the jack of the paired suit
            ok = (q, j) == (trumps, PAIRED[trumps])
        else:  # no class-B meld before trumps, unless bezique_fixes_trumps
            ok = sp.fixes_by_bezique and j == PAIRED[q]
            fixes = q
        if ok and k <= sp.beziques:
            return BEZIQUES[k], fixes, "bezique"
    if len(ranks) == 1:
        (r,) = ranks
        if trumps is not None and suits == {trumps}:
            if len(cards) == 4 and sp.trump_fours:
                return TRUMP_FOUR[r], None, "trump quartet"
            if len(cards) == 5 and sp.trump_fives:
                return TRUMP_FIVE[r], None, "trump quintet"
        if len(cards) == 4 and r in ANY_FOUR:
            return ANY_FOUR[r], None, "quartet"
        if len(cards) == 4 and r == "T" and sp.four_tens:
            return 90, None, "quartet"
    raise AssertionError(f"no meld of {sp.variant} (trumps {trumps}): {cards}")


def trick_winner(cards: list[str], trumps: str | None) -> int:
    """The index of the winning card (2.2, 9.0.2, 9.4: of identical cards the earlier)."""
    best = 0
    for i in range(1, len(cards)):
        c, top = cards[i], cards[best]
        if c[1] == top[1]:
            if RANKS.index(c[0]) < RANKS.index(top[0]):
                best = i
        elif c[1] == trumps:
            best = i
    return best


@dataclass
class Reading:
    """One recorded deal as this file reads it."""

    s: list[int]  # the deal's points without brisques (9.0.7's s)
    b: list[int]  # brisques won
    trumps: str | None = None
    fixed_by: str = "none"
    last: int | None = None  # the winner of the final trick
    actors: list[int] = field(default_factory=list)
    steps: list[list[int]] = field(default_factory=list)  # the scores after each action
    seen: Counter[str] = field(default_factory=Counter)


def read_deal(sp: Spec, d: dict[str, Any], totals: list[int]) -> Reading:
    """Walk a record's deal action by action (``totals``: the game totals before it)."""
    n, dealer = sp.players, d["dealer"]
    under = d["turnup"]  # the card under the stock (the turn-up, or the seven exchanged)
    m = Reading([0] * n, [0] * n, under[1] if sp.turnup else None)
    seven = f"7{m.trumps}" if sp.turnup else "--"
    if sp.turnup and under == seven:  # 2.1: a turned-up seven scores 10 for the dealer
        m.s[dealer] += 10
    if sp.cut_bonus:  # 9.2: both before play
        m.s[(dealer + 1) % n] += 150 * (d["guess"] == d["cut"])
        m.s[dealer] += 250 * (d["cut"] == 24)
        m.seen["cut right"] += d["guess"] == d["cut"]
        m.seen["cut 24"] += d["cut"] == 24
    unscored = [h.count(seven) for h in d["hands"]]  # sevens of trumps held, by status
    scored = [0] * n
    stock, top = d["stock"], 0
    leader, declarer, winner, done = (dealer + 1) % n, -1, -1, 0
    trick: list[str] = []
    for text in d["actions"]:
        word, *names = text.split()
        cards = [x[:2] for x in names]  # (QS*1, QS+: the card is the first two letters)
        actor = declarer if declarer >= 0 else (leader + len(trick)) % n
        m.actors.append(actor)
        m.seen[word] += 1
        if word == "play":
            assert declarer < 0 and len(cards) == 1, text
            c = cards[0]
            if c == seven and done < sp.stock_tricks:  # a scored seven is played first
                if scored[actor]:
                    scored[actor] -= 1
                else:
                    unscored[actor] -= 1
            trick.append(c)
            if len(trick) == n:
                winner = (leader + trick_winner(trick, m.trumps)) % n
                done += 1
                m.b[winner] += 10 * sum(x[0] in "AT" for x in trick) if sp.brisques else 0
                m.seen["identical cards"] += any(trick.count(x) > 1 for x in trick)
                if done == sp.tricks:
                    m.s[winner] += sp.last
                    m.last = winner
                trick, leader = [], winner
                if done <= sp.stock_tricks:
                    declarer = winner
        elif word == "meld":
            assert declarer >= 0, text
            points, fixes, kind = meld_value(sp, cards, m.trumps)
            m.s[actor] += points
            if fixes is not None:
                m.trumps, m.fixed_by = fixes, kind
        elif word == "carte":
            assert declarer < 0 and sp.carte, text
            m.s[actor] += sp.carte
        elif word == "seven":
            assert declarer >= 0 and unscored[actor], text
            unscored[actor] -= 1
            scored[actor] += 1
            m.s[actor] += 10
        elif word == "exchange":
            assert declarer >= 0 and under is not None and under != seven, text
            if unscored[actor]:
                unscored[actor] -= 1
                m.s[actor] += 10
            else:
                scored[actor] -= 1
                m.seen["exchange of a scored seven"] += 1
            under = seven  # (the turn-up, no seven, goes to the hand)
        elif word == "offer":
            assert declarer >= 0 and sp.partnership, text
            declarer = (declarer + 2) % n
        elif word == "pass":
            assert declarer >= 0, text
            for k in range(n):  # the winner first, then round to the left
                seat = (winner + k) % n
                if top < len(stock):
                    c, top = stock[top], top + 1
                    unscored[seat] += c == seven
                else:  # the last drawer takes the turn-up; a seven there has scored
                    assert under is not None, "no card left to draw"
                    scored[seat] += under == seven
                    under = None
            declarer = -1
        else:
            raise AssertionError(f"an action no rule names: {text!r}")
        if sp.one_deal:  # 9.10: a step's scores are the deal's s so far
            m.steps.append(list(m.s))
        else:  # 8: game totals; the step that ends the deal adds the brisques
            end = done == sp.tricks
            m.steps.append([t + x + (y if end else 0) for t, x, y in zip(totals, m.s, m.b,
                                                                        strict=True)])
    assert done == sp.tricks and not trick and top == len(stock), "the deal is not played out"
    return m


def settle(s: list[int], b: list[int], sp: Spec) -> dict[str, Any]:
    """RULES.md 9.0.7 read again: the deal's ``result``."""
    def f(x: int) -> int:  # fractions of a hundred disregarded
        return 100 * (x // 100)

    if not sp.brisques:
        b = [0, 0]
    if s[0] != s[1]:  # 1: the higher s; if equal, the higher s + b; else drawn
        w, by_brisques = (0 if s[0] > s[1] else 1), False
    elif s[0] + b[0] != s[1] + b[1]:
        w, by_brisques = (0 if s[0] + b[0] > s[1] + b[1] else 1), True
    else:
        return {"winner": None, "rubicon": False, "brisques_counted": False, "value": 0}
    lo = 1 - w
    if s[lo] + b[lo] < sp.rubicon:  # 2 and 4: rubiconed, no brisques
        return {"winner": w, "rubicon": True, "brisques_counted": False,
                "value": f(s[w]) + max(100, f(s[lo])) + sp.bonus}
    counted = by_brisques or s[lo] < sp.rubicon  # 3: brisques decided, or saved the rubicon
    t = [x + y for x, y in zip(s, b, strict=True)] if counted else s
    return {"winner": w, "rubicon": False, "brisques_counted": counted,
            "value": sp.game + max(100, f(t[w]) - f(t[lo]))}


def game_winner(sp: Spec, dealer: int, total: list[int], bris: list[int],
                last: int) -> tuple[int | None, str]:
    """RULES.md 2.6 at the end of a table's deal: the winning seat (side, in a partnership) or
    None, and which rule decided ("?" where the reading runs out)."""
    n, side = sp.players, sp.side
    units = sorted({side(x) for x in range(n)})
    tot = {u: sum(total[x] for x in range(n) if side(x) == u) for u in units}
    before = {u: tot[u] - sum(bris[x] for x in range(n) if side(x) == u) for u in units}
    if max(before.values()) < sp.target:  # 1: count in turn from the dealer's left
        counted = dict(before)
        for k in range(1, n + 1):
            seat = (dealer + k) % n
            counted[side(seat)] += bris[seat]
            if counted[side(seat)] >= sp.target:
                return side(seat), "first counted" if k == 1 else "later counted"
        return None, "no winner"
    top = [u for u in units if tot[u] == max(tot.values())]  # 2: the higher total
    if len(top) == 1:
        return top[0], "reached"
    top = [u for u in top if before[u] == max(before[x] for x in top)]
    if len(top) == 1:
        return top[0], "tie, less brisques"
    return (side(last), "tie, last trick") if side(last) in top else (None, "?")


# ------------------------------------------------------------------ the worked examples


RUBICON = spec_of("rubicon", {})
SIXPACK = spec_of("sixpack", {})


def result(winner: int | None, rubicon: bool, counted: bool, value: int) -> dict[str, Any]:
    return {"winner": winner, "rubicon": rubicon, "brisques_counted": counted, "value": value}


EXAMPLES: list[tuple[str, Spec, tuple[int, int], tuple[int, int], dict[str, Any]]] = [
    ("9: 1510 v 1240", RUBICON, (1510, 1240), (0, 0), result(0, False, False, 800)),
    ("9: 1550 v 1520", RUBICON, (1550, 1520), (0, 0), result(0, False, False, 600)),
    ("9: 1320 v 620", RUBICON, (1320, 620), (0, 0), result(0, True, False, 3200)),
    ("9: Bicycle's 3220", spec_of("rubicon", {"rubicon_brisque_bonus": 320}), (1320, 620),
     (0, 0), result(0, True, False, 3220)),
    ("10: loser under 100", RUBICON, (1320, 60), (0, 0), result(0, True, False, 2700)),
    ("11: saved", RUBICON, (1450, 930), (150, 170), result(0, False, True, 1000)),
    ("11: not saved", RUBICON, (1450, 930), (150, 60), result(0, True, False, 3600)),
    ("12: tie", RUBICON, (1230, 1230), (180, 140), result(0, False, True, 600)),
    ("12: drawn", RUBICON, (1230, 1230), (160, 160), result(None, False, False, 0)),
    ("13: both short", RUBICON, (950, 700), (0, 90), result(0, True, False, 2900)),
    ("16: 4850 v 3120", SIXPACK, (4850, 3120), (0, 0), result(0, False, False, 2700)),
    ("16: rubiconed", SIXPACK, (5230, 2640), (0, 0), result(0, True, False, 8800)),
    ("16: doubled", spec_of("sixpack", {"rubicon_bonus": 2000}), (5230, 2640), (0, 0),
     result(0, True, False, 9800)),
    ("16: no brisques, a draw", SIXPACK, (3500, 3500), (0, 0), result(None, False, False, 0)),
]


@pytest.mark.parametrize(("name", "sp", "s", "b", "want"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_settlement_reading_gives_the_worked_examples(
        name: str, sp: Spec, s: tuple[int, int], b: tuple[int, int], want: dict[str, Any]) -> None:
    assert settle(list(s), list(b), sp) == want
    swapped = dict(want, winner=None if want["winner"] is None else 1 - want["winner"])
    assert settle(list(s)[::-1], list(b)[::-1], sp) == swapped  # the seats play no part


# ------------------------------------------------------------------ playing the deals


@dataclass
class Policy:
    """How the seats choose among the legal actions in one deal."""

    style: str  # random | greedy (meld the best) | quiet (never fix trumps) | balance (tie)
    cartes: bool = False  # balance: declare every carte blanche and no meld
    drawn: bool = True  # balance: the last tricks tie the brisques too (else they differ)
    line: list[str] = field(default_factory=list)  # balance: the last tricks, chosen ahead
    planned: bool = False


def gain(state: State, action: str) -> tuple[int, int]:
    """The points an action scores for the seat, and s0 - s1 after it (a lookahead)."""
    seat = state.current_player()
    after = state.clone()
    after.apply(action)
    return after.scores[seat] - state.scores[seat], after.scores[0] - after.scores[1]


def fixes_trumps(state: State, action: str) -> bool:
    after = state.clone()
    after.apply(action)
    return state.trump < 0 <= after.trump


def plan_end(state: State, rng: random.Random, drawn: bool, tries: int = 100) -> list[str]:
    """Balance: of a few random playouts of the last tricks, one that ties the deal's points
    (and then the brisques too, or not: ``drawn``) if any does."""
    best: tuple[tuple[bool, bool], list[str]] | None = None
    for _ in range(tries):
        s, line = state.clone(), []
        while not s.is_terminal():
            line.append(rng.choice(s.legal_action_strings()))
            s.apply(line[-1])
        key = (s.scores[0] == s.scores[1], (s.brisques[0] == s.brisques[1]) == drawn)
        if best is None or key > best[0]:
            best = (key, line)
        if all(key):
            break
    assert best is not None
    return best[1]


def choose(state: State, pol: Policy, rng: random.Random) -> str:
    legal = state.legal_action_strings()
    if state.phase == "guess" and rng.random() < 0.3:  # (the cut bonus: a right guess)
        return f"guess {state.cut}"
    if pol.style == "random" or state.phase == "guess":
        return rng.choice(legal)
    scoring = [a for a in legal if a.startswith("meld") or a in ("carte", "seven", "exchange")]
    plays = [a for a in legal if a.startswith("play")]
    if pol.style == "balance":  # keep one seat ahead by the last trick's bonus, then tie
        if state.end_phase:
            if not pol.planned:
                pol.line, pol.planned = plan_end(state, rng, pol.drawn), True
            return pol.line.pop(0)
        last = 50 if state.rules.variant == "rubicon" else 250

        def off(a: str | None) -> int:
            d = gain(state, a)[1] if a else state.scores[0] - state.scores[1]
            return abs(abs(d) - last)

        if pol.cartes and "carte" in legal:
            return "carte"
        if scoring and not pol.cartes:
            offs = {a: off(a) for a in scoring}
            best = min(scoring, key=offs.__getitem__)
            if offs[best] < off(None):
                return best
        if "pass" in legal:
            return "pass"
        if pol.drawn and len(state.trick_cards()) == state.rules.nplayers - 1:  # even brisques
            def spread(a: str) -> int:
                after = state.clone()
                after.apply(a)
                return abs(after.brisques[0] - after.brisques[1])
            return min(plays, key=spread)
        return rng.choice(plays)
    if pol.style == "quiet":
        scoring = [a for a in scoring if not fixes_trumps(state, a)]
        if scoring and rng.random() < 0.5:
            return rng.choice(scoring)
    elif "carte" in legal:  # (greedy: a carte blanche not declared at once is lost)
        return "carte"
    elif "exchange" in legal and rng.random() < 0.5:
        return "exchange"
    elif scoring and rng.random() < 0.9:
        return max(scoring, key=lambda a: gain(state, a)[0])
    if "offer" in legal and rng.random() < 0.3:
        return "offer"
    if "pass" in legal:
        return "pass"
    rng.shuffle(plays)  # greedy and quiet throw low cards and keep what melds
    return min(plays, key=lambda a: ("*" in a, "789TAJQK".index(a[5])))


def court_free(sp: Spec, rules: Rules, rng: random.Random, dealer: int,
               seats: tuple[int, ...], most: bool = False) -> State:
    """A shuffled deal in which ``seats`` hold no K, Q or J (a carte blanche, 9.0.4).  With
    both seats so, many of the stock's other low cards come first, an odd number of them, then
    the court cards: both may repeat the carte blanche many times, one of them once more (with
    ``most``, three quarters of the low cards or more come first)."""
    deck = [c for c, k in pack(sp).items() for _ in range(k)]
    rng.shuffle(deck)
    hands = [deck[:sp.hand], deck[sp.hand:2 * sp.hand]]
    stock = deck[2 * sp.hand:]
    for seat in seats:
        for i, c in enumerate(hands[seat]):
            if c[0] in COURT:
                j = next(j for j, x in enumerate(stock) if x[0] not in COURT)
                hands[seat][i], stock[j] = stock[j], c
    if len(seats) == 2:  # an odd number of low cards, the court cards, the other low cards
        low = [c for c in stock if c[0] not in COURT]
        k = rng.randrange(len(low) * (3 if most else 1) // 4, len(low)) | 1
        stock = low[:k] + [c for c in stock if c[0] in COURT] + low[k:]
    return State.from_cards(rules, hands, None, stock, dealer, None, cut(sp, rng))


def rich(sp: Spec, rules: Rules, rng: random.Random, dealer: int) -> State:
    """A deal in which both seats hold half the bezique pairs and a king to marry one of the
    queens (fixing the suit the pairs need), with that suit's A T J atop the stock."""
    t = rng.choice(SUITS)
    q, j = ("QS", "JD") if sp.pair == "standard" else ("Q" + t, "J" + PAIRED[t])
    k = sp.packs // 2
    left = pack(sp)
    hands = [[q] * k + [j] * k + ["K" + q[1]] for _ in range(2)]
    left.subtract(hands[0] + hands[1])
    rest = list(left.elements())
    rng.shuffle(rest)
    rest.sort(key=lambda c: c[0] not in "789")  # (stable: the low cards fill the hands)
    for h in hands:
        while len(h) < sp.hand:
            h.append(rest.pop(0))
    rng.shuffle(rest)
    rest.sort(key=lambda c: c not in (r + q[1] for r in "ATJ"))
    return State.from_cards(rules, hands, None, rest, dealer, None, cut(sp, rng))


def cut(sp: Spec, rng: random.Random) -> int | None:
    """The size of the dealer's cut with the cut bonus (9.2): 24 cards one time in two."""
    if not sp.cut_bonus:
        return None
    lo, hi = sp.cut_range
    return 24 if lo <= 24 <= hi and rng.random() < 0.5 else rng.randint(lo, hi)


def replay_json(tmp: Path, record: dict[str, Any], name: str) -> dict[str, Any]:
    """``bezique replay FILE --json`` on the record."""
    path = tmp / f"{name}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert done.exit_code == 0, (path, done.output)
    out: dict[str, Any] = json.loads(done.stdout)
    return out


@dataclass
class Counts:
    records: int = 0
    deals: int = 0
    steps: int = 0
    kinds: Counter[str] = field(default_factory=Counter)  # deals by kind and policy
    trumps: Counter[str] = field(default_factory=Counter)  # what fixed them, or none
    settled: Counter[str] = field(default_factory=Counter)  # drawn/rubicon/counted/plain
    ties: int = 0  # equal s (9.0.7 step 1 goes on to the brisques)
    tie_broken: int = 0  # of which the brisques decided
    saved: int = 0  # the loser's brisques saved the rubicon
    sessions: Counter[str] = field(default_factory=Counter)  # game.winner: a seat, or none
    games: Counter[str] = field(default_factory=Counter)  # tables: how 2.6 decided
    actions: Counter[str] = field(default_factory=Counter)


def check_step(m: Reading, got: dict[str, Any], at: str) -> None:
    steps = got["steps"]
    assert all(st["ok"] for st in steps), at
    assert [st["player"] for st in steps] == m.actors, at
    for k, (st, want) in enumerate(zip(steps, m.steps, strict=True)):
        assert st["scores"] == want, f"{at}, step {k} {st['action']!r}: {st['scores']} != {want}"
    assert got["finished"] is True and got["last_trick"] == m.last, at


def check_session(sp: Spec, record: dict[str, Any], out: dict[str, Any], n: Counts,
                  at: str) -> None:
    """Items 1 and 2 of the module docstring."""
    assert len(out["deals"]) == len(record["deals"]), at
    values = [0, 0]
    for i, (d, got) in enumerate(zip(record["deals"], out["deals"], strict=True)):
        here = f"{at}, deal {i + 1}"
        assert d["turnup"] is None and is_pack(sp, d), here  # 9.0.1, 9.8
        m = read_deal(sp, d, [0, 0])
        check_step(m, got, here)
        assert got["scores"] == m.s, here
        assert got["brisques"] == (m.b if sp.brisques else [0, 0]), here
        assert got["trumps"] == m.trumps, f"{here}: trumps {got['trumps']} != {m.trumps}"
        want = settle(m.s, m.b, sp)
        assert got["result"] == want, f"{here}: {got['result']} != {want} (s {m.s}, b {m.b})"
        if sp.cut_bonus:
            assert (got["cut"], got["guess"]) == (d["cut"], d["guess"]), here
        if want["winner"] is not None:
            values[want["winner"]] += want["value"]
        n.deals += 1
        n.steps += len(m.steps)
        n.trumps[m.fixed_by] += 1
        n.actions.update(m.seen)
        n.ties += m.s[0] == m.s[1]
        n.tie_broken += m.s[0] == m.s[1] and want["winner"] is not None
        n.settled["drawn" if want["winner"] is None else "rubicon" if want["rubicon"]
                  else "counted" if want["brisques_counted"] else "plain"] += 1
        lo = 1 - want["winner"] if want["winner"] is not None else 0
        n.saved += bool(want["brisques_counted"] and m.s[0] != m.s[1]
                        and m.s[lo] < sp.rubicon)
    assert out["game"]["scores"] == values, f"{at}: {out['game']} != {values}"
    leader = None if values[0] == values[1] else int(values[1] > values[0])
    assert out["game"]["winner"] == leader, at
    n.sessions["tied" if leader is None else "won"] += 1


def play_session(sp: Spec, rules: Rules, seed: int, rng: random.Random, n: Counts,
                 tmp: Path) -> None:
    """A record of two to four one-deal games, the dealer alternating (9.0.1)."""
    first = rng.randrange(2)
    states = []
    kinds = ["shuffled random", "shuffled greedy", "shuffled quiet", "rich greedy"]
    if sp.carte:  # the carte blanche makes up for the last trick: equal s
        kinds += ["carte balance", "cartes balance", "cartes greedy", "cartes greedy"]
        if not sp.repeat:  # (one carte blanche each does not tie)
            kinds = [k.replace("cartes balance", "carte balance") for k in kinds]
    else:
        kinds += ["shuffled balance"]
    for k in range(rng.randint(2, 4)):
        dealer = (first + k) % 2
        kind = kinds[sum(n.kinds.values()) % len(kinds)]  # (each kind in turn)
        deal, style = kind.split()
        pol = Policy(style, cartes=deal == "cartes", drawn=n.kinds[kind] % 2 == 0)
        if deal == "shuffled":
            state = State.new_deal(rules, rng.getrandbits(64), dealer=dealer)
        elif deal == "rich":
            state = rich(sp, rules, rng, dealer)
        else:
            seats = (0, 1) if deal == "cartes" else (rng.randrange(2),)
            most = style == "balance" or n.kinds[kind] % 2 == 0  # (high scores, or lower)
            state = court_free(sp, rules, rng, dealer, seats, most)
        while not state.is_terminal():
            state.apply(choose(state, pol, rng))
        states.append(state)
        n.kinds[kind] += 1
    record = json.loads(json.dumps(game_record(rules, states)))
    out = replay_json(tmp, record, f"{sp.variant}-{seed}")
    check_session(sp, record, out, n, f"{sp.variant} record {seed} ({tmp})")
    n.records += 1


def check_table_game(sp: Spec, record: dict[str, Any], out: dict[str, Any], n: Counts,
                     at: str) -> None:
    """Item 3 of the module docstring."""
    totals = [0] * sp.players
    winner: int | None = None
    how = ""
    assert len(out["deals"]) == len(record["deals"]), at
    for i, (d, got) in enumerate(zip(record["deals"], out["deals"], strict=True)):
        here = f"{at}, deal {i + 1}"
        assert is_pack(sp, d), here
        m = read_deal(sp, d, totals)
        check_step(m, got, here)
        totals = [t + x + y for t, x, y in zip(totals, m.s, m.b, strict=True)]
        assert got["scores"] == totals and got["brisques"] == m.b, here
        sides = [totals[0] + totals[2], totals[1] + totals[3]] if sp.partnership else None
        assert got.get("sides") == sides, here
        assert m.last is not None
        winner, how = game_winner(sp, d["dealer"], totals, m.b, m.last)
        final = i == len(record["deals"]) - 1  # (the game goes on until a deal decides it)
        assert how != "no winner" if final else how in ("no winner", "?"), (
            f"{here}: 2.6 gives {winner} ({how})")
        n.deals += 1
        n.steps += len(m.steps)
        n.actions.update(m.seen)
    n.games[how] += 1
    assert out["game"]["scores"] == (sides if sp.partnership else totals), at
    if how != "?":
        assert out["game"]["winner"] == winner, f"{at}: 2.6 gives {winner} ({how})"


def play_table_game(sp: Spec, rules: Rules, seed: int, rng: random.Random, n: Counts,
                    tmp: Path) -> None:
    """A whole game to the (low) target, as one record."""
    game = Game(rules, seed=rng.getrandbits(64), first_dealer=rng.randrange(sp.players))
    pol = Policy(rng.choice(("random", "greedy")))
    while not game.is_over():
        if game.state.is_terminal():
            game.next_deal()
            pol = Policy(rng.choice(("random", "greedy")))
        game.state.apply(choose(game.state, pol, rng))
    record = json.loads(json.dumps(game.to_record()))
    out = replay_json(tmp, record, f"{sp.variant}-{seed}")
    check_table_game(sp, record, out, n, f"{sp.variant} record {seed} ({tmp})")
    n.records += 1


# ------------------------------------------------------------------ the cases


ONE_DEAL: list[tuple[str, dict[str, Any]]] = [
    ("rubicon", {}),
    ("rubicon", {"rubicon_brisque_bonus": 320, "carte_blanche_repeat": False}),
    ("rubicon", {"bezique_pair": "trump", "bezique_fixes_trumps": True, "four_tens": 90}),
    ("sixpack", {}),
    ("sixpack", {"rubicon_bonus": 2000, "bezique_fixes_trumps": True, "cut_bonus": True,
                 "cut_range": "22-26"}),
    ("eightpack", {}),
    ("eightpack", {"rubicon_bonus": 2000, "bezique_pair": "standard", "four_tens": 90}),
]
TABLES: list[tuple[str, dict[str, Any]]] = [
    ("bezique3", {"target": 500}),
    ("bezique4", {"target": 500}),
    ("bezique4", {"target": 400, "partnership": False}),
]


def ids(cases: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [f"{v}-{'-'.join(f'{k}={x}' for k, x in o.items())}".rstrip("-") for v, o in cases]


RECORDS = {"rubicon": 7, "sixpack": 5, "eightpack": 4, "bezique3": 5, "bezique4": 5}


def run(variant: str, options: dict[str, Any], seeds: range, tmp: Path) -> Counts:
    sp = spec_of(variant, options)
    play: Callable[..., None] = play_session if sp.one_deal else play_table_game
    return oracle_run(variant, options, seeds,
                      lambda r, seed, rng, n: play(sp, r, seed, rng, n, tmp), Counts())


def check_one_deal(variant: str, options: dict[str, Any], n: Counts) -> None:
    """The records reached what the test is about (it cannot pass vacuously)."""
    sp = spec_of(variant, options)
    assert n.deals >= 2 * n.records and n.steps > 100 * n.deals, n
    assert n.settled["rubicon"] > 0 and n.trumps["none"] > 0, n
    if sp.fixes_by_bezique and sp.pair == "trump":
        assert n.trumps["bezique"] > 0, n
    else:
        assert n.trumps["marriage"] > 0, n
    assert n.sessions["won"] > 0, n
    if sp.repeat or not sp.carte:  # (scores high enough for both need the repeats, or rich
        assert n.settled["plain"] > 0, n  # deals of the beziques in Eight-pack)
    if sp.carte:  # the carte blanche against the last trick: equal s, drawn
        assert n.actions["carte"] > 0 and n.ties > 0 and n.settled["drawn"] > 0, n
    if sp.carte and sp.brisques:  # equal s, the brisques decide
        assert n.tie_broken > 0, n
    if sp.repeat and sp.brisques:  # and then count
        assert n.settled["counted"] > 0, n
    if sp.cut_bonus:
        assert n.actions["cut right"] > 0 and n.actions["cut 24"] > 0, n


def check_tables(variant: str, options: dict[str, Any], n: Counts) -> None:
    sp = spec_of(variant, options)
    assert n.deals > n.records and sum(n.games.values()) == n.records, n
    assert n.actions["seven"] + n.actions["exchange"] > 0 and n.actions["meld"] > 0, n
    assert n.games["first counted"] + n.games["later counted"] + n.games["reached"] > 0, n
    if sp.partnership:
        assert n.actions["offer"] > 0, n
    else:
        assert n.actions["offer"] == 0, n


@pytest.mark.parametrize(("variant", "options"), ONE_DEAL, ids=ids(ONE_DEAL))
def test_one_deal_records_replay_as_an_independent_reading(
        variant: str, options: dict[str, Any], tmp_path: Path) -> None:
    check_one_deal(variant, options, run(variant, options, range(RECORDS[variant]), tmp_path))


@pytest.mark.parametrize(("variant", "options"), TABLES, ids=ids(TABLES))
def test_table_records_replay_as_an_independent_reading(
        variant: str, options: dict[str, Any], tmp_path: Path) -> None:
    check_tables(variant, options, run(variant, options, range(RECORDS[variant]), tmp_path))


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "options"), ONE_DEAL + TABLES, ids=ids(ONE_DEAL + TABLES))
def test_records_over_many_more_games(variant: str, options: dict[str, Any],
                                      tmp_path: Path) -> None:
    n = run(variant, options, range(1000, 1000 + 5 * RECORDS[variant]), tmp_path)
    sp = spec_of(variant, options)
    if not sp.one_deal:
        check_tables(variant, options, n)
        assert n.actions["seven"] > 0 and n.actions["exchange"] > 0, n
        assert n.actions["exchange of a scored seven"] > 0, n
        assert n.games["first counted"] and n.games["later counted"] and n.games["reached"], n
        return
    check_one_deal(variant, options, n)
    if sp.brisques and sp.repeat:
        assert n.saved > 0, n  # the loser's brisques saved the rubicon
    if variant == "eightpack" and sp.pair == "standard":  # (four queens and a bezique can
        assert n.trumps["sequence"] > 0, n  # come before the marriage: then a sequence may)


# ------------------------------------------------------------------ impossible records


def short_record(variant: str, seed: int) -> dict[str, Any]:
    """A record of one deal with a few random actions (options all default)."""
    rules = Rules.preset(variant)
    state = State.new_deal(rules, seed)
    rng = random.Random(seed)
    for _ in range(12):
        state.apply(rng.choice(state.legal_action_strings()))
    record: dict[str, Any] = json.loads(json.dumps(game_record(rules, [state])))
    return record


def one_copy_too_many(d: dict[str, Any]) -> None:
    extra = d["hands"][0][0]  # the pack already holds every copy of it
    k = next(k for k, c in enumerate(d["stock"]) if c != extra)
    d["stock"][k] = extra


def another_pack(rec: dict[str, Any]) -> None:
    rec["variant"] = {"rubicon": "sixpack", "sixpack": "eightpack", "eightpack": "rubicon",
                      "bezique3": "bezique4", "bezique4": "bezique3"}[rec["variant"]]


BAD: dict[str, Callable[[dict[str, Any]], None]] = {
    "a card short": lambda rec: rec["deals"][0]["stock"].pop(),
    "a card over": lambda rec: rec["deals"][0]["stock"].append(rec["deals"][0]["stock"][0]),
    "one copy too many": lambda rec: one_copy_too_many(rec["deals"][0]),
    "another variant's pack": another_pack,
    "a turn-up in a one-deal game": lambda rec: rec["deals"][0].update(turnup="7H"),
}
VARIANTS = ("rubicon", "sixpack", "eightpack", "bezique3", "bezique4")


IMPOSSIBLE = [(v, bad) for bad in BAD for v in VARIANTS
              if bad != "a turn-up in a one-deal game" or spec_of(v, {}).one_deal]


@pytest.mark.parametrize(("variant", "bad"), IMPOSSIBLE)
def test_impossible_records_are_refused_with_one_line(variant: str, bad: str,
                                                      tmp_path: Path) -> None:
    sp = spec_of(variant, {})
    good = short_record(variant, VARIANTS.index(variant))
    assert is_pack(sp, good["deals"][0])
    replay_json(tmp_path, good, "good")  # the record as written is read
    rec = copy.deepcopy(good)
    BAD[bad](rec)
    assert not is_pack(spec_of(rec["variant"], {}), rec["deals"][0]), "the reading is off"
    if bad == "one copy too many":  # a fifth copy in Rubicon, a seventh in Six-pack, ...
        cards = Counter([c for h in rec["deals"][0]["hands"] for c in h] + rec["deals"][0]["stock"]
                        + ([rec["deals"][0]["turnup"]] if sp.turnup else []))
        assert max(cards.values()) == sp.packs + 1 and sum(cards.values()) == 32 * sp.packs
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    done = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert done.exit_code == 2, (bad, done.output)
    assert done.stdout == "", done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bezique: error:"), done.stderr
