"""Cards drawn as text: small boxes for the hand and the table, chips for shown cards; and the
game screen's own widgets (the hand, a footer of keys redrawn only when its keys change).

The drawing functions return Rich :class:`~rich.text.Text`; colour is optional
(``colour=False`` gives plain text with only bold and reverse, for ``NO_COLOR``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from ..cards import DIAMONDS, HEARTS, card_symbol, suit_of

RED_SUITS = (HEARTS, DIAMONDS)


def card_style(card: int, colour: bool = True) -> str:
    """The style of a card's face: red hearts and diamonds, black spades and clubs."""
    if not colour:
        return "bold"
    ink = "#c0141e" if suit_of(card) in RED_SUITS else "#101010"
    return f"bold {ink} on #f4f1e8"


def face(card: int) -> str:
    """A card's face in three columns: ``10♦``, `` Q♠``."""
    return card_symbol(card).rjust(3)


def chip(card: int, colour: bool = True) -> Text:
    """A card as a one-line chip ``[Q♠]``."""
    t = Text()
    if colour:
        t.append(face(card), card_style(card, colour))
    else:
        t.append("[" + card_symbol(card) + "]", "bold")
    return t


def chips(cards: Sequence[int], colour: bool = True, empty: str = "-") -> Text:
    """Cards as chips separated by spaces."""
    if not cards:
        return Text(empty, "dim")
    return Text(" ").join(chip(c, colour) for c in cards)


@dataclass(frozen=True)
class CardSlot:
    """One card of a row: the card, whether it lies shown on the table, and whether it is legal."""

    card: int
    shown: bool = False
    playable: bool = True


def card_row(
    slots: Sequence[CardSlot],
    width: int,
    selected: int = -1,
    colour: bool = True,
    labels: bool = True,
) -> tuple[Text, list[tuple[int, int]]]:
    """Cards as boxes three lines high (plus a line of key numbers when ``labels``).

    Returns the text and each card's column span, for mouse clicks.  Boxes are 5 wide, with a
    gap when there is room; shown cards have double borders.  When even that is too wide (12
    cards of Binocle in 80 columns) the boxes share their sides, and when that is too wide (15
    cards of Eight-pack) the cards lose their sides: three columns each, the faces side by side.
    """
    n = len(slots)
    if n * 4 + 1 > width:
        return _tight_row(slots, selected, colour, labels)
    if n * 5 > width:
        return _shared_row(slots, selected, colour, labels)
    gap = 1 if n * 6 - 1 <= width else 0
    lines = [Text(), Text(), Text(), Text()]
    spans: list[tuple[int, int]] = []
    x = 0
    for i, slot in enumerate(slots):
        sel = i == selected
        tl, tr, bl, br, h, v = ("╔", "╗", "╚", "╝", "═", "║") if slot.shown else (
            "┌", "┐", "└", "┘", "─", "│")
        border = _border_style(slot, sel, colour)
        lines[0].append(tl + h * 3 + tr, border)
        lines[1].append(v, border)
        lines[1].append(face(slot.card), _face_style(slot, sel, colour))
        lines[1].append(v, border)
        lines[2].append(bl + h * 3 + br, border)
        lines[3].append(_label(i, sel, labels).center(5), _label_style(sel, colour))
        spans.append((x, x + 5))
        x += 5
        if gap and i < n - 1:
            for ln in lines:
                ln.append(" " * gap)
            x += gap
    rows = lines if labels else lines[:3]
    return Text("\n").join(rows), spans


def _shared_row(
    slots: Sequence[CardSlot], selected: int, colour: bool, labels: bool
) -> tuple[Text, list[tuple[int, int]]]:
    lines = [Text(), Text(), Text(), Text(" ")]
    spans: list[tuple[int, int]] = []
    n = len(slots)
    for i, slot in enumerate(slots):
        sel = i == selected
        h = "═" if slot.shown else "─"
        border = _border_style(slot, sel, colour)
        lines[0].append(("┌" if i == 0 else "┬") + h * 3, border)
        lines[1].append("│", border)
        lines[1].append(face(slot.card), _face_style(slot, sel, colour))
        lines[2].append(("└" if i == 0 else "┴") + h * 3, border)
        lines[3].append(_label(i, sel, labels).center(3) + " ", _label_style(sel, colour))
        spans.append((4 * i, 4 * i + 4))
        if i == n - 1:
            lines[0].append("┐", border)
            lines[1].append("│", border)
            lines[2].append("┘", border)
    rows = lines if labels else lines[:3]
    return Text("\n").join(rows), spans


def _tight_row(
    slots: Sequence[CardSlot], selected: int, colour: bool, labels: bool
) -> tuple[Text, list[tuple[int, int]]]:
    lines = [Text(), Text(), Text(), Text()]
    spans: list[tuple[int, int]] = []
    for i, slot in enumerate(slots):
        sel = i == selected
        h = "═" if slot.shown else "─"
        border = _border_style(slot, sel, colour)
        lines[0].append(h * 3, border)
        lines[1].append(face(slot.card), _face_style(slot, sel, colour))
        lines[2].append(h * 3, border)
        lines[3].append(_label(i, sel, labels).center(3), _label_style(sel, colour))
        spans.append((3 * i, 3 * i + 3))
    rows = lines if labels else lines[:3]
    return Text("\n").join(rows), spans


def card_line(
    slots: Sequence[CardSlot], width: int, selected: int = -1, colour: bool = True
) -> tuple[Text, list[tuple[int, int]]]:
    """Cards on one line (the hand while a long list of declarations takes its rows), the
    cards shown on the table after a bar: the faces as chips with a space between them when
    there is room, else the faces with a space between them (a ten is wider), else the chips
    side by side.  Returns the text and each card's column span, for mouse clicks."""
    n = len(slots)
    bar = 2 if any(s.shown for s in slots) and not all(s.shown for s in slots) else 0
    spaced = n * 4 - 1 + bar <= width
    plain = not spaced and sum(len(card_symbol(s.card)) + 1 for s in slots) - 1 + bar <= width
    line = Text(no_wrap=True)
    spans: list[tuple[int, int]] = []
    for i, slot in enumerate(slots):
        if i and slot.shown and not slots[i - 1].shown:
            line.append(" │" if spaced or plain else "│", "dim")
        if i and (spaced or plain):
            line.append(" ")
        text = card_symbol(slot.card) if plain else face(slot.card)
        spans.append((line.cell_len, line.cell_len + len(text)))
        line.append(text, _face_style(slot, i == selected, colour))
    return line, spans


CREAM, GOLD, GREY = "#f4f1e8", "#ffe680", "#b9b6ad"


def _border_style(slot: CardSlot, sel: bool, colour: bool) -> str:
    if not colour:
        return "bold" if sel else ("dim" if not slot.playable else "")
    if sel:
        return f"bold #8a5a00 on {GOLD}"
    if not slot.playable:
        return f"#7a7770 on {GREY}"
    return f"#7a7770 on {CREAM}"


def _face_style(slot: CardSlot, sel: bool, colour: bool) -> str:
    if not colour:
        return "bold reverse" if sel else ("dim" if not slot.playable else "bold")
    style = card_style(slot.card, colour)
    if sel:
        return style.replace(f"on {CREAM}", f"on {GOLD}")
    if not slot.playable:
        return style.replace(f"on {CREAM}", f"on {GREY}")
    return style


# The keys that choose the first twelve cards (or declarations), as the row of a keyboard, and
# the names Textual gives the keys that are not digits.
KEY_LABELS = "1234567890-="
KEY_NAMES = {"-": "minus", "=": "equals_sign"}


def _label(i: int, sel: bool, labels: bool) -> str:
    if not labels:
        return " "
    if sel:
        return "▲"
    return KEY_LABELS[i] if i < len(KEY_LABELS) else " "


def _label_style(sel: bool, colour: bool) -> str:
    if sel:
        return "bold yellow" if colour else "bold"
    return "dim"


class IndexChosen(Message):
    """The item at ``index`` of a widget's list was chosen (the hand's card, the list of
    declarations' choice); each widget has its own subclass, ``Chosen``."""

    def __init__(self, index: int) -> None:
        self.index = index
        super().__init__()


class HandView(Widget):
    """The person's cards (concealed then shown), one of them selected; click to choose."""

    DEFAULT_CSS = """
    HandView { height: 4; }
    """

    can_focus = True
    selected: reactive[int] = reactive(0)

    class Chosen(IndexChosen):
        """A card was clicked."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.slots: list[CardSlot] = []
        self.colour = True
        self.active = True
        self._spans: list[tuple[int, int]] = []

    def set_cards(self, slots: list[CardSlot], colour: bool, active: bool = True) -> None:
        """Show these cards (keeping the selection in range); ``active`` shows the selection
        and lets the hand take the focus.  The same cards are not drawn again."""
        if (slots, colour, active) == (self.slots, self.colour, self.active):
            return
        self.slots = slots
        self.colour = colour
        self.active = active
        # no focus while the keys choose a declaration: a click on a card took the keys from
        # the list (↑/↓ did nothing, and the footer said Enter plays a card)
        self.can_focus = active
        if self.selected >= len(slots):
            self.selected = max(0, len(slots) - 1)
        self.refresh()

    def render(self) -> Text:
        """The row of cards."""
        if not self.slots:
            return Text("(no cards)", "dim")
        sel = self.selected if self.active else -1
        width = self.size.width or 60
        if 0 < self.size.height < 3:  # the panel gave its rows to the declarations on offer
            text, self._spans = card_line(self.slots, width, sel, self.colour)
        else:  # (no keys under the cards while the keys choose a declaration)
            text, self._spans = card_row(self.slots, width, sel, self.colour, self.active)
        return text

    def move(self, delta: int) -> None:
        """Move the selection left or right (wrapping)."""
        if self.slots:
            self.selected = (self.selected + delta) % len(self.slots)

    def on_click(self, event: Click) -> None:
        """Select the clicked card; a click on the selected card plays it."""
        for i, (a, b) in enumerate(self._spans):
            if a <= event.x < b:
                self.post_message(self.Chosen(i))
                return

    def watch_selected(self) -> None:
        """Redraw on a new selection."""
        self.refresh()


class KeysFooter(Footer):
    """The footer of keys, rebuilt only when the keys it shows change.

    Textual's footer rebuilds all its keys whenever a screen's bindings may have changed (each
    focus change asks twice, and the game screen asks after every move), which cost more than
    the rest of a move's drawing; the keys it would show are compared first."""

    def __init__(self) -> None:
        super().__init__()
        self._shown_keys: tuple[tuple[Binding, bool, str], ...] | None = None  # shown or on the way

    def _current_keys(self) -> tuple[tuple[Binding, bool, str], ...]:
        return tuple((binding, enabled, tooltip)
                     for _, binding, enabled, tooltip in self.screen.active_bindings.values()
                     if binding.show)

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """Rebuild (as the footer does) unless the keys are those shown or about to be."""
        if (self._bindings_ready and screen.app.app_focus and self.is_attached
                and screen is self.screen):
            keys = self._current_keys()
            if keys == self._shown_keys:
                return
            self._shown_keys = keys
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        """The keys, as the footer shows them."""
        if self._bindings_ready:
            self._shown_keys = self._current_keys()
        yield from super().compose()
