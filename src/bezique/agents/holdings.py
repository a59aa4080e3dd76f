"""What kinds of card a player keeps in hand: weights for dealing the other hand in a world.

A uniform world deals the other seat's concealed cards at random from the cards not seen.
Players do not hold a random hand: they throw the small plain cards to tricks and keep aces,
tens, trumps and the bezique cards for melds and the last tricks, so late in a deal the other
hand holds far fewer sevens, eights and nines than chance says (in Rubicon's heuristic play, a
fifth to a third as many) and about twice the aces.  A card's *kind* is what that depends on:
one of the bezique pair (under the trump suit), else its rank and whether it is a trump;
:data:`HOLDING_WEIGHTS` gives each kind a weight for each third of the stock, fitted by
``benchmarks/fit_holdings.py`` on the variant's heuristic self-play so that worlds drawn with
them (:class:`~bezique.agents.sampling.WorldSampler`, ``weights``) hold each kind as often as
the real hands did.  ``search:hands=kept`` uses them.

>>> from bezique import Rules
>>> from bezique.cards import parse_card
>>> rules = Rules.preset("bezique")
>>> [kind_of(rules, parse_card(c), 0) for c in ("QS", "JD", "AS", "7C")]  # spades trumps
['bezique-Q', 'bezique-J', 'trump-A', 'plain-7']
"""

from __future__ import annotations

from ..cards import card_name, suit_of
from ..rules import Rules

RANKS = ("7", "8", "9", "J", "Q", "K", "T", "A")
# the kinds, in the order of a row of HOLDING_WEIGHTS
KINDS: tuple[str, ...] = ("bezique-Q", "bezique-J", *(f"trump-{r}" for r in RANKS),
                          *(f"plain-{r}" for r in RANKS))
PHASES = 3  # a row of weights for each third of the stock (the first: most of it left)

# variant -> one row of len(KINDS) weights for each phase (fit_holdings.py --write)
HOLDING_WEIGHTS: dict[str, tuple[tuple[float, ...], ...]] = {
    "bezique": (
        (0.975, 1.36, 0.223, 1.1, 1.02, 1.68, 1.21, 1.6, 1.52,
         1.59, 0.531, 0.391, 0.247, 0.938, 1.25, 1.13, 1.05, 1.58),
        (1.02, 1.69, 0.156, 0.75, 0.467, 2.15, 1.41, 1.71, 2,
         1.92, 0.184, 0.158, 0.128, 0.546, 1.11, 1.08, 0.895, 1.96),
        (0.915, 1.33, 0.328, 0.894, 0.626, 2.03, 1.18, 1.44, 1.67,
         1.66, 0.311, 0.239, 0.256, 0.357, 0.714, 0.833, 0.883, 1.9),
    ),
    "rubicon": (
        (0.959, 1.53, 0.513, 0.421, 0.259, 1.99, 1.11, 1.22, 1.58,
         1.93, 0.359, 0.26, 0.208, 1.21, 1.16, 1.24, 1.35, 1.78),
        (0.847, 2.03, 0.205, 0.279, 0.259, 2.15, 0.93, 1.29, 1.86,
         1.67, 0.072, 0.1, 0.08, 1.13, 0.948, 1.08, 1.68, 2.3),
        (0.861, 1.25, 0.627, 0.614, 0.682, 1.57, 0.89, 1.3, 1.5,
         1.3, 0.269, 0.244, 0.23, 1.04, 0.659, 1, 1.64, 2.19),
    ),
    "sixpack": (
        (0.772, 1.02, 0.885, 0.785, 0.631, 1.62, 1, 1.12, 3.44,
         1.75, 0.413, 0.31, 0.328, 1.35, 1, 1.02, 1.17, 1.51),
        (0.882, 1.09, 0.719, 0.59, 0.459, 1.9, 1, 0.88, 7.07,
         1.94, 0.203, 0.158, 0.161, 1.04, 0.729, 0.87, 0.779, 1.17),
        (0.446, 1.1, 1.33, 1.29, 1.11, 1.28, 1, 0.68, 5.74,
         1.3, 0.331, 0.262, 0.244, 0.606, 0.547, 0.614, 0.603, 1.34),
    ),
}


def kind_of(rules: Rules, card: int, trump: int) -> str:
    """The kind of ``card`` (0..31) when ``trump`` is the trump suit (-1: none fixed yet)."""
    if card in rules.bezique_cards(trump):
        return "bezique-Q" if card_name(card)[0] == "Q" else "bezique-J"
    return ("trump-" if trump >= 0 and suit_of(card) == trump else "plain-") + card_name(card)[0]


def phase_of(rules: Rules, stock_left: int) -> int:
    """The third of the stock a position is in: 0 with more than two thirds left, then 1, 2."""
    size = max(1, rules.stock_size)
    return 0 if 3 * stock_left > 2 * size else 1 if 3 * stock_left > size else 2


def card_weights(rules: Rules, trump: int, stock_left: int) -> list[float] | None:
    """The weight of each card (0..31) for dealing the other hand now, or None where the
    variant has no fitted weights (uniform worlds)."""
    table = HOLDING_WEIGHTS.get(rules.variant)
    if table is None:
        return None
    row = table[phase_of(rules, stock_left)]
    index = {k: i for i, k in enumerate(KINDS)}
    return [row[index[kind_of(rules, c, trump)]] for c in range(32)]
