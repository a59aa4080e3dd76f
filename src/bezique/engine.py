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
from importlib.metadata import PackageNotFoundError, version
from typing import IO, Any

from .agents import Agent, agent_names, make_agent
from .agents.base import AGENT_VARIANTS
from .agents.levels import DEFAULT_LEVEL, level_spec
from .cards import card_name, parse_card
from .errors import BeziqueError, ProtocolError
from .observation import Observation
from .rules import Rules
from .schema import EngineGo, EngineStart, StepIn, check, parse_json, short
from .seat_world import Position, Step, build_world
from .state import State

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


def _card(value: Any, what: str) -> int:
    if not isinstance(value, str):
        raise ProtocolError(f"{what} must be a card name such as \"QS\", not {short(value)}")
    try:
        return parse_card(value)
    except ValueError as e:
        raise ProtocolError(f"{what}: {e}") from None



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
        shown = (None if a.shown is None
                 else tuple(_card(c, f"shown[{i}]") for i, c in enumerate(a.shown)))
        return Step(a.action, a.player, draw, a.points, shown)

    def cmd_action(self, req: dict[str, Any]) -> dict[str, Any]:
        """One more action (by either player); a ``pass`` carries the card this seat drew."""
        if self.position is None:
            raise ProtocolError("no deal: send 'new' or 'position' first")
        step = self._step(check(StepIn, req))
        old = self.position
        return self._set(dataclasses.replace(old, actions=[*old.actions, step]))

    def cmd_status(self, req: dict[str, Any]) -> dict[str, Any]:
        """The seat's view of the position: phase, who acts, hand, scores and legal actions."""
        return status_answer(self._observation())

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


def status_answer(obs: Observation) -> dict[str, Any]:
    """The ``status`` answer for a seat whose view is ``obs`` (card names, trumps as a suit
    letter, None where there is none)."""
    return {"ok": True, "to_act": obs.turn if obs.turn >= 0 else None, "phase": obs.phase,
            "hand": [card_name(c) for c in obs.hand],
            "shown": [[card_name(c) for c in s] for s in obs.shown],
            "turnup": card_name(obs.turnup) if obs.turnup is not None else None,
            "trumps": "SHDC"[obs.trump] if obs.trump >= 0 else None,
            "stock": obs.stock, "scores": list(obs.scores), "legal": list(obs.legal),
            "winner": obs.winner}


def run(stdin: IO[str], stdout: IO[str]) -> None:
    """Read requests line by line and write one answer line each until ``quit`` or end of input.

    Blank lines (nothing but JSON's white space: spaces, tabs, line ends) are ignored; any other
    line is a request and gets its answer, an error if it is not one.
    """
    eng = Engine()
    for line in stdin:
        if not line.strip(" \t\r\n"):
            continue
        answer = eng.handle(line.rstrip("\r\n"))  # "line 1 column 16", not "line 2 column 1"
        stdout.write(json.dumps(answer) + "\n")
        stdout.flush()
        if eng.finished:
            break
