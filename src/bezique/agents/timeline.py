"""Another seat's public timeline, for the world samplers: which of its cards became known, and
where each card it used can have come from.

The two-seat sampler (:mod:`bezique.agents.sampling`) and the table sampler
(:mod:`bezique.agents.table_worlds`) each walk the observed actions once and write, for every
other seat, its events in time order.  An event is ``(what, card or slot, kind)``:

* ``("recv", slot, "hand" | "stock")``: a concealed card reached the seat (its ``slot``);
* ``("use", card, "play" | "meld" | "exchange" | "seven")``: it used a card of its hand in
  public (a seven declared stays in the hand, now known);
* ``("turnup", -1, "exchange" | "final")``: it took the turn-up (by exchange, or as the last
  card of the stock), a known card; ``("swap", -1, "exchange")``: the seat whose observation it
  is exchanged, so the turn-up became its seven;
* ``("unshow", card, "play")``: it played one of its shown cards; ``("endphase", -1, "")``: the
  stock is gone and its shown cards went back into its hand, known.

Both samplers then need the same two walks of such a timeline, kept here so that they cannot
drift apart: how many copies of each card became known to everyone (:func:`known_added`), and
the placing of each card used in a slot received before the use (:func:`place_uses`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

#: one event of a timeline: (what, card or slot, kind)
Event = tuple[str, int, str]

#: the samplers' first tries take the known copy of a card as the final known cards say
#: (:func:`place_uses`); the later tries flip that choice with this probability, since the
#: engine's own choice can differ: an exchange gives up a seven of trumps that has not scored
#: before a known (declared) one, which may be played later
EXPLORE_AFTER, EXPLORE = 4, 0.15


def known_added(events: Sequence[Event], turnup: int, seven: int) -> Counter[int]:
    """How many copies of each card became known in the seat's concealed hand: turn-ups it
    took, sevens it declared, shown cards back in its hand at the end of the stock.

    >>> known_added([("recv", 0, "hand"), ("use", 5, "seven"), ("turnup", -1, "final")], 9, 5)
    Counter({5: 1, 9: 1})
    """
    added: Counter[int] = Counter()
    shown: Counter[int] = Counter()
    cur = turnup
    for ev, arg, kind in events:
        if ev == "turnup":
            added[cur] += 1
            if kind == "exchange":
                cur = seven
        elif ev == "swap":
            cur = seven
        elif ev == "unshow":
            shown[arg] -= 1
        elif ev == "endphase":
            added += +shown
            shown = Counter()
        elif ev == "use":
            if kind == "seven":
                added[arg] += 1
            elif kind == "meld":
                shown[arg] += 1
    return added


def place_uses(events: Sequence[Event], turnup: int, seven: int, declared: bool,
               quota: Counter[int], rng: random.Random, slots: list[int], pending: list[int],
               recv: list[int] | None = None, deadline: list[int] | None = None,
               explore: float = 0.0) -> Counter[int] | None:
    """Walk the timeline, putting each card the seat used from its concealed cards in a random
    slot it received before the use and still free (``slots[slot] = card``; ``pending`` keeps
    the slots left free).  Where it held a known copy of the card, the known copy is the one used
    as long as ``quota`` (known copies that must have been used, updated) says so, or when no
    slot is free; ``explore`` flips that choice at random.  ``recv`` and ``deadline``, when
    given, get the time (event number) each slot was received and its card first used.

    Returns the copies still known at the end (to check against the observation), or None when
    a use finds no slot free.

    >>> slots, pending = [-1, -1], []
    >>> events = [("recv", 0, "hand"), ("recv", 1, "hand"), ("use", 7, "play")]
    >>> place_uses(events, -1, -1, False, Counter(), random.Random(1), slots, pending)
    Counter()
    >>> sorted(slots), len(pending)
    ([-1, 7], 1)
    """
    known: Counter[int] = Counter()
    shown: Counter[int] = Counter()
    cur = turnup
    for when, (ev, arg, kind) in enumerate(events):
        if ev == "recv":
            pending.append(arg)
            if recv is not None:
                recv[arg] = when
        elif ev == "turnup":
            known[cur] += 1
            if kind == "exchange":
                cur = seven
        elif ev == "swap":
            cur = seven
        elif ev == "unshow":
            shown[arg] -= 1
        elif ev == "endphase":
            known += +shown
            shown = Counter()
        else:
            c = arg
            use_known = False
            if known[c] > 0 and kind != "seven":
                if not pending or (c == seven and declared and kind == "play"):
                    # (scored sevens are played first when sevens are declared)
                    use_known = True
                else:
                    use_known = quota[c] > 0
                    if explore and rng.random() < explore:
                        use_known = not use_known
            if use_known:
                known[c] -= 1
                quota[c] -= 1
            else:
                if not pending:
                    return None
                j = rng.randrange(len(pending))
                slots[pending[j]] = c
                if deadline is not None:
                    deadline[pending[j]] = when
                pending[j] = pending[-1]
                pending.pop()
                if kind == "seven":
                    known[c] += 1
            if kind == "meld":
                shown[c] += 1
    return known
