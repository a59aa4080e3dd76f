"""The start screen: choose the computer's level, the variant (two-handed, one-deal multi-pack,
or a table of three or four), the target and other options, or resume the saved game.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Input, Label, RadioButton, RadioSet, Select, Static

from ..agents.levels import LEVELS, level_spec
from ..errors import BeziqueError
from ..rules import Rules
from .host import GameHost
from .modals import StatsScreen
from .session import LEVEL_NAMES, PlayConfig

# The variants a person may choose: (label, variant, the options the choice implies).
VARIANT_CHOICES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("Bezique (64 cards)", "bezique", {}),
    ("Binocle (48 cards)", "binocle", {}),
    ("Rubicon (128 cards, one deal)", "rubicon", {}),
    ("Six-pack (192 cards, one deal)", "sixpack", {}),
    ("Eight-pack (256 cards, one deal)", "eightpack", {}),
    ("Three-handed (96 cards, 3 seats)", "bezique3", {}),
    # (at most 32 columns: a longer label wrapped, in the list and in the closed field, at 80)
    ("4-handed, partners (128 cards)", "bezique4", {}),
    ("4-handed, each alone (128 cards)", "bezique4", {"partnership": "false"}),
)
# the options the Variant field chooses: never in the field of other options, where a game's
# "partnership=False" stayed and overrode the choice of "4-handed, partners" (or refused any
# other variant)
VARIANT_OPTIONS = frozenset(name for _, _, implied in VARIANT_CHOICES for name in implied)


def target_hint(variant: str) -> str:
    """The target field's placeholder: the variant's own target, or that there is none.

    >>> target_hint("bezique4"), target_hint("rubicon")
    ('2000', 'one deal: no target')
    """
    rules = Rules.preset(variant)
    return "one deal: no target" if rules.settlement == "portland" else str(rules.target)


def variant_index(config: PlayConfig) -> int:
    """The entry of :data:`VARIANT_CHOICES` a configuration chose."""
    alone = str(config.options.get("partnership", "")).lower() in ("false", "0", "no")
    for i, (_, variant, opts) in enumerate(VARIANT_CHOICES):
        if variant == config.variant and bool(opts) == (alone and variant == "bezique4"):
            return i
    return 0


class MarkedRadio(RadioButton):
    """A radio button whose mark is a filled or an empty circle, so that the chosen one shows
    without colour (``NO_COLOR``, a monochrome terminal)."""

    @property
    def _button(self) -> Content:
        self.BUTTON_INNER = "●" if self.value else "○"
        return super()._button


class StartScreen(Screen[None]):
    """Choose the computer's level, the variant and the target; or resume the saved game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.quit", "Quit"),
        Binding("f1", "app.rules", "Rules"),
    ]

    def __init__(self, config: PlayConfig, can_resume: bool) -> None:
        super().__init__()
        self.config = config
        self.can_resume = can_resume

    def compose(self) -> ComposeResult:
        """The form."""
        c = self.config
        yield Static(Text.assemble(("♠ ", ""), ("♥", "red"), (" Bezique ", "bold"), ("♦", "red"),
                                   (" ♣", ""), "  against the computer"), id="start-title")
        with Horizontal(id="start-form"):
            with Vertical(id="start-left"):
                with RadioSet(id="level") as rs:
                    rs.border_title = "Level"
                    for lv in sorted(LEVELS):
                        spec = level_spec(lv)
                        want = LEVELS[lv].split(":")[0]
                        agent = spec.split(":")[0]
                        note = agent if agent == want else f"{agent} for now"
                        yield MarkedRadio(f"{lv} {LEVEL_NAMES[lv]} ({note})", value=lv == c.level)
                yield Label("Your name")
                yield Input(c.name, placeholder="You", id="name", max_length=24)
            with Vertical(id="start-right"):
                yield Label("Variant", id="variant-label")
                yield Select([(label, i) for i, (label, _, _) in enumerate(VARIANT_CHOICES)],
                             value=variant_index(c), allow_blank=False, id="variant")
                yield Label("Target (points to win)")
                yield Input(str(c.target or ""), placeholder=target_hint(c.variant),
                            id="target", restrict=r"[0-9]*")
                yield Label("Other options (name=value ...)")
                yield Input(" ".join(f"{k}={v}" for k, v in c.options.items()
                                     if k not in VARIANT_OPTIONS),
                            placeholder="e.g. last_trick=stock", id="options")
        with Horizontal(id="start-buttons"):
            yield Button("Start", id="start", variant="primary")
            if self.can_resume:
                yield Button("Resume saved game", id="resume")
            yield Button("Rules", id="rules")
            yield Button("Statistics", id="stats")
            yield Button("Quit", id="quit")
        yield Static("", id="start-status")
        yield Static("Enter: play · Tab: the next field, where ↑/↓ and Enter choose",
                     id="start-help")

    def on_mount(self) -> None:
        """Enter starts at once."""
        self._fit_target(self.config.variant)
        self.query_one("#start", Button).focus()

    def _config(self) -> PlayConfig:
        level = self.query_one("#level", RadioSet).pressed_index + 1
        chosen = self.query_one("#variant", Select).value
        _, variant, implied = VARIANT_CHOICES[chosen if isinstance(chosen, int) else 0]
        target_text = self.query_one("#target", Input).value.strip()
        opts: dict[str, Any] = dict(implied)
        for item in self.query_one("#options", Input).value.split():
            name, sep, value = item.partition("=")
            if not sep:
                raise BeziqueError(f"option {item!r} must be written name=value")
            if name in VARIANT_OPTIONS:
                raise BeziqueError(f"{name} is chosen in the Variant field (4-handed, partners "
                                   "or each alone)")
            opts[name] = value
        cfg = PlayConfig(level=max(1, level), variant=variant,
                         target=int(target_text) if target_text else None,
                         options=opts, seed=self.config.seed,
                         name=self.query_one("#name", Input).value.strip())
        cfg.rules()  # check the options now, with a message on this screen
        return cfg

    @on(Select.Changed, "#variant")
    def _variant_changed(self, event: Select.Changed) -> None:
        """The target's hint follows the variant (2000 at a table of three or four)."""
        if isinstance(event.value, int):
            self._fit_target(VARIANT_CHOICES[event.value][1])

    def _fit_target(self, variant: str) -> None:
        """A one-deal game has no target: its field is emptied and closed (a target left from
        the last game refused Rubicon with "option 'target' does not apply")."""
        field = self.query_one("#target", Input)
        field.placeholder = target_hint(variant)
        field.disabled = Rules.preset(variant).settlement == "portland"
        if field.disabled:
            field.value = ""

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self._start()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        app = self.app
        assert isinstance(app, GameHost)
        if event.button.id == "start":
            self._start()
        elif event.button.id == "resume":
            app.resume_game()
        elif event.button.id == "rules":
            app.action_rules()
        elif event.button.id == "stats":
            app.push_screen(StatsScreen())
        else:
            app.exit()

    def _start(self) -> None:
        app = self.app
        assert isinstance(app, GameHost)
        try:
            cfg = self._config()
        except (BeziqueError, ValueError) as e:
            self.query_one("#start-status", Static).update(Text(f"✗ {e}", "bold red"))
            return
        app.start_game(cfg)
