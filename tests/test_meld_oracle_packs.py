"""Multi-pack meld legality (RULES.md 9.0.5) against an independent reading of the rules.

Rubicon, Six-pack and Eight-pack replace rules 3-4 of RULES.md 3.3 by R1 (no downgrade), R2 (no
repeat) and R3 (re-forming restores a broken meld), option ``reuse``; ``classic`` keeps 3.3.  This
file reads those rules again, from RULES.md 1, 3.2-3.3 and 9.0-9.10 only (not from the engine's
meld modules), plays random deals and, at every declaring point, compares the engine's legal
meld actions with the oracle's, up to copies that differ in nothing (same card, both concealed
or shown in the same earlier melds).  The oracle keeps its own log of the melds scored and of the
broken melds each one restored, and checks the engine's kind, points, trumps and restored melds
after every meld.  Every other deal is stacked (:func:`rich_deal`) so that trump quartets and
quintets and triple beziques occur; the policy re-forms, upgrades and plays shown cards often.

Readings the oracle makes (each from the text cited):
- R2 compares physical cards (9.9 example 6: KC1 QC2 after KC1 QC1 is a new marriage).
- R3 applies when the cards share one with an earlier meld of the *same kind*; the restored meld
  is broken, not restored before, has unplayed cards and all of them in the new meld; of several,
  the earliest (9.10); a restored meld stays restored, and the new meld can be restored in turn.
- Before trumps (9.0.2): a marriage or sequence is the royal marriage or trump sequence of its
  suit (40 / 250) and fixes trumps; no trump quartet; beziques only with the standard pair, or
  under ``bezique_fixes_trumps`` any queen with its paired jack, fixing the queen's suit (9.2);
  with ``bezique_pair = swap`` the pair is Q♠ J♦ until spades or diamonds are trumps (3.1).
- A card set is judged only as its highest kind (9.10).

The meld table is typed in from RULES.md 9.1-9.3; the engine's ``rules.melds`` is read only to
turn the kind index of ``meld_log`` into a name, to check that the engine scored the kind the
oracle expected.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from helpers import oracle_run

from bezique import Rules, State
from bezique import actions as act
from bezique.cards import bits, card_name

ACE, TEN, KING, QUEEN, JACK = 0, 1, 2, 3, 4
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
CLASS_A, CLASS_B, CLASS_C = 0, 1, 2  # marriages and sequences, beziques, quartets (3.1)
PAIRED = {SPADES: DIAMONDS, DIAMONDS: SPADES, HEARTS: CLUBS, CLUBS: HEARTS}  # 9.2, Q suit -> J suit
RANK_WORDS = {ACE: "aces", TEN: "tens", KING: "kings", QUEEN: "queens", JACK: "jacks"}
ANY_FOUR = {ACE: 100, KING: 80, QUEEN: 60, JACK: 40}  # 9.1 (tens: option four_tens, 9.2)
TRUMP_FOUR = {ACE: 1000, TEN: 900, KING: 800, QUEEN: 600, JACK: 400}  # 9.2
TRUMP_FIVE = {ACE: 2000, TEN: 1800, KING: 1600, QUEEN: 1200, JACK: 800}  # 9.3
BEZIQUES = ((1, "bezique", 40), (2, "double bezique", 500), (3, "triple bezique", 1500),
            (4, "quadruple bezique", 4500), (5, "quintuple bezique", 9000))  # 9.1, 9.3


def card(rank: int, suit: int) -> int:
    return suit * 8 + rank


@dataclass(frozen=True)
class Kind:
    """A kind of meld as RULES.md 9.0.3-9.3 names it; ``fixes`` is the suit that scoring it
    makes trumps (9.0.2, and 9.2 ``bezique_fixes_trumps``), or -1."""

    name: str
    cls: int
    points: int
    fixes: int = -1


# What a pattern needs: exact cards as (card, copies) pairs, or ("any", rank, n): n of a rank.
Need = tuple[Any, ...]


def patterns(r: Rules, trump: int) -> list[tuple[Kind, Need]]:
    """Every meld that can be formed now, read from RULES.md 9.0.2-9.3 and 9.7."""
    out: list[tuple[Kind, Need]] = []
    seq = (ACE, TEN, KING, QUEEN, JACK)
    for s in range(4):
        if trump < 0:  # the first marriage or sequence fixes trumps: 40 / 250 (9.0.2)
            royal, trump_seq = Kind("royal marriage", CLASS_A, 40, s), Kind("sequence", CLASS_A,
                                                                             250, s)
            out.append((royal, ((card(KING, s), 1), (card(QUEEN, s), 1))))
            out.append((trump_seq, tuple((card(k, s), 1) for k in seq)))
        elif s == trump:
            out.append((Kind("royal marriage", CLASS_A, 40),
                        ((card(KING, s), 1), (card(QUEEN, s), 1))))
            out.append((Kind("sequence", CLASS_A, 250), tuple((card(k, s), 1) for k in seq)))
        else:
            out.append((Kind("common marriage", CLASS_A, 20),
                        ((card(KING, s), 1), (card(QUEEN, s), 1))))
            out.append((Kind("plain sequence", CLASS_A, 150), tuple((card(k, s), 1) for k in seq)))
    # the bezique pair: Q♠ J♦ (standard), or the queen of trumps and the paired jack (trump);
    # before trumps, no class-B meld under `trump` unless bezique_fixes_trumps (9.2)
    pairs: list[tuple[int, int, int]] = []  # (queen, jack, suit it fixes)
    if r.bezique_pair == "trump":
        if trump >= 0:
            pairs.append((card(QUEEN, trump), card(JACK, PAIRED[trump]), -1))
        elif r.bezique_fixes_trumps:
            pairs += [(card(QUEEN, s), card(JACK, PAIRED[s]), s) for s in range(4)]
    elif r.bezique_pair == "swap" and trump in (SPADES, DIAMONDS):  # 3.1: Q♣ J♥ then
        pairs.append((card(QUEEN, CLUBS), card(JACK, HEARTS), -1))
    else:  # standard; swap with ♥ or ♣ trumps or none yet (3.1 swaps only for ♠ or ♦ trumps)
        pairs.append((card(QUEEN, SPADES), card(JACK, DIAMONDS), -1))
    top = 5 if r.variant == "eightpack" else 4
    for q, j, fixes in pairs:
        for n, name, pts in BEZIQUES[:top]:
            out.append((Kind(name, CLASS_B, pts, fixes), ((q, n), (j, n))))
    fours = dict(ANY_FOUR)
    if r.four_tens == 90:
        fours[TEN] = 90
    for rank, pts in fours.items():
        out.append((Kind(f"four {RANK_WORDS[rank]}", CLASS_C, pts), ("any", rank, 4)))
    if trump >= 0 and r.variant in ("sixpack", "eightpack"):
        for rank, pts in TRUMP_FOUR.items():
            out.append((Kind(f"four trump {RANK_WORDS[rank]}", CLASS_C, pts),
                        ((card(rank, trump), 4),)))
    if trump >= 0 and r.variant == "eightpack":
        for rank, pts in TRUMP_FIVE.items():
            out.append((Kind(f"five trump {RANK_WORDS[rank]}", CLASS_C, pts),
                        ((card(rank, trump), 5),)))
    return out


def multisets(sizes: list[int], n: int) -> Iterator[tuple[int, ...]]:
    """Every way to take ``n`` items from groups of these sizes (counts per group)."""
    if not sizes:
        if n == 0:
            yield ()
        return
    for take in range(min(n, sizes[0]), -1, -1):
        for rest in multisets(sizes[1:], n - take):
            yield (take, *rest)


@dataclass
class Meld:
    kind: Kind
    mask: int


@dataclass
class Oracle:
    """One seat's earlier melds, as the oracle saw them scored, and those R3 restored."""

    melds: list[Meld] = field(default_factory=list)
    restored: set[int] = field(default_factory=set)


def history(s: State, seat: int, oracle: Oracle, p: int) -> tuple[int, ...]:
    """A physical card's meld history: the earlier melds it was in ((-1,) for a concealed
    card, which can be in none while the stock lasts)."""
    if s.hand_masks[seat] >> p & 1:
        return (-1,)
    return tuple(i for i, m in enumerate(oracle.melds) if m.mask >> p & 1)


def signature(s: State, seat: int, oracle: Oracle, mask: int) -> tuple[tuple[int, tuple[int, ...]],
                                                                        ...]:
    """A meld mask up to copies that differ in nothing (same card, same meld history)."""
    return tuple(sorted((p & 31, history(s, seat, oracle, p)) for p in bits(mask)))


def candidates(s: State, seat: int, oracle: Oracle) -> dict[tuple[Any, ...], tuple[Kind, int]]:
    """Every card set the seat could lay down now, one per signature, with its highest kind
    (9.10: four trump aces are never "any four aces")."""
    groups: dict[int, list[list[int]]] = {}
    by_hist: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    for p in bits(s.hand_masks[seat] | s.shown_masks[seat]):
        by_hist.setdefault((p & 31, history(s, seat, oracle, p)), []).append(p)
    for (c, _), ps in sorted(by_hist.items()):
        groups.setdefault(c, []).append(ps)
    found: dict[tuple[Any, ...], tuple[Kind, int]] = {}
    for kind, need in patterns(s.rules, s.trump):
        if need[0] == "any":  # any four of a rank, suits may repeat (9.0.3)
            rank, n = int(need[1]), int(need[2])
            pools_needs = [([g for c in range(rank, 32, 8) for g in groups.get(c, [])], n)]
        else:
            pools_needs = [(groups.get(c, []), n) for c, n in need]
        for mask in masks(pools_needs):
            sig = signature(s, seat, oracle, mask)
            if sig not in found or found[sig][0].points < kind.points:
                found[sig] = (kind, mask)
    return found


def masks(pools_needs: list[tuple[list[list[int]], int]]) -> Iterator[int]:
    """The masks taking, for each (groups, n), n cards from those groups (first copies first)."""
    if not pools_needs:
        yield 0
        return
    (pools, n), rest = pools_needs[0], pools_needs[1:]
    for counts in multisets([len(g) for g in pools], n):
        here = 0
        for g, k in zip(pools, counts, strict=True):
            for p in g[:k]:
                here |= 1 << p
        for tail in masks(rest):
            yield here | tail


def restores(s: State, seat: int, oracle: Oracle, kind: Kind, mask: int) -> list[int]:
    """R3: the broken melds of this kind, not restored before, whose unplayed cards are all in
    ``mask`` (and at least one is: 9.10), earliest first."""
    held = s.hand_masks[seat] | s.shown_masks[seat]
    out = []
    for i, m in enumerate(oracle.melds):
        left = m.mask & held
        if (m.kind.name == kind.name and i not in oracle.restored and m.mask & ~held
                and left and not left & ~mask):
            out.append(i)
    return out


def reforms(oracle: Oracle, kind: Kind, mask: int) -> bool:
    """R3 applies: the cards share a card with an earlier meld of the same kind."""
    return any(m.kind.name == kind.name and m.mask & mask for m in oracle.melds)


def verdict(s: State, seat: int, oracle: Oracle, kind: Kind, mask: int) -> str:
    """Why these cards are no legal meld of this kind now (RULES.md 9.0.5, with 3.3 rules 5
    and 6, and 3.3 itself under ``reuse = classic``), or "" when they are one."""
    r = s.rules
    held = s.hand_masks[seat] | s.shown_masks[seat]
    earlier = oracle.melds
    if r.fresh_card == "every" and not mask & s.hand_masks[seat]:
        return "3.3 rule 5"
    if r.cross_class == "increase" and any(
            m.kind.cls != kind.cls and m.mask & mask and kind.points <= m.kind.points
            for m in earlier):
        return "3.3 rule 6"
    same = [m for m in earlier if m.kind.cls == kind.cls]
    if r.reuse == "classic":
        for m in same:
            if not m.mask & mask or (r.reform and m.mask & ~held):
                continue
            if m.mask & ~mask or kind.points <= m.kind.points:
                return "3.3 rule 3"
        used = 0
        for m in same:
            used |= m.mask
        return "" if mask & ~used else "3.3 rule 4"
    if any(m.mask & mask and m.kind.points > kind.points for m in same):
        return "R1"
    if any(m.kind.name == kind.name and m.mask == mask for m in earlier):
        return "R2"
    if r.reuse == "portland" and reforms(oracle, kind, mask) and not restores(
            s, seat, oracle, kind, mask):
        return "R3"
    return ""


def record(s: State) -> str:
    """The deal and its actions as a record for ``bezique replay FILE --json --legal``."""
    return json.dumps({
        "variant": s.rules.variant, "options": s.rules.options(),
        "deals": [{"dealer": s.dealer,
                   "hands": [[card_name(p & 31) for p in h] for h in s.deal_hands],
                   "turnup": None, "stock": [card_name(p & 31) for p in s.stock],
                   "actions": [t for _, t in s.history_strings()]}]})


@dataclass
class Counts:
    points: int = 0  # declaring points compared
    legal: int = 0  # legal melds the oracle found there
    reform: int = 0  # of which re-formings (R3 restores a broken meld)
    reformed: int = 0  # re-formings scored
    shown: int = 0  # melds scored with a shown card
    choice: int = 0  # re-formings that could have restored more than one broken meld
    twins: int = 0  # engine meld actions with the signature of another
    refused: Counter[str] = field(default_factory=Counter)  # candidates refused, by rule


def rich_deal(r: Rules, seed: int) -> State:
    """A deal whose first cards (hands and top of the stock) are every copy of A T K Q J of one
    suit, of the jack its queen pairs with, and of Q♠ J♦, shuffled: the first marriage almost
    surely makes that suit trumps, and trump quartets and quintets, sequences and triple or
    larger beziques become common."""
    rng = random.Random(seed)
    t = rng.randrange(4)
    focus = {card(k, t) for k in (ACE, TEN, KING, QUEEN, JACK)}
    focus |= {card(JACK, PAIRED[t]), card(QUEEN, SPADES), card(JACK, DIAMONDS)}
    cards = [p & 31 for p in r.deck]
    rng.shuffle(cards)
    cards.sort(key=lambda c: c not in focus)  # (a stable sort: each part stays shuffled)
    h = r.hand_size
    return State.from_cards(r, [cards[0:2 * h:2], cards[1:2 * h:2]], None, cards[2 * h:],
                            dealer=seed % 2)


def play_deal(r: Rules, seed: int, rng: random.Random, n: Counts) -> None:
    """Play one deal (every other seed a rich deal) and compare at each declaring point."""
    s = State.new_deal(r, seed=seed, dealer=seed % 2) if seed % 2 else rich_deal(r, seed)
    oracles = [Oracle(), Oracle()]
    turn_melds = 0
    while not s.is_terminal():  # (to the end: nothing may be declared in the last tricks)
        seat = s.current_player()
        actions = s.legal_actions()
        engine_melds = [a for a in actions if act.is_meld(a)]
        oracle = oracles[seat]
        choice: list[int] = []
        found: dict[Any, tuple[Kind, int]] = {}
        if s.phase != "declare":
            assert not engine_melds, (seed, s.phase, record(s))
        else:
            n.points += 1
            found = candidates(s, seat, oracle) if turn_melds < r.melds_per_trick else {}
            why = {sig: verdict(s, seat, oracle, kind, mask)
                   for sig, (kind, mask) in found.items()}
            n.refused.update(w for w in why.values() if w)
            want = {sig for sig, w in why.items() if not w}
            mine = {signature(s, seat, oracle, a >> 9) for a in engine_melds}
            n.twins += len(engine_melds) - len(mine)
            if mine != want:
                text = {sig: s.action_to_string(act.meld_action(found[sig][1]))
                        for sig in want - mine}
                extra = [s.action_to_string(a) for a in engine_melds
                         if signature(s, seat, oracle, a >> 9) not in want]
                pytest.fail(f"seed {seed}: engine lacks {sorted(text.values())}, engine also "
                            f"lists {sorted(extra)}; record: {record(s)}")
            n.legal += len(want)
            reforming = [a for a in engine_melds if r.reuse == "portland"
                         and reforms(oracle, *_kind_mask(s, seat, oracle, found, a))]
            n.reform += len({signature(s, seat, oracle, a >> 9) for a in reforming})
            if engine_melds and rng.random() < 0.9:
                choice = [_meld_policy(s, seat, oracle, found, rng, engine_melds, reforming)]
        if not choice:
            choice = [play_policy(s, seat, rng, actions)]
        a = choice[0]
        if act.is_meld(a):
            kind, mask = _kind_mask(s, seat, oracle, found, a)
            if r.reuse == "portland" and reforms(oracle, kind, mask):
                could = restores(s, seat, oracle, kind, mask)
                oracle.restored.add(could[0])  # 9.10: the one scored earliest
                n.choice += len(could) > 1
                n.reformed += 1
            n.shown += bool(mask & s.shown_masks[seat])
            before, trump = s.scores[seat], s.trump
            s.apply_action(a)
            oracle.melds.append(Meld(kind, mask))
            k, m = s.meld_log[seat][-1]
            assert (r.melds[k].name, m) == (kind.name, mask), (seed, record(s))
            assert s.scores[seat] - before == kind.points, (seed, record(s))
            assert s.trump == (kind.fixes if trump < 0 and kind.fixes >= 0 else trump), (
                seed, record(s))
            if r.reuse == "portland":
                assert s.restored_melds(seat) == sum(1 << i for i in oracle.restored), (
                    seed, record(s))
            turn_melds += 1
        else:
            s.apply_action(a)
            turn_melds = 0
        for seat2 in (0, 1):
            assert [m for _, m in s.meld_log[seat2]] == [m.mask for m in oracles[seat2].melds]


def _kind_mask(s: State, seat: int, oracle: Oracle, found: dict[Any, tuple[Kind, int]],
               a: int) -> tuple[Kind, int]:
    """The oracle's kind of the engine's meld action ``a``, and its mask."""
    return found[signature(s, seat, oracle, a >> 9)][0], a >> 9


def _meld_policy(s: State, seat: int, oracle: Oracle, found: dict[Any, tuple[Kind, int]],
                 rng: random.Random, melds: list[int], reforming: list[int]) -> int:
    """Re-form often, upgrade often (so that R1 has higher melds to guard), else any meld."""
    x = rng.random()
    if reforming and x < 0.5:
        return rng.choice(reforming)
    if x < 0.8:
        return max(melds, key=lambda a: _kind_mask(s, seat, oracle, found, a)[0].points)
    return rng.choice(melds)


def play_policy(s: State, seat: int, rng: random.Random, actions: list[int],
                shown_rate: float = 0.45) -> int:
    """Keep court cards and aces, play shown cards often (so melds break and can be re-formed)."""
    plays = [a for a in actions if act.is_play(a)]
    shown = [a for a in plays if s.shown_masks[seat] >> a & 1]
    junk = [a for a in plays if a & 7 in (TEN, 5, 6, 7) and not s.shown_masks[seat] >> a & 1]
    if shown and rng.random() < shown_rate:
        return rng.choice(shown)
    if junk and rng.random() < 0.9:
        return rng.choice(junk)
    return rng.choice(actions)


CASES: list[tuple[str, dict[str, Any]]] = [
    *[(v, {"reuse": reuse}) for v in ("rubicon", "sixpack", "eightpack")
      for reuse in ("portland", "loose", "classic")],
    ("rubicon", {"bezique_pair": "trump"}),
    ("rubicon", {"bezique_pair": "swap"}),
    ("sixpack", {"bezique_pair": "swap", "reuse": "loose"}),
    ("rubicon", {"bezique_pair": "trump", "bezique_fixes_trumps": True, "reuse": "loose"}),
    ("sixpack", {"bezique_pair": "standard"}),
    ("eightpack", {"bezique_pair": "standard", "reuse": "loose"}),
    ("sixpack", {"bezique_fixes_trumps": True, "four_tens": 90}),
    ("eightpack", {"bezique_fixes_trumps": True, "reuse": "classic", "reform": True}),
    ("sixpack", {"fresh_card": "every", "cross_class": "increase"}),
    ("rubicon", {"melds_per_trick": 2, "reuse": "classic", "reform": True}),
    ("eightpack", {"melds_per_trick": 3}),
]


def run(variant: str, options: dict[str, Any], seeds: range) -> Counts:
    return oracle_run(variant, options, seeds, play_deal, Counts())


DEALS = {"rubicon": 60, "sixpack": 30, "eightpack": 20}
IDS = [f"{v}-{'-'.join(f'{k}={x}' for k, x in o.items())}" for v, o in CASES]


def check(variant: str, options: dict[str, Any], n: Counts) -> None:
    """The deals reached what the test is about: many declaring points with melds to judge,
    shown cards reused, candidates refused by each rule, and (portland) many re-formings."""
    reuse = options.get("reuse", "portland")
    assert n.points > 1000 and n.legal > 500 and n.shown > 50, n
    assert n.twins == 0, n  # one action per set of copies that differ in nothing (RULES.md 7)
    if reuse == "portland":
        assert n.reform > 100 and n.reformed > 100 and n.refused["R3"] > 100, n
    if reuse != "classic" and "fresh_card" not in options:  # (rule 5 refuses most first)
        assert n.refused["R2"] > 100, n
    if reuse != "classic" and variant != "rubicon":
        assert n.refused["R1"] > 0, n  # (Rubicon's nine cards rarely make a double)
    if reuse == "classic":
        assert n.refused["3.3 rule 3"] > 100, n
    if variant == "eightpack" and reuse == "portland":
        assert n.choice > 0, n  # R3 had several broken melds to restore (9.10: the earliest)


@pytest.mark.parametrize(("variant", "options"), CASES, ids=IDS)
def test_multipack_meld_legality_matches_an_independent_reading(
        variant: str, options: dict[str, Any]) -> None:
    check(variant, options, run(variant, options, range(DEALS[variant])))


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "options"), CASES, ids=IDS)
def test_multipack_meld_legality_over_many_more_deals(
        variant: str, options: dict[str, Any]) -> None:
    check(variant, options, run(variant, options, range(1000, 1000 + 2 * DEALS[variant])))
