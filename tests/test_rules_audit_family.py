"""RULES.md 9.4-9.8, audited: the three- and four-handed rules, the options of 9.7 and the records
of 9.8 that had no test of their own (see ``test_rules_audit.py`` for sections 1-9.3).  Each
test names its section; everything goes through the public API."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from test_fourhanded import deal4
from test_fourhanded import declare as declare4
from test_fourhanded import win_trick as win4
from test_threehanded import R3, deal3
from test_threehanded import declare as declare3
from test_threehanded import win_trick as win3

from bezique import IllegalActionError, OptionError, Rules, State
from bezique.actions import meld_action
from bezique.cards import card_name, parse_card, rank_of, suit_of
from bezique.game import Game
from bezique.record import game_record, parse_record, replay

# ---------------------------------------------------------------- 9.4 three-handed


def _deal3_with_stock(stock_top: list[str], dealer: int = 2, turnup: str = "8H") -> State:
    """A three-handed deal whose stock starts with ``stock_top``; seat 0 holds the trump ace."""
    left = Counter(p & 31 for p in R3.deck)
    chosen = [parse_card(c) for c in ["AH", turnup, *stock_top]]
    left.subtract(chosen)
    rest = sorted(left.elements(), key=lambda c: (suit_of(c) == suit_of(parse_card(turnup)),
                                                  (7, 6, 5, 4, 1, 0, 3, 2).index(rank_of(c)), c))
    hands: list[list[int]] = [[parse_card("AH")], [], []]
    for h in hands:
        while len(h) < 8:
            h.append(rest.pop(0))
    stock = [parse_card(c) for c in stock_top] + rest
    return State.from_cards(R3, hands, parse_card(turnup), stock, dealer=dealer)


def test_rules_9_4_the_winner_draws_first_then_the_others_in_playing_order() -> None:
    """RULES.md 9.4: "The trick winner draws first, then the others in playing order" (to the
    left).  Seat 1 leads (seat 0 deals), seat 0 wins with the trump ace: seat 0 draws the top
    card, then seat 1, then seat 2."""
    s = _deal3_with_stock(["KS", "QD", "JC"], dealer=0)
    assert s.current_player() == 1
    while s.phase == "follow" or s.phase == "lead":
        seat = s.current_player()
        if seat == 0:
            s.apply("play AH")
        else:
            s.apply_action(next(a for a in s.legal_actions() if suit_of(a & 31) != s.trump))
    assert s.last_trick_winner == 0
    before = [Counter(s.hand(i)) for i in range(3)]
    s.apply("pass")
    got = [card_name(c) for i in range(3) for c in (Counter(s.hand(i)) - before[i]).elements()]
    assert got == ["KS", "QD", "JC"]


def test_rules_9_4_the_last_drawer_at_trick_24_takes_the_turn_up() -> None:
    """RULES.md 9.4: "The last drawer at trick 24 takes the turn-up": the seat two to the left of
    the last stock trick's winner; then 8 tricks follow."""
    for seed in range(4):
        s = State.new_deal(R3, seed=seed, dealer=seed % 3)
        rng = random.Random(seed)
        turnup = s.turnup
        while s.tricks_played < 24 or s.phase != "declare":
            s.apply_action(rng.choice([a for a in s.legal_actions()
                                       if s.action_to_string(a) != "exchange"]))
        winner = s.last_trick_winner
        last = (winner + 2) % 3
        before = Counter(s.hand(last)) + Counter(s.shown(last))  # (shown cards return, 2.4)
        s.apply("pass")
        assert s.end_phase and s.stock_left == 0
        assert list((Counter(s.hand(last)) - before).elements()) == [turnup]
        assert s.rules.total_tricks - s.tricks_played == 8


@pytest.mark.parametrize("variant", ["bezique3", "bezique4"])
def test_rules_9_6_a_turned_up_seven_scores_10_for_the_dealer(variant: str) -> None:
    """RULES.md 9.6 (turn-up, 7: "yes, 10" for three- and four-handed) with 2.1."""
    r = Rules.preset(variant)
    for seed in range(400):
        s = State.new_deal(r, seed=seed, dealer=seed % r.nplayers)
        assert s.turnup is not None
        if rank_of(s.turnup) == r.seven_rank:
            expect = [0] * r.nplayers
            expect[s.dealer] = 10
            assert list(s.scores) == expect
            return
    raise AssertionError("no seven turned up in 400 deals")


def _deal3_hands(hands: list[list[str]], turnup: str = "8H") -> State:
    """A three-handed deal with these hands (filled up with low plain cards); seat 2 deals, so
    seat 0 leads."""
    left = Counter(p & 31 for p in R3.deck)
    left.subtract([parse_card(c) for h in hands for c in h] + [parse_card(turnup)])
    trump = suit_of(parse_card(turnup))
    rest = sorted(left.elements(), key=lambda c: (suit_of(c) == trump or rank_of(c) < 5, c))
    full = [[parse_card(c) for c in h] for h in hands]
    for h in full:
        while len(h) < 8:
            h.append(rest.pop(0))
    return State.from_cards(R3, full, parse_card(turnup), rest, dealer=2)


@pytest.mark.parametrize(("cards", "winner"), [
    (("7S", "AS", "7H"), 2),  # a trump played third beats the higher card of the suit led
    (("KH", "AH", "AH"), 1),  # the highest trump wins
    (("TS", "TS", "TS"), 0),  # of identical cards, the earliest played
    (("9S", "AS", "AS"), 1),
    (("9S", "AD", "AC"), 0),  # cards of another plain suit never win
])
def test_rules_9_4_the_highest_trump_wins_and_of_identical_cards_the_earlier(
        cards: tuple[str, str, str], winner: int) -> None:
    """RULES.md 9.4 "Tricks": "The highest trump wins, else the highest card of the suit led; of
    identical cards, the earlier played wins" (♥ trumps)."""
    s = _deal3_hands([[c] for c in cards])
    for c in cards:
        s.apply(f"play {c}")
    assert s.last_trick_winner == winner


def test_rules_9_4_the_triple_may_be_declared_at_once() -> None:
    """RULES.md 9.4: "It may be declared at once": six cards, no earlier bezique, 1500."""
    s = deal3(["QS", "JD", "QS", "JD", "QS", "JD"])
    assert declare3(s, "meld QS QS QS JD JD JD") == 1500


def test_rules_9_4_the_triple_as_double_plus_single() -> None:
    """RULES.md 9.4: the triple "as double + single": a double's four new cards added to a
    single on the table (40 + 1500); and, read with worked example 18 and §3.3's "two singles
    scored separately cannot then be claimed as a double", a double and a single scored apart
    make no triple: no card of it is new to class B."""
    s = deal3(["QS", "JD", "QS", "JD", "QS", "JD"])
    assert declare3(s, "meld QS JD") == 40
    assert declare3(s, "meld QS* QS QS JD* JD JD") == 1500
    assert s.scores[0] == 1540
    s = deal3(["QS", "JD", "QS", "JD", "QS", "JD"])
    assert declare3(s, "meld QS QS JD JD") == 500
    assert declare3(s, "meld QS JD") == 40
    win3(s)
    six = meld_action(s.shown_masks[0])  # the six cards on the table
    before = s.clone()
    with pytest.raises(IllegalActionError, match="triple bezique has already been in a class B"):
        s.apply_action(six)
    assert s == before


# ---------------------------------------------------------------- 9.5 four-handed


def test_rules_9_5_exchange_and_seven_belong_to_whoever_holds_the_turn() -> None:
    """RULES.md 9.5: "`exchange` and `seven` belong to whoever holds the turn": after the
    winner's `offer`, the partner exchanges its seven of trumps (10 to the partner)."""
    s = deal4({0: ["AH"], 2: ["7H"]}, turnup="KH")
    win4(s, 0)
    assert {"exchange", "seven"}.isdisjoint(s.legal_action_strings())  # seat 0 has no 7H
    s.apply("offer")
    assert {"exchange", "seven"} <= set(s.legal_action_strings())
    s.apply("exchange")
    assert s.scores == (0, 0, 10, 0) and parse_card("KH") in s.hand(2)
    assert s.side_scores() == (10, 0)


def test_rules_9_5_without_partnership_there_is_no_combining() -> None:
    """RULES.md 9.5: "`partnership = false`: no `offer`, no combining" -- North's shown Q♠ is
    not South's to meld (worked example 20 without partners)."""
    hands = {0: ["QS", "QH", "QD", "QC", "AH"], 2: ["JD", "AH"]}
    solo = deal4(hands, Rules.preset("bezique4", partnership=False))
    declare4(solo, 0, "meld QS QH QD QC")
    win4(solo, 2)
    assert solo.legal_action_strings() == ["pass"]
    side = deal4(hands)
    declare4(side, 0, "meld QS QH QD QC")
    win4(side, 2)
    assert "meld QS+ JD" in side.legal_action_strings()


def test_rules_9_5_partner_bezique_own_applies_to_the_triple() -> None:
    """RULES.md 9.5: under `own` "a double or triple counts only if all its cards are one
    player's"; `either` allows the triple of North's shown double and South's pair."""
    hands = {0: ["QS", "JD", "QS", "JD", "AH"], 2: ["QS", "JD", "AH"]}
    own = deal4(hands)
    declare4(own, 0, "meld QS QS JD JD")
    win4(own, 2)
    assert not any(a.count("QS") == 3 for a in own.legal_action_strings())
    either = deal4(hands, Rules.preset("bezique4", partner_bezique="either"))
    declare4(either, 0, "meld QS QS JD JD")
    assert declare4(either, 2, "meld QS+ QS+ QS JD+ JD+ JD") == 1500
    assert either.side_scores() == (2000, 0)


def test_rules_9_5_the_second_double_as_in_9_4() -> None:
    """RULES.md 9.5: "Beziques and the second double as in 9.4": one player's P1 40, P1+P2 500,
    P2+P3 500."""
    s = deal4({0: ["QS", "JD", "QS", "JD", "QS", "JD", "AH"]},
              Rules.preset("bezique4", melds_per_trick=3))
    win4(s, 0)
    for meld, points in (("meld QS JD", 40), ("meld QS* JD* QS JD", 500),
                         ("meld QS*2 JD*2 QS JD", 500)):
        before = s.scores[0]
        s.apply(meld)
        assert s.scores[0] - before == points
    assert s.side_scores() == (1040, 0)


# ---------------------------------------------------------------- 9.7 options


OPTIONS_9_7: list[tuple[str, str, list[Any], Any]] = [
    # option, presets, its values (default first), a value refused
    ("reuse", "rubicon sixpack eightpack", ["portland", "loose", "classic"], "strict"),
    ("carte_blanche_repeat", "rubicon sixpack", [True, False], "sometimes"),
    ("rubicon_brisque_bonus", "rubicon", [300, 320], 310),
    ("rubicon_bonus", "sixpack eightpack", [1000, 2000], 1500),
    ("bezique_fixes_trumps", "rubicon sixpack eightpack", [False, True], "often"),
    ("four_tens", "rubicon sixpack eightpack", [0, 90], 100),
    ("cut_bonus", "sixpack eightpack", [False, True], "maybe"),
    ("cut_range", "sixpack eightpack", ["18-30", "22-26"], "30-18"),
    ("partnership", "bezique4", [True, False], "pairs"),
    ("partner_bezique", "bezique4", ["own", "either"], "both"),
    ("four_hand_end", "bezique4", ["tricks", "duels"], "quads"),
]


@pytest.mark.parametrize(("name", "presets", "values", "bad"), OPTIONS_9_7)
def test_rules_9_7_every_new_option_takes_exactly_its_values(
        name: str, presets: str, values: list[Any], bad: Any) -> None:
    """RULES.md 9.7: each new option, on the presets it belongs to, defaults to the first value,
    takes the others, refuses any other; and no other preset takes it."""
    for variant in presets.split():
        assert getattr(Rules.preset(variant), name) == values[0], (variant, name)
        for v in values[1:]:
            assert getattr(Rules.preset(variant, **{name: v}), name) == v
        with pytest.raises(OptionError, match=name):
            Rules.preset(variant, **{name: bad})
    for variant in {"bezique", "binocle", "rubicon", "sixpack", "eightpack", "bezique3",
                    "bezique4"} - set(presets.split()):
        with pytest.raises(OptionError, match=name):
            Rules.preset(variant, **{name: values[-1]})


def test_rules_9_7_bezique_pair_trump() -> None:
    """RULES.md 9.7: "`bezique_pair` + `trump` (six/eight default)"; 9.1: Rubicon's is
    `standard`, or `trump` if agreed; 9.2: `standard` = always Q♠ J♦."""
    assert Rules.preset("rubicon").bezique_pair == "standard"
    assert Rules.preset("rubicon", bezique_pair="trump").bezique_pair == "trump"
    for variant in ("sixpack", "eightpack"):
        assert Rules.preset(variant).bezique_pair == "trump"
        assert Rules.preset(variant, bezique_pair="standard").bezique_pair == "standard"
    with pytest.raises(OptionError, match="bezique_pair"):
        Rules.preset("sixpack", bezique_pair="paired")


# ---------------------------------------------------------------- 9.8 records


def _session(variant: str, seeds: list[int]) -> tuple[dict[str, Any], list[State]]:
    deals = []
    for seed in seeds:
        game = Game(Rules.preset(variant), seed=seed, first_dealer=seed % 2)
        rng = random.Random(seed)
        while not game.is_over():
            legal = game.state.legal_action_strings()
            melds = [a for a in legal if a.startswith(("meld", "carte"))]
            game.apply(melds[0] if melds and rng.random() < 0.7 else rng.choice(legal))
        deals.append(game.state)
    return json.loads(json.dumps(game_record(Rules.preset(variant), deals))), deals


@pytest.mark.parametrize("variant", ["rubicon", "sixpack", "eightpack"])
def test_rules_9_8_replay_steps_are_the_deals_s_and_the_game_sums_the_values(
        variant: str) -> None:
    """RULES.md 9.8 and 9.10: "during a deal, a replay step's `scores` are the deal's *s* so
    far; `game.scores` sum the settled values, and `game.winner` is the player with the higher
    sum once a session ends"; `"turnup": null`."""
    record, deals = _session(variant, [1, 2])
    assert record["variant"] == variant and all(d["turnup"] is None for d in record["deals"])
    out = replay(parse_record(record))
    sums = [0, 0]
    for rd, end in zip(out["deals"], deals, strict=True):
        probe = State.from_cards(end.rules, [[p & 31 for p in h] for h in end.deal_hands], None,
                                 [p & 31 for p in end.stock], end.dealer)
        for step in rd["steps"]:
            assert step["ok"]
            probe.apply(step["action"])
            assert step["scores"] == list(probe.scores)
        assert rd["scores"] == list(end.scores)
        res = end.settlement()
        if res.winner >= 0:
            sums[res.winner] += res.value
    assert out["game"]["scores"] == sums
    assert out["game"]["winner"] == (None if sums[0] == sums[1] else sums.index(max(sums)))
