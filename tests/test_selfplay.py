"""Self-play data: ``bezique selfplay`` writes Parquet read back by one pyarrow call, and its
rows (observation, legal mask, action) replay the game records stored with them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bezique import Rules
from bezique.cli import main
from bezique.encoding import (
    NUM_ACTIONS,
    OBS_SIZE,
    action_index,
    action_mask,
    encode_observation,
    spec,
)
from bezique.errors import BeziqueError
from bezique.record import parse_record
from bezique.selfplay import play_selfplay, read_records

pq = pytest.importorskip("pyarrow.parquet", reason="self-play data needs the research extra")


def test_selfplay_file_rows_replay_the_records(tmp_path: Path) -> None:
    path = tmp_path / "sp.parquet"
    res = CliRunner().invoke(main, ["selfplay", "heuristic", "random", "--games", "2",
                                    "--seed", "5", "--out", str(path)])
    assert res.exit_code == 0, res.output
    table = pq.read_table(path)  # the documented one-line read
    rows = table.to_pylist()
    assert res.output.startswith(f"{path}: {len(rows)} decisions of 2 games")
    records = read_records(path)
    assert [r["players"] for r in records] == [["heuristic", "random"], ["random", "heuristic"]]
    checked = 0
    for g, data in enumerate(records):
        rec = parse_record(data)
        totals = None
        for d, deal in enumerate(rec.deals):
            state = rec.start(d, totals)
            mine = [r for r in rows if r["game"] == g and r["deal"] == d]
            assert [r["action_text"] for r in mine] == list(deal.actions)
            for step, row in enumerate(mine):
                seat = state.current_player()
                obs = state.observation(seat)
                assert (row["step"], row["seat"]) == (step, seat)
                assert row["agent"] == data["players"][seat]
                assert row["observation"] == pytest.approx(encode_observation(obs))
                assert row["legal_mask"] == action_mask(obs)
                assert row["legal_mask"][row["action"]] == 1
                assert row["action"] == action_index(obs, row["action_text"])
                state.apply(row["action_text"])
                checked += 1
            assert state.is_terminal()
            s = state.scores
            assert {r["deal_return"] for r in mine if r["seat"] == 0} == {float(s[0] - s[1])}
            totals = state.game_scores
    assert checked == len(rows)
    assert len(rows[0]["observation"]) == OBS_SIZE and len(rows[0]["legal_mask"]) == NUM_ACTIONS
    assert {r["settled"] for r in rows} == {None}  # settled values are the one-deal games'


@pytest.mark.parametrize("variant", ["rubicon", "sixpack"])
def test_the_one_deal_games_are_written_with_their_settled_values(tmp_path: Path,
                                                                  variant: str) -> None:
    """Rubicon and Six-pack self-play: their own vector sizes, and each row's settled value
    (RULES.md 9.0.7) is the deal's settlement from that seat's side."""
    path = tmp_path / "sp.parquet"
    res = CliRunner().invoke(main, ["selfplay", "heuristic", "random", "--deals", "2",
                                    "--variant", variant, "--seed", "2", "--out", str(path)])
    assert res.exit_code == 0, res.output
    rows = pq.read_table(path).to_pylist()
    sp = spec(Rules.preset(variant))
    assert {len(r["observation"]) for r in rows} == {sp.obs_size}
    assert {len(r["legal_mask"]) for r in rows} == {sp.num_actions}
    for g, data in enumerate(read_records(path)):
        state = parse_record(data).start(0, None)
        mine = [r for r in rows if r["game"] == g]
        for row in mine:
            assert row["action"] == action_index(state.observation(row["seat"]),
                                                 row["action_text"])
            state.apply(row["action_text"])
        res_ = state.settlement()
        assert res_.winner >= 0 and res_.value >= 100
        for row in mine:
            won = row["seat"] == res_.winner
            assert row["settled"] == (res_.value if won else -res_.value)
        assert {r["settled"] for r in mine if r["agent"] == "heuristic"} == {res_.value}


def test_selfplay_is_reproducible_from_its_seed() -> None:
    rules = Rules.preset("binocle")
    a = play_selfplay("heuristic", "random", rules, deals=2, seed=3)
    b = play_selfplay("heuristic", "random", rules, deals=2, seed=3)
    assert a.columns == b.columns and a.records == b.records
    assert a.columns["deal"] == [0] * a.decisions


@pytest.mark.parametrize("args, message", [
    (["random", "random", "--out", "x.parquet"], "give --games N or --deals N"),
    (["random", "nosuch", "--deals", "1", "--out", "x.parquet"], "unknown agent 'nosuch'"),
    (["random", "random", "--deals", "1", "--variant", "bezique3", "--out", "x.parquet"],
     "play the two-handed games (bezique, binocle, rubicon, sixpack, eightpack), not bezique3"),
    (["random", "random", "--deals", "1", "--out", "{tmp}/afile/x.parquet"],
     "cannot write {tmp}/afile/x.parquet"),
])
def test_bad_selfplay_input_is_one_line_and_status_2(args: list[str], message: str,
                                                     tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("a file, not a folder")
    args = [a.format(tmp=tmp_path) for a in args]
    message = message.format(tmp=tmp_path)
    res = CliRunner().invoke(main, ["selfplay", *args])
    assert res.exit_code == 2
    assert res.output.startswith("bezique: error: ") and res.output.count("\n") == 1
    assert message in res.output


def test_without_pyarrow_selfplay_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    res = CliRunner().invoke(main, ["selfplay", "random", "random", "--deals", "1",
                                    "--out", str(tmp_path / "x.parquet")])
    assert res.exit_code == 2
    assert "needs pyarrow" in res.output and "bezique[research]" in res.output
    with pytest.raises(BeziqueError, match="needs pyarrow"):
        read_records(tmp_path / "x.parquet")


def test_a_file_that_is_not_selfplay_data_is_refused(tmp_path: Path) -> None:
    import pyarrow as pa

    path = tmp_path / "other.parquet"
    pq.write_table(pa.table({"x": [1]}), path)
    with pytest.raises(BeziqueError, match="not a bezique self-play file"):
        read_records(path)
