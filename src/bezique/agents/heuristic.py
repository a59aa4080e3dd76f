"""The heuristic player: a sensible club player, and the rollout policy of the search AI.

Its rules of thumb:

* **Declaring**: exchange the seven of trumps (the turn-up is a better card, and 10), then score
  the most valuable legal meld, then declare a seven of trumps; one meld per trick won.
* **Keeping**: every card is worth what losing it costs: its share of the melds it could still
  make (sequence, royal and common marriages, bezique and double bezique, fours), weighed by how
  many cards are missing and whether they can still come, plus its strength for the last tricks
  (trumps, aces).
* **Tricks while the stock lasts**: win a trick when it holds brisques or when a meld waits to be
  declared, and win it cheaply; otherwise throw the card it costs least to lose.  Lead low cards
  that make no meld; lead a brisque only when the opponent can hardly beat it.
* **The last tricks**: once the stock is gone both hands are known to a card counter; small
  enough positions are solved exactly (:mod:`bezique.agents.solver`), larger ones are played by
  simple rules (win cheaply, lead sure winners).

:class:`HeuristicPolicy` decides on a :class:`~bezique.state.State` but reads only what the seat
to act may see (its cards, everything public, and in the end phase the card-counted other hand);
:class:`HeuristicAgent` plays from an :class:`~bezique.observation.Observation` by sampling one
consistent world and asking the policy, so its choice never depends on hidden cards.
"""

from __future__ import annotations

import random

from .. import actions as act
from ..cards import ACE, TEN, make_card
from ..observation import Observation
from ..rules import Rules
from ..state import DECLARE, LEAD, State
from .base import register_agent
from .sampling import WorldSampler
from .solver import SolverBudgetError, solve

# chance that a meld missing n cards is completed (full stock); scaled down as the stock runs out
_COMPLETE = (1.0, 0.5, 0.2, 0.07, 0.02, 0.01, 0.0, 0.0, 0.0)


def _fold(mask: int) -> list[int]:
    """Per-card counts (32 entries) of a physical mask."""
    counts = [0] * 32
    while mask:
        low = mask & -mask
        counts[(low.bit_length() - 1) & 31] += 1
        mask ^= low
    return counts


class _Targets:
    """The melds worth aiming at under one rule set and trump: (kind index, points, needs).

    ``needs`` is a tuple of (card, copies) for fixed melds; fours are ("four", rank, distinct).
    """

    def __init__(self, rules: Rules, trump: int) -> None:
        self.fixed: list[tuple[int, int, tuple[tuple[int, int], ...]]] = []
        self.fours: list[tuple[int, int, int, int]] = []  # kind, points, rank, n
        for pat in rules.patterns(trump):
            kind = rules.melds[pat.kind]
            if pat.n:
                self.fours.append((pat.kind, kind.points, pat.rank, pat.n))
            else:
                self.fixed.append((pat.kind, kind.points, pat.counts))
        self.distinct = rules.fours_distinct_suits
        # quick necessary conditions for a legal meld: (class, cards needed once, cards needed
        # twice) for fixed melds; (class, rank, n) for fours
        self.quick_fixed: list[tuple[int, int, int]] = []
        self.quick_fours: list[tuple[int, int, int]] = []
        for pat in rules.patterns(trump):
            cls = rules.melds[pat.kind].cls
            if pat.n:
                self.quick_fours.append((cls, pat.rank, pat.n))
            else:
                once = twice = 0
                for c, n in pat.counts:
                    once |= 1 << c
                    if n >= 2:
                        twice |= 1 << c
                self.quick_fixed.append((cls, once, twice))
        self.copies = rules.copies

    def may_meld(self, state: State, seat: int) -> bool:
        """False when no meld can be legal for ``seat`` (cheap test before the enumeration)."""
        held = state._hand[seat] | state._shown[seat]
        used = state._used[seat]
        layers = [(held >> (32 * k)) & 0xFFFFFFFF for k in range(self.copies)]
        once = 0
        for lay in layers:
            once |= lay
        twice = 0
        if self.copies > 1:
            for i in range(len(layers)):
                for j in range(i + 1, len(layers)):
                    twice |= layers[i] & layers[j]
        fresh = [_fold32(held & ~u) for u in used]
        for cls, need1, need2 in self.quick_fixed:
            if once & need1 == need1 and twice & need2 == need2 and fresh[cls] & need1:
                return True
        for cls, rank, n in self.quick_fours:
            rmask = 0x01010101 << rank
            count = sum((lay & rmask).bit_count() for lay in layers)
            if (self.distinct and (once & rmask).bit_count() < n) or count < n:
                continue
            if fresh[cls] & rmask:
                return True
        return False


_TARGETS: dict[tuple[Rules, int], _Targets] = {}
_DECK: dict[Rules, list[int]] = {}


def _deck_counts(rules: Rules) -> list[int]:
    """Copies of each card (0..31) in the variant's pack."""
    d = _DECK.get(rules)
    if d is None:
        d = _DECK[rules] = _fold(sum(1 << p for p in rules.deck))
    return d


def _fold32(mask: int) -> int:
    """The 32-bit set of cards of a physical mask."""
    out = 0
    while mask:
        out |= mask & 0xFFFFFFFF
        mask >>= 32
    return out


def _cards32(needs: tuple[tuple[int, int], ...]) -> int:
    out = 0
    for c, _ in needs:
        out |= 1 << c
    return out


def _targets(rules: Rules, trump: int) -> _Targets:
    key = (rules, trump)
    t = _TARGETS.get(key)
    if t is None:
        t = _TARGETS[key] = _Targets(rules, trump)
    return t


class HeuristicPolicy:
    """Chooses an action int for the seat to act of a :class:`State`, from that seat's view.

    ``solver_cards``: in the end phase, solve exactly when the player to act holds at most this
    many cards (0: never); ``solver_nodes`` caps the solver's work (then simple rules play).
    """

    def __init__(self, solver_cards: int = 8, solver_nodes: int = 200_000) -> None:
        self.solver_cards = solver_cards
        self.solver_nodes = solver_nodes

    # ------------------------------------------------------------------ entry point

    def choose(self, state: State) -> int:
        """The action (int) this policy plays in ``state`` for the seat to act."""
        ph = state._phase
        if ph == DECLARE:
            return self._declare(state)
        if state.end_phase:
            return self._end_play(state)
        return self._stock_play(state)

    # ------------------------------------------------------------------ declaring

    def _declare(self, state: State) -> int:
        if not _targets(state.rules, state.trump).may_meld(state, state._turn) and not (
            state._can_exchange(state._turn) or state._unscored_seven(state._turn) >= 0
        ):
            return act.PASS
        legal = state.legal_actions()
        rules = state.rules
        melds = [(a, a >> 9, rules.melds[state.classify(a >> 9)]) for a in legal if a >= 512]
        # a meld that a bigger one of its class contains comes first while tricks remain to
        # be won: royal marriage then sequence (290, not 250), bezique then double (540)
        p_again = min(0.95, state.stock_left / 20.0)
        best_meld, best_pts = -1, -1.0
        for a, m, kind in melds:
            value = float(kind.points)
            for _b, m2, kind2 in melds:
                if m2 != m and m2 & m == m and kind2.cls == kind.cls:
                    value = max(value, kind.points + p_again * kind2.points)
            if value > best_pts:
                best_meld, best_pts = a, value
        if act.EXCHANGE in legal and (not rules.seven_counts_as_meld or best_pts < 10):
            return act.EXCHANGE
        if best_meld >= 0:
            return best_meld
        if act.SEVEN in legal:
            return act.SEVEN
        return act.PASS

    # ------------------------------------------------------------------ the stock phase

    def _context(self, state: State) -> tuple[list[int], list[float], int]:
        """(my card counts, the cost of losing one copy of each card, unseen card count)."""
        seat = state._turn
        rules = state.rules
        trump = state.trump
        deck = _deck_counts(rules)
        mine = _fold(state._hand[seat] | state._shown[seat])
        gone = _fold(state._won[0] | state._won[1] | state._shown[1 - seat]
                     | (0 if state._lead < 0 else 1 << state._lead))
        avail = [deck[c] - mine[c] - gone[c] for c in range(32)]
        stock = state.stock_left
        scale = min(1.0, stock / 16.0)
        comp = [_COMPLETE[0]] + [p * scale for p in _COMPLETE[1:]]
        cost = [0.0] * 32
        scored = {(k, _fold32(m)) for k, m in state._melds[seat]}
        scored_kinds = {k for k, _ in scored}
        tg = _targets(rules, trump)
        for kind, pts, needs in tg.fixed:
            if kind in scored_kinds and (kind, _cards32(needs)) in scored:
                continue
            need = 0
            ok = True
            for c, n in needs:
                miss = n - mine[c]
                if miss > 0:
                    if avail[c] < miss:
                        ok = False
                        break
                    need += miss
            if not ok or need >= len(_COMPLETE):
                continue
            now = pts * comp[need]
            if now < 1.0:
                continue
            for c, n in needs:
                if 0 < mine[c] <= n:
                    after = need + 1
                    dead = avail[c] < n - mine[c] + 1 or after >= len(comp)
                    cost[c] += now - (0.0 if dead else pts * comp[after])
        for kind, pts, rank, n in tg.fours:
            if kind in scored_kinds:
                continue
            cards = [make_card(rank, s) for s in range(4)]
            if tg.distinct:
                have = sum(1 for c in cards if mine[c])
                if have + sum(1 for c in cards if not mine[c] and avail[c] > 0) < n:
                    continue
            else:
                have = min(n, sum(mine[c] for c in cards))
                if have + sum(avail[c] for c in cards) < n:
                    continue
            need = n - have
            if need >= len(_COMPLETE):
                continue
            now = pts * comp[need]
            if now < 1.0:
                continue
            lost = now - pts * comp[min(need + 1, 8)]
            total = sum(mine[c] for c in cards)
            for c in cards:
                if mine[c] and (mine[c] == 1 if tg.distinct else total <= n):
                    cost[c] += lost
        pts_of = rules.card_points
        for c in range(32):
            if mine[c]:
                r = c & 7
                v = 0.0
                if c >> 3 == trump:
                    v += 8.0 + (6.0 if r <= TEN else 0.0)
                elif r == ACE:
                    v += 5.0
                v += pts_of[r] * 0.3
                cost[c] += v
        unseen = sum(max(0, a) for a in avail)
        return mine, cost, unseen

    def _ready(self, state: State, seat: int) -> tuple[list[tuple[int, int]], int, int]:
        """What winning now would let the seat declare: the legal melds as (points, 32-bit
        card set) best first, 10 if a seven of trumps can score, and the cards held twice."""
        rules = state.rules
        melds = []
        if _targets(rules, state.trump).may_meld(state, seat):
            melds = sorted(
                ((rules.melds[state.classify(m)].points, _fold32(m))
                 for m in state._legal_meld_masks(seat)),
                reverse=True,
            )
        seven_bonus = 0
        if state._turnup >= 0 and (
            state._can_exchange(seat)
            or (rules.seven == "declared" and state._unscored_seven(seat) >= 0)
        ):
            seven_bonus = 10
        held = state._hand[seat] | state._shown[seat]
        twice = 0
        for k in range(1, state.copies):
            twice |= (held >> (32 * k)) & 0xFFFFFFFF
        return melds, seven_bonus, twice

    @staticmethod
    def _meld_ready(ready: tuple[list[tuple[int, int]], int, int], state: State,
                    exclude: int) -> int:
        """Points the seat could declare after winning a trick without card ``exclude``."""
        melds, seven_bonus, twice = ready
        bit = 1 << exclude
        best = 0
        for pts, cards in melds:
            if not cards & bit or twice & bit:
                best = pts
                break
        if seven_bonus and (exclude != make_card(state.rules.seven_rank, state.trump)
                            or twice & bit):
            best += seven_bonus
        return best

    def _candidates(self, state: State, seat: int) -> list[int]:
        """One physical card per distinct playable card: a shown copy before a concealed one
        (the concealed copy is fresh for every meld class, so it is worth more)."""
        out: list[int] = []
        seen = 0
        sh = state._shown[seat]
        for mask in (sh, state._hand[seat]):
            while mask:
                low = mask & -mask
                p = low.bit_length() - 1
                mask ^= low
                c = p & 31
                if not seen >> c & 1:
                    seen |= 1 << c
                    out.append(p)
        return out

    def _stock_play(self, state: State) -> int:
        seat = state._turn
        rules = state.rules
        trump = state.trump
        mine, cost, unseen = self._context(state)
        pts_of = rules.card_points
        cands = self._candidates(state, seat)
        ready = self._ready(state, seat)
        best, best_score = cands[0], -1e18
        if state._phase == LEAD:
            opp = 1 - seat
            opp_h = (state._hand[opp] | state._shown[opp]).bit_count()
            opp_shown = _fold(state._shown[opp])
            gone = _fold(state._won[0] | state._won[1])
            deck = _deck_counts(rules)
            outside = [deck[c] - mine[c] - gone[c] for c in range(32)]
            for p in cands:
                c = p & 31
                s, r = c >> 3, c & 7
                beaters = sum(outside[s * 8 + k] for k in range(r))
                shown_beat = any(opp_shown[s * 8 + k] for k in range(r))
                if s != trump:
                    beaters += sum(outside[trump * 8 + k] for k in range(8))
                    shown_beat = shown_beat or any(opp_shown[trump * 8 + k] for k in range(8))
                if shown_beat:
                    p_hold = 1.0
                elif unseen > 0 and beaters > 0:
                    p_hold = 1.0 - (1.0 - min(1.0, beaters / unseen)) ** max(1, opp_h)
                else:
                    p_hold = 0.0
                pc = pts_of[r]
                p_beat = p_hold if pc > 0 else p_hold * 0.5
                meld = self._meld_ready(ready, state, c)
                score = -cost[c] + (1.0 - p_beat) * (meld + pc) - p_beat * pc
                if score > best_score:
                    best, best_score = p, score
            return best
        lead = state._lead & 31
        ls, lr = lead >> 3, lead & 7
        trick_pts = pts_of[lr]
        for p in cands:
            c = p & 31
            s, r = c >> 3, c & 7
            win = (r < lr) if s == ls else (s == trump)
            pts = trick_pts + pts_of[r]
            keep = cost[c]
            score = pts + self._meld_ready(ready, state, c) - keep if win else -pts - keep
            if score > best_score:
                best, best_score = p, score
        return best

    # ------------------------------------------------------------------ the end phase

    def _end_play(self, state: State) -> int:
        seat = state._turn
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        n = state._hand[seat].bit_count()
        if n <= self.solver_cards:
            try:
                res = solve(state, max_nodes=self.solver_nodes)
            except SolverBudgetError:
                pass
            else:
                return state.string_to_action(res.best)
        return self.simple_end_play(state, legal)

    def simple_end_play(self, state: State, legal: list[int]) -> int:
        """End-phase rules of thumb: follow with the cheapest card that wins, else the
        cheapest card; lead a card the other hand cannot beat, the richest first."""
        seat = state._turn
        rules = state.rules
        pts_of = rules.card_points
        trump = state.trump
        if state._lead >= 0:
            lead = state._lead & 31
            ls, lr = lead >> 3, lead & 7

            def key(p: int) -> tuple[int, int, int]:
                c = p & 31
                s, r = c >> 3, c & 7
                win = (r < lr) if s == ls else (s == trump)
                return (0 if win and pts_of[lr] + pts_of[r] > 0 else 1,
                        pts_of[r], -r if s != trump else -r + 100)

            return min(legal, key=key)
        other = _fold(state._hand[1 - seat])
        opp_trumps = any(other[trump * 8 + k] for k in range(8))

        def lead_key(p: int) -> tuple[int, int, int]:
            c = p & 31
            s, r = c >> 3, c & 7
            beaten = any(other[s * 8 + k] for k in range(r))
            if s != trump and not any(other[s * 8 + k] for k in range(8)) and opp_trumps:
                beaten = True
            return (1 if beaten else 0, -pts_of[r] if not beaten else pts_of[r],
                    r if not beaten else -r)

        return min(legal, key=lead_key)


class HeuristicAgent:
    """The heuristic player for a seat: it sees only its observation."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, solver_cards: int = 8) -> None:
        self.rng = random.Random(seed)
        self.policy = HeuristicPolicy(solver_cards=solver_cards)

    def act(self, obs: Observation) -> str:
        """The policy's action for this observation."""
        if len(obs.legal) == 1:
            return obs.legal[0]
        if obs.turnup is None and obs.stock == 0 and obs.phase in ("lead", "follow"):
            mine = len(obs.hand)
            if mine <= self.policy.solver_cards:
                try:
                    return solve(obs, max_nodes=self.policy.solver_nodes).best
                except SolverBudgetError:
                    pass
        world = WorldSampler(obs).sample(random.Random(self.rng.getrandbits(64)))
        a = self.policy.choose(world)
        text = world.action_to_string(a)
        if text not in obs.legal:  # pragma: no cover - the world has the same legal actions
            return obs.legal[0]
        return text


@register_agent("heuristic", "a club player's rules of thumb (melds, brisques, exact last tricks)")
def _make_heuristic(seed: int | None = None, solver_cards: int = 8) -> HeuristicAgent:
    return HeuristicAgent(seed, solver_cards)


__all__ = ["HeuristicAgent", "HeuristicPolicy"]
