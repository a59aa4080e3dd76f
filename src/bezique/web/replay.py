"""The finished deals of a game: their record (nothing in it is hidden from anyone any more) and
every position of them, frame by frame, for the replay view (with who played each card of the
trick shown), and a one-deal game's result and settlement.
"""

from __future__ import annotations

from typing import Any

from ..cards import SUITS, card_name, split_token
from ..position import Event
from ..record import parse_record, replay_deals
from ..state import State
from .live import LiveGame
from .views import display_key


def finished_record(live: LiveGame) -> dict[str, Any]:
    """The record of the deals that are over: nothing in it is hidden from anyone any more."""
    rec = live.record()
    game = live.game
    n = len(game.deals) + (1 if game.state.is_terminal() else 0)
    rec["deals"] = rec["deals"][:n]
    rec["players"] = list(live.row.names)  # the names the players chose (README: Game records)
    return rec


def replay_frames(rec: dict[str, Any]) -> list[dict[str, Any]]:
    """Every position of the finished deals of a record, for the replay view."""
    if not rec["deals"]:
        return []
    record = parse_record(rec)
    done = replay_deals(record)
    out: list[dict[str, Any]] = []
    totals: tuple[int, ...] = (0,) * record.rules.nplayers
    for i, d in enumerate(record.deals):
        state = record.start(i, totals)
        # a turned-up seven scores for the dealer as the deal starts (RULES.md 2.1)
        opening = sum(p for _, p, reason, _ in state.events if reason == "turnup")
        # the cut bonus (RULES.md 9.2): the guess is made before play, so the first frame's
        # scores already hold its points; the replay says where they come from
        cut = None if d.cut is None else {
            "cut": d.cut, "guess": d.guess,
            "scored": [[seat, p] for seat, p, reason, _ in state.events if reason == "cut"]}
        frames = [_frame(state, None, None, [], (), [])]
        by: list[int] = []  # who played each card of the trick so far
        for text in d.actions:
            player = state.current_player()
            before, lead = state.tricks_played, state.trick_cards()
            events = len(state.events)
            state.apply(text)
            played = []
            if text.startswith("play "):
                by.append(player)
            if state.tricks_played > before:  # this play completed a trick: show its cards
                played = [*lead, split_token(text.split()[1])[0]]
            frames.append(_frame(state, player, text, played, state.events[events:], by))
            if played:
                by = []
        # a one-deal game's end: who won, and its settlement in words (RULES.md 9.0.7), as the
        # game's page said it
        result = {"winner": state.winner, "settlement": state.settlement_words()} \
            if record.rules.settlement == "portland" and state.is_terminal() else None
        # the one-deal games have no trumps until the first marriage or sequence fixes them,
        # and none at all if nobody declares one (RULES.md 9.0.2): each frame says its own
        out.append({"dealer": d.dealer, "trump": _trump(state), "frames": frames,
                    "turnup_points": opening, "cut": cut, "result": result})
        totals = done[i].state.game_scores
    return out


def _trump(state: State) -> str | None:
    """The suit of trumps, or None while (or if) they are not fixed."""
    return SUITS[state.trump] if state.trump >= 0 else None


def _frame(state: State, player: int | None, action: str | None,
           played: list[int], events: tuple[Event, ...], by: list[int]) -> dict[str, Any]:
    seats = range(state.rules.nplayers)
    return {
        # who played each card of the trick shown (``played``, else ``trick``), in order: at a
        # table of three or four the cards alone do not say it
        "by": list(by),
        "player": player,
        "action": action,
        # what the step scored: [seat, points, why, detail] (a meld's detail is its name)
        "scored": [[seat, p, reason, detail] for seat, p, reason, detail in events],
        "trick_done": bool(played),
        "played": [card_name(c) for c in played],
        "winner": state.last_trick_winner if played else None,
        "hands": [[card_name(c) for c in sorted(state.hand(s), key=display_key)] for s in seats],
        "shown": [[card_name(c) for c in sorted(state.shown(s), key=display_key)] for s in seats],
        "trick": [card_name(c) for c in state.trick_cards()],
        "trump": _trump(state),
        "turnup": card_name(state.turnup) if state.turnup is not None else None,
        "stock": state.stock_left,
        "scores": list(state.game_scores),
        "tricks": state.tricks_played,
    }
