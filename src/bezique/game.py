"""A game of several deals played to the target (RULES.md 2.6), with a seeded shuffle per deal.

>>> import random
>>> from bezique import Rules
>>> g = Game(Rules.preset("bezique", target=300), seed=3)
>>> rng = random.Random(0)
>>> while not g.is_over():
...     if g.state.is_terminal():
...         _ = g.next_deal()
...     g.state.apply_action(rng.choice(g.state.legal_actions()))
>>> g.winner in (0, 1), max(g.totals) >= 300
(True, True)
"""

from __future__ import annotations

import random
from typing import Any

from .errors import BeziqueError, IllegalActionError, OptionError
from .rules import Rules
from .state import State


def _checked_rules(rules: Rules) -> Rules:
    if not isinstance(rules, Rules):
        raise OptionError(f"a game needs its Rules, e.g. Rules.preset('bezique'), not "
                          f"{rules!r:.40}")
    return rules


def _checked_rng(seed: int | None) -> random.Random:
    if isinstance(seed, float | bool) or not isinstance(seed, int | str | bytes | None):
        raise BeziqueError(f"the seed must be a whole number or None, not {seed!r:.40}")
    return random.Random(seed)


def _check_follows(rules: Rules, i: int, before: State, after: State) -> None:
    """Deal ``i + 1`` (``after``) follows deal ``i`` as :meth:`Game.next_deal` would deal it:
    once that deal is over and the game is not, by the next seat, from its totals (the
    one-deal games of RULES.md 9.0 start each deal from nothing)."""
    one_deal = rules.settlement == "portland"
    seat = (before.dealer + 1) % rules.nplayers
    why = ""
    if not before.is_terminal():
        why = "it is not over"
    elif not one_deal and before.winner is not None:
        why = "the game was won in it"
    elif after.dealer != seat:
        why = f"the next deal is dealt by seat {seat}, not {after.dealer}"
    elif not one_deal and after.totals != before.game_scores:
        why = "the next deal does not start from its totals"
    if why:
        raise BeziqueError(f"deal {i + 1} cannot follow deal {i}: {why}")


class Game:
    """Deals to the target: the deal passes to the next seat, totals carry over, and the game
    ends when a deal decides a winner.  ``state`` is the current deal; ``deals`` are the
    finished ones."""

    def __init__(self, rules: Rules, seed: int | None = None, first_dealer: int = 1) -> None:
        n = _checked_rules(rules).nplayers
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not (
                0 <= first_dealer < n):
            raise BeziqueError(f"the first dealer must be a seat, 0 to {n - 1}, not "
                               f"{first_dealer!r:.40}")
        self.rules = rules
        self.seed = seed
        self._rng = _checked_rng(seed)
        self._before_next: tuple[Any, ...] | None = None  # the shuffle before next_deal
        self.deals: list[State] = []
        self.state = State.new_deal(rules, self._rng.getrandbits(64), dealer=first_dealer)

    @classmethod
    def from_states(cls, rules: Rules, deals: list[State], seed: int | None = None) -> Game:
        """A game made of deals already played (the last one current), as from a record; each
        deal must follow the one before as :meth:`next_deal` deals it, else
        :class:`BeziqueError`."""
        _checked_rules(rules)
        if not deals or not all(isinstance(d, State) and d.rules == rules for d in deals):
            raise BeziqueError("a game is made of at least one deal (State) of its rules")
        for i in range(1, len(deals)):
            _check_follows(rules, i, deals[i - 1], deals[i])
        g = cls.__new__(cls)
        g.rules = rules
        g.seed = seed
        g._rng = _checked_rng(seed)
        g._before_next = None
        for _ in deals:  # keep the shuffle sequence as if these deals had been dealt here
            g._rng.getrandbits(64)
        g.deals = deals[:-1]
        g.state = deals[-1]
        return g

    @property
    def totals(self) -> tuple[int, ...]:
        """Game totals, including the current deal's points."""
        return self.state.game_scores

    @property
    def winner(self) -> int | None:
        """The seat that won the game, once decided (in a four-handed partnership, the side:
        0 for seats 0 & 2, 1 for seats 1 & 3)."""
        return self.state.winner

    def is_over(self) -> bool:
        """True once a winner is decided (in the one-deal games of RULES.md 9.0, once the deal
        is over, a draw included)."""
        if self.rules.settlement == "portland":
            return self.state.is_terminal()
        return self.state.winner is not None

    def apply(self, action: int | str) -> None:
        """Apply an action (int or text) to the current deal."""
        if isinstance(action, bool) or not isinstance(action, int | str):
            raise IllegalActionError(f"an action is a text such as 'play QS' or an int, not "
                                     f"{action!r:.40}")
        self.state.apply(action)

    def next_deal(self) -> State:
        """Start the next deal (the next seat deals); only once the current one is over."""
        if not self.state.is_terminal():
            raise IllegalActionError("the deal is not over yet")
        if self.is_over():
            raise IllegalActionError("the game is over")
        before = self._rng.getstate()
        self.deals.append(self.state)
        self._before_next = before
        self.state = State.new_deal(
            self.rules,
            self._rng.getrandbits(64),
            dealer=(self.state.dealer + 1) % self.rules.nplayers,
            totals=self.state.game_scores,
        )
        return self.state

    def undo_next_deal(self) -> State:
        """Take back :meth:`next_deal` while its deal is untouched (say, it could not be
        saved): the finished deal is current again and the next :meth:`next_deal` deals the
        same cards; :class:`IllegalActionError` if there is no such deal to take back.

        >>> g = Game(Rules.preset("bezique"), seed=3)
        >>> while not g.state.is_terminal():
        ...     g.apply(g.state.legal_actions()[0])
        >>> first = g.next_deal().deal_hands
        >>> _ = g.undo_next_deal()
        >>> len(g.deals), g.next_deal().deal_hands == first
        (0, True)
        """
        if self._before_next is None or self.state.history():
            raise IllegalActionError("there is no new deal to take back"
                                     + (" (it has begun)" if self._before_next is not None
                                        else ""))
        self._rng.setstate(self._before_next)
        self._before_next = None
        self.state = self.deals.pop()
        return self.state

    def __repr__(self) -> str:
        return (f"<Game {self.rules.variant} deal {len(self.deals) + 1} totals "
                f"{list(self.totals)}{' over' if self.is_over() else ''}>")

    def all_deals(self) -> list[State]:
        """Every deal of the game so far, the current one last."""
        return [*self.deals, self.state]

    def to_record(self) -> dict[str, Any]:
        """The game as a record (RULES.md 8)."""
        from .record import game_record

        return game_record(self.rules, self.all_deals())
