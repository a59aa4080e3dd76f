"""The deal's shuffle: the same seed gives the same deal, in every Python and build."""

from __future__ import annotations

import random

from bezique.deal import shuffle


def test_the_deal_shuffle_is_random_shuffle() -> None:
    """Deals (and so every record's seed) depend on the shuffle: ``deal.shuffle`` must give
    exactly ``random.Random.shuffle``'s permutation, for every pack size of the family."""
    for seed in range(300):
        for n in (0, 1, 2, 3, 64, 96, 128, 192, 256):
            a, b = list(range(n)), list(range(n))
            ra, rb = random.Random(seed), random.Random(seed)
            ra.shuffle(a)
            shuffle(rb, b)
            assert a == b
            assert ra.random() == rb.random()  # the generators end in the same state
