"""The four-handed duels (RULES.md 9.5, ``four_hand_end = duels``) as the person at South reads
them in 80×24: who plays the current duel, that the person sits the first one out when it is
not theirs, and every other seat's two lines within the panel's 48 columns."""

from __future__ import annotations

import random

from rich.console import Console

from bezique import Rules, State
from bezique.tui.table import prompt
from bezique.tui.table_seats import duel_seats_of, opponents_panel, table_text_n
from bezique.tui.words import seat_names

WIDTH = 48  # the other seats' panel in 80 columns


def _lines(text: object, width: int) -> list[str]:
    console = Console(width=width, color_system=None, legacy_windows=False)
    with console.capture() as cap:
        console.print(text, overflow="fold", crop=False)
    return cap.get().rstrip("\n").split("\n")


def duel_states(seed: int, partnership: bool = True) -> list[State]:
    """Each position of a random duels deal from the last stock trick on."""
    rules = Rules.preset("bezique4", four_hand_end="duels", partnership=partnership)
    state = State.new_deal(rules, seed, dealer=seed % 4)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        if state.duel_seats():
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return out


def test_the_duel_seats_read_from_the_table_are_the_engines() -> None:
    seen = 0
    for seed in range(6):
        for state in duel_states(seed, partnership=seed % 2 == 0):
            assert duel_seats_of(state.observation(0)) == state.duel_seats()
            seen += 1
    assert seen > 6 * 16
    before = State.new_deal(Rules.preset("bezique4", four_hand_end="duels"), 1)
    assert duel_seats_of(before.observation(0)) == ()
    assert duel_seats_of(State.new_deal(Rules.preset("bezique4"), 1).observation(0)) == ()


def test_the_person_is_told_they_sit_out_the_first_duel() -> None:
    """Eight tricks are played by two computers while South holds cards: the table says why
    South does not play, and between whom the duel is."""
    names = seat_names(4)
    told = 0
    for seed in range(12):
        for state in duel_states(seed):
            obs = state.observation(0)
            duel = state.duel_seats()
            text = table_text_n(obs, prompt(obs, False, len(obs.hand)), False).plain
            now = "Your duel is over" if not obs.hand else "You sit out this duel"
            note = f"{now}: {names[duel[0]]} v {names[duel[1]]}"
            if 0 not in duel:  # the first duel is still to come, or South's was the first
                assert (now == "You sit out this duel") == (len(obs.tricks) < 32)
            assert (note in text) == (0 not in duel), (duel, text)
            if 0 not in duel and obs.turn in duel:
                assert f"{names[obs.turn]} is playing…" in text
                told += 1
            assert all(len(line) <= WIDTH for line in text.splitlines())
    assert told > 0


def test_every_seat_of_a_duel_fits_its_two_lines_in_80_columns() -> None:
    """A long first line (the partner's name, ten tricks or more, "sits out") used to wrap
    to a third line in 48 columns and push the last seat's line out of the panel; the note
    moves to the second line instead, and each seat keeps its two lines."""
    long_heads = 0
    for seed in range(12):
        for state in duel_states(seed):
            obs = state.observation(0)
            duel = state.duel_seats()
            panel = opponents_panel(obs, False, False, WIDTH, duel)
            lines = _lines(panel, WIDTH)
            assert len(lines) == 6, lines
            names = seat_names(4)
            for k, seat in enumerate((1, 2, 3)):
                two = lines[2 * k] + "\n" + lines[2 * k + 1]
                assert names[seat] in lines[2 * k]
                assert ("sits out" in two) == (seat not in duel), two
                if seat not in duel and "sits out" not in lines[2 * k]:
                    long_heads += 1
    assert long_heads > 0  # the case that used to wrap was met
