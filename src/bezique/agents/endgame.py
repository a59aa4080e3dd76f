"""Solving a position exactly: the public face of the end solver (:mod:`bezique.agents.solver`).

:func:`solve` takes a state or an observation whose seat can see the whole end phase (the stock
gone, every card of the other hand known) and returns the best play with its value; it backs
``bezique solve`` and the agents' last tricks.  :func:`solve_hands` takes the hands themselves.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import card_name
from ..errors import BeziqueError
from ..rules import Rules
from .solver import EndSolver
from .solver_tables import hand_mask

if TYPE_CHECKING:
    from ..observation import Observation
    from ..state import State


@dataclass(frozen=True)
class SolveResult:
    """The best action (text), its value for the player to act, and the work it took."""

    best: str
    value: int
    nodes: int
    ms: float

    def as_dict(self) -> dict[str, object]:
        """The JSON object of ``bezique solve --json``."""
        return {"best": self.best, "value": self.value, "nodes": self.nodes,
                "ms": round(self.ms, 3)}



def solve_hands(
    rules: Rules,
    trump: int,
    mover: Sequence[int],
    other: Sequence[int],
    lead: int = -1,
    max_nodes: int | None = None,
) -> SolveResult:
    """Solve the end phase from the two hands (cards 0..31); ``lead`` is the card the other
    player has led to the current trick (then ``mover`` follows), or -1 if ``mover`` leads.

    Raises :class:`BeziqueError` if the hands cannot be an end-phase position, and
    :class:`SolverBudgetError` when ``max_nodes`` is exceeded.
    """
    n_me, n_other = len(mover), len(other)
    if n_me == 0:
        raise BeziqueError("the player to act has no card: the deal is over")
    if n_me != n_other + (0 if lead < 0 else 1):
        raise BeziqueError(
            "the leader and the follower must hold as many cards (the follower one more "
            "while a card is led)"
        )
    t0 = time.perf_counter()
    solver = EndSolver(rules, trump, max_nodes)
    me, opp = hand_mask(mover, rules.copies), hand_mask(other, rules.copies)
    move, value = solver.best_move(me, opp, lead)
    ms = (time.perf_counter() - t0) * 1000.0
    return SolveResult("play " + card_name(move), value, solver.nodes, ms)


def _two_handed(rules: Rules) -> None:
    """Refuse a deal of three or four players: the solver plays one hand against one."""
    if rules.nplayers != 2:
        raise BeziqueError(f"the end solver plays two-handed deals only, not {rules.variant} "
                           f"({rules.nplayers} players)")


def end_hands(state: State) -> tuple[list[int], list[int], int]:
    """(hand of the player to act, the other's hand, card led or -1) of an end-phase state."""
    _two_handed(state.rules)
    if not state.end_phase:
        raise BeziqueError(
            "the position is not in the end phase: the solver needs the stock to be gone "
            f"({state.stock_left} card(s) and the turn-up still to draw)"
        )
    if state.is_terminal():
        raise BeziqueError("the deal is over: there is nothing left to solve")
    me = state.current_player()
    lead = state.trick_cards()
    return state.hand(me), state.hand(1 - me), (lead[0] if lead else -1)


def obs_hands(obs: Observation) -> tuple[list[int], list[int], int]:
    """(hand of the player to act, the other's hand, card led or -1) derived by card counting
    from an end-phase observation (the other hand is every card this seat has not seen, plus
    the cards of it that are known)."""
    _two_handed(obs.rules)
    if obs.turnup is not None or obs.stock > 0:
        raise BeziqueError(
            "the position is not in the end phase: the solver needs the stock to be gone "
            f"({obs.stock} card(s) and the turn-up still to draw)"
        )
    if obs.phase == "over":
        raise BeziqueError("the deal is over: there is nothing left to solve")
    mine = list(obs.hand)
    theirs = list(obs.opponent_known) + list(obs.unseen().elements())
    lead = obs.trick[0] if obs.trick else -1
    if obs.turn == obs.seat:
        return mine, theirs, lead
    return theirs, mine, lead


def solve(
    position: State | Observation,
    max_nodes: int | None = None,
) -> SolveResult:
    """Solve the end-phase position of a :class:`State` or an :class:`Observation` (whose
    opponent hand is derived by card counting) for the player to act."""
    from ..state import State

    if isinstance(position, State):
        mover, other, lead = end_hands(position)
        rules, trump = position.rules, position.trump
    else:
        mover, other, lead = obs_hands(position)
        rules, trump = position.rules, position.trump
    return solve_hands(rules, trump, mover, other, lead, max_nodes)
