"""The fixed-size action and observation encoding of the learning environments, the episode
(a deal, or a game to the target) and the text view (``render_mode="ansi"``) they share.

:mod:`bezique.pettingzoo` and :mod:`bezique.gymnasium_env` both use this module; it needs neither
of them, nor numpy: vectors are lists of floats and masks lists of 0/1.  Everything is computed
from one seat's :class:`~bezique.observation.Observation` only, never from a state's hidden
fields, so two deals that differ only in cards the seat cannot see encode the same.

Actions (:data:`NUM_ACTIONS` = 83 indices, the same for Bezique and Binocle; the multi-pack
games add some, see below):

* ``0..31``: play the concealed card with that card id (``suit * 8 + rank``, see
  :mod:`bezique.cards`; the engine picks the copy, as for ``play QS``);
* ``32..63``: play the shown card (on the table) with card id ``index - 32``; when the seat's
  shown copies of that card differ in meld history (``QS*1``, ``QS*2``), the first;
* ``64`` pass (draw), ``65`` exchange (the seven of trumps for the turn-up), ``66`` seven
  (declare the seven of trumps);
* ``67..82``: declare a meld of one *slot*: slots 0-3 are the marriage (K Q, common or royal
  as the trumps make it) in spades, hearts, diamonds, clubs; slots 4.. the variant's other meld
  kinds in table order (:func:`meld_slots`).  Of several legal melds of one slot (different
  copies or suits of the cards, e.g. four aces from shown or concealed aces), the index declares
  the one that shows the fewest concealed cards, the first the engine lists among those.

Every legal action has an index except those other choices within a meld slot; the action mask
(:func:`action_mask`) marks exactly the legal indices.

The two-handed multi-pack games (Rubicon, Six-pack, Eight-pack: :func:`spec`) keep indices 0-66
and have one meld slot per meld kind from 67 (at least 16: Six-pack 19, Eight-pack 25), then
``carte`` (carte blanche; never legal in Eight-pack), then with the cut bonus (RULES.md 9.2) one
index per guess ``guess n`` of ``cut_range`` (``lo-hi``), in order from ``lo``.  Their
observation counts up to ``copies`` of a card, and with the cut bonus ends with a cut block:
1 while the guess is to be made (the phase one-hot is then all 0), the guess and the cut one-hot
over ``cut_range`` once the guess is made (all 0 before: nobody knows the cut until then).

>>> six = spec(Rules.preset("sixpack", cut_bonus=True))
>>> six.num_actions, six.carte, six.guess_base, six.obs_size
(100, 86, 87, 404)

>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("bezique"), seed=7)
>>> obs = s.observation(s.current_player())
>>> m = legal_index_map(obs)
>>> sorted(m.values()) == sorted(obs.legal)
True
>>> len(action_mask(obs)), sum(action_mask(obs)) == len(obs.legal)
(83, True)
>>> len(encode_observation(obs)) == OBS_SIZE
True
>>> meld_slots(Rules.preset("bezique"))[:6]
('marriage S', 'marriage H', 'marriage D', 'marriage C', 'sequence', 'bezique')
"""

from __future__ import annotations

import functools
import math
import numbers
import operator
import random
from typing import NamedTuple

from .cards import NCARDS, card_name, parse_card, rank_of, suit_of
from .errors import IllegalActionError, OptionError
from .game import Game
from .observation import Observation
from .rules import Rules, cut_bounds
from .scoring import settled_for, zero_sum
from .state import State

PLAY = 0
PLAY_SHOWN = 32
PASS = 64
EXCHANGE = 65
SEVEN = 66
MELD = 67
MELD_SLOTS = 16
NUM_ACTIONS = MELD + MELD_SLOTS  # 83

_MARRIAGE_SHAPES = ("marriage", "royal")
_SUIT_LETTERS = "SHDC"
_WORDS = {"pass": PASS, "exchange": EXCHANGE, "seven": SEVEN}


def check_rules(rules: Rules) -> None:
    """Refuse, with :class:`OptionError`, a variant the fixed two-pack layout (:data:`LAYOUT`,
    :data:`NUM_ACTIONS`) cannot describe: it needs two seats, a turn-up, no carte blanche and
    at most 12 meld kinds besides the marriages (self-play data keep to it)."""
    if rules.nplayers != 2 or not rules.turnup or rules.carte_points:
        raise OptionError(
            f"the fixed encoding (self-play data) covers two-handed bezique and binocle, not "
            f"{rules.variant}"
        )
    if len(_kind_slots(rules)[1]) > MELD_SLOTS:
        raise OptionError(f"{rules.variant} has more meld kinds than {MELD_SLOTS} slots")


@functools.lru_cache(maxsize=32)
def _kind_slots(rules: Rules) -> tuple[dict[str, int], tuple[str, ...]]:
    """Meld kind name -> slot (-1 for the marriages, whose slot is their suit), slot names."""
    by_name: dict[str, int] = {}
    names = [f"marriage {s}" for s in _SUIT_LETTERS]
    for kind in rules.melds:
        if kind.shape in _MARRIAGE_SHAPES:
            by_name[kind.name] = -1
        else:
            by_name[kind.name] = len(names)
            names.append(kind.name)
    return by_name, tuple(names)


def check_flag(name: str, value: object) -> None:
    """Refuse, with :class:`OptionError`, a true/false keyword that is not a bool (``game="no"``
    would be true)."""
    if not isinstance(value, bool):
        raise OptionError(f"{name} must be True or False, not {value!r:.40}")


def check_reward(name: str, value: object) -> float:
    """A reward keyword (``illegal_reward``) as a float; :class:`OptionError` for anything but
    a finite number (a string would come back from ``step`` as the reward)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) \
            or not math.isfinite(float(value)):
        raise OptionError(f"{name} must be a number, not {value!r:.40}")
    return float(value)


def check_seat(name: str, value: object, others: str = "or 1") -> int:
    """A two-handed seat keyword (``seat``, ``dealer``) as the int 0 or 1; :class:`OptionError`
    for anything else (``1.0`` or ``True`` too, which failed deep inside or sat in seat 1)."""
    if not isinstance(value, bool):
        try:
            seat = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            seat = -1
        if seat in (0, 1):
            return seat
    raise OptionError(f"{name} must be 0 {others}, not {value!r:.40}")


def check_two_handed(rules: Rules) -> None:
    """Refuse, with :class:`OptionError`, a variant the environments cannot play: they play the
    two-handed games (:func:`spec` describes each)."""
    if rules.nplayers != 2:
        raise OptionError(
            f"the learning environments play the two-handed games (bezique, binocle, rubicon, "
            f"sixpack, eightpack), not {rules.variant}"
        )


def meld_slots(rules: Rules) -> tuple[str, ...]:
    """The names of the meld slots of ``rules`` (index ``MELD + i`` declares slot ``i``); the
    slots past the variant's kinds (up to 16) are never legal."""
    return _kind_slots(rules)[1]


def meld_slot(rules: Rules, name: str, cards: tuple[int, ...] | list[int]) -> int:
    """The slot of a meld of kind ``name`` made of ``cards`` (card ids)."""
    slot = _kind_slots(rules)[0][name]
    return suit_of(cards[0]) if slot < 0 else slot


def _meld_text_slot(obs: Observation, text: str) -> tuple[int, int]:
    """(slot, concealed cards it shows) of a legal meld text such as ``meld KH* QH``."""
    tokens = text.split()[1:]
    cards = [parse_card(t.split("*")[0]) for t in tokens]
    kind = obs.rules.classify(cards, obs.trump)
    if kind is None:  # pragma: no cover - the engine lists only melds
        raise AssertionError(f"{text!r} is no meld under trumps {obs.trump}")
    return meld_slot(obs.rules, kind.name, cards), sum("*" not in t for t in tokens)


def legal_index_map(obs: Observation) -> dict[int, str]:
    """Each legal index of ``obs`` (empty unless it is the seat's turn) with the action text it
    stands for.  Every legal text is some index's, except other choices of a meld slot."""
    sp = spec(obs.rules)
    out: dict[int, str] = {}
    best: dict[int, int] = {}
    for text in obs.legal:
        verb, _, rest = text.partition(" ")
        if verb == "play":
            base = rest.split("*")[0]
            index = (PLAY_SHOWN if "*" in rest else PLAY) + parse_card(base)
            out.setdefault(index, text)  # of QS*1 and QS*2 the first
        elif verb == "meld":
            slot, concealed = _meld_text_slot(obs, text)
            index = MELD + slot
            if index not in best or concealed < best[index]:
                best[index] = concealed
                out[index] = text
        elif text in _WORDS:
            out[_WORDS[text]] = text
        else:
            out[_other_index(sp, verb, rest, text)] = text
    return out


def _other_index(sp: Spec, verb: str, rest: str, text: str) -> int:
    """The index of ``carte`` or ``guess n`` in the multi-pack layout ``sp``."""
    if verb == "carte" and sp.carte >= 0:
        return sp.carte
    if verb == "guess" and sp.cuts is not None and rest.isdigit():
        return sp.guess_base + int(rest) - sp.cuts[0]
    raise IllegalActionError(f"no action index for {text!r}")


def action_mask(obs: Observation) -> list[int]:
    """1 for each legal index of ``obs``, 0 elsewhere (``spec(obs.rules).num_actions``
    entries: :data:`NUM_ACTIONS` in Bezique and Binocle)."""
    mask = [0] * spec(obs.rules).num_actions
    for index in legal_index_map(obs):
        mask[index] = 1
    return mask


def action_int(action: object) -> int:
    """``action`` as an int index: an int, a numpy integer or a 0-d integer array (what a
    ``Discrete`` space holds); anything else (a float, a string, an array of several numbers)
    is refused with :class:`IllegalActionError` rather than truncated or failing deep inside.

    >>> action_int(3)
    3
    >>> action_int(2.7)
    Traceback (most recent call last):
    ...
    bezique.errors.IllegalActionError: an action is one int index, not 2.7 (float)
    """
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        shown = repr(action).replace("\n", " ")
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise IllegalActionError(
            f"an action is one int index, not {shown} ({type(action).__name__})") from None


def decode_action(obs: Observation, index: int) -> str:
    """The action text of a legal ``index``; :class:`IllegalActionError` if it is not legal."""
    text = legal_index_map(obs).get(action_int(index))
    if text is None:
        raise IllegalActionError(f"action index {index} is not legal now (see the action mask)")
    return text


def action_index(obs: Observation, text: str) -> int:
    """The index of a legal action text (e.g. an agent's choice, to learn from it); a meld
    maps to its slot, which may declare another copy choice of the same slot."""
    verb, _, rest = text.strip().partition(" ")
    if verb == "play":
        return (PLAY_SHOWN if "*" in rest else PLAY) + parse_card(rest.split("*")[0])
    if verb == "meld":
        return MELD + _meld_text_slot(obs, text.strip())[0]
    if verb in _WORDS:
        return _WORDS[verb]
    return _other_index(spec(obs.rules), verb, rest.strip(), text)


# ---------------------------------------------------------------- the observation vector


class Block(NamedTuple):
    """A block of the observation vector: entries ``start`` to ``start + size - 1``."""

    name: str
    start: int
    size: int
    high: float
    meaning: str


def _layout(copies: int = 2, slots: int = MELD_SLOTS, ncuts: int = 0) -> tuple[Block, ...]:
    rows = [
        ("hand", NCARDS, copies, "own concealed cards: copies of each card id"),
        ("shown", NCARDS, copies, "own shown cards (on the table)"),
        ("opp_shown", NCARDS, copies, "opponent's shown cards"),
        ("opp_known", NCARDS, copies, "opponent's concealed cards known (turn-up taken, ...)"),
        ("known_to_opp", NCARDS, copies, "own concealed cards the opponent knows"),
        ("won", NCARDS, copies, "cards in the tricks this seat won"),
        ("opp_won", NCARDS, copies, "cards in the tricks the opponent won"),
        ("unseen", NCARDS, copies, "cards not seen anywhere (stock or opponent's hand)"),
        ("trick", NCARDS, copies, "the card led to the current trick"),
        ("turnup", NCARDS, 1, "the card face up under the stock (0 once taken)"),
        ("melds", slots, 4 * copies, "own scored melds per meld slot (count)"),
        ("opp_melds", slots, 4 * copies, "opponent's scored melds per meld slot"),
        ("trump", 4, 1, "trump suit one-hot (S H D C)"),
        ("phase", 4, 1, "phase one-hot (lead, follow, declare, over)"),
        ("to_act", 1, 1, "1 if this seat is to act"),
        ("dealer", 1, 1, "1 if this seat dealt"),
        ("stock", 1, 1, "face-down stock left / its size at the deal (47; Binocle 23)"),
        ("end_phase", 1, 1, "1 once the stock and the turn-up are gone"),
        ("scores", 2, 5 * copies, "deal points (own, opponent) / 1000"),
        ("brisques", 2, 2, "brisques won (own, opponent) / all the pack's (160; Binocle 240)"),
        ("totals", 2, 10, "game totals before the deal (own, opponent) / target"),
        ("tricks", 1, 1, "tricks played / tricks in the deal (32; Binocle 24)"),
    ]
    if ncuts:
        rows += [
            ("guessing", 1, 1, "1 while the non-dealer is to guess the cut (cut bonus)"),
            ("guess", ncuts, 1, "the guess one-hot over cut_range, once made"),
            ("cut", ncuts, 1, "the cut one-hot over cut_range, once guessed"),
        ]
    out = []
    start = 0
    for name, size, high, meaning in rows:
        out.append(Block(name, start, size, float(high), meaning))
        start += size
    return tuple(out)


LAYOUT: tuple[Block, ...] = _layout()
BLOCKS: dict[str, Block] = {b.name: b for b in LAYOUT}
OBS_SIZE: int = LAYOUT[-1].start + LAYOUT[-1].size


def _high(layout: tuple[Block, ...]) -> list[float]:
    out: list[float] = []
    for b in layout:
        out += [b.high] * b.size
    return out


_HIGH = _high(LAYOUT)


class Spec(NamedTuple):
    """The action indices and the observation layout of one two-handed game's rules."""

    num_actions: int
    carte: int  # the index of ``carte``, -1 in Bezique and Binocle
    guess_base: int  # the index of the guess of the smallest cut, -1 without the cut bonus
    cuts: tuple[int, int] | None  # cut_range's bounds with the cut bonus
    layout: tuple[Block, ...]
    blocks: dict[str, Block]
    obs_size: int
    high: list[float]


@functools.lru_cache(maxsize=32)
def spec(rules: Rules) -> Spec:
    """The action indices and observation layout of ``rules``: Bezique and Binocle's are the
    fixed :data:`NUM_ACTIONS` and :data:`LAYOUT`; the multi-pack games' see the module text."""
    check_two_handed(rules)
    if rules.copies == 2 and rules.turnup and not rules.carte_points and not rules.cut_bonus:
        check_rules(rules)
        return Spec(NUM_ACTIONS, -1, -1, None, LAYOUT, BLOCKS, OBS_SIZE, _HIGH)
    slots = max(MELD_SLOTS, len(_kind_slots(rules)[1]))
    carte = MELD + slots
    cuts = cut_bounds(rules.cut_range) if rules.cut_bonus else None
    ncuts = 0 if cuts is None else cuts[1] - cuts[0] + 1
    layout = _layout(rules.copies, slots, ncuts)
    return Spec(carte + 1 + ncuts, carte, carte + 1 if ncuts else -1, cuts, layout,
                {b.name: b for b in layout}, layout[-1].start + layout[-1].size,
                _high(layout))


def observation_high(rules: Rules | None = None) -> list[float]:
    """The upper bound of each entry of the vector of ``rules`` (default: Bezique's and
    Binocle's :data:`LAYOUT`); the lower bound is 0, and values are clipped."""
    return list(_HIGH if rules is None else spec(rules).high)


@functools.lru_cache(maxsize=32)
def _brisque_total(rules: Rules) -> int:
    return max(1, sum(rules.card_points[rank_of(p)] for p in rules.deck))


def encode_observation(obs: Observation) -> list[float]:
    """The observation vector of ``obs`` (:data:`OBS_SIZE` floats, laid out as :data:`LAYOUT`,
    in Bezique and Binocle; ``spec(obs.rules)`` in the others): card blocks count copies per
    card id ``suit * 8 + rank``."""
    rules = obs.rules
    sp = spec(rules)
    blocks = sp.blocks
    me, opp = obs.seat, 1 - obs.seat
    v = [0.0] * sp.obs_size

    def cards(block: str, ids: tuple[int, ...] | list[int]) -> None:
        base = blocks[block].start
        for c in ids:
            v[base + c] += 1.0

    cards("hand", obs.hand)
    cards("shown", obs.shown[me])
    cards("opp_shown", obs.shown[opp])
    cards("opp_known", obs.opponent_known)
    cards("known_to_opp", obs.known_to_opponent)
    for t in obs.tricks:
        cards("won" if t.winner == me else "opp_won", t.cards)
    cards("unseen", list(obs.unseen().elements()))
    cards("trick", obs.trick)
    if obs.turnup is not None:
        cards("turnup", [obs.turnup])
    for block, seat in (("melds", me), ("opp_melds", opp)):
        base = blocks[block].start
        for m in obs.melds[seat]:
            v[base + meld_slot(rules, m.name, m.cards)] += 1.0
    if obs.trump >= 0:
        v[blocks["trump"].start + obs.trump] = 1.0
    if obs.phase != "guess":  # the cut bonus's guess: the cut block says it
        v[blocks["phase"].start + ("lead", "follow", "declare", "over").index(obs.phase)] = 1.0
    v[blocks["to_act"].start] = float(obs.turn == me)
    v[blocks["dealer"].start] = float(obs.dealer == me)
    v[blocks["stock"].start] = obs.stock / max(1, rules.stock_size)
    v[blocks["end_phase"].start] = float(obs.end_phase)
    for block, pair, scale in (("scores", obs.scores, 1000.0),
                               ("brisques", obs.brisques, float(_brisque_total(rules))),
                               ("totals", obs.totals, float(rules.target))):
        v[blocks[block].start] = pair[me] / scale
        v[blocks[block].start + 1] = pair[opp] / scale
    v[blocks["tricks"].start] = obs.tricks_played / rules.total_tricks
    if sp.cuts is not None:
        v[blocks["guessing"].start] = float(obs.phase == "guess")
        guess = obs.actions[0][1] if obs.actions else ""
        if guess.startswith("guess "):  # the deal's first action, public
            v[blocks["guess"].start + int(guess[6:]) - sp.cuts[0]] = 1.0
        if obs.cut is not None:  # public once guessed
            v[blocks["cut"].start + obs.cut - sp.cuts[0]] = 1.0
    return [min(x, h) for x, h in zip(v, sp.high, strict=True)]


def layout_table(rules: Rules | None = None) -> str:
    """The observation layout (of ``rules``; default Bezique's and Binocle's) as a Markdown
    table (for the README).

    >>> print(layout_table().splitlines()[2])
    | 0-31 | `hand` | own concealed cards: copies of each card id |
    >>> print(layout_table(Rules.preset("sixpack", cut_bonus=True)).splitlines()[-1])
    | 391-403 | `cut` | the cut one-hot over cut_range, once guessed |
    """
    lines = ["| entries | block | meaning |", "|---|---|---|"]
    for b in LAYOUT if rules is None else spec(rules).layout:
        span = str(b.start) if b.size == 1 else f"{b.start}-{b.start + b.size - 1}"
        lines.append(f"| {span} | `{b.name}` | {b.meaning} |")
    return "\n".join(lines)


def view_text(obs: Observation, index_map: dict[int, str] | None = None) -> str:
    """A few lines of one seat's view for ``render_mode="ansi"``: the legal indices too."""
    rules = obs.rules
    me, opp = obs.seat, 1 - obs.seat

    def names(cards: tuple[int, ...]) -> str:
        return " ".join(card_name(c) for c in cards) or "-"

    trump = "SHDC"[obs.trump] if obs.trump >= 0 else "-"
    lines = [
        f"{rules.variant}  trick {obs.tricks_played + 1}  phase {obs.phase}  "
        f"turn player_{obs.turn if obs.turn >= 0 else '-'}  view player_{me}",
        f"trumps {trump}  turn-up {card_name(obs.turnup) if obs.turnup is not None else '-'}  "
        f"stock {obs.stock}  scores {obs.scores[me]}-{obs.scores[opp]}  "
        f"totals {obs.totals[me]}-{obs.totals[opp]}",
        f"hand  {names(obs.hand)}",
        f"shown {names(obs.shown[me])}   opponent shows {names(obs.shown[opp])}",
        f"trick {names(obs.trick)}",
    ]
    legal = index_map if index_map is not None else legal_index_map(obs)
    if legal:
        lines.append("legal " + ", ".join(f"{i}={t}" for i, t in sorted(legal.items())))
    return "\n".join(lines)


# ---------------------------------------------------------------- the episode


REWARDS = ("deal", "win", "settled")


def check_reward_kind(kind: object, rules: Rules) -> str:
    """``kind`` if it is one of :data:`REWARDS` that ``rules`` can pay, else :class:`OptionError`:
    ``settled`` is the one-deal games' (Rubicon, Six-pack, Eight-pack; RULES.md 9.0.7)."""
    if kind not in REWARDS:
        raise OptionError(f"reward must be one of {', '.join(REWARDS)}, not {kind!r:.40}")
    if kind == "settled" and rules.settlement != "portland":
        raise OptionError(f"reward='settled' is for the one-deal games (rubicon, sixpack, "
                          f"eightpack), not {rules.variant}: use 'deal' or 'win'")
    return str(kind)


def illegal_default(kind: str, rules: Rules) -> float:
    """The reward for an index the mask refuses, unless given: -1 with ``win``; else minus the
    target, and in the one-deal games minus the mark below which a loser is rubiconed.

    >>> illegal_default("deal", Rules.preset("bezique"))
    -1000.0
    >>> illegal_default("win", Rules.preset("rubicon"))
    -1.0
    >>> illegal_default("settled", Rules.preset("sixpack"))
    -3000.0
    """
    if kind == "win":
        return -1.0
    return -float(rules.rubicon_at if rules.settlement == "portland" else rules.target)


class Episode:
    """A deal (or, with ``game``, a game of deals to the target) for the environments: deals
    from a ``random.Random``, the next deal of a game started as the last ends, and rewards.

    >>> ep = Episode(Rules.preset("bezique"))
    >>> ep.start(random.Random(1))
    >>> while not ep.over():
    ...     ep.apply(ep.state.legal_action_strings()[0])
    >>> r = ep.rewards("deal"); r[0] == -r[1]
    True
    """

    def __init__(self, rules: Rules, game: bool = False, dealer: int | None = None) -> None:
        spec(rules)  # refuses what the environments cannot play
        self.rules = rules
        self.game_mode = game
        self.dealer = (None if dealer is None
                       else check_seat("dealer", dealer, "or 1 (or None: at random)"))
        self.game: Game | None = None
        self.state = State.new_deal(rules, 0)

    def start(self, rng: random.Random) -> None:
        """Deal the first deal from ``rng`` (the dealer too, unless fixed)."""
        dealer = self.dealer if self.dealer is not None else rng.randrange(2)
        seed = rng.getrandbits(64)
        if self.game_mode:
            self.game = Game(self.rules, seed=seed, first_dealer=dealer)
            self.state = self.game.state
        else:
            self.game = None
            self.state = State.new_deal(self.rules, seed, dealer=dealer)

    def apply(self, text: str) -> None:
        """Apply a legal action text; a game goes on to its next deal as a deal ends."""
        self.state.apply(text)
        if self.game is not None and self.state.is_terminal() and not self.game.is_over():
            self.state = self.game.next_deal()

    def over(self) -> bool:
        """True once the deal (with ``game``, the game) is over."""
        if self.game is not None:
            return self.game.is_over()
        return self.state.is_terminal()

    def rewards(self, kind: str) -> list[float]:
        """Each seat's reward once over: ``deal``, the point difference (of the deal, or of the
        game totals); ``win``, +1 and -1 by the deal's points (0 for a tie) or the game's
        winner, in the one-deal games the settlement's; ``settled`` (the one-deal games only),
        the settled value (RULES.md 9.0.7), + to its winner and - to the other."""
        if not self.over():
            return [0.0, 0.0]
        if self.rules.settlement == "portland" and kind != "deal":
            values = [settled_for(self.state.settlement(), s) for s in (0, 1)]
            return [float((v > 0) - (v < 0) if kind == "win" else v) for v in values]
        if self.game is not None:
            if kind == "win":
                return [1.0 if self.game.winner == s else -1.0 for s in (0, 1)]
            return zero_sum(self.state.game_scores)
        diff = zero_sum(self.state.scores)
        if kind == "win":
            return [float((d > 0) - (d < 0)) for d in diff]
        return diff
