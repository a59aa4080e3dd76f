"""Commands of the `bezique` CLI for the agents layer: ``bezique solve``."""

from __future__ import annotations

import json
import sys

import click

from .errors import BeziqueError


def _fail(message: str) -> None:
    click.echo(f"bezique: error: {message}", err=True)
    sys.exit(2)


def register(group: click.Group) -> None:
    """Add this layer's commands to ``group``."""

    @group.command("agents")
    def agents_cmd() -> None:
        """List the agents, their options with defaults, and the playing levels.

        Name an agent with options as NAME:KEY=VALUE,... wherever an agent is asked for
        (bezique arena, the engine protocol, make_agent in Python).
        """
        from .agents import agent_options, agent_summaries
        from .agents.levels import DEFAULT_LEVEL, LEVELS

        for name, summary in agent_summaries().items():
            click.echo(f"{name}: {summary}")
            opts = agent_options(name)
            if opts:
                click.echo("  options: " + ", ".join(f"{k}={v}" for k, v in opts.items()))
        click.echo("levels: " + ", ".join(
            f"{lv} = {spec}{' (default)' if lv == DEFAULT_LEVEL else ''}"
            for lv, spec in LEVELS.items()))

    @group.command("solve")
    @click.argument("record_file", metavar="RECORD", type=click.Path(dir_okay=False))
    @click.option("--json", "as_json", is_flag=True,
                  help='Print {"best": ..., "value": ..., "nodes": ..., "ms": ...}.')
    def solve_cmd(record_file: str, as_json: bool) -> None:
        """Solve the last tricks exactly, at the end of the record's actions.

        The position must be in the end phase (the stock gone).  The value is the points still
        to be won by the player to act less the opponent's, both playing best.
        """
        from .agents.solver import solve
        from .record import load_record, replay_deals

        try:
            record = load_record(record_file)
            deals = replay_deals(record)
            last = deals[-1]
            for step in last.steps:
                if not step["ok"]:
                    raise BeziqueError(
                        f"the record's action {step['action']!r} is refused: {step['error']}"
                    )
            state = last.state
            result = solve(state)
        except BeziqueError as e:
            _fail(str(e))
            return
        if as_json:
            click.echo(json.dumps(result.as_dict()))
            return
        player = state.current_player()
        click.echo(
            f"Player {player} to act: best {result.best}, value {result.value:+d} "
            f"({result.nodes} nodes, {result.ms:.1f} ms)"
        )
