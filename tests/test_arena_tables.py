"""The arena of three and four seats (bezique.arena_tables): every seating of the same cards,
per-agent and per-team results that add up, the JSON contract and one-line errors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from bezique import IllegalActionError, Observation, Rules
from bezique.agents import register_agent
from bezique.arena_tables import (
    TableMatchResult,
    deal_scores,
    play_table_match,
    ratio_interval,
    table_lineup,
)
from bezique.cli import main
from bezique.errors import OptionError
from bezique.record import load_record, replay

SEEN: list[dict[str, Any]] = []


class TableSpy:
    """Plays its first legal action and notes the first thing it sees of each deal."""

    name = "table-spy"

    def __init__(self, tag: str = "", seed: int | None = None) -> None:
        self.tag = tag
        self.noted = False

    def act(self, obs: Observation) -> str:
        if not self.noted:  # the first view of a deal: the hand is still the dealt hand
            SEEN.append({"tag": self.tag, "seat": obs.seat, "hand": obs.hand,
                         "turnup": obs.turnup, "dealer": obs.dealer})
            self.noted = True
        return obs.legal[0]


class First:
    """Always plays its first legal action: deterministic whatever its seed."""

    name = "first"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, obs: Observation) -> str:
        return obs.legal[0]


class Cheat3:
    """Answers an action that is never legal while trick play is on."""

    name = "cheat3"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, obs: Observation) -> str:
        return "meld QS JD" if obs.phase in ("lead", "follow") else obs.legal[0]


register_agent("table-spy", "test agent: first legal action, notes what it sees")(TableSpy)
register_agent("first", "test agent: always the first legal action")(First)
register_agent("cheat3", "test agent: illegal actions")(Cheat3)

B3 = Rules.preset("bezique3")
B4 = Rules.preset("bezique4")
B4_SOLO = Rules.preset("bezique4", partnership=False)


def _views(agents: list[str], rules: Rules, deals: int, seed: int) -> list[list[dict[str, Any]]]:
    """What each spy saw first, grouped by play (one deal in one seating), in order."""
    SEEN.clear()
    m = play_table_match(agents, rules, deals=deals, seed=seed)
    n = rules.nplayers
    assert len(SEEN) == m.plays * n
    return [SEEN[i * n:(i + 1) * n] for i in range(m.plays)]


# ---------------------------------------------------------------------- the same cards


def _seating_letters(play: list[dict[str, Any]]) -> str:
    """The agents' tags seat by seat, seat 0 first: ``"ABC"``."""
    by_seat = {v["seat"]: v["tag"] for v in play}
    return "".join(by_seat[s] for s in sorted(by_seat)).upper()


def test_three_agents_take_the_three_rotations_of_the_same_cards() -> None:
    plays = _views(["table-spy:tag=a", "table-spy:tag=b", "table-spy:tag=c"], B3, 6, seed=11)
    assert len(plays) == 6  # 2 deals x 3 seatings
    for s in range(2):
        sets = plays[3 * s:3 * s + 3]
        hands = [{v["seat"]: v["hand"] for v in play} for play in sets]
        # every seating deals every seat the same cards: the agents move, not the cards
        assert hands[0] == hands[1] == hands[2]
        assert len(hands[0]) == 3 and len(set(hands[0].values())) == 3
        assert len({v["turnup"] for play in sets for v in play}) == 1
        assert {v["dealer"] for play in sets for v in play} == {2}
        assert [_seating_letters(p) for p in sets] == ["ABC", "BCA", "CAB"]  # seat 0 first
        # so each agent held each seat's dealt hand exactly once
        for tag in "abc":
            held = [v["hand"] for play in sets for v in play if v["tag"] == tag]
            assert sorted(held) == sorted(hands[0].values())
    assert plays[0][0]["hand"] != plays[3][0]["hand"]  # another deal, other cards


def test_partnership_teams_swap_sides_and_every_agent_holds_every_seat() -> None:
    plays = _views(["table-spy:tag=a+table-spy:tag=b", "table-spy:tag=c+table-spy:tag=d"], B4,
                   4, seed=2)
    assert [_seating_letters(p) for p in plays] == ["ACBD", "CBDA", "BDAC", "DACB"]
    hands = [{v["seat"]: v["hand"] for v in play} for play in plays]
    assert all(h == hands[0] for h in hands)
    for play in plays:
        seat = {v["tag"]: v["seat"] for v in play}
        assert (seat["a"] - seat["b"]) % 4 == 2 and (seat["c"] - seat["d"]) % 4 == 2  # partners
    for tag in "abcd":
        assert sorted(v["seat"] for p in plays for v in p if v["tag"] == tag) == [0, 1, 2, 3]


def test_two_agents_in_partnership_are_two_teams_of_two() -> None:
    plays = _views(["table-spy:tag=a", "table-spy:tag=b"], B4, 4, seed=3)
    assert [_seating_letters(p) for p in plays] == ["ABAB", "BABA", "ABAB", "BABA"]
    for first, second in ((plays[0], plays[1]), (plays[2], plays[3])):
        assert ({v["seat"]: v["hand"] for v in first} == {v["seat"]: v["hand"] for v in second})


def test_two_agents_at_three_seats_each_sit_against_copies_of_the_other() -> None:
    plays = _views(["table-spy:tag=a", "table-spy:tag=b"], B3, 6, seed=4)
    assert [_seating_letters(p) for p in plays] == ["ABB", "BBA", "BAB", "BAA", "AAB", "ABA"]
    assert len({tuple(sorted((v["seat"], v["hand"]) for v in p)) for p in plays}) == 1
    for tag in "ab":
        seats = Counter(v["seat"] for p in plays for v in p if v["tag"] == tag)
        assert seats == {0: 3, 1: 3, 2: 3}  # every seat's cards equally often


@pytest.mark.parametrize(("agents", "rules", "seatings"), [
    (["x", "y", "z"], B3, ["ABC", "BCA", "CAB"]),
    (["x", "y"], B3, ["ABB", "BBA", "BAB", "BAA", "AAB", "ABA"]),
    (["w", "x", "y", "z"], B4_SOLO, ["ABCD", "BCDA", "CDAB", "DABC"]),
    (["x", "y"], B4_SOLO, ["ABBB", "BBBA", "BBAB", "BABB", "BAAA", "AAAB", "AABA", "ABAA"]),
    (["x", "y"], B4, ["ABAB", "BABA"]),
    (["w+x", "y+z"], B4, ["ACBD", "CBDA", "BDAC", "DACB"]),
    (["w+x", "y"], B4, ["ACBC", "CBCA", "BCAC", "CACB"]),
])
def test_every_lineup_balances_the_seats(agents: list[str], rules: Rules,
                                         seatings: list[str]) -> None:
    lu = table_lineup(agents, rules)
    assert [lu.label(s) for s in lu.seatings] == seatings
    n = rules.nplayers
    for e in range(len(lu.specs)):
        per_seat = Counter(s for seating in lu.seatings for s in range(n) if seating[s] == e)
        assert len(set(per_seat[s] for s in range(n))) == 1  # each seat equally often
    for members in lu.teams:
        for seating in lu.seatings:  # a team always holds one side: seats 0 & 2 or 1 & 3
            side = {s % 2 for s in range(4) if seating[s] in members}
            assert len(side) == 1


# ---------------------------------------------------------------------- results


def test_a_deterministic_agent_at_every_seat_ties_exactly() -> None:
    # the same agent in every seat plays the same cards the same way in every seating, so each
    # agent's results are exactly its share: the duplication cancels all the luck of the cards
    m = play_table_match(["first", "first", "first"], B3, deals=9, seed=5)
    stats = m.agent_stats()
    assert [s.score for s in stats] == pytest.approx([1 / 3] * 3)
    assert len({s.points_per_deal for s in stats}) == 1
    assert len({s.wins for s in stats}) == 1
    again = play_table_match(["first", "first", "first"], B3, deals=9, seed=5)
    assert again.sets == m.sets and again.to_json() == m.to_json()
    other = play_table_match(["first", "first", "first"], B3, deals=9, seed=6)
    assert other.sets != m.sets


def test_identical_seeds_give_identical_results_and_jobs_do_not_matter() -> None:
    one = play_table_match(["random", "first"], B3, deals=12, seed=9)
    again = play_table_match(["random", "first"], B3, deals=12, seed=9)
    two = play_table_match(["random", "first"], B3, deals=12, seed=9, jobs=2)
    assert one.sets == again.sets == two.sets
    assert one.to_json() == two.to_json()
    assert play_table_match(["random", "first"], B3, deals=12, seed=10).sets != one.sets


def test_individual_results_add_up() -> None:
    m = play_table_match(["random", "random:seed=1", "first"], B3, deals=12, seed=1)
    stats = m.agent_stats()
    assert m.plays == 12 and len(m.sets) == 4 and m.deals_played == 12
    assert sum(s.score for s in stats) == pytest.approx(1.0)  # one winner's worth a deal
    assert sum(s.wins for s in stats) <= m.plays
    for s in stats:
        assert s.plays == 12 and s.even == pytest.approx(1 / 3)
        lo, hi = s.score_ci95
        assert 0.0 <= lo <= s.score <= hi <= 1.0
        assert s.points_ci95 is not None and s.points_ci95[0] <= s.points_per_deal
    for ts in m.sets:
        for sr in ts.seatings:
            assert sum(sr.scores) == pytest.approx(1.0)
            best = max(sr.points)
            assert all((sc > 0) == (p == best) for sc, p in zip(sr.scores, sr.points,
                                                                  strict=True))
    every_point = sum(p for ts in m.sets for sr in ts.seatings for p in sr.points)
    assert sum(s.points_per_deal * m.deals_played for s in stats) == pytest.approx(every_point)


def test_partnership_results_add_up_by_side() -> None:
    m = play_table_match(["random+first", "random:seed=2+random:seed=3"], B4, deals=8, seed=3)
    agents, teams = m.agent_stats(), m.team_stats()
    assert [t.label for t in teams] == ["A+B", "C+D"]
    assert [t.spec for t in teams] == ["random+first", "random:seed=2+random:seed=3"]
    assert teams[0].score + teams[1].score == pytest.approx(1.0)
    assert teams[0].wins + teams[1].wins <= m.plays
    assert agents[0].score == agents[1].score == teams[0].score  # partners share the result
    assert teams[0].points_per_deal == pytest.approx(agents[0].points_per_deal
                                                     + agents[1].points_per_deal)
    for ts in m.sets:
        for sr in ts.seatings:
            assert sr.scores[0] == sr.scores[2] and sr.scores[1] == sr.scores[3]
            assert sr.scores[0] + sr.scores[1] == 1.0
            side = (sr.points[0] + sr.points[2], sr.points[1] + sr.points[3])
            assert (sr.scores[0] == 1.0) == (side[0] > side[1])


def test_whole_games_to_2000_have_one_winner_each() -> None:
    m = play_table_match(["random", "random", "random"], B3, games=3, seed=2)
    (ts,) = m.sets
    for sr in ts.seatings:
        assert sr.deals >= 1 and sorted(sr.scores) == [0.0, 0.0, 1.0]
    assert m.deals_played == sum(sr.deals for sr in ts.seatings)
    assert sum(s.wins for s in m.agent_stats()) == 3
    assert all(s.points_ci95 is None for s in m.agent_stats())  # one set proves nothing
    team = play_table_match(["random", "random"], B4, games=2, seed=2)
    for sr in team.sets[0].seatings:
        assert sorted(sr.scores) == [0.0, 0.0, 1.0, 1.0]


@given(st.lists(st.integers(min_value=0, max_value=60).map(lambda x: 10 * x), min_size=3,
                max_size=4))
def test_a_deal_gives_one_winners_worth_to_the_most_points(points: list[int]) -> None:
    rules = B3 if len(points) == 3 else B4_SOLO
    scores = deal_scores(rules, points)
    assert sum(scores) == pytest.approx(1.0)
    top = max(points)
    assert all(s == (1 / points.count(top) if p == top else 0.0)
               for s, p in zip(scores, points, strict=True))
    if len(points) == 4:  # a partnership: the sides' totals, shared by partners
        side = deal_scores(B4, points)
        assert side[0] == side[2] and side[1] == side[3] and side[0] + side[1] == 1.0


def test_ratio_interval_is_centred_on_the_ratio_and_needs_two_sets() -> None:
    assert ratio_interval([5.0], [1.0]) is None
    ci = ratio_interval([100.0, 140.0, 90.0, 130.0], [2.0, 2.0, 1.0, 1.0])
    assert ci is not None
    lo, hi = ci
    assert lo < 460 / 6 < hi and (lo + hi) / 2 == pytest.approx(460 / 6)


def test_saved_records_replay_to_the_reported_points(tmp_path: Path) -> None:
    m = play_table_match(["random", "first"], B4, deals=2, seed=1, save=tmp_path)
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["deal-0001-1.json", "deal-0001-2.json"]
    recs = [json.loads(f.read_text()) for f in files]
    assert recs[0]["players"] == ["random", "first", "random", "first"]
    assert recs[1]["players"] == ["first", "random", "first", "random"]
    for key in ("hands", "turnup", "stock", "dealer"):
        assert recs[0]["deals"][0][key] == recs[1]["deals"][0][key]
    for f, sr in zip(files, m.sets[0].seatings, strict=True):
        out = replay(load_record(f))
        assert out["deals"][0]["finished"]
        assert tuple(out["deals"][0]["scores"]) == sr.points
        assert out["game"]["scores"] == [sr.points[0] + sr.points[2], sr.points[1] + sr.points[3]]


def test_an_illegal_action_names_the_agent() -> None:
    with pytest.raises(IllegalActionError, match="agent 'cheat3'"):
        play_table_match(["random", "cheat3"], B3, deals=1)


def test_two_seat_variants_and_bad_tables_are_refused() -> None:
    with pytest.raises(OptionError, match="bezique is played by two"):
        table_lineup(["a", "b", "c"], Rules.preset("bezique"))
    with pytest.raises(OptionError, match="teams"):
        table_lineup(["a+b", "c+d"], B4_SOLO)
    assert isinstance(play_table_match(["random"] * 4, B4_SOLO, deals=1), TableMatchResult)


# ---------------------------------------------------------------------- the command


def test_arena_json_for_a_table_has_the_documented_keys() -> None:
    r = CliRunner().invoke(main, ["arena", "random", "first", "random", "--variant", "bezique3",
                                  "--deals", "6", "--seed", "2", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert list(out) == ["variant", "mode", "seed", "games", "sets", "deals_played", "seatings",
                         "agents"]
    assert (out["variant"], out["mode"], out["games"], out["sets"]) == ("bezique3", "deals", 6, 2)
    assert out["seatings"] == ["ABC", "BCA", "CAB"]
    assert [a["agent"] for a in out["agents"]] == ["random", "first", "random"]
    for a in out["agents"]:
        assert list(a) == ["label", "agent", "plays", "wins", "score", "score_ci95", "even",
                           "points_per_deal", "points_ci95"]
        assert a["score_ci95"][0] <= a["score"] <= a["score_ci95"][1]
    r = CliRunner().invoke(main, ["arena", "random+first", "random", "--variant", "bezique4",
                                  "--deals", "4", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert [t["label"] for t in out["teams"]] == ["A+B", "C+C"]
    assert out["teams"][0]["agent"] == "random+first"
    assert out["agents"][0]["points_ci95"] is None  # one set: no interval


def test_arena_text_report_has_the_seatings_agents_and_teams() -> None:
    r = CliRunner().invoke(main, ["arena", "random", "first", "--variant", "bezique4",
                                  "--deals", "4"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == ("random vs first: 4 deals (2 duplicated deals x 2 seatings), bezique4, "
                        "partnership, seed 0")
    assert lines[1] == "seatings (seat 0 first): ABAB BABA"
    assert [ln.split()[:2] for ln in lines[3:7]] == [["A", "random"], ["B", "first"],
                                                      ["team", "A+A"], ["team", "B+B"]]


@pytest.mark.parametrize("args", [
    ["arena", "random", "random", "random"],
    ["arena", "random+random", "random"],
    ["arena", "random+random", "random", "--variant", "bezique3"],
    ["arena", "random", "random", "random", "random", "--variant", "bezique3"],
    ["arena", "random", "random", "random", "--variant", "bezique4"],
    ["arena", "random", "random", "random", "--variant", "bezique4", "-o", "partnership=false"],
    ["arena", "random+random+random", "random", "--variant", "bezique4"],
    ["arena", "random+", "random", "--variant", "bezique4"],
    ["arena", "random", "nosuch", "--variant", "bezique3", "--deals", "3"],
    ["arena", "random", "cheat3", "--variant", "bezique3", "--deals", "3"],
    ["arena", "random", "random", "--variant", "bezique3", "--deals", "0"],
    ["tournament", "random", "random:seed=1", "--variant", "bezique4"],
])
def test_bad_tables_are_one_line_and_status_2(args: list[str]) -> None:
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2
    assert "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1 and r.output.startswith("bezique: error: ")
