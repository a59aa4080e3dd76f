"""The heuristic player: a sensible club player, and the rollout policy of the search AI.

Its rules of thumb:

* **Declaring**: exchange the seven of trumps (the turn-up is a better card, and 10), then score
  the most valuable legal meld, then declare a seven of trumps; one meld per trick won.
* **The one-deal games** (RULES.md 9): carte blanche whenever it may be declared; while no
  trumps are fixed, the marriage or sequence that fixes them in the suit the hand is strongest
  in; the new melds (triple to quintuple bezique, trump quartets and quintets, plain sequences)
  come from the rules' meld table like the others.
* **Keeping**: every card is worth what losing it costs: its share of the melds it could still
  make (sequence, royal and common marriages, bezique and double bezique, fours), weighed by how
  many cards are missing and whether they can still come, plus its strength for the last tricks
  (trumps, aces).
* **Tricks while the stock lasts**: win a trick when it holds brisques or when a meld waits to be
  declared, and win it cheaply; otherwise throw the card it costs least to lose.  Lead low cards
  that make no meld; lead a brisque only when the opponent can hardly beat it (the search's
  tuned numbers for Rubicon weigh a lead's brisques at nothing, ``lead_points = 0``: there they
  count only when they decide, and the search leads aces and tens far more than the club
  player, see ``benchmarks/departures.py``).
* **Three or four seats** (RULES.md 9.4, 9.5): the table's rules of thumb, partners included,
  are :class:`~bezique.agents.table_play.TablePolicy`'s, on a world of
  :mod:`bezique.agents.table_worlds`.
* **The last tricks**: once the stock is gone both hands are known to a card counter; small
  enough positions are solved exactly (:mod:`bezique.agents.solver`), larger ones are played by
  simple rules (win cheaply, lead sure winners).

:class:`HeuristicPolicy` decides on a :class:`~bezique.state.State` but reads only what the seat
to act may see (its cards, everything public, and in the end phase the card-counted other hand);
:class:`HeuristicAgent` plays from an :class:`~bezique.observation.Observation` by sampling one
consistent world and asking the policy, so its choice never depends on hidden cards.  The meld
targets and card counts it shares with the evaluation and the sampler are in
:mod:`bezique.agents.targets`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .. import actions as act
from ..cards import ACE, QUEEN, TEN, bit_list
from ..observation import Observation
from ..rules import MeldKind, Rules
from ..state import DECLARE, LEAD, State
from .base import register_agent, require_turn
from .endgame import solve
from .sampling import WorldSampler
from .solver import SolverBudgetError
from .table_play import TablePolicy
from .table_worlds import TableSampler
from .targets import MeldTargets, card_counts, fold32, held_once_twice, meld_targets


@dataclass(frozen=True)
class HeuristicParams:
    """The heuristic's numbers: the defaults are the club player (``heuristic``); the search
    AI's rollouts may use others (see ``benchmarks/tune_heuristic.py``)."""

    # chance that a meld missing n cards is completed (full stock)
    complete: tuple[float, ...] = (1.0, 0.5, 0.2, 0.07, 0.02, 0.01, 0.0, 0.0, 0.0)
    # completion chances are scaled down once fewer cards than this are left in the stock
    full_stock: float = 16.0
    # worth of holding a card for the last tricks: a trump, a trump ace or ten on top, an
    # ace of another suit, and per point of the card
    trump: float = 8.0
    trump_brisque: float = 6.0
    ace: float = 5.0
    per_point: float = 0.3
    # how likely a lead without points is beaten, relative to one with points
    beat_blank: float = 0.5
    # following: weight of the trick's points and of the meld a win would let it declare,
    # and the worth of having the lead
    trick_points: float = 1.0
    meld_weight: float = 1.0
    lead_worth: float = 0.0
    # declaring: how soon a bigger meld of the same class is expected (stock cards)
    again: float = 20.0
    # the one-deal games (RULES.md 9.0.7): the share of the rubicon's swing (its bonus; the
    # loser's points go to the winner as well) that a meld lifting the seat over the rubicon
    # line is worth beyond its points, once another declaring turn is no longer likely
    rubicon: float = 0.5
    # leading: the worth of a card's own points (a brisque) relative to a meld's (in Rubicon
    # brisques count only when they decide, RULES.md 9.0.7)
    lead_points: float = 1.0


_NCOMP = 9

# found by ``benchmarks/tune_heuristic.py`` (self-play against the defaults): the search AI's
# rollout policy with ``rollout=tuned``
TUNED = HeuristicParams(complete=(1.0, 0.35, 0.14, 0.049, 0.014, 0.007, 0.0, 0.0, 0.0),
                        meld_weight=0.7)

# ... and for the one-deal games, by ``benchmarks/tune_heuristic.py --variant V`` (self-play
# against the defaults in settled values; see benchmarks/STRENGTH.md): a variant's own numbers
# (Rubicon: the completion chances of session 16, a lead's brisques weighed at nothing, melds
# weighed at 25/49 of their points and the rubicon line at 5/14 of the loser's points)
TUNED_VARIANTS: dict[str, HeuristicParams] = {
    "rubicon": HeuristicParams(complete=(1.0, 0.3125, 0.125, 0.04375, 0.0125, 0.00625, 0.0,
                                         0.0, 0.0), meld_weight=0.5102040816326531,
                               rubicon=0.35714285714285715, lead_points=0.0),
}


def tuned_params(variant: str) -> HeuristicParams:
    """The tuned numbers for ``variant`` (a preset's name): its own, else :data:`TUNED`.

    >>> tuned_params("bezique") is TUNED
    True
    """
    return TUNED_VARIANTS.get(variant, TUNED)


def _comp_row(params: HeuristicParams, stock: int) -> list[float]:
    """Completion chances with ``stock`` cards left: ``complete`` scaled down for a short
    stock (the first entry kept), padded with zeros to :data:`_NCOMP` entries."""
    full = list(params.complete[:_NCOMP]) + [0.0] * (_NCOMP - len(params.complete))
    scale = min(1.0, stock / params.full_stock)
    return [full[0]] + [p * scale for p in full[1:]]


def _strength(rules: Rules, trump: int, params: HeuristicParams) -> list[float]:
    """Worth of holding each card for the last tricks (trumps, aces, card points)."""
    pts_of = rules.card_points
    out: list[float] = []
    for c in range(32):
        r = c & 7
        v = 0.0
        if c >> 3 == trump:
            v += params.trump + (params.trump_brisque if r <= TEN else 0.0)
        elif r == ACE:
            v += params.ace
        v += pts_of[r] * params.per_point
        out.append(v)
    return out


_Ready = tuple[list[tuple[int, int]], int, int, int]


class HeuristicPolicy:
    """Chooses an action int for the seat to act of a :class:`State`, from that seat's view.

    ``solver_cards``: in the end phase, solve exactly when the player to act holds at most this
    many cards (0: never); ``solver_nodes`` caps the solver's work (then simple rules play).
    """

    def __init__(self, solver_cards: int = 8, solver_nodes: int = 200_000,
                 params: HeuristicParams | None = None) -> None:
        self.solver_cards = solver_cards
        self.solver_nodes = solver_nodes
        self.params = params = params or HeuristicParams()
        self._comp: dict[int, list[float]] = {}
        self._strength: dict[tuple[Rules, int], list[float]] = {}

    # ------------------------------------------------------------------ entry point

    def choose(self, state: State) -> int:
        """The action (int) this policy plays in ``state`` for the seat to act."""
        if state.phase_id == DECLARE:
            return self._declare(state)
        if state.rules.carte_points and not state.end_phase and act.CARTE in state.legal_actions():
            return act.CARTE  # carte blanche: points for nothing (RULES.md 9.0.4)
        if state.end_phase:
            return state.canonical_play(self._end_play(state))
        return state.canonical_play(self._stock_play(state))

    def keep_costs(self, state: State) -> list[float]:
        """What losing one copy of each card (0..31) costs the seat to act: its meld prospects
        and its strength for the last tricks (the worth the stock-phase play weighs)."""
        tg = meld_targets(state.rules, state.trump)
        held = state.hand_masks[state.turn] | state.shown_masks[state.turn]
        return self._context(state, tg, held)[0]

    # ------------------------------------------------------------------ declaring

    def _declare(self, state: State) -> int:
        tg = meld_targets(state.rules, state.trump)
        if not tg.may_meld(state, state.turn) and not (
            state.can_exchange(state.turn) or state.unscored_seven(state.turn) >= 0
        ):
            return act.PASS
        legal = state.legal_actions()
        rules = state.rules
        melds = [(a, a >> 9, rules.melds[tg.kind(state, a >> 9)]) for a in legal if a >= 512]
        # a meld that a bigger one of its class contains comes first while tricks remain to
        # be won: royal marriage then sequence (290, not 250), bezique then double (540)
        p_again = min(0.95, state.stock_left / self.params.again)
        best_meld, best_pts = -1, -1.0
        for a, m, kind in melds:
            value = float(kind.points) + self._line_bonus(state, state.turn, kind.points,
                                                          p_again)
            for _b, m2, kind2 in melds:
                if m2 != m and m2 & m == m and kind2.cls == kind.cls:
                    value = max(value, kind.points + p_again * kind2.points)
            if state.trump < 0:
                value += self._trump_bonus(state, m, kind)
            if value > best_pts:
                best_meld, best_pts = a, value
        if act.EXCHANGE in legal and (not rules.seven_counts_as_meld or best_pts < 10):
            return act.EXCHANGE
        if best_meld >= 0:
            return best_meld
        if act.SEVEN in legal:
            return act.SEVEN
        return act.PASS

    def _line_bonus(self, state: State, seat: int, points: int, p_again: float) -> float:
        """In a one-deal game of two (RULES.md 9.0.7), what declaring ``points`` now is worth
        beyond them when it lifts the seat from under the rubicon line to it or over: a share
        of the rubicon's swing, the larger the less likely another declaring turn is.  A
        rubiconed loser pays the winner both totals and the bonus, so near the end the sure
        meld that saves it beats the bigger one it might declare later."""
        rules = state.rules
        if rules.settlement != "portland" or rules.nplayers != 2 or not self.params.rubicon:
            return 0.0
        mine = state.scores[seat] + state.brisques[seat]
        if mine >= rules.rubicon_at or mine + points < rules.rubicon_at:
            return 0.0
        return self.params.rubicon * (1.0 - p_again) * rules.rubicon_bonus_points

    @staticmethod
    def _trump_bonus(state: State, mask: int, kind: MeldKind) -> float:
        """While no trumps are fixed (RULES.md 9.0.2): what making the suit of a marriage or
        sequence trumps is worth to the seat beyond its points: its cards of that suit, the
        aces and tens above all, which win tricks and make the trump sequence."""
        if kind.shape not in ("royal", "sequence"):
            return 0.0
        suit = next(p & 31 for p in bit_list(mask) if (p & 7) == QUEEN) >> 3
        seat = state.turn
        held = card_counts(state.hand_masks[seat] | state.shown_masks[seat], state.copies)
        bonus = 0.0
        for r in range(8):
            bonus += held[suit * 8 + r] * (6.0 if r <= TEN else 3.0)
        return bonus

    # ------------------------------------------------------------------ the stock phase

    def table_costs(self, state: State, gone: int) -> list[float]:
        """:meth:`keep_costs` at a table of three or four, where ``gone`` is every physical
        card the seat to act sees out of reach: won in tricks, on the table of the other seats
        and in the current trick (:mod:`bezique.agents.table_play`)."""
        tg = meld_targets(state.rules, state.trump)
        held = state.hand_masks[state.turn] | state.shown_masks[state.turn]
        return self._context(state, tg, held, gone)[0]

    def _context(self, state: State, tg: MeldTargets, held: int,
                 gone: int = -1) -> tuple[list[float], int]:
        """(the cost of losing one copy of each card, unseen card count) for the seat to act,
        which holds the physical cards ``held`` (hand and shown); ``gone``: the cards seen out
        of reach (by default, of two seats: won, the other's shown cards and the lead)."""
        seat = state.turn
        copies = tg.copies
        if gone < 0:
            gone = (state.won_masks[0] | state.won_masks[1] | state.shown_masks[1 - seat]
                    | (0 if state.lead_card < 0 else 1 << state.lead_card))
        # the cards neither held nor seen gone (the won, shown and led cards are distinct
        # physical cards, so per card: copies in the pack - mine - gone)
        unseen = tg.deck_mask & ~(held | gone)
        mine = card_counts(held, copies)
        avail = card_counts(unseen, copies)
        comp = self._comp.get(state.stock_left)
        if comp is None:
            comp = self._comp[state.stock_left] = _comp_row(self.params, state.stock_left)
        cost = [0.0] * 32
        scored_melds = state.meld_log[seat]
        scored = {(k, fold32(m)) for k, m in scored_melds}
        for kind, pts, needs, cards32 in tg.fixed_sets:
            if scored and (kind, cards32) in scored:
                continue
            need = 0
            for c, n in needs:
                miss = n - mine[c]
                if miss > 0:
                    if avail[c] < miss:
                        break
                    need += miss
            else:
                if need >= _NCOMP:
                    continue
                now = pts * comp[need]
                if now < 1.0:
                    continue
                for c, n in needs:
                    mc = mine[c]
                    if 0 < mc <= n:
                        after = need + 1
                        dead = avail[c] < n - mc + 1 or after >= _NCOMP
                        cost[c] += now - (0.0 if dead else pts * comp[after])
        scored_kinds = {k for k, _ in scored_melds}
        distinct = tg.distinct
        h32 = fold32(held)
        spare32 = fold32(unseen) & ~h32  # cards none of which I hold, some unseen
        for kind, pts, n, cards, rmask, rphys in tg.four_cards:
            if kind in scored_kinds:
                continue
            if distinct:  # the suits I hold, and those I could still draw
                have = (h32 & rmask).bit_count()
                total = 0
                if have + (spare32 & rmask).bit_count() < n:
                    continue
            else:  # copies of the rank held, and unseen
                total = (held & rphys).bit_count()
                have = min(n, total)
                if have + (unseen & rphys).bit_count() < n:
                    continue
            need = n - have
            if need >= _NCOMP:
                continue
            now = pts * comp[need]
            if now < 1.0:
                continue
            lost = now - pts * comp[min(need + 1, 8)]
            for c in cards:
                mc = mine[c]
                if mc and (mc == 1 if distinct else total <= n):
                    cost[c] += lost
        key = (state.rules, state.trump)
        strength = self._strength.get(key)
        if strength is None:
            strength = self._strength[key] = _strength(state.rules, state.trump, self.params)
        while h32:
            low = h32 & -h32
            c = low.bit_length() - 1
            cost[c] += strength[c]
            h32 ^= low
        return cost, unseen.bit_count()

    @staticmethod
    def _ready(state: State, tg: MeldTargets, seat: int) -> _Ready:
        """What winning now would let the seat declare: the legal melds as (points, 32-bit
        card set) best first, 10 if a seven of trumps can score, the cards held twice, and the
        seven of trumps."""
        rules = state.rules
        melds = []
        if tg.may_meld(state, seat):
            kinds = rules.melds
            melds = sorted(
                ((kinds[tg.kind(state, m)].points, fold32(m))
                 for m in state.legal_meld_masks(seat)),
                reverse=True,
            )
        seven_bonus = 0
        if state.turnup_phys >= 0 and (
            state.can_exchange(seat)
            or (rules.seven == "declared" and state.unscored_seven(seat) >= 0)
        ):
            seven_bonus = 10
        twice = held_once_twice(state.hand_masks[seat] | state.shown_masks[seat],
                                state.copies)[1]
        return melds, seven_bonus, twice, tg.seven_card

    def _ready_for(self, state: State, tg: MeldTargets, seat: int) -> _Ready:
        """:meth:`_ready`, each meld's points raised by :meth:`_line_bonus` (one-deal games)."""
        ready = self._ready(state, tg, seat)
        rules = state.rules
        if rules.settlement != "portland" or not ready[0]:
            return ready
        p_again = min(0.95, state.stock_left / self.params.again)
        melds = sorted(((pts + round(self._line_bonus(state, seat, pts, p_again)), cards)
                        for pts, cards in ready[0]), reverse=True)
        return melds, ready[1], ready[2], ready[3]

    @staticmethod
    def _meld_ready(ready: _Ready, exclude: int) -> int:
        """Points the seat could declare after winning a trick without card ``exclude``."""
        melds, seven_bonus, twice, seven = ready
        bit = 1 << exclude
        best = 0
        for pts, cards in melds:
            if not cards & bit or twice & bit:
                best = pts
                break
        if seven_bonus and (exclude != seven or twice & bit):
            best += seven_bonus
        return best

    @staticmethod
    def _candidates(state: State, seat: int) -> list[int]:
        """One physical card per distinct playable card, in card order: a shown copy rather
        than a concealed one (the concealed copy is fresh for every meld class, so it is worth
        more)."""
        out: list[int] = []
        seen = 0
        for mask in (state.shown_masks[seat], state.hand_masks[seat]):
            while mask:
                low = mask & -mask
                p = low.bit_length() - 1
                mask ^= low
                c = p & 31
                if not seen >> c & 1:
                    seen |= 1 << c
                    out.append(p)
        # by card, so that ties between equal scores never depend on copy numbers (which
        # differ between worlds that the seat cannot tell apart)
        out.sort(key=lambda p: p & 31)
        return out

    def _stock_play(self, state: State) -> int:
        seat = state.turn
        rules = state.rules
        trump = state.trump
        tg = meld_targets(rules, trump)
        held = state.hand_masks[seat] | state.shown_masks[seat]
        cost, unseen = self._context(state, tg, held)
        pts_of = rules.card_points
        cands = self._candidates(state, seat)
        meld_ready = self._meld_ready
        best, best_score = cands[0], -1e18
        if state.phase_id == LEAD:
            ready = self._ready_for(state, tg, seat)
            opp = 1 - seat
            opp_h = (state.hand_masks[opp] | state.shown_masks[opp]).bit_count()
            opp_shown = fold32(state.shown_masks[opp])
            # the copies neither mine nor won (the opponent's, shown or not, and the stock)
            outside = tg.deck_mask & ~(held | state.won_masks[0] | state.won_masks[1])
            beat32, beat_phys = tg.beat32, tg.beat_phys
            tries = max(1, opp_h)
            beat_blank = self.params.beat_blank
            lead_points = self.params.lead_points
            for p in cands:
                c = p & 31
                r = c & 7
                beaters = (outside & beat_phys[c]).bit_count()
                if opp_shown & beat32[c]:
                    p_hold = 1.0
                elif unseen > 0 and beaters > 0:
                    p_hold = 1.0 - (1.0 - min(1.0, beaters / unseen)) ** tries
                else:
                    p_hold = 0.0
                pc = pts_of[r] * lead_points
                p_beat = p_hold if pc > 0 else p_hold * beat_blank
                meld = meld_ready(ready, c)
                score = -cost[c] + (1.0 - p_beat) * (meld + pc) - p_beat * pc
                if score > best_score:
                    best, best_score = p, score
            return best
        lead = state.lead_card & 31
        ls, lr = lead >> 3, lead & 7
        trick_pts = pts_of[lr]
        ready2: _Ready | None = None  # only needed when a card wins
        prm = self.params
        w_pts, w_meld, w_lead = prm.trick_points, prm.meld_weight, prm.lead_worth
        for p in cands:
            c = p & 31
            s, r = c >> 3, c & 7
            pts = (trick_pts + pts_of[r]) * w_pts
            keep = cost[c]
            win = (r < lr) if s == ls else (s == trump)
            if win:
                if ready2 is None:
                    ready2 = self._ready_for(state, tg, seat)
                score = pts + w_meld * meld_ready(ready2, c) + w_lead - keep
            else:
                score = -pts - keep
            if score > best_score:
                best, best_score = p, score
        return best

    # ------------------------------------------------------------------ the end phase

    def _end_play(self, state: State) -> int:
        seat = state.turn
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        n = state.hand_masks[seat].bit_count()
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
        seat = state.turn
        rules = state.rules
        pts_of = rules.card_points
        trump = state.trump
        if state.lead_card >= 0:
            lead = state.lead_card & 31
            ls, lr = lead >> 3, lead & 7

            def key(p: int) -> tuple[int, int, int]:
                c = p & 31
                s, r = c >> 3, c & 7
                win = (r < lr) if s == ls else (s == trump)
                return (0 if win and pts_of[lr] + pts_of[r] > 0 else 1,
                        pts_of[r], -r if s != trump else -r + 100)

            return min(legal, key=key)
        other = fold32(state.hand_masks[1 - seat])
        # (no trumps when no marriage or sequence fixed them: RULES.md 9.0.2)
        opp_trumps = other >> (trump * 8) & 0xFF if trump >= 0 else 0

        def lead_key(p: int) -> tuple[int, int, int]:
            c = p & 31
            s, r = c >> 3, c & 7
            suit = other >> (s * 8) & 0xFF
            beaten = bool(suit & ((1 << r) - 1))
            if s != trump and not suit and opp_trumps:
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
        self.table = TablePolicy(self.policy)  # three or four seats (RULES.md 9.4, 9.5)

    def act(self, obs: Observation) -> str:
        """The policy's action for this observation."""
        require_turn(obs)
        if len(obs.legal) == 1:
            return obs.legal[0]
        if obs.rules.nplayers > 2:
            table = TableSampler(obs).sample(random.Random(self.rng.getrandbits(64)))
            return table.action_to_string(self.table.choose(table))
        if obs.end_phase and obs.phase in ("lead", "follow"):
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


__all__ = ["TUNED", "TUNED_VARIANTS", "HeuristicAgent", "HeuristicParams", "HeuristicPolicy",
           "tuned_params"]
