"""``bezique arena``: two agents matched on duplicated deals (:mod:`bezique.arena`)."""

from __future__ import annotations

import json

import click

from ..errors import BeziqueError
from .common import fail, match_options, match_setup, progress_bar


@click.command("arena")
@click.argument("agent_a", metavar="A")
@click.argument("agent_b", metavar="B")
@match_options
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
    from ..arena import run_match

    try:
        rules, games, deals, count, workers = match_setup(games, deals, variant, options, jobs,
                                                          ray)
        with progress_bar(f"{agent_a} vs {agent_b} (pairs)", (count + 1) // 2,
                          None if not as_json else False) as progress:
            result = run_match(agent_a, agent_b, rules, games=games, deals=deals, seed=seed,
                               jobs=workers, save=save, progress=progress, ray=ray)
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
