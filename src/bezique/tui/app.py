"""``bezique play``: a full-screen game against the computer (Textual).

Screens: a start screen (level, variant, options), the game, the rules, and a summary after
each deal.  The game logic lives in :class:`~bezique.tui.session.Session`; this module only
draws it and turns keys and clicks into actions.
"""

from __future__ import annotations

import random
import time
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Footer,
    Input,
    Label,
    Markdown,
    OptionList,
    RadioButton,
    RadioSet,
    RichLog,
    Static,
)
from textual.widgets.option_list import Option

from ..agents.levels import LEVELS, level_spec
from ..cards import SUIT_SYMBOLS, card_symbol, make_card, parse_card
from ..errors import BeziqueError, IllegalActionError
from ..observation import Observation
from .session import LEVEL_NAMES, NAMES, PlayConfig, Session, deal_summary
from .widgets import CardSlot, HandView, card_row, chip, chips


def rules_text() -> str:
    """The rules summary shown on the rules screen (``rules.md`` in this package)."""
    return resources.files("bezique.tui").joinpath("rules.md").read_text(encoding="utf-8")


def _token_text(token: str) -> str:
    """``QS*`` -> ``Q♠*``: a card token of an action for people."""
    star = token.find("*")
    base, tail = (token, "") if star < 0 else (token[:star], token[star:])
    return card_symbol(parse_card(base)) + tail


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


class SummaryScreen(ModalScreen[str]):
    """The account of a finished deal, and the result when the game is over."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "go", "Continue"),
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
            box.border_title = f"Deal {s.deal_number()} is over"
            yield Static(table, id="summary-table")
            if s.game_over():
                w = s.game.winner
                a, b = st.game_scores
                if w == 0:
                    msg = f"You win the game, {a} to {b}!"
                else:
                    msg = f"The computer wins the game, {b} to {a}."
                yield Label(msg, id="result")
                yield Label("n new game · q quit", id="summary-keys")
            else:
                yield Label(f"First to {s.rules.target} wins.", id="result")
                yield Label("Enter: next deal · u: take back your last card · q: quit (saved)",
                            id="summary-keys")

    def action_go(self) -> None:
        """Next deal (or, after the game, a new one)."""
        self.dismiss("new" if self.session.game_over() else "next")

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
            with RadioSet(id="level") as rs:
                rs.border_title = "Level"
                for lv in sorted(LEVELS):
                    spec = level_spec(lv)
                    want = LEVELS[lv].split(":")[0]
                    agent = spec.split(":")[0]
                    note = agent if agent == want else f"{agent} for now"
                    yield RadioButton(f"{lv} {LEVEL_NAMES[lv]} ({note})", value=lv == c.level)
            with Vertical(id="start-right"):
                with RadioSet(id="variant") as vs:
                    vs.border_title = "Variant"
                    yield RadioButton("Bezique (64 cards)", value=c.variant == "bezique")
                    yield RadioButton("Binocle (48 cards)", value=c.variant == "binocle")
                yield Label("Target (points to win)")
                yield Input(str(c.target or ""), placeholder="1000", id="target",
                            restrict=r"[0-9]*")
                yield Label("Other options (name=value ...)")
                yield Input(" ".join(f"{k}={v}" for k, v in c.options.items()),
                            placeholder="e.g. last_trick=stock", id="options")
        with Horizontal(id="start-buttons"):
            yield Button("Start", id="start", variant="primary")
            if self.can_resume:
                yield Button("Resume saved game", id="resume")
            yield Button("Rules", id="rules")
            yield Button("Quit", id="quit")
        yield Static("", id="start-status")
        yield Static("Tab: next field · ↑/↓ and Enter: choose · Enter on Start: play",
                     id="start-help")

    def on_mount(self) -> None:
        """Enter starts at once."""
        self.query_one("#start", Button).focus()

    def _config(self) -> PlayConfig:
        level = self.query_one("#level", RadioSet).pressed_index + 1
        variant = ("bezique", "binocle")[max(0, self.query_one("#variant", RadioSet)
                                             .pressed_index)]
        target_text = self.query_one("#target", Input).value.strip()
        opts: dict[str, Any] = {}
        for item in self.query_one("#options", Input).value.split():
            name, sep, value = item.partition("=")
            if not sep:
                raise BeziqueError(f"option {item!r} must be written name=value")
            opts[name] = value
        cfg = PlayConfig(level=max(1, level), variant=variant,
                         target=int(target_text) if target_text else None,
                         options=opts, seed=self.config.seed)
        cfg.rules()  # check the options now, with a message on this screen
        return cfg

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self._start()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        app = self.app
        assert isinstance(app, BeziqueApp)
        if event.button.id == "start":
            self._start()
        elif event.button.id == "resume":
            app.resume_game()
        elif event.button.id == "rules":
            app.action_rules()
        else:
            app.exit()

    def _start(self) -> None:
        app = self.app
        assert isinstance(app, BeziqueApp)
        try:
            cfg = self._config()
        except (BeziqueError, ValueError) as e:
            self.query_one("#start-status", Static).update(Text(f"✗ {e}", "bold red"))
            return
        app.start_game(cfg)


class ChoiceList(OptionList):
    """The declarations on offer after a trick won (Enter or a click takes one)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Choose", key_display="⏎"),
    ]


class GameScreen(Screen[None]):
    """The table: the computer's side, the trick, your cards, the scores and the log."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Choose", key_display="←→"),
        Binding("right", "move(1)", "", show=False),
        Binding("enter", "confirm", "Play"),
        Binding("space", "confirm", "", show=False),
        *[Binding(str(k), f"number({k})", "", show=False) for k in range(10)],
        Binding("d", "draw", "Draw"),
        Binding("h", "hint", "Hint"),
        Binding("u", "undo", "Undo"),
        Binding("r,f1,question_mark", "app.rules", "Rules"),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, session: Session, delay: float) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.gen = 0  # bumped by undo and new deals: late answers from threads are dropped
        self.busy = False
        self.hand_actions: list[str] = []
        self.option_actions: list[str] = []
        self._mode = ""
        self._summary_open = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer "draw" only when you may declare (it hides from the footer otherwise)."""
        if action == "draw":
            return self._mode == "declare"
        return True

    def _set_mode(self, mode: str) -> None:
        if mode != self._mode:
            self._mode = mode
            self.refresh_bindings()

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
        yield Footer()

    def on_mount(self) -> None:
        """Draw and let the computer start if it leads."""
        self.query_one("#opp").border_title = "Computer"
        self.query_one("#mine").border_title = "You"
        self.query_one("#score").border_title = "Score"
        self.query_one("#log").border_title = "Log"
        log = self.query_one("#log", RichLog)
        for line in self.session.log[-50:]:
            log.write(line)
        self._logged = len(self.session.log)
        if not self.session.log:
            self._write_log(f"Deal {self.session.deal_number()}: "
                            f"{'you deal' if self.session.state.dealer == 0 else 'Computer deals'}")
        self.refresh_view()
        self.proceed()

    @property
    def colour(self) -> bool:
        """False under NO_COLOR."""
        return not self.app.no_color

    def _write_log(self, line: str) -> None:
        self.session.log.append(line)
        self._flush_log()

    def _flush_log(self) -> None:
        log = self.query_one("#log", RichLog)
        for line in self.session.log[self._logged :]:
            log.write(line)
        self._logged = len(self.session.log)

    def status(self, message: str, error: bool = False) -> None:
        """One line under the table: a refusal (in red) or a hint."""
        style = "bold red" if error else "bold"
        if not self.colour:
            style = "bold"
        prefix = "✗ " if error else ""
        self.query_one("#status", Static).update(Text(prefix + message, style))

    # ------------------------------------------------------------------ drawing

    def refresh_view(self) -> None:
        """Redraw every panel from the person's observation."""
        s = self.session
        obs = s.observation()
        rules = s.rules
        self.query_one("#top", Static).update(Text.assemble(
            (" Bezique " if rules.variant == "bezique" else " Binocle ", "bold reverse"),
            f"  Deal {s.deal_number()} · first to {rules.target} · level {s.level} "
            f"{LEVEL_NAMES[s.level]} ({s.agent_spec.split(':')[0]})",
        ))
        self._draw_opponent(obs)
        self._draw_score(obs)
        self._draw_mine(obs)
        self._draw_center(obs)
        self._flush_log()

    def _melds_text(self, obs: Observation, seat: int) -> Text:
        t = Text("Melds: ", "bold")
        if not obs.melds[seat]:
            t.append("none yet", "dim")
        for i, m in enumerate(obs.melds[seat]):
            if i:
                t.append(", ")
            t.append(f"{m.name} {m.points}", "" if m.intact else "dim strike")
        return t

    def _draw_opponent(self, obs: Observation) -> None:
        concealed = obs.opponent_hand_size - len(obs.shown[1])
        won = sum(1 for t in obs.tricks if t.winner == 1)
        line1 = Text.assemble((f"{concealed} cards in hand", "bold"),
                              f" · {won} trick{'' if won == 1 else 's'} won")
        if obs.turn == 1 and not self.session.deal_over():
            line1.append("  ▶ thinking…", "bold yellow" if self.colour else "bold")
        line2 = Text("Shown: ", "bold")
        line2.append_text(chips(list(obs.shown[1]), self.colour, "nothing"))
        known = [c for c in obs.opponent_known]
        if known:
            line2.append("  Known: ", "bold")
            line2.append_text(chips(known, self.colour))
        self.query_one("#opp", Static).update(
            Text("\n").join([line1, line2, self._melds_text(obs, 1)]))

    def _draw_score(self, obs: Observation) -> None:
        st = self.session.state
        t = Table(box=None, padding=(0, 0), expand=True, show_edge=False)
        t.add_column("", no_wrap=True)
        t.add_column("Deal", justify="right")
        t.add_column("Game", justify="right")
        for seat in (0, 1):
            name = NAMES[seat]
            mark = "▶" if obs.turn == seat and not st.is_terminal() else " "
            t.add_row(f"{mark}{name}", str(obs.scores[seat]), str(obs.totals[seat]
                                                                  + obs.scores[seat]))
        trump = make_card(0, obs.trump)
        info = Text.assemble("Trumps ", (SUIT_SYMBOLS[obs.trump],
                                          "bold red" if self.colour and obs.trump in (1, 2)
                                          else "bold"))
        if obs.turnup is not None:
            info.append("  Turn-up ")
            info.append_text(chip(obs.turnup, self.colour))
        del trump
        stock = Text(f"Stock: {obs.stock} cards" if not obs.end_phase else "Stock: empty")
        if obs.end_phase:
            stock.append(" · follow suit", "dim")
        whose = Text(self._whose(obs), "bold yellow" if self.colour else "bold")
        self.query_one("#score", Static).update(
            _group(t, info, stock, whose))

    def _whose(self, obs: Observation) -> str:
        st = self.session.state
        if st.is_terminal():
            return "Deal over"
        if obs.turn == 0:
            return {"lead": "Your lead", "follow": "Your turn to follow",
                    "declare": "You may declare"}.get(obs.phase, "Your turn")
        return "Computer to play"

    def _draw_mine(self, obs: Observation) -> None:
        self.query_one("#mymelds", Static).update(self._melds_text(obs, 0))
        legal = set(obs.legal) if obs.my_turn and obs.phase in ("lead", "follow") else None
        slots: list[CardSlot] = []
        actions: list[str] = []
        for c in obs.hand:
            a = "play " + _name(c)
            slots.append(CardSlot(c, False, legal is None or a in legal))
            actions.append(a)
        seen: dict[int, int] = {}
        for c in obs.shown[0]:
            seen[c] = seen.get(c, 0) + 1
            a = f"play {_name(c)}*"
            numbered = f"play {_name(c)}*{seen[c]}"
            if legal is not None and a not in legal and numbered in legal:
                a = numbered
            slots.append(CardSlot(c, True, legal is None or a in legal))
            actions.append(a)
        self.hand_actions = actions
        declaring = obs.my_turn and obs.phase == "declare"
        self.query_one("#hand", HandView).set_cards(slots, self.colour, active=not declaring)

    def _draw_center(self, obs: Observation) -> None:
        s = self.session
        table = self.query_one("#table", Static)
        choices = self.query_one("#choices", OptionList)
        center = self.query_one("#center")
        declaring = obs.my_turn and obs.phase == "declare"
        if declaring:
            table.display = False
            choices.display = True
            last = obs.tricks[-1] if obs.tricks else None
            center.border_title = ("You won the trick" + (
                f" ({card_symbol(last.lead)} {card_symbol(last.follow)})" if last else "")
                + ": declare, or draw")
            self._fill_choices(obs)
            if self._mode != "declare":
                choices.focus()
            self._set_mode("declare")
            return
        table.display = True
        choices.display = False
        self._set_mode("play")
        self.query_one("#hand", HandView).focus()
        center.border_title = f"Table · trick {obs.tricks_played + 1}" if not s.deal_over() \
            else "Table"
        lines: list[Text] = []
        if obs.trick:
            leader = 1 - obs.turn
            row, _ = card_row([CardSlot(obs.trick[0])], 40, labels=False, colour=self.colour)
            lines.append(row)
            lines.append(Text(f"{NAMES[leader]} led {card_symbol(obs.trick[0])}", "bold"))
        elif obs.tricks:
            t = obs.tricks[-1]
            row, _ = card_row([CardSlot(t.lead), CardSlot(t.follow)], 40, labels=False,
                              colour=self.colour)
            lines.append(row)
            who = "you won" if t.winner == 0 else "Computer won"
            lines.append(Text(f"Last trick: {NAMES[t.leader]} led · {who}", "dim"))
        else:
            lines.append(Text("\n(no card played yet)\n", "dim"))
        lines.append(Text(self._prompt(obs), "bold yellow" if self.colour else "bold"))
        table.update(Text("\n").join(lines))

    def _prompt(self, obs: Observation) -> str:
        s = self.session
        if s.deal_over():
            return "The deal is over."
        if not obs.my_turn:
            return "The computer is playing…"
        n = min(len(self.hand_actions), 10)
        keys = f"←/→ or 1-{n % 10}" if n > 1 else "←/→"
        if obs.phase == "lead":
            return f"Your lead: {keys}, Enter to play"
        return f"Your turn to follow: {keys}, Enter"

    def _fill_choices(self, obs: Observation) -> None:
        st = self.session.state
        entries: list[tuple[int, str, str]] = []  # (order, label, action)
        trump7 = card_symbol(make_card(st.rules.seven_rank, obs.trump))
        for a in obs.legal:
            if a.startswith("meld "):
                toks = a.split()[1:]
                mask = st.string_to_action(a) >> 9
                kind = st.rules.melds[st.classify(mask)]
                cards = " ".join(_token_text(t) for t in toks)
                entries.append((-kind.points, f"{kind.name} {cards}  +{kind.points}", a))
            elif a == "exchange":
                tu = card_symbol(obs.turnup) if obs.turnup is not None else "?"
                entries.append((1, f"exchange {trump7} for the turn-up {tu}  +10", a))
            elif a == "seven":
                entries.append((1, f"declare {trump7}  +10", a))
            elif a == "pass":
                entries.append((2, "draw (pass)", a))
        entries.sort(key=lambda e: e[0])
        actions = [e[2] for e in entries]
        if actions == self.option_actions:
            return
        self.option_actions = actions
        choices = self.query_one("#choices", OptionList)
        choices.clear_options()
        choices.add_options([Option(f"{i + 1 if i < 9 else ' '} {label}")
                             for i, (_, label, _) in enumerate(entries)])
        choices.highlighted = 0

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
            left = delay - (time.monotonic() - start)  # a short pause, so moves can be seen
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

    def _after_summary(self, choice: str | None) -> None:
        self._summary_open = False
        app = self.app
        assert isinstance(app, BeziqueApp)
        if choice == "quit":
            app.exit()
        elif choice == "new":
            app.new_game_screen()
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

    def action_number(self, k: int) -> None:
        """Select card (or option) number ``k`` (0 is the tenth)."""
        i = 9 if k == 0 else k - 1
        if self._mode == "declare":
            ch = self.query_one("#choices", OptionList)
            if i < len(self.option_actions):
                ch.highlighted = i
            return
        hand = self.query_one("#hand", HandView)
        if i < len(hand.slots):
            hand.selected = i

    def action_confirm(self) -> None:
        """Play the selected card, or take the highlighted option."""
        if self._mode == "declare":
            ch = self.query_one("#choices", OptionList)
            if ch.highlighted is not None and ch.highlighted < len(self.option_actions):
                self.human(self.option_actions[ch.highlighted])
            return
        hand = self.query_one("#hand", HandView)
        if self.hand_actions:
            self.human(self.hand_actions[hand.selected])

    def action_draw(self) -> None:
        """Pass: declare nothing (more) and draw."""
        if self._mode == "declare":
            self.human("pass")

    @on(OptionList.OptionSelected, "#choices")
    def _option(self, event: OptionList.OptionSelected) -> None:
        if event.option_index < len(self.option_actions):
            self.human(self.option_actions[event.option_index])

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

        def work() -> None:
            try:
                text = choose()
            except Exception as e:
                self.app.call_from_thread(self.status, f"no hint: {e}", True)
                return
            self.app.call_from_thread(self._hint_done, gen, obs, text)

        self.run_worker(work, thread=True, group="hint", exit_on_error=False)

    def _hint_done(self, gen: int, obs: Observation, text: str) -> None:
        if gen != self.gen or self.session.observation().actions != obs.actions:
            return
        words = text.split()
        if words[0] == "play":
            shown = "*" in words[1]
            pretty = _token_text(words[1])
            self.status(f"Hint: play {pretty}" + (" (from the table)" if shown else ""))
            if text in self.hand_actions:
                self.query_one("#hand", HandView).selected = self.hand_actions.index(text)
        else:
            label = {"pass": "draw (pass)", "exchange": "exchange the seven",
                     "seven": "declare the seven"}.get(words[0])
            if label is None:
                label = "declare " + " ".join(_token_text(t) for t in words[1:])
            self.status(f"Hint: {label}")
            if text in self.option_actions:
                self.query_one("#choices", OptionList).highlighted = \
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
        self._flush_log()
        self.status("Your last move is taken back.")
        self.refresh_view()
        self.proceed()

    def action_quit_game(self) -> None:
        """Leave; the game is saved."""
        self.app.exit()


def _name(card: int) -> str:
    from ..cards import card_name

    return card_name(card)


def _group(*items: Any) -> Any:
    from rich.console import Group

    return Group(*items)


CSS = """
Screen { layout: vertical; }
#top { height: 1; background: $primary-background; }
#main { height: 1fr; }
#left { width: 1fr; }
#right { width: 33%; min-width: 28; max-width: 44; }
#opp { height: 5; border: round $secondary; padding: 0 1; }
#center { height: 1fr; border: round $secondary; padding: 0 1; }
#table { height: auto; }
#choices { height: 1fr; border: none; padding: 0; }
#mine { height: 7; border: round $accent; padding: 0 0 0 1; }
#mymelds { height: 1; }
#hand { height: 4; }
#score { height: 9; border: round $secondary; padding: 0 1; }
#log { height: 1fr; border: round $secondary; padding: 0 0 0 1; scrollbar-size-vertical: 1; }
#status { height: 1; padding: 0 1; }
RulesScreen { align: center middle; }
#rules-box { width: 100%; max-width: 90; height: 1fr; border: round $accent; padding: 0 1; }
SummaryScreen { align: center middle; }
#summary-box { width: 76; max-width: 100%; height: auto; max-height: 100%;
               border: thick $accent; padding: 0 1; background: $surface; }
#result { margin-top: 1; text-style: bold; }
#summary-keys { color: $text-muted; }
#start-title { height: 3; content-align: center middle; text-style: bold; }
#start-form { height: auto; }
#level { width: 1fr; height: auto; }
#level, #variant { border: round $secondary; border-title-color: $text; }
#level:focus-within, #variant:focus-within { border: round $accent; }
#start-help { height: 1; padding: 0 1; color: $text-muted; }
#start-right { width: 1fr; height: auto; }
#variant { width: 100%; height: auto; }
#start-right Input { width: 100%; }
#start-right Label { margin-top: 1; }
#start-buttons { height: 3; margin-top: 1; }
#start-buttons Button { margin-right: 1; min-width: 8; }
#start-status { height: 1; padding: 0 1; }
"""


class BeziqueApp(App[None]):
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
    ) -> None:
        super().__init__()
        self.config = config or PlayConfig()
        self.path = path
        self.resume = resume
        self.show_start = show_start
        self.delay = delay
        self.session: Session | None = None

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

    def new_game_screen(self) -> None:
        """The start screen."""
        self._switch(StartScreen(self.config, self._can_resume()))

    def _switch(self, screen: Screen[Any]) -> None:
        # the stack is [default, our screen, modals...]: keep one screen of ours
        while len(self.screen_stack) > 2:
            self.pop_screen()
        if len(self.screen_stack) == 2:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def start_game(self, config: PlayConfig) -> None:
        """A new game (it replaces the saved one)."""
        self.config = config
        self.session = Session.new(config, self.path)
        self._switch(GameScreen(self.session, self.delay))

    def resume_game(self) -> None:
        """Go on with the saved game."""
        assert self.path is not None
        try:
            self.session = Session.resume(self.path)
        except BeziqueError as e:
            self.exit(message=str(e))
            return
        self._switch(GameScreen(self.session, self.delay))

    def action_rules(self) -> None:
        """The rules screen."""
        self.push_screen(RulesScreen())
