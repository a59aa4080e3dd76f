"""``bezique agents``: the agents, their options with defaults, and the playing levels."""

from __future__ import annotations

import click


@click.command("agents")
def agents_cmd() -> None:
    """List the agents, their options with defaults, and the playing levels.

    Name an agent with options as NAME:KEY=VALUE,... wherever an agent is asked for
    (bezique arena, the engine protocol, make_agent in Python).
    """
    from ..agents import agent_names, agent_options, agent_summaries
    from ..agents.base import AGENT_VARIANTS
    from ..agents.levels import DEFAULT_LEVEL, LEVELS

    for name, summary in agent_summaries().items():
        click.echo(f"{name}: {summary}")
        opts = agent_options(name) if name in agent_names() else {}  # (else: not loaded)
        if opts:
            click.echo("  options: " + ", ".join(f"{k}={v}" for k, v in opts.items()))
    click.echo("levels: " + ", ".join(
        f"{lv} = {spec}{' (default)' if lv == DEFAULT_LEVEL else ''}"
        for lv, spec in LEVELS.items()))
    click.echo("variants: " + ", ".join(AGENT_VARIANTS))
