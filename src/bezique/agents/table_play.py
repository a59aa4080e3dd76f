"""The heuristic player at a table of three or four (RULES.md 9.4, 9.5): it knows its partner.

The two-seat heuristic (:mod:`bezique.agents.heuristic`) plays against one opponent; this module
owns the rules of thumb that differ when more seats play.  :class:`TablePolicy` takes the cost
of losing each card (its meld prospects and strength for the last tricks) from the two-seat
heuristic and adds:

* **Declaring**: the best legal meld, combining with the partner's shown cards when that scores
  more (the legal melds include those combinations); the exchange of the seven first.  The
  trick's winner passes the declaring turn to its partner (``offer``) when the partner's shown
  cards, with the winner's own shown cards to combine with, make a better meld than anything
  the winner can declare (only cards on the table count, never the partner's concealed hand),
  and whenever it has nothing to declare itself: then the offer costs nothing.
* **Tricks while the stock lasts**: a partner's winning card is never overtaken; the seat
  throws its cheapest card to it, or a brisque when the partner's card is safe (the seat plays
  last, or the partner holds the trick with a trump ace).  Against an opponent's best card it
  wins when the trick's brisques or a waiting meld pay for the card it spends, discounting the
  win when opponents still play after it; otherwise it throws what costs least.  Leads as the
  two-seat heuristic, counting every opponent still to play.
* **The last tricks** (follow suit and beat the best card if able: the legal moves force it):
  the cheapest card that wins a trick an opponent holds, no more than needed under a partner's
  winning card (a brisque when playing last to it), and leads of sure winners (aces, trumps).

In three-handed play and four individuals every other seat is an opponent.  The policy decides
on a :class:`~bezique.state.State` (a sampled world) and reads only what the seat to act may see
there: its own cards and the public table.
"""

from __future__ import annotations

from typing import Protocol

from .. import actions as act
from ..cards import ACE
from ..state import DECLARE, LEAD, State
from ..tricks import beats
from .targets import fold32, meld_targets


class KeepCosts(Protocol):
    """What the table policy needs of the two-seat heuristic: the cost of losing each card."""

    def table_costs(self, state: State, gone: int) -> list[float]:
        """The cost (per card 0..31) for the seat to act, given the cards seen out of reach."""
        ...


# how much of a trick won by a card an opponent may still beat is counted: per opponent after
_HOLD = 0.7
# the value of a brisque thrown to a partner's card that is not safe yet
_UNSAFE_GIFT = -0.3


def trick_state(state: State) -> tuple[list[int], int, int]:
    """(the cards 0..31 of the current trick in order, the best of them or -1, the seat
    holding the trick or -1)."""
    cards = state.trick_cards()
    if not cards:
        return [], -1, -1
    duel = state.duel_seats()
    n = len(state.hand_masks)
    if duel:
        order = [duel[0], duel[1]] if duel[0] != state.turn else [duel[1], duel[0]]
    else:
        leader = (state.turn - len(cards)) % n
        order = [(leader + i) % n for i in range(len(cards))]
    best, holder = cards[0], order[0]
    for c, who in zip(cards[1:], order[1:], strict=False):
        if beats(c, best, state.trump):
            best, holder = c, who
    return cards, best, holder


def partner_table_meld(state: State, seat: int) -> int:
    """The points of the best meld the partner of ``seat`` could declare from the cards on the
    table alone (its shown cards, combined with those of ``seat``), 0 if none or no partner."""
    mate = state.partner(seat)
    if mate < 0 or not state.shown_masks[mate]:
        return 0
    probe = state.clone()
    hands = list(probe.hand_masks)
    hands[mate] = 0  # its concealed cards are not the seat's to know
    probe.hand_masks = tuple(hands)
    melds = state.rules.melds
    best = 0
    for m in probe.legal_meld_masks(mate):
        k = probe.classify(m)
        if k >= 0:
            best = max(best, melds[k].points)
    return best


class TablePolicy:
    """Chooses an action int for the seat to act at a table of three or four seats."""

    def __init__(self, keeper: KeepCosts, quick: bool = False) -> None:
        self.keeper = keeper
        self.quick = quick  # rollouts: a meld that a win would let declare is not listed

    def choose(self, state: State) -> int:
        """The action (int) this policy plays in ``state`` for the seat to act."""
        if state.phase_id == DECLARE:
            return self.declare(state)
        if state.end_phase:
            return state.canonical_play(self._end_play(state))
        return state.canonical_play(self._stock_play(state))

    # ------------------------------------------------------------------ declaring

    def declare(self, state: State) -> int:
        """Exchange, the best meld (with the partner's shown cards if better), a seven, an
        offer to the partner whose table cards make a better meld, or pass."""
        seat = state.turn
        mate = state.partner(seat)
        if (not meld_targets(state.rules, state.trump).may_meld(state, seat)
                and (mate < 0 or not state.shown_masks[mate])
                and not state.can_exchange(seat) and state.unscored_seven(seat) < 0):
            # (the common case, without listing the legal melds)
            return act.OFFER if mate >= 0 and state.may_offer(seat) else act.PASS
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        melds = state.rules.melds
        best, best_pts = -1, 0
        for a in legal:
            if a >= 512:
                k = state.classify(a >> 9)
                pts = melds[k].points if k >= 0 else 0
                if pts > best_pts:
                    best, best_pts = a, pts
        if act.OFFER in legal:
            mine = best_pts + (10 if act.EXCHANGE in legal or act.SEVEN in legal else 0)
            if not mine or partner_table_meld(state, seat) > mine:
                return act.OFFER  # (with nothing to declare the offer costs nothing)
        if act.EXCHANGE in legal and (not state.rules.seven_counts_as_meld or best_pts < 10):
            return act.EXCHANGE
        if best >= 0:
            return best
        if act.SEVEN in legal:
            return act.SEVEN
        return act.PASS

    # ------------------------------------------------------------------ the stock phase

    def _gone(self, state: State, seat: int) -> int:
        gone = state.all_masks()["trick"]
        for i in range(len(state.hand_masks)):
            gone |= state.won_masks[i]
            if i != seat:
                gone |= state.shown_masks[i]
        return gone

    def _stock_play(self, state: State) -> int:
        seat = state.turn
        n = len(state.hand_masks)
        mate = state.partner(seat)
        trump = state.trump
        pts_of = state.rules.card_points
        trick, best, holder = trick_state(state)
        cost = self.keeper.table_costs(state, self._gone(state, seat))
        cands = _candidates(state, seat)
        if not trick:
            return self._lead(state, seat, cands, cost)
        after = n - 1 - len(trick)  # seats still to play after this one
        opp_after = sum(1 for i in range(1, after + 1) if (seat + i) % n != mate)
        trick_pts = sum(pts_of[p & 7] for p in trick)
        best_card = best & 31
        choice, choice_score = cands[0], -1e18
        if holder == mate:
            safe = after == 0 or opp_after == 0 or (best_card >> 3 == trump
                                                    and best_card & 7 == ACE)
            for p in cands:
                c = p & 31
                pc = pts_of[c & 7]
                if beats(c, best_card, trump):
                    score = -cost[c] - 100.0  # never overtake the partner by choice
                else:
                    score = -cost[c] + pc * (1.0 if safe else _UNSAFE_GIFT)
                if score > choice_score:
                    choice, choice_score = p, score
            return choice
        hold = _HOLD ** opp_after
        ready_pts = 0.0
        for p in cands:
            c = p & 31
            pc = pts_of[c & 7]
            pts = trick_pts + pc
            if beats(c, best_card, trump):
                if not ready_pts:
                    ready_pts = 1.0 + self._meld_waiting(state, seat)
                gain = pts + ready_pts - 1.0
                score = hold * gain - (1.0 - hold) * pts - cost[c]
            else:
                score = -pts - cost[c]
            if score > choice_score:
                choice, choice_score = p, score
        return choice

    def _meld_waiting(self, state: State, seat: int) -> float:
        """The points of the best meld the seat could declare now (it declares after winning);
        ``quick``: 20 if some meld may be legal, without listing them."""
        tg = meld_targets(state.rules, state.trump)
        if not tg.may_meld(state, seat):
            return 0.0  # (melds with the partner's shown cards are not counted here)
        if self.quick:
            return 20.0
        melds = state.rules.melds
        best = 0
        for m in state.legal_meld_masks(seat):
            k = state.classify(m)
            if k >= 0:
                best = max(best, melds[k].points)
        return float(best)

    def _lead(self, state: State, seat: int, cands: list[int], cost: list[float]) -> int:
        """Lead the card whose loss costs least, weighing the brisques it may lose or win."""
        n = len(state.hand_masks)
        mate = state.partner(seat)
        trump = state.trump
        pts_of = state.rules.card_points
        tg = meld_targets(state.rules, trump)
        held = state.hand_masks[seat] | state.shown_masks[seat]
        won = 0
        for w in state.won_masks:
            won |= w
        outside = tg.deck_mask & ~(held | won)
        unseen = outside.bit_count()
        opp_cards = 0
        opp_shown = 0
        for i in range(n):
            if i != seat and i != mate:
                opp_cards += (state.hand_masks[i] | state.shown_masks[i]).bit_count()
                opp_shown |= fold32(state.shown_masks[i])
        best, best_score = cands[0], -1e18
        for p in cands:
            c = p & 31
            pc = pts_of[c & 7]
            beaters = (outside & tg.beat_phys[c]).bit_count()
            if opp_shown & tg.beat32[c]:
                p_beat = 1.0
            elif unseen > 0 and beaters > 0:
                p_beat = 1.0 - (1.0 - min(1.0, beaters / unseen)) ** max(1, opp_cards)
            else:
                p_beat = 0.0
            if not pc:
                p_beat *= 0.5
            score = -cost[c] + (1.0 - p_beat) * pc - p_beat * pc
            if score > best_score:
                best, best_score = p, score
        return best

    # ------------------------------------------------------------------ the end phase

    def _end_play(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.turn
        trump = state.trump
        pts_of = state.rules.card_points
        trick, best, holder = trick_state(state)
        if state.phase_id == LEAD or not trick:
            def lead_key(p: int) -> tuple[int, int, int]:
                c = p & 31
                s, r = c >> 3, c & 7
                # aces first (trump ace best), then the lowest plain card
                if r == ACE:
                    return (0, 0 if s == trump else 1, 0)
                return (1, 1 if s == trump else 0, -r)

            return min(legal, key=lead_key)
        n = len(state.duel_seats()) or len(state.hand_masks)
        last = len(trick) == n - 1
        mate = state.partner(seat)
        best_card = best & 31

        def key(p: int) -> tuple[int, int, int]:
            c = p & 31
            s, r = c >> 3, c & 7
            wins = beats(c, best_card, trump)
            pc = pts_of[r]
            order = r if s != trump else r - 100  # low plain cards are the cheapest
            if holder == mate:
                if wins:
                    return (1, pc, -order)
                return (0, -pc if last else pc, -order)
            if wins:
                return (0, pc if not last else -pc, -order if not last else order)
            return (1, pc, -order)

        return min(legal, key=key)


def _candidates(state: State, seat: int) -> list[int]:
    """One physical card per distinct playable card, in card order, a shown copy first."""
    out: list[int] = []
    seen = 0
    for mask in (state.shown_masks[seat], state.hand_masks[seat]):
        while mask:
            low = mask & -mask
            p = low.bit_length() - 1
            mask ^= low
            c = p & 31
            if not seen >> c & 1:
                seen |= 1 << c
                out.append(p)
    out.sort(key=lambda p: p & 31)
    return out


__all__ = ["KeepCosts", "TablePolicy", "partner_table_meld", "trick_state"]
