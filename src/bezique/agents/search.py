"""The search AI: determinized Monte Carlo (perfect-information Monte Carlo, PIMC).

For each decision it samples worlds consistent with its observation
(:mod:`bezique.agents.sampling`), tries every candidate action in every world, plays on with
the heuristic player for both seats (:class:`~bezique.agents.heuristic.HeuristicPolicy`) and
plays the action whose average result (its points less the opponent's) is best.  The same
worlds serve every action, so the comparison is fair.

Whole-deal rollouts are too chaotic in Bezique (one trick won or lost decides whether a 500
meld is ever declared), so while the stock is large a rollout plays only ``horizon`` more
tricks and adds an evaluation: points scored and brisques taken so far, and what each hand is
still worth, with weights fitted to thousands of deals (:mod:`bezique.agents.evaluation`;
``evaluation=simple`` uses the hand-set :func:`evaluate` and :func:`potential` instead).
Once fewer than ``full_below`` cards are left in the stock the deal is played out, and from
the end phase on it is solved exactly (:mod:`bezique.agents.solver`); in the real end phase
the agent needs no sampling at all.  The heuristic's own choice gets a head start: another
action must beat it by ``prior`` points and by ``confidence`` standard errors of the paired
differences over the worlds, so that noise alone does not make the search depart from sound
play.

Options (``search:samples=40,seed=3``): ``samples`` worlds per decision; ``seed``;
``rollout`` = ``heuristic`` (default), ``tuned`` (the heuristic with the numbers
``benchmarks/tune_heuristic.py`` found, :data:`~bezique.agents.heuristic.TUNED`) or ``random``
(weak and fast, for tests); ``horizon``, ``full_below``, ``prior``, ``confidence``,
``evaluation`` as above; ``infer``: how strongly worlds are discounted in which the opponent
passed up points; ``model``: how strongly worlds are discounted in which the opponent's plays
differ from the heuristic's (0, off, by default: it did not measurably help, see
``benchmarks/STRENGTH.md``; both in :class:`~bezique.agents.sampling.WorldSampler`);
``solver_cards``: rollouts reaching the end phase with at most this many cards in hand are
solved exactly; ``ms``: think about this many milliseconds a decision instead of a fixed number
of worlds (also set by :meth:`SearchAgent.set_budget`, as the engine protocol's ``budget_ms``).
"""

from __future__ import annotations

import math
import random
import time

from ..cards import bit_list, card_of
from ..errors import OptionError
from ..observation import Observation
from ..state import LEAD, State
from .base import register_agent
from .evaluation import evaluate as learned_evaluate
from .evaluation import scored32, stock_mask
from .heuristic import TUNED, HeuristicPolicy, _targets
from .sampling import WorldSampler
from .solver import EndSolver, SolverBudgetError, hand_mask, solve


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
    tg = _targets(rules, trump)
    mine = _layers(state._hand[seat] | state._shown[seat], copies)
    pool = _layers(stock_mask(state), copies)
    declare = 0.8 if state._turnup >= 0 else 0.0
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
                 rng: random.Random | None = None, learned: bool = True) -> None:
        self.policy = policy
        self.evaluate = learned_evaluate if learned else evaluate
        self.solver_cards = solver_cards
        self.solver_nodes = solver_nodes
        self.use_random = use_random
        self.rng = rng or random.Random(0)
        self._solvers: dict[tuple[object, int], EndSolver] = {}

    def value(self, state: State, seat: int, horizon: int = 0) -> float:
        """The deal result for ``seat`` when both sides play on by the rollout policy; with a
        ``horizon``, play only that many more tricks and add :func:`evaluate` there."""
        policy = self.policy
        stop = state._tricks + horizon if horizon else 1 << 30
        while not state.is_terminal():
            if state._tricks >= stop and state._phase == LEAD and not state.end_phase:
                return self.evaluate(state, seat)
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


_bits = bit_list


class SearchAgent:
    """PIMC over sampled worlds with heuristic rollouts and the exact solver."""

    name = "search"

    def __init__(self, seed: int | None = None, samples: int = 60, rollout: str = "heuristic",
                 solver_cards: int = 8, horizon: int = 3, full_below: int = 10,
                 prior: float = 5.0, evaluation: str = "learned",
                 confidence: float = 2.0, infer: float = 0.9, ms: float = 0.0,
                 model: float = 0.0) -> None:
        if not isinstance(samples, int) or samples < 1:
            raise OptionError(f"samples must be a positive whole number, not {samples!r}")
        if rollout not in ("heuristic", "tuned", "random"):
            raise OptionError(f"rollout must be heuristic, tuned or random, not {rollout!r}")
        if evaluation not in ("learned", "simple"):
            raise OptionError(f"evaluation must be learned or simple, not {evaluation!r}")
        self.rng = random.Random(seed)
        self.samples = samples
        if not isinstance(horizon, int) or horizon < 0:
            raise OptionError(f"horizon must be a whole number of tricks, not {horizon!r}")
        self.horizon = horizon
        self.full_below = full_below
        self.prior = float(prior)
        self.confidence = float(confidence)
        if not 0.0 <= float(infer) < 1.0:
            raise OptionError(f"infer must be at least 0 and below 1, not {infer!r}")
        self.infer = float(infer)
        if not 0.0 <= float(model) < 1.0:
            raise OptionError(f"model must be at least 0 and below 1, not {model!r}")
        self.model = float(model)
        self.ms = 0.0
        self.set_budget(ms)
        self.last_worlds = 0  # worlds sampled for the last decision that needed any
        self.policy = HeuristicPolicy(solver_cards=0,
                                      params=TUNED if rollout == "tuned" else None)
        self.rollout = Rollout(self.policy, solver_cards=solver_cards,
                               use_random=rollout == "random", rng=random.Random(seed),
                               learned=evaluation == "learned")

    def set_budget(self, ms: float) -> None:
        """Think for about ``ms`` milliseconds a decision: sample worlds until the time is up
        (at least two) instead of a fixed number; 0 goes back to ``samples`` worlds."""
        if isinstance(ms, bool) or not isinstance(ms, int | float) or ms < 0:
            raise OptionError(f"ms must be a number of milliseconds, not {ms!r}")
        self.ms = float(ms)

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
        cands = candidates(obs)
        if len(cands) == 1:
            return cands[0]
        return self.evaluate(obs)[0]

    def evaluate(self, obs: Observation) -> tuple[str, dict[str, float]]:
        """(best action, average deal result of each legal action over the sampled worlds)."""
        legal = candidates(obs)
        seat = obs.seat
        sampler = WorldSampler(obs, self.infer, self.model)
        rng = random.Random(self.rng.getrandbits(64))
        self.rollout.rng = random.Random(rng.getrandbits(64))
        values: dict[str, list[float]] = {t: [] for t in legal}
        # near the end of the stock the deal is played out (and solved); before, a few tricks
        # and the evaluation, which is far less noisy than the chaos of a whole deal
        horizon = 0 if obs.stock < self.full_below else self.horizon
        first: State | None = None
        # with a time budget: as many worlds as fit in it (the rest of the work is small)
        deadline = time.perf_counter() + 0.85 * self.ms / 1000.0 if self.ms else 0.0
        count = _MAX_WORLDS if self.ms else self.samples
        for i in range(count):
            if deadline and i >= 2 and time.perf_counter() > deadline:
                break
            world = sampler.sample(rng)
            if first is None:
                first = world.clone()
            for text in legal:
                s = world.clone()
                s.apply(text)
                values[text].append(self.rollout.value(s, seat, horizon))
        means = {t: sum(v) / len(v) for t, v in values.items()}
        self.last_worlds = len(values[legal[0]])
        # the heuristic's own choice gets a head start: a noisy estimate must beat it by
        # ``prior`` points, and by ``confidence`` standard errors of the paired differences
        # (the same worlds), before the search departs from sound play
        pick = first.action_to_string(self.policy.choose(first)) if first is not None else ""
        if pick in means:
            rival = max((t for t in legal if t != pick), key=lambda t: (means[t], _prefer(t)))
            gain = means[rival] - means[pick]
            if gain <= self.prior or gain <= self.confidence * _stderr(values[rival],
                                                                       values[pick]):
                return pick, means
            return rival, means
        best = max(legal, key=lambda t: (means[t], _prefer(t)))
        return best, means


_MAX_WORLDS = 5000  # a cap on worlds under a time budget


def _stderr(a: list[float], b: list[float]) -> float:
    """Standard error of the mean of the paired differences ``a[i] - b[i]``."""
    n = len(a)
    if n < 2:
        return 0.0
    d = [x - y for x, y in zip(a, b, strict=True)]
    m = sum(d) / n
    var: float = sum((x - m) ** 2 for x in d) / (n - 1) / n
    return math.sqrt(var)


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
def _make_search(seed: int | None = None, samples: int = 60, rollout: str = "heuristic",
                 solver_cards: int = 8, horizon: int = 3, full_below: int = 10,
                 prior: float = 5.0, evaluation: str = "learned",
                 confidence: float = 2.0, infer: float = 0.9, ms: float = 0.0,
                 model: float = 0.0) -> SearchAgent:
    return SearchAgent(seed, samples, rollout, solver_cards, horizon, full_below, prior,
                       evaluation, confidence, infer, ms, model)
