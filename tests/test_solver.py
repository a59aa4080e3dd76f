"""The exact end-phase solver (RULES.md 2.4): equal to a plain minimax, and its command."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from bezique import Rules, State
from bezique.agents.solver import SolverBudgetError, solve, solve_hands
from bezique.cards import parse_card
from bezique.cli import main
from bezique.errors import BeziqueError
from bezique.record import game_record


def _end_position(rules: Rules, seed: int, cards_left: int) -> State:
    """A deal played at random until the player to act holds ``cards_left`` cards or fewer in
    the end phase."""
    rng = random.Random(seed)
    s = State.new_deal(rules, seed=seed, dealer=seed % 2)
    while not (s.end_phase and len(s.hand(s.current_player())) <= cards_left):
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def _minimax(s: State) -> int:
    """Points still to win by the player to act less the other's, by brute force on the
    engine itself (brisques of each trick, and the last trick's 10 when it is the 32nd)."""
    q = s.current_player()
    best: int | None = None
    for a in s.legal_actions():
        c = s.clone()
        before = c.brisques
        c.apply_action(a)
        gain = [c.brisques[i] - before[i] for i in (0, 1)]
        if c.is_terminal() and c.rules.last_trick == "final":
            gain[c.last_trick_winner] += c.rules.last_trick_points
        v = gain[q] - gain[1 - q]
        if not c.is_terminal():
            rest = _minimax(c)
            v += rest if c.current_player() == q else -rest
        best = v if best is None else max(best, v)
    assert best is not None
    return best


@pytest.mark.parametrize(
    ("variant", "options"),
    [("bezique", {}), ("binocle", {}), ("bezique", {"last_trick": "stock"})],
)
def test_solver_equals_plain_minimax_on_random_end_positions(variant: str, options: dict[str, str]
                                                             ) -> None:
    rules = Rules.preset(variant, **options)
    for seed in range(30):
        s = _end_position(rules, seed, 4)
        res = solve(s)
        assert res.value == _minimax(s), (variant, seed)
        assert res.best in s.legal_action_strings()


def test_best_move_keeps_the_value() -> None:
    rules = Rules.preset("bezique")
    for seed in range(10):
        s = _end_position(rules, 100 + seed, 5)
        res = solve(s)
        q = s.current_player()
        c = s.clone()
        before = c.brisques
        c.apply(res.best)
        if c.is_terminal():
            continue
        gain = [c.brisques[i] - before[i] for i in (0, 1)]
        rest = solve(c).value
        total = gain[q] - gain[1 - q] + (rest if c.current_player() == q else -rest)
        assert total == res.value


def test_solver_from_observation_counts_the_other_hand() -> None:
    rules = Rules.preset("bezique")
    for seed in range(8):
        s = _end_position(rules, 200 + seed, 8)
        for seat in (0, 1):
            assert solve(s.observation(seat)).value == solve(s).value


def test_ace_wins_the_ten_then_trump_takes_the_last_trick() -> None:
    # hearts trumps: AS beats TS (20), then 7H beats 8C (+10 for the last trick)
    r = Rules.preset("bezique")
    c = parse_card
    res = solve_hands(r, 1, [c("AS"), c("7H")], [c("TS"), c("8C")])
    assert (res.best, res.value) == ("play AS", 30)
    # TS led against AS 8C, the leader keeping 7H: the ace must win (20); then 8C is led and
    # 7H trumps it for the last trick (10): 20 - 10
    res = solve_hands(r, 1, [c("AS"), c("8C")], [c("7H")], lead=c("TS"))
    assert (res.best, res.value) == ("play AS", 10)


def test_solver_refuses_positions_before_the_end_phase() -> None:
    s = State.new_deal(Rules.preset("bezique"), seed=1)
    with pytest.raises(BeziqueError, match="not in the end phase"):
        solve(s)


def test_node_budget_is_reported() -> None:
    s = _end_position(Rules.preset("binocle"), 3, 12)
    with pytest.raises(SolverBudgetError):
        solve(s, max_nodes=10)


def _record(tmp_path: Path, state: State) -> str:
    p = tmp_path / "r.json"
    p.write_text(json.dumps(game_record(state.rules, [state])), encoding="utf-8")
    return str(p)


def test_solve_command_prints_the_solution(tmp_path: Path) -> None:
    s = _end_position(Rules.preset("bezique"), 7, 8)
    path = _record(tmp_path, s)
    out = CliRunner().invoke(main, ["solve", path, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert set(data) == {"best", "value", "nodes", "ms"}
    res = solve(s)
    assert (data["best"], data["value"]) == (res.best, res.value)
    out = CliRunner().invoke(main, ["solve", path])
    assert out.exit_code == 0 and res.best in out.output


def test_solve_command_errors_are_one_line(tmp_path: Path) -> None:
    s = State.new_deal(Rules.preset("bezique"), seed=2)
    s.apply(s.legal_action_strings()[0])
    out = CliRunner().invoke(main, ["solve", _record(tmp_path, s)])
    assert out.exit_code == 2
    assert "not in the end phase" in out.output and out.output.count("\n") == 1
    out = CliRunner().invoke(main, ["solve", str(tmp_path / "missing.json"), "--json"])
    assert out.exit_code == 2 and out.output.count("\n") == 1
