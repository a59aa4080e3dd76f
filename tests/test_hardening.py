"""Regression tests for inputs that once broke the engine (the hardening issue, items 1-3).

Each names what used to go wrong.  The property test combines options with game totals near
the target, which is where the first of them hid.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_family_core import check_invariants, choose, full_mask

from bezique import IllegalActionError, Rules, State
from bezique.agents import make_agent
from bezique.cards import parse_card
from bezique.errors import OptionError, RecordError
from bezique.game import Game
from bezique.record import parse_record


def test_leading_a_played_seven_that_reaches_the_target_ends_the_game_cleanly() -> None:
    """seven=played, end_check=immediate: leading the seven of trumps that reaches the target
    raised 'negative shift count' and left the deal half-changed."""
    rules = Rules.preset("bezique", seven="played", end_check="immediate")
    s = State.new_deal(rules, seed=2, dealer=0, totals=(0, 992))
    start = s.key()
    s.apply("play 7H")
    assert s.is_terminal() and s.winner == 1
    assert s.events[-1][1:3] == (10, "seven")
    check_invariants(s, full_mask(rules))
    assert s.trick_cards() == [parse_card("7H")]
    s.undo_action()
    assert s.key() == start


@pytest.mark.parametrize("text", ["play QS*²", "play QS*¹", "play QS*₂", "play QS*" + "9" * 5000,
                                  "play QS*١", "meld QS*² JD", "play QS*00"])
def test_odd_digits_after_a_star_are_refused_with_the_one_exception(text: str) -> None:
    s = State.new_deal(Rules.preset("bezique"), seed=1)
    key = s.key()
    with pytest.raises(IllegalActionError) as e:
        s.apply(text)
    assert len(str(e.value)) < 200
    assert s.key() == key


def test_ints_that_legal_actions_never_lists_are_refused() -> None:
    """Card numbers past the pack, meld ints with stray low bits and the other copy of a held
    card were accepted (176,769 of 1.35M random ints)."""
    rng = random.Random(5)
    refused = 0
    for seed in range(30):
        s = State.new_deal(Rules.preset("bezique"), seed=seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            key = s.key()
            probes = [a + 64 for a in legal if a < 64] + [a ^ 32 for a in legal if a < 64]
            probes += [a | 1 for a in legal if a >= 512] + [a + 128 for a in legal if a < 64]
            for a in probes:
                if a in legal:
                    continue
                with pytest.raises(IllegalActionError):
                    s.apply_action(a)
                assert s.key() == key
                refused += 1
            s.apply_action(rng.choice(legal))
    assert refused > 1000


OPTION_SETS = [
    {"seven": "played", "end_check": "immediate"},
    {"brisques": "immediate", "end_check": "immediate"},
    {"last_trick": "stock", "end_check": "immediate", "seven": "played"},
    {"seven": "played", "brisques": "immediate", "last_trick": "stock"},
    {"end_check": "immediate", "seven_counts_as_meld": True},
]


@settings(max_examples=400, deadline=None)
@given(
    variant=st.sampled_from(["bezique", "binocle"]),
    options=st.sampled_from(OPTION_SETS),
    seed=st.integers(0, 2**32 - 1),
    gaps=st.tuples(st.integers(0, 80), st.integers(0, 80)),
)
def test_options_with_totals_near_the_target_keep_every_invariant(
    variant: str, options: dict[str, object], seed: int, gaps: tuple[int, int]
) -> None:
    rules = Rules.preset(variant, **options)
    totals = (rules.target - 1 - gaps[0], rules.target - 1 - gaps[1])
    s = State.new_deal(rules, seed, dealer=seed % 2, totals=totals)
    rng = random.Random(seed)
    full = full_mask(rules)
    keys = [s.key()]
    while not s.is_terminal():
        check_invariants(s, full)
        s.apply_action(choose(s, rng))
        keys.append(s.key())
    check_invariants(s, full)
    assert s.winner is not None or rules.end_check == "deal"
    for key in reversed(keys[:-1]):
        s.undo_action()
        assert s.key() == key


# ---------------------------------------------------------------- files and the engine protocol


def _run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "bezique", *args], input=stdin,
                          capture_output=True, timeout=120)


def test_solve_of_a_directory_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = _run("solve", str(tmp_path))
    assert done.returncode == 2
    err = done.stderr.decode().strip()
    assert err.count("\n") == 0 and "is a directory" in err.lower()


def test_a_long_variant_name_is_not_echoed_whole() -> None:
    done = _run("demo", "--variant", "x" * 100_000)
    assert done.returncode == 2 and len(done.stderr) < 400


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"variant": "bezique", "options": [], "deals": []}, "'options' must be an object"),
        ({"variant": "bezique", "deals": [{}] * 1001}, "at most 1000 deals"),
    ],
)
def test_records_that_cannot_be_a_game_are_refused_early(record: dict[str, Any],
                                                        message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse_record(record)


def test_a_deal_with_too_many_actions_is_refused_before_replay() -> None:
    game = Game(Rules.preset("bezique"), seed=1)
    record = game.to_record()
    record["deals"][0]["actions"] = ["pass"] * 6_000_000
    with pytest.raises(RecordError, match="at most 4000 actions"):
        parse_record(record)


def test_the_engine_answers_bad_bytes_and_huge_numbers_and_goes_on() -> None:
    lines = b'\xff\xfe{"cmd": "hello"}\n{"cmd": "new", "seat": ' + b"9" * 5000 + b"}\n"
    lines += b"[" * 100_000 + b"\n" + b'{"cmd": "hello"}\n'
    done = _run("engine", stdin=lines)
    answers = [json.loads(x) for x in done.stdout.decode().splitlines()]
    assert [a["ok"] for a in answers] == [False, False, False, True]
    assert all("internal error" not in a.get("error", "") for a in answers)


def test_search_samples_are_capped() -> None:
    with pytest.raises(OptionError, match="from 1 to 5000"):
        make_agent("search:samples=100000000")


@pytest.mark.parametrize("field", ["seat", "dealer"])
def test_the_engine_refuses_float_seats_and_dealers(field: str) -> None:
    request = {"cmd": "new", "seat": 0, "dealer": 1, "turnup": "JD",
               "hand": ["9D", "QD", "AH", "KS", "7S", "8C", "TD", "AS"], field: 0.0}
    done = _run("engine", stdin=(json.dumps(request) + "\n").encode())
    answer = json.loads(done.stdout.decode().splitlines()[0])
    assert answer["ok"] is False and field in answer["error"]
    assert "internal error" not in answer["error"]
