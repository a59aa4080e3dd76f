"""``bezique play``: the Textual app driven headless with the pilot, and its session and CLI.

The computer is level 1 (random) with no pause, so a whole deal takes a few seconds.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from textual.pilot import Pilot

from bezique.cards import SUIT_SYMBOLS, card_symbol
from bezique.cli import main
from bezique.errors import IllegalActionError
from bezique.observation import Observation
from bezique.record import load_record, replay
from bezique.tui.app import BeziqueApp
from bezique.tui.choices import ChoiceList
from bezique.tui.game import GameScreen
from bezique.tui.modals import RulesScreen, SummaryScreen
from bezique.tui.session import PlayConfig, Session, save_path
from bezique.tui.start import StartScreen
from bezique.tui.widgets import KEY_LABELS, CardSlot, HandView, card_row


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test saves into its own directory, never the user's."""
    d = tmp_path / "data"
    monkeypatch.setenv("BEZIQUE_DATA_DIR", str(d))
    return d


def make_app(seed: int = 7, **kw: Any) -> BeziqueApp:
    kw.setdefault("show_start", False)
    return BeziqueApp(PlayConfig(level=1, seed=seed), save_path(), delay=0, **kw)


def screen_text(app: BeziqueApp) -> str:
    """What the terminal shows now, as plain text."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def game_screen(app: BeziqueApp) -> GameScreen:
    for s in app.screen_stack:
        if isinstance(s, GameScreen):
            return s
    raise AssertionError("no game screen")


async def settle(pilot: Pilot[Any], app: BeziqueApp) -> None:
    """Wait until the computer has made its moves (the person is to act, or the deal is over)."""
    for _ in range(400):
        await app.workers.wait_for_complete()
        await pilot.pause()
        gs = game_screen(app)
        if not gs.busy:
            return
    raise AssertionError("the computer never finished")


async def play_first_legal(pilot: Pilot[Any], app: BeziqueApp, moves: int) -> GameScreen:
    """Wait for the computer, then play the first legal action ``moves`` times by keys (the
    computer answering each); the game screen."""
    await settle(pilot, app)
    s = app.session
    assert s is not None
    gs = game_screen(app)
    for _ in range(moves):
        await press_for(pilot, gs, first_legal(gs, s.observation()))
        await settle(pilot, app)
    return gs


async def press_for(pilot: Pilot[Any], gs: GameScreen, action: str) -> None:
    """Choose ``action`` with the keys a person would press: a number (or arrows), then Enter;
    only Enter when it is chosen already, as a person sees (most moves of a whole deal take the
    card or the declaration chosen already, and each key press waits for the screen to be
    still: the number keys are checked on their own in
    :func:`test_whole_deal_by_key_presses_shows_hand_trump_and_scores`)."""
    declaring = gs._mode == "declare"
    items = gs.option_actions if declaring else gs.hand_actions
    i = items.index(action)
    chosen = gs.query_one("#choices", ChoiceList).highlighted if declaring \
        else gs.query_one("#hand", HandView).selected
    if i != chosen and i < 10:
        await pilot.press(str((i + 1) % 10))
    elif i != chosen:
        hand = gs.query_one("#hand", HandView)
        for _ in range((i - hand.selected) % len(items)):
            await pilot.press("right")
    await pilot.press("enter")


def first_legal(gs: GameScreen, obs: Observation) -> str:
    items = gs.option_actions if gs._mode == "declare" else gs.hand_actions
    return next(a for a in items if a in obs.legal)


async def test_whole_deal_by_key_presses_shows_hand_trump_and_scores() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        s = app.session
        assert s is not None
        gs = game_screen(app)
        text = screen_text(app)
        obs = s.observation()
        for c in obs.hand:  # the hand, drawn card by card
            assert card_symbol(c).rjust(3) in text
        assert f"Trumps {SUIT_SYMBOLS[obs.trump]}" in text
        assert "Deal" in text and "Game" in text and "Computer" in text
        hand = gs.query_one("#hand", HandView)
        for i in [*range(1, len(gs.hand_actions)), 0]:  # each card's number key chooses it
            await pilot.press(KEY_LABELS[i])
            assert hand.selected == i
        presses = 0
        numbered = False  # a declaration chosen by its number key
        while not s.deal_over():
            obs = s.observation()
            assert obs.my_turn
            if gs._mode == "declare" and len(gs.option_actions) > 1 and not numbered:
                choices = gs.query_one("#choices", ChoiceList)
                for i in (1, 0):
                    await pilot.press(KEY_LABELS[i])
                    assert choices.highlighted == i
                numbered = True
            before = len(s.state.history())
            await press_for(pilot, gs, first_legal(gs, obs))
            presses += 1
            assert len(s.state.history()) > before  # every choice was taken
            await settle(pilot, app)
            if presses % 10 == 0:  # the scores on screen are the engine's
                text = screen_text(app)
                you = f"You {s.state.scores[0]} {s.state.game_scores[0]}"
                assert you in " ".join(text.replace("▶", " ").split())
        assert presses >= 24 and numbered
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        text = screen_text(app)
        assert "Deal 1 is over" in text
        assert "Brisques" in text and "Last trick" in text
        a, b = s.state.game_scores
        assert str(a) in text and str(b) in text
        log = "\n".join(s.log)
        assert "Computer plays" in log or "Computer leads" in log  # its moves are visible
        # the saved record replays to the same scores
        rec = replay(load_record(save_path()))
        assert rec["deals"][0]["finished"] and rec["deals"][0]["scores"] == [a, b]
        await pilot.press("enter")  # next deal
        await settle(pilot, app)
        assert s.deal_number() == 2 and not s.deal_over()
        assert isinstance(app.screen, GameScreen)
        assert "Deal 2" in screen_text(app)


def _end_phase_refusal(seed: int) -> tuple[Session, str, str] | None:
    """A saved session where the person must follow in the last tricks and holds a card that
    the rules refuse: the action and the engine's reason."""
    s = Session.new(PlayConfig(level=1, seed=seed), save_path())
    rng = random.Random(seed)
    while not s.deal_over():
        st = s.state
        if s.human_to_act() and st.end_phase and st.phase == "follow":
            for c in set(st.hand(0)):
                text = "play " + card_symbol(c)
                probe = st.clone()
                try:
                    probe.apply(text)
                except IllegalActionError as e:
                    return s, text, str(e)
        if s.human_to_act():
            s.play(rng.choice(s.observation().legal))
        else:
            s.computer_move()
    return None


async def test_refused_card_shows_the_rules_reason_and_changes_nothing() -> None:
    found = None
    for seed in range(40):
        found = _end_phase_refusal(seed)
        if found:
            break
    assert found is not None
    _, bad, reason = found
    bad_card = bad.split()[1]
    app = make_app(resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        gs = game_screen(app)
        sess = app.session
        assert sess is not None
        before = sess.state.history_strings()
        from bezique.cards import card_name, parse_card

        await press_for(pilot, gs, "play " + card_name(parse_card(bad_card)))
        assert sess.state.history_strings() == before
        assert reason in " ".join(screen_text(app).split())
        assert reason.startswith("you must")


async def test_undo_restores_the_hand_and_takes_back_the_computers_replies() -> None:
    app = make_app(seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        s = app.session
        assert s is not None
        gs = game_screen(app)
        obs = s.observation()
        hand_before = (obs.hand, obs.shown[0])
        history_before = s.state.history_strings()
        await press_for(pilot, gs, first_legal(gs, obs))
        await settle(pilot, app)
        assert s.state.history_strings() != history_before
        await pilot.press("u")
        await settle(pilot, app)
        obs = s.observation()
        assert (obs.hand, obs.shown[0]) == hand_before
        assert s.state.history_strings() == history_before
        assert obs.my_turn
        text = screen_text(app)
        for c in obs.hand:
            assert card_symbol(c).rjust(3) in text
        # and the saved game was taken back too
        assert json.loads(save_path().read_text())["deals"][0]["actions"] == [
            a for _, a in history_before
        ]


async def test_undo_with_nothing_of_yours_says_so() -> None:
    app = make_app(seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        s = app.session
        assert s is not None
        assert s.state.history() == []  # the non-dealer (you, in deal 1) leads
        await pilot.press("u")
        assert "nothing of yours to take back" in screen_text(app)


async def test_quit_and_resume_continues_the_same_game() -> None:
    app = make_app(seed=21)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_first_legal(pilot, app, 6)
        s = app.session
        assert s is not None
        history = s.state.history_strings()
        seed = s.game.seed
        hand = s.observation().hand
        await pilot.press("q")
    assert not app.is_running

    app2 = make_app(seed=999, resume=True)  # the seed given now does not matter
    async with app2.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app2)
        s2 = app2.session
        assert s2 is not None
        assert s2.state.history_strings() == history
        assert s2.game.seed == seed
        assert s2.observation().hand == hand
        text = screen_text(app2)
        for c in hand:
            assert card_symbol(c).rjust(3) in text
        gs2 = game_screen(app2)
        await press_for(pilot, gs2, first_legal(gs2, s2.observation()))
        await settle(pilot, app2)
        assert len(s2.state.history_strings()) > len(history)


def test_resumed_game_deals_the_next_deal_as_the_uninterrupted_game() -> None:
    path = save_path()
    s = Session.new(PlayConfig(level=1, seed=5), path)
    rng = random.Random(1)
    while not s.deal_over():
        if s.human_to_act():
            s.play(rng.choice(s.observation().legal))
        else:
            s.computer_move()
    assert not s.game_over()
    r = Session.resume(path)
    s.next_deal()
    r.next_deal()
    assert r.state.hand(0) == s.state.hand(0) and r.state.hand(1) == s.state.hand(1)
    assert r.state.turnup == s.state.turnup and r.state.dealer == s.state.dealer


async def test_hint_names_a_legal_action_and_selects_it() -> None:
    app = make_app(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        s = app.session
        assert s is not None
        gs = game_screen(app)
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = screen_text(app)
        assert "Hint: " in text
        hand = gs.query_one("#hand", HandView)
        assert gs.hand_actions[hand.selected] in s.observation().legal


async def test_rules_screen_opens_and_closes() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        assert "Bezique in brief" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_start_screen_starts_the_chosen_game() -> None:
    app = BeziqueApp(PlayConfig(level=1, seed=4, variant="binocle"), save_path(), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert "Level" in screen_text(app) and "Variant" in screen_text(app)
        await pilot.press("enter")  # the Start button has the focus
        await settle(pilot, app)
        s = app.session
        assert s is not None
        assert s.rules.variant == "binocle" and s.level == 1
        assert len(s.observation().hand) + len(s.observation().shown[0]) in (11, 12)
        assert "Binocle" in screen_text(app)


async def test_start_screen_refuses_a_bad_option_in_words() -> None:
    app = BeziqueApp(PlayConfig(level=1, seed=4), save_path(), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.query_one("#options").value = "colour=red"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert "unknown option 'colour'" in screen_text(app)


def test_computer_sees_only_its_observation() -> None:
    seen: list[Observation] = []
    s = Session.new(PlayConfig(level=1, seed=8), None)

    class Spy:
        name = "spy"

        def act(self, obs: Observation) -> str:
            seen.append(obs)
            assert isinstance(obs, Observation) and obs.seat == 1
            assert list(obs.hand) == s.state.hand(1)
            return obs.legal[0]

    s.agent = Spy()
    rng = random.Random(0)
    while not s.deal_over():
        if s.human_to_act():
            s.play(rng.choice(s.observation().legal))
        else:
            s.computer_move()
    assert len(seen) >= 24


def test_not_your_turn_is_refused() -> None:
    s = Session.new(PlayConfig(level=1, seed=8), None)
    s.play(s.observation().legal[0])  # you lead; now the computer is to follow
    assert s.computer_to_act()
    with pytest.raises(IllegalActionError, match="not your turn"):
        s.play("pass")


def test_no_color_draws_cards_without_colour() -> None:
    text, spans = card_row([CardSlot(8), CardSlot(0, shown=True)], 40, selected=0, colour=False)
    assert "A♥" in text.plain and "╔" in text.plain
    assert all(sp.style in ("", "bold", "dim", "bold reverse") or "reverse" in str(sp.style)
               or "bold" in str(sp.style) or "dim" in str(sp.style) for sp in text.spans)
    assert not any("#" in str(sp.style) or "red" in str(sp.style) for sp in text.spans)
    assert spans == [(0, 5), (6, 11)]


def test_no_color_env_turns_the_app_monochrome(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert make_app().no_color


def test_cli_where_prints_the_save_file(data_dir: Path) -> None:
    out = CliRunner().invoke(main, ["play", "--where"])
    assert out.exit_code == 0
    assert out.output.strip() == str(data_dir / "game.json")


def test_cli_resume_without_a_saved_game_is_one_line_and_status_2() -> None:
    out = CliRunner().invoke(main, ["play", "--resume"])
    assert out.exit_code == 2
    assert "no saved game" in out.output and "Traceback" not in out.output
    assert len(out.output.strip().splitlines()) == 1


def test_cli_bad_option_is_one_line_and_status_2() -> None:
    out = CliRunner().invoke(main, ["play", "-o", "colour=red"])
    assert out.exit_code == 2 and "unknown option" in out.output


def test_saved_game_is_a_record_that_replay_reads() -> None:
    s = Session.new(PlayConfig(level=1, seed=2), save_path())
    while not s.human_to_act():
        s.computer_move()
    s.play(s.observation().legal[0])
    out = CliRunner().invoke(main, ["replay", str(save_path()), "--json"])
    assert out.exit_code == 0
    steps = json.loads(out.output)["deals"][0]["steps"]
    assert [st["action"] for st in steps] == [a for _, a in s.state.history_strings()]
    assert all(st["ok"] for st in steps)


async def test_mouse_click_selects_a_card_and_a_second_click_plays_it() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        s = app.session
        assert s is not None
        gs = game_screen(app)
        hand = gs.query_one("#hand", HandView)
        hand.selected = 0
        want = gs.hand_actions[1]
        assert await pilot.click(HandView, offset=(7, 1))  # the second card's box
        await pilot.pause()
        assert hand.selected == 1 and s.state.history() == []
        assert await pilot.click(HandView, offset=(7, 1))
        await settle(pilot, app)
        assert s.state.history_strings()[0] == (0, want)


async def test_game_result_at_the_end_and_a_new_game_from_there() -> None:
    s = Session.new(PlayConfig(level=1, seed=3, target=50), save_path())
    rng = random.Random(2)
    while not s.deal_over():
        if s.human_to_act():
            s.play(rng.choice(s.observation().legal))
        else:
            s.computer_move()
    # brisques and the last trick make 170 between the two: someone reaches 50 in any deal
    assert s.game_over()
    a, b = s.state.game_scores
    app = make_app(resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        text = " ".join(screen_text(app).split())
        if s.game.winner == 0:
            assert f"You win the game, {a} to {b}!" in text
        else:
            assert f"The computer wins the game, {b} to {a}." in text
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert "Resume" not in screen_text(app)  # a finished game is not offered again


async def test_undo_from_the_deal_summary_goes_back_into_the_deal() -> None:
    s = Session.new(PlayConfig(level=1, seed=6), save_path())
    rng = random.Random(3)
    while not s.deal_over():
        if s.human_to_act():
            s.play(rng.choice(s.observation().legal))
        else:
            s.computer_move()
    app = make_app(resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("u")
        await settle(pilot, app)
        sess = app.session
        assert sess is not None
        assert isinstance(app.screen, GameScreen)
        assert not sess.deal_over() and sess.human_to_act()
        assert sess.state.tricks_played == sess.rules.total_tricks - 1
