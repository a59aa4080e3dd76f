"""``bezique play``: the full-screen game against the computer (see :mod:`bezique.tui`)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..agents.base import AGENT_VARIANTS
from ..errors import BeziqueError
from .common import fail, parse_options


@click.command("play")
@click.option("--level", type=click.IntRange(1, 5), default=None,
              help="The computer's strength: 1 beginner, 2 casual, 3 club, 4 strong, "
                   "5 expert.")
@click.option("--variant",
              type=click.Choice(AGENT_VARIANTS),
              default=None,
              help="The game: bezique (64 cards), binocle (48 cards), the one-deal games "
                   "rubicon (128), sixpack (192), eightpack (256), or a table of three "
                   "(bezique3) or four (bezique4: you and the computer opposite against two "
                   "computers; -o partnership=false for each alone, -o four_hand_end=duels).")
@click.option("--target", type=click.IntRange(min=1), default=None,
              help="Points to win the game (default: 1000 two-handed, 2000 at a table of "
                   "three or four; the one-deal games have none).")
@click.option("--seed", type=int, default=None, help="Seed for the shuffle and the computer.")
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=VALUE",
              help="Another rule option (see docs/RULES.md 6), e.g. -o last_trick=stock.")
@click.option("--resume", "resume_arg", is_flag=False, flag_value="current", default=None,
              metavar="[N]",
              help="Go on with the saved game (or with kept game N: see --saves).")
@click.option("--saves", is_flag=True, help="List the saved games, and exit.")
@click.option("--where", is_flag=True, help="Print where the game is saved, and exit.")
@click.option("--auto-draw/--no-auto-draw", default=True, show_default=True,
              help="After a trick you win with nothing to declare, draw without a key press.")
@click.option("--name", default=None, help="Your name, shown at the table and kept in the "
              "records (remembered for the next game).")
@click.option("--delay", type=click.FloatRange(0, 10), default=0.6, show_default=True,
              help="Seconds before each of the computer's moves.")
@click.option("--opponent", default=None, metavar="AGENT",
              help="Any agent instead of a level, with its options (see 'bezique agents'), "
                   "e.g. openspiel-ismcts:ms=1000 or search:samples=200.")
def play(level: int | None, variant: str | None, target: int | None, seed: int | None,
         options: tuple[str, ...], resume_arg: str | None, saves: bool, where: bool,
         auto_draw: bool, name: str | None, delay: float, opponent: str | None) -> None:
    """Play a game against the computer, full screen.

    Without --level, --variant or --target a start screen asks for them. The game is saved after
    every move (see --where); `bezique replay FILE` reads it back. A new game never replaces an
    unfinished one: that is kept as a numbered save (see --saves, --resume N).
    """
    from ..tui.session import (
        PlayConfig,
        Session,
        numbered_save,
        numbered_saves,
        remember_name,
        remembered_name,
        save_description,
        save_path,
    )

    path = save_path()
    if name is not None and name.strip():
        remember_name(name)
    if where:
        click.echo(str(path))
        return
    if saves:
        def line(which: str, f: Path, again: str) -> str:
            """A save and how to go on with it (none for a file that cannot be read)."""
            try:
                Session.resume(f)
            except BeziqueError as e:
                return f"{which}: cannot be read ({e}), not resumable"
            return f"{which}: {save_description(f)}  ({again})"

        if path.exists():
            click.echo(line("current", path, "bezique play --resume"))
        for n, f in numbered_saves():
            click.echo(line(str(n), f, f"bezique play --resume {n}"))
        if not path.exists() and not numbered_saves():
            click.echo("no saved games")
        return
    if level is not None and opponent is not None:  # never silently ignored
        fail("give --level or --opponent, not both: --opponent plays any agent instead of a "
             "level")
    resume = resume_arg is not None
    if resume:
        given = [flag for flag, value in (("--level", level), ("--variant", variant),
                                          ("--target", target), ("--seed", seed),
                                          ("-o", options or None), ("--opponent", opponent))
                 if value is not None]
        if given:  # never silently ignored: the saved game keeps the choices it was started with
            fail(f"--resume goes on with the saved game as it was started: leave out "
                 f"{' and '.join(given)} (or start a new game without --resume)")
    if resume_arg not in (None, "current"):
        assert resume_arg is not None
        if not (resume_arg.isascii() and resume_arg.isdigit()):
            fail(f"--resume takes the number of a kept game (see --saves), not {resume_arg!r}")
        path = numbered_save(int(resume_arg))
        if not path.exists():
            fail(f"there is no kept game {resume_arg}: 'bezique play --saves' lists them")
    from ..agents.levels import DEFAULT_LEVEL

    try:
        config = PlayConfig(level=level or DEFAULT_LEVEL, variant=variant or "bezique",
                            target=target, options=parse_options(options), seed=seed,
                            name=(name or "").strip() or remembered_name(),
                            opponent=(opponent or "").strip())
        config.rules()
        if config.opponent:
            from ..agents import make_agent

            make_agent(config.opponent)  # an unknown agent or a bad option: one line, exit 2
        if resume:
            Session.resume(path)  # a clear one-line error now rather than inside the app
    except BeziqueError as e:
        fail(str(e))
    try:  # a folder the game cannot be saved in: one line now, not a crash inside the app
        path.parent.mkdir(parents=True, exist_ok=True)
        probe = path.parent / f".write-test-{os.getpid()}"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as e:
        fail(f"cannot save games in {path.parent} ({e.strerror or e}): set BEZIQUE_DATA_DIR to "
             f"a folder you may write to")
    from ..tui.app import BeziqueApp

    chosen = (level is not None or variant is not None or target is not None or bool(options)
              or bool(opponent))
    app = BeziqueApp(config, path, resume=resume, show_start=not chosen, delay=delay,
                     auto_draw=auto_draw)
    app.run()
    if app.session is not None:
        s = app.session
        saved = s.path or path  # another terminal's new game may have moved this one
        if s.unsaved:
            click.echo(f"The game {s.unsaved}: the moves since its last save are lost.")
        elif s.game_over():
            from ..tui.modals import result_text

            click.echo(f"{result_text(s)} The game is in {saved}.")
        else:
            again = "bezique play --resume" + ("" if saved == save_path()
                                               else " " + saved.stem.split("-")[1])
            click.echo(f"Game saved in {saved}. Continue with: {again}")
        if app.kept is not None:
            click.echo(f"Your earlier game is kept: bezique play --resume {app.kept}")
