"""The Gymnasium environment: Gymnasium's own checker, masks, opponents by name, rewards from
the learner's side, seeds, illegal indices and random play."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from bezique import IllegalActionError, Rules  # noqa: E402
from bezique.encoding import OBS_SIZE, legal_index_map  # noqa: E402
from bezique.errors import OptionError  # noqa: E402
from bezique.gymnasium_env import BeziqueEnv  # noqa: E402


@pytest.mark.filterwarnings("ignore:.*not having a spec")  # the next test checks them via make
@pytest.mark.parametrize("opponent", ["random", "heuristic"])
def test_gymnasium_check_env(opponent: str) -> None:
    check_env(BeziqueEnv("bezique", opponent=opponent, render_mode="ansi"))


def test_gymnasium_check_env_through_make_checks_the_render_modes() -> None:
    env = gymnasium.make("bezique/Binocle-v0", opponent="random", render_mode="ansi")
    assert env.spec is not None
    check_env(env.unwrapped)
    env.close()


def play(env: BeziqueEnv, seed: int) -> tuple[list[int], float, dict[str, object]]:
    """Random masked play to the end: the actions, the final reward and info."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    actions: list[int] = []
    while True:
        assert env.observation_space.contains(obs)
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (env.action_space.n,)
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        assert sorted(np.flatnonzero(mask)) == sorted(legal_index_map(env.seat_observation()))
        assert mask.any()
        a = int(rng.choice(np.flatnonzero(mask)))
        actions.append(a)
        obs, reward, terminated, truncated, info = env.step(a)
        assert not truncated
        if terminated:
            return actions, float(reward), info
        assert reward == 0.0


@pytest.mark.parametrize("variant", ["bezique", "binocle"])
@pytest.mark.parametrize("seat", [0, 1])
def test_random_play_against_agents(variant: str, seat: int) -> None:
    for seed, opponent in enumerate(["random", "heuristic"] * 4):
        env = BeziqueEnv(variant, opponent=opponent, seat=seat)
        _, reward, info = play(env, seed)
        state = env.episode.state
        assert state.is_terminal()
        assert reward == state.returns()[seat]
        assert not info["action_mask"].any()


def test_a_search_opponent_plays() -> None:
    env = BeziqueEnv("bezique", opponent="search:samples=20", dealer=0)
    env.reset(seed=3)
    for _ in range(6):
        _, _, terminated, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        assert not terminated
    assert len(env.episode.state.history()) > 6  # the search answered in between


def test_reset_with_a_seed_replays_the_same_episode() -> None:
    env = BeziqueEnv("bezique", opponent="heuristic")
    first = play(env, 5)
    again = play(env, 5)
    assert first[0] == again[0] and first[1] == again[1]
    other = BeziqueEnv("bezique", opponent="heuristic")
    assert play(other, 5)[:2] == first[:2]


def test_win_rewards_and_a_whole_game() -> None:
    env = BeziqueEnv("binocle", opponent="random", reward="win", game=True, target=400)
    _, reward, _ = play(env, 1)
    game = env.episode.game
    assert game is not None and game.is_over()
    assert reward == (1.0 if game.winner == 0 else -1.0)


@pytest.mark.parametrize("variant", ["rubicon", "sixpack"])
def test_the_one_deal_games_reward_their_settlement(variant: str) -> None:
    """Rubicon and Six-pack are played for the settlement (RULES.md 9.0.7), not the points:
    ``reward="settled"`` pays its value, ``win`` follows its winner, and a classic game has no
    settlement to pay."""
    for seed in range(2):
        rewards = {}
        for kind in ("deal", "win", "settled"):
            env = BeziqueEnv(variant, opponent="random", reward=kind, seat=seed % 2)
            _, rewards[kind], _ = play(env, seed)
        res = env.episode.state.settlement()
        assert res.winner >= 0 and res.value >= 100
        sign = 1.0 if res.winner == env.seat else -1.0
        assert rewards["settled"] == sign * res.value and rewards["win"] == sign
        assert rewards["deal"] == env.episode.state.returns()[env.seat]  # the same deal
    assert BeziqueEnv(variant, opponent="random", reward="settled").illegal_reward == \
        -float(Rules.preset(variant).rubicon_at)
    with pytest.raises(OptionError, match="one-deal games"):
        BeziqueEnv("bezique", opponent="random", reward="settled")


def test_an_illegal_index_ends_the_episode_or_raises() -> None:
    env = BeziqueEnv("bezique", opponent="random")
    env.reset(seed=0)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(bad)
    assert terminated and reward == -1000.0 and info["illegal_action"] is True
    with pytest.raises(OptionError, match="call reset"):
        env.step(0)
    with pytest.raises(OptionError, match="none yet"):  # a step before the first reset
        BeziqueEnv("bezique", opponent="random").step(0)
    fresh = BeziqueEnv("bezique", opponent="random", render_mode="ansi")
    for before_reset in (fresh.action_masks, fresh.seat_observation, fresh.render):
        # before: answered from a placeholder deal no episode had dealt
        with pytest.raises(OptionError, match="call reset"):
            before_reset()
    strict = BeziqueEnv("bezique", opponent="random", on_illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(bad)
    strict.step(int(np.flatnonzero(strict.action_masks())[0]))  # still playable
    win = BeziqueEnv("bezique", opponent="random", reward="win")
    win.reset(seed=0)
    assert win.step(bad)[1] == -1.0


def test_bad_options_are_refused() -> None:
    for kwargs in ({"opponent": "nosuch"}, {"seat": 2}, {"reward": "money"},
                   {"on_illegal": "ignore"}, {"render_mode": "human"}, {"variant": "bezique3"},
                   {"variant": "bezique", "cut_bonus": True}):
        with pytest.raises(OptionError):
            BeziqueEnv(**kwargs)  # type: ignore[arg-type]


def test_render_and_spaces() -> None:
    env = BeziqueEnv("binocle", opponent="random", render_mode="ansi")
    obs, _ = env.reset(seed=2)
    assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32
    text = env.render()
    assert isinstance(text, str) and "view player_0" in text and "legal" in text


def test_the_gymnasium_env_does_not_need_pettingzoo() -> None:
    import subprocess
    import sys

    code = ("import sys\nsys.modules['pettingzoo'] = None\n"
            "from bezique.gymnasium_env import BeziqueEnv\n"
            "BeziqueEnv(opponent='random').reset(seed=1)\nprint('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert out.stdout.strip() == "ok", out.stderr
