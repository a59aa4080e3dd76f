"""Why a hint: the reasons for an action in words, for the "explain" mode of the hints ("keeps
Q♠ for the bezique (40)", "A♣ wins the trick and its brisque", "9♦ is safe to lose: no meld
needs it").

The reasons come from the heuristic player's view of the position (:mod:`bezique.agents.
heuristic`): what each card could still become in a meld, what losing it costs, which card wins
the trick.  Only the player's :class:`~bezique.observation.Observation` is read: the cards it
holds and what is public (the world sampled for the heuristic's costs changes only the other
hand and the stock, which those costs never look at).

>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("bezique"), seed=3)
>>> obs = s.observation(s.current_player())
>>> why = explain(obs, obs.legal[0])
>>> len(why) >= 1 and all(isinstance(w, str) for w in why)
True
"""

from __future__ import annotations

import random

from ..cards import RANK_NAMES, card_symbol, make_card, rank_of, split_token, suit_of
from ..observation import Observation
from .heuristic import HeuristicPolicy
from .sampling import SamplingError, WorldSampler
from .targets import meld_targets

# the chance that a meld missing n cards is still made (the heuristic's defaults)
_CHANCE = (1.0, 0.5, 0.2)


def _cards(action: str) -> list[int]:
    """The cards an action text names, without their marks (:func:`split_token`)."""
    return [split_token(tok)[0] for tok in action.split()[1:]]


def _counts(cards: list[int]) -> list[int]:
    out = [0] * 32
    for c in cards:
        out[c] += 1
    return out


def prospects(obs: Observation) -> dict[int, tuple[str, int, int]]:
    """For each card the player holds: the best meld it could still be part of, as (name,
    points, cards missing); cards that make no meld are left out."""
    if obs.trump < 0:
        return {}
    rules = obs.rules
    me = obs.seat
    held = list(obs.hand) + list(obs.shown[me])
    mine = _counts(held)
    gone = _counts([c for t in obs.tricks for c in (t.lead, t.follow)]
                   + list(obs.shown[1 - me]) + list(obs.trick))
    avail = [max(0, rules.copies - mine[c] - gone[c]) for c in range(32)]
    scored = {(m.name, tuple(sorted(m.cards))) for m in obs.melds[me]}
    tg = meld_targets(rules, obs.trump)
    best: dict[int, tuple[str, int, int]] = {}

    def offer(card: int, name: str, pts: int, missing: int) -> None:
        worth = pts * _CHANCE[missing]
        old = best.get(card)
        if old is None or worth > old[1] * _CHANCE[old[2]]:
            best[card] = (name, pts, missing)

    for kind, pts, needs, _ in tg.fixed_sets:
        name = rules.melds[kind].name
        cards = tuple(sorted(c for c, n in needs for _ in range(n)))
        if (name, cards) in scored:
            continue
        missing = sum(max(0, n - mine[c]) for c, n in needs)
        if missing >= len(_CHANCE) or any(n - mine[c] > avail[c] for c, n in needs):
            continue
        for c, _n in needs:
            if mine[c]:
                offer(c, name, pts, missing)
    for kind, pts, n, four, _, _ in tg.four_cards:
        name = rules.melds[kind].name
        if any(m.name == name for m in obs.melds[me]):
            continue
        have = sum(1 for c in four if mine[c]) if tg.distinct else sum(mine[c] for c in four)
        missing = max(0, n - have)
        if have >= 2 and missing < len(_CHANCE) and sum(avail[c] for c in four) >= missing:
            for c in four:
                if mine[c]:
                    offer(c, name, pts, missing)
    return best


def _beats(rules_trump: int, lead: int, card: int) -> bool:
    if suit_of(card) == suit_of(lead):
        return rank_of(card) < rank_of(lead)
    return suit_of(card) == rules_trump


def _costs(obs: Observation) -> list[float] | None:
    """The heuristic's cost of losing each card, seen from the observation (None if no world
    consistent with it is found, which does not happen in a real game)."""
    try:
        world = WorldSampler(obs).sample(random.Random(0))
    except SamplingError:  # pragma: no cover - an impossible observation
        return None
    return HeuristicPolicy().keep_costs(world)


def _keeps(obs: Observation, played: int, pro: dict[int, tuple[str, int, int]]) -> list[str]:
    """The cards the play keeps back, and for what (the two most costly to lose, with the other
    cards of the same meld)."""
    costs = _costs(obs)
    held = sorted({c for c in (*obs.hand, *obs.shown[obs.seat]) if c != played and c in pro},
                  key=lambda c: (-(costs[c] if costs else pro[c][1]), c))
    melds: dict[str, list[int]] = {}
    for c in held:
        name = pro[c][0]
        if name in melds:
            melds[name].append(c)
        elif len(melds) < 2:
            melds[name] = [c]
    out = []
    for name, cards in melds.items():
        _, pts, missing = pro[cards[0]]
        more = "" if missing == 0 else f", {missing} card{'s' if missing > 1 else ''} to come"
        out.append(f"keeps {' '.join(card_symbol(c) for c in cards)} for the {name} "
                   f"({pts}{more})")
    return out


def _play(obs: Observation, card: int) -> list[str]:
    rules = obs.rules
    pts = rules.card_points
    word = "brisque" if rules.variant != "binocle" else "card point"
    sym = card_symbol(card)
    pro = prospects(obs)
    out: list[str] = []
    wins = bool(obs.trick) and _beats(obs.trump, obs.trick[0], card)
    if obs.end_phase:
        if obs.trick:
            out.append("the stock is gone: follow suit, and win the trick if you can")
        if len(obs.hand) <= 8:
            out.append("the last tricks are counted out exactly: this card makes the most of "
                       "what is left")
    if obs.trick:
        lead = obs.trick[0]
        in_trick = pts[rank_of(lead)] + pts[rank_of(card)]
        if wins:
            gain = f" and its {in_trick} in {word}s" if in_trick else ""
            out.append(f"{sym} wins the trick{gain}")
            if not obs.end_phase and pro:
                ready = sorted(((p, n) for c, (n, p, miss) in pro.items()
                                if miss == 0 and c != card), reverse=True)
                if ready:
                    out.append(f"then you may declare the {ready[0][1]} ({ready[0][0]})")
        else:
            out.append(f"{sym} lets the trick go: "
                       + ("it holds no " + word if not pts[rank_of(lead)] else
                          f"winning it would cost more than its {in_trick}"))
    elif obs.end_phase:
        out.append(f"leading {sym}: lead the cards the other hand cannot beat, the richest first")
    else:
        worth = pts[rank_of(card)]
        if worth:
            what = "a brisque" if word == "brisque" else f"{worth} card points"
            out.append(f"leading {sym}: {what} that the other hand can hardly take")
        else:
            out.append(f"leading {sym}: it carries no {word}")
    if not obs.end_phase:
        if card in pro:
            name, p, _ = pro[card]
            out.append(f"{sym} could still go into the {name} ({p}), but the rest is worth more")
        elif wins:
            out.append(f"no meld needs {sym}: it wins cheaply")
        else:
            out.append(f"{sym} is safe to lose: no meld needs it")
        out.extend(_keeps(obs, card, pro))
    return out


def _declare(obs: Observation, action: str) -> list[str]:
    rules = obs.rules
    seven = f"the {RANK_NAMES[rules.seven_rank]} of trumps"
    if obs.trump >= 0:
        seven = f"{card_symbol(make_card(rules.seven_rank, obs.trump))}, {seven},"
    verb = action.split()[0]
    if verb == "exchange":
        turnup = card_symbol(obs.turnup) if obs.turnup is not None else "the turn-up"
        return [f"exchanging {seven} scores 10 and brings you {turnup}"]
    if verb == "seven":
        return [f"showing {seven} scores 10; you keep the card"]
    if verb == "pass":
        return ["nothing to declare now: draw"]
    cards = _cards(action)
    kind = rules.classify(cards, obs.trump)
    if kind is None:
        return []
    out = [f"the {kind.name} scores {kind.points}, the most you can declare now"]
    bigger = [rules.melds[k] for k, p, needs, _ in meld_targets(rules, obs.trump).fixed_sets
              if rules.melds[k].cls == kind.cls and p > kind.points
              and all(any(c == x for x, _ in needs) for c in cards)]
    if bigger:
        b = max(bigger, key=lambda m: m.points)
        out.append(f"declared first, it can grow: add the other cards for the {b.name} "
                   f"({b.points}) after another trick")
    others = sum(1 for a in obs.legal if a.startswith("meld ")) - 1
    if others > 0:
        out.append("one meld per trick won: the others wait for your next trick")
    return out


def explain(obs: Observation, action: str) -> list[str]:
    """The reasons for ``action`` (an action text legal in ``obs``) in words, most important
    first; an empty list when there is nothing useful to say."""
    verb, _, rest = action.partition(" ")
    if verb == "play" and rest:
        return _play(obs, split_token(rest)[0])
    if verb in ("meld", "exchange", "seven", "pass"):
        return _declare(obs, action)
    return []
