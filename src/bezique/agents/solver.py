"""The exact solver of the last tricks (the end phase, RULES.md 2.4).

Once the stock is gone a card counter knows both hands, so the rest of the deal is a game of
perfect information.  :func:`solve` plays it out by negamax with alpha-beta pruning, a
transposition table and move ordering, on a lean int representation: a hand is a *layered mask*
(bits ``0..31``: cards held at least once, bits ``32..63``: cards held twice, and so on), so
identical copies are one move.  Cards of one suit that no card of the other side separates and
that carry the same points are equivalent (as in a bridge double-dummy solver), so only one of
them is searched.

The value is the points still to be won by the player to act (card points of the tricks they
win, and the last trick's 10 when ``last_trick = final``) less the opponent's, both playing best.

>>> from bezique import Rules
>>> from bezique.cards import parse_card as c
>>> r = Rules.preset("bezique")
>>> # hearts are trumps; to lead: AS 7H against TS 8C: the ace wins the ten (20), then 7H wins
>>> # the last trick (+10): 30 for the leader
>>> solve_hands(r, 1, [c("AS"), c("7H")], [c("TS"), c("8C")]).value
30
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import card_name
from ..errors import BeziqueError
from ..rules import Rules

if TYPE_CHECKING:
    from ..observation import Observation
    from ..state import State

M32 = (1 << 32) - 1
_INF = 1 << 30
_EXACT, _LOWER, _UPPER = 0, 1, 2


@dataclass(frozen=True)
class SolveResult:
    """The best action (text), its value for the player to act, and the work it took."""

    best: str
    value: int
    nodes: int
    ms: float

    def as_dict(self) -> dict[str, object]:
        """The JSON object of ``bezique solve --json``."""
        return {"best": self.best, "value": self.value, "nodes": self.nodes,
                "ms": round(self.ms, 3)}


def hand_mask(cards: Iterable[int], copies: int = 2) -> int:
    """The layered mask of a list of cards (0..31, repeated for copies)."""
    h = 0
    for c in cards:
        for k in range(copies):
            bit = 1 << (32 * k + c)
            if not h & bit:
                h |= bit
                break
        else:
            raise BeziqueError(f"more than {copies} copies of {card_name(c)}")
    return h


def _remove(h: int, c: int) -> int:
    """The hand ``h`` less one copy of card ``c`` (the highest layer holding it)."""
    bit = 1 << c
    k = bit << 32
    while h & k:
        k <<= 32
    return h ^ (k >> 32)


_REP_TABLES: dict[tuple[int, ...], list[int]] = {}
_ORDER_TABLES: dict[tuple[int, ...], list[tuple[int, ...]]] = {}


def _rep_table(points: tuple[int, ...]) -> list[int]:
    """The table of :meth:`EndSolver._suit_reps` for these card points (filled lazily: -1 where
    not computed yet), shared by every solver of the same points."""
    t = _REP_TABLES.get(points)
    if t is None:
        t = _REP_TABLES[points] = [-1] * 65536
    return t


def _order_table(points: tuple[int, ...]) -> list[tuple[int, ...]]:
    """For each 8-bit set of ranks of one suit: its ranks, cheapest first (fewest points, then
    the lowest card): the order a follower tries its cards."""
    t = _ORDER_TABLES.get(points)
    if t is None:
        t = []
        for m in range(256):
            ranks = [r for r in range(8) if m >> r & 1]
            ranks.sort(key=lambda r: (points[r], -r))
            t.append(tuple(ranks))
        _ORDER_TABLES[points] = t
    return t


class SolverBudgetError(BeziqueError):
    """The solver's node budget ran out before it proved the value."""


class EndSolver:
    """A reusable solver for one rule set and trump suit (its tables are built once).

    The search works trick by trick: a node is a position at the start of a trick (the leader's
    hand, the follower's hand), the follower's replies to each lead are searched inside it, and
    only these nodes go to the transposition table, which keeps a lower and an upper bound of
    each position's value (so the null-window searches of the driver, MTD(f), share it).
    ``nodes`` counts these trick nodes.
    """

    def __init__(self, rules: Rules, trump: int, max_nodes: int | None = None) -> None:
        self.rules = rules
        self.trump = trump
        self.pts = tuple(rules.card_points[c & 7] for c in range(32))
        self.last_bonus = rules.last_trick_points if rules.last_trick == "final" else 0
        self.tt: dict[int, tuple[int, int, int]] = {}
        self.nodes = 0
        self.max_nodes = max_nodes
        # suit masks and "higher than" masks per card
        self._suit = tuple(0xFF << (8 * (c >> 3)) for c in range(32))
        self._higher = tuple(((1 << (c & 7)) - 1) << (8 * (c >> 3)) for c in range(32))
        self._trumps = 0xFF << (8 * trump)
        self._shift = 32 * max(rules.copies, 2)
        self._rtab = _rep_table(tuple(rules.card_points))
        self._otab = _order_table(tuple(rules.card_points))

    # ------------------------------------------------------------------ move generation

    def _suit_reps(self, mine: int, block: int) -> int:
        """Representatives among my 8 bits of one suit: one per run of equal-point cards that
        no blocking card (the other side's, or the card led) separates."""
        key = mine << 8 | block
        r = self._rtab[key]
        if r >= 0:
            return r
        pts = self.rules.card_points
        out = 0
        open_ = False
        prev = -1
        for rank in range(8):
            b = block >> rank & 1
            if b:
                open_ = False
            if mine >> rank & 1 and (not open_ or pts[rank] != prev):
                out |= 1 << rank
                prev = pts[rank]
                open_ = True
            if b:
                open_ = False
        self._rtab[key] = out
        return out

    def _reps_of(self, allow: int, block: int) -> int:
        out = 0
        for s in range(4):
            sh = 8 * s
            m = allow >> sh & 0xFF
            if m:
                out |= self._suit_reps(m, block >> sh & 0xFF) << sh
        return out

    def _follow_allow(self, folded: int, lead: int) -> int:
        same = folded & self._suit[lead]
        if same:
            return (same & self._higher[lead]) or same
        return (folded & self._trumps) or folded

    def _beats(self, lead: int, c: int) -> bool:
        if (c ^ lead) & 24 == 0:
            return (c & 7) < (lead & 7)
        return c >> 3 == self.trump

    def _points(self, h: int) -> int:
        """The card points of a layered mask."""
        pts = self.pts
        total = 0
        while h:
            low = h & -h
            total += pts[(low.bit_length() - 1) & 31]
            h ^= low
        return total

    # ------------------------------------------------------------------ search

    def _lead(self, me: int, opp: int, rem: int, alpha: int, beta: int) -> int:
        """Value for the player to lead holding ``me`` against ``opp`` (as many cards), fail-soft
        within (alpha, beta); ``rem`` is the card points of both hands."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SolverBudgetError(f"the solver gave up after {self.max_nodes} nodes")
        pts = self.pts
        if me & (me - 1) == 0:
            # the last trick: one card each
            c = me.bit_length() - 1
            f = opp.bit_length() - 1
            v = pts[c] + pts[f] + self.last_bonus
            if (c ^ f) & 24 == 0:
                return -v if (f & 7) < (c & 7) else v
            return -v if f >> 3 == self.trump else v
        top = rem + self.last_bonus
        if top <= alpha:
            return top
        if -top >= beta:
            return -top
        key = (me << self._shift) | opp
        tt = self.tt
        ent = tt.get(key)
        ttm = -1
        lo = -_INF
        hi = _INF
        if ent is not None:
            lo, hi, ttm = ent
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        a0 = alpha
        # ---- the leads, ordered: the table's move, then cards the other side cannot beat
        # (richest first), then the rest (cheapest first)
        fold = me & M32
        ofold = opp & M32
        rtab = self._rtab
        higher = self._higher
        suit = self._suit
        trumps = self._trumps
        otrumps = ofold & trumps
        reps = 0
        for sh in (0, 8, 16, 24):
            m = fold >> sh & 0xFF
            if m:
                k = m << 8 | (ofold >> sh & 0xFF)
                r = rtab[k]
                if r < 0:
                    r = self._suit_reps(m, ofold >> sh & 0xFF)
                reps |= r << sh
        keys: list[int] = []
        while reps:
            low = reps & -reps
            c = low.bit_length() - 1
            reps ^= low
            if c == ttm:
                keys.append(c)
            elif not ofold & higher[c] and (low & trumps or ofold & suit[c] or not otrumps):
                keys.append((64 - pts[c]) << 8 | (c & 7) << 5 | c)
            else:
                keys.append((128 + pts[c]) << 8 | (7 - (c & 7)) << 5 | c)
        keys.sort()
        best = -_INF
        bestmove = -1
        otab = self._otab
        trump = self.trump
        for kc in keys:
            c = kc & 31
            # me less one copy of c
            k = 1 << (c + 32)
            if me & k:
                k2 = k << 32
                while me & k2:
                    k = k2
                    k2 <<= 32
                me2 = me ^ k
            else:
                me2 = me ^ (1 << c)
            pc = pts[c]
            # the follower's replies: all of them win, or all lose
            sc = c >> 3
            same = ofold & suit[c]
            if same:
                hi_same = same & higher[c]
                if hi_same:
                    allow = hi_same
                    win = True
                else:
                    allow = same
                    win = False
                fs = sc
            elif otrumps:
                allow = otrumps
                win = True
                fs = trump
            else:
                allow = ofold
                win = False
                fs = -1
            block = (me2 & M32) | (1 << c)
            replies: list[int] = []
            if fs >= 0:
                sh = 8 * fs
                m = allow >> sh & 0xFF
                bl = block >> sh & 0xFF
                r = rtab[m << 8 | bl]
                if r < 0:
                    r = self._suit_reps(m, bl)
                for rank in (otab[r][::-1] if win else otab[r]):
                    replies.append(sh + rank)
            else:
                rk: list[int] = []
                for sh in (0, 8, 16, 24):
                    m = allow >> sh & 0xFF
                    if m:
                        bl = block >> sh & 0xFF
                        r = rtab[m << 8 | bl]
                        if r < 0:
                            r = self._suit_reps(m, bl)
                        for rank in otab[r]:
                            rk.append((pts[rank] << 8) | (7 - rank) << 5 | (sh + rank))
                rk.sort()
                for x in rk:
                    replies.append(x & 31)
            worst = _INF
            for f in replies:
                k = 1 << (f + 32)
                if opp & k:
                    k2 = k << 32
                    while opp & k2:
                        k = k2
                        k2 <<= 32
                    opp2 = opp ^ k
                else:
                    opp2 = opp ^ (1 << f)
                p = pc + pts[f]
                b = beta if beta < worst else worst
                if win:
                    v = -p - self._lead(opp2, me2, rem - p, -b - p, -alpha - p)
                else:
                    v = p + self._lead(me2, opp2, rem - p, alpha - p, b - p)
                if v < worst:
                    worst = v
                    if worst <= alpha:
                        break
            if worst > best:
                best = worst
                bestmove = c
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        if best <= a0:
            if best < hi:
                hi = best
            if ttm >= 0:
                bestmove = ttm
        elif best >= beta:
            if best > lo:
                lo = best
        else:
            lo = hi = best
        tt[key] = (lo, hi, bestmove)
        return best

    def _follow(self, me: int, opp: int, lead: int, rem: int, alpha: int, beta: int) -> int:
        """Value for the player following ``lead`` with ``me`` (the leader holds ``opp``, one card
        fewer), fail-soft within (alpha, beta); ``rem`` is the card points of both hands."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SolverBudgetError(f"the solver gave up after {self.max_nodes} nodes")
        best = -_INF
        for c in self._order_follow(self._reps_of(self._follow_allow(me & M32, lead),
                                                  (opp & M32) | (1 << lead)), lead, -1):
            v = self._after_follow(me, opp, lead, c, rem, alpha, beta)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    def _after_follow(self, me: int, opp: int, lead: int, c: int, rem: int, alpha: int,
                      beta: int) -> int:
        """Value for the follower of following ``lead`` with ``c`` (fail-soft in the window)."""
        me2 = _remove(me, c)
        p = self.pts[lead] + self.pts[c]
        win = self._beats(lead, c)
        if me2 == 0:
            p += self.last_bonus
            return p if win else -p
        rem2 = rem - self.pts[c]
        if win:
            return p + self._lead(me2, opp, rem2, alpha - p, beta - p)
        return -p - self._lead(opp, me2, rem2, -beta - p, -alpha - p)

    def _window(self, me: int, opp: int, lead: int, rem: int, alpha: int, beta: int) -> int:
        if lead < 0:
            return self._lead(me, opp, rem, alpha, beta)
        return self._follow(me, opp, lead, rem, alpha, beta)

    def _mtdf(self, me: int, opp: int, lead: int, rem: int, guess: int) -> int:
        """The exact value by a sequence of null-window searches (MTD(f))."""
        lo = -_INF
        hi = _INF
        g = guess
        while lo < hi:
            b = g + 1 if g == lo else g
            g = self._window(me, opp, lead, rem, b - 1, b)
            if g < b:
                hi = g
            else:
                lo = g
        return g

    def _exact(self, me: int, opp: int, lead: int, rem: int) -> int:
        """The exact value."""
        return self._window(me, opp, lead, rem, -_INF, _INF)

    def search(self, me: int, opp: int, lead: int, alpha: int, beta: int) -> int:
        """Value for the player to act holding ``me`` (``lead`` = card led by the other, or -1),
        fail-soft within (alpha, beta); exact for the full window."""
        if me == 0:
            return 0
        rem = self._points(me) + self._points(opp)
        if alpha <= -_INF and beta >= _INF:
            return self._exact(me, opp, lead, rem)
        return self._window(me, opp, lead, rem, alpha, beta)

    def _order_lead(self, me: int, opp: int, ttmove: int) -> list[int]:
        folded = me & M32
        reps = self._reps_of(folded, opp & M32)
        moves = []
        pts = self.pts
        ofold = opp & M32
        trumps = self._trumps
        while reps:
            low = reps & -reps
            c = low.bit_length() - 1
            reps ^= low
            # a card the other side cannot beat (no higher card of its suit, and a plain card
            # only if they hold some of the suit or no trump) is tried first
            higher = ofold & self._higher[c]
            safe = not higher and (c >> 3 == self.trump or ofold & self._suit[c]
                                   or not ofold & trumps)
            moves.append((0 if c == ttmove else 1, 0 if safe else 1, -pts[c] if safe else pts[c],
                          c & 7 if safe else -(c & 7), c))
        moves.sort()
        return [m[-1] for m in moves]

    def _order_follow(self, reps: int, lead: int, ttmove: int) -> list[int]:
        moves = []
        pts = self.pts
        while reps:
            low = reps & -reps
            c = low.bit_length() - 1
            reps ^= low
            win = self._beats(lead, c)
            # cheapest winner first, then cheapest loser
            moves.append((0 if c == ttmove else 1, 0 if win else 1, pts[c], -(c & 7), c))
        moves.sort()
        return [m[-1] for m in moves]

    def best_move(self, me: int, opp: int, lead: int) -> tuple[int, int]:
        """(best card, value) for the player to act; the best card is -1 with an empty hand.

        Of several cards of the best value, the first in the order of :meth:`_order_lead` or
        :meth:`_order_follow` (without a table move) is returned."""
        if me == 0:
            return -1, 0
        rem = self._points(me) + self._points(opp)
        v = self._exact(me, opp, lead, rem)
        if lead < 0:
            for c in self._order_lead(me, opp, -1):
                # the value of leading c is minus the follower's: at least v?
                me2 = _remove(me, c)
                if -self._follow(opp, me2, c, rem - self.pts[c], -v, -v + 1) >= v:
                    return c, v
        else:
            reps = self._reps_of(self._follow_allow(me & M32, lead), (opp & M32) | (1 << lead))
            for c in self._order_follow(reps, lead, -1):
                if self._after_follow(me, opp, lead, c, rem, v - 1, v) >= v:
                    return c, v
        raise AssertionError("no move reaches the value")  # pragma: no cover


def solve_hands(
    rules: Rules,
    trump: int,
    mover: Sequence[int],
    other: Sequence[int],
    lead: int = -1,
    max_nodes: int | None = None,
) -> SolveResult:
    """Solve the end phase from the two hands (cards 0..31); ``lead`` is the card the other
    player has led to the current trick (then ``mover`` follows), or -1 if ``mover`` leads.

    Raises :class:`BeziqueError` if the hands cannot be an end-phase position, and
    :class:`SolverBudgetError` when ``max_nodes`` is exceeded.
    """
    n_me, n_other = len(mover), len(other)
    if n_me == 0:
        raise BeziqueError("the player to act has no card: the deal is over")
    if n_me != n_other + (0 if lead < 0 else 1):
        raise BeziqueError(
            "the leader and the follower must hold as many cards (the follower one more "
            "while a card is led)"
        )
    t0 = time.perf_counter()
    solver = EndSolver(rules, trump, max_nodes)
    me, opp = hand_mask(mover, rules.copies), hand_mask(other, rules.copies)
    move, value = solver.best_move(me, opp, lead)
    ms = (time.perf_counter() - t0) * 1000.0
    return SolveResult("play " + card_name(move), value, solver.nodes, ms)


def end_hands(state: State) -> tuple[list[int], list[int], int]:
    """(hand of the player to act, the other's hand, card led or -1) of an end-phase state."""
    if not state.end_phase:
        raise BeziqueError(
            "the position is not in the end phase: the solver needs the stock to be gone "
            f"({state.stock_left} card(s) and the turn-up still to draw)"
        )
    if state.is_terminal():
        raise BeziqueError("the deal is over: there is nothing left to solve")
    me = state.current_player()
    lead = state.trick_cards()
    return state.hand(me), state.hand(1 - me), (lead[0] if lead else -1)


def obs_hands(obs: Observation) -> tuple[list[int], list[int], int]:
    """(hand of the player to act, the other's hand, card led or -1) derived by card counting
    from an end-phase observation (the other hand is every card this seat has not seen, plus
    the cards of it that are known)."""
    if obs.turnup is not None or obs.stock > 0:
        raise BeziqueError(
            "the position is not in the end phase: the solver needs the stock to be gone "
            f"({obs.stock} card(s) and the turn-up still to draw)"
        )
    if obs.phase == "over":
        raise BeziqueError("the deal is over: there is nothing left to solve")
    mine = list(obs.hand)
    theirs = list(obs.opponent_known) + list(obs.unseen().elements())
    lead = obs.trick[0] if obs.trick else -1
    if obs.turn == obs.seat:
        return mine, theirs, lead
    return theirs, mine, lead


def solve(
    position: State | Observation,
    max_nodes: int | None = None,
) -> SolveResult:
    """Solve the end-phase position of a :class:`State` or an :class:`Observation` (whose
    opponent hand is derived by card counting) for the player to act."""
    from ..state import State

    if isinstance(position, State):
        mover, other, lead = end_hands(position)
        rules, trump = position.rules, position.trump
    else:
        mover, other, lead = obs_hands(position)
        rules, trump = position.rules, position.trump
    return solve_hands(rules, trump, mover, other, lead, max_nodes)
