"""The last eight tricks (RULES.md 2.4): follow suit, win if you can, trump if void.

Hearts are trumps (the turn-up 8♥ goes to seat 1, which lost the last stock trick); seat 0
leads the first trick of the end phase.
"""

from __future__ import annotations

import random

import pytest
from helpers import at_end_phase, beats, names, play_to_end_phase, rules, strings

from bezique import IllegalActionError, State


def _follows(final1: list[str], lead: str, final0: list[str] | None = None) -> set[str]:
    """The legal replies of seat 1 holding ``final1`` when seat 0 leads ``lead``."""
    final0 = final0 or [lead, "AD", "TD", "AC", "TC", "KC", "QC", "JC"]
    s, _ = at_end_phase(final0, final1, "8H")
    s.apply(f"play {lead}")
    return strings(s)


def test_end_phase_starts_when_stock_and_turnup_are_gone() -> None:
    s, _ = at_end_phase(
        ["AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S"],
        ["AD", "TD", "KD", "QD", "JD", "9D", "8D", "8H"],
        "8H",
    )
    assert s.tricks_played == 24 and s.stock_left == 0 and s.turnup is None and s.end_phase
    assert len(s.hand(0)) == len(s.hand(1)) == 8


def test_end_phase_follower_must_follow_suit() -> None:
    legal = _follows(["8S", "7S", "AD", "KD", "9C", "JC", "9H", "8H"], "9S")
    assert legal == {"play 8S", "play 7S"}


def test_end_phase_follower_must_win_with_a_higher_card_of_the_suit() -> None:
    legal = _follows(["AS", "TS", "9S", "AD", "9C", "JC", "9H", "8H"], "KS")
    assert legal == {"play AS", "play TS"}


def test_end_phase_identical_card_does_not_beat_the_card_led() -> None:
    final0 = ["KS", "AD", "TD", "AC", "TC", "KC", "QC", "JC"]
    s, _ = at_end_phase(final0, ["KS", "9S", "AD", "9C", "JC", "9D", "9H", "8H"], "8H")
    s.apply("play KS")
    assert strings(s) == {"play KS", "play 9S"}  # no higher spade: any spade
    s.apply("play KS")
    assert s.last_trick_winner == 0 and s.current_player() == 0


def test_end_phase_void_in_suit_led_must_trump() -> None:
    legal = _follows(["AS", "9S", "AD", "KD", "9D", "JD", "9H", "8H"], "AC")
    assert legal == {"play 9H", "play 8H"}


def test_end_phase_void_without_trump_may_play_anything() -> None:
    final1 = ["AS", "9S", "AD", "KD", "9D", "JD", "7D", "8H"]
    s, _ = at_end_phase(["AC", "AH", "TH", "KH", "QH", "JH", "9H", "7H"], final1, "8H")
    # seat 0 first draws out the only trump of seat 1 (A♥ leads; seat 1 must play its 8♥)
    s.apply("play AH")
    assert strings(s) == {"play 8H"}
    s.apply("play 8H")
    s.apply("play AC")
    assert strings(s) == {f"play {c}" for c in ["AS", "9S", "AD", "KD", "9D", "JD", "7D"]}


def test_end_phase_trump_led_requires_a_higher_trump_if_held() -> None:
    legal = _follows(["AH", "9H", "8H", "AS", "9S", "AD", "9C", "JC"], "JH",
                     final0=["JH", "AD", "TD", "AC", "TC", "KC", "QC", "JS"])
    assert legal == {"play AH"}


def test_end_phase_trump_led_with_only_lower_trumps_must_still_follow() -> None:
    legal = _follows(["9H", "8H", "AS", "9S", "AD", "9C", "JC", "TD"], "JH",
                     final0=["JH", "AD", "TD", "AC", "TC", "KC", "QC", "JS"])
    assert legal == {"play 9H", "play 8H"}


def test_end_phase_wrong_card_is_refused_not_penalised() -> None:
    final0 = ["9S", "AD", "TD", "AC", "TC", "KC", "QC", "JC"]
    s, _ = at_end_phase(final0, ["8S", "7S", "AD", "KD", "9C", "JC", "9H", "8H"], "8H")
    s.apply("play 9S")
    before = s.key()
    with pytest.raises(IllegalActionError, match="you must follow suit to 9♠"):
        s.apply("play 9H")
    assert s.key() == before
    with pytest.raises(IllegalActionError, match="you must follow suit"):
        s.apply("play AD")
    assert s.key() == before and s.scores == (0, 0)


def test_end_phase_refuses_a_lower_card_when_a_higher_one_is_held() -> None:
    final0 = ["KS", "AD", "TD", "AC", "TC", "KC", "QC", "JC"]
    s, _ = at_end_phase(final0, ["AS", "9S", "AD", "9C", "JC", "9D", "9H", "8H"], "8H")
    s.apply("play KS")
    before = s.key()
    with pytest.raises(IllegalActionError, match="you must win the trick with a higher card"):
        s.apply("play 9S")
    assert s.key() == before
    # a card of another suit: the refusal says both duties, as the lower card is refused too
    with pytest.raises(IllegalActionError, match="you must follow suit to K♠, and win the "
                                                 "trick with a higher card than K♠"):
        s.apply("play 9C")
    assert s.key() == before


def test_end_phase_refuses_a_discard_when_void_holding_a_trump() -> None:
    final0 = ["AC", "AD", "TD", "AS", "TC", "KC", "QC", "JC"]
    s, _ = at_end_phase(final0, ["AS", "9S", "AD", "KD", "9D", "JD", "9H", "8H"], "8H")
    s.apply("play AC")
    before = s.key()
    with pytest.raises(IllegalActionError, match="you must trump"):
        s.apply("play AS")
    assert s.key() == before


def test_end_phase_trick_won_by_trump_or_higher_card_of_suit_led() -> None:
    final0 = ["AC", "9S", "TD", "AS", "TC", "KC", "QC", "JC"]
    s, _ = at_end_phase(final0, ["TS", "9H", "AD", "KD", "9D", "JD", "7D", "8H"], "8H")
    s.apply("play AC")
    s.apply("play 8H")  # void in clubs: trumps, and wins
    assert s.last_trick_winner == 1
    s.apply("play AD")
    s.apply("play TD")  # seat 0 must follow and cannot win
    assert s.last_trick_winner == 1
    s.apply("play KD")
    assert s.current_player() == 0


def test_nothing_can_be_declared_once_the_stock_is_exhausted() -> None:
    final0 = ["KS", "QS", "JD", "AC", "TC", "KC", "QC", "JC"]
    s, _ = at_end_phase(final0, ["9C", "8S", "AD", "KD", "9D", "JD", "7D", "8H"], "8H")
    s.apply("play AC")
    s.apply("play 9C")
    assert s.phase == "lead" and s.current_player() == 0
    assert not {a for a in strings(s) if not a.startswith("play")}
    for text, match in [("meld KS QS", "nothing can be declared once the stock is exhausted"),
                        ("pass", "nothing can be declared"), ("seven", "nothing can be declared"),
                        ("exchange", "nothing can be declared")]:
        before = s.key()
        with pytest.raises(IllegalActionError, match=match):
            s.apply(text)
        assert s.key() == before


def test_shown_cards_return_to_the_hand_in_the_end_phase() -> None:
    for seed in range(30):
        s = State.new_deal(rules(), seed=seed)
        play_to_end_phase(s, meld=True)
        if any(s.melds(0)) or any(s.melds(1)):
            break
    else:  # pragma: no cover
        raise AssertionError("no deal with a meld")
    assert s.shown(0) == [] and s.shown(1) == []
    assert all("*" not in a for a in strings(s))
    for seat in (0, 1):
        assert len(s.hand(seat)) == 8
        for _, cards, _, intact in s.melds(seat):
            if intact:  # a meld none of whose cards was played: its cards are back in hand
                want = names(cards)
                assert all(names(s.hand(seat)).count(c) >= want.count(c) for c in want)


def test_end_phase_lasts_eight_tricks_and_ends_the_deal() -> None:
    s, _ = at_end_phase(
        ["AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S"],
        ["AD", "TD", "KD", "QD", "JD", "9D", "8D", "8H"],
        "8H",
    )
    n = 0
    while not s.is_terminal():
        s.apply(s.legal_action_strings()[0])
        n += 1
    assert n == 16 and s.tricks_played == 32


def test_binocle_end_phase_is_the_last_12_tricks() -> None:
    r = rules("binocle")
    s, _ = at_end_phase(
        ["AS", "TS", "KS", "QS", "JS", "9S", "AS", "TS", "KS", "QS", "JS", "9S"],
        ["AD", "TD", "KD", "QD", "JD", "9D", "AD", "TD", "KD", "QD", "JD", "9H"],
        "9H", r=r,
    )
    assert s.tricks_played == 12 and s.end_phase
    while not s.is_terminal():
        s.apply(s.legal_action_strings()[0])
    assert s.tricks_played == 24


def _allowed(hand: list[int], lead: int, trump: int) -> set[int]:
    """RULES.md 2.4 read directly: the cards the follower may play to ``lead``."""
    same = [c for c in hand if c >> 3 == lead >> 3]
    if same:
        higher = [c for c in same if c & 7 < lead & 7]
        return set(higher or same)
    trumps = [c for c in hand if c >> 3 == trump]
    return set(trumps or hand)


@pytest.mark.parametrize("variant", ["bezique", "binocle"])
def test_end_phase_duties_and_trick_winners_match_the_rules_in_random_deals(variant: str) -> None:
    rng = random.Random(5)
    for seed in range(40):
        s = State.new_deal(rules(variant), seed=seed)
        play_to_end_phase(s, meld=False)
        while not s.is_terminal():
            if s.phase == "follow":
                lead = s.trick_cards()[0]
                hand = s.hand(s.current_player())
                allowed = _allowed(hand, lead, s.trump)
                assert strings(s) == {f"play {n}" for n in names(allowed)}
                follower = s.current_player()
                choice = rng.choice(sorted(allowed))
                s.apply(f"play {names([choice])[0]}")
                follower_wins = not beats(lead, choice, s.trump)
                assert s.last_trick_winner == (follower if follower_wins else 1 - follower)
            else:
                s.apply(rng.choice(s.legal_action_strings()))
