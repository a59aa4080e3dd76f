"""The words of the hint explanations, reviewed (:mod:`bezique.agents.explain`): which suit's
marriage or sequence a reason means (RULES.md 9.0.2: before trumps every marriage is royal), what
the partner's cards on the table say of an offer (RULES.md 9.5), who can take a card led in a
table's last tricks (9.4, 9.5), and what a brisque thrown away costs."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from helpers import deal, play
from test_explain_family import _same_reasons
from test_explain_review import deal_n, why

from bezique import Rules, State
from bezique.cards import card_symbol, parse_card, split_token
from bezique.tricks import beats

# ---------------------------------------------------------------- which suit

FOUR_KINGS_TWO_MARRIAGES = [["KH", "QH", "KS", "QS", "KD", "KC", "AC"], ["7C"]]


@pytest.mark.parametrize("variant", ["rubicon", "sixpack", "eightpack"])
def test_a_waiting_marriage_names_its_suits_before_trumps(variant: str) -> None:
    """Before trumps every marriage is royal (RULES.md 9.0.2): "the royal marriage (40) must
    wait" did not say which of the two the player holds; only one of them will be royal."""
    s = deal_n(Rules.preset(variant), FOUR_KINGS_TWO_MARRIAGES, None, dealer=1)
    play(s, "play AC", "play 7C")
    assert why(s, "meld KS KH KD KC") == [
        "the meld of four kings scores 80, the most you can declare now",
        "one meld per trick won: the royal marriage in ♠ or ♥ (40) must wait for your next "
        "trick"]
    _same_reasons(s, random.Random(1))  # (whichever copies the sampled world gives them)


def test_the_meld_a_trick_lets_you_declare_names_its_suit() -> None:
    s = deal_n(Rules.preset("rubicon"), [["7C"], ["KC", "QC", "AC"]], None, dealer=1)
    play(s, "play 7C")
    assert "then you may declare the royal marriage in ♣ (40)" in why(s, "play AC")


def test_the_bigger_meld_names_its_suit_before_trumps() -> None:
    s = deal_n(Rules.preset("rubicon"), [["AH", "TH", "KH", "QH", "JH", "JS", "JD", "JC", "AS"],
                                         ["7S"]], None, dealer=1)
    play(s, "play AS", "play 7S")
    assert why(s, "meld JS JH JD JC")[0] == ("the meld of four jacks scores 40; the sequence in "
                                             "♥ (250) would score more now")


def test_two_common_marriages_are_both_named() -> None:
    """"the common marriage (20) must wait" was said of two marriages, ♠ and ♣."""
    s = deal(["KS", "QS", "KC", "QC", "KH", "KD", "AS", "9D"], ["7S"])
    play(s, "play AS", "play 7S")
    assert why(s, "meld KS KH KD KC")[1] == ("one meld per trick won: the common marriages in ♠ "
                                             "and ♣ (20 each) must wait for your next trick")


# ---------------------------------------------------------------- the offer and the partner

def table(hands: Sequence[Sequence[str]], turnup: str, draws: Sequence[str]) -> State:
    """A four-handed deal (seat 3 deals, seat 0 leads): the hands as given, the stock's first
    cards ``draws`` (the trick's winner draws first), then the rest of the pack."""
    r = Rules.preset("bezique4")
    left = Counter(p & 31 for p in r.deck)
    cards = [[parse_card(c) for c in h] for h in hands]
    top = [parse_card(c) for c in draws]
    left.subtract([*(c for h in cards for c in h), parse_card(turnup), *top])
    assert all(n >= 0 for n in left.values())
    return State.from_cards(r, cards, turnup, [*top, *sorted(left.elements())], dealer=3)


def _partner_shows_kings() -> State:
    """Seat 2 wins the first trick and declares four kings; seat 0 wins the second."""
    s = table([["9C", "9D", "AC", "KC", "QC", "8H", "9H", "TH"],
               ["8C", "7D", "7C", "8H", "9H", "TH", "JH", "JC"],
               ["AC", "KS", "KH", "KD", "KC", "AD", "QS", "JD"],
               ["9C", "8D", "8C", "7H", "9H", "TH", "JH", "JC"]],
              "8S", ["7C", "8D", "7H", "7H", "9D", "TC", "8H", "8H"])
    play(s, "play 9C", "play 8C", "play AC", "play 9C", "meld KS KH KD KC", "pass")
    return s


def test_an_offer_says_what_the_partners_table_cards_make() -> None:
    """The offer's reason said nothing of the partner's cards on the table: here their K♠ and
    Q♠ (of the four kings and of the bezique) make a royal marriage only they may declare,
    worth more than the seat's own common marriage."""
    s = _partner_shows_kings()
    play(s, "play AD", "play 8D", "play 9D", "play 7D", "meld QS JD", "pass",
         "play 7C", "play 8C", "play AC", "play 7C")
    assert s.current_player() == 0 and "offer" in s.legal_action_strings()
    assert why(s, "offer") == [
        "your partner may declare instead of you: one meld for the side this trick",
        "on the table your partner's K♠ Q♠ make the royal marriage (40) for them to declare, "
        "more than the common marriage in ♣ (20) you may declare yourself"]
    _same_reasons(s, random.Random(2))


def test_an_offer_says_what_the_partners_table_cards_could_make() -> None:
    """No meld on the table yet: the partner's K♠ (trumps) is a royal marriage with one card
    the seat has not seen; the seat's own marriage waits if it offers."""
    s = _partner_shows_kings()
    play(s, "play 7C", "play 8C", "play AC", "play 7C")
    assert s.current_player() == 0
    assert why(s, "offer") == [
        "your partner may declare instead of you: one meld for the side this trick",
        "on the table your partner's K♠ makes the royal marriage (40) with 1 card from their "
        "hand",
        "you may declare the common marriage in ♣ (20) yourself: after the offer it waits for "
        "another trick won"]
    _same_reasons(s, random.Random(3))


# ---------------------------------------------------------------- a table's last tricks

def _table_end_leads(variant: str, seed: int) -> list[State]:
    rng = random.Random(seed)
    s = State.new_deal(Rules.preset(variant), seed=seed)
    out = []
    while not s.is_terminal():
        if s.end_phase and not s.trick_cards() and len(s.legal_action_strings()) > 1:
            out.append(s.clone())
        s.apply(rng.choice(s.legal_action_strings()))
    return out


@pytest.mark.parametrize("variant", ["bezique3", "bezique4"])
def test_a_table_lead_in_the_last_tricks_says_who_could_take_it(variant: str) -> None:
    """"lead the cards the other hands cannot beat, the richest first" was said of any card
    led, a low one that every other hand may beat as well; the reason now says which cards
    could take it, and the true deal never holds one when it says none."""
    said = Counter[bool]()
    for s in _table_end_leads(variant, seed=4)[:6]:
        seat = s.current_player()
        theirs = [c for i in range(s.rules.nplayers) if i != seat
                  for c in s.observation(i).hand]
        for action in s.legal_action_strings():
            card = split_token(action.split()[1])[0]
            lead = why(s, action)[0]
            assert lead.startswith(f"leading {card_symbol(card)}"), lead
            assert "richest" not in lead
            safe = "nothing the other hands may hold can take it" in lead
            assert not (safe and any(beats(c, card, s.trump) for c in theirs)), (lead, theirs)
            said[safe] += 1
    assert said[False] > 0


# ---------------------------------------------------------------- a brisque thrown away

def test_a_brisque_thrown_away_is_not_said_to_hold_nothing() -> None:
    """10♦ on 7♣: the trick then holds a brisque, the player's own; "it holds no brisque" and
    "10♦ is safe to lose" were said of it."""
    s = deal_n(Rules.preset("bezique"), [["TD", "AC"], ["7C"]], "8H", dealer=0)
    play(s, "play 7C")
    assert why(s, "play TD")[:2] == [
        "10♦ lets the trick go: winning it would cost more than its 10 in brisques",
        "no meld needs 10♦"]
    s = deal(["AS", "TS", "9C", "8C", "7C", "8D", "9D", "7D"], ["7S"])
    assert why(s, "play TS")[1] == "no meld needs 10♠"
    assert why(s, "play 9C")[1] == "9♣ is safe to lose: no meld needs it"


# ---------------------------------------------------------------- a pass

def test_a_pass_over_the_seven_or_an_offer_does_not_claim_nothing_to_declare() -> None:
    """"nothing to declare now" was said with a seven of trumps to exchange or show, and
    nothing was said of the offer a pass gives up (RULES.md 2.3, 9.5)."""
    s = deal(["7H", "AS"], ["7S"])
    play(s, "play AS", "play 7S")
    assert {"exchange", "seven"} <= set(s.legal_action_strings())
    assert why(s, "pass") == ["declaring nothing now: draw (the seven of trumps not exchanged "
                              "or shown waits for another trick won)"]
    rng = random.Random(5)
    s = State.new_deal(Rules.preset("bezique4"), seed=5)
    while set(s.legal_action_strings()) != {"offer", "pass"}:
        s.apply(rng.choice(s.legal_action_strings()))
    assert why(s, "pass") == ["nothing to declare now: draw (an offer would let your partner "
                              "declare instead)"]


def test_the_other_ways_to_make_the_meld_declared_are_not_said_to_be_lost() -> None:
    """Five kings, four of them declared: "after it the four kings (80) may no longer be
    declared" spoke of the other choices of the same four kings, as if another meld were lost."""
    s = deal_n(Rules.preset("bezique3"), [["KS", "KS", "QS", "KH", "KH", "QH", "KC", "AD"],
                                          ["7D"], ["8D"]], "9D", dealer=2)
    play(s, "play AD", "play 7D", "play 8D")
    assert why(s, "meld KS KS KH KH") == [
        "the meld of four kings scores 80, the most you can declare now",
        "one meld per trick won: the common marriages in ♠ and ♥ (20 each) must wait for your "
        "next trick"]
