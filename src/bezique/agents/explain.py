"""Why a hint: the reasons for an action in words, for the "explain" mode of the hints ("keeps
Q♠ for the bezique (40)", "A♣ wins the trick and its brisque", "9♦ is safe to lose: no meld
needs it").

The reasons come from the heuristic player's view of the position (:mod:`bezique.agents.
heuristic`): what each card could still become in a meld, what losing it costs, which card wins
the trick.  Only the player's :class:`~bezique.observation.Observation` is read: a world
consistent with it is sampled, and only what the observation fixes in it is used (the seat's
own cards and melds, the public cards: the other hands and the stock are never looked at).

Every claim about the rules is the engine's judgement, not a rule written again here: whether
a meld is (or could become) legal given the seat's earlier melds is asked of the meld judges
of :mod:`bezique.melds` (RULES.md 3.3, 9.0.5, 9.4); what may be declared after a trick or a
meld, of the sampled world itself; which card wins a trick, of :func:`bezique.tricks.beats`.

>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("bezique"), seed=3)
>>> obs = s.observation(s.current_player())
>>> why = explain(obs, obs.legal[0])
>>> len(why) >= 1 and all(isinstance(w, str) for w in why)
True
"""

from __future__ import annotations

import random
from collections import Counter

from ..cards import (
    RANK_NAMES,
    SUIT_SYMBOLS,
    bits,
    card_symbol,
    make_card,
    rank_of,
    split_token,
    suit_of,
)
from ..errors import BeziqueError
from ..observation import Observation
from ..position import CUT_GUESSED
from ..rules import Rules
from ..state import State
from ..tricks import beats
from .explain_melds import (
    CHANCE,
    Judge,
    declarable,
    meld_key,
    meld_names,
    partner_hope,
    table_meld,
    top_kind,
)
from .heuristic import HeuristicPolicy
from .sampling import SamplingError, WorldSampler
from .table_worlds import TableSampler

Prospect = tuple[str, int, int]  # (meld name, points, cards missing)
# per card: its best prospect, the pattern it is a meld of, the seat's cards in that meld
Prospects = dict[int, tuple[Prospect, int, tuple[int, ...]]]


def _cards(action: str) -> list[int]:
    """The cards an action text names, without their marks (:func:`split_token`)."""
    return [split_token(tok)[0] for tok in action.split()[1:]]


def _world(obs: Observation) -> State | None:
    """A complete state whose observation for ``obs.seat`` is ``obs`` (None if none is found,
    which does not happen in a real game).  Its seat's cards and melds are those of ``obs``."""
    try:
        sampler = TableSampler(obs) if obs.rules.nplayers > 2 else WorldSampler(obs)
        return sampler.sample(random.Random(0))
    except SamplingError:  # pragma: no cover - an impossible observation
        return None


def _available(obs: Observation) -> list[int]:
    """Per card, the copies that could still reach the seat: unseen ones and the turn-up."""
    out = [0] * 32
    for c, n in obs.unseen().items():
        out[c] = n
    if obs.turnup is not None and not obs.end_phase:
        out[obs.turnup] += 1
    return out


def _room(obs: Observation) -> int:
    """How many cards the seat may still draw and then declare: not the one of the last draw,
    after which the stock is gone and nobody declares (RULES.md 2.3, 2.4)."""
    left = obs.stock + (obs.turnup is not None)
    return max(0, left // obs.rules.nplayers - 1)


def _last_turn(obs: Observation) -> bool:
    """True in the last declaring turn of the deal: its draw empties the stock."""
    return obs.stock + (obs.turnup is not None) <= obs.rules.nplayers


def _prospects(obs: Observation, world: State | None) -> Prospects:
    """:func:`prospects`, each with the pattern it is a meld of and the seat's cards in that
    meld, each copy it takes (three 10♣ of four trump tens)."""
    if obs.end_phase or world is None:
        return {}
    rules = obs.rules
    best: Prospects = {}
    judge = Judge(world, obs.seat, _available(obs), _room(obs))
    for i, (kind, real, missing) in enumerate(judge.best()):
        k = rules.melds[kind]
        if k.shape in ("four", "eight") and real.bit_count() < 2:
            continue
        cards = tuple(sorted(p & 31 for p in bits(real)))
        for c in set(cards):
            old = best.get(c)
            if old is None or k.points * CHANCE[missing] > old[0][1] * CHANCE[old[0][2]]:
                best[c] = ((k.name, k.points, missing), i, cards)
    return best


def prospects(obs: Observation) -> dict[int, Prospect]:
    """For each card the player holds: the best meld it could still legally be part of (given
    its earlier melds), as (name, points, cards missing); cards that make no meld are left
    out."""
    return {c: p for c, (p, _, _) in _prospects(obs, _world(obs)).items()}


def _costs(world: State | None) -> list[float] | None:
    """The heuristic's cost of losing each card, for the seat to act of the sampled world."""
    return HeuristicPolicy().keep_costs(world) if world is not None else None


def _keeps(obs: Observation, played: int, pro: Prospects, costs: list[float] | None
           ) -> list[str]:
    """The cards the play keeps back, and for what: the melds of the two cards most costly to
    lose, each with all the seat's cards in it (so that they and the cards to come make the
    meld); none the play itself breaks."""
    mine = Counter((*obs.hand, *obs.shown[obs.seat]))
    mine[played] -= 1
    held = sorted((c for c in mine if mine[c] > 0 and c in pro),
                  key=lambda c: (-(costs[c] if costs else pro[c][0][1]), c))
    melds: dict[int, int] = {}
    for c in held:
        if pro[c][1] not in melds and pro[c][2].count(played) <= mine[played]:
            melds[pro[c][1]] = c
    out = []
    for c in list(melds.values())[:2]:
        (name, pts, missing), _, cards = pro[c]
        more = "" if missing == 0 else f", {missing} card{'s' if missing > 1 else ''} to come"
        out.append(f"keeps {' '.join(card_symbol(m) for m in cards)} for the {name} "
                   f"({pts}{more})")
    return out


def _worth(rules: Rules) -> tuple[str, str]:
    """What the cards won in tricks are called, and what they are worth: ("", "") where they
    score nothing (Six- and Eight-pack, RULES.md 9.2)."""
    if not any(rules.card_points):
        return "", ""
    if rules.card_points[0] != rules.card_points[1]:  # Binocle: A 11, 10 10, K 4, ...
        return "card point", ""
    if rules.settlement == "portland":  # Rubicon (RULES.md 9.0.7, 9.1)
        return "brisque", " (brisques count only to break a tie or to save a rubicon)"
    return "brisque", ""


def _trick_size(obs: Observation) -> int:
    rules = obs.rules
    if rules.nplayers == 4 and rules.four_hand_end == "duels" and obs.end_phase:
        return 2  # the duels that end a four-handed deal (RULES.md 9.5)
    return rules.nplayers


def _after(world: State | None, action: str) -> State | None:
    """The sampled world after ``action`` (None without a world)."""
    if world is None:
        return None
    after = world.clone()
    try:
        after.apply(action)
    except BeziqueError:  # pragma: no cover - the action is legal in the observation
        return None
    return after


def _takers(obs: Observation, card: int) -> str:
    """Which cards could take ``card`` led, among those the other hands may hold as the seat
    counts them: the cards it has not seen and those it knows they hold (RULES.md 2.2)."""
    pool = set(obs.unseen())
    for i in range(obs.rules.nplayers):
        if i != obs.seat:
            pool.update(obs.shown[i], obs.known_cards[i])
    over = [c for c in sorted(pool) if beats(c, card, obs.trump)]
    if not over:
        hands = "the other hand" if obs.rules.nplayers == 2 else "the other hands"
        return f"nothing {hands} may hold can take it"
    names = [card_symbol(c) for c in over if suit_of(c) == suit_of(card)]
    if len(names) > 2:
        names = [f"a higher {SUIT_SYMBOLS[suit_of(card)]}"]
    if any(suit_of(c) != suit_of(card) for c in over):  # (another suit beats only as trumps)
        names.append("a trump")
    return "only " + (names[0] if len(names) == 1 else
                      ", ".join(names[:-1]) + " or " + names[-1]) + " can take it"


def _follow_end(obs: Observation, best: int) -> str:
    """Why a card lets an end-phase trick go: nothing the seat may play beats the best card
    (it must follow suit, and win if it can: RULES.md 2.4, 9.4, 9.5)."""
    if not any(beats(c, best, obs.trump) for c in obs.hand):
        return f"nothing you hold beats {card_symbol(best)}"
    return f"you must follow suit, and nothing you may play beats {card_symbol(best)}"


def _lead_end(obs: Observation, card: int) -> str:
    """An end-phase lead in a deal of two: the other hand is known by counting (the cards not
    seen and those known of it), so whether it can beat the card is a fact."""
    sym = card_symbol(card)
    theirs = [*obs.opponent_known, *obs.unseen().elements()]

    def beaten(c: int) -> bool:  # (holding the suit led, the other hand must follow it)
        same = [o for o in theirs if suit_of(o) == suit_of(c)]
        return any(beats(o, c, obs.trump) for o in same or theirs)

    if not beaten(card):
        return f"leading {sym}: the other hand cannot beat it"
    if all(beaten(c) for c in obs.hand):
        return f"leading {sym}: the other hand can beat every card you hold"
    return f"leading {sym}: the other hand can beat it"


def _play(obs: Observation, action: str, card: int) -> list[str]:
    rules = obs.rules
    pts = rules.card_points
    word, note = _worth(rules)
    nothing = "no brisque" if word == "brisque" else "no card points"
    two = rules.nplayers == 2
    sym = card_symbol(card)
    world = _world(obs)
    pro = _prospects(obs, world)
    out: list[str] = []
    trick = obs.trick
    last = len(trick) == _trick_size(obs) - 1
    best = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best], obs.trump):
            best = i
    ahead = bool(trick) and beats(card, trick[best], obs.trump)
    wins = ahead and last
    mate, leader = rules.partner(obs.seat), (obs.seat - len(trick)) % rules.nplayers
    partners = (bool(trick) and not ahead and mate >= 0 and _trick_size(obs) > 2
                and (leader + best) % rules.nplayers == mate)
    if obs.end_phase:
        if trick:
            out.append("the stock is gone: follow suit, and " + (
                "win the trick if you can" if two else "beat the best card so far if you can"))
        if two and len(obs.hand) <= 8:  # (at a table the other hands cannot be counted out)
            out.append("the last tricks are counted out exactly: this card makes the most of "
                       "what is left")
        if not word:
            out.append(f"only the last trick scores here ({rules.last_trick_points}): the "
                       "tricks themselves score nothing (no brisques)")
    if trick:
        in_trick = sum(pts[rank_of(c)] for c in (*trick, card))
        gain = f" and its {in_trick} in {word}s{note}" if in_trick and word else ""
        if wins:
            out.append(f"{sym} wins the trick{gain}")
            if not obs.end_phase:
                ready = declarable(_after(world, action), obs.seat)
                if ready:
                    out.append("then you may declare "
                               + meld_names(top_kind(ready), rules, obs.trump, either=True))
        elif ahead:
            left = _trick_size(obs) - 1 - len(trick)
            held = (f" (the trick holds {in_trick} in {word}s{note})"
                    if in_trick and word else "")
            out.append(f"{sym} beats {card_symbol(trick[best])}, the best card so far{held}; "
                       f"{left} more card{'s' if left > 1 else ''} to come")
        else:
            if obs.end_phase:
                why = _follow_end(obs, trick[best])
            elif partners:
                why = f"your partner's {card_symbol(trick[best])} is best so far"
            elif not any(beats(c, trick[best], obs.trump) for c in (*obs.hand,
                                                                     *obs.shown[obs.seat])):
                why = f"nothing you hold beats {card_symbol(trick[best])}"
            elif not word:
                why = "the tricks themselves score nothing here (no brisques)"
            elif not in_trick:
                why = f"it holds {nothing}"
            else:  # (its points with the card's own: those the opponents win)
                why = f"winning it would cost more than its {in_trick} in {word}s{note}"
            out.append(f"{sym} lets the trick go: {why}")
    elif obs.end_phase and two:
        out.append(_lead_end(obs, card))
    else:  # (and a table's last tricks: who could take it)
        worth = pts[rank_of(card)]
        if not word:
            out.append(f"leading {sym}: cards won score nothing here (no brisques)")
        elif worth:
            what = "a brisque" if word == "brisque" else f"{worth} card points"
            out.append(f"leading {sym}, {what}: {_takers(obs, card)}{note}")
        else:
            out.append(f"leading {sym}: it carries {nothing}")
    if not obs.end_phase:
        if card in pro:
            name, p, _ = pro[card][0]
            out.append(f"{sym} could still go into the {name} ({p}), but the rest is worth more")
        elif wins:
            out.append(f"no meld needs {sym}: it wins cheaply")
        elif ahead:
            out.append(f"no meld needs {sym}: it is cheap to play")
        elif word and pts[rank_of(card)] and not partners:  # (its points may be lost)
            out.append(f"no meld needs {sym}")
        else:
            out.append(f"{sym} is safe to lose: no meld needs it")
        out.extend(_keeps(obs, card, pro, _costs(world)))
    return out


def _meld(obs: Observation, action: str) -> list[str]:
    rules = obs.rules
    seat = obs.seat
    world = _world(obs)
    now = declarable(world, seat)
    after = _after(world, action)
    if world is None or after is None or not now:  # pragma: no cover - an impossible view
        return []
    kind, mask = after.meld_log[seat][-1]
    k = rules.melds[kind]
    top = rules.melds[now[0][0]]
    name = f"meld of {k.name}" if k.name.split()[0] in ("four", "five", "eight") else k.name
    if k.points >= top.points:
        out = [f"the {name} scores {k.points}, the most you can declare now"]
    else:
        more = meld_names(top_kind(now), rules, obs.trump, either=True)
        out = [f"the {name} scores {k.points}; {more} would score more now"]
    fixed = after.trump >= 0 > obs.trump  # RULES.md 9.0.2
    if fixed:
        out.append(f"it fixes trumps: {SUIT_SYMBOLS[after.trump]} for the rest of the deal")
    mine = obs.scores[seat] + obs.brisques[seat]
    if (rules.settlement == "portland" and rules.nplayers == 2
            and mine < rules.rubicon_at <= mine + k.points):  # RULES.md 9.0.7
        out.append(f"it lifts you to the rubicon line ({rules.rubicon_at}): a loser below it "
                   f"at the end pays the rubicon bonus ({rules.rubicon_bonus_points}) as well")
    per = rules.melds_per_trick
    this = meld_key(rules, kind, mask)
    still = {meld_key(rules, kk, m) for kk, m in declarable(after, seat)}
    last = _last_turn(obs)
    bigger = {i for i, m in enumerate(rules.melds) if m.cls == k.cls and m.points > k.points}
    grow = [g for g in Judge(after, seat, _available(obs), 0 if last else _room(obs)
                              ).best(bigger, contain=mask)
            if not last or meld_key(rules, g[0], g[1]) in still]
    if grow:
        b, real, missing = max(grow, key=lambda g: (rules.melds[g[0]].points, -g[2]))
        when = "after another trick"
        if meld_key(rules, b, real) in still:
            when = "this turn" if last else "this turn or after another trick"
        more = "" if not missing else f" ({missing} card{'s' if missing > 1 else ''} to come)"
        out.append(f"declared first, it can grow: add the other cards for the "
                   f"{rules.melds[b].name} ({rules.melds[b].points}) {when}{more}")
    later = {meld_key(rules, after.classify(m), m) for m in after.legal_meld_masks(seat)}
    renamed = {cards: kk for kk, (_, cards) in ((after.classify(m), meld_key(rules, 0, m))
                                                 for m in after.legal_meld_masks(seat))}
    rest: dict[str, list[tuple[int, int]]] = {"now": [], "wait": [], "lost": [], "last": []}
    for kk, m in now:
        key = meld_key(rules, kk, m)
        if key != this and key not in later and key[1] in renamed:  # trumps fixed by this meld
            less = rules.melds[renamed[key[1]]]
            out.append(f"{'with ' + SUIT_SYMBOLS[after.trump] + ' trumps, ' if fixed else ''}"
                       f"{' '.join(card_symbol(c) for c in key[1])} will make only the "
                       f"{less.name} ({less.points})")
        elif key != this:
            where = ("now" if key in still else "lost" if key not in later
                     else "last" if last else "wait")
            if where != "lost" or kk != kind or not set(key[1]) & set(this[1]):
                rest[where].append((kk, m))  # (not the meld declared, of other cards)
    many = f"{per} melds per trick won"
    said = {key: meld_names(melds, rules, after.trump) for key, melds in rest.items() if melds}
    if "now" in said:
        out.append(f"{many}: you may still declare {said['now']} this turn")
    if "wait" in said:
        out.append(f"{'one meld per trick won' if per == 1 else many}: {said['wait']} must wait "
                   "for your next trick")
    if "last" in said:
        out.append(f"this is the last declaring turn: {said['last']} will not be declared")
    if "lost" in said:
        out.append(f"after it {said['lost']} may no longer be declared from these cards")
    return out


def _declare(obs: Observation, action: str) -> list[str]:
    rules = obs.rules
    seven = f"the {RANK_NAMES[rules.seven_rank]} of trumps"
    if obs.trump >= 0:
        seven = f"{card_symbol(make_card(rules.seven_rank, obs.trump))}, {seven},"
    verb = action.split()[0]
    if verb in ("exchange", "seven"):
        world = _world(obs)
        after = _after(world, action)
        gain = (after.scores[obs.seat] - world.scores[obs.seat]
                if world is not None and after is not None else rules.seven_points)
        scores = (f"scores {gain}" if gain else
                  f"scores nothing (that {RANK_NAMES[rules.seven_rank]} has scored already)")
        if verb == "seven":
            return [f"showing {seven} {scores}; you keep the card"]
        turnup = card_symbol(obs.turnup) if obs.turnup is not None else "the turn-up"
        return [f"exchanging {seven} {scores} and brings you {turnup}"]
    if verb == "pass":
        melds = any(a.startswith("meld ") for a in obs.legal)
        if melds or "exchange" in obs.legal or "seven" in obs.legal:
            if _last_turn(obs):
                return ["declaring nothing: draw (the stock runs out: nothing can be declared "
                        "after this turn)"]
            what = ("a meld not declared" if melds else
                    f"the {RANK_NAMES[rules.seven_rank]} of trumps not exchanged or shown")
            return [f"declaring nothing now: draw ({what} waits for another trick won)"]
        return ["nothing to declare now: draw" + (
            " (an offer would let your partner declare instead)" if "offer" in obs.legal else "")]
    if rules.classify(_cards(action), obs.trump) is None:
        return []
    return _meld(obs, action)


def explain(obs: Observation, action: str) -> list[str]:
    """The reasons for ``action`` (an action text legal in ``obs``) in words, most important
    first; an empty list when there is nothing useful to say."""
    verb, _, rest = action.partition(" ")
    if verb == "play" and rest:
        return _play(obs, action, split_token(rest)[0])
    if verb in ("meld", "exchange", "seven", "pass"):
        return _declare(obs, action)
    return _other(obs, verb)


def _other(obs: Observation, verb: str) -> list[str]:
    """The partner's offer (RULES.md 9.5), carte blanche (9.0.4), the guess of the cut (9.2)."""
    if verb == "offer":
        return _offer(obs)
    if verb == "carte":
        return [f"carte blanche scores {obs.rules.carte_points}: your hand holds no king, queen "
                f"or jack"]
    if verb == "guess":
        return [f"a right guess of the cut scores {CUT_GUESSED}"]
    return []


def _offer(obs: Observation) -> list[str]:
    """The partner's turn to declare (RULES.md 9.5), with what this seat has seen of the
    partner's cards: the meld they make on the table (with the seat's own shown cards), else
    the meld they make with cards the partner may hold; and the seat's own meld it puts off."""
    rules, seat = obs.rules, obs.seat
    mate = rules.partner(seat)
    world = _world(obs)
    mine = any(a.startswith(("meld ", "exchange", "seven")) for a in obs.legal)
    out = ["your partner may declare instead of you: one meld for the side this trick"
           + ("" if mine else ", and you have nothing to declare yourself")]
    own = declarable(world, seat)
    yours = meld_names(top_kind(own), rules, obs.trump, either=True) if own else ""
    waits = bool(own)  # (the seat's own meld waits, unless the partner's is the same or more)
    table = table_meld(world, seat) if world is not None and obs.shown[mate] else None
    if world is not None and table is not None:
        kind, m = table
        either = meld_key(rules, *table) in {meld_key(rules, *km) for km in top_kind(own)}
        more = bool(own) and rules.melds[kind].points > rules.melds[own[0][0]].points
        waits = waits and not (either or more)
        also = (f" and your {_symbols(m & world.shown_masks[seat])}"
                if m & world.shown_masks[seat] else "")
        out.append(f"on the table your partner's {_symbols(m & world.shown_masks[mate])}{also} "
                   f"make {meld_names([table], rules, obs.trump)} for "
                   + ("either of you to declare" if either else "them to declare")
                   + (f", more than {yours} you may declare yourself" if more else ""))
    elif world is not None and (hope := partner_hope(obs, world, mate)) is not None:
        kind, real, missing = hope
        what = meld_names([(kind, real)], rules, obs.trump)
        out.append(f"on the table your partner's {_symbols(real)} "
                   f"make{'' if real & real - 1 else 's'} {what} with {missing} "
                   f"card{'s' if missing > 1 else ''} from their hand")
    if waits:
        out.append(f"you may declare {yours} yourself: after the offer it "
                   + ("will not be declared (this is the last declaring turn)" if _last_turn(obs)
                      else "waits for another trick won"))
    return out


def _symbols(mask: int) -> str:
    """The cards of a physical mask as a player reads them: ``K♠ Q♠``."""
    return " ".join(card_symbol(c) for c in sorted(p & 31 for p in bits(mask)))
