"""What the subcommands of the ``bezique`` command share: one-line errors, option parsing and the
progress bar of long runs.

Every error a user can cause prints one line and exits with status 2, never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import click

from ..errors import BeziqueError


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
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), transient=True,
                  auto_refresh=False, console=Console(stderr=True)) as bar:
        tid = bar.add_task(description, total=total)
        yield lambda done: bar.update(tid, completed=done, refresh=True)
