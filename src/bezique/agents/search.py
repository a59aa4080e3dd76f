"""The search AI: determinized Monte Carlo (perfect-information Monte Carlo, PIMC).

For each decision it samples worlds consistent with its observation
(:mod:`bezique.agents.sampling`), tries every legal action in every world, finishes the deal
with the heuristic player for both seats (:class:`~bezique.agents.heuristic.HeuristicPolicy`)
and, once the stock is gone, with the exact solver, and plays the action whose average deal
result (its points less the opponent's) is best.  The same worlds serve every action, so the
comparison is fair.  In the end phase it needs no sampling: the solver plays exactly.

Options (``search:samples=40,seed=3``): ``samples`` worlds per decision; ``seed``;
``rollout`` = ``heuristic`` (default) or ``random`` (a weak, fast rollout, for tests);
``solver_cards``: rollouts that reach the end phase with at most this many cards in hand are
solved exactly, larger ones are played out by the heuristic.
"""

from __future__ import annotations

import random

from ..cards import card_of
from ..errors import OptionError
from ..observation import Observation
from ..state import State
from .base import register_agent
from .heuristic import HeuristicPolicy
from .sampling import WorldSampler
from .solver import EndSolver, SolverBudgetError, hand_mask, solve


def deal_value(state: State, seat: int) -> int:
    """The deal's final points of ``seat`` less the other's (a finished deal)."""
    s = state.scores
    return s[seat] - s[1 - seat]


class Rollout:
    """Finishes a deal from a state: the heuristic for both seats, the solver at the end."""

    def __init__(self, policy: HeuristicPolicy, solver_cards: int = 8,
                 solver_nodes: int = 50_000, use_random: bool = False,
                 rng: random.Random | None = None) -> None:
        self.policy = policy
        self.solver_cards = solver_cards
        self.solver_nodes = solver_nodes
        self.use_random = use_random
        self.rng = rng or random.Random(0)
        self._solvers: dict[tuple[object, int], EndSolver] = {}

    def value(self, state: State, seat: int) -> int:
        """The deal result for ``seat`` when both sides play on by the rollout policy."""
        policy = self.policy
        while not state.is_terminal():
            if state.end_phase:
                exact = self._solve_rest(state, seat)
                if exact is not None:
                    return exact
            a = self.rng.choice(state.legal_actions()) if self.use_random else policy.choose(state)
            state.apply_action(a)
        return deal_value(state, seat)

    def _solve_rest(self, state: State, seat: int) -> int | None:
        """The exact deal result from an end-phase state, or None if it is too big to solve."""
        mover = state._turn
        hand_me = state._hand[mover]
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
        copies = state.copies
        me = hand_mask((card_of(p) for p in _bits(hand_me)), copies)
        opp = hand_mask((card_of(p) for p in _bits(state._hand[1 - mover])), copies)
        lead = -1 if state._lead < 0 else state._lead & 31
        try:
            v = solver.search(me, opp, lead, -(1 << 30), 1 << 30)
        except SolverBudgetError:
            return None
        if mover != seat:
            v = -v
        s = state.scores
        diff = s[seat] - s[1 - seat]
        if rules.brisques == "end":
            b = state.brisques
            diff += b[seat] - b[1 - seat]
        return diff + v


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class SearchAgent:
    """PIMC over sampled worlds with heuristic rollouts and the exact solver."""

    name = "search"

    def __init__(self, seed: int | None = None, samples: int = 24, rollout: str = "heuristic",
                 solver_cards: int = 8) -> None:
        if not isinstance(samples, int) or samples < 1:
            raise OptionError(f"samples must be a positive whole number, not {samples!r}")
        if rollout not in ("heuristic", "random"):
            raise OptionError(f"rollout must be heuristic or random, not {rollout!r}")
        self.rng = random.Random(seed)
        self.samples = samples
        self.policy = HeuristicPolicy(solver_cards=0)
        self.rollout = Rollout(self.policy, solver_cards=solver_cards,
                               use_random=rollout == "random", rng=random.Random(seed))

    def act(self, obs: Observation) -> str:
        """The action with the best average rollout result over the sampled worlds."""
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        if obs.turnup is None and obs.stock == 0 and obs.phase in ("lead", "follow"):
            try:
                return solve(obs, max_nodes=2_000_000).best
            except SolverBudgetError:
                pass
        return self.evaluate(obs)[0]

    def evaluate(self, obs: Observation) -> tuple[str, dict[str, float]]:
        """(best action, average deal result of each legal action over the sampled worlds)."""
        legal = candidates(obs)
        seat = obs.seat
        sampler = WorldSampler(obs)
        rng = random.Random(self.rng.getrandbits(64))
        self.rollout.rng = random.Random(rng.getrandbits(64))
        totals = dict.fromkeys(legal, 0.0)
        for _ in range(self.samples):
            world = sampler.sample(rng)
            for text in legal:
                s = world.clone()
                s.apply(text)
                totals[text] += self.rollout.value(s, seat)
        n = float(self.samples)
        means = {t: v / n for t, v in totals.items()}
        best = max(legal, key=lambda t: (means[t], _prefer(t)))
        return best, means


def candidates(obs: Observation) -> tuple[str, ...]:
    """The actions worth searching: all legal ones, except that passing is dropped when
    something can be scored (a meld, an exchange or a seven gains points and costs nothing:
    melded cards stay playable)."""
    legal = obs.legal
    if obs.phase == "declare" and len(legal) > 1:
        return tuple(t for t in legal if t != "pass")
    return legal


def _prefer(text: str) -> int:
    """Tie-break between equal averages: declare before passing; otherwise no preference."""
    return 0 if text == "pass" else 1


@register_agent("search", "determinized Monte Carlo with heuristic rollouts and an exact endgame")
def _make_search(seed: int | None = None, samples: int = 24, rollout: str = "heuristic",
                 solver_cards: int = 8) -> SearchAgent:
    return SearchAgent(seed, samples, rollout, solver_cards)
