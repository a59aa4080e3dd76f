"""Worlds that deal the other hand the kinds of card players keep (``search:hands=kept``)."""

from __future__ import annotations

import ast
import random
from collections import Counter
from pathlib import Path

import pytest
from helpers import benchmark

from bezique import Rules, State
from bezique.agents import make_agent
from bezique.agents.heuristic import HeuristicPolicy
from bezique.agents.holdings import HOLDING_WEIGHTS, KINDS, PHASES, card_weights, kind_of
from bezique.agents.sampling import WorldSampler
from bezique.cards import parse_card, rank_of
from bezique.errors import OptionError

fit_holdings = benchmark("fit_holdings")


def _heuristic_position(variant: str, seed: int, stock: int) -> State:
    """Heuristic self-play of ``variant`` until at most ``stock`` cards are left in the stock."""
    s = State.new_deal(Rules.preset(variant), seed=seed)
    p = HeuristicPolicy(solver_cards=0)
    while s.stock_left > stock:
        s.apply_action(p.choose(s))
    return s


def test_kinds_follow_the_trump_suit_and_the_variants_bezique_pair() -> None:
    rubicon, sixpack = Rules.preset("rubicon"), Rules.preset("sixpack")
    assert kind_of(rubicon, parse_card("AH"), -1) == "plain-A"  # no trumps fixed yet
    assert kind_of(rubicon, parse_card("AH"), 1) == "trump-A"
    assert kind_of(rubicon, parse_card("QS"), 1) == "bezique-Q"
    # in Six-pack the bezique follows trumps: with hearts trumps it is the queen and jack of hearts
    assert kind_of(sixpack, parse_card("QH"), 1) == "bezique-Q"
    assert kind_of(sixpack, parse_card("QS"), 1) == "plain-Q"
    assert len(set(KINDS)) == len(KINDS) == 18


def test_card_weights_exist_where_fitted_and_are_positive() -> None:
    for variant in ("bezique", "rubicon", "sixpack", "eightpack"):
        got = card_weights(Rules.preset(variant), 0, 10)
        assert (got is None) == (variant not in HOLDING_WEIGHTS)
    table = HOLDING_WEIGHTS["rubicon"]
    assert len(table) == PHASES and all(len(row) == len(KINDS) for row in table)
    rules = Rules.preset("rubicon")
    late = card_weights(rules, 0, 10)
    assert late is not None and len(late) == 32 and min(late) > 0
    # the fitted Rubicon players keep aces and throw small plain cards late in the deal
    ace, seven = parse_card("AH"), parse_card("7H")
    assert late[ace] > 1.5 * late[seven]


def test_weighted_worlds_still_give_the_observation_and_follow_the_weights() -> None:
    s = _heuristic_position("rubicon", 5, 40)
    seat = s.current_player()
    obs = s.observation(seat)
    # (where the other seat showed a carte blanche, its worlds are dealt uniformly)
    assert not any(text == "carte" for _, text in obs.actions)
    ace = rank_of(parse_card("AS"))
    aces = [1000.0 if rank_of(c) == ace else 1.0 for c in range(32)]
    plain, weighted = WorldSampler(obs), WorldSampler(obs, weights=aces)
    count = Counter[str]()
    for k in range(12):
        for name, sampler in (("plain", plain), ("weighted", weighted)):
            world = sampler.sample(random.Random(k))
            assert world.observation(seat) == obs
            hidden = Counter(p & 31 for p in world.hand(1 - seat)) - Counter(obs.opponent_known)
            count[name] += sum(n for c, n in hidden.items() if rank_of(c) == ace)
    assert count["weighted"] > count["plain"] + 12


def test_the_search_option_is_checked_and_plays_legal_moves() -> None:
    with pytest.raises(OptionError, match="hands must be auto, uniform or kept"):
        make_agent("search:hands=mine")
    s = _heuristic_position("rubicon", 2, 60)
    agent = make_agent("search:hands=kept,samples=4,seed=1")
    for _ in range(6):
        if s.is_terminal():
            break
        text = agent.act(s.observation(s.current_player()))
        assert text in s.legal_action_strings()
        s.apply(text)


def test_the_fit_moves_the_weights_towards_the_real_hands_and_writes_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules.preset("rubicon")
    deals = fit_holdings.positions(rules, 2, 3, 12)
    train = [p for d in deals for p in d]
    table = fit_holdings.fit(rules, train, 1, 2, 1)
    assert len(table) == PHASES and all(0.05 <= w <= 20.0 for row in table for w in row)
    # the heuristic throws its small plain cards: after one round they weigh less than its aces
    seven, ace = KINDS.index("plain-7"), KINDS.index("plain-A")
    assert sum(row[seven] for row in table) < sum(row[ace] for row in table)
    module = tmp_path / "holdings.py"
    source = Path(fit_holdings.MODULE).read_text(encoding="utf-8")
    module.write_text(source, encoding="utf-8")
    monkeypatch.setattr(fit_holdings, "MODULE", module)
    fit_holdings.write("sixpack", table)
    text = module.read_text(encoding="utf-8")
    assert '"sixpack": (' in text and '"rubicon": (' in text
    body = text.split("HOLDING_WEIGHTS: dict[str, tuple[tuple[float, ...], ...]] = ")[1]
    written = ast.literal_eval(body[:body.index("\n}\n") + 2])
    assert written["rubicon"] == HOLDING_WEIGHTS["rubicon"]
    for got, row in zip(written["sixpack"], table, strict=True):
        assert got == pytest.approx(row, rel=5e-3)  # (three digits written)
