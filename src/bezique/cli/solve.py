"""``bezique solve``: the last tricks of a record solved exactly (:mod:`bezique.agents.endgame`)."""

from __future__ import annotations

import json

import click

from ..errors import BeziqueError
from .common import fail


@click.command("solve")
@click.argument("record_file", metavar="RECORD")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"best": ..., "value": ..., "nodes": ..., "ms": ...}.')
def solve_cmd(record_file: str, as_json: bool) -> None:
    """Solve the last tricks exactly, at the end of the record's actions.

    The position must be in the end phase (the stock gone).  The value is the points still
    to be won by the player to act less the opponent's, both playing best.
    """
    from ..agents.endgame import solve
    from ..record import load_record, replay_deals

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
        fail(str(e))
    if as_json:
        click.echo(json.dumps(result.as_dict()))
        return
    player = state.current_player()
    click.echo(
        f"Player {player} to act: best {result.best}, value {result.value:+d} "
        f"({result.nodes} nodes, {result.ms:.1f} ms)"
    )
