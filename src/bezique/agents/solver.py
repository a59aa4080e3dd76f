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


class SolverBudgetError(BeziqueError):
    """The solver's node budget ran out before it proved the value."""


class EndSolver:
    """A reusable solver for one rule set and trump suit (its tables are built once)."""

    def __init__(self, rules: Rules, trump: int, max_nodes: int | None = None) -> None:
        self.rules = rules
        self.trump = trump
        self.pts = tuple(rules.card_points[c & 7] for c in range(32))
        self.last_bonus = rules.last_trick_points if rules.last_trick == "final" else 0
        self.tt: dict[int, tuple[int, int, int]] = {}
        self.nodes = 0
        self.max_nodes = max_nodes
        self._reps: dict[int, int] = {}
        # suit masks and "higher than" masks per card
        self._suit = tuple(0xFF << (8 * (c >> 3)) for c in range(32))
        self._higher = tuple(((1 << (c & 7)) - 1) << (8 * (c >> 3)) for c in range(32))
        self._trumps = 0xFF << (8 * trump)

    # ------------------------------------------------------------------ move generation

    def _suit_reps(self, mine: int, block: int) -> int:
        """Representatives among my 8 bits of one suit: one per run of equal-point cards that
        no blocking card (the other side's, or the card led) separates."""
        key = mine << 8 | block
        r = self._reps.get(key)
        if r is not None:
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
        self._reps[key] = out
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

    # ------------------------------------------------------------------ search

    def search(self, me: int, opp: int, lead: int, alpha: int, beta: int) -> int:
        """Value for the player to act holding ``me`` (``lead`` = card led by the other, or -1)."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SolverBudgetError(f"the solver gave up after {self.max_nodes} nodes")
        key = (me << 70) | (opp << 6) | (lead + 1)
        tt = self.tt
        ent = tt.get(key)
        ttmove = -1
        if ent is not None:
            v, flag, ttmove = ent
            if flag == _EXACT:
                return v
            if flag == _LOWER:
                if v >= beta:
                    return v
                if v > alpha:
                    alpha = v
            else:
                if v <= alpha:
                    return v
                if v < beta:
                    beta = v
        a0 = alpha
        best = -_INF
        bestmove = -1
        if lead < 0:
            moves = self._order_lead(me, opp, ttmove)
            for c in moves:
                me2 = _remove(me, c)
                v = -self.search(opp, me2, c, -beta, -alpha)
                if v > best:
                    best, bestmove = v, c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            folded = me & M32
            allow = self._follow_allow(folded, lead)
            reps = self._reps_of(allow, (opp & M32) | (1 << lead))
            moves = self._order_follow(reps, lead, ttmove)
            pts_lead = self.pts[lead]
            for c in moves:
                me2 = _remove(me, c)
                pts = pts_lead + self.pts[c]
                last = me2 == 0
                if last:
                    pts += self.last_bonus
                if self._beats(lead, c):
                    v = pts if last else pts + self.search(me2, opp, -1, alpha - pts, beta - pts)
                else:
                    v = -pts if last else -pts - self.search(opp, me2, -1, -beta - pts,
                                                             -alpha - pts)
                if v > best:
                    best, bestmove = v, c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        if best <= a0:
            flag = _UPPER
        elif best >= beta:
            flag = _LOWER
        else:
            flag = _EXACT
        tt[key] = (best, flag, bestmove)
        return best

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
        """(best card, value) for the player to act; the best card is -1 with an empty hand."""
        if me == 0:
            return -1, 0
        v = self.search(me, opp, lead, -_INF, _INF)
        key = (me << 70) | (opp << 6) | (lead + 1)
        move = self.tt[key][2]
        return move, v


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
