"""A readable trick-by-trick account of a deal, for ``bezique replay`` and ``bezique demo``."""

from __future__ import annotations

from collections.abc import Iterator

from . import actions as act
from .cards import SUIT_SYMBOLS, card_symbol
from .errors import BeziqueError
from .state import State


def _cards(cards: list[int]) -> str:
    return " ".join(card_symbol(c) for c in cards)


def deal_header(state: State, number: int, names: tuple[str, str]) -> list[str]:
    """Lines that open a deal: who deals, the trump, the scores so far."""
    tu = state.turnup
    tu_text = card_symbol(tu) if tu is not None else "?"
    return [
        f"Deal {number}: {names[state.dealer]} deals; turn-up {tu_text}, trumps "
        f"{SUIT_SYMBOLS[state.trump]}. Game scores {state.totals[0]}-{state.totals[1]}.",
    ]


def step_lines(before: State, action: int, after: State, names: tuple[str, str]) -> list[str]:
    """Lines describing one applied action, given the states before and after it."""
    p = before.current_player()
    who = names[p]
    out: list[str] = []
    new_events = after.events[len(before.events) :]
    if act.is_play(action):
        card = card_symbol(action & 31)
        if before.phase == "lead":
            out.append(f"Trick {before.tricks_played + 1}: {who} leads {card}")
        else:
            win = after.last_trick_winner
            out.append(f"  {who} plays {card}: {names[win]} wins the trick")
    elif act.is_meld(action):
        ev = [e for e in new_events if e[2] == "meld"]
        kind = ev[0][3] if ev else "meld"
        cards = sorted((q & 31 for q in act.meld_cards(action)), key=lambda c: (c >> 3, c & 7))
        out.append(f"  {who} declares {kind}: {_cards(cards)} (+{ev[0][1] if ev else 0})")
    elif action == act.EXCHANGE:
        out.append(f"  {who} exchanges the seven of trumps for the turn-up")
    elif action == act.SEVEN:
        out.append(f"  {who} declares the seven of trumps")
    elif action == act.PASS and after.end_phase and not before.end_phase:
        out.append("  The stock is exhausted: the last tricks follow suit and must win.")
    for seat, pts, reason, _detail in new_events:
        if reason in ("seven",) and action in (act.EXCHANGE, act.SEVEN):
            out.append(f"    +{pts} to {names[seat]}")
        elif reason == "seven":
            out.append(f"    {names[seat]} scores {pts} for the seven of trumps")
        elif reason == "last trick":
            out.append(f"  {names[seat]} takes the last trick: +{pts}")
        elif reason == "brisques":
            label = "card points" if before.rules.variant == "binocle" else "brisques"
            out.append(f"  {names[seat]} counts {pts} in {label}")
    if after.is_terminal() and not before.is_terminal():
        out.append(
            f"Deal over: {names[0]} {after.scores[0]}, {names[1]} {after.scores[1]}. "
            f"Game {after.game_scores[0]}-{after.game_scores[1]}."
        )
        if after.winner is not None:
            out.append(f"{names[after.winner]} wins the game.")
    return out


def narrate(start: State, actions: list[str], names: tuple[str, str]) -> Iterator[str]:
    """Lines for a whole deal replayed from ``start`` (refused actions are reported)."""
    state = start.clone()
    for text in actions:
        before = state.clone()
        try:
            a = state.string_to_action(text)
            state.apply_action(a)
        except BeziqueError as e:
            yield f"  ! {text!r} refused: {e}"
            continue
        yield from step_lines(before, a, state, names)
