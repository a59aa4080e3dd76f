"""``benchmarks/departures.py``: where an agent's moves in saved records leave the heuristic's."""

from __future__ import annotations

import json
import random
from pathlib import Path

from helpers import benchmark

from bezique import Rules, State
from bezique.agents.heuristic import HeuristicPolicy, tuned_params
from bezique.record import game_record, parse_record


def _records(tmp_path: Path, policy: HeuristicPolicy, deals: int = 2) -> list[str]:
    """Rubicon deals of ``policy`` (seat 0, named ``heuristic``) against a random mover, saved."""
    rules = Rules.preset("rubicon")
    paths = []
    for seed in range(deals):
        # the deal as a replay sets it out (a record names cards, not which of the four copies
        # is where, and a play of a shown card names its copy by its meld history, ``QS*2``, so
        # the same card can read otherwise in another layout), played by text
        state = parse_record(game_record(rules, [State.new_deal(rules, seed=seed)])).start(0)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            action = policy.choose(state) if state.current_player() == 0 else rng.choice(legal)
            state.apply(state.action_to_string(action))
        data = game_record(rules, [state])
        data["players"] = ["heuristic:seed=1", "random"]
        path = tmp_path / f"deal-{seed + 1:04d}-1.json"
        path.write_text(json.dumps(data))
        paths.append(str(path))
    return paths


def test_the_heuristic_never_departs_from_itself_and_a_random_mover_does(tmp_path: Path) -> None:
    tool = benchmark("departures")
    paths = _records(tmp_path, HeuristicPolicy(solver_cards=0))
    seen, left, kinds = tool.departures(paths, "heuristic", 26, 70)
    assert sum(seen.values()) > 50 and not left and not kinds
    # every phase and stage of the stock is counted
    assert {phase for phase, _ in seen} == {"lead", "follow", "declare"}
    assert {stage for _, stage in seen} == {"early", "mid", "late"}
    seen, left, kinds = tool.departures(paths, "random", 26, 70)
    assert 0 < sum(left.values()) < sum(seen.values())
    assert sum(kinds.values()) == sum(left.values())
    # a record without the agent is skipped
    assert tool.departures(paths, "search", 26, 70)[0] == {}


def test_tuned_asks_the_heuristic_with_the_variants_own_numbers(tmp_path: Path) -> None:
    """Rubicon's tuned numbers (the search's own later moves) never depart from themselves,
    and do from the club player's."""
    tool = benchmark("departures")
    paths = _records(tmp_path, HeuristicPolicy(solver_cards=0, params=tuned_params("rubicon")),
                     deals=3)
    seen, left, _ = tool.departures(paths, "heuristic", 26, 70, tuned=True)
    assert sum(seen.values()) > 50 and not left
    seen_club, left_club, _ = tool.departures(paths, "heuristic", 26, 70)
    assert seen_club == seen and sum(left_club.values()) > 0
