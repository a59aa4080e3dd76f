"""The melds in a hint's reasons (:mod:`bezique.agents.explain`): which melds a seat could
still make from its cards and those that may come (:class:`Judge`), which it may declare now,
what a partner's cards on the table make (RULES.md 9.5), and their names as a player reads them
(:func:`meld_names`: with the suit where the name does not tell it).

Melds are (kind, physical cards) pairs of a world sampled for the seat; whatever is said of
them names cards, never copies, and melds are ordered by points, name and cards, never by
copy: the words are the same in every world the seat cannot tell apart.
"""

from __future__ import annotations

from .. import actions as act
from ..cards import SUIT_SYMBOLS, bits, make_card, suit_of
from ..melds import Log, classify, legal_meld_masks, quick_patterns
from ..observation import Observation
from ..rules import Rules
from ..state import DECLARE, State

# the chance that a meld missing n cards is still made (the heuristic's defaults)
CHANCE = (1.0, 0.5, 0.2)


class Judge:
    """The melds a seat could still legally make from its cards (RULES.md 3.3 or 9.0.5): each
    pattern is asked of :func:`~bezique.melds.legal_meld_masks` with the seat's real holding
    and earlier melds, plus copies of the missing cards that could still come (copies never in
    its melds, which is what a card drawn later is)."""

    def __init__(self, world: State, seat: int, avail: list[int], room: int) -> None:
        self.world, self.seat, self.avail = world, seat, avail
        self.room = min(room, len(CHANCE) - 1)  # the cards the seat may still draw and meld
        self.rules = world.rules
        self.patterns = quick_patterns(world.rules, world.trump)
        self.log: Log = world.meld_log[seat]
        self.restored = world.restored_melds(seat)

    def best(self, kinds: set[int] | None = None, contain: int = 0
             ) -> list[tuple[int, int, int]]:
        """Per pattern (of ``kinds``, all if None) the legal meld missing the fewest cards,
        containing the physical cards ``contain``: (kind, the seat's physical cards in it,
        cards missing); none missing too many (see :data:`CHANCE`)."""
        rules, world, seat = self.rules, self.world, self.seat
        hand, shown = world.hand_masks[seat], world.shown_masks[seat]
        taken = hand | shown
        for _, m in self.log:
            taken |= m
        out = []
        for q in self.patterns:
            pat = q[0]
            if kinds is not None and pat.kind not in kinds:
                continue
            needs = ([(make_card(pat.rank, s), 1 if pat.distinct else pat.n) for s in range(4)]
                     if pat.n else list(pat.counts))
            fresh = 0
            for c, n in needs:
                n = min(n, self.avail[c])
                for k in range(rules.copies):
                    if n and not taken >> (32 * k + c) & 1:
                        fresh |= 1 << (32 * k + c)
                        n -= 1
            found: tuple[int, int] | None = None
            for m in legal_meld_masks(rules, (q,), hand | fresh, shown, world.used_masks[seat],
                                      self.log, hand, self.restored):
                miss = (m & fresh).bit_count()
                if (m & contain == contain and miss <= self.room
                        and (found is None or miss < found[1])
                        and classify(rules, self.patterns, m) == pat.kind):
                    found = (m & ~fresh, miss)
            if found is not None:
                out.append((pat.kind, *found))
        return out


def meld_key(rules: Rules, kind: int, mask: int) -> tuple[str, tuple[int, ...]]:
    """A meld as a player tells it: its name and cards (not which copies)."""
    return rules.melds[kind].name, tuple(sorted(p & 31 for p in bits(mask)))


def most_first(rules: Rules, melds: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Melds (kind, physical cards), the most points first, then by name and cards (not by
    which copies: the order is the same in every world the seat cannot tell apart)."""
    return sorted(melds, key=lambda km: (-rules.melds[km[0]].points, meld_key(rules, *km)))


def top_kind(melds: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The melds of the first one's kind (those that score the most, given most first)."""
    return [km for km in melds if km[0] == melds[0][0]]


def declarable(state: State | None, seat: int) -> list[tuple[int, int]]:
    """The melds ``seat`` may declare now in ``state`` (kind, physical cards), most first."""
    if state is None or state.phase_id != DECLARE or state.current_player() != seat:
        return []
    found = [(state.classify(a >> 9), a >> 9) for a in state.legal_actions() if act.is_meld(a)]
    return most_first(state.rules, found)


def meld_names(melds: list[tuple[int, int]], rules: Rules, trump: int, either: bool = False
               ) -> str:
    """``the bezique (40) and the double bezique (500)``: melds (kind, physical cards), each
    kind once, with the suits of marriages and sequences where the name does not tell them (a
    common marriage, a plain sequence; any of them before trumps are fixed, RULES.md 9.0.2):
    ``the common marriages in ♠ and ♣ (20 each)``; ``the royal marriage in ♠ or ♥ (40)`` (the
    first of them fixes trumps, and the other is a common marriage after it), as for any kind
    when ``either`` (one of them may be declared).

    >>> from bezique import Rules
    >>> from bezique.cards import parse_card
    >>> r = Rules.preset("rubicon")
    >>> royal, common = (next(i for i, k in enumerate(r.melds) if k.name == n)
    ...                  for n in ("royal marriage", "common marriage"))
    >>> ks, qs, kh, qh = (1 << parse_card(c) for c in ("KS", "QS", "KH", "QH"))
    >>> meld_names([(royal, ks | qs), (royal, kh | qh)], r, trump=-1)
    'the royal marriage in ♠ or ♥ (40)'
    >>> meld_names([(common, ks | qs), (common, kh | qh)], r, trump=2)
    'the common marriages in ♠ and ♥ (20 each)'
    >>> meld_names([(royal, kh | qh), (common, ks | qs)], r, trump=1)
    'the royal marriage (40) and the common marriage in ♠ (20)'
    """
    suits: dict[int, set[int]] = {}
    for kind, mask in melds:
        shape = rules.melds[kind].shape
        named = shape in ("marriage", "plain_sequence") or (
            trump < 0 and shape in ("royal", "sequence"))
        suits.setdefault(kind, set()).update({suit_of(next(bits(mask)) & 31)} if named else ())
    words = []
    for kind, found in suits.items():
        k = rules.melds[kind]
        signs = [SUIT_SYMBOLS[x] for x in sorted(found)]
        if len(signs) < 2:
            words.append(f"the {k.name}{''.join(' in ' + x for x in signs)} ({k.points})")
        elif either or k.shape in ("royal", "sequence"):  # (trumps not fixed: one of them)
            words.append(f"the {k.name} in {', '.join(signs[:-1])} or {signs[-1]} ({k.points})")
        else:
            words.append(f"the {k.name}s in {', '.join(signs[:-1])} and {signs[-1]} "
                         f"({k.points} each)")
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _blind(world: State, mate: int) -> State:
    """``world`` with the concealed hand of ``mate`` emptied: it is not the seat's to know."""
    probe = world.clone()
    hands = list(probe.hand_masks)
    hands[mate] = 0
    probe.hand_masks = tuple(hands)
    return probe


def table_meld(world: State, seat: int) -> tuple[int, int] | None:
    """The best meld (kind, physical cards) the partner of ``seat`` could declare from the
    cards on the table alone: some of its shown cards, with those of ``seat`` (RULES.md 9.5)."""
    mate = world.rules.partner(seat)
    probe = _blind(world, mate)
    found = [(probe.classify(m), m) for m in probe.legal_meld_masks(mate)
             if m & world.shown_masks[mate]]
    found = most_first(world.rules, [km for km in found if km[0] >= 0])
    return found[0] if found else None


def partner_hope(obs: Observation, world: State, mate: int) -> tuple[int, int, int] | None:
    """The partner's best meld of its shown cards and one or two it may hold (cards the seat
    has not seen), as (kind, its shown cards in it, cards missing), by :data:`CHANCE`."""
    avail = [0] * 32
    for c, n in obs.unseen().items():
        avail[c] = n
    rules = obs.rules
    found = [(k, real, miss) for k, real, miss in Judge(_blind(world, mate), mate, avail, 2).best()
             if real and (rules.melds[k].shape not in ("four", "eight") or real.bit_count() > 1)]
    return max(found, default=None, key=lambda g: (
        rules.melds[g[0]].points * CHANCE[g[2]], meld_key(rules, g[0], g[1])))
