"""The site's requests that only read: the rules for players (the same text as the terminal's
rules screen, :mod:`bezique.howto`), why a hint (:mod:`bezique.agents.explain`, from the
asking seat's observation only, wherever hints are given: against the computer, and at a table
of a person alone with computers) and a player's statistics over the games their browser holds
seats in (:mod:`bezique.stats`).

The statistics count only what is public once a deal is over (scores, melds declared, winners),
and only for games whose seat token the browser sends; the games at tables of three and four
are grouped by the kind of table (:func:`bezique.stats.table_label`), won when the seat (in
partnership, its side) wins.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request

from ..agents.explain import explain
from ..howto import rules_html, section_titles
from ..stats import GamePlayed, game_played, tally
from .computer import check_help
from .live import COMPUTER, LiveGame, Refusal
from .manager import Manager
from .seats import is_table

MAX_GAMES = 200


def played_in(live: LiveGame, seat: int) -> GamePlayed:
    """One web game from one seat, for the statistics (a table's: by its kind of table)."""
    row = live.row
    if is_table(row):
        return game_played(live.game.all_deals(), seat, row.names[seat], row.opponent, None,
                           row.updated)
    level = row.level if row.opponent == COMPUTER else None
    return game_played(live.game.all_deals(), seat, row.names[seat], row.names[1 - seat]
                       if level is None else COMPUTER, level, row.updated)


def add_info_routes(app: FastAPI, manager: Manager,
                    body: Callable[[Request], Awaitable[Any]]) -> None:
    """Add ``GET /api/rules``, ``POST /api/games/{id}/explain`` and ``POST /api/stats``."""

    @app.get("/api/rules")
    async def rules() -> dict[str, Any]:
        return {"sections": section_titles(), "html": rules_html()}

    @app.post("/api/games/{game_id}/explain")
    async def explain_hint(game_id: str, request: Request) -> dict[str, Any]:
        data = await body(request)
        if not isinstance(data, dict):
            raise Refusal('send {"token": "...", "action": "play QS"}')
        live, seat = manager.seat_or_refuse(game_id, str(data.get("token", "")))
        # where the hints are given: against the computer, and at a table of a person alone
        # with computers (bezique.agents.explain speaks of tables too)
        check_help(live, seat, "hints")
        obs = live.game.state.observation(seat)
        action = data.get("action")
        if obs.turn != seat or not isinstance(action, str) or action not in obs.legal:
            raise Refusal("that is not an action you can take now", 409)
        why = await asyncio.to_thread(explain, obs, action)
        return {"action": action, "why": why}

    @app.post("/api/stats")
    async def stats(request: Request) -> dict[str, Any]:
        data = await body(request)
        tokens = data.get("games") if isinstance(data, dict) else None
        if not isinstance(tokens, dict) or len(tokens) > MAX_GAMES:
            raise Refusal(f"send {{\"games\": {{game id: token, ...}}}} (at most {MAX_GAMES})")
        games = []
        for gid, token in tokens.items():
            try:
                live, seat = manager.seat_or_refuse(str(gid), str(token))
            except Refusal:
                continue
            games.append(played_in(live, seat))
        groups = [{"player": p, "against": a, **t.to_json()}
                  for (p, a), t in sorted(tally(games).items(),
                                          key=lambda kv: (kv[0][0], kv[0][1] != "all",
                                                          kv[0][1]))]
        recent = [{"when": g.when, "against": g.against, "table": g.table is not None,
                   "won": g.won,
                   "deals": len(g.deals), "points": sum(d[0] for d in g.deals)}
                  for g in sorted(games, key=lambda g: -g.when)[:20]]
        return {"groups": groups, "recent": recent}
