"""The search agent's options: their bounds, the checks that turn a bad option into one clear
:class:`~bezique.errors.OptionError`, and what ``auto`` stands for in each variant.

:class:`~bezique.agents.search.SearchAgent` takes its options through these checks, so that
``search:settle=best`` on the command line or in the engine protocol is refused with a line a
user reads, never a traceback.

Options (``search:samples=40,seed=3``); ``horizon``, ``full_below``, ``prior``,
``confidence``, ``evaluation``, ``extend``, ``extend_below`` and ``settle`` are explained in
:mod:`bezique.agents.search`:

- ``samples``: worlds per decision; ``seed``.
- ``rollout``: ``heuristic`` (the club heuristic for both seats), ``tuned`` (for both seats,
  the heuristic with the numbers ``benchmarks/tune_heuristic.py`` found: the variant's own,
  :data:`~bezique.agents.heuristic.TUNED_VARIANTS`, else
  :data:`~bezique.agents.heuristic.TUNED`; they also choose the action with the head start),
  ``own`` (those numbers for the search's own seat and its head start only, the other seat
  played by the heuristic), ``policy`` (the search's own later moves by the learned policy,
  :mod:`bezique.agents.search_learned`; the variants with shipped weights only, and about six
  times slower a decision), ``random`` (weak and fast, for tests) or ``auto`` (the default: see
  :func:`setting`).
- ``evaluation``: ``learned`` (default), ``simple``, ``net`` or ``blend``.
- ``infer``: how strongly worlds are discounted in which the opponent passed up points
  (``auto``, the default: 0.9 in the classic family, 0 in the one-deal games; a number from 0
  to below 1 applies in every variant).
- ``model``: how strongly worlds are discounted in which the opponent's plays differ from the
  heuristic's (0, off, by default: it did not measurably help, see ``benchmarks/STRENGTH.md``,
  and its Metropolis chain mixes slowly, so that 60 worlds hold only about ten distinct hidden
  hands, ``benchmarks/world_quality.py``; both in
  :class:`~bezique.agents.sampling.WorldSampler`).
- ``solver_cards``: rollouts reaching the end phase with at most this many cards in hand are
  solved exactly.
- ``ms``: think about this many milliseconds a decision instead of a fixed number of worlds
  (also set by :meth:`~bezique.agents.search.SearchAgent.set_budget`, as the engine protocol's
  ``budget_ms``; with a time budget there is no extension: the worlds are already as many as
  fit; a decision never takes more than 10% over it: no world is begun that would likely not
  end in time, a rollout past the deadline gives up, the exact solver's nodes are bounded by
  the time left at its measured speed, and with no world finished the heuristic's choice is
  played). :meth:`~bezique.agents.search.SearchAgent.set_time_limit` bounds any decision's
  thinking (the engine protocol sets it on every ``go``): past 85% of it no more worlds are
  sampled, however many ``samples`` asks for.
- ``confidence``: how many standard errors of the paired differences another action must beat
  the heuristic's choice by (a number from 0; 1 by default: ``confidence=2`` in Six-pack, where
  two seeds' choices agree far more often with it, was not a measured gain, see
  ``benchmarks/STRENGTH.md``, "Six-pack: two standard errors").
- ``extend`` (``1``: no extension) and ``extend_below``.
- ``weights``: ``variant`` (default), ``classic`` or ``search``.
- ``settle``: ``grid``, ``normal``, ``win`` (every leaf valued by the chance of winning the
  deal, not its settled size, :func:`~bezique.agents.settled.win_value`; the one-deal games
  only) or ``auto`` (the default: see :func:`setting`).
- ``hands``: ``kept`` deals the other hand in each world the kinds of card players keep
  (:mod:`bezique.agents.holdings`: fewer small plain cards, more aces, tens and trumps, as
  fitted on the variant's heuristic play; uniform where the variant has no fitted weights),
  ``uniform`` deals it uniformly, ``auto`` (the default: see :func:`setting`).
- ``wait=1`` keeps passing a declaring turn among the candidates while no trumps are fixed
  (Rubicon, Six- and Eight-pack: waiting for a better trump suit than the first marriage's).
- ``game=0`` values every leaf by the deal's points even near the target (not playing for the
  game, :mod:`bezique.agents.game_value` at two seats, :mod:`bezique.agents.table_game` at a
  table of three or four; for comparisons, ``benchmarks/compare_decisions.py --game``).
- ``head=policy`` gives the head start to the learned policy's top action
  (:mod:`bezique.learn`) instead of the heuristic's.
- ``net=FILE``: the learned weights ``head=policy``, ``rollout=policy`` and ``evaluation=net``
  use (a run of ``bezique train``; by default the weights shipped for the variant).

Options are bounded (:data:`MAX_SAMPLES`, :data:`MAX_EXTEND`, :data:`MAX_HORIZON`,
:data:`MAX_MS`).

For example:

>>> choice("settle", "best", ("auto", "grid", "normal", "win"))
Traceback (most recent call last):
...
bezique.errors.OptionError: settle must be auto, grid, normal or win, not 'best'
>>> whole("extend", 4, 1, MAX_EXTEND)
4
>>> [setting({"settle": "auto"}, "settle", v) for v in ("rubicon", "sixpack")]
['win', 'grid']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from ..errors import OptionError
from .heuristic import TUNED_VARIANTS

MAX_SAMPLES = 5000  # worlds per decision: more would stall a session
MAX_EXTEND = 20  # times the worlds of a close call
MAX_HORIZON = 40  # tricks a rollout plays before the evaluation
MAX_MS = 600_000.0  # milliseconds of a time budget

# what auto means for rollout, settle and hands in a variant whose arena runs chose otherwise
# than the general defaults (benchmarks/STRENGTH.md, "Kept hands"): in Rubicon the combination
# won 65.25% of 800 duplicated deals against the heuristic (seeds 1 to 4), where the general
# defaults won 60.6% of the same deals (pair by pair, +4.7 +- 2.4 points)
VARIANT_SETTINGS: dict[str, dict[str, str]] = {
    "rubicon": {"rollout": "heuristic", "settle": "win", "hands": "kept"},
}

T = TypeVar("T")

# the general defaults of the settings auto resolves (rollout's depends on the variant)
_GENERAL = {"settle": "grid", "hands": "uniform"}


def _listed(allowed: Sequence[object]) -> str:
    words = [str(a) for a in allowed]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def choice(name: str, value: T, allowed: Sequence[T]) -> T:
    """``value`` if it is one of ``allowed``, else an :class:`OptionError` naming them."""
    if isinstance(value, bool) or value not in allowed:
        raise OptionError(f"{name} must be {_listed(allowed)}, not {value!r:.40}")
    return value


def whole(name: str, value: object, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``, else an
    :class:`OptionError`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OptionError(f"{name} must be a whole number from {low} to {high}, not "
                          f"{value!r:.40}")
    return value


def confidence_of(value: object) -> float:
    """The ``confidence`` option checked: a number from 0.

    >>> confidence_of(2)
    2.0
    >>> confidence_of("sure")
    Traceback (most recent call last):
    ...
    bezique.errors.OptionError: confidence must be a number from 0, not 'sure'
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise OptionError(f"confidence must be a number from 0, not {value!r:.40}")
    return float(value)


def setting(asked: Mapping[str, str], name: str, variant: str) -> str:
    """The ``rollout``, ``settle`` or ``hands`` setting played in ``variant`` when ``asked``
    holds the options given: the one asked for, or for ``auto`` the variant's in
    :data:`VARIANT_SETTINGS`, else the general default (``rollout``: ``own`` where the variant
    has tuned numbers of its own, :data:`~bezique.agents.heuristic.TUNED_VARIANTS`, else
    ``heuristic``; ``settle``: ``grid``; ``hands``: ``uniform``)."""
    value = asked.get(name, "auto")
    if value != "auto":
        return value
    chosen = VARIANT_SETTINGS.get(variant, {}).get(name)
    if chosen is not None:
        return chosen
    if name == "rollout":
        return "own" if variant in TUNED_VARIANTS else "heuristic"
    return _GENERAL[name]
