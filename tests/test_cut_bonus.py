"""The cut bonus of Six- and Eight-pack Bezique (RULES.md 9.2, 9.7, 9.8, 9.10).

The dealer lifts a packet off the pack and the non-dealer guesses its size: a right guess scores
150 for the non-dealer, a cut of exactly 24 cards 250 for the dealer, both before play.  A live
game draws the cut uniformly from ``cut_range`` (18-30); the guess is the non-dealer's first
action, ``guess N``; a record carries ``"cut"`` and ``"guess"`` in the deal.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from click.testing import CliRunner

from bezique import Rules, State
from bezique.agents import make_agent
from bezique.cli import main
from bezique.errors import IllegalActionError, OptionError, RecordError
from bezique.record import game_record, parse_record, replay
from bezique.worlds import resample_from_infostate


def sixpack(**options: object) -> Rules:
    return Rules.preset("sixpack", cut_bonus=True, **options)


def test_the_option_belongs_to_six_and_eight_pack_and_its_range_is_checked() -> None:
    assert Rules.preset("eightpack", cut_bonus=True).cut_bonus
    assert Rules.preset("sixpack").cut_bonus is False  # off by default (RULES.md 9.2)
    for variant in ("bezique", "rubicon", "bezique4"):
        with pytest.raises(OptionError, match="does not apply"):
            Rules.preset(variant, cut_bonus=True)
    assert sixpack(cut_range="20-28").cut_range == "20-28"
    for bad in ("30-18", "0-5", "18", "x-y", "18-300", True):
        with pytest.raises(OptionError, match="cut_range"):
            sixpack(cut_range=bad)
    assert sixpack().options() == {"cut_bonus": True}  # what a record stores


def test_the_deal_is_the_same_shuffle_and_the_cut_is_drawn_from_the_range() -> None:
    cuts = Counter()
    for seed in range(1300):
        s = State.new_deal(sixpack(), seed=seed)
        plain = State.new_deal(Rules.preset("sixpack"), seed=seed)
        assert s.deal_hands == plain.deal_hands and s.stock == plain.stock
        cuts[s.cut] += 1
    assert set(cuts) == set(range(18, 31))
    assert all(60 <= n <= 140 for n in cuts.values()), cuts  # about 100 each: uniform
    assert State.new_deal(sixpack(), seed=5).cut == State.new_deal(sixpack(), seed=5).cut


def test_the_non_dealer_guesses_first_and_nothing_else_is_legal() -> None:
    s = State.new_deal(sixpack(), seed=4, dealer=1)
    assert s.phase == "guess" and s.current_player() == 0
    assert s.legal_action_strings() == [f"guess {n}" for n in range(18, 31)]
    key = s.key()
    card = s.hand(0)[0]
    for text in (f"play {card}", "pass", "carte", "guess 17", "guess 31", "guess x"):
        with pytest.raises(IllegalActionError, match="guess"):
            s.apply(text)
        assert s.key() == key
    with pytest.raises(IllegalActionError, match="first guess"):
        s.apply_action(5)  # a card number: still the guess first
    assert s.key() == key


def _guessed(cut: str, guess: int, dealer: int = 1) -> State:
    s = State.new_deal(sixpack(cut_range=cut), seed=9, dealer=dealer)
    s.apply(f"guess {guess}")
    return s


def test_a_right_guess_scores_150_for_the_non_dealer_and_24_cards_250_for_the_dealer() -> None:
    right = _guessed("20-20", 20)
    assert right.scores == (150, 0) and right.phase == "lead"
    assert right.events[-1] == (0, 150, "cut", "guessed 20")
    wrong = _guessed("20-21", 41 - _guessed("20-21", 20).cut)
    assert wrong.scores == (0, 0)
    both = _guessed("24-24", 24, dealer=0)  # RULES.md 9.10: both bonuses can score in one deal
    assert both.scores == (250, 150)
    seed = next(i for i in range(100)
                if State.new_deal(sixpack(cut_range="24-25"), seed=i).cut == 24)
    only_dealer = State.new_deal(sixpack(cut_range="24-25"), seed=seed, dealer=1)
    only_dealer.apply("guess 25")
    assert only_dealer.scores == (0, 250)
    with pytest.raises(IllegalActionError, match="guessed before play"):
        both.apply("guess 24")


def test_undo_takes_the_guess_back_and_after_it_the_deal_plays_as_ever() -> None:
    s = State.new_deal(sixpack(), seed=2)
    start = s.key()
    s.apply(f"guess {s.cut}")
    assert "carte" in s.legal_action_strings() or s.legal_action_strings()[0].startswith("play")
    s.undo_action()
    assert s.key() == start and s.phase == "guess"


def test_the_cut_is_hidden_until_the_guess_and_public_after_it() -> None:
    a = State.new_deal(sixpack(cut_range="18-19"), seed=1)
    b = State.new_deal(sixpack(cut_range="18-19"), seed=1)
    b.cut = 19 if a.cut == 18 else 18  # the same deal with the other cut
    for seat in (0, 1):
        assert a.observation(seat) == b.observation(seat)
        assert a.observation(seat).cut is None
    a.apply("guess 18")
    assert a.observation(1).cut == a.cut and a.observation(0).cut == a.cut


def test_a_world_resampled_before_the_guess_does_not_know_the_cut() -> None:
    s = State.new_deal(sixpack(), seed=3)
    cuts = {resample_from_infostate(s, 0, random.Random(i)).cut for i in range(40)}
    assert len(cuts) > 3  # redrawn, not copied
    s.apply("guess 20")
    assert {resample_from_infostate(s, 0, random.Random(i)).cut for i in range(5)} == {s.cut}


def test_the_settlement_counts_the_cut_bonus_and_records_replay_it() -> None:
    s = State.new_deal(sixpack(cut_range="24-24"), seed=6, dealer=0)
    s.apply("guess 24")
    rng = random.Random(6)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_action_strings()))
    for seat in (0, 1):
        assert s.scores[seat] == sum(p for who, p, _, _ in s.events if who == seat)
    assert ("cut" in {r for _, _, r, _ in s.events})
    rec = json.loads(json.dumps(game_record(s.rules, [s])))
    deal = rec["deals"][0]
    assert deal["cut"] == 24 and deal["guess"] == 24
    assert not any(a.startswith("guess") for a in deal["actions"])
    out = replay(parse_record(rec))
    assert out["deals"][0]["scores"] == list(s.scores)
    assert (out["deals"][0]["cut"], out["deals"][0]["guess"]) == (24, 24)
    assert out["deals"][0]["result"] == replay(parse_record(rec))["deals"][0]["result"]


@pytest.mark.parametrize("change, message", [
    ({"cut": None}, "needs the deal's cut"),
    ({"cut": 40}, "needs the deal's cut"),
    ({"guess": 3}, "guess a cut of 18 to 30"),
])
def test_impossible_cut_records_are_refused_with_one_line(change: dict[str, object],
                                                         message: str) -> None:
    s = State.new_deal(sixpack(), seed=8)
    rec = game_record(s.rules, [s])
    rec["deals"][0].update(change)
    if rec["deals"][0]["cut"] is None:
        del rec["deals"][0]["cut"]
    with pytest.raises(RecordError, match=message):
        parse_record(rec)
    plain = game_record(Rules.preset("sixpack"), [State.new_deal(Rules.preset("sixpack"))])
    plain["deals"][0]["cut"] = 20
    with pytest.raises(RecordError, match="only dealt with the cut bonus"):
        parse_record(plain)


def test_agents_guess_and_play_a_whole_deal_with_the_cut_bonus() -> None:
    r = Rules.preset("eightpack", cut_bonus=True)
    for spec in ("random", "heuristic"):
        s = State.new_deal(r, seed=12)
        agent = make_agent(spec, seed=1)
        while not s.is_terminal():
            text = agent.act(s.observation(s.current_player()))
            assert text in s.legal_action_strings()
            s.apply(text)
    s = State.new_deal(Rules.preset("sixpack", cut_bonus=True), seed=12)
    guess = make_agent("search:samples=4", seed=1).act(s.observation(s.current_player()))
    assert guess.startswith("guess ")


def test_the_command_line_deals_tells_and_replays_the_cut(tmp_path: object) -> None:
    from pathlib import Path

    out_dir = Path(str(tmp_path))
    res = CliRunner().invoke(main, ["demo", "--variant", "sixpack", "-o", "cut_bonus=true",
                                    "--seed", "3", "--save", str(out_dir / "cut.json")])
    assert res.exit_code == 0, res.output
    assert "guesses the cut at" in res.output
    rec = json.loads((out_dir / "cut.json").read_text())
    assert 18 <= rec["deals"][0]["cut"] <= 30 and "guess" in rec["deals"][0]
    again = CliRunner().invoke(main, ["replay", str(out_dir / "cut.json"), "--json"])
    assert again.exit_code == 0, again.output
    bad = CliRunner().invoke(main, ["demo", "--variant", "rubicon", "-o", "cut_bonus=true"])
    assert bad.exit_code == 2 and "does not apply" in bad.output


def test_the_engine_protocol_takes_the_guess_with_the_cut() -> None:
    import subprocess
    import sys

    from bezique.cards import card_name

    s = State.new_deal(sixpack(), seed=3, dealer=1)
    base = {"cmd": "position", "variant": "sixpack", "options": {"cut_bonus": True}, "seat": 1,
            "dealer": 1, "hand": [card_name(c) for c in s.observation(1).hand], "turnup": None}
    requests = [{**base, "actions": [f"guess {s.cut}"], "cut": s.cut}, {"cmd": "status"},
                {**base, "actions": ["guess 20"]}]
    done = subprocess.run([sys.executable, "-m", "bezique", "engine"], text=True, timeout=60,
                          input="".join(json.dumps(r) + "\n" for r in requests),
                          capture_output=True)
    first, status, third = (json.loads(line) for line in done.stdout.splitlines())
    assert first["ok"] and status["phase"] == "lead" and status["scores"] == [150, 0]
    assert not third["ok"] and "give the deal's 'cut'" in third["error"]
