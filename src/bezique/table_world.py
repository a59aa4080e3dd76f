"""A whole deal of three or four seats that fits what one seat knows: the engine protocol's
stand-in for the tables of RULES.md 9.4-9.5.

The engine protocol (:mod:`bezique.engine`) is told one seat's dealt hand, the turn-up, every
public action and the cards that seat drew.  To let an agent think, it needs a full deal in which
those actions replay.  :func:`table_world` builds one by *repairing* a random deal as it
replays: the other seats' cards are dealt at random; when an action of another seat needs a card
that seat does not hold in the world (``play QS``, a meld, the seven of trumps), a copy of the
card that nobody has seen yet (in a third seat's concealed hand, or in the stock not yet drawn)
is swapped with one of that seat's unseen cards; when the seat's own draw is not the card the
world has there, the drawn card is swapped in the same way; an end-phase play that the world's
hand makes illegal swaps away one of the cards that would have to be played instead.  Only cards
no one has seen move, so nothing public changes; after each repair the deal is replayed from
the start, and a deal that no longer replays is dealt afresh.

>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("bezique3"), seed=4)
>>> texts = []
>>> for _ in range(9):
...     texts.append(s.legal_action_strings()[0]); s.apply(texts[-1])
>>> seen = s.observation(0)
>>> w = table_world(s.rules, 0, s.dealer, [c & 31 for c in s.deal_hands[0]],
...                 s.turnup_card & 31, [(t, None, None) for t in texts], seen.draws, seed=1)
>>> w.observation(0) == seen
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from .cards import card_name, card_of, make_card, parse_card, rank_of, suit_of
from .errors import BeziqueError, IllegalActionError, ProtocolError
from .rules import Rules, variant_title
from .state import State
from .tricks import beats, follow_mask

MAX_DEALS = 20  # fresh deals tried before giving up
MAX_REPAIRS = 600  # repairs tried in one deal
MAX_TRIES = 40  # repairs tried for one action
MAX_NODES = 20_000  # steps of the search for an end-phase deal of the concealed cards

Place = tuple[str, int]  # ("hand", seat * 100 + index) or ("stock", index)
Move = tuple[Place, ...]  # the card at each place goes to the next one, the last to the first
Act = tuple[str, int | None, int | None]  # text, the player (if given), its points (if given)


class _Repair(Exception):
    """The current world cannot go on: deal afresh."""


def table_world(rules: Rules, seat: int, dealer: int, hand: Sequence[int], turnup: int | None,
                actions: Sequence[Act], draws: Sequence[int],
                totals: Sequence[int] | None = None, seed: int = 0,
                cut: int | None = None) -> State:
    """A deal in which ``actions`` replay, ``seat`` holding ``hand`` and drawing ``draws`` (in
    order); :class:`ProtocolError` if none is found (an impossible position, or an action of
    ``seat`` itself that is refused).  Each action is (text, player or None, points or None):
    a player is checked, and points tell whether an ``exchange`` gave away a seven that had
    scored (0) or another (10)."""
    pool = Counter(card_of(p) for p in rules.deck)
    stocked = list(draws)  # the seat's draws from the stock
    # the face-up card at the last draw: the turn-up, or the seven of trumps exchanged for it
    seven = make_card(rules.seven_rank, suit_of(turnup)) if turnup is not None else -1
    exchanged = any(text.strip().lower() == "exchange" for text, _, _ in actions)
    for c in (*hand, *draws, *(() if turnup is None else (turnup,))):
        if pool[c] <= 0:
            if c in stocked and (c == turnup or (exchanged and c == seven)):
                stocked.reverse()  # the seat's last draw was the face-up card itself
                stocked.remove(c)
                stocked.reverse()
                continue
            raise ProtocolError(f"too many {card_name(c)}: {variant_title(rules.variant)} is "
                                f"played with {rules.copies} of each card")
        pool[c] -= 1
    rng = random.Random(seed)
    last: str = "no deal fits these actions"
    for _ in range(MAX_DEALS):
        world = _World(rules, seat, dealer, list(hand), turnup, list(draws), stocked, pool,
                       totals, cut, rng)
        try:
            return world.replay(actions)
        except _Repair as e:
            last = str(e) or last
    raise ProtocolError(f"no deal fits these actions: {last}")


class _World:
    """One candidate deal (card ids in deal order) and its replay."""

    def __init__(self, rules: Rules, seat: int, dealer: int, hand: list[int],
                 turnup: int | None, draws: list[int], stocked: list[int], pool: Counter[int],
                 totals: Sequence[int] | None, cut: int | None, rng: random.Random) -> None:
        self.rules, self.seat, self.dealer, self.rng = rules, seat, dealer, rng
        self.turnup, self.totals, self.cut, self.draws = turnup, totals, cut, draws
        rest = list(pool.elements())
        rng.shuffle(rest)
        n, h = rules.nplayers, rules.hand_size
        self.hands: list[list[int]] = [hand if s == seat else [] for s in range(n)]
        for s in range(n):
            if s != seat:
                self.hands[s], rest = rest[:h], rest[h:]
        stock = rest + stocked  # the seat's draws are moved to their places as they happen
        rng.shuffle(stock)
        self.stock = stock
        self.repairs = 0
        self.drawn = 0  # the seat's draws made so far in the replay
        self.why = ""  # what the last repair was for

    def _start(self) -> State:
        return State.from_cards(self.rules, self.hands, self.turnup, self.stock, self.dealer,
                                self.totals, self.cut)

    def replay(self, actions: Sequence[Act]) -> State:
        state = self._start()
        i = 0
        while i < len(actions):
            text, claimed, points = actions[i]
            player = state.current_player()
            if player < 0:
                raise ProtocolError(f"action {i + 1} ({text!r}): the deal is already over")
            if claimed is not None and claimed != player:
                raise ProtocolError(f"action {i + 1} ({text!r}): it is player {player}'s turn, "
                                    f"not player {claimed}'s")
            probe = state.clone()
            try:
                probe.apply(text)
            except IllegalActionError as e:
                why = str(e) if player == self.seat else _no_card_helps(state, text, str(e))
                if why is not None:
                    raise ProtocolError(f"action {i + 1} ({text!r} by player {player}) is "
                                        f"refused: {why}") from None
                if state.end_phase:
                    fit = self._end_phase_fit(actions, i)
                    if fit is not None:
                        state = fit
                        continue
                state = self._first_fit(self._action_swaps(state, player, text, str(e), i),
                                        actions, i)
                continue
            scored = sum(e[1] for e in probe.events[len(state.events):] if e[0] == player)
            points = self._points(state, player, text, points)
            if points is not None and points != scored \
                    and points_known(self.rules, player, self.seat, text):
                raise ProtocolError(points_refused(i, text, player, scored, points))
            if points is not None and points != scored:
                state = self._first_fit(
                    self._points_swaps(state, player, text, more=points > scored), actions, i)
                continue
            got = probe.hand_masks[self.seat] & ~state.hand_masks[self.seat]
            got &= ~state.shown_masks[self.seat]
            if text.strip().lower() in ("pass", "draw") and got:
                p = got.bit_length() - 1
                # the turn-up, or the seven of trumps exchanged for it (drawn from the stock)
                face_up = p not in state.stock[state.stock_pos:]
                if self.drawn < len(self.draws):
                    want = self.draws[self.drawn]
                    if card_of(p) != want and face_up:
                        raise ProtocolError(f"action {i + 1} ({text!r}): you drew the turn-up "
                                            f"{card_name(card_of(p))}, not {card_name(want)}")
                    if card_of(p) != want:
                        state = self._first_fit(
                            self._draw_swaps(state, want, ("stock", state.stock.index(p))),
                            actions, i)
                        continue
                    self.drawn += 1
                elif not face_up:  # the face-up card taken at the last draw may go unsaid
                    raise ProtocolError(f"action {i + 1} ({text!r}): the card you drew is "
                                        "missing (give it as 'draw')")
            state = probe
            i += 1
        return state

    def _end_phase_fit(self, actions: Sequence[Act], upto: int) -> State | None:
        """Deal the other seats' concealed cards afresh so that every end-phase play up to and
        including action ``upto`` is legal, and return the replayed state (None if the new deal
        does not replay).  In the end phase a follower's play rules out exactly the cards that
        would have obliged another play (:func:`follow_mask` ranks a hand's cards: a card may be
        played when no card of the hand ranks above it), so each play forbids its player some
        cards, whatever else it held; these cards were never shown, so dealing them among the
        seats changes nothing that was seen before.  A deal that fits always exists: the real
        one."""
        state = self._start()
        forbid: list[set[int]] = [set() for _ in range(self.rules.nplayers)]
        need: Counter[tuple[int, int]] = Counter()
        for k, (text, _, _) in enumerate(actions[:upto + 1]):
            words = text.split()
            player = state.current_player()
            if state.end_phase and player != self.seat and len(words) == 2 \
                    and words[0].lower() == "play":
                try:
                    card = parse_card(words[1])
                except ValueError:
                    return None
                trick = state.trick_cards()
                if trick:
                    best = trick[0]
                    for c in trick[1:]:
                        best = c if beats(c, best, state.trump) else best
                    forbid[player] |= {t for t in range(32) if not follow_mask(
                        1 << card | 1 << (32 + t), trick[0], best, state.trump,
                        self.rules.copies) >> card & 1}
                if k == upto:
                    need[(player, card)] += 1
            if k == upto:
                break
            try:
                state.apply(text)
            except BeziqueError:
                return None
        # the concealed cards of the other seats now, and where each seat's are in the deal
        places: list[list[Place]] = [[] for _ in range(self.rules.nplayers)]
        pool: list[int] = []
        for s in range(self.rules.nplayers):
            if s != self.seat:
                hidden = state.hand_masks[s] & ~state.known_masks[s]
                cards = [p for p in range(hidden.bit_length()) if hidden >> p & 1]
                places[s] = self._places(state, cards)
                pool += [card_of(p) for p in cards]
        deal = _deal_among(pool, [len(p) for p in places], forbid, need, self.rng)
        if deal is None:
            return None
        before = [(place, self._get(place)) for ps in places for place in ps]
        for s, ps in enumerate(places):
            for place, card in zip(ps, deal[s], strict=True):
                self._set(place, card)
        self.repairs += 1
        fresh = self._start()
        if self._replays(fresh, actions[:upto]):
            return fresh
        for place, card in before:
            self._set(place, card)
        return None

    def _points(self, state: State, player: int, text: str, points: int | None) -> int | None:
        """What an action must score: the points given; else 0 for another seat's exchange
        while it holds a seven of trumps that has scored (it gave that one away, as the README
        says the engine assumes without 'points'), None (anything) for the rest."""
        if points is None and player != self.seat and text.strip().lower() == "exchange" \
                and state.hand_masks[player] & state.scored_sevens:
            return 0
        return points

    def _replays(self, state: State, actions: Sequence[Act]) -> bool:
        """Whether ``actions`` all replay from ``state`` and score the points given."""
        try:
            for text, _, given in actions:
                player, k = state.current_player(), len(state.events)
                points = self._points(state, player, text, given)
                state.apply(text)
                if points is not None and points != sum(
                        e[1] for e in state.events[k:] if e[0] == player):
                    return False
        except BeziqueError:
            return False
        return True

    def _first_fit(self, moves: Sequence[Sequence[Move]],
                   actions: Sequence[Act], upto: int) -> State:
        """Make the first move (in a random order, trying each group of ``moves`` in turn: swaps
        before three-way moves) after which the actions before ``upto`` still replay (one may
        give a seat a card that an earlier end-phase trick says it did not hold), and return
        the replayed state."""
        for group in moves:
            group = list(group)
            self.rng.shuffle(group)
            for move in group[:MAX_TRIES]:
                self.repairs += 1
                if self.repairs > MAX_REPAIRS:
                    raise _Repair(self.why or "too many repairs")
                self._rotate(move)
                state = self._start()
                if self._replays(state, actions[:upto]):
                    return state
                self._rotate(move[::-1])  # back
        raise _Repair(self.why or "no repair fits the earlier actions")

    # -- where the unseen cards are

    def _place(self, state: State, p: int) -> tuple[str, int] | None:
        """The deal place of physical card ``p``: ("hand", seat*100 + index) or ("stock", i)."""
        for s, dealt in enumerate(state.deal_hands):
            if p in dealt:
                return ("hand", s * 100 + dealt.index(p))
        return ("stock", state.stock.index(p)) if p in state.stock else None

    def _unseen(self, state: State, card: int, exclude: int, stock_from: int,
                reserve_from: int = -1) -> list[int]:
        """Physical copies of ``card`` nobody but their holder has seen: in the concealed hands
        of seats other than the seat and ``exclude``, or in the stock from ``stock_from`` on
        (less the copies the seat will still draw from its draw ``reserve_from`` on, by
        default the next)."""
        out = []
        for s in range(self.rules.nplayers):
            if s in (self.seat, exclude):
                continue
            free = state.hand_masks[s] & ~state.known_masks[s]
            out += [p for p in range(card, 32 * self.rules.copies, 32) if free >> p & 1]
        later = Counter(self.draws[self.drawn if reserve_from < 0 else reserve_from:])
        if state.turnup is not None:  # the last draw may be the face-up card itself, or the
            later[state.turnup] -= 1  # seven of trumps once it is exchanged
            if state.trump >= 0:
                later[make_card(self.rules.seven_rank, state.trump)] -= 1
        spare = [p for p in state.stock[stock_from:] if card_of(p) == card]
        out += spare[later[card]:] if len(spare) > later[card] else []
        return out

    def _rotate(self, move: Move) -> None:
        """The card at each place of ``move`` goes to the next place, the last to the first."""
        cards = [self._get(p) for p in move]
        for p, c in zip((*move[1:], move[0]), cards, strict=True):
            self._set(p, c)

    def _get(self, place: tuple[str, int]) -> int:
        kind, i = place
        return self.hands[i // 100][i % 100] if kind == "hand" else self.stock[i]

    def _set(self, place: tuple[str, int], card: int) -> None:
        kind, i = place
        if kind == "hand":
            self.hands[i // 100][i % 100] = card
        else:
            self.stock[i] = card

    # -- repairs

    def _places(self, state: State, cards: Sequence[int]) -> list[Place]:
        out = []
        for p in cards:
            where = self._place(state, p)
            if where is not None:
                out.append(where)
        return out

    def _draw_swaps(self, state: State, card: int, to: Place) -> list[list[Move]]:
        """Swaps that bring a copy of ``card`` that nobody has seen to ``to``."""
        copies = self._unseen(state, card, -1, state.stock_pos, self.drawn + 1)
        self.why = f"no unseen {card_name(card)} is left for the seat's draw"
        return [[(where, to) for where in self._places(state, copies)]]

    def _points_swaps(self, state: State, player: int, text: str,
                      more: bool) -> list[list[Move]]:
        """Swaps after which ``text`` scores as in the game: an exchange scores 10 when the
        player gives away a seven that has not scored, so it held another copy besides the one
        it declared (``more``: bring it one), or 0 when it held none (take the extra away)."""
        self.why = f"player {player}'s {text!r} scores otherwise"
        need = _needed(self.rules, state, text)
        free = state.hand_masks[player] & ~state.known_masks[player]
        if more:
            copies = [p for c in need for p in self._unseen(state, c, player, state.stock_pos)]
            mine = [p for p in range(free.bit_length())
                    if free >> p & 1 and card_of(p) not in need]
            return [[(a, b) for a in self._places(state, copies)
                     for b in self._places(state, mine)]]
        extra = [p for p in range(free.bit_length()) if free >> p & 1 and card_of(p) in need]
        others = [p for s in range(self.rules.nplayers) if s not in (player, self.seat)
                  for p in range((state.hand_masks[s] & ~state.known_masks[s]).bit_length())
                  if (state.hand_masks[s] & ~state.known_masks[s]) >> p & 1]
        others += state.stock[state.stock_pos:]
        return [[(a, b) for a in self._places(state, extra) for b in self._places(state, others)]]

    def _action_swaps(self, state: State, player: int, text: str,
                      why: str, index: int) -> list[list[Move]]:
        """Swaps that give ``player`` the concealed cards ``text`` needs, or take away one that
        made the play illegal.  In the end phase a single swap may not do: the card may fit only
        a second seat whose cards fit only a third, so three-way moves follow the swaps."""
        self.why = (f"action {index + 1} ({text!r} by player {player}) is refused in every "
                    f"deal tried (the rules say: {why})")
        need = _needed(self.rules, state, text)
        free = state.hand_masks[player] & ~state.known_masks[player]
        held = state.hand_masks[player]
        if text.strip().lower() == "seven":  # a seven that has scored does not count
            held &= ~state.scored_sevens
        have = Counter(card_of(p) for p in range(held.bit_length()) if held >> p & 1)
        for card, k in need.items():
            if have[card] >= k:
                continue
            copies = self._unseen(state, card, player, state.stock_pos)
            mine = [p for p in range(free.bit_length())
                    if free >> p & 1 and card_of(p) not in need]
            return [[(a, b) for a in self._places(state, copies)
                     for b in self._places(state, mine)]]
        # it held the cards: a card it would have had to play instead (the end phase)
        legal = [p for p in range(free.bit_length()) if free >> p & 1 and any(
            a & 31 == p & 31 for a in state.legal_actions() if 0 <= a < 256)]
        out = self._places(state, legal)
        theirs: list[list[Place]] = []  # the concealed cards of each third seat
        for s in range(self.rules.nplayers):
            if s not in (player, self.seat):
                hidden = state.hand_masks[s] & ~state.known_masks[s]
                theirs.append(self._places(
                    state, [p for p in range(hidden.bit_length()) if hidden >> p & 1]))
        swaps: list[Move] = [(a, b) for a in out for places in theirs for b in places]
        three: list[Move] = [(a, b, c) for a in out for i, bs in enumerate(theirs) for b in bs
                             for j, cs in enumerate(theirs) if i != j for c in cs]
        return [swaps, three]


def _deal_among(pool: list[int], sizes: list[int], forbid: list[set[int]],
                need: Counter[tuple[int, int]], rng: random.Random) -> list[list[int]] | None:
    """Deal the cards of ``pool`` to the seats, ``sizes[s]`` each, no seat getting a card of
    ``forbid[s]`` and seat s getting ``need[(s, card)]`` copies of each card it needs: a random
    such deal, or None if there is none (depth-first, scarcest card first; copies of one card
    go to the seats in order, and the search gives up after :data:`MAX_NODES` steps).

    >>> _deal_among([1, 2, 3], [1, 2], [{1}, set()], Counter(), random.Random(0))[0]
    [2]
    """
    left = list(sizes)
    hands: list[list[int]] = [[] for _ in sizes]
    rest = Counter(pool)
    for (s, card), k in need.items():
        if rest[card] < k or left[s] < k or card in forbid[s]:
            return None
        rest[card] -= k
        left[s] -= k
        hands[s] += [card] * k
    cards = list(rest.elements())

    cards.sort(key=lambda c: (sum(1 for s in range(len(sizes)) if left[s] and c not in forbid[s]),
                              c))
    order = list(range(len(sizes)))
    rng.shuffle(order)
    steps = [0]

    def place(i: int, low: int) -> bool:
        if i == len(cards):
            return True
        steps[0] += 1
        if steps[0] > MAX_NODES:
            return False
        for k in range(low, len(order)):  # a copy of the card before goes to its seat or later
            s = order[k]
            if not left[s] or cards[i] in forbid[s]:
                continue
            left[s] -= 1
            hands[s].append(cards[i])
            if place(i + 1, k if i + 1 < len(cards) and cards[i + 1] == cards[i] else 0):
                return True
            hands[s].pop()
            left[s] += 1
        return False

    return hands if place(0, 0) else None


_CARD_VERBS = {"play": ("lead", "follow"), "meld": ("declare",), "exchange": ("declare",),
               "seven": ("declare",)}


def _no_card_helps(state: State, text: str, rules_say: str) -> str | None:
    """Why no deal of the unseen cards can make another seat's refused ``text`` legal (None if
    one may): it is no play, meld, exchange or seven of the phase, names no card, or its cards
    form no meld.  Only these actions can be refused for a card the seat lacks; repairing the
    deal for the others would only cost time (seconds at a table) and bury the reason.

    >>> s = State.new_deal(Rules.preset("bezique3"), seed=1)
    >>> [_no_card_helps(s, t, "the rules' reason") for t in ("play ZZ", "meld KS QS", "play AS")]
    ["the rules' reason", "a card must be played now ('play QS')", None]
    """
    words = text.split()
    verb = words[0].lower() if words else ""
    args = words[1:]
    phases = _CARD_VERBS.get(verb)
    if phases is None or (verb == "play" and len(args) != 1) or (verb == "meld" and not args) \
            or (verb in ("exchange", "seven") and args):
        return rules_say
    if state.phase not in phases:
        return ("a card must be played now ('play QS')" if state.phase in ("lead", "follow")
                else rules_say if state.phase != "declare" else
                "after winning a trick, declare ('meld QS JD', 'exchange', 'seven') or 'pass'")
    cards = []
    for tok in args:
        mark = min((k for k in (tok.find("*"), tok.find("+")) if k >= 0), default=len(tok))
        tail = tok[mark + 1:]
        if tail and not (len(tail) <= 2 and tail.isascii() and tail.isdigit() and int(tail)):
            return rules_say
        try:
            cards.append(parse_card(tok[:mark]))
        except ValueError:
            return rules_say
    if verb == "meld" and state.rules.classify(cards, state.trump) is None:
        return rules_say
    return None


def _needed(rules: Rules, state: State, text: str) -> Counter[int]:
    """The concealed cards an action needs in its player's hand."""
    words = text.split()
    verb = words[0].lower() if words else ""
    need: Counter[int] = Counter()
    if verb in ("play", "meld"):
        for tok in words[1:]:
            if "*" in tok or "+" in tok:
                continue
            try:
                need[parse_card(tok)] += 1
            except ValueError:
                continue
    elif verb in ("exchange", "seven") and state.trump >= 0:
        need[make_card(rules.seven_rank, state.trump)] += 1
    return need


def points_known(rules: Rules, player: int, seat: int, text: str) -> bool:
    """Whether what ``text`` scores follows from what ``seat`` knows.  It does for the seat's own
    actions and for every other action but another seat's ``exchange`` (it may give away a seven
    of trumps that has scored or one that has not) and, where a seven scores when it is played,
    its play of a seven (which copy it played decides).

    >>> from bezique.rules import BEZIQUE as r
    >>> points_known(r, 1, 0, "meld KS QS"), points_known(r, 1, 0, "exchange")
    (True, False)
    >>> points_known(r, 0, 0, "exchange"), points_known(r, 1, 0, "play 7D")
    (True, True)
    >>> points_known(r.with_options(seven="played"), 1, 0, "play 7D")
    False
    """
    words = text.split()
    if player == seat or not words:
        return True
    verb = words[0].lower()
    if verb == "exchange":
        return False
    if verb == "play" and len(words) > 1 and rules.seven == "played":
        try:
            return rank_of(parse_card(words[1].split("*")[0])) != rules.seven_rank
        except BeziqueError:
            return True
    return True


def points_refused(i: int, text: str, player: int, scored: int, points: int) -> str:
    """The error for action ``i`` (from 0) reported with points it did not score, where they
    follow from what the seat knows (:func:`points_known`): one line, as a player reads it.

    >>> points_refused(0, "play 7S", 0, 0, 999)
    "action 1 ('play 7S' by player 0) scores 0 points, not 999"
    """
    return f"action {i + 1} ({text!r} by player {player}) scores {scored} points, not {points}"

