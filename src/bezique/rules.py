"""Rules as data: the family's presets (RULES.md 2, 4, 9), the options of RULES.md 6 and 9.7.

A :class:`Rules` value is immutable; a variant is a preset (deck, hand size, meld table, card
points) plus options.  New variants should be mostly a new table here.

>>> r = Rules.preset("bezique", target=1500)
>>> r.target, r.fresh_card, r.deck_size
(1500, 'class', 64)
>>> Rules.preset("binocle").fresh_card
'every'
>>> Rules.preset("bezique", colour="red")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bezique.errors.OptionError: unknown option 'colour' (known: target, melds_per_trick, ...)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    KING,
    NINE,
    QUEEN,
    SEVEN,
    SPADES,
    TEN,
    make_card,
)
from .errors import BeziqueError, OptionError
from .tables import (
    BEZIQUE_MELDS,
    BINOCLE_MELDS,
    CLASS_A,
    CLASS_B,
    CLASS_C,
    CLASS_NAMES,
    EIGHTPACK_MELDS,
    FOUR_TENS,
    RUBICON_MELDS,
    SIXPACK_MELDS,
    MeldKind,
    Pattern,
    _beziques,
)

_PAIRED = (DIAMONDS, CLUBS, SPADES, HEARTS)  # the bezique jack's suit for a queen's suit


# Option name -> (allowed values or type, default).  Order is the order of RULES.md 6.
_CHOICES: dict[str, tuple[str, ...]] = {
    "fresh_card": ("class", "every"),
    "cross_class": ("free", "increase"),
    "bezique_pair": ("standard", "swap", "trump"),
    "reuse": ("portland", "loose", "classic"),
    "seven": ("declared", "played"),
    "brisques": ("end", "immediate"),
    "last_trick": ("final", "stock"),
    "end_check": ("deal", "immediate"),
    "partner_bezique": ("own", "either"),
    "four_hand_end": ("tricks", "duels"),
}
_INTS = ("target", "melds_per_trick")
_BOOLS = ("reform", "fours_distinct_suits", "seven_counts_as_meld", "carte_blanche_repeat",
          "bezique_fixes_trumps", "partnership", "cut_bonus")
_NUMBER_CHOICES: dict[str, tuple[int, ...]] = {
    "rubicon_brisque_bonus": (300, 320),
    "rubicon_bonus": (1000, 2000),
    "four_tens": (0, 90),
}
CLASSIC_OPTIONS: tuple[str, ...] = (
    "target",
    "melds_per_trick",
    "fresh_card",
    "cross_class",
    "reform",
    "fours_distinct_suits",
    "bezique_pair",
    "seven",
    "seven_counts_as_meld",
    "brisques",
    "last_trick",
    "end_check",
)
# The multi-pack games of RULES.md 9.0-9.3 (each deal is a game: no target, no seven).
MULTIPACK_OPTIONS: tuple[str, ...] = (
    "melds_per_trick",
    "fresh_card",
    "cross_class",
    "reform",
    "bezique_pair",
    "reuse",
    "carte_blanche_repeat",
    "bezique_fixes_trumps",
    "four_tens",
)
# Four-handed Bezique (RULES.md 9.5).
FOUR_HANDED_OPTIONS: tuple[str, ...] = ("partnership", "partner_bezique", "four_hand_end")
# The cut bonus of Six- and Eight-pack (RULES.md 9.2, 9.10).
CUT_OPTIONS: tuple[str, ...] = ("cut_bonus", "cut_range")
OPTION_NAMES: tuple[str, ...] = (*CLASSIC_OPTIONS, *MULTIPACK_OPTIONS[5:],
                                 "rubicon_brisque_bonus", "rubicon_bonus", *CUT_OPTIONS,
                                 *FOUR_HANDED_OPTIONS)
MAX_CUT = 127  # the largest cut a guess can name (an action int below 512: bezique.actions)


def cut_bounds(text: str) -> tuple[int, int]:
    """The smallest and largest cut of a ``cut_range`` such as ``"18-30"``.

    >>> cut_bounds("18-30")
    (18, 30)
    """
    lo, _, hi = text.partition("-")
    return int(lo), int(hi)


def _check_cut_range(value: Any) -> str:
    try:
        lo, hi = cut_bounds(str(value).strip().replace("–", "-"))
    except ValueError:
        lo = hi = -1
    if isinstance(value, bool) or not 1 <= lo <= hi <= MAX_CUT:
        raise OptionError(f"option 'cut_range' must be two numbers such as 18-30 (1 to "
                          f"{MAX_CUT}, the smaller first), not {value!r:.40}")
    return f"{lo}-{hi}"


def _check_option(name: str, value: Any) -> Any:
    """Validate and normalise one option value, or raise :class:`OptionError` naming it."""
    if name in _INTS:
        if isinstance(value, bool):
            raise OptionError(f"option {name!r} must be a positive whole number, not {value!r}")
        if isinstance(value, str):
            try:
                value = int(value.strip())
            except ValueError:
                raise OptionError(
                    f"option {name!r} must be a positive whole number, not {value!r}"
                ) from None
        if not isinstance(value, int) or value < 1:
            raise OptionError(f"option {name!r} must be a positive whole number, not {value!r}")
        return value
    if name in _BOOLS:
        if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no"):
            return value.strip().lower() in ("true", "yes")
        if not isinstance(value, bool):
            raise OptionError(f"option {name!r} must be true or false, not {value!r}")
        return value
    if name in _NUMBER_CHOICES:
        allowed_n = _NUMBER_CHOICES[name]
        if name == "four_tens" and isinstance(value, str) and value.strip().lower() == "off":
            value = 0
        try:  # (a whole number, as an int or text: 90.5 is not 90)
            number = (int(value) if isinstance(value, int | str) and not isinstance(value, bool)
                      else int(value) if isinstance(value, float) and value.is_integer()
                      else None)
        except ValueError:
            number = None
        if number not in allowed_n:
            shown = ", ".join("off" if n == 0 else str(n) for n in allowed_n)
            raise OptionError(f"option {name!r} must be one of {shown}, not {value!r:.40}")
        return number
    if name == "cut_range":
        return _check_cut_range(value)
    if name in _CHOICES:
        allowed = _CHOICES[name]
        if not isinstance(value, str) or value.strip().lower() not in allowed:
            raise OptionError(
                f"option {name!r} must be one of {', '.join(allowed)}, not {value!r}"
            )
        return value.strip().lower()
    raise OptionError(f"unknown option {name!r} (known: {', '.join(OPTION_NAMES)})")


@dataclass(frozen=True)
class Rules:
    """A variant: its fixed table (deck, hands, melds, card points) and the options of RULES.md 6.

    Build one with :meth:`preset`; change options with :meth:`with_options`.
    """

    variant: str
    ranks: tuple[int, ...]
    copies: int
    hand_size: int
    seven_rank: int
    melds: tuple[MeldKind, ...]
    card_points: tuple[int, ...]
    last_trick_points: int = 10
    seven_points: int = 10
    nplayers: int = 2
    turnup: bool = True  # a card is turned up for trumps (False: trumps fixed by a first meld)
    settlement: str = "totals"  # "totals": deals add up to the target; "portland": RULES 9.0.7
    carte_points: int = 0  # carte blanche (RULES.md 9.0.4); 0: the variant has none
    second_double: bool = False  # three- and four-handed: the second double (RULES.md 9.4)
    game_bonus: int = 0  # G of RULES.md 9.0.7
    rubicon_at: int = 0  # R of RULES.md 9.0.7
    # options
    target: int = 1000
    melds_per_trick: int = 1
    fresh_card: str = "class"
    cross_class: str = "free"
    reform: bool = False
    fours_distinct_suits: bool = False
    bezique_pair: str = "standard"
    seven: str = "declared"
    seven_counts_as_meld: bool = False
    brisques: str = "end"
    last_trick: str = "final"
    end_check: str = "deal"
    reuse: str = "classic"
    carte_blanche_repeat: bool = True
    bezique_fixes_trumps: bool = False
    four_tens: int = 0
    rubicon_brisque_bonus: int = 300
    rubicon_bonus: int = 1000
    cut_bonus: bool = False  # six- and eight-pack: the non-dealer guesses the cut (RULES 9.2)
    cut_range: str = "18-30"
    partnership: bool = False  # four-handed: seats 0 & 2 against 1 & 3 (RULES.md 9.5)
    partner_bezique: str = "own"
    four_hand_end: str = "tricks"
    _defaults: tuple[tuple[str, Any], ...] = field(default=(), repr=False, compare=False)

    def __hash__(self) -> int:
        """Hash of the compared fields, computed once: agents key their caches by Rules."""
        h: int | None = self.__dict__.get("_hash")
        if h is None:
            h = hash(tuple(getattr(self, f.name) for f in dataclasses.fields(self) if f.compare))
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self) -> dict[str, Any]:
        """Pickle without the cached hash (string hashes differ between processes)."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def __repr__(self) -> str:
        """How to build it: ``Rules.preset('bezique', target=1500)`` (the whole table of fields
        only for rules no preset makes)."""
        base = PRESETS.get(self.variant)
        if base is not None:
            opts = self.options()
            try:
                same = base.with_options(**opts) == self
            except OptionError:
                same = False
            if same:
                return "Rules.preset(" + ", ".join(
                    [repr(self.variant), *(f"{k}={v!r}" for k, v in opts.items())]) + ")"
        fields = ", ".join(f"{f.name}={getattr(self, f.name)!r}"
                           for f in dataclasses.fields(self) if f.repr)
        return f"Rules({fields})"

    @staticmethod
    def preset(name: str, **options: Any) -> Rules:
        """The preset called ``name`` (see :data:`PRESETS`) with some options changed.

        >>> Rules.preset("bezique", target=1500)
        Rules.preset('bezique', target=1500)
        >>> Rules.preset(None)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        bezique.errors.OptionError: the variant must be named by text such as 'bezique', not None
        """
        if not isinstance(name, str):
            raise OptionError(f"the variant must be named by text such as 'bezique', not "
                              f"{name!r:.40}")
        key = name.strip().lower()
        if key not in PRESETS:
            raise OptionError(f"unknown variant {name[:40]!r} (known: {', '.join(PRESETS)})")
        return PRESETS[key].with_options(**options)

    @staticmethod
    def from_options(variant: str, options: Mapping[str, Any] | None = None) -> Rules:
        """The preset ``variant`` with the options of a mapping (as in a game record)."""
        if options is not None and not isinstance(options, Mapping):
            raise OptionError(f"the options must be a mapping of names to values such as "
                              f"{{'target': 1500}}, not {options!r:.40}")
        if any(not isinstance(k, str) for k in options or {}):
            raise OptionError("the options' names must be text such as 'target'")
        return Rules.preset(variant, **dict(options or {}))

    def option_names(self) -> tuple[str, ...]:
        """The options this variant takes (a preset's defaults name them)."""
        return tuple(n for n, _ in self._defaults) if self._defaults else CLASSIC_OPTIONS

    def with_options(self, **options: Any) -> Rules:
        """A copy with some options changed; unknown options and bad values are refused."""
        names = self.option_names()
        for name in options:
            if name not in names and name in OPTION_NAMES:
                raise OptionError(
                    f"option {name!r} does not apply to {self.variant} (its options: "
                    f"{', '.join(names)})"
                )
        clean = {name: _check_option(name, value) for name, value in options.items()}
        if clean.get("four_tens") and FOUR_TENS not in self.melds:
            clean["melds"] = (*self.melds, FOUR_TENS)
        elif "four_tens" in clean and not clean["four_tens"]:
            clean["melds"] = tuple(k for k in self.melds if k != FOUR_TENS)
        return dataclasses.replace(self, **clean) if clean else self

    def options(self) -> dict[str, Any]:
        """The options that differ from the preset's defaults (what a record stores)."""
        base = dict(self._defaults)
        return {n: getattr(self, n) for n in self.option_names() if getattr(self, n) != base.get(n)}

    def all_options(self) -> dict[str, Any]:
        """Every option of this variant with its value."""
        return {n: getattr(self, n) for n in self.option_names()}

    def partner(self, seat: int) -> int:
        """The seat's partner (RULES.md 9.5: seats 0 & 2 against 1 & 3), or -1 where every seat
        plays for itself.

        >>> r = Rules.preset("bezique4")
        >>> r.partner(1), r.with_options(partnership=False).partner(1)
        (3, -1)
        """
        if not (isinstance(seat, int) and 0 <= seat < self.nplayers):
            raise BeziqueError(f"{seat!r:.40} is not a seat: the seats of {self.variant} are 0 "
                               f"to {self.nplayers - 1}")
        return (seat + 2) % 4 if self.partnership and self.nplayers == 4 else -1

    @property
    def rubicon_bonus_points(self) -> int:
        """H of RULES.md 9.0.7: Rubicon 1000 + ``rubicon_brisque_bonus``, Six- and Eight-pack
        ``rubicon_bonus``."""
        return 1000 + self.rubicon_brisque_bonus if any(self.card_points) else self.rubicon_bonus

    @cached_property
    def deck_size(self) -> int:
        """Number of cards in the pack (64 in Bezique, 48 in Binocle)."""
        return len(self.ranks) * 4 * self.copies

    @cached_property
    def stock_size(self) -> int:
        """Face-down cards left after the deal and the turn-up."""
        return self.deck_size - self.nplayers * self.hand_size - (1 if self.turnup else 0)

    @cached_property
    def stock_tricks(self) -> int:
        """Tricks played while the stock lasts (24 in Bezique, 12 in Binocle)."""
        return (self.stock_size + (1 if self.turnup else 0)) // self.nplayers

    @cached_property
    def total_tricks(self) -> int:
        """Tricks in a deal (32 in Bezique, 24 in Binocle; 40 in four-handed duels: 24, then
        two duels of 8)."""
        if self.nplayers == 4 and self.four_hand_end == "duels":
            return self.stock_tricks + 2 * self.hand_size
        return self.deck_size // self.nplayers

    @cached_property
    def deck(self) -> tuple[int, ...]:
        """The cards of the pack, one entry per physical copy, in a fixed order."""
        return tuple(
            copy * 32 + make_card(r, s)
            for copy in range(self.copies)
            for s in (SPADES, HEARTS, DIAMONDS, CLUBS)
            for r in self.ranks
        )

    def bezique_cards(self, trump: int) -> tuple[int, int]:
        """The queen and the jack of the bezique (binocle) under this trump suit: Q♠ J♦; with
        ``swap``, Q♣ J♥ when ♠ or ♦ are trumps; with ``trump`` (RULES.md 9.2), the queen of
        trumps and the jack of its paired suit (♠-♦, ♥-♣)."""
        _check_trump(trump)
        if self.bezique_pair == "swap" and trump in (SPADES, DIAMONDS):
            return make_card(QUEEN, CLUBS), make_card(JACK, HEARTS)
        if self.bezique_pair == "trump" and trump >= 0:
            return make_card(QUEEN, trump), make_card(JACK, _PAIRED[trump])
        return make_card(QUEEN, SPADES), make_card(JACK, DIAMONDS)

    def patterns(self, trump: int) -> tuple[Pattern, ...]:
        """Every meld of the table made concrete under ``trump`` (marriages one per suit).

        ``trump = -1`` means trumps are not fixed yet (no turn-up): then every suit's marriage
        and sequence is a candidate trump meld, and scoring one fixes trumps (RULES.md 9.0.2).
        """
        return _patterns(self, _check_trump(trump))

    def classify(self, cards: Sequence[int], trump: int) -> MeldKind | None:
        """The meld these cards (ints 0..31) form under ``trump``, or None: a meld is named by
        its cards alone, and a set that forms several kinds is the highest (four aces of trumps
        are never "any four aces")."""
        best: MeldKind | None = None
        for pat in _patterns(self, _check_trump(trump)):
            if pat.matches(cards):
                k = self.melds[pat.kind]
                if best is None or k.points > best.points:
                    best = k
        return best


def _check_trump(trump: int) -> int:
    """``trump`` if it is a suit (0..3) or -1 (no trumps yet), else an :class:`OptionError`."""
    if isinstance(trump, bool) or not isinstance(trump, int) or not -1 <= trump <= 3:
        raise OptionError(f"trump must be a suit 0 to 3 (S H D C) or -1 (none yet), "
                          f"not {trump!r:.40}")
    return trump


@functools.lru_cache(maxsize=64)
def _patterns(rules: Rules, trump: int) -> tuple[Pattern, ...]:
    if trump < 0:  # trumps not fixed: each suit's trump melds, then the melds of no suit
        seen: dict[Pattern, None] = {}
        swapped = (SPADES, DIAMONDS) if rules.bezique_pair == "swap" else ()
        for t in range(4):
            for pat in _patterns(rules, t):
                shape = rules.melds[pat.kind].shape
                if shape in ("royal", "sequence", "four", "eight") or (
                    shape in ("pair", "double_pair", "beziques", "grand")
                    and (rules.bezique_pair != "trump" or rules.bezique_fixes_trumps)
                    and t not in swapped  # with swap, Q♠ J♦ until ♠ or ♦ are trumps
                ):
                    seen.setdefault(pat)
        return tuple(seen)
    out: list[Pattern] = []
    bq, bj = rules.bezique_cards(trump)
    for i, k in enumerate(rules.melds):
        t = trump
        if k.shape == "marriage":
            for s in range(4):
                if s != t:
                    out.append(Pattern(i, ((make_card(KING, s), 1), (make_card(QUEEN, s), 1))))
        elif k.shape == "royal":
            out.append(Pattern(i, ((make_card(KING, t), 1), (make_card(QUEEN, t), 1))))
        elif k.shape == "sequence":
            seq = (ACE, TEN, KING, QUEEN, JACK)
            out.append(Pattern(i, tuple((make_card(r, t), 1) for r in seq)))
        elif k.shape == "pair":
            out.append(Pattern(i, ((bq, 1), (bj, 1))))
        elif k.shape == "double_pair":
            out.append(Pattern(i, ((bq, 2), (bj, 2))))
        elif k.shape == "beziques":
            out.append(Pattern(i, ((bq, k.count), (bj, k.count))))
        elif k.shape == "plain_sequence":
            seq = (ACE, TEN, KING, QUEEN, JACK)
            for s in range(4):
                if s != t:
                    out.append(Pattern(i, tuple((make_card(r, s), 1) for r in seq)))
        elif k.shape == "trumps":
            out.append(Pattern(i, ((make_card(k.rank, t), k.count),)))
        elif k.shape == "grand":
            out.append(Pattern(i, ((bq - QUEEN + KING, 1), (bq, 1), (bj, 1))))
        elif k.shape == "four":
            out.append(Pattern(i, rank=k.rank, n=4, distinct=rules.fours_distinct_suits))
        elif k.shape == "eight":
            out.append(Pattern(i, rank=k.rank, n=8))
        else:  # pragma: no cover - table error
            raise OptionError(f"unknown meld shape {k.shape!r}")
    return tuple(out)


def _make_preset(options: tuple[str, ...] = CLASSIC_OPTIONS, **kw: Any) -> Rules:
    r = Rules(**kw)
    defaults = tuple((n, getattr(r, n)) for n in options)
    return dataclasses.replace(r, _defaults=defaults)


BEZIQUE = _make_preset(
    variant="bezique",
    ranks=(ACE, TEN, KING, QUEEN, JACK, NINE, 6, SEVEN),
    copies=2,
    hand_size=8,
    seven_rank=SEVEN,
    melds=BEZIQUE_MELDS,
    card_points=(10, 10, 0, 0, 0, 0, 0, 0),
)

BINOCLE = _make_preset(
    variant="binocle",
    ranks=(ACE, TEN, KING, QUEEN, JACK, NINE),
    copies=2,
    hand_size=12,
    seven_rank=NINE,
    melds=BINOCLE_MELDS,
    card_points=(11, 10, 4, 3, 2, 0, 0, 0),
    fresh_card="every",
    fours_distinct_suits=True,
)

_MULTIPACK: dict[str, Any] = dict(
    ranks=(ACE, TEN, KING, QUEEN, JACK, NINE, 6, SEVEN),
    hand_size=9,
    seven_rank=SEVEN,
    seven_points=0,
    turnup=False,
    settlement="portland",
    reuse="portland",
    target=1,
)

RUBICON = _make_preset(
    (*MULTIPACK_OPTIONS, "rubicon_brisque_bonus"),
    variant="rubicon",
    copies=4,
    melds=RUBICON_MELDS,
    card_points=(10, 10, 0, 0, 0, 0, 0, 0),
    last_trick_points=50,
    carte_points=50,
    game_bonus=500,
    rubicon_at=1000,
    **_MULTIPACK,
)

SIXPACK = _make_preset(
    (*MULTIPACK_OPTIONS, "rubicon_bonus", *CUT_OPTIONS),
    variant="sixpack",
    copies=6,
    melds=SIXPACK_MELDS,
    card_points=(0,) * 8,
    last_trick_points=250,
    carte_points=250,
    game_bonus=1000,
    rubicon_at=3000,
    bezique_pair="trump",
    **{**_MULTIPACK, "hand_size": 12},
)

EIGHTPACK = _make_preset(
    (*(n for n in MULTIPACK_OPTIONS if n != "carte_blanche_repeat"), "rubicon_bonus",
     *CUT_OPTIONS),
    variant="eightpack",
    copies=8,
    melds=EIGHTPACK_MELDS,
    card_points=(0,) * 8,
    last_trick_points=250,
    game_bonus=1000,
    rubicon_at=5000,
    bezique_pair="trump",
    **{**_MULTIPACK, "hand_size": 15},
)

# RULES.md 9.4-9.5: classic play with more packs and seats, the second double and the triple.
_MANY_HANDED: dict[str, Any] = dict(
    ranks=(ACE, TEN, KING, QUEEN, JACK, NINE, 6, SEVEN),
    hand_size=8,
    seven_rank=SEVEN,
    # no source lists a quadruple bezique in four-handed play: the table stops at the triple
    melds=(*BEZIQUE_MELDS[:3], *_beziques((40, 500, 1500)), *BEZIQUE_MELDS[5:]),
    card_points=(10, 10, 0, 0, 0, 0, 0, 0),
    second_double=True,
    target=2000,
)

BEZIQUE3 = _make_preset(variant="bezique3", copies=3, nplayers=3, **_MANY_HANDED)

BEZIQUE4 = _make_preset(
    (*CLASSIC_OPTIONS, *FOUR_HANDED_OPTIONS),
    variant="bezique4",
    copies=4,
    nplayers=4,
    partnership=True,
    **_MANY_HANDED,
)

PRESETS: dict[str, Rules] = {"bezique": BEZIQUE, "binocle": BINOCLE, "rubicon": RUBICON,
                             "sixpack": SIXPACK, "eightpack": EIGHTPACK, "bezique3": BEZIQUE3,
                             "bezique4": BEZIQUE4}

# Each preset's name as players say it, for the front ends and the statistics.
VARIANT_TITLES: dict[str, str] = {
    "bezique": "Bezique", "binocle": "Binocle", "rubicon": "Rubicon", "sixpack": "Six-pack",
    "eightpack": "Eight-pack", "bezique3": "Three-handed", "bezique4": "Four-handed"}


def variant_title(variant: str) -> str:
    """``"Six-pack"`` for ``"sixpack"``; a variant that is no preset keeps its own name."""
    return VARIANT_TITLES.get(variant, variant)


__all__ = [
    "BEZIQUE",
    "BINOCLE",
    "CLASS_A",
    "CLASS_B",
    "CLASS_C",
    "CLASS_NAMES",
    "HEARTS",
    "OPTION_NAMES",
    "PRESETS",
    "TEN",
    "VARIANT_TITLES",
    "MeldKind",
    "Pattern",
    "Rules",
    "variant_title",
]
