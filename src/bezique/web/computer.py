"""The computer at the table: the seed of the agent that plays its seat (so that a chosen deal
number replays the same game, its choices included) and the hints offered against it, thought
out in the worker pool within a time budget and given in words and as the action
(``hint_action``, for the page to highlight the card or meld).
"""

from __future__ import annotations

from typing import Any

from ..cards import RANK_NAMES, card_symbol, parse_card
from ..observation import Observation
from .live import COMPUTER, LiveGame, Refusal
from .store import GameRow
from .views import meld_info
from .workers import AgentPool

# the hint: level 4's search, within a time budget (about 0.8 s of thinking, so that the
# answer comes within 1.5 s)
HINT_SPEC = "search:samples=150,ms=900"


def agent_seed(row: GameRow, step: int) -> int:
    """The seed of the computer's player for its move at version ``step`` of the game."""
    return (row.agent_seed * 1_000_003 + step) % (1 << 62)


async def hint(pool: AgentPool, live: LiveGame, seat: int,
               version: int | None = None) -> dict[str, Any]:
    """The hint reply for a seat to act in a game against the computer, or a refusal (busy
    when the computer is already thinking for this game or for too many)."""
    async with live.lock:
        if version is not None and version != live.row.version:
            raise Refusal("the game has moved on since that view: look again", 409)
        if live.row.opponent != COMPUTER:
            raise Refusal("hints are only available against the computer", 409)
        state = live.game.state
        if state.current_player() != seat:
            raise Refusal("it is not your turn", 409)
        obs = state.observation(seat)
        seed = live.row.agent_seed ^ live.row.version
    action = await pool.run(live.row.id, HINT_SPEC, seed, obs)
    return {"type": "hint", "action": action, "hint_action": action,
            "text": describe(obs, action)}


def describe(obs: Observation, action: str) -> str:
    """An action in words for a hint."""
    verb, _, rest = action.partition(" ")
    if verb == "play":
        return f"play {card_symbol(parse_card(rest.split('*')[0]))}"
    if verb == "meld":
        cards, name, pts = meld_info(obs.rules, obs.trump, action)
        return f"declare {name} {' '.join(card_symbol(c) for c in cards)} for {pts}"
    seven = RANK_NAMES[obs.rules.seven_rank]
    return {"pass": "draw without declaring", "exchange": f"exchange the {seven} of trumps",
            "seven": f"declare the {seven} of trumps"}.get(verb, action)
