"""The position of one deal: where every card is, the scores so far, and what can be read off.

:class:`Position` holds the fields of a deal and answers questions about it; it never changes
them.  :class:`bezique.state.State` extends it with the flow of the deal (dealing, legal actions,
applying an action), as python-chess's ``Board`` extends ``BaseBoard``.  Everything is ints:
physical cards are bits of masks (see :mod:`bezique.cards`), per-seat values are tuples with one
entry per seat, and every field is immutable, so a snapshot is a tuple of references and undo
restores one.

The public fields are what agents' simulations read on their hot path (a sampled world is a
``State`` of its own; an agent's *decision* only ever sees an
:class:`~bezique.observation.Observation`):

- ``hand_masks``, ``shown_masks``, ``won_masks``, ``known_masks`` (concealed cards the other seats
  know of), ``used_masks`` (per meld class), ``meld_log`` (per seat, ``(kind, mask)`` in order);
- ``turn``, ``phase_id`` (:data:`LEAD`, :data:`FOLLOW`, :data:`DECLARE`, :data:`OVER`),
  ``lead_card`` (physical, or -1), ``trump`` (-1 until fixed where there is no turn-up),
  ``turnup_phys`` (-1 once taken, or with no turn-up), ``stock`` and ``stock_pos``,
  ``trick_count``, ``scored_sevens``.

>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("bezique"), seed=7)
>>> s.scores, s.stock_left, s.end_phase
((0, 0), 47, False)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from . import actions as act
from .cards import bits, card_of, make_card, mask_of, rank_of
from .copywords import copies_held, copy_bits, lowest_copies, or_words, split_words
from .errors import BeziqueError, IllegalActionError
from .meldfilter import MeldFilter, QuickPattern
from .melds import (
    classify,
    legal_meld_masks,
    membership,
    partner_melds,
    shown_groups,
    sort_key,
)
from .notation import action_to_string, string_to_action
from .rules import Rules, cut_bounds
from .scoring import Settlement, settle, settlement_legend, settlement_words, sides, zero_sum
from .tricks import duel_seats

NOT_LISTED: Final[tuple[object, list[int]]] = ((), [])  # no declaring turn listed yet
LEAD: Final = 0
FOLLOW: Final = 1
DECLARE: Final = 2
OVER: Final = 3
GUESS_CUT: Final = 4  # the cut bonus (RULES.md 9.2): the non-dealer guesses before play
PHASE_NAMES: Final = ("lead", "follow", "declare", "over", "guess")

# Score event reasons.
REASONS: Final = ("meld", "seven", "turnup", "last trick", "brisques", "carte", "cut")
CUT_GUESSED: Final = 150  # the non-dealer's right guess of the cut (RULES.md 9.2)
CUT_24: Final = 250  # a cut of exactly 24 cards, for the dealer

# Carte blanche per seat (RULES.md 9.0.4): not declared yet, no more, declared; a card >= 0
# is a drawn non-court card the seat may still show for a repeat.
CARTE_NOT_YET: Final = -1
CARTE_OFF: Final = -2
CARTE_ON: Final = -3

Event = tuple[int, int, str, str]  # (seat, points, reason, detail)
Meld = tuple[int, int]  # (meld kind index, physical mask)


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    """The tuple ``t`` with entry ``i`` replaced by ``v``."""
    if len(t) == 2:  # (two seats: no slices)
        return (v, t[1]) if i == 0 else (t[0], v)
    return (*t[:i], v, *t[i + 1 :])


_NO_WORDS: Final = tuple([0] * n for n in range(9))  # the words of no card (never changed)
_KINDS_KEPT: Final = 1 << 16  # classified meld masks remembered per rules and trump, at most


class Position:
    """The fields of one deal and the read-only questions about them (see the module)."""


    __slots__ = (
        "_bris", "_carte", "_dmelds", "_dseven", "_duel", "_events", "_extra", "_guess", "_hw",
        "_hw_of", "_last", "_listed", "_nstock", "_patterns", "_played7", "_points", "_prev",
        "_quick", "_reps", "_restored", "_scores", "_seven7", "_sw", "_sw_of", "_trick",
        "_tricks_at", "_winner", "copies", "cut", "deal_hands", "dealer", "hand_masks",
        "known_masks", "lead_card", "meld_log", "phase_id", "rules", "scored_sevens", "shown_masks",
        "stock", "stock_pos", "totals", "trick_count", "trump", "turn", "turnup_card",
        "turnup_phys", "used_masks", "won_masks",
    )

    rules: Rules
    trump: int
    dealer: int
    copies: int
    stock: tuple[int, ...]
    totals: tuple[int, ...]
    turnup_card: int
    deal_hands: tuple[tuple[int, ...], ...]
    _patterns: tuple[QuickPattern, ...]
    _quick: MeldFilter  # the meld search's first filter of ``_patterns``
    stock_pos: int
    turnup_phys: int
    hand_masks: tuple[int, ...]
    shown_masks: tuple[int, ...]
    won_masks: tuple[int, ...]
    _scores: tuple[int, ...]
    _bris: tuple[int, ...]
    meld_log: tuple[tuple[Meld, ...], ...]
    used_masks: tuple[tuple[int, ...], ...]
    scored_sevens: int
    known_masks: tuple[int, ...]
    lead_card: int
    turn: int
    phase_id: int
    _dmelds: int
    _dseven: bool
    trick_count: int
    _last: int
    _events: tuple[Event, ...]
    _nstock: int
    _points: tuple[int, ...]  # the rules' card points by rank (brisques), read per trick
    _tricks_at: tuple[int, int]  # (the trick that scores last at the stock or -1, the last)
    _extra: tuple[Any, ...]  # the fields few actions change (see _sync_extra)
    cut: int  # the cut bonus: the size of the packet the dealer lifted, else -1
    _guess: int  # the non-dealer's guess of the cut, -1 until made (or without the cut bonus)
    _duel: int  # four_hand_end = duels: the winner of the last stock trick (it leads the first)
    _carte: tuple[int, ...]  # per seat, where the variant has carte blanche (else empty)
    _restored: tuple[int, ...]  # per seat: the broken melds of its log restored (RULES 9.0.5)
    _seven7: int  # the seven of trumps (card 0..31) while it counts, else -1
    _played7: int  # the same when it scores as it is played (seven = played), else -1
    _trick: tuple[int, ...]
    _winner: int
    _prev: tuple[Any, ...] | None
    # the melds the declaring turn listed, with the ``_prev`` of the position they were listed
    # at (an action's snapshot identifies the position after it): declaring one of them is
    # legal without searching again
    _listed: tuple[object, list[int]]
    # three packs and more: per seat, the words of the hand and of the shown cards (see
    # :meth:`_hand_words`), valid while ``_hw_of is hand_masks`` (``_sw_of is shown_masks``)
    _hw: list[list[int]]
    _hw_of: object
    _sw: list[list[int]]
    _sw_of: object
    # three packs and more: per seat, (shown mask, meld log, the plays of its shown cards) at
    # its last listing (see ``Plays._shown_reps``; a cache, never changed in place)
    _reps: tuple[tuple[int, object, list[int]], ...]

    # ------------------------------------------------------------------ snapshots

    def _snapshot(self, action: int) -> tuple[Any, ...]:
        # the fields an action changes most; the rest are in ``_extra`` (see _sync_extra)
        return (
            self.stock_pos,
            self.hand_masks,
            self.shown_masks,
            self.won_masks,
            self._bris,
            self.known_masks,
            self.lead_card,
            self.turn,
            self.phase_id,
            self._dmelds,
            self._dseven,
            self.trick_count,
            self._last,
            self._prev,
            action,
            self._extra,
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (
            self.stock_pos,
            self.hand_masks,
            self.shown_masks,
            self.won_masks,
            self._bris,
            self.known_masks,
            self.lead_card,
            self.turn,
            self.phase_id,
            self._dmelds,
            self._dseven,
            self.trick_count,
            self._last,
            self._prev,
            _,
            extra,
        ) = snap
        if extra is not self._extra:  # only where the action changed one of them
            self._extra = extra
            (self.trump, self._patterns, self._quick, self._trick, self._restored, self._carte,
             self._duel, self._guess, self._scores, self._events, self.meld_log,
             self.used_masks, self.scored_sevens, self.turnup_phys, self._winner) = extra

    def _sync_extra(self) -> None:
        """Record a change of trump (with the meld patterns and filter under it), the trick of
        three or four, restored melds, carte blanche, the duels, the guess of the cut, the
        scores and their events, the melds, the sevens scored, the turn-up or the winner in the
        one tuple snapshots share: they change on a few actions of a deal, so a snapshot holds
        one reference for the fifteen, and every change of one of them is followed by a call of
        this."""
        self._extra = (self.trump, self._patterns, self._quick, self._trick, self._restored,
                       self._carte, self._duel, self._guess, self._scores, self._events,
                       self.meld_log, self.used_masks, self.scored_sevens, self.turnup_phys,
                       self._winner)

    def key(self) -> tuple[Any, ...]:
        """Everything that defines the position (not the undo history), for equality tests."""
        snap = self._snapshot(0)
        return (self.rules, self.dealer, self.totals, self.turnup_card, self.stock,
                *snap[:13], *self._extra, self.cut)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def snapshots(self) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        snap = self._prev
        while snap is not None:
            out.append(snap)
            snap = snap[13]
        out.reverse()
        return out

    def history(self) -> list[tuple[int, int]]:
        """The (player, action) pairs applied so far, in order."""
        return [(snap[7], snap[14]) for snap in self.snapshots()]

    # ------------------------------------------------------------------ queries

    def current_player(self) -> int:
        """The seat to act (0 to seats - 1), or -4 (OpenSpiel's terminal id) when the deal is
        over."""
        return -4 if self.phase_id == OVER else self.turn

    @property
    def phase(self) -> str:
        """``lead``, ``follow``, ``declare``, ``over``, or ``guess`` (the cut bonus: the
        non-dealer guesses the cut before play)."""
        return PHASE_NAMES[self.phase_id]

    @property
    def cut_known(self) -> int | None:
        """With the cut bonus, the cut once the non-dealer has guessed it (the packet is then
        counted in front of both), else None."""
        return self.cut if self._guess >= 0 else None

    @property
    def cut_guess(self) -> int | None:
        """With the cut bonus, the non-dealer's guess once made, else None."""
        return self._guess if self._guess >= 0 else None

    def is_terminal(self) -> bool:
        """True when the deal is over (or the game ended during it)."""
        return self.phase_id == OVER

    @property
    def stock_left(self) -> int:
        """Face-down cards still in the stock (the turn-up not counted)."""
        return len(self.stock) - self.stock_pos

    @property
    def turnup(self) -> int | None:
        """The card face up under the stock (after an exchange, the seven), or None once taken."""
        return None if self.turnup_phys < 0 else card_of(self.turnup_phys)

    @property
    def end_phase(self) -> bool:
        """True once the stock and the turn-up are gone: follow suit and win if you can."""
        return self.stock_pos >= self._nstock

    @property
    def tricks_played(self) -> int:
        """Completed tricks in this deal."""
        return self.trick_count

    @property
    def scores(self) -> tuple[int, ...]:
        """This deal's points for each seat so far (melds, sevens, last trick, brisques)."""
        return self._scores

    @property
    def game_scores(self) -> tuple[int, ...]:
        """Game totals: the totals before this deal plus this deal's points."""
        return tuple(t + s for t, s in zip(self.totals, self._scores, strict=True))

    @property
    def brisques(self) -> tuple[int, ...]:
        """Brisques (Binocle: card points) in the tricks each seat has won so far."""
        return self._bris

    def settlement(self) -> Settlement:
        """The settlement of a one-deal game (RULES.md 9.0.7) from the deal's points without
        brisques and the brisques won: so far, or final once the deal is over."""
        r = self.rules
        return settle(self._scores, self._bris, game_bonus=r.game_bonus, rubicon=r.rubicon_at,
                      rubicon_bonus=r.rubicon_bonus_points, has_brisques=any(r.card_points))

    def settlement_words(self, legend: bool = False) -> str:
        """How :meth:`settlement` reaches its value, e.g. ``rubiconed: 1300 + 600 + 1300 =
        3200``; with ``legend``, which number is which (:mod:`bezique.scoring`)."""
        r = self.rules
        words = settlement_legend if legend else settlement_words
        return words(self._scores, self._bris, game_bonus=r.game_bonus, rubicon=r.rubicon_at,
                     rubicon_bonus=r.rubicon_bonus_points, has_brisques=any(r.card_points))

    @property
    def last_trick_winner(self) -> int:
        """Winner of the most recent trick, or -1 before the first."""
        return self._last

    @property
    def winner(self) -> int | None:
        """The game's winner once decided at (or during, with ``end_check=immediate``) this deal:
        a seat, or in a partnership the side (0: seats 0 & 2, 1: seats 1 & 3)."""
        return None if self._winner < 0 else self._winner

    @property
    def events(self) -> tuple[Event, ...]:
        """Every score event of the deal: (seat, points, reason, detail)."""
        return self._events

    def returns(self) -> list[float]:
        """Zero-sum deal result: each seat's deal points less the others' average (0 until
        terminal; see :func:`bezique.scoring.zero_sum`)."""
        if self.phase_id != OVER:
            return [0.0] * len(self._scores)
        return zero_sum(self._scores)

    def hand(self, seat: int) -> list[int]:
        """The cards of a seat's concealed hand, sorted (cards 0..31, copies repeated)."""
        return sorted((card_of(p) for p in bits(self.hand_masks[self.checked_seat(seat)])),
                      key=sort_key)

    def shown(self, seat: int) -> list[int]:
        """The cards a seat has shown on the table, sorted."""
        return sorted((card_of(p) for p in bits(self.shown_masks[self.checked_seat(seat)])),
                      key=sort_key)

    def melds(self, seat: int) -> list[tuple[str, list[int], int, bool]]:
        """A seat's scored melds: (name, cards, points, intact) in the order declared.  In a
        partnership the side shares one log (its melds are judged together, RULES.md 9.5):
        this lists the ones ``seat`` declared, intact while the side holds every card."""
        out = []
        held = self.shown_masks[self.checked_seat(seat)] | self.hand_masks[seat]
        mate = self.partner(seat)
        declarers = [seat] * len(self.meld_log[seat])
        if mate >= 0:
            held |= self.shown_masks[mate] | self.hand_masks[mate]
            declarers = [e[0] for e in self._events if e[2] == "meld" and e[0] in (seat, mate)]
        for (k, m), who in zip(self.meld_log[seat], declarers, strict=True):
            if who != seat:
                continue
            kind = self.rules.melds[k]
            cards = sorted((card_of(p) for p in bits(m)), key=sort_key)
            out.append((kind.name, cards, kind.points, m & held == m))
        return out

    def duel_seats(self) -> tuple[int, ...]:
        """Four-handed duels (RULES.md 9.5, ``four_hand_end = duels``): the two seats playing
        the current duel, leader of its first trick first; empty outside the duels.  The winner
        of the last stock trick plays the opponent at their left, then that winner's partner
        leads against the other opponent."""
        return duel_seats(self._duel, self.trick_count,
                          self.rules.stock_tricks + self.rules.hand_size)

    def partner(self, seat: int) -> int:
        """``seat``'s partner in a partnership game (RULES.md 9.5), else -1."""
        return self.rules.partner(seat)

    def side_scores(self) -> tuple[int, ...]:
        """Game totals per side in a partnership (seats 0 & 2, then 1 & 3), else per seat."""
        return sides(self.game_scores) if self.partner(0) >= 0 else self.game_scores

    def trick_cards(self) -> list[int]:
        """The cards on the table in the current trick, in the order played."""
        if self._trick:
            return [card_of(p) for p in self._trick[2:]]
        return [] if self.lead_card < 0 else [card_of(self.lead_card)]

    def all_masks(self) -> dict[str, int]:
        """Physical masks of every place a card can be (for accounting checks)."""
        out = {}
        for i in range(len(self.hand_masks)):
            out[f"hand{i}"] = self.hand_masks[i]
            out[f"shown{i}"] = self.shown_masks[i]
            out[f"won{i}"] = self.won_masks[i]
        out["trick"] = (mask_of(self._trick[2:]) if self._trick
                        else 0 if self.lead_card < 0 else 1 << self.lead_card)
        out["stock"] = mask_of(self.stock[self.stock_pos :])
        out["turnup"] = 0 if self.turnup_phys < 0 else 1 << self.turnup_phys
        return out

    def play_copy(self, p: int, hand: int) -> int:
        """Which concealed copy of a card to use.  A seven of trumps while the stock lasts: a
        scored one first, unless sevens score when played (then an unscored one).  Otherwise a
        copy the other seat knows of (a turn-up taken, a declared seven), so the copy chosen
        never depends on cards the other seat has not seen."""
        c = p & 31
        if c == self._seven7 and self.turnup_phys >= 0:
            want_scored = self._played7 < 0
            for q in range(c, 32 * self.copies, 32):
                if hand >> q & 1 and bool(self.scored_sevens >> q & 1) == want_scored:
                    return q
        known = self._known_any()
        if known:  # (mostly none: no operation on a long mask)
            known &= hand
        if known:
            qs = copies_held(known, c, self.copies)
            if len(qs) == 1:
                return qs[0]
            if qs:  # several known copies: the first by public meld history, not copy number
                return min(qs, key=lambda q: membership(self.meld_log[self.turn], q))
        return p

    def canonical_play(self, p: int) -> int:
        """The listed play action (see ``legal_actions``) for the card of physical ``p`` where
        the seat to act holds it: concealed, the copy the engine plays (:meth:`play_copy` of the
        first); on the table, the first copy of ``p``'s meld-history group."""
        seat = self.turn
        hand = self.hand_masks[seat]
        copies = self.copies
        if hand >> p & 1:
            held = copy_bits(hand, p & 31, copies)  # (bit k: copy k is held)
            return self.play_copy((p & 31) + 32 * ((held & -held).bit_length() - 1), hand)
        shown = self.shown_masks[seat]
        if shown >> p & 1:
            for g in shown_groups(self.meld_log[seat], shown, p & 31, copies):
                if p in g:
                    return g[0]
        return p

    # ------------------------------------------------------------------ words (3+ packs)

    def _hand_words(self) -> list[list[int]]:
        """Three packs and more: per seat, the words of its hand (see :mod:`bezique.copywords`),
        kept beside ``hand_masks`` by :meth:`_hand_toggled`, else split again when read (after
        undo, in a clone: the words are the state's own, never shared, and change in place)."""
        if self._hw_of is not self.hand_masks:
            self._hw = [split_words(h, self.copies) for h in self.hand_masks]
            self._hw_of = self.hand_masks
        return self._hw

    def _shown_words(self) -> list[list[int]]:
        """:meth:`_hand_words` of the shown cards (``shown_masks``)."""
        if self._sw_of is not self.shown_masks:
            self._sw = [split_words(h, self.copies) for h in self.shown_masks]
            self._sw_of = self.shown_masks
        return self._sw

    def _hand_toggled(self, before: object, seat: int, p: int, seat2: int = -1,
                      p2: int = 0) -> None:
        """Follow in the hands' words a change of ``hand_masks`` (which was ``before``) by the
        physical card ``p`` of ``seat`` (and ``p2`` of ``seat2``): a cache, not a field."""
        if self._hw_of is before:
            hw = self._hw
            row = hw[seat]
            k = p >> 5
            row[k] = row[k] ^ 1 << (p & 31)  # (typed: not the generic in-place ``^=``)
            if seat2 >= 0:
                row = hw[seat2]
                k = p2 >> 5
                row[k] = row[k] ^ 1 << (p2 & 31)
            self._hw_of = self.hand_masks

    def _shown_toggled(self, before: object, seat: int, p: int) -> None:
        """:meth:`_hand_toggled` of ``shown_masks``."""
        if self._sw_of is before:
            row = self._sw[seat]
            k = p >> 5
            row[k] = row[k] ^ 1 << (p & 31)
            self._sw_of = self.shown_masks

    def _trump_sevens(self, seat: int) -> Iterator[int]:
        if self.trump < 0:
            return
        c = make_card(self.rules.seven_rank, self.trump)
        hand = self.hand_masks[seat]
        for q in range(c, 32 * self.copies, 32):
            if hand >> q & 1:
                yield q

    def unscored_seven(self, seat: int) -> int:
        """A seven of trumps ``seat`` holds that has not scored, or -1."""
        for q in self._trump_sevens(seat):
            if not self.scored_sevens >> q & 1:
                return q
        return -1

    def can_exchange(self, seat: int) -> bool:
        """True if ``seat`` holds a seven of trumps and the turn-up may be exchanged for it."""
        tu = self.turnup_phys
        return tu >= 0 and rank_of(tu) != self.rules.seven_rank and any(self._trump_sevens(seat))

    # ------------------------------------------------------------------ melds

    def legal_meld_masks(self, seat: int) -> list[int]:
        """Every meld ``seat`` may declare now (physical masks; see :mod:`bezique.melds`); in a
        partnership, with the partner's shown cards too (:func:`bezique.melds.partner_melds`)."""
        return self._meld_masks(seat, self._patterns)

    def _meld_masks(self, seat: int, patterns: tuple[QuickPattern, ...]) -> list[int]:
        """:meth:`legal_meld_masks` searched over ``patterns`` only (a part of ``_patterns``)."""
        hands = self.hand_masks
        quick = self._quick if patterns is self._patterns else None
        passing = -1
        both: list[list[int]] | None = None  # three packs and more: the hand's and shown words
        if len(hands) != 4:
            if self.copies > 2:
                hw = self._hand_words()[seat]
                sw = self._shown_words()[seat] if self.shown_masks[seat] else _NO_WORDS[self.copies]
                both = [hw, sw]
            if quick is not None:
                if both is None:
                    passing = quick.passing(hands[seat] | self.shown_masks[seat])
                else:  # (the words: no long mask operation)
                    passing = quick.passing_words(or_words(hw, sw) if self.shown_masks[seat]
                                                  else hw)
                if not passing:
                    return []  # (the common case: no meld passes the search's first filter)
        elif (mate := self.partner(seat)) >= 0:
            return partner_melds(self.rules, patterns, hands[seat], self.shown_masks[seat],
                                 self.shown_masks[mate], self.used_masks[seat],
                                 self.meld_log[seat], self._known_any(), quick)
        return legal_meld_masks(self.rules, patterns, hands[seat], self.shown_masks[seat],
                                self.used_masks[seat], self.meld_log[seat], self._known_any(),
                                self._restored[seat], 0, quick, passing, both)

    def _known_any(self) -> int:
        """Every concealed card some seat knows another seat holds."""
        k = self.known_masks
        if len(k) == 2:
            return k[0] | k[1]
        known = 0
        for m in k:
            known |= m
        return known

    def classify(self, mask: int) -> int:
        """The meld kind index whose pattern the physical cards ``mask`` form, or -1."""
        kinds = self._quick.kinds  # (remembered per rules and trump)
        if self.copies > 2:  # (a meld is named by its cards alone: one key for all copies)
            mask = lowest_copies(mask, self.copies)
        got = kinds.get(mask)
        if got is None:
            if len(kinds) >= _KINDS_KEPT:  # (a long-running search or server meets many)
                kinds.clear()
            got = kinds[mask] = classify(self.rules, self._patterns, mask)
        return got

    # ------------------------------------------------------------------ text

    def action_to_string(self, action: int, seat: int | None = None) -> str:
        """Canonical text of an action for the seat to act (or ``seat``), e.g. ``play QS*``;
        :class:`IllegalActionError` for a number that names no action of this deal's packs."""
        cards = 32 * self.rules.copies
        if (action < 0 or (cards <= action < act.PASS) or (act.OFFER < action < act.GUESS)
                or (action >= 512 and (action >> 9) >> cards)):
            raise IllegalActionError(f"{action} is not an action")
        return action_to_string(self, action,
                                self.turn if seat is None else self.checked_seat(seat))

    def checked_seat(self, seat: int) -> int:
        """``seat`` if it is one of this deal's, else a :class:`BeziqueError` naming them."""
        if not 0 <= seat < self.rules.nplayers:
            raise BeziqueError(f"{seat!r} is not a seat: the seats of this deal are 0 to "
                               f"{self.rules.nplayers - 1}")
        return seat

    def string_to_action(self, text: str) -> int:
        """The action named by ``text`` for the seat to act; :class:`IllegalActionError` if none.

        Accepts the forms of RULES.md 7 (see :mod:`bezique.notation`); the action is resolved,
        not checked: :meth:`apply_action` checks it.
        """
        if self.phase_id == GUESS_CUT and text.strip()[:5].lower() != "guess":
            raise IllegalActionError(self._guess_first())
        return string_to_action(self, text)

    def _guess_first(self) -> str:
        lo, hi = cut_bounds(self.rules.cut_range)
        return (f"first guess how many cards the dealer cut ({lo} to {hi}), e.g. "
                f"'guess {min(max(24, lo), hi)}'")


