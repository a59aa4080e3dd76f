"""The game screen: its panels, the flow of play (the computer's moves in a thread, the person's
actions, the summary after each deal) and the keys and clicks that choose and play a card, take a
declaration, ask for a hint or undo.  What each panel shows is drawn by :mod:`bezique.tui.table`.
"""

from __future__ import annotations

import random
import time
from typing import ClassVar

from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import RichLog, Static

from ..agents.explain import explain
from ..cards import card_symbol, make_card
from ..errors import BeziqueError, IllegalActionError
from ..observation import Observation
from ..position import CUT_GUESSED
from .choices import ChoiceList
from .host import GameHost
from .modals import SummaryScreen
from .session import PlayConfig, Session
from .table import (
    choice_entries,
    declare_title,
    hand_slots,
    melds_text,
    opponent_panel,
    prompt,
    score_panel,
    table_text,
    title_bar,
    token_text,
)
from .table_seats import declare_title_n, opponents_panel, score_panel_n, table_text_n
from .widgets import KEY_LABELS, KEY_NAMES, HandView, KeysFooter

# the rows of the hand's panel, and when lent to the declarations ("#mine" in the stylesheet of
# bezique.tui.app)
FULL_MINE, COMPACT_MINE = 7, 4


class GameScreen(Screen[None]):
    """The table: the computer's side, the trick, your cards, the scores and the log."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Choose", key_display="←→"),
        Binding("right", "move(1)", "", show=False),
        Binding("enter", "confirm", "Play"),
        Binding("space", "confirm", "", show=False),
        *[Binding(KEY_NAMES.get(key, key), f"number({i})", "", show=False)
          for i, key in enumerate(KEY_LABELS)],
        Binding("d", "draw", "Draw"),
        Binding("c", "carte", "Carte blanche"),
        Binding("o", "offer", "Offer"),
        Binding("h", "hint", "Hint"),
        Binding("e", "explain", "Explain"),
        Binding("u", "undo", "Undo"),
        Binding("r,f1,question_mark", "app.rules", "Rules"),
        Binding("s", "app.stats", "Stats", show=False),  # (80 columns: the rules screen lists it)
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, session: Session, delay: float, note: str = "",
                 auto_draw: bool = True) -> None:
        super().__init__()
        self.note = note
        self.auto_draw = auto_draw  # draw at once after a trick won with nothing to declare
        self.session = session
        self.delay = delay
        self.explaining = False  # hints also say why (key e)
        self.gen = 0  # bumped by undo and new deals: late answers from threads are dropped
        self.busy = False
        self.hand_actions: list[str] = []
        self.option_actions: list[str] = []
        self._mode = ""
        self._legal: tuple[str, ...] = ()
        self._summary_open = False
        self._shown: dict[str, Text | Group] = {}  # what each panel shows (see _show)
        self.seats = session.seats
        self._opp_lines = 3  # the lines of the computer's panel (two-handed)
        # lines of the log panel only (a hint's reasons), each after so many session log lines
        self._asides: list[tuple[int, Text]] = []

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer "draw" only when you may declare (it hides from the footer otherwise), carte
        blanche and the offer to the partner only when they are legal."""
        if action == "draw":  # (not while guessing the cut: there is no drawing then)
            return self._mode == "declare" and "pass" in self._legal
        if action in ("carte", "offer"):
            return action in self._legal
        return True

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """The panels."""
        yield Static(id="top")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="opp")
                with Vertical(id="center"):
                    yield Static(id="table")
                    yield ChoiceList(id="choices")
                with Vertical(id="mine"):
                    yield Static(id="mymelds")
                    yield HandView(id="hand")
            with Vertical(id="right"):
                yield Static(id="score")
                yield RichLog(id="log", wrap=True, min_width=10, markup=False)
        yield Static(id="status")
        yield KeysFooter()

    def on_mount(self) -> None:
        """Draw and let the computer start if it leads."""
        self.query_one("#opp").border_title = "Computer"
        self.query_one("#mine").border_title = "You"
        self.query_one("#score").border_title = "Score"
        if self.seats > 2:  # a line for each other seat's hand, and one for its shown cards
            partners = self.session.state.partner(0) >= 0
            self.query_one("#opp").border_title = f"Computers, {self.session.strength()}"
            self.query_one("#opp").styles.height = 2 + 2 * (self.seats - 1)
            # (a line more for "Stock: empty · follow suit", two lines in 80 columns: it pushed
            # whose turn it is out of the panel)
            self.query_one("#score").styles.height = 7 + self.seats + 2 * partners
            self.query_one("#mine").border_title = "You (South)"
        self.query_one("#log").border_title = "Log"
        self._rewrite_log()
        if not self.session.log:
            self._write_log(f"Deal {self.session.deal_number()}: "
                            f"{'you deal' if self.session.state.dealer == 0 else 'Computer deals'}")
        self.refresh_view()
        if self.note:
            self.status(self.note)
        # a game resumed at a deal's end: its summary opens once the log is laid out (what a
        # summary covers is not redrawn, and the log beside it stayed in mid-deal)
        if self.session.deal_over():
            self.call_after_refresh(self.proceed)
        else:
            self.proceed()

    @property
    def colour(self) -> bool:
        """False under NO_COLOR."""
        return not self.app.no_color

    def _write_log(self, line: str) -> None:
        self.session.log.append(line)
        self._flush_log()

    def _rewrite_log(self) -> None:
        """The log panel afresh from the session's log (after an undo has cut it back, or a
        resize), with the hints' reasons where they were written."""
        log = self.query_one("#log", RichLog)
        log.clear()
        n = len(self.session.log)
        self._asides = [(at, line) for at, line in self._asides if at <= n]
        after: dict[int, list[Text]] = {}  # the asides written after so many lines
        for at, line in self._asides:
            after.setdefault(at, []).append(line)
        for i in range(max(0, n - 50), n + 1):
            for line in after.get(i, ()):
                log.write(line)
            if i < n:
                log.write(self.session.log[i])
        self._logged = n

    def _write_aside(self, line: Text) -> None:
        """A line of the log panel that is not the game's account (a hint's reasons)."""
        self._flush_log()
        self._asides.append((len(self.session.log), line))
        self.query_one("#log", RichLog).write(line)

    def _flush_log(self) -> None:
        log = self.query_one("#log", RichLog)
        lines = self.session.log[self._logged :]
        for line in lines:
            log.write(line)
        self._logged = len(self.session.log)
        if lines:  # at once: the summary of a deal, opened next, shows the log's end beside it
            log.scroll_end(animate=False, immediate=True)

    def status(self, message: str, error: bool = False) -> None:
        """One line under the table: a refusal (in red) or a hint."""
        style = "bold red" if error else "bold"
        if not self.colour:
            style = "bold"
        prefix = "✗ " if error else ""
        self._show(self.query_one("#status", Static), Text(prefix + message, style))

    def _show(self, panel: Static, content: Text | Group) -> None:
        """Put new content in a panel of fixed height (a line of text that it shows already is
        not redrawn, and no panel's height follows its content: no new layout of the screen)."""
        if isinstance(content, Text) and self._shown.get(panel.id or "") == content:
            return
        self._shown[panel.id or ""] = content
        panel.update(content, layout=False)

    # ------------------------------------------------------------------ drawing

    def refresh_view(self) -> None:
        """Redraw every panel from the person's observation."""
        s = self.session
        obs = s.observation()
        top = self.query_one("#top", Static)
        self._show(top, title_bar(s, self._width(top)))
        opp = self.query_one("#opp", Static)
        self._legal = obs.legal
        if self.seats > 2:
            self._show(opp, opponents_panel(obs, s.deal_over(), self.colour, self._width(opp),
                                            s.state.duel_seats()))
            self._show(self.query_one("#score", Static),
                       score_panel_n(obs, s.state.is_terminal(), self.colour))
        else:
            panel = opponent_panel(obs, s.deal_over(), self.colour, self._width(opp))
            self._show(opp, panel)
            # many shown cards (Six-pack, Eight-pack) take two lines: the panel grows, so that
            # its melds line is not cut off
            width = self._width(opp)
            lines = len(panel.wrap(self.app.console, width)) if width else 3
            if self._opp_lines != max(3, lines):
                self._opp_lines = max(3, lines)
                opp.styles.height = 2 + self._opp_lines
            self._show(self.query_one("#score", Static),
                       score_panel(obs, s.state.is_terminal(), self.colour))
        self._draw_mine(obs)
        self._draw_center(obs)
        self.refresh_bindings()  # (once the mode is set: the footer is redrawn if a key changed)
        self._flush_log()

    def _draw_mine(self, obs: Observation) -> None:
        mine = self.query_one("#mymelds", Static)
        self._show(mine, melds_text(obs, 0, self._width(mine)))
        slots, self.hand_actions = hand_slots(obs)
        declaring = obs.my_turn and obs.phase in ("declare", "guess")
        self.query_one("#hand", HandView).set_cards(slots, self.colour, active=not declaring)
        # what the boxes with double borders are, while there are some
        legend = "╔═╗ = on the table" if obs.shown[obs.seat] else ""
        panel = self.query_one("#mine")
        if panel.border_subtitle != legend:
            panel.border_subtitle = legend

    @staticmethod
    def _title_room(widget: Widget) -> int | None:
        """The columns a panel's border title has (its corners and the spaces beside the
        title take six); None before the first layout."""
        return widget.size.width - 6 if widget.size.width > 6 else None

    @staticmethod
    def _width(widget: Static) -> int | None:
        """The columns a panel's lines have (None before the first layout)."""
        return widget.content_size.width or None

    def on_resize(self) -> None:
        """Fit the meld lines and the log (wrapped when written) to the new width."""
        self.call_after_refresh(self.refresh_view)
        self.call_after_refresh(self._rewrite_log)

    def _draw_center(self, obs: Observation) -> None:
        s = self.session
        table = self.query_one("#table", Static)
        choices = self.query_one("#choices", ChoiceList)
        center = self.query_one("#center")
        declaring = obs.my_turn and obs.phase in ("declare", "guess")
        if declaring:
            table.display = False
            choices.display = True
            center.border_title = declare_title(obs) if self.seats == 2 else \
                declare_title_n(obs, self._title_room(center))
            if obs.phase == "guess":
                center.border_title = f"Guess the dealer's cut (right: +{CUT_GUESSED})"
            self._fill_choices(obs)
            self._fit_choices()
            if self._mode != "declare":
                self._mode = "declare"  # (first: the focus asks the footer for its keys at once)
                choices.focus()
            return
        table.display = True
        choices.display = False
        self._set_compact(False)
        self._mode = "play"
        self.query_one("#hand", HandView).focus()
        center.border_title = f"Table · trick {obs.tricks_played + 1}" if not s.deal_over() \
            else "Table"
        if self.seats > 2:
            self._show(table, table_text_n(obs, prompt(obs, s.deal_over(),
                                                       len(self.hand_actions)), self.colour))
        else:
            self._show(table, table_text(obs, s.deal_over(), len(self.hand_actions),
                                         self.colour))

    def _fill_choices(self, obs: Observation) -> None:
        entries = choice_entries(obs, self.session.state)
        actions = [e[2] for e in entries]
        if actions == self.option_actions:
            return
        self.option_actions = actions
        short = choice_entries(obs, self.session.state, short=True)
        self.query_one("#choices", ChoiceList).set_choices(
            [(label, brief) for (_, label, _), (_, brief, _) in zip(entries, short, strict=True)])

    def _fit_choices(self) -> None:
        """Fit the declarations on offer in the centre panel: in one column, else in two (full
        labels), else with the rows of the hand's panel (its cards on one line), else in two
        columns of short labels ("4A" for "four aces"), with those rows if they need them."""
        center, mine = self.query_one("#center"), self.query_one("#mine")
        if not center.content_size.height or not mine.size.height:
            return  # (before the first layout: on_resize comes back here)
        # the centre's rows with the hand's panel at its full height, and with it lent
        rows = center.content_size.height - (FULL_MINE - mine.outer_size.height)
        more = rows + FULL_MINE - COMPACT_MINE
        width = center.content_size.width
        ch = self.query_one("#choices", ChoiceList)
        ch.tight = ch.rows_needed(width, more) > more
        self._set_compact(ch.rows_needed(width, rows, ch.tight) > rows)

    def _set_compact(self, compact: bool) -> None:
        mine = self.query_one("#mine")
        if mine.has_class("compact") != compact:
            mine.set_class(compact, "compact")

    # ------------------------------------------------------------------ the flow

    def proceed(self) -> None:
        """After any change: the summary, the computer's move, or wait for the person."""
        s = self.session
        if s.deal_over():
            self.busy = False
            if not self._summary_open:
                self._summary_open = True
                self.app.push_screen(SummaryScreen(s), self._after_summary)
            return
        if s.computer_to_act():
            self._computer()
        elif self.auto_draw and s.forced_draw():
            self.human("pass")

    def _computer(self) -> None:
        if self.busy:
            return
        self.busy = True
        gen = self.gen
        obs, choose = self.session.computer_choice()
        delay = self.delay

        def work() -> None:
            start = time.monotonic()
            try:
                text = choose()
            except Exception as e:  # an agent's bug must not end the person's game
                text = random.choice(obs.legal)
                self.app.call_from_thread(self.status, f"the computer's player failed ({e}); "
                                          "it played at random", True)
            # a short pause, so moves can be seen; none before a draw, which shows nothing
            # new (the last trick and any meld stay in sight through the lead's pause after it)
            left = (0 if text == "pass" else delay) - (time.monotonic() - start)
            if left > 0:
                time.sleep(left)
            self.app.call_from_thread(self._computer_done, gen, text)

        self.run_worker(work, thread=True, group="computer", exit_on_error=False)

    def _computer_done(self, gen: int, text: str) -> None:
        if gen != self.gen:
            return
        self.busy = False
        try:
            self.session.apply_computer(text)
        except BeziqueError as e:
            self.status(f"the computer chose {text!r}, which is refused: {e}", True)
            return
        self.refresh_view()
        self.proceed()

    def _same_config(self) -> PlayConfig:
        """The choices this game was started with (a new shuffle)."""
        s = self.session
        options = dict(s.rules.options())
        target = options.pop("target", None)
        return PlayConfig(level=s.level, variant=s.rules.variant,
                          target=target if isinstance(target, int) else None, options=options,
                          opponent=s.opponent, name="" if s.name == "You" else s.name)

    def _after_summary(self, choice: str | None) -> None:
        self._summary_open = False
        app = self.app
        assert isinstance(app, GameHost)
        if choice == "quit":
            app.exit()
        elif choice == "new":  # the start screen, showing the choices of this game
            app.new_game_screen(self._same_config())
        elif choice == "again":
            app.start_game(self._same_config())
        elif choice == "undo":
            self.action_undo()
        else:
            self.session.next_deal()
            self.gen += 1
            self.option_actions = []
            self.status("")
            self.refresh_view()
            self.proceed()

    def human(self, text: str) -> None:
        """The person's action: applied, or refused with the reason on the status line."""
        if self.session.deal_over():
            return
        if not self.session.human_to_act():
            self.status("wait: the computer is playing", True)
            return
        try:
            self.session.play(text)
        except IllegalActionError as e:
            self.status(str(e), True)
            return
        self.status("")
        self.refresh_view()
        self.proceed()

    # ------------------------------------------------------------------ keys and clicks

    def action_move(self, delta: int) -> None:
        """Select the card to the left or right."""
        self.query_one("#hand", HandView).move(delta)

    def action_number(self, i: int) -> None:
        """Select card (or option) ``i`` from 0, the one under key ``KEY_LABELS[i]``."""
        if self._mode == "declare":
            ch = self.query_one("#choices", ChoiceList)
            if i < len(self.option_actions):
                ch.highlighted = i
            return
        hand = self.query_one("#hand", HandView)
        if i < len(hand.slots):
            hand.selected = i

    def action_confirm(self) -> None:
        """Play the selected card, or take the highlighted option."""
        if self._mode == "declare":
            ch = self.query_one("#choices", ChoiceList)
            if ch.highlighted is not None and ch.highlighted < len(self.option_actions):
                self.human(self.option_actions[ch.highlighted])
            return
        hand = self.query_one("#hand", HandView)
        if self.hand_actions:
            self.human(self.hand_actions[hand.selected])

    def action_draw(self) -> None:
        """Pass: declare nothing (more) and draw."""
        if self._mode == "declare" and "pass" in self._legal:
            self.human("pass")

    def action_carte(self) -> None:
        """Declare carte blanche (a hand without a court card) when the rules allow it."""
        if "carte" in self.session.observation().legal:
            self.human("carte")
        else:
            self.status("carte blanche is not on offer now", True)

    def action_offer(self) -> None:
        """Let the partner declare instead (four-handed partnership)."""
        if "offer" in self.session.observation().legal:
            self.human("offer")
        else:
            self.status("you cannot offer the declaration to your partner now", True)

    @on(ChoiceList.Chosen)
    def _option(self, event: ChoiceList.Chosen) -> None:
        if event.index < len(self.option_actions):
            self.human(self.option_actions[event.index])

    @on(HandView.Chosen)
    def _card_clicked(self, event: HandView.Chosen) -> None:
        hand = self.query_one("#hand", HandView)
        if hand.selected == event.index:
            self.human(self.hand_actions[event.index])
        else:
            hand.selected = event.index

    def action_hint(self) -> None:
        """Say what the computer would play in your place, and select it."""
        s = self.session
        if not s.human_to_act():
            self.status("a hint is for your turn", True)
            return
        obs, choose = s.hint()
        gen = self.gen
        self.status("thinking about a hint…")

        explaining = self.explaining

        def work() -> None:
            try:
                text = choose()
                why = explain(obs, text) if explaining else []
            except Exception as e:
                self.app.call_from_thread(self.status, f"no hint: {e}", True)
                return
            self.app.call_from_thread(self._hint_done, gen, obs, text, why)

        self.run_worker(work, thread=True, group="hint", exit_on_error=False)

    def action_explain(self) -> None:
        """Turn the explain mode of the hints on or off."""
        self.explaining = not self.explaining
        self.status("Explain mode on: a hint also says why, in the log" if self.explaining
                    else "Explain mode off")

    def _hint_done(self, gen: int, obs: Observation, text: str, why: list[str]) -> None:
        if gen != self.gen or self.session.observation().actions != obs.actions:
            return
        if why:
            self._write_aside(Text("Why: " + "; ".join(why), "italic"))
        words = text.split()
        if words[0] == "play":
            shown = "*" in words[1]
            pretty = token_text(words[1])
            self.status(f"Hint: play {pretty}" + (" (from the table)" if shown else ""))
            if text in self.hand_actions:
                self.query_one("#hand", HandView).selected = self.hand_actions.index(text)
        else:
            seven = card_symbol(make_card(obs.rules.seven_rank, obs.trump)) \
                if words[0] in ("exchange", "seven") else ""  # (Binocle: the nine)
            label = {"pass": "draw (pass)", "exchange": f"exchange {seven} for the turn-up",
                     "seven": f"declare {seven}", "carte": "carte blanche (key c)",
                     "offer": "let your partner declare (key o)",
                     # the cut (Six-, Eight-pack): a number, not a card (the hint hung)
                     "guess": f"guess a cut of {words[-1]} cards"}.get(words[0])
            if label is None:  # a declaration, named as the list of choices names it
                entries = {a: lab for _, lab, a in choice_entries(obs, self.session.state)}
                label = "declare " + (entries[text] if text in entries else
                                      " ".join(token_text(t) for t in words[1:]))
            self.status(f"Hint: {label}")
            if text in self.option_actions:
                self.query_one("#choices", ChoiceList).highlighted = \
                    self.option_actions.index(text)

    def action_undo(self) -> None:
        """Take back your last move and the computer's replies."""
        try:
            self.session.undo()
        except IllegalActionError as e:
            self.status(str(e), True)
            return
        self.gen += 1
        self.busy = False
        self.option_actions = []
        self._rewrite_log()
        self.status("Your last move is taken back.")
        self.refresh_view()
        self.proceed()

    def action_quit_game(self) -> None:
        """Leave; the game is saved."""
        self.app.exit()
