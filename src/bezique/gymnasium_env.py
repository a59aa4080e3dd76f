"""A single-agent Gymnasium environment: the learner holds one seat of a two-handed game
(Bezique, Binocle, Rubicon, Six-pack, Eight-pack), one of our agents (by name, as
:func:`bezique.agents.make_agent` takes it) the other.

The encoding is :mod:`bezique.encoding`'s, as in :mod:`bezique.pettingzoo`: the observation is
the float32 vector (``OBS_SIZE`` = 371 entries in Bezique and Binocle, the learner's view only),
the action an index of ``Discrete(83)``; the multi-pack games have their own sizes
(:func:`bezique.encoding.spec`), and with the cut bonus the non-dealer's first action is the
guess of the cut, one index per size of ``cut_range``.  The legal indices come as
``info["action_mask"]`` (int8) and from :meth:`BeziqueEnv.action_masks` (bool, the convention
of sb3-contrib's ``MaskablePPO``).  The opponent's moves are played inside
:meth:`~BeziqueEnv.step`, so each step returns at the learner's next turn (or the end).
Rewards, ``game`` and seeds are as in :mod:`bezique.pettingzoo`; the opponent is rebuilt at each
reset with a seed drawn from the environment's, so ``reset(seed=...)`` fixes its choices too.

An index the mask refuses ends the episode with ``illegal_reward`` (default -1 with
``reward="win"``, minus the target otherwise, minus the rubicon mark in the one-deal games) and
``info["illegal_action"] = True``; ``on_illegal="raise"`` raises
:class:`~bezique.errors.IllegalActionError` instead.
Importing this module registers ``bezique/Bezique-v0``, ``bezique/Binocle-v0``,
``bezique/Rubicon-v0``, ``bezique/Sixpack-v0`` and ``bezique/Eightpack-v0`` with
``gymnasium.make``.

>>> e = BeziqueEnv("bezique", opponent="random", dealer=1)
>>> obs, info = e.reset(seed=0)
>>> obs.shape, bool(e.action_masks().sum() == info["action_mask"].sum() > 0)
((371,), True)
>>> import numpy as np
>>> obs, reward, terminated, truncated, info = e.step(int(np.flatnonzero(e.action_masks())[0]))
>>> terminated, truncated
(False, False)
"""

from __future__ import annotations

import random
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt

from bezique.agents import make_agent
from bezique.agents.base import Agent
from bezique.encoding import (
    Episode,
    action_int,
    action_mask,
    check_flag,
    check_reward,
    check_reward_kind,
    check_seat,
    encode_observation,
    illegal_default,
    legal_index_map,
    observation_high,
    spec,
    view_text,
)
from bezique.errors import IllegalActionError, OptionError
from bezique.observation import Observation
from bezique.rules import Rules

ObsArray = npt.NDArray[np.float32]


def obs_arrays(obs: Observation) -> tuple[ObsArray, npt.NDArray[np.int8]]:
    """The observation vector and the action mask of ``obs`` as fresh numpy arrays."""
    return (np.asarray(encode_observation(obs), dtype=np.float32),
            np.asarray(action_mask(obs), dtype=np.int8))


class BeziqueEnv(gymnasium.Env[ObsArray, np.int64]):
    """The learner at ``seat`` (0 or 1) against ``opponent`` (an agent spec such as
    ``heuristic``, ``random`` or ``search:samples=20``); other keywords are rules options."""

    # gymnasium declares metadata an instance variable: no ClassVar here
    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        variant: str = "bezique",
        opponent: str = "heuristic",
        *,
        seat: int = 0,
        reward: str = "deal",
        game: bool = False,
        render_mode: str | None = None,
        dealer: int | None = None,
        on_illegal: str = "penalize",
        illegal_reward: float | None = None,
        **rule_options: Any,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise OptionError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        check_flag("game", game)
        seat = check_seat("seat", seat)
        if on_illegal not in ("penalize", "raise"):
            raise OptionError(f"on_illegal must be 'penalize' or 'raise', not {on_illegal!r}")
        self.rules = Rules.preset(variant, **rule_options)
        reward = check_reward_kind(reward, self.rules)
        self.episode = Episode(self.rules, game=game, dealer=dealer)
        self.opponent_spec = opponent
        self.opponent: Agent = make_agent(opponent, seed=0)  # checks the spec now
        self.seat = seat
        self.reward_kind = reward
        self.render_mode = render_mode
        self.on_illegal = on_illegal
        self.illegal_reward = (check_reward("illegal_reward", illegal_reward)
                               if illegal_reward is not None
                               else illegal_default(reward, self.rules))
        sp = spec(self.rules)
        high = np.asarray(observation_high(self.rules), dtype=np.float32)
        self.observation_space = gymnasium.spaces.Box(0.0, high, shape=(sp.obs_size,),
                                                      dtype=np.float32)
        self.action_space = gymnasium.spaces.Discrete(sp.num_actions)
        self._done = True
        self._dealt = False

    # ------------------------------------------------------------------ views

    def seat_observation(self) -> Observation:
        """The engine's :class:`~bezique.observation.Observation` of the learner's seat
        (before the first :meth:`reset` there is none: an ``OptionError`` says so)."""
        if not self._dealt:
            raise OptionError("no episode yet: call reset() first")
        return self.episode.state.observation(self.seat)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal indices now, as bools (for sb3-contrib's ``MaskablePPO``)."""
        return obs_arrays(self.seat_observation())[1].astype(bool)

    def _observe(self, **extra: Any) -> tuple[ObsArray, dict[str, Any]]:
        vec, mask = obs_arrays(self.seat_observation())
        info: dict[str, Any] = {"action_mask": mask, **extra}
        return vec, info

    # ------------------------------------------------------------------ the API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsArray, dict[str, Any]]:
        """Deal a new deal (or game) and play the opponent up to the learner's first turn."""
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**63)))
        self.episode.start(rng)
        self.opponent = make_agent(self.opponent_spec, seed=rng.getrandbits(32))
        self._done, self._dealt = False, True
        self._play_opponent()
        return self._observe()

    def step(
        self, action: np.int64 | int
    ) -> tuple[ObsArray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the index ``action`` for the learner, then the opponent up to its next turn."""
        if self._done:
            raise OptionError("no episode in play (none yet, or it is over): call reset()")
        index = action_int(action)  # a float or an array of several is refused, not truncated
        text = legal_index_map(self.seat_observation()).get(index)
        if text is None:
            if self.on_illegal == "raise":
                raise IllegalActionError(f"action index {index} is not legal now")
            self._done = True
            vec, info = self._observe(illegal_action=True)
            return vec, self.illegal_reward, True, False, info
        self.episode.apply(text)
        self._play_opponent()
        reward = 0.0
        if self.episode.over():
            self._done = True
            reward = self.episode.rewards(self.reward_kind)[self.seat]
        vec, info = self._observe()
        return vec, reward, self._done, False, info

    def _play_opponent(self) -> None:
        state = self.episode
        while not state.over() and state.state.current_player() != self.seat:
            seat = state.state.current_player()
            state.apply(self.opponent.act(state.state.observation(seat)))
        if state.over():
            self._done = True

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the learner's view and its legal indices."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: create the env with "
                                  "render_mode='ansi'")
            return None
        return view_text(self.seat_observation())


VARIANTS = ("bezique", "binocle", "rubicon", "sixpack", "eightpack")
"""The two-handed games, each registered as ``bezique/<Variant>-v0``."""


def _register() -> None:
    for variant in VARIANTS:
        env_id = f"bezique/{variant.capitalize()}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="bezique.gymnasium_env:BeziqueEnv",
                               kwargs={"variant": variant})


_register()
