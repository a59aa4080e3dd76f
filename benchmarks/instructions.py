"""Instructions per random deal, counted by valgrind's callgrind: a speed figure that does not
depend on what else the machine is doing (the same binary and inputs give the same count).

Usage::

    python benchmarks/instructions.py [--deals 100] [--variant bezique] [--pure]

It runs ``bench_engine.random_deal`` under ``valgrind --tool=callgrind`` twice: 400 warm-up deals
alone, then the warm-up and ``--deals`` more, and prints the difference divided by ``--deals``
(start-up, imports and the warm-up cancel out).  ``--pure`` sets ``BEZIQUE_PURE=1``.  Compare two
checkouts by running it in each (with each one's own ``bezique`` installed); fewer instructions
is not exactly proportionally faster (cache misses and branches are not counted), so the
deals-per-second figures of ``bench_engine.py`` on a quiet machine remain the targets' measure.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUN = """
import sys
sys.path.insert(0, {here!r})
from bench_engine import random_deal
from bezique import Rules
r = Rules.preset({variant!r})
for i in range(10**6, 10**6 + 400):
    random_deal(r, i)
for i in range({deals}):
    random_deal(r, i)
"""


def count(deals: int, variant: str, pure: bool) -> int:
    """Instructions callgrind counts for the warm-up plus ``deals`` deals."""
    env = dict(os.environ, BEZIQUE_PURE="1" if pure else "0")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "run.py"
        script.write_text(RUN.format(here=str(HERE), variant=variant, deals=deals))
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
             sys.executable, str(script)],
            capture_output=True, text=True, env=env, check=True,
        )
    m = re.search(r"Collected : (\d+)", out.stderr)
    if not m:
        raise SystemExit("valgrind printed no instruction count:\n" + out.stderr[-2000:])
    return int(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--variant", default="bezique")
    ap.add_argument("--pure", action="store_true", help="run the pure-Python sources")
    a = ap.parse_args()
    base = count(0, a.variant, a.pure)
    total = count(a.deals, a.variant, a.pure)
    per = (total - base) // a.deals
    print(f"{a.variant} {'pure' if a.pure else 'as installed'}: {per:,} instructions a deal")


if __name__ == "__main__":
    main()
