"""What the subcommands of the ``bezique`` command share: one-line errors, option parsing and the
progress bar of long runs.

Every error a user can cause prints one line and exits with status 2, never a traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from ..agents.base import AGENT_VARIANTS
from ..errors import BeziqueError
from ..rules import OPTION_NAMES, Rules

if TYPE_CHECKING:
    from rich.progress import Progress


def fail(message: str) -> NoReturn:
    """Print a one-line error and exit with status 2."""
    click.echo(f"bezique: error: {message}", err=True)
    sys.exit(2)


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``name=value`` pairs from the command line as an options mapping."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise BeziqueError(f"option {pair!r} must be written name=value")
        out[name.strip()] = value.strip()
    return out


def whole(text: str, name: str, minimum: int | None) -> int:
    """A whole number given on the command line, or a one-line error."""
    try:
        value = int(text.strip())
    except ValueError:
        fail(f"{name} must be a whole number, not {text!r}")
    if minimum is not None and value < minimum:
        fail(f"{name} must be at least {minimum}, not {value}")
    return value


def writable_file(path: str) -> None:
    """Fail (one line) now, before a long run, if the file ``path`` cannot be written at its
    end: its folder missing or not a folder, or no permission."""
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        fail(f"cannot write {path}: {folder} is not a folder")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        fail(f"cannot write {path}: permission denied")


def output_folder(path: str) -> None:
    """Create the output folder ``path`` now, before a long run (one line if it cannot be)."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"cannot create {path}: {e.strerror or e}")


@contextmanager
def progress_bar(description: str, total: int, show: bool | None = None
                 ) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr (when it is a terminal, or ``show``) for ``total`` steps;
    yields the callback that sets the number of steps done.  It refreshes only when told (no
    thread), so worker processes may fork under it."""
    if show is None:
        show = sys.stderr.isatty()
    if not show:
        yield lambda done: None
        return
    with rich_progress(transient=True) as bar:
        tid = bar.add_task(description, total=total)
        yield lambda done: bar.update(tid, completed=done, refresh=True)


def rich_progress(transient: bool) -> Progress:
    """The command line's rich progress display on stderr: description, bar, steps done of
    all, time taken and left; refreshed only when told (no thread)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TimeRemainingColumn(), transient=transient,
                    auto_refresh=False, console=Console(stderr=True))


def match_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The options of a match of agents (``arena``, ``tournament``): ``--games``/``--deals``,
    ``--seed``, ``--jobs``, ``--ray [ADDRESS]``, ``--variant`` and ``-o NAME=VALUE``."""
    for option in reversed((
        click.option("--games", type=int, default=None,
                     help="Play N games to the target (every seating of each set of cards "
                          "counted, N rounded up to whole sets) instead of single deals."),
        click.option("--deals", type=int, default=None,
                     help="Play N single deals, duplicated: each set of cards played in "
                          "every seating, so N is rounded up to whole sets (the default is "
                          "100 deals)."),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Match seed: fixes every deal and every agent's own seed."),
        click.option("--jobs", "-j", type=int, default=None,
                     help="Worker processes (the results do not depend on it) [default: 1; "
                          "with --ray and no address: one per core]."),
        click.option("--ray", "ray", is_flag=False, flag_value="local", default=None,
                     metavar="[ADDRESS]",
                     help="Play on Ray: a local Ray (no ADDRESS) or the cluster at ADDRESS "
                          "(e.g. auto); the results are the same as a local run's."),
        click.option("--variant", default="bezique", show_default=True,
                     help=f"A variant the computer players know ({', '.join(AGENT_VARIANTS)})."),
        click.option("-o", "--option", "options", multiple=True, metavar="NAME=VALUE",
                     help=f"A rule option ({', '.join(OPTION_NAMES)})."),
    )):
        f = option(f)
    return f


def match_setup(games: int | None, deals: int | None, variant: str, options: tuple[str, ...],
                jobs: int | None, ray: str | None) -> tuple[Rules, int | None, int | None, int,
                                                        int]:
    """What :func:`match_options` gave, checked: the rules (a variant the agents play), games
    or deals (100 deals by default), how many, and the worker processes (0: one per core)."""
    from ..agents.base import require_agent_variant

    if games is not None and deals is not None:
        fail("give --games or --deals, not both")
    if games is None and deals is None:
        deals = 100
    rules = Rules.preset(variant, **parse_options(options))
    require_agent_variant(rules)
    count = games if games is not None else deals
    assert count is not None
    return rules, games, deals, count, jobs if jobs is not None else 0 if ray else 1
