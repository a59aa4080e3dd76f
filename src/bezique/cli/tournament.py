"""``bezique tournament``: a round robin of agents rated with Bradley–Terry
(:mod:`bezique.tournament`), its table and plot."""

from __future__ import annotations

import json

import click

from ..errors import BeziqueError
from .common import fail, match_options, match_setup, output_folder, progress_bar


@click.command("tournament")
@click.argument("agents", nargs=-1, required=True, metavar="A B [C ...]")
@match_options
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write ratings.md, ratings.csv, tournament.json and ratings.png here.")
@click.option("--json", "as_json", is_flag=True, help="Print the ratings and matches as JSON.")
def tournament(agents: tuple[str, ...], deals: int | None, games: int | None, seed: int,
               jobs: int | None, ray: str | None, variant: str, options: tuple[str, ...],
               out_dir: str | None, as_json: bool) -> None:
    """Rate agents round-robin: every pair matched on the same duplicated deals, Bradley–Terry
    Elo ratings with 95% intervals, printed as a Markdown table (and with --out, written with
    a CSV copy, the matches as JSON and a plot of the ratings)."""
    from ..tournament import can_plot, run_tournament, write_outputs

    pairings = len(agents) * (len(agents) - 1) // 2
    try:
        rules, games, deals, count, workers = match_setup(games, deals, variant, options, jobs,
                                                          ray)
        if out_dir is not None:
            output_folder(out_dir)  # before playing: a bad --out is said at once
            if not can_plot():
                click.echo("note: ratings.png needs matplotlib (pip install "
                           "'bezique[research]'); the other files are written", err=True)
        with progress_bar(f"{len(agents)} agents, {pairings} pairings (pairs)",
                          pairings * ((count + 1) // 2), False if as_json else None) as bar:
            result = run_tournament(agents, rules, deals=deals, games=games, seed=seed,
                                    jobs=workers, ray=ray, progress=bar)
        files = write_outputs(result, out_dir) if out_dir is not None else []
    except BeziqueError as e:
        fail(str(e))
    except KeyboardInterrupt:
        fail("interrupted")
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    click.echo(result.markdown(), nl=False)
    if files:
        click.echo("written: " + ", ".join(str(f) for f in files))
