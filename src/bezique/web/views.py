"""What each seat is sent about its game: the JSON view built from that seat's
:class:`~bezique.observation.Observation` only (so the other hand and the stock never leave the
server), the deal's log in words, the next game started after a friends' game, the public
summary shown in the list of games, and what an invitation is for (:func:`invitation_view`).
"""

from __future__ import annotations

from typing import Any

from ..cards import RANK_NAMES, SUITS, card_name, card_symbol, rank_of, split_token, suit_of
from ..game import Game
from ..narrate import win_reason
from ..observation import Observation
from ..position import CUT_24, CUT_GUESSED
from ..rules import Rules, variant_title
from .again import kept, next_game
from .live import COMPUTER, FRIEND, LiveGame
from .seats import COMPUTER_SEAT, is_table
from .store import GameRow

# Hand order on screen: suits alternate black and red (S H C D), ranks high to low.
DISPLAY_SUITS = (0, 1, 3, 2)


def _code(card: int) -> str:
    return card_name(card)


def display_key(card: int) -> tuple[int, int]:
    """The order of cards on screen (see :data:`DISPLAY_SUITS`)."""
    return (DISPLAY_SUITS.index(suit_of(card)), rank_of(card))


def shown_names(row: GameRow) -> list[str]:
    """The seats' names as the game's page shows them: a computer by its seat's number alone
    ("Computer 2", "Computer"), its level said once beside it (the seat's tag), where the records
    and the list of games keep the whole name ("Computer 2 (level 5 expert)"): on a phone the
    whole name takes two lines at every mention.

    >>> row = GameRow(id="g", created=0, updated=0, opponent=COMPUTER, level=5, agent_spec="",
    ...               agent_seed=0, seed=1, token_hashes=[], invite_hash=None,
    ...               names=["Ann", "Computer (level 5 expert)"], record={}, version=0)
    >>> shown_names(row)
    ['Ann', 'Computer']
    """
    names = list(row.names)
    for seat, name in enumerate(names):
        if _is_computer(row, seat) and name.endswith(")") and " (level " in name:
            names[seat] = name[:name.index(" (level ")]
    return names


def computer_levels(row: GameRow) -> list[int | None]:
    """Each seat's computer level, or None for a person: what :func:`shown_names` leaves out
    of a computer's name, for a page to say once (the replay's list of players).

    >>> row = GameRow(id="g", created=0, updated=0, opponent=COMPUTER, level=5, agent_spec="",
    ...               agent_seed=0, seed=1, token_hashes=[], invite_hash=None,
    ...               names=["Ann", "Computer (level 5 expert)"], record={}, version=0)
    >>> computer_levels(row)
    [None, 5]
    """
    return [(int(row.seats[seat].get("level", row.level)) if is_table(row) else row.level)
            if _is_computer(row, seat) else None for seat in range(len(row.names))]


def _is_computer(row: GameRow, seat: int) -> bool:
    """Whether the computer plays ``seat`` (at a table, by the seat's kind)."""
    if is_table(row):
        return bool(row.seats[seat].get("kind") == COMPUTER_SEAT)
    return row.opponent == COMPUTER and seat == 1


def meld_info(rules: Rules, trump: int, text: str) -> tuple[list[int], str, int]:
    """The cards, name and points of a ``meld ...`` action text."""
    cards = [split_token(tok)[0] for tok in text.split()[1:]]
    kind = rules.classify(cards, trump)
    return (cards, kind.name, kind.points) if kind else (cards, "meld", 0)


def turnup_line(obs: Observation, names: list[str]) -> list[dict[str, Any]]:
    """The deal's first line when the turn-up is a seven of trumps, which scores for the dealer
    before anyone plays (RULES.md 2.1): else the dealer's points stood unexplained.

    >>> from bezique import Rules, State
    >>> obs = State.new_deal(Rules.preset("bezique"), seed=24, dealer=1).observation(0)
    >>> turnup_line(obs, ["Ann", "Bob"]), obs.scores
    ([{'seat': 1, 'text': 'Bob turned up 7♦, a seven of trumps (+10)'}], (0, 10))
    """
    card = obs.turnup_dealt
    if card < 0 or rank_of(card) != obs.rules.seven_rank:
        return []
    who = "You" if obs.dealer == obs.seat else names[obs.dealer]
    return [{"seat": obs.dealer, "text": f"{who} turned up {card_symbol(card)}, a seven of "
                                         f"trumps (+{obs.rules.seven_points})"}]


def trick_won(obs: Observation, names: list[str], seat: int, win: int) -> str:
    """What the log adds to the trick's last card, played by ``seat``: who won the trick
    (``win``), in the words of both logs, the two-seat game's and a table's.

    >>> from bezique import Rules, State
    >>> obs = State.new_deal(Rules.preset("bezique"), seed=1).observation(0)
    >>> trick_won(obs, ["Ann", "Bob"], 1, 1), trick_won(obs, ["Ann", "Bob"], 1, 0)
    (' and won the trick', '; you won the trick')
    """
    if win == seat:
        return " and won the trick"
    return f"; {'you' if win == obs.seat else names[win]} won the trick"


def _log(obs: Observation, names: list[str], last: int = 40) -> list[dict[str, Any]]:
    """The deal's last actions as sentences (all of them are public at the table), each trick's
    second card with who won the trick, after the turned-up seven's points, if any, while the
    log starts with the deal."""
    start = max(0, len(obs.actions) - last)
    out: list[dict[str, Any]] = turnup_line(obs, names) if start == 0 else []
    plays = sum(1 for _, text in obs.actions[:start] if text.startswith("play"))
    seven = RANK_NAMES[obs.rules.seven_rank]
    for i, (seat, text) in enumerate(obs.actions[start:], start):
        who = "You" if seat == obs.seat else names[seat]
        verb, _, rest = text.partition(" ")
        if verb == "play":
            card = card_symbol(split_token(rest)[0])
            line = f"{who} {'led' if plays % 2 == 0 else 'played'} {card}"
            # the trick's second card: who won it (as the table's log says it)
            if plays % 2 == 1 and plays // 2 < len(obs.tricks):
                line += trick_won(obs, names, seat, obs.tricks[plays // 2].winner)
            plays += 1
        elif verb == "meld":
            cards, name, pts = meld_info(obs.rules, obs.trump, text)
            line = f"{who} declared {name} {' '.join(card_symbol(c) for c in cards)} (+{pts})"
        elif verb == "exchange":
            line = f"{who} exchanged the {seven} of trumps for the turn-up (+10)"
        elif verb == "seven":
            line = f"{who} declared the {seven} of trumps (+10)"
        elif verb == "carte":  # (a repeat shows the card just drawn: RULES.md 9.0.4 b)
            again = (seat, "carte") in obs.actions[:i]
            line = (f"{who} declared carte blanche"
                    + (" again: the card drawn is no king, queen or jack" if again
                       else ": no king, queen or jack in the hand")
                    + f" (+{obs.rules.carte_points})")
        elif verb == "guess":
            line = _guess_line(obs, names, who, int(rest))
        else:
            line = f"{who} drew from the stock"
        out.append({"seat": seat, "text": line})
    return out


def _guess_line(obs: Observation, names: list[str], who: str, guess: int) -> str:
    """The cut bonus's guess in words (RULES.md 9.2): the guess, the cut, who scored."""
    dealer = "you" if obs.dealer == obs.seat else names[obs.dealer]
    line = f"{who} guessed the cut at {guess} cards"
    if obs.cut is None:  # (the cut is counted for all once guessed: not seen here)
        return line
    scored = ([f"+{CUT_GUESSED} for the right guess"] if guess == obs.cut else []) + (
        [f"+{CUT_24} to {dealer} for a cut of exactly 24"] if obs.cut == 24 else [])
    return f"{line}; {dealer} cut {obs.cut}: {', '.join(scored) or 'no score'}"


def hand_cards(obs: Observation, legal: set[str]) -> list[dict[str, Any]]:
    """The seat's concealed cards in screen order, each with its play action if legal."""
    return [{"card": _code(c), "action": f"play {_code(c)}" if f"play {_code(c)}" in legal
             else None} for c in sorted(obs.hand, key=display_key)]


def table_cards(obs: Observation, s: int, legal: set[str]) -> list[dict[str, Any]]:
    """Seat ``s``'s shown cards in screen order; the viewing seat's own carry their play
    action (``QS*`` or, where copies differ, ``QS*2``: :meth:`Observation.shown_plays`) if
    legal."""
    cards = sorted(obs.shown[s], key=display_key)
    plays = obs.shown_plays(cards) if s == obs.seat else [""] * len(cards)
    return [{"card": _code(c), "action": a if a in legal else None}
            for c, a in zip(cards, plays, strict=True)]


def brisques_label(rules: Rules) -> str | None:
    """What the cards won in tricks count as, for the score table: brisques (aces and tens),
    Binocle's card points, or None where they count nothing (Six- and Eight-pack).

    >>> from bezique.rules import BINOCLE, BEZIQUE, SIXPACK
    >>> brisques_label(BEZIQUE), brisques_label(BINOCLE), brisques_label(SIXPACK)
    ('Brisques', 'Card points', None)
    """
    if not any(rules.card_points):
        return None
    return "Brisques" if set(rules.card_points) <= {0, 10} else "Card points"


def seat_view(live: LiveGame, seat: int, online: list[bool]) -> dict[str, Any]:
    """The whole message a seat receives about its game, built from its observation only."""
    obs: Observation = live.game.state.observation(seat)
    deal_scores = [list(st.scores) for st in live.game.deals]
    if live.game.state.is_terminal():
        deal_scores.append(list(live.game.state.scores))
    st = live.game.state
    words = None
    if st.rules.settlement == "portland" and st.is_terminal():
        words = (st.settlement_words(), st.settlement_words(legend=True))
    return build_view(obs, live.row, len(live.game.deals) + 1, online, deal_scores, words)


def build_view(
    obs: Observation, row: GameRow, deal_number: int, online: list[bool],
    deal_scores: list[list[int]] | None = None,
    settlement: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """Turn an observation (and the game's public facts) into the JSON a seat is sent."""
    seat, other = obs.seat, 1 - obs.seat
    legal = set(obs.legal)
    rules = obs.rules
    names = shown_names(row)
    hand = hand_cards(obs, legal)

    def table(s: int) -> list[dict[str, Any]]:
        return table_cards(obs, s, legal)

    melds_avail: list[dict[str, Any]] = []
    for text in sorted(a for a in legal if a.startswith("meld ")):
        cards, name, pts = meld_info(rules, obs.trump, text)
        melds_avail.append(
            {"action": text, "name": name, "points": pts, "cards": [_code(c) for c in cards]}
        )
    melds_avail.sort(key=lambda m: (-int(m["points"]), str(m["action"])))
    specials = [a for a in ("exchange", "seven", "carte", "pass") if a in legal]
    guesses = sorted(int(a.split()[1]) for a in legal if a.startswith("guess "))
    won = [0, 0]
    for t in obs.tricks:
        won[t.winner] += rules.card_points[rank_of(t.lead)] + rules.card_points[rank_of(t.follow)]
    last = obs.tricks[-1] if obs.tricks else None
    leader = 1 - obs.turn if obs.phase == "follow" else seat  # only a follower faces a trick
    over = obs.phase == "over"
    drew = None
    if obs.actions and obs.actions[-1][1] == "pass" and obs.draws:
        drew = _code(obs.draws[-1])
    opp_table = len(obs.shown[other])
    totals = [obs.totals[0] + obs.scores[0], obs.totals[1] + obs.scores[1]]
    turn = obs.turn if obs.turn in (0, 1) else None
    waiting = row.opponent == FRIEND and row.token_hashes[1] is None
    return {
        "type": "state",
        "game": {
            "id": row.id,
            "opponent": row.opponent,
            "level": row.level,
            "variant": rules.variant,
            "target": rules.target,
            "options": rules.options(),  # the rule options chosen (house rules), if any
            "you": seat,
            "names": names,
            "online": online,
            "version": row.version,
            "deal": deal_number,
            "totals": totals,
            "winner": obs.winner,
            "win_reason": win_reason(obs, names, seat),  # won on the count of brisques
            "waiting_for_friend": waiting,
            # the other seat kept for the friend of the last game (no invitation: they take it
            # from that game's page), and, once this game is over, the next one either of the
            # two started (its id and who: this seat's token in it goes to this seat's link only)
            "kept": kept(row, other),
            "next_game": next_game(row, seat),
            # each finished deal's points [seat 0, seat 1] (public: for the game-over screen)
            "deal_scores": deal_scores or [],
            "can_undo": row.opponent == COMPUTER
            and obs.winner is None
            and any(p == seat for p, _ in obs.actions),
            "finished_deals": deal_number - (0 if over else 1),
        },
        "deal": {
            "trump": SUITS[obs.trump] if obs.trump >= 0 else None,  # None: not fixed yet
            "dealer": obs.dealer,
            "turn": turn,
            "phase": obs.phase,
            "your_turn": turn == seat and not waiting,  # nobody plays before both seats sit
            "stock": obs.stock,
            "turnup": _code(obs.turnup) if obs.turnup is not None else None,
            "end_phase": obs.end_phase,
            "hand": hand,
            "opponent_hidden": obs.opponent_hand_size - opp_table,
            "opponent_known": [_code(c) for c in obs.opponent_known],
            "table": [table(0), table(1)],
            "melds": [
                [
                    {"name": m.name, "cards": [_code(c) for c in m.cards], "points": m.points,
                     "intact": m.intact}
                    for m in obs.melds[s]
                ]
                for s in (0, 1)
            ],
            "trick": [{"card": _code(c), "seat": leader} for c in obs.trick],
            "last_trick": None
            if last is None
            else {
                "leader": last.leader,
                "lead": _code(last.lead),
                "follow": _code(last.follow),
                "winner": last.winner,
            },
            "tricks_played": obs.tricks_played,
            "scores": list(obs.scores),
            "brisques": won,
            # what the row of cards won in tricks is called; None where they count nothing
            "brisques_label": brisques_label(rules),
            "melds_available": melds_avail,
            "specials": specials,
            "guesses": guesses,  # the cut bonus: the guesses of the cut (RULES.md 9.2)
            # what the cut bonus scores: a right guess, and the dealer's cut of exactly 24
            "cut_guessed": CUT_GUESSED, "cut_24": CUT_24,
            # the one-deal games: how the deal is settled, in words, once it is over
            "settlement": settlement[0] if settlement else None,
            "settlement_legend": settlement[1] if settlement else None,
            "one_deal": rules.settlement == "portland",
            "carte_points": rules.carte_points,  # carte blanche's (RULES.md 9.0.4), 0: none
            "legal": sorted(legal),
            "log": _log(obs, names),
            "drew": drew,
        },
    }


def summary(game: Game) -> dict[str, Any]:
    """What the list of games shows about one game (public facts only)."""
    st = game.state
    turn = st.current_player()
    return {
        "variant": game.rules.variant,
        "target": game.rules.target,
        "scores": list(st.game_scores),
        "deal": len(game.deals) + 1,
        "turn": turn if 0 <= turn < game.rules.nplayers else None,
        "deal_over": st.is_terminal(),
        "winner": game.winner,
        # a partnership's side totals (seats 0 & 2, 1 & 3; RULES.md 9.5), else null
        "sides": list(st.side_scores()) if st.partner(0) >= 0 else None,
    }


def invitation_view(live: LiveGame, seat: int) -> dict[str, Any]:
    """What a friend opening an invitation (for ``seat``) is told before taking the seat: the
    game, its length and house rules, who sits where and who their partner is (all public at
    the table: nothing of any hand)."""
    row, rules = live.row, live.game.rules
    partner = rules.partner(seat)
    return {"id": row.id, "seat": seat, "variant": rules.variant,
            "variant_title": variant_title(rules.variant),
            "target": None if rules.settlement == "portland" else rules.target,
            "options": rules.options(), "names": shown_names(row),
            "levels": computer_levels(row), "partner": partner if partner >= 0 else None}
