"""The words of the hands and shown cards (three packs and more: one 32-bit word per copy, see
:mod:`bezique.copywords`) always agree with the plain masks: over random deals of three, four,
six and eight packs, after every action, after undo, in clones and copies, and with the masks
set from outside.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from bezique import Rules, State
from bezique.copywords import (
    count_keys,
    join_words,
    or_words,
    seen_dup,
    split_words,
    word_plays,
)


def agree(s: State) -> None:
    """The state's words (as the hot paths read them) are its masks' words."""
    copies = s.copies
    hw = s._hand_words()
    sw = s._shown_words()
    assert [join_words(w) for w in hw] == list(s.hand_masks)
    assert [join_words(w) for w in sw] == list(s.shown_masks)
    assert all(len(w) == copies for w in hw + sw)
    assert all(0 <= x < 1 << 32 for w in hw + sw for x in w)


@pytest.mark.parametrize("variant,deals", [("bezique3", 6), ("bezique4", 6), ("rubicon", 8),
                                           ("sixpack", 4), ("eightpack", 3)])
def test_words_agree_with_the_masks_through_random_deals_undo_and_clone(
    variant: str, deals: int
) -> None:
    r = Rules.preset(variant)
    rng = random.Random(variant)
    for seed in range(deals):
        s = State.new_deal(r, seed=seed)
        agree(s)
        steps = 0
        while not s.is_terminal():
            la = s.legal_actions()
            s.apply_action(la[rng.randrange(len(la))])
            steps += 1
            agree(s)
            if rng.random() < 0.15:  # undo, check, and play on from the earlier position
                s.undo_action()
                agree(s)
            elif rng.random() < 0.1:  # a clone (or copy) plays on; the original is untouched
                before = s.key()
                c = copy.copy(s) if rng.random() < 0.5 else s.clone()
                for _ in range(3):
                    if c.is_terminal():
                        break
                    lc = c.legal_actions()
                    c.apply_action(lc[rng.randrange(len(lc))])
                    agree(c)
                assert s.key() == before
                agree(s)
                s = c if rng.random() < 0.5 else s
        assert steps > 20
        # a pickled and restored state reads its own words
        t = pickle.loads(pickle.dumps(s))
        agree(t)


def test_a_state_whose_masks_are_set_from_outside_reads_their_words() -> None:
    """A sampled world sets ``hand_masks`` itself: the words follow the new masks."""
    r = Rules.preset("rubicon")
    s = State.new_deal(r, seed=3)
    s.legal_actions()
    agree(s)
    s.hand_masks = (s.hand_masks[1], s.hand_masks[0])
    agree(s)
    s.apply_action(s.legal_actions()[0])
    agree(s)


def test_word_functions_against_plain_masks() -> None:
    rng = random.Random(8)
    for copies in (3, 4, 6, 8):
        pack = list(range(32 * copies))
        for _ in range(300):
            mask = 0
            for p in rng.sample(pack, rng.randrange(0, 40)):
                mask |= 1 << p
            other = rng.getrandbits(32 * copies)
            words = split_words(mask, copies)
            assert join_words(words) == mask
            assert join_words(or_words(words, split_words(other, copies))) == mask | other
            counts = [sum(mask >> (32 * k + c) & 1 for k in range(copies)) for c in range(32)]
            seen = sum(1 << c for c in range(32) if counts[c])
            dup = sum(1 << c for c in range(32) if counts[c] > 1)
            assert seen_dup(words) == (seen, dup)
            lowest = sorted((next(k for k in range(copies) if mask >> (32 * k + c) & 1), c)
                            for c in range(32) if counts[c])
            assert word_plays(words) == ([32 * k + c for k, c in lowest], dup)
            relevant = rng.getrandbits(32)
            keys = count_keys(words, relevant)
            for c in range(32):
                held = counts[c] if relevant >> c & 1 else 0
                assert keys[c >> 3] >> 4 * (c & 7) & 15 == held
