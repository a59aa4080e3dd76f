"""A game won on the count of brisques says why, wherever a player reads the result.

RULES.md 2.6: if no one had reached the target before the brisques, they are counted, the
non-dealer's first (at a table, in turn from the dealer's left), and the first to reach the
target wins, even against an equal or higher final total.  Before, every front end named the
winner with the totals and no reason ("North wins the game" with 250 to 250): the replay, the
terminal's game-over screen and the browser's.
"""

from __future__ import annotations

from bezique import Rules, State
from bezique.game import Game
from bezique.narrate import deal_summary, win_reason
from bezique.scoring import counted_first, game_winner
from bezique.tui.modals import result_text
from bezique.tui.session import Session
from bezique.web.store import GameRow
from bezique.web.views import build_view

REASON = ("Nobody had 250 before the brisques, so they were counted, the non-dealer's first: "
          "{whose} brisques took {them} to 250 first.")


def _counted() -> State:
    """A two-handed game to 250 whose only deal ends 250 to 250: 170 each before the brisques,
    the non-dealer (seat 0) counts first and wins."""
    s = State.new_deal(Rules.preset("bezique", target=250), seed=329)
    while not s.is_terminal():
        s.apply(s.legal_action_strings()[0])
    assert s.dealer == 1 and s.game_scores == (250, 250) and s.winner == 0
    assert [a - b for a, b in zip(s.scores, s.brisques, strict=True)] == [170, 170]
    return s


def test_the_count_decides_as_the_engine_does() -> None:
    before, final = (170, 170), (250, 250)
    assert counted_first(250, before, final, (0, 1)) == 0 == game_winner(250, before, final,
                                                                           (0, 1), 1)
    assert counted_first(250, before, final, (1, 0)) == 1
    assert counted_first(250, (250, 100), (300, 180), (1, 0)) == -1  # reached before: no count


def test_the_replay_says_why_the_game_was_won() -> None:
    lines = deal_summary(_counted(), ["North", "South"])
    assert lines[-2:] == ["North wins the game.",
                          REASON.format(whose="North's", them="them")]


def test_no_reason_when_the_higher_total_wins() -> None:
    s = State.new_deal(Rules.preset("bezique", target=150), seed=2)
    while not s.is_terminal():
        s.apply(s.legal_action_strings()[0])
    assert s.game_scores == (170, 50) and s.winner == 0  # counted, but the higher won anyway
    assert win_reason(s, ["North", "South"]) is None
    assert deal_summary(s, ["North", "South"])[-1] == "North wins the game."


def test_the_terminal_game_over_says_why() -> None:
    s = _counted()
    session = Session(Game.from_states(s.rules, [s]), 1, 0, None)
    assert result_text(session) == ("You win the game, 250 to 250!\n"
                                    + REASON.format(whose="your", them="you"))


def test_the_browser_game_over_says_why_to_each_seat() -> None:
    s = _counted()
    row = GameRow(id="g", created=0, updated=0, opponent="friend", level=1,
                  agent_spec="random", agent_seed=0, seed=0, token_hashes=["a", "b"],
                  invite_hash=None, names=["Ann", "Bob"], record={}, version=1)
    views = [build_view(s.observation(seat), row, 1, [True, True]) for seat in (0, 1)]
    assert views[0]["game"]["win_reason"] == REASON.format(whose="your", them="you")
    assert views[1]["game"]["win_reason"] == REASON.format(whose="Ann's", them="them")


def test_binocle_counts_its_card_points() -> None:
    s = State.new_deal(Rules.preset("binocle", target=250), seed=104)
    while not s.is_terminal():
        s.apply(s.legal_action_strings()[0])
    assert s.game_scores == (256, 274) and s.winner == 0
    assert win_reason(s, ["North", "South"]) == (
        "Nobody had 250 before the card points, so they were counted, the non-dealer's first: "
        "North's card points took them to 250 first.")
