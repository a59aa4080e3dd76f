"""``bezique train``: self-play by a teacher and the fit of the learned policy and value
(:mod:`bezique.learn.train`), resumable in its output folder."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import BeziqueError
from ..rules import Rules
from .common import fail, rich_progress

if TYPE_CHECKING:
    from rich.progress import TaskID


@contextmanager
def stage_bars() -> Iterator[Callable[[str, int, int], None]]:
    """Rich progress bars on stderr (when it is a terminal), one per stage of the run; yields
    the callback ``(stage, done, total)``."""
    if not sys.stderr.isatty():
        yield lambda stage, done, total: None
        return
    tasks: dict[str, TaskID] = {}
    with rich_progress(transient=False) as bar:

        def update(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done, refresh=True)

        yield update


@click.command("train")
@click.option("--out", "out", type=click.Path(file_okay=False), required=True,
              help="The run's folder: the deals played (one file each), weights.json and "
                   "report.json. A rerun with the same --teacher, --seed and --variant plays "
                   "only the deals not there yet.")
@click.option("--deals", type=int, default=200, show_default=True,
              help="Deals of self-play (the last tenth is held out for the report).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Fixes the deals, the teacher's own seeds and the training.")
@click.option("--teacher", default="search:samples=20", show_default=True,
              help="The agent playing both seats, whose decisions the policy learns.")
@click.option("--epochs", type=int, default=10, show_default=True,
              help="Passes over the training decisions.")
@click.option("--hidden", type=int, default=16, show_default=True,
              help="Hidden units of each network (1 to 32).")
@click.option("--soft", type=float, default=0.0, show_default=True,
              help="With a search teacher: learn how close its other candidates came, not only "
                   "its move (the target is a softmax of its averages over SOFT points); 0: its "
                   "move alone.")
@click.option("--variant", default="bezique", show_default=True, help="bezique or binocle")
def train_cmd(out: str, deals: int, seed: int, teacher: str, epochs: int, hidden: int,
              soft: float, variant: str) -> None:
    """Learn a policy and a value from self-play: the teacher plays --deals deals against
    itself, a small network learns to predict its moves (the policy) and each deal's final
    margin (the value), and the weights are written to OUT/weights.json with a report of
    their held-out accuracy (the shipped weights: bezique.learn; play them with the agent
    'policy' or 'policy:weights=OUT/weights.json'). Needs numpy (pip install 'bezique[train]').
    """
    from ..agents import make_agent
    from ..learn.data import VARIANTS
    from ..learn.train import Settings, numpy_module, train

    if deals < 1:
        fail(f"--deals must be at least 1, not {deals}")
    if not 1 <= epochs <= 10_000:
        fail(f"--epochs must be from 1 to 10000, not {epochs}")
    if not 1 <= hidden <= 32:
        fail(f"--hidden must be from 1 to 32, not {hidden}")
    if not 0.0 <= soft <= 1000.0:
        fail(f"--soft must be from 0 to 1000 points, not {soft}")
    if variant not in VARIANTS:
        fail(f"--variant must be {' or '.join(VARIANTS)}, not {variant!r}")
    try:
        numpy_module()
        make_agent(teacher, seed=0)
        rules = Rules.preset(variant)
        settings = Settings(teacher=teacher, seed=seed, deals=deals, epochs=epochs,
                            hidden=hidden, soft=soft)
        with stage_bars() as progress:
            report = train(Path(out), rules, settings, progress)
    except BeziqueError as e:
        fail(str(e))
    except KeyboardInterrupt:
        fail("interrupted (the deals played so far are kept: run again to go on)")
    n = report["deals"]
    click.echo(f"{out}/weights.json: version {report['version']}, {n} deal{'' if n == 1 else 's'} "
               f"({report['played_now']} played now), {report['train_decisions']} decisions")
    if soft and not report.get("soft_decisions"):
        click.echo("note: the teacher's deals hold no averages of its candidates (it is no "
                   "search, or they were played before it kept them): --soft learned the "
                   "moves alone")
    if "policy_accuracy" in report:
        click.echo(f"held out: {report['held_out_decisions']} decisions; the policy plays the "
                   f"teacher's move {report['policy_accuracy']:.1%} (the heuristic "
                   f"{report['heuristic_accuracy']:.1%})")
    if "value_rmse" in report:
        click.echo(f"value error (root mean square, points of final margin) "
                   f"{report['value_rmse']:.1f}; today's fitted evaluation "
                   f"{report['fitted_rmse']:.1f}; points so far {report['so_far_rmse']:.1f}")
