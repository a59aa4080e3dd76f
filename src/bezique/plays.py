"""The legal actions a seat may choose from, and the checks that refuse any other card play.

:class:`Plays` extends :class:`~bezique.declaring.Declaring` with ``legal_actions``: in the
declaring turn what :class:`~bezique.declaring.Declaring` lists, else the seat's card plays, one
physical card per distinct choice (a concealed card's copy the engine plays, see
:meth:`~bezique.position.Position.play_copy`; a shown card per meld-history group, see
:meth:`Plays._shown_reps`; carte blanche where it may be declared), and the checks a card
play must pass before :class:`bezique.state.State` plays it: the listed copy, a card on the
table, and the end phase's duty to follow (:mod:`bezique.tricks`).  State, Plays, Declaring
and Position are one object, as python-chess's ``Board`` and ``BaseBoard`` are.

With two packs the concealed plays are four table look-ups (:func:`bezique.cards.suit_plays`),
one per suit; with three packs and more they are read off the hand's words
(:func:`bezique.copywords.word_plays`).  This listing runs before nearly every card of a deal.
"""

from __future__ import annotations

from . import actions as act
from .cards import (
    CARD_MASK32,
    SUIT_PLAYS0,
    SUIT_PLAYS1,
    SUIT_PLAYS2,
    SUIT_PLAYS3,
    SUITS02,
    bit_list,
    bits,
    card_symbol,
    replicate,
    suit_plays,
)
from .copywords import seen_dup, word_plays
from .declaring import Declaring
from .errors import IllegalActionError
from .melds import history_groups, shown_groups
from .position import CARTE_OFF, CARTE_ON, DECLARE, FOLLOW, GUESS_CUT, _set
from .tricks import follow_allow, follow_mask, follow_problem


class Plays(Declaring):
    """The card plays of a deal: listed and checked (see the module)."""

    __slots__ = ()

    def legal_actions(self) -> list[int]:
        """The legal actions (ints; see :mod:`bezique.actions`), one per distinct choice.

        Leading or following: the seat's concealed cards, one per distinct card, then its shown
        cards, then carte blanche if it may declare it (in the end phase a follower's cards are
        only those :func:`bezique.tricks.follow_mask` allows; nothing is shown then, and carte
        blanche is over).  In the declaring turn, what
        :meth:`~bezique.declaring.Declaring._declare_actions` lists; with the cut bonus, the
        guesses of the cut first."""
        ph = self.phase_id
        seat = self.turn
        if ph >= DECLARE:
            if ph == DECLARE:
                return self._declare_actions(seat)
            if ph == GUESS_CUT:
                return self._guess_actions()
            return []  # the deal is over
        hand = self.hand_masks[seat]
        end_follow = ph == FOLLOW and self.stock_pos >= self._nstock
        if end_follow and self.copies == 2:
            hand = self._follow_mask(hand)
        if self.copies == 2:
            lo = hand & CARD_MASK32
            second = hand >> 32
            dup = lo & second  # the cards held twice
            hi = second ^ dup  # second copies of cards not held as first copies
            # the keys of suits 0 and 2 (``even``), 1 and 3 (``odd``): (first, only second)
            even = lo & SUITS02 | (hi & SUITS02) << 8
            odd = lo >> 8 & SUITS02 | (hi >> 8 & SUITS02) << 8
            try:  # (a holding not met yet is None in its table: unpacking it fails)
                out = [*SUIT_PLAYS0[even & 0xFFFF], *SUIT_PLAYS1[odd & 0xFFFF],
                       *SUIT_PLAYS2[even >> 16], *SUIT_PLAYS3[odd >> 16]]
            except TypeError:
                out = [*suit_plays(0, even & 0xFFFF), *suit_plays(1, odd & 0xFFFF),
                       *suit_plays(2, even >> 16), *suit_plays(3, odd >> 16)]
        else:  # the lowest copy of each card, from the hand's words (see bezique.copywords)
            row = self._hand_words()[seat]
            if end_follow:  # (the cards allowed, read off the words: no long mask operation)
                allow = self._follow_allow(row)
                out, dup = word_plays([w & allow for w in row])
                if dup:
                    hand &= replicate(allow, self.copies)
            else:
                out, dup = word_plays(row)
        # copies of a card held twice differ only for a seven of trumps or a known copy
        if dup:
            k = self.known_masks
            known = (k[0] | k[1]) if len(k) == 2 else self._known_any()
            if known & hand or (self.turnup_phys >= 0 and dup >> self._seven7 & 1):
                out = [self.play_copy(p, hand) if dup >> (p & 31) & 1 else p for p in out]
        if end_follow:
            return out
        shown = self.shown_masks[seat]
        if shown:
            out.extend(self._shown_reps(seat, shown))
        carte = self._carte  # (a seat past its first card, or not repeating, may not)
        if carte and CARTE_OFF != carte[seat] != CARTE_ON and self._carte_problem(seat) is None:
            out.append(act.CARTE)
        return out

    def _shown_reps(self, seat: int, shown: int) -> list[int]:
        """One play per shown card, and per meld-history group of a card shown more than once
        (see :func:`bezique.melds.shown_groups`), by card (``shown``: the seat's shown cards).
        With three packs and more the answer is remembered (``_reps``): not to be changed."""
        copies = self.copies
        if copies == 2:
            if not shown & shown >> 32:
                return list(bits(shown))  # no card shown twice: each shown card is its own choice
            words = [shown & CARD_MASK32, shown >> 32]
            seen = words[0] | words[1]
            dup = words[0] & words[1]
        else:  # (the seat's last answer while its shown cards and melds are the same)
            log = self.meld_log[seat]
            last = self._reps[seat]
            if last[1] is log and last[0] == shown:
                return last[2]
            words = self._shown_words()[seat]
            seen, dup = seen_dup(words)
        out: list[int] = []
        for c in bit_list(seen):
            if dup >> c & 1:  # (its copies read off the words: no operation on a long mask)
                qs = [32 * k + c for k in range(copies) if words[k] >> c & 1]
                out.extend(g[0] for g in history_groups(self.meld_log[seat], qs))
            else:
                k = 0
                while not words[k] >> c & 1:
                    k += 1
                out.append(32 * k + c)
        if copies > 2:
            self._reps = _set(self._reps, seat, (shown, self.meld_log[seat], out))
        return out

    def _follow_mask(self, hand: int) -> int:
        """End phase: the cards of ``hand`` the follower may play (see :mod:`bezique.tricks`)."""
        lead = self.lead_card
        return follow_mask(hand, lead, self._trick[0] if self._trick else lead, self.trump,
                           self.copies)

    def _follow_allow(self, words: list[int]) -> int:
        """:meth:`_follow_mask` as a 32-bit card mask, of the hand of these words."""
        folded = 0
        for w in words:
            folded |= w
        lead = self.lead_card
        return follow_allow(folded, lead, self._trick[0] if self._trick else lead, self.trump)

    def _check_follow(self, hand: int, p: int) -> None:
        """End phase: refuse ``p`` (a card of ``hand``, the hand of the seat to play) unless
        the follower's duty allows it."""
        if not (self._follow_mask(hand) >> p & 1 if self.copies == 2  # (3+ packs: the words)
                else self._follow_allow(self._hand_words()[self.turn]) >> (p & 31) & 1):
            lead = self.lead_card
            best = self._trick[0] if self._trick else lead
            raise IllegalActionError(follow_problem(hand, p, lead, best, self.trump, self.copies))

    def _refuse_copy(self, p: int) -> None:
        rep = self.canonical_play(p)
        raise IllegalActionError(f"{p} is not a legal action: {card_symbol(p)} is played as {rep}")

    def _check_shown_play(self, seat: int, p: int) -> None:
        """Refuse a play of ``p`` unless it is the listed copy of a card on the table."""
        shown = self.shown_masks[seat]
        copies = self.copies
        if copies > 2:  # (the shown words: no operation on a long mask)
            words = self._shown_words()[seat]
            c = p & 31
            held = p >> 5 < copies and words[p >> 5] >> c & 1 != 0
            qs = [32 * k + c for k in range(copies) if words[k] >> c & 1] if held else []
            more = len(qs) > 1  # (another copy of the card is shown too)
        else:
            held = shown >> p & 1 != 0
            more = shown & ~(1 << p) & replicate(1 << (p & 31), copies) != 0
        if not held or p >= 32 * copies:
            raise IllegalActionError(
                f"you do not hold {card_symbol(p)}" if 0 <= p < 32 * copies
                else f"{p} is not an action"
            )
        if more:
            groups = (history_groups(self.meld_log[seat], qs) if copies > 2
                      else shown_groups(self.meld_log[seat], shown, p & 31, copies))
            if not any(g[0] == p for g in groups):
                raise IllegalActionError(
                    f"{p} is not a legal action: that shown {card_symbol(p)} is played as "
                    f"{next(g[0] for g in groups if p in g)}"
                )
