"""``bezique demo``: random players (two, or three or four at a table), printed trick by trick."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import click

from ..errors import BeziqueError
from ..game import Game
from ..narrate import deal_header, step_lines
from ..rules import OPTION_NAMES, PRESETS, Rules
from .common import fail, parse_options, whole


@click.command("demo")
@click.option("--variant", default="bezique", show_default=True,
              help=f"Any preset: {', '.join(PRESETS)}.")
@click.option("--seed", default=None, metavar="INTEGER",
              help="Seed for the shuffle and the players: the same seed gives the same game.")
@click.option("--deals", default="1", show_default=True, metavar="INTEGER",
              help="Deals to play, within one game (0: the whole game to the target; "
                   "a game of rubicon, sixpack or eightpack is one deal).")
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=VALUE",
              help=f"A rule option ({', '.join(OPTION_NAMES)}).")
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="Write the game as a record to this file (replay it with 'bezique replay').")
def demo(variant: str, seed: str | None, deals: str, options: tuple[str, ...],
         save: str | None) -> None:
    """Watch random players (two, or three or four at a table) play, trick by trick."""
    try:
        rules = Rules.preset(variant, **parse_options(options))
    except BeziqueError as e:
        fail(str(e))
    seed_n = whole(seed, "--seed", minimum=None) if seed is not None else None
    deals_n = whole(deals, "--deals", minimum=0)
    if save:  # a bad path fails now, before the game is played (and an older file is kept)
        existed = os.path.exists(save)
        try:
            with open(save, "a", encoding="utf-8"):
                pass
            if not existed:  # a demo cut short (a closed pipe, Ctrl-C) leaves no empty file
                os.unlink(save)
        except OSError as e:
            fail(f"cannot write {save}: {e.strerror or e}")
    rng = random.Random(seed_n)
    game = Game(rules, seed=seed_n)
    names = ("North", "South") if rules.nplayers == 2 else ("North", "East", "South",
                                                              "West")[: rules.nplayers]
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
    if save:
        record = game.to_record()
        record["players"] = list(names)  # so that the replay tells it with the same names
        write_whole(Path(save), json.dumps(record, indent=1) + "\n")
        click.echo(f"Record written to {save}; replay it with: bezique replay {save}")


def write_whole(path: Path, text: str) -> None:
    """``text`` into ``path`` all at once: written beside it and moved into place, so that a
    demo cut short (Ctrl-C, a closed pipe) leaves the old file as it was, never half of one."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        fail(f"cannot write {path}: {e.strerror or e}")
