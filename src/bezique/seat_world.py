r"""What one seat of a deal knows, and a whole deal that fits it: the engine protocol's position.

A caller of the engine protocol (:mod:`bezique.engine`) tells one seat's story: its dealt hand,
the turn-up, every public action and its own draws (a :class:`Position` of :class:`Step`\ s).
:func:`build_world` deals the cards that seat has not seen into a full deal in which every action
replays: each card the opponent played, melded or exchanged from its concealed hand is put in a
slot it held by then, the cards it showed for carte blanche where it showed them, and the rest at
random.  Tables of three or four seats are built by :func:`bezique.table_world.table_world`.

>>> from bezique import Rules
>>> pos = Position(Rules.preset("bezique"), 0, 1, tuple(parse_card(c) for c in
...                ["AS", "TS", "KS", "QS", "JD", "9C", "8C", "7C"]), parse_card("7H"))
>>> world = build_world(pos)
>>> world.hand(0) == sorted(world.hand(0)) and len(world.hand(1)), world.current_player()
(8, 0)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import JACK, KING, QUEEN, card_name, card_of, make_card, parse_card, rank_of, suit_of
from .deal import assumed_cut
from .errors import BeziqueError, ProtocolError
from .melds import fixed_trump
from .rules import Rules, variant_title
from .state import State
from .table_world import points_known, points_refused, table_world

__all__ = ["Position", "Step", "build_world"]


@dataclass(frozen=True)
class Step:
    """One public action as the seat saw it.

    ``player`` (optional) is checked against whose turn it is; ``draw`` is the card the seat
    drew at a ``pass`` (by either player); ``points`` (optional) is what the action scored,
    which tells whether an opponent's ``exchange`` gave away a seven it had already declared
    (0 points) or another one (10); ``shown`` (optional) the cards the opponent showed with its
    ``carte``: its whole hand for carte blanche, the card it drew for a repeat.
    """

    text: str
    player: int | None = None
    draw: int | None = None
    points: int | None = None
    shown: tuple[int, ...] | None = None


@dataclass
class Position:
    """What one seat knows of a deal: its dealt hand, the turn-up and the actions with its draws."""

    rules: Rules
    seat: int
    dealer: int
    hand: tuple[int, ...]
    turnup: int | None  # None in a variant with no turn-up (RULES.md 9.0.1)
    totals: tuple[int, ...] = (0, 0)
    actions: list[Step] = field(default_factory=list)
    seed: int = 0
    cut: int | None = None  # the cut bonus: the cut once guessed (RULES.md 9.2)


def _token_card(tok: str) -> tuple[int, bool]:
    """The card of an action token (``QS``, ``QS*``, ``QS*2``) and whether it is a shown copy."""
    star = tok.find("*")
    return parse_card(tok if star < 0 else tok[:star]), star >= 0


def build_world(pos: Position) -> State:
    """A full deal consistent with ``pos``, with its actions replayed: the engine's stand-in.

    The seat's hand, the turn-up and the seat's draws are where ``pos`` says.  Every card the
    opponent played, melded or exchanged from its concealed hand is placed in a slot the opponent
    held by then (its dealt hand, or a draw before that action), earliest first; the other unseen
    cards are dealt at random (``pos.seed``) to the opponent's remaining slots and the stock.
    Raises :class:`ProtocolError` if no deal fits (an impossible or illegal position).
    Three and four seats: :func:`bezique.table_world.table_world`.
    """
    rules = pos.rules
    seat, opp = pos.seat, 1 - pos.seat
    hsize = rules.hand_size
    nstock = rules.stock_size
    copies = rules.copies
    if len(pos.hand) != hsize:
        raise ProtocolError(f"'hand' must have {hsize} cards in {rules.variant}, "
                            f"not {len(pos.hand)}")
    if rules.nplayers > 2:
        _check_table_draws(pos)
        return table_world(rules, seat, pos.dealer, pos.hand, pos.turnup,
                           [(st.text, st.player, st.points) for st in pos.actions],
                           [st.draw for st in pos.actions if st.draw is not None], pos.totals,
                           pos.seed, assumed_cut(rules, pos.cut))
    trump = suit_of(pos.turnup) if pos.turnup is not None else -1  # -1: fixed by a meld
    seven = make_card(rules.seven_rank, trump) if trump >= 0 else -1

    # Walk the actions from the seat's point of view: whose turn, tricks, draws, and which
    # concealed cards the opponent must have held ("reveals").
    turn, phase = 1 - pos.dealer, "lead"
    lead_card, stock_pos, tricks = -1, 0, 0
    turnup: int | None = pos.turnup
    known: Counter[int] = Counter()  # the opponent's concealed cards that the seat knows
    opp_shown: Counter[int] = Counter()
    fixed: dict[int, int] = {}  # stock position -> card, from the seat's draws
    opp_slots: list[tuple[str, int]] = [("hand", i) for i in range(hsize)]
    reveals: list[tuple[int, int, int]] = []  # (action index, card, slots available by then)
    plain: set[tuple[str, int]] = set()  # slots carte blanche says hold no court card
    carte_from = -1  # the opponent's slots from its carte blanche on (then its draws)
    showed: dict[tuple[str, int], int] = {}  # the slots whose cards a carte blanche showed

    def where(i: int, player: int, text: str) -> str:
        return f"action {i + 1} ({text!r} by player {player})"

    for i, step in enumerate(pos.actions):
        text, claimed = step.text, step.player
        if phase == "over":
            raise ProtocolError(f"action {i + 1} ({text!r}): the deal is already over")
        player = turn
        if claimed is not None and claimed != player:
            raise ProtocolError(f"action {i + 1} ({text!r}): it is player {player}'s turn, "
                                f"not player {claimed}'s")
        words = text.split()
        verb = words[0].lower() if words else ""
        if step.draw is not None and verb not in ("pass", "draw"):
            raise ProtocolError(f"{where(i, player, text)}: only a 'pass' has a 'draw'")
        if step.shown is not None and (verb != "carte" or player != opp):
            raise ProtocolError(f"{where(i, player, text)}: only the opponent's 'carte' has "
                                "'shown' (the cards it showed)")
        if verb == "guess" and i == 0 and rules.cut_bonus:  # the cut bonus: moves no card
            if pos.cut is None:
                raise ProtocolError(f"{where(i, player, text)}: give the deal's 'cut' once it "
                                    "is guessed (send 'position' with 'cut' and the guess in "
                                    "'actions')")
            continue
        try:
            cards = [_token_card(t) for t in words[1:]]
        except ValueError as e:
            raise ProtocolError(f"{where(i, player, text)}: {e}") from None
        if phase in ("lead", "follow") and verb == "carte" and not cards:
            if player == opp:  # carte blanche (RULES.md 9.0.4): no court card in the hand
                first = carte_from < 0
                if first:
                    carte_from = len(opp_slots)
                    plain.update(("hand", j) for j in range(hsize))
                else:  # a repeat: every draw since was no court card (one ends the right)
                    plain.update(opp_slots[carte_from:])
                if step.shown is not None:
                    _carte_shown(step.shown, opp_slots[:hsize] if first else opp_slots[-1:],
                                 showed, known, where(i, player, text))
            continue
        if phase in ("lead", "follow"):
            if verb != "play" or len(cards) != 1:
                raise ProtocolError(f"{where(i, player, text)}: a card must be played now "
                                    "('play QS')")
            card, is_shown = cards[0]
            if player == opp:
                if is_shown:
                    if opp_shown[card] > 0:
                        opp_shown[card] -= 1
                elif known[card] > 0:
                    known[card] -= 1
                else:
                    reveals.append((i, card, len(opp_slots)))
            if phase == "lead":
                lead_card, phase, turn = card, "follow", 1 - player
                continue
            ls, fs = suit_of(lead_card), suit_of(card)
            if fs == ls:
                win = player if rank_of(card) < rank_of(lead_card) else 1 - player
            else:
                win = player if fs == trump else 1 - player
            tricks += 1
            turn = win
            if stock_pos < nstock:
                phase = "declare"
            elif tricks == rules.total_tricks:
                phase = "over"
            else:
                phase = "lead"
            continue
        # the declaring turn
        if verb == "meld" and cards:
            if trump < 0:  # the first marriage or sequence fixes trumps (RULES.md 9.0.2)
                kind = rules.classify([c for c, _ in cards], -1)
                if kind is not None:
                    trump = fixed_trump(rules, rules.melds.index(kind), [c for c, _ in cards])
            if player == opp:
                for card, is_shown in cards:
                    if is_shown:
                        continue
                    if known[card] > 0:
                        known[card] -= 1
                    else:
                        reveals.append((i, card, len(opp_slots)))
                    opp_shown[card] += 1
        elif verb == "exchange" and not cards:
            if turnup is None:  # pragma: no cover - the phase rules this out
                raise ProtocolError(f"{where(i, player, text)}: there is no turn-up")
            if player == opp:
                if known[seven] > 0 and not step.points:  # it gave away the declared seven
                    known[seven] -= 1
                else:
                    reveals.append((i, seven, len(opp_slots)))
                known[turnup] += 1
            turnup = seven
        elif verb == "seven" and not cards:
            if player == opp:
                reveals.append((i, seven, len(opp_slots)))
                known[seven] += 1
        elif verb in ("pass", "draw") and not cards:
            left = nstock - stock_pos
            mine = stock_pos if player == seat else stock_pos + 1
            theirs = stock_pos + 1 if player == seat else stock_pos
            given = step.draw
            if mine < nstock:
                if given is None:
                    raise ProtocolError(f"{where(i, player, text)}: the card you drew is "
                                        "missing (give it as 'draw')")
                fixed[mine] = given
            elif given is not None and turnup is not None and given != turnup:
                raise ProtocolError(f"{where(i, player, text)}: you drew the turn-up "
                                    f"{card_name(turnup)}, not {card_name(given)}")
            if theirs < nstock:
                opp_slots.append(("stock", theirs))
            elif turnup is not None:
                known[turnup] += 1
            if left >= 2:
                stock_pos += 2
                if stock_pos >= nstock:  # no turn-up: the stock ends on a pair
                    known.update(opp_shown)
                    opp_shown.clear()
            else:
                stock_pos += 1
                turnup = None
                known.update(opp_shown)  # the end phase: shown cards return to the hand
                opp_shown.clear()
            phase, turn = "lead", player
        else:
            raise ProtocolError(f"{where(i, player, text)}: after winning a trick, declare "
                                "('meld QS JD', 'exchange', 'seven') or 'pass'")

    # The cards the seat cannot place: the pack less its hand, the turn-up and its draws.
    pool: Counter[int] = Counter(card_of(p) for p in rules.deck)
    tu = () if pos.turnup is None else (pos.turnup,)
    for c in (*pos.hand, *tu, *fixed.values()):
        if pool[c] <= 0:
            title = variant_title(rules.variant)
            raise ProtocolError(f"too many {card_name(c)}: {title} is played with {copies} of "
                                f"each card" if c in pool else
                                f"{title} is played without {card_name(c)}")
        pool[c] -= 1
    for c in showed.values():
        if pool[c] <= 0:
            raise ProtocolError(f"the opponent cannot have shown {card_name(c)} for carte "
                                "blanche: you have seen every copy elsewhere")
        pool[c] -= 1
    placed: dict[tuple[str, int], int] = dict(showed)
    # Any free slot held by then will do (later reveals can use all of them too): the earliest
    # for most cards, the latest for a seven of trumps (see below).
    for i, card, avail in reveals:
        if pool[card] <= 0:
            raise ProtocolError(f"action {i + 1}: the opponent cannot hold {card_name(card)}: "
                                "you have seen every copy elsewhere")
        open_slots = [s for s in opp_slots[:avail] if s not in placed
                      and not (card & 7 in _COURT and s in plain)]
        if not open_slots:
            raise ProtocolError(f"action {i + 1}: the opponent cannot hold "
                                f"{card_name(card)} as well as every card it has shown")
        pool[card] -= 1
        placed[open_slots[-1] if card == seven else open_slots[0]] = card
    # Free slots from the earliest the opponent held to never (the stock not yet drawn).  An
    # unplaced seven of trumps goes as late as possible: had the opponent held another one when
    # it exchanged or declared, the rules would have made it use that one.
    opp_set = set(opp_slots)
    free_slots = [s for s in opp_slots if s not in placed]
    free_slots += [("stock", p) for p in range(nstock) if p not in fixed and ("stock", p)
                   not in opp_set]
    sevens = [seven] * pool[seven]
    pool[seven] = 0
    rest = sorted(pool.elements())
    random.Random(pos.seed).shuffle(rest)
    rest += sevens
    placed.update(zip(free_slots, rest, strict=True))
    _plain_slots(placed, plain, free_slots)
    opp_hand = [placed[("hand", i)] for i in range(hsize)]
    stock = [fixed[p] if p in fixed else placed[("stock", p)] for p in range(nstock)]
    hands: list[Sequence[int]] = [(), ()]
    hands[seat], hands[opp] = pos.hand, opp_hand
    try:
        state = State.from_cards(rules, hands, pos.turnup, stock, pos.dealer, pos.totals,
                                 assumed_cut(rules, pos.cut))
    except BeziqueError as e:  # pragma: no cover - the checks above come first
        raise ProtocolError(str(e)) from None
    for i, step in enumerate(pos.actions):
        player, k = state.current_player(), len(state.events)
        try:
            state.apply(step.text)
        except BeziqueError as e:
            raise ProtocolError(f"{where(i, player, step.text)} is refused: {e}") from None
        scored = sum(e[1] for e in state.events[k:] if e[0] == player)
        # (the opponent's exchange too: the world gave it the seven its points name, if any could)
        if step.points is not None and step.points != scored and (
                points_known(rules, player, seat, step.text)
                or step.text.strip().lower() == "exchange"):
            raise ProtocolError(points_refused(i, step.text, player, scored, step.points))
    return state



def _carte_shown(cards: tuple[int, ...], slots: list[tuple[str, int]],
                 showed: dict[tuple[str, int], int], known: Counter[int], where: str) -> None:
    """Put the cards the opponent showed with ``carte`` in the ``slots`` they were in (its hand;
    for a repeat, its last draw): known to the seat from then on."""
    if len(cards) != len(slots):
        raise ProtocolError(f"{where}: 'shown' must be the {len(slots)} card"
                            f"{'s' if len(slots) > 1 else ''} shown "
                            + ("(the whole hand)" if len(slots) > 1 else "(the card drawn)"))
    court = [card_name(c) for c in cards if c & 7 in _COURT]
    if court:
        raise ProtocolError(f"{where}: a carte blanche shows no king, queen or jack, not "
                            f"{' '.join(court)}")
    for slot, c in zip(slots, cards, strict=True):
        showed[slot] = c
        known[c] += 1


def _check_table_draws(pos: Position) -> None:
    """At a table of three or four every seat draws at every ``pass``: each one but the last
    (where the seat may take the turn-up) must carry the seat's draw, or the later draws would
    be taken for this one's; no other action has one (it would be taken for the next pass's),
    and none has ``shown`` (no carte blanche at a table)."""
    rules = pos.rules
    rounds = (rules.stock_size + (1 if rules.turnup else 0)) // rules.nplayers
    passes = 0
    for i, st in enumerate(pos.actions):
        is_pass = st.text.strip().lower() in ("pass", "draw")
        if st.draw is not None and not is_pass:
            raise ProtocolError(f"action {i + 1} ({st.text!r}): only a 'pass' has a 'draw'")
        if st.shown is not None:
            raise ProtocolError(f"action {i + 1} ({st.text!r}): only the opponent's 'carte' has "
                                f"'shown', and {rules.variant} has no carte blanche")
        if is_pass:
            passes += 1
            if st.draw is None and passes < rounds:
                raise ProtocolError(f"action {i + 1} ({st.text!r}): the card you drew is missing "
                                    "(give it as 'draw')")


def _plain_slots(placed: dict[tuple[str, int], int], plain: set[tuple[str, int]],
                 free: list[tuple[str, int]]) -> None:
    """Move court cards out of the ``plain`` slots (a carte blanche hand, its repeats), each
    swapped with a card that is no court card from a free slot that need not be plain."""
    spare = [s for s in free if s not in plain and placed[s] & 7 not in _COURT]
    for s in plain:
        if placed.get(s, 0) & 7 in _COURT and s in free and spare:
            o = spare.pop()
            placed[s], placed[o] = placed[o], placed[s]


_COURT = (KING, QUEEN, JACK)
