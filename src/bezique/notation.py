"""Action text both ways (RULES.md 7): ``play QS``, ``play QS*2``, ``meld QS JD``, ``pass``.

Actions are ints inside (see :mod:`bezique.actions`); this module turns them into the canonical
text a player reads and back.  A shown card is written with a star; when a seat's shown copies
of one card differ in their meld history they are numbered ``*1``, ``*2``, … in the order of
their histories (see :func:`bezique.melds.shown_groups`).  Canonical meld text sorts the cards
by suit (S H D C), rank high to low, shown copies before concealed ones.

Reading text only *resolves* it to an action int; :meth:`bezique.state.State.apply_action`
judges it.  Everything a player may type that is not an action raises
:class:`~bezique.errors.IllegalActionError` with a message that says how to write one.

>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("bezique"), seed=7)
>>> a = s.legal_actions()[0]
>>> string_to_action(s, action_to_string(s, a, s.turn)) == a
True
>>> string_to_action(s, "play QS*3")
Traceback (most recent call last):
...
bezique.errors.IllegalActionError: you have no Q♠ on the table
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from . import actions as act
from .cards import bits, card_name, card_symbol, fold_copies, mask_of, parse_card, rank_of, suit_of
from .errors import IllegalActionError
from .melds import Log, known_first, shown_groups
from .rules import MAX_CUT


class Position(Protocol):
    """What the notation reads of a position: the seats' masks, meld logs and copy choice."""

    copies: int
    turn: int
    hand_masks: tuple[int, ...]
    shown_masks: tuple[int, ...]
    known_masks: tuple[int, ...]
    meld_log: tuple[Log, ...]

    def play_copy(self, p: int, hand: int) -> int:
        """Which concealed physical copy of card ``p`` a play by card uses."""
        ...

    def partner(self, seat: int) -> int:
        """The seat's partner, or -1."""
        ...


def action_to_string(pos: Position, action: int, seat: int) -> str:
    """Canonical text of ``action`` for ``seat``, e.g. ``play QS*`` or ``meld QS JD``."""
    if action == act.PASS:
        return "pass"
    if action == act.EXCHANGE:
        return "exchange"
    if action == act.SEVEN:
        return "seven"
    if action == act.CARTE:
        return "carte"
    if action == act.OFFER:
        return "offer"
    if act.GUESS <= action < 512:
        return f"guess {action - act.GUESS}"
    if action < 256:
        return "play " + _token(pos, seat, action)
    toks = [(_token_key(pos, seat, p), _token(pos, seat, p)) for p in bits(action >> 9)]
    return "meld " + " ".join(t for _, t in sorted(toks))


def _shown_place(pos: Position, seat: int, p: int) -> tuple[int, str]:
    """Where ``p`` lies on the table for ``seat``: its own shown cards (``*``), its partner's
    (``+``, RULES.md 9.5), or neither (0, "")."""
    if pos.shown_masks[seat] >> p & 1:
        return pos.shown_masks[seat], "*"
    mate = pos.partner(seat)
    if mate >= 0 and pos.shown_masks[mate] >> p & 1:
        return pos.shown_masks[mate], "+"
    return 0, ""


def _token_key(pos: Position, seat: int, p: int) -> tuple[int, int, int]:
    shown, mark = _shown_place(pos, seat, p)
    num = 99
    if mark:
        for i, g in enumerate(shown_groups(pos.meld_log[seat], shown, p & 31, pos.copies)):
            if p in g:
                num = i if mark == "*" else 50 + i
    return (suit_of(p), rank_of(p), num)


def _token(pos: Position, seat: int, p: int) -> str:
    name = card_name(p)
    shown, mark = _shown_place(pos, seat, p)
    if not mark:
        return name
    groups = shown_groups(pos.meld_log[seat], shown, p & 31, pos.copies)
    if len(groups) == 1:
        return name + mark
    for i, g in enumerate(groups):
        if p in g:
            return f"{name}{mark}{i + 1}"
    raise AssertionError("shown card not in its groups")  # pragma: no cover


_WORDS = {"pass": act.PASS, "draw": act.PASS, "exchange": act.EXCHANGE, "seven": act.SEVEN,
          "carte": act.CARTE, "offer": act.OFFER}


def string_to_action(pos: Position, text: str) -> int:
    """The action named by ``text`` for the seat to act; :class:`IllegalActionError` if none.

    Accepts the forms of RULES.md 7 in any case, ``10`` for tens and suit symbols.
    """
    seat = pos.turn
    words = text.strip().split()
    if not words:
        raise IllegalActionError("empty action: try 'play QS', 'meld QS JD' or 'pass'")
    verb = words[0].lower()
    args = words[1:]
    if verb in _WORDS and not args:
        return _WORDS[verb]
    if verb == "play" and len(args) == 1:
        return _resolve_tokens(pos, seat, args, for_play=True)[0]
    if verb == "meld" and args:
        return act.meld_action(mask_of(_resolve_tokens(pos, seat, args, for_play=False)))
    if verb == "guess" and len(args) == 1:
        n = args[0]
        if not (n.isascii() and n.isdigit() and 0 < int(n) <= MAX_CUT):
            raise IllegalActionError(f"guess a number of cards, e.g. 'guess 24', not {n[:12]!r}")
        return act.GUESS + int(n)
    raise IllegalActionError(
        f"{text.strip()!r} is not an action: try 'play QS', 'meld QS JD', 'exchange', "
        "'seven' or 'pass'"
    )


def _resolve_tokens(pos: Position, seat: int, tokens: Iterable[str], for_play: bool) -> list[int]:
    taken = 0
    out = []
    copies = pos.copies
    hand, shown = pos.hand_masks[seat], pos.shown_masks[seat]
    known = 0
    for k in pos.known_masks:
        known |= k
    mate = pos.partner(seat)
    for tok in tokens:
        t = tok.strip()
        star = t.find("*")
        plus = t.find("+") if mate >= 0 else -1
        partners = plus >= 0 and (star < 0 or plus < star)
        if partners:
            star, shown = plus, pos.shown_masks[mate]  # the partner's shown copy (RULES.md 9.5)
            if for_play:
                raise IllegalActionError("you can only play your own cards, not your partner's")
        else:
            shown = pos.shown_masks[seat]
        num = 0
        if star >= 0:
            tail = t[star + 1 :]
            if tail and (len(tail) > 2 or not tail.isascii() or not tail.isdigit()
                         or int(tail) == 0):
                raise IllegalActionError(f"{tok[:12]!r} is not a card (write QS, QS* or QS*2)")
            num = int(tail) if tail else 0
            t = t[:star]
        try:
            c = parse_card(t)
        except ValueError as e:
            raise IllegalActionError(str(e)) from None
        if star < 0:
            cands = [q for q in range(c, 32 * copies, 32)
                     if hand >> q & 1 and not taken >> q & 1]
            if not cands:
                where = (" in your hand" if shown and fold_copies(shown, copies) >> c & 1
                         else "")
                hint = f" (yours is on the table: write {card_name(c)}*)" if where else ""
                again = any(taken >> q & 1 for q in range(c, 32 * copies, 32))
                raise IllegalActionError(
                    f"you do not hold {'another ' if again else ''}{card_symbol(c)}{where}"
                    f"{hint}"
                )
            q = known_first(cands, known)[0]
            if for_play:
                q = pos.play_copy(q, hand)
        else:
            groups = shown_groups(pos.meld_log[seat], shown, c, copies)
            if not groups:
                whose = "your partner has" if partners else "you have"
                raise IllegalActionError(f"{whose} no {card_symbol(c)} on the table")
            if num == 0 and len(groups) > 1:
                raise IllegalActionError(
                    f"your shown {card_name(c)} copies differ: write "
                    + " or ".join(f"{card_name(c)}*{i + 1}" for i in range(len(groups)))
                )
            if num > len(groups):
                raise IllegalActionError(f"you have no {card_name(c)}*{num} on the table")
            g = groups[max(num, 1) - 1]
            free = [q for q in g if not taken >> q & 1]
            if not free:
                raise IllegalActionError(f"you have no other shown {card_symbol(c)}")
            q = free[0]
        taken |= 1 << q
        out.append(q)
    return out
