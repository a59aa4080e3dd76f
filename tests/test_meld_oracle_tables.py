"""Three- and four-handed meld legality (RULES.md 9.4-9.5) against an independent reading.

Three-handed Bezique (``bezique3``) and four-handed Bezique (``bezique4``) keep the classic meld
rules of RULES.md 3.3 and add the triple bezique and the *second double* (9.4); four-handed play
in partnership (9.5) lets a player add their own cards to the partner's shown cards (``QS+``),
judges every meld against both partners' earlier melds together, passes the declaring turn with
``offer``, and under ``partner_bezique = own`` counts a double or triple only when all its cards
are one player's.  This file reads those rules again, from RULES.md 1, 2.3, 3, 6 and 9.4-9.10
only (not from the engine's meld modules), plays random and stacked deals and, at every declaring
point (the trick winner's and, after an ``offer``, the partner's), compares the engine's legal
meld actions with the oracle's, up to copies that differ in nothing (same card, same place:
the declarer's hand, the declarer's table or the partner's table, and same meld history).  The
oracle keeps its own log of the melds each side scored and checks the engine's kind, points
and log after every meld.  The model is tests/test_meld_oracle_packs.py, whose card
numbering, ``Kind`` and mask enumeration it shares (none of them reads the engine).

Readings the oracle makes (each from the text cited):
- A side is one seat, or in a partnership two partners (9.5): its melds form one log, and every
  rule of 3.3 that speaks of "earlier melds" reads that log, whoever declared them.  A meld is
  intact while the side still holds (hand or table) every card of it.
- The cards of a meld are in the declarer's hand or on the declarer's table or, in a partnership,
  on the partner's table; at least one is the declarer's own (9.5: "a player may add their own
  cards to the partner's shown cards").
- ``partner_bezique = own``: a double or triple has all its cards from the declarer (9.5, "one
  player's"; the partner's alone is excluded by the previous reading).
- Triple (9.4): 1500, six cards held together, under 3.3 as it stands; "double + single" and "a
  bezique added to a double" are the upward additions of rule 3, and example 18 shows rule 4
  still applies (no card new to class B: no triple).
- Second double (9.4): a double made of one queen and one jack of an earlier intact double D of
  the side, declared together (they entered the beziques in the same meld: the single D grew
  from, the pair added to it, or D laid down at once), plus a queen and a jack never in a
  double: rule 3 is waived for that one D and rule 4 holds.  Every other earlier meld sharing
  a card still follows rule 3 (a single bezique must lie wholly in it; another double holding
  the same pair refuses it, unless ``reform`` ignores it because it is broken).
- Timing (2.3, 3.3 rule 1, 9.5): ``melds_per_trick`` melds in one declaring turn of the side
  (the winner's and, after ``offer``, the partner's), ``exchange`` and ``seven`` using one each
  under ``seven_counts_as_meld``; ``offer`` only as the winner's first action (before any meld,
  ``exchange`` or ``seven``: "the trick winner declares or plays offer"), and never back.
- Rule 5 (``fresh_card = every``) asks for a card from the declarer's own concealed hand.

The meld table is typed in from RULES.md 3.1 and 9.4; the engine's ``rules.melds`` is read only
to turn the kind index of ``meld_log`` into a name.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from helpers import oracle_run
from test_meld_oracle_packs import Kind, card, masks, multisets, play_policy

from bezique import Rules, State
from bezique import actions as act
from bezique.cards import bits, card_name

ACE, TEN, KING, QUEEN, JACK = 0, 1, 2, 3, 4
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
CLASS_A, CLASS_B, CLASS_C = 0, 1, 2  # marriages and sequence, beziques, fours (3.1)
RANK_WORDS = {ACE: "aces", KING: "kings", QUEEN: "queens", JACK: "jacks"}
FOURS = {ACE: 100, KING: 80, QUEEN: 60, JACK: 40}  # 3.1
BEZIQUES = ((1, "bezique", 40), (2, "double bezique", 500), (3, "triple bezique", 1500))  # 9.4
HAND, TABLE, PARTNER = "hand", "table", "partner"  # where a card of a meld lies


# What a pattern needs: (card, copies) pairs.
Need = tuple[tuple[int, int], ...]


def bezique_pair(r: Rules, trump: int) -> tuple[int, int]:
    """Q♠ J♦, or with ``bezique_pair = swap`` and ♠ or ♦ trumps Q♣ J♥ (3.1)."""
    if r.bezique_pair == "swap" and trump in (SPADES, DIAMONDS):
        return card(QUEEN, CLUBS), card(JACK, HEARTS)
    return card(QUEEN, SPADES), card(JACK, DIAMONDS)


def patterns(r: Rules, trump: int) -> list[tuple[Kind, Need]]:
    """Every meld of RULES.md 3.1 with 9.4's triple (and no quadruple, 9.5), trumps known (the
    turn-up fixes them at a table)."""
    out: list[tuple[Kind, Need]] = []
    for s in range(4):
        marriage = Kind("royal marriage", CLASS_A, 40) if s == trump else Kind(
            "common marriage", CLASS_A, 20)
        out.append((marriage, ((card(KING, s), 1), (card(QUEEN, s), 1))))
    out.append((Kind("sequence", CLASS_A, 250),
                tuple((card(k, trump), 1) for k in (ACE, TEN, KING, QUEEN, JACK))))
    q, j = bezique_pair(r, trump)
    for n, name, pts in BEZIQUES:
        out.append((Kind(name, CLASS_B, pts), ((q, n), (j, n))))
    for rank, pts in FOURS.items():
        kind = Kind(f"four {RANK_WORDS[rank]}", CLASS_C, pts)
        if r.fours_distinct_suits:
            out.append((kind, tuple((card(rank, s), 1) for s in range(4))))
        else:  # any four of the rank, suits may repeat: every split over the suits
            for counts in multisets([4, 4, 4, 4], 4):
                out.append((kind, tuple((card(rank, s), n) for s, n in enumerate(counts) if n)))
    return out


@dataclass
class Meld:
    kind: Kind
    mask: int
    declarer: int


@dataclass
class Table:
    """The oracle's view of a deal: each side's log of melds, as it saw them scored."""

    r: Rules
    logs: dict[int, list[Meld]] = field(default_factory=dict)

    def partnered(self) -> bool:
        return self.r.nplayers == 4 and bool(self.r.partnership)

    def mate(self, seat: int) -> int:
        return (seat + 2) % 4 if self.partnered() else -1

    def side(self, seat: int) -> int:
        return seat % 2 if self.partnered() else seat

    def log(self, seat: int) -> list[Meld]:
        return self.logs.setdefault(self.side(seat), [])

    def own(self, s: State, seat: int) -> int:
        return s.hand_masks[seat] | s.shown_masks[seat]

    def reach(self, s: State, seat: int) -> int:
        """The cards a meld of ``seat`` may use now (9.5: the partner's shown cards too)."""
        mate = self.mate(seat)
        return self.own(s, seat) | (s.shown_masks[mate] if mate >= 0 else 0)

    def held(self, s: State, seat: int) -> int:
        """What the side still holds: a meld is intact while every card of it is here."""
        mate = self.mate(seat)
        return self.own(s, seat) | (self.own(s, mate) if mate >= 0 else 0)

    def place(self, s: State, seat: int, p: int) -> str:
        if s.hand_masks[seat] >> p & 1:
            return HAND
        return TABLE if s.shown_masks[seat] >> p & 1 else PARTNER

    def history(self, s: State, seat: int, p: int) -> tuple[str, tuple[int, ...]]:
        return self.place(s, seat, p), tuple(
            i for i, m in enumerate(self.log(seat)) if m.mask >> p & 1)

    def signature(self, s: State, seat: int, mask: int) -> tuple[Any, ...]:
        """A meld mask up to copies that differ in nothing (card, place, meld history)."""
        return tuple(sorted((p & 31, self.history(s, seat, p)) for p in bits(mask)))


def candidates(s: State, seat: int, t: Table) -> dict[tuple[Any, ...], tuple[Kind, int]]:
    """Every card set the seat could lay down now, one per signature, with its kind."""
    groups: dict[int, list[list[int]]] = {}
    by_hist: dict[tuple[int, Any], list[int]] = {}
    for p in bits(t.reach(s, seat)):
        by_hist.setdefault((p & 31, t.history(s, seat, p)), []).append(p)
    for (c, _), ps in sorted(by_hist.items()):
        groups.setdefault(c, []).append(ps)
    found: dict[tuple[Any, ...], tuple[Kind, int]] = {}
    for kind, need in patterns(s.rules, s.trump):
        for mask in masks([(groups.get(c, []), n) for c, n in need]):
            found[t.signature(s, seat, mask)] = (kind, mask)
    return found


def second_double(s: State, seat: int, t: Table, kind: Kind, mask: int) -> set[int]:
    """9.4's second double: the earlier intact double whose rule 3 is waived (the first one
    scored, if the pair is in several), when ``mask`` is one queen and one jack of it plus a
    queen and a jack never in a double; else an empty set.  Rule 3 still holds for every
    other earlier meld ("waived for that earlier double"), so a pair that lies in two intact
    doubles makes no second double."""
    if kind.name != "double bezique":
        return set()
    log, held = t.log(seat), t.held(s, seat)
    doubles = [(i, m.mask) for i, m in enumerate(log) if m.kind.name == "double bezique"]
    in_double = 0
    for _, m in doubles:
        in_double |= m
    q, _ = bezique_pair(s.rules, s.trump)
    queens = [p for p in bits(mask) if p & 31 == q]
    jacks = [p for p in bits(mask) if p & 31 != q]
    for qa in queens:
        for ja in jacks:
            pair = 1 << qa | 1 << ja
            if (mask & ~pair) & in_double or entered(log, qa) != entered(log, ja):
                continue
            for i, m in doubles:
                if not pair & ~m and not m & ~held:
                    return {i}
    return set()


def entered(log: list[Meld], p: int) -> int:
    """The first bezique of the side's log that card ``p`` was in: a queen and a jack were
    "declared together" (9.4) when they entered the beziques in the same meld (a single, the
    pair added to it, or a double laid down at once); -1 if it was in none."""
    return next((i for i, m in enumerate(log) if m.kind.cls == CLASS_B and m.mask >> p & 1), -1)


def verdict(s: State, seat: int, t: Table, kind: Kind, mask: int) -> tuple[str, ...]:
    """Every rule that refuses these cards as a meld of this kind now (RULES.md 3.3 rules 2-6
    with 9.4 and 9.5); none when they are a legal meld."""
    r = s.rules
    own = t.own(s, seat)
    out = []
    if not mask & own:
        out.append("9.5 own card")  # only the partner's shown cards
    if (t.partnered() and r.partner_bezique == "own" and kind.cls == CLASS_B
            and kind.name != "bezique" and mask & ~own):
        out.append("9.5 partner_bezique")
    if r.fresh_card == "every" and not mask & s.hand_masks[seat]:
        out.append("3.3 rule 5")
    earlier = t.log(seat)
    held = t.held(s, seat)
    if r.cross_class == "increase" and any(
            m.kind.cls != kind.cls and m.mask & mask and kind.points <= m.kind.points
            for m in earlier):
        out.append("3.3 rule 6")
    waived = second_double(s, seat, t, kind, mask)
    for i, m in enumerate(earlier):
        if m.kind.cls != kind.cls or not m.mask & mask or i in waived:
            continue
        if r.reform and m.mask & ~held:
            continue
        if m.mask & ~mask or kind.points <= m.kind.points:
            out.append("3.3 rule 3")
            break
    used = 0
    for m in earlier:
        if m.kind.cls == kind.cls:
            used |= m.mask
    if not mask & ~used and not waived:
        out.append("3.3 rule 4")
    return tuple(out)


def record(s: State) -> str:
    """The deal and its actions as a record for ``bezique replay FILE --json --legal``."""
    return json.dumps({
        "variant": s.rules.variant, "options": s.rules.options(),
        "deals": [{"dealer": s.dealer,
                   "hands": [[card_name(p & 31) for p in h] for h in s.deal_hands],
                   "turnup": card_name(s.turnup_card & 31),
                   "stock": [card_name(p & 31) for p in s.stock],
                   "actions": [x for _, x in s.history_strings()]}]})


@dataclass
class Counts:
    points: int = 0  # declaring points compared
    after_offer: int = 0  # of which the partner's, after an offer
    legal: int = 0  # legal melds the oracle found there
    legal_partner: int = 0  # of which with a partner's shown card
    shown: int = 0  # melds scored with a card of the declarer's table
    partner: int = 0  # melds scored with a partner's shown card
    partner_double: int = 0  # doubles or triples scored with a partner's shown card
    second_legal: int = 0  # second doubles legal at a declaring point (9.4)
    second: int = 0  # second doubles scored
    triple: int = 0  # triples scored
    offers: int = 0  # offers made
    twins: int = 0  # engine meld actions with the signature of another
    refused: Counter[str] = field(default_factory=Counter)  # candidates refused, by each rule
    alone: Counter[str] = field(default_factory=Counter)  # refused by that rule alone


def rich_deal(r: Rules, seed: int) -> State:
    """A deal stacked so that doubles, triples and second doubles occur: a lucky seat holds
    two or more pairs of the bezique cards (three or more every other time without a
    partner), the partner at four in a partnership may hold some of the rest, the rest lies
    near the top of the stock; the seat after the lucky one (its partner at four) holds a copy
    of the trump A T K Q J, so that partner melds of class A occur."""
    rng = random.Random(seed)
    n, h = r.nplayers, r.hand_size
    cards = [p & 31 for p in r.deck]
    rng.shuffle(cards)
    turnup = next(c for c in cards if c & 7 not in (QUEEN, JACK))
    cards.remove(turnup)
    trump = turnup >> 3
    q, j = bezique_pair(r, trump)
    for c in (q, j):
        while c in cards:
            cards.remove(c)
    lucky = seed % n
    other = (lucky + 2) % 4 if n == 4 else (lucky + 1) % n
    partnered = n == 4 and r.partnership
    k = rng.randrange(2 if partnered or seed % 4 else 3, r.copies + 1)
    rest = r.copies - k
    to_other = rng.randrange(rest + 1) if partnered else 0
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[lucky] = [q, j] * k
    hands[other] = [q, j] * to_other
    for rank in (ACE, TEN, KING, QUEEN, JACK):
        if card(rank, trump) in cards and len(hands[other]) < h:
            cards.remove(card(rank, trump))
            hands[other].append(card(rank, trump))
    for hand in hands:
        while len(hand) < h:
            hand.append(cards.pop())
    stock = cards
    for c in [q, j] * (rest - to_other):
        stock.insert(rng.randrange(3 * n), c)
    return State.from_cards(r, hands, turnup, stock, dealer=(lucky + 1) % n)


def play_deal(r: Rules, seed: int, rng: random.Random, n: Counts) -> None:
    """Play one deal (every other seed a rich deal) and compare at each declaring point."""
    s = (State.new_deal(r, seed=seed, dealer=seed % r.nplayers) if seed % 2
         else rich_deal(r, seed))
    t = Table(r)
    turn_used = 0  # melds (and sevens, when they count) in this declaring turn (3.3 rule 1)
    offered = False  # the turn was offered to the partner (9.5)
    acted = False  # the holder of the turn has declared something (a meld, exchange, seven)
    while not s.is_terminal():
        seat = s.current_player()
        actions = s.legal_actions()
        engine_melds = [a for a in actions if act.is_meld(a)]
        found: dict[Any, tuple[Kind, int]] = {}
        choice = -1
        if s.phase != "declare":
            assert not engine_melds, (seed, s.phase, record(s))
            turn_used, offered, acted = 0, False, False
        else:
            n.points += 1
            n.after_offer += offered
            assert seat == (s.last_trick_winner if not offered else t.mate(
                s.last_trick_winner)), (seed, record(s))
            may_offer = t.partnered() and not offered and not acted
            assert (act.OFFER in actions) == may_offer, (seed, record(s))
            if turn_used < r.melds_per_trick:
                found = candidates(s, seat, t)
            why = {sig: verdict(s, seat, t, kind, mask) for sig, (kind, mask) in found.items()}
            n.refused.update(w for ws in why.values() for w in ws)
            n.alone.update(ws[0] for ws in why.values() if len(ws) == 1)
            want = {sig for sig, w in why.items() if not w}
            mine = {t.signature(s, seat, a >> 9) for a in engine_melds}
            n.twins += len(engine_melds) - len(mine)
            if mine != want:
                lacks = sorted(s.action_to_string(act.meld_action(found[sig][1]))
                               for sig in want - mine)
                extra = sorted(s.action_to_string(a) for a in engine_melds
                               if t.signature(s, seat, a >> 9) not in want)
                reasons = {s.action_to_string(a): why.get(t.signature(s, seat, a >> 9),
                                                          ("no meld",))
                           for a in engine_melds if t.signature(s, seat, a >> 9) not in want}
                pytest.fail(f"seed {seed}: engine lacks {lacks}, engine also lists {extra} "
                            f"(oracle: {reasons}); record: {record(s)}")
            n.legal += len(want)
            n.second_legal += sum(1 for sig in want if second_double(s, seat, t, *found[sig]))
            n.legal_partner += sum(1 for sig in want if any(h[0] == PARTNER for _, h in sig))
            choice = _declare_policy(s, seat, t, found, rng, actions, engine_melds)
        if choice < 0:
            choice = play_policy(s, seat, rng, actions, shown_rate=0.3)
        if act.is_meld(choice):
            kind, mask = found[t.signature(s, seat, choice >> 9)][0], choice >> 9
            mate = t.mate(seat)
            n.shown += bool(mask & s.shown_masks[seat])
            n.partner += bool(mate >= 0 and mask & s.shown_masks[mate])
            n.partner_double += bool(mate >= 0 and mask & s.shown_masks[mate]
                                     and kind.name != "bezique" and kind.cls == CLASS_B)
            n.second += bool(second_double(s, seat, t, kind, mask))
            n.triple += kind.name == "triple bezique"
            before = s.scores[seat]
            s.apply_action(choice)
            t.log(seat).append(Meld(kind, mask, seat))
            k, m = s.meld_log[seat][-1]
            assert (r.melds[k].name, m) == (kind.name, mask), (seed, record(s))
            assert s.scores[seat] - before == kind.points, (seed, record(s))
            turn_used += 1
            acted = True
        else:
            s.apply_action(choice)
            if choice == act.OFFER:
                offered = True
                n.offers += 1
            elif choice in (act.EXCHANGE, act.SEVEN):
                turn_used += r.seven_counts_as_meld
                acted = True
        for seat2 in range(r.nplayers):
            assert [m for _, m in s.meld_log[seat2]] == [m.mask for m in t.log(seat2)], (
                seed, record(s))


def _declare_policy(s: State, seat: int, t: Table, found: dict[Any, tuple[Kind, int]],
                    rng: random.Random, actions: list[int], melds: list[int]) -> int:
    """Meld often: a second double when there is one, a double rather than a triple now and
    then (so that second doubles can follow), a meld with a partner's card, the highest, or
    any; offer now and then."""
    if act.OFFER in actions and rng.random() < 0.25:
        return act.OFFER
    if not melds or rng.random() < 0.1:
        return rng.choice([a for a in actions if not act.is_meld(a)])
    kinds = {a: found[t.signature(s, seat, a >> 9)][0] for a in melds}
    second = [a for a in melds if second_double(s, seat, t, kinds[a], a >> 9)]
    doubles = [a for a in melds if kinds[a].name == "double bezique"]
    mate = t.mate(seat)
    partner = [a for a in melds if mate >= 0 and a >> 9 & s.shown_masks[mate]]
    x = rng.random()
    if second and x < 0.8:
        return rng.choice(second)
    if doubles and x < 0.5:
        return rng.choice(doubles)
    if partner and x < 0.6:
        return rng.choice(partner)
    if x < 0.8:
        return max(melds, key=lambda a: kinds[a].points)
    return rng.choice(melds)


CASES: list[tuple[str, dict[str, Any]]] = [
    ("bezique3", {}),
    ("bezique4", {}),
    ("bezique4", {"partner_bezique": "either"}),
    ("bezique4", {"partnership": False}),
    ("bezique3", {"reform": True, "melds_per_trick": 2}),
    ("bezique4", {"partner_bezique": "either", "cross_class": "increase", "reform": True}),
    ("bezique4", {"fresh_card": "every", "seven_counts_as_meld": True, "melds_per_trick": 2}),
    ("bezique3", {"bezique_pair": "swap", "fours_distinct_suits": True}),
]
IDS = [f"{v}-{'-'.join(f'{k}={x}' for k, x in o.items())}" for v, o in CASES]


def run(variant: str, options: dict[str, Any], seeds: range) -> Counts:
    return oracle_run(variant, options, seeds, play_deal, Counts())


def check(variant: str, options: dict[str, Any], n: Counts) -> None:
    """The deals reached what the test is about: declaring points with melds to judge, shown
    cards reused, partner melds, second doubles and triples, and refusals by each rule."""
    r = Rules.preset(variant, **options)
    partnered = variant == "bezique4" and options.get("partnership", True)
    assert n.points > 500 and n.legal > 300 and n.shown > 30, n
    assert n.twins == 0, n  # one action per set of copies that differ in nothing (RULES.md 7)
    assert n.refused["3.3 rule 3"] > 20 and n.refused["3.3 rule 4"] > 20, n
    assert n.second > 0 and n.triple > 0, n
    if partnered:
        assert n.offers > 20 and n.after_offer > 20, n
        assert n.legal_partner > 50 and n.partner > 20 and n.refused["9.5 own card"] > 0, n
        if r.partner_bezique == "own":
            assert n.refused["9.5 partner_bezique"] > 0 and n.partner_double == 0, n
        else:
            assert n.partner_double > 0, n
    else:
        assert n.offers == 0 and n.legal_partner == 0, n
    if r.fresh_card == "every":
        assert n.refused["3.3 rule 5"] > 0, n
    if r.cross_class == "increase":
        assert n.refused["3.3 rule 6"] > 0, n


DEALS = 150


@pytest.mark.parametrize(("variant", "options"), CASES, ids=IDS)
def test_table_meld_legality_matches_an_independent_reading(
        variant: str, options: dict[str, Any]) -> None:
    check(variant, options, run(variant, options, range(DEALS)))


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "options"), CASES, ids=IDS)
def test_table_meld_legality_over_many_more_deals(
        variant: str, options: dict[str, Any]) -> None:
    check(variant, options, run(variant, options, range(1000, 1000 + DEALS)))
