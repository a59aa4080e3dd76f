"""``bezique stats``: the terminal player's history and statistics from the saved games."""

from __future__ import annotations

import json

import click


@click.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print the tallies as JSON.")
def stats_cmd(as_json: bool) -> None:
    """Games and deals won, points a deal, best meld and win rate over time, per player and
    per level, from the games `bezique play` saved."""
    from ..stats import tally
    from ..tui.history import saved_games, stats_lines

    if as_json:
        out = [{"player": p, "against": a, **t.to_json()}
               for (p, a), t in sorted(tally(saved_games()).items())]
        click.echo(json.dumps(out))
        return
    for line in stats_lines():
        click.echo(line)
