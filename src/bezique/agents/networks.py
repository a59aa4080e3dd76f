"""The learned policy and value and their inference in plain Python (no numpy): weights read
from a small JSON file, evaluated with lists of floats, so the search can call them in its
rollouts without any extra dependency.

Both are networks with one hidden layer of rectified units over the inputs of
:mod:`bezique.agents.features` (the inputs' standardisation is folded into the first layer when
the weights are written, see :mod:`bezique.learn.train`):

* the value: the deciding seat's expected final margin of the deal (its points less the
  other's, in points) from its observation: the points so far (a fixed linear part, ``base``)
  and what the network expects the rest of the deal to add (times ``scale``);
* the policy: a score for each legal action, ``v . relu(Wo x + Wa a + b) + u . a`` for the
  observation's inputs ``x`` and the action's ``a``; the softmax of the scores is the
  probability that the teacher (the search) plays that action.  ``Wo x + b`` is computed once
  per decision, so each further action costs only its own small product.

A file holds both (``value`` and ``policy``), the names of the inputs they were trained on
(checked when loaded, so weights never meet features of another layout) and what the run was
(``meta``).  :data:`bezique.learn.VERSION` is the short hash of the shipped file.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import BeziqueError, OptionError
from ..observation import Observation
from .features import ACTION_NAMES, OBS_NAMES, decision_features, observation_features

FORMAT = 1
#: The folder of the shipped weights, one file per variant (``bezique.json``).
WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"

Rows = list[list[float]]


def _hidden(rows: Rows, x: list[float], start: list[float]) -> list[float]:
    """``start + W x`` for ``W`` given as one row of hidden weights per input (zero inputs,
    most of them, cost nothing)."""
    h = list(start)
    n = len(h)
    for xi, row in zip(x, rows, strict=True):
        if xi:
            for j in range(n):
                h[j] += xi * row[j]
    return h


def _out(h: list[float], v: list[float], bias: float) -> float:
    """``bias + v . relu(h)``."""
    total = bias
    for hj, vj in zip(h, v, strict=True):
        if hj > 0.0:
            total += hj * vj
    return total


@dataclass(frozen=True)
class Model:
    """A trained value and policy (see the module docstring); build it with :func:`load`."""

    value_w: Rows
    value_b: list[float]
    value_v: list[float]
    value_c: float
    scale: float
    value_base: list[float]
    policy_wo: Rows
    policy_wa: Rows
    policy_b: list[float]
    policy_v: list[float]
    policy_u: list[float]
    variant: str
    version: str
    meta: dict[str, Any]

    def value(self, obs: Observation) -> float:
        """The observing seat's expected final margin of the deal, in points."""
        return self.value_of(observation_features(obs))

    def value_of(self, x: list[float]) -> float:
        """:meth:`value` from the observation's features."""
        h = _hidden(self.value_w, x, self.value_b)
        base = 0.0
        for xi, bi in zip(x, self.value_base, strict=True):
            if bi:
                base += xi * bi
        return base + self.scale * _out(h, self.value_v, self.value_c)

    def scores(self, obs: Observation) -> list[float]:
        """Each legal action's score (in ``obs.legal``'s order; higher is likelier)."""
        x, acts = decision_features(obs)
        return self.scores_of(x, acts)

    def scores_of(self, x: list[float], acts: list[list[float]]) -> list[float]:
        """:meth:`scores` from the features."""
        base = _hidden(self.policy_wo, x, self.policy_b)
        out = []
        for a in acts:
            h = _hidden(self.policy_wa, a, base)
            lin = 0.0
            for ai, ui in zip(a, self.policy_u, strict=True):
                lin += ai * ui
            out.append(_out(h, self.policy_v, lin))
        return out

    def probabilities(self, obs: Observation) -> list[float]:
        """The softmax of :meth:`scores`: the chance the teacher plays each legal action."""
        return softmax(self.scores(obs))


def softmax(scores: list[float]) -> list[float]:
    """``exp(s) / sum(exp(s))``, computed without overflow.

    >>> [round(p, 3) for p in softmax([0.0, 0.0, math.log(2.0)])]
    [0.25, 0.25, 0.5]
    """
    top = max(scores)
    e = [math.exp(s - top) for s in scores]
    total = sum(e)
    return [x / total for x in e]


def version_of(data: bytes) -> str:
    """The version of a weights file: the first 10 hex digits of its SHA-256."""
    return hashlib.sha256(data).hexdigest()[:10]


def _rows(data: Any, n_in: int, n_out: int, what: str) -> Rows:
    if not isinstance(data, list) or len(data) != n_in:
        raise BeziqueError(f"weights: {what} must have {n_in} rows")
    return [_floats(r, n_out, what) for r in data]


def _floats(data: Any, n: int, what: str) -> list[float]:
    if not isinstance(data, list) or len(data) != n or not all(
            isinstance(x, int | float) and not isinstance(x, bool) for x in data):
        raise BeziqueError(f"weights: {what} must be {n} numbers")
    return [float(x) for x in data]


def from_json(data: Any, version: str) -> Model:
    """A :class:`Model` from the parsed JSON of a weights file, checked."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BeziqueError(f"weights: not a bezique weights file of format {FORMAT}")
    if data.get("obs_names") != list(OBS_NAMES) or data.get("action_names") != list(
            ACTION_NAMES):
        raise BeziqueError("weights: trained on other features than this version computes")
    val, pol = data.get("value"), data.get("policy")
    if not isinstance(val, dict) or not isinstance(pol, dict):
        raise BeziqueError("weights: a value and a policy are needed")
    nv = len(val.get("b", []))
    npol = len(pol.get("b", []))
    c = val.get("c")
    scale = val.get("scale")
    if not isinstance(c, int | float) or not isinstance(scale, int | float):
        raise BeziqueError("weights: the value needs numbers c and scale")
    meta = data.get("meta", {})
    return Model(
        _rows(val.get("w"), len(OBS_NAMES), nv, "value w"), _floats(val.get("b"), nv, "value b"),
        _floats(val.get("v"), nv, "value v"), float(c), float(scale),
        _floats(val.get("base"), len(OBS_NAMES), "value base"),
        _rows(pol.get("wo"), len(OBS_NAMES), npol, "policy wo"),
        _rows(pol.get("wa"), len(ACTION_NAMES), npol, "policy wa"),
        _floats(pol.get("b"), npol, "policy b"), _floats(pol.get("v"), npol, "policy v"),
        _floats(pol.get("u"), len(ACTION_NAMES), "policy u"),
        str(data.get("variant", "")), version, meta if isinstance(meta, dict) else {})


def load(path: str | Path) -> Model:
    """The model in the weights file ``path``."""
    try:
        raw = Path(path).read_bytes()
        data = json.loads(raw)
    except (OSError, ValueError) as e:
        raise BeziqueError(f"cannot read weights {path}: {e}") from None
    return from_json(data, version_of(raw))


_SHIPPED: dict[str, Model] = {}


def shipped(variant: str = "bezique") -> Model:
    """The weights shipped in the package for ``variant`` (loaded once)."""
    model = _SHIPPED.get(variant)
    if model is None:
        path = WEIGHTS_DIR / f"{variant}.json"
        if not path.exists():
            raise BeziqueError(f"no learned weights are shipped for {variant} (there are: "
                               f"{', '.join(sorted(p.stem for p in WEIGHTS_DIR.glob('*.json')))})")
        model = _SHIPPED[variant] = load(path)
    return model


def weights_for(path: str, variant: str = "bezique") -> Model:
    """The model in the weights file ``path``, or with no path the weights shipped for
    ``variant``; an :class:`~bezique.errors.OptionError` a player reads when there are none
    (the policy agent's ``weights`` option, the search's ``net``)."""
    try:
        return load(path) if path else shipped(variant)
    except BeziqueError as e:
        raise OptionError(str(e)) from None


def fit_for(model: Model, variant: str) -> Model:
    """``model`` for a deal of ``variant``; an :class:`~bezique.errors.OptionError` if its
    weights were learned from another variant's deals (their features mean other things
    there: a Bezique policy would play a Rubicon deal as if it were Bezique).

    >>> fit_for(shipped("bezique"), "bezique").variant
    'bezique'
    >>> fit_for(shipped("bezique"), "rubicon")
    Traceback (most recent call last):
    ...
    bezique.errors.OptionError: these weights were learned from bezique deals, not rubicon
    """
    if model.variant and model.variant != variant:
        raise OptionError(f"these weights were learned from {model.variant} deals, "
                          f"not {variant}")
    return model
