"""What one seat may see: its own hand and draws, and everything public; never hidden cards.

An :class:`Observation` holds cards as ints 0..31 (never physical copy numbers, which could tell
where the other copy lies).  It is built from a state by :func:`observe`, and is all an agent is
given.  This module does not import :mod:`bezique.state`: :class:`ObservedState` names what
:func:`observe` reads of a state, and :meth:`State.observation <bezique.state.State.observation>`
calls :func:`observe` (the dependency goes ``state -> observation``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Protocol

from . import actions as act
from .cards import bits, card_name, card_of, make_card, rank_of, suit_of
from .rules import Rules


class ObservedState(Protocol):
    """What :func:`observe` reads of a state (:class:`bezique.state.State` has all of it)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def trump(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def totals(self) -> tuple[int, ...]: ...
    @property
    def stock(self) -> tuple[int, ...]: ...
    @property
    def turnup_card(self) -> int: ...
    @property
    def hand_masks(self) -> tuple[int, ...]: ...
    @property
    def shown_masks(self) -> tuple[int, ...]: ...
    @property
    def known_masks(self) -> tuple[int, ...]: ...
    @property
    def trick_count(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def turnup(self) -> int | None: ...
    @property
    def end_phase(self) -> bool: ...
    @property
    def stock_left(self) -> int: ...
    @property
    def scores(self) -> tuple[int, int]: ...
    @property
    def brisques(self) -> tuple[int, int]: ...
    @property
    def winner(self) -> int | None: ...
    def current_player(self) -> int: ...
    def melds(self, seat: int) -> list[tuple[str, list[int], int, bool]]: ...
    def history(self) -> list[tuple[int, int]]: ...
    def history_strings(self) -> list[tuple[int, str]]: ...
    def trick_cards(self) -> list[int]: ...
    def legal_action_strings(self) -> list[str]: ...


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
    """A seat's view of a deal.  Equal for any arrangement of the cards that seat cannot see.

    Cards are ints 0..31; lists of cards are sorted by suit, then rank high to low.

    Attributes:
        seat: the seat this view belongs to (0 or 1).
        rules: the rules of the deal.
        trump: the trump suit (0..3), the suit of ``turnup_dealt``.
        dealer: the seat that dealt.
        turn: the seat to act, or -4 once the deal is over.
        phase: ``lead``, ``follow``, ``declare`` or ``over``.
        hand: this seat's concealed cards.
        shown: each seat's cards on the table (in melds).
        melds: each seat's scored melds, in the order declared.
        turnup: the card face up under the stock now (after an exchange, the seven of trumps),
            or None once it has been drawn.
        turnup_dealt: the card turned up at the deal, before any exchange (everyone saw it).
        stock: face-down cards left in the stock (the turn-up not counted).
        end_phase: True once the stock and the turn-up are gone (follow suit, win if you can).
        trick: the card led to the current trick, if any.
        tricks: every completed trick, in order.
        tricks_played: how many tricks are complete (``len(tricks)``).
        scores: this deal's points of each seat so far.
        brisques: the brisques (Binocle: card points) in the tricks each seat has won so far.
        totals: each seat's game total before this deal.
        actions: every action of the deal so far as (seat, text).
        draws: the cards this seat received, in order: one per ``pass`` (its draw from the
            stock, or the turn-up at the last draw) and the turn-up it took by ``exchange``.
        opponent_known: the opponent's concealed cards this seat knows of: a turn-up it took
            (by exchange or at the last draw), a seven of trumps it declared and still holds,
            and its shown cards that went back to its hand when the stock ran out.
        known_to_opponent: the same for this seat: those of its concealed cards the opponent
            knows of.
        opponent_hand_size: the opponent's cards, concealed and shown.
        legal: the legal action texts when it is this seat's turn, else empty.
        winner: the game's winner once decided, else None.
    """

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
    turnup_dealt: int
    stock: int
    end_phase: bool
    trick: tuple[int, ...]
    tricks: tuple[TrickView, ...]
    tricks_played: int
    scores: tuple[int, int]
    brisques: tuple[int, int]
    totals: tuple[int, int]
    actions: tuple[tuple[int, str], ...]
    draws: tuple[int, ...]
    opponent_known: tuple[int, ...]
    known_to_opponent: tuple[int, ...]
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
            f"dealt={card_name(self.turnup_dealt)}",
            f"stock={self.stock}",
            f"scores={self.scores[0]},{self.scores[1]}",
            "actions=" + ";".join(f"{p}:{a}" for p, a in self.actions),
            "draws=" + ",".join(card_name(c) for c in self.draws),
        ]
        return " ".join(parts)


def _sorted_cards(mask: int) -> tuple[int, ...]:
    return tuple(sorted((card_of(p) for p in bits(mask)), key=lambda c: (suit_of(c), rank_of(c))))


def observe(state: ObservedState, seat: int) -> Observation:
    """Build the observation of ``seat`` from ``state``."""
    other = 1 - seat
    melds = tuple(
        tuple(
            MeldView(name, tuple(cards), pts, intact)
            for name, cards, pts, intact in state.melds(s)
        )
        for s in (0, 1)
    )
    steps = state.history()
    actions = state.history_strings()
    tricks: list[TrickView] = []
    # the seat's draws, following the stock and the turn-up through the public actions: the
    # winner of a trick draws first; at the last draw the loser takes the turn-up, which after
    # an exchange is the seven of trumps (one exchange at most: the turn-up is then a seven)
    draws: list[int] = []
    stock = state.stock
    pos = 0
    face_up = card_of(state.turnup_card)
    for player, a in steps:
        if a == act.PASS:
            left = len(stock) - pos
            if player == seat:
                draws.append(card_of(stock[pos]))
            elif left >= 2:
                draws.append(card_of(stock[pos + 1]))
            else:
                draws.append(face_up)
            pos += 2 if left >= 2 else 1
        elif a == act.EXCHANGE:
            if player == seat:
                draws.append(face_up)
            face_up = make_card(state.rules.seven_rank, state.trump)
    # tricks: pair up plays in order, winners from the rules of trick play
    plays = [(player, a) for player, a in steps if act.is_play(a)]
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
        turnup_dealt=card_of(state.turnup_card),
        stock=state.stock_left,
        end_phase=state.end_phase,
        trick=tuple(state.trick_cards()),
        tricks=tuple(tricks),
        tricks_played=state.trick_count,
        scores=state.scores,
        brisques=state.brisques,
        totals=(state.totals[0], state.totals[1]),
        actions=tuple(actions),
        draws=tuple(draws),
        opponent_known=_sorted_cards(opp_known),
        known_to_opponent=_sorted_cards(state.known_masks[seat] & hand_mask),
        opponent_hand_size=(state.hand_masks[other] | state.shown_masks[other]).bit_count(),
        legal=legal,
        winner=state.winner,
    )


def _trick_winner(lead: int, follow: int, trump: int, leader: int, follower: int) -> int:
    ls, fs = suit_of(lead), suit_of(follow)
    if fs == ls:
        return follower if rank_of(follow) < rank_of(lead) else leader
    return follower if fs == trump else leader
