"""The random mover: any legal action, uniformly; a floor for every other agent."""

from __future__ import annotations

import random

from ..observation import Observation
from .base import register_agent, require_turn


class RandomAgent:
    """Plays a uniformly random legal action (seeded)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> str:
        """A random action of ``obs.legal``."""
        require_turn(obs)
        return self.rng.choice(obs.legal)


@register_agent("random", "plays any legal action at random")
def _make_random(seed: int | None = None) -> RandomAgent:
    return RandomAgent(seed)
