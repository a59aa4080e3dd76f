"""Resampling what a seat has not seen (``bezique.worlds``): the same view, other hidden cards."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_family_core import TOY, choose

from bezique import Rules, State
from bezique.worlds import resample_from_infostate

RULES = [Rules.preset("bezique"), Rules.preset("binocle"), Rules.preset("bezique3"),
         Rules.preset("rubicon"), TOY]


@settings(max_examples=150, deadline=None)
@given(rules=st.sampled_from(RULES), seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_a_resampled_world_looks_the_same_to_the_seat(rules: Rules, seed: int,
                                                      cut: float) -> None:
    s = State.new_deal(rules, seed)
    rng = random.Random(seed)
    for _ in range(int(cut * 60)):
        if s.is_terminal():
            break
        s.apply_action(choose(s, rng))
    seat = seed % rules.nplayers
    w = resample_from_infostate(s, seat, random.Random(seed + 1))
    assert w.observation(seat) == s.observation(seat)
    assert w.history_strings() == s.history_strings()
    assert w.events == s.events
    if w.history():  # the world's own undo works
        w.undo_action()


def test_undo_then_resample_hides_the_next_draw() -> None:
    """The peeking of the hardening issue: undo a draw, and the card you would draw next is not
    the one you saw, once the unseen cards are dealt afresh."""
    rules = Rules.preset("bezique")
    differ = 0
    for seed in range(40):
        s = State.new_deal(rules, seed)
        rng = random.Random(seed)
        while s.phase != "declare":
            s.apply_action(choose(s, rng))
        seat = s.current_player()
        seen_next = s.stock[s.stock_pos]
        s.apply("pass")
        s.undo_action()
        w = resample_from_infostate(s, seat, random.Random(seed))
        differ += w.stock[w.stock_pos] != seen_next
    assert differ >= 25  # almost always another card (a few coincide by chance)
