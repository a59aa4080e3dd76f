"""Sampling complete deals consistent with one seat's observation (determinization).

A search agent never sees the other hand or the stock.  It imagines them: :func:`sample_world`
deals the cards the seat has not seen between the opponent's concealed hand and the stock, at
random but consistently with everything the seat saw: its own hand and draws (each at its
place in the stock), the cards the opponent played, melded, exchanged, declared or took (each
must have reached the opponent's hand before it was used), and the turn-up.  The deal is built
with :meth:`State.from_cards` and the observed actions are replayed on it, so the world is a
real :class:`State` whose observation for the seat equals the given one.

Only ``obs`` is read: never the real state.  The same ``random.Random`` state gives the same
world.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Protocol

from ..cards import bit_list, card_of, make_card, rank_of, split_token, suit_of
from ..deal import assumed_cut
from ..errors import BeziqueError
from ..observation import Observation
from ..state import FOLLOW, State
from .carte_worlds import FREE, fill_open, place_carte
from .targets import meld_targets
from .timeline import EXPLORE, EXPLORE_AFTER, known_added, place_uses

_TRIES = 200
_INFER_TRIES = 24  # tries for a world the inference keeps before taking the likeliest seen
_BURN_IN = 200  # chain steps before the first world when the opponent model is on
_THIN = 2  # chain steps between worlds
_PROPOSALS = 4  # tries for a pair of places that can swap


class OpponentPolicy(Protocol):
    """A policy whose choices the opponent model compares with the opponent's (the heuristic)."""

    def choose(self, state: State) -> int:
        """The action the policy plays in ``state`` for the seat to act."""
        ...


class SamplingError(BeziqueError):
    """No deal consistent with the observation was found (the observation is impossible)."""


def _card(token: str) -> tuple[int, bool]:
    """The card of an action token and whether it names a shown copy (``QS*``, ``QS*2``)."""
    card, mark = split_token(token)
    return card, bool(mark)


class _Plan:
    """What one pass over the observed actions establishes: the seat's initial hand, the
    places of its draws in the stock, and the opponent's public uses of concealed cards."""

    def __init__(self, obs: Observation) -> None:
        rules = obs.rules
        self.obs = obs
        seat, opp = obs.seat, 1 - obs.seat
        self.seven = make_card(rules.seven_rank, obs.trump) if obs.trump >= 0 else -1
        stock_size = rules.stock_size
        hs = rules.hand_size
        # walk the actions once for the public timeline
        draws = list(obs.draws)
        k = 0
        pos = 0
        my_stock: dict[int, int] = {}  # stock index -> card drawn by the seat
        opp_stock: list[int] = []  # stock indices drawn by the opponent, in order
        my_played: Counter[int] = Counter()
        my_given: Counter[int] = Counter()  # sevens the seat exchanged away
        exchanged_by = -1
        turnup_taker = -1
        # the opponent's events: ("recv", slot) / ("use", card, kind) in time order
        events: list[tuple[str, int, str]] = []
        for i in range(hs):
            events.append(("recv", i, "hand"))
        nslots = hs
        self.opp_carte = False  # the opponent declared carte blanche (RULES.md 9.0.4)
        for player, text in obs.actions:
            words = text.split()
            verb = words[0]
            if verb == "play":
                c, shown = _card(words[1])
                if player == seat:
                    my_played[c] += 1
                elif shown:
                    events.append(("unshow", c, "play"))
                else:
                    events.append(("use", c, "play"))
            elif verb == "meld":
                if player == opp:
                    for tok in words[1:]:
                        c, shown = _card(tok)
                        if not shown:
                            events.append(("use", c, "meld"))
            elif verb == "exchange":
                exchanged_by = player
                if player == seat:
                    my_given[self.seven] += 1
                    k += 1  # the draw list holds the turn-up taken
                    events.append(("swap", -1, "exchange"))
                else:
                    events.append(("use", self.seven, "exchange"))
                    events.append(("turnup", -1, "exchange"))
            elif verb == "seven":
                if player == opp:
                    events.append(("use", self.seven, "seven"))
            elif verb == "carte":
                if player == opp:  # the hand is shown; a repeat shows the card just drawn
                    events.append(("carte", nslots - 1, "repeat" if self.opp_carte else "hand"))
                    self.opp_carte = True
            elif verb == "pass":
                left = stock_size - pos
                winner = player
                loser = 1 - winner
                if left >= 2:
                    order = ((winner, pos), (loser, pos + 1))
                    pos += 2
                else:
                    order = ((winner, pos), (loser, -1))
                    pos += 1
                    turnup_taker = loser
                for who, where in order:
                    if who == seat:
                        if where >= 0:
                            my_stock[where] = draws[k]
                        k += 1
                    elif where >= 0:
                        opp_stock.append(where)
                        events.append(("recv", nslots, "stock"))
                        nslots += 1
                    else:
                        events.append(("turnup", -1, "final"))
                if left < 2 or pos >= stock_size:  # (no turn-up: the stock ends on a pair)
                    events.append(("endphase", -1, ""))
            elif verb != "guess":  # (the guess of the cut moves no card)
                raise SamplingError(f"unknown action {text!r} in the observation")
        self.pos = pos
        self.my_stock = my_stock
        self.opp_stock = opp_stock
        self.events = events
        self.nslots = nslots
        self.exchanged_by = exchanged_by
        self.turnup_taker = turnup_taker
        # the seat's initial hand: everything it held or used, less what it drew
        held: Counter[int] = Counter(obs.hand) + Counter(obs.shown[seat])
        init = held + my_played + my_given
        init.subtract(Counter(draws))
        if any(v < 0 for v in init.values()) or sum(init.values()) != hs:
            raise SamplingError("the observation's own cards do not add up to a hand")
        self.my_initial = +init
        # the turn-up card dealt: public (everyone saw it turned), even after the opponent took it
        self.turnup = obs.turnup_dealt

    def build(self, rng: random.Random, explore: float = 0.0,
              weights: Sequence[float] | None = None) -> _Deal | None:
        """One candidate deal, or None if the random choices fail.

        Where the opponent used a card of which it held a known copy, the known copy is taken
        as often as the final known cards say; ``explore`` flips that choice at random.  The
        opponent's concealed cards are drawn from the unseen ones at random, or with
        ``weights`` (one for each card 0..31) in proportion to them."""
        if self.opp_carte:
            return self._build_carte(rng)
        obs = self.obs
        rules = obs.rules
        declared = rules.seven == "declared"
        turnup = self.turnup
        # how many times a known copy of each card must be the one used: the known copies
        # added less those still known at the end (the rest of the uses come from unknown cards)
        quota = known_added(self.events, turnup, self.seven)
        quota.subtract(Counter(obs.opponent_known))
        if any(v < 0 for v in quota.values()):
            return None
        slots: list[int] = [-1] * self.nslots
        recv: list[int] = [0] * self.nslots  # when each slot reached the opponent's hand
        deadline: list[int] = [_FREE] * self.nslots  # when its card was first used
        pending: list[int] = []
        known = place_uses(self.events, turnup, self.seven, declared, quota, rng, slots, pending,
                           recv, deadline, explore)
        # the exchange by the seat puts its seven under the stock as the turn-up: tracked by
        # the state itself; here only the final opponent-known cards need checking
        if known is None or +known != Counter(obs.opponent_known):
            return None
        # the pool of cards still to place
        pool: Counter[int] = Counter(card_of(p) for p in rules.deck)
        pool.subtract(self.my_initial)
        pool.subtract(self.my_stock.values())
        if turnup >= 0:
            pool[turnup] -= 1
        pool.subtract(c for c in slots if c >= 0)
        if any(v < 0 for v in pool.values()):
            return None
        rest = list(pool.elements())
        rng.shuffle(rest)
        stock_size = rules.stock_size
        undrawn = [i for i in range(self.pos, stock_size)]
        if len(rest) != len(pending) + len(undrawn):
            return None
        if weights is not None:
            _weighted_first(rest, len(pending), weights, rng)
        for sl in pending:
            slots[sl] = rest.pop()
        stock = [-1] * stock_size
        for i, c in self.my_stock.items():
            stock[i] = c
        undrawn_cards = [rest.pop() for _ in undrawn]
        my_hand = list(self.my_initial.elements())
        rng.shuffle(my_hand)
        # places: the opponent's slots, then the undrawn stock
        return _Deal(self, my_hand, turnup, stock, undrawn, slots + undrawn_cards,
                     recv + [_STOCK] * len(undrawn), deadline + [_FREE] * len(undrawn), len(slots))

    def _build_carte(self, rng: random.Random) -> _Deal | None:
        """:meth:`build` where the opponent declared carte blanche (no turn-up, no seven): the
        cards it showed are placed by :func:`~bezique.agents.carte_worlds.place_carte`."""
        obs = self.obs
        got = place_carte(self.events, self.nslots, obs.rules.hand_size,
                          Counter(obs.opponent_known), rng)
        if got is None:
            return None
        slots, recv, deadline, pending, noncourt = got
        pool: Counter[int] = Counter(card_of(p) for p in obs.rules.deck)
        pool.subtract(self.my_initial)
        pool.subtract(self.my_stock.values())
        pool.subtract(c for c in slots if c >= 0)
        if any(v < 0 for v in pool.values()):
            return None
        rest = list(pool.elements())
        rng.shuffle(rest)
        undrawn = list(range(self.pos, obs.rules.stock_size))
        if len(rest) != len(pending) + len(undrawn):
            return None
        stock_cards = fill_open(slots, pending, noncourt, rest, rng)
        if stock_cards is None:
            return None
        stock = [-1] * obs.rules.stock_size
        for i, c in self.my_stock.items():
            stock[i] = c
        my_hand = list(self.my_initial.elements())
        rng.shuffle(my_hand)
        return _Deal(self, my_hand, -1, stock, undrawn, slots + stock_cards,
                     recv + [_STOCK] * len(undrawn), deadline + [_FREE] * len(undrawn), len(slots))


def _weighted_first(cards: list[int], k: int, weights: Sequence[float],
                    rng: random.Random) -> None:
    """Move ``k`` of ``cards``, drawn without replacement in proportion to their ``weights``,
    to the end of the list (in the order drawn, the first last); the rest keep their order."""
    if k <= 0:
        return
    # (Efraimidis and Spirakis: the k largest of u ** (1 / w) are such a draw)
    keyed = sorted((rng.random() ** (1.0 / weights[c]), i) for i, c in enumerate(cards))
    chosen = [i for _key, i in keyed[-k:]]
    picked = set(chosen)
    cards[:] = [c for i, c in enumerate(cards) if i not in picked] + [cards[i] for i in chosen]


_FREE = FREE  # the deadline of a card the opponent never used in public
_STOCK = _FREE - 1  # the arrival time of a card still in the stock: only free cards fit


class _Deal:
    """A candidate deal as the sampler's free choices: the card in each of the opponent's
    slots (its initial hand, then its draws in order) and in each undrawn stock place.

    A card the opponent used at event ``t`` must sit in a slot it received before ``t``;
    :meth:`swap` exchanges two places when both cards still arrive in time.  Swaps keep the
    deal consistent with everything the seat saw except, perhaps, the opponent's choices."""

    def __init__(self, plan: _Plan, my_hand: list[int], turnup: int, stock: list[int],
                 undrawn: list[int], cards: list[int], recv: list[int], deadline: list[int],
                 nslots: int) -> None:
        self.plan = plan
        self.my_hand = my_hand
        self.turnup = turnup
        self.stock = stock
        self.undrawn = undrawn
        self.cards = cards
        self.recv = recv
        self.deadline = deadline
        self.nslots = nslots

    def copy(self) -> _Deal:
        # (by __init__, not __dict__: compiled with mypyc, the class has no __dict__)
        return _Deal(self.plan, self.my_hand, self.turnup, self.stock, self.undrawn,
                     list(self.cards), self.recv, list(self.deadline), self.nslots)

    def swap(self, a: int, b: int) -> bool:
        """Exchange the cards of places ``a`` and ``b`` if both arrive in time."""
        ca, cb = self.cards, self.deadline
        if self.recv[a] >= cb[b] or self.recv[b] >= cb[a]:
            return False
        ca[a], ca[b] = ca[b], ca[a]
        cb[a], cb[b] = cb[b], cb[a]
        return True

    def parts(self) -> tuple[list[list[int]], int, list[int]]:
        """(hands, turn-up, stock) as :meth:`State.from_cards` takes them."""
        plan = self.plan
        hs = plan.obs.rules.hand_size
        stock = list(self.stock)
        n = self.nslots
        cards = self.cards
        for j, i in enumerate(plan.opp_stock):
            stock[i] = cards[hs + j]
        for j, i in enumerate(self.undrawn):
            stock[i] = cards[n + j]
        opp_hand = cards[:hs]
        hands = [self.my_hand, opp_hand] if plan.obs.seat == 0 else [opp_hand, self.my_hand]
        return hands, self.turnup, stock


def _matches(state: State, obs: Observation) -> bool:
    seat = obs.seat
    if tuple(state.hand(seat)) != obs.hand:
        return False
    other = 1 - seat
    known = state.known_masks[other] & state.hand_masks[other]
    got = sorted((card_of(p) for p in _bits(known)), key=lambda c: (suit_of(c), rank_of(c)))
    return (
        tuple(got) == obs.opponent_known
        and state.scores == obs.scores
        and state.current_player() == obs.turn
    )


_bits = bit_list


def _replay(obs: Observation, hands: Sequence[Sequence[int]], turnup: int,
            stock: Sequence[int], infer: bool = False,
            model: OpponentPolicy | None = None) -> tuple[State, int, int] | None:
    """The deal replayed through the observed actions; with ``infer``, how many times the
    opponent won a trick and declared nothing though it could have scored; with a ``model``,
    how many of the opponent's stock-phase choices differ from the model's in its place."""
    state = State.from_cards(obs.rules, hands, turnup if turnup >= 0 else None, stock, obs.dealer,
                             obs.totals, assumed_cut(obs.rules, obs.cut))
    opp = 1 - obs.seat
    unlikely = 0
    differ = 0
    fresh_turn = False
    targets = None
    if infer:
        targets = meld_targets(obs.rules, obs.trump)
    try:
        for player, text in obs.actions:
            if player == opp:
                if targets is not None and state.trump != obs.trump:  # fixed later by a meld
                    targets = meld_targets(obs.rules, state.trump)
                if (targets is not None and fresh_turn and text == "pass"
                        and ((state.turnup_phys >= 0 and state.unscored_seven(opp) >= 0)
                             or targets.may_meld(state, opp))
                        and len(state.legal_actions()) > 1):
                    unlikely += 1
                if (model is not None and not state.end_phase
                        and len(state.legal_actions()) > 1
                        and state.action_to_string(model.choose(state)) != text):
                    differ += 1
            fresh_turn = text.startswith("play") and state.phase_id == FOLLOW
            state.apply(text)
    except BeziqueError:
        return None
    return state, unlikely, differ


class WorldSampler:
    """Samples worlds for one observation; the analysis of the observation is done once.

    ``infer`` (0 to 1) makes worlds less likely in which the opponent, having won a trick,
    passed although it could have declared something: each such pass keeps the world only with
    probability ``1 - infer`` (players seldom pass up points).  ``model`` (0 to 1) does the same
    for each of the opponent's stock-phase plays and declarations that differ from what the
    ``policy`` would have chosen with that world's cards (the search AI passes the heuristic
    player, ``HeuristicPolicy(solver_cards=0)``): sensible play reveals the hand.  ``policy`` is
    required when ``model`` is not 0.  When a few tries find no world kept, the likeliest one
    seen is taken.  Both 0 sample uniformly among the consistent worlds.  ``weights`` (one for
    each card 0..31, :func:`~bezique.agents.holdings.card_weights`) deal the opponent's
    concealed cards in proportion to them instead of uniformly (the kinds of card players
    keep; not where it showed a carte blanche, whose worlds keep their own construction)."""

    def __init__(self, obs: Observation, infer: float = 0.0, model: float = 0.0,
                 policy: OpponentPolicy | None = None,
                 weights: Sequence[float] | None = None) -> None:
        self.obs = obs
        self.plan = _Plan(obs)
        self.infer = infer
        self.weights = weights
        self._policy: OpponentPolicy | None = None
        if model:
            if policy is None:
                raise ValueError("an opponent model (model > 0) needs the policy to compare with")
            self._policy = policy
        self._chain: tuple[_Deal, State, float] | None = None
        self._logs = (math.log(1.0 - infer) if infer else 0.0,
                      math.log(1.0 - model) if model else 0.0)

    def sample(self, rng: random.Random, deadline: float = 0.0) -> State:
        """One complete state consistent with the observation; past ``deadline`` (a
        ``time.perf_counter()`` value, 0: none) the likeliest world seen so far is taken."""
        if self._policy is not None:
            return self._chain_sample(rng)
        best: tuple[float, State] | None = None
        for i, _deal, state, loglik in self._consistent(rng):
            if not loglik or rng.random() < math.exp(loglik):
                return state
            if best is None or loglik > best[0]:
                best = (loglik, state)
            if i >= _INFER_TRIES or (deadline and time.perf_counter() > deadline):
                return best[1]
        if best is not None:
            return best[1]
        raise SamplingError("no deal consistent with this observation was found")

    def _consistent(self, rng: random.Random) -> Iterator[tuple[int, _Deal, State, float]]:
        """(try number, deal, replayed state, log-likelihood) of each of up to ``_TRIES``
        random deals that replay to the observation."""
        for i in range(_TRIES):
            deal = self.plan.build(rng, 0.0 if i < EXPLORE_AFTER else EXPLORE, self.weights)
            got = None if deal is None else self._try(deal)
            if deal is not None and got is not None:
                yield i, deal, got[0], got[1]

    def _try(self, deal: _Deal) -> tuple[State, float] | None:
        got = _replay(self.obs, *deal.parts(), infer=bool(self.infer), model=self._policy)
        if got is None or not _matches(got[0], self.obs):
            return None
        state, unlikely, differ = got
        return state, unlikely * self._logs[0] + differ * self._logs[1]

    def _chain_sample(self, rng: random.Random) -> State:
        """With the opponent model, worlds come from a Metropolis chain over deals: two
        places of the opponent's cards (or one and a stock place) swap, and the new deal is
        kept with the ratio of the likelihoods of the opponent's observed choices."""
        if self._chain is None:
            for _i, deal, state, loglik in self._consistent(rng):
                self._chain = (deal, state, loglik)
                break
            else:
                raise SamplingError("no deal consistent with this observation was found")
            self._steps(rng, _BURN_IN)
        self._steps(rng, _THIN)
        assert self._chain is not None
        world = self._chain[1].clone()
        # the opponent's choices say nothing about the order of the undrawn stock
        rest = list(world.stock[world.stock_pos:])
        rng.shuffle(rest)
        world.stock = world.stock[:world.stock_pos] + tuple(rest)
        return world

    def _steps(self, rng: random.Random, n: int) -> None:
        assert self._chain is not None
        deal, state, loglik = self._chain
        places = len(deal.cards)
        for _ in range(n):
            new = deal.copy()
            for _ in range(_PROPOSALS):  # (most random pairs cannot swap: draw again)
                a = rng.randrange(new.nslots)
                b = rng.randrange(places - 1)
                b += b >= a
                if new.swap(a, b):
                    break
            else:
                continue
            got = self._try(new)
            if got is None:
                continue
            if got[1] >= loglik or rng.random() < math.exp(got[1] - loglik):
                deal, (state, loglik) = new, got
        self._chain = (deal, state, loglik)


def sample_world(obs: Observation, rng: random.Random) -> State:
    """A complete :class:`State` whose observation for ``obs.seat`` equals ``obs``."""
    return WorldSampler(obs).sample(rng)


def sample_worlds(obs: Observation, n: int, rng: random.Random) -> list[State]:
    """``n`` worlds consistent with ``obs`` (independent draws from ``rng``)."""
    sampler = WorldSampler(obs)
    return [sampler.sample(rng) for _ in range(n)]
