"""The hint explanations say only what is true under the variant's rules (a review of
:mod:`bezique.agents.explain`): melds offered only when RULES.md 3.3 lets them be made, "the
most you can declare" only when it is, melds per trick as the option says, the winner of a
trick of three or four cards, and brisques as the variant counts them (RULES.md 9)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from helpers import at_end_phase, deal, play

from bezique import Rules, State
from bezique.agents.explain import explain, prospects
from bezique.cards import parse_card, rank_of, suit_of

LOW_FIRST = (7, 6, 5, 4, 1, 0, 3, 2)  # sevens, eights, nines, jacks ... kings last


def deal_n(r: Rules, hands: Sequence[Sequence[str]], turnup: str | None, dealer: int) -> State:
    """A deal of any preset: the seats hold the given cards, filled up with low cards (plain
    suits first); the stock holds the rest, low cards first."""
    left = Counter(p & 31 for p in r.deck)
    trump = suit_of(parse_card(turnup)) if turnup else -1
    left.subtract(parse_card(c) for cs in [*hands, [turnup] if turnup else []] for c in cs)
    assert all(n >= 0 for n in left.values())
    rest = sorted(left.elements(),
                  key=lambda c: (suit_of(c) == trump, LOW_FIRST.index(rank_of(c)), c))
    out = []
    for h in hands:
        cards = [parse_card(c) for c in h]
        while len(cards) < r.hand_size:
            cards.append(rest.pop(0))
        out.append(cards)
    return State.from_cards(r, out, turnup, rest, dealer=dealer)


def why(s: State, action: str) -> list[str]:
    obs = s.observation(s.current_player())
    assert action in obs.legal, (action, obs.legal)
    return explain(obs, action)


# ---------------------------------------------------------------- 1. sequence, then marriage

def test_no_royal_marriage_from_the_cards_of_a_scored_sequence() -> None:
    """RULES.md 3.3: after the sequence, K♥ Q♥ cannot be a marriage, nor K♥ with the other Q♥."""
    s = deal(["AH", "TH", "KH", "QH", "JH", "AS", "9C", "9D"], ["7S", "TC", "7D"])
    play(s, "play AS", "play 7S", "meld AH TH KH QH JH", "pass",
         "play 9C", "play TC", "pass", "play 7D")
    reasons = why(s, "play 9D")
    assert reasons[0] == "9♦ wins the trick"
    assert not any("royal marriage" in w for w in reasons), reasons
    assert all(p[0] != "royal marriage" for p in prospects(s.observation(0)).values())


# ---------------------------------------------------------------- 2. beziques

def test_two_singles_scored_apart_are_no_double() -> None:
    """RULES.md 3.3: two singles scored separately cannot then be claimed as a double."""
    s = deal(["QS", "QS", "JD", "JD", "AS", "AC", "9C", "9D"], ["7S", "7C", "TC", "7D"])
    play(s, "play AS", "play 7S", "meld QS JD", "pass", "play AC", "play 7C", "meld QS JD",
         "pass", "play 9C", "play TC", "pass", "play 7D")
    reasons = why(s, "play 9D")
    assert not any("double bezique" in w for w in reasons), reasons
    assert "double bezique" not in {p[0] for p in prospects(s.observation(0)).values()}


def test_no_single_bezique_from_a_scored_double() -> None:
    """A single from the cards of a double would score less in the same class."""
    s = deal(["QS", "QS", "JD", "JD", "AS", "9C", "9D", "8D"], ["7S", "TC", "7D"])
    play(s, "play AS", "play 7S", "meld QS QS JD JD", "pass", "play 9C", "play TC", "pass",
         "play 7D")
    pro = prospects(s.observation(0))
    assert not {"bezique", "double bezique"} & {p[0] for p in pro.values()}, pro
    assert not any("bezique" in w for w in why(s, "play 9D"))


# ---------------------------------------------------------------- 3. the most you can declare

def test_a_marriage_is_not_the_most_when_a_double_bezique_is_legal() -> None:
    s = deal(["KS", "QS", "QS", "JD", "JD", "AS"], ["7S"])
    play(s, "play AS", "play 7S")
    assert why(s, "meld KS QS")[0] == ("the common marriage scores 20; the double bezique (500) "
                                       "would score more now")
    assert why(s, "meld QS QS JD JD")[0] == ("the double bezique scores 500, the most you can "
                                             "declare now")


# ---------------------------------------------------------------- 4. melds per trick

def test_more_melds_per_trick_may_be_declared_this_turn() -> None:
    r = Rules.preset("bezique", melds_per_trick=2)
    s = deal(["KS", "QS", "QS", "JD", "JD", "AS"], ["7S"], r=r)
    play(s, "play AS", "play 7S")
    reasons = why(s, "meld KS QS")
    assert not any("one meld per trick" in w for w in reasons), reasons
    assert "2 melds per trick won: you may still declare the double bezique (500) and the " \
           "bezique (40) this turn" in reasons


def test_a_double_bezique_rules_out_the_single_from_its_cards() -> None:
    s = deal(["KS", "QS", "QS", "JD", "JD", "AS"], ["7S"])
    play(s, "play AS", "play 7S")
    reasons = why(s, "meld QS QS JD JD")
    assert reasons[1:] == [
        "one meld per trick won: the common marriage in ♠ (20) must wait for your next trick",
        "after it the bezique (40) may no longer be declared from these cards",
    ]


# ---------------------------------------------------------------- 5. tables of three and four

def test_the_third_card_is_compared_with_the_best_card_so_far() -> None:
    """♦ trumps, 8♣ led, 8♦ played second: K♣ does not win (RULES.md 9.4)."""
    r = Rules.preset("bezique3")
    s = deal_n(r, [["8C"], ["8D"], ["KC"]], "9D", dealer=2)
    play(s, "play 8C", "play 8D")
    reasons = why(s, "play KC")
    assert not any("wins the trick" in w for w in reasons), reasons
    assert reasons[0].startswith("K♣ lets the trick go")


def test_the_second_card_of_three_does_not_yet_win() -> None:
    r = Rules.preset("bezique3")
    s = deal_n(r, [["8C"], ["AC"], []], "9D", dealer=2)
    play(s, "play 8C")
    assert why(s, "play AC")[0] == "A♣ beats 8♣, the best card so far (the trick holds 10 in " \
                                   "brisques); 1 more card to come"


def test_prospects_count_every_seats_cards() -> None:
    """The three K♣ are gone: one as the third card of a trick, two on seat 2's table."""
    r = Rules.preset("bezique3")
    s = deal_n(r, [["7C", "QC"], ["8C"], ["KC", "KC", "KC", "KS", "KS", "7H"]], "9D", dealer=2)
    play(s, "play 7C", "play 8C", "play KC", "meld KS KS KC KC", "pass", "play 7H")
    obs = s.observation(0)
    assert obs.turn == 0
    assert parse_card("QC") not in prospects(obs)


# ---------------------------------------------------------------- 6. brisques by variant

def test_rubicon_brisques_count_only_when_they_decide() -> None:
    s = deal_n(Rules.preset("rubicon"), [["TS"], ["AS"]], None, dealer=1)
    play(s, "play TS")
    first = why(s, "play AS")[0]
    assert first == ("A♠ wins the trick and its 20 in brisques (brisques count only to break a "
                     "tie or to save a rubicon)")


def test_six_pack_has_no_brisques() -> None:
    s = deal_n(Rules.preset("sixpack"), [["TS"], ["AS"]], None, dealer=1)
    assert why(s, "play TS")[0] == "leading 10♠: cards won score nothing here (no brisques)"
    play(s, "play TS")
    assert why(s, "play AS")[0] == "A♠ wins the trick"
    assert not any("brisque" in w for w in why(s, "play AS"))


# ---------------------------------------------------------------- the last declaring turn

def test_nothing_waits_after_the_last_declaring_turn() -> None:
    """The draw of the last stock trick empties the stock: no meld can wait or grow."""
    s, _ = at_end_phase(["KS", "QS", "QS", "JD", "JD", "AC", "AD", "9C"],
                        ["8H", "7C", "7D", "8C", "8D", "9D", "9S", "8S"], "8H")
    s.undo_action()  # back to the last declaring turn
    reasons = why(s, "meld QS JD")
    assert reasons == [
        "the bezique scores 40; the double bezique (500) would score more now",
        "this is the last declaring turn: the double bezique (500) and the common marriage "
        "in ♠ (20) will not be declared",
    ]
    assert why(s, "pass") == ["declaring nothing: draw (the stock runs out: nothing can be "
                              "declared after this turn)"]


def test_the_offer_carte_blanche_and_the_guess_say_why() -> None:
    """A hint to offer the declaring turn to the partner, to show carte blanche or to guess the
    cut came with no reason at all in explain mode."""
    rng = random.Random(3)
    for variant, options, verb in (("bezique4", {}, "offer"),
                                   ("sixpack", {"cut_bonus": True}, "guess")):
        s = State.new_deal(Rules.preset(variant, **options), seed=1)
        while verb not in {a.split()[0] for a in s.legal_action_strings()}:
            s.apply(rng.choice(s.legal_action_strings()))
        obs = s.observation(s.current_player())
        why = explain(obs, next(a for a in obs.legal if a.startswith(verb)))
        assert why and why[0].startswith({"offer": "your partner may declare",
                                          "guess": "a right guess of the cut scores 150"}[verb])
    obs = State.new_deal(Rules.preset("sixpack"), seed=1).observation(0)
    assert explain(obs, "carte") == [
        "carte blanche scores 250: your hand holds no king, queen or jack"]
