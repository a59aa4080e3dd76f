"""The ``bezique`` command: demo, replay, and the tools of the other layers.

Every error a user can cause prints one line and exits with status 2, never a traceback.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import click

from . import COMPILED
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
@click.version_option(package_name="bezique", message="bezique %(version)s ("
                      + ("compiled with mypyc" if COMPILED else "pure Python") + ")")
def main() -> None:
    """Bezique and Binocle: play, replay and study the game."""


@main.command()
@click.option("--variant", default="bezique", show_default=True, help="bezique or binocle")
@click.option("--seed", default=None, metavar="INTEGER",
              help="Seed for the shuffle and the players: the same seed gives the same game.")
@click.option("--deals", default="1", show_default=True, metavar="INTEGER",
              help="Deals to play (0: a whole game to the target).")
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=VALUE",
              help=f"A rule option ({', '.join(OPTION_NAMES)}).")
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="Write the game as a record to this file (replay it with 'bezique replay').")
def demo(variant: str, seed: str | None, deals: str, options: tuple[str, ...],
         save: str | None) -> None:
    """Watch two random players play, trick by trick."""
    try:
        rules = Rules.preset(variant, **parse_options(options))
    except BeziqueError as e:
        fail(str(e))
    seed_n = _whole(seed, "--seed", minimum=None) if seed is not None else None
    deals_n = _whole(deals, "--deals", minimum=0)
    out = None
    if save:  # open it now, so that a bad path fails before the game is played
        try:
            out = open(save, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as e:
            fail(f"cannot write {save}: {e.strerror or e}")
    rng = random.Random(seed_n)
    game = Game(rules, seed=seed_n)
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
        if game.is_over() or (deals_n and played >= deals_n):
            break
        game.next_deal()
        click.echo("")
    if out is not None:
        with out:
            json.dump(game.to_record(), out, indent=1)
            out.write("\n")
        click.echo(f"Record written to {save}; replay it with: bezique replay {save}")


def _whole(text: str, name: str, minimum: int | None) -> int:
    """A whole number given on the command line, or a one-line error."""
    try:
        value = int(text.strip())
    except ValueError:
        fail(f"{name} must be a whole number, not {text!r}")
    if minimum is not None and value < minimum:
        fail(f"{name} must be at least {minimum}, not {value}")
    return value


@main.command("replay")
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
    names = ("Player 0", "Player 1")
    results = replay_deals(record)
    for i, d in enumerate(record.deals):
        if i:
            click.echo("")
        start = record.start(i, results[i - 1].state.game_scores if i else (0, 0))
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


def _register_layers() -> None:
    from . import cli_agents, cli_arena, cli_play, cli_serve

    for layer in (cli_agents, cli_arena, cli_play, cli_serve):
        layer.register(main)


_register_layers()

if __name__ == "__main__":  # pragma: no cover
    main()
