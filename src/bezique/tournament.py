"""Round-robin tournaments: every pair of agents matched on duplicated deals, Bradley–Terry ratings
with confidence intervals, and the table and plot of the ratings.

Every pairing plays the same cards (pair ``k`` of every match is dealt from the tournament seed
and ``k``), so the agents are compared on equal luck.  All the pairs of all the pairings are
played as one batch, locally on ``jobs`` processes or on Ray (:mod:`bezique.distributed`), and
the results do not depend on where they ran.

Ratings (:func:`bradley_terry`): the Bradley–Terry model, on the Elo scale, gives agent ``i`` the
expected score ``1 / (1 + 10 ** ((R_j - R_i) / 400))`` against ``j``; each half of a pair is one
result (1, 0.5 or 0) and the ratings maximise their likelihood (Newton's method), with one
virtual draw added to every pairing so that an agent that won everything still gets a finite
rating.  The ratings are centred on a mean of 0.  The 95% intervals are ±1.96 standard errors
from the inverse of the Fisher information (the Hessian of the log-likelihood) at the fit.  They
count the two halves of a duplicated pair as independent results; duplication makes a pair's
score less variable than that (the luck of the cards cancels), so the intervals are on the
cautious side.

>>> r, se = bradley_terry_fit(2, {(0, 1): (3.0, 4)})  # agent 0 scored 3 of 4 against agent 1
>>> round(r[0] - r[1], 1)  # with the virtual draw: 3.5 of 5, 70%
147.2
>>> round(se[0], 1) == round(se[1], 1) > 0
True
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .agents import make_agent
from .arena import Z95, MatchResult, pair_tasks, play_pairs, require_two_seats
from .errors import BeziqueError
from .rules import Rules

ELO = 400.0 / math.log(10.0)  # natural-log ratings to Elo points
PRIOR_GAMES = 1.0  # virtual drawn games added to every pairing


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting; ``a`` is small)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-300:
            raise BeziqueError("the ratings cannot be fitted: some agents never met")
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def _information(theta: list[float], games: list[list[float]]) -> list[list[float]]:
    """The Fisher information of the natural-log ratings (minus the Hessian of the
    log-likelihood)."""
    n = len(theta)
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and games[i][j]:
                p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
                w = games[i][j] * p * (1.0 - p)
                info[i][i] += w
                info[i][j] -= w
    return info


def bradley_terry_fit(n: int, results: dict[tuple[int, int], tuple[float, int]],
                      prior: float = PRIOR_GAMES) -> tuple[list[float], list[float]]:
    """Elo-scale Bradley–Terry ratings (mean 0) of ``n`` agents from ``results[(i, j)] =
    (score of i against j, games)``, with ``prior`` virtual draws added to every pairing, and
    the standard error of each (from the inverse of the Fisher information, for ratings
    constrained to mean 0)."""
    games = [[0.0] * n for _ in range(n)]
    won = [0.0] * n
    for (i, j), (score, count) in results.items():
        g = count + prior
        games[i][j] += g
        games[j][i] += g
        won[i] += score + prior / 2
        won[j] += count - score + prior / 2
    theta = [0.0] * n
    for _ in range(100):
        info = _information(theta, games)
        grad = [won[i] - sum(games[i][j] / (1.0 + math.exp(theta[j] - theta[i]))
                             for j in range(n) if j != i) for i in range(n)]
        if n == 1 or max(abs(g) for g in grad) < 1e-10:
            break
        # Newton's step with agent 0 held at 0 (the ratings are defined up to a shift)
        step = _solve([row[1:] for row in info[1:]], grad[1:])
        for k, s in enumerate(step, 1):
            theta[k] += s
    mean = sum(theta) / n
    # the covariance of the centred ratings: the pseudo-inverse of the information,
    # (I + 11'/n)^-1 - 11'/n (its null space is a common shift)
    info = _information(theta, games)
    shifted = [[v + 1.0 / n for v in row] for row in info]
    se = []
    for i in range(n):
        col = _solve(shifted, [1.0 if k == i else 0.0 for k in range(n)])
        se.append(math.sqrt(max(col[i] - 1.0 / n, 0.0)) * ELO)
    return [(t - mean) * ELO for t in theta], se


def bradley_terry(n: int, results: dict[tuple[int, int], tuple[float, int]],
                  prior: float = PRIOR_GAMES) -> list[float]:
    """The ratings of :func:`bradley_terry_fit` without their standard errors."""
    return bradley_terry_fit(n, results, prior)[0]


@dataclass(frozen=True)
class Rating:
    """One agent's line of the table: Bradley–Terry Elo with its 95% interval."""

    agent: str
    elo: float
    low: float
    high: float
    score: float  # its share of all its results, draws counting half
    games: int


@dataclass
class TournamentResult:
    """Every match of a round robin (``matches[(i, j)]``: agent ``i`` as A against ``j``)."""

    agents: tuple[str, ...]
    mode: str
    seed: int
    matches: dict[tuple[int, int], MatchResult]
    ratings: list[Rating]

    def markdown(self) -> str:
        """The ratings table (best first) and the cross table of scores, as Markdown."""
        what = "games" if self.mode == "games" else "deals"
        per = next(iter(self.matches.values())).games if self.matches else 0
        out = [f"Round robin of {len(self.agents)} agents, {per} duplicated {what} a pairing, "
               f"seed {self.seed}; Bradley–Terry Elo (mean 0) with 95% intervals.",
               "", "| rank | agent | Elo | 95% interval | score | games |",
               "|---:|---|---:|---|---:|---:|"]
        for k, r in enumerate(self.ratings, 1):
            out.append(f"| {k} | {r.agent} | {r.elo:+.0f} | {r.low:+.0f} to {r.high:+.0f} | "
                       f"{100 * r.score:.1f}% | {r.games} |")
        out += ["", "Score of the row against the column:", "",
                "| | " + " | ".join(self.agents) + " |",
                "|---|" + "---:|" * len(self.agents)]
        for i, a in enumerate(self.agents):
            cells = ["–" if i == j else f"{100 * self.score_of(i, j):.1f}%"
                     for j in range(len(self.agents))]
            out.append(f"| {a} | " + " | ".join(cells) + " |")
        return "\n".join(out) + "\n"

    def score_of(self, i: int, j: int) -> float:
        """Agent ``i``'s score against agent ``j``."""
        if (i, j) in self.matches:
            return self.matches[(i, j)].score
        return 1.0 - self.matches[(j, i)].score

    def csv(self) -> str:
        """The ratings table as CSV (agent, elo, low, high, score, games)."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["rank", "agent", "elo", "elo_low", "elo_high", "score", "games"])
        for k, r in enumerate(self.ratings, 1):
            w.writerow([k, r.agent, f"{r.elo:.1f}", f"{r.low:.1f}", f"{r.high:.1f}",
                        f"{r.score:.4f}", r.games])
        return buf.getvalue()

    def to_json(self) -> dict[str, Any]:
        """The ratings and every match's summary (``bezique arena --json``'s object)."""
        return {
            "agents": list(self.agents), "mode": self.mode, "seed": self.seed,
            "ratings": [{"agent": r.agent, "elo": round(r.elo, 1),
                         "elo_ci95": [round(r.low, 1), round(r.high, 1)],
                         "score": round(r.score, 4), "games": r.games} for r in self.ratings],
            "matches": [{"a": self.agents[i], "b": self.agents[j], **m.to_json()}
                        for (i, j), m in sorted(self.matches.items())],
        }


def rate(agents: Sequence[str], matches: dict[tuple[int, int], MatchResult]) -> list[Rating]:
    """The ratings of a round robin with 95% intervals (±1.96 standard errors), best first."""
    results = {k: (m.score * m.games, m.games) for k, m in matches.items()}
    elo, se = bradley_terry_fit(len(agents), results)
    out = []
    for i, a in enumerate(agents):
        score = games = 0.0
        for (x, y), m in matches.items():
            if i in (x, y):
                score += m.games * (m.score if i == x else 1.0 - m.score)
                games += m.games
        out.append(Rating(a, elo[i], elo[i] - Z95 * se[i], elo[i] + Z95 * se[i],
                          score / games if games else 0.5, int(games)))
    return sorted(out, key=lambda r: -r.elo)


def run_tournament(agents: Sequence[str], rules: Rules, *, deals: int | None = None,
                   games: int | None = None, seed: int = 0, jobs: int = 1,
                   ray: str | None = None,
                   progress: Callable[[int], None] | None = None) -> TournamentResult:
    """Match every pair of ``agents`` on ``deals`` duplicated deals (or ``games`` games) each
    and rate them.  ``jobs`` and ``ray`` as for :func:`bezique.arena.run_match`; ``progress``
    is called with the number of duplicated pairs done (of all the pairings)."""
    require_two_seats(rules)
    specs = tuple(agents)
    if len(specs) < 2:
        raise BeziqueError("a tournament needs at least two agents")
    if len(set(specs)) != len(specs):
        raise BeziqueError("each agent may appear only once (give options to tell two apart)")
    if (games is None) == (deals is None):
        raise BeziqueError("give either a number of games or a number of deals")
    count = games if games is not None else deals
    assert count is not None
    if count < 1:
        raise BeziqueError("the number of deals or games must be at least 1")
    if jobs < (0 if ray is not None else 1):
        raise BeziqueError("--jobs must be at least 1")
    for spec in specs:
        make_agent(spec, seed=0)  # refuse unknown agents and bad options before starting
    mode = "games" if games is not None else "deals"
    keys = [(i, j) for i in range(len(specs)) for j in range(i + 1, len(specs))]
    tasks, owner = [], []
    for key in keys:
        for t in pair_tasks(specs[key[0]], specs[key[1]], rules, mode, count, seed):
            tasks.append(t)
            owner.append(key)
    matches = {k: MatchResult((specs[k[0]], specs[k[1]]), mode, seed) for k in keys}
    for done, (number, pr) in enumerate(play_pairs(tasks, jobs, ray), 1):
        matches[owner[number]].pairs.append(pr)
        if progress is not None:
            progress(done)
    for m in matches.values():
        m.pairs.sort(key=lambda pr: pr.index)
    return TournamentResult(specs, mode, seed, matches, rate(specs, matches))


def plot_ratings(result: TournamentResult, path: str | Path) -> None:
    """A PNG of the ratings with their intervals (matplotlib, drawn off-screen with Agg)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise BeziqueError("the plot needs matplotlib: pip install 'bezique[research]'") from None
    ratings = list(reversed(result.ratings))  # best at the top
    fig = Figure(figsize=(7.0, 1.2 + 0.5 * len(ratings)))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ys = list(range(len(ratings)))
    xs = [r.elo for r in ratings]
    ax.errorbar(xs, ys, xerr=[[r.elo - r.low for r in ratings], [r.high - r.elo for r in ratings]],
                fmt="o", capsize=4)
    ax.set_yticks(ys, [r.agent for r in ratings])
    ax.axvline(0.0, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("Bradley–Terry Elo (mean 0), 95% interval")
    ax.set_title(f"Round robin, seed {result.seed}")
    fig.tight_layout()
    try:
        fig.savefig(str(path), dpi=100)
    except OSError as e:
        raise BeziqueError(f"cannot write {path}: {e.strerror or e}") from None


def can_plot() -> bool:
    """Whether matplotlib is there to draw ``ratings.png`` (the research extra)."""
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None


def write_outputs(result: TournamentResult, out_dir: str | Path) -> list[Path]:
    """``ratings.md``, ``ratings.csv``, ``tournament.json`` and, with matplotlib
    (:func:`can_plot`), ``ratings.png`` in ``out_dir``: the files written."""
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
        files = [out / "ratings.md", out / "ratings.csv", out / "tournament.json"]
        files[0].write_text(result.markdown(), encoding="utf-8")
        files[1].write_text(result.csv(), encoding="utf-8")
        files[2].write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
    except OSError as e:
        raise BeziqueError(f"cannot write to {out}: {e.strerror or e}") from None
    if not can_plot():
        return files
    plot_ratings(result, out / "ratings.png")
    return [*files, out / "ratings.png"]
