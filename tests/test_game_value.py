"""Playing for the game (issue #18 item 3): the P(win) table, the leaf values and the search.

Near the target a deal's points matter only as far as they win the game; the two-seat search
values its leaves by the chance of winning (:mod:`bezique.agents.game_value`) there, and by the
deal's point margin far from it.
"""

from __future__ import annotations

import dataclasses

from helpers import deal, rules
from hypothesis import given, settings
from hypothesis import strategies as st

from bezique import Rules, State
from bezique.agents.game_value import (
    DEAL_POINTS,
    GameFrame,
    WinTable,
    after_deal,
    end_value,
    finished_value,
    horizon_value,
    table_for,
)
from bezique.agents.search import SearchAgent

TABLE = WinTable(1000, *DEAL_POINTS["bezique"])
needs = st.integers(min_value=1, max_value=1200)


@settings(max_examples=60, deadline=None)
@given(needs, needs, st.integers(min_value=1, max_value=300))
def test_the_chance_falls_as_a_side_needs_more_and_rises_as_the_other_does(
        a: int, b: int, more: int) -> None:
    assert TABLE.p(a + more, b) <= TABLE.p(a, b) + 1e-12
    assert TABLE.p(a, b + more) >= TABLE.p(a, b) - 1e-12
    assert 0.0 <= TABLE.p(a, b) <= 1.0


@settings(max_examples=60, deadline=None)
@given(needs, needs)
def test_the_table_is_symmetric(a: int, b: int) -> None:
    # one side's chance and the other's add up to one; equal needs are an even game
    assert abs(TABLE.p(a, b) + TABLE.p(b, a) - 1.0) < 1e-9
    assert abs(TABLE.p(a, a) - 0.5) < 1e-9


def test_the_table_favours_the_side_near_the_target() -> None:
    assert TABLE.p(50, 300) > 0.85
    assert TABLE.p(300, 50) < 0.15
    # a bigger lead is worth more near the end than at the start of the game
    assert TABLE.p(100, 400) > TABLE.p(700, 1000) > 0.5


def test_a_side_that_reaches_the_target_alone_has_won() -> None:
    assert after_deal(TABLE, 0, (1010, 990)) == 1.0
    assert after_deal(TABLE, 1, (1010, 990)) == 0.0
    # both over: the higher total wins (the simple rule of the table's future deals)
    assert after_deal(TABLE, 1, (1010, 1100)) == 1.0
    assert after_deal(TABLE, 0, (900, 700)) == TABLE.p(100, 300)


def _finished(totals: tuple[int, int], seed: int = 3) -> State:
    s = State.new_deal(Rules.preset("bezique"), seed=seed, dealer=0, totals=totals)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    return s


def test_a_finished_deal_is_valued_by_the_games_result() -> None:
    won = _finished((990, 0))  # seat 0 cannot fail to reach 1000
    assert won.winner == 0
    assert finished_value(won, 0, TABLE) == 1.0
    assert finished_value(won, 1, TABLE) == 0.0
    going_on = _finished((0, 0))
    assert going_on.winner is None
    g = going_on.game_scores
    assert finished_value(going_on, 0, TABLE) == TABLE.p(1000 - g[0], 1000 - g[1])


def test_an_end_phase_leaf_agrees_with_the_real_end_of_the_deal() -> None:
    # the exact solver's value of the rest, split back into points, gives the real result:
    # compare with the deal played out by the solver's own moves from the end phase
    from bezique.agents.endgame import solve

    for totals in ((0, 0), (900, 850), (700, 960)):
        s = State.new_deal(Rules.preset("bezique"), seed=11, dealer=1, totals=totals)
        while not s.end_phase:
            s.apply_action(s.legal_actions()[0])
        value = solve(s).value
        mover = s.current_player()
        leaf = end_value(s, mover, value, TABLE)
        while not s.is_terminal():
            s.apply(solve(s).best)
        assert leaf == finished_value(s, mover, TABLE)


def test_a_horizon_leaf_is_a_probability_that_follows_the_totals() -> None:
    s = State.new_deal(Rules.preset("bezique"), seed=5, dealer=1, totals=(0, 0))
    for _ in range(6):
        s.apply_action(s.legal_actions()[0])
    behind = State.new_deal(Rules.preset("bezique"), seed=5, dealer=1, totals=(600, 900))
    ahead = State.new_deal(Rules.preset("bezique"), seed=5, dealer=1, totals=(900, 600))
    for x in (behind, ahead):
        for _ in range(6):
            x.apply_action(x.legal_actions()[0])
    assert 0.0 <= horizon_value(behind, 0, TABLE) < 0.5 < horizon_value(ahead, 0, TABLE) <= 1.0
    assert abs(horizon_value(ahead, 0, TABLE) + horizon_value(ahead, 1, TABLE) - 1.0) < 1e-9


def test_far_from_the_target_the_search_values_the_deals_points() -> None:
    s = State.new_deal(Rules.preset("bezique"), seed=1, dealer=1)
    assert GameFrame.of(s.observation(0)) is None  # 0 - 0 of 1000: no side can reach it
    near = State.new_deal(Rules.preset("bezique"), seed=1, dealer=1, totals=(850, 300))
    frame = GameFrame.of(near.observation(0))
    assert frame is not None and frame.table.target == 1000
    # one-deal games are valued by their settlement, tables of three by points: no frame
    for preset in ("rubicon", "bezique3"):
        r = Rules.preset(preset)
        x = State.new_deal(r, seed=1, dealer=1, totals=[r.target - 10] * r.nplayers)
        assert GameFrame.of(x.observation(0)) is None


def _race(totals: tuple[int, int]) -> State:
    """The game ends the moment a score reaches the target (``end_check = immediate``).  Seat 1
    leads JC; seat 0 holds the marriage KD QD and one trump, AH, and can win the trick only by
    trumping with it."""
    r = rules("bezique", end_check="immediate")
    s = deal(["KD", "QD", "AH", "9S", "8S", "7S", "9C", "8C"], ["JC", "KS", "QS"], "8H",
             dealer=0, r=r, totals=totals)
    s.apply("play JC")
    return s


def test_the_search_plays_for_the_game_near_the_target() -> None:
    # at 980 - 980 the marriage wins the game at once, but only after winning this trick:
    # trumping with the ace wins the game (the other way the opponent, needing 20, wins the
    # trick and may declare first).  For the deal's points the ace is worth more kept: with
    # the same cards at 0 - 0 the search throws a low card.
    near = _race((980, 980)).observation(0)
    far = dataclasses.replace(near, totals=(0, 0))
    for seed in range(3):
        best, means = SearchAgent(seed=seed).evaluate(near)
        assert best == "play AH"
        assert means["play AH"] == max(means.values())
        low, _ = SearchAgent(seed=seed).evaluate(far)
        assert low in ("play 7S", "play 8S", "play 9S", "play 8C", "play 9C")
    assert table_for(near.rules).target == 1000
