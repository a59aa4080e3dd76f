"""The learned models' inputs: an observation as a fixed vector of floats, and each legal action
of it as another, computed from the seat's :class:`~bezique.observation.Observation` only (never
a hidden card), so two worlds the seat cannot tell apart give the same vectors.

Suits are seen from the trumps: the trump suit comes first, then the others in their order, so
"the ace of trumps" is one input whatever the trump suit is.  Card counts are divided by the
copies of a card in the deck (two in Bezique), points by 100 (brisques by 10).

The observation's inputs (:data:`OBS_NAMES`): the stage of the deal (share of the stock left,
the end phase, lead, follow or declare), the points and brisques so far, the seat's cards
(concealed and shown) card by card, the opponent's cards everyone knows of (shown, or known in
hand), the cards not yet seen, the melds each seat could still make grouped by how many cards
are missing (the unseen cards are the pool), the seat's trumps, trump brisques, aces and tens
(also weighted by how little stock is left), and an unscored seven of trumps.

An action's inputs (:data:`ACTION_NAMES`): its kind; for a card played, its rank, whether it is
a trump, shown, worth points, how many copies the seat holds and how many are unseen, whether it
wins the trick led and what that trick holds, and the points of the melds the card could still
be part of (what playing it may cost); for a meld, its points and how many concealed cards it
shows; and whether it is the heuristic agent's choice (the exact solver's in the end phase, the
heuristic's in one world consistent with the observation before it, the world drawn with a seed
made from the observation's text: the same observation, the same world; see
:func:`heuristic_choice`), so the policy learns where the teacher departs from the heuristic.

>>> from bezique import Rules, State
>>> obs = State.new_deal(Rules.preset("bezique"), seed=3).observation(0)
>>> x, acts = decision_features(obs)
>>> len(x) == len(OBS_NAMES), [len(a) == len(ACTION_NAMES) for a in acts][:1]
(True, [True])
"""

from __future__ import annotations

import hashlib
import random

from ..cards import parse_card
from ..errors import BeziqueError
from ..observation import Observation
from ..tricks import beats
from .endgame import solve
from .heuristic import HeuristicPolicy
from .sampling import WorldSampler
from .solver import SolverBudgetError
from .targets import meld_targets

_KINDS = ("lead", "follow", "meld", "pass", "exchange", "seven", "other")
_RANKS = ("A", "T", "K", "Q", "J", "9", "8", "7")


def _card_names(prefix: str) -> tuple[str, ...]:
    return tuple(f"{prefix}_{s}{r}" for s in ("trump", "b", "c", "d") for r in _RANKS)


#: Names of :func:`observation_features`' entries, in order.
OBS_NAMES: tuple[str, ...] = (
    "stock", "late", "end_phase", "lead", "follow", "declare",
    "score_diff", "brisque_diff", "score_mine", "score_other",
    *_card_names("mine"), *_card_names("other"), *_card_names("unseen"),
    "meld0", "meld1", "meld2", "meld3", "meld0_stock", "meld1_stock", "meld2_stock",
    "meld3_stock", "other_meld0", "other_meld1", "other_meld2", "other_meld3",
    "trumps", "trump_brisques", "aces", "tens",
    "trumps_late", "trump_brisques_late", "aces_late", "tens_late", "seven",
)

#: Names of :func:`action_features`' entries, in order.
ACTION_NAMES: tuple[str, ...] = (
    *(f"kind_{k}" for k in _KINDS), *(f"rank_{r}" for r in _RANKS),
    "trump", "shown", "points", "held", "unseen", "other_known",
    "wins", "same_suit", "led_points", "led_trump", "stake", "stake_late",
    "meld_points", "meld_cards", "meld_exposed", "heuristic",
)


class _View:
    """What the features of one observation share: card counts by canonical card, the meld
    stake of each card."""

    def __init__(self, obs: Observation) -> None:
        rules = obs.rules
        self.obs = obs
        self.trump = obs.trump
        self.copies = float(rules.copies)
        self.sf = obs.stock / max(1, rules.stock_size)
        seat = obs.seat
        other = (seat + 1) % rules.nplayers
        self.mine = [0] * 32
        for c in obs.hand:
            self.mine[c] += 1
        for c in obs.shown[seat]:
            self.mine[c] += 1
        self.known = [0] * 32
        for c in obs.shown[other]:
            self.known[c] += 1
        for c in obs.known_cards[other]:
            self.known[c] += 1
        self.unseen = [0] * 32
        for c, n in obs.unseen().items():
            self.unseen[c] = n
        self.by_miss, self.stake = self._melds(self.mine, seat, self.unseen)
        # the opponent's chances: its cards known, drawing from what it has not seen (the
        # unseen cards and this seat's concealed ones)
        pool = list(self.unseen)
        for c in obs.hand:
            pool[c] += 1
        self.other_by_miss = self._melds(self.known, other, pool)[0]

    def canon(self, card: int) -> int:
        """The card's input index: its suit counted from the trumps."""
        t = self.trump
        return card if t < 0 else ((card >> 3) - t) % 4 * 8 + (card & 7)

    def _melds(self, held: list[int], seat: int, pool: list[int]
               ) -> tuple[list[float], list[float]]:
        """Points of the melds ``held`` could still make from ``pool``, by the number of cards
        missing (0 to 3), leaving out melds ``seat`` scored; and each card's stake in them
        (the points of the melds it is part of, less the more cards are missing)."""
        out = [0.0, 0.0, 0.0, 0.0]
        stake = [0.0] * 32
        obs = self.obs
        if self.trump < 0:
            return out, stake
        rules = obs.rules
        tg = meld_targets(rules, self.trump)
        scored: set[tuple[str, int]] = set()
        for m in obs.melds[seat]:
            cards = 0
            for c in m.cards:
                cards |= 1 << c
            scored.add((m.name, cards))
        names = {name for name, _ in scored}
        for kind, pts, needs in tg.fixed:
            name = rules.melds[kind].name
            cards = 0
            held_n = miss = 0
            ok = True
            for c, n in needs:
                cards |= 1 << c
                k = held[c]
                held_n += k
                if k < n:
                    if pool[c] < n - k:
                        ok = False
                        break
                    miss += n - k
            if ok and held_n and miss <= 3 and (name, cards) not in scored:
                out[miss] += pts
                for c, _ in needs:
                    if held[c]:
                        stake[c] += pts / (1.0 + miss)
        for kind, pts, rank, n in tg.fours:
            if rules.melds[kind].name in names:
                continue
            have = extra = 0
            for suit in range(4):
                c = suit * 8 + rank
                if tg.distinct:
                    have += 1 if held[c] else 0
                    extra += 0 if held[c] else min(pool[c], 1)
                else:
                    have += held[c]
                    extra += pool[c]
            miss = max(0, n - have)
            if have and miss <= 3 and miss <= extra:
                out[miss] += pts
                for suit in range(4):
                    if held[suit * 8 + rank]:
                        stake[suit * 8 + rank] += pts / (1.0 + miss)
        return out, stake


def observation_features(obs: Observation) -> list[float]:
    """The observation as a vector (see :data:`OBS_NAMES`)."""
    return _obs_vector(_View(obs))


def _obs_vector(v: _View) -> list[float]:
    obs = v.obs
    rules = obs.rules
    seat = obs.seat
    other = (seat + 1) % rules.nplayers
    sf = v.sf
    late = 1.0 - sf
    mine_turn = obs.turn == seat
    x = [sf, late, 1.0 if obs.end_phase else 0.0,
         1.0 if mine_turn and obs.phase == "lead" else 0.0,
         1.0 if mine_turn and obs.phase == "follow" else 0.0,
         1.0 if mine_turn and obs.phase == "declare" else 0.0]
    s, b = obs.scores, obs.brisques
    brisque_diff = float(b[seat] - b[other]) if rules.brisques == "end" else 0.0
    x += [(s[seat] - s[other]) / 100.0, brisque_diff / 10.0, s[seat] / 100.0,
          s[other] / 100.0]
    cp = v.copies
    for counts in (v.mine, v.known, v.unseen):
        row = [0.0] * 32
        for c in range(32):
            if counts[c]:
                row[v.canon(c)] = counts[c] / cp
        x += row
    m = v.by_miss
    x += [p / 100.0 for p in m]
    x += [p * sf / 100.0 for p in m]
    x += [p / 100.0 for p in v.other_by_miss]
    trumps = high = aces = tens = 0
    for c in range(32):
        k = v.mine[c]
        if not k:
            continue
        r = c & 7
        if c >> 3 == v.trump:
            if r <= 1:
                high += k
            else:
                trumps += k
        elif r == 0:
            aces += k
        elif r == 1:
            tens += k
    x += [trumps / 4.0, high / 4.0, aces / 4.0, tens / 4.0,
          trumps * late / 4.0, high * late / 4.0, aces * late / 4.0, tens * late / 4.0]
    seven = 0.0
    if obs.turnup is not None and v.trump >= 0 and obs.turnup_dealt >= 0:
        card7 = v.trump * 8 + rules.seven_rank
        if v.mine[card7] and not any(t == "seven" or t == "exchange"
                                     for who, t in obs.actions if who == seat):
            seven = 1.0
    x.append(seven)
    return x


def _cards_of(text: str) -> list[int]:
    """The cards an action text names (``play QS*2``, ``meld QS JD``)."""
    out = []
    for tok in text.split()[1:]:
        out.append(parse_card(tok.rstrip("0123456789").rstrip("*+")))
    return out


_HEURISTIC = HeuristicPolicy(solver_cards=0)
_SOLVE_CARDS = 8  # the heuristic agent's default: it solves ends of this many cards exactly


def heuristic_choice(obs: Observation) -> str:
    """The heuristic agent's action: in the end phase the exact solver's (as the heuristic
    agent plays it), before it the heuristic's in a world consistent with ``obs``, sampled with
    a seed made from the observation alone (so equal observations give the same answer);
    ``""`` when the seat is not to act."""
    if len(obs.legal) < 2:
        return obs.legal[0] if obs.legal else ""
    if obs.end_phase and obs.phase in ("lead", "follow") and len(obs.hand) <= _SOLVE_CARDS:
        try:
            return solve(obs, max_nodes=_HEURISTIC.solver_nodes).best
        except SolverBudgetError:
            pass
    seed = int.from_bytes(hashlib.sha256(obs.text().encode()).digest()[:8], "big")
    world = WorldSampler(obs).sample(random.Random(seed))
    return world.action_to_string(_HEURISTIC.choose(world))


def _action_vector(v: _View, text: str, pick: str) -> list[float]:
    obs = v.obs
    word = text.split(" ", 1)[0]
    kind = {"pass": "pass", "exchange": "exchange", "seven": "seven", "meld": "meld"}.get(
        word, "other")
    if word == "play":
        kind = "follow" if obs.trick else "lead"
    x = [1.0 if kind == k else 0.0 for k in _KINDS]
    card_part = [0.0] * 20
    meld_part = [0.0, 0.0, 0.0]
    try:
        cards = _cards_of(text) if word in ("play", "meld") else []
    except BeziqueError:
        cards = []
    trump = v.trump
    cp = v.copies
    late = 1.0 - v.sf
    if word == "play" and cards:
        c = cards[0]
        r = c & 7
        card_part[r] = 1.0
        card_part[8] = 1.0 if c >> 3 == trump else 0.0
        card_part[9] = 1.0 if "*" in text or "+" in text else 0.0
        card_part[10] = obs.rules.card_points[r] / 10.0
        card_part[11] = v.mine[c] / cp
        card_part[12] = v.unseen[c] / cp
        card_part[13] = v.known[c] / cp
        if obs.trick:
            led = obs.trick[0]
            card_part[14] = 1.0 if beats(c, led, trump) else 0.0
            card_part[15] = 1.0 if c >> 3 == led >> 3 else 0.0
            card_part[16] = obs.rules.card_points[led & 7] / 10.0
            card_part[17] = 1.0 if led >> 3 == trump else 0.0
        card_part[18] = v.stake[c] / 100.0
        card_part[19] = v.stake[c] * late / 100.0
    elif word == "meld" and cards:
        kind_m = obs.rules.classify(cards, trump)
        meld_part[0] = kind_m.points / 100.0 if kind_m is not None else 0.0
        meld_part[1] = len(cards) / 5.0
        meld_part[2] = sum(1 for t in text.split()[1:] if "*" not in t) / 5.0
    return [*x, *card_part, *meld_part, 1.0 if text == pick else 0.0]


def action_features(obs: Observation, text: str) -> list[float]:
    """The action ``text`` of ``obs`` as a vector (see :data:`ACTION_NAMES`)."""
    return _action_vector(_View(obs), text, heuristic_choice(obs))


def decision_features(obs: Observation, pick: str | None = None,
                      ) -> tuple[list[float], list[list[float]]]:
    """The observation's vector and each of its legal actions' (in ``obs.legal``'s order),
    computing what they share once.  ``pick`` is the action the ``heuristic`` input marks
    (by default :func:`heuristic_choice`; a rollout, which knows its world, gives the
    heuristic's choice in it)."""
    v = _View(obs)
    if pick is None:
        pick = heuristic_choice(obs)
    return _obs_vector(v), [_action_vector(v, t, pick) for t in obs.legal]
