"""The exact end-phase solver (RULES.md 2.4): equal to a plain minimax, and its command."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from bezique import Rules, State
from bezique.agents.endgame import solve, solve_hands
from bezique.agents.solver import EndSolver, SolverBudgetError
from bezique.agents.solver_tables import hand_mask
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


def test_solve_refuses_a_table_of_three_or_four(tmp_path: Path) -> None:
    # the solver plays one hand against one: at a table it would answer for the wrong game
    for preset in ("bezique3", "bezique4"):
        s = _end_position(Rules.preset(preset), 3, 6)
        out = CliRunner().invoke(main, ["solve", _record(tmp_path, s)])
        assert out.exit_code == 2 and out.output.count("\n") == 1, out.output
        assert f"two-handed deals only, not {preset}" in out.output
        with pytest.raises(BeziqueError, match="two-handed"):
            solve(s.observation(s.current_player()))


# ---------------------------------------------------------------- against a plain minimax on hands


def _plain_legal(rules: Rules, trump: int, hand: list[int], led: int | None) -> list[int]:
    """The cards ``hand`` may play (RULES.md 2.4), written as plainly as possible."""
    if led is None:
        return sorted(set(hand))
    same = [c for c in hand if c // 8 == led // 8]
    if same:
        higher = [c for c in same if c % 8 < led % 8]
        return sorted(set(higher or same))
    trumps = [c for c in hand if c // 8 == trump]
    return sorted(set(trumps or hand))


def _plain_beats(trump: int, led: int, c: int) -> bool:
    if c // 8 == led // 8:
        return c % 8 < led % 8
    return c // 8 == trump


def _plain_value(rules: Rules, trump: int, me: list[int], opp: list[int], led: int | None) -> int:
    """Points still to win by the player to act (holding ``me``) less the other's, by trying
    every card of every trick; ``led`` is the card the other has led, or None."""
    bonus = rules.last_trick_points if rules.last_trick == "final" else 0
    best: int | None = None
    for c in _plain_legal(rules, trump, me, led):
        rest = list(me)
        rest.remove(c)
        if led is None:
            v = -_plain_value(rules, trump, opp, rest, c)
        else:
            p = rules.card_points[led % 8] + rules.card_points[c % 8] + (0 if rest else bonus)
            if _plain_beats(trump, led, c):
                v = p + (_plain_value(rules, trump, rest, opp, None) if rest else 0)
            else:
                v = -p - (_plain_value(rules, trump, opp, rest, None) if rest else 0)
        if best is None or v > best:
            best = v
    assert best is not None
    return best


def _deck(rules: Rules) -> list[int]:
    return [s * 8 + r for s in range(4) for r in rules.ranks] * rules.copies


_PRESETS = [("bezique", {}), ("binocle", {}), ("bezique", {"last_trick": "stock"})]


@settings(max_examples=300, deadline=None)
@given(preset=st.sampled_from(_PRESETS), trump=st.integers(0, 3), n=st.integers(1, 4),
       led=st.booleans(), data=st.data())
def test_solver_equals_plain_minimax_on_hands(preset: tuple[str, dict[str, str]], trump: int,
                                              n: int, led: bool, data: st.DataObject) -> None:
    """Random hands of up to four cards each (a card led or not), classic and Binocle: the
    solver's value is the plain minimax's, and its best card reaches that value."""
    rules = Rules.preset(preset[0], **preset[1])
    cards = data.draw(st.permutations(_deck(rules)))
    mover, other = cards[:n], cards[n:2 * n]
    lead = -1
    if led:
        lead, other = other[0], other[1:]
    want = _plain_value(rules, trump, mover, other, lead if led else None)
    res = solve_hands(rules, trump, mover, other, lead)
    assert res.value == want
    # the best card keeps the value
    best = parse_card(res.best.split()[1])
    rest = list(mover)
    rest.remove(best)
    if led:
        p = (rules.card_points[lead % 8] + rules.card_points[best % 8]
             + (0 if rest else (rules.last_trick_points if rules.last_trick == "final" else 0)))
        if _plain_beats(trump, lead, best):
            v = p + (_plain_value(rules, trump, rest, other, None) if rest else 0)
        else:
            v = -p - (_plain_value(rules, trump, other, rest, None) if rest else 0)
    else:
        v = -_plain_value(rules, trump, other, rest, best)
    assert v == want


@pytest.mark.parametrize(("variant", "n"), [("bezique", 5), ("binocle", 5), ("binocle", 4)])
def test_solver_equals_plain_minimax_on_seeded_deals(variant: str, n: int) -> None:
    """Seeded deals of five cards each, both leading and following; also the search with any
    window is a correct fail-soft bound, and a solver reused across positions (its table kept,
    as the search agent's rollouts do) gives the same values."""
    rules = Rules.preset(variant)
    deck = _deck(rules)
    shared = {t: EndSolver(rules, t) for t in range(4)}
    for seed in range(12):
        rng = random.Random(seed)
        rng.shuffle(deck)
        trump = seed % 4
        mover, other = deck[:n], deck[n:2 * n]
        lead = -1 if seed % 3 else other.pop()
        want = _plain_value(rules, trump, mover, other, None if lead < 0 else lead)
        assert solve_hands(rules, trump, mover, other, lead).value == want, (variant, seed)
        s = shared[trump]
        me, opp = hand_mask(mover, rules.copies), hand_mask(other, rules.copies)
        assert s.search(me, opp, lead, -(1 << 30), 1 << 30) == want
        for a, b in ((want - 7, want + 3), (want - 1, want), (want, want + 1),
                     (want + 2, want + 9)):
            g = EndSolver(rules, trump).search(me, opp, lead, a, b)
            if g <= a:
                assert want <= g
            elif g >= b:
                assert want >= g
            else:
                assert g == want


def test_best_move_is_the_first_of_equal_value_in_the_fixed_order() -> None:
    """Ties are broken as the first version of the solver did: the first card, in the fixed
    order of ``_order_lead`` / ``_order_follow``, of the best value (the agents' pinned
    decisions rely on it)."""
    for variant in ("bezique", "binocle"):
        rules = Rules.preset(variant)
        deck = _deck(rules)
        for seed in range(40):
            rng = random.Random(1000 + seed)
            rng.shuffle(deck)
            trump = seed % 4
            n = 3 + seed % 2
            mover, other = deck[:n], deck[n:2 * n]
            lead = -1 if seed % 2 else other.pop()
            s = EndSolver(rules, trump)
            me, opp = hand_mask(mover, rules.copies), hand_mask(other, rules.copies)
            if lead < 0:
                order = s._order_lead(me, opp, -1)
            else:
                order = s._order_follow(s._reps_of(s._follow_allow(me & 0xFFFFFFFF, lead),
                                                   (opp & 0xFFFFFFFF) | (1 << lead)), lead, -1)
            values = []
            for c in order:
                rest = list(mover)
                rest.remove(c)
                if lead < 0:
                    v = -_plain_value(rules, trump, other, rest, c)
                else:
                    p = rules.card_points[lead % 8] + rules.card_points[c % 8] + (
                        0 if rest else rules.last_trick_points)
                    if _plain_beats(trump, lead, c):
                        v = p + (_plain_value(rules, trump, rest, other, None) if rest else 0)
                    else:
                        v = -p - (_plain_value(rules, trump, other, rest, None) if rest else 0)
                values.append(v)
            first = order[values.index(max(values))]
            assert s.best_move(me, opp, lead) == (first, max(values)), (variant, seed)
