"""Helpers for the rules tests: build readable positions from a few chosen cards.

``deal`` builds a deal from the cards a test cares about, filling hands and stock with the rest
of the pack; ``at_end_phase`` plays the stock out so that each seat holds chosen cards when the
last eight tricks begin; ``play`` applies action texts in order.  ``benchmark`` loads a script
of ``benchmarks/`` as a module, for the tests of those tools.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from bezique import Rules, State
from bezique.cards import EIGHT, JACK, NINE, SEVEN, TEN, card_name, parse_card, rank_of, suit_of


def benchmark(name: str) -> ModuleType:
    """The script ``benchmarks/<name>.py``, loaded as the module ``name`` (with ``benchmarks/``
    on the import path, as when the script is run: some import others)."""
    folder = Path(__file__).resolve().parent.parent / "benchmarks"
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    path = folder / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# Filler goes in this order: cards that make no meld and no seven of trumps first.
_FILL_RANKS = (EIGHT, NINE, SEVEN, TEN, JACK, 0, 2, 3)


def rules(variant: str = "bezique", **options: Any) -> Rules:
    """A preset with some options."""
    return Rules.preset(variant, **options)


def pack(r: Rules) -> Counter[int]:
    """Every card of the variant's pack with its number of copies."""
    return Counter(p & 31 for p in r.deck)


def _cards(texts: Iterable[str | int]) -> list[int]:
    return [parse_card(t) if isinstance(t, str) else t for t in texts]


def deal(
    hand0: Sequence[str] = (),
    hand1: Sequence[str] = (),
    turnup: str = "8H",
    stock: Sequence[str] = (),
    dealer: int = 1,
    r: Rules | None = None,
    totals: Sequence[int] = (0, 0),
) -> State:
    """A deal where seat 0 holds ``hand0``, seat 1 ``hand1`` (filled up with harmless cards),
    the turn-up is ``turnup`` and the stock starts (top first) with ``stock``."""
    r = r or Rules.preset("bezique")
    trump = suit_of(parse_card(turnup))
    left = pack(r)
    chosen = [*_cards(hand0), *_cards(hand1), parse_card(turnup), *_cards(stock)]
    left.subtract(chosen)
    if any(n < 0 for n in left.values()):
        raise ValueError(f"more copies than the pack holds: {sorted(card_name(c) for c in chosen)}")

    def order(c: int) -> tuple[int, int, int]:
        trump7 = rank_of(c) == r.seven_rank and suit_of(c) == trump
        return (int(trump7), _FILL_RANKS.index(rank_of(c)), suit_of(c))

    rest = sorted(left.elements(), key=order)
    hands = [_cards(hand0), _cards(hand1)]
    for h in hands:
        while len(h) < r.hand_size:
            h.append(rest.pop(0))
    full_stock = [*_cards(stock), *rest]
    return State.from_cards(r, hands, turnup, full_stock, dealer, totals)


def play(state: State, *actions: str) -> State:
    """Apply action texts in order (each by whoever is to act); return the state."""
    for a in actions:
        state.apply(a)
    return state


def strings(state: State) -> set[str]:
    """The legal actions as a set of canonical texts."""
    return set(state.legal_action_strings())


def beats(lead: int, follow: int, trump: int) -> bool:
    """True when ``lead`` wins against ``follow`` (RULES.md 2.2: the card led wins ties)."""
    if suit_of(follow) == suit_of(lead):
        return rank_of(lead) <= rank_of(follow)
    return suit_of(follow) != trump


def _match(leads: list[int], follows: list[int], trump: int) -> list[tuple[int, int]]:
    """Pair every follow card with a lead card that beats it (augmenting-path matching)."""
    owner: dict[int, int] = {}

    def try_assign(j: int, seen: set[int]) -> bool:
        for i, c in enumerate(leads):
            if i in seen or not beats(c, follows[j], trump):
                continue
            seen.add(i)
            if i not in owner or try_assign(owner[i], seen):
                owner[i] = j
                return True
        return False

    for j in range(len(follows)):
        if not try_assign(j, set()):
            raise ValueError("cannot arrange the stock tricks so that seat 0 wins them all")
    return [(leads[i], follows[j]) for i, j in sorted(owner.items(), key=lambda x: x[1])]


def at_end_phase(
    final0: Sequence[str],
    final1: Sequence[str],
    turnup: str,
    r: Rules | None = None,
    totals: Sequence[int] = (0, 0),
    last_declare: Sequence[str] = (),
) -> tuple[State, list[str]]:
    """A deal played to the start of the end phase where seat 0 holds ``final0`` and seat 1
    holds ``final1`` (which must include ``turnup``: the loser of the last stock trick takes it).

    Seat 0 (the non-dealer) leads and wins every stock trick, passing each declaring turn but
    the last, where it first applies ``last_declare``; so it leads the first trick of the end
    phase.  Returns the state and the actions played.
    """
    r = r or Rules.preset("bezique")
    h, tricks = r.hand_size, r.stock_tricks
    tu = parse_card(turnup)
    trump = suit_of(tu)
    f0, f1 = _cards(final0), _cards(final1)
    if len(f0) != h or len(f1) != h or tu not in f1:
        raise ValueError("each final hand needs a hand's worth of cards; final1 holds the turn-up")
    f1.remove(tu)
    left = pack(r)
    left.subtract([*f0, *f1, tu])
    rest = sorted(left.elements(), key=lambda c: (suit_of(c) != trump, c))
    plain = [c for c in rest if suit_of(c) != trump]
    # seat 1 (the follower) throws plain cards; seat 0 gets the trumps and what is left
    follows = plain[-tricks:]
    leads = _without(rest, follows)
    pairs = _match(leads, follows, trump)
    j0 = [a for a, _ in pairs]
    j1 = [b for _, b in pairs]
    hand0, hand1 = j0[:h], j1[:h]
    junk_draws = tricks - h
    stock: list[int] = []
    for t in range(tricks - 1):
        if t < junk_draws:
            stock += [j0[h + t], j1[h + t]]
        else:
            stock += [f0[t - junk_draws], f1[t - junk_draws]]
    stock.append(f0[-1])
    s = State.from_cards(r, [hand0, hand1], tu, stock, 1, totals)
    actions: list[str] = []
    for i, (a, b) in enumerate(pairs):
        extra = list(last_declare) if i == len(pairs) - 1 else []
        for text in (f"play {card_name(a)}", f"play {card_name(b)}", *extra, "pass"):
            s.apply(text)
            actions.append(text)
    assert s.end_phase and s.current_player() == 0
    return s, actions


def _without(items: list[int], remove: list[int]) -> list[int]:
    c = Counter(remove)
    out = []
    for x in items:
        if c[x]:
            c[x] -= 1
        else:
            out.append(x)
    return out


def playout(state: State) -> list[str]:
    """Play a deal to its end with a fixed policy (first legal play; always pass); return the
    action texts.  The policy never melds, so only sevens, the last trick and brisques score."""
    out = []
    while not state.is_terminal():
        legal = state.legal_action_strings()
        text = "pass" if "pass" in legal else legal[0]
        state.apply(text)
        out.append(text)
    return out


def replay(state: State, actions: Iterable[str]) -> State:
    """Apply recorded action texts to a fresh state."""
    for a in actions:
        state.apply(a)
    return state



def names(cards: Iterable[int]) -> list[str]:
    """Canonical names of cards (ints 0..31), in the given order."""
    return [card_name(c) for c in cards]


def play_to_end_phase(state: State, meld: bool = True) -> State:
    """Play the stock out with a fixed policy: lead/follow the first legal card; in a declaring
    turn score the first legal meld (when ``meld``) and then pass."""
    while not state.end_phase:
        legal = state.legal_action_strings()
        melds = [a for a in legal if a.startswith("meld")]
        if melds and meld:
            text = melds[0]
        elif "pass" in legal:
            text = "pass"
        else:
            text = legal[0]
        state.apply(text)
    return state


def lose(state: State) -> State:
    """The follower plays a card that loses to the card led (a concealed one if it can)."""
    assert state.phase == "follow", state.phase
    lead_card = state.trick_cards()[0]
    follows = [
        a for a in state.legal_action_strings()
        if beats(lead_card, parse_card(a[5:7]), state.trump)
    ]
    if not follows:
        raise ValueError("the follower cannot lose this trick")
    follows.sort(key=lambda a: ("*" in a, -rank_of(parse_card(a[5:7])), a))
    state.apply(follows[0])
    return state


def win_trick(state: State, keep: Iterable[str] = (), lead: str | None = None) -> State:
    """The seat to lead wins a stock trick: it leads ``lead`` or else a concealed card not named
    in ``keep`` (the lowest first), and the follower throws a card that loses.  Leaves the
    winner to declare."""
    assert state.phase == "lead", state.phase
    leader = state.current_player()
    if lead is None:
        keep_cards = {parse_card(k) for k in keep}
        choices = [
            a for a in state.legal_action_strings()
            if "*" not in a and parse_card(a.split()[1]) not in keep_cards
        ]
        if not choices:
            raise ValueError(f"seat {leader} has nothing to lead but {sorted(keep)}")
        lead = max(choices, key=lambda a: (rank_of(parse_card(a[5:])), a))
    state.apply(lead)
    lose(state)
    assert state.current_player() == leader and state.phase == "declare"
    return state


def total_meld_points(state: State, seat: int) -> int:
    """Points a seat has scored from melds in this deal."""
    return sum(p for s, p, reason, _ in state.events if s == seat and reason == "meld")


def readme_examples(heading: str) -> list[str]:
    """The ```python blocks of the README section that starts with ``heading`` (down to the
    next section of the same or a higher level)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    level = heading.split(" ")[0]
    start = text.index(heading + "\n")
    rest = text[start + len(heading):]
    ends = [rest.find("\n" + "#" * k + " ") for k in range(1, len(level) + 1)]
    section = rest[:min([e for e in ends if e >= 0], default=len(rest))]
    blocks = section.split("```python\n")[1:]
    return [b.split("```")[0] for b in blocks]


C = TypeVar("C")


def oracle_run(variant: str, options: dict[str, Any], seeds: range,
               play_deal: Callable[[Rules, int, random.Random, C], None], counts: C) -> C:
    """The independent-reading tests' loop (``test_*_oracle*.py``): ``play_deal`` each seed of
    the preset with these options, one random source named by the case for the choices, the
    ``counts`` it fills returned (and printed, for ``pytest -s``)."""
    rules = Rules.preset(variant, **options)
    rng = random.Random(f"{variant}{options}{seeds.start}")
    for seed in seeds:
        play_deal(rules, seed, rng, counts)
    print(variant, options, counts)
    return counts
