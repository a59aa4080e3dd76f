"""Commands of the `bezique` CLI for this layer, registered on the main group."""

from __future__ import annotations

import click


def register(group: click.Group) -> None:
    """Add this layer's commands to ``group``."""
