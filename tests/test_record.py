"""Game records and ``bezique replay`` (RULES.md 8): the JSON contract, refused actions, several
deals, the readable account, and one-line errors (exit status 2) for bad records."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bezique import Rules, State
from bezique.cards import card_name
from bezique.cli import main
from bezique.errors import RecordError
from bezique.game import Game
from bezique.record import game_record, load_record, parse_record

BEZIQUE = Rules.preset("bezique")

HAND0 = ["AS", "KS", "QS", "7H", "8C", "8C", "9C", "9C"]
HAND1 = ["JD", "7S", "8D", "8D", "9D", "9D", "8S", "8S"]
TURNUP = "8H"


def rest_of_pack(rules: Rules, used: list[str]) -> list[str]:
    left = Counter(card_name(p) for p in rules.deck)
    left.subtract(used)
    assert min(left.values()) >= 0
    return sorted(left.elements())


def small_record(actions: list[str]) -> dict[str, Any]:
    """Player 1 deals; player 0 holds A♠ K♠ Q♠ 7♥; trumps are hearts (turn-up 8♥)."""
    stock = rest_of_pack(BEZIQUE, [*HAND0, *HAND1, TURNUP])
    return {
        "variant": "bezique",
        "options": {},
        "deals": [
            {"dealer": 1, "hands": [HAND0, HAND1], "turnup": TURNUP, "stock": stock,
             "actions": actions}
        ],
    }


ACTIONS = [
    "play AS",  # player 0 leads
    "play 7S",  # player 1 follows low: the ace wins
    "meld QS JD",  # refused: player 0 holds no J♦
    "meld QS KS",  # common marriage (spades are not trumps): 20
    "seven",  # the 7♥ declared: 10, and it does not use up the meld
    "pass",  # player 0 draws, then player 1
    "play KS*",  # player 0 leads the shown king
]


def write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def replay_json(tmp_path: Path, data: Any, *flags: str) -> dict[str, Any]:
    result = run("replay", str(write(tmp_path, data)), "--json", *flags)
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


# ---------------------------------------------------------------------------- the JSON contract


def test_replay_json_steps_and_refused_action(tmp_path: Path) -> None:
    out = replay_json(tmp_path, small_record(ACTIONS))
    assert set(out) == {"deals", "game"}
    (deal,) = out["deals"]
    assert set(deal) == {"steps", "finished", "scores", "brisques", "last_trick"}
    steps = deal["steps"]
    assert [s["action"] for s in steps] == ACTIONS
    assert [s["player"] for s in steps] == [0, 1, 0, 0, 0, 0, 0]
    ok = [s for i, s in enumerate(steps) if i != 2]
    assert all(s["ok"] is True and set(s) == {"player", "action", "ok", "scores"} for s in ok)
    refused = steps[2]
    assert refused["ok"] is False and set(refused) == {"player", "action", "ok", "error"}
    assert "J♦" in refused["error"]
    assert [s.get("scores") for s in steps] == [
        [0, 0], [0, 0], None, [20, 0], [30, 0], [30, 0], [30, 0]
    ]
    assert deal["finished"] is False and deal["last_trick"] is None
    assert deal["brisques"] == [10, 0]  # the A♠ in player 0's trick
    assert out["game"] == {"scores": [30, 0], "winner": None}


def test_refused_action_has_no_effect(tmp_path: Path) -> None:
    with_refusal = replay_json(tmp_path, small_record(ACTIONS))
    without = replay_json(tmp_path, small_record([a for a in ACTIONS if a != "meld QS JD"]))
    steps = [s for s in with_refusal["deals"][0]["steps"] if s["ok"]]
    assert steps == without["deals"][0]["steps"]
    assert with_refusal["game"] == without["game"]


def test_replay_json_legal_lists_sorted_canonical_actions(tmp_path: Path) -> None:
    out = replay_json(tmp_path, small_record(ACTIONS), "--legal")
    steps = out["deals"][0]["steps"]
    assert steps[0]["legal"] == sorted(
        ["play AS", "play KS", "play QS", "play 7H", "play 8C", "play 9C"]
    )
    assert steps[1]["legal"] == ["play 7S", "play 8D", "play 8S", "play 9D", "play JD"]
    # player 0 won the trick: the marriage, the seven of trumps (the 8♥ turn-up can be taken)
    assert steps[2]["legal"] == ["exchange", "meld KS QS", "pass", "seven"]
    assert steps[3]["legal"] == steps[2]["legal"]  # the refused step changed nothing
    assert steps[4]["legal"] == ["exchange", "pass", "seven"]
    assert steps[5]["legal"] == ["pass"]  # exchange or declare, not both
    assert "play KS*" in steps[6]["legal"] and "play QS*" in steps[6]["legal"]
    for s in steps:
        assert s["legal"] == sorted(s["legal"])
    # without --legal there is no such key
    plain = replay_json(tmp_path, small_record(ACTIONS))
    assert all("legal" not in s for s in plain["deals"][0]["steps"])


def test_action_text_forms_are_accepted_in_records(tmp_path: Path) -> None:
    """Input may use lower case, 10 for tens, symbols, and list meld cards in any order."""
    variants = ["play a♠", "PLAY 7s", "meld qs ks", "seven", "draw", "play k♠*"]
    out = replay_json(tmp_path, small_record(variants))
    assert all(s["ok"] for s in out["deals"][0]["steps"])
    assert out["game"]["scores"] == [30, 0]


def test_actions_after_the_end_of_a_deal_are_refused(tmp_path: Path) -> None:
    game = played_game(seed=4, target=10_000, deals=1)
    data = game.to_record()
    data["deals"][0]["actions"].append("pass")
    steps = replay_json(tmp_path, data)["deals"][0]["steps"]
    assert steps[-1]["ok"] is False and steps[-1]["player"] is None
    assert "over" in steps[-1]["error"]


def played_game(seed: int, target: int, deals: int, variant: str = "bezique") -> Game:
    """A game played by random players for at most ``deals`` deals."""
    game = Game(Rules.preset(variant, target=target), seed=seed)
    rng = random.Random(seed)
    n = 0
    while True:
        while not game.state.is_terminal():
            game.state.apply_action(rng.choice(game.state.legal_actions()))
        n += 1
        if game.is_over() or n >= deals:
            return game
        game.next_deal()


@pytest.mark.parametrize("variant", ["bezique", "binocle"])
def test_step_that_ends_the_deal_adds_last_trick_and_brisques(tmp_path: Path, variant: str) -> None:
    game = played_game(seed=21, target=10_000, deals=1, variant=variant)
    out = replay_json(tmp_path, game.to_record())
    (deal,) = out["deals"]
    assert deal["finished"] is True
    last, before = deal["steps"][-1], deal["steps"][-2]
    winner = deal["last_trick"]
    assert winner in (0, 1)
    for seat in (0, 1):
        gain = last["scores"][seat] - before["scores"][seat]
        assert gain == deal["brisques"][seat] + (10 if seat == winner else 0)
    total = 160 if variant == "bezique" else 240
    assert sum(deal["brisques"]) == total
    assert deal["scores"] == last["scores"] == out["game"]["scores"]


def test_several_deals_carry_the_totals(tmp_path: Path) -> None:
    game = played_game(seed=8, target=600, deals=20)
    assert game.is_over() and len(game.all_deals()) >= 2
    out = replay_json(tmp_path, game.to_record())
    deals = out["deals"]
    assert len(deals) == len(game.all_deals())
    for prev, nxt in itertools.pairwise(deals):
        assert prev["finished"] is True
        first = next(s for s in nxt["steps"] if s["ok"])
        # a deal's first play scores nothing, so its scores are the totals carried over
        assert first["scores"] == prev["scores"]
    assert out["game"]["scores"] == deals[-1]["scores"] == list(game.totals)
    assert out["game"]["winner"] == game.winner
    assert max(out["game"]["scores"]) >= 600


def test_record_round_trip_through_a_file(tmp_path: Path) -> None:
    game = played_game(seed=3, target=800, deals=3)
    path = write(tmp_path, game.to_record())
    record = load_record(path)
    assert record.rules == game.rules
    assert len(record.deals) == len(game.all_deals())
    again = game_record(record.rules, [
        _replayed(record, i) for i in range(len(record.deals))
    ])
    assert again == game.to_record()


def _replayed(record: Any, i: int) -> State:
    totals = (0, 0)
    for j in range(i + 1):
        s = record.start(j, totals)
        for text in record.deals[j].actions:
            s.apply(text)
        totals = s.game_scores
    return s


def test_record_options_are_applied(tmp_path: Path) -> None:
    """A record's options change the rules of the replay (here: last_trick = stock)."""
    game = Game(Rules.preset("bezique", last_trick="stock"), seed=5)
    rng = random.Random(5)
    while not game.state.is_terminal():
        game.state.apply_action(rng.choice(game.state.legal_actions()))
    data = game.to_record()
    assert data["options"] == {"last_trick": "stock"}
    out = replay_json(tmp_path, data)
    assert out["game"]["scores"] == list(game.totals)
    data["options"] = {}
    default = replay_json(tmp_path, data)
    deal, dflt = out["deals"][0], default["deals"][0]
    assert sum(deal["scores"]) == sum(dflt["scores"])  # the same 10, given at another trick
    stock_steps = [s["scores"] for s in deal["steps"]]
    assert stock_steps != [s["scores"] for s in dflt["steps"]]


# ---------------------------------------------------------------------------- bad records


def bad_cases(tmp_path: Path) -> dict[str, Path]:
    good = small_record(ACTIONS)

    def variant(change: Any) -> Any:
        data = json.loads(json.dumps(good))
        change(data)
        return data

    def third_qs(d: Any) -> None:
        d["deals"][0]["hands"][1][-1] = "QS"  # one in hand 0, one in the stock, this one

    cases: dict[str, Any] = {
        "not json": "{this is not json",
        "not an object": "[1, 2, 3]",
        "nested too deep": "[" * 100_000 + "]" * 100_000,
        "number too long": '{"variant": ' + "1" * 5000 + "}",
        "dealer 2": variant(lambda d: d["deals"][0].update(dealer=2)),
        "a third QS": variant(third_qs),
        "a hand of 7": variant(lambda d: d["deals"][0]["hands"][0].pop()),
        "unknown variant": variant(lambda d: d.update(variant="piquet")),
        "unknown option": variant(lambda d: d.update(options={"colour": "red"})),
        "bad option value": variant(lambda d: d.update(options={"brisques": "sometimes"})),
        "short stock": variant(lambda d: d["deals"][0]["stock"].pop()),
        "not a card": variant(lambda d: d["deals"][0].update(turnup="XX")),
        "no deals": variant(lambda d: d.update(deals=[])),
        "actions not strings": variant(lambda d: d["deals"][0].update(actions=[1, 2])),
        "a third 7H": variant(lambda d: d["deals"][0].update(turnup="7H")),
    }
    paths = {name: write(tmp_path, data, f"bad{i}.json")
             for i, (name, data) in enumerate(cases.items())}
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    paths["not text"] = binary
    paths["missing file"] = tmp_path / "no-such-file.json"
    paths["a directory"] = tmp_path
    return paths


BAD = [
    "not json", "not an object", "nested too deep", "number too long", "dealer 2",
    "a third QS", "a hand of 7", "unknown variant", "unknown option",
    "bad option value", "short stock", "not a card", "no deals", "actions not strings",
    "a third 7H", "not text", "missing file", "a directory",
]


@pytest.mark.parametrize("case", BAD)
@pytest.mark.parametrize("as_json", [True, False])
def test_bad_record_is_one_line_error_exit_2(tmp_path: Path, case: str, as_json: bool) -> None:
    path = bad_cases(tmp_path)[case]
    result = run("replay", str(path), *(["--json"] if as_json else []))
    assert result.exit_code == 2, (case, result.output)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("bezique: error:")
    assert "Traceback" not in result.stderr


def test_bad_record_messages_name_the_problem(tmp_path: Path) -> None:
    paths = bad_cases(tmp_path)
    expect = {
        "a third QS": "too many QS",
        "a hand of 7": "7 cards",
        "unknown variant": "piquet",
        "unknown option": "colour",
        "short stock": "46 cards",
        "not json": "not valid JSON",
        "missing file": "cannot read",
    }
    for case, words in expect.items():
        result = run("replay", str(paths[case]), "--json")
        assert words in result.stderr, (case, result.stderr)


def test_bezique_deal_under_binocle_is_refused() -> None:
    """The same cards named as a Binocle record: hands of 8 where Binocle deals 12."""
    data = small_record([])
    data["variant"] = "binocle"
    with pytest.raises(RecordError, match="binocle deals 12"):
        parse_record(data)


@pytest.mark.parametrize("entry", [["-m", "bezique.cli"], ["-m", "bezique"]])
def test_replay_through_a_real_process(tmp_path: Path, entry: list[str]) -> None:
    good = write(tmp_path, small_record(ACTIONS), "good.json")
    done = subprocess.run([sys.executable, *entry, "replay", str(good), "--json"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["game"] == {"scores": [30, 0], "winner": None}
    bad = write(tmp_path, "{oops", "bad.json")
    done = subprocess.run([sys.executable, *entry, "replay", str(bad)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "not valid JSON" in done.stderr


def test_replay_through_the_entry_point(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("bezique")
    assert exe.exists()
    done = subprocess.run([str(exe), "replay", str(tmp_path / "missing.json")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("bezique: error: cannot read")
    assert len(done.stderr.strip().splitlines()) == 1


# ---------------------------------------------------------------------------- readable account


def test_plain_replay_tells_the_tricks(tmp_path: Path) -> None:
    result = run("replay", str(write(tmp_path, small_record(ACTIONS))))
    assert result.exit_code == 0, result.output
    text = result.stdout
    lines = text.splitlines()
    assert lines[0] == (
        "Deal 1: Player 1 deals. Turn-up 8♥: trumps are ♥. Game so far: Player 0 0, Player 1 0."
    )
    assert "  Player 0  A♠ K♠ Q♠ 7♥ 9♣ 9♣ 8♣ 8♣" in lines  # suits S H D C, high to low
    assert "Trick 1: Player 0 leads A♠, Player 1 plays 7♠. Player 0 wins." in lines
    refused = [ln for ln in lines if "refused" in ln]
    assert len(refused) == 1 and "'meld QS JD' by Player 0" in refused[0]
    assert "  Player 0 declares common marriage K♠ Q♠: +20 (Player 0 20, Player 1 0)" in lines
    assert "  Player 0 declares the 7♥: +10 (Player 0 30, Player 1 0)" in lines
    assert "Trick 2: Player 0 leads K♠ (shown) ..." in lines  # the married king
    assert "(the record stops here, after trick 1)" in lines
    assert lines[-1] == "Game: Player 0 30, Player 1 0. No winner yet."


def test_plain_replay_of_a_whole_game_ends_with_summaries(tmp_path: Path) -> None:
    game = played_game(seed=8, target=600, deals=20)
    result = run("replay", str(write(tmp_path, game.to_record())))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    n = len(game.all_deals())
    assert sum(ln.startswith("Deal over:") for ln in lines) == n
    assert sum(ln.startswith("Trick ") for ln in lines) == 32 * n
    assert sum("wins the last trick: +10. Brisques (counted now):" in ln for ln in lines) == n
    g = game.totals
    winner = f"Player {game.winner} wins the game."
    assert lines[-1] == f"Game: Player 0 {g[0]}, Player 1 {g[1]}. {winner}"
    assert "!" not in result.stdout  # nothing refused
