"""The ``bezique serve`` site: an ASGI app (FastAPI) with live play over WebSocket.

Games are against the computer or a friend.  Each seat is held by an unguessable token; every
message to a seat is built from that seat's :class:`~bezique.observation.Observation` only, so the
other hand and the stock never leave the server.  Every action is stored (SQLite, as the game's
record) before it is acknowledged, and a per-game :class:`asyncio.Lock` applies concurrent
actions one at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.requests import ClientDisconnect

from ..agents import make_agent
from ..agents.levels import DEFAULT_LEVEL, level_spec
from ..cards import RANK_NAMES, RANKS, SUITS, card_name, card_symbol, parse_card, rank_of, suit_of
from ..errors import BeziqueError
from ..game import Game
from ..observation import Observation
from ..record import parse_record, replay_deals, states_from_record
from ..rules import Rules
from ..state import State
from .store import GameRow, Store, hash_token
from .svg import back_svg, card_svg, suit_svg

MAX_MESSAGE = 4096  # bytes of one client message (WebSocket frame or request body)
MAX_NAME = 24
HINT_LEVEL = 4
# Everything the page loads comes from this server (no CDN, no outside assets).
CSP = ("default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
       "connect-src 'self' ws: wss:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
COMPUTER = "computer"
FRIEND = "friend"
# Hand order on screen: suits alternate black and red (S H C D), ranks high to low.
DISPLAY_SUITS = (0, 1, 3, 2)

SendHook = Callable[["LiveGame", int, dict[str, Any]], None]


class Refusal(Exception):
    """A client request the server refuses; ``status`` is the HTTP status for REST callers."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class LiveGame:
    """A game in memory: its stored row, the engine's game, the lock and the open sockets."""

    row: GameRow
    game: Game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: dict[int, set[WebSocket]] = field(default_factory=lambda: {0: set(), 1: set()})
    task: asyncio.Task[None] | None = None
    # the record kept up to date action by action (Game.to_record() replays every deal)
    finished: list[dict[str, Any]] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        deals = self.row.record.get("deals") or []
        if len(deals) == len(self.game.deals) + 1:
            self.finished = [dict(d) for d in deals[:-1]]
            self.actions = list(deals[-1].get("actions", []))
        else:
            rec = self.game.to_record()
            self.finished, self.actions = rec["deals"][:-1], rec["deals"][-1]["actions"]

    def record(self) -> dict[str, Any]:
        """The game as a record (RULES.md 8), the same as ``Game.to_record()``."""
        deal = _deal_head(self.game.state)
        deal["actions"] = list(self.actions)
        return {"variant": self.game.rules.variant, "options": self.game.rules.options(),
                "deals": [*self.finished, deal]}

    def apply(self, text: str) -> None:
        """Apply an action of the seat to act, noting its canonical text for the record."""
        state = self.game.state
        action = state.string_to_action(text)
        canonical = state.action_to_string(action)
        state.apply_action(action)
        self.actions.append(canonical)

    def undo(self) -> None:
        """Take back the current deal's last action."""
        self.game.state.undo_action()
        self.actions.pop()

    def next_deal(self) -> None:
        """Start the next deal, filing the finished one."""
        done = _deal_head(self.game.state)
        done["actions"] = list(self.actions)
        self.game.next_deal()
        self.finished.append(done)
        self.actions = []

    @property
    def computer_seat(self) -> int | None:
        """The seat the computer plays, if any (always seat 1)."""
        return 1 if self.row.opponent == COMPUTER else None

    def computer_to_act(self) -> bool:
        """True when the computer is to move in an unfinished deal."""
        st = self.game.state
        return self.computer_seat is not None and st.current_player() == self.computer_seat


def _deal_head(state: State) -> dict[str, Any]:
    """A deal's record entry without its actions (see :func:`bezique.record.deal_record`)."""
    return {
        "dealer": state.dealer,
        "hands": [[card_name(p) for p in h] for h in state.deal_hands],
        "turnup": card_name(state.turnup_card),
        "stock": [card_name(p) for p in state.stock],
    }


# ---------------------------------------------------------------------- views (per seat)


def _code(card: int) -> str:
    return card_name(card)


def _display_key(card: int) -> tuple[int, int]:
    return (DISPLAY_SUITS.index(suit_of(card)), rank_of(card))


def meld_info(rules: Rules, trump: int, text: str) -> tuple[list[int], str, int]:
    """The cards, name and points of a ``meld ...`` action text."""
    cards = [parse_card(tok.split("*")[0]) for tok in text.split()[1:]]
    kind = rules.classify(cards, trump)
    return (cards, kind.name, kind.points) if kind else (cards, "meld", 0)


def _log(obs: Observation, names: list[str], last: int = 40) -> list[dict[str, Any]]:
    """The deal's last actions as sentences (all of them are public at the table)."""
    out: list[dict[str, Any]] = []
    start = max(0, len(obs.actions) - last)
    plays = sum(1 for _, text in obs.actions[:start] if text.startswith("play"))
    seven = RANK_NAMES[obs.rules.seven_rank]
    for seat, text in obs.actions[start:]:
        who = "You" if seat == obs.seat else names[seat]
        verb, _, rest = text.partition(" ")
        if verb == "play":
            card = card_symbol(parse_card(rest.split("*")[0]))
            line = f"{who} {'led' if plays % 2 == 0 else 'played'} {card}"
            plays += 1
        elif verb == "meld":
            cards, name, pts = meld_info(obs.rules, obs.trump, text)
            line = f"{who} declared {name} {' '.join(card_symbol(c) for c in cards)} (+{pts})"
        elif verb == "exchange":
            line = f"{who} exchanged the {seven} of trumps for the turn-up (+10)"
        elif verb == "seven":
            line = f"{who} declared the {seven} of trumps (+10)"
        else:
            line = f"{who} drew from the stock"
        out.append({"seat": seat, "text": line})
    return out


def seat_view(live: LiveGame, seat: int, online: list[bool]) -> dict[str, Any]:
    """The whole message a seat receives about its game, built from its observation only."""
    obs: Observation = live.game.state.observation(seat)
    return build_view(obs, live.row, len(live.game.deals) + 1, online)


def build_view(
    obs: Observation, row: GameRow, deal_number: int, online: list[bool]
) -> dict[str, Any]:
    """Turn an observation (and the game's public facts) into the JSON a seat is sent."""
    seat, other = obs.seat, 1 - obs.seat
    legal = set(obs.legal)
    rules = obs.rules
    names = list(row.names)
    hand = [
        {"card": _code(c), "action": f"play {_code(c)}" if f"play {_code(c)}" in legal else None}
        for c in sorted(obs.hand, key=_display_key)
    ]

    def table(s: int) -> list[dict[str, Any]]:
        seen: dict[int, int] = {}
        out = []
        for c in sorted(obs.shown[s], key=_display_key):
            k = seen[c] = seen.get(c, 0) + 1
            action = None
            if s == seat:
                for cand in (f"play {_code(c)}*", f"play {_code(c)}*{k}"):
                    if cand in legal:
                        action = cand
            out.append({"card": _code(c), "action": action})
        return out

    melds_avail: list[dict[str, Any]] = []
    for text in sorted(a for a in legal if a.startswith("meld ")):
        cards, name, pts = meld_info(rules, obs.trump, text)
        melds_avail.append(
            {"action": text, "name": name, "points": pts, "cards": [_code(c) for c in cards]}
        )
    melds_avail.sort(key=lambda m: (-int(m["points"]), str(m["action"])))
    specials = [a for a in ("exchange", "seven", "pass") if a in legal]
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
    return {
        "type": "state",
        "game": {
            "id": row.id,
            "opponent": row.opponent,
            "level": row.level,
            "variant": rules.variant,
            "target": rules.target,
            "you": seat,
            "names": names,
            "online": online,
            "version": row.version,
            "deal": deal_number,
            "totals": totals,
            "winner": obs.winner,
            "waiting_for_friend": row.opponent == FRIEND and row.token_hashes[1] is None,
            "can_undo": row.opponent == COMPUTER
            and obs.winner is None
            and any(p == seat for p, _ in obs.actions),
            "finished_deals": deal_number - (0 if over else 1),
        },
        "deal": {
            "trump": SUITS[obs.trump],
            "dealer": obs.dealer,
            "turn": turn,
            "phase": obs.phase,
            "your_turn": turn == seat,
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
            "melds_available": melds_avail,
            "specials": specials,
            "legal": sorted(legal),
            "log": _log(obs, names),
            "drew": drew,
        },
    }


# ---------------------------------------------------------------------- replay (finished deals)


def finished_record(live: LiveGame) -> dict[str, Any]:
    """The record of the deals that are over: nothing in it is hidden from anyone any more."""
    rec = live.record()
    game = live.game
    n = len(game.deals) + (1 if game.state.is_terminal() else 0)
    rec["deals"] = rec["deals"][:n]
    return rec


def replay_frames(rec: dict[str, Any]) -> list[dict[str, Any]]:
    """Every position of the finished deals of a record, for the replay view."""
    if not rec["deals"]:
        return []
    record = parse_record(rec)
    done = replay_deals(record)
    out: list[dict[str, Any]] = []
    totals: tuple[int, ...] = (0, 0)
    for i, d in enumerate(record.deals):
        state = record.start(i, totals)
        frames = [_frame(state, None, None, [])]
        for text in d.actions:
            player = state.current_player()
            before, lead = state.tricks_played, state.trick_cards()
            state.apply(text)
            played = []
            if state.tricks_played > before:  # this play completed a trick: show both cards
                played = [*lead, parse_card(text.split()[1].split("*")[0])]
            frames.append(_frame(state, player, text, played))
        out.append({"dealer": d.dealer, "trump": SUITS[state.trump], "frames": frames})
        totals = done[i].state.game_scores
    return out


def _frame(state: State, player: int | None, action: str | None,
           played: list[int]) -> dict[str, Any]:
    return {
        "player": player,
        "action": action,
        "trick_done": bool(played),
        "played": [_code(c) for c in played],
        "winner": state.last_trick_winner if played else None,
        "hands": [[_code(c) for c in sorted(state.hand(s), key=_display_key)] for s in (0, 1)],
        "shown": [[_code(c) for c in sorted(state.shown(s), key=_display_key)] for s in (0, 1)],
        "trick": [_code(c) for c in state.trick_cards()],
        "turnup": _code(state.turnup) if state.turnup is not None else None,
        "stock": state.stock_left,
        "scores": list(state.game_scores),
        "tricks": state.tricks_played,
    }


# ---------------------------------------------------------------------- the manager


class Manager:
    """Loads, creates and runs games; the one place that changes them."""

    def __init__(self, store: Store, computer_delay: float = 0.0) -> None:
        self.store = store
        self.computer_delay = computer_delay
        self.games: dict[str, LiveGame] = {}
        self.send_hooks: list[SendHook] = []

    # -- loading and seats

    def get(self, game_id: str) -> LiveGame:
        """The game with this id (loaded from the database if needed)."""
        if game_id in self.games:
            return self.games[game_id]
        row = self.store.load(game_id) if len(game_id) <= 64 else None
        if row is None:
            raise Refusal("there is no such game", 404)
        record = parse_record(row.record)
        states = states_from_record(record)
        live = LiveGame(row, Game.from_states(record.rules, states, seed=row.seed))
        self.games[game_id] = live
        return live

    @staticmethod
    def seat_for(live: LiveGame, token: str) -> int | None:
        """The seat this token holds in the game, or None."""
        if not token or len(token) > 128:
            return None
        digest = hash_token(token)
        for seat, h in enumerate(live.row.token_hashes):
            if h is not None and hmac.compare_digest(h, digest):
                return seat
        return None

    def seat_or_refuse(self, game_id: str, token: str) -> tuple[LiveGame, int]:
        """The game and the seat of a token, or a refusal (403) that says nothing more."""
        live = self.get(game_id)
        seat = self.seat_for(live, token)
        if seat is None:
            raise Refusal("this link does not hold a seat in that game", 403)
        return live, seat

    def create(
        self,
        opponent: str,
        variant: str = "bezique",
        target: int = 1000,
        level: int = DEFAULT_LEVEL,
        name: str = "",
        seed: int | None = None,
    ) -> tuple[LiveGame, str, str | None]:
        """A new game; returns it, the creator's seat token and (with a friend) the invitation."""
        if opponent not in (COMPUTER, FRIEND):
            raise Refusal("opponent must be 'computer' or 'friend'")
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 5:
            raise Refusal("level must be a whole number from 1 to 5")
        if not isinstance(target, int) or isinstance(target, bool) or not 100 <= target <= 10000:
            raise Refusal("target must be a whole number from 100 to 10000")
        if not isinstance(variant, str):
            raise Refusal("variant must be 'bezique' or 'binocle'")
        try:
            rules = Rules.preset(variant, target=target)
        except BeziqueError as e:
            raise Refusal(str(e)) from None
        if seed is not None and (opponent != COMPUTER or not isinstance(seed, int)
                                 or isinstance(seed, bool) or not 0 <= seed < 1 << 62):
            raise Refusal("a deal number (seed) may be chosen only for a game against the "
                          "computer, as a whole number from 0")
        # a chosen deal number replays the same game, the computer's choices included
        agent_seed = secrets.randbits(62) if seed is None else (seed * 0x9E3779B1 + 7) % (1 << 62)
        seed = secrets.randbits(62) if seed is None else seed
        game = Game(rules, seed=seed)
        token = secrets.token_urlsafe(24)
        invite = secrets.token_urlsafe(24) if opponent == FRIEND else None
        me = clean_name(name) or "Player 1"
        if opponent == COMPUTER:
            spec = level_spec(level)
            names = [me, f"Computer (level {level})"]
        else:
            spec = ""
            names = [me, "Friend"]
        now = time.time()
        row = GameRow(
            id=secrets.token_urlsafe(9),
            created=now,
            updated=now,
            opponent=opponent,
            level=level if opponent == COMPUTER else 0,
            agent_spec=spec,
            agent_seed=agent_seed,
            seed=seed,
            token_hashes=[hash_token(token), None],
            invite_hash=hash_token(invite) if invite else None,
            names=names,
            record=game.to_record(),
            version=0,
        )
        row.summary = summary(game)
        self.store.insert(row)
        live = LiveGame(row, game)
        self.games[row.id] = live
        return live, token, invite

    async def join(self, game_id: str, invite: str, name: str) -> tuple[LiveGame, str]:
        """Take the free seat of a friend game with its invitation; returns the seat token."""
        live = self.get(game_id)
        async with live.lock:
            row = live.row
            if row.opponent != FRIEND:
                raise Refusal("that game is against the computer", 409)
            if row.token_hashes[1] is not None:
                raise Refusal("the other seat of that game has already been taken", 409)
            if not invite or row.invite_hash is None or not hmac.compare_digest(
                row.invite_hash, hash_token(invite)
            ):
                raise Refusal("that invitation is not valid for this game", 403)
            token = secrets.token_urlsafe(24)
            self._save(live, token_hashes=[row.token_hashes[0], hash_token(token)],
                       invite_hash=None, names=[row.names[0], clean_name(name) or "Player 2"])
        await self.broadcast(live)
        return live, token

    # -- storing and sending

    def _save(self, live: LiveGame, **changes: Any) -> None:
        """Store the game as it is now (and any changed row fields); the row changes in
        memory only once the database has committed."""
        new = dataclasses.replace(
            live.row, record=live.record(), version=live.row.version + 1, updated=time.time(),
            summary=summary(live.game), **changes,
        )
        self.store.update(new)
        live.row = new

    def online(self, live: LiveGame) -> list[bool]:
        """Whether each seat has a page open on the game."""
        return [bool(live.conns[0]), bool(live.conns[1])]

    async def broadcast(self, live: LiveGame) -> None:
        """Send each connected seat its own view of the game."""
        online = self.online(live)
        for seat in (0, 1):
            if not live.conns[seat]:
                continue
            msg = seat_view(live, seat, online)
            for hook in self.send_hooks:
                hook(live, seat, msg)
            for ws in list(live.conns[seat]):
                try:
                    await ws.send_json(msg)
                except Exception:  # a socket that went away; its handler cleans up
                    live.conns[seat].discard(ws)

    async def send(self, live: LiveGame, seat: int, ws: WebSocket, msg: dict[str, Any]) -> None:
        """Send one message to one socket of a seat (through the send hooks)."""
        for hook in self.send_hooks:
            hook(live, seat, msg)
        await ws.send_json(msg)

    # -- requests

    async def handle(self, live: LiveGame, seat: int, data: Any) -> dict[str, Any]:
        """Apply one request of a seat; returns the reply for that seat, raises Refusal."""
        if not isinstance(data, dict):
            raise Refusal('a message must be a JSON object such as {"type": "action", '
                          '"action": "play QS"}')
        kind = data.get("type")
        if kind not in ("action", "undo", "hint", "next"):
            raise Refusal(f"unknown message type {str(kind)[:20]!r} "
                          "(known: action, undo, hint, next)")
        version = data.get("version")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise Refusal("'version' must be a whole number")
        reply: dict[str, Any]
        async with live.lock:
            if version is not None and version != live.row.version:
                raise Refusal("the game has moved on since that view: look again", 409)
            state = live.game.state
            if kind == "hint":
                return await self._hint(live, seat)
            if kind == "action":
                text = data.get("action")
                if not isinstance(text, str) or not text.strip():
                    raise Refusal("an action must be a text such as 'play QS' or 'pass'")
                if state.is_terminal():
                    raise Refusal("the deal is over" + ("" if live.game.is_over()
                                                         else ": start the next deal"), 409)
                if state.current_player() != seat:
                    raise Refusal("it is not your turn", 409)
                try:
                    live.apply(text)
                except BeziqueError as e:
                    raise Refusal(str(e)) from None
                self._save_or_undo(live, 1)
            elif kind == "undo":
                self._undo(live, seat)
            else:
                if not state.is_terminal():
                    raise Refusal("the deal is not over yet", 409)
                if live.game.is_over():
                    raise Refusal("the game is over", 409)
                live.next_deal()
                try:
                    self._save(live)
                except Exception:
                    live.game.state = live.game.deals.pop()
                    live.actions = live.finished.pop()["actions"]
                    raise Refusal("the game could not be saved; try again", 503) from None
            reply = {"type": "ack", "version": live.row.version}
        await self.broadcast(live)
        self.kick_computer(live)
        return reply

    def _save_or_undo(self, live: LiveGame, applied: int) -> None:
        try:
            self._save(live)
        except Exception:
            for _ in range(applied):
                live.undo()
            raise Refusal("the game could not be saved; try again", 503) from None

    def _undo(self, live: LiveGame, seat: int) -> None:
        if live.row.opponent != COMPUTER:
            raise Refusal("undo is only available against the computer", 409)
        if live.game.is_over():
            raise Refusal("the game is over", 409)
        state = live.game.state
        hist = state.history()
        mine = [i for i, (p, _) in enumerate(hist) if p == seat]
        if not mine:
            raise Refusal("you have nothing to undo in this deal", 409)
        saved, saved_actions = state.clone(), list(live.actions)
        for _ in range(len(hist) - mine[-1]):
            live.undo()
        try:
            self._save(live)
        except Exception:
            live.game.state, live.actions = saved, saved_actions
            raise Refusal("the game could not be saved; try again", 503) from None

    async def _hint(self, live: LiveGame, seat: int) -> dict[str, Any]:
        if live.row.opponent != COMPUTER:
            raise Refusal("hints are only available against the computer", 409)
        state = live.game.state
        if state.current_player() != seat:
            raise Refusal("it is not your turn", 409)
        obs = state.observation(seat)
        agent = make_agent(level_spec(HINT_LEVEL), seed=live.row.agent_seed ^ live.row.version)
        action = await asyncio.to_thread(agent.act, obs)
        return {"type": "hint", "action": action, "text": describe(obs, action)}

    def kick_computer(self, live: LiveGame) -> None:
        """Start the computer's moves in the background if it is to act."""
        if live.computer_to_act() and (live.task is None or live.task.done()):
            live.task = asyncio.create_task(self._computer_moves(live))

    async def _computer_moves(self, live: LiveGame) -> None:
        seat = live.computer_seat
        assert seat is not None
        while True:
            if self.computer_delay:
                await asyncio.sleep(self.computer_delay)
            async with live.lock:
                if not live.computer_to_act():
                    return
                state = live.game.state
                obs = state.observation(seat)
                step = live.row.version
                agent = make_agent(live.row.agent_spec,
                                   seed=(live.row.agent_seed * 1_000_003 + step) % (1 << 62))
                try:
                    action = await asyncio.to_thread(agent.act, obs)
                except Exception:  # pragma: no cover - an agent bug: leave the game as it is
                    return
                if live.game.state is not state or live.row.version != step:
                    continue
                try:
                    live.apply(action)
                    self._save_or_undo(live, 1)
                except (BeziqueError, Refusal):  # pragma: no cover - an agent bug; stop
                    return
            await self.broadcast(live)


def clean_name(name: Any) -> str:
    """A player's name as shown at the table: printable, at most 24 characters."""
    if not isinstance(name, str):
        return ""
    return "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME]


def describe(obs: Observation, action: str) -> str:
    """An action in words for a hint."""
    verb, _, rest = action.partition(" ")
    if verb == "play":
        return f"play {card_symbol(parse_card(rest.split('*')[0]))}"
    if verb == "meld":
        cards, name, pts = meld_info(obs.rules, obs.trump, action)
        return f"declare {name} {' '.join(card_symbol(c) for c in cards)} for {pts}"
    seven = RANK_NAMES[obs.rules.seven_rank]
    return {"pass": "draw without declaring", "exchange": f"exchange the {seven} of trumps",
            "seven": f"declare the {seven} of trumps"}.get(verb, action)


def summary(game: Game) -> dict[str, Any]:
    """What the list of games shows about one game (public facts only)."""
    st = game.state
    turn = st.current_player()
    return {
        "variant": game.rules.variant,
        "target": game.rules.target,
        "scores": list(st.game_scores),
        "deal": len(game.deals) + 1,
        "turn": turn if turn in (0, 1) else None,
        "deal_over": st.is_terminal(),
        "winner": game.winner,
    }


# ---------------------------------------------------------------------- the app


def _static(name: str) -> bytes:
    return resources.files("bezique.web").joinpath("static", name).read_bytes()


_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html",
          ".svg": "image/svg+xml"}
_CARD_NAMES = {r + s for r in RANKS for s in SUITS}


def _error(e: Refusal) -> JSONResponse:
    return JSONResponse({"error": e.message}, status_code=e.status)


async def _body(request: Request) -> Any:
    try:
        raw = await request.body()
    except ClientDisconnect:
        raise Refusal("the request was cut off") from None
    if len(raw) > MAX_MESSAGE:
        raise Refusal(f"request too large ({len(raw)} bytes; the limit is {MAX_MESSAGE})", 413)
    try:
        return json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise Refusal("the request body must be JSON") from None


def create_app(db: str | Path | Store | None = None, computer_delay: float = 0.0) -> FastAPI:
    """The ASGI app on the database ``db`` (a path, a :class:`Store`, or the default file)."""
    from .store import default_db_path

    store = db if isinstance(db, Store) else Store(db if db is not None else default_db_path())
    manager = Manager(store, computer_delay)
    app = FastAPI(title="Bezique", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.manager = manager
    app.state.store = store

    @app.exception_handler(Refusal)
    async def _refusal(request: Request, exc: Refusal) -> JSONResponse:
        return _error(exc)

    @app.get("/", response_class=HTMLResponse)
    async def index() -> Response:
        return Response(_static("index.html"), media_type="text/html; charset=utf-8",
                        headers={"Cache-Control": "no-cache", "Content-Security-Policy": CSP,
                                 "X-Content-Type-Options": "nosniff",
                                 "Referrer-Policy": "no-referrer"})

    @app.get("/static/{name}")
    async def static(name: str) -> Response:
        suffix = Path(name).suffix
        if name not in ("app.js", "style.css", "index.html"):
            return JSONResponse({"error": "not found"}, status_code=404)
        return Response(_static(name), media_type=_TYPES[suffix] + "; charset=utf-8",
                        headers={"Cache-Control": "no-cache"})

    @app.get("/cards/{name}.svg")
    async def card(name: str) -> Response:
        if name == "back":
            svg = back_svg()
        elif name.upper() in _CARD_NAMES:
            svg = card_svg(name.upper())
        else:
            return JSONResponse({"error": "no such card"}, status_code=404)
        return Response(svg, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/suits/{suit}.svg")
    async def suit(suit: str) -> Response:
        try:
            svg = suit_svg(suit)
        except ValueError:
            return JSONResponse({"error": "no such suit"}, status_code=404)
        return Response(svg, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/favicon.svg")
    async def favicon() -> Response:
        return Response(card_svg("QS"), media_type="image/svg+xml")

    @app.get("/api/levels")
    async def levels() -> dict[str, Any]:
        return {"levels": {lv: level_spec(lv) for lv in range(1, 6)}, "default": DEFAULT_LEVEL}

    @app.post("/api/games")
    async def create(request: Request) -> Response:
        data = await _body(request)
        if not isinstance(data, dict):
            raise Refusal("the request body must be a JSON object")
        live, token, invite = manager.create(
            opponent=data.get("opponent", COMPUTER),
            variant=data.get("variant", "bezique"),
            target=data.get("target", 1000),
            level=data.get("level", DEFAULT_LEVEL),
            name=data.get("name", ""),
            seed=data.get("seed"),
        )
        manager.kick_computer(live)
        out: dict[str, Any] = {"id": live.row.id, "seat": 0, "token": token}
        if invite:
            out["invite"] = invite
            out["invite_path"] = f"/#/join/{live.row.id}/{invite}"
        return JSONResponse(out, status_code=201)

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, request: Request) -> dict[str, Any]:
        data = await _body(request)
        if not isinstance(data, dict) or not isinstance(data.get("invite"), str):
            raise Refusal("send the invitation as {\"invite\": \"...\"}")
        live, token = await manager.join(game_id, data["invite"], data.get("name", ""))
        return {"id": live.row.id, "seat": 1, "token": token}

    @app.post("/api/games/{game_id}/state")
    async def state(game_id: str, request: Request) -> dict[str, Any]:
        data = await _body(request)
        token = data.get("token", "") if isinstance(data, dict) else ""
        live, seat = manager.seat_or_refuse(game_id, str(token))
        return seat_view(live, seat, manager.online(live))

    @app.post("/api/games/{game_id}/act")
    async def act(game_id: str, request: Request) -> dict[str, Any]:
        data = await _body(request)
        token = data.get("token", "") if isinstance(data, dict) else ""
        live, seat = manager.seat_or_refuse(game_id, str(token))
        return await manager.handle(live, seat, data)

    @app.post("/api/mine")
    async def mine(request: Request) -> dict[str, Any]:
        data = await _body(request)
        tokens = data.get("games") if isinstance(data, dict) else None
        if not isinstance(tokens, dict) or len(tokens) > 100:
            raise Refusal("send {\"games\": {game id: token, ...}} (at most 100)")
        out = []
        for gid, token in tokens.items():
            try:
                live, seat = manager.seat_or_refuse(str(gid), str(token))
            except Refusal:
                continue
            row = live.row
            out.append({"id": row.id, "seat": seat, "opponent": row.opponent,
                        "names": row.names, "created": row.created, "updated": row.updated,
                        "waiting_for_friend": row.opponent == FRIEND
                        and row.token_hashes[1] is None, **row.summary})
        out.sort(key=lambda g: -float(g["updated"]))
        return {"games": out}

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, token: str = "") -> Response:
        live, _ = manager.seat_or_refuse(game_id, token)
        rec = finished_record(live)
        if not rec["deals"]:
            raise Refusal("no deal of this game is finished yet", 409)
        return Response(json.dumps(rec, indent=1), media_type="application/json",
                        headers={"Content-Disposition":
                                 f'attachment; filename="bezique-{game_id}.json"'})

    @app.get("/api/games/{game_id}/replay")
    async def replay(game_id: str, token: str = "") -> dict[str, Any]:
        live, seat = manager.seat_or_refuse(game_id, token)
        rec = finished_record(live)
        return {"id": game_id, "you": seat, "names": live.row.names,
                "variant": live.game.rules.variant, "deals": replay_frames(rec)}

    @app.websocket("/ws/{game_id}")
    async def ws(websocket: WebSocket, game_id: str, token: str = "") -> None:
        await websocket.accept()
        try:
            live, seat = manager.seat_or_refuse(game_id, token)
        except Refusal as e:
            await websocket.send_json({"type": "error", "message": e.message, "fatal": True})
            await websocket.close(code=4403 if e.status == 403 else 4404)
            return
        live.conns[seat].add(websocket)
        try:
            await manager.broadcast(live)
            manager.kick_computer(live)
            while True:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                ref: Any = None
                try:
                    if text is None:
                        raise Refusal("send messages as JSON text, not binary")
                    size = len(text.encode("utf-8"))
                    if size > MAX_MESSAGE:
                        raise Refusal(f"message too large ({size} bytes; the limit is "
                                      f"{MAX_MESSAGE})", 413)
                    try:
                        data = json.loads(text)
                    except json.JSONDecodeError:
                        raise Refusal("a message must be JSON, such as {\"type\": \"action\", "
                                      "\"action\": \"play QS\"}") from None
                    if isinstance(data, dict):
                        ref = data.get("ref")
                        if not isinstance(ref, int | str | None) or isinstance(ref, bool):
                            ref = None
                    reply = await manager.handle(live, seat, data)
                except Refusal as e:
                    reply = {"type": "error", "message": e.message}
                if ref is not None:
                    reply["ref"] = ref
                await manager.send(live, seat, websocket, reply)
        except WebSocketDisconnect:
            pass
        finally:
            live.conns[seat].discard(websocket)
            with contextlib.suppress(Exception):
                await manager.broadcast(live)

    return app
