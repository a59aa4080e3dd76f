"""The screens over the game: the rules (with the keys), the player's statistics, and the
account of a finished deal with the result when the game is over.
"""

from __future__ import annotations

from importlib import resources
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Markdown, Static

from ..howto import rules_markdown
from .history import stats_lines
from .session import Session, deal_summary


def deals_table(s: Session) -> Table:
    """Each deal's points and the running totals, for the end of the game."""
    table = Table(box=None, padding=(0, 1), title="Deal by deal", title_justify="left")
    table.add_column("Deal", no_wrap=True)
    table.add_column("You", justify="right")
    table.add_column("Computer", justify="right")
    table.add_column("Game", justify="right")
    states = [*s.game.deals, s.state]
    for i, st in enumerate(states, 1):
        a, b = st.scores
        g0, g1 = st.game_scores
        table.add_row(str(i), str(a), str(b), f"{g0}–{g1}")
    return table


def rules_text() -> str:
    """The rules screen's text: the keys (``rules.md`` in this package), then the rules that
    the browser's help page shows too (:mod:`bezique.howto`)."""
    keys = resources.files("bezique.tui").joinpath("rules.md").read_text(encoding="utf-8")
    return keys.rstrip() + "\n\n" + rules_markdown()


class RulesScreen(ModalScreen[None]):
    """The rules in brief, and the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,r,enter", "close", "Back")]

    def compose(self) -> ComposeResult:
        """A scrollable text."""
        with VerticalScroll(id="rules-box"):
            yield Markdown(rules_text())
        yield Footer()

    def on_mount(self) -> None:
        """Arrows and page keys scroll the text."""
        self.query_one("#rules-box").focus()

    def action_close(self) -> None:
        """Back to where we were."""
        self.dismiss(None)


class StatsScreen(ModalScreen[None]):
    """The person's history and statistics from the saved games (as ``bezique stats``)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,s,enter", "close", "Back")]

    def compose(self) -> ComposeResult:
        """A scrollable text."""
        with VerticalScroll(id="rules-box"):
            yield Static(Text("Your statistics (saved games)\n", "bold"))
            yield Static("\n".join(stats_lines()), id="stats-text")
        yield Footer()

    def on_mount(self) -> None:
        """Arrows and page keys scroll the text."""
        self.query_one("#rules-box").focus()

    def action_close(self) -> None:
        """Back to where we were."""
        self.dismiss(None)


class SummaryScreen(ModalScreen[str]):
    """The account of a finished deal, and the result when the game is over."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "go", "Continue"),
        Binding("a", "again", "Play again", show=False),
        Binding("n", "new", "New game", show=False),
        Binding("q", "quit_game", "Quit"),
        Binding("u", "undo", "Undo", show=False),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        """The table of points, the result, and what to press."""
        s = self.session
        st = s.state
        you, comp = deal_summary(st)
        brisques = "Card points" if s.rules.variant == "binocle" else "Brisques"
        table = Table(box=None, padding=(0, 1), expand=True)
        table.add_column("", style="bold", no_wrap=True)
        table.add_column("You", ratio=1)
        table.add_column("Computer", ratio=1)

        def melds(d: Any) -> str:
            return ", ".join(f"{n} {p}" for n, p in d.melds) or "-"

        table.add_row("Melds", melds(you), melds(comp))
        table.add_row("Sevens", str(you.sevens), str(comp.sevens))
        table.add_row("Last trick", str(you.last_trick), str(comp.last_trick))
        table.add_row(brisques, str(you.brisques), str(comp.brisques))
        table.add_row("This deal", f"[b]{you.deal}[/b]", f"[b]{comp.deal}[/b]")
        table.add_row("Game", f"[b]{you.game}[/b]", f"[b]{comp.game}[/b]")
        with Vertical(id="summary-box") as box:
            box.border_title = (f"Game over after {s.deal_number()} deal"
                                f"{'' if s.deal_number() == 1 else 's'}" if s.game_over()
                                else f"Deal {s.deal_number()} is over")
            yield Static(table, id="summary-table")
            if s.game_over():
                w = s.game.winner
                a, b = st.game_scores
                if w == 0:
                    msg = f"You win the game, {a} to {b}!"
                else:
                    msg = f"The computer wins the game, {b} to {a}."
                yield Label(msg, id="result")
                yield Static(deals_table(s), id="deals-table")
                yield Label("Enter/a: play again (same level and rules) · n: new game (choose) · "
                            "q: quit", id="summary-keys")
            else:
                yield Label(f"First to {s.rules.target} wins.", id="result")
                yield Label("Enter: next deal · u: take back your last card · q: quit (saved)",
                            id="summary-keys")

    def action_go(self) -> None:
        """Next deal (or, after the game, the same game again)."""
        self.dismiss("again" if self.session.game_over() else "next")

    def action_again(self) -> None:
        """After the game: play again, same level and rules, a new shuffle."""
        if self.session.game_over():
            self.dismiss("again")

    def action_new(self) -> None:
        """A new game."""
        if self.session.game_over():
            self.dismiss("new")

    def action_undo(self) -> None:
        """Back into the deal, before your last card."""
        self.dismiss("undo")

    def action_quit_game(self) -> None:
        """Leave the app."""
        self.dismiss("quit")
