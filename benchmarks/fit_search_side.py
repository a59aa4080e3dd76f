"""Fit what each side's hand is worth in the search's own games (``search:weights=search``).

The search values a horizon leaf of a one-deal game by each side's likely final points
(:mod:`bezique.agents.settled`), fitted on *heuristic* self-play (``fit_evaluation.py
--variant V``): what a hand is worth when the heuristic goes on to play it.  But after the
leaf the search's own side is played by the search, which turns the melds in its hand into
points more often than the heuristic does (in Rubicon about 180 meld points a deal more).
This script fits the variant's tuple again on the positions of arena records of the search
against the heuristic, once for the search's side and once for the heuristic's, each shrunk
towards the self-play tuple (a ridge penalty on the difference, scaled like
``fit_variant.py``'s), and writes them into ``SEARCH_WEIGHTS[variant]`` of
``src/bezique/agents/evaluation.py``.  The spread stays the self-play tuple's.

Records are arena folders or their ``.tar.gz`` archives (``benchmarks/runs``); a half counts
when one player's name starts with ``search`` and the other's with ``heuristic``.  The deals
numbered above ``--hold-out`` of the largest are held out (the same deals in every run of a
seed), and the held-out R^2 of each side's points still to win is printed for the self-play
tuple and for each shrinkage tried:

    python benchmarks/fit_search_side.py --variant rubicon \\
        benchmarks/runs/rubicon_search_refit_heuristic_seed1.tar.gz ... --write
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fit_variant import MODULE, put_table, tuple_lines

from bezique.agents.evaluation import FEATURES, SEARCH_WEIGHTS, VARIANT_WEIGHTS, features
from bezique.record import parse_record
from bezique.state import LEAD

SHRINKS = (0.001, 0.01, 0.1, 0.3, 1.0, 3.0)

# one stock-phase lead: (share of the stock left, scores, features of seat 0 and of seat 1)
Position = tuple[float, tuple[int, int], list[float], list[float]]
# a half: (deal number, its leads, final scores, the search's seat)
Half = tuple[int, list[Position], tuple[int, int], int]


def records(paths: list[str]) -> Iterator[tuple[str, Any]]:
    """(name, parsed JSON) of every ``deal-*.json`` in the folders and archives given."""
    for path in paths:
        if path.endswith((".tar.gz", ".tgz")):
            with tarfile.open(path) as tar:
                for member in sorted(tar.getmembers(), key=lambda m: m.name):
                    if re.search(r"deal-\d+-\d+\.json$", member.name):
                        f = tar.extractfile(member)
                        if f is not None:
                            yield member.name, json.load(f)
        else:
            for f in sorted(Path(path).glob("deal-*.json")):
                yield f.name, json.loads(f.read_text(encoding="utf-8"))


def half_of(name: str, data: Any, variant: str) -> Half | None:
    """The leads of one half (search against heuristic, of ``variant``), or None."""
    players = [str(p).split("@")[0] for p in data.get("players", [])]
    if data.get("variant") != variant or len(players) != 2:
        return None
    kinds = ["search" if p.startswith("search") else "heuristic" if p.startswith("heuristic")
             else "" for p in players]
    if sorted(kinds) != ["heuristic", "search"]:
        return None
    state = parse_record(data).start(0)
    size = max(1, state.rules.stock_size)
    leads: list[Position] = []
    for text in data["deals"][0]["actions"]:
        if state.phase_id == LEAD and not state.end_phase:
            s = state.scores
            leads.append((state.stock_left / size, (s[0], s[1]), features(state, 0),
                          features(state, 1)))
        state.apply(text)
    number = int(re.search(r"deal-(\d+)", name).group(1))  # type: ignore[union-attr]
    return number, leads, (state.scores[0], state.scores[1]), kinds.index("search")


def design(halves: list[Half], searcher: bool) -> tuple[list[list[float]], list[float]]:
    """Rows (share left, own features, other's) and points still won, of the search's side
    (``searcher``) or of the heuristic's."""
    xs: list[list[float]] = []
    ys: list[float] = []
    for _n, leads, final, me in halves:
        side = me if searcher else 1 - me
        for left, s, f0, f1 in leads:
            own, other = (f0, f1) if side == 0 else (f1, f0)
            xs.append([left, *own, *other])
            ys.append(float(final[side] - s[side]))
    return xs, ys


def write(variant: str, sides: tuple[tuple[float, ...], tuple[float, ...]]) -> None:
    """Put ``sides`` into ``SEARCH_WEIGHTS[variant]`` of the evaluation module."""
    table = dict(SEARCH_WEIGHTS)
    table[variant] = sides
    lines = []
    for name in sorted(table):
        lines.append(f'    "{name}": (')
        for w in table[name]:
            lines.append("        (")
            lines.extend(tuple_lines(w, "            "))
            lines.append("        ),")
        lines.append("    ),")
    put_table(MODULE,
              "SEARCH_WEIGHTS: dict[str, tuple[tuple[float, ...], tuple[float, ...]]] = {",
              lines, "SEARCH_WEIGHTS")


def main() -> None:
    import numpy as np  # (as fit_variant.py: `pip install -e '.[train]'`)

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+", help="arena record folders or .tar.gz archives")
    ap.add_argument("--variant", default="rubicon")
    ap.add_argument("--shrink", type=float, default=0.1,
                    help="the ridge weight towards the self-play tuple that is written")
    ap.add_argument("--hold-out", type=float, default=0.2,
                    help="share of the deal numbers (the highest) held out")
    ap.add_argument("--write", action="store_true", help="write the fitted tuples")
    args = ap.parse_args()
    base = VARIANT_WEIGHTS.get(args.variant)
    if base is None:
        sys.exit(f"{args.variant} has no self-play tuple to start from")
    halves = [h for name, data in records(args.paths)
              if (h := half_of(name, data, args.variant)) is not None]
    if not halves:
        sys.exit("no half of the search against the heuristic in these records")
    top = max(n for n, *_ in halves)
    cut = top - round(args.hold_out * top)
    train = [h for h in halves if h[0] <= cut]
    test = [h for h in halves if h[0] > cut]
    print(f"{args.variant}: {len(halves)} halves ({len(train)} training, {len(test)} held out), "
          f"{sum(len(h[1]) for h in halves)} leads")
    n = len(FEATURES)
    prior = np.array([base[0], *base[2:]])
    chosen: list[tuple[float, ...]] = []
    for searcher in (True, False):
        x, y = (np.array(a) for a in design(train, searcher))
        tx, ty = (np.array(a) for a in design(test, searcher))
        xtx = x.T @ x
        scale = np.maximum(np.diag(xtx), 1e-9)

        def r2(w: Any, tx: Any = tx, ty: Any = ty) -> float:
            return float(1.0 - ((ty - tx @ w) ** 2).mean() / ty.var())

        line = [f"self-play tuple {r2(prior):.4f}"]
        for k in sorted({*SHRINKS, args.shrink}):
            pen = k * np.diag(scale)
            w = np.linalg.solve(xtx + pen, x.T @ y + pen @ prior)
            mark = ""
            if k == args.shrink:
                c = [float(v) for v in w]
                chosen.append((c[0], base[1], *c[1:1 + 2 * n]))
                mark = " (written)"
            line.append(f"shrink {k:g} {r2(w):.4f}{mark}")
        side = "search's side" if searcher else "heuristic's side"
        print(f"held-out R^2, {side}: " + ", ".join(line))
    print(f"{'term':26s} {'self-play':>10s} {'search':>10s} {'heuristic':>10s}")
    names = ("future", "spread", *(f"own_{f}" for f in FEATURES),
             *(f"other_{f}" for f in FEATURES))
    for i, name in enumerate(names):
        print(f"{name:26s} {base[i]:10.4f} {chosen[0][i]:10.4f} {chosen[1][i]:10.4f}")
    if args.write:
        write(args.variant, (chosen[0], chosen[1]))
        print(f"wrote {args.variant} (shrink {args.shrink:g}) into {MODULE}")


if __name__ == "__main__":
    main()
