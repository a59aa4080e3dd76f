"""The engine protocol's stand-in deal for three and four seats (bezique.table_world), and
the seat's draws in its observation when a partner passes after an offer."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bezique import Rules, State
from bezique.errors import ProtocolError
from bezique.table_world import Act, table_world

TABLES = [("bezique3", {}), ("bezique4", {}), ("bezique4", {"four_hand_end": "duels"}),
          ("bezique4", {"partnership": False})]


def _copy(state: State) -> State:
    return State.from_cards(state.rules, [[p & 31 for p in h] for h in state.deal_hands],
                            None if state.turnup_card < 0 else state.turnup_card & 31,
                            [p & 31 for p in state.stock], state.dealer, state.totals)


def seat_view(state: State, seat: int) -> tuple[list[Act], list[int]]:
    """What the engine protocol is told: the actions (text, player, points of an exchange or
    a seven) and the cards ``seat`` drew at the passes, in order."""
    probe = _copy(state)
    acts: list[Act] = []
    draws: list[int] = []
    for who, text in state.history_strings():
        before, k = probe.hand_masks[seat] | probe.shown_masks[seat], len(probe.events)
        probe.apply(text)
        got = (probe.hand_masks[seat] | probe.shown_masks[seat]) & ~before
        if text == "pass" and got:
            draws.append((got.bit_length() - 1) & 31)
        pts = sum(e[1] for e in probe.events[k:] if e[0] == who)
        acts.append((text, who, pts if text in ("exchange", "seven") else None))
    return acts, draws


def random_position(variant: str, options: dict[str, object], seed: int, steps: int) -> State:
    rules = Rules.preset(variant, **options)
    rng = random.Random(seed)
    s = State.new_deal(rules, seed=seed, dealer=seed % rules.nplayers)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_action_strings()))
    return s


@settings(max_examples=24, deadline=None)
@given(config=st.sampled_from(TABLES), seed=st.integers(0, 2**31), steps=st.integers(0, 400))
def test_the_world_gives_the_seat_exactly_its_view(config: tuple[str, dict[str, object]],
                                                    seed: int, steps: int) -> None:
    """From what a seat was told (its dealt hand, the turn-up, the actions, its draws), a whole
    deal in which it sees exactly what it saw in the real one, for every seat."""
    s = random_position(*config, seed, steps)
    for seat in range(s.rules.nplayers):
        acts, draws = seat_view(s, seat)
        w = table_world(s.rules, seat, s.dealer, [p & 31 for p in s.deal_hands[seat]],
                        None if s.turnup_card < 0 else s.turnup_card & 31, acts, draws,
                        s.totals, seed)
        assert w.observation(seat) == s.observation(seat)
        assert w.history_strings() == s.history_strings()


def test_impossible_positions_get_one_clear_error() -> None:
    s = random_position("bezique3", {}, 5, 40)
    acts, draws = seat_view(s, 0)
    hand = [p & 31 for p in s.deal_hands[0]]
    turnup = s.turnup_card & 31
    with pytest.raises(ProtocolError, match="the card you drew is missing"):
        table_world(s.rules, 0, s.dealer, hand, turnup, acts, draws[:-1] if draws else [])
    mine = next(i for i, (_, who, _) in enumerate(acts) if who == 0)
    bad = [*acts[:mine], ("play " + "AS" if "AS" not in acts[mine][0] else "play 7C", 0, None)]
    with pytest.raises(ProtocolError, match="is refused"):
        table_world(s.rules, 0, s.dealer, hand, turnup, bad, draws)
    with pytest.raises(ProtocolError, match="too many"):
        table_world(s.rules, 0, s.dealer, [0] * 8, turnup, [], [0])
    with pytest.raises(ProtocolError, match="turn"):
        table_world(s.rules, 0, s.dealer, hand, turnup, [(acts[0][0], 2, None)], draws)


def test_after_an_offer_the_trick_winner_still_draws_first_in_every_seats_draws() -> None:
    """Found by the table world: the observation's draws assumed that whoever passes won the
    trick, but after an offer the partner passes and the winner draws first."""
    for seed in range(60):
        s = State.new_deal(Rules.preset("bezique4"), seed=seed)
        rng = random.Random(seed)
        offered = False
        while not s.is_terminal() and s.stock_left > 20:
            legal = [t for t in s.legal_action_strings() if t != "exchange"] or ["pass"]
            text = "offer" if "offer" in legal else rng.choice(legal)
            offered |= text == "offer"
            s.apply(text)
        if offered:
            break
    assert offered
    for seat in range(4):
        assert list(s.observation(seat).draws) == seat_view(s, seat)[1]


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(config=st.sampled_from(TABLES), seed=st.integers(0, 2**31), steps=st.integers(0, 420))
def test_the_world_fits_many_more_positions(config: tuple[str, dict[str, object]], seed: int,
                                            steps: int) -> None:
    """As above, over many more positions (CI runs it with the slow checks)."""
    test_the_world_gives_the_seat_exactly_its_view.hypothesis.inner_test(  # type: ignore
        config, seed, steps)
