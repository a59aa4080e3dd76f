"""``bezique engine``: the engine protocol on stdin and stdout (:mod:`bezique.engine`)."""

from __future__ import annotations

import sys

import click


@click.command("engine")
def engine() -> None:
    """Speak the engine protocol: JSON lines on stdin and stdout (see the README)."""
    from ..engine import run

    run(sys.stdin, sys.stdout)
