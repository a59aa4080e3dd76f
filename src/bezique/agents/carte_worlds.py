"""Placing the opponent's cards when it declared carte blanche (RULES.md 9.0.4), for the sampler.

Carte blanche shows the opponent's whole hand, and each repeat shows the card it has just
drawn: from then on those cards are known to the seat, and the engine plays and melds a known
copy of a card before an unknown one (``play_copy``, ``known_first``).  The observation keeps
only the known cards still held (``opponent_known``), so the cards shown are placed here as
*wild* slots: each is given a card when the opponent first uses a card it may hold (no unknown
copy of that card used since the slot was shown), or at the end from the known cards left.
Shown cards are never court cards, and neither is any card the opponent drew between its carte
blanche and its last repeat (a court card drawn ends the right to repeat).

:func:`place_carte` walks the sampler's event list (see :mod:`bezique.agents.sampling`) and
returns the slots' cards, when each slot arrived and was first used, the slots still open and
those of them that must get a card that is no court card; :func:`fill_open` deals the rest of
the cards into the open slots.  Both take plain data: this module does not import the sampler.
"""

from __future__ import annotations

import random
from collections import Counter

from ..cards import JACK, KING, QUEEN

_COURT_RANKS = (KING, QUEEN, JACK)
FREE = 1 << 30  # the deadline of a card the opponent never used in public

Event = tuple[str, int, str]
Placement = tuple[list[int], list[int], list[int], list[int], set[int]]


def is_court(card: int) -> bool:
    """True for a king, queen or jack."""
    return card & 7 in _COURT_RANKS


def place_carte(events: list[Event], nslots: int, hand_size: int, final_known: Counter[int],
                rng: random.Random) -> Placement | None:
    """(cards of the slots (-1: open), arrival times, first-use times, open slots, open slots
    that need a card that is no court card), or None if the random choices fail."""
    slots = [-1] * nslots
    recv = [0] * nslots
    deadline = [FREE] * nslots
    pending: list[int] = []
    known: Counter[int] = Counter()
    shown: Counter[int] = Counter()
    wild: list[tuple[int, int]] = []  # (slot, when shown) of known slots with no card yet
    last_unknown: dict[int, int] = {}  # card -> when an unknown copy of it was last used
    hand_at = next((i for i, e in enumerate(events) if e[0] == "carte" and e[2] == "hand"), -1)
    last_repeat = max((i for i, e in enumerate(events) if e[0] == "carte" and e[2] == "repeat"),
                      default=-1)
    noncourt: set[int] = set()
    # reveals still to come, and court cards still to be used (they come from unknown slots)
    future_wild = sum(hand_size if e[2] == "hand" else 1 for e in events if e[0] == "carte")
    court_left = sum(1 for e in events if e[0] == "use" and is_court(e[1]))
    recv_left = sum(1 for e in events if e[0] == "recv")
    # the known slots that stay unused to the end: the known cards less the shown cards that
    # went back to the hand at the end phase (an estimate: those may have been used too)
    returned: Counter[int] = Counter()
    for ev, arg, kind in events:
        if ev == "use" and kind == "meld":
            shown[arg] += 1
        elif ev == "unshow":
            shown[arg] -= 1
        elif ev == "endphase":
            returned = +shown
    shown = Counter()
    stays = +(final_known - returned)  # cards a known slot must still hold at the end
    need_end = sum(stays.values())
    # uses of those cards: by known-first they take known slots too
    stay_uses = sum(1 for e in events if e[0] == "use" and stays[e[1]] > 0)
    for when, (ev, arg, kind) in enumerate(events):
        if ev == "recv":
            recv_left -= 1
            pending.append(arg)
            recv[arg] = when
            if hand_at < when < last_repeat and arg >= hand_size:
                noncourt.add(arg)
        elif ev == "carte":
            shown_slots = list(range(hand_size)) if kind == "hand" else [arg]
            future_wild -= len(shown_slots)
            for sl in shown_slots:
                if sl not in pending:
                    return None
                pending.remove(sl)
                wild.append((sl, when))
        elif ev == "unshow":
            shown[arg] -= 1
        elif ev == "endphase":
            known += +shown
            shown = Counter()
        elif ev == "use":
            c = arg
            court = is_court(c)
            court_left -= court
            stay_uses -= stays[c] > 0
            if known[c] > 0:
                known[c] -= 1
            else:
                ok_w = [] if court else [
                    i for i, (_s, r) in enumerate(wild) if r < when and last_unknown.get(c, -1) < r
                ]
                ok_p = [j for j, sl in enumerate(pending) if not (sl in noncourt and court)]
                # a known slot may be used while more stay than the end needs; an unknown one
                # while enough are left (or still to come) for the court cards to be used
                spare_w = len(wild) + future_wild - need_end - stay_uses
                spare_p = len(ok_p) + recv_left - court_left
                if ok_w and (not ok_p or stays[c] > 0 or (
                        spare_w > 0 and (spare_p <= 1 or rng.random() < 0.85))):
                    sl = wild.pop(rng.choice(ok_w))[0]
                elif ok_p:
                    j = rng.choice(ok_p)
                    sl = pending[j]
                    pending[j] = pending[-1]
                    pending.pop()
                    last_unknown[c] = when
                else:
                    return None
                slots[sl] = c
                deadline[sl] = when
            if kind == "meld":
                shown[c] += 1
    # the known slots never used hold the known cards not otherwise accounted for
    left = Counter(final_known)
    left.subtract(known)
    if any(v < 0 for v in left.values()) or sum(left.values()) != len(wild):
        return None
    # the card most recently used from an unknown copy needs the slot shown latest
    cards = sorted(left.elements(), key=lambda c: -last_unknown.get(c, -1))
    for (sl, r), c in zip(sorted(wild, key=lambda w: -w[1]), cards, strict=True):
        if is_court(c) or last_unknown.get(c, -1) >= r:
            return None
        slots[sl] = c
    return slots, recv, deadline, pending, noncourt


def fill_open(slots: list[int], pending: list[int], noncourt: set[int], rest: list[int],
              rng: random.Random) -> list[int] | None:
    """Deal ``rest`` (shuffled cards, the open slots' and then the undrawn stock's) into the
    open ``pending`` slots, cards that are no court card to the ``noncourt`` ones; returns the
    cards left for the stock, or None if there are too few plain cards."""
    plain = [c for c in rest if not is_court(c)]
    need = [sl for sl in pending if sl in noncourt]
    if len(plain) < len(need):
        return None
    rng.shuffle(plain)
    taken: Counter[int] = Counter()
    for sl in need:
        c = plain.pop()
        slots[sl] = c
        taken[c] += 1
    others: list[int] = []
    for c in rest:
        if taken[c] > 0:
            taken[c] -= 1
        else:
            others.append(c)
    for sl in pending:
        if sl not in noncourt:
            slots[sl] = others.pop()
    return others
