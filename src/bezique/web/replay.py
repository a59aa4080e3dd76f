"""The finished deals of a game: their record (nothing in it is hidden from anyone any more) and
every position of them, frame by frame, for the replay view.
"""

from __future__ import annotations

from typing import Any

from ..cards import SUITS, card_name, split_token
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
        frames = [_frame(state, None, None, [])]
        for text in d.actions:
            player = state.current_player()
            before, lead = state.tricks_played, state.trick_cards()
            state.apply(text)
            played = []
            if state.tricks_played > before:  # this play completed a trick: show both cards
                played = [*lead, split_token(text.split()[1])[0]]
            frames.append(_frame(state, player, text, played))
        # the one-deal games have no trumps until the first marriage or sequence fixes them,
        # and none at all if nobody declares one (RULES.md 9.0.2): each frame says its own
        out.append({"dealer": d.dealer, "trump": _trump(state), "frames": frames,
                    "turnup_points": opening})
        totals = done[i].state.game_scores
    return out


def _trump(state: State) -> str | None:
    """The suit of trumps, or None while (or if) they are not fixed."""
    return SUITS[state.trump] if state.trump >= 0 else None


def _frame(state: State, player: int | None, action: str | None,
           played: list[int]) -> dict[str, Any]:
    seats = range(state.rules.nplayers)
    return {
        "player": player,
        "action": action,
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
