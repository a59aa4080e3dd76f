"""``bezique engine``: the engine protocol on stdin and stdout (:mod:`bezique.engine`)."""

from __future__ import annotations

import io
import sys

import click


@click.command("engine")
def engine() -> None:
    """Speak the engine protocol: JSON lines on stdin and stdout (see the README)."""
    from ..engine import run

    # bytes that are not UTF-8 become U+FFFD: that request is answered with an error, no crash;
    # a line ends at "\n" only (a stray "\r" inside one must not make it two requests)
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace", newline="\n")
    run(stdin, sys.stdout)
