"""Three-handed Bezique (RULES.md 9.4, preset ``bezique3``): three packs, three seats, the deal
and the draws to the left, the second double and the triple, the end-phase duty, game 2000."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_family_core import check_hidden_independence, play_checked

from bezique import IllegalActionError, Rules, State
from bezique.cards import parse_card, rank_of, suit_of
from bezique.scoring import game_winner
from bezique.tricks import beats, follow_mask

R3 = Rules.preset("bezique3")


def test_sizes_and_table() -> None:
    assert (R3.deck_size, R3.stock_size, R3.stock_tricks, R3.total_tricks) == (96, 71, 24, 32)
    assert R3.target == 2000
    names = {k.name: k.points for k in R3.melds}
    assert names["double bezique"] == 500 and names["triple bezique"] == 1500
    assert "quadruple bezique" not in names


def test_the_deal_goes_to_the_left_and_the_dealers_left_leads() -> None:
    s = State.new_deal(R3, seed=4, dealer=1)
    assert s.current_player() == 2
    assert s.turnup is not None and s.stock_left == 71


def deal3(hand0: Sequence[str], turnup: str = "8H") -> State:
    """Seat 0 holds ``hand0`` (filled up), seat 2 deals so seat 0 leads."""
    left = Counter(p & 31 for p in R3.deck)
    chosen = [parse_card(c) for c in [*hand0, turnup]]
    left.subtract(chosen)
    rest = sorted(left.elements(), key=lambda c: ((7, 6, 5, 4, 1, 0, 3, 2).index(rank_of(c)),
                                                  suit_of(c) == suit_of(parse_card(turnup)), c))
    hands = [[parse_card(c) for c in hand0], [], []]
    for h in hands:
        while len(h) < 8:
            h.append(rest.pop(0))
    return State.from_cards(R3, hands, parse_card(turnup), rest, dealer=2)


def win_trick(s: State, lead: str | None = None) -> None:
    """Seat 0 leads (``lead`` or its lowest card) and the others play cards that do not beat
    the best."""
    plays = [a for a in s.legal_actions() if a < 256]
    if lead:
        s.apply(f"play {lead}")
    else:
        s.apply_action(min(plays, key=lambda a: (-(a & 7), a)))
    while s.phase == "follow":
        best = s.trick_cards()[0]
        for c in s.trick_cards()[1:]:
            if beats(c, best, s.trump):
                best = c
        s.apply_action(next(a for a in s.legal_actions()
                            if a < 256 and not beats(a & 31, best, s.trump)))
    assert s.last_trick_winner == 0


def declare(s: State, meld: str) -> int:
    win_trick(s)
    before = s.scores[0]
    s.apply(meld)
    s.apply("pass")
    return s.scores[0] - before


def refused(s: State, meld: str) -> None:
    win_trick(s)
    key = s.key()
    with pytest.raises(IllegalActionError):
        s.apply(meld)
    assert s.key() == key
    s.apply("pass")


def test_fours_of_a_rank_are_melds_with_three_packs() -> None:
    # RULES.md 9.4: classic 2-3 apply, so four aces (kings, queens, jacks) of any suits score
    # as in 3.2 -- with three packs as with two (a three-copy holding must not hide them)
    s = deal3(["AS", "AH", "AD", "AC", "7C", "7H", "7S", "8C"])
    assert declare(s, "meld AS AH AD AC") == 100
    s = deal3(["KS", "KH", "KD", "KC", "7C", "7H", "7S", "8C"])
    assert declare(s, "meld KS KH KD KC") == 80
    s = deal3(["QS", "QS", "QS", "QC", "7C", "7H", "7S", "8C"])
    refused(s, "meld QS QS QS")  # three queens are no meld
    assert declare(s, "meld QS QS QS QC") == 60
    s = deal3(["JD", "JD", "JD", "JH", "7C", "7H", "7S", "8C"])
    assert declare(s, "meld JD JD JD JH") == 40


def test_example_18_second_double_then_no_triple() -> None:
    s = deal3(["QS", "JD", "QS", "JD", "QS", "JD"])
    assert declare(s, "meld QS JD") == 40  # P1
    assert declare(s, "meld QS* JD* QS JD") == 500  # P1 + P2
    assert declare(s, "meld QS*2 JD*2 QS JD") == 500  # P2 + P3: the second double
    assert s.scores[0] == 1040
    refused(s, "meld QS*1 QS*2 QS*3 JD*1 JD*2 JD*3")  # the triple: no card new to class B
    refused(s, "meld QS*1 JD*1 QS*3 JD*3")  # P1 + P3: P3 has been in a double


def test_example_18_triple_instead() -> None:
    s = deal3(["QS", "JD", "QS", "JD", "QS", "JD"])
    declare(s, "meld QS JD")
    declare(s, "meld QS* JD* QS JD")
    assert declare(s, "meld QS*1 QS*2 JD*1 JD*2 QS JD") == 1500
    assert s.scores[0] == 2040


def test_the_second_double_needs_a_pair_of_an_intact_double() -> None:
    s = deal3(["QS", "JD", "QS", "JD", "QS", "JD"])
    declare(s, "meld QS JD")
    declare(s, "meld QS* JD* QS JD")
    win_trick(s, "QS*2")  # P2's queen is played: the double is broken
    s.apply("pass")
    refused(s, "meld QS* JD*1 QS JD")  # P1 + P3 is no second double of a broken double


def test_the_second_double_is_a_three_and_four_handed_rule_only() -> None:
    """Classic Bezique keeps RULES.md 3.3: the same cards are no second double there."""
    assert not Rules.preset("bezique").second_double and R3.second_double


def test_example_19_three_handed_last_tricks() -> None:
    """9C led, 7H (trumps) played by a void second player."""
    hearts = suit_of(parse_card("7H"))
    lead, best = parse_card("9C"), parse_card("7H")

    def allowed(*cards: str) -> set[str]:
        hand = 0
        for i, c in enumerate(cards):
            hand |= 1 << (parse_card(c) + 32 * (i % 3))
        out = follow_mask(hand, lead, best, hearts, 3)
        return {c for i, c in enumerate(cards) if out >> (parse_card(c) + 32 * (i % 3)) & 1}

    assert allowed("8C", "AC", "KS") == {"8C", "AC"}  # a club: any club, none can win
    assert allowed("8H", "KS", "TD") == {"8H"}  # no club: trump above the 7H
    assert allowed("7H", "KS", "TD") == {"7H", "KS", "TD"}  # an identical 7H does not beat


def test_game_to_2000_counts_from_the_dealers_left() -> None:
    # nobody at 2000 before the brisques: the first to reach it while they are counted wins
    assert game_winner(2000, (1990, 1995, 1800), (2010, 2005, 1800), (1, 2, 0), 0) == 1
    assert game_winner(2000, (2010, 1990, 0), (2030, 2030, 0), (0, 1, 2), 1) == 0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_three_handed_deals_keep_every_invariant(seed: int) -> None:
    end = play_checked(R3, seed, junk=10)
    assert end.tricks_played == 32 and sum(end.brisques) == 8 * 3 * 10
    if seed % 6 == 0:
        check_hidden_independence(end, random.Random(seed))


def test_a_three_handed_record_replays_as_json_and_as_an_account(
    tmp_path: object,
) -> None:
    import json
    from pathlib import Path

    from click.testing import CliRunner

    from bezique.cli import main
    from bezique.game import Game

    game = Game(R3, seed=1)
    rng = random.Random(1)
    while not game.state.is_terminal():
        game.state.apply_action(rng.choice(game.state.legal_actions()))
    path = Path(str(tmp_path)) / "b3.json"
    path.write_text(json.dumps(game.to_record()))
    out = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert out.exit_code == 0
    assert json.loads(out.output)["deals"][0]["scores"] == list(game.state.game_scores)
    text = CliRunner().invoke(main, ["replay", str(path)])
    assert text.exit_code == 0, text.output
    tricks = [line for line in text.output.splitlines() if line.startswith("Trick ")]
    assert len(tricks) == 32 and all(line.count(" plays ") == 2 for line in tricks)
    assert "Player 2" in text.output and "Deal over:" in text.output


def test_the_demo_narrates_three_seats() -> None:
    from click.testing import CliRunner

    from bezique.cli import main

    out = CliRunner().invoke(main, ["demo", "--variant", "bezique3", "--seed", "2"])
    assert out.exit_code == 0, out.output
    assert "North" in out.output and "East" in out.output and "South" in out.output
    assert sum(line.startswith("Trick ") for line in out.output.splitlines()) == 32
