"""A PettingZoo AEC environment of the two-handed games: ``env(variant=...)``.

Agents ``player_0`` and ``player_1`` are the engine's seats 0 and 1.  Each observation is a dict:
``observation``, the float32 vector of :mod:`bezique.encoding` (``OBS_SIZE`` = 371 entries in
Bezique and Binocle, from that seat's view only), and ``action_mask``, int8 with a 1 for each
legal index of the :data:`~bezique.encoding.NUM_ACTIONS` = 83 (all 0 when it is not the seat's
turn).  The multi-pack games (``rubicon``, ``sixpack``, ``eightpack``) have their own sizes
(:func:`bezique.encoding.spec`): more meld slots, ``carte``, and with the cut bonus
(``cut_bonus=True``) the non-dealer's guess of the cut as the deal's first action, one index per
size of ``cut_range``.  The seat to act is ``agent_selection``; the winner of a trick acts twice
in a row (declare, then lead).

Rewards come at the end: ``reward="deal"`` (default) the point difference of the deal,
``reward="win"`` +1, -1 or 0; ``game=True`` plays deals to the target and rewards at the game's
end (the totals' difference, or +1/-1 for the game's winner). In the one-deal games (Rubicon,
Six-pack, Eight-pack) ``win`` is the settlement's winner, and ``reward="settled"`` the settled
value (RULES.md 9.0.7), + to the winner, - to the loser: what those games are played for.
``reset(seed=...)`` makes the deal (and the dealer, unless ``dealer`` is fixed) a function of
the seed. ``env()`` wraps :class:`BeziqueAEC` (``raw_env``) in PettingZoo's usual wrappers: an
index the mask refuses ends the episode with ``illegal_reward`` for the offender (default -1
with ``reward="win"``, minus the target otherwise, minus the rubicon mark in the one-deal
games); the raw environment raises :class:`~bezique.errors.IllegalActionError`. Other keywords
are rules options (``target=1500``). ``render_mode="ansi"``: ``render()`` returns the text view
of the seat to act; ``"human"``: it prints it, after every step too.

>>> e = env(variant="binocle", dealer=1, render_mode="ansi")
>>> e.reset(seed=3)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].shape, e.agent_selection
((371,), (83,), 'player_0')
>>> import numpy as np
>>> e.step(int(np.flatnonzero(obs["action_mask"])[0]))
>>> e.agent_selection
'player_1'
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from bezique.encoding import (
    Episode,
    action_mask,
    check_flag,
    check_reward,
    check_reward_kind,
    decode_action,
    encode_observation,
    illegal_default,
    observation_high,
    spec,
    view_text,
)
from bezique.errors import OptionError
from bezique.observation import Observation
from bezique.rules import Rules

AGENTS = ("player_0", "player_1")


def observation_space(rules: Rules | None = None) -> gymnasium.spaces.Dict:
    """The space of one agent's observation dict (of ``rules``; default Bezique's and
    Binocle's)."""
    rules = rules if rules is not None else Rules.preset("bezique")
    sp = spec(rules)
    high = np.asarray(observation_high(rules), dtype=np.float32)
    return gymnasium.spaces.Dict({
        "observation": gymnasium.spaces.Box(0.0, high, shape=(sp.obs_size,), dtype=np.float32),
        "action_mask": gymnasium.spaces.Box(0, 1, shape=(sp.num_actions,), dtype=np.int8),
    })


def obs_arrays(obs: Observation) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
    """The observation vector and the action mask of ``obs`` as fresh numpy arrays."""
    return (np.asarray(encode_observation(obs), dtype=np.float32),
            np.asarray(action_mask(obs), dtype=np.int8))


class BeziqueAEC(AECEnv):  # type: ignore[misc]  # pettingzoo has no type hints
    """The AEC environment itself (``raw_env``); see the module's text."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"], "name": "bezique_v0", "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "bezique",
        *,
        reward: str = "deal",
        game: bool = False,
        render_mode: str | None = None,
        dealer: int | None = None,
        **rule_options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise OptionError(f"render_mode must be 'ansi', 'human' or None, not "
                              f"{render_mode!r}")
        check_flag("game", game)
        self.rules = Rules.preset(variant, **rule_options)
        self.reward_kind = check_reward_kind(reward, self.rules)
        self.episode = Episode(self.rules, game=game, dealer=dealer)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        space = observation_space(self.rules)
        self.observation_spaces = {a: space for a in AGENTS}
        action = gymnasium.spaces.Discrete(spec(self.rules).num_actions)
        self.action_spaces = {a: action for a in AGENTS}
        self._rng = random.Random()
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = AGENTS[0]

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent`` (the same object on each call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(83)`` (Bezique, Binocle; ``spec(rules).num_actions`` in the multi-pack
        games), the same object on each call."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new deal (or game); the same ``seed``, the same deal and dealer."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.episode.start(self._rng)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self.episode.state.current_player()]

    def seat_observation(self, agent: str) -> Observation:
        """The engine's :class:`~bezique.observation.Observation` of ``agent``'s seat."""
        if agent not in AGENTS:
            raise OptionError(f"unknown agent {agent!r} (the agents: {', '.join(AGENTS)})")
        return self.episode.state.observation(AGENTS.index(agent))

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation dict (fresh arrays)."""
        vec, mask = obs_arrays(self.seat_observation(agent))
        return {"observation": vec, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the index ``action`` for ``agent_selection`` (None once it is terminated)."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if action is None:
            raise OptionError(f"{agent} is to act: None is an action only once it is done")
        text = decode_action(self.seat_observation(agent), action)
        self._cumulative_rewards[agent] = 0.0
        self.episode.apply(text)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        if self.episode.over():
            r = self.episode.rewards(self.reward_kind)
            self.rewards = {a: r[i] for i, a in enumerate(AGENTS)}
            self.terminations = dict.fromkeys(AGENTS, True)
        else:
            self.agent_selection = AGENTS[self.episode.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the view of the seat in ``agent_selection`` (the seat to
        act; once the deal is over, the last seat selected), never another seat's cards; with
        ``"human"`` that view is printed (after every step too) and None returned."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: create the env with "
                                  "render_mode='ansi' or 'human'")
            return None
        text = view_text(self.seat_observation(self.agent_selection))
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


raw_env = BeziqueAEC


def env(
    variant: str = "bezique",
    *,
    illegal_reward: float | None = None,
    **options: Any,
) -> AECEnv:
    """The wrapped AEC environment (see the module's text for ``options``)."""
    raw = BeziqueAEC(variant, **options)
    penalty = (check_reward("illegal_reward", illegal_reward) if illegal_reward is not None
               else illegal_default(raw.reward_kind, raw.rules))
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(raw, illegal_reward=penalty)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
