"""Action text (RULES.md 7, 9.8, 9.10) against an independent reading of the written forms.

RULES.md 7 and the README's "Action text" say how every decision is written: ``play QS`` (a
concealed copy), ``play QS*`` (a shown one), ``play QS*1`` / ``QS*2`` when the seat's shown copies
of the card differ in their meld history, ``meld QS JD`` with the cards in canonical order (suits
S H D C, ranks high to low, a shown copy before a concealed copy of the same card), ``QS+`` /
``QS+1`` for a card the partner has shown in a four-handed partnership (9.5), and the words
``pass``, ``exchange``, ``seven``, ``carte``, ``offer`` (9.8) and ``guess N`` (the cut bonus,
9.2).  This file builds the canonical text of every legal action again from the state's public
masks (``hand_masks``, ``shown_masks``) and its own log of the melds each side scored (checked
against the engine's ``meld_log`` after every action), never from :mod:`bezique.notation` or
:mod:`bezique.melds`; ``known_masks`` and ``scored_sevens`` are read only to count cases.  It
plays random and stacked deals of every preset and, at every decision, checks that:

1. ``action_to_string`` writes each legal action as the oracle does;
2. distinct legal actions have distinct texts, and no two legal actions differ in nothing (same
   card, same place, same meld history: one action per such set of copies); while the stock
   lasts every held card is playable (2.2), so each place and history of each held card has its
   play (RULES.md 7: "each choice ... must be its own legal action");
3. ``string_to_action`` reads every canonical text back to a listed action with the same cards,
   places and histories, also with the meld's cards shuffled, in lower case, with ``10`` for
   ``T`` and with the suit symbols (README: "input also takes 10, lower case and ♠ ♥ ♦ ♣");
4. texts naming no copy the seat can use (a ``*`` where no copy is shown, a number past the
   groups, a bare ``*`` where the shown copies differ, ``+`` without a partner or a partner's
   copy, a card not held, more copies than are held) are refused with
   :class:`~bezique.errors.IllegalActionError`, and so are the words not legal now; the state
   is left as it was (``key()``).

Readings the oracle makes (each from the text cited):
- A copy's meld history is the list of the melds of the seat's log that it is in, in scoring
  order (7, 9.10); in a partnership the log is the side's (9.5: both partners' earlier melds
  judge a meld together), for the seat's own copies and the partner's alike.
- The shown copies of one card are grouped by history and the groups numbered in the order of
  their histories compared element by element (7, 9.10); where one history is the start of
  another, the shorter comes first (the comparison runs out on it first).  Copies with the same
  history share a number; with one group the bare ``*`` (or ``+``) is written.  The seat's own
  table and the partner's are numbered apart (README: ``QS+1``, ``QS+2`` "when theirs differ").
- A concealed copy is written ``QS`` whatever else is known of it (README: the scored or
  unscored seven of trumps is one ``play 7H``; 9.10: cards shown for carte blanche are played as
  concealed), so all concealed copies of one card are one choice.
- Canonical meld order within one card: the seat's own shown copies (by number), then the
  partner's (by number), then concealed copies.  RULES.md 7 puts shown before concealed; own
  before partner is not written anywhere and is this file's (and the engine's) choice.
- In the last tricks (2.4, 9.0.6) nothing is shown, so only ``play QS`` exists.

A failure prints the record of the deal up to the decision (``bezique replay FILE --json
--legal`` replays it) and the text at fault.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import pytest
from helpers import oracle_run

from bezique import Rules, State
from bezique import actions as act
from bezique.cards import bits, card_name
from bezique.errors import IllegalActionError

SUITS, RANKS = "SHDC", "ATKQJ987"  # RULES.md 1: suits in canonical order, ranks high to low
SYMBOLS = dict(zip(SUITS, "♠♥♦♣", strict=True))
TABLE, PARTNER, HAND = 0, 1, 2  # where a copy lies; also its place in a card's meld order (7)
MARK = {TABLE: "*", PARTNER: "+"}
WORDS = {act.PASS: "pass", act.EXCHANGE: "exchange", act.SEVEN: "seven", act.CARTE: "carte",
         act.OFFER: "offer"}  # RULES.md 7 and 9.8


def mate(r: Rules, seat: int) -> int:
    """The seat's partner, or -1: partners are 0 & 2 and 1 & 3 (RULES.md 9.5)."""
    return (seat + 2) % 4 if r.nplayers == 4 and r.partnership else -1


def side(r: Rules, seat: int) -> int:
    """Whose log of melds judges the seat's: its own, or its side's in a partnership (9.5)."""
    return seat % 2 if mate(r, seat) >= 0 else seat


class View:
    """The oracle's reading of one decision: the seat to act, what it can reach, its log."""

    def __init__(self, s: State, logs: dict[int, list[int]]) -> None:
        self.s = s
        self.seat = seat = s.current_player()
        self.copies = s.rules.copies
        self.mate = mate(s.rules, seat)
        self.log = logs.get(side(s.rules, seat), [])
        self.hand = s.hand_masks[seat]
        self.table = s.shown_masks[seat]
        self.partner = s.shown_masks[self.mate] if self.mate >= 0 else 0
        self._groups: dict[tuple[int, int], list[tuple[int, ...]]] = {}

    def place(self, p: int) -> int:
        if self.hand >> p & 1:
            return HAND
        if self.table >> p & 1:
            return TABLE
        if self.partner >> p & 1:
            return PARTNER
        raise AssertionError(f"seat {self.seat} cannot reach physical card {p}")

    def history(self, p: int) -> tuple[int, ...]:
        """The melds of the log that physical card ``p`` was in, in scoring order."""
        return tuple(i for i, m in enumerate(self.log) if m >> p & 1)

    def copies_at(self, place: int, c: int) -> list[int]:
        mask = {HAND: self.hand, TABLE: self.table, PARTNER: self.partner}[place]
        return [p for p in range(c, 32 * self.copies, 32) if mask >> p & 1]

    def groups(self, place: int, c: int) -> list[tuple[int, ...]]:
        """The distinct histories of the copies of card ``c`` on that table, in number order."""
        key = (place, c)
        if key not in self._groups:
            self._groups[key] = sorted({self.history(p) for p in self.copies_at(place, c)})
        return self._groups[key]

    def number(self, p: int) -> tuple[int, int]:
        """(the number of ``p``'s group, how many groups its card has on its table)."""
        gs = self.groups(self.place(p), p & 31)
        return gs.index(self.history(p)) + 1, len(gs)

    def token(self, p: int) -> tuple[tuple[int, int, int, int], str]:
        """Sort key and text of one copy: ``QS``, ``QS*``, ``QS*2``, ``QS+``, ``QS+1``."""
        name = card_name(p & 31)
        place = self.place(p)
        key = (SUITS.index(name[1]), RANKS.index(name[0]), place, 0)
        if place == HAND:
            return key, name
        k, of = self.number(p)
        return (*key[:3], k), name + MARK[place] + (str(k) if of > 1 else "")

    def text(self, a: int) -> str:
        if a in WORDS:
            return WORDS[a]
        if act.GUESS <= a < 512:
            return f"guess {a - act.GUESS}"
        if 0 <= a < 256:
            return "play " + self.token(a)[1]
        return "meld " + " ".join(t for _, t in sorted(self.token(p) for p in bits(a >> 9)))

    def where(self, p: int) -> tuple[int, int, tuple[int, ...]]:
        """What tells a copy apart: its card, its place and (shown) its meld history."""
        place = self.place(p)
        return p & 31, place, () if place == HAND else self.history(p)

    def signature(self, a: int) -> tuple[Any, ...]:
        """An action up to copies that differ in nothing."""
        if 0 <= a < 256:
            return ("play", self.where(a))
        if a >= 512:
            return ("meld", tuple(sorted(self.where(p) for p in bits(a >> 9))))
        return ("word", a)


def record(s: State) -> str:
    """The deal and its actions as a record for ``bezique replay FILE --json --legal``."""
    deal: dict[str, Any] = {
        "dealer": s.dealer, "hands": [[card_name(p & 31) for p in h] for h in s.deal_hands],
        "turnup": card_name(s.turnup_card & 31) if s.rules.turnup else None,
        "stock": [card_name(p & 31) for p in s.stock],
        "actions": [t for _, t in s.history_strings() if not t.startswith("guess")]}
    if s.rules.cut_bonus:
        deal["cut"], deal["guess"] = s.cut, s.cut_guess
    return json.dumps({"variant": s.rules.variant, "options": s.rules.options(),
                       "deals": [deal]})


def fail(s: State, what: str) -> None:
    pytest.fail(f"seat {s.current_player()} ({s.phase}): {what}; record: {record(s)}")


@dataclass
class Counts:
    decisions: int = 0
    texts: int = 0  # legal actions whose text was compared
    parsed: int = 0  # texts read back, canonical and rewritten
    rewritten: int = 0  # of which rewritten (shuffled, lower case, 10, symbols)
    seen: Counter[str] = field(default_factory=Counter)  # forms met in the legal texts
    refused: Counter[str] = field(default_factory=Counter)  # bad texts refused, by kind

    def note(self, v: View, a: int, text: str) -> None:
        seen = self.seen
        seen[text.split()[0]] += 1
        if 0 <= a < 256:
            if "*" in text:
                k, of = v.number(a)
                seen["play *"] += 1
                shared = len(v.copies_at(TABLE, a & 31)) > of  # (copies of one history)
                seen["play * shared"] += shared
                if of > 1:
                    seen[f"play *{k}"] += 1
                    seen["play *n shared"] += shared
                    if k == 1:  # which part of two histories decided their order (9.10)
                        for x, y in pairwise(v.groups(TABLE, a & 31)):
                            seen["order by " + ("the shorter history" if y[:len(x)] == x
                                                else "the first meld" if x[0] != y[0]
                                                else "a later meld")] += 1
            else:
                seen["play known concealed"] += (v.s.known_masks[v.seat] & v.hand) >> a & 1
                r, held = v.s.rules, v.copies_at(HAND, a & 31)
                if v.s.trump >= 0 and a & 31 == v.s.trump * 8 + r.seven_rank and len(
                        {v.s.scored_sevens >> p & 1 for p in held}) > 1:
                    seen["play a scored and an unscored trump seven"] += 1  # (README: one text)
            return
        if a < 512:
            return
        cards: dict[int, set[int]] = {}
        for p in bits(a >> 9):
            place = v.place(p)
            cards.setdefault(p & 31, set()).add(place)
            if place != HAND:
                k, of = v.number(p)
                mark = MARK[place]
                seen[f"meld {mark}"] += 1
                shared = len(v.copies_at(place, p & 31)) > of
                seen[f"meld {mark} shared"] += shared
                if of > 1:
                    seen[f"meld {mark}{k}"] += 1
                    seen[f"meld {mark}n shared"] += shared
        for places in cards.values():
            if HAND in places and len(places) > 1:
                seen["meld shown and concealed copies of a card"] += 1
            if TABLE in places and PARTNER in places:
                seen["meld own and partner's copies of a card"] += 1


def rewrite(text: str, rng: random.Random) -> str:
    """The same action as a player may type it: the meld's cards in any order (RULES.md 7),
    each card in lower case, with ``10`` for ``T`` or with its suit symbol (RULES.md 1)."""
    verb, *toks = text.split()
    if verb not in ("play", "meld"):
        return text
    rng.shuffle(toks)
    out = []
    for tok in toks:
        rank, suit, tail = tok[0], tok[1], tok[2:]
        if rank == "T" and rng.random() < 0.5:
            rank = "10"
        if rng.random() < 0.4:
            suit = SYMBOLS[suit]
        word = rank + suit
        out.append((word.lower() if rng.random() < 0.5 else word) + tail)
    return " ".join([verb, *out])


def refused(s: State, n: Counts, why: str, text: str, resolve: bool = True) -> None:
    """``text`` is refused (IllegalActionError) and the state is left as it was: by
    ``string_to_action`` when it names no copy the seat can use, else by ``apply``."""
    before = s.key()
    try:
        if resolve:
            s.string_to_action(text)
        else:
            s.apply(text)
    except IllegalActionError:
        pass
    else:
        fail(s, f"{text!r} ({why}) was not refused")
    if s.key() != before:
        fail(s, f"refusing {text!r} ({why}) changed the state")
    n.refused[why] += 1


def bad_texts(v: View, rng: random.Random, melds: list[str]) -> list[tuple[str, str]]:
    """Texts that name no copy the seat to act can use now, with why (item 4)."""
    out: list[tuple[str, str]] = []
    cards = sorted({p & 31 for p in v.s.rules.deck})
    c = rng.choice(cards)
    name = card_name(c)
    if not v.copies_at(TABLE, c):
        out.append(("* with none shown" if v.s.stock_left else "* in the last tricks",
                    f"play {name}*"))
    else:
        k = len(v.groups(TABLE, c))
        out.append((f"*{k + 1} past {k} group(s)", f"play {name}*{k + 1}"))
        if k > 1:
            out.append(("bare * where the shown copies differ", f"play {name}*"))
    if not v.copies_at(HAND, c):
        out.append(("card not held", f"play {name}"))
    out.append(("play a + card", f"play {name}+"))
    shown = sorted({p & 31 for p in bits(v.table)})
    if shown:  # (a card shown in several groups is the interesting one)
        c = max(shown, key=lambda c: (len(v.groups(TABLE, c)), rng.random()))
        k = len(v.groups(TABLE, c))
        out.append((f"*{k + 1} past {k} group(s)", f"play {card_name(c)}*{k + 1}"))
    if melds:
        text = rng.choice(melds)
        verb, *toks = text.split()
        i = rng.randrange(len(toks))
        tok = toks[i]
        c = RANKS.index(tok[0]) + 8 * SUITS.index(tok[1])
        bad: list[tuple[str, str]] = []
        if "*" not in tok and not v.copies_at(TABLE, c):
            bad.append(("meld * with none shown", tok[:2] + "*"))
        for place, mark in MARK.items():
            k = len(v.groups(place, c))
            if k and mark in tok:
                bad.append((f"meld {mark}{k + 1} past {k} group(s)", f"{tok[:2]}{mark}{k + 1}"))
            if k > 1 and mark in tok:
                bad.append((f"meld bare {mark} where the copies differ", tok[:2] + mark))
        if v.mate < 0:
            bad.append(("meld + without a partner", tok[:2] + "+"))
        elif not v.copies_at(PARTNER, c):
            bad.append(("meld + with none shown by the partner", tok[:2] + "+"))
        elif "+" not in tok:
            k = len(v.groups(PARTNER, c))
            bad.append((f"meld +{k + 1} past {k} group(s)", f"{tok[:2]}+{k + 1}"))
        for why, new in bad:
            out.append((why, " ".join([verb, *toks[:i], new, *toks[i + 1:]])))
        # one more copy of this token than the seat can use: the hand's, or the token's group
        if "*" in tok or "+" in tok:
            place = TABLE if "*" in tok else PARTNER
            num = tok[3:]
            group = [p for p in v.copies_at(place, c)
                     if not num or v.number(p)[0] == int(num)]
        else:
            group = v.copies_at(HAND, c)
        more = len(group) - toks.count(tok) + 1
        out.append(("meld more copies than held", " ".join([text, *[tok] * more])))
        missing = [c for c in cards if not v.copies_at(HAND, c)]
        if missing:
            out.append(("meld card not held", f"{text} {card_name(rng.choice(missing))}"))
    return out


def check_decision(s: State, n: Counts, rng: random.Random,
                   logs: dict[int, list[int]]) -> dict[int, str]:
    """Items 1-4 of the module's docstring at the decision of ``s`` (``logs``: the oracle's
    record of the melds each side scored); the legal actions' texts."""
    v = View(s, logs)
    legal = s.legal_actions()
    listed = set(legal)
    texts: dict[str, int] = {}
    sigs: dict[tuple[Any, ...], int] = {}
    for a in legal:
        want = v.text(a)
        got = s.action_to_string(a)
        if got != want:
            fail(s, f"action {a} is written {got!r}, the oracle writes {want!r}")
        if want in texts:
            fail(s, f"two legal actions {texts[want]} and {a} are both {want!r}")
        sig = v.signature(a)
        if sig in sigs:
            fail(s, f"{s.action_to_string(sigs[sig])!r} and {want!r} differ in nothing")
        texts[want], sigs[sig] = a, sig
        n.note(v, a, want)
    n.decisions += 1
    n.texts += len(legal)
    if s.stock_left == 0 and any(s.shown_masks):
        fail(s, "cards are still shown in the last tricks (2.4)")
    if s.phase in ("lead", "follow") and s.stock_left:  # any card may be played (2.2)
        held = {("play", v.where(p)) for p in bits(v.hand | v.table)}
        plays = {sig for sig in sigs.values() if sig[0] == "play"}
        if plays != held:
            fail(s, f"plays listed {sorted(plays - held)} beyond the held "
                    f"{sorted(held - plays)}")
    melds = [t for t in texts if t.startswith("meld")]
    plays_t = [t for t in texts if t.startswith("play")]
    tries: list[tuple[str, int]] = [(t, a) for t, a in texts.items()]
    tries += [(rewrite(t, rng), texts[t]) for t in melds]
    if plays_t:
        t = rng.choice(plays_t)
        tries.append((rewrite(t, rng), texts[t]))
    for text, a in tries:
        try:
            b = s.string_to_action(text)
        except IllegalActionError as e:
            fail(s, f"{text!r} (legal: {s.action_to_string(a)!r}) is refused: {e}")
        if b not in listed or v.signature(b) != v.signature(a):
            fail(s, f"{text!r} reads as {b} ({s.action_to_string(b)!r}, listed: {b in listed}),"
                    f" not as {s.action_to_string(a)!r}")
        n.parsed += 1
    n.rewritten += len(tries) - len(texts)
    for why, text in bad_texts(v, rng, melds):
        refused(s, n, why, text)
    for word in WORDS.values():
        if word not in texts:
            refused(s, n, f"{word} not legal now", word, resolve=False)
    if not s.rules.cut_bonus or s.phase != "guess":
        refused(s, n, "guess not legal now", "guess 24", resolve=False)
    return {a: t for t, a in texts.items()}


# ------------------------------------------------------------------ deals and policy

QUEEN, KING, JACK, ACE, TEN = (RANKS.index(x) for x in "QKJAT")


def stacked(r: Rules, seed: int) -> State:
    """A deal stacked so that shown copies of one card pile up with different meld histories.

    ``seed % 4 == 0``: the hands and the top of the stock are every copy of a few court cards,
    shuffled: the kings and queens of every suit and J♦ (marriages, beziques, fours), or A T K
    Q J of one suit with Q♠ J♦ (sequences, trump fours, beziques).  Else a lucky seat holds
    K♠ Q♠ K♠ Q♠ … as far as they go, leaving room for three cards that make no meld; in a
    partnership its partner holds the next of them, J♦ and other kings and queens.  K♠ in a
    marriage, in four kings and in another marriage is ``KS*1 … KS*3``.  With carte blanche
    (9.0.4), every eighth deal seat 0's court cards go to the top of the stock."""
    rng = random.Random(seed)
    t = rng.randrange(4)
    spades = (KING, QUEEN)
    if seed % 4:
        first = [k for _ in range(r.copies) for k in spades] + [2 * 8 + JACK] * 2
        first += [s * 8 + k for s in (1, 2, 3) for k in spades for _ in range(2)]
        focus = set(first)
    elif seed % 8 == 0:
        focus = {s * 8 + k for s in range(4) for k in spades} | {2 * 8 + JACK}
    else:
        focus = {t * 8 + k for k in (ACE, TEN, KING, QUEEN, JACK)} | {QUEEN, 2 * 8 + JACK}
    cards = [p & 31 for p in r.deck]
    rng.shuffle(cards)
    turnup = None
    if r.turnup:  # a card of suit t that is none of the focus cards
        turnup = next(c for c in cards if c >> 3 == t and c not in focus and c & 7 != JACK)
        cards.remove(turnup)
    k, h = r.nplayers, r.hand_size
    cards.sort(key=lambda c: c not in focus)  # (stable: each part stays shuffled)
    if seed % 4:  # the lucky seat's hand (and its partner's): ``first``, then three cards
        lucky = [seed // 4 % k]  # that make no meld (to play while the others are kept)
        if k == 4 and r.partnership:
            lucky.append((lucky[0] + 2) % 4)
        rest = cards[:]
        hands: list[list[int]] = [[] for _ in range(k)]
        for c in [x for x in first if x in rest]:
            seat = next((x for x in lucky if len(hands[x]) < h - 3), -1)
            if seat >= 0:
                hands[seat].append(c)
                rest.remove(c)
        for seat in lucky:
            for c in [c for c in rest if c & 7 not in (ACE, KING, QUEEN, JACK)][:3]:
                hands[seat].append(c)
                rest.remove(c)
        for hand in hands:
            while len(hand) < h:
                hand.append(rest.pop())
        stock = rest
    else:
        hands = [cards[i:k * h:k] for i in range(k)]
        stock = cards[k * h:]
    if r.carte_points and seed % 8 == 6:  # carte blanche (9.0.4): a hand with no K, Q or J
        courts = [c for c in hands[0] if c & 7 in (KING, QUEEN, JACK)]
        plain = [c for c in stock if c & 7 not in (KING, QUEEN, JACK)][:len(courts)]
        hands[0] = [c for c in hands[0] if c not in courts] + plain
        for c in plain:
            stock.remove(c)
        stock = courts + stock
    cut = rng.randint(18, 30) if r.cut_bonus else None
    return State.from_cards(r, hands, turnup, stock, dealer=seed % k, cut=cut)


def spread(v: View, mask: int) -> int:
    """How many more groups (distinct histories) the shown copies of the meld's cards would
    form, on the seat's table and the partner's, once the meld of ``mask`` is scored."""
    gain, new = 0, len(v.log)
    for c in {p & 31 for p in bits(mask)}:
        for place in (TABLE, PARTNER):
            after = {v.history(p) + ((new,) if mask >> p & 1 else ())
                     for p in v.copies_at(place, c)}
            if place == TABLE and any(mask >> p & 1 for p in v.copies_at(HAND, c)):
                after.add((new,))
            gain += len(after) - len(v.groups(place, c))
    return gain


def choose(s: State, rng: random.Random, legal: list[int], logs: dict[int, list[int]]) -> int:
    """Meld often, most often the meld that splits shown copies into more groups or the
    largest, offer now and then, declare carte blanche, play concealed cards that make no meld,
    and shown cards now and then (so that ``*2`` and ``*3`` plays are chosen)."""
    seat = s.current_player()
    melds = [a for a in legal if a >= 512]
    if s.phase == "declare":
        others = [a for a in legal if a < 512 and a != act.PASS]
        if act.OFFER in legal and rng.random() < 0.3:
            return act.OFFER
        if melds and rng.random() < 0.9:
            x = rng.random()
            if x < 0.5:
                v = View(s, logs)
                return max(melds, key=lambda a: (spread(v, a >> 9), rng.random()))
            if x < 0.7:  # (the most cards: copies laid down together share a history)
                return max(melds, key=lambda a: ((a >> 9).bit_count(), rng.random()))
            return rng.choice(melds)
        if others and rng.random() < 0.5:
            return rng.choice(others)
        return act.PASS
    if act.CARTE in legal and rng.random() < 0.8:
        return act.CARTE
    plays = [a for a in legal if 0 <= a < 256]
    if not plays:
        return rng.choice(legal)
    shown = [a for a in plays if s.shown_masks[seat] >> a & 1]
    if shown and rng.random() < 0.15:
        return rng.choice(shown)
    if rng.random() < 0.9:  # the concealed cards least likely to meld first
        for ranks in ((TEN, 5, 6, 7), (ACE, JACK), (KING, QUEEN)):
            tier = [a for a in plays if a & 7 in ranks and not s.shown_masks[seat] >> a & 1]
            if tier:
                return rng.choice(tier)
    return rng.choice(plays)


def play_deal(r: Rules, seed: int, rng: random.Random, n: Counts) -> None:
    """Play one deal (every other seed a stacked one), checking every decision; each chosen
    action is sent as text, canonical or rewritten.  The oracle logs the melds each side
    scores (the cards the text named) and checks the engine's ``meld_log`` against it."""
    s = (stacked(r, seed) if seed % 2 == 0
         else State.new_deal(r, seed=seed, dealer=seed % r.nplayers))
    logs: dict[int, list[int]] = {}
    while not s.is_terminal():
        legal = s.legal_actions()
        texts = check_decision(s, n, rng, logs)
        text = texts[choose(s, rng, legal, logs)]
        seat = s.current_player()
        sent = rewrite(text, rng) if rng.random() < 0.5 else text
        try:
            b = s.string_to_action(sent)
            s.apply_action(b)
        except IllegalActionError as e:
            fail(s, f"{sent!r} (legal: {text!r}) is refused: {e}")
        n.seen[f"chosen {text.split()[0]}"] += 1
        if b >= 512:
            logs.setdefault(side(r, seat), []).append(b >> 9)
        for x in range(r.nplayers):
            if [m for _, m in s.meld_log[x]] != logs.get(side(r, x), []):
                fail(s, f"seat {x}'s meld log is not the melds its side scored")


# ------------------------------------------------------------------ the tests

CASES: list[tuple[str, dict[str, Any]]] = [
    ("bezique", {}),
    ("binocle", {}),
    ("rubicon", {}),
    ("sixpack", {"cut_bonus": True}),
    ("eightpack", {}),
    ("bezique3", {}),
    ("bezique4", {}),
    ("bezique4", {"partnership": False}),
]
IDS = [f"{v}-{'-'.join(f'{k}={x}' for k, x in o.items())}".rstrip("-") for v, o in CASES]
DEALS = {"bezique": 80, "binocle": 80, "rubicon": 30, "sixpack": 16, "eightpack": 8,
         "bezique3": 60, "bezique4": 50}


def run(variant: str, options: dict[str, Any], seeds: range) -> Counts:
    return oracle_run(variant, options, seeds, play_deal, Counts())


def check(variant: str, options: dict[str, Any], n: Counts, scale: int = 1) -> None:
    """The deals reached the forms the test is about (so that it cannot pass vacuously)."""
    r = Rules.preset(variant, **options)
    seen, bad = n.seen, n.refused
    partnered = r.nplayers == 4 and r.partnership
    assert n.decisions > 2000 * scale and n.parsed > n.texts, n
    assert seen["play *"] > 0 and seen["meld *"] > 0 and seen["pass"] > 0, n
    assert seen["play *2"] > 0 and seen["meld *2"] > 0 and seen["play * shared"] > 0, n
    assert seen["meld shown and concealed copies of a card"] > 0, n
    assert seen["order by the first meld"] > 0 and seen["order by a later meld"] > 0, n
    assert seen["order by the shorter history"] > 0, n
    if r.copies > 2:  # (three groups of one card, and copies sharing a number among several)
        assert seen["play *3"] > 0 and seen["play *n shared"] > 0, n
    if r.copies > 3 and r.nplayers == 2:
        assert seen["meld *3"] > 0 and seen["meld *n shared"] > 0, n
    if r.turnup:
        assert seen["exchange"] > 0 and seen["seven"] > 0, n
    if r.turnup and r.nplayers == 2:
        assert seen["play a scored and an unscored trump seven"] > 0, n
    if r.carte_points:
        assert seen["carte"] > 0 and seen["play known concealed"] > 0, n
    if r.cut_bonus:
        assert seen["guess"] > 0, n
    if partnered:
        assert seen["offer"] > 0 and seen["meld +"] > 0 and seen["meld +2"] > 0, n
        assert seen["meld own and partner's copies of a card"] > 0, n
        assert bad["meld +2 past 1 group(s)"] > 0 and bad["meld +3 past 2 group(s)"] > 0, n
        assert bad["meld bare + where the copies differ"] > 0, n
        assert bad["meld + with none shown by the partner"] > 0, n
    else:
        assert seen["offer"] == 0 and seen["meld +"] == 0, n
        assert bad["meld + without a partner"] > 0, n
    assert bad["* with none shown"] > 0 and bad["* in the last tricks"] > 0, n
    assert bad["*3 past 2 group(s)"] > 0 and bad["bare * where the shown copies differ"] > 0, n
    assert bad["meld *3 past 2 group(s)"] > 0 and bad["meld * with none shown"] > 0, n
    assert bad["meld bare * where the copies differ"] > 0, n
    assert bad["card not held"] > 0 and bad["meld more copies than held"] > 0, n
    assert bad["meld card not held"] > 0 and bad["play a + card"] > 0, n


@pytest.mark.parametrize(("variant", "options"), CASES, ids=IDS)
def test_action_text_matches_an_independent_reading(variant: str, options: dict[str, Any]) -> None:
    check(variant, options, run(variant, options, range(DEALS[variant])))


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "options"), CASES, ids=IDS)
def test_action_text_over_many_more_deals(variant: str, options: dict[str, Any]) -> None:
    check(variant, options, run(variant, options, range(1000, 1000 + 2 * DEALS[variant])), 2)

