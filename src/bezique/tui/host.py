"""What the screens may ask of the app that shows them: :class:`GameHost`, the app as its screens
see it, so that the screens need not import :mod:`bezique.tui.app` (which imports them).
"""

from __future__ import annotations

from textual.app import App

from .session import PlayConfig


class GameHost(App[None]):
    """An app that starts, resumes and leaves games; :class:`~bezique.tui.app.BeziqueApp` is the
    one there is."""

    def start_game(self, config: PlayConfig) -> None:
        """A new game (an unfinished saved one is kept as a numbered save)."""
        raise NotImplementedError

    def resume_game(self) -> None:
        """Go on with the saved game."""
        raise NotImplementedError

    def new_game_screen(self, config: PlayConfig | None = None) -> None:
        """The start screen (showing ``config``'s choices, else those of the last game
        started)."""
        raise NotImplementedError

    def action_rules(self) -> None:
        """The rules screen."""
        raise NotImplementedError
