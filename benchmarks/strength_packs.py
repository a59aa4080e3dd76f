"""Playing strength in the one-deal games (Rubicon, Six-pack, Eight-pack; issue #13 item 3).

Usage::

    python benchmarks/strength_packs.py --variant rubicon --a search --b heuristic \
        [--deals 200] [--seed 1] [--log FILE.jsonl]

Duplicated deals as in the arena (:mod:`bezique.arena`: each deal twice with the seats
swapped, every seed derived from ``--seed`` and the pair's number), scored by the settlement
of RULES.md 9.0.7: a half is won by the settlement's winner, and the points are the settled
values.  Agent A's decision times are measured where it had a real choice (more than one legal
action).  One line of JSON per pair goes to ``--log`` as it finishes, so a run stopped early
keeps what it measured; ``--summary FILE.jsonl`` prints the Markdown row of such a log.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from bezique import Rules, State
from bezique.agents import make_agent
from bezique.arena import derive_seed, score_interval


def play_pair(variant: str, spec_a: str, spec_b: str, seed: int, index: int) -> dict[str, object]:
    """Both halves of pair ``index``: A's score (1, 0.5, 0) and settled points, A's times."""
    rules = Rules.preset(variant)
    deal_seed = derive_seed(seed, index, "cards")
    out: dict[str, object] = {"pair": index, "halves": []}
    times: list[float] = []
    for half in (0, 1):
        a = make_agent(spec_a, seed=derive_seed(seed, index, half, "a"))
        b = make_agent(spec_b, seed=derive_seed(seed, index, half, "b"))
        seat_a = half
        agents = [a, b] if seat_a == 0 else [b, a]
        state = State.new_deal(rules, deal_seed, dealer=1)
        while not state.is_terminal():
            seat = state.current_player()
            obs = state.observation(seat)
            t0 = time.perf_counter()
            text = agents[seat].act(obs)
            if seat == seat_a and len(obs.legal) > 1:
                times.append(time.perf_counter() - t0)
            state.apply(text)
        st = state.settlement()
        score = 0.5 if st.winner < 0 else 1.0 if st.winner == seat_a else 0.0
        pts = (st.value if st.winner == seat_a else 0, st.value if st.winner == 1 - seat_a else 0)
        halves = out["halves"]
        assert isinstance(halves, list)
        halves.append({"score": score, "points": pts, "scores": list(state.scores),
                       "rubicon": st.rubicon})
    out["times"] = times
    return out


def summary(path: Path) -> str:
    """The Markdown row of a log written by this script."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    head = rows[0]
    pairs = rows[1:]
    scores = [sum(h["score"] for h in p["halves"]) / 2 for p in pairs]
    deals = 2 * len(pairs)
    wins = sum(h["score"] == 1.0 for p in pairs for h in p["halves"])
    losses = sum(h["score"] == 0.0 for p in pairs for h in p["halves"])
    draws = deals - wins - losses
    lo, hi = score_interval(scores)
    pa = sum(h["points"][0] for p in pairs for h in p["halves"]) / max(1, deals)
    pb = sum(h["points"][1] for p in pairs for h in p["halves"]) / max(1, deals)
    times = [t for p in pairs for t in p["times"]]
    med = f"{statistics.median(times):.2f} s" if times else "–"
    p90 = f"{sorted(times)[int(0.9 * (len(times) - 1))]:.2f} s" if times else "–"
    score = sum(scores) / max(1, len(scores))
    return (f"| {head['variant']} | {head['a']} | {head['b']} | {deals} | {wins} | {losses} | "
            f"{draws} | {100 * score:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] | "
            f"{pa:.0f} – {pb:.0f} | {med} / {p90} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="rubicon")
    ap.add_argument("--a", default="search")
    ap.add_argument("--b", default="heuristic")
    ap.add_argument("--deals", type=int, default=200, help="deals in all (two per pair)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log", type=Path, default=None)
    ap.add_argument("--summary", type=Path, default=None)
    args = ap.parse_args()
    if args.summary:
        print(summary(args.summary))
        return
    log = args.log.open("w") if args.log else sys.stdout
    import bezique

    log.write(json.dumps({"variant": args.variant, "a": args.a, "b": args.b,
                          "seed": args.seed, "compiled": bezique.COMPILED}) + "\n")
    log.flush()
    for i in range((args.deals + 1) // 2):
        log.write(json.dumps(play_pair(args.variant, args.a, args.b, args.seed, i)) + "\n")
        log.flush()


if __name__ == "__main__":
    main()
