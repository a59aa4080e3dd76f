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

Near the target of a game played to one (two seats; RULES.md 2.6) the search plays for the game,
not the deal: once a side could reach the target in this deal, its leaves are valued by the
chance of winning the game (:mod:`bezique.agents.game_value`: decided at the deal's end by the
rules, otherwise a table of P(win | points each side still needs)), scaled to points by the
table's slope so that ``prior`` keeps its meaning; far from the target, by the deal's points as
ever.  The rollouts themselves are in :mod:`bezique.agents.rollout`.

At a table of three or four (RULES.md 9.4, 9.5) the decision is
:class:`~bezique.agents.table_search.TableSearch`'s: worlds for every unseen hand, whole-deal
rollouts of the table heuristic, each side's points (partners' add) less the best other side's,
up to :data:`TABLE_WORLDS` times ``samples`` worlds within :data:`TABLE_MS` milliseconds unless
``ms`` sets another budget; near the game's target it too plays for the game
(:mod:`bezique.agents.table_game`).

In the one-deal games (Rubicon, Six-pack, Eight-pack; RULES.md 9.0.7) results are settled
values, not points: a finished deal by its settlement, a solved end phase by the settlement of
its split, a horizon leaf by the expected settlement of both sides' likely totals
(:mod:`bezique.agents.settled`, with the weights and spread fitted to the variant's own
deals, :data:`~bezique.agents.evaluation.VARIANT_WEIGHTS`; ``weights=classic``: the classic
weights instead, as before that fit; ``weights=search``: the searching seat's side and the
other's each by the tuple fitted on the search's own games against the heuristic,
:data:`~bezique.agents.evaluation.SEARCH_WEIGHTS`, where the variant has them), settled
over a small grid of totals, or with ``settle=normal`` by the settlement integrated over their
normal distribution (smooth in the lead, and a better predictor of the settlement, but not yet
a measured gain in play: see ``benchmarks/STRENGTH.md``); the solver plays only ends it can
finish within its node budget (the 12- and 15-card ends of Six- and Eight-pack are played by
the heuristic until then).

Its options (``search:samples=40,seed=3``), what each does, their bounds and what ``auto``
stands for in each variant are in :mod:`bezique.agents.search_options`.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable

from ..cards import card_name
from ..errors import OptionError
from ..observation import Observation
from ..rules import Rules
from ..state import State
from .base import register_agent, require_turn
from .endgame import obs_hands, solve
from .game_value import GameFrame
from .heuristic import HeuristicPolicy, tuned_params
from .holdings import card_weights
from .rollout import (
    MIN_NODES,
    RATE_SAFETY,
    Rollout,
    deal_value,
    evaluate,
    potential,
    roll_each,
)
from .sampling import WorldSampler
from .search_learned import LearnedWeights, net_value, search_label
from .search_options import (
    MAX_EXTEND,
    MAX_HORIZON,
    MAX_MS,
    MAX_SAMPLES,
    choice,
    confidence_of,
    setting,
    whole,
)
from .settled import is_settled
from .solver import EndSolver, SolverBudgetError
from .solver_tables import hand_mask
from .table_play import TablePolicy
from .table_search import TableSearch

# (the rollouts and their leaf values live in :mod:`bezique.agents.rollout`; these names are
# kept here for the code and the benchmarks that import them from the search)
__all__ = ["Rollout", "SearchAgent", "candidates", "deal_value", "evaluate", "potential"]


# the share of the time budget after which a decision stops: sampling new worlds; rollouts
# (an unfinished world is dropped; what is left is the cheap choice from the averages)
_SAMPLE_SHARE = 0.85
_HARD_SHARE = 0.92


# infer=auto in the classic family: how strongly a world is discounted for each time the
# opponent won a trick and passed though it could have declared (``WorldSampler``)
_INFER = 0.9
# at a table of three or four, the thinking time a decision may take when no ``ms`` is set:
# whole-deal rollouts are slow, and the worlds stop at this time or ``samples`` (see
# ``benchmarks/STRENGTH.md``, "Three- and four-handed")
TABLE_MS = 400.0
# ... and the table's worlds are at most this many times ``samples``: 120 worlds by default won
# 67% of partnership deals against the heuristic where 60 won about 62% (STRENGTH.md)
TABLE_WORLDS = 2


class SearchAgent:
    """PIMC over sampled worlds with heuristic rollouts and the exact solver."""

    name = "search"

    def __init__(self, seed: int | None = None, samples: int = 60, rollout: str = "auto",
                 solver_cards: int = 8, horizon: int = 3, full_below: int = 10,
                 prior: float = 5.0, evaluation: str = "learned",
                 confidence: float | str = 1.0, infer: float | str = "auto", ms: float = 0.0,
                 model: float = 0.0, extend: int = 4, extend_below: int = 26,
                 head: str = "heuristic", weights: str = "variant",
                 settle: str = "auto", wait: int = 0, game: int = 1,
                 hands: str = "auto", net: str | float = "") -> None:
        choice("rollout", rollout, ("auto", "heuristic", "tuned", "own", "policy", "random"))
        choice("evaluation", evaluation, ("learned", "simple", "net", "blend"))
        choice("weights", weights, ("variant", "classic", "search"))
        # the settings asked for; auto is resolved for each decision's variant (setting())
        self.asked = {"rollout": rollout,
                      "settle": choice("settle", settle, ("auto", "grid", "normal", "win")),
                      "hands": choice("hands", hands, ("auto", "uniform", "kept"))}
        self.rng = random.Random(seed)
        self.samples = whole("samples", samples, 1, MAX_SAMPLES)
        self.horizon = whole("horizon", horizon, 0, MAX_HORIZON)
        self.full_below = full_below
        self.prior = float(prior)
        self.confidence = confidence_of(confidence)
        # infer=auto: 0.9 in the two-handed classic family, off in the one-deal games; a
        # number applies in every variant
        if infer != "auto" and (isinstance(infer, str | bool) or not 0.0 <= float(infer) < 1.0):
            raise OptionError(f"infer must be auto or at least 0 and below 1, not {infer!r:.40}")
        self.infer = -1.0 if infer == "auto" else float(infer)
        if not 0.0 <= float(model) < 1.0:
            raise OptionError(f"model must be at least 0 and below 1, not {model!r}")
        self.model = float(model)
        self.extend = whole("extend", extend, 1, MAX_EXTEND)
        self.extend_below = int(extend_below)
        self.wait = bool(choice("wait", wait, (0, 1)))
        self.play_for_game = bool(choice("game", game, (0, 1)))
        choice("head", head, ("heuristic", "policy"))
        # the learned policy's scores (a callable: the compiled build needs no type of
        # bezique.learn, which is imported only when asked for)
        self.head: Callable[[Observation], list[float]] | None = None
        # net=FILE: the learned weights of head=policy, rollout=policy and evaluation=net
        # (a run of ``bezique train``, read once; by default the weights shipped for the
        # variant; a number is taken as a file name too, so that it is refused as one)
        self.learned = LearnedWeights(str(net))
        if head == "policy":
            self.head = self.learned.model().scores
        # weights learned from one variant's deals are refused for another's at each decision
        self.uses_net = head == "policy" or evaluation in ("net", "blend")
        self.ms = 0.0
        self.set_budget(ms)
        self.limit = 0.0  # seconds any decision may take (0: no limit)
        self.last_worlds = 0  # worlds sampled for the last decision that needed any
        # the last decision's average result of each candidate (empty when it needed no
        # worlds: one candidate, the solver's move): what ``bezique train --soft`` learns from
        self.last_means: dict[str, float] = {}
        self.sample_s = 0.0  # seconds a world takes to sample (a moving average)
        self.world_s = 0.0  # seconds a world takes to sample and roll out (a moving average)
        self.late_s = 0.0  # how late decisions finish past their planned end (a moving average)
        self.policy = HeuristicPolicy(solver_cards=0)
        # rollout=tuned / own: the variant's tuned numbers (heuristic.tuned_params) for both
        # seats, or for the search's own seat only; a policy per variant, made when first met
        self._tuned: dict[str, HeuristicPolicy] = {}
        self.rollout = Rollout(self.policy, solver_cards=solver_cards,
                               use_random=rollout == "random", rng=random.Random(seed),
                               learned=evaluation == "learned",
                               value=net_value(evaluation == "blend", self.learned.model())
                               if evaluation in ("net", "blend") else None)
        self.rollout.classic_weights = weights == "classic"
        self.rollout.search_weights = weights == "search"
        self.rollout.settle_normal = settle == "normal"
        self.rollout.settle_win = settle == "win"  # (auto: set at each decision)
        # three or four seats (RULES.md 9.4, 9.5): whole-deal rollouts of the table heuristic,
        # up to TABLE_WORLDS times ``samples`` worlds (the clock usually stops them first)
        self.table = TableSearch(TablePolicy(self.policy, quick=True), TABLE_WORLDS * samples,
                                 TABLE_MS, self.prior, self.confidence, potential, horizon,
                                 first=TablePolicy(self.policy), game=self.play_for_game)

    def inference(self, rules: Rules) -> float:
        """How strongly this search discounts worlds for the opponent's passes in ``rules``'
        variant (``infer``; ``auto``: 0.9 in the classic family, 0 in the one-deal games).

        >>> from bezique import Rules
        >>> a = SearchAgent()
        >>> a.inference(Rules.preset("bezique")), a.inference(Rules.preset("rubicon"))
        (0.9, 0.0)
        >>> SearchAgent(infer=0.95).inference(Rules.preset("rubicon"))
        0.95
        """
        # (auto is off in the one-deal games: early in their deals almost every world could
        # have declared something, so the passes tell worlds apart only late)
        if self.infer >= 0:
            return self.infer
        return 0.0 if is_settled(rules) else _INFER

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

    def budget(self) -> float:
        """The seconds a decision may take: the smaller of ``ms`` and the time limit (0: no
        clock)."""
        b = self.ms / 1000.0
        if self.limit and (not b or self.limit < b):
            b = self.limit
        return b

    def _planned(self, budget: float) -> float:
        """The seconds a decision plans to think within ``budget``: less by how late
        decisions have been finishing (:attr:`late_s`: on a busy machine the last steps
        after the deadline take longer), at least half of it."""
        return budget - min(self.late_s, 0.5 * budget)

    def act(self, obs: Observation) -> str:
        """The action with the best average rollout result over the sampled worlds."""
        require_turn(obs)
        if self.uses_net and obs.rules.nplayers == 2:
            self.learned.model(obs.rules.variant)
        start = time.perf_counter()
        # no cycle collection while the clock runs (a full collection in a large process takes
        # a tenth of a second, more than a short budget allows): it is held off before anything
        # is allocated, and runs at the first allocation after the decision, outside its time
        collecting = gc.isenabled()
        gc.disable()
        try:
            text = self._act(obs, start)
        finally:
            if collecting:
                gc.enable()
        budget = self.budget()
        if obs.rules.nplayers > 2:
            budget = budget or TABLE_MS / 1000.0
        if budget:  # how late the decision finished against its planned end
            over = time.perf_counter() - start - _HARD_SHARE * budget
            self.late_s = max(0.0, 0.7 * self.late_s + 0.3 * over)
        return text

    def _act(self, obs: Observation, start: float) -> str:
        self.last_means = {}
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        if obs.rules.nplayers > 2:
            return self._table_act(obs, start)
        if obs.end_phase and obs.phase in ("lead", "follow"):
            best = self._solve_end(obs, start)
            if best is not None:
                return best
        cands = candidates(obs, self.wait)
        if len(cands) == 1:
            return cands[0]
        text, self.last_means = self.evaluate(obs, start)
        return text

    def _solve_end(self, obs: Observation, start: float) -> str | None:
        """The exact solver's move in the real end phase, or None when it does not finish:
        within 2,000,000 nodes, and with a clock within :data:`_SOLVE_SHARE` of it (node
        budgets that double while the time lasts, the solver's table kept between them).
        (Its point margin is the game's measure too: the end phase shares out a fixed sum of
        points, so more for one side is less for the other.)"""
        budget = self.budget()
        if not budget:
            try:
                return solve(obs, max_nodes=_END_NODES).best
            except SolverBudgetError:
                return None
        mover, other, lead = obs_hands(obs)
        copies = obs.rules.copies
        solver = EndSolver(obs.rules, obs.trump)
        me, opp = hand_mask(mover, copies), hand_mask(other, copies)
        stop = start + _SOLVE_SHARE * self._planned(budget)
        solver.deadline = stop
        nodes = MIN_NODES
        rollout = self.rollout
        while True:
            now = time.perf_counter()
            fit = int((stop - now) * rollout.node_rate * RATE_SAFETY)
            nodes = min(_END_NODES, 4 * nodes, fit)
            if nodes < MIN_NODES:
                return None
            solver.nodes = 0
            solver.max_nodes = nodes
            try:
                return "play " + card_name(solver.best_move(me, opp, lead)[0])
            except SolverBudgetError:
                if nodes >= _END_NODES:
                    return None
            finally:
                rollout.measured(solver.nodes, time.perf_counter() - now)

    def _table_act(self, obs: Observation, start: float) -> str:
        """A decision at a table of three or four (:mod:`bezique.agents.table_search`): up to
        :data:`TABLE_WORLDS` times ``samples`` worlds within ``ms`` (by default
        :data:`TABLE_MS`) and the time limit."""
        ms = self.ms or TABLE_MS
        if self.limit:
            ms = min(ms, 1000.0 * self.limit)
        self.table.ms = 1000.0 * self._planned(ms / 1000.0)
        text = self.table.act(obs, random.Random(self.rng.getrandbits(64)), start)
        self.last_worlds = self.table.last_worlds
        return text

    def evaluate(self, obs: Observation, start: float = 0.0) -> tuple[str, dict[str, float]]:
        """(best action, average deal result of each legal action over the sampled worlds; an
        action that dropped out of a close call is averaged over the first worlds only).
        With a clock (:meth:`budget`, counted from ``start``, by default now) no world is
        begun after :data:`_SAMPLE_SHARE` of it and none finished after :data:`_HARD_SHARE`
        (its rollouts are dropped); with no world finished, the heuristic's choice."""
        if not start:
            start = time.perf_counter()
        budget = self._planned(self.budget())
        self.rollout.deadline = start + _HARD_SHARE * budget if budget else 0.0
        try:
            return self._evaluate(obs, start, budget)
        finally:
            self.rollout.deadline = 0.0

    def _evaluate(self, obs: Observation, start: float,
                  budget: float) -> tuple[str, dict[str, float]]:
        legal = candidates(obs, self.wait)
        seat = obs.seat
        infer = self.inference(obs.rules)
        # the search's own sound play: the heuristic, or with rollout=tuned / own the variant's
        # tuned numbers (its head start, and its later moves in the rollouts)
        mode = self.mode(obs.rules.variant)
        mine = self._own_policy(obs.rules.variant, mode)
        self.rollout.policy = self.policy if mode == "own" else mine
        self.rollout.own = mine if mode == "own" else None
        self.rollout.choose_own = (self.learned.chooser(obs.rules.variant)
                                   if mode == "policy" else None)
        settle = self.setting("settle", obs.rules.variant)
        self.rollout.settle_normal = settle == "normal"
        self.rollout.settle_win = settle == "win"
        kept = self.setting("hands", obs.rules.variant) == "kept"
        sampler = WorldSampler(obs, infer, self.model,
                               HeuristicPolicy(solver_cards=0) if self.model else None,
                               card_weights(obs.rules, obs.trump, obs.stock) if kept else None)
        rng = random.Random(self.rng.getrandbits(64))
        self.rollout.rng = random.Random(rng.getrandbits(64))
        # near the target: play for the game (None far from it: the deal's point margin)
        self.rollout.game = GameFrame.of(obs) if self.play_for_game else None
        values: dict[str, list[float]] = {t: [] for t in legal}
        # near the end of the stock the deal is played out (and solved); before, a few tricks
        # and the evaluation, which is far less noisy than the chaos of a whole deal
        horizon = 0 if obs.stock < self.full_below else self.horizon
        first: State | None = None
        # with a time budget: as many worlds as fit in it (the rest of the work is small)
        deadline = stop = start + _SAMPLE_SHARE * budget if budget else 0.0
        count = _MAX_WORLDS if self.ms else self.samples
        hard = self.rollout.deadline
        for i in range(count):
            if deadline:
                now = time.perf_counter()
                # (after the first, no world is begun that would likely not end in time)
                if (i >= 2 and now > deadline) or (i and now + self.world_s > hard):
                    break
            # (the first world, which gives the heuristic's choice, within half the time)
            world = self._sample(sampler, rng, start + 0.5 * budget if i == 0 and budget
                                 else deadline)
            if first is None:
                first = world.clone()
            if not self._roll(world, legal, values, seat, horizon):
                break  # out of time
            if deadline:
                now, was = time.perf_counter(), now
                self.world_s = 0.7 * self.world_s + 0.3 * (now - was)
        self.last_worlds = len(values[legal[0]])
        # the heuristic's own choice gets a head start: a noisy estimate must beat it by
        # ``prior`` points, and by ``confidence`` standard errors of the paired differences
        # (the same worlds), before the search departs from sound play
        pick = first.action_to_string(mine.choose(first)) if first is not None else ""
        if self.head is not None:  # head=policy: the learned policy's top action instead
            scores = self.head(obs)
            pick = max(zip(scores, obs.legal, strict=True))[1]
        if not self.last_worlds:  # not one world in time: the heuristic's choice
            return (pick if pick in values else legal[0]), {}
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
                    if stop and time.perf_counter() + self.world_s > hard:
                        break
                    if not self._roll(self._sample(sampler, rng, stop), [pick, *top], values, seat,
                                      horizon):
                        break
                self.last_worlds = len(values[pick])
        means = _means(values)
        full = [t for t in values if len(values[t]) == self.last_worlds]
        rival = _rival({t: means[t] for t in full}, pick)
        return (rival if self._departs(*_gain(values, pick, rival)) else pick), means

    def setting(self, name: str, variant: str) -> str:
        """The ``rollout``, ``settle`` or ``hands`` setting this search plays in ``variant``
        (:func:`~bezique.agents.search_options.setting`: ``auto`` is the variant's in
        :data:`~bezique.agents.search_options.VARIANT_SETTINGS`, else the general default).

        >>> a = SearchAgent()
        >>> [a.setting(k, "rubicon") for k in ("rollout", "settle", "hands")]
        ['heuristic', 'win', 'kept']
        >>> [a.setting(k, "sixpack") for k in ("rollout", "settle", "hands")]
        ['heuristic', 'grid', 'uniform']
        >>> SearchAgent(settle="grid").setting("settle", "rubicon")
        'grid'
        """
        return setting(self.asked, name, variant)

    def mode(self, variant: str) -> str:
        """The rollout setting in ``variant`` (:meth:`setting`)."""
        return self.setting("rollout", variant)

    def _own_policy(self, variant: str, mode: str) -> HeuristicPolicy:
        """The policy of the search's own sound play in ``variant``: the heuristic, or with
        the rollout ``mode`` ``tuned`` / ``own`` one with the variant's tuned numbers."""
        if mode not in ("tuned", "own"):
            return self.policy
        policy = self._tuned.get(variant)
        if policy is None:
            policy = self._tuned[variant] = HeuristicPolicy(solver_cards=0,
                                                            params=tuned_params(variant))
        return policy

    def _sample(self, sampler: WorldSampler, rng: random.Random, deadline: float) -> State:
        """A world from ``sampler`` (past ``deadline``, the likeliest it has tried), timed
        (:attr:`sample_s`: how long sampling takes)."""
        t0 = time.perf_counter()
        world = sampler.sample(rng, deadline)
        self.sample_s = 0.7 * self.sample_s + 0.3 * (time.perf_counter() - t0)
        return world

    def _roll(self, world: State, actions: list[str] | tuple[str, ...],
              values: dict[str, list[float]], seat: int, horizon: int) -> bool:
        """Add each action's rollout result in ``world`` to ``values``; False (and nothing
        added) when the rollouts run out of time."""
        rollout = self.rollout
        return roll_each(world, actions, values, lambda s: rollout.value(s, seat, horizon))

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
_END_NODES = 2_000_000  # the real end phase's solver budget
_SOLVE_SHARE = 0.6  # of a clock, for the real end phase's solver (the rest: the search)


def _stderr(a: list[float], b: list[float]) -> float:
    """Standard error of the mean of the paired differences ``a[i] - b[i]``."""
    n = len(a)
    if n < 2:
        return 0.0
    d = [x - y for x, y in zip(a, b, strict=True)]
    m = sum(d) / n
    var: float = sum((x - m) ** 2 for x in d) / (n - 1) / n
    return math.sqrt(var)


def candidates(obs: Observation, wait: bool = False) -> tuple[str, ...]:
    """The actions worth searching: all legal ones, except that passing is dropped when
    something can be scored (a meld, an exchange or a seven gains points and costs nothing:
    melded cards stay playable).  With ``wait``, passing stays while no trumps are fixed in a
    game without a turn-up (RULES.md 9.0.2): the first marriage or sequence fixes them, and
    waiting for a better suit can be worth more than its points."""
    legal = obs.legal
    if obs.phase == "declare" and len(legal) > 1 and not (
            wait and obs.trump < 0 and not obs.rules.turnup):
        return tuple(t for t in legal if t != "pass")
    return legal


def _prefer(text: str) -> int:
    """Tie-break between equal averages: declare before passing; otherwise no preference."""
    return 0 if text == "pass" else 1


@register_agent("search", "determinized Monte Carlo with heuristic rollouts and an exact endgame",
                label=search_label)
def _make_search(seed: int | None = None, samples: int = 60, rollout: str = "auto",
                 solver_cards: int = 8, horizon: int = 3, full_below: int = 10,
                 prior: float = 5.0, evaluation: str = "learned",
                 confidence: float | str = 1.0, infer: float | str = "auto", ms: float = 0.0,
                 model: float = 0.0, extend: int = 4, extend_below: int = 26,
                 head: str = "heuristic", weights: str = "variant",
                 settle: str = "auto", wait: int = 0, game: int = 1,
                 hands: str = "auto", net: str | float = "") -> SearchAgent:
    return SearchAgent(seed, samples, rollout, solver_cards, horizon, full_below, prior,
                       evaluation, confidence, infer, ms, model, extend, extend_below, head,
                       weights, settle, wait, game, hands, net)
