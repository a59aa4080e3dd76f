"""``bezique selfplay``: games between two agents written as Parquet, one row per decision
(:mod:`bezique.selfplay`)."""

from __future__ import annotations

import click

from ..errors import BeziqueError
from ..rules import OPTION_NAMES, Rules
from .common import fail, parse_options, progress_bar, writable_file


@click.command("selfplay")
@click.argument("agent_a", metavar="A")
@click.argument("agent_b", metavar="B")
@click.option("--games", type=int, default=None,
              help="Play N games to the target (A and B change seats every game).")
@click.option("--deals", type=int, default=None, help="Play N single deals instead.")
@click.option("--out", "out", type=click.Path(dir_okay=False), required=True,
              help="The Parquet file to write.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Fixes every deal and every agent's own seed.")
@click.option("--variant", default="bezique", show_default=True,
              help="bezique, binocle, rubicon, sixpack or eightpack (two-handed games).")
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=VALUE",
              help=f"A rule option ({', '.join(OPTION_NAMES)}).")
def selfplay(agent_a: str, agent_b: str, games: int | None, deals: int | None, out: str,
             seed: int, variant: str, options: tuple[str, ...]) -> None:
    """Play agents A and B against each other and write every decision as Parquet: the
    deciding seat's observation tensor, legal mask, chosen action index and text, the deal's
    result (and, in the one-deal games, its settled value), with the game records in the file's
    metadata.

    Read it back with pyarrow.parquet.read_table(FILE) (or pandas.read_parquet(FILE)); the
    records with
    json.loads(pyarrow.parquet.read_schema(FILE).metadata[b"bezique.records"]).
    """
    from ..selfplay import play_selfplay, pyarrow_modules, write_parquet

    if games is not None and deals is not None:
        fail("give --games or --deals, not both")
    if games is None and deals is None:
        fail("give --games N or --deals N")
    count = games if games is not None else deals
    assert count is not None
    writable_file(out)  # before playing: a bad --out is said at once
    try:
        pyarrow_modules()  # before playing: a missing pyarrow is said at once
        rules = Rules.preset(variant, **parse_options(options))
        with progress_bar(f"{agent_a} vs {agent_b} ({'games' if games else 'deals'})",
                          count) as bar:
            data = play_selfplay(agent_a, agent_b, rules, games=games, deals=deals, seed=seed,
                                 progress=bar)
        write_parquet(data, out, {"agents": [agent_a, agent_b], "variant": variant,
                                  "options": rules.options(), "seed": seed,
                                  "mode": "games" if games else "deals"})
    except BeziqueError as e:
        fail(str(e))
    except KeyboardInterrupt:
        fail("interrupted")
    what = ("game" if games else "deal") + ("" if count == 1 else "s")
    click.echo(f"{out}: {data.decisions} decisions of {count} {what} ({agent_a} vs {agent_b}, "
               f"{variant}, seed {seed})")
