"""``benchmarks/game_edge.py``: a saved match's deals read from A's side, and simulated games
that follow the edge a deal."""

from __future__ import annotations

from pathlib import Path

from helpers import benchmark

from bezique import Rules
from bezique.arena import run_match

game_edge = benchmark("game_edge")


def test_the_saved_games_are_read_from_agent_as_side(tmp_path: Path) -> None:
    rules = Rules.preset("bezique", target=300)
    result = run_match("heuristic", "random", rules, games=4, seed=2, save=tmp_path)
    deals, played, names = game_edge.read_match(tmp_path)
    assert names == ["heuristic", "random"]
    every = deals[True] + deals[False]
    assert len(every) == result.deals_played
    # A's and B's points are the arena's, seat by seat
    assert sum(pa for pa, _ in every) / len(every) == result.points_per_deal[0]
    assert sum(pb for _, pb in every) / len(every) == result.points_per_deal[1]
    assert sum(played) == result.wins[0] and len(played) == result.games
    # the dealer alternates within a game, so both dealers have deals
    assert deals[True] and deals[False]


def test_a_larger_edge_never_wins_fewer_games() -> None:
    deals = {True: [(300, 100), (50, 250)], False: [(120, 180), (200, 200)]}
    shares = [game_edge.simulate(deals, e, 400, 1000, 3) for e in (-100, -20, 0, 20, 100)]
    assert shares == sorted(shares) and shares[0] < 0.5 < shares[-1]
    need = game_edge.edge_for(deals, 0.85, 400, 1000, 3)
    assert game_edge.simulate(deals, need, 400, 1000, 3) >= 0.85
    assert game_edge.simulate(deals, need - 2, 400, 1000, 3) < 0.85
