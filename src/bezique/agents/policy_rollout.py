"""The learned policy as the search's rollout policy (``search:rollout=policy``): in each
sampled world the search's own later moves are the learned policy's top action
(:mod:`bezique.agents.networks`), the other seat's the heuristic's.

The policy reads an observation, so every own move of a rollout builds the observation of the
seat to act from the world and its features (:mod:`bezique.agents.features`).  The features'
``heuristic`` input marks the heuristic's choice in the world itself (the rollout knows it),
not in a world drawn again from the observation as when the agent plays.  A move costs about
a millisecond this way, ten times the heuristic's: an option to screen, not a default (see
``benchmarks/STRENGTH.md``, "Learned policy and value").

>>> from bezique import Rules, State
>>> from bezique.agents.networks import shipped
>>> choose = learned_chooser(shipped())
>>> state = State.new_deal(Rules.preset("bezique"), seed=3)
>>> choose(state) in state.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Callable

from ..state import State
from .features import decision_features
from .heuristic import HeuristicPolicy
from .networks import Model


def learned_chooser(model: Model) -> Callable[[State], int]:
    """A function from a full-information state to the action ``model``'s policy scores
    highest for the seat to act (ties: the heuristic's choice, else the first)."""
    heuristic = HeuristicPolicy(solver_cards=0)

    def choose(state: State) -> int:
        legal = state.legal_actions()
        pick = heuristic.choose(state)
        if len(legal) == 1:
            return pick
        obs = state.observation(state.turn)
        texts = [state.action_to_string(a) for a in legal]
        x, acts = decision_features(obs, state.action_to_string(pick))
        by_text = dict(zip(obs.legal, model.scores_of(x, acts), strict=True))
        scores = [by_text[t] for t in texts]
        top = max(scores)
        best = [a for a, s in zip(legal, scores, strict=True) if s == top]
        return pick if pick in best else best[0]

    return choose
