"""Matches of agents at a table of three or four seats on duplicated deals: every seating of the
same cards, with per-agent (and per-team) results.

This module owns the N-seat arena (``bezique arena A B C --variant bezique3``): which seatings
of the agents a deal is played in, playing them (in this process, on worker processes or on
Ray, with the same results), and the results.  The two-seat arena is :mod:`bezique.arena`,
whose seeds, deal loop and task runner this module shares.

Each deal's cards are dealt once (from the match seed and the deal's number, dealer the last
seat); the agents move round them.  The *seatings* are the distinct rotations of a base table:

- three or four individuals, as many agents as seats (``A B C``): the rotations ``ABC BCA
  CAB`` (four seats: 4 rotations).  Each agent holds every seat's cards once; who sits at whose
  left stays as given (3 plays a deal, not the 6 orders: to balance that too, match ``A C B``
  as well).
- three or four individuals, two agents ``A B``: A against copies of B, then B against copies
  of A, each in every seat: ``ABB BBA BAB BAA AAB ABA`` (four seats: 8 seatings).  Each agent
  holds every seat's cards equally often.
- four-handed partnership, two teams: ``A B`` is A and A against B and B, ``A+B C+D`` is A and B
  partners against C and D.  The first team sits in seats 0 and 2 (its first agent in 0), the
  second in 1 and 3: ``A+B C+D`` is the table ``ACBD``, rotated into ``CBDA BDAC DACB`` (both
  teams hold both sides' cards and every agent every seat's); ``A B`` is ``ABAB`` and ``BABA``.

A *set* is one deal (or game) played in every seating: the sets are the independent units of
the 95% intervals.  A play's result per seat: in a deal, 1 to the most points and a share
``1/k`` to each of ``k`` tied at the top; in a game, 1 to the winner; a partnership's two seats
share their side's result (side totals decide, RULES.md 9.5).

>>> from bezique import Rules
>>> m = play_table_match(["random", "random", "random"], Rules.preset("bezique3"), deals=3,
...                      seed=1)
>>> m.seatings, len(m.sets), m.plays
(('ABC', 'BCA', 'CAB'), 1, 3)
>>> round(sum(a.score for a in m.agent_stats()), 9)  # every deal has one winner's worth
1.0
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .agents import Agent, agent_label, make_agent
from .arena import Z95, checked_match, derive_seed, play_deal, play_saved, score_interval
from .arena_records import records_folder, saved_set
from .errors import OptionError
from .game import Game
from .record import game_record
from .rules import Rules
from .scoring import sides
from .state import State

LABELS = "ABCD"


# ---------------------------------------------------------------------- who sits where


@dataclass(frozen=True)
class Lineup:
    """The agents of a table match and where they sit.

    ``specs[e]`` is entrant ``e``'s agent spec (entrants are labelled A, B, ...);
    ``seatings[k][s]`` the entrant in seat ``s`` of seating ``k``; ``teams`` the entrants of
    each partnership (empty for individuals)."""

    specs: tuple[str, ...]
    seatings: tuple[tuple[int, ...], ...]
    teams: tuple[tuple[int, ...], ...] = ()

    def label(self, seating: Sequence[int]) -> str:
        """A seating as letters, seat 0 first: ``"ACBD"``."""
        return "".join(LABELS[e] for e in seating)

    def team_label(self, t: int) -> str:
        """Team ``t`` as its seats' letters in the first seating: ``"A+B"``, ``"A+A"``."""
        first = self.seatings[0]
        return "+".join(LABELS[first[s]] for s in (t, t + 2))


def _rotations(base: Sequence[int]) -> list[tuple[int, ...]]:
    """The distinct rotations of a table, seat ``s`` of rotation ``r`` taking ``base[s + r]``."""
    n = len(base)
    out: list[tuple[int, ...]] = []
    for r in range(n):
        seating = tuple(base[(s + r) % n] for s in range(n))
        if seating not in out:
            out.append(seating)
    return out


def table_lineup(agents: Sequence[str], rules: Rules) -> Lineup:
    """The entrants and seatings for ``agents`` (specs; ``X+Y`` for a partnership team) at a
    table of ``rules``; :class:`OptionError` for a combination the table cannot seat.

    >>> table_lineup(["random", "heuristic"], Rules.preset("bezique4")).seatings
    ((0, 1, 0, 1), (1, 0, 1, 0))
    >>> table_lineup(["a+b", "c"], Rules.preset("bezique4")).specs
    ('a', 'b', 'c')
    """
    n, variant = rules.nplayers, rules.variant
    if n < 3:
        if any("+" in a for a in agents):
            raise OptionError(f"teams (A+B) are for four-handed partnership (bezique4); "
                              f"{variant} is played by two")
        raise OptionError(
            f"{variant} is played by two: give two agents A B (three or four agents are for "
            f"bezique3 and bezique4)")
    args = [a.strip() for a in agents]
    if rules.partner(0) >= 0:
        if len(args) != 2:
            raise OptionError(
                f"four-handed partnership is two teams: give A B (A and A against B and B) or "
                f"A+B C+D, not {len(args)} agents (-o partnership=false for four individuals)")
        specs: list[str] = []
        members: list[tuple[int, int]] = []
        for team in args:
            parts = [p.strip() for p in team.split("+")]
            if len(parts) > 2 or not all(parts):
                raise OptionError(f"a team is one agent or two joined by '+' (A+B), not {team!r}")
            first = len(specs)
            specs.extend(parts)
            members.append((first, first + len(parts) - 1))
        base = (members[0][0], members[1][0], members[0][1], members[1][1])
        teams = tuple(tuple(sorted(set(m))) for m in members)
        return Lineup(tuple(specs), tuple(_rotations(base)), teams)
    if any("+" in a for a in args):
        how = f"{variant} with partnership=false" if n == 4 else variant
        raise OptionError(f"teams (A+B) are for four-handed partnership (bezique4); {how} is "
                          "played by individuals")
    if len(args) == n:
        return Lineup(tuple(args), tuple(_rotations(range(n))))
    if len(args) == 2:
        alone_a = _rotations((0,) + (1,) * (n - 1))
        alone_b = _rotations((1,) + (0,) * (n - 1))
        return Lineup(tuple(args), tuple(alone_a + alone_b))
    raise OptionError(f"{variant} seats {n} players: give {n} agents (they play its {n} "
                      "rotations) or 2 (each against copies of the other)")


# ---------------------------------------------------------------------- results


@dataclass(frozen=True)
class SeatingResult:
    """One deal (or game) played in one seating: per seat, the entrant sitting there, its
    result (1 win, a share of a tie at the top, 0) and its points summed over the deals."""

    seats: tuple[int, ...]
    scores: tuple[float, ...]
    points: tuple[int, ...]
    deals: int
    record: dict[str, Any] | None = None


@dataclass(frozen=True)
class TableSet:
    """A duplicated deal (or game): the same cards played in every seating."""

    index: int
    seatings: tuple[SeatingResult, ...]


@dataclass(frozen=True)
class Stats:
    """An agent's or a team's results over a match.

    ``score`` is the share of the plays it won (ties shared) with its 95% interval; ``even`` the
    share an agent exactly as strong as the others would win; ``points_per_deal`` the mean
    points a seat of it scored a deal (a team: its side's points a deal) with its 95% interval,
    ``None`` with fewer than two sets."""

    label: str
    spec: str
    plays: int
    wins: int
    score: float
    score_ci95: tuple[float, float]
    even: float
    points_per_deal: float
    points_ci95: tuple[float, float] | None

    def to_json(self) -> dict[str, Any]:
        """The object of one agent or team in ``bezique arena --json``."""
        ci = self.points_ci95
        return {"label": self.label, "agent": self.spec, "plays": self.plays, "wins": self.wins,
                "score": round(self.score, 4),
                "score_ci95": [round(x, 4) for x in self.score_ci95],
                "even": round(self.even, 4),
                "points_per_deal": round(self.points_per_deal, 2),
                "points_ci95": None if ci is None else [round(x, 2) for x in ci]}


def ratio_interval(values: Sequence[float], weights: Sequence[float], z: float = Z95
                   ) -> tuple[float, float] | None:
    """A normal 95% interval for ``sum(values) / sum(weights)`` over independent units (the
    ratio estimator's standard error), or None with fewer than two units.

    >>> ratio_interval([10.0, 30.0], [1.0, 1.0])  # doctest: +ELLIPSIS
    (0.400..., 39.59...)
    """
    m = len(values)
    if m < 2:
        return None
    r = sum(values) / sum(weights)
    wbar = sum(weights) / m
    var = sum((v - r * w) ** 2 for v, w in zip(values, weights, strict=True)) / (m * (m - 1))
    half = z * math.sqrt(var) / wbar
    return (r - half, r + half)


@dataclass
class TableMatchResult:
    """A whole table match: the lineup and every set, in order."""

    lineup: Lineup
    variant: str
    mode: str  # "games" or "deals"
    seed: int
    sets: list[TableSet] = field(default_factory=list)

    @property
    def seatings(self) -> tuple[str, ...]:
        """The seatings as letters, seat 0 first."""
        return tuple(self.lineup.label(s) for s in self.lineup.seatings)

    @property
    def plays(self) -> int:
        """Deals (games) played, every seating counted."""
        return sum(len(ts.seatings) for ts in self.sets)

    @property
    def deals_played(self) -> int:
        """Deals played in all, every seating counted."""
        return sum(sr.deals for ts in self.sets for sr in ts.seatings)

    def _stats(self, label: str, spec: str, pick: Callable[[SeatingResult], list[int]],
               side: bool, per_seat: bool) -> Stats:
        """Results of the seats ``pick`` chooses in each play: their summed scores (``side``:
        the first one's, a partnership's shared result) and points a deal (``per_seat``: a
        seat's, else the seats' together)."""
        wins = plays = 0
        set_scores: list[float] = []
        pts: list[float] = []
        weights: list[float] = []
        even = 0.0
        n = len(self.lineup.seatings[0])
        for ts in self.sets:
            total = 0.0
            p = w = 0
            for sr in ts.seatings:
                seats = pick(sr)
                score = sr.scores[seats[0]] if side else sum(sr.scores[s] for s in seats)
                wins += int(score == 1.0)
                plays += 1
                total += score
                p += sum(sr.points[s] for s in seats)
                w += sr.deals * (len(seats) if per_seat else 1)
                even += 0.5 if side else len(seats) / n
            set_scores.append(total / len(ts.seatings))
            pts.append(float(p))
            weights.append(float(w))
        mean = sum(set_scores) / len(set_scores) if set_scores else 0.0
        ppd = sum(pts) / sum(weights) if sum(weights) else 0.0
        return Stats(label, spec, plays, wins, mean, score_interval(set_scores),
                     even / max(plays, 1), ppd, ratio_interval(pts, weights))

    def agent_stats(self) -> list[Stats]:
        """Each entrant's results (a partnership entrant's score is its side's)."""
        lu = self.lineup
        out = []
        for e, spec in enumerate(lu.specs):
            def seats_of(sr: SeatingResult, e: int = e) -> list[int]:
                return [s for s, x in enumerate(sr.seats) if x == e]

            out.append(self._stats(LABELS[e], spec, seats_of, bool(lu.teams), True))
        return out

    def team_stats(self) -> list[Stats]:
        """Each partnership's results (empty for individuals)."""
        lu = self.lineup
        out = []
        for t, members in enumerate(lu.teams):
            def side_of(sr: SeatingResult, members: tuple[int, ...] = members) -> list[int]:
                first = next(s for s, x in enumerate(sr.seats) if x in members)
                return [first % 2, first % 2 + 2]

            spec = "+".join(lu.specs[lu.seatings[0][s]] for s in (t, t + 2))
            out.append(self._stats(lu.team_label(t), spec, side_of, True, False))
        return out

    def to_json(self) -> dict[str, Any]:
        """The object ``bezique arena --json`` prints for a table of three or four."""
        out: dict[str, Any] = {
            "variant": self.variant, "mode": self.mode, "seed": self.seed,
            "games": self.plays, "sets": len(self.sets), "deals_played": self.deals_played,
            "seatings": list(self.seatings),
            "agents": [s.to_json() for s in self.agent_stats()],
        }
        if self.lineup.teams:
            out["teams"] = [s.to_json() for s in self.team_stats()]
        return out


# ---------------------------------------------------------------------- playing


@dataclass(frozen=True)
class TableTask:
    """Everything a worker needs to play one set (picklable): the seatings (the entrant in each
    seat) and the entrants' agent specs, the rules, the mode and the match seed."""

    index: int
    seatings: tuple[tuple[int, ...], ...]
    specs: tuple[str, ...]
    variant: str
    options: tuple[tuple[str, Any], ...]
    mode: str
    seed: int
    save: bool


def deal_scores(rules: Rules, points: Sequence[int]) -> tuple[float, ...]:
    """Each seat's result of a deal: the most points (side totals in a partnership) win, a tie
    at the top shared.

    >>> deal_scores(Rules.preset("bezique3"), (200, 310, 310))
    (0.0, 0.5, 0.5)
    >>> deal_scores(Rules.preset("bezique4"), (200, 100, 50, 120))  # 250 against 220
    (1.0, 0.0, 1.0, 0.0)
    """
    n = len(points)
    if rules.partner(0) >= 0:
        side = sides(points)
        r = (1.0, 0.0) if side[0] > side[1] else (0.0, 1.0) if side[0] < side[1] else (0.5, 0.5)
        return tuple(r[s % 2] for s in range(n))
    top = max(points)
    k = sum(1 for p in points if p == top)
    return tuple(1.0 / k if p == top else 0.0 for p in points)


def play_table(task: TableTask) -> TableSet:
    """Play set ``task.index``: the same cards in every seating."""
    rules = Rules.from_options(task.variant, dict(task.options))
    n = rules.nplayers
    deal_seed = derive_seed(task.seed, task.index, "cards")
    results = []
    for k, seating in enumerate(task.seatings):
        agents: list[Agent] = [
            make_agent(task.specs[e], seed=derive_seed(task.seed, task.index, k, s, "agent"))
            for s, e in enumerate(seating)]
        winner = -1
        if task.mode == "games":
            game = Game(rules, seed=deal_seed, first_dealer=n - 1)
            while True:
                play_deal(game.state, agents)
                if game.is_over():
                    break
                game.next_deal()
            deals = game.all_deals()
            winner = -1 if game.winner is None else game.winner
        else:
            state = State.new_deal(rules, deal_seed, dealer=n - 1)
            play_deal(state, agents)
            deals = [state]
        record = None
        if task.save:
            record = game_record(rules, deals)
            record["players"] = [agent_label(task.specs[e]) for e in seating]
        results.append(seating_result(rules, task.mode, seating, deals, winner, record))
    return TableSet(task.index, tuple(results))


def seating_result(rules: Rules, mode: str, seating: tuple[int, ...], deals: Sequence[State],
                   winner: int, record: dict[str, Any] | None = None) -> SeatingResult:
    """One seating's result: each seat's score (the game's ``winner``, a seat or in a
    partnership a side, in game mode; else :func:`deal_scores`) and points."""
    n = rules.nplayers
    if mode == "games":
        side = rules.partner(0) >= 0
        scores = tuple(1.0 if (s % 2 if side else s) == winner else 0.0 for s in range(n))
    else:
        scores = deal_scores(rules, deals[0].scores)
    points = tuple(sum(d.scores[s] for d in deals) for s in range(n))
    return SeatingResult(seating, scores, points, len(deals), record)


def table_tasks(lineup: Lineup, rules: Rules, mode: str, count: int, seed: int,
                save: bool = False) -> list[TableTask]:
    """The sets of a match of ``count`` deals or games (every seating counted, rounded up to
    whole sets)."""
    options = tuple(sorted(rules.options().items()))
    k = len(lineup.seatings)
    return [TableTask(i, lineup.seatings, lineup.specs, rules.variant, options, mode, seed, save)
            for i in range((count + k - 1) // k)]


def play_table_match(
    agents: Sequence[str],
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
) -> TableMatchResult:
    """Play ``deals`` single deals (or ``games`` games) of ``agents`` at a table of
    ``rules`` (three or four seats), every deal in every seating (see the module and
    :func:`table_lineup`).

    The count is of deals (games) in all, every seating counted, rounded up to whole sets.
    ``save`` writes every play to that directory as a record (``deal-0001-2.json``: set 1,
    seating 2) with a key ``players`` naming the agent of each seat.  ``progress`` is called
    with the number of sets done; ``jobs`` and ``ray`` as for
    :func:`bezique.arena.run_match`: the results do not depend on them.  ``resume`` (with
    ``save``) reads back the sets saved there and plays only the others.

    >>> m = play_table_match(["random+random:seed=7", "random"], Rules.preset("bezique4"),
    ...                      deals=4, seed=2)
    >>> m.seatings, [t.label for t in m.team_stats()], [t.plays for t in m.team_stats()]
    (('ACBC', 'CBCA', 'BCAC', 'CACB'), ['A+B', 'C+C'], [4, 4])
    >>> sum(t.score for t in m.team_stats())  # every deal is won by one side (or shared)
    1.0
    """
    lineup = table_lineup(agents, rules)
    mode, count = checked_match(lineup.specs, games, deals, jobs, ray, save, resume)
    out_dir = records_folder(save, resume)
    tasks = table_tasks(lineup, rules, mode, count, seed, out_dir is not None)
    result = TableMatchResult(lineup, rules.variant, mode, seed)

    def resumed(t: TableTask) -> TableSet | None:
        return _resumed(out_dir, rules, t) if resume and out_dir is not None else None

    result.sets = play_saved(play_table, tasks, jobs, ray, out_dir, mode, resumed,
                             lambda ts: (ts.index, [sr.record for sr in ts.seatings]), progress)
    result.sets.sort(key=lambda ts: ts.index)
    return result


def _resumed(out_dir: Path, rules: Rules, task: TableTask) -> TableSet | None:
    """Set ``task`` from its saved records, if all its plays are there."""
    seed, dealer = derive_seed(task.seed, task.index, "cards"), rules.nplayers - 1
    first = (Game(rules, seed=seed, first_dealer=dealer).state if task.mode == "games"
             else State.new_deal(rules, seed, dealer=dealer))
    names = [[agent_label(task.specs[e]) for e in seating] for seating in task.seatings]
    saved = saved_set(out_dir, task.mode, task.index, names, rules, first)
    if saved is None:
        return None
    return TableSet(task.index, tuple(
        seating_result(rules, task.mode, seating, deals, winner)
        for seating, (deals, winner) in zip(task.seatings, saved, strict=True)))


