"""The laws of the deal and of trick play while the stock lasts (RULES.md 2.1, 2.2) and the
Binocle preset (RULES.md 4)."""

from __future__ import annotations

import random

import pytest
from helpers import beats, deal, names, play, rules, strings, win_trick

from bezique import RecordError, State
from bezique.cards import bits, card_of, parse_card, suit_of
from bezique.game import Game

# ---------------------------------------------------------------- 2.1 the deal


def _placed(s: State) -> list[int]:
    return [p for m in s.all_masks().values() for p in bits(m)]


def test_deal_gives_8_cards_each_a_turnup_and_a_stock_of_47() -> None:
    s = State.new_deal(rules(), seed=1)
    assert len(s.hand(0)) == len(s.hand(1)) == 8
    assert s.stock_left == 47 and s.turnup is not None
    placed = _placed(s)
    assert sorted(placed) == sorted(rules().deck)  # every physical card exactly once


def test_turnup_suit_is_trumps() -> None:
    for seed in range(5):
        s = State.new_deal(rules(), seed=seed)
        assert s.turnup is not None and s.trump == suit_of(s.turnup)


def test_non_dealer_is_dealt_first() -> None:
    # the same shuffle gives the first packet to whoever does not deal
    a = State.new_deal(rules(), seed=9, dealer=1)
    b = State.new_deal(rules(), seed=9, dealer=0)
    assert a.hand(0) == b.hand(1) and a.hand(1) == b.hand(0)
    assert a.stock == b.stock and a.turnup == b.turnup


@pytest.mark.parametrize("dealer", [0, 1])
def test_non_dealer_leads_to_the_first_trick(dealer: int) -> None:
    s = State.new_deal(rules(), seed=2, dealer=dealer)
    assert s.current_player() == 1 - dealer and s.phase == "lead"


def test_same_seed_same_deal() -> None:
    a, b = State.new_deal(rules(), seed=42), State.new_deal(rules(), seed=42)
    assert a == b and a.stock == b.stock
    assert State.new_deal(rules(), seed=43).stock != a.stock


def test_deal_alternates_between_deals() -> None:
    g = Game(rules(), seed=4, first_dealer=1)
    while not g.state.is_terminal():
        legal = g.state.legal_action_strings()
        g.apply("pass" if "pass" in legal else legal[0])
    assert g.next_deal().dealer == 0
    assert g.state.current_player() == 1


def test_from_cards_keeps_the_given_deal() -> None:
    s = deal(["AS", "TS"], ["KD"], turnup="9C", stock=["QH", "JH"])
    assert names(s.hand(0))[:2] == ["AS", "TS"]
    assert "KD" in names(s.hand(1))
    assert s.turnup == parse_card("9C") and s.trump == suit_of(parse_card("9C"))
    assert [card_of(p) for p in s.stock[:2]] == [parse_card("QH"), parse_card("JH")]


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ("extra", "too many"),
        ("short_stock", "the stock has"),
        ("short_hand", "hand has 7 cards"),
        ("one_card_hand", "player 0's hand has 1 card; bezique deals 8"),
        ("one_card_stock", "the stock has 1 card; in bezique it has 47"),
    ],
)
def test_from_cards_refuses_a_deal_that_is_not_the_pack(change: str, match: str) -> None:
    good = deal()
    hands = [[card_of(p) for p in h] for h in good.deal_hands]
    stock = [card_of(p) for p in good.stock]
    turnup: int | str = card_of(good.turnup_card)
    r = rules()
    if change == "extra":
        stock[0] = hands[0][0]
        hands[0][1] = hands[0][0]
    elif change == "short_stock":
        stock = stock[:-1]
    elif change == "one_card_hand":
        hands[0] = hands[0][:1]
    elif change == "one_card_stock":
        stock = stock[:1]
    else:
        hands[0] = hands[0][:-1]
    with pytest.raises(RecordError, match=match):
        State.from_cards(r, hands, turnup, stock, 1)


# ---------------------------------------------------------------- 2.2 tricks while the stock lasts


def test_stock_phase_follower_need_not_follow_suit_nor_trump_nor_win() -> None:
    s = deal(["KS"], ["AS", "7S", "AH", "8D", "9C"], turnup="8H")
    s.apply("play KS")
    assert {"play AS", "play 7S", "play AH", "play 8D", "play 9C"} <= strings(s)
    s.apply("play 8D")
    assert s.last_trick_winner == 0


@pytest.mark.parametrize(
    ("lead", "follow", "winner", "rule"),
    [
        ("KS", "AS", 1, "higher card of the suit led wins"),
        ("AS", "KS", 0, "lower card of the suit led loses"),
        ("AS", "7H", 1, "a trump beats a plain card"),
        ("9H", "TH", 1, "the higher trump wins"),
        ("TH", "AS", 0, "a plain card never beats a trump"),
        ("7S", "AD", 0, "a card of another plain suit never wins"),
        ("AS", "AS", 0, "of two identical cards the one led wins"),
        ("7H", "7H", 0, "of two identical trumps the one led wins"),
    ],
)
def test_stock_trick_winner(lead: str, follow: str, winner: int, rule: str) -> None:
    s = deal([lead], [follow], turnup="8H")
    play(s, f"play {lead}", f"play {follow}")
    assert s.last_trick_winner == winner, rule
    assert s.current_player() == winner and s.phase == "declare"


def test_cards_won_lie_with_the_winner() -> None:
    s = deal(["KS"], ["AS"], turnup="8H")
    play(s, "play KS", "play AS")
    won = s.all_masks()["won1"]
    assert sorted(names(card_of(p) for p in bits(won))) == ["AS", "KS"]
    assert s.all_masks()["won0"] == 0


def test_stock_phase_lasts_24_tricks() -> None:
    s = State.new_deal(rules(), seed=3)
    while s.turnup is not None:
        legal = s.legal_action_strings()
        s.apply("pass" if "pass" in legal else legal[0])
    assert s.tricks_played == 24 and s.end_phase


# ---------------------------------------------------------------- 4 Binocle


def test_binocle_pack_48_cards_12_each_stock_of_23() -> None:
    r = rules("binocle")
    assert r.deck_size == 48 and r.stock_size == 23
    assert r.stock_tricks == 12 and r.total_tricks == 24
    s = State.new_deal(r, seed=1)
    assert len(s.hand(0)) == len(s.hand(1)) == 12 and s.stock_left == 23
    assert sorted(_placed(s)) == sorted(r.deck)
    ranks = {names([card_of(p)])[0][0] for p in r.deck}
    assert ranks == set("ATKQJ9")  # no eights and no sevens


def test_binocle_has_no_eights_or_sevens() -> None:
    r = rules("binocle")
    good = State.new_deal(r, seed=1)
    hands = [[card_of(p) for p in h] for h in good.deal_hands]
    hands[0][0] = parse_card("8S")
    with pytest.raises(RecordError, match="Binocle is played without 8S"):
        State.from_cards(r, hands, card_of(good.turnup_card), [card_of(p) for p in good.stock])


def test_binocle_fours_need_one_of_each_suit() -> None:
    r = rules("binocle")
    s = deal(["KS", "KS", "KH", "KD"], turnup="TH", r=r)
    win_trick(s, ["KS", "KH", "KD"])
    assert not [a for a in strings(s) if a.startswith("meld")]
    before = s.key()
    with pytest.raises(ValueError, match="is not a meld"):
        s.apply("meld KS KS KH KD")
    assert s.key() == before


def test_binocle_four_kings_then_the_other_four_make_eight_kings() -> None:
    r = rules("binocle")
    kings = ["KS", "KH", "KD", "KC"] * 2
    s = deal(kings, turnup="TH", r=r)
    win_trick(s, kings)
    s.apply("meld KS KH KD KC")
    s.apply("pass")
    win_trick(s, kings)
    s.apply("meld KS* KS KH* KH KD* KD KC* KC")
    assert s.scores[0] == 80 + 160


def test_binocle_eight_kings_first_loses_the_four_kings() -> None:
    r = rules("binocle")
    kings = ["KS", "KH", "KD", "KC"] * 2
    s = deal(kings, turnup="TH", r=r)
    win_trick(s, kings)
    s.apply("meld KS KS KH KH KD KD KC KC")
    s.apply("pass")
    win_trick(s, kings)
    assert not [a for a in strings(s) if a.startswith("meld")]


def test_binocle_meld_needs_a_card_from_the_hand() -> None:
    r = rules("binocle")
    cards = ["KS", "KH", "KD", "KC", "QS", "QH", "QD", "QC"]
    s = deal(cards, turnup="TH", r=r)
    for m in ("meld KS KH KD KC", "meld QS QH QD QC"):
        win_trick(s, cards)
        s.apply(m)
        s.apply("pass")
    win_trick(s, cards)
    assert not {"meld KS* QS*", "meld KH* QH*", "meld KD* QD*", "meld KC* QC*"} & strings(s)
    before = s.key()
    with pytest.raises(ValueError, match="at least one card from your hand"):
        s.apply("meld KS* QS*")
    assert s.key() == before


def test_binocle_one_meld_per_trick() -> None:
    r = rules("binocle")
    s = deal(["KS", "QS", "JD", "KD", "QD"], turnup="TH", r=r)
    win_trick(s, ["KS", "QS", "JD", "KD", "QD"])
    s.apply("meld KD QD")
    assert not [a for a in strings(s) if a.startswith("meld")]


@pytest.mark.parametrize("variant", ["bezique", "binocle"])
def test_every_card_is_in_exactly_one_place_throughout_a_deal(variant: str) -> None:
    r = rules(variant)
    rng = random.Random(1)
    for seed in range(5):
        s = State.new_deal(r, seed=seed)
        while True:
            placed = _placed(s)
            assert sorted(placed) == sorted(r.deck)
            if s.is_terminal():
                break
            legal = s.legal_actions()
            melds = [a for a in legal if a >= 512]
            s.apply_action(rng.choice(melds or legal))
        assert s.tricks_played == r.total_tricks


@pytest.mark.parametrize("variant", ["bezique", "binocle"])
def test_stock_trick_winners_and_draws_follow_the_laws_in_random_deals(variant: str) -> None:
    r = rules(variant)
    rng = random.Random(2)
    for seed in range(10):
        s = State.new_deal(r, seed=seed)
        while s.turnup is not None:
            if s.phase == "follow":
                lead, leader = s.trick_cards()[0], 1 - s.current_player()
                a = rng.choice(s.legal_actions())
                s.apply_action(a)
                want = leader if beats(lead, a & 31, s.trump) else 1 - leader
                assert s.last_trick_winner == want and s.current_player() == want
            elif s.phase == "declare":
                w, pos = s.current_player(), len(s.stock) - s.stock_left
                top = s.stock[pos] & 31
                second = s.stock[pos + 1] & 31 if s.stock_left > 1 else s.turnup
                assert second is not None
                hands = [s.hand(0), s.hand(1)]
                s.apply("pass")
                assert sorted(s.hand(w)) == sorted([*hands[w], top]) or s.end_phase
                if not s.end_phase:
                    assert sorted(s.hand(1 - w)) == sorted([*hands[1 - w], second])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
