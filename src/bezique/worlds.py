"""Worlds a seat cannot tell apart: the deal re-dealt in the cards that seat has not seen.

:func:`resample_from_infostate` (OpenSpiel's name) takes a deal in progress and returns another
deal with the same public history and the same view for ``seat``: every card the seat has not
seen (the other seats' concealed cards nobody showed, the face-down stock) is shuffled among the
places those cards were dealt to, and the same actions are replayed.  A world in which the
replay would come out differently for anyone to see (a shuffled card changes a score) is thrown
away and another drawn; where none replays (late in a table's end phase, where every play
narrows what each hand may hold), one is built by repairing a random deal
(:func:`repaired_deal`).  Front ends use it after an undo, so that taking a move back and making
it again never shows the next card of the stock; search code uses it to sample worlds.

>>> import random
>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("bezique"), seed=3)
>>> for _ in range(12):
...     s.apply_action(s.legal_actions()[0])
>>> w = resample_from_infostate(s, 0, random.Random(1))
>>> w.observation(0) == s.observation(0), w.history_strings() == s.history_strings()
(True, True)
"""

from __future__ import annotations

import random

from .cards import card_of
from .deal import dealt_cut
from .errors import BeziqueError, ProtocolError
from .state import State
from .table_world import table_world


def reshuffled_deal(state: State, seat: int, rng: random.Random) -> State:
    """The deal at its start (no action applied) with the cards ``seat`` has not seen
    shuffled among the places they were dealt to."""
    places: list[tuple[int, int]] = []  # (hand index, or -1 for the stock; position)
    for other in range(state.rules.nplayers):
        if other == seat:
            continue
        hidden = state.hand_masks[other] & ~state.known_masks[other]
        places += [(other, i) for i, p in enumerate(state.deal_hands[other]) if hidden >> p & 1]
        places += [(-1, j) for j, p in enumerate(state.stock[: state.stock_pos])
                   if hidden >> p & 1]
    places += [(-1, j) for j in range(state.stock_pos, len(state.stock))]
    hands = [[card_of(p) for p in h] for h in state.deal_hands]
    stock = [card_of(p) for p in state.stock]
    values = [hands[h][i] if h >= 0 else stock[i] for h, i in places]
    rng.shuffle(values)
    for (h, i), v in zip(places, values, strict=True):
        if h >= 0:
            hands[h][i] = v
        else:
            stock[i] = v
    turnup = None if state.turnup_card < 0 else card_of(state.turnup_card)
    cut = state.cut_known  # public once guessed; before the guess nobody knows it: redrawn
    if cut is None and state.rules.cut_bonus:
        cut = dealt_cut(state.rules, rng)
    return State.from_cards(state.rules, hands, turnup, stock, state.dealer, state.totals, cut)


def resample_from_infostate(state: State, seat: int, rng: random.Random,
                            tries: int = 50) -> State:
    """A deal ``seat`` cannot tell from ``state``: the same history, the same observation for
    ``seat``, the unseen cards dealt afresh.  After ``tries`` worlds that replay differently,
    one is built by repairs (:func:`repaired_deal`); only if that fails too is ``state`` itself
    (cloned) returned: it is always consistent."""
    state.checked_seat(seat)  # (a BeziqueError naming the seats, for one that is not)
    texts = [text for _, text in state.history_strings()]
    for _ in range(tries):
        world = reshuffled_deal(state, seat, rng)
        try:
            for text in texts:
                world.apply(text)
        except BeziqueError:
            continue
        if _same_for(world, state, seat):
            return world
    repaired = repaired_deal(state, seat, rng)
    return state.clone() if repaired is None else repaired


def _same_for(world: State, state: State, seat: int) -> bool:
    """Whether ``world`` shows everyone what ``state`` does, and ``seat`` its own view."""
    return world.events == state.events and world.observation(seat) == state.observation(seat)


def repaired_deal(state: State, seat: int, rng: random.Random) -> State | None:
    """A deal ``seat`` cannot tell from ``state``, built by repairing a random deal where the
    replay needs it (:func:`~bezique.table_world.table_world`: a card another seat played or
    showed is swapped in from the cards nobody has seen; the end phase's duties to follow are
    met by dealing the concealed cards to fit), or None if none is found.  It finds one where
    shuffling and replaying rarely do: late in a deal of three or four, where every play of the
    end phase narrows what each hand may hold."""
    rules = state.rules
    hand = [card_of(p) for p in state.deal_hands[seat]]
    turnup = None if state.turnup_card < 0 else card_of(state.turnup_card)
    history = state.history_strings()
    # each action with the points it scored (public: an exchange scores 10 only for a seven
    # that had not been declared), from a replay of the real deal
    replay = State.from_cards(rules, [[card_of(p) for p in h] for h in state.deal_hands], turnup,
                              [card_of(p) for p in state.stock], state.dealer, state.totals,
                              state.cut if rules.cut_bonus else None)
    actions: list[tuple[str, int | None, int | None]] = []
    for player, text in history:
        before = len(replay.events)
        replay.apply(text)
        actions.append((text, player,
                        sum(e[1] for e in replay.events[before:] if e[0] == player)))
    # the seat's draws from the stock, one a pass (the turn-up it took by exchange is not one)
    draws = list(state.observation(seat).draws)
    passes = 0
    for player, text in history:
        if text == "pass":
            passes += 1
        elif text == "exchange" and player == seat:
            del draws[passes]
    cut = state.cut_known
    if cut is None and rules.cut_bonus:
        cut = dealt_cut(rules, rng)
    try:
        world = table_world(rules, seat, state.dealer, hand, turnup, actions, draws,
                            state.totals, rng.getrandbits(32), cut)
    except ProtocolError:
        return None
    return world if _same_for(world, state, seat) else None
