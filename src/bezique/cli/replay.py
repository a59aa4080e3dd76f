"""``bezique replay``: a game record as a trick-by-trick account, or its result as JSON."""

from __future__ import annotations

import json
from typing import Any

import click

from ..errors import BeziqueError
from ..narrate import deal_header, narrate
from ..record import (
    Record,
    ReplayedDeal,
    game_result,
    parse_record,
    read_record_json,
    record_players,
    replay,
    replay_deals,
)
from .common import fail


def players_of(data: Any, n: int) -> tuple[str, ...] | None:
    """The names a record gives its players.  The account speaks of every seat in the third
    person: the terminal's player who gave no name, kept as "You", is told as "Player"
    ("Player wins the game", not "You wins the game")."""
    names = record_players(data, n)
    return None if names is None else tuple("Player" if name.casefold() == "you" else name
                                            for name in names)


def seat_names(names: tuple[str, ...]) -> tuple[tuple[str, ...], str | None]:
    """The names to tell a table's game by, and a line that says who sits where.  The terminal
    saves each computer of a table as its seat and who it is ("West: Computer (level 1
    beginner)"); told in full, every trick repeated that three times.  Seats named so, with
    one description, are told by the seat alone, after one line that gives it.

    >>> seat_names(("Player", "West: Computer (level 1)", "East: Computer (level 1)"))
    (('Player', 'West', 'East'), 'West and East: Computer (level 1)')
    >>> seat_names(("Ann", "Bob", "Cy"))
    (('Ann', 'Bob', 'Cy'), None)
    """
    parts = [name.partition(": ") for name in names[1:]]
    seats = [seat.strip() for seat, _, _ in parts]
    who = parts[0][2] if parts else ""
    if (len(names) < 3 or not who or any(not sep or not seat or rest != who
                                         for seat, sep, rest in parts)
            or len({*seats, names[0]}) != len(names)):
        return names, None
    listed = ", ".join(seats[:-1]) + f" and {seats[-1]}"
    return (names[0], *seats), f"{listed}: {who}"


@click.command("replay")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print the result object (RULES.md 8).")
@click.option("--legal", is_flag=True, help="With --json: list the legal actions of each step.")
def replay_cmd(file: str, as_json: bool, legal: bool) -> None:
    """Replay a game record: a trick-by-trick account, or JSON with --json."""
    if legal and not as_json:
        fail("--legal lists the legal actions in the JSON: give it with --json")
    try:  # replaying checks that each deal may follow the one before (record.replay_deals)
        data = read_record_json(file)  # read once: the file may be a pipe
        record = parse_record(data)
        if as_json:
            out = replay(record, legal=legal)
        else:
            results = replay_deals(record)
    except BeziqueError as e:
        fail(str(e))
    if as_json:
        click.echo(json.dumps(out))
        return
    names, seated = seat_names(players_of(data, record.rules.nplayers) or tuple(
        f"Player {i}" for i in range(record.rules.nplayers)))
    if seated:
        click.echo(seated)
    one_deal = record.rules.settlement == "portland"  # each deal is a game of its own
    for i, d in enumerate(record.deals):
        if i:
            click.echo("")
        start = record.start(i, results[i - 1].state.game_scores if i and not one_deal else None)
        for line in deal_header(start, i + 1, names):
            click.echo(line)
        for line in narrate(start, list(d.actions), names):
            click.echo(line)
        if not results[i].state.is_terminal():
            done = results[i].state.tricks_played
            click.echo(f"(the record stops here, after trick {done})" if done else
                       "(the record stops here, before the first trick)")
    click.echo(game_line(record, results, names))


def game_line(record: Record, results: list[ReplayedDeal], names: tuple[str, ...]) -> str:
    """The account's last line: the ``game`` object of ``--json`` in words (the settled values
    of the one-deal games, the sides' totals of a partnership)."""
    game = game_result(record.rules, results)
    scores, winner = game["scores"], game["winner"]
    who = list(names)
    if results[-1].state.partner(0) >= 0:  # a partnership: seats 0 & 2, then 1 & 3
        who = [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
    totals = ", ".join(f"{w} {v}" for w, v in zip(who, scores, strict=True))
    verb = "win" if len(who) < len(names) else "wins"
    if record.rules.settlement == "portland":
        deals = len(results)
        what = ("Game (its settled value)" if deals == 1
                else f"{deals} games (the sum of their settled values)")
        end = (f"{who[winner]} {verb} the game." if winner is not None and deals == 1
               else f"{who[winner]} {verb} overall." if winner is not None
               else "No winner." if results[-1].state.is_terminal() else "No winner yet.")
        return f"{what}: {totals}. {end}"
    end = f"{who[winner]} {verb} the game." if winner is not None else "No winner yet."
    return f"Game: {totals}. {end}"
