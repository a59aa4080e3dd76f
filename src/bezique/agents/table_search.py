"""The search AI at a table of three or four (RULES.md 9.4, 9.5): determinized Monte Carlo.

For each decision :class:`TableSearch` samples worlds for every unseen hand and the stock
(:mod:`bezique.agents.table_worlds`), tries every candidate action in every world and plays the
deal out to its end with the table heuristic for every seat
(:class:`~bezique.agents.table_play.TablePolicy`); the exact end-phase solver is a two-seat tool
and is not used.  A finished deal is valued for the seat as its side's points less the best
opposing side's: partners' points add (seats 0 & 2 against 1 & 3); in three-handed play and four
individuals it is the seat's points less the best other seat's.  The same worlds serve every
action.  As in the two-seat search, the heuristic's own choice gets a head start: another action
must beat it by ``prior`` points and by ``confidence`` standard errors of the paired differences.

Whole-deal rollouts are chaotic while the stock is long (one trick won or lost decides whether a
big meld is ever declared), as in the two-seat search: with a ``potential`` (what each seat's
cards are still worth, :func:`bezique.agents.search.potential`) a rollout plays ``horizon`` more
tricks and values the deal there (:meth:`TableSearch.leaf`); once fewer than ``full_below``
rounds of draws are left in the stock the deal is played to its end.  Rollouts cost a few
milliseconds each, so the worlds are bounded by time as well as by number: a decision samples up
to ``samples`` worlds and begins no world after 80% of ``ms`` milliseconds, nor one that would
likely not end by 88% of them (from the time a world has taken so far); a rollout still running
then gives up and its world is dropped.  With not one world in time, the heuristic's choice.

Near the target of the game (2000; RULES.md 9.4, 9.5) the search plays for the game, not the
deal: once a side could reach the target in this deal, a rollout is valued by its side's chance
of winning the game (:mod:`bezique.agents.table_game`: decided by the engine at the deal's end,
otherwise from the sides' totals), in points by the chance's slope at the root, so that
``prior`` keeps its meaning; with ``game=False`` by the deal's points throughout.
"""

from __future__ import annotations

import math
import random
import time

from ..observation import Observation
from ..state import LEAD, State
from .rollout import OutOfTime, roll_each
from .table_game import Potential, TableFrame
from .table_play import TablePolicy
from .table_worlds import TableSampler


def side_value(state: State, seat: int) -> int:
    """A finished (or any) deal's points for ``seat``: its side's points less the best opposing
    side's (with a partner, the two seats' points add).

    >>> from bezique import Rules, State
    >>> s = State.new_deal(Rules.preset("bezique3"), seed=1)
    >>> side_value(s, 0)
    0
    """
    s = state.scores
    mate = state.partner(seat)
    if mate >= 0:
        return s[seat] + s[mate] - (s[(seat + 1) % 4] + s[(seat + 3) % 4])
    return s[seat] - max(s[i] for i in range(len(s)) if i != seat)


def table_candidates(obs: Observation) -> tuple[str, ...]:
    """The actions worth searching: all legal ones, except that passing is dropped when
    something can be scored (a meld, an exchange or a seven costs nothing)."""
    legal = obs.legal
    if obs.phase == "declare" and any(t not in ("pass", "offer") for t in legal):
        return tuple(t for t in legal if t != "pass")
    return legal


class TableSearch:
    """PIMC over sampled table worlds with whole-deal rollouts of the table heuristic."""

    def __init__(self, policy: TablePolicy, samples: int, ms: float, prior: float = 5.0,
                 confidence: float = 1.0, potential: Potential | None = None,
                 horizon: int = 0, full_below: int = 6,
                 first: TablePolicy | None = None, game: bool = True) -> None:
        self.policy = policy
        self.first = first or policy  # whose choice gets the head start
        self.samples = samples
        self.ms = ms
        self.prior = prior
        self.confidence = confidence
        self.potential = potential
        self.horizon = horizon if potential is not None else 0
        self.full_below = full_below
        self.last_worlds = 0
        self.world_s = 0.0  # seconds a world takes to sample and roll out (a moving average)
        self.deadline = 0.0  # a clock (perf_counter seconds) past which rollouts give up
        self.game = game  # play for the game near the target (table_game)
        self.frame: TableFrame | None = None  # the decision's, when it plays for the game

    def act(self, obs: Observation, rng: random.Random, start: float = 0.0) -> str:
        """The action with the best average side result over the sampled worlds (the time
        budget counted from ``start``, by default now)."""
        return self.evaluate(obs, rng, start)[0]

    def evaluate(self, obs: Observation, rng: random.Random,
                 start: float = 0.0) -> tuple[str, dict[str, float]]:
        """(best action, average side result of each candidate over the sampled worlds)."""
        cands = table_candidates(obs)
        if len(cands) == 1:
            return cands[0], {cands[0]: 0.0}
        start = start or time.perf_counter()
        sampler = TableSampler(obs)
        seat = obs.seat
        self.frame = TableFrame.of(obs) if self.game else None
        # a few tricks and the leaf value while the stock is long; the whole deal near its end
        horizon = 0 if obs.stock < self.full_below * obs.rules.nplayers else self.horizon
        values: dict[str, list[float]] = {t: [] for t in cands}
        budget = self.ms / 1000.0
        stop = start + 0.8 * budget if budget else 0.0
        self.deadline = start + 0.88 * budget if budget else 0.0
        pick = ""
        try:
            for i in range(self.samples):
                now = time.perf_counter()
                if stop and i and (now > stop or now + self.world_s > self.deadline):
                    break
                world = sampler.sample(rng)
                if not pick:
                    pick = world.action_to_string(self.first.choose(world))
                if not self._roll(world, cands, values, seat, horizon):
                    break
                if stop:
                    self.world_s = 0.7 * self.world_s + 0.3 * (time.perf_counter() - now)
        finally:
            self.deadline = 0.0
        self.last_worlds = len(values[cands[0]])
        if not self.last_worlds:  # not one world in time: the heuristic's choice
            return (pick if pick in values else cands[0]), {}
        means = {t: sum(v, 0.0) / len(v) for t, v in values.items()}
        if pick not in values:
            return max(cands, key=lambda t: means[t]), means
        rival = max((t for t in cands if t != pick), key=lambda t: means[t])
        gain = means[rival] - means[pick]
        if gain > self.prior and gain > self.confidence * _stderr(values[rival], values[pick]):
            return rival, means
        return pick, means

    def _roll(self, world: State, cands: tuple[str, ...], values: dict[str, list[float]],
              seat: int, horizon: int) -> bool:
        """Add each candidate's rollout result in ``world`` to ``values``; False (and nothing
        added) when the rollouts run out of time."""
        return roll_each(world, cands, values, lambda s: self.rollout(s, seat, horizon))

    def rollout(self, state: State, seat: int, horizon: int = 0) -> float:
        """Play the deal out with the table heuristic for every seat: its side value (near the
        target, :meth:`TableFrame.finished`); with a ``horizon``, only that many more tricks,
        then :meth:`leaf`.  Raises
        :class:`OutOfTime` past :attr:`deadline`."""
        choose = self.policy.choose
        stop = state.trick_count + horizon if horizon else 1 << 30
        deadline = self.deadline
        while not state.is_terminal():
            if deadline and time.perf_counter() > deadline:
                raise OutOfTime
            if state.trick_count >= stop and state.phase_id == LEAD and not state.end_phase:
                return self.leaf(state, seat)
            state.apply_action(choose(state))
        if self.frame is not None:
            return self.frame.finished(state, seat)
        return float(side_value(state, seat))

    def leaf(self, state: State, seat: int) -> float:
        """A deal in progress valued for ``seat``: each seat's points, brisques taken so far
        (where they score at the end) and ``potential`` (what its cards are still worth), its
        side's against the best opposing side's (near the target, :meth:`TableFrame.leaf`)."""
        potential = self.potential
        assert potential is not None
        if self.frame is not None:
            return self.frame.leaf(state, seat, potential)
        n = len(state.hand_masks)
        end = state.rules.brisques == "end"
        s, b = state.scores, state.brisques
        worth = [s[i] + (b[i] if end else 0) + potential(state, i) for i in range(n)]
        mate = state.partner(seat)
        if mate >= 0:
            return worth[seat] + worth[mate] - worth[(seat + 1) % 4] - worth[(seat + 3) % 4]
        return worth[seat] - max(worth[i] for i in range(n) if i != seat)


def _stderr(a: list[float], b: list[float]) -> float:
    """Standard error of the mean of the paired differences ``a[i] - b[i]``."""
    n = len(a)
    if n < 2:
        return 0.0
    d = [x - y for x, y in zip(a, b, strict=True)]
    m = sum(d, 0.0) / n
    var: float = sum(((x - m) ** 2 for x in d), 0.0) / (n - 1) / n
    return math.sqrt(var)


__all__ = ["TableSearch", "side_value", "table_candidates"]
