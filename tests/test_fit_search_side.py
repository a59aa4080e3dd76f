"""``benchmarks/fit_search_side.py``: the search's side and the heuristic's, fitted on records."""

from __future__ import annotations

import json
import random
import tarfile
from pathlib import Path

import pytest
from helpers import benchmark

from bezique import Rules, State
from bezique.agents.evaluation import SEARCH_WEIGHTS, VARIANT_WEIGHTS
from bezique.agents.heuristic import HeuristicPolicy
from bezique.record import game_record, parse_record
from bezique.state import LEAD


def _save(folder: Path, deals: int, players: tuple[str, str]) -> None:
    """Rubicon deals played by the heuristic against a random mover, saved as an arena saves
    them, under the names ``players`` (the script reads only the names and the moves)."""
    rules = Rules.preset("rubicon")
    folder.mkdir()
    policy = HeuristicPolicy()
    for n in range(deals):
        state = parse_record(game_record(rules, [State.new_deal(rules, seed=n)])).start(0)
        rng = random.Random(n)
        while not state.is_terminal():
            a = policy.choose(state) if state.current_player() == n % 2 else rng.choice(
                state.legal_actions())
            state.apply(state.action_to_string(a))
        data = game_record(rules, [state])
        data["players"] = list(players) if n % 2 == 0 else [players[1], players[0]]
        (folder / f"deal-{n // 2 + 1:04d}-{n % 2 + 1}.json").write_text(json.dumps(data))


def test_the_halves_read_and_the_rows_they_give(tmp_path: Path) -> None:
    tool = benchmark("fit_search_side")
    _save(tmp_path / "a", 4, ("search:samples=9@x", "heuristic"))
    _save(tmp_path / "b", 2, ("random", "heuristic"))
    with tarfile.open(tmp_path / "a.tar.gz", "w:gz") as tar:
        tar.add(tmp_path / "a", arcname="a")
    # a folder and its archive read alike; halves not of the search against the heuristic
    # are left out
    from_folder = list(tool.records([str(tmp_path / "a")]))
    from_tar = list(tool.records([str(tmp_path / "a.tar.gz")]))
    assert [d for _, d in from_folder] == [d for _, d in from_tar]
    assert [tool.half_of(n, d, "rubicon") for n, d in tool.records([str(tmp_path / "b")])] == [
        None, None]
    assert all(tool.half_of(n, d, "sixpack") is None for n, d in from_folder)
    halves = [tool.half_of(n, d, "rubicon") for n, d in from_folder]
    assert [(h[0], h[3]) for h in halves] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    for (_name, data), (_n, leads, final, _me) in zip(from_folder, halves, strict=True):
        state = parse_record(data).start(0)
        count = 0
        for text in data["deals"][0]["actions"]:
            count += state.phase_id == LEAD and not state.end_phase
            state.apply(text)
        assert len(leads) == count and final == tuple(state.scores)
        assert all(0.0 <= left <= 1.0 for left, *_ in leads)
    # one row a lead for each side; what the side still wins, from its own seat
    for searcher in (True, False):
        xs, ys = tool.design(halves, searcher)
        assert len(xs) == len(ys) == sum(len(h[1]) for h in halves)
        _n, leads, final, me = halves[1]
        side = me if searcher else 1 - me
        start = len(halves[0][1])
        assert ys[start] == final[side] - leads[0][1][side]
        own = leads[0][2] if side == 0 else leads[0][3]
        assert xs[start][1:1 + len(own)] == own


def test_the_fitted_tuples_are_written_in_place(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    tool = benchmark("fit_search_side")
    module = Path(tool.MODULE)
    copy = tmp_path / "evaluation.py"
    copy.write_text(module.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(tool, "MODULE", copy)
    mine = tuple(float(i) for i in range(len(VARIANT_WEIGHTS["rubicon"])))
    theirs = tuple(-x for x in mine)
    tool.write("rubicon", (mine, theirs))
    space: dict[str, object] = {}
    text = copy.read_text(encoding="utf-8")
    block = text[text.index("SEARCH_WEIGHTS:"):text.index("# fitted by benchmarks/fit_search_"
                                                              "side.py -- end")]
    exec(block, space)  # the block alone is valid Python
    assert space["SEARCH_WEIGHTS"] == {"rubicon": (mine, theirs)}
    # everything outside the block is as it was
    original = module.read_text(encoding="utf-8")
    assert text[:text.index("SEARCH_WEIGHTS:")] == original[:original.index("SEARCH_WEIGHTS:")]
    end = "# fitted by benchmarks/fit_search_side.py -- end"
    assert text[text.index(end):] == original[original.index(end):]
    assert SEARCH_WEIGHTS["rubicon"][0] != mine
