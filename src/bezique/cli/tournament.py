"""``bezique tournament``: a round robin of agents rated with Bradley–Terry
(:mod:`bezique.tournament`), its table and plot."""

from __future__ import annotations

import json

import click

from ..errors import BeziqueError
from ..rules import OPTION_NAMES, Rules
from .common import fail, parse_options, progress_bar


@click.command("tournament")
@click.argument("agents", nargs=-1, required=True, metavar="A B [C ...]")
@click.option("--deals", type=int, default=None,
              help="Duplicated deals a pairing, both halves counted (default 100).")
@click.option("--games", type=int, default=None,
              help="Play N games to the target a pairing instead of single deals.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Tournament seed: every pairing plays the same cards.")
@click.option("--jobs", "-j", type=int, default=None,
              help="Worker processes [default: 1; with --ray and no address: one per core].")
@click.option("--ray", "ray", is_flag=False, flag_value="local", default=None,
              metavar="[ADDRESS]",
              help="Play on Ray: a local Ray (no ADDRESS) or the cluster at ADDRESS.")
@click.option("--variant", default="bezique", show_default=True, help="bezique or binocle")
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=VALUE",
              help=f"A rule option ({', '.join(OPTION_NAMES)}).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write ratings.md, ratings.csv, tournament.json and ratings.png here.")
@click.option("--json", "as_json", is_flag=True, help="Print the ratings and matches as JSON.")
def tournament(agents: tuple[str, ...], deals: int | None, games: int | None, seed: int,
               jobs: int | None, ray: str | None, variant: str, options: tuple[str, ...],
               out_dir: str | None, as_json: bool) -> None:
    """Rate agents round-robin: every pair matched on the same duplicated deals, Bradley–Terry
    Elo ratings with 95% intervals, printed as a Markdown table (and with --out, written with
    a CSV copy, the matches as JSON and a plot of the ratings)."""
    from ..agents.base import require_agent_variant
    from ..tournament import run_tournament, write_outputs

    if games is not None and deals is not None:
        fail("give --games or --deals, not both")
    if games is None and deals is None:
        deals = 100
    count = games if games is not None else deals
    assert count is not None
    pairings = len(agents) * (len(agents) - 1) // 2
    try:
        rules = Rules.preset(variant, **parse_options(options))
        require_agent_variant(rules)
        with progress_bar(f"{len(agents)} agents, {pairings} pairings (pairs)",
                          pairings * ((count + 1) // 2), False if as_json else None) as bar:
            result = run_tournament(agents, rules, deals=deals, games=games, seed=seed,
                                    jobs=jobs if jobs is not None else 0 if ray else 1,
                                    ray=ray, progress=bar)
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
