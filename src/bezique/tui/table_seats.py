"""The table of three or four seats as the person (seat 0, South) sees it: the other seats (their
cards, tricks, shown cards and melds, the partner's among them), the scores per seat and per
side, the cards of the trick with who played each, and whose turn it is.  Drawn from the
person's :class:`~bezique.observation.Observation` only; :mod:`bezique.tui.table` draws the
panels the two tables share (the hand, the declarations on offer, the prompt).

>>> from bezique import Rules, State
>>> obs = State.new_deal(Rules.preset("bezique4"), seed=4).observation(0)
>>> seat_label(obs, 2)
'North (partner)'
>>> whose_turn_n(obs, False)
'North to lead'
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..cards import card_symbol
from ..observation import Observation
from ..scoring import sides
from ..tricks import duel_seats
from .table import trump_and_stock
from .widgets import chip, chips
from .words import seat_names


def seat_label(obs: Observation, seat: int) -> str:
    """A seat's name at this table, "(partner)" after the person's partner."""
    name = seat_names(obs.rules.nplayers)[seat]
    return f"{name} (partner)" if seat and obs.rules.partner(0) == seat else name


def opponents_panel(obs: Observation, deal_over: bool, colour: bool,
                    width: int | None = None, duel: tuple[int, ...] = ()) -> Text:
    """Two lines for each other seat, from the left round to the right: its cards (how many
    shown), tricks won, whether it is to act (or sits out the ``duel`` of the four-handed end);
    then its shown cards and its melds' points (cut to ``width`` columns only in the melds,
    never in the cards)."""
    lines: list[Text] = []
    for seat in range(1, obs.rules.nplayers):
        held = obs.hand_sizes[seat]
        shown = len(obs.shown[seat])
        won = sum(1 for t in obs.tricks if t.winner == seat)
        turn = obs.turn == seat and not deal_over
        head = Text("▶" if turn else " ", "bold yellow" if colour else "bold")
        head.append(seat_label(obs, seat), "bold")
        head.append(f" · {held} card{'' if held == 1 else 's'}"
                    + (f" ({shown} shown)" if shown else "")
                    + f" · {won} trick{'' if won == 1 else 's'}")
        body = Text("  ")
        if duel and seat not in duel:  # on the seat's first line if it fits there, else below
            out = Text(" · sits out", "dim")
            if width is None or head.cell_len + out.cell_len <= width:
                head.append_text(out)
            else:
                body.append("sits out · ", "dim")
        body.append_text(chips(list(obs.shown[seat]), colour, "nothing shown"))
        melds = obs.melds[seat]
        if melds:
            more = Text(f"  melds {sum(m.points for m in melds)}", "dim")
            if width is None or body.cell_len + more.cell_len <= width:
                body.append_text(more)
        known = [c for c in obs.known_cards[seat] if c not in obs.shown[seat]]
        if known:
            more = Text("  known ", "dim")
            more.append_text(chips(known, colour))
            if width is None or body.cell_len + more.cell_len <= width:
                body.append_text(more)
        lines += [head, body]
    return Text("\n").join(lines)


def score_panel_n(obs: Observation, terminal: bool, colour: bool) -> Group:
    """Each seat's points of the deal and of the game (and each side's in a partnership),
    trumps, the turn-up, the stock, and whose turn it is."""
    t = Table(box=None, padding=(0, 0), expand=True, show_edge=False)
    t.add_column("", no_wrap=True)
    t.add_column("Deal", justify="right")
    t.add_column("Game", justify="right")
    names = seat_names(obs.rules.nplayers)
    game = [obs.totals[i] + obs.scores[i] for i in range(obs.rules.nplayers)]
    for seat, name in enumerate(names):
        mark = "▶" if obs.turn == seat and not terminal else " "
        t.add_row(f"{mark}{name}", str(obs.scores[seat]), str(game[seat]))
    if obs.rules.partner(0) >= 0:
        deal_sides, game_sides = sides(obs.scores), sides(game)
        t.add_row(Text(" Your side", "bold"), Text(str(deal_sides[0]), "bold"),
                  Text(str(game_sides[0]), "bold"))
        t.add_row(Text(" Their side", "bold"), Text(str(deal_sides[1]), "bold"),
                  Text(str(game_sides[1]), "bold"))
    whose = Text(whose_turn_n(obs, terminal), "bold yellow" if colour else "bold")
    return Group(t, *trump_and_stock(obs, colour), whose)


def whose_turn_n(obs: Observation, terminal: bool) -> str:
    """Who is to act, and how."""
    if terminal:
        return "Deal over"
    if obs.turn == 0:
        return {"lead": "Your lead", "follow": "Your turn to follow",
                "declare": "You may declare"}.get(obs.phase, "Your turn")
    doing = {"lead": "to lead", "follow": "to play", "declare": "to declare"}.get(obs.phase,
                                                                               "to play")
    return f"{seat_names(obs.rules.nplayers)[obs.turn]} {doing}"


def trick_plays(obs: Observation) -> list[tuple[int, int]]:
    """The cards of the current trick as (seat, card), in the order played."""
    if not obs.trick:
        return []
    plays = [(seat, text) for seat, text in obs.actions if text.startswith("play ")]
    got = plays[-len(obs.trick):]
    return [(seat, card) for (seat, _), card in zip(got, obs.trick, strict=True)]


def _played(seat_cards: list[tuple[int, int]], names: tuple[str, ...], colour: bool) -> Text:
    row = Text()
    for i, (seat, card) in enumerate(seat_cards):
        if i:
            row.append("  ")
        row.append(names[seat] + " ", "bold")
        row.append_text(chip(card, colour))
    return row


def table_text_n(obs: Observation, prompt_line: str, colour: bool) -> Text:
    """The centre panel while cards are played: the cards of the trick with who played each
    (or the last trick and who won it), then the prompt."""
    names = seat_names(obs.rules.nplayers)
    lines: list[Text] = []
    plays = trick_plays(obs)
    if plays:
        lines.append(_played(plays, names, colour))
        lines.append(Text(f"{names[plays[0][0]]} led {card_symbol(plays[0][1])}", "dim"))
    elif obs.tricks:
        last = obs.tricks[-1]
        # who played each card (in a duel of the four-handed end, two seats only)
        order = [s for s, _ in _last_trick_seats(obs)]
        lines.append(_played(list(zip(order, last.cards, strict=True)), names, colour))
        who = "you won" if last.winner == 0 else f"{names[last.winner]} won"
        lines.append(Text(f"Last trick: {who}", "dim"))
    else:
        lines.append(Text("(no card played yet)", "dim"))
    duel = duel_seats_of(obs)
    if duel and 0 not in duel:  # the four-handed end's duel the person sits out
        now = "Your duel is over" if not obs.hand else "You sit out this duel"
        lines.append(Text(f"{now}: {names[duel[0]]} v {names[duel[1]]}", "bold"))
    if obs.turn > 0:  # a computer's turn: which one
        prompt_line = f"{names[obs.turn]} is playing…"
    lines.append(Text(prompt_line, "bold yellow" if colour else "bold"))
    return Text("\n").join(lines)


def duel_seats_of(obs: Observation) -> tuple[int, ...]:
    """The two seats of the current duel of the four-handed end (RULES.md 9.5,
    ``four_hand_end = duels``), from public facts: the winner of the last stock trick plays the
    seat at their left, then that winner's partner the other; empty outside the duels."""
    rules = obs.rules
    stock = rules.stock_tricks
    if (rules.nplayers != 4 or rules.four_hand_end != "duels" or obs.tricks_played < stock
            or len(obs.tricks) < stock):
        return ()
    return duel_seats(obs.tricks[stock - 1].winner, obs.tricks_played, stock + rules.hand_size)


def _last_trick_seats(obs: Observation) -> list[tuple[int, str]]:
    """The (seat, action) of the plays of the last completed trick."""
    plays = [(seat, text) for seat, text in obs.actions if text.startswith("play ")]
    done = plays[: len(plays) - len(obs.trick)]
    n = len(obs.tricks[-1].cards) if obs.tricks else 0
    return done[-n:] if n else []


def declare_title_n(obs: Observation, width: int | None = None) -> str:
    """The centre panel's title while the person may declare: the trick they won (or the
    partner who offered the turn), in ``width`` columns when given: a trick of four cards made
    the long form lose its end ("declare, or …") in 80 columns.

    >>> from bezique import Rules, State
    >>> obs = State.new_deal(Rules.preset("bezique4"), seed=4).observation(0)
    >>> declare_title_n(obs)
    'North lets you declare: declare, or draw'
    """
    last = obs.tricks[-1] if obs.tricks else None
    if last is None or last.winner != 0:
        mate = obs.rules.partner(0)
        who = seat_names(obs.rules.nplayers)[mate] if mate > 0 else "Your partner"
        return f"{who} lets you declare: declare, or draw"
    cards = " ".join(card_symbol(c) for c in last.cards)
    title = f"You won the trick ({cards}): declare, or draw"
    if width is not None and len(title) > width:
        title = f"You won ({cards}): declare, or draw"
    return title
