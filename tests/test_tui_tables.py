"""``bezique play`` at a table of three or four (RULES.md 9.4, 9.5) and in the one-deal
multi-pack games (9.0-9.3): whole deals by key presses in 80×24 against level-1 computers, the
seats' names and scores on screen, the partner's shown cards, ``offer`` and combining (``QS+``),
carte blanche, the settlement in words, undo, hints, saving and replay.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_fourhanded import deal4, declare, win_trick
from test_tui import first_legal, game_screen, press_for, screen_text, settle
from test_tui_ux import play_out
from textual.pilot import Pilot
from textual.widgets import Static

from bezique.cards import card_symbol
from bezique.cli import main
from bezique.game import Game
from bezique.howto import section_titles
from bezique.rules import Rules
from bezique.tui.app import BeziqueApp
from bezique.tui.game import GameScreen
from bezique.tui.modals import RulesScreen, SummaryScreen, result_text, rules_text
from bezique.tui.session import PlayConfig, Session, save_description, save_path
from bezique.tui.table import choice_entries, token_text
from bezique.tui.table_seats import trick_plays
from bezique.tui.words import seat_names


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test saves into its own directory, never the user's."""
    d = tmp_path / "data"
    monkeypatch.setenv("BEZIQUE_DATA_DIR", str(d))
    return d


def table_app(variant: str, seed: int = 3, **options: Any) -> BeziqueApp:
    return BeziqueApp(PlayConfig(level=1, seed=seed, variant=variant, options=dict(options)),
                      save_path(), delay=0, show_start=False)


def flat(text: str) -> str:
    """The screen's text with the turn marks and runs of spaces and borders made single spaces."""
    return " ".join(text.replace("▶", " ").replace("│", " ").split())


def hand_row(app: BeziqueApp) -> list[str]:
    """The card faces in the hand's row on screen, left to right, as far as they are drawn."""
    hand = app.screen.query_one("#hand")
    region = hand.content_region
    strips = list(app.screen._compositor.render_strips())
    row = strips[region.y + 1].text[region.x:region.x + region.width]
    return re.findall(r"(10|[AKQJ987])([♠♥♦♣])", row)


def check_table(app: BeziqueApp, s: Session) -> None:
    """What must be on screen at a table of three or four, whatever the size: every seat's name
    and its deal and game points, the sides' totals in a partnership, the whole hand, the cards
    of the trick with who played each, the partner's shown cards."""
    obs = s.observation()
    text = screen_text(app)
    line = flat(text)
    names = seat_names(s.seats)
    for seat, name in enumerate(names):
        deal, game = obs.scores[seat], obs.totals[seat] + obs.scores[seat]
        assert f"{name} {deal} {game}" in line, (name, line)
    if s.state.partner(0) >= 0:
        a, b = obs.scores[0] + obs.scores[2], obs.scores[1] + obs.scores[3]
        assert f"Your side {a}" in line and f"Their side {b}" in line
        assert "North (partner)" in text
    cards = [*obs.hand, *obs.shown[0]]
    faces = [(m.group(1), m.group(2)) for c in cards
             if (m := re.fullmatch(r"(10|[AKQJ987])([♠♥♦♣])", card_symbol(c)))]
    assert hand_row(app) == faces  # every card of the hand, in order, none cut off
    for seat, card in trick_plays(obs):
        assert f"{names[seat]} {card_symbol(card)}" in line
    panel = str(app.screen.query_one("#opp", Static).render())
    duel = s.state.duel_seats()  # the two seats of a duel of the four-handed end
    for seat in range(1, s.seats):
        head = next(ln for ln in panel.splitlines() if ln.strip().startswith(names[seat]))
        assert ("sits out" in head) == bool(duel and seat not in duel)
        for c in obs.shown[seat]:
            assert card_symbol(c) in panel  # the shown cards of each seat, the partner's too


async def play_deal_by_keys(pilot: Pilot[Any], app: BeziqueApp, check_every: int = 6) -> int:
    """Play the person's seat to the end of the deal with the keys a person presses; the
    table is checked on screen every few moves.  The number of presses."""
    await settle(pilot, app)
    s = app.session
    assert s is not None
    gs = game_screen(app)
    presses = 0
    while not s.deal_over():
        obs = s.observation()
        assert obs.my_turn
        if presses % check_every == 0:
            check_table(app, s)
        before = len(s.state.history())
        await press_for(pilot, gs, first_legal(gs, obs))
        presses += 1
        assert len(s.state.history()) > before
        await settle(pilot, app)
    await pilot.pause()
    return presses


def replay_json(path: Path) -> dict[str, Any]:
    out = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert out.exit_code == 0, out.output
    data: dict[str, Any] = json.loads(out.output)
    return data


async def test_a_whole_three_handed_deal_by_key_presses_in_80_by_24() -> None:
    app = table_app("bezique3", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        presses = await play_deal_by_keys(pilot, app)
        s = app.session
        assert s is not None and s.seats == 3
        assert presses >= 32  # 32 tricks: a card each, and more for the declarations
        assert isinstance(app.screen, SummaryScreen)
        text = screen_text(app)
        assert "Deal 1 is over" in text and "First to 2000 wins." in text
        line = flat(text)
        assert "You West East" in line
        assert "This deal " + " ".join(str(x) for x in s.state.scores) in line
        log = "\n".join(s.log)
        assert "West leads" in log or "East leads" in log
        assert log.count(" draws; you draw ") + log.count("You draw ") >= 24
        # the save is a record that replay reads, one hand per seat, the same scores
        data = json.loads(save_path().read_text())
        assert data["players"][1:] == ["West: Computer (level 1 beginner)",
                                       "East: Computer (level 1 beginner)"]
        rec = replay_json(save_path())
        assert rec["deals"][0]["finished"] and rec["deals"][0]["scores"] == list(s.state.scores)
        await pilot.press("enter")  # the next deal: East deals, the next seat to the left
        await settle(pilot, app)
        assert s.deal_number() == 2 and s.state.dealer == (data["deals"][0]["dealer"] + 1) % 3
        assert "Deal 2" in screen_text(app)


async def test_a_whole_four_handed_partnership_deal_by_key_presses_in_80_by_24() -> None:
    app = table_app("bezique4", seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        presses = await play_deal_by_keys(pilot, app)
        s = app.session
        assert s is not None and s.seats == 4 and s.state.partner(0) == 2
        assert presses >= 32
        assert isinstance(app.screen, SummaryScreen)
        text = screen_text(app)
        line = flat(text)
        assert "Deal 1 is over" in text and "First side to 2000 wins." in line
        assert "You West North East" in line
        a, b = s.state.side_scores()
        deal = s.state.scores
        assert (f"This deal by side: you & North {deal[0] + deal[2]} · West & East "
                f"{deal[1] + deal[3]}") in line
        assert f"The game by side: you & North {a} · West & East {b}" in line
        rec = replay_json(save_path())
        assert rec["deals"][0]["scores"] == list(deal)
        assert rec["deals"][0]["sides"] == [deal[0] + deal[2], deal[1] + deal[3]]
        assert "deal 1" in save_description(save_path()) and "North" in \
            save_description(save_path())


async def test_four_handed_each_alone_with_duels_at_the_end() -> None:
    app = table_app("bezique4", seed=8, partnership="false", four_hand_end="duels")
    async with app.run_test(size=(100, 30)) as pilot:
        await play_deal_by_keys(pilot, app, check_every=4)
        s = app.session
        assert s is not None and s.state.partner(0) == -1
        assert s.state.rules.total_tricks == 40  # 24 with the stock, then two duels of 8
        assert isinstance(app.screen, SummaryScreen)
        line = flat(screen_text(app))
        assert "by side" not in line and "(partner)" not in line
        assert replay_json(save_path())["deals"][0]["scores"] == list(s.state.scores)


def offer_session() -> Session:
    """South (seat 0) has won a trick holding nothing to declare but the right to offer; North
    holds K♦ Q♦."""
    state = deal4({0: ["AH"], 2: ["KD", "QD"]}, turnup="8H")
    win_trick(state, 0)
    return Session(Game.from_states(Rules.preset("bezique4"), [state], seed=1), 1, 0,
                   save_path())


async def test_the_offer_key_passes_the_declaring_turn_to_the_partner() -> None:
    s = offer_session()
    s.save()
    app = BeziqueApp(PlayConfig(level=1), save_path(), resume=True, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        s = app.session
        assert s is not None
        gs = game_screen(app)
        assert "offer" in s.observation().legal and gs._mode == "declare"
        assert "offer: let your partner North declare instead" in screen_text(app)
        # the key, in the footer only while legal (the footer is redrawn a moment after the
        # screen: on a loaded machine one pause was not always enough)
        for _ in range(50):
            if "o Offer" in screen_text(app):
                break
            await pilot.pause(0.05)
        assert "o Offer" in screen_text(app)
        history = len(s.state.history())
        await pilot.press("o")
        await pilot.pause()
        first = s.state.history()[history]
        assert first == (0, s.state.string_to_action("offer"))
        assert "You let North declare instead" in s.log
        await settle(pilot, app)
        assert s.human_to_act() or s.deal_over()


async def test_combining_with_the_partners_shown_card_is_offered_named_and_played() -> None:
    """RULES.md 9.9 example 20 from South's seat: North shows Q♠ in four queens; South adds J♦
    from the hand: a bezique, offered as ``meld QS+ JD`` and chosen with the keys."""
    state = deal4({2: ["QS", "QH", "QD", "QC", "AH"], 0: ["JD", "AH"]})
    assert declare(state, 2, "meld QS QH QD QC") == 60
    win_trick(state, 0)
    Session(Game.from_states(Rules.preset("bezique4"), [state], seed=1), 1, 0,
            save_path()).save()
    assert token_text("QS+") == "Q♠+" and token_text("KD*2") == "K♦*2"
    app = BeziqueApp(PlayConfig(level=1), save_path(), resume=True, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        s = app.session
        assert s is not None
        obs = s.observation()
        assert "meld QS+ JD" in obs.legal
        labels = {a: label for _, label, a in choice_entries(obs, s.state)}
        assert labels["meld QS+ JD"] == "bezique Q♠+ J♦  +40"
        text = screen_text(app)
        assert "bezique Q♠+ J♦  +40" in text
        panel = str(app.screen.query_one("#opp", Static).render())
        north = panel.splitlines()[3]  # North's shown cards, under its line
        assert all(q in north for q in ("Q♠", "Q♥", "Q♦", "Q♣")) and "melds 60" in north
        await press_for(pilot, game_screen(app), "meld QS+ JD")
        await settle(pilot, app)
        assert s.state.scores[0] == 40 and s.state.side_scores() == (100, 0)
        assert "You declare bezique Q♠ J♦ (+40)" in s.log
        assert "Your side 100" in flat(screen_text(app))


def test_undo_at_a_table_of_four_takes_back_the_computers_replies() -> None:
    s = Session.new(PlayConfig(level=1, seed=2, variant="bezique4"), save_path())
    rng = random.Random(4)
    while (len(s.state.history()) < 30 or not s.human_to_act()
           or s.state.phase not in ("lead", "follow")):
        if s.human_to_act():
            s.play(rng.choice(s.observation().legal))
        else:
            s.computer_move()
    hand = s.observation().hand
    log = list(s.log)
    s.play(s.observation().legal[0])
    while not s.human_to_act():
        s.computer_move()
    s.undo()
    assert s.human_to_act() and s.observation().hand == hand and s.log == log
    assert Session.resume(save_path()).state.history_strings() == s.state.history_strings()


async def test_a_hint_at_a_table_of_three_is_a_legal_move_or_a_clear_refusal() -> None:
    app = table_app("bezique3", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        s = app.session
        assert s is not None and s.human_to_act()
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = str(app.screen.query_one("#status", Static).render())
        hinted = status.startswith("Hint: ")
        refused = status.startswith("✗ no hint: the hint player cannot judge a table of 3 yet")
        assert hinted or refused, status
        assert isinstance(app.screen, GameScreen)  # the game goes on either way


def test_the_computers_see_only_their_own_seats() -> None:
    s = Session.new(PlayConfig(level=1, seed=6, variant="bezique4"), None)
    seen: list[int] = []

    class Spy:
        def __init__(self, seat: int) -> None:
            self.name = f"spy{seat}"
            self.seat = seat

        def act(self, obs: Any) -> str:
            assert obs.seat == self.seat and list(obs.hand) == s.state.hand(self.seat)
            seen.append(obs.seat)
            return str(obs.legal[0])

    for seat in (1, 2, 3):
        s.agents[seat] = Spy(seat)
    rng = random.Random(1)
    while not s.deal_over():
        if s.human_to_act():
            s.play(rng.choice(s.observation().legal))
        else:
            s.computer_move()
    assert set(seen) == {1, 2, 3} and len(seen) >= 3 * 32


# ---------------------------------------------------------------- the one-deal multi-pack games

def rubicon_to_the_end(seed: int) -> Session:
    s = Session.new(PlayConfig(level=1, seed=seed, variant="rubicon"), save_path())
    rng = random.Random(seed)
    while not s.deal_over():
        if s.human_to_act():
            s.play(rng.choice(s.observation().legal))
        else:
            s.computer_move()
    return s


async def test_rubicon_end_shows_the_settlement_in_the_engines_words() -> None:
    s = rubicon_to_the_end(7)
    res, words = s.state.settlement(), s.state.settlement_words()
    assert s.game_over() and res.value > 0
    app = BeziqueApp(PlayConfig(level=1), save_path(), resume=True, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        line = flat(screen_text(app))
        assert words in line and str(res.value) in line
        # and which number is which: the points made, what they count, the bonus
        legend = s.state.settlement_words(legend=True)
        assert result_text(s).endswith(f"\n{legend}")
        assert legend.split(" counts ")[0] in line  # "The winner's 180", wrapped after
        # the footer is this screen's, not the game's beneath it (whose h, e and u do nothing)
        assert "Play again" in line and "Hint" not in line and "Explain" not in line
        assert ("You win the game" if res.winner == 0 else "The computer wins the game") in line
        assert ("rubiconed" in line) == res.rubicon
        assert "Sevens" not in line  # no seven of trumps in the multi-pack games
        brisques = " ".join(str(b) for b in s.state.brisques)
        assert f"Brisques {brisques}" in line


async def test_rubicon_has_no_turn_up_and_no_trumps_until_the_first_marriage() -> None:
    app = table_app("rubicon", seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        s = app.session
        assert s is not None
        assert "Trumps not yet fixed" in screen_text(app) and "Turn-up" not in screen_text(app)
        assert "Rubicon" in screen_text(app) and "one deal, settled" in screen_text(app)
        gs = game_screen(app)
        while s.state.trump < 0 and not s.deal_over():
            obs = s.observation()
            marriage = [a for a in obs.legal if a.startswith("meld ")]
            await press_for(pilot, gs, marriage[0] if marriage else first_legal(gs, obs))
            await settle(pilot, app)
            assert ("Trumps not yet fixed" in screen_text(app)) == (s.state.trump < 0)
        assert s.state.trump >= 0
        assert "Turn-up" not in screen_text(app)


async def test_carte_blanche_is_offered_by_key_when_legal() -> None:
    app = table_app("rubicon", seed=16)  # the person's nine cards hold no K, Q or J
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        s = app.session
        assert s is not None and "carte" in s.observation().legal
        assert "c: carte blanche" in screen_text(app)
        await pilot.press("c")
        await settle(pilot, app)
        assert (0, "carte") in s.state.history_strings()
        assert s.state.scores[0] == 50 and any("carte blanche" in ln for ln in s.log)
        assert "carte" not in s.observation().legal
        assert "c Carte blanche" not in screen_text(app)  # the key leaves the footer
        steps = len(s.state.history())
        await pilot.press("c")  # and does nothing
        await settle(pilot, app)
        assert len(s.state.history()) == steps


# ---------------------------------------------------------------- starting, the rules, the CLI

async def test_the_start_screen_starts_a_four_handed_game_each_alone() -> None:
    app = BeziqueApp(PlayConfig(level=1, seed=4), save_path(), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        from textual.widgets import Select

        select = app.screen.query_one("#variant", Select)
        select.value = 2  # Rubicon: one deal, no target
        await pilot.pause()
        assert "one deal: no target" in screen_text(app)
        select.value = 7  # "Four-handed, each alone"
        await pilot.pause()
        assert "2000" in screen_text(app)  # the target's hint follows the variant
        await pilot.click("#start")
        await settle(pilot, app)
        s = app.session
        assert s is not None and s.rules.variant == "bezique4" and not s.rules.partnership
        assert "Four-handed" in screen_text(app)


async def test_the_rules_screen_tells_the_tables_of_three_and_four() -> None:
    app = table_app("bezique4")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        text = rules_text()
        assert "Three and four players" in section_titles()
        assert "Rubicon, Six-pack and Eight-pack" in section_titles()
        for must in ("**Three-handed**", "**Four-handed**", "**offer**", "triple bezique",
                     "**c** carte blanche", "**o** offer", "you are South"):
            assert must in text, must


@pytest.mark.parametrize("args,message", [
    (["--variant", "bezique4", "-o", "four_hand_end=later"], "four_hand_end"),
    (["--variant", "rubicon", "-o", "partnership=false"], "partnership"),
    (["--variant", "bezique5"], "bezique5"),
])
def test_play_refuses_bad_table_options_in_one_line(args: list[str], message: str) -> None:
    out = CliRunner().invoke(main, ["play", *args])
    assert out.exit_code == 2
    assert message in out.output and "Traceback" not in out.output


@pytest.mark.parametrize("variant,cards", [("sixpack", 12), ("eightpack", 15)])
async def test_the_multi_pack_hands_fit_80_columns_whole(variant: str, cards: int) -> None:
    app = table_app(variant, seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        s = app.session
        assert s is not None
        obs = s.observation()
        held = [*obs.hand, *obs.shown[0]]
        assert len(held) in (cards - 1, cards)
        assert hand_row(app) == [tuple(re.findall(r"(10|[AKQJ987])([♠♥♦♣])", card_symbol(c))[0])
                                 for c in held]
        text = screen_text(app)
        assert "Trumps not yet fixed" in text and "Turn-up" not in text
        # the turn line is not pushed off the score panel
        assert any(w in text for w in ("Your lead", "Your turn to follow", "You may declare"))


@pytest.mark.parametrize("variant", ["bezique3", "bezique4"])
async def test_the_game_over_screen_of_a_table_names_the_winners(variant: str) -> None:
    s = play_out(Session.new(PlayConfig(level=1, seed=4, variant=variant, target=300),
                             save_path()), random.Random(4))
    deals = [*s.game.deals, s.state]
    w = s.game.winner
    assert w is not None
    app = BeziqueApp(PlayConfig(level=1), save_path(), resume=True, delay=0)
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        line = flat(screen_text(app))
        assert "Deal by deal" in line
        for i, st in enumerate(deals, 1):
            game = st.side_scores() if variant == "bezique4" else st.game_scores
            row = " ".join([str(i), *(str(x) for x in st.scores), "–".join(map(str, game))])
            assert row in line, row
        if variant == "bezique4":
            a, b = s.state.side_scores()
            assert (f"You and North win the game, {a} to {b}!" if w == 0
                    else f"West and East win the game, {b} to {a}.") in line
        else:
            g = s.state.game_scores
            name = "You win" if w == 0 else f"{seat_names(3)[w]} wins"
            assert f"{name} the game with {g[w]}" in line
        out = CliRunner().invoke(main, ["play", "--saves"])
        assert "finished" in out.output and variant in out.output


async def test_the_cut_bonus_asks_for_the_guess_before_play() -> None:
    """Six-pack with the cut bonus (RULES.md 9.2): the person, not dealing, first guesses the
    cut from a list; the choice scores as the engine says and play goes on."""
    for seed in range(20):  # a deal the person does not deal: they guess
        app = table_app("sixpack", seed=seed, cut_bonus=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            s = app.session
            assert s is not None
            if s.state.dealer == 0:
                continue
            assert s.observation().phase == "guess"
            text = screen_text(app)
            # the whole question fits 80 columns, and there is nothing to draw while guessing
            assert "Guess the dealer's cut (right: +150)" in text and "18 cards" in text
            assert "Draw" not in text.splitlines()[-1]
            await pilot.press("enter")  # the first entry: 18 cards
            await settle(pilot, app)
            assert s.state.cut_guess == 18 and s.observation().phase != "guess"
            assert s.state.scores[0] == (150 if s.state.cut == 18 else 0)
            assert any("guess" in line for line in s.log), s.log[-5:]
            return
    raise AssertionError("the person dealt every deal")
