"""Bezique and Binocle: an exact rules engine, players and tools.

>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("bezique"), seed=1)
>>> len(s.hand(0)), s.stock_left
(8, 47)
"""

from .cards import card_name, card_symbol, parse_card
from .errors import BeziqueError, IllegalActionError, OptionError, RecordError
from .observation import Observation
from .rules import Rules
from .state import State

__all__ = [
    "BeziqueError",
    "IllegalActionError",
    "Observation",
    "OptionError",
    "RecordError",
    "Rules",
    "State",
    "card_name",
    "card_symbol",
    "parse_card",
]
