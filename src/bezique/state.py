"""The state of one deal: the deal, trick play in two phases, the declaring turn, scoring, game end.

Inside, everything is ints: physical cards are bits of masks (see :mod:`bezique.cards`), per-seat
values are tuples, and every field is immutable, so :meth:`State.clone` copies a few references
and :meth:`State.undo_action` restores a snapshot.  Actions are ints too (see
:mod:`bezique.actions`); their text forms are for people and records.

>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("bezique"), seed=7)
>>> s.current_player(), s.phase, len(s.legal_actions()) > 0
(0, 'lead', True)
>>> a = s.legal_actions()[0]
>>> s.apply_action(a); s.undo_action(); s.phase
'lead'
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from . import actions as act
from .cards import (
    CARD_MASK32,
    bits,
    card_name,
    card_of,
    card_symbol,
    fold_copies,
    make_card,
    mask_of,
    parse_card,
    rank_of,
    replicate,
    suit_of,
)
from .errors import IllegalActionError, RecordError
from .melds import (
    QuickPattern,
    cards_sym,
    classify,
    known_concealed,
    legal_meld_masks,
    meld_problem,
    membership,
    quick_patterns,
    shown_groups,
    sort_key,
)
from .notation import action_to_string, string_to_action
from .rules import Rules
from .scoring import game_winner, zero_sum

LEAD, FOLLOW, DECLARE, OVER = 0, 1, 2, 3
PHASE_NAMES = ("lead", "follow", "declare", "over")

# Score event reasons.
REASONS = ("meld", "seven", "turnup", "last trick", "brisques")

Event = tuple[int, int, str, str]  # (seat, points, reason, detail)
Meld = tuple[int, int]  # (meld kind index, physical mask)


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*t[:i], v, *t[i + 1 :])


class State:
    """One deal of a two-handed game, with the game totals it started from.

    Build it with :meth:`new_deal` (a seeded shuffle) or :meth:`from_cards` (a deal given card by
    card).  The vocabulary follows OpenSpiel: :meth:`current_player`, :meth:`legal_actions`,
    :meth:`apply_action`, :meth:`undo_action`, :meth:`clone`, :meth:`is_terminal`,
    :meth:`returns`, :meth:`observation`.
    """

    __slots__ = (
        "_bris",
        "_dmelds",
        "_dseven",
        "_events",
        "_last",
        "_nstock",
        "_patterns",
        "_prev",
        "_scores",
        "_trick",
        "_winner",
        "copies",
        "deal_hands",
        "dealer",
        "hand_masks",
        "known_masks",
        "lead_card",
        "meld_log",
        "phase_id",
        "rules",
        "scored_sevens",
        "shown_masks",
        "stock",
        "stock_pos",
        "totals",
        "trick_count",
        "trump",
        "turn",
        "turnup_card",
        "turnup_phys",
        "used_masks",
        "won_masks",
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
    _trick: tuple[int, ...]
    _winner: int
    _prev: tuple[Any, ...] | None

    # ------------------------------------------------------------------ construction

    @classmethod
    def new_deal(
        cls,
        rules: Rules,
        seed: int | random.Random | None = None,
        dealer: int = 1,
        totals: Sequence[int] | None = None,
    ) -> State:
        """A deal shuffled by ``seed`` (an int or a ``random.Random``); same seed, same deal.

        The dealer deals ``hand_size`` cards to each seat, starting at their left (the next
        seat), then turns up the next card if the variant has a turn-up."""
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deck = list(rules.deck)
        rng.shuffle(deck)
        h, n = rules.hand_size, rules.nplayers
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):
            hands[(dealer + 1 + i) % n] = deck[i * h : (i + 1) * h]
        k = n * h
        if rules.turnup:
            return cls._make(rules, hands, deck[k], deck[k + 1 :], dealer, totals)
        return cls._make(rules, hands, -1, deck[k:], dealer, totals)

    @classmethod
    def from_cards(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[int | str]],
        turnup: int | str | None,
        stock: Sequence[int | str],
        dealer: int = 1,
        totals: Sequence[int] | None = None,
    ) -> State:
        """A deal given card by card (cards as ints 0..31 or text); the stock's top comes first.
        ``turnup`` is None in a variant without a turn-up.

        Raises :class:`RecordError` unless hands, turn-up and stock are exactly the pack.
        """
        n = rules.nplayers
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            seats = " or ".join(str(i) for i in range(n))
            raise RecordError(f"the dealer must be player {seats}, not {dealer!r}")
        if len(hands) != n:
            raise RecordError(f"a deal needs {n} hands, not {len(hands)}")
        for i, hand in enumerate(hands):
            if len(hand) != rules.hand_size:
                raise RecordError(
                    f"player {i}'s hand has {len(hand)} cards; {rules.variant} deals "
                    f"{rules.hand_size}"
                )
        if len(stock) != rules.stock_size:
            raise RecordError(
                f"the stock has {len(stock)} cards; in {rules.variant} it has {rules.stock_size}"
            )
        if (turnup is None) == rules.turnup:
            raise RecordError(
                f"{rules.variant} has a turn-up card" if rules.turnup
                else f"{rules.variant} has no turn-up card"
            )

        def conv(c: int | str) -> int:
            if isinstance(c, str):
                try:
                    return parse_card(c)
                except ValueError as e:
                    raise RecordError(str(e)) from None
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 32:
                raise RecordError(f"{c!r} is not a card")
            return c

        seen = [0] * 32
        allowed = {make_card(r, s) for r in rules.ranks for s in range(4)}

        def phys(c: int | str) -> int:
            card = conv(c)
            if card not in allowed:
                raise RecordError(f"there is no {card_name(card)} in a {rules.variant} pack")
            k = seen[card]
            if k >= rules.copies:
                raise RecordError(
                    f"too many {card_name(card)}: a {rules.variant} pack has {rules.copies}"
                )
            seen[card] = k + 1
            return k * 32 + card

        ph = [[phys(c) for c in hand] for hand in hands]
        tu = -1 if turnup is None else phys(turnup)
        st = [phys(c) for c in stock]
        return cls._make(rules, ph, tu, st, dealer, totals)

    @classmethod
    def _make(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[int]],
        turnup: int,
        stock: Sequence[int],
        dealer: int,
        totals: Sequence[int] | None,
    ) -> State:
        n = rules.nplayers
        zeros = (0,) * n
        s = cls()
        s.rules = rules
        s.copies = rules.copies
        s.dealer = dealer
        if totals is None:
            totals = zeros
        if len(totals) != n:
            raise RecordError(f"the game totals need {n} numbers, not {len(totals)}")
        s.totals = tuple(int(t) for t in totals)
        s.turnup_card = turnup
        s.trump = suit_of(turnup) if turnup >= 0 else -1
        s.stock = tuple(stock)
        s._nstock = len(s.stock)
        s.deal_hands = tuple(tuple(h) for h in hands)
        s._patterns = quick_patterns(rules, s.trump)
        s.stock_pos = 0
        s.turnup_phys = turnup
        s.hand_masks = tuple(_mask(h) for h in hands)
        s.shown_masks = zeros
        s.won_masks = zeros
        s._scores = zeros
        s._bris = zeros
        s.meld_log = ((),) * n
        s.used_masks = ((0, 0, 0),) * n
        s.scored_sevens = 0
        s.known_masks = zeros
        s.lead_card = -1
        s._trick = ()
        s.turn = (dealer + 1) % n
        s.phase_id = LEAD
        s._dmelds = 0
        s._dseven = False
        s.trick_count = 0
        s._last = -1
        s._events = ()
        s._winner = -1
        s._prev = None
        if turnup >= 0 and rank_of(turnup) == rules.seven_rank:
            s.scored_sevens = 1 << turnup
            s._score(dealer, rules.seven_points, "turnup", card_name(turnup))
        return s

    # ------------------------------------------------------------------ snapshots

    def _snapshot(self, action: int) -> tuple[Any, ...]:
        return (
            self.stock_pos,
            self.turnup_phys,
            self.hand_masks,
            self.shown_masks,
            self.won_masks,
            self._scores,
            self._bris,
            self.meld_log,
            self.used_masks,
            self.scored_sevens,
            self.known_masks,
            self.lead_card,
            self.turn,
            self.phase_id,
            self._dmelds,
            self._dseven,
            self.trick_count,
            self._last,
            self._events,
            self._winner,
            self._prev,
            action,
            self.trump,
            self._patterns,
            self._trick,
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (
            self.stock_pos,
            self.turnup_phys,
            self.hand_masks,
            self.shown_masks,
            self.won_masks,
            self._scores,
            self._bris,
            self.meld_log,
            self.used_masks,
            self.scored_sevens,
            self.known_masks,
            self.lead_card,
            self.turn,
            self.phase_id,
            self._dmelds,
            self._dseven,
            self.trick_count,
            self._last,
            self._events,
            self._winner,
            self._prev,
            _,
            self.trump,
            self._patterns,
            self._trick,
        ) = snap

    def clone(self) -> State:
        """An independent copy (cheap: every field is immutable and shared)."""
        s = State()
        s._bris = self._bris
        s._dmelds = self._dmelds
        s._dseven = self._dseven
        s._events = self._events
        s.hand_masks = self.hand_masks
        s.known_masks = self.known_masks
        s._last = self._last
        s.lead_card = self.lead_card
        s.meld_log = self.meld_log
        s._patterns = self._patterns
        s.phase_id = self.phase_id
        s.stock_pos = self.stock_pos
        s._prev = self._prev
        s.scored_sevens = self.scored_sevens
        s._scores = self._scores
        s.shown_masks = self.shown_masks
        s.trick_count = self.trick_count
        s.turn = self.turn
        s.turnup_phys = self.turnup_phys
        s.used_masks = self.used_masks
        s._winner = self._winner
        s.won_masks = self.won_masks
        s.copies = self.copies
        s.deal_hands = self.deal_hands
        s.dealer = self.dealer
        s.rules = self.rules
        s.stock = self.stock
        s.totals = self.totals
        s.trump = self.trump
        s.turnup_card = self.turnup_card
        s._nstock = self._nstock
        s._trick = self._trick
        return s

    def key(self) -> tuple[Any, ...]:
        """Everything that defines the position (not the undo history), for equality tests."""
        snap = self._snapshot(0)
        return (self.rules, self.dealer, self.totals, self.turnup_card, self.stock,
                *snap[:20], *snap[22:])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def undo_action(self) -> None:
        """Take back the last action; raises :class:`IllegalActionError` at the start of a deal."""
        if self._prev is None:
            raise IllegalActionError("there is nothing to undo")
        self._restore(self._prev)

    def snapshots(self) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        snap = self._prev
        while snap is not None:
            out.append(snap)
            snap = snap[20]
        out.reverse()
        return out

    def history(self) -> list[tuple[int, int]]:
        """The (player, action) pairs applied so far, in order."""
        return [(snap[12], snap[21]) for snap in self.snapshots()]

    def history_strings(self) -> list[tuple[int, str]]:
        """The (player, action text) pairs applied so far, each text as written when played."""
        probe = self.clone()
        out = []
        for snap in self.snapshots():
            probe._restore(snap)
            out.append((snap[12], probe.action_to_string(snap[21], snap[12])))
        return out

    # ------------------------------------------------------------------ queries

    def current_player(self) -> int:
        """The seat to act (0 to seats - 1), or -4 (OpenSpiel's terminal id) when the deal is
        over."""
        return -4 if self.phase_id == OVER else self.turn

    @property
    def phase(self) -> str:
        """``lead``, ``follow``, ``declare`` or ``over``."""
        return PHASE_NAMES[self.phase_id]

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

    @property
    def last_trick_winner(self) -> int:
        """Winner of the most recent trick, or -1 before the first."""
        return self._last

    @property
    def winner(self) -> int | None:
        """The game's winner once decided at (or during, with ``end_check=immediate``) this deal."""
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
        return sorted((card_of(p) for p in bits(self.hand_masks[seat])), key=sort_key)

    def shown(self, seat: int) -> list[int]:
        """The cards a seat has shown on the table, sorted."""
        return sorted((card_of(p) for p in bits(self.shown_masks[seat])), key=sort_key)

    def melds(self, seat: int) -> list[tuple[str, list[int], int, bool]]:
        """A seat's scored melds: (name, cards, points, intact) in the order declared."""
        out = []
        held = self.shown_masks[seat] | self.hand_masks[seat]
        for k, m in self.meld_log[seat]:
            kind = self.rules.melds[k]
            cards = sorted((card_of(p) for p in bits(m)), key=sort_key)
            out.append((kind.name, cards, kind.points, m & held == m))
        return out

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
        out["trick"] = (_mask(self._trick[2:]) if self._trick
                        else 0 if self.lead_card < 0 else 1 << self.lead_card)
        out["stock"] = _mask(self.stock[self.stock_pos :])
        out["turnup"] = 0 if self.turnup_phys < 0 else 1 << self.turnup_phys
        return out

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[int]:
        """The legal actions (ints; see :mod:`bezique.actions`), one per distinct choice."""
        ph = self.phase_id
        if ph == OVER:
            return []
        seat = self.turn
        if ph == DECLARE:
            return self._declare_actions(seat)
        hand = self.hand_masks[seat]
        if ph == FOLLOW and self.stock_pos >= self._nstock:
            hand = self._follow_mask(hand)
            return self._play_reps(hand, seat)
        out = self._play_reps(hand, seat)
        if self.shown_masks[seat]:
            out.extend(self._shown_reps(seat, self.shown_masks[seat]))
        return out

    def _play_reps(self, hand: int, seat: int) -> list[int]:
        """One physical card per distinct concealed card in ``hand``."""
        if self.copies == 2:
            f = (hand | hand >> 32) & CARD_MASK32
            lo = hand & CARD_MASK32
            cards = _B0[f & 255] + _B1[f >> 8 & 255] + _B2[f >> 16 & 255] + _B3[f >> 24]
            out = [c if lo >> c & 1 else c + 32 for c in cards]
            dup = lo & hand >> 32
        else:
            out = []
            seen = dup = 0
            for p in bits(hand):
                c = p & 31
                if seen >> c & 1:
                    dup |= 1 << c
                else:
                    seen |= 1 << c
                    out.append(p)
        # copies of a card held twice differ only for a seven of trumps or a known copy
        if dup and (
            self._known_any() & hand
            or (self.turnup_phys >= 0 and dup >> (self.trump * 8 + self.rules.seven_rank) & 1)
        ):
            out = [self.play_copy(p, hand) if dup >> (p & 31) & 1 else p for p in out]
        return out

    def play_copy(self, p: int, hand: int) -> int:
        """Which concealed copy of a card to use.  A seven of trumps while the stock lasts: a
        scored one first, unless sevens score when played (then an unscored one).  Otherwise a
        copy the other seat knows of (a turn-up taken, a declared seven), so the copy chosen
        never depends on cards the other seat has not seen."""
        c = p & 31
        if (
            rank_of(c) == self.rules.seven_rank
            and suit_of(c) == self.trump
            and self.turnup_phys >= 0
        ):
            want_scored = self.rules.seven == "declared"
            for q in range(c, 32 * self.copies, 32):
                if hand >> q & 1 and bool(self.scored_sevens >> q & 1) == want_scored:
                    return q
        known = self._known_any() & hand
        if known:
            qs = [q for q in range(c, 32 * self.copies, 32) if known >> q & 1]
            if len(qs) == 1:
                return qs[0]
            if qs:  # several known copies: the first by public meld history, not copy number
                return min(qs, key=lambda q: membership(self.meld_log[self.turn], q))
        return p

    def _follow_mask(self, hand: int) -> int:
        """End phase: the cards of ``hand`` the follower may play: follow suit and beat the best
        card so far if able (with two seats, the lead); void, trump (above a trump played)."""
        lead = self.lead_card
        ls = lead >> 3 & 3
        best = self._trick[0] if self._trick else lead
        bs, br = best >> 3 & 3, best & 7
        two = self.copies == 2
        folded = (hand | hand >> 32) & CARD_MASK32 if two else fold_copies(hand, self.copies)
        same = folded & (0xFF << (ls * 8))
        trump = self.trump
        if same:
            if bs == ls:
                higher = same & (((1 << br) - 1) << (ls * 8))
                allow = higher or same
            else:  # a trump has taken the lead: follow suit, there is no beating it
                allow = same
        else:
            trumps = folded & (0xFF << (trump * 8)) if trump >= 0 else 0
            if trumps and bs == trump:
                allow = (trumps & (((1 << br) - 1) << (trump * 8))) or CARD_MASK32
            else:
                allow = trumps or CARD_MASK32
        return hand & (allow | allow << 32 if two else _replicate(allow, self.copies))

    def _shown_reps(self, seat: int, shown: int) -> list[int]:
        if self.copies == 2 and not shown & shown >> 32:
            return list(bits(shown))  # no card shown twice: every shown card is its own choice
        out: list[int] = []
        for c in bits(fold_copies(shown, self.copies)):
            out.extend(g[0] for g in shown_groups(self.meld_log[seat], shown, c, self.copies))
        return out

    def _declare_actions(self, seat: int) -> list[int]:
        rules = self.rules
        if self._dmelds < rules.melds_per_trick:
            out = [m << 9 for m in self.legal_meld_masks(seat)]  # act.meld_action
        else:
            out = []
        if rules.turnup and not self._dseven and (
            not rules.seven_counts_as_meld or self._dmelds < rules.melds_per_trick
        ):
            sevens = self.hand_masks[seat] & _replicate(1 << (self.trump * 8 + rules.seven_rank),
                                                   self.copies)
            if sevens:
                if self.can_exchange(seat):
                    out.append(act.EXCHANGE)
                if sevens & ~self.scored_sevens and rules.seven == "declared":
                    out.append(act.SEVEN)
        out.append(act.PASS)
        return out

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
        """Every meld ``seat`` may declare now (physical masks; see :mod:`bezique.melds`)."""
        return legal_meld_masks(self.rules, self._patterns, self.hand_masks[seat],
                                self.shown_masks[seat], self.used_masks[seat], self.meld_log[seat],
                                self._known_any())

    def _known_any(self) -> int:
        known = 0
        for k in self.known_masks:
            known |= k
        return known

    def classify(self, mask: int) -> int:
        """The meld kind index whose pattern the physical cards ``mask`` form, or -1."""
        return classify(self._patterns, mask)

    # ------------------------------------------------------------------ applying

    def apply_action(self, action: int) -> None:
        """Apply a legal action; raise :class:`IllegalActionError` (state unchanged) otherwise."""
        ph = self.phase_id
        if ph == OVER:
            raise IllegalActionError("the deal is over")
        seat = self.turn
        if 0 <= action < 256 and ph != DECLARE:
            self._play(seat, action)
            return
        if action < 0:
            raise IllegalActionError(f"{action} is not an action")
        if action < 256:
            if ph == DECLARE:
                raise IllegalActionError(
                    "you won the trick: declare a meld or pass (draw) before playing"
                )
            self._play(seat, action)
        elif action == act.PASS:
            if ph != DECLARE:
                raise IllegalActionError(self._not_declaring_msg())
            snap = self._snapshot(action)
            self._draw(seat)
            self._prev = snap
        elif action in (act.EXCHANGE, act.SEVEN):
            self._seven_action(seat, action)
        elif action >= 512:
            self._meld(seat, action >> 9)
        else:
            raise IllegalActionError(f"{action} is not an action")

    def _not_declaring_msg(self) -> str:
        if self.stock_pos >= self._nstock:
            return "nothing can be declared once the stock is exhausted"
        return "you can only declare after winning a trick"

    def _play(self, seat: int, p: int) -> None:
        bit = 1 << p
        hand = self.hand_masks[seat]
        shown = self.shown_masks[seat]
        if hand & bit:
            if self.copies != 2 or hand >> (p ^ 32) & 1:  # both copies held: which one?
                p = self.play_copy(p, hand)
                bit = 1 << p
        elif not shown & bit:
            alt = self._held_copy(seat, p)
            if alt < 0:
                raise IllegalActionError(f"you do not hold {card_symbol(p)}")
            p, bit = alt, 1 << alt
        ph = self.phase_id
        if ph == FOLLOW and self.stock_pos >= self._nstock and not self._follow_mask(hand) & bit:
            raise IllegalActionError(self._follow_msg(hand, p))
        snap = self._snapshot(p)
        h = self.hand_masks
        two = len(h) == 2
        if hand & bit:
            if two:
                self.hand_masks = (hand & ~bit, h[1]) if seat == 0 else (h[0], hand & ~bit)
            else:
                self.hand_masks = _set(h, seat, hand & ~bit)
            if self.known_masks[seat] & bit:
                self.known_masks = _set(self.known_masks, seat, self.known_masks[seat] & ~bit)
        else:
            self.shown_masks = _set(self.shown_masks, seat, shown & ~bit)
        rules = self.rules
        if (
            self.turnup_phys >= 0
            and p & 31 == self.trump * 8 + rules.seven_rank
            and rules.seven == "played"
            and not self.scored_sevens >> p & 1
        ):
            self.scored_sevens |= bit
            self._score(seat, rules.seven_points, "seven", card_name(p))
        if ph == LEAD:
            self.lead_card = p
            if self.phase_id != OVER:  # end_check = immediate may end the game on a seven
                self.phase_id = FOLLOW
            if two:
                self.turn = 1 - seat
            else:
                self._trick = (p, seat, p)
                self.turn = (seat + 1) % len(h)
        elif two:
            self._finish_trick(seat, p)
        else:
            self._follow_n(seat, p, len(h))
        self._prev = snap

    def _held_copy(self, seat: int, p: int) -> int:
        """A concealed copy of the same card when ``p`` itself is not held (plays by card)."""
        hand = self.hand_masks[seat]
        c = p & 31
        for q in range(c, 32 * self.copies, 32):
            if hand >> q & 1:
                return self.play_copy(q, hand)
        return -1

    def _follow_msg(self, hand: int, p: int) -> str:
        lead = self.lead_card
        ls = suit_of(lead)
        best = self._trick[0] if self._trick else lead
        folded = fold_copies(hand, self.copies)
        if folded & (0xFF << (ls * 8)):
            if suit_of(p) != ls:
                return f"you must follow suit to {card_symbol(lead)}"
            return f"you must win the trick with a higher card than {card_symbol(best)}"
        if suit_of(best) == self.trump:
            return f"you have no card of {card_symbol(lead)[-1]}: you must trump above " \
                   f"{card_symbol(best)}"
        return f"you have no card of {card_symbol(lead)[-1]}: you must trump"

    def _finish_trick(self, seat: int, p: int) -> None:
        """Two seats: the follower's card ``p`` completes the trick."""
        lead = self.lead_card
        fs = p >> 3 & 3
        if fs == lead >> 3 & 3:
            win = seat if p & 7 < lead & 7 else 1 - seat
        else:
            win = seat if fs == self.trump else 1 - seat
        rules = self.rules
        w = self.won_masks
        both = (1 << lead) | (1 << p)
        self.won_masks = (w[0] | both, w[1]) if win == 0 else (w[0], w[1] | both)
        pts = rules.card_points[lead & 7] + rules.card_points[p & 7]
        if pts:
            b = self._bris
            self._bris = (b[0] + pts, b[1]) if win == 0 else (b[0], b[1] + pts)
            if rules.brisques == "immediate":
                self._score(win, pts, "brisques", f"{card_name(lead)} {card_name(p)}")
        self._trick_taken(win)

    def _follow_n(self, seat: int, p: int, n: int) -> None:
        """Three or four seats: ``p`` joins the trick; it beats the best card so far only if it
        is higher in the best card's suit or a trump on a plain card (the earlier of identical
        cards wins); the last card completes the trick."""
        best, best_seat, *cards = self._trick
        bs = best >> 3 & 3
        ps = p >> 3 & 3
        if (ps == bs and p & 7 < best & 7) or (ps == self.trump and bs != self.trump):
            best, best_seat = p, seat
        cards.append(p)
        if len(cards) < n:
            self._trick = (best, best_seat, *cards)
            self.turn = (seat + 1) % n
            return
        rules = self.rules
        self.won_masks = _set(self.won_masks, best_seat, self.won_masks[best_seat] | _mask(cards))
        pts = sum(rules.card_points[c & 7] for c in cards)
        self._trick = ()
        if pts:
            self._bris = _set(self._bris, best_seat, self._bris[best_seat] + pts)
            if rules.brisques == "immediate":
                self._score(best_seat, pts, "brisques", " ".join(card_name(c) for c in cards))
        self._trick_taken(best_seat)

    def _trick_taken(self, win: int) -> None:
        """After a trick: the winner leads next, and declares while the stock lasts."""
        rules = self.rules
        self.lead_card = -1
        tricks = self.trick_count = self.trick_count + 1
        self._last = win
        self.turn = win
        if self.phase_id == OVER:  # end_check = immediate ended the game on the brisques
            return
        if tricks == rules.stock_tricks and rules.last_trick == "stock":
            self._score(win, rules.last_trick_points, "last trick", "stock")
            if self.phase_id == OVER:
                return
        if self.stock_pos < self._nstock:
            self.phase_id = DECLARE
            self._dmelds = 0
            self._dseven = False
        elif tricks == rules.total_tricks:
            self._end_deal()
        else:
            self.phase_id = LEAD

    def _draw(self, seat: int) -> None:
        """The trick's winner draws first, then the others in playing order; the last card of
        the round is the turn-up, if any.  With the stock gone, shown cards return to hands."""
        pos = self.stock_pos
        left = self._nstock - pos
        h = list(self.hand_masks)
        n = len(h)
        tu = self.turnup_phys
        take = n if left >= n else left
        for i in range(take):
            h[(seat + i) % n] |= 1 << self.stock[pos + i]
        self.stock_pos = pos = pos + take
        if take < n:  # the last drawer takes the turn-up
            other = (seat + n - 1) % n
            h[other] |= 1 << tu
            self.known_masks = _set(self.known_masks, other, self.known_masks[other] | (1 << tu))
            self.turnup_phys = -1
        if pos >= self._nstock:
            # the end phase: shown cards return to the hand, and stay known to the other seats
            sh = self.shown_masks
            h = [h[i] | sh[i] for i in range(n)]
            self.known_masks = tuple(k | x for k, x in zip(self.known_masks, sh, strict=True))
            self.shown_masks = (0,) * n
        self.hand_masks = tuple(h)
        self.phase_id = LEAD

    def _seven_action(self, seat: int, action: int) -> None:
        rules = self.rules
        name = "exchange" if action == act.EXCHANGE else "seven"
        trump7 = card_symbol(make_card(rules.seven_rank, self.trump))
        if self.phase_id != DECLARE:
            raise IllegalActionError(self._not_declaring_msg())
        if self._dseven:
            raise IllegalActionError(
                f"you have already scored a {trump7} this turn (exchange or declare, not both)"
            )
        if rules.seven_counts_as_meld and self._dmelds >= rules.melds_per_trick:
            raise IllegalActionError("you have already declared this turn")
        if action == act.EXCHANGE:
            if not any(self._trump_sevens(seat)):
                raise IllegalActionError(f"you need the {trump7} to exchange for the turn-up")
            if rank_of(self.turnup_phys) == rules.seven_rank:
                raise IllegalActionError(
                    "the turn-up is already a seven of trumps: there is nothing to exchange"
                )
            q = self.unscored_seven(seat)
            if q < 0:
                q = next(self._trump_sevens(seat))
        else:
            if rules.seven == "played":
                raise IllegalActionError(
                    "with seven = played a seven of trumps scores when it is played to a trick"
                )
            q = self.unscored_seven(seat)
            if q < 0:
                raise IllegalActionError(f"you hold no {trump7} that has not scored")
        snap = self._snapshot(action)
        scores = not self.scored_sevens >> q & 1
        if action == act.EXCHANGE:
            tu = self.turnup_phys
            hand = (self.hand_masks[seat] & ~(1 << q)) | (1 << tu)
            self.hand_masks = _set(self.hand_masks, seat, hand)
            known = (self.known_masks[seat] & ~(1 << q)) | (1 << tu)
            self.known_masks = _set(self.known_masks, seat, known)
            self.turnup_phys = q
        else:
            self.known_masks = _set(self.known_masks, seat, self.known_masks[seat] | (1 << q))
        self._dseven = True
        if rules.seven_counts_as_meld:
            self._dmelds += 1
        if scores:
            self.scored_sevens |= 1 << q
            self._score(seat, rules.seven_points, "seven", name)
        self._prev = snap

    def _meld(self, seat: int, mask: int) -> None:
        rules = self.rules
        if self.phase_id != DECLARE:
            raise IllegalActionError(self._not_declaring_msg())
        if self._dmelds >= rules.melds_per_trick:
            n = rules.melds_per_trick
            raise IllegalActionError(
                f"you may declare {n} meld{'s' if n > 1 else ''} per trick won; win another trick"
            )
        held = self.hand_masks[seat] | self.shown_masks[seat]
        if mask & ~held:
            raise IllegalActionError(f"you do not hold {cards_sym(mask & ~held)}")
        mask = known_concealed(mask, self.hand_masks[seat], self.known_masks[seat], self.copies)
        kind = self.classify(mask)
        if kind < 0:
            raise IllegalActionError(f"{cards_sym(mask)} is not a meld")
        problem = meld_problem(rules, kind, mask, self.hand_masks[seat], self.shown_masks[seat],
                               self.used_masks[seat], self.meld_log[seat])
        if problem:
            raise IllegalActionError(problem)
        snap = self._snapshot(act.meld_action(mask))
        k = rules.melds[kind]
        self.meld_log = _set(self.meld_log, seat, (*self.meld_log[seat], (kind, mask)))
        used = self.used_masks[seat]
        self.used_masks = _set(self.used_masks, seat, _set(used, k.cls, used[k.cls] | mask))
        self.hand_masks = _set(self.hand_masks, seat, self.hand_masks[seat] & ~mask)
        self.shown_masks = _set(self.shown_masks, seat, self.shown_masks[seat] | mask)
        self.known_masks = _set(self.known_masks, seat, self.known_masks[seat] & ~mask)
        if self.trump < 0 and k.shape in ("royal", "sequence"):  # the first marriage fixes trumps
            self.trump = suit_of(mask.bit_length() - 1)
            self._patterns = quick_patterns(rules, self.trump)
        self._dmelds += 1
        self._score(seat, k.points, "meld", k.name)
        self._prev = snap

    # ------------------------------------------------------------------ scoring and the end

    def _score(self, seat: int, pts: int, reason: str, detail: str) -> None:
        self._scores = _set(self._scores, seat, self._scores[seat] + pts)
        self._events = (*self._events, (seat, pts, reason, detail))
        if (
            self.rules.end_check == "immediate"
            and self._winner < 0
            and self.totals[seat] + self._scores[seat] >= self.rules.target
        ):
            self._winner = seat
            self.phase_id = OVER

    def _end_deal(self) -> None:
        rules = self.rules
        win = self._last
        if rules.last_trick == "final":
            self._score(win, rules.last_trick_points, "last trick", "final")
            if self.phase_id == OVER:
                return
        n = len(self._scores)
        order = [(self.dealer + 1 + i) % n for i in range(n)]  # from the dealer's left
        immediate = rules.brisques == "immediate"
        before = [
            self.totals[i] + self._scores[i] - (self._bris[i] if immediate else 0)
            for i in range(n)
        ]
        if not immediate:
            for seat in order:
                if self._bris[seat]:
                    self._score(seat, self._bris[seat], "brisques", "counted")
                    if self.phase_id == OVER:
                        return
        self.phase_id = OVER
        if rules.end_check == "immediate":
            return
        # a tie goes to the taker of the last trick: the one that scored as last (24th or 32nd)
        last = next((e[0] for e in self._events if e[2] == "last trick"), win)
        self._winner = game_winner(rules.target, before, self.game_scores, order, last)

    # ------------------------------------------------------------------ text

    def action_to_string(self, action: int, seat: int | None = None) -> str:
        """Canonical text of an action for the seat to act (or ``seat``), e.g. ``play QS*``."""
        return action_to_string(self, action, self.turn if seat is None else seat)

    def string_to_action(self, text: str) -> int:
        """The action named by ``text`` for the seat to act; :class:`IllegalActionError` if none.

        Accepts the forms of RULES.md 7 (see :mod:`bezique.notation`); the action is resolved,
        not checked: :meth:`apply_action` checks it.
        """
        return string_to_action(self, text)

    def apply(self, action: int | str) -> None:
        """Apply an action given as int or text (see :meth:`string_to_action`)."""
        self.apply_action(self.string_to_action(action) if isinstance(action, str) else action)

    def legal_action_strings(self) -> list[str]:
        """The legal actions as canonical text, sorted."""
        return sorted(self.action_to_string(a) for a in self.legal_actions())

    def observation(self, seat: int) -> Any:
        """What ``seat`` may see (see :class:`bezique.observation.Observation`)."""
        from .observation import observe

        return observe(self, seat)

    def __repr__(self) -> str:
        return (
            f"<State {self.rules.variant} trick {self.trick_count + 1} {self.phase} "
            f"player {self.turn} scores {list(self._scores)}>"
        )


_B0, _B1, _B2, _B3 = (
    tuple([k * 8 + i for i in range(8) if b >> i & 1] for b in range(256)) for k in range(4)
)

_mask = mask_of
_replicate = replicate
