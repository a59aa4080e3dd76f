"""The ``policy`` agent: plays the learned policy's top action (:mod:`bezique.learn`), no
search at all; ties between equal scores are broken by the agent's seed.

Options (``policy:weights=FILE``): ``weights``, a weights file written by ``bezique train``
(by default the weights shipped for the variant).  Records name the player ``policy@VERSION``,
the version of its weights (:func:`~bezique.agents.base.agent_label`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..errors import OptionError
from ..observation import Observation
from .base import parse_agent_spec, register_agent, require_turn

if TYPE_CHECKING:
    from .networks import Model

# (bezique.learn is imported when first needed: its features use bezique.agents.targets, so a
# top-level import here would run while bezique.agents is still being imported)


class PolicyAgent:
    """The learned policy's top-scoring legal action."""

    name = "policy"

    def __init__(self, seed: int | None = None, weights: str = "") -> None:
        self.rng = random.Random(seed)
        self.model: Model | None = None
        if weights:
            from .networks import weights_for

            self.model = weights_for(str(weights))

    def model_for(self, obs: Observation) -> Model:
        """The weights to play ``obs`` with: the given file, else the variant's shipped ones."""
        from .networks import fit_for, weights_for

        if obs.rules.nplayers != 2:
            raise OptionError("the policy agent plays the two-handed games only")
        if self.model is None:
            self.model = weights_for("", obs.rules.variant)
        return fit_for(self.model, obs.rules.variant)

    def act(self, obs: Observation) -> str:
        """The legal action the policy scores highest (ties: a seeded choice)."""
        require_turn(obs)
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        scores = self.model_for(obs).scores(obs)
        top = max(scores)
        best = [t for t, s in zip(legal, scores, strict=True) if s == top]
        return best[0] if len(best) == 1 else self.rng.choice(best)


def policy_label(spec: str) -> str:
    """``policy@VERSION``: the player's name in records, with its weights' version."""
    from .networks import weights_for

    _, opts = parse_agent_spec(spec)
    weights = opts.get("weights")
    return f"policy@{weights_for(str(weights) if weights else '').version}"


@register_agent("policy", "the learned policy's top action, no search (bezique.learn)",
                label=policy_label)
def _make_policy(seed: int | None = None, weights: str = "") -> PolicyAgent:
    return PolicyAgent(seed, weights)
