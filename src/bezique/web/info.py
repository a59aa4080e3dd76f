"""The site's pages that only read: the rules for players (the same text as the terminal's
rules screen, :mod:`bezique.howto`) and a player's statistics over the games their browser
holds seats in (:mod:`bezique.stats`).

The statistics count only what is public once a deal is over (scores, melds declared, winners),
and only for games whose seat token the browser sends.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request

from ..howto import rules_html, section_titles
from ..stats import GamePlayed, game_played, tally
from .live import COMPUTER, LiveGame, Refusal
from .manager import Manager

MAX_GAMES = 200


def played_in(live: LiveGame, seat: int) -> GamePlayed:
    """One web game from one seat, for the statistics."""
    row = live.row
    level = row.level if row.opponent == COMPUTER else None
    return game_played(live.game.all_deals(), seat, row.names[seat], row.names[1 - seat]
                       if level is None else COMPUTER, level, row.updated)


def add_info_routes(app: FastAPI, manager: Manager,
                    body: Callable[[Request], Awaitable[Any]]) -> None:
    """Add ``GET /api/rules`` and ``POST /api/stats`` to the site."""

    @app.get("/api/rules")
    async def rules() -> dict[str, Any]:
        return {"sections": section_titles(), "html": rules_html()}

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
        recent = [{"when": g.when, "against": g.against, "won": g.won,
                   "deals": len(g.deals), "points": sum(d[0] for d in g.deals)}
                  for g in sorted(games, key=lambda g: -g.when)[:20]]
        return {"groups": groups, "recent": recent}
