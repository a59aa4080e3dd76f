"""The observation of a seat: what it may see, and nothing it may not (no hidden information)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest

from bezique import IllegalActionError, Rules, State
from bezique.cards import card_name, parse_card

BEZIQUE = Rules.preset("bezique")


def make(hand0: Sequence[str], hand1: Sequence[str], turnup: str, stock_top: Sequence[str] = (),
         stock_bottom: Sequence[str] = (), rules: Rules = BEZIQUE) -> State:
    """A deal (player 1 deals, so player 0 leads) with these cards; the stock is filled with the
    rest of the pack between ``stock_top`` and ``stock_bottom``."""
    left = Counter(p & 31 for p in rules.deck)
    chosen = [parse_card(c) for c in (*hand0, *hand1, turnup, *stock_top, *stock_bottom)]
    left.subtract(chosen)
    assert min(left.values()) >= 0
    rest = [card_name(c) for c in sorted(left.elements())]
    middle = rules.stock_size - len(stock_top) - len(stock_bottom)
    stock = [*stock_top, *rest[:middle], *stock_bottom]
    return State.from_cards(rules, [list(hand0), list(hand1)], turnup, stock, dealer=1)


def names(cards: Sequence[int]) -> list[str]:
    return [card_name(c) for c in cards]


# Player 0 wins trick 1 with A♠ and exchanges 7♥ for the turn-up; in deal TWO it also holds the
# other copy of the turn-up card, in deal ONE that copy lies at the bottom of the stock.
HAND1 = ["8C", "8C", "9C", "9C", "8D", "8D", "9D", "9D"]


def exchange_deal(second_copy: bool, turnup: str, extra: str = "QH") -> State:
    base = ["AS", "7H", extra, "8S", "8S", "9S", "9S"]
    if second_copy:
        hand0 = [*base, turnup]
        bottom: list[str] = ["7S"]
    else:
        hand0 = [*base, "7S"]
        bottom = [turnup]
    s = make(hand0, HAND1, turnup, stock_bottom=bottom)
    for text in ("play AS", "play 8C", "exchange", "pass"):
        s.apply(text)
    return s


@pytest.mark.parametrize("second_copy", [False, True])
def test_known_turnup_is_the_copy_played_so_a_second_copy_stays_secret(second_copy: bool) -> None:
    """Playing a card of which one copy is known (the turn-up taken by exchange) uses the known
    copy: the other seat cannot then tell whether a second copy is in the hand."""
    s = exchange_deal(second_copy, "JH")
    assert names(s.observation(1).opponent_known) == ["JH"]
    before = s.observation(1)
    s.apply("play JH")
    assert s.observation(1).opponent_known == ()
    assert names(s.observation(0).hand).count("JH") == (1 if second_copy else 0)
    assert before.opponent_hand_size == 8


def test_the_listed_copy_is_the_known_one_and_the_other_number_is_refused() -> None:
    """Of two copies held, ``legal_actions`` lists the one the other seat knows of; the other
    copy's number is refused with the state unchanged, so no choice of copy reveals a card."""
    s = exchange_deal(True, "JH")
    listed = [a for a in s.legal_actions() if a & 31 == parse_card("JH")]
    assert len(listed) == 1 and s.canonical_play(parse_card("JH")) == listed[0]
    other = listed[0] ^ 32
    key = s.key()
    with pytest.raises(IllegalActionError, match="not a legal action"):
        s.apply_action(other)
    assert s.key() == key
    s.apply_action(listed[0])
    assert s.observation(1).opponent_known == ()


@pytest.mark.parametrize("second_copy", [False, True])
def test_meld_uses_the_known_copy_of_a_card(second_copy: bool) -> None:
    """A meld naming a concealed card uses the copy the other seat knows of, if any."""
    s = exchange_deal(second_copy, "KH", extra="QH")
    s.apply("play 9S")
    s.apply("play 9D")  # player 0 wins with the higher card of the suit led
    s.apply("meld KH QH")
    obs = s.observation(1)
    assert obs.opponent_known == ()
    assert names(obs.shown[0]) == ["KH", "QH"]


def test_observation_worlds_agree_after_exchange_and_play() -> None:
    """The two deals differ only in a card player 1 has not seen: its views are equal."""
    one, two = exchange_deal(False, "JH"), exchange_deal(True, "JH")
    assert one.observation(1) == two.observation(1)
    one.apply("play JH")
    two.apply("play JH")
    assert one.observation(1) == two.observation(1)
    assert one.observation(0) != two.observation(0)  # player 0 knows its own hand


def test_observation_shows_own_hand_and_public_facts_only() -> None:
    s = State.new_deal(BEZIQUE, seed=11, dealer=1)
    obs0, obs1 = s.observation(0), s.observation(1)
    assert list(obs0.hand) == s.hand(0) and list(obs1.hand) == s.hand(1)
    assert obs0.turnup == obs1.turnup == s.turnup
    assert obs0.stock == 47 and obs0.opponent_hand_size == 8
    assert obs0.opponent_known == () and obs0.draws == ()
    assert obs0.my_turn and not obs1.my_turn
    assert obs0.legal == tuple(s.legal_action_strings()) and obs1.legal == ()
    # everything player 0 has not seen: the other hand and the stock
    unseen = Counter(s.hand(1)) + Counter(p & 31 for p in s.stock)
    assert obs0.unseen() == unseen
    assert sum(obs0.unseen().values()) == 8 + 47
    assert "hand=" + ",".join(card_name(c) for c in s.hand(1)) not in obs0.text()


def test_draws_are_seen_by_the_drawer_only() -> None:
    s = make(["AS", "8S", "8S", "9S", "9S", "7S", "7S", "JS"], HAND1, "TH",
             stock_top=["KD", "QC"])
    for text in ("play AS", "play 8C", "pass"):
        s.apply(text)
    assert names(s.observation(0).draws) == ["KD"]  # the winner draws the top card
    assert names(s.observation(1).draws) == ["QC"]
    assert "KD" in names(s.observation(0).hand)
    assert s.observation(1).opponent_known == ()
    tricks = s.observation(1).tricks
    assert len(tricks) == 1 and tricks[0].winner == 0
    assert names([tricks[0].lead, tricks[0].follow]) == ["AS", "8C"]


def test_opponent_sees_exchanged_turnup_and_declared_melds() -> None:
    s = exchange_deal(False, "JH")
    obs = s.observation(1)
    assert names(obs.opponent_known) == ["JH"]
    assert obs.turnup == parse_card("7H")
    assert [a for _, a in obs.actions] == ["play AS", "play 8C", "exchange", "pass"]
    assert obs.scores == (10, 0)


@pytest.mark.parametrize("second_copy", [False, True])
def test_dealt_turnup_is_public_and_survives_the_exchange(second_copy: bool) -> None:
    """``turnup_dealt`` is the card turned at the deal: both seats keep seeing it after the
    seven of trumps has been exchanged for it (``turnup`` is then the seven)."""
    s = make(["AS", "7H", "QH", "8S", "8S", "9S", "9S", "JH" if second_copy else "7S"], HAND1,
             "JH", stock_bottom=["7S" if second_copy else "JH"])
    for seat in (0, 1):
        assert s.observation(seat).turnup_dealt == parse_card("JH")
    s.apply("play AS")
    s.apply("play 8C")
    s.apply("exchange")  # right after the exchange, before the draw
    for seat in (0, 1):
        obs = s.observation(seat)
        assert obs.turnup == parse_card("7H")
        assert obs.turnup_dealt == parse_card("JH")
    s.apply("pass")
    assert s.observation(1).turnup_dealt == parse_card("JH")
    assert "dealt=JH" in s.observation(1).text()


def test_dealt_turnup_stays_after_the_last_draw() -> None:
    """Once the turn-up is drawn (``turnup`` None, the end phase) ``turnup_dealt`` remains."""
    s = State.new_deal(BEZIQUE, seed=3)
    dealt = s.turnup
    while not s.observation(0).end_phase:
        s.apply_action(s.legal_actions()[-1 if s.phase == "declare" else 0])
    obs = s.observation(0)
    assert obs.turnup is None and obs.stock == 0
    assert obs.turnup_dealt == dealt


def test_trick_count_end_phase_brisques_and_known_cards_follow_the_state() -> None:
    """The counts an agent used to work out: tricks played, the end phase, brisques, and the
    concealed cards each seat knows of in the other's hand (the same fact seen from both sides)."""
    s = State.new_deal(BEZIQUE, seed=21)
    seen_known = False
    while not s.is_terminal():
        for seat in (0, 1):
            obs = s.observation(seat)
            assert obs.tricks_played == len(obs.tricks) == s.tricks_played
            assert obs.end_phase == (obs.turnup is None) == s.end_phase
            assert obs.brisques == s.brisques
            assert obs.known_to_opponent == s.observation(1 - seat).opponent_known
            seen_known = seen_known or bool(obs.known_to_opponent)
        acts = s.legal_actions()
        scoring = [a for a in acts if a >= 257]
        s.apply_action(scoring[0] if scoring else acts[0])
    assert seen_known
