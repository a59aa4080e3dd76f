"""Issue 16, items 10, 13, 15, 16 (the terminal and the core): the rules from one source, player
names in the records and in ``bezique replay``, statistics per player and level, and hints that
explain themselves from the player's observation only."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_tui import game_screen, make_app, settle
from test_tui_ux import play_out
from textual.widgets import Input, Markdown, RichLog, Static

from bezique import Rules, State
from bezique.agents import make_agent
from bezique.agents.explain import explain, prospects
from bezique.cards import card_symbol
from bezique.cli import main
from bezique.howto import rules_html, rules_markdown, section_titles
from bezique.record import record_players
from bezique.stats import Tally, tally
from bezique.tui.app import BeziqueApp
from bezique.tui.history import saved_games
from bezique.tui.modals import RulesScreen, StatsScreen, rules_text
from bezique.tui.session import PlayConfig, Session, remembered_name, save_path
from bezique.tui.start import StartScreen


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test saves into its own directory, never the user's."""
    d = tmp_path / "data"
    monkeypatch.setenv("BEZIQUE_DATA_DIR", str(d))
    return d


def finished_game(name: str = "Ann", seed: int = 3, level: int = 1) -> Session:
    return play_out(Session.new(PlayConfig(level=level, seed=seed, target=200, name=name),
                                save_path()), random.Random(seed))


# ---------------------------------------------------------------- item 10: one rules text

def test_the_rules_cover_what_a_player_needs() -> None:
    text = rules_markdown()
    for must in ("Four aces", "Four kings", "Four queens", "Four jacks", "seven of trumps",
                 "last trick", "follow suit", "win the trick if you can", "trump** if you can",
                 "Within a class", "Across classes", "new card"):
        assert must in text, must
    assert "[[" not in text  # card marks become symbols in the terminal
    html = rules_html()
    assert html.count("<h3") == len(section_titles()) and '<img src="/cards/QS.svg"' in html
    assert "<script" not in html


async def test_the_terminal_rules_screen_shows_every_section_of_the_one_text() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        shown = app.screen.query_one(Markdown).source
        assert shown == rules_text()
        for title in section_titles():
            assert f"\n## {title}\n" in shown, title


# ---------------------------------------------------------------- item 13: names

def test_a_name_is_remembered_kept_in_the_record_and_used_by_replay(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["play", "--name", "Ann", "--where"])
    assert out.exit_code == 0 and remembered_name() == "Ann"
    s = finished_game("Ann")
    data = json.loads(save_path().read_text())
    assert record_players(data, 2) == ("Ann", "Computer (level 1 beginner)")
    assert Session.resume(save_path()).name == "Ann"
    told = CliRunner().invoke(main, ["replay", str(save_path())])
    assert told.exit_code == 0 and "Ann" in told.output and "Player 0" not in told.output
    assert told.output.strip().endswith("wins the game.")
    # a record without names is read as before
    del data["players"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    assert "Player 0" in CliRunner().invoke(main, ["replay", str(old)]).output
    js = CliRunner().invoke(main, ["replay", str(old), "--json"])
    assert json.loads(js.output)["game"]["winner"] == s.game.winner


async def test_the_start_screen_asks_for_the_name_and_remembers_it() -> None:
    app = BeziqueApp(PlayConfig(level=1, seed=4, name="Bo"), save_path(), delay=0)
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        box = app.screen.query_one("#name", Input)
        assert box.value == "Bo"
        box.value = "Cleo"
        app.screen.query_one("#start").focus()
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.session is not None and app.session.name == "Cleo"
        assert "Cleo" in str(game_screen(app).query_one("#top", Static).render())
    assert remembered_name() == "Cleo"


# ---------------------------------------------------------------- item 15: statistics

def test_statistics_per_player_and_level_from_the_saved_games() -> None:
    a = finished_game("Ann", seed=3, level=1)
    b = finished_game("Ann", seed=4, level=2)
    games = saved_games()
    assert len(games) == 2  # each game once, though game.json holds the last one too
    tallies = tally(games)
    everyone = tallies[("Ann", "all")]
    assert everyone.games == 2
    assert everyone.games_won == sum(g.game.winner == 0 for g in (a, b))
    deals = len(a.game.all_deals()) + len(b.game.all_deals())
    assert everyone.deals == deals
    points = sum(st.scores[0] for g in (a, b) for st in g.game.all_deals())
    assert everyone.average_points == pytest.approx(points / deals)
    assert ("Ann", "computer, level 1 (beginner)") in tallies
    assert ("Ann", "computer, level 2 (casual)") in tallies
    assert len(everyone.rate_over_time()) == 2
    out = CliRunner().invoke(main, ["stats"])
    assert out.exit_code == 0 and "Ann, all games" in out.output
    assert "Ann against computer, level 2 (casual)" in out.output
    rows = json.loads(CliRunner().invoke(main, ["stats", "--json"]).output)
    assert {r["against"] for r in rows} >= {"all", "computer, level 1 (beginner)"}


def test_a_tally_counts_deals_won_and_the_best_meld() -> None:
    t = Tally()
    assert t.win_rate == 0 and t.average_points == 0 and t.rate_over_time() == []
    assert "No games yet" in CliRunner().invoke(main, ["stats"]).output


async def test_the_statistics_screen_opens_with_s() -> None:
    finished_game("Ann")
    app = make_app(seed=9)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        assert "Ann, all games" in str(app.screen.query_one("#stats-text", Static).render())
        await pilot.press("escape")


# ---------------------------------------------------------------- item 16: explain

def _positions(n: int = 40) -> list[State]:
    """Positions along a few deals played by the heuristic, where there is a choice."""
    out = []
    agent = make_agent("heuristic", seed=2)
    for seed in range(2):
        s = State.new_deal(Rules.preset("bezique"), seed=seed)
        while not s.is_terminal() and len(out) < n * (seed + 1):
            obs = s.observation(s.current_player())
            if len(obs.legal) > 1:
                out.append(s.clone())
            s.apply(agent.act(obs))
    return out


def test_explain_gives_reasons_a_player_can_check() -> None:
    agent = make_agent("heuristic", seed=3)
    said = {"meld": 0, "play": 0}
    for s in _positions(40):
        obs = s.observation(s.current_player())
        action = agent.act(obs)
        why = explain(obs, action)
        verb = action.split()[0]
        if verb == "meld":
            said["meld"] += 1
            assert "scores" in why[0]
        elif verb == "play" and not obs.end_phase:
            said["play"] += 1
            assert why, action
            held = {c for c in (*obs.hand, *obs.shown[obs.seat])}
            assert set(prospects(obs)) <= held
    assert said["play"] > 10


async def test_the_terminal_explains_a_hint_when_asked() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("e")
        await pilot.pause()
        assert "Explain mode on" in str(app.screen.query_one("#status", Static).render())
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        lines = [str(line.text) for line in app.screen.query_one("#log", RichLog).lines]
        assert any("Why: " in line for line in lines), lines


def test_explain_the_seven_of_trumps() -> None:
    rng = random.Random(0)
    s = State.new_deal(Rules.preset("bezique"), seed=1)
    while "exchange" not in s.legal_action_strings():
        s.apply(rng.choice(s.legal_action_strings()))
    obs = s.observation(s.current_player())
    assert obs.turnup is not None
    why = explain(obs, "exchange")
    seven = "7" + "♠♥♦♣"[obs.trump]
    assert why[0].startswith(f"exchanging {seven}, the seven of trumps, scores 10")
    assert why[0].endswith(card_symbol(obs.turnup))
