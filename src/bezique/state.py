"""The flow of one deal: dealing, trick play, the declaring turn, draws, the end (plays: plays.py).

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
from collections.abc import Sequence

from . import actions as act
from .actions import PASS
from .cards import BITS, card_name, mask_of, rank_of, suit_of
from .deal import checked_cut, checked_deal, dealt_cut, shuffled_deal
from .errors import IllegalActionError, RecordError
from .meldfilter import quick_patterns, suit_filter
from .observation import Observation, observe
from .plays import Plays
from .position import (
    CARTE_NOT_YET,
    CARTE_OFF,
    CARTE_ON,
    DECLARE,
    FOLLOW,
    GUESS_CUT,
    LEAD,
    NOT_LISTED,
    OVER,
    PHASE_NAMES,
    REASONS,
    Event,
    _set,
)
from .rules import Rules
from .tricks import beats

__all__ = ["DECLARE", "FOLLOW", "LEAD", "OVER", "PHASE_NAMES", "REASONS", "Event", "State"]


class State(Plays):
    """One deal of a two-handed game, with the game totals it started from.

    Build it with :meth:`new_deal` (a seeded shuffle) or :meth:`from_cards` (a deal given card by
    card).  The vocabulary follows OpenSpiel: :meth:`current_player`, :meth:`legal_actions`,
    :meth:`apply_action`, :meth:`undo_action`, :meth:`clone`, :meth:`is_terminal`,
    :meth:`returns`, :meth:`observation`.
    """

    __slots__ = ()

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
        seat), then turns up the next card if the variant has a turn-up.  With the cut bonus
        the same generator then draws the cut from ``cut_range``."""
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        hands, turnup, stock = shuffled_deal(rules, rng, dealer)
        cut = dealt_cut(rules, rng)
        return cls._make(rules, hands, turnup, stock, dealer, totals, cut)

    @classmethod
    def from_cards(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[int | str]],
        turnup: int | str | None,
        stock: Sequence[int | str],
        dealer: int = 1,
        totals: Sequence[int] | None = None,
        cut: int | None = None,
    ) -> State:
        """A deal given card by card (cards as ints 0..31 or text); the stock's top comes first.
        ``turnup`` is None in a variant without a turn-up; ``cut`` is the size of the cut with
        the cut bonus (RULES.md 9.2), and None without it.

        Raises :class:`RecordError` unless hands, turn-up and stock are exactly the pack (and
        the cut is given, within ``cut_range``, exactly when the cut bonus is on).
        """
        ph, tu, st = checked_deal(rules, hands, turnup, stock, dealer)
        return cls._make(rules, ph, tu, st, dealer, totals, checked_cut(rules, cut))

    @classmethod
    def _make(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[int]],
        turnup: int,
        stock: Sequence[int],
        dealer: int,
        totals: Sequence[int] | None,
        cut: int | None = None,
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
        s._points = rules.card_points
        s._tricks_at = (rules.stock_tricks if rules.last_trick == "stock" else -1,
                        rules.total_tricks)
        s._seven7 = s.trump * 8 + rules.seven_rank if turnup >= 0 else -1
        s._played7 = s._seven7 if rules.seven == "played" else -1
        s.deal_hands = tuple(tuple(h) for h in hands)
        s._patterns = quick_patterns(rules, s.trump)
        s._quick = suit_filter(rules, s.trump)
        s.stock_pos = 0
        s.turnup_phys = turnup
        s.hand_masks = tuple(mask_of(h) for h in hands)
        s.shown_masks = zeros
        s._hw_of = s._sw_of = None  # (three packs and more: the words, split when first read)
        s._reps = ((0, None, []),) * n  # (and the plays of the shown cards, made when listed)
        s.won_masks = zeros
        s._scores = zeros
        s._bris = zeros
        s.meld_log = ((),) * n
        s.used_masks = ((0, 0, 0),) * n
        s.scored_sevens = 0
        s.known_masks = zeros
        s.lead_card = -1
        s._trick = ()
        s._duel = -1
        s._restored = zeros
        s._carte = (CARTE_NOT_YET,) * n if rules.carte_points else ()
        s.cut = -1 if cut is None else cut
        s._guess = -1
        s.turn = (dealer + 1) % n
        s.phase_id = LEAD if cut is None else GUESS_CUT
        s._dmelds = 0
        s._dseven = False
        s.trick_count = 0
        s._last = -1
        s._events = ()
        s._winner = -1
        s._prev = None
        s._listed = NOT_LISTED
        s._sync_extra()
        if turnup >= 0 and rank_of(turnup) == rules.seven_rank:
            s.scored_sevens = 1 << turnup
            s._score(dealer, rules.seven_points, "turnup", card_name(turnup))
        return s

    def clone(self) -> State:
        """An independent copy (cheap: every field is immutable and shared)."""
        s = State()
        s._bris = self._bris
        s._dmelds = self._dmelds
        s._dseven = self._dseven
        s._events = self._events
        s.hand_masks = self.hand_masks
        s._hw_of = s._sw_of = None
        s._reps = self._reps
        s.known_masks = self.known_masks
        s._last = self._last
        s.lead_card = self.lead_card
        s.meld_log = self.meld_log
        s._patterns = self._patterns
        s._quick = self._quick
        s.phase_id = self.phase_id
        s.stock_pos = self.stock_pos
        s._prev = self._prev
        s._listed = NOT_LISTED
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
        s._points = self._points
        s._tricks_at = self._tricks_at
        s._seven7 = self._seven7
        s._played7 = self._played7
        s._trick = self._trick
        s._duel = self._duel
        s._restored = self._restored
        s._carte = self._carte
        s.cut = self.cut
        s._guess = self._guess
        s._extra = self._extra
        return s

    def __copy__(self) -> State:  # (a clone: a state's words of the hands are its own)
        return self.clone()

    def undo_action(self) -> None:
        """Take back the last action; raises :class:`IllegalActionError` at the start of a deal."""
        if self._prev is None:
            raise IllegalActionError("there is nothing to undo")
        self._restore(self._prev)

    def history_strings(self) -> list[tuple[int, str]]:
        """The (player, action text) pairs applied so far, each text as written when played."""
        probe = self.clone()
        out = []
        for snap in self.snapshots():
            probe._restore(snap)
            out.append((snap[7], probe.action_to_string(snap[14], snap[7])))
        return out

    # ------------------------------------------------------------------ applying

    def apply_action(self, action: int) -> None:
        """Apply a legal action; raise :class:`IllegalActionError` (state unchanged) otherwise.

        Only the ints :meth:`legal_actions` lists are accepted: a copy of a card other than the
        one listed for it, a number past the pack or a meld int with stray low bits is refused."""
        ph = self.phase_id
        if ph < DECLARE and not action >> 8:  # a card (0 <= action < 256) to lead or follow
            self._play(self.turn, action)
            return
        if ph == DECLARE and action == PASS:
            snap = self._snapshot(action)
            win = self._last  # after an offer the partner passes: the winner still draws first
            self._draw(win)
            self.turn = win
            self._prev = snap
            return
        if ph == OVER:
            raise IllegalActionError("the deal is over")
        seat = self.turn
        if action < 0:
            raise IllegalActionError(f"{action} is not an action")
        if ph == GUESS_CUT or act.GUESS <= action < 512:
            if ph != GUESS_CUT or not act.GUESS <= action < 512:
                raise IllegalActionError(
                    self._guess_first() if ph == GUESS_CUT else
                    "the cut was guessed before play" if self.rules.cut_bonus else
                    f"'guess' is not an action in {self.rules.variant} (no cut to guess)")
            self._guess_cut(seat, action)
            return
        if action < 256:
            raise IllegalActionError(
                "you won the trick: declare a meld or pass (draw) before playing"
            )
        if action == act.PASS:  # (a pass in the declaring turn was applied above)
            raise IllegalActionError(self._not_declaring_msg())
        elif action in (act.EXCHANGE, act.SEVEN):
            self._seven_action(seat, action)
        elif action == act.CARTE and self._carte:
            self._declare_carte(seat)
        elif action == act.OFFER and self.rules.partnership and len(self.hand_masks) == 4:
            self._offer(seat)
        elif action in (act.CARTE, act.OFFER):
            word, what = (("carte", "carte blanche") if action == act.CARTE
                          else ("offer", "offering the declaring turn"))
            raise IllegalActionError(
                f"'{word}' is not an action in {self.rules.variant} ({what} is not part of it)"
            )
        elif action >= 512 and not action & 511:
            self._meld(seat, action >> 9)
        else:
            raise IllegalActionError(f"{action} is not an action")

    def _play(self, seat: int, p: int) -> None:
        bit = BITS[p]  # (1 << p without a shift: most cards of 3+ packs are past a machine word)
        hands = self.hand_masks
        hand = hands[seat]
        ph = self.phase_id
        two = len(hands) == 2
        copies = self.copies
        # a concealed card? (the plays are checked in bezique.plays)
        if copies == 2:
            concealed = hand & bit != 0
            if concealed and hand >> (p ^ 32) & 1 and self.play_copy(p & 31, hand) != p:
                self._refuse_copy(p)
        else:  # (three packs and more: read off the hand's words, no long mask operation)
            row = self._hand_words()[seat]
            c = p & 31
            kp = p >> 5
            concealed = kp < copies and row[kp] >> c & 1 != 0  # (p past the pack: no)
            if concealed:
                k = 0  # the lowest copy held: the listed copy is its play_copy (canonical_play)
                while not row[k] >> c & 1:
                    k += 1
                if k == kp:  # (held more than once: a higher copy too)
                    k += 1
                    while k < copies and not row[k] >> c & 1:
                        k += 1
                    if k < copies and self.play_copy(p, hand) != p:
                        self._refuse_copy(p)
                elif self.play_copy(32 * k + c, hand) != p:
                    self._refuse_copy(p)
        if concealed:
            if ph == FOLLOW and self.stock_pos >= self._nstock:
                self._check_follow(hand, p)
            snap = self._snapshot(p)
            # (``^ bit`` takes the card out: one operation on a long mask)
            if two:
                self.hand_masks = (hand ^ bit, hands[1]) if seat == 0 else (hands[0], hand ^ bit)
            else:
                self.hand_masks = _set(hands, seat, hand ^ bit)
            if copies > 2:
                self._hand_toggled(hands, seat, p)
            known = self.known_masks[seat]
            if known and known & bit:  # (mostly none: no operation on a long mask)
                self.known_masks = _set(self.known_masks, seat, known ^ bit)
        else:  # a card on the table (there is none once the stock is gone)
            self._check_shown_play(seat, p)
            snap = self._snapshot(p)
            shown = self.shown_masks
            self.shown_masks = _set(shown, seat, shown[seat] ^ bit)
            if copies > 2:
                self._shown_toggled(shown, seat, p)
        carte = self._carte
        if carte and CARTE_OFF != carte[seat] != CARTE_ON:
            # a carte blanche not declared before the first card, or a repeat not made, is lost
            self._carte = _set(carte, seat, CARTE_OFF if carte[seat] == CARTE_NOT_YET else CARTE_ON)
            self._sync_extra()
        if p & 31 == self._played7 and self.turnup_phys >= 0 and not self.scored_sevens >> p & 1:
            self.scored_sevens |= bit
            self._score(seat, self.rules.seven_points, "seven", card_name(p))
        if ph == LEAD:
            self.lead_card = p
            if self.phase_id != OVER:  # end_check = immediate may end the game on a seven
                self.phase_id = FOLLOW
            if two:
                self.turn = 1 - seat
            else:
                self._trick = (p, seat, p)
                self._sync_extra()
                duel = self.duel_seats()
                self.turn = (seat + 1) % len(hands) if not duel else duel[seat == duel[0]]
        elif two:  # the follower's card completes the trick of two seats
            lead = self.lead_card
            if (p ^ lead) & 24:  # another suit than the lead's: a trump wins
                win = seat if p >> 3 & 3 == self.trump else 1 - seat
            else:
                win = seat if p & 7 < lead & 7 else 1 - seat
            w = self.won_masks
            both = BITS[lead] | bit
            self.won_masks = (w[0] | both, w[1]) if win == 0 else (w[0], w[1] | both)
            points = self._points
            pts = points[lead & 7] + points[p & 7]
            late = 0  # brisques scored after this trick's last-trick points (RULES.md 2.5)
            words = ""
            if pts:
                b = self._bris
                self._bris = (b[0] + pts, b[1]) if win == 0 else (b[0], b[1] + pts)
                if self.rules.brisques == "immediate":
                    words = f"{card_name(lead)} {card_name(p)}"
                    if self._scores_last(self.trick_count + 1):
                        late = pts
                    else:
                        self._score(win, pts, "brisques", words)
            self.lead_card = -1
            tricks = self.trick_count = self.trick_count + 1
            self._last = win
            self.turn = win
            if (self.stock_pos < self._nstock and tricks != self._tricks_at[0]
                    and self.phase_id != OVER):  # the common case: the winner declares
                self.phase_id = DECLARE
                self._dmelds = 0
                self._dseven = False
            else:
                self._trick_ends(win, tricks, late, words)
        else:
            self._follow_n(seat, p, 2 if self._duel >= 0 else len(hands))
        self._prev = snap

    def _follow_n(self, seat: int, p: int, n: int) -> None:
        """Three or four seats: ``p`` joins the trick; it beats the best card so far only if it
        is higher in the best card's suit or a trump on a plain card (the earlier of identical
        cards wins); the last card completes the trick."""
        best, best_seat, *cards = self._trick
        if beats(p, best, self.trump):
            best, best_seat = p, seat
        cards.append(p)
        if len(cards) < n:
            self._trick = (best, best_seat, *cards)
            self._sync_extra()
            self.turn = (seat + 1) % n
            return
        # (in a duel the second card completes the trick, n = 2)
        rules = self.rules
        self.won_masks = _set(self.won_masks, best_seat, self.won_masks[best_seat] | mask_of(cards))
        pts = sum(rules.card_points[c & 7] for c in cards)
        self._trick = ()
        self._sync_extra()
        late = 0  # brisques scored after this trick's last-trick points (RULES.md 2.5)
        words = ""
        if pts:
            self._bris = _set(self._bris, best_seat, self._bris[best_seat] + pts)
            if rules.brisques == "immediate":
                words = " ".join(card_name(c) for c in cards)
                if self._scores_last(self.trick_count + 1):
                    late = pts
                else:
                    self._score(best_seat, pts, "brisques", words)
        self.lead_card = -1
        tricks = self.trick_count = self.trick_count + 1
        self._last = best_seat
        self.turn = best_seat
        self._trick_ends(best_seat, tricks, late, words)

    def _scores_last(self, tricks: int) -> bool:
        """Whether the ``tricks``-th trick scores the last trick's points: the last stock trick
        with ``last_trick = stock``, else the deal's last trick and a first duel's last."""
        last_at_stock, total = self._tricks_at
        if last_at_stock >= 0:
            return tricks == last_at_stock
        rules = self.rules
        return tricks == total or (
            len(self.hand_masks) == 4 and rules.four_hand_end == "duels"
            and tricks == rules.stock_tricks + rules.hand_size)

    def _trick_ends(self, win: int, tricks: int, late: int = 0, words: str = "") -> None:
        """After the ``tricks``-th trick, won by ``win``: the last trick's points, then the
        trick's ``late`` brisques (``brisques = immediate``: the 10 comes first, RULES.md 2.5),
        the duels, then the declaring turn while the stock lasts, else the next lead or the
        deal's end."""
        if self.phase_id == OVER:  # end_check = immediate ended the game on the brisques
            return
        rules = self.rules
        last_at_stock, total = self._tricks_at
        if tricks == last_at_stock:  # last_trick = stock
            self._score(win, rules.last_trick_points, "last trick", "stock")
        elif tricks == total and rules.last_trick == "final":
            self._score(win, rules.last_trick_points, "last trick", "final")
        if self.phase_id == OVER:
            return
        if len(self.hand_masks) == 4 and rules.four_hand_end == "duels":
            self._duels_go_on(win, tricks)
            if self.phase_id == OVER:
                return
        if late:
            self._score(win, late, "brisques", words)
            if self.phase_id == OVER:
                return
        if self.stock_pos < self._nstock:
            self.phase_id = DECLARE
            self._dmelds = 0
            self._dseven = False
        elif tricks == total:
            self._end_deal()
        else:
            self.phase_id = LEAD

    def _duels_go_on(self, win: int, tricks: int) -> None:
        """Four-handed duels (RULES.md 9.5): the winner of the last stock trick leads the first
        duel; when its eighth trick is played that trick scores the last trick's points (project
        reading) and the winner's partner leads the second duel."""
        rules = self.rules
        if tricks == rules.stock_tricks:
            self._duel = win
            self._sync_extra()
        elif tricks == rules.stock_tricks + rules.hand_size:
            if rules.last_trick == "final":
                self._score(win, rules.last_trick_points, "last trick", "first duel")
            self.turn = (self._duel + 2) % 4

    def _draw(self, seat: int) -> None:
        """The trick's winner draws first, then the others in playing order; the last card of
        the round is the turn-up, if any.  With the stock gone, shown cards return to hands."""
        pos = self.stock_pos
        left = self._nstock - pos
        hm = self.hand_masks
        n = len(hm)  # (not ``len(hm) == 2`` in the test: mypyc would narrow ``hm`` to a pair,
        # unbox it, and pass ``_hand_toggled`` a new tuple, not the one the words were made from)
        if n == 2 and left > 2:  # the common case: one card each, the stock goes on
            stock = self.stock
            if seat == 0:  # (BITS: no shift making a long int)
                self.hand_masks = (hm[0] | BITS[stock[pos]], hm[1] | BITS[stock[pos + 1]])
            else:
                self.hand_masks = (hm[0] | BITS[stock[pos + 1]], hm[1] | BITS[stock[pos]])
            if self.copies > 2:
                self._hand_toggled(hm, seat, stock[pos], 1 - seat, stock[pos + 1])
            self.stock_pos = pos + 2
            self.phase_id = LEAD
            carte = self._carte  # (a seat that may repeat carte blanche: rare)
            if carte and (carte[0] == CARTE_ON or carte[1] == CARTE_ON):
                self._carte_draws(seat, pos)
            return
        h = list(hm)
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
            self._sync_extra()
        if pos >= self._nstock:
            # the end phase: shown cards return to the hand, and stay known to the other seats
            sh = self.shown_masks
            h = [h[i] | sh[i] for i in range(n)]
            self.known_masks = tuple(k | x for k, x in zip(self.known_masks, sh, strict=True))
            self.shown_masks = (0,) * n
        self.hand_masks = tuple(h)
        self.phase_id = LEAD
        if self._carte:
            self._carte_draws(seat, pos - take)

    def apply(self, action: int | str) -> None:
        """Apply an action given as int or text (see :meth:`string_to_action`)."""
        self.apply_action(self.string_to_action(action) if isinstance(action, str) else action)

    def legal_action_strings(self) -> list[str]:
        """The legal actions as canonical text, sorted."""
        return sorted(self.action_to_string(a) for a in self.legal_actions())

    def restored_melds(self, seat: int) -> int:
        """``reuse = portland`` (RULES.md 9.0.5, R3): the broken melds of ``seat`` restored so
        far, one bit per index of ``meld_log[seat]``."""
        return self._restored[self.checked_seat(seat)]

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see (see :class:`bezique.observation.Observation`); a
        :class:`~bezique.errors.BeziqueError` if ``seat`` is no seat of this deal."""
        return observe(self, self.checked_seat(seat))

    def __repr__(self) -> str:
        return (
            f"<State {self.rules.variant} trick {self.trick_count + 1} {self.phase} "
            f"player {self.turn} scores {list(self._scores)}>"
        )
