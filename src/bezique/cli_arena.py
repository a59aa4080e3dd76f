"""Commands of the `bezique` CLI for the arena and engine layer, registered on the main group."""

from __future__ import annotations

import click


def register(group: click.Group) -> None:
    """Add the arena and engine layer's commands to ``group``."""
