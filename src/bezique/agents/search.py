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
``evaluation=simple`` uses the hand-set :func:`evaluate` and :func:`potential` instead,
``evaluation=net`` the learned value network of :mod:`bezique.learn` on the seat's observation,
``evaluation=blend`` the mean of the network and the fitted evaluation).
Once fewer than ``full_below`` cards are left in the stock the deal is played out, and from
the end phase on it is solved exactly (:mod:`bezique.agents.solver`); in the real end phase
the agent needs no sampling at all.  The heuristic's own choice gets a head start: another
action must beat it by ``prior`` points and by ``confidence`` standard errors of the paired
differences over the worlds, so that noise alone does not make the search depart from sound
play.  A close call with fewer than ``extend_below`` cards left in the stock (where departing
from the heuristic pays, see ``benchmarks/STRENGTH.md``) gets more worlds, up to ``extend``
times ``samples``, for the heuristic's choice and its two best rivals, until the call is clear.

At a table of three or four (RULES.md 9.4, 9.5) the decision is
:class:`~bezique.agents.table_search.TableSearch`'s: worlds for every unseen hand, whole-deal
rollouts of the table heuristic, each side's points (partners' add) less the best other side's,
within :data:`TABLE_MS` milliseconds unless ``ms`` sets another budget.

In the one-deal games (Rubicon, Six-pack, Eight-pack; RULES.md 9.0.7) results are settled
values, not points: a finished deal by its settlement, a solved end phase by the settlement of
its split, a horizon leaf by the expected settlement of both sides' likely totals
(:mod:`bezique.agents.settled`); the solver plays only ends it can finish within its node
budget (the 12- and 15-card ends of Six- and Eight-pack are played by the heuristic until then).

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
of worlds (also set by :meth:`SearchAgent.set_budget`, as the engine protocol's ``budget_ms``;
with a time budget there is no extension: the worlds are already as many as fit);
``extend`` and ``extend_below`` as above (``extend=1``: no extension); ``head=policy`` gives the
head start to the learned policy's top action (:mod:`bezique.learn`) instead of the heuristic's.
:meth:`SearchAgent.set_time_limit` bounds any decision's thinking (the engine protocol sets it
on every ``go``): past 85% of it no more worlds are sampled, however many ``samples`` asks for.
Options are bounded (:data:`MAX_SAMPLES`, :data:`MAX_EXTEND`, :data:`MAX_HORIZON`,
:data:`MAX_MS`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from ..cards import bit_list, card_of
from ..errors import OptionError
from ..observation import Observation
from ..state import LEAD, State
from .base import register_agent
from .endgame import solve
from .evaluation import evaluate as learned_evaluate
from .evaluation import scored32, stock_mask
from .heuristic import TUNED, HeuristicPolicy
from .sampling import WorldSampler
from .settled import is_settled, settled_after_end, settled_estimate, settled_value
from .solver import EndSolver, SolverBudgetError
from .solver_tables import hand_mask
from .table_play import TablePolicy
from .table_search import TableSearch
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


def net_value(blend: bool) -> Callable[[State, int], float]:
    """The horizon value of ``evaluation=net``: the learned value network of
    :mod:`bezique.learn` on the seat's observation of the (sampled) world; ``blend``: the mean
    of it and the fitted :func:`~bezique.agents.evaluation.evaluate`."""
    from ..learn.model import shipped  # (not at the top: bezique.learn imports the agents)

    model = shipped()

    def value(state: State, seat: int) -> float:
        v = model.value(state.observation(seat))
        return 0.5 * (v + learned_evaluate(state, seat)) if blend else v

    return value


class Rollout:
    """Finishes a deal from a state: the heuristic for both seats, the solver at the end."""

    def __init__(self, policy: HeuristicPolicy, solver_cards: int = 8,
                 solver_nodes: int = 50_000, use_random: bool = False,
                 rng: random.Random | None = None, learned: bool = True,
                 value: Callable[[State, int], float] | None = None) -> None:
        self.policy = policy
        self.evaluate: Callable[[State, int], float] = (
            value if value is not None else learned_evaluate if learned else evaluate)
        self.solver_cards = solver_cards
        self.solver_nodes = solver_nodes
        self.use_random = use_random
        self.rng = rng or random.Random(0)
        self._solvers: dict[tuple[object, int], EndSolver] = {}

    def value(self, state: State, seat: int, horizon: int = 0) -> float:
        """The deal result for ``seat`` when both sides play on by the rollout policy; with a
        ``horizon``, play only that many more tricks and add :func:`evaluate` there."""
        policy = self.policy
        stop = state.trick_count + horizon if horizon else 1 << 30
        settled = is_settled(state.rules)  # a one-deal game: valued by its settlement
        while not state.is_terminal():
            if state.trick_count >= stop and state.phase_id == LEAD and not state.end_phase:
                if settled:
                    return settled_estimate(state, seat)
                return self.evaluate(state, seat)
            if state.end_phase:
                exact = self._solve_rest(state, seat, settled)
                if exact is not None:
                    return exact
            a = self.rng.choice(state.legal_actions()) if self.use_random else policy.choose(state)
            state.apply_action(a)
        return settled_value(state, seat) if settled else deal_value(state, seat)

    def _solve_rest(self, state: State, seat: int, settled: bool = False) -> int | None:
        """The exact deal result from an end-phase state, or None if it is too big to solve;
        ``settled``: its settled value (see :mod:`bezique.agents.settled`)."""
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
        copies = state.copies
        me = hand_mask((card_of(p) for p in _bits(hand_me)), copies)
        opp = hand_mask((card_of(p) for p in _bits(state.hand_masks[1 - mover])), copies)
        lead = -1 if state.lead_card < 0 else state.lead_card & 31
        try:
            v = solver.search(me, opp, lead, -(1 << 30), 1 << 30)
        except SolverBudgetError:
            return None
        if settled:
            return settled_after_end(state, seat, v)
        if mover != seat:
            v = -v
        s = state.scores
        diff = s[seat] - s[1 - seat]
        if rules.brisques == "end":
            b = state.brisques
            diff += b[seat] - b[1 - seat]
        return diff + v


_bits = bit_list


MAX_SAMPLES = 5000  # worlds per decision: level 5 uses 400; more would stall a session
MAX_EXTEND = 20  # times the worlds of a close call
MAX_HORIZON = 40  # tricks a rollout plays before the evaluation
MAX_MS = 600_000.0  # milliseconds of a time budget
# at a table of three or four, the thinking time a decision may take when no ``ms`` is set:
# whole-deal rollouts are slow, and the worlds stop at this time or ``samples`` (see
# ``benchmarks/STRENGTH.md``, "Three- and four-handed")
TABLE_MS = 400.0


class SearchAgent:
    """PIMC over sampled worlds with heuristic rollouts and the exact solver."""

    name = "search"

    def __init__(self, seed: int | None = None, samples: int = 60, rollout: str = "heuristic",
                 solver_cards: int = 8, horizon: int = 3, full_below: int = 10,
                 prior: float = 5.0, evaluation: str = "learned",
                 confidence: float = 1.0, infer: float = 0.9, ms: float = 0.0,
                 model: float = 0.0, extend: int = 4, extend_below: int = 26,
                 head: str = "heuristic") -> None:
        if not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
            raise OptionError(
                f"samples must be a whole number from 1 to {MAX_SAMPLES}, not {samples!r:.40}"
            )
        if rollout not in ("heuristic", "tuned", "random"):
            raise OptionError(f"rollout must be heuristic, tuned or random, not {rollout!r}")
        if evaluation not in ("learned", "simple", "net", "blend"):
            raise OptionError(f"evaluation must be learned, simple, net or blend, not "
                              f"{evaluation!r}")
        self.rng = random.Random(seed)
        self.samples = samples
        if not isinstance(horizon, int) or not 0 <= horizon <= MAX_HORIZON:
            raise OptionError(f"horizon must be a whole number of tricks from 0 to "
                              f"{MAX_HORIZON}, not {horizon!r:.40}")
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
        if not isinstance(extend, int) or not 1 <= extend <= MAX_EXTEND:
            raise OptionError(f"extend must be a whole number from 1 to {MAX_EXTEND}, not "
                              f"{extend!r:.40}")
        self.extend = extend
        self.extend_below = int(extend_below)
        if head not in ("heuristic", "policy"):
            raise OptionError(f"head must be heuristic or policy, not {head!r}")
        # the learned policy's scores (a callable: the compiled build needs no type of
        # bezique.learn, which is imported only when asked for)
        self.head: Callable[[Observation], list[float]] | None = None
        if head == "policy":
            from ..learn.model import shipped

            self.head = shipped().scores
        self.ms = 0.0
        self.set_budget(ms)
        self.limit = 0.0  # seconds any decision may take (0: no limit)
        self.last_worlds = 0  # worlds sampled for the last decision that needed any
        self.policy = HeuristicPolicy(solver_cards=0,
                                      params=TUNED if rollout == "tuned" else None)
        self.rollout = Rollout(self.policy, solver_cards=solver_cards,
                               use_random=rollout == "random", rng=random.Random(seed),
                               learned=evaluation == "learned",
                               value=net_value(evaluation == "blend")
                               if evaluation in ("net", "blend") else None)
        # three or four seats (RULES.md 9.4, 9.5): whole-deal rollouts of the table heuristic
        self.table = TableSearch(TablePolicy(self.policy, quick=True), samples, TABLE_MS,
                                 self.prior, self.confidence, potential, horizon,
                                 first=TablePolicy(self.policy))

    def set_budget(self, ms: float) -> None:
        """Think for about ``ms`` milliseconds a decision: sample worlds until the time is up
        (at least two) instead of a fixed number; 0 goes back to ``samples`` worlds."""
        if isinstance(ms, bool) or not isinstance(ms, int | float) or not 0 <= ms <= MAX_MS:
            raise OptionError(f"ms must be a number of milliseconds up to {MAX_MS:.0f}, not "
                              f"{ms!r:.40}")
        self.ms = float(ms)

    def set_time_limit(self, ms: float) -> None:
        """Never think much longer than ``ms`` milliseconds a decision, whatever the number of
        worlds (0: no limit)."""
        self.limit = max(0.0, float(ms)) / 1000.0

    def act(self, obs: Observation) -> str:
        """The action with the best average rollout result over the sampled worlds."""
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        if obs.rules.nplayers > 2:
            return self._table_act(obs)
        if obs.end_phase and obs.phase in ("lead", "follow"):
            try:
                return solve(obs, max_nodes=2_000_000).best
            except SolverBudgetError:
                pass
        cands = candidates(obs)
        if len(cands) == 1:
            return cands[0]
        return self.evaluate(obs)[0]

    def _table_act(self, obs: Observation) -> str:
        """A decision at a table of three or four (:mod:`bezique.agents.table_search`): up to
        ``samples`` worlds within ``ms`` (by default :data:`TABLE_MS`) and the time limit."""
        ms = self.ms or TABLE_MS
        if self.limit:
            ms = min(ms, 850.0 * self.limit)
        self.table.ms = ms
        text = self.table.act(obs, random.Random(self.rng.getrandbits(64)))
        self.last_worlds = self.table.last_worlds
        return text

    def evaluate(self, obs: Observation) -> tuple[str, dict[str, float]]:
        """(best action, average deal result of each legal action over the sampled worlds; an
        action that dropped out of a close call is averaged over the first worlds only)."""
        legal = candidates(obs)
        seat = obs.seat
        # (in the multi-pack games the quick "could have declared" test is too often true
        # for the inference to tell worlds apart: it only slows the sampling)
        infer = 0.0 if is_settled(obs.rules) else self.infer
        sampler = WorldSampler(obs, infer, self.model,
                               HeuristicPolicy(solver_cards=0) if self.model else None)
        rng = random.Random(self.rng.getrandbits(64))
        self.rollout.rng = random.Random(rng.getrandbits(64))
        values: dict[str, list[float]] = {t: [] for t in legal}
        # near the end of the stock the deal is played out (and solved); before, a few tricks
        # and the evaluation, which is far less noisy than the chaos of a whole deal
        horizon = 0 if obs.stock < self.full_below else self.horizon
        first: State | None = None
        # with a time budget: as many worlds as fit in it (the rest of the work is small)
        start = time.perf_counter()
        deadline = start + 0.85 * self.ms / 1000.0 if self.ms else 0.0
        stop = start + 0.85 * self.limit if self.limit else 0.0  # the hard limit
        if stop and (not deadline or stop < deadline):
            deadline = stop
        count = _MAX_WORLDS if self.ms else self.samples
        for i in range(count):
            if deadline and i >= 2 and time.perf_counter() > deadline:
                break
            world = sampler.sample(rng)
            if first is None:
                first = world.clone()
            self._roll(world, legal, values, seat, horizon)
        self.last_worlds = len(values[legal[0]])
        # the heuristic's own choice gets a head start: a noisy estimate must beat it by
        # ``prior`` points, and by ``confidence`` standard errors of the paired differences
        # (the same worlds), before the search departs from sound play
        pick = first.action_to_string(self.policy.choose(first)) if first is not None else ""
        if self.head is not None:  # head=policy: the learned policy's top action instead
            scores = self.head(obs)
            pick = max(zip(scores, obs.legal, strict=True))[1]
        if pick not in values:
            means = _means(values)
            return max(legal, key=lambda t: (means[t], _prefer(t))), means
        # a close call late enough in the stock to matter: more worlds for the heuristic's
        # choice and the best few others, until the call is clear or ``extend`` times as many
        # worlds are in
        if not self.ms and obs.stock < self.extend_below:
            most = self.extend * self.samples
            while self.last_worlds < most:
                if stop and time.perf_counter() > stop:
                    break
                means = _means(values)
                rival = _rival({t: m for t, m in means.items()
                                if len(values[t]) == self.last_worlds}, pick)
                gain, se = _gain(values, pick, rival)
                # stop once the search departs, or once even the upper end of the gain's
                # interval could not make it depart
                if gain <= 0 or gain + self.confidence * se <= self.prior or self._departs(
                        gain, se):
                    break
                top = sorted((t for t in values if t != pick and len(values[t]) ==
                              self.last_worlds), key=lambda t: -means[t])[:_CONTENDERS]
                for _ in range(min(_BATCH, most - self.last_worlds)):
                    self._roll(sampler.sample(rng), [pick, *top], values, seat, horizon)
                self.last_worlds = len(values[pick])
        means = _means(values)
        full = [t for t in values if len(values[t]) == self.last_worlds]
        rival = _rival({t: means[t] for t in full}, pick)
        return (rival if self._departs(*_gain(values, pick, rival)) else pick), means

    def _roll(self, world: State, actions: list[str] | tuple[str, ...],
              values: dict[str, list[float]], seat: int, horizon: int) -> None:
        """Add each action's rollout result in ``world`` to ``values``."""
        for text in actions:
            s = world.clone()
            s.apply(text)
            values[text].append(self.rollout.value(s, seat, horizon))

    def _departs(self, gain: float, se: float) -> bool:
        """Whether a rival's ``gain`` over the heuristic's choice (with its standard error
        ``se``) clears ``prior`` points and ``confidence`` standard errors."""
        return gain > self.prior and gain > self.confidence * se


_BATCH = 30  # worlds added at a time to a close call
_CONTENDERS = 2  # actions besides the heuristic's that a close call keeps sampling


def _gain(values: dict[str, list[float]], pick: str, rival: str) -> tuple[float, float]:
    """(mean gain of ``rival`` over ``pick``, its standard error) over their shared worlds."""
    a, b = values[rival], values[pick]
    # (sum(a, 0.0): mypyc miscompiles sum(a) - sum(b) of float lists as an int subtraction)
    return (sum(a, 0.0) - sum(b, 0.0)) / len(a), _stderr(a, b)


def _means(values: dict[str, list[float]]) -> dict[str, float]:
    """Each action's average result over the worlds it was tried in."""
    return {t: sum(v) / len(v) for t, v in values.items()}


def _rival(means: dict[str, float], pick: str) -> str:
    """The best action other than ``pick`` (declaring before passing on equal averages), or
    ``pick`` itself when there is no other."""
    return max((t for t in means if t != pick), key=lambda t: (means[t], _prefer(t)),
               default=pick)


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
                 confidence: float = 1.0, infer: float = 0.9, ms: float = 0.0,
                 model: float = 0.0, extend: int = 4, extend_below: int = 26,
                 head: str = "heuristic") -> SearchAgent:
    return SearchAgent(seed, samples, rollout, solver_cards, horizon, full_below, prior,
                       evaluation, confidence, infer, ms, model, extend, extend_below, head)
