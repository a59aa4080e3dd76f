"""What one seat may see: its own hand and draws, and everything public; never hidden cards.

An :class:`Observation` holds cards as ints 0..31 (never physical copy numbers, which could tell
where the other copy lies).  It is built from a state by :func:`observe`, and is all an agent is
given.  This module does not import :mod:`bezique.state`: :class:`ObservedState` names what
:func:`observe` reads of a state, and :meth:`State.observation <bezique.state.State.observation>`
calls :func:`observe` (the dependency goes ``state -> observation``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from . import actions as act
from .cards import bits, card_name, card_of, make_card, rank_of, suit_of
from .melds import classify, fixed_trump, quick_patterns
from .rules import Rules
from .tricks import beats


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
    def scores(self) -> tuple[int, ...]: ...
    @property
    def brisques(self) -> tuple[int, ...]: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def cut_known(self) -> int | None: ...
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
    """A completed trick: who led, the card led and the (first) card that followed, who won;
    ``cards`` holds every card in the order played (two, or one per seat)."""

    leader: int
    lead: int
    follow: int
    winner: int
    cards: tuple[int, ...] = ()


@dataclass(frozen=True)
class Observation:
    """A seat's view of a deal.  Equal for any arrangement of the cards that seat cannot see.

    Cards are ints 0..31; lists of cards are sorted by suit, then rank high to low.

    Attributes:
        seat: the seat this view belongs to (0 to seats - 1).
        rules: the rules of the deal.
        trump: the trump suit (0..3), the suit of ``turnup_dealt``; -1 while no trumps are
            fixed in a variant with no turn-up (the first marriage or sequence fixes them).
        dealer: the seat that dealt.
        turn: the seat to act, or -4 once the deal is over.
        phase: ``lead``, ``follow``, ``declare``, ``over``, or ``guess`` (the cut bonus: the
            non-dealer guesses the size of the cut before play).
        hand: this seat's concealed cards.
        shown: each seat's cards on the table (in melds).
        melds: each seat's scored melds, in the order declared.
        turnup: the card face up under the stock now (after an exchange, the seven of trumps),
            or None once it has been drawn.
        turnup_dealt: the card turned up at the deal, before any exchange (everyone saw it);
            -1 in a variant with no turn-up.
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
        known_cards: for each seat, those of its concealed cards everyone knows of: a turn-up it
            took (by exchange or at the last draw), a seven of trumps it declared and still
            holds, its shown cards that went back to its hand when the stock ran out, the hand
            it showed for carte blanche.
        hand_sizes: each seat's cards, concealed and shown.
        opponent_known: ``known_cards`` of the opponent (with more seats, of the next seat).
        known_to_opponent: ``known_cards`` of this seat.
        opponent_hand_size: ``hand_sizes`` of the opponent (with more seats, of the next seat).
        legal: the legal action texts when it is this seat's turn, else empty.
        winner: the game's winner once decided, else None.
        cut: with the cut bonus (RULES.md 9.2), the size of the dealer's cut once the
            non-dealer has guessed it (the packet is then counted for all to see), else None.
    """

    seat: int
    rules: Rules
    trump: int
    dealer: int
    turn: int
    phase: str
    hand: tuple[int, ...]
    shown: tuple[tuple[int, ...], ...]
    melds: tuple[tuple[MeldView, ...], ...]
    turnup: int | None
    turnup_dealt: int
    stock: int
    end_phase: bool
    trick: tuple[int, ...]
    tricks: tuple[TrickView, ...]
    tricks_played: int
    scores: tuple[int, ...]
    brisques: tuple[int, ...]
    totals: tuple[int, ...]
    actions: tuple[tuple[int, str], ...]
    draws: tuple[int, ...]
    known_cards: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]
    opponent_known: tuple[int, ...]
    known_to_opponent: tuple[int, ...]
    opponent_hand_size: int
    legal: tuple[str, ...]
    winner: int | None
    cut: int | None = None

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
        seen += self.trick
        for i, shown in enumerate(self.shown):
            seen += shown
            if i != self.seat:
                seen += self.known_cards[i]
        for t in self.tricks:
            seen += t.cards
        if self.turnup is not None:
            seen.append(self.turnup)
        left.subtract(seen)
        return +left

    def shown_plays(self, cards: Sequence[int] | None = None) -> list[str]:
        """The action that plays each of this seat's shown ``cards`` (all of them, in the
        order of ``shown``, by default), a card's copies counted in the order given.

        ``play QS*``; where copies shown in different melds differ, one of their numbered
        actions (``play QS*2``), each copy its own while there are numbers (there may be fewer
        numbers than copies: of three A♥ shown in two melds, two together, the engine numbers
        two).  A card that may not be played now keeps its plain action, or ``*1`` where it
        has copies on the table, so that trying it is told the rules' reason, not the
        notation's ("write AH*1 or AH*2").
        """
        out = []
        seen: Counter[int] = Counter()
        shown = self.shown[self.seat]
        for c in shown if cards is None else cards:
            seen[c] += 1
            a = f"play {card_name(c)}*"
            if a not in self.legal:
                numbered = sorted((x for x in self.legal
                                   if x.startswith(a) and x[len(a):].isdigit()),
                                  key=lambda x: int(x[len(a):]))
                if numbered:
                    a = numbered[min(seen[c], len(numbered)) - 1]
                elif shown.count(c) > 1:
                    a += "1"
            out.append(a)
        return out

    def text(self) -> str:
        """A stable one-line text of the deal as this seat has seen it: its hand, the table and
        every action (OpenSpiel's information state within a deal).  It leaves out the game
        totals and, with the cut bonus, the cut (:func:`bezique.openspiel_encoding.information_text`
        adds it): two observations may differ there and have one text."""
        parts = [
            f"seat={self.seat}",
            f"turn={self.turn}",
            f"phase={self.phase}",
            "hand=" + ",".join(card_name(c) for c in self.hand),
            "shown=" + "|".join(",".join(card_name(c) for c in s) for s in self.shown),
            f"turnup={card_name(self.turnup) if self.turnup is not None else '-'}",
            f"dealt={card_name(self.turnup_dealt) if self.turnup_dealt >= 0 else '-'}",
            f"stock={self.stock}",
            "scores=" + ",".join(str(x) for x in self.scores),
            "actions=" + ";".join(f"{p}:{a}" for p, a in self.actions),
            "draws=" + ",".join(card_name(c) for c in self.draws),
        ]
        return " ".join(parts)


def _sorted_cards(mask: int) -> tuple[int, ...]:
    return tuple(sorted((card_of(p) for p in bits(mask)), key=lambda c: (suit_of(c), rank_of(c))))


def observe(state: ObservedState, seat: int) -> Observation:
    """Build the observation of ``seat`` from ``state``."""
    rules = state.rules
    n = rules.nplayers
    other = (seat + 1) % n
    melds = tuple(
        tuple(
            MeldView(name, tuple(cards), pts, intact)
            for name, cards, pts, intact in state.melds(s)
        )
        for s in range(n)
    )
    steps = state.history()
    actions = state.history_strings()
    # the seat's draws, following the stock and the turn-up through the public actions: the
    # winner of a trick draws first, the others in playing order; at the last draw the last
    # drawer takes the turn-up, which after an exchange is the seven of trumps (one exchange at
    # most: the turn-up is then a seven).  Tricks: the cards in order, the winner by the rules of
    # trick play under the trumps of the time (fixed by a meld where there is no turn-up).
    draws: list[int] = []
    tricks: list[TrickView] = []
    stock = state.stock
    pos = 0
    face_up = card_of(state.turnup_card) if state.turnup_card >= 0 else -1
    trump = suit_of(state.turnup_card) if state.turnup_card >= 0 else -1
    trick: list[tuple[int, int]] = []
    size = n  # cards in a trick: two in the duels that end a four-handed deal (RULES.md 9.5)
    duels = n == 4 and rules.four_hand_end == "duels"
    for player, a in steps:
        if act.is_play(a):
            trick.append((player, a))
            if len(trick) == size:
                best_seat, best = trick[0]
                for who, c in trick[1:]:
                    if beats(c, best, trump):
                        best_seat, best = who, c
                cards = tuple(card_of(c) for _, c in trick)
                tricks.append(TrickView(trick[0][0], cards[0], cards[1], best_seat, cards))
                trick = []
        elif a == act.PASS:
            take = min(n, len(stock) - pos)
            # the trick's winner draws first, also when its partner passes after an offer
            i = (seat - (tricks[-1].winner if tricks else player)) % n
            draws.append(card_of(stock[pos + i]) if i < take else face_up)
            pos += take
            if duels and pos >= len(stock):
                size = 2
        elif a == act.EXCHANGE:
            if player == seat:
                draws.append(face_up)
            face_up = make_card(rules.seven_rank, trump)
        elif trump < 0 and act.is_meld(a):
            kind = classify(rules, quick_patterns(rules, -1), a >> 9)
            if kind >= 0:
                trump = fixed_trump(rules, kind, act.meld_cards(a))
    hand_mask = state.hand_masks[seat]
    known = tuple(_sorted_cards(state.known_masks[i] & state.hand_masks[i]) for i in range(n))
    sizes = tuple((state.hand_masks[i] | state.shown_masks[i]).bit_count() for i in range(n))
    legal: tuple[str, ...] = ()
    if state.current_player() == seat:
        legal = tuple(state.legal_action_strings())
    return Observation(
        seat=seat,
        rules=rules,
        trump=state.trump,
        dealer=state.dealer,
        turn=state.current_player(),
        phase=state.phase,
        hand=_sorted_cards(hand_mask),
        shown=tuple(_sorted_cards(state.shown_masks[i]) for i in range(n)),
        melds=melds,
        turnup=state.turnup,
        turnup_dealt=face_up if state.turnup_card < 0 else card_of(state.turnup_card),
        stock=state.stock_left,
        end_phase=state.end_phase,
        trick=tuple(state.trick_cards()),
        tricks=tuple(tricks),
        tricks_played=state.trick_count,
        scores=state.scores,
        brisques=state.brisques,
        totals=tuple(state.totals),
        actions=tuple(actions),
        draws=tuple(draws),
        known_cards=known,
        hand_sizes=sizes,
        opponent_known=known[other],
        known_to_opponent=known[seat],
        opponent_hand_size=sizes[other],
        legal=legal,
        winner=state.winner,
        cut=state.cut_known,
    )
