"""The two-pack tables, whole, against their definitions: the play tables of
:mod:`bezique.cards` (one suit's distinct cards as plays, filled all at once when first read)
and the meld filter's per-suit entries (:class:`bezique.meldfilter.SuitFilter`, made by rank
with the filter)."""

from __future__ import annotations

import pytest

from bezique import Rules
from bezique.cards import _SUIT_PLAYS, suit_plays
from bezique.meldfilter import _FIELD, SuitFilter


def test_every_holding_of_every_suit_lists_its_plays() -> None:
    suit_plays(0, 0)  # (fills the tables)
    for suit, table in enumerate(_SUIT_PLAYS):
        assert len(table) == 0x10000
        for key, got in enumerate(table):
            only_second, first = key >> 8, key & 255
            if first & only_second:  # no holding has this key
                assert got is None
                with pytest.raises(ValueError):
                    suit_plays(suit, key)
                continue
            want = tuple(suit * 8 + i + (0 if first >> i & 1 else 32)
                         for i in range(8) if (first | only_second) >> i & 1)
            assert got == want == suit_plays(suit, key), (suit, hex(key))


def entry(f: SuitFilter, suit: int, key: int) -> int:
    """A filter entry by its definition: per pattern, 32 per card it needs once (twice) that
    the suit's holding lacks once (twice), less the copies held of an "n of a rank"'s cards."""
    shift = 8 * suit
    first, second = (key & 255) << shift, (key >> 8) << shift
    held, both = first | second, first & second
    got = 0
    for i, (need1, need2, counted) in enumerate(f.needs):
        missing = ((need1 & ~held & 255 << shift).bit_count()
                   + (need2 & ~both & 255 << shift).bit_count())
        count = (counted & first).bit_count() + (counted & second).bit_count()
        got += (32 * missing - count) << (_FIELD * i)
    return got


@pytest.mark.parametrize("variant", ["bezique", "binocle"])
def test_every_filter_entry_is_its_definition(variant: str) -> None:
    rules = Rules.preset(variant)
    for trump in (-1, 0, 1, 2, 3):
        f = SuitFilter(rules, trump)
        for suit in range(4):
            relevant = (f.relevant02 if suit % 2 == 0 else f.relevant13) >> (16 * (suit // 2))
            relevant &= 255
            table = f.tables[suit]
            assert len(table) > relevant * 0x101
            for key in range(len(table)):
                if not (key & 255 | key >> 8) & ~relevant:  # (a key passing() can read)
                    assert table[key] == entry(f, suit, key), (variant, trump, suit, hex(key))
