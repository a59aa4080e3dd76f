"""Card and action text forms (RULES.md 1 and 7)."""

from __future__ import annotations

import pytest
from helpers import deal, play, strings

from bezique import BeziqueError, IllegalActionError, State, card_name, card_symbol, parse_card
from bezique.cards import ACE, CLUBS, DIAMONDS, HEARTS, QUEEN, SPADES, TEN, make_card


@pytest.mark.parametrize("text", ["TD", "td", "10D", "10d", "T♦", "10♦", "t♢", " TD "])
def test_card_input_accepts_10_lower_case_and_symbols(text: str) -> None:
    assert parse_card(text) == make_card(TEN, DIAMONDS)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("QS", QUEEN, SPADES), ("q♠", QUEEN, SPADES), ("A♥", ACE, HEARTS), ("ac", ACE, CLUBS)],
)
def test_card_text_is_rank_then_suit(text: str, rank: int, suit: int) -> None:
    assert parse_card(text) == make_card(rank, suit)


def test_card_output_is_canonical_upper_case_with_T_for_ten() -> None:
    assert card_name(parse_card("10h")) == "TH"
    assert card_name(parse_card("j♣")) == "JC"
    assert card_symbol(parse_card("TH")) == "10♥"


@pytest.mark.parametrize("text", ["", "QX", "1S", "11H", "QSS", "ZZ", "Q"])
def test_bad_card_text_is_refused_with_a_readable_error(text: str) -> None:
    with pytest.raises(BeziqueError, match="is not a card"):
        parse_card(text)


def test_play_input_accepts_any_card_form_and_prints_canonically() -> None:
    s = deal(["TH", "QS", "JD"], turnup="8C")
    for text in ("play 10h", "PLAY T♥", "play th", "Play 10♥"):
        a = s.string_to_action(text)
        assert s.action_to_string(a) == "play TH"


def test_meld_input_in_any_order_prints_in_canonical_order() -> None:
    s = deal(["AS", "QS", "JD"], ["8D"], turnup="8C")
    play(s, "play AS", "play 8D")
    a = s.string_to_action("meld j♦ q♠")
    assert s.action_to_string(a) == "meld QS JD"
    assert "meld QS JD" in strings(s)


def test_four_of_a_kind_canonical_order_is_suits_s_h_d_c() -> None:
    s = deal(["AS", "KC", "KD", "KH", "KS"], ["8D"], turnup="8C")
    play(s, "play AS", "play 8D")
    a = s.string_to_action("meld KC KD KH KS")
    assert s.action_to_string(a) == "meld KS KH KD KC"


def test_shown_copy_is_written_with_a_star() -> None:
    s = deal(["AS", "QS", "JD", "AD"], ["8D", "8S"], turnup="8C")
    play(s, "play AS", "play 8D", "meld QS JD", "pass")
    legal = strings(s)
    assert {"play QS*", "play JD*"} <= legal
    assert "play QS" not in legal  # no concealed Q♠ is held


def test_play_concealed_name_of_a_shown_card_is_refused_with_a_hint() -> None:
    s = deal(["AS", "QS", "JD", "AD"], ["8D", "8S"], turnup="8C")
    play(s, "play AS", "play 8D", "meld QS JD", "pass")
    before = s.key()
    with pytest.raises(IllegalActionError, match=r"write QS\*"):
        s.apply("play QS")
    assert s.key() == before


def test_meld_text_puts_a_shown_copy_before_a_concealed_copy() -> None:
    s = deal(["AS", "AD", "QS", "QS", "JD", "JD"], ["8D", "8S"], turnup="8C")
    play(s, "play AS", "play 8D", "meld QS JD", "pass", "play AD", "play 8S")
    assert "meld QS* QS JD* JD" in strings(s)
    a = s.string_to_action("meld jd JD* qs q♠*")
    assert s.action_to_string(a) == "meld QS* QS JD* JD"


def _two_histories() -> State:
    """Seat 0 has one Q♠ shown in a bezique and the other in four queens (clubs trumps)."""
    s = deal(
        ["QS", "QS", "JD", "QH", "QD", "QC", "AS", "AD"],
        ["7S", "7D", "7H", "8S", "8D", "8H", "9S", "9D"],
        turnup="8C",
    )
    play(s, "play AS", "play 7D", "meld QS JD", "pass")
    play(s, "play AD", "play 7S", "meld QS QH QD QC", "pass")
    return s


def test_shown_copies_with_different_histories_are_written_star_1_and_star_2() -> None:
    s = _two_histories()
    legal = strings(s)
    assert {"play QS*1", "play QS*2"} <= legal
    assert "play QS*" not in legal


def test_choosing_which_differing_shown_copy_to_play_is_two_actions() -> None:
    s = _two_histories()
    a1, a2 = s.string_to_action("play QS*1"), s.string_to_action("play QS*2")
    assert a1 != a2 and a1 in s.legal_actions() and a2 in s.legal_actions()
    # QS*1 is the queen of the earlier meld (the bezique): playing it breaks the bezique only
    one = s.clone()
    one.apply("play QS*1")
    assert {name: intact for name, _, _, intact in one.melds(0)} == {
        "bezique": False,
        "four queens": True,
    }
    two = s.clone()
    two.apply("play QS*2")
    assert {name: intact for name, _, _, intact in two.melds(0)} == {
        "bezique": True,
        "four queens": False,
    }


def test_bare_star_is_refused_when_shown_copies_differ() -> None:
    s = _two_histories()
    before = s.key()
    with pytest.raises(IllegalActionError, match=r"QS\*1 or QS\*2"):
        s.apply("play QS*")
    assert s.key() == before


@pytest.mark.parametrize("text", ["play QS*0", "play QS*3", "play QS*x", "play QS**"])
def test_shown_copy_numbers_outside_the_groups_are_refused(text: str) -> None:
    s = _two_histories()
    before = s.key()
    with pytest.raises(IllegalActionError):
        s.apply(text)
    assert s.key() == before


def test_action_text_round_trips_for_every_legal_action() -> None:
    s = _two_histories()
    for a in s.legal_actions():
        assert s.string_to_action(s.action_to_string(a)) == a


@pytest.mark.parametrize("text", ["", "dance", "play", "play QS JD", "meld", "pass now"])
def test_malformed_action_text_is_refused(text: str) -> None:
    s = deal(["QS"], turnup="8C")
    with pytest.raises(IllegalActionError):
        s.string_to_action(text)


# ---------------------------------------------------------------------- masks of several packs

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from bezique.cards import COPIES_OF, fold_copies, replicate  # noqa: E402


@given(st.integers(1, 8).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(0, 2 ** (32 * n) - 1))))
def test_fold_copies_is_every_card_held_in_some_pack(case: tuple[int, int]) -> None:
    """The folded mask (computed by halves of the long mask) has a card exactly when some pack's
    32-bit word has it, for one to eight packs."""
    copies, mask = case
    words = [mask >> (32 * k) & 0xFFFFFFFF for k in range(copies)]
    expected = 0
    for w in words:
        expected |= w
    assert fold_copies(mask, copies) == expected


@given(st.integers(1, 8), st.integers(0, 2**32 - 1))
def test_replicate_repeats_the_card_mask_in_every_pack(copies: int, mask32: int) -> None:
    out = replicate(mask32, copies)
    assert [out >> (32 * k) & 0xFFFFFFFF for k in range(copies)] == [mask32] * copies
    assert out >> (32 * copies) == 0
    assert all(COPIES_OF[copies][c] == replicate(1 << c, copies) for c in range(32))
