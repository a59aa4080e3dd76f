"""The list of choices on offer while the person may declare after a trick (or guess the cut):
one line each with its key, in two columns when the rows are too few, and a note on the border
under it saying how many are out of sight.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.widget import Widget

from .widgets import KEY_LABELS, IndexChosen

GAP = 2  # the columns between two columns of choices


class Shape(NamedTuple):
    """How the choices are laid out: in one column or two, so many rows, each choice's line,
    the width of the first column."""

    columns: int
    rows: int
    prompts: list[str]
    left: int


def more_note(above: int, below: int) -> str:
    """What the border under the list of choices says when so many are out of sight above and
    below; "" when all are in sight.

    >>> more_note(0, 7)
    '▼ 7 more below: ↓ reaches them'
    >>> more_note(3, 4)
    '▲ 3 above · ▼ 4 more below: ↑ ↓'
    """
    if not above and not below:
        return ""
    if not above:
        return f"▼ {below} more below: ↓ reaches them"
    if not below:
        return f"▲ {above} more above: ↑"
    return f"▲ {above} above · ▼ {below} more below: ↑ ↓"


class ChoiceList(Widget, can_focus=True):
    """The choices on offer while the person may declare (or guess the cut): one line each,
    with the key of each of the first twelve; in two columns when they are more than the rows
    and their labels fit side by side; and when even so some are out of sight, the border
    under the list (its parent's) says how many are above or below and that the arrows reach
    them.  ↑/↓ (and ←/→ between two columns) move the highlight, Enter or a click takes one;
    ``highlighted`` is the index of the highlighted choice."""

    DEFAULT_CSS = """
    ChoiceList { height: 1fr; }
    ChoiceList > .choice--highlighted { background: $block-cursor-blurred-background; }
    ChoiceList:focus > .choice--highlighted {
        color: $block-cursor-foreground; background: $block-cursor-background;
        text-style: $block-cursor-text-style;
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"choice--highlighted"}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Choose", key_display="⏎"),
        Binding("up", "cursor(-1)", "", show=False),
        Binding("down", "cursor(1)", "", show=False),
        Binding("left", "column(-1)", "", show=False),
        Binding("right", "column(1)", "", show=False),
        Binding("home", "cursor(-1000)", "", show=False),
        Binding("end", "cursor(1000)", "", show=False),
        Binding("pageup", "page(-1)", "", show=False),
        Binding("pagedown", "page(1)", "", show=False),
    ]

    highlighted: reactive[int | None] = reactive(None, layout=False)
    # two columns of short labels are allowed (the screen's choice, when the list would not
    # fit otherwise)
    tight: reactive[bool] = reactive(False, layout=False)

    class Chosen(IndexChosen):
        """A choice was taken (Enter, or a click)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._labels: list[tuple[str, str]] = []  # each choice's label, and a shorter one
        self._top = 0  # the first row in sight
        self._note = ""

    # ------------------------------------------------------------------ the choices

    def set_choices(self, labels: list[tuple[str, str]]) -> None:
        """Show these choices (a label and a shorter one for each), the first highlighted."""
        self._labels = labels
        self._top = 0
        self.highlighted = 0 if labels else None
        self.refresh()
        self._update_note()

    def _prompts(self, width: int) -> list[str]:
        """Each choice as a line of ``width`` columns at most: its key, then its label, or the
        shorter label when the label would not fit."""
        out = []
        for i, (full, brief) in enumerate(self._labels):
            key = KEY_LABELS[i] if i < len(KEY_LABELS) else " "
            label = full if cell_len(full) + 2 <= width else brief
            out.append(f"{key} {label}")
        return out

    def shape(self, width: int, height: int, tight: bool | None = None) -> Shape:
        """How the choices are laid out in ``width`` × ``height``: one column if they fit in
        the rows; else two, filled down then across, if their labels fit side by side (when
        ``tight``, the short labels of all of them: "4A" for "four aces"); else one."""
        n = len(self._labels)
        if n <= height or n < 2:
            return Shape(1, n, self._prompts(width), width)
        rows = -(-n // 2)
        for short in (False, True) if (self.tight if tight is None else tight) else (False,):
            two = [f"{KEY_LABELS[i] if i < len(KEY_LABELS) else ' '} {labels[short]}"
                   for i, labels in enumerate(self._labels)]
            left = max(cell_len(p) for p in two[:rows])
            if left + GAP + max(cell_len(p) for p in two[rows:]) <= width:
                return Shape(2, rows, two, left)
        return Shape(1, n, self._prompts(width), width)

    def rows_needed(self, width: int, height: int, tight: bool = False) -> int:
        """The rows the choices take in a list of ``width`` × ``height``."""
        return self.shape(width, height, tight).rows

    # ------------------------------------------------------------------ drawing

    def render(self) -> Text:
        """The rows in sight."""
        width, height = self.size.width, self.size.height
        if not width or not height:
            return Text()
        columns, rows, prompts, left = self.shape(width, height)
        hl = self.get_component_rich_style("choice--highlighted")
        lines = []
        for r in range(self._top, min(rows, self._top + height)):
            line = Text(no_wrap=True, overflow="ellipsis")
            for c in range(columns):
                i = c * rows + r
                if i >= len(prompts):
                    break
                cell = Text(prompts[i], no_wrap=True, overflow="ellipsis")
                cell.truncate(width - left - GAP if c else left, overflow="ellipsis",
                              pad=True)
                if i == self.highlighted:
                    cell.stylize(hl)
                if c:
                    line.append(" " * GAP)
                line.append_text(cell)
            lines.append(line)
        return Text("\n", no_wrap=True).join(lines)

    def _grid(self) -> tuple[int, int]:
        """(columns, rows) at the present size."""
        shape = self.shape(self.size.width or 80, self.size.height or 1)
        return shape.columns, shape.rows

    def _scroll_to_highlight(self) -> None:
        """Bring the highlighted choice's row into sight."""
        height = self.size.height
        if self.highlighted is None or not height:
            return
        _, rows = self._grid()
        row = self.highlighted % rows
        if row < self._top:
            self._top = row
        elif row >= self._top + height:
            self._top = row - height + 1
        self._top = max(0, min(self._top, rows - height))

    def _update_note(self) -> None:
        """Say on the border under the list how many choices are out of sight."""
        height = self.size.height
        if not height:
            return
        _, rows = self._grid()
        rows_of = [i % rows for i in range(len(self._labels))]
        note = more_note(sum(1 for r in rows_of if r < self._top),
                         sum(1 for r in rows_of if r >= self._top + height))
        if note != self._note and self.parent is not None and isinstance(self.parent, Widget):
            self._note = note
            self.parent.border_subtitle = f"[b]{note}[/b]" if note else ""

    def watch_tight(self) -> None:
        """Lay the choices out again."""
        self.on_resize()

    def watch_highlighted(self) -> None:
        """Keep the highlighted choice in sight."""
        self._scroll_to_highlight()
        self._update_note()
        self.refresh()

    def on_resize(self) -> None:
        """The rows in sight change with the list's size."""
        self._scroll_to_highlight()
        self._update_note()
        self.refresh()

    # ------------------------------------------------------------------ keys and the mouse

    def action_cursor(self, delta: int) -> None:
        """Highlight the choice ``delta`` after (or before) the highlighted one, stopping at
        the first and the last."""
        if self._labels:
            self.highlighted = max(0, min(len(self._labels) - 1, (self.highlighted or 0) + delta))

    def action_column(self, delta: int) -> None:
        """Highlight the choice beside the highlighted one, in the other column."""
        columns, rows = self._grid()
        if columns == 2 and self.highlighted is not None:
            i = self.highlighted + delta * rows
            if 0 <= i < len(self._labels):
                self.highlighted = i

    def action_page(self, delta: int) -> None:
        """Move the highlight a list's height up or down."""
        self.action_cursor(delta * max(1, self.size.height - 1))

    def action_select(self) -> None:
        """Take the highlighted choice."""
        if self.highlighted is not None:
            self.post_message(self.Chosen(self.highlighted))

    def on_click(self, event: events.Click) -> None:
        """Take the choice clicked."""
        columns, rows, _, left = self.shape(self.size.width or 80, self.size.height or 1)
        if left <= event.x < left + GAP:
            return  # the gap between two columns
        i = (columns == 2 and event.x >= left) * rows + self._top + event.y
        if 0 <= i < len(self._labels) and event.y < rows - self._top:
            self.highlighted = i
            self.post_message(self.Chosen(i))

    def _scroll_by(self, delta: int) -> None:
        _, rows = self._grid()
        top = max(0, min(self._top + delta, rows - self.size.height))
        if top != self._top:
            self._top = top
            self._update_note()
            self.refresh()

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        """The wheel shows the rows below."""
        self._scroll_by(1)
        event.stop()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        """The wheel shows the rows above."""
        self._scroll_by(-1)
        event.stop()
