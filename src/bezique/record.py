"""Game records (RULES.md 8): write them from live games, read them, replay them.

A record is JSON: the variant, its options, and for each deal the dealer, both hands, the
turn-up, the stock (top first) and the actions in order.  :func:`replay` gives the result object
that ``bezique replay FILE --json`` prints; its keys are a contract other programs rely on.

Reading a record checks that each deal is exactly the pack and is dealt by the seat after the
dealer of the deal before (two games glued together are refused); replaying it checks that
each deal follows one played to its end, in a game nobody has won yet.  A refused action is
otherwise only reported (RULES.md 8).

>>> from bezique import Rules, State
>>> s = State.new_deal(Rules.preset("binocle"), seed=2)
>>> s.apply(s.legal_action_strings()[0])
>>> rec = game_record(s.rules, [s])
>>> len(rec["deals"][0]["hands"][0]), len(rec["deals"][0]["stock"])
(12, 23)
>>> out = replay(parse_record(rec), legal=True)
>>> sorted(out["deals"][0])
['brisques', 'finished', 'last_trick', 'scores', 'steps']
>>> sorted(out["deals"][0]["steps"][0])
['action', 'legal', 'ok', 'player', 'scores']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .cards import card_name
from .errors import BeziqueError, RecordError
from .rules import Rules
from .schema import MAX_ACTIONS, MAX_DEALS, RecordIn, check, cut, parse_json
from .state import State

__all__ = ["MAX_ACTIONS", "MAX_BYTES", "MAX_DEALS", "DealSpec", "Record", "ReplayedDeal",
           "deal_record", "game_record", "game_result", "load_record", "parse_record",
           "read_record_json", "record_players", "replay", "replay_deals", "states_from_record"]

MAX_BYTES = 20_000_000  # a record file (the bounds on deals and actions: bezique.schema)


def deal_record(state: State) -> dict[str, Any]:
    """One deal as a record entry: dealer, hands, turn-up, stock and the actions so far; with
    the cut bonus, the deal's ``cut`` and the non-dealer's ``guess`` (RULES.md 9.8), which is
    then no entry of the actions."""
    out: dict[str, Any] = {
        "dealer": state.dealer,
        "hands": [[card_name(p) for p in h] for h in state.deal_hands],
        "turnup": card_name(state.turnup_card) if state.turnup_card >= 0 else None,
        "stock": [card_name(p) for p in state.stock],
        "actions": [text for _, text in state.history_strings() if not text.startswith("guess")],
    }
    if state.rules.cut_bonus:
        out["cut"] = state.cut
        if state.cut_guess is not None:
            out["guess"] = state.cut_guess
    return out


def game_record(rules: Rules, deals: Sequence[State], practice: bool = False) -> dict[str, Any]:
    """A whole game as a record; a practice game (a chosen deal number) says so.  ``deals`` are
    the game's deals in order (at least one, each a :class:`State` of these ``rules``): a record
    that names other rules than its deals were played by could not be replayed.

    >>> game_record(Rules.preset("binocle"), [State.new_deal(Rules.preset("bezique"), seed=1)])
    Traceback (most recent call last):
    ...
    bezique.errors.RecordError: deal 1 is not a deal of Rules.preset('binocle')
    """
    if not isinstance(rules, Rules):
        raise RecordError(f"a record needs the game's Rules, not {rules!r:.40}")
    if isinstance(deals, State | str) or not isinstance(deals, Sequence) or not deals:
        raise RecordError("a record needs a list of the game's deals (States), at least one")
    for i, s in enumerate(deals):
        if not isinstance(s, State) or s.rules != rules:
            raise RecordError(f"deal {i + 1} is not a deal of {rules!r}")
    out: dict[str, Any] = {
        "variant": rules.variant,
        "options": rules.options(),
        "deals": [deal_record(s) for s in deals],
    }
    if practice:
        out["practice"] = True
    return out


@dataclass(frozen=True)
class DealSpec:
    """A deal as read from a record, checked to be exactly the pack."""

    dealer: int
    hands: tuple[tuple[str, ...], ...]
    turnup: str | None
    stock: tuple[str, ...]
    actions: tuple[str, ...]
    cut: int | None = None  # the cut bonus (RULES.md 9.2): the cut and the guess
    guess: int | None = None


@dataclass(frozen=True)
class Record:
    """A record read and checked: its rules and its deals."""

    rules: Rules
    deals: tuple[DealSpec, ...]
    practice: bool = False  # a game with a chosen deal number (its shuffle was not secret)

    def start(self, index: int, totals: Sequence[int] | None = None) -> State:
        """The state at the start of deal ``index`` (0 first), with the given game totals."""
        if isinstance(index, bool) or not isinstance(index, int) or not (
                0 <= index < len(self.deals)):
            raise RecordError(f"the record's deals are numbered 0 to {len(self.deals) - 1}, "
                              f"not {index!r:.40}")
        d = self.deals[index]
        state = State.from_cards(self.rules, d.hands, d.turnup, d.stock, d.dealer, totals, d.cut)
        if d.guess is not None:
            try:
                state.apply(f"guess {d.guess}")
            except BeziqueError as e:
                raise RecordError(f"'guess': {e}") from None
        return state


def parse_record(data: Any) -> Record:
    """Check a decoded JSON record (:class:`bezique.schema.RecordIn`, then that each deal is
    exactly the pack); raise :class:`RecordError` with a one-line reason."""
    first = data.get("deals") if isinstance(data, dict) and "game" in data else None
    if isinstance(first, list) and first and isinstance(first[0], dict) and (
            "steps" in first[0] and "hands" not in first[0]):
        raise RecordError("this is what 'bezique replay --json' prints, not a record: replay "
                          "the record it was printed from")
    rec = check(RecordIn, data)
    deals = []
    for i, d in enumerate(rec.deals):
        hands = tuple(tuple(h) for h in d.hands)
        spec = DealSpec(d.dealer, hands, d.turnup, tuple(d.stock), tuple(d.actions), d.cut,
                        d.guess)
        try:
            Record(rec.rules, (spec,)).start(0)
        except RecordError as e:
            raise RecordError(f"deal {i + 1}: {e}") from None
        if (rec.rules.cut_bonus and spec.guess is None and spec.actions
                and not spec.actions[0].lstrip().startswith("guess")):
            raise RecordError(f"deal {i + 1}: 'guess' is missing: with the cut bonus the "
                              f"non-dealer guesses the cut before the first play")
        deals.append(spec)
        if i:
            _check_dealer(rec.rules.nplayers, i, deals[i - 1].dealer, spec.dealer,
                          "dealer" in data["deals"][i])
    return Record(rec.rules, tuple(deals), rec.practice)


def _check_dealer(n: int, i: int, before: int, dealer: int, given: bool) -> None:
    """Deal ``i`` (0 first) is dealt by the seat after the dealer of deal ``i - 1``: the deal
    alternates between two (RULES.md 2.1, 9.0.1) and passes to the left at a table of three or
    four (9.4, 9.5).  Two games glued into one record often break this."""
    want = (before + 1) % n
    if dealer == want:
        return
    how = "alternates" if n == 2 else "passes to the left"
    why = f"the deal {how} from one deal of a record to the next, and deal {i}'s dealer is " \
          f"{before}"
    raise RecordError(f"deal {i + 1}: 'dealer' must be {want} (not {dealer}): {why}" if given
                      else f"deal {i + 1}: 'dealer' is missing: it must be {want}, as {why}")


def load_record(path: str | Path) -> Record:
    """Read and check a record file; :class:`RecordError` if it cannot be read or is impossible."""
    return parse_record(read_record_json(path))


def read_record_json(path: str | Path) -> Any:
    """The decoded JSON of a record file, unchecked (its ``players`` too: :func:`record_players`);
    :class:`RecordError` if it cannot be read, is empty, too big or no JSON.  At most
    :data:`MAX_BYTES` are read, from a pipe too (``bezique replay <(...)``), whose size is not
    known beforehand."""
    if not isinstance(path, str | Path) or not str(path):
        raise RecordError(f"a record file is named by a path, not {path!r:.40}")
    name = cut(str(path))
    try:
        with Path(path).open("rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise RecordError(f"cannot read {name}: {e.strerror or e}") from None
    if len(raw) > MAX_BYTES:
        raise RecordError(f"{name} is over {MAX_BYTES // 1_000_000} MB: not a record")
    if not raw.strip():
        raise RecordError(f"{name} is empty: not a record")
    return parse_json(raw, RecordError, f"{name} is not valid JSON")


def _checked(record: Any) -> Record:
    if not isinstance(record, Record):
        raise RecordError(f"replaying needs a Record (from load_record or parse_record), not "
                          f"{record!r:.40}")
    return record


@dataclass
class ReplayedDeal:
    """A deal replayed: its final state and the outcome of each step."""

    state: State
    steps: list[dict[str, Any]]


def replay_deals(record: Record, legal: bool = False) -> list[ReplayedDeal]:
    """Replay every deal of a record; refused actions are noted and skipped.  A deal that
    cannot follow the one before (it is unfinished, or the game was won) is a
    :class:`RecordError`."""
    _checked(record)
    out: list[ReplayedDeal] = []
    one_deal = record.rules.settlement == "portland"  # each deal is a game of its own
    totals: tuple[int, ...] | None = None
    for i, d in enumerate(record.deals):
        if out:
            _check_follows(record.rules, i, out[-1])
        state = record.start(i, None if one_deal else totals)
        steps: list[dict[str, Any]] = []
        for text in d.actions:
            player = state.current_player()
            step: dict[str, Any] = {"player": player if player >= 0 else None, "action": text}
            if legal:
                step["legal"] = state.legal_action_strings()
            try:
                state.apply(text)
            except BeziqueError as e:
                step["ok"] = False
                step["error"] = str(e)
            else:
                step["ok"] = True
                step["scores"] = list(state.game_scores)
            steps.append(step)
        out.append(ReplayedDeal(state, steps))
        totals = state.game_scores
    return out


def _check_follows(rules: Rules, i: int, before: ReplayedDeal) -> None:
    """A deal follows only a deal played to its end, and, in a game to the target, only while
    nobody has won the game (RULES.md 2.6): else :class:`RecordError` (say, a deal cut short
    by a hand edit, or the refused action that left it unfinished)."""
    s = before.state
    if not s.is_terminal():
        bad = next(((k, st) for k, st in enumerate(before.steps) if not st["ok"]), None)
        why = (f"its action {bad[0] + 1}, {cut(bad[1]['action'], 40)!r}, is refused "
               f"({cut(bad[1]['error'], 120)}), and it " if bad is not None else "it ")
        raise RecordError(f"deal {i}: {why}stops after trick {s.tricks_played}, before its "
                          f"end, yet deal {i + 1} follows it")
    if rules.settlement != "portland" and s.winner is not None:
        raise RecordError(f"deal {i}: the game is won in this deal, yet deal {i + 1} follows "
                          f"it (a record holds the deals of one game)")


def replay(record: Record, legal: bool = False) -> dict[str, Any]:
    """The result object of ``bezique replay --json`` (RULES.md 8)."""
    deals = replay_deals(record, legal)
    result = []
    portland = record.rules.settlement == "portland"
    for rd in deals:
        s = rd.state
        done = s.is_terminal()
        entry: dict[str, Any] = {
            "steps": rd.steps,
            "finished": done,
            "scores": list(s.game_scores),
            "brisques": list(s.brisques),
            "last_trick": s.last_trick_winner if done and s.last_trick_winner >= 0 else None,
        }
        if s.partner(0) >= 0:  # four-handed partnership: the sides' game totals (RULES.md 9.8)
            entry["sides"] = list(s.side_scores())
        if portland:  # RULES.md 9.8: the deal's points without brisques, trumps, the settlement
            settled = s.settlement()
            entry["trumps"] = "SHDC"[s.trump] if s.trump >= 0 else None
            if s.rules.cut_bonus:  # the cut bonus (RULES.md 9.8): the cut and the guess
                entry["cut"], entry["guess"] = s.cut, s.cut_guess
            entry["result"] = {
                "winner": settled.winner if done and settled.winner >= 0 else None,
                "rubicon": done and settled.rubicon,
                "brisques_counted": done and settled.brisques_counted,
                "value": settled.value if done else 0,
            }
        result.append(entry)
    return {"deals": result, "game": game_result(record.rules, deals)}


def game_result(rules: Rules, deals: Sequence[ReplayedDeal]) -> dict[str, Any]:
    """The ``game`` object of :func:`replay`: ``scores`` and ``winner`` (None while there is
    none).  In the one-deal games (RULES.md 9.8) each player's settled values summed over the
    deals, the winner the one ahead once the last deal is over; in a four-handed partnership
    the sides' totals (seats 0 & 2, then 1 & 3) and the winning side; else the seats' game
    totals after the last deal and the game's winner."""
    if not isinstance(rules, Rules) or not isinstance(deals, Sequence) or not deals or not all(
            isinstance(d, ReplayedDeal) for d in deals):
        raise RecordError("a game's result needs its Rules and its deals as replay_deals "
                          "gives them (at least one)")
    last = deals[-1].state
    if rules.settlement == "portland":
        values = [0] * rules.nplayers
        for rd in deals:
            settled = rd.state.settlement()
            if rd.state.is_terminal() and settled.winner >= 0:
                values[settled.winner] += settled.value
        top = max(values)
        leaders = [i for i, v in enumerate(values) if v == top]
        winner = leaders[0] if last.is_terminal() and len(leaders) == 1 else None
        return {"scores": values, "winner": winner}
    return {"scores": list(last.side_scores()), "winner": last.winner}


def states_from_record(record: Record) -> list[State]:
    """The deals of a record replayed to their ends, for resuming a saved game.

    Raises :class:`RecordError` if any action is refused, since a saved game has none.
    """
    states = []
    for rd in replay_deals(record):
        for st in rd.steps:
            if not st["ok"]:
                raise RecordError(f"action {st['action']!r} is refused: {st['error']}")
        states.append(rd.state)
    return states


MAX_NAME = 40


def record_players(data: Any, n: int) -> tuple[str, ...] | None:
    """The players' names a record gives (its optional ``players`` list; README, "Game
    records"), or None when it has none or they are not ``n`` short strings.

    >>> record_players({"players": ["Ann", "Computer (level 3)"]}, 2)
    ('Ann', 'Computer (level 3)')
    >>> record_players({"deals": []}, 2) is None
    True
    """
    names = data.get("players") if isinstance(data, dict) else None
    if not isinstance(names, list) or len(names) != n:
        return None
    out = []
    for name in names:
        if not isinstance(name, str):
            return None
        clean = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME]
        if not clean:
            return None
        out.append(clean)
    return tuple(out)
