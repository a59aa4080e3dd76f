"""The search's rollouts: finishing a deal from a sampled world, and valuing where it stops.

:class:`Rollout` plays a world on with the heuristic for both seats (or at random), solves the
end phase exactly once the hands are small enough (:mod:`bezique.agents.solver`), and values the
result: the deal's point margin (:func:`deal_value`; at a horizon the learned evaluation of
:mod:`bezique.agents.evaluation`, or the hand-set :func:`evaluate` and :func:`potential`), the
settlement in the one-deal games (:mod:`bezique.agents.settled`), or near the target the chance
of winning the game (:mod:`bezique.agents.game_value`).  With a :attr:`Rollout.deadline` a
rollout gives up (:class:`OutOfTime`) once it passes, and bounds the solver's nodes by the time
left at the solver's measured speed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from ..cards import bit_list, card_of
from ..rules import Rules
from ..state import LEAD, State
from .evaluation import evaluate as learned_evaluate
from .evaluation import scored32, stock_mask
from .game_value import GameFrame, end_value, finished_value, horizon_value
from .heuristic import HeuristicPolicy
from .settled import is_settled, settled_after_end, settled_estimate, settled_value, win_value
from .solver import EndSolver, SolverBudgetError
from .solver_tables import hand_mask
from .targets import meld_targets


def deal_value(state: State, seat: int) -> int:
    """The deal's final points of ``seat`` less the other's (a finished deal)."""
    s = state.scores
    return s[seat] - s[1 - seat]


def _layers(mask: int, copies: int) -> list[int]:
    return [(mask >> (32 * k)) & 0xFFFFFFFF for k in range(copies)]


def _count(layers: list[int], card: int) -> int:
    return sum(lay >> card & 1 for lay in layers)


def potential(state: State, seat: int) -> float:
    """A full-information estimate of what ``seat``'s cards are still worth in points: melds
    not yet scored that its hand can still make from the stock (each missing card must be in the
    stock, and is drawn about half the time), and the trumps and aces that win the last tricks.
    """
    rules = state.rules
    copies = state.copies
    trump = state.trump
    tg = meld_targets(rules, trump)
    mine = _layers(state.hand_masks[seat] | state.shown_masks[seat], copies)
    pool = _layers(stock_mask(state), copies)
    declare = 0.8 if state.turnup_phys >= 0 else 0.0
    value = 0.0
    if declare:
        scored = {(k, m) for k, m in scored32(state, seat)}
        for kind, pts, needs in tg.fixed:
            cards = 0
            p = declare
            held = 0
            for c, n in needs:
                cards |= 1 << c
                k = _count(mine, c)
                held += k
                miss = n - k
                if miss > 0:
                    in_stock = _count(pool, c)
                    if in_stock < miss:
                        p = 0.0
                        break
                    p *= 0.5 ** miss if in_stock == miss else 0.75
            # a meld counts once the hand holds a card of it (a meld wholly in the stock is as
            # much the other player's chance)
            if held and p > 0.02 and (kind, cards) not in scored:
                value += pts * p
        kinds = {k for k, _ in scored}
        for kind, pts, rank, n in tg.fours:
            if kind in kinds:
                continue
            have = 0
            extra = 0
            for suit in range(4):
                c = suit * 8 + rank
                k = _count(mine, c)
                have += min(k, 1) if tg.distinct else k
                if not tg.distinct or not k:
                    extra += min(_count(pool, c), 1 if tg.distinct else 2)
            miss = n - have
            if miss <= 0:
                value += pts * declare
            elif miss <= extra and miss <= 3:
                value += pts * declare * 0.5 ** miss
    pts_of = rules.card_points
    for lay in mine:
        while lay:
            low = lay & -lay
            c = low.bit_length() - 1
            lay ^= low
            r = c & 7
            if c >> 3 == trump:
                value += 4.0 + (4.0 if r <= 1 else 0.0)
            elif r == 0:
                value += 4.0
            value += pts_of[r] * 0.2
    return value


def evaluate(state: State, seat: int) -> float:
    """Full-information value of a state for ``seat``: points scored and brisques taken so far,
    and the potential of both hands (see :func:`potential`), each less the other's."""
    s = state.scores
    diff = float(s[seat] - s[1 - seat])
    if state.rules.brisques == "end" and not state.is_terminal():
        b = state.brisques
        diff += b[seat] - b[1 - seat]
    if state.is_terminal():
        return diff
    return diff + potential(state, seat) - potential(state, 1 - seat)


class Rollout:
    """Finishes a deal from a state: the heuristic for both seats, the solver at the end."""

    def __init__(self, policy: HeuristicPolicy, solver_cards: int = 8,
                 solver_nodes: int = 50_000, use_random: bool = False,
                 rng: random.Random | None = None, learned: bool = True,
                 value: Callable[[State, int], float] | None = None) -> None:
        self.policy = policy
        # the root seat's own later moves, when they are not ``policy``'s (None: they are)
        self.own: HeuristicPolicy | None = None
        # ... or a function choosing them (``rollout=policy``: the learned policy,
        # :mod:`bezique.agents.search_learned`); it overrides :attr:`own`
        self.choose_own: Callable[[State], int] | None = None
        self.evaluate: Callable[[State, int], float] = (
            value if value is not None else learned_evaluate if learned else evaluate)
        self.solver_cards = solver_cards
        self.solver_nodes = solver_nodes
        self.use_random = use_random
        self.rng = rng or random.Random(0)
        self._solvers: dict[tuple[object, int], EndSolver] = {}
        # a clock (perf_counter seconds) past which a rollout gives up (0: none), and the
        # solver's measured speed (nodes a second) that bounds its node budget before it
        self.deadline = 0.0
        self.node_rate = NODE_RATE
        # near the target (see :mod:`bezique.agents.game_value`): leaves are valued by the
        # chance of winning the game, in points-equivalents; None: by the deal's point margin
        self.game: GameFrame | None = None
        # the one-deal games: value horizon leaves by the classic weights instead of the
        # variant's own fit (the search's ``weights=classic``; see bezique.agents.settled)
        self.classic_weights = False
        # ... and settle them by the normal integral instead of the small grid (``settle=normal``)
        self.settle_normal = False
        # ... or value every leaf by the chance of winning the deal only (``settle=win``)
        self.settle_win = False
        # ... and the searching seat's side by the tuples fitted on the search's own games
        # (``weights=search``; :data:`~bezique.agents.evaluation.SEARCH_WEIGHTS`)
        self.search_weights = False

    def value(self, state: State, seat: int, horizon: int = 0) -> float:
        """The deal result for ``seat`` when both sides play on by the rollout policy; with a
        ``horizon``, play only that many more tricks and add :func:`evaluate` there.  With a
        :attr:`game` frame, the chance of winning the game instead, divided by its slope."""
        policy = self.policy
        own = self.own if self.own is not None else policy
        choose_own = self.choose_own
        stop = state.trick_count + horizon if horizon else 1 << 30
        settled = is_settled(state.rules)  # a one-deal game: valued by its settlement
        game = self.game
        deadline = self.deadline
        while not state.is_terminal():
            if deadline and time.perf_counter() > deadline:
                raise OutOfTime
            if state.trick_count >= stop and state.phase_id == LEAD and not state.end_phase:
                if settled:
                    return settled_estimate(state, seat, self.classic_weights,
                                            self.settle_normal, self.settle_win,
                                            self.search_weights)
                if game is not None:
                    return horizon_value(state, seat, game.table) / game.slope
                return self.evaluate(state, seat)
            if state.end_phase:
                exact = self._solve_rest(state, seat, settled)
                if exact is not None:
                    return exact
            if self.use_random:
                a = self.rng.choice(state.legal_actions())
            elif state.turn != seat:
                a = policy.choose(state)
            else:
                a = own.choose(state) if choose_own is None else choose_own(state)
            state.apply_action(a)
        if settled:
            return self._settled(state.rules, settled_value(state, seat))
        if game is not None:
            return finished_value(state, seat, game.table) / game.slope
        return deal_value(state, seat)

    def _settled(self, rules: Rules, value: int) -> float:
        """A decided settled value as this rollout reads it: the value itself, or with
        :attr:`settle_win` only who won (:func:`~bezique.agents.settled.win_value`)."""
        return win_value(rules, value) if self.settle_win else value

    def measured(self, nodes: int, seconds: float) -> None:
        """Update the solver's speed (:attr:`node_rate`) from a solve of ``nodes`` nodes that
        took ``seconds``."""
        if nodes > MIN_NODES:
            self.node_rate = 0.5 * self.node_rate + 0.5 * nodes / max(1e-6, seconds)

    def _solve_rest(self, state: State, seat: int, settled: bool = False) -> float | None:
        """The exact deal result from an end-phase state, or None if it is too big to solve;
        ``settled``: its settled value (see :mod:`bezique.agents.settled`); with a
        :attr:`game` frame, the chance of winning the game (divided by the frame's slope)."""
        mover = state.turn
        hand_me = state.hand_masks[mover]
        if hand_me.bit_count() > self.solver_cards:
            return None
        rules = state.rules
        key = (rules, state.trump)
        solver = self._solvers.get(key)
        if solver is None:
            solver = self._solvers[key] = EndSolver(rules, state.trump)
        if len(solver.tt) > 400_000:
            solver.tt.clear()
        solver.nodes = 0
        solver.max_nodes = self.solver_nodes
        solver.deadline = self.deadline
        t0 = 0.0
        if self.deadline:  # no more nodes than fit before the deadline
            t0 = time.perf_counter()
            fit = int((self.deadline - t0) * self.node_rate * RATE_SAFETY)
            if fit < self.solver_nodes:
                if fit < MIN_NODES:
                    return None
                solver.max_nodes = fit
        copies = state.copies
        me = hand_mask((card_of(p) for p in _bits(hand_me)), copies)
        opp = hand_mask((card_of(p) for p in _bits(state.hand_masks[1 - mover])), copies)
        lead = -1 if state.lead_card < 0 else state.lead_card & 31
        try:
            v = solver.search(me, opp, lead, -(1 << 30), 1 << 30)
        except SolverBudgetError:
            return None
        finally:
            if t0:
                self.measured(solver.nodes, time.perf_counter() - t0)
        if settled:
            return self._settled(rules, settled_after_end(state, seat, v))
        if self.game is not None:
            return end_value(state, seat, v, self.game.table) / self.game.slope
        if mover != seat:
            v = -v
        s = state.scores
        diff = s[seat] - s[1 - seat]
        if rules.brisques == "end":
            b = state.brisques
            diff += b[seat] - b[1 - seat]
        return diff + v


_bits = bit_list


class OutOfTime(Exception):
    """A rollout passed its deadline (:attr:`Rollout.deadline`, or a table search's): the
    world is dropped."""


def roll_each(world: State, actions: Sequence[str], values: dict[str, list[float]],
              value: Callable[[State], float]) -> bool:
    """Add ``value`` of ``world`` after each of ``actions`` to that action's list in
    ``values``; False, and nothing added, when a rollout runs out of time (:class:`OutOfTime`),
    so that every action keeps the same worlds.  (The search's and the table search's worlds
    both go through here.)"""
    done: list[str] = []
    try:
        for text in actions:
            s = world.clone()
            s.apply(text)
            values[text].append(value(s))
            done.append(text)
    except OutOfTime:
        for text in done:
            values[text].pop()
        return False
    return True


# the end solver's speed before it is measured (nodes a second; the pure-Python build's, the
# slower), and the fewest nodes worth starting a solve with
NODE_RATE = 20_000.0
MIN_NODES = 200
RATE_SAFETY = 0.7  # nodes cost more in some positions than the average
