"""The declaring turn (RULES.md 2.3): melds per trick, the two sevens of trumps, the draw."""

from __future__ import annotations

import pytest
from helpers import at_end_phase, deal, names, play, rules, strings, win_trick

from bezique import IllegalActionError, State
from bezique.cards import parse_card


def _refused(s: State, text: str, match: str) -> None:
    before = s.key()
    with pytest.raises(IllegalActionError, match=match):
        s.apply(text)
    assert s.key() == before


def _count(s: State, seat: int, card: str) -> int:
    return names(s.hand(seat)).count(card)


def _seven_points(s: State, seat: int) -> int:
    return sum(p for who, p, why, _ in s.events if who == seat and why in ("seven", "turnup"))


# ---------------------------------------------------------------- the turn itself


def test_trick_winner_has_a_declaring_turn_then_draws() -> None:
    s = deal(["AS"], ["8D"])
    play(s, "play AS", "play 8D")
    assert s.phase == "declare" and s.current_player() == 0
    assert "pass" in strings(s)
    assert not any(a.startswith("play") for a in strings(s))


def test_one_meld_per_trick_by_default() -> None:
    s = deal(["KS", "QS", "JD", "AC"], turnup="8H")
    win_trick(s, ["KS", "QS", "JD"])
    s.apply("meld QS JD")
    assert not any(a.startswith("meld") for a in strings(s))
    _refused(s, "meld KS QS*", "1 meld per trick won")


def test_melds_per_trick_two_allows_a_second_meld_not_a_third() -> None:
    s = deal(["KS", "QS", "JD", "QH", "QD", "QC"], turnup="8C", r=rules(melds_per_trick=2))
    win_trick(s, ["KS", "QS", "JD", "QH", "QD", "QC"])
    s.apply("meld QS JD")
    s.apply("meld KS QS*")
    assert s.scores[0] == 60
    _refused(s, "meld QS* QH QD QC", "2 melds per trick won")


def test_draw_order_winner_draws_top_card_loser_the_next() -> None:
    s = deal(["AS"], ["8D"], stock=["KC", "QD"])
    play(s, "play AS", "play 8D", "pass")
    assert _count(s, 0, "KC") == 1 and _count(s, 1, "QD") == 1
    assert s.stock_left == 45


def test_loser_draws_first_card_when_follower_wins() -> None:
    s = deal(["8D"], ["AD"], stock=["KC", "QD"])
    play(s, "play 8D", "play AD")
    assert s.current_player() == 1 and s.phase == "declare"
    s.apply("pass")
    assert _count(s, 1, "KC") == 1 and _count(s, 0, "QD") == 1


def test_winner_of_trick_leads_to_next() -> None:
    s = deal(["8D"], ["AD"])
    play(s, "play 8D", "play AD", "pass")
    assert s.phase == "lead" and s.current_player() == 1


def test_drawing_without_declaring_loses_the_chance() -> None:
    s = deal(["KS", "QS", "AC"], ["8D", "9D"])
    win_trick(s, ["KS", "QS"])
    assert "meld KS QS" in strings(s)
    s.apply("pass")
    _refused(s, "meld KS QS", "only declare after winning a trick")


def _to_last_stock_trick(s: State) -> State:
    """Play tricks (first legal card, always pass) until the 24th trick is won."""
    while s.tricks_played < s.rules.stock_tricks:
        legal = s.legal_action_strings()
        s.apply("pass" if "pass" in legal else legal[0])
    return s


def test_last_stock_trick_has_a_declaring_turn() -> None:
    s = _to_last_stock_trick(State.new_deal(rules(), seed=11))
    assert s.tricks_played == 24 and s.phase == "declare"
    assert s.stock_left == 1 and s.turnup is not None


def test_last_stock_trick_winner_draws_last_card_loser_takes_turnup() -> None:
    s = _to_last_stock_trick(State.new_deal(rules(), seed=11))
    w = s.current_player()
    last, turnup = s.stock[-1] & 31, s.turnup
    assert turnup is not None
    before = [list(s.hand(0)), list(s.hand(1))]
    s.apply("pass")
    assert s.end_phase and s.stock_left == 0 and s.turnup is None
    assert sorted(s.hand(w)) == sorted([*before[w], last])
    assert sorted(s.hand(1 - w)) == sorted([*before[1 - w], turnup])
    assert s.current_player() == w and s.phase == "lead"


def test_loser_of_last_stock_trick_takes_the_exchanged_seven() -> None:
    # seat 0 wins the 24th trick holding the 7♥ and exchanges it for the turned-up K♥
    final0 = ["7H", "AS", "TS", "KS", "QS", "JS", "9S", "8S"]
    final1 = ["AD", "TD", "KD", "QD", "JD", "9D", "8D", "KH"]
    s, _ = at_end_phase(final0, final1, "KH", last_declare=["exchange"])
    assert s.scores[0] == 10
    assert _count(s, 1, "7H") == 1 and _count(s, 1, "KH") == 0
    assert _count(s, 0, "KH") == 1 and _count(s, 0, "7H") == 0


# ---------------------------------------------------------------- the sevens of trumps


def test_turned_up_seven_scores_10_for_the_dealer() -> None:
    for dealer in (0, 1):
        s = deal(turnup="7H", dealer=dealer)
        assert s.scores[dealer] == 10 and s.scores[1 - dealer] == 0
        assert s.events == ((dealer, 10, "turnup", "7H"),)


def test_turned_up_other_card_scores_nothing() -> None:
    assert deal(turnup="8H").scores == (0, 0)


def test_exchange_scores_10_and_takes_the_turnup() -> None:
    s = deal(["7H", "AS"], ["8D"], turnup="KH")
    play(s, "play AS", "play 8D")
    assert "exchange" in strings(s)
    s.apply("exchange")
    assert s.scores[0] == 10 and s.turnup == parse_card("7H")
    assert _count(s, 0, "KH") == 1 and _count(s, 0, "7H") == 0


def test_exchanged_seven_lies_under_the_stock_in_the_turnups_place() -> None:
    s = deal(["7H", "AS"], ["8D"], turnup="KH")
    play(s, "play AS", "play 8D", "exchange", "pass")
    assert s.turnup == parse_card("7H") and s.stock_left == 45


def test_exchange_impossible_when_the_turnup_is_a_seven() -> None:
    s = deal(["7H", "AS"], ["8D"], turnup="7H")
    play(s, "play AS", "play 8D")
    assert "exchange" not in strings(s)
    assert "seven" in strings(s)
    _refused(s, "exchange", "already a seven of trumps")


def test_exchange_needs_a_seven_of_trumps() -> None:
    s = deal(["7S", "AS"], ["8D"], turnup="KH")
    play(s, "play AS", "play 8D")
    assert "exchange" not in strings(s)
    _refused(s, "exchange", "you need the 7♥")


def test_declare_seven_scores_10_and_it_stays_in_hand() -> None:
    s = deal(["7H", "AS"], ["8D"], turnup="KH")
    play(s, "play AS", "play 8D", "seven")
    assert s.scores[0] == 10 and _count(s, 0, "7H") == 1
    assert s.turnup == parse_card("KH")


def test_exchange_or_declare_the_seven_not_both_in_one_turn() -> None:
    s = deal(["7H", "7H", "AS"], ["8D"], turnup="KH")
    play(s, "play AS", "play 8D", "seven")
    assert not {"seven", "exchange"} & strings(s)
    _refused(s, "exchange", "exchange or declare, not both")
    _refused(s, "seven", "exchange or declare, not both")


def test_each_physical_seven_scores_at_most_once() -> None:
    s = deal(["7H", "AS", "AD"], ["8D", "8S"], turnup="KH")
    play(s, "play AS", "play 8D", "seven", "pass")
    play(s, "play AD", "play 8S")
    assert "seven" not in strings(s)
    _refused(s, "seven", "you hold no 7♥ that has not scored")
    assert _seven_points(s, 0) == 10


def test_both_sevens_of_trumps_can_score_on_separate_tricks() -> None:
    s = deal(["7H", "7H", "AS", "AD"], ["8D", "8S"], turnup="KH")
    play(s, "play AS", "play 8D", "seven", "pass")
    play(s, "play AD", "play 8S", "seven")
    assert _seven_points(s, 0) == 20


def test_exchange_with_an_already_declared_seven_scores_nothing() -> None:
    # The code's choice: the exchange stays legal (the player may want the turn-up), but a
    # physical seven scores at most once.
    s = deal(["7H", "AS", "AD"], ["8D", "8S"], turnup="KH")
    play(s, "play AS", "play 8D", "seven", "pass")
    play(s, "play AD", "play 8S")
    assert "exchange" in strings(s)
    s.apply("exchange")
    assert _seven_points(s, 0) == 10
    assert _count(s, 0, "KH") == 1 and s.turnup == parse_card("7H")


def test_exchange_uses_the_unscored_seven_when_one_is_held() -> None:
    # The code's choice: with a declared and an undeclared 7♥ in hand, the exchange gives up
    # the undeclared one (scoring 10) and keeps the declared one.
    s = deal(["7H", "7H", "AS", "AD"], ["8D", "8S"], turnup="KH")
    play(s, "play AS", "play 8D", "seven", "pass")
    play(s, "play AD", "play 8S", "exchange")
    assert _seven_points(s, 0) == 20
    assert _count(s, 0, "7H") == 1
    s.apply("pass")
    win_trick(s, ["7H"])
    assert "seven" not in strings(s)  # the 7♥ kept is the one already scored


def test_played_concealed_seven_is_the_scored_copy_first() -> None:
    # The code's choice: with a declared and an undeclared 7♥ in hand, "play 7H" plays the one
    # that has scored, keeping the other to declare.
    s = deal(["7H", "7H", "AS", "AD"], ["8D", "8S", "9S"], turnup="KH")
    play(s, "play AS", "play 8D", "seven", "pass")
    assert [a for a in strings(s) if a.startswith("play 7H")] == ["play 7H"]
    play(s, "play 7H", "play 8S", "seven")
    assert _seven_points(s, 0) == 20


def test_loser_of_a_trick_cannot_declare_the_seven() -> None:
    s = deal(["8D"], ["AD", "7H"], turnup="KH")
    play(s, "play 8D", "play AD", "pass")
    # seat 1 won and drew: seat 0 is not declaring, nor is seat 1 any more
    _refused(s, "seven", "only declare after winning a trick")


def test_seven_does_not_use_up_the_meld_by_default() -> None:
    s = deal(["7H", "KS", "QS", "AC"], turnup="KH")
    win_trick(s, ["7H", "KS", "QS"])
    s.apply("exchange")
    assert "meld KS QS" in strings(s)
    s.apply("meld KS QS")
    assert s.scores[0] == 30


def test_meld_then_exchange_in_one_turn_by_default() -> None:
    s = deal(["7H", "KS", "QS", "AC"], turnup="KH")
    win_trick(s, ["7H", "KS", "QS"])
    s.apply("meld KS QS")
    assert "exchange" in strings(s)
    s.apply("exchange")
    assert s.scores[0] == 30


def test_binocle_dix_is_the_seven() -> None:
    r = rules("binocle")
    s = deal(["9H", "AS"], ["TD"], turnup="KH", r=r)
    play(s, "play AS", "play TD")
    assert {"exchange", "seven"} <= strings(s)
    s.apply("exchange")
    assert s.scores[0] == 10 and s.turnup == parse_card("9H")


def test_binocle_turned_up_dix_scores_10_for_the_dealer() -> None:
    s = deal(turnup="9D", r=rules("binocle"), dealer=1)
    assert s.scores == (0, 10)


def test_binocle_dix_does_not_use_up_the_meld_by_default() -> None:
    r = rules("binocle")
    s = deal(["9H", "KS", "QS", "AC"], turnup="KH", r=r)
    win_trick(s, ["9H", "KS", "QS"])
    s.apply("exchange")
    s.apply("meld KS QS")
    assert s.scores[0] == 30
