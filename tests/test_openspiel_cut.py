"""OpenSpiel with the cut bonus (RULES.md 9.2, 9.7): the dealer's cut is a chance node with the
engine's distribution, the non-dealer's guess a decision with ids of its own, and the guess and
the cut show in a seat's view once the guess is made, never before.

The generic OpenSpiel checks (``random_sim_test`` with serialization, the Python games' checks)
run on the cut-bonus game in ``test_openspiel.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import bezique.openspiel as bos  # noqa: E402
from bezique import Rules, State  # noqa: E402
from bezique.agents import make_agent  # noqa: E402
from bezique.deal import dealt_cut  # noqa: E402
from bezique.openspiel_encoding import MELD_CAP, Layout, action_table, describe_id  # noqa: E402

CUT = "python_bezique(variant=sixpack,cut_bonus=true)"
RULES = Rules.preset("sixpack", cut_bonus=True)
GUESS_BASE = 32 + 32 * 6 + 5 + MELD_CAP  # the guess of 18 cards in six-pack


def cards_dealt(game: Any, engine: State) -> Any:
    """The OpenSpiel state with every card of ``engine``'s deal dealt, before the cut."""
    state = game.new_initial_state()
    n = engine.rules.nplayers
    for i in range(n):
        for p in engine.deal_hands[(engine.dealer + 1 + i) % n]:
            state.apply_action(p & 31)
    for p in engine.stock:
        state.apply_action(p & 31)
    return state


def views(state: Any, seat: int) -> tuple[Any, ...]:
    return (state.information_state_string(seat), state.observation_string(seat),
            state.information_state_tensor(seat), state.observation_tensor(seat))


def test_sizes_with_and_without_the_cut_bonus() -> None:
    plain = pyspiel.load_game("python_bezique(variant=sixpack)")
    game = pyspiel.load_game(CUT)
    # without the cut bonus nothing moves
    assert plain.num_distinct_actions() == GUESS_BASE
    assert plain.observation_tensor_shape() == [374]
    assert plain.max_chance_outcomes() == 32
    # with it: 13 guesses (18..30), a cut block of 1 + 13 + 13, one more chance node and move
    assert game.num_distinct_actions() == GUESS_BASE + 13
    assert game.max_chance_outcomes() == 32  # cuts of 18..30 are outcome ids below 32
    assert game.max_game_length() == plain.max_game_length() + 2
    assert game.observation_tensor_shape() == [374 + 27]
    assert (game.information_state_tensor_shape()[0]
            == plain.information_state_tensor_shape()[0] + 27)
    wide = pyspiel.load_game("python_bezique", {"variant": "eightpack", "cut_bonus": True,
                                                "cut_range": "10-40"})
    assert wide.max_chance_outcomes() == 41  # the outcome id is the cut: up to 40
    assert wide.num_distinct_actions() == 32 + 32 * 8 + 5 + MELD_CAP + 31


def test_the_cut_is_a_chance_node_drawn_as_the_engine_draws_it() -> None:
    engine = State.new_deal(RULES, seed=4)
    game = pyspiel.load_game(CUT)
    state = cards_dealt(game, engine)
    assert state.is_chance_node() and state.engine is None
    outcomes = state.chance_outcomes()
    assert [n for n, _ in outcomes] == list(range(18, 31))
    assert all(p == pytest.approx(1 / 13) for _, p in outcomes)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 24) == "cut 24"
    for bad in (17, 31, 5):  # outside cut_range, or a card id: no outcome here
        with pytest.raises(pyspiel.SpielError, match="not a cut"):
            state.clone().apply_action(bad)
    state.apply_action(engine.cut)
    assert state.engine.cut == engine.cut
    assert [[p & 31 for p in h] for h in state.engine.deal_hands] == [
        [p & 31 for p in h] for h in engine.deal_hands]
    assert state.current_player() == 0  # the non-dealer (dealer 1) guesses
    # the engine's cut: uniform over cut_range, and the cards are the same shuffle with or
    # without it, so the cut node after the cards is the engine's joint distribution
    draws = Counter(dealt_cut(RULES, random.Random(i)) for i in range(2600))
    assert set(draws) == set(range(18, 31))
    assert all(140 <= k <= 260 for k in draws.values()), draws  # 200 each expected
    for seed in range(5):
        assert (State.new_deal(RULES, seed=seed).deal_hands
                == State.new_deal(Rules.preset("sixpack"), seed=seed).deal_hands)


def test_state_from_engine_is_the_engines_deal_with_its_cut() -> None:
    game = pyspiel.load_game(CUT)
    engine = State.new_deal(RULES, seed=6)
    state = bos.state_from_engine(game, engine)
    assert state.engine.cut == engine.cut and state.engine.phase == "guess"
    engine = state.engine.clone()  # its copies numbered as a deal given card by card numbers them
    engine.apply(f"guess {engine.cut}")
    rng = random.Random(6)
    for _ in range(20):  # (the copies OpenSpiel's ids name)
        engine.apply_action(rng.choice(sorted(action_table(engine).values())))
    state = bos.state_from_engine(game, engine)
    assert state.engine.scores == engine.scores and state.engine.scores[0] >= 150
    for seat in range(2):
        assert state.information_state_string(seat).startswith(engine.observation(seat).text())


@pytest.mark.parametrize("dealer", [0, 1])
def test_the_guess_is_the_non_dealers_decision_with_ids_of_its_own(dealer: int) -> None:
    game = pyspiel.load_game(f"python_bezique(variant=sixpack,cut_bonus=true,dealer={dealer})")
    engine = State.new_deal(RULES, seed=2, dealer=dealer)
    state = bos.state_from_engine(game, engine)
    guesser = 1 - dealer
    assert state.current_player() == guesser
    legal = state.legal_actions()
    assert legal == list(range(GUESS_BASE, GUESS_BASE + 13))
    assert [state.action_to_string(a) for a in legal] == [f"guess {n}" for n in range(18, 31)]
    for a in legal:
        assert state.engine_to_id(state.engine.string_to_action(state.action_to_string(a))) == a
    wrong = next(n for n in range(18, 31) if n not in (engine.cut, 24))
    missed = state.clone()
    missed.apply_action(GUESS_BASE + wrong - 18)
    state.apply_action(GUESS_BASE + engine.cut - 18)
    assert state.engine.scores[guesser] == 150  # the right guess scores 150
    assert missed.engine.scores[guesser] == 0
    assert state.engine.scores[dealer] == missed.engine.scores[dealer] == (
        250 if engine.cut == 24 else 0)  # a cut of 24 cards scores 250 for the dealer
    assert all(a < GUESS_BASE for a in state.legal_actions())  # one guess, before play
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(GUESS_BASE)
    assert state.action_to_string(GUESS_BASE + 6) == "guess 24"  # not legal now: named anyway


def test_the_cut_is_hidden_until_the_guess_then_guess_and_cut_are_public() -> None:
    """Two deals alike but for the cut: no seat can tell them apart before the guess, in any
    string or tensor; after the same guess every seat sees both the guess and the cut."""
    game = pyspiel.load_game(CUT)
    engine = State.new_deal(RULES, seed=8)
    a, b = cards_dealt(game, engine), cards_dealt(game, engine)
    for seat in range(2):
        assert views(a, seat) == views(b, seat)
    a.apply_action(19)
    b.apply_action(25)
    layout = Layout(game.rules)
    for seat in range(2):
        assert views(a, seat) == views(b, seat)
        assert a.observation_string(seat).endswith("guess=- cut=-")
        assert a.information_state_string(seat).endswith(" cut=-")
        block = a.observation_tensor(seat)[-layout.cut_block_size:]
        assert block[0] == 1.0 and sum(block) == 1.0  # guessing now; no guess, no cut yet
    a.apply_action(GUESS_BASE + 20 - 18)
    b.apply_action(GUESS_BASE + 20 - 18)
    for seat in range(2):
        assert a.observation_string(seat).endswith("guess=20 cut=19")
        assert b.information_state_string(seat).endswith("actions=0:guess 20 draws= cut=25")
        block = a.observation_tensor(seat)[-layout.cut_block_size:]
        assert block[0] == 0.0
        assert block[1 + 20 - 18] == 1.0 and block[1 + 13 + 19 - 18] == 1.0 and sum(block) == 2
        assert a.information_state_tensor(seat) != b.information_state_tensor(seat)
        assert a.observation_string(seat) != b.observation_string(seat)


def test_resampling_redraws_the_cut_only_before_the_guess() -> None:
    game = pyspiel.load_game(CUT)
    state = bos.state_from_engine(game, State.new_deal(RULES, seed=10))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    cuts = set()
    for _ in range(12):
        world = state.resample_from_infostate(0, sampler)
        assert views(world, 0) == views(state, 0)
        assert world.legal_actions() == state.legal_actions()
        cuts.add(world.engine.cut)
    assert len(cuts) > 1  # nobody knows the cut yet: each world draws its own
    state.apply_action(GUESS_BASE + 3)
    play = random.Random(10)
    for _ in range(15):
        state.apply_action(play.choice(state.legal_actions()))
    seat = state.current_player()
    for _ in range(6):
        world = state.resample_from_infostate(seat, sampler)
        assert world.engine.cut == state.engine.cut  # public since the guess
        assert views(world, seat) == views(state, seat)


def test_openspiels_ismcts_bot_guesses_and_plays() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(CUT)
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=300.0,
                           max_simulations=6, random_state=rng)
    state = bos.state_from_engine(game, State.new_deal(RULES, seed=12))
    guess = bot.step(state)
    assert GUESS_BASE <= guess < GUESS_BASE + 13
    state.apply_action(guess)
    for _ in range(8):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    # our openspiel-ismcts agent, given only the guesser's observation, guesses too
    obs = State.new_deal(RULES, seed=12).observation(0)
    choice = make_agent("openspiel-ismcts:simulations=3", seed=1).act(obs)
    assert choice in obs.legal and choice.startswith("guess ")


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 127), st.integers(0, 20), st.integers(0, 2**32))
def test_every_cut_range_numbers_the_guesses_and_cuts_in_range(lo: int, width: int,
                                                               seed: int) -> None:
    """For any ``cut_range``: the guess ids follow the melds, one per size, in order; the
    chance outcome ids (the cut sizes) fit ``max_chance_outcomes``."""
    hi = min(127, lo + width)
    rules = Rules.preset("sixpack", cut_bonus=True, cut_range=f"{lo}-{hi}")
    layout = Layout(rules)
    assert layout.num_distinct_actions == layout.meld_base + MELD_CAP + hi - lo + 1
    assert layout.max_chance_outcomes == max(32, hi + 1)
    engine = State.new_deal(rules, seed=seed)
    table = action_table(engine)
    assert sorted(table) == list(range(layout.guess_base, layout.num_distinct_actions))
    for i, a in table.items():
        assert describe_id(layout, i) == engine.action_to_string(a)
    assert lo <= engine.cut <= hi < layout.max_chance_outcomes
