"""The ``bezique`` command: demo, replay, and the tools of the other layers.

Every error a user can cause prints one line and exits with status 2, never a traceback.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import click

from .errors import BeziqueError
from .game import Game
from .narrate import deal_header, narrate, step_lines
from .record import load_record, replay, replay_deals
from .rules import OPTION_NAMES, Rules


def fail(message: str) -> None:
    """Print a one-line error and exit with status 2."""
    click.echo(f"bezique: error: {message}", err=True)
    sys.exit(2)


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``name=value`` pairs from the command line as an options mapping."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise BeziqueError(f"option {pair!r} must be written name=value")
        out[name.strip()] = value.strip()
    return out


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bezique")
def main() -> None:
    """Bezique and Binocle: play, replay and study the game."""


@main.command()
@click.option("--variant", default="bezique", show_default=True, help="bezique or binocle")
@click.option("--seed", type=int, default=None, help="Seed for the shuffle and the players.")
@click.option("--deals", type=int, default=1, show_default=True,
              help="Deals to play (0: a whole game to the target).")
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=VALUE",
              help=f"A rule option ({', '.join(OPTION_NAMES)}).")
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="Write the game as a record to this file.")
def demo(variant: str, seed: int | None, deals: int, options: tuple[str, ...],
         save: str | None) -> None:
    """Watch two random players play, trick by trick."""
    try:
        rules = Rules.preset(variant, **parse_options(options))
    except BeziqueError as e:
        fail(str(e))
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    names = ("North", "South")
    played = 0
    while True:
        state = game.state
        for line in deal_header(state, played + 1, names):
            click.echo(line)
        while not state.is_terminal():
            before = state.clone()
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
            for line in step_lines(before, a, state, names):
                click.echo(line)
        played += 1
        if game.is_over() or (deals and played >= deals):
            break
        game.next_deal()
        click.echo("")
    if save:
        with open(save, "w", encoding="utf-8") as f:
            json.dump(game.to_record(), f, indent=1)
        click.echo(f"Record written to {save}")


@main.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
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
    names = ("Player 0", "Player 1")
    results = replay_deals(record)
    for i, d in enumerate(record.deals):
        start = record.start(i, results[i - 1].state.game_scores if i else (0, 0))
        for line in deal_header(start, i + 1, names):
            click.echo(line)
        for line in narrate(start, list(d.actions), names):
            click.echo(line)
        if not results[i].state.is_terminal():
            click.echo("(the record stops before the end of this deal)")
    last = results[-1].state
    click.echo(f"Game scores: {last.game_scores[0]}-{last.game_scores[1]}"
               + (f"; player {last.winner} wins." if last.winner is not None else "."))


def _register_layers() -> None:
    from . import cli_agents, cli_arena, cli_play, cli_serve

    for layer in (cli_agents, cli_arena, cli_play, cli_serve):
        layer.register(main)


_register_layers()

if __name__ == "__main__":  # pragma: no cover
    main()
