"""Melds: which cards form a meld, and whether a seat may score it now (RULES.md 3.3).

This module owns the answer to "why was my meld refused?".  Everything here works on ints: a
physical card is a bit of a mask (see :mod:`bezique.cards`), a seat's melds so far are its *log*,
a tuple of ``(meld kind index, physical mask)`` in the order scored, and ``used`` holds, per meld
class, every physical card that has been in a meld of that class.

- :func:`quick_patterns` (in :mod:`bezique.meldfilter`, with the search's first filter, the
  copies each pattern needs in four table look-ups) makes the variant's meld table concrete
  under a trump suit.
- :func:`classify` names the meld a set of cards forms (a meld is named by its cards alone).
- :func:`meld_problem` judges one meld against the seat's earlier melds (rules 3–6 of RULES.md
  3.3, with the options ``reform``, ``cross_class`` and ``fresh_card``) and words the reason a
  player reads when it is refused.  The judgement takes the holding and the earlier melds as plain
  values, so a variant can pass a partner's shown cards and both partners' logs (RULES.md 9.5),
  and another ``reuse`` reading (RULES.md 9.0.5) is one more judge beside this one.
- :func:`legal_meld_masks` lists every legal meld of a holding (the meld search of the declaring
  turn), choosing among physical copies so that the choice never reveals a hidden card.

>>> from bezique.rules import Rules
>>> from bezique.cards import parse_card
>>> r = Rules.preset("bezique")
>>> pats = quick_patterns(r, 1)  # hearts are trumps
>>> qs, jd = parse_card("QS"), parse_card("JD")
>>> r.melds[classify(r, pats, 1 << qs | 1 << jd)].name
'bezique'
>>> meld_problem(r, classify(r, pats, 1 << qs | 1 << jd), 1 << qs | 1 << jd,
...              hand=1 << qs | 1 << jd, shown=0, used=(0, 0, 0), log=()) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import (
    BITS,
    CARD_MASK32,
    QUEEN,
    bits,
    card_symbol,
    fold_copies,
    make_card,
    mask_of,
    rank_of,
    suit_of,
)
from .copywords import copies_held
from .meldfilter import MeldFilter, QuickPattern, copy_levels
from .meldfilter import quick_patterns as quick_patterns  # (re-exported: the module's doctest)
from .meldfilter import suit_filter as suit_filter
from .rules import CLASS_NAMES, Rules

ILLEGAL = "illegal meld"  # the unworded reason of the meld search

Log = tuple[tuple[int, int], ...]  # a seat's melds: (meld kind index, physical mask), in order

_PAIRS = ("pair", "double_pair", "beziques")  # the bezique melds


def _held_enough(levels: list[int], reqs: tuple[tuple[int, int], ...]) -> bool:
    """Every (cards, need) of ``reqs``: at least ``need`` copies held among those cards."""
    for m, need in reqs:
        if not m & (m - 1):  # one card: held at least ``need`` times
            if need > len(levels) or not levels[need - 1] & m:
                return False
        else:
            n = 0
            for lv in levels:
                n += (lv & m).bit_count()
            if n < need:
                return False
    return True


def fixed_trump(rules: Rules, kind: int, cards: Iterable[int]) -> int:
    """The suit a meld of ``kind`` made of ``cards`` fixes as trumps while none are fixed
    (RULES.md 9.0.2, 9.2): a marriage or sequence, or a bezique where the pair follows trumps,
    fixes its queen's suit; any other meld fixes nothing (-1)."""
    k = rules.melds[kind]
    if k.shape in ("royal", "sequence") or (k.shape in _PAIRS and rules.bezique_pair == "trump"):
        return next(suit_of(c) for c in cards if rank_of(c) == QUEEN)
    return -1


def classify(rules: Rules, patterns: tuple[QuickPattern, ...], mask: int) -> int:
    """The meld kind index whose pattern the physical cards ``mask`` form, or -1; of several
    kinds (four aces of trumps are also four aces) the one that scores most (RULES.md 9.10)."""
    cards = [p & 31 for p in bits(mask)]
    best = -1
    for q in patterns:
        if not mask & ~q[2] and q[0].matches(cards):  # q[2]: every copy of its cards
            k = q[0].kind
            if best < 0 or rules.melds[k].points > rules.melds[best].points:
                best = k
    return best


def matching_patterns(patterns: tuple[QuickPattern, ...], mask: int) -> tuple[QuickPattern, ...]:
    """The patterns the physical cards ``mask`` form: the only ones under which the meld search
    can list ``mask`` (so searching them alone tells whether it is listed)."""
    cards = [p & 31 for p in bits(mask)]
    return tuple(q for q in patterns if not mask & ~q[2] and q[0].matches(cards))


# ---------------------------------------------------------------------- copies and histories


def membership(log: Log, p: int) -> tuple[int, ...]:
    """The indices of the melds in ``log`` that physical card ``p`` has been part of."""
    bit = BITS[p]  # (one operation on a long mask a meld, not a shift and a test)
    return tuple(i for i, (_, m) in enumerate(log) if m & bit)


def shown_groups(log: Log, shown: int, card: int, copies: int) -> list[list[int]]:
    """The shown copies of ``card`` grouped by meld history, groups in canonical order (the
    copy whose first meld came first leads): the ``*1``/``*2`` numbering of RULES.md 7."""
    return history_groups(log, copies_held(shown, card, copies))


def history_groups(log: Log, qs: list[int]) -> list[list[int]]:
    """:func:`shown_groups` of the shown copies ``qs`` of one card (physical, lowest first)."""
    if len(qs) < 2:  # (no copy shown, or one: no history to tell apart)
        return [qs] if qs else []
    groups: dict[tuple[int, ...], list[int]] = {}
    for q in qs:
        groups.setdefault(membership(log, q), []).append(q)
    return [groups[k] for k in sorted(groups)]


def known_first(qs: list[int], known: int) -> list[int]:
    """Concealed copies of one card, those another seat knows of (``known``) first: using one
    of them reveals nothing, so the copy chosen never depends on cards others have not seen."""
    return sorted(qs, key=lambda q: not known >> q & 1) if known else qs


def known_concealed(mask: int, hand: int, known_own: int, copies: int) -> int:
    """``mask`` with each concealed copy the others do not know of replaced, where possible, by
    a known concealed copy of the same card (see :func:`known_first`)."""
    spare = known_own & hand & ~mask
    for p in bits(mask & hand & ~known_own):
        if not spare:
            break
        for q in range(p & 31, 32 * copies, 32):
            if spare >> q & 1:
                mask = (mask & ~(1 << p)) | (1 << q)
                spare &= ~(1 << q)
                break
    return mask


def _groups_for(card: int, hand: int, shown: int, log: Log, known: int,
                copies: int, mate: int = 0, words: list[list[int]] | None = None
                ) -> list[list[int]]:
    """Concealed copies (one group) then shown copies by history, for meld enumeration; the
    partner's shown copies (``mate``, a part of ``shown``) are grouped apart from the seat's own.
    ``words``: the words of ``hand`` and of ``shown`` (no ``mate``), to read the copies off."""
    out = []
    if words is not None:  # (no operation on a long mask)
        hw, sw = words
        conc = [32 * k + card for k in range(copies) if hw[k] >> card & 1]
        if conc:
            out.append(known_first(conc, known))
        if shown:
            qs = [32 * k + card for k in range(copies) if sw[k] >> card & 1]
            if len(qs) > 1:
                out.extend(history_groups(log, qs))
            elif qs:  # (one copy shown: its own group, see history_groups)
                out.append(qs)
        return out
    conc = copies_held(hand, card, copies)
    if conc:
        conc = known_first(conc, known)
        out.append(conc)
    if shown:
        if mate:
            out.extend(shown_groups(log, shown & ~mate, card, copies))
            out.extend(shown_groups(log, mate, card, copies))
        else:
            out.extend(shown_groups(log, shown, card, copies))
    return out


def takings(groups: list[list[int]], n: int) -> list[int]:
    """Every way to take ``n`` copies from ``groups``, the first copies of each group (physical
    cards), as masks: by the number taken from the first group, most first, then from the
    second, and so on.

    >>> takings([[0, 32], [64]], 2) == [1 | 1 << 32, 1 | 1 << 64]
    True
    """
    out: list[int] = []
    left = [0] * (len(groups) + 1)  # left[i]: the copies in groups[i:]
    for i in range(len(groups) - 1, -1, -1):
        left[i] = left[i + 1] + len(groups[i])
    _take(groups, left, n, 0, 0, out)
    return out


def _take(groups: list[list[int]], left: list[int], n: int, start: int, taken: int,
          out: list[int]) -> None:
    """:func:`takings` of ``groups[start:]``, each or-ed with ``taken``, appended to ``out``."""
    if not n:
        out.append(taken)
        return
    if left[start] < n:  # (too few copies left: no way, and none past ``groups``)
        return
    g = groups[start]
    k = n if n < len(g) else len(g)
    for j in range(k):
        taken |= BITS[g[j]]
    while k >= 0:  # (``taken`` holds the group's first ``k`` copies)
        _take(groups, left, n - k, start + 1, taken, out)
        if k:
            taken ^= BITS[g[k - 1]]
        k -= 1


# ---------------------------------------------------------------------- the meld search


def legal_meld_masks(rules: Rules, patterns: tuple[QuickPattern, ...], hand: int, shown: int,
                     used: tuple[int, ...], log: Log, known: int, restored: int = 0,
                     mate: int = 0, quick: MeldFilter | None = None, passing: int = -1,
                     words: list[list[int]] | None = None) -> list[int]:
    """Every legal meld (physical mask) of a seat holding ``hand`` concealed and ``shown`` on
    the table, with earlier melds ``log`` and class masks ``used``; ``known`` is every concealed
    card some other seat knows of (those copies are used first); ``restored`` marks the broken
    melds of ``log`` already restored (``reuse = portland``); ``mate`` marks the cards of
    ``shown`` that are the partner's (see :func:`partner_melds`); ``quick``, the
    :class:`~bezique.meldfilter.MeldFilter` of ``patterns``, is their filter in a few table
    look-ups (``passing``: its answer for ``hand | shown`` when the caller has it); ``words``,
    three packs and more without ``mate``: the words of ``hand`` and ``shown`` (see
    :mod:`bezique.copywords`), where the copies are read off without long mask operations."""
    copies = rules.copies
    held_phys = hand | shown
    if quick is not None:
        if passing < 0:
            passing = quick.passing(held_phys)
        if not passing:
            return []
        cands = quick.candidates(passing)
        if copies == 2:
            held = (held_phys | held_phys >> 32) & CARD_MASK32
        elif words is not None:
            held = 0
            for w in words[0]:
                held |= w
            for w in words[1]:
                held |= w
        else:
            held = fold_copies(held_phys, copies)
    elif copies == 2:
        held = (held_phys | held_phys >> 32) & CARD_MASK32
        # cheap rejection of most patterns at once: the cards needed once and twice
        miss1 = ~held  # cards not held; held once but not twice:
        miss2 = ~(held_phys & held_phys >> 32 & CARD_MASK32)
        cands = [q for q in patterns if not (q[4] & miss1 or q[5] & miss2)
                 and (held_phys & q[2]).bit_count() >= q[6]]
    else:
        held = fold_copies(held_phys, copies)
        # the cards needed at least once, then "n of a rank" by count, before counting copies
        miss1 = ~held
        cands = [q for q in patterns if not q[7] & miss1
                 and (not q[6] or (held_phys & q[2]).bit_count() >= q[6])]
        if cands:
            levels = copy_levels(held_phys, copies)
            cands = [q for q in cands if _held_enough(levels, q[3])]
    classic = rules.reuse == "classic"
    every = rules.fresh_card == "every" and classic
    found: list[int] = []
    logged = -1  # (not classic: the cards of every meld of ``log``, once needed)
    for pat, cls, pm, _, _, _, _, _ in cands:
        # rule 4 (a card new to the class), fresh card
        avail = held_phys & pm
        if (classic and not avail & ~used[cls] and not (rules.second_double and cls == 1)) or (
            every and not avail & hand
        ):
            continue
        n = pat.n  # (the pattern's fields read once: an interpreted object)
        if n:
            cards = [make_card(pat.rank, s) for s in range(4)]
            if sum(1 for c in cards if held >> c & 1) < (4 if pat.distinct or n == 8 else 1):
                continue
            per = [_groups_for(c, hand, shown, log, known, copies, mate, words) for c in cards]
            if pat.distinct:
                combos: list[list[list[int]]] = [[]]
                for gs in per:
                    combos = [[*cm, g[:1]] for cm in combos for g in gs]
                masks = [mask_of(q for part in cm for q in part) for cm in combos]
            else:
                flat = [g for gs in per for g in gs]
                total = 0
                for g in flat:
                    total += len(g)
                if total < n:
                    continue
                masks = takings(flat, n)
        else:
            if any(not held >> c & 1 for c, _ in pat.counts):
                continue
            masks = [0]
            ok = True
            for c, need in pat.counts:
                gs = _groups_for(c, hand, shown, log, known, copies, mate, words)
                if need == 1:  # (a card held is in a group: what takings gives for 1)
                    parts = [BITS[g[0]] for g in gs]
                elif sum([len(g) for g in gs]) < need:
                    ok = False
                    break
                else:
                    parts = takings(gs, need)
                masks = [m | part for m in masks for part in parts]
            if not ok:
                continue
        kind = pat.kind
        for m in masks:
            if classic:
                if meld_problem(rules, kind, m, hand, shown, used, log, explain=False) is None:
                    found.append(m)
                continue
            if logged < 0:
                logged = 0
                for _, mm in log:
                    logged |= mm
            # (sharing no card with the log and with one from the hand, it passes reuse_problem)
            if ((not m & logged and m & hand)
                    or reuse_problem(rules, kind, m, hand, shown, log, restored, False)[0]
                    is None):
                found.append(m)
    # (the same cards can form two patterns, e.g. four queens of diamonds in Six-pack are "four
    # queens" and the quartet of trumps: one meld, scored as its highest kind, listed once)
    return found if len(found) < 2 else list(dict.fromkeys(found))


def partner_melds(rules: Rules, patterns: tuple[QuickPattern, ...], hand: int, shown: int,
                  mate_shown: int, used: tuple[int, ...], log: Log, known: int,
                  quick: MeldFilter | None = None) -> list[int]:
    """Partnership (RULES.md 9.5): every meld a seat may declare with its own cards and its
    partner's shown cards (``mate_shown``), judged against the side's melds together (``log``
    and ``used`` are the side's) as if one player held both.  Project readings: the seat adds
    at least one card of its own, and under ``partner_bezique = own`` a double or triple bezique
    is all one player's cards."""
    own = hand | shown
    out = []
    for m in legal_meld_masks(rules, patterns, hand, shown | mate_shown, used, log, known,
                              mate=mate_shown, quick=quick):
        if not m & own:
            continue
        if m & mate_shown and rules.partner_bezique == "own":
            k = rules.melds[classify(rules, patterns, m)]
            if k.shape == "beziques" and k.count >= 2:
                continue
        out.append(m)
    return out


# ---------------------------------------------------------------------- the class rules


def meld_problem(rules: Rules, kind: int, mask: int, hand: int, shown: int,
                 used: tuple[int, ...], log: Log, explain: bool = True) -> str | None:
    """Why the meld ``mask`` of ``kind`` breaks RULES.md 3.3 rules 3-6 for a seat holding
    ``hand`` and ``shown`` with earlier melds ``log``, or None if it is legal.

    With ``explain=False`` (the meld search) the reason is not worded, only signalled."""
    k = rules.melds[kind]
    cls = k.cls
    held = hand | shown
    waived = -1
    if rules.second_double and k.shape == "beziques" and k.count == 2:
        waived = _second_double(rules, mask, held, log)
    for i, (mk, mm) in enumerate(log):
        if not mm & mask or i == waived:
            continue
        m = rules.melds[mk]
        if m.cls == cls:
            if rules.reform and mm & held != mm:
                continue
            if not explain and (mm & mask != mm or k.points <= m.points):
                return ILLEGAL
            if mm == mask:
                return f"you have already scored that {m.name}"
            if mm & mask != mm:
                if rules.second_double and waived < 0 and m.count == 2 == k.count and (
                        mm & held == mm and k.shape == "beziques" == m.shape):
                    return (f"a second double takes one {cards_sym(mm)} pair scored "
                            f"together from a double you still hold whole, and a pair never "
                            f"in a double")
                return _subset_problem(held, mm, mask, m.name, k.name)
            if k.points <= m.points:
                return (
                    f"a {k.name} ({k.points}) does not score more than your {m.name} "
                    f"({m.points}) made of the same cards"
                )
        elif rules.cross_class == "increase" and k.points <= m.points:
            if not explain:
                return ILLEGAL
            return (
                f"with cross_class = increase a {k.name} ({k.points}) must score more than "
                f"your {m.name} ({m.points}), which shares {cards_sym(mm & mask)}"
            )
    if not mask & ~used[cls] and waived < 0:
        if not explain:
            return ILLEGAL
        return (
            f"every card of that {k.name} has already been in a class {CLASS_NAMES[cls]} "
            "meld; a new meld needs a new card"
        )
    if rules.fresh_card == "every" and not mask & hand:
        return "each meld needs at least one card from your hand, not only cards on the table"
    return None


def _second_double(rules: Rules, mask: int, held: int, log: Log) -> int:
    """RULES.md 9.4's second double: the index in ``log`` of the intact double whose rule 3 the
    double ``mask`` is excused from, or -1.  ``mask`` must be one pair of that double (a Q and
    a J declared together: both first met in the same meld of the class, the single the double
    grew from, the rest of it, or the whole double declared at once) and a pair never in a
    double; the new pair then counts as new for rule 4.  With ``reform`` a broken double is no
    obstacle here, as it is none to rule 3."""
    doubles = [i for i, (mk, _) in enumerate(log)
               if rules.melds[mk].shape == "beziques" and rules.melds[mk].count == 2]
    in_doubles = 0
    for i in doubles:
        in_doubles |= log[i][1]
    sharing = [i for i in doubles if log[i][1] & mask
               and not (rules.reform and log[i][1] & held != log[i][1])]
    if len(sharing) != 1:
        return -1
    i = sharing[0]
    dm = log[i][1]
    pair, rest = mask & dm, mask & ~dm
    if dm & held != dm or pair.bit_count() != 2 or rest.bit_count() != 2 or rest & in_doubles:
        return -1
    if len({p & 31 for p in bits(pair)}) != 2:  # one queen and one jack
        return -1
    cls = rules.melds[log[i][0]].cls
    first = {next(j for j, (mk, mm) in enumerate(log)
                  if rules.melds[mk].cls == cls and mm >> p & 1) for p in bits(pair)}
    if len(first) != 1:
        return -1  # not a pair declared together
    return i


def reuse_problem(rules: Rules, kind: int, mask: int, hand: int, shown: int, log: Log,
                  restored: int, explain: bool = True) -> tuple[str | None, int]:
    """The multi-pack judge of RULES.md 9.0.5 (``reuse = portland`` or ``loose``), which takes
    the place of rules 3-4 of 3.3: (why the meld breaks it or None, the index in ``log`` of the
    broken meld it restores or -1).

    R1 no downgrade: no card may have been in an earlier meld of the class scoring more.  R2 no
    repeat: not the same cards as an earlier meld of the kind.  R3 (``portland`` only): sharing
    a card with an earlier meld of the kind, it must restore the earliest broken one of them,
    not restored before, whose unplayed cards are all in it (``restored`` marks those done).
    """
    kinds = rules.melds
    k = kinds[kind]
    cls, points = k.cls, k.points  # (read once: interpreted objects)
    sharing: list[int] = []
    for i, (mk, mm) in enumerate(log):
        if not mm & mask:
            continue
        m = kinds[mk]
        if m.cls == cls and m.points > points:
            if not explain:
                return ILLEGAL, -1
            return (f"{cards_sym(mm & mask)} has been in your {m.name} ({m.points}): a meld of "
                    f"its class may not score less ({k.name}, {k.points})"), -1
        if mk == kind:
            if mm == mask:
                return (ILLEGAL if not explain else f"you have already scored that {m.name}"), -1
            sharing.append(i)
        elif m.cls != cls and rules.cross_class == "increase" and points <= m.points:
            if not explain:
                return ILLEGAL, -1
            return (f"with cross_class = increase a {k.name} ({k.points}) must score more than "
                    f"your {m.name} ({m.points}), which shares {cards_sym(mm & mask)}"), -1
    restore = -1
    if sharing and rules.reuse == "portland":
        held = hand | shown
        for i in sharing:
            mm = log[i][1]
            if mm & held != mm and not restored >> i & 1 and not mm & held & ~mask:
                restore = i
                break
        if restore < 0:
            if not explain:
                return ILLEGAL, -1
            return (f"that {k.name} shares {cards_sym(mask & log[sharing[0]][1])} with your "
                    f"earlier {k.name}; it may only restore a broken one, not restored before, "
                    "whose unplayed cards are all in it"), -1
    if rules.fresh_card == "every" and not mask & hand:
        return ("each meld needs at least one card from your hand, not only cards on the "
                "table"), -1
    return None, restore


def _subset_problem(held: int, old: int, new: int, old_name: str, new_name: str) -> str:
    if old & held != old:
        gone = cards_sym(old & ~held)
        return f"your {old_name} was broken when {gone} was played; it cannot be re-formed"
    sym = cards_sym(old & new)
    if "marriage" in old_name and "marriage" in new_name:
        return f"that {sym} has already been married"
    return (
        f"the {sym} is in your {old_name}: in one class cards may be added to a meld, "
        "never taken from it"
    )


def sort_key(c: int) -> tuple[int, int]:
    """Canonical card order: by suit (S H D C), then rank high to low."""
    return (suit_of(c), rank_of(c))


def cards_sym(mask: int) -> str:
    """The distinct cards of a physical mask as symbols, in canonical order (``Q♠ J♦``)."""
    cards = sorted({p & 31 for p in bits(mask)}, key=sort_key)
    return " ".join(card_symbol(c) for c in cards)
