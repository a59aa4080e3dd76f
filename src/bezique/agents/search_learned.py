"""What the search takes from the learned policy and value (:mod:`bezique.learn`, inference in
:mod:`bezique.agents.networks`): its own later rollout moves by the policy
(``search:rollout=policy``, :func:`learned_chooser`), the horizon valued by the value network
(``evaluation=net`` or ``blend``, :func:`net_value`), the weights they use
(:class:`LearnedWeights`: a ``net=FILE`` read once, or the shipped weights of each variant), and
the name records give a search that uses them (:func:`search_label`, with the weights'
version).  The head start by the policy (``head=policy``) is the policy's scores themselves.

The policy reads an observation, so every own move of a rollout builds the observation of the
seat to act from the world and its features (:mod:`bezique.agents.features`).  The features'
``heuristic`` input marks the heuristic's choice in the world itself (the rollout knows it),
not in a world drawn again from the observation as when the agent plays.  A move costs about
a quarter of a millisecond this way, twenty times the heuristic's: options to screen, not
defaults (see ``benchmarks/STRENGTH.md``, "Learned policy and value").

>>> from bezique import Rules, State
>>> from bezique.agents.networks import shipped
>>> choose = learned_chooser(shipped())
>>> state = State.new_deal(Rules.preset("bezique"), seed=3)
>>> choose(state) in state.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import OptionError
from ..state import State
from .base import parse_agent_spec
from .heuristic import HeuristicPolicy

if TYPE_CHECKING:
    from .networks import Model

# (the networks and their features are imported when first asked for: most searches never
# use them, and the features read the weights' input layout)


def learned_chooser(model: Model) -> Callable[[State], int]:
    """A function from a full-information state to the action ``model``'s policy scores
    highest for the seat to act (ties: the heuristic's choice, else the first)."""
    from .features import decision_features

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


class LearnedWeights:
    """The learned weights of one search: the file ``net`` (``search:net=FILE``, read once
    here, so that a file that does not load is refused when the search is made), else the
    weights shipped for each variant; and the rollout chooser of each variant, made when first
    asked for."""

    def __init__(self, net: str = "") -> None:
        self._file: Model | None = None
        if net:
            from .networks import weights_for

            self._file = weights_for(net)
        self._choosers: dict[str, Callable[[State], int]] = {}

    def model(self, variant: str | None = None) -> Model:
        """The weights for ``variant``: the file's (refused if learned from another variant's
        deals), else the shipped ones (an :class:`~bezique.errors.OptionError` where none are
        shipped); with no variant, the file's as they are, else Bezique's."""
        from .networks import fit_for, weights_for

        if self._file is not None:
            return self._file if variant is None else fit_for(self._file, variant)
        return weights_for("", variant or "bezique")

    def chooser(self, variant: str) -> Callable[[State], int]:
        """``rollout=policy``: the learned policy's chooser for ``variant``'s rollouts."""
        chooser = self._choosers.get(variant)
        if chooser is None:
            try:
                model = self.model(variant)
            except OptionError as e:
                raise OptionError(f"rollout=policy: {e}") from None
            chooser = self._choosers[variant] = learned_chooser(model)
        return chooser


def net_value(blend: bool, model: Model) -> Callable[[State, int], float]:
    """The horizon value of ``evaluation=net``: ``model``'s value network on the seat's
    observation of the (sampled) world; ``blend``: the mean of it and the fitted
    :func:`~bezique.agents.evaluation.evaluate`."""
    from .evaluation import evaluate as fitted

    def value(state: State, seat: int) -> float:
        v = model.value(state.observation(seat))
        return 0.5 * (v + fitted(state, seat)) if blend else v

    return value


def search_label(spec: str) -> str:
    """The search's name in records: its spec, and where it uses the learned weights
    (``head=policy``, ``rollout=policy``, ``evaluation=net`` or ``blend``) their version too,
    as the ``policy`` agent's name has it.

    >>> search_label("search:samples=20")
    'search:samples=20'
    >>> from bezique.agents.networks import shipped
    >>> search_label("search:rollout=policy") == "search:rollout=policy@" + shipped().version
    True
    """
    _, opts = parse_agent_spec(spec)
    learned = (opts.get("head") == "policy" or opts.get("rollout") == "policy"
               or opts.get("evaluation") in ("net", "blend"))
    if not learned:
        return spec
    from .networks import weights_for

    return f"{spec}@{weights_for(str(opts.get('net', ''))).version}"
