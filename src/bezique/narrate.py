"""A readable trick-by-trick account of a deal, for ``bezique replay`` and ``bezique demo``.

The account sees every card (it is for watching or studying a game, not for playing one): the
hands at the deal, one line per trick with its winner, each declaration with its points and
the running score, the draws that end the stock, and a summary with the last trick and brisques.

>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("bezique"), seed=1)
>>> first = s.legal_action_strings()[0]
>>> t = s.clone(); t.apply(first)
>>> second = t.legal_action_strings()[0]
>>> print(*narrate(s, [first, second], ("North", "South")))  # doctest: +ELLIPSIS
Trick 1: North leads ..., South plays .... ... wins.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from . import actions as act
from .cards import RANK_NAMES, SUIT_SYMBOLS, card_of, card_symbol, make_card, rank_of, suit_of
from .errors import BeziqueError
from .observation import Observation
from .scoring import counted_first, sides
from .state import State


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_symbol(c) for c in sorted(cards, key=lambda c: (suit_of(c), rank_of(c))))


def _seven(state: State) -> str:
    """The seven of trumps (Binocle: the nine, the dix) as text, e.g. ``7♥``."""
    return card_symbol(make_card(state.rules.seven_rank, state.trump))


def _bris_word(state: State | Observation) -> str:
    return "card points" if state.rules.variant == "binocle" else "brisques"


def _score_text(state: State, names: Sequence[str], scores: Sequence[int] | None = None) -> str:
    s = state.scores if scores is None else scores
    return ", ".join(f"{names[i]} {s[i]}" for i in range(len(s)))


def _seats_from_left(state: State) -> list[int]:
    """The seats in playing order from the dealer's left, the dealer last."""
    n = state.rules.nplayers
    return [(state.dealer + 1 + i) % n for i in range(n)]


def check_names(state: State, names: Sequence[str]) -> None:
    """Refuse, with :class:`BeziqueError`, ``names`` that are not one text per seat."""
    n = state.rules.nplayers
    if isinstance(names, str) or len(names) != n or not all(isinstance(x, str) for x in names):
        raise BeziqueError(f"the players' names are {n} texts, one per seat, not {names!r:.60}")


def deal_header(state: State, number: int, names: Sequence[str]) -> list[str]:
    """Lines that open a deal: who deals, the turn-up and trumps, the game so far, the hands."""
    check_names(state, names)
    if state.turnup_card < 0:
        lines = [
            f"Deal {number}: {names[state.dealer]} deals. No turn-up: the first marriage or "
            "sequence declared fixes trumps.",
        ]
    else:
        tu = card_of(state.turnup_card)
        lines = [
            f"Deal {number}: {names[state.dealer]} deals. Turn-up {card_symbol(tu)}: trumps are "
            f"{SUIT_SYMBOLS[state.trump]}. Game so far: "
            f"{_score_text(state, names, state.totals)}.",
        ]
    width = max(len(n) for n in names)
    for seat in _seats_from_left(state):
        hand = _cards([card_of(p) for p in state.deal_hands[seat]])
        lines.append(f"  {names[seat]:<{width}}  {hand}")
    for seat, pts, reason, _ in state.events:
        if reason == "turnup":
            lines.append(
                f"  The turn-up is the {RANK_NAMES[rank_of(state.turnup_card)]} of trumps: "
                f"{names[seat]} scores {pts}."
            )
    return lines


def step_lines(before: State, action: int, after: State, names: Sequence[str]) -> list[str]:
    """Lines describing one applied action, given the states before and after it.

    A card played prints nothing until the trick is complete: then it is told in one line.
    """
    p = before.current_player()
    who = names[p]
    out: list[str] = []
    new_events = after.events[len(before.events) :]
    points = {reason: pts for seat, pts, reason, _ in new_events if seat == p}
    if act.is_play(action):
        done = after.tricks_played > before.tricks_played
        if done and before.rules.nplayers == 2:
            lead = before.trick_cards()[0]
            win = after.last_trick_winner
            out.append(
                f"Trick {before.tricks_played + 1}: {names[1 - p]} leads {card_symbol(lead)}"
                f"{_from_table(before, 1 - p, _lead_phys(before))}, {who} plays "
                f"{card_symbol(action & 31)}{_from_table(before, p, action)}. {names[win]} wins."
            )
        elif done:
            n = before.rules.nplayers
            cards = [*before.trick_cards(), action & 31]
            duel = before.duel_seats()  # four-handed duels: two-card tricks
            seats = ([duel[p == duel[0]], p] if duel
                     else [(p - len(cards) + 1 + i) % n for i in range(n)])
            plays = ", ".join(f"{names[q]} plays {card_symbol(c)}"
                              for q, c in zip(seats[1:], cards[1:], strict=True))
            out.append(
                f"Trick {before.tricks_played + 1}: {names[seats[0]]} leads "
                f"{card_symbol(cards[0])}, {plays}. {names[after.last_trick_winner]} wins."
            )
    elif act.is_meld(action):
        ev = [e for e in new_events if e[2] == "meld"]
        kind = ev[0][3] if ev else "meld"
        cards = [q & 31 for q in act.meld_cards(action)]
        out.append(
            f"  {who} declares {kind} {_cards(cards)}: +{points.get('meld', 0)}"
            f" ({_score_text(after, names)})"
        )
        if before.trump < 0 <= after.trump:
            out.append(f"  Trumps are now {SUIT_SYMBOLS[after.trump]}.")
    elif action == act.EXCHANGE:
        tu = before.turnup
        got = card_symbol(tu) if tu is not None else "the turn-up"
        pts = points.get("seven", 0)
        gain = (f"+{pts} ({_score_text(after, names)})" if pts
                else "no score (that one has scored already)")
        out.append(f"  {who} exchanges the {_seven(before)} for the turn-up {got}: {gain}")
    elif action == act.OFFER:
        out.append(f"  {who} offers the declaring turn to {names[before.partner(p)]}.")
    elif act.kind(action) == "guess":
        scored = [f"{names[seat]} +{pts}" for seat, pts, reason, _ in new_events
                  if reason == "cut"]
        out.append(f"  {who} guesses the cut at {action - act.GUESS} cards; "
                   f"{names[before.dealer]} cut {after.cut}: "
                   f"{', '.join(scored) if scored else 'no score'}.")
    elif action == act.SEVEN:
        out.append(
            f"  {who} declares the {_seven(before)}: +{points.get('seven', 0)}"
            f" ({_score_text(after, names)})"
        )
    elif action == act.PASS and after.end_phase and not before.end_phase:
        tu = before.turnup
        n = before.rules.nplayers
        last = names[(p + n - 1) % n]
        first = "draws the last card" if n == 2 else "draws first from the last cards"
        if before.turnup_card < 0:
            out.append(f"  {who} draws the last but one card; {last} takes the last.")
        else:
            took = card_symbol(tu) if tu is not None else "the turn-up"
            out.append(f"  {who} {first}; {last} takes the turn-up {took}.")
        out.append("  The stock is gone: from now on follow suit and win the trick if you can.")
        duel = after.duel_seats()  # four-handed duels (RULES.md 9.5): who plays whom
        if duel:
            w, o = duel
            out.append(f"  The last tricks are two duels: {names[w]} against {names[o]}, then "
                       f"{names[(w + 2) % 4]} against {names[(w + 3) % 4]}.")
    for seat, pts, reason, detail in new_events:
        if reason == "seven" and act.is_play(action):
            out.append(f"  {names[seat]} plays the {_seven(before)} while the stock lasts: +{pts}")
        elif reason == "brisques" and detail != "counted":
            out.append(f"  {names[seat]} takes {pts} in {_bris_word(before)}")
        elif reason == "last trick" and detail == "stock":
            out.append(f"  {names[seat]} wins the last trick of the stock: +{pts}")
        elif reason == "last trick" and detail == "first duel":
            out.append(f"  {names[seat]} wins the last trick of the first duel: +{pts}")
    if after.is_terminal() and not before.is_terminal():
        out.extend(deal_summary(after, names))
    return out


def _lead_phys(before: State) -> int:
    """The physical card led to the current trick."""
    return before.all_masks()["trick"].bit_length() - 1


def _from_table(before: State, seat: int, phys: int) -> str:
    """`` (shown)`` when ``seat`` played a card from the table: while the stock lasts, the
    cards that have been in a meld are exactly the shown ones."""
    if before.end_phase:
        return ""
    melded = any(mask >> phys & 1 for _kind, mask in before.meld_log[seat])
    return " (shown)" if melded else ""


def deal_summary(state: State, names: Sequence[str]) -> list[str]:
    """Closing lines of a deal: last trick, brisques, deal and game scores, the winner if any."""
    out = []
    finals = [(seat, pts) for seat, pts, reason, detail in state.events
              if reason == "last trick" and detail == "final"]
    if state.tricks_played == state.rules.total_tricks:
        parts = [f"{names[seat]} wins the last trick: +{pts}." for seat, pts in finals]
        bris = state.brisques
        immediate = state.rules.brisques == "immediate"
        word = _bris_word(state)
        portland = state.rules.settlement == "portland"
        how = ("(they count only in the settlement)" if portland
               else "(scored as taken)" if immediate else "(counted now)")
        if any(state.rules.card_points):
            parts.append(f"{word.capitalize()} {how}: {_score_text(state, names, bris)}.")
        out.append("  " + " ".join(parts))
    else:
        out.append(f"  The game ended at once after trick {state.tricks_played}.")
    if state.rules.settlement == "portland":
        res = state.settlement()
        out.append(f"Deal over: {_score_text(state, names)}.")
        if res.winner < 0:
            out.append("The game is drawn: nobody scores.")
        else:
            words = state.settlement_words()  # e.g. "rubiconed: 1300 + 600 + 1300 = 3200"
            if res.rubicon:
                words = f"{names[1 - res.winner]} is {words}"
            elif not res.brisques_counted and any(state.rules.card_points):
                words = f"brisques not counted: {words}"
            out.append(f"{names[res.winner]} wins the game and scores {res.value} ({words}).")
            out.append(state.settlement_words(legend=True))
        return out
    g = state.game_scores
    out.append(
        f"Deal over: {_score_text(state, names)}. Game: {_score_text(state, names, g)}."
    )
    if state.partner(0) >= 0:  # four-handed partnership: the game is by side (RULES.md 9.5)
        a, b = state.side_scores()
        out.append(f"Sides: {names[0]} & {names[2]} {a}, {names[1]} & {names[3]} {b}.")
        if state.winner is not None:
            out.append(f"{names[state.winner]} & {names[state.winner + 2]} win the game.")
    elif state.winner is not None:
        out.append(f"{names[state.winner]} wins the game.")
    reason = win_reason(state, names)
    if reason:
        out.append(reason)
    return out


def win_reason(deal: State | Observation, names: Sequence[str], you: int = -1) -> str | None:
    """Why the game's winner won when it (its side) does not have the highest total: no one
    had reached the target before the brisques, which are then counted in playing order from
    the dealer's left, and the winner's took it there first (RULES.md 2.6, 9.4, 9.5); None
    otherwise.  ``you``: the seat that reads it (its name becomes "you").

    >>> from bezique import Rules
    >>> s = State.new_deal(Rules.preset("bezique4", target=300), seed=0)
    >>> while not s.is_terminal():
    ...     s.apply(s.legal_action_strings()[0])
    >>> s.side_scores(), s.winner
    ((330, 360), 0)
    >>> names = ["North", "East", "South", "West"]
    >>> print(win_reason(s, names, you=0))  # doctest: +NORMALIZE_WHITESPACE
    No side had 300 before the brisques, so they were counted, in turn from the dealer's left:
    South's brisques took your side to 300 first.
    """
    rules, n = deal.rules, deal.rules.nplayers
    if (deal.winner is None or rules.settlement == "portland" or rules.brisques != "end"
            or rules.end_check != "deal"):
        return None
    pair = rules.partner(0) >= 0
    final = [deal.totals[i] + deal.scores[i] for i in range(n)]
    before = [final[i] - deal.brisques[i] for i in range(n)]
    seat = counted_first(rules.target, before, final,
                         [(deal.dealer + 1 + i) % n for i in range(n)], pair)
    tally = list(sides(final)) if pair else final
    w = deal.winner
    if seat < 0 or all(tally[w] > x for i, x in enumerate(tally) if i != w):
        return None
    whose = "your" if seat == you else f"{names[seat]}'s"
    if pair:
        them = "your side" if seat % 2 == you % 2 and you >= 0 else "their side"
    else:
        them = "you" if seat == you else "them"
    order = "the non-dealer's first" if n == 2 else "in turn from the dealer's left"
    word = _bris_word(deal)  # (Binocle counts its card points)
    return (f"{'No side' if pair else 'Nobody'} had {rules.target} before the {word}, so "
            f"they were counted, {order}: {whose} {word} took {them} to {rules.target} "
            "first.")


def narrate(start: State, actions: Sequence[str], names: Sequence[str]) -> Iterator[str]:
    """Lines for a whole deal replayed from ``start``: the first refused action with its reason;
    the later ones (the record is then out of step) are summed up in one line at the end.
    ``names`` has one name per seat; ``actions`` are texts, as a record holds them."""
    check_names(start, names)
    if isinstance(actions, str) or not all(isinstance(t, str) for t in actions):
        raise BeziqueError("the actions are a list of texts such as ['play QS', 'pass']")
    state = start.clone()
    refused = 0
    for text in actions:
        before = state.clone()
        try:
            a = state.string_to_action(text)
            state.apply_action(a)
        except BeziqueError as e:
            refused += 1
            if refused == 1:
                who = before.current_player()
                by = f" by {names[who]}" if who >= 0 else ""
                yield f"  ! {text!r}{by} refused: {e}"
            continue
        yield from step_lines(before, a, state, names)
    if refused > 1:
        more = refused - 1
        yield (f"  ! {more} later action{'s' if more > 1 else ''} refused as well: after a refused "
               "action the record is out of step (`--json` lists each one)")
    lead = state.trick_cards()
    if lead and not state.is_terminal():
        duel, p = state.duel_seats(), state.current_player()
        leader = duel[p == duel[0]] if duel else (p - len(lead)) % state.rules.nplayers
        shown = _from_table(state, leader, _lead_phys(state))
        yield (f"Trick {state.tricks_played + 1}: {names[leader]} leads "
               f"{card_symbol(lead[0])}{shown} ...")
