"""Matches between two agents on duplicated deals, with wins, points and an Elo difference.

Every deal (or game) is played twice with the same cards and the seats swapped, so luck of the
cards cancels out: a *pair* is the two halves.  In half 1 agent A sits in seat 0 and agent B in
seat 1; in half 2 they swap.  Agents see only their seat's observation and answer action text.

Results do not depend on the number of worker processes: every pair's cards and every agent's
seed derive from the match seed and the pair's number only.

>>> from bezique import Rules
>>> m = run_match("random", "random", Rules.preset("bezique"), deals=4, seed=1)
>>> m.games, len(m.pairs), m.wins[0] + m.wins[1] + m.draws
(4, 2, 4)
>>> round(elo_from_score(0.75, 1000), 1)
190.8
"""

from __future__ import annotations

import math
import multiprocessing
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from .agents import Agent, agent_label, make_agent
from .arena_records import records_folder, save_records, saved_set
from .errors import BeziqueError, IllegalActionError
from .game import Game
from .record import game_record
from .rules import Rules
from .state import State

T = TypeVar("T")
R = TypeVar("R")

Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal


# ---------------------------------------------------------------------- Elo arithmetic


def elo_from_score(p: float, n: int) -> float:
    """The Elo difference whose expected score is ``p``: ``400 * log10(p / (1 - p))``.

    ``p`` is first clamped to ``[1/(2n), 1 - 1/(2n)]`` (half a result from either end, ``n``
    results in all) so that 0% and 100% give large but finite differences.

    >>> elo_from_score(0.5, 10)
    0.0
    >>> round(elo_from_score(0.25, 100), 1)
    -190.8
    >>> round(elo_from_score(1.0, 100), 1)  # clamped to 199/200
    919.5
    """
    eps = 1.0 / (2 * max(n, 1))
    q = min(max(p, eps), 1.0 - eps)
    if q == 0.5:
        return 0.0
    return 400.0 * math.log10(q / (1.0 - q))


def score_interval(pair_scores: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """A confidence interval for the mean of the pair scores (each in 0..1).

    The pairs are the independent units (the two halves of a pair share their cards, so they
    are correlated).  This is the Wilson score interval over the ``M`` pairs with the Bernoulli
    variance ``p(1-p)`` replaced by the pairs' observed variance ``v`` (which duplication makes
    smaller): centre ``(p + z²/2M) / (1 + z²/M)``, half-width
    ``z * sqrt(v/M + z²/4M²) / (1 + z²/M)``.  For single results (``v = p(1-p)``) it is exactly
    Wilson's interval, and like it stays inside [0, 1] and has a width even at 0% or 100%.
    The interval is widened if needed to contain ``p``.

    >>> lo, hi = score_interval([1.0] * 20)
    >>> round(lo, 3), hi
    (0.839, 1.0)
    >>> [round(x, 3) for x in score_interval([0.5] * 2)]  # two even pairs prove little
    [0.171, 0.829]
    """
    m = len(pair_scores)
    if m == 0:
        return (0.0, 1.0)
    p = sum(pair_scores) / m
    v = sum((s - p) ** 2 for s in pair_scores) / m
    z2 = z * z
    denom = 1.0 + z2 / m
    centre = (p + z2 / (2 * m)) / denom
    half = z * math.sqrt(v / m + z2 / (4 * m * m)) / denom
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    return (min(lo, p), max(hi, p))


# ---------------------------------------------------------------------- results


@dataclass(frozen=True)
class HalfResult:
    """One half of a pair: agent A's score (1 win, 0.5 draw, 0 loss) and both agents' points."""

    score: float
    points: tuple[int, int]
    deals: int
    record: dict[str, Any] | None = None


@dataclass(frozen=True)
class PairResult:
    """A duplicated deal or game: the same cards played twice with the seats swapped."""

    index: int
    halves: tuple[HalfResult, HalfResult]

    @property
    def score(self) -> float:
        """Agent A's mean score over the two halves."""
        return (self.halves[0].score + self.halves[1].score) / 2


@dataclass
class MatchResult:
    """A whole match from agent A's side: A is index 0 of ``wins`` and ``points_per_deal``."""

    agents: tuple[str, str]
    mode: str  # "games" or "deals"
    seed: int
    pairs: list[PairResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        """Games (or, in deal mode, deals) played, both halves counted."""
        return 2 * len(self.pairs)

    @property
    def wins(self) -> tuple[int, int]:
        """Games (deals) won by A and by B."""
        a = sum(1 for p in self.pairs for h in p.halves if h.score == 1.0)
        b = sum(1 for p in self.pairs for h in p.halves if h.score == 0.0)
        return (a, b)

    @property
    def draws(self) -> int:
        """Games (deals) drawn: only single deals with equal points can be."""
        return sum(1 for p in self.pairs for h in p.halves if h.score == 0.5)

    @property
    def deals_played(self) -> int:
        """Deals played in all, both halves counted."""
        return sum(h.deals for p in self.pairs for h in p.halves)

    @property
    def points_per_deal(self) -> tuple[float, float]:
        """Mean points a deal scored by A and by B (melds, sevens, last trick, brisques)."""
        n = self.deals_played
        if not n:
            return (0.0, 0.0)
        a = sum(h.points[0] for p in self.pairs for h in p.halves)
        b = sum(h.points[1] for p in self.pairs for h in p.halves)
        return (a / n, b / n)

    @property
    def score(self) -> float:
        """A's score fraction, draws counting half."""
        if not self.pairs:
            return 0.5
        return sum(p.score for p in self.pairs) / len(self.pairs)

    @property
    def elo(self) -> float:
        """Elo difference A minus B (see :func:`elo_from_score`)."""
        return elo_from_score(self.score, self.games)

    @property
    def score_ci95(self) -> tuple[float, float]:
        """95% interval of A's score fraction over the duplicated pairs (:func:`score_interval`)."""
        return score_interval([p.score for p in self.pairs])

    @property
    def elo_ci95(self) -> tuple[float, float]:
        """95% interval of the Elo difference: the ends of :attr:`score_ci95` as Elo."""
        lo, hi = self.score_ci95
        return (elo_from_score(lo, self.games), elo_from_score(hi, self.games))

    def to_json(self) -> dict[str, Any]:
        """The object ``bezique arena --json`` prints."""
        lo, hi = self.elo_ci95
        return {
            "games": self.games,
            "wins": list(self.wins),
            "points_per_deal": [round(x, 2) for x in self.points_per_deal],
            "score": round(self.score, 4),
            "score_ci95": [round(x, 4) for x in self.score_ci95],
            "elo": round(self.elo, 1),
            "elo_ci95": [round(lo, 1), round(hi, 1)],
        }


# ---------------------------------------------------------------------- playing


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from the match seed and indices; the same on every machine and process."""
    return random.Random(":".join(str(p) for p in parts)).getrandbits(64)


def play_deal(state: State, agents: Sequence[Agent]) -> None:
    """Play ``state`` to its end; ``agents[s]`` is given seat ``s``'s observation only.

    An action the rules refuse raises :class:`IllegalActionError` naming the agent (so does an
    answer that is not text); the number of agents must be the number of seats.
    """
    n = state.rules.nplayers
    if len(agents) != n:
        raise BeziqueError(f"{state.rules.variant} needs {n} agents, one per seat, not "
                           f"{len(agents)}")
    while not state.is_terminal():
        seat = state.current_player()
        agent = agents[seat]
        text = agent.act(state.observation(seat))
        try:
            if not isinstance(text, str):
                raise IllegalActionError(f"an action is text such as 'play QS', not "
                                         f"{type(text).__name__}")
            state.apply(text)
        except BeziqueError as e:
            raise IllegalActionError(
                f"agent {agent.name!r} in seat {seat} chose {text!r}, which is refused: {e}"
            ) from None


@dataclass(frozen=True)
class PairTask:
    """Everything a worker needs to play one pair (picklable)."""

    index: int
    specs: tuple[str, str]
    variant: str
    options: tuple[tuple[str, Any], ...]
    mode: str
    seed: int
    save: bool


def play_pair(task: PairTask) -> PairResult:
    """Play both halves of pair ``task.index``: same cards, seats swapped."""
    rules = Rules.from_options(task.variant, dict(task.options))
    deal_seed = derive_seed(task.seed, task.index, "cards")
    halves = []
    for half in (0, 1):
        a = make_agent(task.specs[0], seed=derive_seed(task.seed, task.index, half, "a"))
        b = make_agent(task.specs[1], seed=derive_seed(task.seed, task.index, half, "b"))
        seat_a = half  # A sits in seat 0 in the first half and seat 1 in the second
        seated: list[Agent] = [a, b] if seat_a == 0 else [b, a]
        winner = -1
        if task.mode == "games":
            game = Game(rules, seed=deal_seed, first_dealer=1)
            while True:
                play_deal(game.state, seated)
                if game.is_over():
                    break
                game.next_deal()
            deals = game.all_deals()
            winner = -1 if game.winner is None else game.winner
        else:
            state = State.new_deal(rules, deal_seed, dealer=1)
            play_deal(state, seated)
            deals = [state]
        record = None
        if task.save:
            record = game_record(rules, deals)
            record["players"] = half_players(task.specs, half)
        halves.append(half_result(rules, task.mode, deals, seat_a, winner, record))
    return PairResult(task.index, (halves[0], halves[1]))


def half_players(specs: tuple[str, str], half: int) -> list[str]:
    """The players of seats 0 and 1 in ``half`` (A first in half 0) as records name them
    (:func:`~bezique.agents.base.agent_label`)."""
    a, b = agent_label(specs[0]), agent_label(specs[1])
    return [a, b] if half == 0 else [b, a]


def half_result(rules: Rules, mode: str, deals: Sequence[State], seat_a: int, winner: int,
                record: dict[str, Any] | None = None) -> HalfResult:
    """Agent A's result in one half: the game's ``winner`` in game mode, else the deal's (by
    the settlement in the one-deal games of RULES.md 9.0.7, else by points)."""
    if mode == "games":
        score = 1.0 if winner == seat_a else 0.0
    elif rules.settlement == "portland":
        w = deals[0].settlement().winner
        score = 0.5 if w < 0 else 1.0 if w == seat_a else 0.0
    else:
        mine, theirs = deals[0].scores[seat_a], deals[0].scores[1 - seat_a]
        score = 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
    if rules.settlement == "portland":  # points are the settled values
        pa = sum(_settled(s, seat_a) for s in deals)
        pb = sum(_settled(s, 1 - seat_a) for s in deals)
    else:
        pa = sum(s.scores[seat_a] for s in deals)
        pb = sum(s.scores[1 - seat_a] for s in deals)
    return HalfResult(score, (pa, pb), len(deals), record)


def pair_tasks(spec_a: str, spec_b: str, rules: Rules, mode: str, count: int, seed: int,
               save: bool = False) -> list[PairTask]:
    """The pairs of a match of ``count`` games or deals (both halves counted, rounded up)."""
    options = tuple(sorted(rules.options().items()))
    return [PairTask(i, (spec_a, spec_b), rules.variant, options, mode, seed, save)
            for i in range((count + 1) // 2)]


def _settled(state: State, seat: int) -> int:
    """What ``seat`` scores in the settlement of a one-deal game (RULES.md 9.0.7)."""
    st = state.settlement()
    return st.value if st.winner == seat else 0


def _pool_map(fn: Callable[[T], R], tasks: Sequence[T], jobs: int) -> Iterator[R]:
    if jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield fn(t)
        return
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ctx.Pool(min(jobs, len(tasks))) as pool:
        yield from pool.imap(fn, tasks, chunksize=1)


def run_tasks(fn: Callable[[T], R], tasks: Sequence[T], jobs: int = 1, ray: str | None = None
              ) -> Iterator[tuple[int, R]]:
    """``(task number, fn(task))`` for every task: in order on ``jobs`` local processes, or in
    the order they finish on Ray (``ray``: an address, or ``"local"`` to start a local Ray with
    ``jobs`` workers, 0 for one per core; see :mod:`bezique.distributed`).  ``fn`` must be a
    module-level function (it is sent to the workers by name).  The two-seat pairs and the
    tables of :mod:`bezique.arena_tables` both go through here."""
    if ray is None:
        yield from enumerate(_pool_map(fn, tasks, jobs))
        return
    from .distributed import ray_map

    yield from ray_map(fn, tasks, ray, jobs)


def play_saved(fn: Callable[[T], R], tasks: Sequence[T], jobs: int, ray: str | None,
               out_dir: Path | None, mode: str, resumed: Callable[[T], R | None],
               records: Callable[[R], tuple[int, list[Any]]],
               progress: Callable[[int], None] | None) -> list[R]:
    """Every task's result: read back by ``resumed`` (None: play it), the others played by
    :func:`run_tasks` and their ``records`` (index, records) saved in ``out_dir`` as each is
    done; ``progress`` is told how many are done.  The two-seat and the table arena's loop."""
    out = []
    todo = []
    for t in tasks:
        r = resumed(t)
        if r is None:
            todo.append(t)
        else:
            out.append(r)
    if progress is not None and out:
        progress(len(out))
    for _, r in run_tasks(fn, todo, jobs, ray):
        if out_dir is not None:
            save_records(out_dir, mode, *records(r))
        out.append(r)
        if progress is not None:
            progress(len(out))
    return out


def play_pairs(tasks: list[PairTask], jobs: int = 1, ray: str | None = None
               ) -> Iterator[tuple[int, PairResult]]:
    """Play every task, yielding ``(task number, pair)`` as each is done (see
    :func:`run_tasks`)."""
    yield from run_tasks(play_pair, tasks, jobs, ray)


def require_two_seats(rules: Rules) -> None:
    """Refuse, with :class:`BeziqueError`, a variant of more than two seats: a match of two
    agents is two-handed (tables of three or four are :mod:`bezique.arena_tables`)."""
    if not isinstance(rules, Rules):
        raise BeziqueError(f"a match needs its Rules, e.g. Rules.preset('bezique'), not "
                           f"{rules!r:.40}")
    n = rules.nplayers
    if n != 2:
        raise BeziqueError(
            f"{rules.variant} is played by {('three', 'four')[n - 3] if n in (3, 4) else n}: "
            f"a match of two agents needs a two-handed "
            f"variant (rate {n} agents at one table with 'bezique arena "
            f"{' '.join('ABCD'[:n])} --variant {rules.variant}')")


def checked_match(specs: Sequence[str], games: int | None, deals: int | None, jobs: int,
                  ray: str | None, save: str | Path | None, resume: bool) -> tuple[str, int]:
    """The mode (``"games"`` or ``"deals"``) and the count of a match, after refusing with
    :class:`BeziqueError` what cannot be played: both counts or neither, a count under 1, too few
    jobs, an unknown agent or option (before any deal starts), ``resume`` without ``save``.

    >>> checked_match(["random", "heuristic"], None, 10, 1, None, None, False)
    ('deals', 10)
    >>> checked_match(["random"], 2, 10, 1, None, None, False)
    Traceback (most recent call last):
    ...
    bezique.errors.BeziqueError: give either a number of games or a number of deals
    """
    if (games is None) == (deals is None):
        raise BeziqueError("give either a number of games or a number of deals")
    count = games if games is not None else deals
    assert count is not None
    for what, number in (("games" if games is not None else "deals", count), ("jobs", jobs)):
        if isinstance(number, bool) or not isinstance(number, int):
            raise BeziqueError(f"the number of {what} must be a whole number, not "
                               f"{number!r:.40}")
    if count < 1:
        raise BeziqueError(f"the number of {'games' if games is not None else 'deals'} "
                           f"must be at least 1")
    if jobs < (0 if ray is not None else 1):
        raise BeziqueError("--jobs must be at least 1")
    for spec in specs:
        make_agent(spec, seed=0)  # refuse unknown agents and bad options before starting
    if resume and save is None:
        raise BeziqueError("--resume needs --save DIR: the folder of the records to go on from")
    return ("games" if games is not None else "deals"), count


def run_match(
    spec_a: str,
    spec_b: str,
    rules: Rules,
    *,
    games: int | None = None,
    deals: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    save: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
    ray: str | None = None,
    resume: bool = False,
) -> MatchResult:
    """Play ``games`` whole games or ``deals`` single deals between agents A and B.

    The count is of games (deals) in all, both halves of each pair counted; an odd count is
    rounded up to whole pairs.  With ``save``, every game (deal) is written to that directory
    as a record (``game-0001-1.json``: pair 1, first half) with an extra key ``players``
    naming the agents of seats 0 and 1.  ``progress`` is called with the number of pairs done.
    ``ray`` plays the pairs on Ray (an address, or ``"local"``: a local Ray with ``jobs``
    workers, 0 for one per core); the result is the same as a local run's.  ``resume`` (with
    ``save``) reads back the pairs already saved there and plays only the others, so a match
    cut short goes on where it stopped with the same result as one run.
    """
    require_two_seats(rules)
    mode, count = checked_match((spec_a, spec_b), games, deals, jobs, ray, save, resume)
    out_dir = records_folder(save, resume)
    tasks = pair_tasks(spec_a, spec_b, rules, mode, count, seed, out_dir is not None)
    result = MatchResult((spec_a, spec_b), mode, seed)

    def resumed(t: PairTask) -> PairResult | None:
        return _resumed(out_dir, rules, t) if resume and out_dir is not None else None

    result.pairs = play_saved(play_pair, tasks, jobs, ray, out_dir, mode, resumed,
                              lambda pr: (pr.index, [h.record for h in pr.halves]), progress)
    result.pairs.sort(key=lambda pr: pr.index)
    return result


def _resumed(out_dir: Path, rules: Rules, task: PairTask) -> PairResult | None:
    """Pair ``task`` from its saved records, if both halves are there."""
    seed = derive_seed(task.seed, task.index, "cards")
    first = (Game(rules, seed=seed, first_dealer=1).state if task.mode == "games"
             else State.new_deal(rules, seed, dealer=1))
    saved = saved_set(out_dir, task.mode, task.index,
                      [half_players(task.specs, h) for h in (0, 1)], rules, first)
    if saved is None:
        return None
    h0, h1 = (half_result(rules, task.mode, deals, seat_a, winner)
              for seat_a, (deals, winner) in enumerate(saved))
    return PairResult(task.index, (h0, h1))
