"""OpenSpiel's fixed numbering and fixed-shape views of a deal, without OpenSpiel itself.

:mod:`bezique.openspiel` (which imports ``pyspiel``) uses this module for everything that is
plain Python: the game parameters read into :class:`~bezique.rules.Rules`, the fixed action ids
of a player's choices and their mapping to the engine's action ints, and the strings and flat
float vectors (information state and observation) built from a seat's
:class:`~bezique.observation.Observation` only, never from hidden cards.

Action ids, for a variant with ``C`` packs (``copies``):

* ``0..31``: play the concealed card with that card id (the engine's listed copy of it);
* ``32 + 32 * g + c`` (``g < C``): play card ``c`` from the table, the ``g``-th shown group of
  it in the engine's order (copies shown with different meld histories are different choices);
* ``32 + 32 * C + k``: ``pass``, ``exchange``, ``seven``, ``carte``, ``offer`` (k = 0..4);
* ``32 + 32 * C + 5 + k`` (``k < MELD_CAP``): the k-th legal meld, the legal melds sorted by
  their text (a seat's text never names a copy, so the order is the same in every world that
  seat cannot tell apart);
* with the cut bonus only (RULES.md 9.2, ``cut_range`` ``lo-hi``): ``32 + 32 * C + 5 +
  MELD_CAP + n - lo``, the non-dealer's ``guess n`` (``lo <= n <= hi``).  Without the cut bonus
  the ids stop before this block, as they always have.

Chance outcomes are card ids 0..31 while the cards are dealt; with the cut bonus one more chance
node follows the last card, the dealer's cut, whose outcome id is the number of cards cut.

>>> cut = Layout(Rules.preset("sixpack", cut_bonus=True))
>>> cut.guess_base, cut.num_distinct_actions, cut.max_chance_outcomes, cut.cut_block_size
(357, 370, 32, 27)
>>> describe_id(cut, 357 + 6)
'guess 24'

>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("bezique"), seed=7)
>>> table = action_table(s)
>>> sorted(table) == sorted(c for c in table if c < 32), len(table) == len(s.legal_actions())
(True, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from . import actions as act
from .cards import card_name, card_of, rank_of, suit_of
from .errors import OptionError
from .observation import Observation
from .rules import OPTION_NAMES, Rules, cut_bounds
from .state import State

MELD_CAP = 128
"""Legal melds given an id in one state; more (never seen in the two-pack games) are dropped."""

NCARD = 32
PHASES = ("deal", "lead", "follow", "declare", "over")
SCORE_SCALE = 1000.0


def _option_defaults() -> dict[str, Any]:
    """Each option's parameter default: -1 for numbers and "" for choices mean "the variant's
    default"; a true/false option defaults to the engine's default and is set when it differs."""
    base = {f.name: f.default for f in dataclasses.fields(Rules)}
    out: dict[str, Any] = {}
    for name in OPTION_NAMES:
        d = base[name]
        out[name] = d if isinstance(d, bool) else -1 if isinstance(d, int) else ""
    return out


OPTION_DEFAULTS: dict[str, Any] = _option_defaults()
OFF = "off"
"""The parameter naming true/false options turned off whatever the variant's default (joined by
``+``): OpenSpiel fills every parameter left out with its default, so ``partnership=False``
cannot be told from no choice, and Binocle's ``fours_distinct_suits`` and ``bezique4``'s
``partnership`` (true by default there) could not be turned off otherwise."""
PARAMETER_DEFAULTS: dict[str, Any] = {"variant": "bezique", "dealer": 1, **OPTION_DEFAULTS,
                                      OFF: ""}


def _off_options(value: Any, options: Mapping[str, Any]) -> dict[str, bool]:
    """The options ``off`` (``name+name``) turns off, each checked to be a true/false option
    not also set true."""
    if not isinstance(value, str):
        raise OptionError(f"parameter 'off' names true/false options joined by '+', not "
                          f"{value!r:.40}")
    flags = sorted(n for n, d in OPTION_DEFAULTS.items() if isinstance(d, bool))
    out: dict[str, bool] = {}
    for name in filter(None, (n.strip() for n in value.split("+"))):
        if name not in flags:
            raise OptionError(f"parameter 'off' names true/false options ({', '.join(flags)}), "
                              f"not {name!r}")
        if options.get(name) is True:
            raise OptionError(f"option {name!r} is given true and named in 'off'")
        out[name] = False
    return out


def rules_from_parameters(params: Mapping[str, Any]) -> Rules:
    """The :class:`Rules` named by OpenSpiel game parameters (variant, RULES.md 6 options, and
    :data:`OFF`).  ``cut_range`` may be written ``20_28``: OpenSpiel's game string takes
    ``20-28`` for a malformed number.

    >>> rules_from_parameters({"variant": "binocle", "off": "fours_distinct_suits"}).options()
    {'fours_distinct_suits': False}
    """
    options = {n: v for n, v in params.items()
               if n in OPTION_DEFAULTS and v != OPTION_DEFAULTS[n]}
    options.update(_off_options(params.get(OFF, ""), options))
    if isinstance(options.get("cut_range"), str):
        options["cut_range"] = options["cut_range"].replace("_", "-")
    return Rules.preset(str(params.get("variant", "bezique")), **options)


def game_parameters(rules: Rules, dealer: int) -> dict[str, Any]:
    """The game parameters of ``rules`` with ``dealer`` dealing: the options that differ from
    the variant's defaults, a true/false one turned off where OpenSpiel's default would not
    show it (:data:`OFF`), so that :func:`rules_from_parameters` gives ``rules`` back.

    >>> game_parameters(Rules.preset("bezique4", partnership=False, target=1500), 0)
    {'variant': 'bezique4', 'dealer': 0, 'target': 1500, 'off': 'partnership'}
    """
    params: dict[str, Any] = {"variant": rules.variant, "dealer": dealer}
    off = []
    for name, value in rules.options().items():
        if value is False and OPTION_DEFAULTS.get(name) is False:
            off.append(name)
        else:
            params[name] = value
    if off:
        params[OFF] = "+".join(sorted(off))
    return string_safe(params)


def string_safe(params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with ``cut_range`` spelled ``20_28``, so that the game's string loads again.

    >>> string_safe({"variant": "sixpack", "cut_range": "20-28"})
    {'variant': 'sixpack', 'cut_range': '20_28'}
    """
    out = dict(params)
    if isinstance(out.get("cut_range"), str):
        out["cut_range"] = out["cut_range"].replace("-", "_")
    return out


@dataclasses.dataclass(frozen=True)
class Layout:
    """Fixed action ids and tensor sizes of one variant."""

    rules: Rules

    @property
    def special_base(self) -> int:
        """The id of ``pass``."""
        return NCARD + NCARD * self.rules.copies

    @property
    def meld_base(self) -> int:
        """The id of the first meld."""
        return self.special_base + 5

    @property
    def cuts(self) -> tuple[int, int] | None:
        """With the cut bonus, the smallest and largest cut of ``cut_range``; else None."""
        return cut_bounds(self.rules.cut_range) if self.rules.cut_bonus else None

    @property
    def ncuts(self) -> int:
        """How many cuts (and guesses) there are: 0 without the cut bonus."""
        cuts = self.cuts
        return 0 if cuts is None else cuts[1] - cuts[0] + 1

    @property
    def guess_base(self) -> int:
        """The id of the guess of the smallest cut (with the cut bonus)."""
        return self.meld_base + MELD_CAP

    @property
    def num_distinct_actions(self) -> int:
        """Player action ids: the moves, then the guesses of the cut (with the cut bonus)."""
        return self.guess_base + self.ncuts

    @property
    def max_chance_outcomes(self) -> int:
        """Chance outcome ids: card ids 0..31, and with the cut bonus the cut's size."""
        cuts = self.cuts
        return NCARD if cuts is None else max(NCARD, cuts[1] + 1)

    @property
    def max_game_length(self) -> int:
        """Chance outcomes (one per card, and the cut) plus a bound on the players' actions
        (and the guess)."""
        r = self.rules
        per_trick = r.nplayers + r.melds_per_trick + 4
        extra = 2 if r.cut_bonus else 0
        return r.deck_size + r.total_tricks * per_trick + 2 * r.nplayers + extra

    @property
    def cut_block_size(self) -> int:
        """The observation's last block with the cut bonus (guessing now, the guess one-hot,
        the cut one-hot over ``cut_range``); 0 without it."""
        n = self.ncuts
        return 1 + 2 * n if n else 0

    @property
    def observation_size(self) -> int:
        """Length of the observation tensor."""
        n = self.rules.nplayers
        return (2 * n + 1 + len(PHASES) + 5 + NCARD * (5 + 3 * n) + 3 * n + 1
                + self.cut_block_size)

    @property
    def history_size(self) -> int:
        """Length of the history part of the information-state tensor."""
        r = self.rules
        return r.total_tricks * (r.nplayers + r.nplayers * NCARD) + (r.total_tricks + 1) * NCARD

    @property
    def information_state_size(self) -> int:
        """Length of the information-state tensor."""
        return self.observation_size + self.history_size


def action_table(state: State) -> dict[int, int]:
    """The legal actions of the seat to act: fixed id -> the engine's action int."""
    seat = state.current_player()
    if seat < 0:
        return {}
    rules = state.rules
    copies = rules.copies
    hand = state.hand_masks[seat]
    special = NCARD + NCARD * copies
    out: dict[int, int] = {}
    groups = [0] * NCARD
    melds = []
    for a in state.legal_actions():
        if act.is_play(a):
            c = card_of(a)
            if hand >> a & 1:
                out[c] = a
            else:
                g = groups[c]
                groups[c] = g + 1
                if g < copies:
                    out[NCARD + NCARD * g + c] = a
        elif act.is_meld(a):
            melds.append((state.action_to_string(a), a))
        elif a >= act.GUESS:  # the cut bonus: guess n
            out[special + 5 + MELD_CAP + a - act.GUESS - cut_bounds(rules.cut_range)[0]] = a
        else:
            out[special + a - act.PASS] = a
    melds.sort()
    for k, (_, a) in enumerate(melds[:MELD_CAP]):
        out[special + 5 + k] = a
    return out


def describe_id(layout: Layout, action: int) -> str:
    """Text for an id that is not legal in the state at hand (the legal ones use the engine's
    own text)."""
    special = layout.special_base
    if 0 <= action < NCARD:
        return f"play {card_name(action)}"
    if NCARD <= action < special:
        g, c = divmod(action - NCARD, NCARD)
        return f"play {card_name(c)}* (shown group {g})"
    if special <= action < special + 5:
        return ("pass", "exchange", "seven", "carte", "offer")[action - special]
    cuts = layout.cuts
    if cuts is not None and action >= layout.guess_base:
        return f"guess {action - layout.guess_base + cuts[0]}"
    return f"meld #{action - layout.meld_base}"


def chance_text(action: int, cut: bool) -> str:
    """A chance outcome as text: ``deal QS`` (a card id), or ``cut 24`` at the cut's node."""
    if cut:
        return f"cut {action}"
    return f"deal {card_name(action)}" if 0 <= action < NCARD else f"deal {action}"


def cut_guess(obs: Observation) -> int | None:
    """The non-dealer's guess of the cut once made (the deal's first action, public), else
    None."""
    if obs.actions and obs.actions[0][1].startswith("guess "):
        return int(obs.actions[0][1][6:])
    return None


# ---------------------------------------------------------------------------------- strings


def deal_text(seat: int, hand: list[int], turnup: int | None, dealt: int, total: int) -> str:
    """A seat's view while the cards are being dealt: its own cards and the turn-up only."""
    names = ",".join(card_name(c) for c in sorted(hand, key=lambda c: (suit_of(c), rank_of(c))))
    up = card_name(turnup) if turnup is not None else "-"
    return f"seat={seat} phase=deal dealt={dealt}/{total} hand={names} turnup={up}"


def _cut_text(obs: Observation) -> list[str]:
    """With the cut bonus, the guess and the cut once public (``-`` before); else nothing."""
    if not obs.rules.cut_bonus:
        return []
    guess = cut_guess(obs)
    return [f"guess={'-' if guess is None else guess}",
            f"cut={'-' if obs.cut is None else obs.cut}"]


def information_text(obs: Observation) -> str:
    """The information state of ``obs.seat``: :meth:`Observation.text` (every action, the guess
    among them), and with the cut bonus the cut once the guess has made it public."""
    text = obs.text()
    if obs.rules.cut_bonus:
        text += f" cut={'-' if obs.cut is None else obs.cut}"
    return text


def observation_text(obs: Observation) -> str:
    """The position as ``obs.seat`` sees it now, without the history (OpenSpiel's observation
    string; :func:`information_text` is the information state)."""
    parts = [
        f"seat={obs.seat}", f"turn={obs.turn}", f"phase={obs.phase}",
        "hand=" + ",".join(card_name(c) for c in obs.hand),
        "shown=" + "|".join(",".join(card_name(c) for c in s) for s in obs.shown),
        "known=" + "|".join(",".join(card_name(c) for c in s) for s in obs.known_cards),
        "trick=" + ",".join(card_name(c) for c in obs.trick),
        f"turnup={card_name(obs.turnup) if obs.turnup is not None else '-'}",
        f"trump={'SHDC'[obs.trump] if obs.trump >= 0 else '-'}",
        f"stock={obs.stock}", f"tricks={obs.tricks_played}",
        "scores=" + ",".join(str(x) for x in obs.scores),
        "brisques=" + ",".join(str(x) for x in obs.brisques),
        *_cut_text(obs),
    ]
    return " ".join(parts)


# ---------------------------------------------------------------------------------- tensors


class _Writer:
    """Appends named blocks to a flat list of floats."""

    def __init__(self) -> None:
        self.values: list[float] = []

    def one_hot(self, size: int, index: int) -> None:
        block = [0.0] * size
        if 0 <= index < size:
            block[index] = 1.0
        self.values += block

    def counts(self, cards: tuple[int, ...] | list[int], scale: float) -> None:
        block = [0.0] * NCARD
        for c in cards:
            block[c] += 1.0 / scale
        self.values += block

    def numbers(self, xs: tuple[int, ...] | list[int], scale: float) -> None:
        self.values += [x / scale for x in xs]


def _common(w: _Writer, layout: Layout, seat: int, turn: int, phase: str) -> None:
    n = layout.rules.nplayers
    w.one_hot(n, seat)
    w.one_hot(n + 1, turn if turn >= 0 else n)  # the last: chance, or the deal is over
    # the guess of the cut is no phase here: the cut block (cut bonus only) says it
    w.one_hot(len(PHASES), PHASES.index(phase) if phase in PHASES else -1)


def observation_tensor(layout: Layout, obs: Observation) -> list[float]:
    """The observation tensor of ``obs.seat``: seat, turn, phase, trumps, card counts (hand,
    shown, known and won per seat, the trick, the turn-up now and dealt, the unseen cards),
    scores and brisques (/1000), the stock left and the hand sizes (fractions); with the cut
    bonus last the cut block: 1 while the guess is to be made (the phase one-hot is then all
    0), the guess one-hot and the cut one-hot over ``cut_range`` (all 0 before the guess)."""
    r = layout.rules
    n, c = r.nplayers, float(r.copies)
    w = _Writer()
    _common(w, layout, obs.seat, obs.turn, obs.phase)
    w.one_hot(5, obs.trump if obs.trump >= 0 else 4)
    w.counts(obs.hand, c)
    for s in range(n):
        w.counts(obs.shown[s], c)
    for s in range(n):
        w.counts(obs.known_cards[s], c)
    won: list[list[int]] = [[] for _ in range(n)]
    for t in obs.tricks:
        won[t.winner] += t.cards
    for s in range(n):
        w.counts(won[s], c)
    w.counts(obs.trick, c)
    w.counts([obs.turnup] if obs.turnup is not None else [], 1.0)
    w.counts([obs.turnup_dealt] if obs.turnup_dealt >= 0 else [], 1.0)
    w.counts(list(obs.unseen().elements()), c)
    w.numbers(obs.scores, SCORE_SCALE)
    w.numbers(obs.brisques, SCORE_SCALE)
    w.numbers([obs.stock], float(max(r.stock_size, 1)))
    w.numbers(obs.hand_sizes, float(r.hand_size))
    cuts = layout.cuts
    if cuts is not None:
        guess = cut_guess(obs)
        w.values.append(1.0 if obs.phase == "guess" else 0.0)
        w.one_hot(layout.ncuts, -1 if guess is None else guess - cuts[0])
        w.one_hot(layout.ncuts, -1 if obs.cut is None else obs.cut - cuts[0])
    return w.values


def deal_tensor(layout: Layout, seat: int, hand: list[int], turnup: int | None) -> list[float]:
    """The observation tensor while the cards are dealt (the seat's cards and the turn-up)."""
    r = layout.rules
    w = _Writer()
    _common(w, layout, seat, -1, "deal")
    w.one_hot(5, suit_of(turnup) if turnup is not None else 4)
    w.counts(hand, float(r.copies))
    w.values += [0.0] * (NCARD * 3 * r.nplayers + NCARD)
    w.counts([turnup] if turnup is not None else [], 1.0)
    w.counts([turnup] if turnup is not None else [], 1.0)
    w.values += [0.0] * (NCARD + 3 * r.nplayers + 1 + layout.cut_block_size)
    return w.values


def history_tensor(layout: Layout, obs: Observation | None) -> list[float]:
    """The history part of the information state: each completed trick's leader and cards by
    seat, then the seat's draws in order (one card each)."""
    r = layout.rules
    n = r.nplayers
    values = [0.0] * layout.history_size
    if obs is None:
        return values
    width = n + n * NCARD
    for i, t in enumerate(obs.tricks[: r.total_tricks]):
        base = i * width
        values[base + t.leader] = 1.0
        for k, card in enumerate(t.cards):
            values[base + n + ((t.leader + k) % n) * NCARD + card] = 1.0
    base = r.total_tricks * width
    for i, card in enumerate(obs.draws[: r.total_tricks + 1]):
        values[base + i * NCARD + card] = 1.0
    return values
