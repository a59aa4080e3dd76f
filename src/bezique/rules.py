"""Rules as data: presets ``bezique`` and ``binocle``, the options of RULES.md 6, the meld table.

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
    RANK_NAMES,
    SEVEN,
    SPADES,
    TEN,
    make_card,
)
from .errors import OptionError

CLASS_A, CLASS_B, CLASS_C = 0, 1, 2
CLASS_NAMES = ("A", "B", "C")


@dataclass(frozen=True)
class MeldKind:
    """One row of the meld table: its name, class (0=A, 1=B, 2=C), points and shape.

    Shapes: ``marriage`` (K Q of a plain suit), ``royal`` (K Q of trumps), ``sequence``
    (A T K Q J of trumps), ``plain_sequence`` (A T K Q J of a plain suit), ``pair`` (the
    bezique), ``double_pair``, ``beziques`` (``count`` bezique pairs: triple, quadruple, ...),
    ``grand`` (K Q of the bezique queen's suit and the bezique jack), ``four`` and ``eight``
    (that many cards of ``rank``), ``trumps`` (``count`` trumps of ``rank``: the trump quartets
    and quintets of RULES.md 9.2-9.3).
    """

    name: str
    cls: int
    points: int
    shape: str
    rank: int = -1
    count: int = 0


@dataclass(frozen=True)
class Pattern:
    """A meld kind made concrete under one trump suit.

    Either ``counts`` (card -> copies needed) is given, or ``rank``/``n``/``distinct`` describe
    "n cards of this rank" (one of each suit when ``distinct``).
    """

    kind: int
    counts: tuple[tuple[int, int], ...] = ()
    rank: int = -1
    n: int = 0
    distinct: bool = False

    def matches(self, cards: Sequence[int]) -> bool:
        """True if these cards (ints 0..31, copies repeated) are exactly this pattern."""
        if self.n:
            if len(cards) != self.n or any(c & 7 != self.rank for c in cards):
                return False
            return not self.distinct or len({c >> 3 for c in cards}) == len(cards)
        if len(cards) != sum(n for _, n in self.counts):
            return False
        return all(cards.count(c) == n for c, n in self.counts)


def _fours(points: tuple[int, int, int, int], shape: str) -> tuple[MeldKind, ...]:
    word = "four" if shape == "four" else "eight"
    return tuple(
        MeldKind(f"{word} {RANK_NAMES[r]}s", CLASS_C, p, shape, r)
        for r, p in zip((ACE, KING, QUEEN, JACK), points, strict=True)
    )


BEZIQUE_MELDS: tuple[MeldKind, ...] = (
    MeldKind("common marriage", CLASS_A, 20, "marriage"),
    MeldKind("royal marriage", CLASS_A, 40, "royal"),
    MeldKind("sequence", CLASS_A, 250, "sequence"),
    MeldKind("bezique", CLASS_B, 40, "pair"),
    MeldKind("double bezique", CLASS_B, 500, "double_pair"),
    *_fours((100, 80, 60, 40), "four"),
)

BINOCLE_MELDS: tuple[MeldKind, ...] = (
    MeldKind("common marriage", CLASS_A, 20, "marriage"),
    MeldKind("royal marriage", CLASS_A, 40, "royal"),
    MeldKind("sequence", CLASS_A, 150, "sequence"),
    MeldKind("binocle", CLASS_B, 40, "pair"),
    MeldKind("double binocle", CLASS_B, 80, "double_pair"),
    MeldKind("grand binocle", CLASS_B, 80, "grand"),
    *_fours((100, 80, 60, 40), "four"),
    *_fours((200, 160, 120, 80), "eight"),
)

# Option name -> (allowed values or type, default).  Order is the order of RULES.md 6.
_CHOICES: dict[str, tuple[str, ...]] = {
    "fresh_card": ("class", "every"),
    "cross_class": ("free", "increase"),
    "bezique_pair": ("standard", "swap"),
    "seven": ("declared", "played"),
    "brisques": ("end", "immediate"),
    "last_trick": ("final", "stock"),
    "end_check": ("deal", "immediate"),
}
_INTS = ("target", "melds_per_trick")
_BOOLS = ("reform", "fours_distinct_suits", "seven_counts_as_meld")
OPTION_NAMES: tuple[str, ...] = (
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

    @staticmethod
    def preset(name: str, **options: Any) -> Rules:
        """The preset called ``name`` (``bezique`` or ``binocle``) with some options changed."""
        key = name.strip().lower()
        if key not in PRESETS:
            raise OptionError(f"unknown variant {name!r} (known: {', '.join(PRESETS)})")
        return PRESETS[key].with_options(**options)

    @staticmethod
    def from_options(variant: str, options: Mapping[str, Any] | None = None) -> Rules:
        """The preset ``variant`` with the options of a mapping (as in a game record)."""
        return Rules.preset(variant, **dict(options or {}))

    def with_options(self, **options: Any) -> Rules:
        """A copy with some options changed; unknown options and bad values are refused."""
        clean = {name: _check_option(name, value) for name, value in options.items()}
        return dataclasses.replace(self, **clean) if clean else self

    def options(self) -> dict[str, Any]:
        """The options that differ from the preset's defaults (what a record stores)."""
        base = dict(self._defaults)
        return {n: getattr(self, n) for n in OPTION_NAMES if getattr(self, n) != base.get(n)}

    def all_options(self) -> dict[str, Any]:
        """Every option with its value."""
        return {n: getattr(self, n) for n in OPTION_NAMES}

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
        """Tricks in a deal (32 in Bezique, 24 in Binocle)."""
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
        """The queen and the jack of the bezique (binocle) under this trump suit."""
        if self.bezique_pair == "swap" and trump in (SPADES, DIAMONDS):
            return make_card(QUEEN, CLUBS), make_card(JACK, HEARTS)
        return make_card(QUEEN, SPADES), make_card(JACK, DIAMONDS)

    def patterns(self, trump: int) -> tuple[Pattern, ...]:
        """Every meld of the table made concrete under ``trump`` (marriages one per suit).

        ``trump = -1`` means trumps are not fixed yet (no turn-up): then every suit's marriage
        and sequence is a candidate trump meld, and scoring one fixes trumps (RULES.md 9.0.2).
        """
        return _patterns(self, trump)

    def classify(self, cards: Sequence[int], trump: int) -> MeldKind | None:
        """The meld these cards (ints 0..31) form under ``trump``, or None: a meld is named by
        its cards alone."""
        for pat in _patterns(self, trump):
            if pat.matches(cards):
                return self.melds[pat.kind]
        return None


@functools.lru_cache(maxsize=64)
def _patterns(rules: Rules, trump: int) -> tuple[Pattern, ...]:
    if trump < 0:  # trumps not fixed: each suit's trump melds, then the melds of no suit
        seen: dict[Pattern, None] = {}
        for t in range(4):
            for pat in _patterns(rules, t):
                shape = rules.melds[pat.kind].shape
                if shape in ("royal", "sequence", "four", "eight") or (
                    shape in ("pair", "double_pair", "beziques", "grand")
                    and rules.bezique_pair == "standard"
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


def _make_preset(**kw: Any) -> Rules:
    r = Rules(**kw)
    defaults = tuple((n, getattr(r, n)) for n in OPTION_NAMES)
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

PRESETS: dict[str, Rules] = {"bezique": BEZIQUE, "binocle": BINOCLE}

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
    "MeldKind",
    "Pattern",
    "Rules",
]
