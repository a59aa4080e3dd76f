"""The end phase's duty to follow (RULES.md 5.3): the physical-mask and the 32-bit forms agree.

``tricks.follow_mask`` (the play's check, two packs and the solver) and ``tricks.follow_allow``
(the listing from the hand's per-copy words, three packs and more) each write the rule out, for
speed; any hand, lead, best card so far and trumps must give the same cards in both.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bezique.cards import CARD_MASK32, fold_copies, parse_card, replicate, suit_of
from bezique.tricks import follow_allow, follow_mask


@st.composite
def _trick(draw: st.DrawFn) -> tuple[int, int, int, int, int]:
    copies = draw(st.sampled_from([2, 4, 6, 8]))
    hand = draw(st.integers(min_value=1, max_value=(1 << (32 * copies)) - 1))
    lead = draw(st.integers(min_value=0, max_value=31))
    trump = draw(st.integers(min_value=-1, max_value=3))
    # the best card so far: the lead itself, or a card of the lead's suit or of trumps over it
    best = draw(st.sampled_from([lead, *[c for c in range(32) if c >> 3 in (lead >> 3, trump)]]))
    return hand, lead, best, trump, copies


@given(_trick())
def test_the_two_forms_of_the_duty_to_follow_agree(trick: tuple[int, int, int, int, int]) -> None:
    hand, lead, best, trump, copies = trick
    allow = follow_allow(fold_copies(hand, copies), lead, best, trump)
    assert follow_mask(hand, lead, best, trump, copies) == hand & replicate(allow, copies)
    assert allow & ~CARD_MASK32 == 0
    # and a follower is never left without a card to play
    assert follow_mask(hand, lead, best, trump, copies)


def test_a_follower_must_head_the_trick_in_the_suit_led_when_it_can() -> None:
    # RULES.md 5.3: the ten of clubs led, hearts trumps; holding the ace and the nine of clubs
    # and a trump, only the ace (which beats the ten) may be played; with no club, the trump
    ace, ten, nine, trump_card = (parse_card(t) for t in ("AC", "TC", "9C", "QH"))
    hearts = suit_of(trump_card)
    assert follow_allow(1 << ace | 1 << nine | 1 << trump_card, ten, ten, hearts) == 1 << ace
    assert follow_allow(1 << nine | 1 << trump_card, ten, ten, hearts) == 1 << nine
    assert follow_allow(1 << trump_card | 1 << parse_card("KS"), ten, ten, hearts) == (
        1 << trump_card)
