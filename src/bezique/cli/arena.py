"""``bezique arena``: agents matched on duplicated deals, two at a time (:mod:`bezique.arena`) or
three or four at one table (:mod:`bezique.arena_tables`)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..arena_records import first_record
from ..errors import BeziqueError
from ..rules import Rules
from .common import fail, match_options, match_setup, progress_bar


@click.command("arena")
@click.argument("agent_a", metavar="A")
@click.argument("agent_b", metavar="B")
@click.argument("more", nargs=-1, metavar="[C [D]]")
@match_options
@click.option("--save", type=click.Path(file_okay=False), default=None,
              help="Save every game (deal) as a record in this directory.")
@click.option("--resume", is_flag=True,
              help="Go on with a match cut short: read back the duplicated sets already saved "
                   "in the --save directory and play only the others (same seed, same result).")
@click.option("--json", "as_json", is_flag=True,
              help="Print {games, wins, points_per_deal, score, score_ci95, elo, elo_ci95} as "
                   "JSON (three or four seats: per agent and per team).")
def arena(agent_a: str, agent_b: str, more: tuple[str, ...], games: int | None,
          deals: int | None, seed: int, jobs: int | None, ray: str | None, variant: str,
          options: tuple[str, ...], save: str | None, resume: bool, as_json: bool) -> None:
    """Match agent A against agent B on duplicated deals (each played twice, seats swapped).

    A and B are agent specs such as ``heuristic`` or ``search:samples=50``.  Reports wins,
    points per deal, A's score (the share of games or deals won, draws counting half) and the
    Elo difference A minus B, each with its 95% interval (the duplicated pair is the unit).

    With --variant bezique3 or bezique4 every deal is played in every seating of the agents:
    three or four agents take turns round the table (A B C: seatings ABC, BCA, CAB), two agents
    each sit against copies of the other, and in four-handed partnership A B is A and A against
    B and B, A+B C+D is A and B partners against C and D.  Reports per agent (and team) the share
    of deals (games) won and the points per deal, with 95% intervals.
    """
    from ..arena import run_match

    try:
        rules, games, deals, count, workers = match_setup(games, deals, variant, options, jobs,
                                                          ray)
        if resume and save is not None and first_record(Path(save)) is None:
            click.echo(f"note: {save} holds no saved records yet, so the match starts from its "
                       f"first deal", err=True)
        if rules.nplayers > 2:
            _table(rules, (agent_a, agent_b, *more), games, deals, count, seed, workers, ray,
                   save, resume, as_json)
            return
        if more or "+" in agent_a + agent_b:
            from ..arena_tables import table_lineup

            table_lineup((agent_a, agent_b, *more), rules)  # says why not
        with progress_bar(f"{agent_a} vs {agent_b} (pairs)", (count + 1) // 2,
                          None if not as_json else False) as progress:
            result = run_match(agent_a, agent_b, rules, games=games, deals=deals, seed=seed,
                               jobs=workers, save=save, progress=progress, ray=ray,
                               resume=resume)
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
    pairs = len(result.pairs)
    click.echo(f"{agent_a} vs {agent_b}: {result.games} {what} ({pairs} duplicated "
               f"pair{'s' if pairs != 1 else ''}{deals_note}), {variant}, seed {seed}")
    click.echo(f"{'agent':<{width}}  {'wins':>6}  {'points/deal':>11}")
    for i, name in enumerate((f"A {agent_a}", f"B {agent_b}")):
        click.echo(f"{name:<{width}}  {result.wins[i]:>6}  {ppd[i]:>11.1f}")
    if result.draws:
        click.echo(f"draws: {result.draws}")
    slo, shi = result.score_ci95
    click.echo(f"score {100 * result.score:.1f}% for A (95% interval {100 * slo:.1f}% to "
               f"{100 * shi:.1f}%); Elo difference A-B {result.elo:+.1f} "
               f"(95% interval {lo:+.1f} to {hi:+.1f})")
    if save:
        click.echo(f"records saved in {save}")


def _table(rules: Rules, agents: tuple[str, ...], games: int | None, deals: int | None,
           count: int, seed: int, workers: int, ray: str | None, save: str | None,
           resume: bool, as_json: bool) -> None:
    """The arena of three or four seats: play, then print the table (or the JSON)."""
    from ..arena_tables import play_table_match, table_lineup

    lineup = table_lineup(agents, rules)
    k = len(lineup.seatings)
    with progress_bar(f"{' vs '.join(agents)} (sets of {k})", (count + k - 1) // k,
                      None if not as_json else False) as progress:
        result = play_table_match(agents, rules, games=games, deals=deals, seed=seed,
                                  jobs=workers, save=save, progress=progress, ray=ray,
                               resume=resume)
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    what = "games" if result.mode == "games" else "deals"
    deals_note = f", {result.deals_played} deals" if result.mode == "games" else ""
    how = ", partnership" if lineup.teams else ""
    sets = len(result.sets)
    click.echo(f"{' vs '.join(agents)}: {result.plays} {what} ({sets} duplicated "
               f"{what[:-1]}{'s' if sets != 1 else ''} x {k} seatings{deals_note}), "
               f"{rules.variant}{how}, seed {seed}")
    click.echo(f"seatings (seat 0 first): {' '.join(result.seatings)}")
    rows = [(f"{s.label} {s.spec}", s) for s in result.agent_stats()]
    rows += [(f"team {s.label}", s) for s in result.team_stats()]
    width = max(len(name) for name, _ in rows) + 2
    click.echo(f"{'':<{width}}{'wins':>6}  {'won %':>6}  {'95% interval':>14}  {'even':>5}  "
               f"{'points/deal':>11}  {'95% interval':>15}")
    for name, s in rows:
        lo, hi = s.score_ci95
        ci = s.points_ci95
        pci = "n/a" if ci is None else f"{ci[0]:.1f} to {ci[1]:.1f}"
        click.echo(f"{name:<{width}}{s.wins:>6}  {100 * s.score:>6.1f}  "
                   f"{f'{100 * lo:.1f} to {100 * hi:.1f}':>14}  {100 * s.even:>5.1f}  "
                   f"{s.points_per_deal:>11.1f}  {pci:>15}")
    teams = "; a team's points are its side's" if lineup.teams else ""
    click.echo(f"won %: the {what} won (ties shared); even: what an agent as strong as the "
               f"others would win{teams}")
    if save:
        click.echo(f"records saved in {save}")
