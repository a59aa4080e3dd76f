"""``bezique arena``: two agents matched on duplicated deals (:mod:`bezique.arena`)."""

from __future__ import annotations

import json

import click

from ..errors import BeziqueError
from ..rules import OPTION_NAMES, Rules
from .common import fail, parse_options, progress_bar


@click.command("arena")
@click.argument("agent_a", metavar="A")
@click.argument("agent_b", metavar="B")
@click.option("--games", type=int, default=None,
              help="Play N games to the target (N counts both halves of each duplicated pair).")
@click.option("--deals", type=int, default=None,
              help="Play N single deals (duplicated; the default is 100 deals).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Match seed: fixes every deal and every agent's own seed.")
@click.option("--jobs", "-j", type=int, default=None,
              help="Worker processes (the results do not depend on it) [default: 1; with "
                   "--ray and no address: one per core].")
@click.option("--ray", "ray", is_flag=False, flag_value="local", default=None,
              metavar="[ADDRESS]",
              help="Play the pairs on Ray: a local Ray (no ADDRESS) or the cluster at ADDRESS "
                   "(e.g. auto); the results are the same as a local run's.")
@click.option("--variant", default="bezique", show_default=True, help="bezique or binocle")
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=VALUE",
              help=f"A rule option ({', '.join(OPTION_NAMES)}).")
@click.option("--save", type=click.Path(file_okay=False), default=None,
              help="Save every game (deal) as a record in this directory.")
@click.option("--json", "as_json", is_flag=True,
              help="Print {games, wins, points_per_deal, elo, elo_ci95} as JSON.")
def arena(agent_a: str, agent_b: str, games: int | None, deals: int | None, seed: int,
          jobs: int | None, ray: str | None, variant: str, options: tuple[str, ...],
          save: str | None, as_json: bool) -> None:
    """Match agent A against agent B on duplicated deals (each played twice, seats swapped).

    A and B are agent specs such as ``heuristic`` or ``search:samples=50``.  Reports wins,
    points per deal and the Elo difference A minus B with its 95% interval.
    """
    from ..agents.base import require_agent_variant
    from ..arena import run_match

    if games is not None and deals is not None:
        fail("give --games or --deals, not both")
    if games is None and deals is None:
        deals = 100
    try:
        rules = Rules.preset(variant, **parse_options(options))
        require_agent_variant(rules)
        count = games if games is not None else deals
        assert count is not None
        with progress_bar(f"{agent_a} vs {agent_b} (pairs)", (count + 1) // 2,
                          None if not as_json else False) as progress:
            result = run_match(agent_a, agent_b, rules, games=games, deals=deals, seed=seed,
                               jobs=jobs if jobs is not None else 0 if ray else 1, save=save,
                               progress=progress, ray=ray)
    except BeziqueError as e:
        fail(str(e))
    except KeyboardInterrupt:
        fail("interrupted")
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    what = "games" if result.mode == "games" else "deals"
    ppd = result.points_per_deal
    lo, hi = result.elo_ci95
    width = max(len(agent_a), len(agent_b), 5) + 3
    deals_note = f", {result.deals_played} deals" if result.mode == "games" else ""
    click.echo(f"{agent_a} vs {agent_b}: {result.games} {what} ({len(result.pairs)} duplicated "
               f"pairs{deals_note}), {variant}, seed {seed}")
    click.echo(f"{'agent':<{width}}  {'wins':>6}  {'points/deal':>11}")
    for i, name in enumerate((f"A {agent_a}", f"B {agent_b}")):
        click.echo(f"{name:<{width}}  {result.wins[i]:>6}  {ppd[i]:>11.1f}")
    if result.draws:
        click.echo(f"draws: {result.draws}")
    click.echo(f"score {100 * result.score:.1f}% for A; Elo difference A-B {result.elo:+.1f} "
               f"(95% interval {lo:+.1f} to {hi:+.1f})")
    if save:
        click.echo(f"records saved in {save}")
