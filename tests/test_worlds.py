"""Resampling what a seat has not seen (``bezique.worlds``): the same view, other hidden cards."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_family_core import TOY, choose

from bezique import Rules, State
from bezique.worlds import repaired_deal, resample_from_infostate

RULES = [Rules.preset("bezique"), Rules.preset("binocle"), Rules.preset("bezique3"),
         Rules.preset("bezique4"), Rules.preset("bezique4", partnership=False),
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


def test_at_tables_undo_deals_the_stock_and_every_other_hand_afresh() -> None:
    """The browser's undo at a table of three or four (a partner's hand included): the seat's
    own hand and view stay, the other seats' concealed cards and the stock are dealt afresh,
    and the other seats' moves replay in the new deal as they were made."""
    for rules in (Rules.preset("bezique3"), Rules.preset("bezique4"),
                  Rules.preset("bezique4", partnership=False)):
        next_differs = partner_differs = tried = 0
        for seed in range(30):
            s = State.new_deal(rules, seed)
            rng = random.Random(seed)
            for _ in range(rng.randint(4, 60)):
                s.apply_action(choose(s, rng))
            while s.phase != "declare" or s.stock_left == 0:
                s.apply_action(choose(s, rng))
            seat = s.current_player()
            seen_next = s.stock[s.stock_pos]
            s.apply("pass")
            s.undo_action()
            w = resample_from_infostate(s, seat, random.Random(seed))
            assert w.observation(seat) == s.observation(seat) and w.events == s.events
            assert w.history_strings() == s.history_strings()
            assert sorted(w.hand(seat)) == sorted(s.hand(seat))
            tried += 1
            next_differs += w.stock[w.stock_pos] != seen_next
            # the partner, or (each for themselves) the seat to the left
            mate = rules.partner(seat) if rules.partner(seat) >= 0 else (seat + 1) % rules.nplayers
            partner_differs += sorted(w.hand(mate)) != sorted(s.hand(mate))
        assert tried == 30 and next_differs >= 25 and partner_differs >= 28, (
            rules.variant, next_differs, partner_differs)


def _late_in_the_end_phase(rules: Rules, seed: int) -> tuple[State, int]:
    """A deal of random play some tricks into its end phase, and a seat to look from."""
    s = State.new_deal(rules, seed)
    rng = random.Random(seed)
    while not s.end_phase:
        s.apply_action(choose(s, rng))
    for _ in range(rng.randrange(30)):
        if s.is_terminal():
            break
        s.apply_action(choose(s, rng))
    return s, rng.randrange(rules.nplayers)


@settings(max_examples=60, deadline=None)
@given(rules=st.sampled_from(RULES[2:5]), seed=st.integers(0, 2**32 - 1))
def test_a_repaired_deal_looks_the_same_to_the_seat(rules: Rules, seed: int) -> None:
    # late in a table's end phase every play narrows what each hand may hold, so that a shuffle
    # of the unseen cards often no longer replays; the repaired deal always does (exchanges and
    # declared sevens scoring as they did, the seat's own draws where they were)
    s, seat = _late_in_the_end_phase(rules, seed)
    w = repaired_deal(s, seat, random.Random(seed))
    assert w is not None
    assert w.observation(seat) == s.observation(seat) and w.events == s.events
    assert w.history_strings() == s.history_strings()


def test_undo_never_gives_the_real_deal_back_at_a_table() -> None:
    """When no shuffle of the unseen cards replays (here: none in 50 tries), the undo's deal is
    a repaired one, not the real deal, which would show the player the other hands."""
    rules = Rules.preset("bezique4")
    hard = tried = 0
    for seed in range(60):
        s, seat = _late_in_the_end_phase(rules, seed)
        if min(len(s.hand(p)) for p in range(rules.nplayers)) < 3:
            continue  # the last cards may be pinned by what was followed: one world
        tried += 1
        w = resample_from_infostate(s, seat, random.Random(seed), tries=1)
        assert w.observation(seat) == s.observation(seat) and w.events == s.events
        concealed = [sorted(w.hand(p)) != sorted(s.hand(p))
                     for p in range(rules.nplayers) if p != seat and s.hand(p)]
        hard += all(not d for d in concealed)
    assert tried >= 30 and hard <= 1, (tried, hard)  # the others' hands dealt afresh
