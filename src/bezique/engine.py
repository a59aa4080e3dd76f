"""The engine protocol: JSON lines on stdin and stdout, so any program can use our agents.

As UCI does for chess, a caller (a GUI, a test harness, another engine) tells the engine the
position *as its seat saw it* (its dealt hand, the turn-up, every public action and its own
draws) and asks for a move.  The engine never learns the opponent's hidden cards or the stock:
it builds a world consistent with what it was told (unseen cards dealt arbitrarily, subject to
every card the opponent has shown, played, melded or exchanged), replays the actions on it, and
gives the agent only ``observation(seat)`` of that world.  See the README, "Engine protocol".

Each request is one JSON object on one line with a ``cmd``; each answer is one JSON object on
one line with ``ok``.  A bad line gets ``{"ok": false, "error": "..."}`` and the engine goes on.

>>> e = Engine()
>>> e.handle('{"cmd": "hello"}')["engine"]
'bezique'
>>> e.handle('{"cmd": "new", "seat": 0, "dealer": 1, "turnup": "7H", "agent": "random",'
...          ' "hand": ["AS", "TS", "KS", "QS", "JD", "9C", "8C", "7C"]}')
{'ok': True, 'to_act': 0}
>>> e.handle('{"cmd": "go"}')["action"].startswith("play ")
True
>>> e.handle('not json')
{'ok': False, 'error': 'a request must be JSON (Expecting value at line 1 column 1)'}
"""

from __future__ import annotations

import dataclasses
import json
import random
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import IO, Any

from .agents import Agent, agent_names, make_agent
from .agents.base import AGENT_VARIANTS
from .agents.levels import DEFAULT_LEVEL, level_spec
from .cards import JACK, KING, QUEEN, card_name, card_of, make_card, parse_card, rank_of, suit_of
from .deal import assumed_cut
from .errors import BeziqueError, ProtocolError
from .melds import fixed_trump
from .observation import Observation
from .rules import Rules
from .schema import EngineGo, EngineStart, StepIn, check, parse_json, short
from .state import State
from .table_world import table_world

__all__ = ["COMMANDS", "GO_MS", "PROTOCOL_VERSION", "Engine", "Position", "ProtocolError", "Step",
           "build_world", "run"]

PROTOCOL_VERSION = 1
GO_MS = 10_000.0  # the time limit of a 'go' without 'budget_ms' (at most MAX_GO_MS with one)
GO_GRACE = 1.5  # how far past its limit an agent may run before its move is replaced
COMMANDS = ("hello", "new", "action", "position", "status", "go", "quit")


def _package_version() -> str:
    try:
        return version("bezique")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0"


# ---------------------------------------------------------------------- the position


@dataclass(frozen=True)
class Step:
    """One public action as the seat saw it.

    ``player`` (optional) is checked against whose turn it is; ``draw`` is the card the seat
    drew at a ``pass`` (by either player); ``points`` (optional) is what the action scored,
    which tells whether an opponent's ``exchange`` gave away a seven it had already declared
    (0 points) or another one (10).
    """

    text: str
    player: int | None = None
    draw: int | None = None
    points: int | None = None


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


def _card(value: Any, what: str) -> int:
    if not isinstance(value, str):
        raise ProtocolError(f"{what} must be a card name such as \"QS\", not {short(value)}")
    try:
        return parse_card(value)
    except ValueError as e:
        raise ProtocolError(f"{what}: {e}") from None


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
                if carte_from < 0:
                    carte_from = len(opp_slots)
                    plain.update(("hand", j) for j in range(hsize))
                else:  # a repeat: every draw since was no court card (one ends the right)
                    plain.update(opp_slots[carte_from:])
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
            raise ProtocolError(f"too many {card_name(c)}: a {rules.variant} pack has "
                                f"{copies}" if c in pool else
                                f"there is no {card_name(c)} in a {rules.variant} pack")
        pool[c] -= 1
    placed: dict[tuple[str, int], int] = {}
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
        player = state.current_player()
        try:
            state.apply(step.text)
        except BeziqueError as e:
            raise ProtocolError(f"{where(i, player, step.text)} is refused: {e}") from None
    return state


def _check_table_draws(pos: Position) -> None:
    """At a table of three or four every seat draws at every ``pass``: each one but the last
    (where the seat may take the turn-up) must carry the seat's draw, or the later draws would
    be taken for this one's."""
    rules = pos.rules
    rounds = (rules.stock_size + (1 if rules.turnup else 0)) // rules.nplayers
    passes = 0
    for i, st in enumerate(pos.actions):
        if st.text.strip().lower() in ("pass", "draw"):
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


# ---------------------------------------------------------------------- the engine


class Engine:
    """One engine session: handles request lines and keeps the current position and agent."""

    def __init__(self) -> None:
        self.position: Position | None = None
        self.state: State | None = None
        self.agent: Agent | None = None
        self.agent_spec = ""
        self._pending: tuple[Agent, str] | None = None
        self.finished = False

    # -- request parsing

    def handle(self, line: str) -> dict[str, Any]:
        """Answer one request line; never raises for bad input."""
        try:
            req = parse_json(line, ProtocolError, "a request must be JSON")
            if not isinstance(req, dict):
                raise ProtocolError("a request must be a JSON object with a 'cmd'")
            cmd = req.get("cmd")
            if not isinstance(cmd, str) or cmd not in COMMANDS:
                raise ProtocolError(f"unknown cmd {short(cmd)} (known: {', '.join(COMMANDS)})")
            self._pending = None
            answer: dict[str, Any] = getattr(self, "cmd_" + cmd)(req)
            return answer
        except BeziqueError as e:
            return {"ok": False, "error": str(e)}
        except Exception as e:  # an agent's bug must not kill the session
            return {"ok": False, "error": f"internal error: {type(e).__name__}: {e}"}

    def cmd_hello(self, req: dict[str, Any]) -> dict[str, Any]:
        """Who we are: engine name, version, protocol version, agents and variants."""
        return {"ok": True, "engine": "bezique", "version": _package_version(),
                "protocol": PROTOCOL_VERSION, "agents": agent_names(),
                "default_agent": level_spec(DEFAULT_LEVEL), "variants": list(AGENT_VARIANTS),
                "commands": list(COMMANDS)}

    def _start(self, req: dict[str, Any]) -> tuple[Position, EngineStart]:
        r = check(EngineStart, req)
        rules = Rules.from_options(r.variant, r.options or {})
        cards = tuple(_card(c, "'hand'") for c in r.hand)
        turnup: int | None
        if not rules.turnup:  # no turn-up in the multi-pack games: null or left out
            if r.turnup is not None:
                raise ProtocolError(f"{rules.variant} has no turn-up: give \"turnup\": null")
            turnup = None
        elif r.turnup is None:
            raise ProtocolError("'turnup' is missing (the card turned up for trumps)")
        else:
            turnup = _card(r.turnup, "'turnup'")
        spec = r.agent if r.agent is not None else (self.agent_spec or level_spec(DEFAULT_LEVEL))
        if spec != self.agent_spec or "seed" in r.model_fields_set or self.agent is None:
            self._pending = (make_agent(spec, seed=r.seed), spec)
        else:
            self._pending = (self.agent, spec)
        n = rules.nplayers
        totals = tuple(r.totals) if r.totals is not None else (0,) * n
        seats = f"0 to {n - 1}" if n > 2 else "0 or 1"
        for what, value in (("seat", r.seat), ("dealer", r.dealer)):
            if value >= n:
                raise ProtocolError(f"'{what}' must be {seats} in {rules.variant}, not {value}")
        if len(totals) != n:
            raise ProtocolError(f"'totals' must be {n} game totals in {rules.variant}, not "
                                f"{len(totals)}")
        pos = Position(rules, r.seat, r.dealer, cards, turnup, totals, seed=r.seed, cut=r.cut)
        return pos, r

    def _set(self, pos: Position) -> dict[str, Any]:
        """Take ``pos`` (and the agent ``new``/``position`` named) if a world fits it."""
        state = build_world(pos)
        self.position, self.state = pos, state
        if self._pending is not None:
            self.agent, self.agent_spec = self._pending
        return {"ok": True, "to_act": self._to_act(state)}

    @staticmethod
    def _to_act(state: State) -> int | None:
        p = state.current_player()
        return p if p >= 0 else None

    def cmd_new(self, req: dict[str, Any]) -> dict[str, Any]:
        """Start a deal: rules, seat, dealer, dealt hand, turn-up, totals, agent."""
        return self._set(self._start(req)[0])

    def cmd_position(self, req: dict[str, Any]) -> dict[str, Any]:
        """A whole position at once: as ``new`` plus ``actions`` and ``draws``."""
        pos, r = self._start(req)
        steps = [self._step(a) for a in r.actions]
        draws = r.draws
        cards = [_card(d, f"draws[{i}]") for i, d in enumerate(draws)]
        for i, st in enumerate(steps):  # the draws go to the passes in order
            if cards and st.draw is None and st.text.strip().lower() in ("pass", "draw"):
                steps[i] = dataclasses.replace(st, draw=cards.pop(0))
        if cards:
            raise ProtocolError(f"{len(draws)} draws given, more than the passes in 'actions'")
        pos.actions = steps
        return self._set(pos)

    @staticmethod
    def _step(a: str | tuple[int, str] | StepIn) -> Step:
        """An action given as text, ``[player, text]`` or an object like ``cmd action``'s."""
        if isinstance(a, str):
            return Step(a)
        if isinstance(a, tuple):
            return Step(a[1], a[0])
        draw = _card(a.draw, "'draw'") if a.draw is not None else None
        return Step(a.action, a.player, draw, a.points)

    def cmd_action(self, req: dict[str, Any]) -> dict[str, Any]:
        """One more action (by either player); a ``pass`` carries the card this seat drew."""
        if self.position is None:
            raise ProtocolError("no deal: send 'new' or 'position' first")
        step = self._step(check(StepIn, req))
        old = self.position
        return self._set(dataclasses.replace(old, actions=[*old.actions, step]))

    def cmd_status(self, req: dict[str, Any]) -> dict[str, Any]:
        """The seat's view of the position: phase, who acts, hand, scores and legal actions."""
        obs = self._observation()
        return {"ok": True, "to_act": obs.turn if obs.turn >= 0 else None, "phase": obs.phase,
                "hand": [card_name(c) for c in obs.hand],
                "shown": [[card_name(c) for c in s] for s in obs.shown],
                "turnup": card_name(obs.turnup) if obs.turnup is not None else None,
                "trumps": "SHDC"[obs.trump] if obs.trump >= 0 else None,
                "stock": obs.stock, "scores": list(obs.scores), "legal": list(obs.legal),
                "winner": obs.winner}

    def _observation(self) -> Observation:
        if self.state is None or self.position is None:
            raise ProtocolError("no deal: send 'new' or 'position' first")
        obs: Observation = self.state.observation(self.position.seat)
        return obs

    def cmd_go(self, req: dict[str, Any]) -> dict[str, Any]:
        """Ask the agent for the seat's action; ``budget_ms`` bounds its thinking if it can."""
        obs = self._observation()
        assert self.agent is not None and self.state is not None
        if self.state.is_terminal():
            raise ProtocolError("the deal is over")
        if not obs.my_turn:
            raise ProtocolError(f"it is player {obs.turn}'s turn, not the engine's "
                                f"(seat {obs.seat})")
        budget = check(EngineGo, req).budget_ms
        limit = float(budget) if budget is not None else GO_MS
        setter = getattr(self.agent, "set_budget", None)
        if budget is not None and callable(setter):
            setter(float(budget))
        t0 = time.perf_counter()
        action, late = self._think(obs, limit)
        ms = (time.perf_counter() - t0) * 1000
        try:
            self.state.clone().apply(action)
        except BeziqueError as e:  # pragma: no cover - an agent's bug
            raise ProtocolError(f"the agent chose {action!r}, which is refused: {e}") from None
        answer: dict[str, Any] = {"ok": True, "action": action, "ms": round(ms, 1)}
        if late:
            answer["note"] = (f"the agent did not answer within {limit:.0f} ms: this is the "
                              "heuristic's move")
        return answer

    def _think(self, obs: Observation, limit_ms: float) -> tuple[str, bool]:
        """The agent's action within about ``limit_ms`` (an agent that can bounds its own
        thinking; one that overruns is replaced by the heuristic's move, and by a fresh copy
        of itself for the next ``go``); whether it ran out of time."""
        agent = self.agent
        assert agent is not None
        limiter = getattr(agent, "set_time_limit", None)
        if callable(limiter):
            limiter(limit_ms)
        box: list[str | BaseException] = []

        def work() -> None:
            try:
                box.append(agent.act(obs))
            except BaseException as e:  # handed to the session's thread
                box.append(e)

        worker = threading.Thread(target=work, daemon=True, name="engine-go")
        worker.start()
        worker.join(limit_ms / 1000.0 * GO_GRACE + 0.25)
        if box:
            if isinstance(box[0], BaseException):
                raise box[0]
            return box[0], False
        self.agent = make_agent(self.agent_spec, seed=random.getrandbits(62))
        return make_agent("heuristic").act(obs), True
    def cmd_quit(self, req: dict[str, Any]) -> dict[str, Any]:
        """End the session."""
        self.finished = True
        return {"ok": True, "bye": True}


def run(stdin: IO[str], stdout: IO[str]) -> None:
    """Read requests line by line and write one answer line each until ``quit`` or end of input.

    Blank lines are ignored.
    """
    eng = Engine()
    for line in stdin:
        if not line.strip():
            continue
        answer = eng.handle(line)
        stdout.write(json.dumps(answer) + "\n")
        stdout.flush()
        if eng.finished:
            break
