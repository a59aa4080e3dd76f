"""``bezique stats``: the terminal player's history and statistics from the saved games."""

from __future__ import annotations

import json

import click


@click.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print the tallies as JSON.")
def stats_cmd(as_json: bool) -> None:
    """Games and deals won, points a deal, best meld and win rate over time, per player, per
    level and variant (and per kind of table), from the games `bezique play` saved (a saved
    file that cannot be read is named on a line of its own, and not counted)."""
    from ..stats import tally
    from ..tui.history import gather, stats_lines

    if as_json:
        games, problems = gather()
        out = [{"player": p, "against": a, **t.to_json()}
               for (p, a), t in sorted(tally(games).items())]
        click.echo(json.dumps(out))
        for line in problems:  # the JSON stays whole on the standard output
            click.echo(f"bezique: warning: {line}", err=True)
        return
    for line in stats_lines():
        click.echo(line)
