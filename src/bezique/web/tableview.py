"""What each seat of a table for three or four is sent (and :func:`view_for`, the one entry for
every game): built from that seat's :class:`~bezique.observation.Observation` and the public
facts of the table only, so no other seat's concealed hand (a partner's included) or the stock
ever leaves the server.

Beside the two-seat view's fields it says, per seat, the name, kind (you, friend, computer),
whether the computer has taken the seat over, the number of concealed cards and the ones of
them everyone knows of; the trick's cards with their seats; per-side totals in a partnership;
how many friends the game still waits for; whether an undo would be accepted (a person
alone with computers, :mod:`bezique.web.computer`); and, once the game is over, the next game
someone started at the table.
"""

from __future__ import annotations

import re
from typing import Any

from ..cards import RANK_NAMES, SUITS, card_name, card_symbol, parse_card
from ..narrate import win_reason
from ..observation import Observation
from ..rules import Rules
from ..scoring import sides
from .again import next_game
from .live import LiveGame
from .seats import alone_with_computers, is_away, is_table, seats_view, waiting
from .store import GameRow
from .views import (
    hand_cards,
    seat_view,
    shown_names,
    table_cards,
    trick_won,
    turnup_line,
)


def view_for(live: LiveGame, seat: int, online: list[bool]) -> dict[str, Any]:
    """The message a seat receives about its game: a table's view, or the two-seat one."""
    if not is_table(live.row):
        return seat_view(live, seat, online)
    obs = live.game.state.observation(seat)
    deal_scores = [list(st.scores) for st in live.game.deals]
    if live.game.state.is_terminal():
        deal_scores.append(list(live.game.state.scores))
    return table_view(obs, live.row, len(live.game.deals) + 1, online, deal_scores)


def token_card(tok: str) -> int:
    """The card of an action's card token (``QS``, ``QS*``, ``QS*2``, a partner's ``QS+``)."""
    return parse_card(re.split(r"[*+]", tok, maxsplit=1)[0])


def meld_of(rules: Rules, trump: int, text: str) -> dict[str, Any]:
    """A ``meld ...`` action: its cards (those on the partner's table marked), name, points."""
    toks = text.split()[1:]
    cards = [token_card(t) for t in toks]
    kind = rules.classify(cards, trump)
    return {"action": text, "name": kind.name if kind else "meld",
            "points": kind.points if kind else 0, "cards": [card_name(c) for c in cards],
            "partner_cards": [card_name(c) for c, t in zip(cards, toks, strict=True)
                              if "+" in t]}


def _plays(obs: Observation) -> tuple[list[list[tuple[int, int]]], list[tuple[int, int]]]:
    """The completed tricks' (seat, card) in play order, and the current trick's."""
    plays = [(seat, token_card(text.split()[1])) for seat, text in obs.actions
             if text.startswith("play ")]
    # the current trick is the last plays (however many seats play it: four, or two in the
    # four-handed duels); the completed ones come before it
    pos = len(plays) - len(obs.trick)
    done: list[list[tuple[int, int]]] = []
    for t in reversed(obs.tricks):
        size = len(t.cards) or 2
        done.append(plays[max(0, pos - size):pos])
        pos -= size
    return done[::-1], plays[len(plays) - len(obs.trick):]


def _log(obs: Observation, names: list[str], last: int = 40) -> list[dict[str, Any]]:
    """The deal's last actions as sentences (every one is public at the table)."""
    lead_at: set[int] = set()  # the indexes of the plays that led a trick
    won_at: dict[int, int] = {}  # the index of each trick's last play: the trick's winner
    k = 0
    for t in obs.tricks:
        lead_at.add(k)
        k += len(t.cards) or 2
        won_at[k - 1] = t.winner
    lead_at.add(k)
    out = turnup_line(obs, names) if len(obs.actions) <= last else []
    seven = RANK_NAMES[obs.rules.seven_rank]
    played = 0
    last_win = -1  # the winner of the last trick finished so far
    for i, (seat, text) in enumerate(obs.actions):
        verb, _, rest = text.partition(" ")
        if verb == "play":
            played += 1
            last_win = won_at.get(played - 1, last_win)
        if i < len(obs.actions) - last:
            continue
        who = "You" if seat == obs.seat else names[seat]
        if verb == "play":
            led = (played - 1) in lead_at
            line = f"{who} {'led' if led else 'played'} {card_symbol(token_card(rest))}"
            win = won_at.get(played - 1, -1)  # the trick's last card: who won it
            if win >= 0:
                line += trick_won(obs, names, seat, win)
        elif verb == "meld":
            m = meld_of(obs.rules, obs.trump, text)
            line = (f"{who} declared {m['name']} "
                    f"{' '.join(card_symbol(parse_card(c)) for c in m['cards'])} "
                    f"(+{m['points']})" + (" with the partner's cards" if m["partner_cards"]
                                           else ""))
        elif verb == "exchange":
            line = f"{who} exchanged the {seven} of trumps for the turn-up (+10)"
        elif verb == "seven":
            line = f"{who} declared the {seven} of trumps (+10)"
        elif verb == "offer":
            line = f"{who} offered the declaring turn to the partner"
        elif seat != last_win:  # the partner offered the turn: the winner still draws first
            line = f"{who} ended the declaring turn; each drew from the stock"
        else:
            line = f"{who} drew from the stock"
        out.append({"seat": seat, "text": line})
    return out


def table_view(obs: Observation, row: GameRow, deal_number: int, online: list[bool],
               deal_scores: list[list[int]]) -> dict[str, Any]:
    """Turn a seat's observation (and the table's public facts) into the JSON it is sent."""
    seat, rules, n = obs.seat, obs.rules, obs.rules.nplayers
    legal = set(obs.legal)
    short = waiting(row)
    hand = hand_cards(obs, legal)

    def table(s: int) -> list[dict[str, Any]]:
        return table_cards(obs, s, legal)

    melds = sorted((meld_of(rules, obs.trump, a) for a in legal if a.startswith("meld ")),
                   key=lambda m: (-int(m["points"]), str(m["action"])))
    done, current = _plays(obs)
    last = None
    # (the observation's tricks miss the four-handed duels' two-card tricks: then none is shown)
    if obs.tricks and len(obs.tricks) == obs.tricks_played:
        t = obs.tricks[-1]
        last = {"leader": t.leader, "winner": t.winner,
                "cards": [{"card": card_name(c), "seat": s} for s, c in done[-1]]}
    turn = obs.turn if 0 <= obs.turn < n else None
    drew = None
    mine = [text for s, text in obs.actions if s == seat]
    if mine and mine[-1] == "pass" and obs.draws and obs.actions[-1][1] != "play":
        drew = card_name(obs.draws[-1])
    totals = [obs.totals[i] + obs.scores[i] for i in range(n)]
    partner = rules.partner(seat)
    names = shown_names(row)
    return {
        "type": "state",
        "game": {
            "id": row.id, "opponent": row.opponent, "level": row.level,
            "variant": rules.variant, "target": rules.target, "options": rules.options(),
            "you": seat,
            "names": names, "online": online, "version": row.version,
            "deal": deal_number, "totals": totals, "winner": obs.winner,
            "seats": seats_view(row, online, seat, over=obs.winner is not None),
            "partnership": partner >= 0,
            "partner": partner if partner >= 0 else None,
            "side_totals": list(sides(totals)) if partner >= 0 else None,
            "waiting_for": short,
            "waiting_for_friend": short > 0,
            "deal_scores": deal_scores,  # each finished deal's points per seat (public)
            # exactly when an undo would be accepted (web.manager: alone with the computer)
            "can_undo": alone_with_computers(row, seat) and not is_away(row, seat)
            and obs.winner is None and any(p == seat for p, _ in obs.actions),
            "finished_deals": deal_number - (0 if obs.phase == "over" else 1),
            "win_reason": win_reason(obs, names, obs.seat),
            # the next game at this table, once someone has started it (who, and its id: this
            # seat's token in it is given to this seat's own link only, by POST .../again)
            "next_game": next_game(row, seat),
        },
        "deal": {
            "trump": SUITS[obs.trump] if obs.trump >= 0 else None,
            "dealer": obs.dealer,
            "turn": turn,
            "phase": obs.phase,
            # nobody plays before every seat sits, nor while the computer holds the seat
            "your_turn": turn == seat and short == 0 and not is_away(row, seat),
            "stock": obs.stock,
            "turnup": card_name(obs.turnup) if obs.turnup is not None else None,
            "end_phase": obs.end_phase,
            "hand": hand,
            # each seat's concealed cards: how many, and those everyone knows of
            "hidden": [obs.hand_sizes[s] - len(obs.shown[s]) for s in range(n)],
            "known": [[] if s == seat else [card_name(c) for c in obs.known_cards[s]]
                      for s in range(n)],
            "table": [table(s) for s in range(n)],
            "melds": [[{"name": m.name, "cards": [card_name(c) for c in m.cards],
                        "points": m.points, "intact": m.intact} for m in obs.melds[s]]
                      for s in range(n)],
            "trick": [{"card": card_name(c), "seat": s} for s, c in current],
            "last_trick": last,
            "tricks_played": obs.tricks_played,
            "scores": list(obs.scores),
            "side_scores": list(sides(obs.scores)) if partner >= 0 else None,
            "brisques": list(obs.brisques),
            "melds_available": melds,
            "specials": [a for a in ("exchange", "seven", "offer", "pass") if a in legal],
            "legal": sorted(legal),
            "log": _log(obs, names),
            "drew": drew,
        },
    }
