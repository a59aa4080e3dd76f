"""Scoring a deal (RULES.md 2.5, 3.1, 4) and deciding the game (2.6).

Game-end tests first play a deal with totals (0, 0) to learn what each seat scores before and
from brisques, then replay the same actions from chosen totals, so every expectation follows
from the rules and the deal's own figures.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import pytest
from helpers import deal, playout, replay, rules, win_trick

from bezique import Rules, State
from bezique.cards import bits, rank_of

T = 1000  # the default target

# ---------------------------------------------------------------- melds


BEZIQUE_TABLE = [
    ("common marriage", "meld KS QS", 20),
    ("royal marriage", "meld KH QH", 40),
    ("sequence", "meld AH TH KH QH JH", 250),
    ("bezique", "meld QS JD", 40),
    ("double bezique", "meld QS QS JD JD", 500),
    ("four aces", "meld AS AH AD AC", 100),
    ("four kings", "meld KS KH KD KC", 80),
    ("four queens", "meld QS QH QD QC", 60),
    ("four jacks", "meld JS JH JD JC", 40),
]

BINOCLE_TABLE = [
    ("common marriage", "meld KS QS", 20),
    ("royal marriage", "meld KH QH", 40),
    ("sequence", "meld AH TH KH QH JH", 150),
    ("binocle", "meld QS JD", 40),
    ("double binocle", "meld QS QS JD JD", 80),
    ("grand binocle", "meld KS QS JD", 80),
    ("four aces", "meld AS AH AD AC", 100),
    ("four kings", "meld KS KH KD KC", 80),
    ("four queens", "meld QS QH QD QC", 60),
    ("four jacks", "meld JS JH JD JC", 40),
    ("eight aces", "meld AS AS AH AH AD AD AC AC", 200),
    ("eight kings", "meld KS KS KH KH KD KD KC KC", 160),
    ("eight queens", "meld QS QS QH QH QD QD QC QC", 120),
    ("eight jacks", "meld JS JS JH JH JD JD JC JC", 80),
]


def _score_meld(r: Rules, text: str, turnup: str) -> State:
    cards = text.split()[1:]
    s = deal(cards, turnup=turnup, r=r)
    win_trick(s, cards)
    s.apply(text)
    return s


@pytest.mark.parametrize(("name", "text", "points"), BEZIQUE_TABLE)
def test_bezique_meld_scores_its_table_points(name: str, text: str, points: int) -> None:
    s = _score_meld(rules(), text, "8H")
    assert s.scores == (points, 0)
    assert s.events[-1] == (0, points, "meld", name)
    assert s.melds(0)[0][0] == name


@pytest.mark.parametrize(("name", "text", "points"), BINOCLE_TABLE)
def test_binocle_meld_scores_its_table_points(name: str, text: str, points: int) -> None:
    s = _score_meld(rules("binocle"), text, "TH")
    assert s.scores == (points, 0)
    assert s.events[-1] == (0, points, "meld", name)


def test_seven_scores_10_when_declared() -> None:
    s = deal(["7H", "AS"], ["8D"], turnup="KH")
    s.apply("play AS")
    s.apply("play 8D")
    s.apply("seven")
    assert s.scores == (10, 0) and s.events[-1] == (0, 10, "seven", "seven")


# ---------------------------------------------------------------- brisques and last trick


def _played(seed: int, r: Rules | None = None, totals: tuple[int, int] = (0, 0)) -> State:
    s = State.new_deal(r or rules(), seed=seed, dealer=1, totals=totals)
    playout(s)
    return s


def _aces_tens_won(s: State, seat: int) -> int:
    won = s.all_masks()[f"won{seat}"]
    return sum(1 for p in bits(won) if rank_of(p) in (0, 1))


def test_brisques_are_10_for_each_ace_and_ten_won_160_in_all() -> None:
    s = _played(5)
    assert s.brisques == (10 * _aces_tens_won(s, 0), 10 * _aces_tens_won(s, 1))
    assert sum(s.brisques) == 160


def test_brisques_are_counted_at_the_end_of_the_deal() -> None:
    s = State.new_deal(rules(), seed=5)
    actions = playout(s)
    probe = State.new_deal(rules(), seed=5)
    replay(probe, actions[:-1])  # everything but the last card of the last trick
    assert not [e for e in probe.events if e[2] == "brisques"]
    assert sum(probe.brisques) > 0  # tricks with brisques were won, but nothing scored yet
    # the last trick scores before the brisques, and the non-dealer counts first
    tail = [e for e in s.events if e[2] in ("last trick", "brisques")]
    assert tail[0][2] == "last trick"
    nd = 1 - s.dealer
    assert [e[0] for e in tail[1:]] == [i for i in (nd, s.dealer) if s.brisques[i]]


def test_last_trick_scores_10_to_the_winner_of_the_final_trick() -> None:
    s = _played(5)
    last = [e for e in s.events if e[2] == "last trick"]
    assert last == [(s.last_trick_winner, 10, "last trick", "final")]
    assert s.tricks_played == 32


def test_deal_score_is_melds_sevens_last_trick_and_brisques() -> None:
    s = _played(8)
    for seat in (0, 1):
        assert s.scores[seat] == sum(p for who, p, _, _ in s.events if who == seat)
        assert s.scores[seat] % 10 == 0
    assert s.game_scores == s.scores
    assert s.returns() == [s.scores[0] - s.scores[1], s.scores[1] - s.scores[0]]


def test_binocle_card_points_total_250_with_the_last_trick() -> None:
    r = rules("binocle")
    s = _played(3, r)
    assert sum(s.brisques) == 240
    points = {0: 11, 1: 10, 2: 4, 3: 3, 4: 2}
    for seat in (0, 1):
        won = s.all_masks()[f"won{seat}"]
        assert s.brisques[seat] == sum(points.get(rank_of(p), 0) for p in bits(won))
    card_and_last = sum(p for _, p, why, _ in s.events if why in ("brisques", "last trick"))
    assert card_and_last == 250
    assert s.tricks_played == 24


# ---------------------------------------------------------------- the game (2.6)


class Deal(NamedTuple):
    seed: int
    actions: list[str]
    pre: tuple[int, int]  # deal points before brisques (sevens, last trick)
    bris: tuple[int, int]
    last: int


def _find(pred: Callable[[Deal], bool]) -> Deal:
    """The first seeded deal (dealer 1, fixed policy) whose figures satisfy ``pred``."""
    for seed in range(300):
        s = State.new_deal(rules(), seed=seed, dealer=1)
        actions = playout(s)
        b = s.brisques
        pre = (s.scores[0] - b[0], s.scores[1] - b[1])
        d = Deal(seed, actions, pre, b, s.last_trick_winner)
        if pred(d):
            return d
    raise AssertionError("no such deal among the seeds tried")  # pragma: no cover


def _finish(d: Deal, totals: tuple[int, int], r: Rules | None = None) -> State:
    s = State.new_deal(r or rules(), seed=d.seed, dealer=1, totals=totals)
    return replay(s, d.actions)


ND, D = 0, 1  # dealer 1: seat 0 is the non-dealer


def test_reaching_the_target_during_play_does_not_stop_the_deal() -> None:
    s = deal(["KS", "QS"], totals=(T - 10, 0))
    win_trick(s, ["KS", "QS"])
    s.apply("meld KS QS")
    assert s.game_scores[0] >= T
    assert not s.is_terminal() and s.winner is None


def test_nobody_at_target_means_another_deal() -> None:
    d = _find(lambda d: True)
    s = _finish(d, (0, 0))
    assert s.is_terminal() and s.winner is None


def test_non_dealer_counts_first_and_wins_though_dealer_ends_higher() -> None:
    d = _find(lambda d: d.bris[ND] > 0 and d.bris[D] >= 30)
    totals = (T - d.pre[ND] - d.bris[ND], T - d.pre[D] - 10)
    s = _finish(d, totals)
    assert s.game_scores[ND] == T and s.game_scores[D] > T  # both reach it with brisques
    assert s.winner == ND


def test_dealer_wins_when_non_dealer_brisques_fall_short() -> None:
    d = _find(lambda d: d.bris[ND] > 0 and d.bris[D] > 0)
    totals = (T - d.pre[ND] - d.bris[ND] - 10, T - d.pre[D] - d.bris[D])
    s = _finish(d, totals)
    assert s.game_scores == (T - 10, T)
    assert s.winner == D


def test_player_at_target_before_brisques_higher_total_wins() -> None:
    d = _find(lambda d: d.bris[ND] > 0 and d.bris[D] > 0)
    # the dealer is at the target before brisques; the non-dealer reaches it only with them
    totals = (T - d.pre[ND] - d.bris[ND], T - d.pre[D])
    s = _finish(d, totals)
    assert s.game_scores == (T, T + d.bris[D])
    assert s.winner == D  # not the non-dealer: both count, the higher total wins


def test_last_trick_counts_before_brisques() -> None:
    d = _find(lambda d: d.last == D and d.bris[ND] > 0 and d.bris[D] > 0)
    # the dealer reaches the target exactly with the last trick's 10
    totals = (T - d.pre[ND] - d.bris[ND], T - d.pre[D])
    s = _finish(d, totals)
    assert s.winner == D


def test_equal_totals_higher_total_less_brisques_wins() -> None:
    d = _find(lambda d: d.bris[ND] != d.bris[D])
    x = T + 200
    s = _finish(d, (x - d.pre[ND] - d.bris[ND], x - d.pre[D] - d.bris[D]))
    assert s.game_scores == (x, x)
    assert s.winner == (ND if d.bris[ND] < d.bris[D] else D)


@pytest.mark.parametrize("last", [ND, D])
def test_equal_totals_and_equal_brisques_last_trick_wins(last: int) -> None:
    d = _find(lambda d: d.bris[ND] == d.bris[D] and d.last == last)
    x = T + 200
    s = _finish(d, (x - d.pre[ND] - d.bris[ND], x - d.pre[D] - d.bris[D]))
    assert s.game_scores == (x, x)
    assert s.winner == last


def test_brisques_are_always_added_to_the_totals() -> None:
    d = _find(lambda d: d.bris[ND] > 0 and d.bris[D] > 0)
    totals = (T - d.pre[ND] - d.bris[ND], 0)
    s = _finish(d, totals)
    assert s.winner == ND
    assert s.game_scores == (T, d.pre[D] + d.bris[D])


def test_brisques_immediate_before_brisques_means_total_less_this_deals_brisques() -> None:
    d = _find(lambda d: d.bris[ND] > 0 and d.bris[D] >= 30)
    totals = (T - d.pre[ND] - d.bris[ND], T - d.pre[D] - 10)
    s = _finish(d, totals, rules(brisques="immediate"))
    # during play the dealer passed the target with brisques, but what counts is the total
    # less the deal's brisques: neither had reached it, so the non-dealer counts first
    assert s.game_scores[ND] == T and s.game_scores[D] > T
    assert s.winner == ND


def test_brisques_immediate_score_the_last_tricks_10_before_its_brisques() -> None:
    """RULES.md 2.5: the last trick's 10 comes "before brisques are counted", also when they
    are counted trick by trick: the final trick's brisques are scored after its 10."""
    r = rules(brisques="immediate")
    after = 0
    for seed in range(40):
        s = State.new_deal(r, seed=seed, dealer=1)
        playout(s)
        *_, ten, last = s.events
        if last[2] == "brisques":
            assert ten[:3] == (last[0], 10, "last trick"), s.events
            after += 1
        else:
            assert last[2] == "last trick", s.events
    assert after > 5


@pytest.mark.parametrize("last_trick", ["final", "stock"])
def test_with_end_check_immediate_the_last_tricks_10_reaches_the_target_first(
        last_trick: str) -> None:
    """RULES.md 2.5 and 2.6: a player short of the target by the last trick's 10 wins on it,
    and that trick's brisques (``brisques = immediate``) are not scored after the game ends."""
    r = rules(brisques="immediate", last_trick=last_trick, end_check="immediate")
    for seed in range(40):
        s = State.new_deal(r, seed=seed, dealer=1)
        texts = playout(s)
        i = next(i for i, e in enumerate(s.events) if e[2] == "last trick")
        if i + 1 == len(s.events) or s.events[i + 1][2] != "brisques":
            continue
        seat = s.events[i][0]
        if s.events[i + 1][0] != seat:
            continue  # (the 24th trick's 10, then the 25th trick's brisques of the other)
        before = sum(e[1] for e in s.events[:i] if e[0] == seat)
        totals = tuple(T - 10 - before if k == seat else 0 for k in range(2))
        s2 = State.new_deal(r, seed=seed, dealer=1, totals=totals)  # type: ignore[arg-type]
        for text in texts:
            if s2.is_terminal():
                break
            s2.apply(text)
        assert s2.winner == seat and s2.events[-1] == s.events[i], s2.events
        assert s2.game_scores[seat] == T
        return
    raise AssertionError("no deal scored brisques on the trick that scores the 10")


def test_tie_break_with_last_trick_stock_is_the_winner_of_the_24th_trick() -> None:
    # With `last_trick = stock` the 24th trick is "the last trick" (RULES.md 2.5): its taker
    # scores the 10 and also wins the final tie of 2.6.
    r = rules(last_trick="stock")

    def figures(seed: int) -> tuple[State, int]:
        s = State.new_deal(r, seed=seed, dealer=1)
        playout(s)
        stock_winner = next(e[0] for e in s.events if e[2] == "last trick")
        return s, stock_winner

    for seed in range(300):
        s, stock_winner = figures(seed)
        if s.brisques[0] == s.brisques[1] and stock_winner != s.last_trick_winner:
            break
    else:  # pragma: no cover
        raise AssertionError("no such deal among the seeds tried")
    x = T + 200
    totals = (x - s.scores[0], x - s.scores[1])
    t = replay(State.new_deal(r, seed=seed, dealer=1, totals=totals), playout(
        State.new_deal(r, seed=seed, dealer=1)))
    assert t.game_scores == (x, x)
    assert t.winner == stock_winner != s.last_trick_winner
