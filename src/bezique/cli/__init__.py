"""The ``bezique`` command: the group :func:`main` and its subcommands, one module each.

``bezique.cli:main`` is the console script; ``python -m bezique`` and ``python -m bezique.cli``
run it too.  The subcommand modules (``demo``, ``replay``, ``play``, ``serve``, ``arena``,
``tournament``, ``selfplay``, ``train``, ``engine``, ``agents``, ``solve``, ``stats``) define
plain click commands and import only :mod:`bezique.cli.common` (one-line errors, option parsing, the
progress bar) of this package; this module adds them to the group, so imports go one way.
Every error a user can cause prints one line and exits with status 2, never a traceback.
"""

from __future__ import annotations

import sys
from typing import Any

import click
from click.exceptions import NoArgsIsHelpError

from .. import COMPILED
from . import (
    agents,
    arena,
    demo,
    engine,
    play,
    replay,
    selfplay,
    serve,
    solve,
    stats,
    tournament,
    train,
)
from .common import fail, parse_options


class OneLineErrors(click.Group):
    """The ``bezique`` group, whose command-line mistakes (a missing argument, an unknown
    option or command, a value not among the choices) are one line too, like every other
    error, with the command whose ``--help`` explains it."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        if not kwargs.get("standalone_mode", True):
            return super().main(*args, **kwargs)
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except click.ClickException as e:
            # (``bezique`` alone raises a usage error too: its help, shown as click shows it)
            if isinstance(e, click.UsageError) and not isinstance(e, NoArgsIsHelpError):
                where = (e.ctx.command_path if e.ctx is not None
                         else self.path_of(kwargs.get("args", args[0] if args else None)))
                fail(f"{e.format_message()} (see '{where} --help')")
            e.show()
            sys.exit(e.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def path_of(self, args: Any) -> str:
        """The command a command line names (``bezique demo``), for an error click raised
        without its context (an option given no value: ``bezique demo --variant``)."""
        words = list(sys.argv[1:] if args is None else args)
        name = next((w for w in words if not str(w).startswith("-")), None)
        return f"bezique {name}" if name in self.commands else "bezique"


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bezique", message="bezique %(version)s ("
                      + ("compiled with mypyc" if COMPILED else "pure Python") + ")")
def main() -> None:
    """Bezique and its family: play, replay and study the game (Bezique, Binocle, Rubicon,
    Six-pack, Eight-pack, three- and four-handed)."""


for _command in (demo.demo, replay.replay_cmd, agents.agents_cmd, solve.solve_cmd, arena.arena,
                 tournament.tournament, selfplay.selfplay, engine.engine, play.play, serve.serve,
                 stats.stats_cmd, train.train_cmd):
    main.add_command(_command)

__all__ = ["fail", "main", "parse_options"]
