"""Who sits where at the terminal's table, and the game told in words for the log and the
end-of-deal screen: the seats' names (the person is seat 0, South; the computers West, North and
East, the partner opposite), one log line per action, the lines that open a deal, and each
seat's account of a finished deal.  Two seats read "You" and "Computer"; three and four read
the compass.

>>> seat_names(2), seat_names(3), seat_names(4)
(('You', 'Computer'), ('You', 'West', 'East'), ('You', 'West', 'North', 'East'))
>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("bezique4"), seed=4)
>>> deal_start_lines(s, 1, seat_names(4))
['Deal 1: West deals']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import actions as act
from ..cards import RANK_NAMES, SUIT_NAMES, SUIT_SYMBOLS, card_symbol, parse_card, rank_of, suit_of
from ..rules import Rules
from ..state import State

NAMES = ("You", "Computer")
COMPASS = {2: NAMES, 3: ("You", "West", "East"), 4: ("You", "West", "North", "East")}


def seat_names(seats: int) -> tuple[str, ...]:
    """The names the table gives its seats: seat 0 is the person; play goes to the left."""
    return COMPASS[seats]


def seven_name(rules: Rules) -> str:
    """The card that scores 10 when exchanged, declared or turned up: the seven of trumps, or
    in Binocle the nine (the dix, RULES.md 4).

    >>> seven_name(Rules.preset("bezique")), seven_name(Rules.preset("binocle"))
    ('seven of trumps', 'nine of trumps (the dix)')
    """
    if rules.seven_rank == RANK_NAMES.index("seven"):
        return "seven of trumps"
    return f"{RANK_NAMES[rules.seven_rank]} of trumps (the dix)"


def _verb(names: tuple[str, ...], seat: int, base: str, third: str | None = None) -> str:
    return f"{names[seat]} {base if seat == 0 else (third or base + 's')}"


def describe(before: State, action: int, after: State,
             names: tuple[str, ...] = NAMES) -> list[str]:
    """Log lines for one action, in words a player reads at a glance ("Computer leads Q♠")."""
    seat = before.current_player()
    out: list[str] = []
    new = after.events[len(before.events) :]
    if act.is_play(action):
        card = card_symbol(action & 31)
        if before.phase == "lead":
            out.append(f"{_verb(names, seat, 'lead')} {card}")
        elif after.tricks_played > before.tricks_played:
            win = after.last_trick_winner
            if win == seat:
                wins = "win" if seat == 0 else "wins"
                out.append(f"{_verb(names, seat, 'play')} {card} and {wins} the trick")
            else:
                taker = "you win" if win == 0 else f"{names[win]} wins"
                out.append(f"{_verb(names, seat, 'play')} {card}; {taker} the trick")
        else:
            out.append(f"{_verb(names, seat, 'play')} {card}")
    elif act.is_meld(action):
        ev = [e for e in new if e[2] == "meld"]
        cards = sorted((q & 31 for q in act.meld_cards(action)), key=lambda c: (suit_of(c),
                                                                                 rank_of(c)))
        kind = ev[0][3] if ev else "a meld"
        pts = ev[0][1] if ev else 0
        out.append(f"{_verb(names, seat, 'declare')} {kind} "
                   f"{' '.join(card_symbol(c) for c in cards)} (+{pts})")
        if before.trump < 0 <= after.trump:  # the first marriage or sequence (RULES.md 9.0.2)
            suit = after.trump
            out.append(f"{SUIT_NAMES[suit].capitalize()} ({SUIT_SYMBOLS[suit]}) are trumps now")
    elif action == act.EXCHANGE:
        out.append(f"{_verb(names, seat, 'exchange')} the {seven_name(before.rules)} for the "
                   "turn-up (+10)")
    elif action == act.SEVEN:
        out.append(f"{_verb(names, seat, 'declare')} the {seven_name(before.rules)} (+10)")
    elif action == act.OFFER:
        mate = before.partner(seat)
        to = "you" if mate == 0 else names[mate]
        out.append(f"{_verb(names, seat, 'let')} {to} declare instead")
    elif action == act.CARTE:
        out.append(f"{_verb(names, seat, 'show')} a hand without a court card: carte blanche")
    elif act.kind(action) == "guess":  # the cut bonus (RULES.md 9.2)
        out.append(f"{_verb(names, seat, 'guess', 'guesses')} a cut of {action - act.GUESS} "
                   f"cards; it was {after.cut}")
    elif action == act.PASS:
        got = _drawn(before, after, 0)
        if seat != before.last_trick_winner:  # a partner offered the turn, and passes it
            if before.history()[-1][1] == act.OFFER:  # and declared nothing since
                done = f"{_verb(names, seat, 'declare')} nothing"
            else:
                done = f"{_verb(names, seat, 'are', 'is')} done declaring"
            out.append(f"{done}; you draw {got}")
        elif seat == 0:
            out.append(f"You draw {got}")
        else:
            out.append(f"{names[seat]} draws; you draw {got}")
        if after.end_phase and not before.end_phase:
            out.append("Stock gone: follow suit, win if you can")
            duel = after.duel_seats()  # four-handed duels (RULES.md 9.5): who plays whom
            if duel:
                them = ["you", *names[1:]]
                w, o = duel
                out.append(f"The last tricks are two duels: {them[w]} v {them[o]}, then "
                           f"{them[(w + 2) % 4]} v {them[(w + 3) % 4]}")
    out.extend(score_lines(before, action, new, names))
    return out


def score_lines(before: State, action: int, events: Any,
                names: tuple[str, ...] = NAMES) -> list[str]:
    """A line for each score an action made besides the ones its own line tells (a declaration,
    an exchange): what was scored and why."""
    out: list[str] = []
    for s, pts, reason, detail in events:
        if reason == "last trick":
            which = " of the first duel" if detail == "first duel" else \
                " of the stock" if detail == "stock" else ""
            out.append(f"{_verb(names, s, 'take', 'takes')} the last trick{which} (+{pts})")
        elif reason == "brisques":
            if before.rules.variant == "binocle":
                out.append(f"{_verb(names, s, 'score', 'scores')} {pts} in card points (+{pts})")
            else:
                out.append(f"{_verb(names, s, 'score', 'scores')} {pts} for brisques: the aces "
                           f"and tens won in tricks (+{pts})")
        elif reason == "seven" and action not in (act.EXCHANGE, act.SEVEN):
            out.append(f"{_verb(names, s, 'score', 'scores')} 10 for playing the "
                       f"{seven_name(before.rules)} (+{pts})")
        elif reason == "carte":
            out.append(f"{_verb(names, s, 'score', 'scores')} carte blanche (+{pts})")
        elif reason == "cut":
            why = "the right guess" if detail.startswith("guessed") else "a cut of 24"
            out.append(f"{_verb(names, s, 'score', 'scores')} {pts} for {why} (+{pts})")
    return out


def deal_start_lines(state: State, number: int, names: tuple[str, ...] = NAMES) -> list[str]:
    """The log lines that open a deal: who deals, and the dealer's 10 for a turned-up seven."""
    dealer = state.dealer
    out = [f"Deal {number}: {'you deal' if dealer == 0 else names[dealer] + ' deals'}"]
    for s, pts, reason, detail in state.events:
        if reason == "turnup":
            card = card_symbol(parse_card(detail)) if detail else "card"
            what = seven_name(state.rules).replace(" of trumps", "")  # "seven", "nine (the dix)"
            out.append(f"{_verb(names, s, 'score', 'scores')} {pts}: the turn-up {card} is a "
                       f"{what}, and the dealer scores it (+{pts})")
    return out


def deal_over_line(state: State, names: tuple[str, ...] = NAMES) -> str:
    """The log line at the end of a deal: each seat's points (and each side's in a
    partnership)."""
    parts = [f"{'you' if i == 0 else names[i]} {p}" for i, p in enumerate(state.scores)]
    line = "Deal over: " + ", ".join(parts)
    if state.partner(0) >= 0:
        a, b = state.scores[0] + state.scores[2], state.scores[1] + state.scores[3]
        line += f" (your side {a}, theirs {b})"
    return line


def _drawn(before: State, after: State, seat: int) -> str:
    """The card ``seat`` drew between two states (its own hand only: nothing hidden)."""
    left = list(before.hand(seat)) + list(before.shown(seat))
    for c in list(after.hand(seat)) + list(after.shown(seat)):
        if c in left:
            left.remove(c)
        else:
            return card_symbol(c)
    return "a card"


@dataclass(frozen=True)
class DealSummary:
    """One seat's account of a finished deal."""

    melds: tuple[tuple[str, int], ...]  # carte blanche among them (RULES.md 9.0.4)
    sevens: int
    last_trick: int
    brisques: int
    deal: int
    game: int
    cut: int = 0  # the cut bonus (Six- and Eight-pack, RULES.md 9.2)


def deal_summary(state: State) -> tuple[DealSummary, ...]:
    """What each seat scored in a deal, by kind (for the end-of-deal screen)."""
    out = []
    for seat in range(state.rules.nplayers):
        melds: list[tuple[str, int]] = []
        sevens = last = bris = cut = 0
        for s, pts, reason, detail in state.events:
            if s != seat:
                continue
            if reason == "meld":
                melds.append((detail, pts))
            elif reason == "carte":
                melds.append(("carte blanche", pts))
            elif reason == "cut":
                cut += pts
            elif reason in ("seven", "turnup"):
                sevens += pts
            elif reason == "last trick":
                last += pts
            elif reason == "brisques":
                bris += pts
        out.append(DealSummary(tuple(melds), sevens, last, bris, state.scores[seat],
                               state.game_scores[seat], cut))
    return tuple(out)
