"""OpenSpiel: ``python_bezique`` passes OpenSpiel's generic checks, models the deal as chance,
observes only what a seat may see, and OpenSpiel's own ISMCTS bot plays it.

Needs the ``openspiel`` extra (``pip install -e '.[test,openspiel]'``); without ``pyspiel`` the
module is skipped.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import bezique.openspiel as bos  # noqa: E402
from bezique import Rules, State  # noqa: E402
from bezique.deal import shuffled_deal  # noqa: E402
from bezique.openspiel_encoding import MELD_CAP, Layout, rules_from_parameters  # noqa: E402


def deal_sequence(rules: Rules, seed: int, dealer: int = 1) -> list[int]:
    """The chance outcomes (card ids in dealing order) of a shuffled deal."""
    hands, turnup, stock = shuffled_deal(rules, seed, dealer)
    n = rules.nplayers
    seq = [p & 31 for i in range(n) for p in hands[(dealer + 1 + i) % n]]
    if turnup >= 0:
        seq.append(turnup & 31)
    return seq + [p & 31 for p in stock]


def dealt_state(game: Any, seq: list[int]) -> Any:
    state = game.new_initial_state()
    for c in seq:
        assert state.is_chance_node()
        state.apply_action(c)
    return state


def play_random(state: Any, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_registered_and_loaded_by_name() -> None:
    assert "python_bezique" in pyspiel.registered_names()
    assert pyspiel.load_game("python_bezique").get_type().short_name == bos.GAME_TYPE.short_name
    game = pyspiel.load_game("python_bezique")
    assert game.num_players() == 2
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.max_chance_outcomes() == 32
    assert game.new_initial_state().is_chance_node()


CUT_GAME = "python_bezique(variant=sixpack,cut_bonus=true)"  # the cut bonus (RULES.md 9.2)


@pytest.mark.parametrize("name", ["python_bezique", "python_bezique(variant=binocle)",
                                  "python_bezique(dealer=0,brisques=immediate,target=1500)",
                                  CUT_GAME,  # and cuts past the card ids 0..31:
                                  "python_bezique(variant=sixpack,cut_bonus=true,cut_range=20_40,"
                                  "dealer=0)"])
def test_random_sim_test_with_serialization(name: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["python_bezique", CUT_GAME])
def test_the_checks_openspiels_python_games_are_held_to(name: str) -> None:
    """As ``open_spiel/python/tests/games_sim_test.py``'s ``sim_game``: pickled game and game
    type, serialization and pickling of states, clones that follow, returns in range, no legal
    action at the end; and the Python observation API's tensors of the declared shapes."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(name)
    assert game.min_utility() < game.max_utility()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert pickle.loads(pickle.dumps(game.get_type())) == game.get_type()
    observers = [make_observation(game, o) for o in
                 (None, pyspiel.IIGObservationType(perfect_recall=True))]
    shapes = [game.observation_tensor_shape(), game.information_state_tensor_shape()]
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    moves, check = 0, 1
    while not state.is_terminal():
        moves += 1
        if moves >= check:
            text = pyspiel.serialize_game_and_state(game, state)
            assert str(pyspiel.deserialize_game_and_state(text)[1]) == str(state)
            assert str(pickle.loads(pickle.dumps(state))) == str(state)
            check *= 2
        for obs, shape in zip(observers, shapes, strict=True):
            for seat in range(2):
                obs.set_from(state, seat)
                assert list(obs.tensor.shape) == shape
                assert obs.string_from(state, seat)
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert sum(probs) == pytest.approx(1)
            assert all(0 <= o < game.max_chance_outcomes() for o in outcomes)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            legal = state.legal_actions(state.current_player())
            assert all(0 <= a < game.num_distinct_actions() for a in legal)
            action = int(rng.choice(legal))
            clone = state.clone()
            state.apply_action(action)
            clone.apply_action(action)
            assert str(clone) == str(state) and clone.history() == state.history()
    assert moves <= game.max_game_length()
    assert state.legal_actions() == []
    for seat in range(2):
        assert state.legal_actions(seat) == []
        assert state.player_return(seat) == state.returns()[seat]
        assert game.min_utility() <= state.returns()[seat] <= game.max_utility()


def test_parameters_reach_the_rules() -> None:
    game = pyspiel.load_game("python_bezique(variant=binocle,target=1500)")
    assert game.rules.variant == "binocle" and game.rules.target == 1500
    assert game.rules.fours_distinct_suits  # a preset's own default is kept
    game = pyspiel.load_game("python_bezique", {"brisques": "immediate", "reform": True})
    assert game.rules.brisques == "immediate" and game.rules.reform
    assert rules_from_parameters({"variant": "bezique"}) == Rules.preset("bezique")
    with pytest.raises(ValueError, match="unknown variant"):
        pyspiel.load_game("python_bezique(variant=nosuch)")
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("python_bezique(colour=red)")
    # the cut bonus; a game string spells cut_range 20_28 (OpenSpiel reads 20-28 as a number)
    game = pyspiel.load_game("python_bezique(variant=eightpack,cut_bonus=true,cut_range=20_28)")
    assert game.rules.cut_bonus and game.rules.cut_range == "20-28"
    game = pyspiel.load_game("python_bezique", {"variant": "sixpack", "cut_bonus": True,
                                                "cut_range": "20-28"})
    assert pyspiel.load_game(str(game)).rules == game.rules  # the game's string loads again
    with pytest.raises(ValueError, match="'cut_bonus' does not apply to rubicon"):
        pyspiel.load_game("python_bezique(variant=rubicon,cut_bonus=true)")


def test_tensor_shapes_and_strings_for_every_seat() -> None:
    game = pyspiel.load_game("python_bezique")
    layout = Layout(game.rules)
    assert game.information_state_tensor_shape() == [layout.information_state_size]
    assert game.observation_tensor_shape() == [layout.observation_size]
    assert game.num_distinct_actions() == 32 + 64 + 5 + MELD_CAP
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        for seat in range(2):
            assert len(state.information_state_tensor(seat)) == layout.information_state_size
            assert len(state.observation_tensor(seat)) == layout.observation_size
            assert state.information_state_string(seat)
            assert state.observation_string(seat)
        play_random(state, rng, 1)
    assert sum(state.returns()) == 0


def test_the_chance_model_deals_card_by_card_by_copies_left() -> None:
    game = pyspiel.load_game("python_bezique")
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [c for c, _ in outcomes] == list(range(32))
    assert all(p == pytest.approx(1 / 32) for _, p in outcomes)
    state.apply_action(5)
    probs = dict(state.chance_outcomes())
    assert probs[5] == pytest.approx(1 / 63) and probs[6] == pytest.approx(2 / 63)
    state.apply_action(5)
    assert 5 not in dict(state.chance_outcomes())
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(5)


def test_the_deal_is_the_engines_deal() -> None:
    rules = Rules.preset("bezique")
    game = pyspiel.load_game("python_bezique")
    state = dealt_state(game, deal_sequence(rules, 11))
    engine = State.new_deal(rules, seed=11)
    assert state.current_player() == engine.current_player() == 0
    assert state.information_state_string(0) == engine.observation(0).text()
    assert sorted(state.action_to_string(a) for a in state.legal_actions()) == sorted(
        engine.action_to_string(a) for a in engine.legal_actions())


def test_hidden_cards_never_show_in_a_seats_view() -> None:
    """Two worlds that differ only in seat 1's hidden cards and the stock look the same to seat
    0, during the deal and after it, in every string and tensor."""
    rules = Rules.preset("bezique")
    game = pyspiel.load_game("python_bezique")
    seq = deal_sequence(rules, 5)
    other = list(seq)
    # seat 0 (the dealer's left) gets cards 0..7, seat 1 cards 8..15, the turn-up is 16
    i = next(k for k in range(8, 16) if seq[k] not in seq[:8] and seq[k] != seq[20])
    other[i], other[20] = other[20], other[i]  # one hidden card of seat 1 swapped with the stock
    a, b = game.new_initial_state(), game.new_initial_state()
    for x, y in zip(seq, other, strict=True):
        a.apply_action(x)
        b.apply_action(y)
        assert a.information_state_string(0) == b.information_state_string(0)
        assert a.observation_string(0) == b.observation_string(0)
        assert a.information_state_tensor(0) == b.information_state_tensor(0)
        assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert a.information_state_tensor(1) != b.information_state_tensor(1)
    # the same first move keeps them alike for seat 0
    move = a.legal_actions()[0]
    a.apply_action(move)
    b.apply_action(move)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)


def test_stock_order_is_hidden_until_drawn() -> None:
    rules = Rules.preset("bezique")
    game = pyspiel.load_game("python_bezique")
    seq = deal_sequence(rules, 8)
    other = seq[:17] + seq[17:][::-1]
    a, b = dealt_state(game, seq), dealt_state(game, other)
    for seat in range(2):
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert a.observation_tensor(seat) == b.observation_tensor(seat)


def test_every_legal_id_has_its_own_text_and_round_trips() -> None:
    game = pyspiel.load_game("python_bezique(variant=binocle)")
    rng = random.Random(3)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                legal = state.legal_actions()
                assert legal == sorted(legal)
                texts = [state.action_to_string(a) for a in legal]
                assert len(set(texts)) == len(texts)
                engine = state.engine
                for a, text in zip(legal, texts, strict=True):
                    assert state.engine_to_id(engine.string_to_action(text)) == a
            play_random(state, rng, 1)
    state = dealt_state(game, deal_sequence(game.rules, 1))
    assert state.action_to_string(game.num_distinct_actions() - 1).startswith("meld #")
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(game.num_distinct_actions() - 1)


def test_clone_serialize_and_pickle() -> None:
    game = pyspiel.load_game("python_bezique")
    state = game.new_initial_state()
    play_random(state, random.Random(2), 90)
    clone = state.clone()
    assert str(clone) == str(state) and clone.history() == state.history()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()
    assert state.engine.history() != clone.engine.history()
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


def test_resample_from_infostate_keeps_the_information_state() -> None:
    game = pyspiel.load_game("python_bezique")
    state = game.new_initial_state()
    play_random(state, random.Random(4), 64 + 30)
    assert not state.is_chance_node()
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differ = 0
    for _ in range(5):
        world = state.resample_from_infostate(seat, sampler)
        assert world.current_player() == seat
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert world.legal_actions() == state.legal_actions()
        assert len(world.history()) == len(state.history())
        differ += world.history() != state.history()
        play_random(world, random.Random(5), 500)
        assert world.is_terminal()
    assert differ  # the unseen cards are dealt afresh


def test_openspiels_ismcts_bot_plays_a_whole_deal() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_bezique")
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rng)
            for _ in range(2)]
    state = game.new_initial_state()
    chance = random.Random(7)
    while not state.is_terminal():
        if state.is_chance_node():
            play_random(state, chance, 1)
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == 0
    assert any(state.returns()) or state.engine.scores[0] == state.engine.scores[1]


def test_more_seats_and_packs() -> None:
    for name in ("python_bezique(variant=bezique3)", "python_bezique(variant=rubicon)"):
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        play_random(state, random.Random(9), 10_000)
        assert state.is_terminal()
        assert sum(state.returns()) == pytest.approx(0)
