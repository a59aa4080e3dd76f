"""Actions as ints, for the hot path, and their kinds.

An action int is one of:

* ``0..255``: play the physical card with that number (see :mod:`bezique.cards`);
* :data:`PASS` (256), :data:`EXCHANGE` (257), :data:`SEVEN` (258), and for the family of
  RULES.md 9.8 :data:`CARTE` (259, carte blanche) and :data:`OFFER` (260, the declaring turn
  passed to the partner);
* ``GUESS + n`` (384 + n, ``n`` up to 127) for the non-dealer's guess of the cut, ``guess n``
  (RULES.md 9.2, the cut bonus);
* ``mask << 9`` for a meld made of the physical cards of ``mask``.

Their text (RULES.md 7) depends on the position (``QS`` or ``QS*``), so
:meth:`bezique.State.action_to_string` and :meth:`bezique.State.string_to_action` convert.

>>> kind(PASS), kind(5), kind(meld_action(0b11))
('pass', 'play', 'meld')
>>> meld_cards(meld_action(0b101))
[0, 2]
"""

from __future__ import annotations

from typing import Final

from .cards import bits

PASS: Final = 256
EXCHANGE: Final = 257
SEVEN: Final = 258
CARTE: Final = 259
OFFER: Final = 260
GUESS: Final = 384


def guess_action(n: int) -> int:
    """The action int of the guess that the cut is ``n`` cards.

    >>> kind(guess_action(24)), guess_action(24) - GUESS
    ('guess', 24)
    """
    return GUESS + n


def meld_action(mask: int) -> int:
    """The action int of the meld made of the physical cards in ``mask``."""
    return mask << 9


def is_meld(action: int) -> bool:
    """True for a meld action."""
    return action >= 512


def is_play(action: int) -> bool:
    """True for a play action."""
    return 0 <= action < 256


def meld_cards(action: int) -> list[int]:
    """The physical cards of a meld action."""
    return list(bits(action >> 9))


def kind(action: int) -> str:
    """``play``, ``meld``, ``pass``, ``exchange``, ``seven``, ``carte``, ``offer`` or
    ``guess``."""
    if action < 256:
        return "play"
    if action >= 512:
        return "meld"
    if action >= GUESS:
        return "guess"
    return {PASS: "pass", EXCHANGE: "exchange", SEVEN: "seven", CARTE: "carte",
            OFFER: "offer"}[action]
