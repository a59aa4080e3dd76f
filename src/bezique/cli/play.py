"""``bezique play``: the full-screen game against the computer (see :mod:`bezique.tui`)."""

from __future__ import annotations

import click

from ..errors import BeziqueError
from .common import fail, parse_options


@click.command("play")
@click.option("--level", type=click.IntRange(1, 5), default=None,
              help="The computer's strength, 1 (beginner) to 5.")
@click.option("--variant", type=click.Choice(["bezique", "binocle"]), default=None,
              help="The game: bezique (64 cards) or binocle (48 cards).")
@click.option("--target", type=click.IntRange(min=1), default=None,
              help="Points to win the game (default 1000).")
@click.option("--seed", type=int, default=None, help="Seed for the shuffle and the computer.")
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=VALUE",
              help="Another rule option (see docs/RULES.md 6), e.g. -o last_trick=stock.")
@click.option("--resume", is_flag=True, help="Go on with the saved game.")
@click.option("--where", is_flag=True, help="Print where the game is saved, and exit.")
@click.option("--delay", type=click.FloatRange(0, 10), default=0.6, show_default=True,
              help="Seconds before each of the computer's moves.")
def play(level: int | None, variant: str | None, target: int | None, seed: int | None,
         options: tuple[str, ...], resume: bool, where: bool, delay: float) -> None:
    """Play a game against the computer, full screen.

    Without --level, --variant or --target a start screen asks for them. The game is saved after
    every move (see --where); `bezique replay FILE` reads it back.
    """
    from ..tui.session import PlayConfig, Session, save_path

    path = save_path()
    if where:
        click.echo(str(path))
        return
    from ..agents.levels import DEFAULT_LEVEL

    try:
        config = PlayConfig(level=level or DEFAULT_LEVEL, variant=variant or "bezique",
                            target=target, options=parse_options(options), seed=seed)
        config.rules()
        if resume:
            Session.resume(path)  # a clear one-line error now rather than inside the app
    except BeziqueError as e:
        fail(str(e))
    from ..tui.app import BeziqueApp

    chosen = level is not None or variant is not None or target is not None or bool(options)
    app = BeziqueApp(config, path, resume=resume, show_start=not chosen, delay=delay)
    app.run()
    if app.session is not None:
        s = app.session
        if s.game_over():
            a, b = s.state.game_scores
            who = "You win" if s.game.winner == 0 else "The computer wins"
            click.echo(f"{who}, {a} to {b}. The game is in {path}.")
        else:
            click.echo(f"Game saved in {path}. Continue with: bezique play --resume")
