"""Playing for the game at a table of three or four (issue #18 item 3; RULES.md 9.4, 9.5):
each side's chance of winning the game, and the table search valuing its rollouts by it near
the target."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fourhanded import deal4

from bezique import Rules, State
from bezique.agents.game_value import WinTable
from bezique.agents.search import SearchAgent
from bezique.agents.table_game import (
    SIDE_POINTS,
    TableFrame,
    by_side,
    side_of,
    side_points,
    win_chances,
)

needs = st.integers(min_value=1, max_value=2000)


@settings(max_examples=60, deadline=None)
@given(st.lists(needs, min_size=2, max_size=4))
def test_the_chances_are_a_distribution(need: list[int]) -> None:
    p = win_chances([float(x) for x in need], 300.0, 150.0)
    assert all(0.0 <= x <= 1.0 for x in p)
    assert sum(p) == pytest.approx(1.0)


@settings(max_examples=60, deadline=None)
@given(st.lists(needs, min_size=2, max_size=4), st.integers(min_value=50, max_value=400))
def test_a_side_needing_fewer_points_has_the_better_chance(need: list[int], less: int) -> None:
    base = [float(x) for x in need]
    closer = [base[0] - less, *base[1:]]
    before, after = win_chances(base, 300.0, 150.0)[0], win_chances(closer, 300.0, 150.0)[0]
    assert after >= before - 1e-9
    others = [base[0], *(x + less for x in base[1:])]
    assert win_chances(others, 300.0, 150.0)[0] >= before - 1e-9


def test_alike_sides_have_alike_chances() -> None:
    assert win_chances([700.0] * 3, 257.0, 136.0) == pytest.approx([1 / 3] * 3)
    a, b, c = win_chances([700.0, 1400.0, 700.0], 257.0, 136.0)
    assert a == pytest.approx(c) and a > 0.4 and b < 0.2


def test_two_sides_agree_with_the_exact_programme() -> None:
    """For two sides the closed form agrees with game_value's dynamic programme (which
    handles sides reaching the target in the same deal exactly) to within 7 percentage points
    everywhere and 3.5 on average."""
    table = WinTable(1000, 285.0, 143.0)
    diffs = [abs(win_chances([float(a), float(b)], 285.0, 143.0)[0] - table.p(a, b))
             for a in range(50, 1001, 50) for b in range(50, 1001, 50)]
    assert max(diffs) < 0.07
    assert sum(diffs) / len(diffs) < 0.035


def test_the_rest_of_the_deal_in_play_counts_before_the_next_deals() -> None:
    # needing 100 with 300 still to come in this deal is all but won; with nothing to come the
    # other side, needing 150, wins as often as it reaches its 150 first
    sure = win_chances([100.0, 150.0], 300.0, 150.0, rest=[300.0, 0.0], rest_sd=1.0)
    assert sure[0] > 0.99
    even = win_chances([100.0, 100.0], 300.0, 150.0, rest=[300.0, 300.0], rest_sd=100.0)
    assert even == pytest.approx([0.5, 0.5])


def test_sides_and_their_points() -> None:
    r4, r3 = Rules.preset("bezique4"), Rules.preset("bezique3")
    solo = r4.with_options(partnership=False)
    assert [side_of(r4, s) for s in range(4)] == [0, 1, 0, 1]
    assert [side_of(solo, s) for s in range(4)] == [0, 1, 2, 3]
    assert by_side(r4, [1, 2, 3, 4]) == [4, 6] and by_side(solo, [1, 2, 3, 4]) == [1, 2, 3, 4]
    assert side_points(r4) == SIDE_POINTS["bezique4"]
    assert side_points(solo) == SIDE_POINTS["bezique4-solo"]
    assert side_points(r3) == SIDE_POINTS["bezique3"]
    # a side of two partners scores about twice a seat's points
    assert SIDE_POINTS["bezique4"][0] > 1.5 * SIDE_POINTS["bezique4-solo"][0]


def test_a_frame_only_near_the_target() -> None:
    for preset in ("bezique3", "bezique4"):
        r = Rules.preset(preset)
        fresh = State.new_deal(r, seed=1, dealer=0)
        assert TableFrame.of(fresh.observation(0)) is None  # 0 of 2000: nobody reaches it now
        near = State.new_deal(r, seed=1, dealer=0, totals=[1900, 1200, 1000, 800][:r.nplayers])
        frame = TableFrame.of(near.observation(1))
        assert frame is not None and frame.target == 2000 and frame.slope > 0
    two = State.new_deal(Rules.preset("bezique"), seed=1, totals=(990, 990))
    assert TableFrame.of(two.observation(0)) is None  # two seats: game_value's


def _race(totals: list[int]) -> State:
    """Four-handed partners, the game ending the moment a side reaches 2000 (``end_check =
    immediate``).  Seat 0 leads, holding the trump ace and the royal marriage (40); nobody
    else holds a heart above the nine."""
    r = Rules.preset("bezique4", end_check="immediate")
    return deal4({0: ["AH", "KH", "QH"]}, rules=r, totals=totals)


def test_a_finished_deal_is_valued_by_the_games_result() -> None:
    s = _race([990, 990, 980, 990])  # side 0: 1970, side 1: 1980
    frame = TableFrame.of(s.observation(0))
    assert frame is not None
    s.apply("play AH")
    while s.current_player() != 0 or s.phase != "declare":
        s.apply_action(min(a for a in s.legal_actions() if a < 256))
    s.apply(next(t for t in s.legal_action_strings() if t.startswith("meld") and "KH" in t))
    assert s.is_terminal() and s.winner == 0  # 1970 + 40 reaches 2000 first
    assert frame.finished(s, 0) == pytest.approx(1.0 / frame.slope)
    assert frame.finished(s, 2) == pytest.approx(1.0 / frame.slope)
    assert frame.finished(s, 1) == 0.0


def test_the_table_search_plays_for_the_game_near_the_target() -> None:
    """Near the target the table search's values are chances (in points by the slope), far
    from it the deal's points; with ``game=0`` the points throughout."""
    s = _race([990, 990, 980, 990])
    obs = s.observation(0)
    agent = SearchAgent(seed=1, samples=8)
    best, means = agent.table.evaluate(obs, agent.rng)
    frame = agent.table.frame
    assert frame is not None
    assert all(-1e-9 <= m * frame.slope <= 1.0 + 1e-9 for m in means.values())
    # leading the trump ace wins the trick, the marriage and the game at once
    assert best == "play AH" and means["play AH"] * frame.slope > 0.99
    off = SearchAgent(seed=1, samples=8, game=0)
    off.table.evaluate(obs, off.rng)
    assert off.table.frame is None
    far = _race([0] * 4)
    agent.table.evaluate(far.observation(0), agent.rng)
    assert agent.table.frame is None
