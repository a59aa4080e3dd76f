"""``bezique replay``: a game record as a trick-by-trick account, or its result as JSON."""

from __future__ import annotations

import json

import click

from ..errors import BeziqueError
from ..narrate import deal_header, narrate
from ..record import load_record, replay, replay_deals
from .common import fail


@click.command("replay")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print the result object (RULES.md 8).")
@click.option("--legal", is_flag=True, help="With --json: list the legal actions of each step.")
def replay_cmd(file: str, as_json: bool, legal: bool) -> None:
    """Replay a game record: a trick-by-trick account, or JSON with --json."""
    try:
        record = load_record(file)
    except BeziqueError as e:
        fail(str(e))
    if as_json:
        click.echo(json.dumps(replay(record, legal=legal)))
        return
    if record.rules.nplayers != 2:
        fail(f"the readable account is for two-handed games; use --json for {record.rules.variant}")
    names = ("Player 0", "Player 1")
    results = replay_deals(record)
    one_deal = record.rules.settlement == "portland"  # each deal is a game of its own
    for i, d in enumerate(record.deals):
        if i:
            click.echo("")
        start = record.start(i, results[i - 1].state.game_scores if i and not one_deal else None)
        for line in deal_header(start, i + 1, names):
            click.echo(line)
        for line in narrate(start, list(d.actions), names):
            click.echo(line)
        if not results[i].state.is_terminal():
            click.echo(f"(the record stops here, after trick {results[i].state.tricks_played})")
    last = results[-1].state
    g = last.game_scores
    end = f"{names[last.winner]} wins the game." if last.winner is not None else "No winner yet."
    click.echo(f"Game: {names[0]} {g[0]}, {names[1]} {g[1]}. {end}")
