"""The screens over the game: the rules (with the keys), the player's statistics, and the
account of a finished deal with the result when the game is over.
"""

from __future__ import annotations

import textwrap
from importlib import resources
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Markdown, Static

from ..cards import RANK_NAMES
from ..howto import rules_markdown
from ..narrate import win_reason
from ..scoring import sides
from ..state import State
from .history import stats_lines
from .session import Session, deal_summary


def deals_table(s: Session) -> Table:
    """Each deal's points and the running totals, for the end of the game."""
    table = Table(box=None, padding=(0, 1), title="Deal by deal", title_justify="left")
    table.add_column("Deal", no_wrap=True)
    for name in s.names:
        table.add_column(name, justify="right")
    table.add_column("Game", justify="right")
    states = [*s.game.deals, s.state]
    for i, st in enumerate(states, 1):
        game = st.side_scores() if s.state.partner(0) >= 0 else st.game_scores
        table.add_row(str(i), *(str(x) for x in st.scores), "–".join(str(g) for g in game))
    return table


def result_text(s: Session) -> str:
    """The result of a finished game in words: who wins, by what; a one-deal game's settlement
    as the engine explains it ("rubiconed: 1300 + 600 + 1300 = 3200") and which number is
    which."""
    st = s.state
    names = ["You", *s.names[1:]] if s.seats > 2 else ["You", "The computer"]
    if st.rules.settlement == "portland":
        res = st.settlement()
        if res.winner < 0:
            return "The game is drawn: nobody scores."
        words = st.settlement_words()  # on a line of its own, never cut by the wrapping
        if res.rubicon:
            words = ("You are " if res.winner else f"{names[1 - res.winner]} is ") + words
        elif not res.brisques_counted and any(st.rules.card_points):
            words = f"Brisques not counted: {words}"
        else:
            words = f"Settlement: {words}"
        win = "You win" if res.winner == 0 else f"{names[res.winner]} wins"
        return (f"{win} the game and score{'' if res.winner == 0 else 's'} {res.value}.\n"
                f"{words[0].upper()}{words[1:]}.\n{st.settlement_words(legend=True)}")
    # a game won on the count of brisques says so (in mid-sentence: "the computer's brisques")
    reason = win_reason(st, names if s.seats > 2 else ["you", "the computer"], you=0)
    return _winner_text(s, names) + (f"\n{reason}" if reason else "")


def _winner_text(s: Session, names: list[str]) -> str:
    st, w = s.state, s.game.winner
    if st.partner(0) >= 0:
        a, b = st.side_scores()
        if w == 0:
            return f"You and North win the game, {a} to {b}!"
        return f"West and East win the game, {b} to {a}."
    g = st.game_scores
    if s.seats > 2:
        others = ", ".join(str(x) for i, x in enumerate(g) if i != w)
        assert w is not None
        return (f"You win the game with {g[0]} (against {others})!" if w == 0
                else f"{names[w]} wins the game with {g[w]} (against {others}).")
    a, b = g
    return f"You win the game, {a} to {b}!" if w == 0 else \
        f"The computer wins the game, {b} to {a}."


def melds_cell(melds: tuple[tuple[str, int], ...]) -> str:
    """A seat's melds of a deal, the same meld made again counted ("four queens 60 ×8"): a
    multi-pack deal's two dozen melds filled the screen and pushed the result out of sight.

    >>> melds_cell((("four kings", 80), ("bezique", 40), ("four kings", 80)))
    'four kings 80 ×2, bezique 40'
    >>> melds_cell(())
    '-'
    """
    counts: dict[tuple[str, int], int] = {}
    for meld in melds:
        counts[meld] = counts.get(meld, 0) + 1
    return ", ".join(f"{n} {p}" + (f" ×{k}" if k > 1 else "")
                     for (n, p), k in counts.items()) or "-"


def summary_table(s: Session, st: State) -> Table:
    """Each seat's melds, sevens, last trick and brisques of the deal, its points and game."""
    table = Table(box=None, padding=(0, 1), expand=True)
    table.add_column("", style="bold", no_wrap=True)
    cols = ["You", "Computer"] if s.seats == 2 else list(s.names)
    for name in cols:
        table.add_column(name, ratio=1)
    rows = deal_summary(st)
    brisques = "Card points" if s.rules.variant == "binocle" else "Brisques"

    def melds(d: Any) -> str:
        return melds_cell(d.melds)

    table.add_row("Melds", *(melds(d) for d in rows))
    if s.rules.cut_bonus:
        table.add_row("Cut", *(str(d.cut) for d in rows))
    if s.rules.turnup:
        sevens = "Sevens" if s.rules.seven_rank == RANK_NAMES.index("seven") else "Dix (nines)"
        table.add_row(sevens, *(str(d.sevens) for d in rows))
    table.add_row("Last trick", *(str(d.last_trick) for d in rows))
    if s.rules.settlement == "portland":  # brisques count only in the settlement, if at all
        if any(s.rules.card_points):
            table.add_row(brisques, *(str(b) for b in st.brisques))
    else:
        table.add_row(brisques, *(str(d.brisques) for d in rows))
    table.add_row("This deal", *(f"[b]{d.deal}[/b]" for d in rows))
    if s.rules.settlement != "portland":
        table.add_row("Game", *(f"[b]{d.game}[/b]" for d in rows))
    return table


def sides_text(st: State) -> str:
    """A partnership's deal and game by side."""
    deal, game = sides(st.scores), st.side_scores()
    return (f"This deal by side: you & North {deal[0]} · West & East {deal[1]}\n"
            f"The game by side:  you & North {game[0]} · West & East {game[1]}")


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


def stats_text(lines: list[str], width: int) -> str:
    """The statistics' lines in ``width`` columns, each indented line wrapped under itself: in
    80 columns the end of "games 3 won of 5 · … · best meld" went to the left edge, where it
    read as the heading of the next group.

    >>> print(stats_text(["You, all games", "  games 1 won of 2 · best meld bezique 40"], 30))
    You, all games
      games 1 won of 2 · best meld
      bezique 40
    """
    out: list[str] = []
    for line in lines:
        pad = " " * (len(line) - len(line.lstrip(" ")))
        out.extend(textwrap.wrap(line.lstrip(" "), max(width, len(pad) + 10),
                                 initial_indent=pad, subsequent_indent=pad,
                                 break_long_words=False, break_on_hyphens=False) or [""])
    return "\n".join(out)


class StatsScreen(ModalScreen[None]):
    """The person's history and statistics from the saved games (as ``bezique stats``)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,s,enter", "close", "Back")]

    def __init__(self) -> None:
        super().__init__()
        self.lines = stats_lines()

    def compose(self) -> ComposeResult:
        """A scrollable text."""
        with VerticalScroll(id="rules-box"):
            yield Static(Text("Your statistics (saved games)\n", "bold"))
            yield Static("\n".join(self.lines), id="stats-text")
        yield Footer()

    def on_mount(self) -> None:
        """Arrows and page keys scroll the text."""
        self.query_one("#rules-box").focus()
        self.call_after_refresh(self._fit)

    def on_resize(self) -> None:
        """The lines wrapped anew to the new width."""
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        text = self.query_one("#stats-text", Static)
        if text.content_size.width:
            text.update(stats_text(self.lines, text.content_size.width))

    def action_close(self) -> None:
        """Back to where we were."""
        self.dismiss(None)


class SummaryScreen(ModalScreen[str]):
    """The account of a finished deal, and the result when the game is over."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Enter goes on to the next deal; after the game it plays again, and the footer says so
        Binding("enter,space", "go", "Continue"),
        Binding("enter,space", "again", "Play again"),
        Binding("a", "again", "Play again", show=False),
        Binding("n", "new", "New game"),
        Binding("q", "quit_game", "Quit"),
        Binding("u", "undo", "Undo", show=False),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Before the game's end Enter continues; after it, Enter or a plays again and n starts
        a new game (the footer said "Continue" there)."""
        if action == "go":
            return not self.session.game_over()
        if action in ("again", "new"):
            return self.session.game_over()
        return True

    def compose(self) -> ComposeResult:
        """The table of points, the result, and what to press."""
        s = self.session
        st = s.state
        table = summary_table(s, st)
        with Vertical(id="summary-box") as box:
            box.border_title = (f"Game over after {s.deal_number()} deal"
                                f"{'' if s.deal_number() == 1 else 's'}" if s.game_over()
                                else f"Deal {s.deal_number()} is over")
            # the keys stay on the last line; what does not fit above them scrolls (a long game's
            # deals, a multi-pack deal's melds) rather than being cut off
            with VerticalScroll(id="summary-body"):
                yield Static(table, id="summary-table")
                if st.partner(0) >= 0:
                    yield Static(sides_text(st), id="sides")
                if s.game_over():
                    yield Static(result_text(s), id="result")
                    if s.rules.settlement != "portland":
                        yield Static(deals_table(s), id="deals-table")
                else:
                    side = "side " if st.partner(0) >= 0 else ""
                    yield Label(f"First {side}to {s.rules.target} wins.", id="result")
            if s.game_over():
                yield Label("Enter/a: play again (same rules) · n: new game · q: quit",
                            id="summary-keys")
            else:
                yield Label("Enter: next deal · u: take back your last card · q: quit (saved)",
                            id="summary-keys")
        yield Footer()  # this screen's keys, not those of the game beneath it

    def on_mount(self) -> None:
        """The arrows and page keys scroll what does not fit."""
        self.query_one("#summary-body").focus()

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
