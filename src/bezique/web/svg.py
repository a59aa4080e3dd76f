"""Playing cards drawn as SVG by the project itself: faces for the 32 piquet cards and a back.

Suits are vector paths (no font needed for them); the court cards carry a framed portrait panel
with the rank letter and a crown, knot or plume.  Every card is 200x300 user units.

>>> svg = card_svg("QS")
>>> svg.startswith("<svg") and "Q" in svg and svg.endswith("</svg>")
True
>>> card_svg("XX")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bezique.errors.BeziqueError: 'XX' is not a card ...
"""

from __future__ import annotations

from functools import lru_cache

from ..cards import RANKS, SUITS, card_name, parse_card, rank_of, suit_of

W, H = 200, 300
RED = "#c8102e"
BLACK = "#1a1a1a"
SUIT_COLOURS = (BLACK, RED, RED, BLACK)

# Suit outlines in a 100x100 box, centred on (50, 50).
SUIT_PATHS = (
    # spade
    "M50 2C60 20 98 38 98 62C98 78 86 88 72 88C63 88 56 84 53 77C54 88 59 95 68 100H32"
    "C41 95 46 88 47 77C44 84 37 88 28 88C14 88 2 78 2 62C2 38 40 20 50 2Z",
    # heart
    "M50 96C22 72 2 54 2 30C2 14 14 3 29 3C39 3 46 9 50 18C54 9 61 3 71 3C86 3 98 14 98 30"
    "C98 54 78 72 50 96Z",
    # diamond
    "M50 0L90 50L50 100L10 50Z",
    # club
    "M50 4A21 21 0 0 1 67 38A21 21 0 1 1 58 76C59 87 63 94 70 100H30C37 94 41 87 42 76"
    "A21 21 0 1 1 33 38A21 21 0 0 1 50 4Z",
)

# Pip positions (x, y in card units, flipped) for the spot cards 7..10 and the ace.
_C1, _C2, _C3 = 62.0, 100.0, 138.0
_PIPS: dict[str, list[tuple[float, float, bool]]] = {
    "7": [(_C1, 80, False), (_C3, 80, False), (_C2, 115, False), (_C1, 150, False),
          (_C3, 150, False), (_C1, 220, True), (_C3, 220, True)],
    "8": [(_C1, 80, False), (_C3, 80, False), (_C2, 115, False), (_C1, 150, False),
          (_C3, 150, False), (_C2, 185, True), (_C1, 220, True), (_C3, 220, True)],
    "9": [(_C1, 78, False), (_C3, 78, False), (_C1, 126, False), (_C3, 126, False),
          (_C2, 150, False), (_C1, 174, True), (_C3, 174, True), (_C1, 222, True),
          (_C3, 222, True)],
    "T": [(_C1, 78, False), (_C3, 78, False), (_C2, 108, False), (_C1, 126, False),
          (_C3, 126, False), (_C1, 174, True), (_C3, 174, True), (_C2, 192, True),
          (_C1, 222, True), (_C3, 222, True)],
}


def _suit(suit: int, x: float, y: float, size: float, flip: bool = False) -> str:
    """A suit symbol centred on (x, y), ``size`` units wide."""
    s = size / 100
    rot = f" rotate(180 {x:g} {y:g})" if flip else ""
    return (
        f'<path transform="{rot.strip()} translate({x - size / 2:g} {y - size / 2:g}) '
        f'scale({s:g})" d="{SUIT_PATHS[suit]}" fill="{SUIT_COLOURS[suit]}"/>'
    ).replace('transform=" ', 'transform="')


def _corner(rank: str, suit: int) -> str:
    colour = SUIT_COLOURS[suit]
    label = "10" if rank == "T" else rank
    size = 40 if label == "10" else 44
    spacing = ' letter-spacing="-3"' if label == "10" else ""
    one = (
        f'<text x="24" y="50" font-family="Georgia, \'DejaVu Serif\', serif" '
        f'font-weight="700" font-size="{size}" text-anchor="middle" fill="{colour}"'
        f'{spacing}>{label}</text>'
        + _suit(suit, 24, 72, 26)
    )
    return one + f'<g transform="rotate(180 {W / 2} {H / 2})">{one}</g>'


def _court(rank: str, suit: int) -> str:
    colour = SUIT_COLOURS[suit]
    tint = "#fbeaea" if colour == RED else "#e9edf5"
    gold = "#c9a227"
    out = [
        f'<rect x="46" y="40" width="108" height="220" rx="8" fill="{tint}" '
        f'stroke="{colour}" stroke-width="3"/>',
        f'<rect x="52" y="46" width="96" height="208" rx="5" fill="none" stroke="{gold}" '
        'stroke-width="2"/>',
    ]
    if rank == "K":  # crown
        out.append(
            f'<path d="M70 104L76 74L88 92L100 66L112 92L124 74L130 104Z" fill="{gold}" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
    elif rank == "Q":  # tiara with a jewel
        out.append(
            f'<path d="M72 104Q100 58 128 104Z" fill="{gold}" stroke="{colour}" '
            f'stroke-width="2"/><circle cx="100" cy="86" r="6" fill="{colour}"/>'
        )
    else:  # jack: a plumed cap
        out.append(
            f'<path d="M74 104Q78 80 100 78Q122 80 126 104Z" fill="{gold}" stroke="{colour}" '
            f'stroke-width="2"/><path d="M104 80Q122 58 136 66Q120 70 110 84Z" '
            f'fill="{colour}"/>'
        )
    out.append(
        f'<text x="100" y="178" font-family="Georgia, \'DejaVu Serif\', serif" '
        f'font-weight="700" font-size="76" text-anchor="middle" fill="{colour}">{rank}</text>'
    )
    out.append(_suit(suit, 100, 222, 44))
    return "".join(out)


@lru_cache(maxsize=64)
def card_svg(name: str) -> str:
    """The SVG document of the card named like ``QS`` or ``TD`` (any form parse_card reads)."""
    card = parse_card(name)
    rank, suit = RANKS[rank_of(card)], suit_of(card)
    body: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
        f'role="img" aria-label="{card_name(card)}">',
        f'<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="14" fill="#fffdf8" '
        'stroke="#8a8a8a" stroke-width="3"/>',
        _corner(rank, suit),
    ]
    if rank == "A":
        body.append(_suit(suit, 100, 150, 96))
    elif rank in "KQJ":
        body.append(_court(rank, suit))
    else:
        body.extend(_suit(suit, x, y, 38, flip) for x, y, flip in _PIPS[rank])
    body.append("</svg>")
    return "".join(body)


@lru_cache(maxsize=1)
def back_svg() -> str:
    """The back of every card: a navy lattice in a white border."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img" '
        'aria-label="card back">'
        '<defs><pattern id="lat" width="20" height="20" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)">'
        '<rect width="20" height="20" fill="#1d3461"/>'
        '<path d="M0 10H20M10 0V20" stroke="#3f5f9a" stroke-width="3"/>'
        '<circle cx="10" cy="10" r="3" fill="#c9a227"/></pattern></defs>'
        f'<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="14" fill="#fffdf8" '
        'stroke="#8a8a8a" stroke-width="3"/>'
        f'<rect x="14" y="14" width="{W - 28}" height="{H - 28}" rx="8" fill="url(#lat)" '
        'stroke="#c9a227" stroke-width="3"/>'
        "</svg>"
    )


def suit_svg(suit: str) -> str:
    """A lone suit symbol (``S``, ``H``, ``D`` or ``C``) as a small SVG document."""
    i = SUITS.index(suit.upper()) if suit.upper() in SUITS and len(suit) == 1 else -1
    if i < 0:
        raise ValueError(f"{suit!r} is not a suit (S, H, D or C)")
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<path d="{SUIT_PATHS[i]}" fill="{SUIT_COLOURS[i]}"/></svg>'
    )
