"""What one seat may see: its own hand and draws, and everything public; never hidden cards.

An :class:`Observation` holds cards as ints 0..31 (never physical copy numbers, which could tell
where the other copy lies).  It is built from a :class:`~bezique.state.State` by
:func:`observe`, and is all an agent is given.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import actions as act
from .cards import bits, card_name, card_of, rank_of, suit_of
from .rules import Rules

if TYPE_CHECKING:
    from .state import State


@dataclass(frozen=True)
class MeldView:
    """A scored meld as everyone saw it."""

    name: str
    cards: tuple[int, ...]
    points: int
    intact: bool


@dataclass(frozen=True)
class TrickView:
    """A completed trick: who led, the two cards, who won."""

    leader: int
    lead: int
    follow: int
    winner: int


@dataclass(frozen=True)
class Observation:
    """A seat's view of a deal.  Equal for any arrangement of the cards that seat cannot see."""

    seat: int
    rules: Rules
    trump: int
    dealer: int
    turn: int
    phase: str
    hand: tuple[int, ...]
    shown: tuple[tuple[int, ...], tuple[int, ...]]
    melds: tuple[tuple[MeldView, ...], tuple[MeldView, ...]]
    turnup: int | None
    stock: int
    trick: tuple[int, ...]
    tricks: tuple[TrickView, ...]
    scores: tuple[int, ...]
    totals: tuple[int, int]
    actions: tuple[tuple[int, str], ...]
    draws: tuple[int, ...]
    opponent_known: tuple[int, ...]
    opponent_hand_size: int
    legal: tuple[str, ...]
    winner: int | None

    @property
    def my_turn(self) -> bool:
        """True when this seat is to act."""
        return self.turn == self.seat

    def unseen(self) -> Counter[int]:
        """Cards this seat has not seen anywhere (they are in the stock or the other hand).

        The opponent's cards known from the table or the turn-up count as seen.
        """
        left: Counter[int] = Counter()
        for p in self.rules.deck:
            left[card_of(p)] += 1
        seen: list[int] = list(self.hand)
        seen += self.shown[0] + self.shown[1] + self.trick + self.opponent_known
        for t in self.tricks:
            seen += (t.lead, t.follow)
        if self.turnup is not None:
            seen.append(self.turnup)
        left.subtract(seen)
        return +left

    def text(self) -> str:
        """A stable one-line text of the whole observation (OpenSpiel's information state)."""
        parts = [
            f"seat={self.seat}",
            f"turn={self.turn}",
            f"phase={self.phase}",
            "hand=" + ",".join(card_name(c) for c in self.hand),
            "shown=" + "|".join(",".join(card_name(c) for c in s) for s in self.shown),
            f"turnup={card_name(self.turnup) if self.turnup is not None else '-'}",
            f"stock={self.stock}",
            f"scores={self.scores[0]},{self.scores[1]}",
            "actions=" + ";".join(f"{p}:{a}" for p, a in self.actions),
            "draws=" + ",".join(card_name(c) for c in self.draws),
        ]
        return " ".join(parts)


def _sorted_cards(mask: int) -> tuple[int, ...]:
    return tuple(sorted((card_of(p) for p in bits(mask)), key=lambda c: (suit_of(c), rank_of(c))))


def observe(state: State, seat: int) -> Observation:
    """Build the observation of ``seat`` from ``state``."""
    other = 1 - seat
    melds = tuple(
        tuple(
            MeldView(name, tuple(cards), pts, intact)
            for name, cards, pts, intact in state.melds(s)
        )
        for s in (0, 1)
    )
    steps = state.snapshots()
    actions = state.history_strings()
    tricks: list[TrickView] = []
    draws: list[int] = []
    for snap in steps:
        player, a = snap[12], snap[21]
        if a == act.PASS:
            pos, tu = snap[0], snap[1]
            left = len(state.stock) - pos
            if player == seat:
                draws.append(card_of(state.stock[pos]))
            elif left >= 2:
                draws.append(card_of(state.stock[pos + 1]))
            else:
                draws.append(card_of(tu))
        elif a == act.EXCHANGE and player == seat:
            draws.append(card_of(snap[1]))
    # tricks: pair up plays in order, winners from the rules of trick play
    plays = [(snap[12], snap[21]) for snap in steps if act.is_play(snap[21])]
    for i in range(0, len(plays) - 1, 2):
        (lp, lc), (fp, fc) = plays[i], plays[i + 1]
        win = _trick_winner(lc, fc, state.trump, lp, fp)
        tricks.append(TrickView(lp, card_of(lc), card_of(fc), win))
    hand_mask = state.hand_masks[seat]
    opp_known = state.known_masks[other] & state.hand_masks[other]
    legal: tuple[str, ...] = ()
    if state.current_player() == seat:
        legal = tuple(state.legal_action_strings())
    return Observation(
        seat=seat,
        rules=state.rules,
        trump=state.trump,
        dealer=state.dealer,
        turn=state.current_player(),
        phase=state.phase,
        hand=_sorted_cards(hand_mask),
        shown=(_sorted_cards(state.shown_masks[0]), _sorted_cards(state.shown_masks[1])),
        melds=(melds[0], melds[1]),
        turnup=state.turnup,
        stock=state.stock_left,
        trick=tuple(state.trick_cards()),
        tricks=tuple(tricks),
        scores=state.scores,
        totals=(state.totals[0], state.totals[1]),
        actions=tuple(actions),
        draws=tuple(draws),
        opponent_known=_sorted_cards(opp_known),
        opponent_hand_size=(state.hand_masks[other] | state.shown_masks[other]).bit_count(),
        legal=legal,
        winner=state.winner,
    )


def _trick_winner(lead: int, follow: int, trump: int, leader: int, follower: int) -> int:
    ls, fs = suit_of(lead), suit_of(follow)
    if fs == ls:
        return follower if rank_of(follow) < rank_of(lead) else leader
    return follower if fs == trump else leader
