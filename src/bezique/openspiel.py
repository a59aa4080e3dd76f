"""The OpenSpiel game ``python_bezique``: importing this module registers it with ``pyspiel``::

    import pyspiel, bezique.openspiel
    game = pyspiel.load_game("python_bezique(variant=binocle,target=1500)")

This is the only module of the package that imports ``pyspiel`` (and ``numpy``); install the
``openspiel`` extra.  It owns the OpenSpiel classes: the game (its type, parameters and sizes),
the state (the chance model, the mapping of OpenSpiel action ids to the engine's actions,
``resample_from_infostate``) and the observer.  The numbering and the tensors themselves are plain
Python in :mod:`bezique.openspiel_encoding`.

Chance: every card of the pack is dealt by a chance node, one card at a time from what is left
(outcome: the card id 0..31, probability: copies left / cards left): first each seat's hand in
dealing order, then the turn-up, then the stock from the top.  With the cut bonus (RULES.md 9.2,
options ``cut_bonus`` and ``cut_range``) one more chance node follows, the dealer's cut: outcome
``n`` (the number of cards cut) for each ``n`` of ``cut_range``, each with probability 1 / the
range's size, as the engine draws it (uniformly, apart from the shuffle: the cards dealt do not
depend on it).  The engine :class:`~bezique.state.State` is built once the last card (and the
cut) is dealt; the stock's order and the cut are chance and are never shown to a player before
the card is drawn or the cut guessed (observations come from
:meth:`State.observation <bezique.state.State.observation>` only).  The guess is then the
non-dealer's first decision, ids of their own (:mod:`bezique.openspiel_encoding`).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel

from .cards import card_name, card_of
from .observation import Observation
from .openspiel_encoding import (
    NCARD,
    PARAMETER_DEFAULTS,
    Layout,
    action_table,
    chance_text,
    deal_tensor,
    deal_text,
    describe_id,
    game_parameters,
    history_tensor,
    information_text,
    observation_tensor,
    observation_text,
    rules_from_parameters,
    string_safe,
)
from .rules import Rules
from .scoring import sides
from .state import State
from .worlds import resample_from_infostate

__all__ = ["GAME_TYPE", "BeziqueGame", "BeziqueObserver", "BeziqueState", "game_for",
           "state_from_engine"]

MAX_UTILITY = 100000.0
"""A bound on one deal's zero-sum result (deal points less the opponent's)."""

GAME_TYPE = pyspiel.GameType(
    short_name="python_bezique",
    long_name="Python Bezique",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETER_DEFAULTS,
)


def _game_info(layout: Layout) -> Any:
    r = layout.rules
    return pyspiel.GameInfo(
        num_distinct_actions=layout.num_distinct_actions,
        max_chance_outcomes=layout.max_chance_outcomes,
        num_players=r.nplayers,
        min_utility=-MAX_UTILITY,
        max_utility=MAX_UTILITY,
        utility_sum=0.0,
        max_game_length=layout.max_game_length,
    )


class BeziqueGame(pyspiel.Game):  # type: ignore[misc]
    """One deal of a Bezique variant (parameters: ``variant``, ``dealer`` and the options of
    RULES.md 6 and 9.7, the cut bonus's among them; -1 or "" leave a number or a choice at the
    variant's default; a true/false option is set true by ``name=True``, and turned off by
    ``off=name`` (several joined by ``+``), since OpenSpiel passes ``False`` for one not given:
    ``python_bezique(variant=binocle,off=fours_distinct_suits)``)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = string_safe(params or {})
        full = {**PARAMETER_DEFAULTS, **params}
        self.rules: Rules = rules_from_parameters(full)
        dealer = int(full["dealer"])
        if not 0 <= dealer < self.rules.nplayers:
            raise ValueError(f"dealer must be a seat of {self.rules.variant}, not {dealer}")
        self.dealer = dealer
        self.layout = Layout(self.rules)
        super().__init__(GAME_TYPE, _game_info(self.layout), params)

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        """Pickled as its parameters, so that the copy is built by ``__init__`` (OpenSpiel's
        own pickling keeps the game string only: the copy had no rules and made no state)."""
        return (BeziqueGame, (dict(self.get_parameters()),))

    def new_initial_state(self) -> BeziqueState:
        """The state before the first card is dealt."""
        return BeziqueState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> BeziqueObserver:
        """An observer: information state (perfect recall) or observation."""
        return BeziqueObserver(
            self.layout, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class _Core:
    """The Python side of a state: the cards dealt so far and, once dealt (and the cut with the
    cut bonus), the engine state.  ``copy.deepcopy`` (OpenSpiel's clone) clones the engine state
    and shares the rules."""

    __slots__ = ("dealer", "dealt", "engine", "layout", "left")

    def __init__(self, layout: Layout, dealer: int) -> None:
        self.layout = layout
        self.dealer = dealer
        self.dealt: list[int] = []
        left = [0] * NCARD
        for p in layout.rules.deck:
            left[card_of(p)] += 1
        self.left = left
        self.engine: State | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        c = _Core.__new__(_Core)
        c.layout = self.layout
        c.dealer = self.dealer
        c.dealt = list(self.dealt)
        c.left = list(self.left)
        c.engine = self.engine.clone() if self.engine is not None else None
        return c

    # the order of the deal: hands from the dealer's left, the turn-up, the stock
    def seat_of(self, k: int) -> int:
        """The seat the ``k``-th card of the deal goes to (-1: the turn-up or the stock)."""
        r = self.layout.rules
        block = r.hand_size * r.nplayers
        if k >= block:
            return -1
        return (self.dealer + 1 + k // r.hand_size) % r.nplayers

    def hand_so_far(self, seat: int) -> list[int]:
        """The cards dealt to ``seat`` so far."""
        return [c for k, c in enumerate(self.dealt) if self.seat_of(k) == seat]

    def turnup_so_far(self) -> int | None:
        """The turn-up once dealt, else None."""
        r = self.layout.rules
        k = r.hand_size * r.nplayers
        return self.dealt[k] if r.turnup and len(self.dealt) > k else None

    def cut_next(self) -> bool:
        """True at the cut's chance node: every card dealt, the cut bonus's cut not yet."""
        return (self.engine is None and self.layout.rules.cut_bonus
                and len(self.dealt) == self.layout.rules.deck_size)

    def deal_card(self, card: int) -> None:
        """Deal the next card; build the engine state after the last one (without the cut
        bonus)."""
        if self.cut_next() or not 0 <= card < NCARD or self.left[card] <= 0:
            raise ValueError(f"{card} is not a card left to deal")
        self.left[card] -= 1
        self.dealt.append(card)
        r = self.layout.rules
        if len(self.dealt) == r.deck_size and not r.cut_bonus:
            self._build(None)

    def deal_cut(self, cut: int) -> None:
        """The cut (with the cut bonus, after the last card): build the engine state."""
        cuts = self.layout.cuts
        if not self.cut_next() or cuts is None or not cuts[0] <= cut <= cuts[1]:
            raise ValueError(f"{cut} is not a cut to deal here")
        self._build(cut)

    def _build(self, cut: int | None) -> None:
        r = self.layout.rules
        n, h = r.nplayers, r.hand_size
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):
            hands[(self.dealer + 1 + i) % n] = self.dealt[i * h:(i + 1) * h]
        k = n * h
        turnup = self.dealt[k] if r.turnup else None
        stock = self.dealt[k + 1:] if r.turnup else self.dealt[k:]
        self.engine = State.from_cards(r, hands, turnup, stock, self.dealer, cut=cut)


class BeziqueState(pyspiel.State):  # type: ignore[misc]
    """A deal: chance nodes while the cards are dealt, then the engine's deal."""

    def __init__(self, game: BeziqueGame) -> None:
        super().__init__(game)
        self._core = _Core(game.layout, game.dealer)

    @property
    def engine(self) -> State | None:
        """The engine's state once every card is dealt (it holds the hidden cards)."""
        return self._core.engine

    def observation_of(self, seat: int) -> Observation | None:
        """What ``seat`` may see, once the cards are dealt."""
        e = self._core.engine
        return e.observation(seat) if e is not None else None

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while dealing, ``TERMINAL`` at the end."""
        e = self._core.engine
        if e is None:
            return int(pyspiel.PlayerId.CHANCE)
        if e.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return e.current_player()

    def is_terminal(self) -> bool:
        """True once the deal is over."""
        e = self._core.engine
        return e is not None and e.is_terminal()

    def returns(self) -> list[float]:
        """Zero-sum deal result per seat (0 until the end): the seat's deal points less the
        others' average (:meth:`State.returns <bezique.state.State.returns>`); in a partnership
        (``bezique4``) the side's, the same for both partners: its points less the other
        side's."""
        e = self._core.engine
        r = self._core.layout.rules
        if e is None or not e.is_terminal():
            return [0.0] * r.nplayers
        if r.partner(0) >= 0:
            a, b = sides(e.scores)
            return [float(a - b) if s % 2 == 0 else float(b - a) for s in range(r.nplayers)]
        return [float(x) for x in e.returns()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card dealt: each card id left, with copies left / cards left; at the cut's
        node each cut of ``cut_range`` (its number of cards), all equally likely."""
        core = self._core
        cuts = core.layout.cuts
        if cuts is not None and core.cut_next():
            lo, hi = cuts
            return [(n, 1.0 / (hi - lo + 1)) for n in range(lo, hi + 1)]
        left = core.left
        total = sum(left)
        return [(c, k / total) for c, k in enumerate(left) if k]

    def _legal_actions(self, player: int) -> list[int]:
        e = self._core.engine
        if e is None or e.is_terminal() or player != e.current_player():
            return []
        return sorted(action_table(e))

    def _apply_action(self, action: int) -> None:
        core = self._core
        e = core.engine
        if e is None:
            try:
                if core.cut_next():
                    core.deal_cut(action)
                else:
                    core.deal_card(action)
            except ValueError as err:
                raise pyspiel.SpielError(str(err)) from None
            return
        table = action_table(e)
        if action not in table:
            size = core.layout.num_distinct_actions
            what = (self._describe(action) if 0 <= action < size
                    else f"action ids are 0 to {size - 1}")
            raise pyspiel.SpielError(f"{action} is not a legal action here ({what})")
        e.apply_action(table[action])

    def _describe(self, action: int) -> str:
        return describe_id(self._core.layout, action)

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        e = core.engine
        if e is None or player < 0:
            return chance_text(action, core.cut_next())
        if player == e.current_player():
            a = action_table(e).get(action)
            if a is not None:
                return e.action_to_string(a, player)
        return self._describe(action)

    def engine_to_id(self, engine_action: int) -> int:
        """The id of a legal engine action of the seat to act."""
        e = self._core.engine
        if e is None:
            raise ValueError("the cards are still being dealt")
        for i, a in action_table(e).items():
            if a == engine_action:
                return i
        raise ValueError(f"{engine_action} is not a legal action with an id here")

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float] | None = None
                                ) -> BeziqueState:
        """A state ``player_id`` cannot tell from this one: the cards it has not seen dealt
        afresh by :func:`bezique.worlds.resample_from_infostate`, the same actions replayed."""
        n = self._core.layout.rules.nplayers
        try:
            seat = operator.index(player_id)
        except TypeError:
            seat = -1
        if not 0 <= seat < n:
            raise pyspiel.SpielError(f"resample_from_infostate: player_id must be a seat 0 to "
                                     f"{n - 1}, not {player_id!r}")
        e = self._core.engine
        if e is None:
            return self.clone()  # type: ignore[no-any-return]
        seed = int(probability_sampler() * 2**52) if probability_sampler is not None else None
        world = resample_from_infostate(e, seat, random.Random(seed))
        return state_from_engine(self.get_game(), world)

    def __str__(self) -> str:
        core = self._core
        e = core.engine
        if e is None:
            return f"dealing {len(core.dealt)}/{core.layout.rules.deck_size}: " + " ".join(
                card_name(c) for c in core.dealt)
        hands = " | ".join(" ".join(card_name(c) for c in e.hand(s))
                           for s in range(core.layout.rules.nplayers))
        cut = f" cut {e.cut} guess {e.cut_guess}" if e.rules.cut_bonus else ""
        return f"{e!r} hands {hands} stock left {e.stock_left}{cut}"


def game_for(rules: Rules, dealer: int) -> BeziqueGame:
    """The ``python_bezique`` game of ``rules`` (its non-default options as parameters) with
    ``dealer`` dealing.

    >>> from bezique import Rules
    >>> game_for(Rules.preset("binocle", target=1500), 0)
    python_bezique(dealer=0,target=1500,variant=binocle)
    >>> game_for(Rules.preset("binocle", fours_distinct_suits=False), 0)  # not the default
    python_bezique(dealer=0,off=fours_distinct_suits,variant=binocle)
    """
    return BeziqueGame(game_parameters(rules, dealer))


def state_from_engine(game: BeziqueGame, world: State) -> BeziqueState:
    """The OpenSpiel state of the engine deal ``world``: its cards dealt by the chance nodes
    (hands from the dealer's left, the turn-up, the stock from the top, then the cut with the
    cut bonus), then its actions.  ``game`` must have ``world``'s rules and dealer (else
    :class:`ValueError`)."""
    if game.rules != world.rules or game.dealer != world.dealer:
        raise ValueError(f"the game {game} is not the deal's: its rules or dealer differ (make "
                         f"it with game_for(rules, dealer))")
    out: BeziqueState = game.new_initial_state()
    n = world.rules.nplayers
    for i in range(n):
        for p in world.deal_hands[(world.dealer + 1 + i) % n]:
            out.apply_action(card_of(p))
    if world.turnup_card >= 0:
        out.apply_action(card_of(world.turnup_card))
    for p in world.stock:
        out.apply_action(card_of(p))
    if world.rules.cut_bonus:
        out.apply_action(world.cut)
    for _, a in world.history():
        out.apply_action(out.engine_to_id(a))
    return out


class BeziqueObserver:
    """OpenSpiel's observer (``make_py_observer``): with perfect recall the information state
    (string :func:`~bezique.openspiel_encoding.information_text`, tensor: observation +
    history), else the observation."""

    def __init__(self, layout: Layout, iig_obs_type: Any,
                 params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise ValueError("python_bezique observes one seat's private and public information")
        self.layout = layout
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        pieces = [("observation", layout.observation_size)]
        if self.perfect_recall:
            pieces.append(("history", layout.history_size))
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        index = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[index:index + size]
            index += size

    def set_from(self, state: BeziqueState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state``."""
        obs = state.observation_of(player)
        if obs is None:
            core = state._core
            values = deal_tensor(self.layout, player, core.hand_so_far(player),
                                 core.turnup_so_far())
        else:
            values = observation_tensor(self.layout, obs)
        self.dict["observation"][:] = values
        if self.perfect_recall:
            self.dict["history"][:] = history_tensor(self.layout, obs)

    def string_from(self, state: BeziqueState, player: int) -> str:
        """``player``'s view of ``state`` as text."""
        obs = state.observation_of(player)
        if obs is None:
            core = state._core
            return deal_text(player, core.hand_so_far(player), core.turnup_so_far(),
                             len(core.dealt), self.layout.rules.deck_size)
        return information_text(obs) if self.perfect_recall else observation_text(obs)


pyspiel.register_game(GAME_TYPE, BeziqueGame)
