"""``bezique play``: a full-screen game against the computer (Textual).

Screens: a start screen (level, variant, options; :mod:`bezique.tui.start`), the game
(:mod:`bezique.tui.game`, drawn by :mod:`bezique.tui.table`), the rules, and a summary after each
deal (:mod:`bezique.tui.modals`).  The game logic lives in
:class:`~bezique.tui.session.Session`.  This module owns the app: which screen shows, starting
and resuming games, and the stylesheet of every screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.screen import Screen

from ..errors import BeziqueError
from .game import GameScreen
from .host import GameHost
from .modals import RulesScreen, StatsScreen
from .session import PlayConfig, Session, keep_unfinished, remember_name
from .start import StartScreen

CSS = """
Screen { layout: vertical; }
#top { height: 1; background: $primary-background; }
#main { height: 1fr; }
#left { width: 1fr; }
#right { width: 33%; min-width: 28; max-width: 44; }
#opp { height: 5; border: round $secondary; padding: 0 1; }
#center { height: 1fr; border: round $secondary; padding: 0 1; }
#table { height: 1fr; }  /* not its lines' height: a new trick or prompt needs no new layout */
#choices { height: 1fr; }
#mine { height: 7; border: round $accent; padding: 0 0 0 1; }
#mine.compact { height: 4; }  /* its rows lent to a long list of declarations */
#mine.compact #hand { height: 1; }
#mymelds { height: 1; }
#hand { height: 4; }
#score { height: 9; border: round $secondary; padding: 0 1; }
#log { height: 1fr; border: round $secondary; padding: 0 0 0 1; scrollbar-size-vertical: 1; }
#status { height: 1; padding: 0 1; }
RulesScreen, StatsScreen { align: center middle; }
#rules-box { width: 100%; max-width: 90; height: 1fr; border: round $accent; padding: 0 1; }
SummaryScreen { align: center middle; }
#summary-box { width: 100%; max-width: 100; height: auto; max-height: 100%;
               border: thick $accent; padding: 0 1; background: $surface; }
#result { margin-top: 1; text-style: bold; }
#summary-body { height: auto; max-height: 100%; scrollbar-size-vertical: 1; }
#summary-keys { color: $text-muted; dock: bottom; }
#start-title { height: 3; content-align: center middle; text-style: bold; }
#start-form { height: auto; }
#start-left { width: 1fr; height: auto; }
#level { width: 100%; height: auto; }
#start-left Input { width: 100%; }
#level { border: round $secondary; border-title-color: $text; }
#level:focus-within { border: round $accent; }
#start-help { height: 1; padding: 0 1; color: $text-muted; }
#start-right { width: 1fr; height: auto; }
#variant { width: 100%; height: auto; }
#start-right Input { width: 100%; }
#start-right Label { margin-top: 1; }
#start-right #variant-label { margin-top: 0; }
#start-buttons { height: 3; margin-top: 1; }
#start-buttons Button { margin-right: 1; min-width: 8; }
#start-status { height: auto; max-height: 4; padding: 0 1; }
"""


class BeziqueApp(GameHost):
    """``bezique play``: start (or resume) a game and play it to the end.

    ``delay`` is the pause before each of the computer's moves, so a person sees them; tests
    use 0.  ``show_start`` shows the start screen first; otherwise ``config`` starts at once.
    """

    CSS = CSS
    TITLE = "Bezique"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", "Quit", show=False)]

    def __init__(
        self,
        config: PlayConfig | None = None,
        path: Path | None = None,
        resume: bool = False,
        show_start: bool = True,
        delay: float = 0.6,
        auto_draw: bool = True,
    ) -> None:
        super().__init__()
        self.config = config or PlayConfig()
        self.path = path
        self.resume = resume
        self.show_start = show_start
        self.delay = delay
        self.auto_draw = auto_draw
        self.session: Session | None = None
        self.kept: int | None = None  # the number the replaced unfinished game was kept under

    def on_mount(self) -> None:
        """The first screen."""
        if self.resume:
            self.resume_game()
        elif self.show_start:
            self.new_game_screen()
        else:
            self.start_game(self.config)

    def _can_resume(self) -> bool:
        if self.path is None or not self.path.exists():
            return False
        try:
            return not Session.resume(self.path).game_over()
        except BeziqueError:
            return False

    def new_game_screen(self, config: PlayConfig | None = None) -> None:
        """The start screen (showing ``config``'s choices, else those of the last game
        started)."""
        self._switch(StartScreen(config or self.config, self._can_resume()))

    def _switch(self, screen: Screen[Any]) -> None:
        # the stack is [default, our screen, modals...]: keep one screen of ours
        while len(self.screen_stack) > 2:
            self.pop_screen()
        if len(self.screen_stack) == 2:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def start_game(self, config: PlayConfig) -> None:
        """A new game; an unfinished saved one is kept as a numbered save first."""
        self.config = config
        if config.name:
            remember_name(config.name)
        note = ""
        if self.path is not None:
            kept = keep_unfinished(self.path)
            if kept is not None:
                self.kept = kept
                note = (f"Your unfinished game is kept as save {kept} "
                        f"(bezique play --resume {kept}).")
        self.session = Session.new(config, self.path)
        self._switch(GameScreen(self.session, self.delay, note, self.auto_draw))

    def resume_game(self) -> None:
        """Go on with the saved game."""
        assert self.path is not None
        try:
            self.session = Session.resume(self.path)
        except BeziqueError as e:
            self.exit(message=str(e))
            return
        self._switch(GameScreen(self.session, self.delay, auto_draw=self.auto_draw))

    def action_rules(self) -> None:
        """The rules screen."""
        self.push_screen(RulesScreen())

    def action_stats(self) -> None:
        """The statistics screen."""
        self.push_screen(StatsScreen())
