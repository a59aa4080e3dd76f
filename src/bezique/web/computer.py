"""The computer at the table: the agent that plays its seat (seeded so that a chosen deal number
replays the same game, its choices included) and the hints offered against it, in words.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..agents import Agent, make_agent
from ..agents.levels import level_spec
from ..cards import RANK_NAMES, card_symbol, parse_card
from ..observation import Observation
from .live import COMPUTER, LiveGame, Refusal
from .store import GameRow
from .views import meld_info

HINT_LEVEL = 4


def computer_agent(row: GameRow, step: int) -> Agent:
    """The computer's player for its move at version ``step`` of the game."""
    return make_agent(row.agent_spec, seed=(row.agent_seed * 1_000_003 + step) % (1 << 62))


async def hint(live: LiveGame, seat: int) -> dict[str, Any]:
    """The hint reply for a seat to act in a game against the computer, or a refusal."""
    if live.row.opponent != COMPUTER:
        raise Refusal("hints are only available against the computer", 409)
    state = live.game.state
    if state.current_player() != seat:
        raise Refusal("it is not your turn", 409)
    obs = state.observation(seat)
    agent = make_agent(level_spec(HINT_LEVEL), seed=live.row.agent_seed ^ live.row.version)
    action = await asyncio.to_thread(agent.act, obs)
    return {"type": "hint", "action": action, "text": describe(obs, action)}


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
