"""``bezique replay``: a game record as a trick-by-trick account, or its result as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..errors import BeziqueError
from ..narrate import deal_header, narrate
from ..record import load_record, record_players, replay, replay_deals
from .common import fail


def players_of(file: str, n: int) -> tuple[str, ...] | None:
    """The names a record file gives its players (read again: the record is known good)."""
    try:
        return record_players(json.loads(Path(file).read_text(encoding="utf-8")), n)
    except (OSError, ValueError, RecursionError):
        return None


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
    names = players_of(file, record.rules.nplayers) or tuple(
        f"Player {i}" for i in range(record.rules.nplayers))
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
    totals = ", ".join(f"{names[i]} {g[i]}" for i in range(len(g)))
    click.echo(f"Game: {totals}. {end}")
