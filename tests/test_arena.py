"""The arena: duplicate pairing, Elo arithmetic, the JSON contract, jobs, saved records."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bezique import IllegalActionError, Observation, Rules
from bezique.agents import register_agent
from bezique.arena import (
    Z95,
    HalfResult,
    MatchResult,
    PairResult,
    elo_from_score,
    run_match,
    score_interval,
)
from bezique.cli import main
from bezique.record import load_record, replay

SEEN: list[dict[str, Any]] = []


class Spy:
    """Plays the first legal action and notes the first thing it sees of each deal."""

    name = "spy"

    def __init__(self, tag: str = "", seed: int | None = None) -> None:
        self.tag = tag
        self.noted = False

    def act(self, obs: Observation) -> str:
        if not self.noted:  # the first view of a deal: the hand is still the dealt hand
            SEEN.append({"tag": self.tag, "seat": obs.seat, "hand": obs.hand,
                         "turnup": obs.turnup, "dealer": obs.dealer})
            self.noted = True
        return obs.legal[0]


class Cheat:
    """Answers an action that is never legal while trick play is on."""

    name = "cheat"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, obs: Observation) -> str:
        return "meld QS JD" if obs.phase in ("lead", "follow") else obs.legal[0]


register_agent("spy", "test agent: first legal action, notes what it sees")(Spy)
register_agent("cheat", "test agent: illegal actions")(Cheat)

RULES = Rules.preset("bezique")


def _pair(i: int, a: float, b: float) -> PairResult:
    return PairResult(i, (HalfResult(a, (100, 50), 1), HalfResult(b, (60, 90), 1)))


# ---------------------------------------------------------------------- duplicate pairing


def test_each_deal_is_played_by_both_agents_in_both_seats_with_the_same_cards() -> None:
    SEEN.clear()
    m = run_match("spy:tag=a", "spy:tag=b", RULES, deals=6, seed=11)
    assert m.games == 6 and len(m.pairs) == 3
    assert len(SEEN) == 12  # 3 pairs x 2 halves x 2 agents
    for p in range(3):
        half1, half2 = SEEN[4 * p : 4 * p + 2], SEEN[4 * p + 2 : 4 * p + 4]
        by1 = {v["tag"]: v for v in half1}
        by2 = {v["tag"]: v for v in half2}
        # A sits in seat 0 first, then in seat 1; B the other way round
        assert (by1["a"]["seat"], by1["b"]["seat"]) == (0, 1)
        assert (by2["a"]["seat"], by2["b"]["seat"]) == (1, 0)
        # whoever sits in a seat gets that seat's cards: the same in both halves
        assert by1["a"]["hand"] == by2["b"]["hand"]
        assert by1["b"]["hand"] == by2["a"]["hand"]
        assert by1["a"]["turnup"] == by2["a"]["turnup"] == by1["b"]["turnup"]
        assert by1["a"]["dealer"] == by2["a"]["dealer"]
    hands = {SEEN[4 * p]["hand"] for p in range(3)}
    assert len(hands) == 3  # different pairs get different deals


def test_identical_agents_tie_every_pair_exactly() -> None:
    # A deterministic agent against itself plays the same deal twice, seats swapped: whatever
    # seat 0 scores in one half, the other agent scores in the other.
    m = run_match("spy", "spy", RULES, deals=8, seed=3)
    assert all(p.score == 0.5 for p in m.pairs)
    assert m.wins[0] == m.wins[1]
    assert m.points_per_deal[0] == m.points_per_deal[1]
    assert m.elo == 0.0
    lo, hi = m.elo_ci95
    assert lo < 0 < hi or lo == hi == 0.0


def test_games_pair_up_whole_games_with_the_same_deals() -> None:
    rules = Rules.preset("bezique", target=400)
    m = run_match("spy", "spy", rules, games=2, seed=5)
    half1, half2 = m.pairs[0].halves
    assert half1.deals == half2.deals >= 1
    assert half1.score + half2.score == 1.0  # games are never drawn; the same agent wins both
    assert half1.points == half2.points[::-1]


# ---------------------------------------------------------------------- Elo arithmetic


def test_elo_of_a_75_percent_score_is_400_log10_3() -> None:
    assert elo_from_score(0.75, 1000) == pytest.approx(400 * math.log10(3))
    assert round(elo_from_score(0.75, 1000), 1) == 190.8
    assert elo_from_score(0.5, 10) == 0.0
    assert elo_from_score(0.25, 1000) == pytest.approx(-elo_from_score(0.75, 1000))


def test_elo_at_0_and_100_percent_is_finite_by_clamping_half_a_result() -> None:
    # 100% of 20 results is clamped to 39/40: 400 log10(39)
    assert elo_from_score(1.0, 20) == pytest.approx(400 * math.log10(39))
    assert elo_from_score(0.0, 20) == pytest.approx(-400 * math.log10(39))


def test_score_interval_is_wilson_for_single_results() -> None:
    scores = [1.0] * 15 + [0.0] * 5
    n, p, z = 20, 0.75, Z95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    lo, hi = score_interval(scores)
    assert lo == pytest.approx(centre - half) and hi == pytest.approx(centre + half)


def test_score_interval_at_100_percent_has_width() -> None:
    lo, hi = score_interval([1.0] * 20)
    assert hi == 1.0
    assert lo == pytest.approx(20 / (20 + Z95 * Z95))  # Wilson's lower end at p = 1


def test_duplicate_pairs_with_less_spread_give_a_narrower_interval() -> None:
    # the same 75% score: as 0/1 results, or as pairs of 1 and 0.5
    wide = score_interval([1.0, 1.0, 1.0, 0.0] * 10)
    narrow = score_interval([1.0, 0.5] * 20)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def test_match_result_counts_and_elo_from_pairs() -> None:
    m = MatchResult(("a", "b"), "deals", 0, [_pair(0, 1.0, 1.0), _pair(1, 1.0, 0.0)])
    assert m.games == 4 and m.wins == (3, 1) and m.draws == 0
    assert m.score == 0.75
    assert round(m.elo, 1) == 190.8
    assert m.points_per_deal == (80.0, 70.0)
    lo, hi = m.elo_ci95
    assert lo < m.elo < hi
    slo, shi = m.score_ci95
    assert slo < m.score < shi
    # the Elo interval is the score interval's ends as Elo
    assert (lo, hi) == (elo_from_score(slo, 4), elo_from_score(shi, 4))
    out = m.to_json()
    assert out == {"games": 4, "wins": [3, 1], "points_per_deal": [80.0, 70.0],
                   "score": 0.75, "score_ci95": [round(slo, 4), round(shi, 4)],
                   "elo": 190.8, "elo_ci95": [round(lo, 1), round(hi, 1)]}


# ---------------------------------------------------------------------- the command


def test_arena_json_has_exactly_the_documented_keys() -> None:
    r = CliRunner().invoke(main, ["arena", "random", "spy", "--deals", "6", "--seed", "2",
                                  "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert list(out) == ["games", "wins", "points_per_deal", "score", "score_ci95", "elo",
                         "elo_ci95"]
    assert out["games"] == 6
    assert sum(out["wins"]) <= 6
    assert len(out["points_per_deal"]) == 2 and len(out["elo_ci95"]) == 2
    lo, hi = out["elo_ci95"]
    assert lo <= out["elo"] <= hi
    slo, shi = out["score_ci95"]
    assert 0.0 <= slo <= out["score"] <= shi <= 1.0


def test_arena_text_report_names_both_agents() -> None:
    r = CliRunner().invoke(main, ["arena", "random", "spy", "--deals", "2"])
    assert r.exit_code == 0, r.output
    assert "random" in r.output and "spy" in r.output and "Elo" in r.output


def test_arena_text_report_shows_the_score_and_its_interval_as_the_json_does() -> None:
    args = ["arena", "random", "heuristic", "--deals", "8", "--seed", "3"]
    text = CliRunner().invoke(main, args)
    data = json.loads(CliRunner().invoke(main, [*args, "--json"]).output)
    assert text.exit_code == 0, text.output
    slo, shi = data["score_ci95"]
    assert (f"score {100 * data['score']:.1f}% for A (95% interval {100 * slo:.1f}% to "
            f"{100 * shi:.1f}%)") in text.output


@pytest.mark.parametrize(
    "args",
    [
        ["arena", "random", "nosuch", "--deals", "2"],
        ["arena", "random", "random", "--deals", "2", "--games", "2"],
        ["arena", "random", "random", "--deals", "0"],
        ["arena", "random", "random", "--deals", "2", "-o", "target=lots"],
        ["arena", "random", "random", "--deals", "2", "--jobs", "0"],
        ["arena", "random", "cheat", "--deals", "2"],
    ],
)
def test_arena_errors_are_one_line_and_status_2(args: list[str]) -> None:
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2
    assert "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_an_illegal_agent_action_names_the_agent() -> None:
    with pytest.raises(IllegalActionError, match="agent 'cheat'"):
        run_match("random", "cheat", RULES, deals=2)


def test_results_do_not_depend_on_the_number_of_jobs() -> None:
    one = run_match("random", "random:seed=4", RULES, deals=6, seed=9, jobs=1)
    two = run_match("random", "random:seed=4", RULES, deals=6, seed=9, jobs=2)
    assert one.to_json() == two.to_json()
    assert [p.halves for p in one.pairs] == [p.halves for p in two.pairs]
    other = run_match("random", "random:seed=4", RULES, deals=6, seed=10, jobs=1)
    assert [p.halves for p in other.pairs] != [p.halves for p in one.pairs]


def test_saved_records_replay_to_the_reported_results(tmp_path: Path) -> None:
    rules = Rules.preset("bezique", target=400)
    m = run_match("random", "spy", rules, games=2, seed=1, jobs=2, save=tmp_path)
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["game-0001-1.json", "game-0001-2.json"]
    recs = [json.loads(f.read_text()) for f in files]
    assert recs[0]["players"] == ["random", "spy"] and recs[1]["players"] == ["spy", "random"]
    first = [r["deals"][0] for r in recs]
    for key in ("hands", "turnup", "stock", "dealer"):
        assert first[0][key] == first[1][key]
    for f, half in zip(files, m.pairs[0].halves, strict=True):
        out = replay(load_record(f))
        assert all(st["ok"] for d in out["deals"] for st in d["steps"])
        assert all(d["finished"] for d in out["deals"])
        assert len(out["deals"]) == half.deals
        seat_a = 0 if f.name.endswith("-1.json") else 1
        assert (out["game"]["winner"] == seat_a) == (half.score == 1.0)
        assert out["game"]["scores"][seat_a] == half.points[0]


def test_arena_save_from_the_command(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["arena", "random", "random", "--deals", "2", "--json",
                                  "--save", str(tmp_path / "recs")])
    assert r.exit_code == 0, r.output
    files = sorted((tmp_path / "recs").iterdir())
    assert [f.name for f in files] == ["deal-0001-1.json", "deal-0001-2.json"]
    for f in files:
        out = replay(load_record(f))
        assert out["deals"][0]["finished"]
