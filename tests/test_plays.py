"""The card plays a seat is offered (``bezique.plays``): one per distinct card, in card order,
and exactly the cards the engine accepts, over random deals of every preset, also at a clone
and after an undo (the listing is computed from the position; what is remembered, the plays
of the shown cards with three packs and more, is checked against a fresh answer)."""

from __future__ import annotations

import random

import pytest

from bezique import IllegalActionError, Rules, State
from bezique.cards import bits
from bezique.copywords import split_words

PRESETS = ["bezique", "binocle", "rubicon", "bezique3", "bezique4", "sixpack", "eightpack"]


def expected_concealed_plays(s: State) -> list[int]:
    """The copy the engine plays of each concealed card (its canonical play), where
    :meth:`State.apply_action` accepts it (in the end phase, the follower's duty): with two
    packs by card, with more by the lowest copy held (pack by pack, then by card)."""
    hand = s.hand_masks[s.current_player()]
    lows = [min(p for p in bits(hand) if p & 31 == c) for c in {p & 31 for p in bits(hand)}]
    out = []
    for low in sorted(lows, key=lambda p: p & 31 if s.rules.copies == 2 else p):
        rep = s.canonical_play(low)
        probe = s.clone()
        try:
            probe.apply_action(rep)
        except IllegalActionError:
            continue
        out.append(rep)
    return out


def check_words(s: State) -> None:
    """Three packs and more: the words kept beside the masks (changed in place as cards are
    played, drawn and melded) are those of the masks, while marked valid."""
    if s.copies > 2 and s._hw_of is s.hand_masks:
        assert s._hw == [split_words(h, s.copies) for h in s.hand_masks]
    if s.copies > 2 and s._sw_of is s.shown_masks:
        assert s._sw == [split_words(h, s.copies) for h in s.shown_masks]


def check_card_plays(s: State, la: list[int]) -> None:
    seat = s.current_player()
    hand, shown = s.hand_masks[seat], s.shown_masks[seat]
    if shown:  # the remembered plays of the shown cards (3+ packs) are those of the position
        fresh = s.clone()
        fresh._reps = ((0, None, []),) * len(s.hand_masks)
        assert s._shown_reps(seat, shown) == fresh._shown_reps(seat, shown)
    concealed = [a for a in la if 0 <= a < 256 and hand >> a & 1]
    on_table = [a for a in la if 0 <= a < 256 and not hand >> a & 1]
    assert concealed == expected_concealed_plays(s)
    assert all(shown >> a & 1 for a in on_table)
    assert len(set(la)) == len(la)
    for p in bits(shown):  # a copy on the table is accepted exactly when it is the one listed
        probe = s.clone()
        try:
            probe.apply_action(p)
        except IllegalActionError:
            assert p not in la
        else:
            assert p in la


@pytest.mark.parametrize("preset", PRESETS)
def test_card_plays_are_one_per_card_and_exactly_the_playable(preset: str) -> None:
    rules = Rules.preset(preset)
    for seed in range(4):
        rng = random.Random(seed)
        s = State.new_deal(rules, seed=seed)
        while not s.is_terminal():
            la = s.legal_actions()
            check_words(s)
            if s.phase in ("lead", "follow"):
                check_card_plays(s, la)
                twin = s.clone()
                assert twin.legal_actions() == la
            a = la[rng.randrange(len(la))]
            s.apply_action(a)
            if rng.random() < 0.3:  # back and forth: the same listing at the same position
                after = s.legal_actions()
                s.undo_action()
                assert s.legal_actions() == la
                s.apply_action(a)
                assert s.legal_actions() == after
