"""A player's history and statistics, from the games they played (their records): games and
deals won, average points a deal, the best meld, and the win rate over time, per player and
per opponent (a level of the computer, or a person) and game of two (Binocle, Rubicon, Six-pack
and Eight-pack apart from Bezique: "computer, level 2 (casual), Rubicon") or, at the tables of
three and four
(RULES.md 9.4, 9.5), per kind of table: three-handed, four-handed in partnership, four-handed
each for themselves.  At a table a deal is won with more points than every other seat (in
partnership: than the other side), a game won when the player (their side) wins it; in
partnership a deal's points are the side's.

The front ends gather the games (the terminal from its saved files, :mod:`bezique.tui.history`;
the browser from the games it holds seats in, :mod:`bezique.web.info`); this module only counts.
Everything counted is public once a deal is over: scores, melds declared, who won.

>>> from bezique import Rules
>>> from bezique.game import Game
>>> g = Game(Rules.preset("bezique", target=100), seed=1)
>>> while not g.state.is_terminal():
...     g.apply(g.state.legal_action_strings()[0])
>>> played = game_played(g.all_deals(), 0, "Ann", "computer", 1, when=0.0)
>>> t = tally([played])[("Ann", "computer, level 1 (beginner)")]
>>> (t.games, t.deals) == (int(played.won is not None), 1)
True
>>> table_label(Rules.preset("bezique4"))
'four-handed tables, in partnership'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .agents.levels import level_label
from .rules import Rules, variant_title
from .scoring import settled_for, sides
from .state import State


def table_label(rules: Rules) -> str:
    """The kind of table of a game of three or four, as its statistics are grouped."""
    if rules.nplayers == 3:
        return "three-handed tables"
    return "four-handed tables, " + ("in partnership" if rules.partnership
                                     else "each for themselves")


@dataclass(frozen=True)
class GamePlayed:
    """One game seen from one seat: each finished deal's points, the best meld, the result."""

    player: str
    opponent: str  # "computer" or the other player's name
    level: int | None  # the computer's level; None against a person
    when: float  # seconds since the epoch of the game's last move
    # (the player's points, the opponent's) per finished deal; at a table, the best other seat's
    # (in partnership: the side's points, the other side's)
    deals: tuple[tuple[int, int], ...]
    best_meld: tuple[str, int] | None
    won: bool | None  # None while the game goes on
    table: str | None = None  # the kind of table (:func:`table_label`) of a game of three or four
    variant: str = "bezique"  # the preset of a game of two (RULES.md 9.6)
    # a one-deal game's settlement (RULES.md 9.0.7) from the player's side: + won, - lost
    settled: int | None = None

    @property
    def against(self) -> str:
        """Who the game was against (or the kind of table it was played at), as players read
        it."""
        if self.table is not None:
            return self.table
        who = f"computer, {level_label(self.level)}" if self.level is not None \
            else self.opponent
        # the games of two are not alike: a deal of Rubicon scores several of Bezique's
        return who if self.variant == "bezique" else f"{who}, {variant_title(self.variant)}"


def game_played(states: Sequence[State], seat: int, player: str, opponent: str,
                level: int | None, when: float) -> GamePlayed:
    """A game (its deals, the last one current) from seat ``seat``; at a table of three or
    four it is counted by the kind of table, in partnership by the seat's side."""
    deals: list[tuple[int, int]] = []
    best: tuple[str, int] | None = None
    rules = states[0].rules if states else None
    side = seat % 2 if rules is not None and rules.partner(seat) >= 0 else -1
    for st in states:
        if not st.is_terminal():
            continue
        if side >= 0:
            both = sides(st.scores)
            deals.append((both[side], both[1 - side]))
        else:
            deals.append((st.scores[seat], max(p for s, p in enumerate(st.scores) if s != seat)))
        for s, pts, reason, detail in st.events:
            if s == seat and reason == "meld" and (best is None or pts > best[1]):
                best = (detail, pts)
    last = states[-1] if states else None
    winner = last.winner if last is not None and last.is_terminal() else None
    won = None if winner is None else winner == (side if side >= 0 else seat)
    table = table_label(rules) if rules is not None and rules.nplayers > 2 else None
    variant = rules.variant if rules is not None else "bezique"
    settled = None
    if won is not None and last is not None and last.rules.settlement == "portland":
        settled = settled_for(last.settlement(), seat)  # (the one-deal games have two seats)
    return GamePlayed(player, opponent, level, when, tuple(deals), best, won, table, variant,
                      settled)


@dataclass
class Tally:
    """What a player did against one opponent (or level), summed over games."""

    games: int = 0
    games_won: int = 0
    deals: int = 0
    deals_won: int = 0
    points: int = 0
    best_meld: tuple[str, int] | None = None
    # (when, won) of each finished game, oldest first
    results: list[tuple[float, bool]] = field(default_factory=list)
    table: bool = False  # the games of a kind of table (not against one opponent)
    settled: int | None = None  # the one-deal games' settlements summed (None: none played)

    def add(self, g: GamePlayed, group: bool = True) -> None:
        """Count one game (``group``: this tally is the game's own group, not "all")."""
        self.table = self.table or (group and g.table is not None)
        for mine, theirs in g.deals:
            self.deals += 1
            self.deals_won += mine > theirs
            self.points += mine
        if g.best_meld and (self.best_meld is None or g.best_meld[1] > self.best_meld[1]):
            self.best_meld = g.best_meld
        if g.settled is not None:
            self.settled = (self.settled or 0) + g.settled
        if g.won is not None:
            self.games += 1
            self.games_won += g.won
            self.results.append((g.when, g.won))
            self.results.sort()

    @property
    def average_points(self) -> float:
        """Points a deal, on average."""
        return self.points / self.deals if self.deals else 0.0

    @property
    def win_rate(self) -> float:
        """Games won out of games finished (0 when none is)."""
        return self.games_won / self.games if self.games else 0.0

    def rate_over_time(self) -> list[tuple[float, float]]:
        """After each finished game (oldest first): its time and the win rate so far.

        >>> t = Tally(results=[(1.0, True), (2.0, False), (3.0, True)])
        >>> [round(r, 2) for _, r in t.rate_over_time()]
        [1.0, 0.5, 0.67]
        """
        out, won = [], 0
        for i, (when, w) in enumerate(self.results, 1):
            won += w
            out.append((when, won / i))
        return out

    def to_json(self) -> dict[str, Any]:
        """The tally as JSON for the browser."""
        return {
            "table": self.table,
            "games": self.games, "games_won": self.games_won, "deals": self.deals,
            "deals_won": self.deals_won, "average_points": round(self.average_points, 1),
            "win_rate": round(self.win_rate, 3), "settled": self.settled,
            "best_meld": None if self.best_meld is None
            else {"name": self.best_meld[0], "points": self.best_meld[1]},
            "rate_over_time": [{"when": w, "rate": round(r, 3)} for w, r in self.rate_over_time()],
        }


def tally(games: Iterable[GamePlayed]) -> dict[tuple[str, str], Tally]:
    """The games summed per (player, opponent), and per player over all opponents ("all")."""
    out: dict[tuple[str, str], Tally] = {}
    for g in sorted(games, key=lambda g: g.when):
        out.setdefault((g.player, g.against), Tally()).add(g)
        out.setdefault((g.player, "all"), Tally()).add(g, group=False)
    return out


def sparkline(rates: Sequence[float]) -> str:
    """Rates from 0 to 1 as a line of block characters, one a value.

    >>> sparkline([0.0, 0.5, 1.0])
    '▁▅█'
    """
    bars = "▁▂▃▄▅▆▇█"
    return "".join(bars[min(7, int(r * 7 + 0.5))] for r in rates)


def report(tallies: dict[tuple[str, str], Tally]) -> list[str]:
    """The tallies as lines of text (the terminal's statistics screen and ``bezique stats``).

    >>> t = Tally(games=2, games_won=1, deals=5, deals_won=3, points=2000,
    ...           best_meld=("double bezique", 500), results=[(1.0, True), (2.0, False)])
    >>> print("\\n".join(report({("Ann", "all"): t})))
    Ann, all games
      games 1 won of 2 (50%) · deals 3 won of 5 · 400 points a deal · best meld double bezique 500
      win rate over time: █▅  100% 50%
    """
    if not tallies:
        return ["No games yet: the statistics count the games you play."]
    lines: list[str] = []
    for (player, against), t in sorted(tallies.items(), key=lambda kv: (kv[0][0],
                                                                        kv[0][1] != "all",
                                                                        kv[0][1])):
        title = f"{player}, all games" if against == "all" else (
            f"{player} at {against}" if t.table else f"{player} against {against}")
        best = f"{t.best_meld[0]} {t.best_meld[1]}" if t.best_meld else "none"
        lines.append(title)
        lines.append(f"  games {t.games_won} won of {t.games} ({t.win_rate:.0%}) · deals "
                     f"{t.deals_won} won of {t.deals} · {t.average_points:.0f} points a deal · "
                     f"best meld {best}")
        if t.settled is not None and against != "all":  # (the one-deal games' own groups)
            lines.append(f"  settlements {t.settled:+d} in all, {t.settled / t.games:+.0f} a "
                         f"game")
        rates = t.rate_over_time()
        if rates:
            shown = [r for _, r in rates[-12:]]
            lines.append(f"  win rate over time: {sparkline(shown)}  "
                         + " ".join(f"{r:.0%}" for r in shown))
    return lines
