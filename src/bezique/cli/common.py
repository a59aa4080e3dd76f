"""What the subcommands of the ``bezique`` command share: one-line errors and option parsing.

Every error a user can cause prints one line and exits with status 2, never a traceback.
"""

from __future__ import annotations

import sys
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
