"""Sampling worlds consistent with a seat's observation (the search AI's determinization)."""

from __future__ import annotations

import random

import pytest

from bezique import Rules, State
from bezique.agents.heuristic import HeuristicPolicy
from bezique.agents.sampling import WorldSampler, sample_world, sample_worlds

MODEL = HeuristicPolicy(solver_cards=0)  # the opponent model's policy, as the search uses it


def _position(rules: Rules, seed: int, steps: int) -> State:
    """A deal played ``steps`` actions at random, declaring and exchanging when it can."""
    rng = random.Random(seed)
    s = State.new_deal(rules, seed=seed, dealer=seed % 2)
    for _ in range(steps):
        if s.is_terminal():
            break
        acts = s.legal_actions()
        scoring = [a for a in acts if a >= 257]
        s.apply_action(rng.choice(scoring) if scoring and rng.random() < 0.8 else rng.choice(acts))
    return s


CASES = [
    ("bezique", {}),
    ("binocle", {}),
    ("bezique", {"seven": "played"}),
    ("bezique", {"brisques": "immediate", "last_trick": "stock"}),
]


@pytest.mark.parametrize(("variant", "options"), CASES)
def test_every_sampled_world_gives_the_same_observation(variant: str,
                                                        options: dict[str, str]) -> None:
    rules = Rules.preset(variant, **options)
    for seed in range(25):
        s = _position(rules, seed, random.Random(seed).randrange(0, 110))
        for seat in (0, 1):
            obs = s.observation(seat)
            for world in sample_worlds(obs, 2, random.Random(seed)):
                assert world.observation(seat) == obs


def test_worlds_at_every_step_of_a_deal_with_melds_and_the_end_phase() -> None:
    rules = Rules.preset("bezique")
    s = _position(rules, 11, 0)
    rng = random.Random(5)
    while not s.is_terminal():
        for seat in (0, 1):
            obs = s.observation(seat)
            assert sample_world(obs, rng).observation(seat) == obs
        acts = s.legal_actions()
        scoring = [a for a in acts if a >= 257]
        s.apply_action(scoring[0] if scoring else rng.choice(acts))


def test_same_seed_same_worlds() -> None:
    obs = _position(Rules.preset("bezique"), 3, 40).observation(0)
    a = sample_worlds(obs, 3, random.Random(9))
    b = sample_worlds(obs, 3, random.Random(9))
    assert [w.key() for w in a] == [w.key() for w in b]


def test_sampler_deals_the_unseen_cards_not_the_real_ones() -> None:
    # the opponent's hand and the stock vary from world to world, so they are not read from
    # the real state (which the sampler is never given)
    s = _position(Rules.preset("bezique"), 4, 30)
    obs = s.observation(0)
    worlds = sample_worlds(obs, 12, random.Random(1))
    hands = {tuple(w.hand(1)) for w in worlds}
    assert len(hands) > 1
    assert sum(tuple(w.hand(1)) == tuple(s.hand(1)) for w in worlds) < len(worlds)
    # every world keeps what seat 0 knows: its own hand and the public cards
    for w in worlds:
        assert w.hand(0) == s.hand(0)
        assert w.shown(1) == s.shown(1)


def test_two_real_states_with_one_observation_give_the_same_worlds() -> None:
    s = _position(Rules.preset("bezique"), 6, 50)
    obs = s.observation(1)
    other = sample_world(obs, random.Random(77))  # a different arrangement of hidden cards
    assert other.observation(1) == obs
    a = WorldSampler(obs).sample(random.Random(3))
    b = WorldSampler(other.observation(1)).sample(random.Random(3))
    assert a.key() == b.key()


def _passes_with_points(world: State, seat: int) -> int:
    """How often ``seat`` won a trick and passed although it could have scored, in ``world``'s
    history (replayed from its deal)."""
    obs = world.observation(1 - seat)
    replay = State.from_cards(world.rules, [[p & 31 for p in h] for h in world.deal_hands],
                              world.turnup_card & 31, [p & 31 for p in world.stock],
                              obs.dealer, obs.totals)
    count = 0
    fresh = False
    for player, text in obs.actions:
        if fresh and player == seat and text == "pass" and len(replay.legal_actions()) > 1:
            count += 1
        fresh = text.startswith("play") and replay.phase == "follow"
        replay.apply(text)
    return count


def test_inference_prefers_worlds_where_the_opponent_had_nothing_to_declare() -> None:
    # two heuristic players: the heuristic always scores what it can, so in the real deal the
    # opponent never passed with points to score; uniform worlds often say it did
    from bezique.agents import make_agent

    rules = Rules.preset("bezique")
    uniform = inferred = 0
    for seed in range(6):
        s = State.new_deal(rules, seed, dealer=1)
        players = [make_agent("heuristic", seed=1), make_agent("heuristic", seed=2)]
        for _ in range(40):
            s.apply(players[s.current_player()].act(s.observation(s.current_player())))
        obs = s.observation(0)
        assert _passes_with_points(s, 1) == 0
        rng = random.Random(seed)
        plain, weighted = WorldSampler(obs), WorldSampler(obs, infer=0.95)
        for _ in range(15):
            w = weighted.sample(rng)
            assert w.observation(0) == obs
            inferred += _passes_with_points(w, 1)
            uniform += _passes_with_points(plain.sample(rng), 1)
    assert uniform >= 40 and inferred <= uniform // 3


@pytest.mark.parametrize(("variant", "options"), CASES)
def test_opponent_model_worlds_give_the_same_observation(variant: str,
                                                         options: dict[str, str]) -> None:
    # the chain's swaps keep every card the opponent used in a slot it had received in time
    rules = Rules.preset(variant, **options)
    for seed in range(6):
        s = _position(rules, seed, random.Random(seed).randrange(10, 100))
        for seat in (0, 1):
            obs = s.observation(seat)
            sampler = WorldSampler(obs, infer=0.9, model=0.9, policy=MODEL)
            worlds = [sampler.sample(random.Random(seed)) for _ in range(3)]
            for world in worlds:
                assert world.observation(seat) == obs


def _model_misses(world: State, seat: int) -> int:
    """How many of ``seat``'s stock-phase choices in ``world``'s history differ from what the
    heuristic would have chosen with that world's cards."""
    from bezique.agents.heuristic import HeuristicPolicy

    policy = HeuristicPolicy(solver_cards=0)
    obs = world.observation(1 - seat)
    replay = State.from_cards(world.rules, [[p & 31 for p in h] for h in world.deal_hands],
                              world.turnup_card & 31, [p & 31 for p in world.stock],
                              obs.dealer, obs.totals)
    misses = 0
    for player, text in obs.actions:
        if (player == seat and not replay.end_phase and len(replay.legal_actions()) > 1
                and replay.action_to_string(policy.choose(replay)) != text):
            misses += 1
        replay.apply(text)
    return misses


def test_opponent_model_finds_worlds_where_the_opponent_played_sensibly() -> None:
    # against a heuristic opponent the real deal explains every one of its choices; uniform
    # worlds explain few, the model's chain far more
    from bezique.agents import make_agent

    rules = Rules.preset("bezique")
    misses = {"uniform": 0, "model": 0}
    for seed in range(5):
        s = State.new_deal(rules, seed, dealer=1)
        players = [make_agent("heuristic", seed=1), make_agent("heuristic", seed=2)]
        for _ in range(50 + 6 * seed):
            s.apply(players[s.current_player()].act(s.observation(s.current_player())))
        assert _model_misses(s, 1) == 0
        obs = s.observation(0)
        samplers = {"uniform": WorldSampler(obs),
                    "model": WorldSampler(obs, model=0.9, policy=MODEL)}
        for name, sampler in samplers.items():
            rng = random.Random(seed)
            for _ in range(10):
                w = sampler.sample(rng)
                assert w.observation(0) == obs
                misses[name] += _model_misses(w, 1)
    assert misses["uniform"] >= 100
    assert misses["model"] <= misses["uniform"] // 2


def test_opponent_model_same_seed_same_worlds() -> None:
    obs = _position(Rules.preset("bezique"), 8, 45).observation(1)
    a = WorldSampler(obs, model=0.8, policy=MODEL)
    b = WorldSampler(obs, model=0.8, policy=MODEL)
    ra, rb = random.Random(4), random.Random(4)
    assert [a.sample(ra).key() for _ in range(3)] == [b.sample(rb).key() for _ in range(3)]


def test_sampled_worlds_keep_the_dealt_turnup() -> None:
    """Every sampled world has the dealt turn-up the seat saw (``obs.turnup_dealt``)."""
    for seed in range(6):
        s = _position(Rules.preset("bezique"), seed, 70)
        for seat in (0, 1):
            obs = s.observation(seat)
            for world in sample_worlds(obs, 3, random.Random(seed)):
                assert world.observation(seat).turnup_dealt == obs.turnup_dealt


def test_past_its_deadline_the_sampler_takes_the_likeliest_world_it_has_tried() -> None:
    # with strong inference most tries are rejected; a deadline already past ends the search at
    # the first consistent world (still a world of this observation), where without one the
    # sampler keeps trying: the two differ in how often the opponent passed up points
    import time

    from bezique.agents import make_agent

    rules = Rules.preset("bezique")
    hurried = patient = 0
    for seed in range(6):
        s = State.new_deal(rules, seed, dealer=1)
        players = [make_agent("heuristic", seed=1), make_agent("heuristic", seed=2)]
        for _ in range(40):
            s.apply(players[s.current_player()].act(s.observation(s.current_player())))
        obs = s.observation(0)
        sampler = WorldSampler(obs, infer=0.95)
        rng = random.Random(seed)
        for _ in range(15):
            w = sampler.sample(rng, deadline=time.perf_counter() - 1.0)
            assert w.observation(0) == obs
            hurried += _passes_with_points(w, 1)
            patient += _passes_with_points(sampler.sample(rng), 1)
    assert hurried > patient
