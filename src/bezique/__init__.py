"""Bezique and its family (Binocle, Rubicon, Six-pack, Eight-pack, three- and four-handed): an
exact rules engine, players and tools.

>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("bezique"), seed=1)
>>> len(s.hand(0)), s.stock_left
(8, 47)

``bezique.COMPILED`` is True when the engine's core modules run compiled with mypyc (the install
compiles them when it can; ``BEZIQUE_PURE=1`` in the environment forces pure Python).
"""

# ruff: noqa: E402 - the finder goes in before the imports below
# First, before any compiled module is imported: BEZIQUE_PURE=1 loads the .py sources instead.
from . import _purepy

_purepy.install()

from importlib.metadata import PackageNotFoundError, version

from . import cards as _cards
from . import state as _state
from .cards import card_name, card_symbol, parse_card
from .errors import BeziqueError, IllegalActionError, OptionError, RecordError
from .observation import Observation
from .rules import Rules
from .state import State

#: True when the engine's core modules (cards, state) were loaded compiled by mypyc.
COMPILED: bool = _purepy.is_compiled(_cards) and _purepy.is_compiled(_state)

try:
    __version__: str = version("bezique")
except PackageNotFoundError:  # run from a source tree that is not installed
    __version__ = "0+unknown"

__all__ = [
    "COMPILED",
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
