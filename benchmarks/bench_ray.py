"""The Ray speed-up: one ``bezique arena`` command run locally and on a local Ray with 1 and 2
workers (and locally with 2 processes), one after the other; checks the results are equal.

Usage::

    python benchmarks/bench_ray.py [--deals 40] [--agents "search:samples=20 heuristic"]

Prints a Markdown table of wall times with the load average at each start (on a shared machine
the load says how much of the cores the runs really had).  Last results:
``benchmarks/RESEARCH.md``.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import time
from pathlib import Path

RUNS = (("local, `--jobs 1`", ["--jobs", "1"]), ("Ray, 1 worker", ["--ray", "--jobs", "1"]),
        ("Ray, 2 workers", ["--ray", "--jobs", "2"]), ("local, `--jobs 2`", ["--jobs", "2"]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--agents", default="search:samples=20 heuristic")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    base = ["bezique", "arena", *shlex.split(args.agents), "--deals", str(args.deals),
            "--seed", str(args.seed), "--json"]
    print(f"command: {shlex.join(base)} ...\n")
    print("| run | wall time | load average (1 min) at its start |\n|---|---:|---:|")
    outputs = set()
    for name, extra in RUNS:
        load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() \
            else "?"
        start = time.perf_counter()
        out = subprocess.run([*base, *extra], capture_output=True, text=True, check=True).stdout
        print(f"| {name} | {time.perf_counter() - start:.1f} s | {load} |", flush=True)
        outputs.add(out.strip())
    print(f"\nresults equal: {len(outputs) == 1}: {outputs.pop() if len(outputs) == 1 else ''}")
    sys.exit(0 if len(outputs) <= 1 else 1)


if __name__ == "__main__":
    main()
