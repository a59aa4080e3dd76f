"""Training the learned policy and value (``bezique train``): self-play by a teacher, a fit
with numpy, the weights file and a short report.

The run: :func:`bezique.learn.data.generate` plays the deals not yet in the run directory;
their decisions are read back as features (:func:`bezique.learn.data.load_examples`); the last
tenth of the deals (at least one) is held out; the value is fitted on the stock-phase decisions
(squared error on what the rest of the deal adds to the points so far), the policy on every
decision with a choice (cross-entropy of the softmax over the legal actions against the
teacher's action, or with ``--soft`` against a softening of it by the search teacher's averages:
:func:`soft_target`), both with Adam on
standardised inputs for ``epochs`` passes in an order drawn from the seed (the value with a tenth
of the policy's step and more weight decay: see :class:`Settings`).  The standardisation
is then folded into the first layer and the weights are rounded to six significant digits, so
the file is small, inference needs no statistics, and the same arguments give the same file.

The report (also in the file's ``meta``): on the held-out deals, how often the policy's top
action is the teacher's (and, for comparison, how often the heuristic's is), and the value's
root mean squared error on the final margin against today's fitted evaluation
(:func:`bezique.agents.evaluation.evaluate`, which is given the full state, hidden cards and
all) and against the points so far.

numpy is needed here only (the ``train`` extra); inference is :mod:`bezique.agents.networks`'s.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..agents.features import ACTION_NAMES, OBS_NAMES
from ..agents.networks import FORMAT, version_of
from ..errors import BeziqueError
from ..rules import Rules
from .data import Decision, generate, load_examples, write_json

INSTALL_HINT = "bezique train needs numpy, which is not installed: pip install 'bezique[train]'"
WEIGHTS = "weights.json"
REPORT = "report.json"

Progress = Callable[[str, int, int], None]  # (stage, done, total)


def numpy_module() -> Any:
    """``numpy``, or :class:`BeziqueError` saying what to install."""
    try:
        import numpy
    except ImportError:
        raise BeziqueError(INSTALL_HINT) from None
    return numpy


@dataclass(frozen=True)
class Settings:
    """What a training run is given (``bezique train``'s options)."""

    teacher: str = "search:samples=20"
    seed: int = 0
    deals: int = 200
    epochs: int = 10
    hidden: int = 16
    batch: int = 128
    rate: float = 0.003  # the policy's
    decay: float = 1e-4
    # the value's: its targets are far noisier (a deal's chances), so it learns slower and is
    # held closer to zero (chosen on held-out deals: a faster fit learns the training deals)
    value_rate: float = 0.0003
    value_decay: float = 0.01
    # --soft: the temperature, in points, of the policy's targets made from a search teacher's
    # averages (0: the teacher's move alone); the move it chose is given the search's head
    # start (its ``prior``)
    soft: float = 0.0
    soft_prior: float = 5.0


def soft_target(d: Decision, soft: float, prior: float = 5.0) -> list[float]:
    """The policy's target over the legal actions of ``d``: the teacher's move (one-hot), or
    with ``soft`` > 0 and the teacher's averages at hand, a softmax of the averages over
    ``soft`` points, the chosen move's raised by ``prior`` (so it stays the likeliest: a search
    leaves its sound move only for one clearly better) and actions not weighed at nothing.

    >>> d = Decision(0, [], [[], [], []], 0, 0, 0.0, None, True, means=[10.0, 12.0, None])
    >>> soft_target(d, 0.0)
    [1.0, 0.0, 0.0]
    >>> [round(p, 3) for p in soft_target(d, 5.0)]
    [0.646, 0.354, 0.0]
    """
    hard = [1.0 if i == d.choice else 0.0 for i in range(len(d.actions))]
    if soft <= 0.0 or d.means is None or d.means[d.choice] is None:
        return hard
    logits = [None if m is None else (m + (prior if i == d.choice else 0.0)) / soft
              for i, m in enumerate(d.means)]
    top = max(v for v in logits if v is not None)
    e = [0.0 if v is None else math.exp(v - top) for v in logits]
    total = sum(e)
    return [x / total for x in e]


def _arrays(np: Any, decisions: list[Decision], soft: float = 0.0,
            prior: float = 5.0) -> dict[str, Any]:
    """The decisions as arrays: observations, actions (rows of all decisions in order) with
    each decision's first row and count, the index of the teacher's row, each row's target
    probability (:func:`soft_target`)."""
    counts = np.array([len(d.actions) for d in decisions], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    return {
        "xo": np.array([d.obs for d in decisions], dtype=np.float64).reshape(
            len(decisions), len(OBS_NAMES)),
        "xa": np.array([a for d in decisions for a in d.actions], dtype=np.float64).reshape(
            -1, len(ACTION_NAMES)),
        "starts": starts, "counts": counts,
        "choice": np.array([d.choice for d in decisions], dtype=np.int64),
        "target": np.array([p for d in decisions for p in soft_target(d, soft, prior)],
                           dtype=np.float64),
    }


def _standard(np: Any, x: Any) -> tuple[Any, Any]:
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    return mean, np.where(std > 1e-6, std, 1.0)


class _Adam:
    def __init__(self, np: Any, params: list[Any], rate: float, decay: float) -> None:
        self.np, self.params, self.rate, self.decay = np, params, rate, decay
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[Any]) -> None:
        np = self.np
        self.t += 1
        b1, b2 = 0.9, 0.999
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            g = g + self.decay * p
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mh = m / (1 - b1 ** self.t)
            vh = v / (1 - b2 ** self.t)
            p -= self.rate * mh / (np.sqrt(vh) + 1e-8)


def _init(np: Any, rng: Any, n_in: int, n_out: int) -> Any:
    return rng.normal(0.0, 1.0 / math.sqrt(n_in), size=(n_in, n_out))


def base_weights() -> list[float]:
    """The value's fixed linear part: the points so far (points and brisques, each seat's
    less the other's), read off the inputs; the network learns what the deal adds to them."""
    lin = [0.0] * len(OBS_NAMES)
    lin[OBS_NAMES.index("score_diff")] = 100.0
    lin[OBS_NAMES.index("brisque_diff")] = 10.0
    return lin


def fit_value(np: Any, xo: Any, y: Any, s: Settings, rng: Any,
              tick: Callable[[], None]) -> dict[str, Any]:
    """The value network on standardised ``xo`` (targets ``y``: what the deal adds to the
    points so far, in hundreds of points), as arrays ``w, b, v, c`` on raw inputs."""
    mean, std = _standard(np, xo)
    z = (xo - mean) / std
    w = _init(np, rng, z.shape[1], s.hidden)
    b = np.zeros(s.hidden)
    v = 0.1 * _init(np, rng, s.hidden, 1)[:, 0]
    c = np.array([float(y.mean())])
    opt = _Adam(np, [w, b, v, c], s.value_rate, s.value_decay)
    for _ in range(s.epochs):
        order = rng.permutation(len(z))
        for i in range(0, len(order), s.batch):
            idx = order[i:i + s.batch]
            h = z[idx] @ w + b
            r = np.maximum(h, 0.0)
            err = (r @ v + c[0]) - y[idx]
            g = 2.0 * err / len(idx)
            dh = np.outer(g, v) * (h > 0)
            opt.step([z[idx].T @ dh, dh.sum(axis=0), r.T @ g, np.array([g.sum()])])
        tick()
    return {"w": w / std[:, None], "b": b - (mean / std) @ w, "v": v, "c": float(c[0])}


def _rows_of(np: Any, starts: Any, counts: Any) -> tuple[Any, Any]:
    """The action rows of the decisions (``starts``, ``counts``) and each row's decision
    number among them."""
    owner = np.repeat(np.arange(len(counts)), counts)
    first = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rows = starts[owner] + np.arange(int(counts.sum())) - first[owner]
    return rows, owner


def policy_forward(np: Any, p: dict[str, Any], xo: Any, xa: Any, owner: Any) -> Any:
    """The policy's scores of action rows ``xa`` whose observations are ``xo[owner]``, from
    arrays ``wo, wa, b, v, u`` (numpy's forward pass, the same as the model's)."""
    h = (xo @ p["wo"] + p["b"])[owner] + xa @ p["wa"]
    return np.maximum(h, 0.0) @ p["v"] + xa @ p["u"]


def value_forward(np: Any, p: dict[str, Any], xo: Any) -> Any:
    """The value in points of observations ``xo`` from a weights file's ``value`` as arrays
    (``w, b, v, c, scale, base``)."""
    net = np.maximum(xo @ p["w"] + p["b"], 0.0) @ p["v"] + p["c"]
    return xo @ p["base"] + p["scale"] * net


def _group_softmax(np: Any, scores: Any, counts: Any) -> Any:
    first = np.concatenate([[0], np.cumsum(counts)[:-1]])
    top = np.maximum.reduceat(scores, first)
    e = np.exp(scores - np.repeat(top, counts))
    return e / np.repeat(np.add.reduceat(e, first), counts)


def fit_policy(np: Any, a: dict[str, Any], s: Settings, rng: Any,
               tick: Callable[[], None]) -> dict[str, Any]:
    """The policy network on standardised inputs, as arrays ``wo, wa, b, v, u`` on raw
    inputs (a constant per decision dropped: it does not change the softmax)."""
    mo, so = _standard(np, a["xo"])
    ma, sa = _standard(np, a["xa"])
    zo = (a["xo"] - mo) / so
    za = (a["xa"] - ma) / sa
    wo = _init(np, rng, zo.shape[1], s.hidden)
    wa = _init(np, rng, za.shape[1], s.hidden)
    b = np.zeros(s.hidden)
    v = _init(np, rng, s.hidden, 1)[:, 0]
    u = np.zeros(za.shape[1])
    opt = _Adam(np, [wo, wa, b, v, u], s.rate, s.decay)
    n = len(zo)
    for _ in range(s.epochs):
        order = rng.permutation(n)
        for i in range(0, n, s.batch):
            idx = order[i:i + s.batch]
            counts = a["counts"][idx]
            rows, owner = _rows_of(np, a["starts"][idx], counts)
            xa = za[rows]
            h = (zo[idx] @ wo + b)[owner] + xa @ wa
            r = np.maximum(h, 0.0)
            prob = _group_softmax(np, r @ v + xa @ u, counts)
            first = np.concatenate([[0], np.cumsum(counts)[:-1]])
            g = (prob - a["target"][rows]) / len(idx)
            dh = np.outer(g, v) * (h > 0)
            dho = np.add.reduceat(dh, first, axis=0)
            opt.step([zo[idx].T @ dho, xa.T @ dh, dho.sum(axis=0), r.T @ g, xa.T @ g])
        tick()
    return {"wo": wo / so[:, None], "wa": wa / sa[:, None],
            "b": b - (mo / so) @ wo - (ma / sa) @ wa, "v": v, "u": u / sa}


def _round(x: Any) -> Any:
    """Numbers (nested lists) to six significant digits."""
    if isinstance(x, list):
        return [_round(e) for e in x]
    return float(f"{float(x):.6g}")


def weights_json(np: Any, value: dict[str, Any], policy: dict[str, Any], scale: float,
                 variant: str, meta: dict[str, Any]) -> dict[str, Any]:
    """The content of a weights file (:mod:`bezique.agents.networks` reads it)."""
    def out(p: dict[str, Any]) -> dict[str, Any]:
        return {k: _round(np.asarray(x).tolist()) for k, x in p.items()}

    return {"format": FORMAT, "variant": variant, "obs_names": list(OBS_NAMES),
            "action_names": list(ACTION_NAMES),
            "value": {**out(value), "scale": scale, "base": base_weights()},
            "policy": out(policy), "meta": meta}


def as_arrays(np: Any, part: dict[str, Any]) -> dict[str, Any]:
    """A weights file's ``value`` or ``policy`` as numpy arrays."""
    return {k: np.asarray(x, dtype=np.float64) for k, x in part.items()}


def _report(np: Any, data: dict[str, Any], held: list[Decision]) -> dict[str, Any]:
    """The held-out figures (see the module docstring) of the weights ``data``."""
    out: dict[str, Any] = {"held_out_decisions": len(held)}
    if not held:
        return out
    a = _arrays(np, held)
    pol = as_arrays(np, data["policy"])
    rows, owner = _rows_of(np, a["starts"], a["counts"])
    scores = policy_forward(np, pol, a["xo"], a["xa"][rows], owner)
    first = np.concatenate([[0], np.cumsum(a["counts"])[:-1]])
    top = [int(np.argmax(scores[f:f + c])) for f, c in zip(first, a["counts"], strict=True)]
    out["policy_accuracy"] = round(float(np.mean(np.array(top) == a["choice"])), 4)
    out["heuristic_accuracy"] = round(float(np.mean(np.array(
        [d.heuristic for d in held]) == a["choice"])), 4)
    stock = [d for d in held if d.stock and d.fitted is not None]
    out["held_out_value_decisions"] = len(stock)
    if stock:
        xo = np.array([d.obs for d in stock])
        y = np.array([d.margin for d in stock])
        pred = value_forward(np, as_arrays(np, data["value"]), xo)
        fitted = np.array([d.fitted for d in stock])
        so_far = xo[:, OBS_NAMES.index("score_diff")] * 100 + xo[
            :, OBS_NAMES.index("brisque_diff")] * 10
        for name, p in (("value_rmse", pred), ("fitted_rmse", fitted),
                        ("so_far_rmse", so_far)):
            out[name] = round(float(np.sqrt(np.mean((p - y) ** 2))), 2)
    return out


def train(out: Path, rules: Rules, s: Settings, progress: Progress | None = None
          ) -> dict[str, Any]:
    """The whole run (see the module docstring): writes ``out/weights.json`` and
    ``out/report.json``, returns the report."""
    np = numpy_module()

    def tell(stage: str, total: int) -> Callable[[int], None]:
        return (lambda done: progress(stage, done, total)) if progress else (lambda done: None)

    played = generate(out, rules, s.teacher, s.seed, s.deals, tell("playing deals", s.deals))
    held_n = max(1, s.deals // 10) if s.deals > 1 else 0
    cut = s.deals - held_n
    seen = tell("reading deals", s.deals)
    train_d = load_examples(out, rules, range(cut), seen)
    held = load_examples(out, rules, range(cut, s.deals),
                         lambda i: seen(cut + i))
    if not train_d:
        raise BeziqueError("the deals hold no decision to learn from")
    rng = np.random.default_rng(s.seed)
    scale = 100.0
    stock = [d for d in train_d if d.stock]
    done = 0
    tick_fit = tell("training", 2 * s.epochs)

    def tick() -> None:
        nonlocal done
        done += 1
        tick_fit(done)

    if stock:
        xo = np.array([d.obs for d in stock])
        y = (np.array([d.margin for d in stock]) - xo @ np.array(base_weights())) / scale
        value = fit_value(np, xo, y, s, rng, tick)
    else:  # pragma: no cover - every deal has a stock phase
        raise BeziqueError("the deals hold no stock-phase decision")
    policy = fit_policy(np, _arrays(np, train_d, s.soft, s.soft_prior), s, rng, tick)
    meta: dict[str, Any] = {
        "teacher": s.teacher, "seed": s.seed, "deals": s.deals, "epochs": s.epochs,
        "hidden": s.hidden, "train_decisions": len(train_d), "value_decisions": len(stock)}
    if s.soft:  # (only then: the files of earlier runs keep their versions)
        meta["soft"] = s.soft
        meta["soft_decisions"] = sum(1 for d in train_d if d.means is not None)
    data = weights_json(np, value, policy, scale, rules.variant, meta)
    report = _report(np, data, held)
    data["meta"]["report"] = report
    write_json(out / WEIGHTS, data)
    raw = (out / WEIGHTS).read_bytes()
    full = {**meta, **report, "played_now": played, "version": version_of(raw)}
    write_json(out / REPORT, full)
    return full

