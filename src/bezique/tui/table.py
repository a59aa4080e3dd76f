"""The table as the person sees it: what each panel of the game screen shows, drawn from their
:class:`~bezique.observation.Observation` (the computer's side, the score, their cards and the
action each one plays, the trick, the prompt, and the declarations on offer after a trick won).
A table of three or four seats is drawn by :mod:`bezique.tui.table_seats`.

Functions here only build Rich renderables and lists; :class:`~bezique.tui.game.GameScreen`
puts them in its widgets.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..cards import SUIT_SYMBOLS, card_name, card_symbol, make_card, split_token
from ..observation import Observation
from ..rules import variant_title
from ..state import State
from .session import NAMES, Session
from .widgets import KEY_LABELS, CardSlot, card_row, chip, chips
from .words import seat_names


def token_text(token: str) -> str:
    """``QS*`` -> ``Q♠*``, ``QS+`` -> ``Q♠+`` (the partner's shown card): a card token of an
    action for people."""
    card, mark = split_token(token)
    return card_symbol(card) + mark


def goal_text(session: Session) -> str:
    """What wins: the target, by side in a partnership, or the one deal and its settlement."""
    rules = session.rules
    if rules.settlement == "portland":
        return "one deal, settled"
    if session.state.partner(0) >= 0:
        return f"first side to {rules.target}"
    return f"first to {rules.target}"


def title_bar(session: Session, width: int | None = None) -> Text:
    """The top line: the variant, the deal, the target and the computer's level; in ``width``
    columns when given (the agent's name, then the person's, give way before anything is cut).
    """
    rules = session.rules
    title = variant_title(rules.variant)
    agent = "" if session.opponent else f" ({session.agent_spec.split(':')[0]})"
    line = Text()
    for what, who in ((agent, f"{session.name} · "), ("", f"{session.name} · "), ("", "")):
        line = Text.assemble(
            (f" {title} ", "bold reverse"),
            f"  {who}Deal {session.deal_number()} · {goal_text(session)} · "
            f"{session.strength()}{what}")
        if width is None or line.cell_len <= width:
            break
    line.truncate(width or line.cell_len, overflow="ellipsis")
    return line


_SHORT_WORDS = {"four": "4", "five": "5", "eight": "8", "aces": "A", "kings": "K",
                "queens": "Q", "jacks": "J", "tens": "10", "common": "", "marriage": "marr.",
                "royal": "royal", "bezique": "bez.", "binocle": "bin.", "double": "dbl",
                "triple": "tpl", "quadruple": "4×", "quintuple": "5×", "sequence": "seq.",
                "plain": "plain", "grand": "grand"}


def short_meld_name(name: str) -> str:
    """A meld's name in few letters ("four kings" -> "4K", "common marriage" -> "marr.")."""
    words = [_SHORT_WORDS.get(w, w) for w in name.split()]
    words = [w for w in words if w]
    if len(words) == 2 and words[0] in ("4", "8") and len(words[1]) == 1:
        return words[0] + words[1]
    return " ".join(words)


def melds_text(obs: Observation, seat: int, width: int | None = None) -> Text:
    """A seat's melds on the table (the broken ones struck through), in ``width`` columns when
    given: the full names if they fit, else short names, else a count — never cut off."""
    melds = obs.melds[seat]
    t = Text("Melds: ", "bold")
    if not melds:
        t.append("none yet", "dim")
        return t
    for short in (False, True):
        line = t.copy()
        for i, m in enumerate(melds):
            if i:
                line.append(", " if not short else " ")
            name = short_meld_name(m.name) if short else m.name
            line.append(f"{name} {m.points}", "" if m.intact else "dim strike")
        if width is None or line.cell_len <= width:
            return line
    broken = sum(1 for m in melds if not m.intact)
    total = sum(m.points for m in melds)
    count = f"{len(melds)} meld{'s' if len(melds) > 1 else ''}, {total} points"
    if width is not None and t.cell_len + len(count) + 11 * bool(broken) > width:
        count = f"{len(melds)} for {total}"  # the narrowest panels
    t.append(count)
    if broken:
        t.append(f" ({broken} broken)", "dim")
    return t


def opponent_panel(obs: Observation, deal_over: bool, colour: bool,
                   width: int | None = None) -> Text:
    """The computer's side: its cards (how many shown), tricks won, cards shown and known,
    melds (to fit ``width`` columns when given)."""
    shown = len(obs.shown[1])
    held = obs.opponent_hand_size
    count = f"{held} card{'' if held == 1 else 's'}" + (f" ({shown} shown)" if shown else "")
    won = sum(1 for t in obs.tricks if t.winner == 1)
    line1 = Text.assemble((count, "bold"), f" · {won} trick{'' if won == 1 else 's'} won")
    if obs.turn == 1 and not deal_over:
        line1.append("  ▶ thinking…", "bold yellow" if colour else "bold")
    line2 = Text("Shown: ", "bold")
    line2.append_text(chips(list(obs.shown[1]), colour, "nothing"))
    known = [c for c in obs.opponent_known]
    if known:
        line2.append("  Known: ", "bold")
        line2.append_text(chips(known, colour))
    return Text("\n").join([line1, line2, melds_text(obs, 1, width)])


def score_panel(obs: Observation, terminal: bool, colour: bool) -> Group:
    """The scores of the deal and the game, trumps and the turn-up, the stock, whose turn.  A
    one-deal game (Rubicon, Six-pack, Eight-pack) has no game score: beside the deal's points,
    how far each side is from the rubicon (RULES.md 9.0.7: under it at the end, the loser is
    rubiconed), brisques counted."""
    one_deal = obs.rules.settlement == "portland"
    t = Table(box=None, padding=(0, 0), expand=True, show_edge=False)
    t.add_column("", no_wrap=True)
    t.add_column("Deal", justify="right")
    t.add_column(f"To {obs.rules.rubicon_at}" if one_deal else "Game", justify="right")
    for seat in (0, 1):
        name = NAMES[seat]
        mark = "▶" if obs.turn == seat and not terminal else " "
        if one_deal:
            short = obs.rules.rubicon_at - obs.scores[seat] - obs.brisques[seat]
            last = str(short) if short > 0 else "past"
        else:
            last = str(obs.totals[seat] + obs.scores[seat])
        t.add_row(f"{mark}{name}", str(obs.scores[seat]), last)
    whose = Text(whose_turn(obs, terminal), "bold yellow" if colour else "bold")
    return Group(t, *trump_and_stock(obs, colour), whose)


def trump_and_stock(obs: Observation, colour: bool) -> tuple[Text, Text]:
    """The score panel's lines on trumps (and the turn-up) and on the stock."""
    trumps = SUIT_SYMBOLS[obs.trump] if obs.trump >= 0 else "not yet fixed"
    info = Text.assemble("Trumps ", (trumps, "bold red" if colour and obs.trump in (1, 2)
                                     else "bold"))
    if obs.turnup is not None:
        info.append("  Turn-up ")
        info.append_text(chip(obs.turnup, colour))
    stock = Text(f"Stock: {obs.stock} card{'' if obs.stock == 1 else 's'}" if not obs.end_phase
                 else "Stock: empty")
    if obs.end_phase:
        stock.append(" · follow suit", "dim")
    return info, stock


def whose_turn(obs: Observation, terminal: bool) -> str:
    """Who is to act, and how."""
    if terminal:
        return "Deal over"
    if obs.turn == 0:
        return {"lead": "Your lead", "follow": "Your turn to follow",
                "declare": "You may declare"}.get(obs.phase, "Your turn")
    return "Computer to play"


def hand_slots(obs: Observation) -> tuple[list[CardSlot], list[str]]:
    """The person's cards (the hand, then those on the table) and the action each one plays;
    while they are to play, a card that may not be played is drawn as such."""
    legal = set(obs.legal) if obs.my_turn and obs.phase in ("lead", "follow") else None
    slots: list[CardSlot] = []
    actions: list[str] = []
    for c in obs.hand:
        a = "play " + card_name(c)
        slots.append(CardSlot(c, False, legal is None or a in legal))
        actions.append(a)
    for c, a in zip(obs.shown[0], obs.shown_plays(), strict=True):
        slots.append(CardSlot(c, True, legal is None or a in legal))
        actions.append(a)
    return slots, actions


def declare_title(obs: Observation) -> str:
    """The centre panel's title while the person may declare."""
    last = obs.tricks[-1] if obs.tricks else None
    return ("You won the trick" + (
        f" ({card_symbol(last.lead)} {card_symbol(last.follow)})" if last else "")
        + ": declare, or draw")


def table_text(obs: Observation, deal_over: bool, playable: int, colour: bool) -> Text:
    """The centre panel while cards are played: the trick (or the last one) and the prompt;
    ``playable`` is the number of cards the person can choose from."""
    lines: list[Text] = []
    if obs.trick:
        leader = 1 - obs.turn
        row, _ = card_row([CardSlot(obs.trick[0])], 40, labels=False, colour=colour)
        lines.append(row)
        lines.append(Text(f"{NAMES[leader]} led {card_symbol(obs.trick[0])}", "bold"))
    elif obs.tricks:
        t = obs.tricks[-1]
        row, _ = card_row([CardSlot(t.lead), CardSlot(t.follow)], 40, labels=False,
                          colour=colour)
        lines.append(row)
        who = "you won" if t.winner == 0 else "Computer won"
        lines.append(Text(f"Last trick: {NAMES[t.leader]} led · {who}", "dim"))
    else:
        lines.append(Text("\n(no card played yet)\n", "dim"))
    lines.append(Text(prompt(obs, deal_over, playable), "bold yellow" if colour else "bold"))
    return Text("\n").join(lines)


def prompt(obs: Observation, deal_over: bool, playable: int) -> str:
    """What the person is to do now, and with which keys."""
    if deal_over:
        return "The deal is over."
    if not obs.my_turn:
        return "The computer is playing…"
    n = min(playable, len(KEY_LABELS))
    keys = ("←/→" if n < 2 else f"←/→ or 1-{n}" if n < 10 else
            "←/→ or 1-9 " + " ".join(KEY_LABELS[9:n]))  # 10 to 12 cards: 1-9 0 - =
    if playable > len(KEY_LABELS):  # Eight-pack's 13th to 15th cards have no key of their own
        keys = f"1-9 0 - = ({len(KEY_LABELS) + 1}-{playable}: ←/→)"
    carte = " · c: carte blanche" if "carte" in obs.legal else ""
    if obs.phase == "lead":
        return f"Your lead: {keys}, Enter" + (carte or " to play")
    return f"Your turn to follow: {keys}, Enter{carte}"


def choice_entries(obs: Observation, state: State,
                   short: bool = False) -> list[tuple[int, str, str]]:
    """The declarations on offer, best first, then the seven, then drawing: (order, label,
    action) each; ``short`` labels for narrow places (the same choices in the same order)."""
    st = state
    entries: list[tuple[int, str, str]] = []  # (order, label, action)
    trump7 = card_symbol(make_card(st.rules.seven_rank, obs.trump))
    gap = " " if short else "  "
    for a in obs.legal:
        if a.startswith("meld "):
            toks = a.split()[1:]
            mask = st.string_to_action(a) >> 9
            kind = st.rules.melds[st.classify(mask)]
            cards = " ".join(token_text(t) for t in toks)
            name = short_meld_name(kind.name) if short else kind.name
            entries.append((-kind.points, f"{name} {cards}{gap}+{kind.points}", a))
        elif a == "exchange":
            tu = card_symbol(obs.turnup) if obs.turnup is not None else "?"
            entries.append((1, f"exchange {trump7} for {tu} +10" if short else
                            f"exchange {trump7} for the turn-up {tu}  +10", a))
        elif a == "seven":
            entries.append((1, f"declare {trump7}{gap}+10", a))
        elif a == "offer":
            mate = seat_names(st.rules.nplayers)[st.partner(obs.seat)]
            entries.append((2, f"let {mate} declare" if short else
                            f"offer: let your partner {mate} declare instead", a))
        elif a == "carte":
            entries.append((1, "carte blanche: no court card" if short else
                            "carte blanche: show a hand without a court card", a))
        elif a == "pass":
            entries.append((3, "draw (pass)", a))
        elif a.startswith("guess "):  # the cut bonus (RULES.md 9.2): before play
            n = int(a.split()[1])
            dealer = (": dealer +250" if short else "  (24: +250 to the dealer)") \
                if n == 24 else ""
            entries.append((n, f"{n} cards{dealer}", a))
    entries.sort(key=lambda e: e[0])
    return entries
