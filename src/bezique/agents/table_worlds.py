"""Sampling complete deals of the three- and four-handed games from one seat's observation.

The two-seat sampler (:mod:`bezique.agents.sampling`) imagines one opponent; this module owns
the worlds of a table of three or four (RULES.md 9.4, 9.5).  :class:`TableSampler` deals every
card the seat has not seen between the other seats' concealed hands and the undrawn stock, at
random but consistently with every public fact:

* the seat's own initial hand and draws (each at its place in the stock), the turn-up;
* for every other seat, each card it played, melded (its own concealed cards; a partner's shown
  card marked ``+`` is not its own), exchanged or declared must have reached its hand before it
  used it: cards reach a hand at the deal and at each draw, in public order (the trick's winner
  draws first, also after an ``offer``), so each such card is put in one of the seat's "slots"
  received before the use that is still free: a random choice among them never gets stuck,
  since a seat never uses more cards than it received;
* the copies everyone knows of (a turn-up taken, a declared seven, shown cards back in the
  hand at the end of the stock) as the observation lists them;
* in the end phase, what a follower's card shows it does not hold (a suit it did not follow,
  a higher card it did not play, a trump it did not use): its last unknown cards avoid those.

The deal is built with :meth:`State.from_cards` and the observed actions are replayed on it;
a world is kept only if the seat's observation of it equals the given one.  Only ``obs`` is
read, never the real state, so a world cannot depend on other seats' hidden cards; the same
``random.Random`` state gives the same world.

>>> import random
>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("bezique4"), seed=5)
>>> s.apply(s.legal_action_strings()[0])
>>> obs = s.observation(2)
>>> w = TableSampler(obs).sample(random.Random(1))
>>> w.observation(2) == obs, w.hand(2) == s.hand(2)
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter

from ..cards import bit_list, card_of, make_card, split_token
from ..errors import BeziqueError
from ..observation import Observation
from ..state import State
from ..tricks import beats
from .sampling import SamplingError
from .timeline import EXPLORE, EXPLORE_AFTER, Event, known_added, place_uses

_TRIES = 300


def _token(token: str) -> tuple[int, str]:
    """The card of an action token and its mark: ``""`` (concealed), ``"*"`` (the seat's own
    shown copy) or ``"+"`` (the partner's shown copy)."""
    card, mark = split_token(token)
    return card, mark[:1]


class TablePlan:
    """What one pass over the observed actions establishes for a table of ``n`` seats: the
    seat's initial hand, the stock places of every draw, and each other seat's timeline of
    cards received (slots) and used."""

    def __init__(self, obs: Observation) -> None:
        rules = obs.rules
        if rules.carte_points:
            raise SamplingError("the table sampler has no carte blanche (no table game has it)")
        self.obs = obs
        n = rules.nplayers
        seat = obs.seat
        self.n = n
        hs = rules.hand_size
        self.seven = make_card(rules.seven_rank, obs.trump) if obs.trump >= 0 else -1
        stock_size = rules.stock_size
        draws = list(obs.draws)
        k = 0
        pos = 0
        my_stock: dict[int, int] = {}
        other_stock: list[list[int]] = [[] for _ in range(n)]  # stock places per seat, in order
        my_used: Counter[int] = Counter()
        events: list[list[Event]] = [[("recv", i, "hand") for i in range(hs)] for _ in range(n)]
        nslots = [hs] * n
        trick: list[int] = []  # the cards of the current trick
        best = -1
        tricks = 0
        ending = False  # the end phase: a follower's card tells what it does not hold
        forbid = [0] * n  # per seat, the cards (32-bit) its hand cannot hold at the end
        trump = obs.trump
        duels = n == 4 and rules.four_hand_end == "duels"
        for player, text in obs.actions:
            words = text.split()
            verb = words[0]
            if verb == "play":
                c, mark = _token(words[1])
                if ending and trick and player != seat:
                    forbid[player] |= _not_held(c, trick[0], best, trump)
                if not trick or beats(c, best, trump):
                    best = c
                trick.append(c)
                if len(trick) == (2 if duels and tricks >= rules.stock_tricks else n):
                    trick = []
                    tricks += 1
                if player == seat:
                    my_used[c] += 1
                else:
                    events[player].append(("unshow" if mark == "*" else "use", c, "play"))
            elif verb == "meld":
                if player != seat:
                    for tok in words[1:]:
                        c, mark = _token(tok)
                        if not mark:
                            events[player].append(("use", c, "meld"))
            elif verb == "exchange":
                if player == seat:
                    my_used[self.seven] += 1
                    k += 1  # the draws hold the turn-up taken
                else:
                    events[player].append(("use", self.seven, "exchange"))
                    events[player].append(("turnup", -1, "exchange"))
                for j in range(n):
                    if j != player and j != seat:
                        events[j].append(("swap", -1, ""))
            elif verb == "seven":
                if player != seat:
                    events[player].append(("use", self.seven, "seven"))
            elif verb == "pass":
                left = stock_size - pos
                take = min(n, left)
                first = obs.tricks[tricks - 1].winner if tricks else player
                for i in range(n):
                    who = (first + i) % n
                    where = pos + i if i < take else -1
                    if who == seat:
                        if where >= 0:
                            my_stock[where] = draws[k]
                        k += 1
                    elif where >= 0:
                        other_stock[who].append(where)
                        events[who].append(("recv", nslots[who], "stock"))
                        nslots[who] += 1
                    else:
                        events[who].append(("turnup", -1, "final"))
                pos += take
                if pos >= stock_size:
                    ending = True
                    for j in range(n):
                        events[j].append(("endphase", -1, ""))
            elif verb != "offer":  # pragma: no cover - the observation comes from a State
                raise SamplingError(f"unknown action {text!r} in the observation")
        self.pos = pos
        self.forbid = forbid
        self.my_stock = my_stock
        self.other_stock = other_stock
        self.events = events
        self.nslots = nslots
        held: Counter[int] = Counter(obs.hand) + Counter(obs.shown[seat]) + my_used
        held.subtract(Counter(draws))
        if any(v < 0 for v in held.values()) or sum(held.values()) != hs:
            raise SamplingError("the observation's own cards do not add up to a hand")
        self.my_initial = +held
        self.turnup = obs.turnup_dealt
        self.quotas = [self._quota(j) for j in range(n)]

    def _quota(self, j: int) -> Counter[int]:
        """How many times seat ``j`` must have used a known copy of each card: the known copies
        it gained less those it still holds (the other uses come from unknown cards)."""
        added = known_added(self.events[j], self.turnup, self.seven)
        added.subtract(Counter(self.obs.known_cards[j]))
        return added

    def _place_seat(self, j: int, rng: random.Random, slots: list[int],
                    pending: list[int], explore: float) -> bool:
        """Put each card seat ``j`` used in a slot it received before the use (``slots`` gets
        the cards, ``pending`` the slots left free; ``explore`` as in
        :func:`~bezique.agents.timeline.place_uses`); False if its known copies do not add up."""
        quota = Counter(self.quotas[j])
        if any(v < 0 for v in quota.values()):
            return False
        known = place_uses(self.events[j], self.turnup, self.seven,
                           self.obs.rules.seven == "declared", quota, rng, slots, pending,
                           explore=explore)
        return known is not None and +known == Counter(self.obs.known_cards[j])

    def _fill(self, rng: random.Random, rest: list[int], slots: list[list[int]],
              pending: list[list[int]]) -> bool:
        """Deal ``rest`` (shuffled) into the free slots of every seat, none a card its end-phase
        play showed it cannot hold: the seats with the fewest cards allowed first, each
        taking a random choice of them; what is left stays in ``rest`` for the stock."""
        forbid = self.forbid
        order = sorted((j for j in range(self.n) if pending[j]),
                       key=lambda j: sum(1 for c in rest if not forbid[j] >> c & 1))
        for j in order:
            fb = forbid[j]
            allowed = [i for i, c in enumerate(rest) if not fb >> c & 1]
            need = len(pending[j])
            if len(allowed) < need:
                return False
            chosen = set(rng.sample(allowed, need)) if fb else set(allowed[-need:])
            for sl, i in zip(pending[j], sorted(chosen), strict=True):
                slots[j][sl] = rest[i]
            rest[:] = [c for i, c in enumerate(rest) if i not in chosen]
        return True

    def build(self, rng: random.Random,
              explore: float = 0.0) -> tuple[list[list[int]], int, list[int]] | None:
        """One candidate deal as (hands, turn-up, stock), or None if the choices fail
        (``explore``: see :func:`~bezique.agents.timeline.place_uses`)."""
        obs = self.obs
        rules = obs.rules
        n = self.n
        slots = [[-1] * self.nslots[j] for j in range(n)]
        pending: list[list[int]] = [[] for _ in range(n)]
        for j in range(n):
            if j != obs.seat and not self._place_seat(j, rng, slots[j], pending[j], explore):
                return None
        pool: Counter[int] = Counter(card_of(p) for p in rules.deck)
        pool.subtract(self.my_initial)
        pool.subtract(self.my_stock.values())
        if self.turnup >= 0:
            pool[self.turnup] -= 1
        for j in range(n):
            pool.subtract(c for c in slots[j] if c >= 0)
        if any(v < 0 for v in pool.values()):
            return None
        rest = list(pool.elements())
        rng.shuffle(rest)
        undrawn = list(range(self.pos, rules.stock_size))
        if len(rest) != sum(len(p) for p in pending) + len(undrawn):
            return None
        if not self._fill(rng, rest, slots, pending):
            return None
        stock = [-1] * rules.stock_size
        for i, c in self.my_stock.items():
            stock[i] = c
        hs = rules.hand_size
        hands: list[list[int]] = []
        for j in range(n):
            if j == obs.seat:
                mine = list(self.my_initial.elements())
                rng.shuffle(mine)
                hands.append(mine)
                continue
            hands.append(slots[j][:hs])
            for t, i in enumerate(self.other_stock[j]):
                stock[i] = slots[j][hs + t]
        for i in undrawn:
            stock[i] = rest.pop()
        return hands, self.turnup, stock


def _not_held(c: int, lead: int, best: int, trump: int) -> int:
    """The cards (32-bit mask) a follower who played ``c`` in the end phase cannot have held,
    with ``lead`` led and ``best`` the best card so far (RULES.md 9.4: follow suit, beat the
    best card if able, else trump, above a trump already played if able)."""
    ls, bs, br = lead >> 3, best >> 3, best & 7
    cs = c >> 3
    if cs == ls:
        if bs == ls and not beats(c, best, trump):
            return ((1 << br) - 1) << (8 * ls)  # no higher card of the suit led
        return 0
    out = 0xFF << (8 * ls)  # none of the suit led
    if trump >= 0:
        if bs == trump:
            if not beats(c, best, trump):
                out |= ((1 << br) - 1) << (8 * trump)  # no trump above the best
        elif cs != trump:
            out |= 0xFF << (8 * trump)  # no trump at all
    return out


def replay(obs: Observation, hands: list[list[int]], turnup: int,
           stock: list[int]) -> State | None:
    """The deal replayed through the observed actions, or None if an action is refused."""
    state = State.from_cards(obs.rules, hands, turnup if turnup >= 0 else None, stock,
                             obs.dealer, obs.totals)
    try:
        for _player, text in obs.actions:
            state.apply(text)
    except BeziqueError:
        return None
    return state


def _matches(state: State, obs: Observation) -> bool:
    """Whether the replayed ``state`` shows the seat what ``obs`` does where a world can differ
    (the replay already followed every public action): the seat's hand, the cards known in
    each hand, the scores and the turn (the tests compare whole observations)."""
    seat = obs.seat
    if tuple(state.hand(seat)) != obs.hand or state.scores != obs.scores:
        return False
    if state.current_player() != obs.turn:
        return False
    for i, known in enumerate(obs.known_cards):
        mask = state.known_masks[i] & state.hand_masks[i]
        if mask.bit_count() != len(known) or Counter(card_of(p) for p in bit_list(mask)) != (
                Counter(known)):
            return False
    return True


class TableSampler:
    """Samples worlds for one observation of a table of three or four; the observation is
    analysed once (:class:`TablePlan`)."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.plan = TablePlan(obs)

    def sample(self, rng: random.Random) -> State:
        """One complete state whose observation for ``obs.seat`` equals ``obs``."""
        obs = self.obs
        for i in range(_TRIES):
            parts = self.plan.build(rng, 0.0 if i < EXPLORE_AFTER else EXPLORE)
            if parts is None:
                continue
            state = replay(obs, *parts)
            if state is not None and _matches(state, obs):
                return state
        raise SamplingError("no deal consistent with this observation was found")


def sample_table_world(obs: Observation, rng: random.Random) -> State:
    """A complete :class:`State` whose observation for ``obs.seat`` equals ``obs``."""
    return TableSampler(obs).sample(rng)


__all__ = ["TablePlan", "TableSampler", "replay", "sample_table_world"]
