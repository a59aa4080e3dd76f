"""Illegal actions: each raises IllegalActionError (a ValueError) with a message a player
understands, and leaves the state exactly as it was."""

from __future__ import annotations

import random

import pytest
from helpers import at_end_phase, deal, play, rules, win_trick

from bezique import BeziqueError, IllegalActionError, State
from bezique import actions as act
from bezique.cards import bits


def _refused(s: State, action: str | int, match: str) -> None:
    before = s.key()
    legal = s.legal_action_strings()
    with pytest.raises(IllegalActionError, match=match):
        s.apply(action)
    assert s.key() == before
    assert s.legal_action_strings() == legal


def test_illegal_action_error_is_a_value_error() -> None:
    assert issubclass(IllegalActionError, BeziqueError)
    assert issubclass(IllegalActionError, ValueError)


def test_declare_before_winning_a_trick_is_refused() -> None:
    s = deal(["KS", "QS", "7H"], turnup="KH")
    _refused(s, "meld KS QS", "you can only declare after winning a trick")
    _refused(s, "pass", "you can only declare after winning a trick")
    _refused(s, "seven", "you can only declare after winning a trick")
    _refused(s, "exchange", "you can only declare after winning a trick")


def test_follower_cannot_declare() -> None:
    s = deal(["AS"], ["KD", "QD"])
    s.apply("play AS")
    _refused(s, "meld KD QD", "you can only declare after winning a trick")


def test_play_during_the_declaring_turn_is_refused() -> None:
    s = deal(["AS", "KS"], ["8D"])
    play(s, "play AS", "play 8D")
    _refused(s, "play KS", "declare a meld or pass")


def test_play_of_a_card_not_held_is_refused() -> None:
    s = deal(["AS"], ["KD"])
    _refused(s, "play KD", "you do not hold K♦")


def test_play_of_a_shown_copy_not_on_the_table_is_refused() -> None:
    s = deal(["QS"])
    _refused(s, "play QS*", "you have no Q♠ on the table")


def test_meld_of_cards_not_held_is_refused() -> None:
    s = deal(["KS", "QS", "JD", "JD", "AC"], ["QS", "QH"], turnup="8C")
    win_trick(s, ["KS", "QS", "JD"])
    _refused(s, "meld KH QH", "you do not hold K♥")
    _refused(s, "meld QS QS JD JD", "you do not hold another Q♠")


def test_meld_that_is_no_meld_is_refused() -> None:
    s = deal(["KS", "QD", "AC"])
    win_trick(s, ["KS", "QD"])
    _refused(s, "meld KS QD", "K♠ Q♦ is not a meld")


def test_married_queen_message() -> None:
    s = deal(["KH", "QH", "KH"])
    win_trick(s, ["KH", "QH"])
    s.apply("meld KH QH")
    s.apply("pass")
    win_trick(s, ["KH", "QH"])
    _refused(s, "meld KH QH*", "that Q♥ has already been married")


def test_second_meld_in_a_turn_message() -> None:
    s = deal(["KS", "QS", "KD", "QD"])
    win_trick(s, ["KS", "QS", "KD", "QD"])
    s.apply("meld KS QS")
    _refused(s, "meld KD QD", "1 meld per trick won; win another trick")


def test_broken_meld_message() -> None:
    s = deal(["KS", "KH", "KD", "KC", "KS"])
    keep = ["KS", "KH", "KD", "KC"]
    win_trick(s, keep)
    s.apply("meld KS KH KD KC")
    s.apply("pass")
    win_trick(s, lead="play KD*")
    _refused(s, "meld KS KS* KH* KC*", "was broken when K♦ was played")


def test_action_after_the_deal_is_over_is_refused() -> None:
    s, _ = at_end_phase(
        ["AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S"],
        ["AD", "TD", "KD", "QD", "JD", "9D", "8D", "8H"],
        "8H",
    )
    while not s.is_terminal():
        s.apply(s.legal_action_strings()[0])
    assert s.legal_actions() == []
    _refused(s, "pass", "the deal is over")
    _refused(s, act.PASS, "the deal is over")


@pytest.mark.parametrize("action", [-1, -300, 259, 300, 511])
def test_action_numbers_that_are_no_action_are_refused(action: int) -> None:
    s = deal(["AS"])
    _refused(s, action, "is not an action")


def test_meld_number_naming_cards_outside_the_pack_is_refused() -> None:
    s = deal(["AS", "KS", "QS"], ["8D"])
    play(s, "play AS", "play 8D")
    _refused(s, act.meld_action(1 << 200), "is not an action")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("play QX", "is not a card"),
        ("meld KS QS*x", "is not a card"),
        ("jump", "is not an action"),
        ("", "empty action"),
    ],
)
def test_unreadable_action_text_is_refused(text: str, match: str) -> None:
    s = deal(["KS", "QS"])
    _refused(s, text, match)


def test_undo_at_the_start_of_a_deal_is_refused() -> None:
    s = deal()
    before = s.key()
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        s.undo_action()
    assert s.key() == before


def _candidates(s: State, rng: random.Random) -> list[int]:
    seat = s.current_player()
    masks = s.all_masks()
    held = masks[f"hand{seat}"] | masks[f"shown{seat}"]
    cards = list(bits(held))
    out = [*range(64), act.PASS, act.EXCHANGE, act.SEVEN]
    for _ in range(12 if len(cards) > 2 else 0):
        k = rng.randint(2, min(5, len(cards)))
        out.append(act.meld_action(sum(1 << p for p in rng.sample(cards, k))))
    return out


@pytest.mark.parametrize("variant", ["bezique", "binocle"])
def test_every_action_is_legal_or_refused_without_effect(variant: str) -> None:
    """At positions of random deals, an action outside ``legal_actions`` either is refused
    (state unchanged) or is a legal action under another copy number (same outcome)."""
    rng = random.Random(7)
    r = rules(variant)
    for seed in range(6):
        s = State.new_deal(r, seed=seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            outcomes = set()
            for a in legal:
                t = s.clone()
                t.apply_action(a)
                outcomes.add(t.key())
            for a in _candidates(s, rng):
                if a in legal:
                    continue
                t = s.clone()
                before = t.key()
                try:
                    t.apply_action(a)
                except IllegalActionError:
                    assert t.key() == before
                else:
                    assert _same_up_to_copies(t, s, legal), (a, s)
            melds = [a for a in legal if act.is_meld(a)]
            s.apply_action(rng.choice(melds or legal))


def _same_up_to_copies(t: State, s: State, legal: list[int]) -> bool:
    """True when ``t`` equals the result of some legal action of ``s`` but for copy numbers."""
    def view(x: State) -> tuple[object, ...]:
        return (x.hand(0), x.hand(1), x.shown(0), x.shown(1), x.scores, x.phase,
                x.current_player(), x.trick_cards(), [m[:3] for m in x.melds(0) + x.melds(1)])

    want = view(t)
    for a in legal:
        u = s.clone()
        u.apply_action(a)
        if view(u) == want:
            return True
    return False


def test_seven_after_meld_refused_when_seven_counts_as_meld() -> None:
    s = deal(["7H", "KS", "QS", "AC"], turnup="KH", r=rules(seven_counts_as_meld=True))
    win_trick(s, ["7H", "KS", "QS"])
    s.apply("meld KS QS")
    _refused(s, "exchange", "you have already declared this turn")
    _refused(s, "seven", "you have already declared this turn")


def test_seven_refused_when_sevens_score_as_played() -> None:
    s = deal(["7H", "AC"], turnup="KH", r=rules(seven="played"))
    win_trick(s, ["7H"])
    _refused(s, "seven", "scores when it is played")


@pytest.mark.parametrize("spec, says", [
    ("search:sampels=40", "agent 'search' has no option 'sampels' (its options: samples, "),
    ("heuristic:depth=2", "agent 'heuristic' has no option 'depth' (its options: solver_cards; "
                          "and seed)"),
    ("random:fast=true", "agent 'random' has no option 'fast' (it takes none but seed)"),
])
def test_a_misspelt_agent_option_is_named_with_the_options_there_are(spec: str, says: str) -> None:
    from bezique.agents import make_agent
    from bezique.errors import OptionError

    with pytest.raises(OptionError) as e:
        make_agent(spec, seed=1)
    assert str(e.value).startswith(says)


@pytest.mark.parametrize("seat", [2, 5, -1])
def test_a_seat_that_is_not_one_is_refused_by_name(seat: int) -> None:
    """observation(-1) used to answer with seat 1's view, and 2 or 5 with an IndexError."""
    from bezique.worlds import resample_from_infostate

    s = deal(["AS"])
    with pytest.raises(BeziqueError, match=f"{seat} is not a seat: the seats of this deal are "
                                           "0 to 1"):
        s.observation(seat)
    with pytest.raises(BeziqueError, match="is not a seat"):
        resample_from_infostate(s, seat, random.Random(1))
    with pytest.raises(BeziqueError, match="is not a seat"):
        s.action_to_string(act.PASS, seat)


@pytest.mark.parametrize("action", [-5, 64, 255, 300, 383, 1 << 80, (1 << 70) << 9])
def test_naming_a_number_that_is_no_action_is_refused(action: int) -> None:
    """action_to_string of a number outside the two packs raised IndexError or a negative
    shift; now the same message apply_action gives."""
    s = deal(["AS"])
    with pytest.raises(IllegalActionError, match=f"{action} is not an action"):
        s.action_to_string(action)
    assert s.action_to_string(act.PASS) == "pass" and s.action_to_string(0).startswith("play")


@pytest.mark.parametrize("spec, says", [
    ("heuristic:solver_cards=many", "agent 'heuristic': solver_cards must be a whole number "
                                    "(not 'many')"),
    ("search:samples=x", "agent 'search': samples must be a whole number (not 'x')"),
    ("search:prior=x", "agent 'search': prior must be a number (not 'x')"),
    ("search:confidence=sure", "confidence must be a number from 0, not 'sure'"),  # its own
])
def test_a_word_for_a_number_option_is_named(spec: str, says: str) -> None:
    """On both builds (CI runs this file pure too): the pure heuristic took the word and failed
    with a TypeError in its first decision; the compiled one said "int object expected"."""
    from bezique.agents import make_agent
    from bezique.errors import OptionError

    with pytest.raises(OptionError) as e:
        make_agent(spec, seed=1)
    assert str(e.value) == says
