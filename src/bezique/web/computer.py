"""The computer at the table: the seed of the agent that plays its seat (so that a chosen deal
number replays the same deal with the computer's same random numbers) and the hints offered
against it, thought out in the worker pool within a time budget and given in words and as the
action (``hint_action``, for the page to highlight the card or meld).

Hints are given against the computer alone, and at a table of three or four where every other
seat is the computer's (:func:`~bezique.web.seats.alone_with_computers`); with another person
at the table they are refused, as in the two-seat game with a friend.
"""

from __future__ import annotations

import secrets
from typing import Any

from ..cards import RANK_NAMES, card_symbol
from ..observation import Observation
from .live import COMPUTER, LiveGame, Refusal
from .seats import alone_with_computers, is_away, is_table
from .store import GameRow
from .tableview import token_card
from .views import meld_info
from .workers import AgentPool

# the hint: level 4's search, within a time budget (about 0.8 s of thinking, so that the
# answer comes within 1.5 s); at a table of three or four the same spec makes the search's
# table decision (agents.table_search) within the same 0.9 s
HINT_SPEC = "search:samples=150,ms=900"


def game_agent_seed(seed: int | None) -> int:
    """The computer's seed for a new game: from a chosen deal number (a practice game: the same
    deal replays with the computer's same random numbers, at a table as in a game of two), else
    a secret no client ever sees.

    >>> game_agent_seed(5) == game_agent_seed(5) != game_agent_seed(6)
    True
    """
    return secrets.randbits(62) if seed is None else (seed * 0x9E3779B1 + 7) % (1 << 62)


def agent_seed(row: GameRow, step: int) -> int:
    """The seed of the computer's player for its move at version ``step`` of the game."""
    return (row.agent_seed * 1_000_003 + step) % (1 << 62)


def check_help(live: LiveGame, seat: int, what: str) -> None:
    """Refuse ``what`` ("hints", "undo") unless the seat plays the computer alone: in a
    two-seat game against it, or at a table where every other seat is the computer's (and the
    seat is not one the computer has taken over)."""
    row = live.row
    verb = "are" if what.endswith("s") else "is"
    if is_table(row):
        if not alone_with_computers(row, seat):
            raise Refusal(f"{what} {verb} for a table of you and the computer", 409)
        if is_away(row, seat):
            raise Refusal("the computer is playing your seat: take it back first", 409)
    elif row.opponent != COMPUTER:
        raise Refusal(f"{what} {verb} only available against the computer", 409)


async def hint(pool: AgentPool, live: LiveGame, seat: int,
               version: int | None = None) -> dict[str, Any]:
    """The hint reply for a seat to act in a game against the computer, or a refusal (busy
    when the computer is already thinking for this game or for too many; moved on when the
    game changed while it thought)."""
    async with live.lock:
        if version is not None and version != live.row.version:
            raise Refusal("the game has moved on since that view: look again", 409)
        check_help(live, seat, "hints")
        state = live.game.state
        if state.current_player() != seat:
            raise Refusal("it is not your turn", 409)
        obs = state.observation(seat)
        asked = live.row.version
        seed = live.row.agent_seed ^ asked
    action = await pool.run(live.row.id, HINT_SPEC, seed, obs)
    if live.row.version != asked:  # an undo (or a seat taken over) while it thought
        raise Refusal("the game has moved on since that view: look again", 409)
    return {"type": "hint", "action": action, "hint_action": action,
            "text": describe(obs, action)}


def describe(obs: Observation, action: str) -> str:
    """An action in words for a hint (a partner's card on the table is marked ``+`` in a
    meld's action, RULES.md 9.5).

    >>> from bezique import Rules, State
    >>> obs = State.new_deal(Rules.preset("bezique4"), seed=1).observation(0)
    >>> describe(obs, "offer"), describe(obs, "carte")
    ('let your partner declare', 'declare carte blanche')
    >>> describe(obs, "meld QS+ JD")
    "declare bezique Q♠ J♦ for 40 with your partner's Q♠"
    >>> describe(obs, "guess 24")
    'guess that the dealer cut 24 cards'
    """
    verb, _, rest = action.partition(" ")
    if verb == "play":
        return f"play {card_symbol(token_card(rest))}"
    if verb == "meld":
        toks = rest.split()
        if any("+" in t for t in toks):
            cards = [token_card(t) for t in toks]
            kind = obs.rules.classify(cards, obs.trump)
            name, pts = (kind.name, kind.points) if kind else ("meld", 0)
            theirs = " ".join(card_symbol(c) for c, t in zip(cards, toks, strict=True)
                              if "+" in t)
            return (f"declare {name} {' '.join(card_symbol(c) for c in cards)} for {pts} "
                    f"with your partner's {theirs}")
        cards, name, pts = meld_info(obs.rules, obs.trump, action)
        return f"declare {name} {' '.join(card_symbol(c) for c in cards)} for {pts}"
    if verb == "guess":  # the cut bonus (RULES.md 9.2)
        return f"guess that the dealer cut {rest} cards"
    seven = RANK_NAMES[obs.rules.seven_rank]
    return {"pass": "draw without declaring", "exchange": f"exchange the {seven} of trumps",
            "seven": f"declare the {seven} of trumps", "offer": "let your partner declare",
            "carte": "declare carte blanche"}.get(verb, action)
