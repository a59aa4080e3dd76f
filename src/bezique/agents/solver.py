"""The exact solver of the last tricks (the end phase, RULES.md 2.4).

Once the stock is gone a card counter knows both hands, so the rest of the deal is a game of
perfect information.  :class:`EndSolver` plays it out by alpha-beta search (its public face,
:func:`bezique.agents.endgame.solve`, takes a state or an observation) on a lean int
representation: a hand is a *layered mask* (bits ``0..31``: cards held at least once, bits
``32..63``: cards held twice, and so on), so identical copies are one move.  Cards of one suit that
no card of the other side separates and that carry the same points are equivalent (as in a bridge
double-dummy solver), so only one of them is searched.

The search goes trick by trick: the transposition table holds, per position at the start of a
trick (the two hands), a lower and an upper bound of its value and its leads in search order;
each node probes its children's bounds before searching them, and the bound of the points still
in play cuts hopeless windows.  The exact value comes from null-window searches only: a quick
guess (both sides playing their first card in search order), steps that double until the value is
bracketed, then halving, on the lattice of values the points allow.  Leads are ordered cards the
other side cannot beat first (richest first), then the rest (cheapest first); a follower that
must win in the suit led tries its dearest winner first, a trump or a losing card its cheapest.
Of several best moves, :meth:`EndSolver.best_move` returns the first in a fixed order (that of the
first version of this solver, which the agents' pinned decisions rely on).

The value is the points still to be won by the player to act (card points of the tricks they
win, and the last trick's 10 when ``last_trick = final``) less the opponent's, both playing best.

>>> from bezique import Rules
>>> from bezique.cards import parse_card as c
>>> r = Rules.preset("bezique")
>>> # hearts are trumps; to lead: AS 7H against TS 8C: the ace wins the ten (20), then 7H wins
>>> # the last trick (+10): 30 for the leader
>>> from bezique.agents.solver_tables import hand_mask
>>> EndSolver(r, 1).best_move(hand_mask([c("AS"), c("7H")]), hand_mask([c("TS"), c("8C")]), -1)[1]
30
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from ..errors import BeziqueError
from ..rules import Rules
from .solver_tables import M32, remove_card, tables

if TYPE_CHECKING:
    pass

_INF = 1 << 30


class SolverBudgetError(BeziqueError):
    """The solver's node budget ran out before it proved the value."""


class EndSolver:
    """A reusable solver for one rule set and trump suit (its tables are built once).

    The search works trick by trick: a node is a position at the start of a trick (the leader's
    hand, the follower's hand), the follower's replies to each lead are searched inside it, and
    only these nodes go to the transposition table ``tt``, which keeps a lower and an upper bound
    of each position's value and its leads in search order.  ``nodes`` counts these trick nodes.
    """

    def __init__(self, rules: Rules, trump: int, max_nodes: int | None = None) -> None:
        self.rules = rules
        self.trump = trump
        self.pts = tuple(rules.card_points[c & 7] for c in range(32))
        self.last_bonus = rules.last_trick_points if rules.last_trick == "final" else 0
        self.tt: dict[int, tuple[int, int, tuple[int, ...]]] = {}
        self.nodes = 0
        self.max_nodes = max_nodes
        # a clock (perf_counter seconds) past which the search gives up (0: none), looked at
        # every 1024 nodes: a node budget set from the measured speed can be too large where
        # nodes cost more than on average
        self.deadline = 0.0
        # suit masks and "higher than" masks per card
        self._suit = tuple(0xFF << (8 * (c >> 3)) for c in range(32))
        self._higher = tuple(((1 << (c & 7)) - 1) << (8 * (c >> 3)) for c in range(32))
        self._trumps = 0xFF << (8 * trump) if trump >= 0 else 0  # (-1: no trumps fixed)
        self._shift = 32 * max(rules.copies, 2)
        self._tab = tables(tuple(rules.card_points))
        self._discards: dict[int, tuple[int, ...]] = {}
        self._gcd = math.gcd(*rules.card_points, self.last_bonus) or 1

    # ------------------------------------------------------------------ move generation

    def _suit_reps(self, mine: int, block: int) -> int:
        return self._tab.suit_reps(mine, block)

    def _reps_of(self, allow: int, block: int) -> int:
        out = 0
        for s in range(4):
            sh = 8 * s
            m = allow >> sh & 0xFF
            if m:
                out |= self._tab.suit_reps(m, block >> sh & 0xFF) << sh
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

    def _leads(self, fold: int, ofold: int) -> tuple[int, ...]:
        """The leads to search, in order, from my cards against the other's (folded masks)."""
        tab = self._tab
        lt = tab.leads
        otrumps = ofold & self._trumps
        trump = self.trump
        keys: list[int] = []
        for s in range(4):
            sh = 8 * s
            m = fold >> sh & 0xFF
            if m:
                ob = ofold >> sh & 0xFF
                idx = (s << 17) | (m << 8) | ob
                if not ob and otrumps and s != trump:
                    idx |= 1 << 16
                t = lt[idx]
                if t is None:
                    t = tab.fill_leads(idx)
                keys += t
        keys.sort()
        return tuple([k & 31 for k in keys])

    def _discard_replies(self, allow: int, block: int) -> tuple[int, ...]:
        """A follower's cards when it can neither follow nor trump: cheapest first."""
        key = allow << 32 | block
        t = self._discards.get(key)
        if t is None:
            tab = self._tab
            pts = tab.points
            keys: list[int] = []
            for s in range(4):
                sh = 8 * s
                m = allow >> sh & 0xFF
                if m:
                    for r in tab.cheap_first(tab.suit_reps(m, block >> sh & 0xFF)):
                        keys.append(pts[r] << 8 | (7 - r) << 5 | (sh + r))
            keys.sort()
            t = self._discards[key] = tuple([k & 31 for k in keys])
        return t

    # ------------------------------------------------------------------ search

    def _lead(self, me: int, opp: int, rem: int, alpha: int, beta: int) -> int:
        """Value for the player to lead holding ``me`` against ``opp`` (as many cards), fail-soft
        within (alpha, beta); ``rem`` is the card points of both hands."""
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
        ent = self.tt.get(key)
        if ent is not None:
            if ent[0] >= beta:
                return ent[0]
            if ent[1] <= alpha:
                return ent[1]
        return self._node(me, opp, rem, alpha, beta, key, ent)

    def _node(self, me: int, opp: int, rem: int, alpha: int, beta: int, key: int,
              ent: tuple[int, int, tuple[int, ...]] | None) -> int:
        """The search of a trick node (more than one card each) that the table's bounds
        ``ent`` (or None) did not settle; ``key`` is its key in the table."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SolverBudgetError(f"the solver gave up after {self.max_nodes} nodes")
        if self.deadline and not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise SolverBudgetError("the solver ran out of time")
        pts = self.pts
        ofold = opp & M32
        if ent is not None:
            lo, hi, leads = ent
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        else:
            lo = -_INF
            hi = _INF
            leads = self._leads(me & M32, ofold)
        tt = self.tt
        shift = self._shift
        bonus = self.last_bonus
        trump = self.trump
        last = me.bit_count() == 2
        fold = me & M32
        topn = rem + bonus
        a0 = alpha
        best = -_INF
        higher = self._higher
        suit = self._suit
        otrumps = ofold & self._trumps
        tsh = 8 * trump if trump >= 0 else 0
        tidx = trump << 17 | (otrumps >> tsh) << 8 if trump >= 0 else 0
        rt = self._tab.replies
        for c in leads:
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
            # my cards left, and the card led, block the follower's equivalences
            block = fold | (1 << c)
            # the follower's replies: all of them win, or all lose
            same = ofold & suit[c]
            if same:
                sh = c & 24
                hs = same & higher[c]
                if hs:
                    # winners of the suit led: dearest first
                    idx = (c >> 3) << 17 | 1 << 16 | (hs >> sh) << 8 | (block >> sh & 0xFF)
                    win = True
                else:
                    idx = (c >> 3) << 17 | (same >> sh) << 8 | (block >> sh & 0xFF)
                    win = False
                r = rt[idx]
                replies = r if r is not None else self._tab.fill_replies(idx)
            elif otrumps:
                # trumps: cheapest first
                idx = tidx | (block >> tsh & 0xFF)
                win = True
                r = rt[idx]
                replies = r if r is not None else self._tab.fill_replies(idx)
            else:
                win = False
                replies = self._discard_replies(ofold, block)
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
                if last:
                    # the last trick follows: one card each, led by the winner of this one
                    lc = (opp2 if win else me2).bit_length() - 1
                    lf = (me2 if win else opp2).bit_length() - 1
                    lv = pts[lc] + pts[lf] + bonus
                    lost = (lf & 7) < (lc & 7) if (lc ^ lf) & 24 == 0 else lf >> 3 == trump
                    lval = -lv if lost else lv
                    v = -p - lval if win else p + lval
                else:
                    crem = rem - p
                    ctop = topn - p
                    if win:
                        ca = -b - p
                        cb = -alpha - p
                        if ctop <= ca:
                            cv = ctop
                        elif -ctop >= cb:
                            cv = -ctop
                        else:
                            ckey = (opp2 << shift) | me2
                            cent: tuple[int, int, tuple[int, ...]] | None = tt.get(ckey)
                            if cent is None:
                                cv = self._node(opp2, me2, crem, ca, cb, ckey, cent)
                            elif cent[0] >= cb:
                                cv = cent[0]
                            elif cent[1] <= ca:
                                cv = cent[1]
                            else:
                                cv = self._node(opp2, me2, crem, ca, cb, ckey, cent)
                        v = -p - cv
                    else:
                        ca = alpha - p
                        cb = b - p
                        if ctop <= ca:
                            cv = ctop
                        elif -ctop >= cb:
                            cv = -ctop
                        else:
                            ckey = (me2 << shift) | opp2
                            cent = tt.get(ckey)
                            if cent is None:
                                cv = self._node(me2, opp2, crem, ca, cb, ckey, cent)
                            elif cent[0] >= cb:
                                cv = cent[0]
                            elif cent[1] <= ca:
                                cv = cent[1]
                            else:
                                cv = self._node(me2, opp2, crem, ca, cb, ckey, cent)
                        v = p + cv
                if v < worst:
                    worst = v
                    if worst <= alpha:
                        break
            if worst > best:
                best = worst
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        if best <= a0:
            if best < hi:
                hi = best
        elif best >= beta:
            if best > lo:
                lo = best
        else:
            lo = hi = best
        tt[key] = (lo, hi, leads)
        return best

    def _follow(self, me: int, opp: int, lead: int, rem: int, alpha: int, beta: int) -> int:
        """Value for the player following ``lead`` with ``me`` (the leader holds ``opp``, one card
        fewer), fail-soft within (alpha, beta); ``rem`` is the card points of both hands."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SolverBudgetError(f"the solver gave up after {self.max_nodes} nodes")
        if self.deadline and not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise SolverBudgetError("the solver ran out of time")
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
        me2 = remove_card(me, c)
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

    def _estimate(self, me: int, opp: int, lead: int) -> int:
        """A quick guess at the value: both sides play the first card of their search order."""
        pts = self.pts
        sign = 1
        total = 0
        if lead >= 0:
            # the follower's first reply
            reps = self._reps_of(self._follow_allow(me & M32, lead), (opp & M32) | (1 << lead))
            f = self._order_follow(reps, lead, -1)[0]
            me = remove_card(me, f)
            p = pts[lead] + pts[f] + (self.last_bonus if me == 0 else 0)
            if self._beats(lead, f):
                total += p
            else:
                total -= p
                sign = -1
                me, opp = opp, me
        while me:
            c = self._leads(me & M32, opp & M32)[0]
            me = remove_card(me, c)
            reps = self._reps_of(self._follow_allow(opp & M32, c), (me & M32) | (1 << c))
            f = self._order_follow(reps, c, -1)[0]
            opp = remove_card(opp, f)
            p = pts[c] + pts[f] + (self.last_bonus if me == 0 else 0)
            if self._beats(c, f):
                total -= sign * p
                sign = -sign
                me, opp = opp, me
            else:
                total += sign * p
        return total

    def _exact(self, me: int, opp: int, lead: int, rem: int) -> int:
        """The exact value, by null-window searches on the lattice of possible values (all of
        the form ``2 * k * G - total``, ``G`` the gcd of the points): from a quick guess, steps
        that double until the value is bracketed, then halving."""
        total = rem + self.last_bonus + (self.pts[lead] if lead >= 0 else 0)
        step = 2 * self._gcd
        lo = -total
        hi = total - (2 * total) % step
        t = self._estimate(me, opp, lead)
        delta = 4 * step
        below = above = False
        while lo < hi:
            if below and above:
                t = (lo + hi) // 2 + 1
            t += -(t + total) % step
            if t <= lo:
                t = lo + step
            elif t > hi:
                t = hi
            g = self._window(me, opp, lead, rem, t - 1, t)
            if g >= t:
                lo = g + -(g + total) % step
                below = True
                t = lo + delta
            else:
                hi = g - (g + total) % step
                above = True
                t = hi - delta + 1
            delta *= 2
        return lo

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
                me2 = remove_card(me, c)
                if -self._follow(opp, me2, c, rem - self.pts[c], -v, -v + 1) >= v:
                    return c, v
        else:
            reps = self._reps_of(self._follow_allow(me & M32, lead), (opp & M32) | (1 << lead))
            for c in self._order_follow(reps, lead, -1):
                if self._after_follow(me, opp, lead, c, rem, v - 1, v) >= v:
                    return c, v
        raise AssertionError("no move reaches the value")  # pragma: no cover
