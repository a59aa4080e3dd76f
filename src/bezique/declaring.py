"""Declaring and scoring: melds, the seven of trumps, carte blanche, the end of a deal.

:class:`Declaring` extends :class:`~bezique.position.Position` with what a seat may declare in
its declaring turn (RULES.md 2.3: a meld, judged by :mod:`bezique.melds`; the exchange or the
declaration of the seven of trumps), carte blanche (RULES.md 9.0.4), and every score event of a
deal, through to the last trick, the brisques and the game's winner or the one-deal settlement
(the decisions are :mod:`bezique.scoring`'s).  :class:`bezique.plays.Plays` extends it with the
legal actions and the checks of a card play, and :class:`bezique.state.State` with the flow of
the deal; the four classes are one object, as python-chess's ``Board`` and ``BaseBoard`` are.
"""

from __future__ import annotations

from typing import Final

from . import actions as act
from .actions import PASS
from .cards import (
    COPIES_OF,
    JACK,
    KING,
    QUEEN,
    bits,
    card_symbol,
    fold_copies,
    make_card,
    rank_of,
)
from .copywords import split_words
from .errors import IllegalActionError
from .meldfilter import quick_patterns, suit_filter
from .melds import (
    cards_sym,
    fixed_trump,
    known_concealed,
    matching_patterns,
    meld_problem,
    reuse_problem,
)
from .position import (
    CARTE_NOT_YET,
    CARTE_OFF,
    CARTE_ON,
    CUT_24,
    CUT_GUESSED,
    DECLARE,
    LEAD,
    OVER,
    Position,
    _set,
)
from .rules import cut_bounds
from .scoring import game_winner, side_winner

_COURT: Final = 1 << KING | 1 << QUEEN | 1 << JACK  # the court cards of a suit, by rank bit


class Declaring(Position):
    """The declarations and score events of a deal (see the module)."""

    __slots__ = ()

    def _carte_problem(self, seat: int) -> str | None:
        """Why ``seat`` may not declare carte blanche now (RULES.md 9.0.4, 9.10), or None."""
        if not self._carte:
            return f"there is no carte blanche in {self.rules.variant}"
        state = self._carte[seat]
        if self.phase_id == DECLARE or self.stock_pos >= self._nstock:
            return "carte blanche is declared before you play a card, while the stock lasts"
        if state == CARTE_NOT_YET:
            hand = fold_copies(self.hand_masks[seat], self.copies)
            if any(hand >> (s * 8) & _COURT for s in range(4)):
                return "carte blanche needs a hand with no king, queen or jack"
            return None
        if state >= 0:
            return None
        if state == CARTE_ON:
            return "you may repeat carte blanche only after drawing a card that is no court card"
        return "carte blanche is declared before your first card"

    def _declare_carte(self, seat: int) -> None:
        problem = self._carte_problem(seat)
        if problem:
            raise IllegalActionError(problem)
        snap = self._snapshot(act.CARTE)
        state = self._carte[seat]
        shown = self.hand_masks[seat] if state == CARTE_NOT_YET else 1 << state
        self.known_masks = _set(self.known_masks, seat, self.known_masks[seat] | shown)
        again = CARTE_ON if self.rules.carte_blanche_repeat else CARTE_OFF
        self._carte = _set(self._carte, seat, again)
        self._sync_extra()
        self._score(seat, self.rules.carte_points, "carte", "repeat" if state >= 0 else "hand")
        self._prev = snap

    def _guess_actions(self) -> list[int]:
        """The guesses of the cut (RULES.md 9.2): every size of ``cut_range``."""
        lo, hi = cut_bounds(self.rules.cut_range)
        return [act.GUESS + n for n in range(lo, hi + 1)]

    def _guess_cut(self, seat: int, action: int) -> None:
        """The non-dealer's guess: 150 if it is the cut; 250 for the dealer if the cut is 24
        cards; then play begins (carte blanche may still be declared)."""
        lo, hi = cut_bounds(self.rules.cut_range)
        n = action - act.GUESS
        if not lo <= n <= hi:
            raise IllegalActionError(f"guess a cut of {lo} to {hi} cards, not {n}")
        snap = self._snapshot(action)
        self._guess = n
        self._sync_extra()
        self.phase_id = LEAD
        if n == self.cut:
            self._score(seat, CUT_GUESSED, "cut", f"guessed {n}")
        if self.cut == 24:
            self._score(self.dealer, CUT_24, "cut", "24 cards")
        self._prev = snap

    def _declare_actions(self, seat: int) -> list[int]:
        rules = self.rules  # (an interpreted object: its fields are read only where needed)
        dmelds = self._dmelds
        if not dmelds or dmelds < rules.melds_per_trick:  # (melds_per_trick is at least 1)
            masks = self._meld_masks(seat, self._patterns)
            if masks:  # (a listing that finds none has nothing to remember)
                self._listed = (self._prev, masks)
                out = [m << 9 for m in masks]  # act.meld_action
            else:
                out = []
        else:
            out = []
        if self.turnup_card >= 0 and not self._dseven and (  # (rules.turnup)
            not rules.seven_counts_as_meld or self._dmelds < rules.melds_per_trick
        ):
            sevens = self.hand_masks[seat] & COPIES_OF[self.copies][self._seven7]
            if sevens:
                if self.can_exchange(seat):
                    out.append(act.EXCHANGE)
                if sevens & ~self.scored_sevens and rules.seven == "declared":
                    out.append(act.SEVEN)
        if len(self.hand_masks) == 4 and self._may_offer(seat):
            out.append(act.OFFER)
        out.append(PASS)
        return out

    def may_offer(self, seat: int) -> bool:
        """Whether ``seat`` may ``offer`` the declaring turn to its partner now (a four-seat
        partnership, the trick's winner declaring, nothing declared yet)."""
        return self.phase_id == DECLARE and len(self.hand_masks) == 4 and self._may_offer(seat)

    def _may_offer(self, seat: int) -> bool:
        """Partnership (RULES.md 9.5): the trick's winner may pass the declaring turn to the
        partner instead of declaring (once: not after a declaration, not back again)."""
        return (seat == self._last and not self._dmelds and not self._dseven
                and self.partner(seat) >= 0)

    def _offer(self, seat: int) -> None:
        if self.phase_id != DECLARE:
            raise IllegalActionError(self._not_declaring_msg())
        if not self._may_offer(seat):
            raise IllegalActionError(
                "only the trick's winner may offer the declaring turn to the partner, before "
                "declaring anything" if self.partner(seat) >= 0
                else f"offering the declaring turn is for partners ({self.rules.variant} with "
                     "partnership = true)"
            )
        snap = self._snapshot(act.OFFER)
        self.turn = self.partner(seat)
        self._prev = snap

    def _not_declaring_msg(self) -> str:
        if self.stock_pos >= self._nstock:
            return "nothing can be declared once the stock is exhausted"
        return "you can only declare after winning a trick"

    def _carte_draws(self, seat: int, pos: int) -> None:
        """After a draw from ``pos``: a seat that declared carte blanche may repeat it with a
        drawn card that is no court card; a court card ends the right for good."""
        if CARTE_ON not in self._carte:  # (the common case: no seat may repeat it)
            return
        n = len(self.hand_masks)
        carte = list(self._carte)
        for i in range(n):
            who = (seat + i) % n
            if carte[who] == CARTE_ON and pos + i < self._nstock:
                q = self.stock[pos + i]
                carte[who] = CARTE_OFF if _COURT >> (q & 7) & 1 else q
        self._carte = tuple(carte)
        self._sync_extra()

    def _seven_action(self, seat: int, action: int) -> None:
        rules = self.rules
        name = "exchange" if action == act.EXCHANGE else "seven"
        if not rules.turnup:
            raise IllegalActionError(
                f"{rules.variant} has no turn-up: the seven of trumps is no declaration "
                f"('{name}' is not an action here)"
            )
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
        self._sync_extra()
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
        mate = self.partner(seat)
        mate_shown = self.shown_masks[mate] if mate >= 0 else 0
        held = self.hand_masks[seat] | self.shown_masks[seat] | mate_shown
        if mask & ~held:
            if mask >> rules.deck_size:  # (a number no card of the pack makes)
                raise IllegalActionError(f"{act.meld_action(mask)} is not an action")
            raise IllegalActionError(f"you do not hold {cards_sym(mask & ~held)}")
        asked = mask
        mask = known_concealed(mask, self.hand_masks[seat], self.known_masks[seat], self.copies)
        kind = self.classify(mask)
        if kind < 0:
            raise IllegalActionError(f"{cards_sym(mask)} is not a meld")
        restore = -1
        if rules.reuse == "classic":
            problem = meld_problem(rules, kind, mask, self.hand_masks[seat],
                                   self.shown_masks[seat] | mate_shown, self.used_masks[seat],
                                   self.meld_log[seat])
        else:
            problem, restore = reuse_problem(rules, kind, mask, self.hand_masks[seat],
                                             self.shown_masks[seat], self.meld_log[seat],
                                             self._restored[seat])
        if problem:
            raise IllegalActionError(problem)
        # a meld the declaring turn listed at this very position is one the search lists
        listed = self._listed
        listed_here = listed[0] is self._prev and mask in listed[1]
        if mask != asked or (not listed_here and mask not in self._meld_masks(
            seat, matching_patterns(self._patterns, mask)
        )):
            if mate >= 0 and mask & mate_shown and not mask & ~mate_shown:
                raise IllegalActionError("add at least one card of your own to your partner's")
            if mate >= 0 and mask & mate_shown and rules.partner_bezique == "own":
                raise IllegalActionError(
                    f"a {rules.melds[kind].name} counts only if all its cards are one player's "
                    "(partner_bezique = own)"
                )
            raise IllegalActionError(
                f"{act.meld_action(asked)} is not a legal action: {cards_sym(mask)} is declared "
                "with other copies (see legal_actions)"
            )
        snap = self._snapshot(act.meld_action(mask))
        k = rules.melds[kind]
        log = (*self.meld_log[seat], (kind, mask))
        used = self.used_masks[seat]
        used = _set(used, k.cls, used[k.cls] | mask)
        self.meld_log = _set(self.meld_log, seat, log)
        self.used_masks = _set(self.used_masks, seat, used)
        if mate >= 0:  # partners share one log (RULES.md 9.5: judged together)
            self.meld_log = _set(self.meld_log, mate, log)
            self.used_masks = _set(self.used_masks, mate, used)
        hands, shown = self.hand_masks, self.shown_masks
        self.hand_masks = _set(hands, seat, hands[seat] & ~mask)
        self.shown_masks = _set(shown, seat, shown[seat] | (mask & ~mate_shown))
        if self.copies > 2 and mate < 0:
            self._words_melded(hands, shown, seat, mask)
        self.known_masks = _set(self.known_masks, seat, self.known_masks[seat] & ~mask)
        if restore >= 0:
            self._restored = _set(self._restored, seat, self._restored[seat] | 1 << restore)
            self._sync_extra()
        if self.trump < 0 and (suit := fixed_trump(rules, kind, bits(mask))) >= 0:
            self.trump = suit
            self._patterns = quick_patterns(rules, suit)
            self._quick = suit_filter(rules, suit)
            self._sync_extra()
        self._dmelds += 1
        self._score(seat, k.points, "meld", k.name)  # (with the new log: _score syncs _extra)
        self._prev = snap

    def _words_melded(self, hands: object, shown: object, seat: int, mask: int) -> None:
        """Three packs and more: follow in the words (see :meth:`_hand_toggled`) a meld of
        ``mask`` by ``seat`` (no partner), whose cards go from the hand to the table (which
        ``hand_masks`` and ``shown_masks`` were ``hands`` and ``shown``): one split of the meld,
        not of every hand and every table again."""
        hw_ok = self._hw_of is hands
        sw_ok = self._sw_of is shown
        if not (hw_ok or sw_ok):
            return
        mw = split_words(mask, self.copies)
        hrow = self._hw[seat] if hw_ok else mw
        srow = self._sw[seat] if sw_ok else mw
        for k in range(len(mw)):
            m = mw[k]
            if m:
                if hw_ok:
                    hrow[k] = hrow[k] & ~m
                if sw_ok:
                    srow[k] = srow[k] | m
        if hw_ok:
            self._hw_of = self.hand_masks
        if sw_ok:
            self._sw_of = self.shown_masks

    # ------------------------------------------------------------------ scoring and the end

    def _score(self, seat: int, pts: int, reason: str, detail: str) -> None:
        self._scores = _set(self._scores, seat, self._scores[seat] + pts)
        self._events = (*self._events, (seat, pts, reason, detail))
        if self.rules.end_check == "immediate" and self._winner < 0:
            mate = self.partner(seat)
            total = self.totals[seat] + self._scores[seat]
            if mate >= 0:
                total += self.totals[mate] + self._scores[mate]
            if total >= self.rules.target:
                self._winner = seat % 2 if mate >= 0 else seat  # a side's number, or the seat
                self.phase_id = OVER
        self._sync_extra()

    def _end_deal(self) -> None:
        rules = self.rules
        win = self._last  # (the last trick's points are scored: State._trick_ends)
        if rules.settlement == "portland":  # each deal is a game: settle it (RULES.md 9.0.7)
            self.phase_id = OVER
            self._winner = self.settlement().winner
            self._sync_extra()
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
        decide = side_winner if self.partner(0) >= 0 else game_winner
        self._winner = decide(rules.target, before, self.game_scores, order, last)
        self._sync_extra()
