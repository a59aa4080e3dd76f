"""Card play, tricks, draws and trick scoring across the family, against an independent reading.

This file reads RULES.md 1, 2, 4, 5, 6 and 9.0-9.5, 9.7-9.10 again (not the engine's modules
``tricks``, ``plays``, ``deal``, ``scoring``), keeps its own model of every deal (each seat's
cards, the stock in order, the turn-up, the cards won, the scores) and plays random and stacked
deals through the public ``State`` API of every variant, comparing at every step:

1. **Legal plays.**  The oracle's set of card plays (while the stock lasts: any card of the hand
   or of the seat's own table; in the last tricks: the duties of 2.4 / 9.0.6 for two, 9.4 and 9.5
   for three and four, two-handed within each of 9.5's duels) equals the engine's play actions,
   up to copies that differ in nothing (same card, concealed, or shown with the same meld
   history: RULES.md 7 and 9.10).  Which seat acts, and in which phase, is the oracle's too.
2. **Trick winner.**  Highest trump, else highest card of the suit led; of identical cards the
   earlier wins (2.2, 9.0.2, 9.4); against ``s.last_trick_winner`` and the cards won.
3. **Draws.**  Winner first, then the others in playing order, the last drawer taking the
   turn-up (2.3, 9.4, 9.5; none in 9.0): every seat's cards after each action equal the
   oracle's, read from the stock the test dealt.  Shown cards return to the hand once the stock
   is gone (2.4).
4. **Scoring.**  Brisques or Binocle's card points (2.5, 4, 9.1; none in 9.2-9.3) as tricks are
   won, added at the end or at once (option ``brisques``), never in the one-deal games (9.0.7:
   *s* is without them); the last trick's 10 / 50 / 250 (2.5, 9.1-9.3, option ``last_trick``,
   9.5's duels: each duel's last trick); the turned-up seven (nine in Binocle) for the dealer,
   ``exchange`` and ``seven`` and option ``seven = played`` (2.1, 2.3, 4, 6), with when they are
   offered; carte blanche (9.0.4) and the cut bonus (9.2); ``s.scores`` after every action (meld
   points are taken from the engine's meld events: their values are the meld oracles' business);
   and at the end the result of ``bezique replay --json`` (``record.replay``): scores, brisques,
   last trick, trumps, and the settlement of 9.0.7 computed here; with a small ``target``, the
   game's winner by 2.6 (and with ``end_check = immediate``, the deal's end at the first score
   that reaches it).

Readings the oracle makes (each from the text cited):
- Three and four seats play and draw to the left (seat + 1): 9.4 "deals to the left ... the
  dealer's left leads", 9.5 "sit clockwise"; "the others in playing order" is the order of the
  next trick, from the winner round the table.
- 9.4's "beat the best card so far": the card now winning the trick; following suit beats it
  only when it is of the suit led; void, a trump beats it when above every trump in the trick.
  Two-handed 2.4 is the same rule with one card before.  Unable to beat: follow suit (2.4, 9.4),
  else anything.  With no trumps (9.0.2), void means anything.
- 9.5 duels: the winner of the last stock trick leads the first duel against the seat at their
  left; then the first winner's partner (the seat opposite, also with ``partnership = false``)
  leads the second against the fourth seat; within a duel 2.4 holds and the winner leads.
- A seven of trumps (Binocle: the dix) that scored by ``seven`` stays in the hand (2.3); the
  oracle counts, per seat, the scored ones in hand: a play of a seven of trumps uses a scored
  copy first under ``seven = declared`` (so the right to declare the other is kept), an unscored
  one under ``played`` (it scores when played to a stock trick, 6); ``exchange`` uses an unscored
  copy if there is one, and scores only then ("each physical seven scores at most once"): a
  seven that scored by ``seven`` may still be exchanged, for no points.
- ``seven = played``: no ``seven`` action; ``exchange`` stays (6 changes only when a held seven
  scores).
- Carte blanche (9.0.4, 9.10): ``carte`` is offered when the seat is to lead or follow, before
  its first card if it holds no K, Q or J; with repeats, again after each draw of a non-court
  card until its next play, while the stock lasts; a court card drawn ends the right.
- 2.6 with totals of 0: "before brisques" is the total less this deal's brisques.  The players
  count in playing order from the dealer's left (9.4); in a partnership (9.5) a side wins when
  one partner's count takes the side's total to the target.
- The order of the scoring events of one trick: the last trick's bonus, then (``brisques =
  immediate``) the trick's brisques: 2.5, "scores 10, before brisques are counted"; at the end
  of the deal (``brisques = end``) each player's brisques in the counting order of 2.6.  With
  ``end_check = immediate`` nothing scores after the event that ends the game (2.6).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from helpers import oracle_run

from bezique import Rules, State
from bezique import actions as act
from bezique.cards import bits
from bezique.record import deal_record, parse_record, replay

ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN = range(8)  # RULES.md 1: A 10 K Q J 9 8 7
COURT = (KING, QUEEN, JACK)  # 9.0.4: carte blanche is a hand without K, Q or J


def suit(c: int) -> int:
    return (c & 31) >> 3


def rank(c: int) -> int:
    return c & 7


def card(r: int, s: int) -> int:
    return s * 8 + r


@dataclass(frozen=True)
class Spec:
    """A variant as RULES.md 2, 4 and 9 set it (typed in here, not read from ``Rules``)."""

    players: int
    packs: int
    ranks: tuple[int, ...]  # the ranks in the pack
    hand: int
    turnup: bool
    seven: int  # the rank of the card that scores 10 as the seven of trumps, or -1
    points: dict[int, int]  # card points per rank of the cards won
    last: int  # the last trick's bonus
    carte: int = 0  # carte blanche's value (9.0.4)
    game: int = 0  # 9.0.7: G (the game), R (the rubicon), H (the rubicon bonus)
    rubicon: int = 0
    bonus: int = 0

    @property
    def stock_tricks(self) -> int:
        return (self.packs * 4 * len(self.ranks) - self.players * self.hand) // self.players


ALL = (ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN)
BRISQUES = {ACE: 10, TEN: 10}  # 2.5, 9.1


def spec(r: Rules) -> Spec:
    v = r.variant
    if v == "bezique":
        return Spec(2, 2, ALL, 8, True, SEVEN, BRISQUES, 10)
    if v == "binocle":  # 4: no 8s and 7s, 12 cards, the dix, card points
        return Spec(2, 2, ALL[:6], 12, True, NINE, {ACE: 11, TEN: 10, KING: 4, QUEEN: 3,
                                                     JACK: 2}, 10)
    if v == "rubicon":  # 9.1
        return Spec(2, 4, ALL, 9, False, -1, BRISQUES, 50, 50, 500, 1000,
                    1000 + r.rubicon_brisque_bonus)
    if v == "sixpack":  # 9.2
        return Spec(2, 6, ALL, 12, False, -1, {}, 250, 250, 1000, 3000, r.rubicon_bonus)
    if v == "eightpack":  # 9.3
        return Spec(2, 8, ALL, 15, False, -1, {}, 250, 0, 1000, 5000, r.rubicon_bonus)
    if v == "bezique3":  # 9.4
        return Spec(3, 3, ALL, 8, True, SEVEN, BRISQUES, 10)
    assert v == "bezique4"  # 9.5
    return Spec(4, 4, ALL, 8, True, SEVEN, BRISQUES, 10)


def beats(c: int, best: int, trump: int) -> bool:
    """Card ``c``, played after ``best`` (the card winning so far), wins over it: a higher card
    of the same suit (an identical card does not), or a trump over a card that is none (2.2)."""
    if suit(c) == suit(best):
        return rank(c) < rank(best)
    return suit(c) == trump


def winning(cards: list[int], trump: int) -> int:
    """The index of the winning card of a trick (2.2, 9.0.2, 9.4: the earlier of identical)."""
    w = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[w], trump):
            w = i
    return w


def duty(hand: list[int], trick: list[int], trump: int) -> tuple[str, list[int]]:
    """The cards a follower may play in the last tricks (2.4, 9.0.6, 9.4, 9.5) and why."""
    led = suit(trick[0])
    best = trick[winning(trick, trump)]
    follow = [c for c in hand if suit(c) == led]
    if follow:
        higher = [c for c in follow if suit(best) == led and rank(c) < rank(best)]
        return ("beat", higher) if higher else ("follow", follow)
    if trump >= 0 and led != trump:
        trumps = [c for c in hand if suit(c) == trump]
        over = [c for c in trumps if suit(best) != trump or rank(c) < rank(best)]
        if over:
            return ("overtrump" if suit(best) == trump else "trump"), over
    return "free", hand


def settle(s: list[int], b: list[int], sp: Spec) -> dict[str, Any]:
    """RULES.md 9.0.7, read again: the result object of ``replay --json``."""
    def f(x: int) -> int:
        return 100 * (x // 100)

    has_b = bool(sp.points)
    drawn = {"winner": None, "rubicon": False, "brisques_counted": False, "value": 0}
    if s[0] != s[1]:
        w, by_b = (0 if s[0] > s[1] else 1), False
    elif has_b and s[0] + b[0] != s[1] + b[1]:
        w, by_b = (0 if s[0] + b[0] > s[1] + b[1] else 1), True
    else:
        return drawn
    lo = 1 - w
    if s[lo] + b[lo] < sp.rubicon:  # 2: rubiconed whatever the winner's total
        return {"winner": w, "rubicon": True, "brisques_counted": False,
                "value": f(s[w]) + max(100, f(s[lo])) + sp.bonus}
    saved = s[lo] < sp.rubicon
    counted = by_b or saved
    t = [s[i] + b[i] if counted else s[i] for i in (0, 1)]
    return {"winner": w, "rubicon": False, "brisques_counted": counted,
            "value": sp.game + max(100, f(t[w]) - f(t[lo]))}


def game_winner(m: Model) -> tuple[int | None, str]:
    """RULES.md 2.6 for a deal from totals of 0: the game's winner (a seat, or in a partnership
    a side, 9.5) or None, and which step decided ("?" where the reading runs out: a tie of
    three whose last-trick winner is not among the tied).  The players count in playing order
    from the dealer's left (9.4), so with two the non-dealer counts first, and in a partnership
    a side wins when a partner's count takes the side's total to the target; "before brisques"
    is the total less this deal's brisques."""
    n, d = m.sp.players, m.s.dealer
    order = [(d + k) % n for k in range(1, n + 1)]
    side = m.side
    units = sorted({side(seat) for seat in order})
    total = {u: sum(m.scores[x] for x in order if side(x) == u) for u in units}
    bris = {u: sum(m.bris[x] for x in order if side(x) == u) for u in units}
    last = side(m.last_win)
    before = {u: total[u] - bris[u] for u in units}
    target = m.r.target
    if max(before.values()) < target:  # 1: nobody there before brisques: count in turn
        counted = dict(before)
        for i, seat in enumerate(order):  # (each player counts; their side's total decides)
            counted[side(seat)] += m.bris[seat]
            if counted[side(seat)] >= target:
                return side(seat), "first counted" if i == 0 else "later counted"
        return None, "no winner"
    top = [u for u in units if total[u] == max(total.values())]  # 2: the higher total
    if len(top) > 1:  # equal: less this deal's brisques, then the last trick
        top = [u for u in top if before[u] == max(before[x] for x in top)]
        if len(top) > 1:
            return (last, "last trick") if last in top else (None, "?")
        return top[0], "tie"
    return top[0], "reached"


def record(s: State, then: str = "") -> str:
    """The deal and its actions (and ``then``, one more) as a record for ``bezique replay FILE
    --json --legal``."""
    d = deal_record(s)
    if then:
        d["actions"].append(then)
    return json.dumps({"variant": s.rules.variant, "options": s.rules.options(), "deals": [d]})


@dataclass
class Counts:
    steps: int = 0  # positions compared (every action)
    plays: int = 0  # card-play positions compared
    stock_follow: int = 0  # of which a follower's while the stock lasts
    last: int = 0  # of which a follower's in the last tricks
    duty: Counter[str] = field(default_factory=Counter)  # last-trick duties that removed cards
    free: int = 0  # last-trick follows with no duty left (void, no trump that wins)
    shown_plays: int = 0  # plays of a shown card
    twins: int = 0  # engine play actions with the signature of another
    tricks: int = 0
    ties: int = 0  # tricks where an identical card played later lost to the earlier
    ties_last: int = 0  # of which in the last tricks
    ruffs: int = 0  # tricks won by a trump on another suit led
    no_trumps: int = 0  # tricks played with no trumps yet (9.0.2)
    draws: int = 0  # cards drawn
    turnups: int = 0  # turn-ups taken by the last drawer
    seven_turnups: int = 0  # of which a seven (turned up, or exchanged for the turn-up)
    exchanges: int = 0
    sevens: int = 0  # sevens declared
    played_sevens: int = 0  # sevens scored as played (seven = played)
    unscored_exchanges: int = 0  # exchanges of a seven that had scored (no points)
    turnup_sevens: int = 0  # deals whose turn-up was the seven (dix)
    last_bonus: Counter[int] = field(default_factory=Counter)  # last-trick bonuses by points
    duel_tricks: int = 0
    second_duel: int = 0  # tricks of the second duel
    cartes: int = 0
    carte_repeats: int = 0
    cut_right: int = 0
    cut_24: int = 0
    settled: Counter[str] = field(default_factory=Counter)  # 9.0.7 outcomes
    games: Counter[str] = field(default_factory=Counter)  # how 2.6 decided the game
    replays: int = 0
    ended_early: int = 0  # deals ended by end_check = immediate before their last trick
    stock_out: int = 0  # deals whose stock was played out
    played_out: int = 0  # deals played to their last trick
    deals: int = 0


@dataclass
class Model:
    """The oracle's deal: where every card is, whose turn it is, the scores it expects."""

    r: Rules
    sp: Spec
    s: State
    n: Counts
    held: list[int] = field(default_factory=list)  # hand and own table, per seat
    shown: list[int] = field(default_factory=list)
    won: list[int] = field(default_factory=list)
    stock: list[int] = field(default_factory=list)
    pos: int = 0
    turnup: int = -1
    turnup_seven: bool = False  # the turn-up is a seven (dix) of trumps
    scored7: list[int] = field(default_factory=list)  # scored sevens of trumps in each hand
    trump: int = -1
    scores: list[int] = field(default_factory=list)
    bris: list[int] = field(default_factory=list)
    logs: dict[int, list[int]] = field(default_factory=dict)  # each side's meld masks
    trick: list[tuple[int, int]] = field(default_factory=list)  # (seat, physical card)
    done: int = 0  # tricks completed
    turn: int = 0
    phase: str = "lead"
    used: int = 0  # melds (and sevens, when they count) in this declaring turn
    sevened: bool = False  # an exchange or seven in this declaring turn
    duel: tuple[int, ...] = ()  # the two seats of the current duel
    duels_from: int = -1  # the winner of the last stock trick, with duels
    last_win: int = -1  # the winner of the last trick
    deck: int = 0  # every physical card of the deal
    carte: list[str] = field(default_factory=list)  # "first", "on", "off" per seat
    pending: list[bool] = field(default_factory=list)  # a carte repeat may be made now
    dump: list[int] = field(default_factory=list)  # the policy's suit to throw away, per seat
    rich: set[int] = field(default_factory=set)  # a rich deal's cards that meld: kept
    first_out: list[bool] = field(default_factory=list)  # the seat has played a card
    reached: int | None = None  # end_check = immediate: who reached the target (seat or side)

    # ------------------------------------------------------------------ the deal

    def start(self) -> None:
        s, sp, r = self.s, self.sp, self.r
        nseats = sp.players
        assert r.nplayers == nseats and len(s.deal_hands) == nseats, record(s)
        assert all(len(h) == sp.hand for h in s.deal_hands), record(s)
        # the pack (1, 4, 9.0.1, 9.4, 9.5): every card of the ranks, once per pack
        everything = [p for h in s.deal_hands for p in h] + list(s.stock)
        if sp.turnup:
            everything.append(s.turnup_card)
        want = Counter({card(k, t): sp.packs for k in sp.ranks for t in range(4)})
        assert Counter(p & 31 for p in everything) == want, record(s)
        assert len(set(everything)) == len(everything), record(s)
        self.deck = sum(1 << p for p in everything)
        assert (s.turnup_card >= 0) == sp.turnup, record(s)
        self.held = [sum(1 << p for p in h) for h in s.deal_hands]
        self.shown = [0] * nseats
        self.won = [0] * nseats
        self.stock = list(s.stock)
        self.scores = [0] * nseats
        self.bris = [0] * nseats
        self.scored7 = [0] * nseats
        self.turn = (s.dealer + 1) % nseats  # 2.1, 9.0.1: the non-dealer (9.4: left) leads
        self.carte = ["first" if sp.carte else "off"] * nseats
        self.pending = [False] * nseats
        self.first_out = [False] * nseats
        if sp.turnup:
            self.turnup = s.turnup_card
            self.trump = suit(self.turnup)
            if rank(self.turnup) == sp.seven:  # 2.1, 4: 10 for the dealer at once
                self.score(s.dealer, 10)
                self.turnup_seven = True
                self.n.turnup_sevens += 1
        self.phase = "guess" if r.cut_bonus else "lead"

    def score(self, seat: int, points: int) -> None:
        """One scoring event.  With ``end_check = immediate`` the game ends at the first that
        takes a player (in a partnership, a side: 9.5, "side scores add") to the target, and
        nothing scores after it (2.6); the winner is that seat, or that side's number."""
        if self.reached is not None:
            return
        self.scores[seat] += points
        mate = self.mate(seat)
        total = self.scores[seat] + (self.scores[mate] if mate >= 0 else 0)
        if self.r.end_check == "immediate" and total >= self.r.target:
            self.reached = self.side(seat)

    def side(self, seat: int) -> int:
        return seat % 2 if self.sp.players == 4 and self.r.partnership else seat

    def mate(self, seat: int) -> int:
        return (seat + 2) % 4 if self.sp.players == 4 and self.r.partnership else -1

    def stock_gone(self) -> bool:
        return self.pos >= len(self.stock) and self.turnup < 0

    def sevens_held(self, seat: int) -> int:
        if self.sp.seven < 0 or self.trump < 0:
            return 0
        c = card(self.sp.seven, self.trump)
        return sum(1 for p in bits(self.held[seat]) if p & 31 == c)

    def sig(self, seat: int, p: int) -> tuple[Any, ...]:
        """A card to play up to copies that differ in nothing (RULES.md 7, 9.10)."""
        if not self.shown[seat] >> p & 1:
            return (p & 31,)
        log = self.logs.get(self.side(seat), [])
        return (p & 31, tuple(i for i, m in enumerate(log) if m >> p & 1))

    # ------------------------------------------------------------------ what may be done

    def legal_plays(self, seat: int) -> tuple[str, set[tuple[Any, ...]]]:
        """The signatures of the cards ``seat`` may play now, and the duty that decided."""
        cards = list(bits(self.held[seat]))
        if not self.trick or not self.stock_gone():  # leading, or the stock lasts (2.2)
            return "any", {self.sig(seat, p) for p in cards}
        why, ok = duty([p & 31 for p in cards], [p & 31 for _, p in self.trick], self.trump)
        return why, {self.sig(seat, p) for p in cards if p & 31 in ok}

    def may_exchange(self, seat: int) -> bool:
        """2.3: a seven of trumps for a turn-up that is no seven, once per declaring turn."""
        if self.phase != "declare" or self.sevened or not self.sp.turnup or self.turnup < 0:
            return False
        if self.r.seven_counts_as_meld and self.used >= self.r.melds_per_trick:
            return False
        return not self.turnup_seven and self.sevens_held(seat) > 0

    def may_seven(self, seat: int) -> bool:
        """2.3: declare an unscored seven of trumps held (option ``seven = declared``)."""
        if self.phase != "declare" or self.sevened or self.r.seven != "declared":
            return False
        if not self.sp.turnup or self.turnup < 0:
            return False
        if self.r.seven_counts_as_meld and self.used >= self.r.melds_per_trick:
            return False
        return self.sevens_held(seat) > self.scored7[seat]

    def may_carte(self, seat: int) -> bool:
        """9.0.4, 9.10: before the first card, or a repeat before the next play."""
        if self.phase not in ("lead", "follow") or self.stock_gone():
            return False
        if self.carte[seat] == "first":
            return not self.first_out[seat] and not any(
                rank(p) in COURT for p in bits(self.held[seat]))
        return self.carte[seat] == "on" and self.pending[seat]

    # ------------------------------------------------------------------ what happens

    def play(self, seat: int, p: int) -> None:
        assert self.held[seat] >> p & 1, f"a card not held; {at(self, self.s)}"
        self.n.shown_plays += bool(self.shown[seat] >> p & 1)
        self.held[seat] &= ~(1 << p)
        self.shown[seat] &= ~(1 << p)
        self.first_out[seat] = True
        self.pending[seat] = False
        if self.carte[seat] == "first":
            self.carte[seat] = "off"
        stock_trick = not self.stock_gone()
        if stock_trick and self.sp.seven >= 0 and p & 31 == card(self.sp.seven, self.trump):
            if self.r.seven == "played" and self.scored7[seat] == 0:  # 6: scores as played
                self.score(seat, 10)
                self.n.played_sevens += 1
            elif self.scored7[seat]:  # a declared seven goes first
                self.scored7[seat] -= 1
        self.trick.append((seat, p))
        self.phase = "follow"
        order = self.duel or tuple(range(self.sp.players))
        size = len(order)
        self.turn = order[(order.index(seat) + 1) % size]
        if len(self.trick) == size:
            self.trick_won()

    def trick_won(self) -> None:
        n, sp = self.n, self.sp
        cards = [p & 31 for _, p in self.trick]
        i = winning(cards, self.trump)
        win = self.trick[i][0]
        stock_trick = not self.stock_gone()
        n.tricks += 1
        n.no_trumps += self.trump < 0
        n.ruffs += suit(cards[i]) == self.trump != suit(cards[0])
        if any(c == cards[i] for c in cards[i + 1:]):
            n.ties += 1
            n.ties_last += not stock_trick
        mask = sum(1 << p for _, p in self.trick)
        self.won[win] |= mask
        pts = sum(sp.points.get(rank(c), 0) for c in cards)
        self.bris[win] += pts
        self.done += 1
        self.trick = []
        self.turn = self.last_win = win
        last_at = sp.stock_tricks if self.r.last_trick == "stock" else -1
        if self.duel:
            n.duel_tricks += 1
            n.second_duel += self.duel[0] == (self.duels_from + 2) % 4
        ends = self.done == sp.stock_tricks + (2 if self.duel_rule() else 1) * sp.hand
        duel_ends = self.duel_rule() and self.done == sp.stock_tricks + sp.hand
        if self.done == last_at or (last_at < 0 and (ends or duel_ends)):
            self.score(win, sp.last)  # (2.5: "before brisques are counted")
            n.last_bonus[sp.last] += 1
        if self.r.brisques == "immediate" and self.r.settlement != "portland":
            self.score(win, pts)
        if stock_trick:
            self.phase = "declare"
            self.used, self.sevened = 0, False
        elif ends:
            self.phase = "over"
            if self.r.settlement != "portland" and self.r.brisques == "end":
                for k in range(1, sp.players + 1):  # (2.6: from the dealer's left)
                    seat = (self.s.dealer + k) % sp.players
                    self.score(seat, self.bris[seat])
        else:
            self.phase = "lead"
            if duel_ends:  # 9.5: the first winner's partner leads the second duel
                first = (self.duels_from + 2) % 4
                self.duel = (first, (first + 1) % 4)
                self.turn = first

    def duel_rule(self) -> bool:
        return self.sp.players == 4 and self.r.four_hand_end == "duels"

    def draw(self) -> None:
        """2.3, 9.4: the winner draws first, then the others in playing order; the last drawer
        takes the turn-up."""
        win = self.last_win
        nseats = self.sp.players
        for k in range(nseats):
            seat = (win + k) % nseats
            if self.pos < len(self.stock):
                p = self.stock[self.pos]
                self.pos += 1
            else:
                assert k == nseats - 1 and self.turnup >= 0, (
                    f"the turn-up goes to the last drawer; {at(self, self.s)}")
                p, self.turnup = self.turnup, -1
                self.n.turnups += 1
                self.n.seven_turnups += self.turnup_seven
            self.held[seat] |= 1 << p
            self.n.draws += 1
            if self.carte[seat] == "on":  # 9.0.4 b: a repeat after a draw, none after a court
                self.pending[seat] = rank(p) not in COURT
                if rank(p) in COURT:
                    self.carte[seat] = "off"
        if self.stock_gone():  # 2.4: shown cards return to the hand; no carte (9.10)
            self.n.stock_out += 1
            self.shown = [0] * nseats
            self.scored7 = [0] * nseats
            self.pending = [False] * nseats
        self.phase = "lead"
        self.turn = win
        if self.stock_gone() and self.duel_rule():  # 9.5: the first duel
            self.duels_from = win
            self.duel = (win, (win + 1) % 4)


def deal(r: Rules, sp: Spec, seed: int) -> tuple[State, set[int]]:
    """Odd seeds: the engine's shuffle.  Even seeds: twins, every seat holding copies of the
    same cards, with the stock in runs of one card, so that identical cards meet in tricks and
    ties are decided by order.  Where there is carte blanche, every other twin deal is
    court-free, with the stock's low cards first (repeats: high scores on both sides, so that
    9.0.7 settles without a rubicon); in the one-deal games the others are rich: each hand
    holds several bezique pairs, a marriage and low cards, and the rest of the beziques and of
    the suit's A T K Q J top the stock (returned with the deal: the policy keeps them)."""
    n = sp.players
    dealer = seed % n
    rng = random.Random(seed)
    cut = rng.randrange(18, 31) if r.cut_bonus else None  # 9.2: cut_range 18-30
    if seed % 2:
        return State.new_deal(r, seed=seed, dealer=dealer), set()
    pool = Counter({card(k, t): sp.packs for k in sp.ranks for t in range(4)})
    kinds = sorted(pool)
    rng.shuffle(kinds)
    hand: list[int] = []
    focus: set[int] = set()
    carte = sp.carte and seed % 4 == 0
    if carte:
        kinds.sort(key=lambda c: rank(c) in COURT)  # (stable: each part stays shuffled)
        hand = kinds[:sp.hand]
    elif not sp.turnup:
        t = rng.randrange(4)
        q, j = ((card(QUEEN, t), card(JACK, {0: 2, 2: 0, 1: 3, 3: 1}[t]))
                if r.bezique_pair == "trump" else (card(QUEEN, 0), card(JACK, 2)))
        run = [card(k, t) for k in (ACE, TEN, KING, QUEEN, JACK)]
        hand = [q, j] * (sp.packs // 2) + [c for c in run[2:4] if c != q]
        junk = [c for c in kinds if rank(c) in (NINE, EIGHT, SEVEN)]
        hand += junk[:sp.hand - len(hand)]
        focus = {q, j, *run}
    else:
        hand = kinds[:sp.hand]
    hands = [list(hand) for _ in range(n)]
    pool.subtract(Counter(hand * n))
    turnup = None
    if sp.turnup:
        turnup = rng.choice([c for c in kinds if pool[c]])
        pool[turnup] -= 1
    runs = [c for c in kinds if pool[c]]
    rng.shuffle(runs)
    runs.sort(key=lambda c: c not in focus and not (carte and rank(c) not in COURT))
    stock = [c for c in runs for _ in range(pool[c])]
    if focus:  # (no runs here: the leader would win every trick of two identical cards)
        rng.shuffle(stock)
        stock.sort(key=lambda c: c not in focus)
    if carte:  # low cards for 12 to 31 tricks (the scores end near the rubicon), then any
        low = 2 * rng.randrange(12, 32)
        rest = stock[low:]
        rng.shuffle(rest)
        stock[low:] = rest
    return State.from_cards(r, hands, turnup, stock, dealer=dealer, cut=cut), focus


def policy(m: Model, s: State, seat: int, rng: random.Random, actions: list[int]) -> int:
    """Random, with a bent for what stresses the rules: carte blanche, right guesses, exchanges
    and sevens, melds (the largest, most often: high scores reach the settlement's branches),
    identical cards on the best one; while the stock lasts, each seat throws away one plain
    suit and keeps its trumps, so that the last tricks have voids to trump and overtrump."""
    x = rng.random()
    if act.CARTE in actions and x < 0.9:
        return act.CARTE
    if s.phase == "guess":
        guesses = [a for a in actions if act.kind(a) == "guess"]
        right = act.guess_action(s.cut)
        return right if right in guesses and x < 0.4 else rng.choice(guesses)
    if s.phase == "declare":
        if (act.EXCHANGE in actions or act.SEVEN in actions) and x < 0.8:
            return rng.choice([a for a in actions if a in (act.EXCHANGE, act.SEVEN)])
        if act.OFFER in actions and x < 0.9:
            return act.OFFER
        melds = [a for a in actions if act.is_meld(a)]
        if melds and (m.rich or rng.random() < 0.8):
            if m.rich or rng.random() < 0.8:  # (the points of the engine's kind: only for choosing)
                return max(melds, key=lambda a: s.rules.melds[s.classify(a >> 9)].points)
            return rng.choice(melds)
        return act.PASS
    plays = [a for a in actions if act.is_play(a)]
    if m.trick and not (m.rich and not m.stock_gone()):
        best = m.trick[winning([p & 31 for _, p in m.trick], m.trump)][1] & 31
        twins = [a for a in plays if a & 31 == best]
        if twins and x < 0.35:
            return rng.choice(twins)
    if not m.stock_gone():
        if m.rich:  # keep what melds, win tricks to meld: high totals on both sides (9.0.7)
            hidden = [a for a in plays if not m.shown[seat] >> a & 1]
            spare = [a for a in hidden if a & 31 not in m.rich]
            if m.trick:
                led = [p & 31 for _, p in m.trick]
                wins = [a for a in hidden if beats(a & 31, led[winning(led, m.trump)], m.trump)]
                wins = [a for a in wins if a & 31 not in m.rich] or wins
                if wins and x < 0.9:
                    return rng.choice(wins)
            low = [a for a in spare if rank(a) in (NINE, EIGHT, SEVEN)]
            return rng.choice(low or spare or hidden or plays)
        dump = [a for a in plays if suit(a) == m.dump[seat] != m.trump]
        if dump and x < 0.6:
            return rng.choice(dump)
        shown = [a for a in plays if m.shown[seat] >> a & 1]
        if shown and x < (0.65 if m.sp.game else 0.75):
            return rng.choice(shown)
        plain = [a for a in plays if suit(a) != m.trump]
        if plain and x < 0.9:
            return rng.choice(plain)
    elif m.trick:
        trumps = [a for a in plays if suit(a) == m.trump]
        if trumps and x < 0.5:
            return rng.choice(trumps)
    return rng.choice(plays)


def at(m: Model, s: State) -> str:
    """Where the engine and the oracle disagree, and the record that reproduces it (up to the
    action just applied)."""
    return (f"{m.r.variant} {m.r.options()}, trick {m.done + 1}, seat to act "
            f"{s.current_player()}; record: {record(s)}")


def held_masks(s: State) -> list[int]:
    return [h | t for h, t in zip(s.hand_masks, s.shown_masks, strict=True)]


def step(m: Model, s: State, rng: random.Random) -> None:
    """Compare the engine with the oracle before one action, apply one, and follow it."""
    n, sp, r = m.n, m.sp, m.r
    n.steps += 1
    seat = s.current_player()
    assert (s.phase, seat) == (m.phase, m.turn), f"phase and seat: oracle {m.phase} " \
        f"{m.turn}; {at(m, s)}"
    assert held_masks(s) == m.held, f"cards held differ from the oracle's; {at(m, s)}"
    assert list(s.shown_masks) == m.shown, f"shown cards; {at(m, s)}"
    assert list(s.scores) == m.scores, f"scores: oracle {m.scores}; {at(m, s)}"
    assert list(s.brisques) == m.bris, f"brisques: oracle {m.bris}; {at(m, s)}"
    assert s.trump == m.trump, f"trumps: oracle {m.trump}; {at(m, s)}"
    actions = s.legal_actions()
    assert (act.EXCHANGE in actions) == m.may_exchange(seat), f"exchange; {at(m, s)}"
    assert (act.SEVEN in actions) == m.may_seven(seat), f"seven; {at(m, s)}"
    assert (act.CARTE in actions) == m.may_carte(seat), f"carte; {at(m, s)}"
    if m.phase in ("lead", "follow"):
        plays = [a for a in actions if act.is_play(a)]
        why, want = m.legal_plays(seat)
        mine = {m.sig(seat, a) for a in plays}
        n.twins += len(plays) - len(mine)
        if mine != want:
            lacks, extra = want - mine, mine - want
            named = {m.sig(seat, p): s.action_to_string(p) for p in bits(m.held[seat])}
            named.update({m.sig(seat, a): s.action_to_string(a) for a in plays})
            text = named[min(lacks or extra)]
            pytest.fail(f"{r.variant} {r.options()}, trick {m.done + 1}, seat {seat} "
                        f"({why}): the engine lacks {sorted(named[x] for x in lacks)} and "
                        f"also lists {sorted(named[x] for x in extra)}; the last action of this "
                        f"record, {text!r}, is {'refused' if lacks else 'accepted'}, against "
                        f"the oracle: {record(s, text)}")
        n.plays += 1
        if m.trick:
            if m.stock_gone():
                n.last += 1
                if why == "free":
                    n.free += 1
                elif len(want) < len({m.sig(seat, p) for p in bits(m.held[seat])}):
                    n.duty[why] += 1
            else:
                n.stock_follow += 1
    else:
        assert not any(act.is_play(a) for a in actions), at(m, s)
    a = policy(m, s, seat, rng, actions)
    before = held_masks(s)
    events = len(s.events)
    s.apply_action(a)
    after = held_masks(s)
    if act.is_play(a):
        gone = before[seat] & ~after[seat]
        assert gone.bit_count() == 1, at(m, s)
        p = gone.bit_length() - 1
        assert m.sig(seat, p) == m.sig(seat, a), f"played {p} for {a}; {at(m, s)}"
        m.play(seat, p)
    elif act.is_meld(a):
        new = s.events[events:]
        assert all(e[2] == "meld" and e[0] == seat for e in new) and new, at(m, s)
        for e in new:
            m.score(seat, e[1])
        mask = a >> 9
        m.logs.setdefault(m.side(seat), []).append(mask)
        m.shown[seat] |= mask & m.held[seat]
        suits = {suit(p) for p in bits(mask)}
        ranks = {rank(p) for p in bits(mask)}
        if m.trump < 0 and len(suits) == 1 and {KING, QUEEN} <= ranks:  # 9.0.2
            m.trump = suits.pop()
        m.used += 1
    elif a == act.EXCHANGE:
        gone = before[seat] & ~after[seat]
        assert gone.bit_count() == 1 and gone.bit_length() - 1 & 31 == card(sp.seven, m.trump), (
            f"exchange: the seven of trumps should go; {at(m, s)}")
        q = gone.bit_length() - 1
        m.held[seat] = m.held[seat] & ~(1 << q) | 1 << m.turnup
        if m.sevens_held(seat) + 1 > m.scored7[seat]:  # an unscored seven goes (2.3)
            m.score(seat, 10)
        else:
            m.scored7[seat] -= 1
            n.unscored_exchanges += 1
        m.turnup, m.turnup_seven = q, True
        m.sevened = True
        m.used += r.seven_counts_as_meld
        n.exchanges += 1
    elif a == act.SEVEN:
        m.scored7[seat] += 1
        m.score(seat, 10)
        m.sevened = True
        m.used += r.seven_counts_as_meld
        n.sevens += 1
    elif a == act.OFFER:
        m.turn = m.mate(seat)
    elif a == act.PASS:
        m.draw()
    elif a == act.CARTE:
        m.score(seat, sp.carte)
        if m.carte[seat] == "on":
            n.carte_repeats += 1
        n.cartes += 1
        m.carte[seat] = "on" if r.carte_blanche_repeat else "off"
        m.pending[seat] = False
    else:
        assert act.kind(a) == "guess", at(m, s)
        g = a - act.GUESS
        if g == s.cut:  # 9.2: 150 for a right guess, 250 for the dealer if the cut is 24
            m.score((s.dealer + 1) % 2, 150)
            n.cut_right += 1
        if s.cut == 24:
            m.score(s.dealer, 250)
            n.cut_24 += 1
        m.phase = "lead"
    if m.reached is not None and m.phase != "over":  # end_check = immediate (2.6)
        m.phase = "over"
        n.ended_early += 1
    if m.phase == "over":
        assert s.is_terminal(), f"the deal should be over; {at(m, s)}"
    else:
        assert not s.is_terminal(), f"the deal ended early; {at(m, s)}"
    if act.is_play(a) and not m.trick:
        assert s.last_trick_winner == m.last_win, (
            f"trick winner: oracle {m.last_win}; {at(m, s)}")
        assert list(s.won_masks) == m.won, f"cards won; {at(m, s)}"


def finish(m: Model, s: State, rng: random.Random) -> None:
    """The deal's end: scores, and the result of ``replay --json`` with 9.0.7 and 2.6."""
    n, sp, r = m.n, m.sp, m.r
    assert (list(s.scores), list(s.brisques)) == (m.scores, m.bris), (
        f"scores and brisques at the end: oracle {m.scores} {m.bris}; {at(m, s)}")
    played_out = m.done == sp.stock_tricks + (2 if m.duel_rule() else 1) * sp.hand
    n.played_out += played_out
    assert not played_out or (sum(m.won) == m.deck and not any(m.held)), at(m, s)
    if r.settlement == "portland":
        want = settle(m.scores, m.bris if sp.points else [0, 0], sp)
        n.settled["drawn" if want["winner"] is None else "rubicon" if want["rubicon"]
                  else "counted" if want["brisques_counted"] else "plain"] += 1
    winner, how = None, ""
    if r.end_check == "immediate":
        winner, how = m.reached, "reached at once" if m.reached is not None else "no winner"
        assert s.winner == winner, f"2.6: oracle {winner} ({how}); {at(m, s)}"
        n.games[how] += 1
    elif r.settlement != "portland":
        winner, how = game_winner(m)
        assert how == "?" or s.winner == winner, f"2.6: oracle {winner} ({how}); {at(m, s)}"
        n.games[how] += 1
    if rng.random() < 0.25 or r.settlement == "portland":
        got = replay(parse_record(json.loads(record(s))))
        d = got["deals"][0]
        assert d["finished"] and all(x["ok"] for x in d["steps"]), at(m, s)
        assert (d["scores"], d["brisques"], d["last_trick"]) == (
            m.scores, m.bris, m.last_win), at(m, s)
        if r.settlement == "portland":
            assert d["trumps"] == ("SHDC"[m.trump] if m.trump >= 0 else None), at(m, s)
            assert d["result"] == want, (
                f"9.0.7: oracle {want}, replay {d['result']}; {at(m, s)}")
            values = [0, 0]
            if want["winner"] is not None:
                values[want["winner"]] = want["value"]
            assert got["game"]["scores"] == values, at(m, s)
        elif how != "?":
            assert got["game"]["winner"] == winner, at(m, s)
        n.replays += 1


def play_deal(r: Rules, sp: Spec, seed: int, rng: random.Random, n: Counts) -> None:
    s, focus = deal(r, sp, seed)
    m = Model(r, sp, s, n)
    m.start()
    m.dump = [rng.randrange(4) for _ in range(sp.players)]
    m.rich = focus
    while not s.is_terminal():
        step(m, s, rng)
    finish(m, s, rng)
    n.deals += 1


CASES: list[tuple[str, dict[str, Any]]] = [
    ("bezique", {}),
    ("bezique", {"seven": "played", "last_trick": "stock", "brisques": "immediate",
                 "target": 150}),
    ("bezique", {"seven_counts_as_meld": True, "melds_per_trick": 2, "target": 100}),
    ("bezique", {"end_check": "immediate", "brisques": "immediate", "target": 200}),
    ("bezique", {"end_check": "immediate", "target": 150}),
    ("bezique", {"end_check": "immediate", "brisques": "immediate", "last_trick": "stock",
                 "target": 150}),
    ("binocle", {"target": 150}),
    ("rubicon", {}),
    ("rubicon", {"rubicon_brisque_bonus": 320, "carte_blanche_repeat": False}),
    ("sixpack", {}),
    ("sixpack", {"cut_bonus": True, "rubicon_bonus": 2000}),
    ("eightpack", {}),
    ("bezique3", {}),
    ("bezique3", {"target": 120, "brisques": "immediate", "last_trick": "stock"}),
    ("bezique4", {}),
    ("bezique4", {"four_hand_end": "duels", "target": 200}),
    ("bezique4", {"partnership": False, "target": 100}),
    ("bezique4", {"partnership": False, "four_hand_end": "duels"}),
    ("bezique4", {"partnership": False, "four_hand_end": "duels", "brisques": "immediate",
                  "end_check": "immediate", "target": 200}),
    ("bezique4", {"four_hand_end": "duels", "brisques": "immediate", "end_check": "immediate",
                  "target": 300}),
]
IDS = [f"{v}-{'-'.join(f'{k}={x}' for k, x in o.items())}" for v, o in CASES]
DEALS = {"bezique": 200, "binocle": 200, "rubicon": 120, "sixpack": 60, "eightpack": 40,
         "bezique3": 150, "bezique4": 120}


def run(variant: str, options: dict[str, Any], seeds: range) -> Counts:
    sp = spec(Rules.preset(variant, **options))
    return oracle_run(variant, options, seeds,
                      lambda r, seed, rng, n: play_deal(r, sp, seed, rng, n), Counts())


def check(variant: str, options: dict[str, Any], n: Counts) -> None:
    """The deals reached what the test is about."""
    r = Rules.preset(variant, **options)
    sp = spec(r)
    assert n.twins == 0, n
    assert n.last > 100 and n.stock_follow > 100 and n.shown_plays > 10, n
    assert n.duty["follow"] > 10 and n.duty["beat"] > 10 and n.free > 5, n
    assert n.ties > 10 and n.ties_last > 0, n
    assert n.draws > 0, n
    if sp.turnup:
        assert n.turnups == n.stock_out and n.seven_turnups > 0 and n.turnup_sevens > 0, n
        assert n.duty["trump"] > 10 and n.ruffs > 10 and n.exchanges > 5, n
        if r.seven == "played":
            assert n.played_sevens > 5 and n.sevens == 0, n
        else:
            assert n.sevens > 5 and n.unscored_exchanges > 0, n
    else:
        assert n.no_trumps > 10 and n.exchanges == n.sevens == 0, n
    if sp.players > 2 and r.four_hand_end != "duels":
        assert n.duty["overtrump"] > 5, n
    bonuses = 2 if r.four_hand_end == "duels" and sp.players == 4 else 1
    reached = bonuses * (n.stock_out if r.last_trick == "stock" else n.played_out)
    assert set(n.last_bonus) == {sp.last}, n
    duels = r.four_hand_end == "duels" and sp.players == 4
    if r.end_check == "immediate":  # (a game may end on a bonus, before the stock is out)
        assert n.ended_early > 10 and n.played_out > 10 and n.games["reached at once"], n
        assert reached <= n.last_bonus[sp.last] <= reached + n.ended_early, n
        if duels:
            assert n.duel_tricks > 8 * n.played_out and n.second_duel > 0, n
    else:
        assert n.last_bonus[sp.last] == reached, n
        assert n.played_out == n.stock_out == n.deals, n
        if duels:
            assert n.duel_tricks == 16 * n.deals and n.second_duel == 8 * n.deals, n
    if sp.carte:
        assert n.cartes > 0, n
        if r.carte_blanche_repeat:
            assert n.carte_repeats > 0, n
    if r.cut_bonus:
        assert n.cut_right > 0 and n.cut_24 > 0, n
    if r.settlement == "portland":  # 9.0.7: each branch (high scores need carte's repeats)
        assert n.replays == n.deals and sum(n.settled.values()) == n.deals, n
        assert n.settled["rubicon"] > 0, n
        if r.carte_blanche_repeat or not sp.carte:
            assert n.settled["plain"] > 0, n
        if sp.points and r.carte_blanche_repeat:
            assert n.settled["counted"] > 0, n  # brisques saved the rubicon (or decided)
    elif r.end_check == "immediate":
        pass
    elif r.target < 1000:  # 2.6: both steps, and in step 1 the first and a later count
        assert n.games["first counted"] and n.games["later counted"], n
        assert n.games["reached"], n
    else:
        assert n.games["no winner"] == n.deals, n


@pytest.mark.parametrize(("variant", "options"), CASES, ids=IDS)
def test_play_tricks_draws_and_scoring_match_an_independent_reading(
        variant: str, options: dict[str, Any]) -> None:
    check(variant, options, run(variant, options, range(DEALS[variant])))


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "options"), CASES, ids=IDS)
def test_play_tricks_draws_and_scoring_over_many_more_deals(
        variant: str, options: dict[str, Any]) -> None:
    check(variant, options, run(variant, options, range(1000, 1000 + 2 * DEALS[variant])))
