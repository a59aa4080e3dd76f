"""The games being played: :class:`Manager` loads and creates them, tells which seat a token
holds, lets a friend take the free seat, applies each seat's requests (actions, undo, hints, the
next deal) one at a time under the game's lock, stores every change before it is acknowledged,
sends each connected seat its own view, runs the computer's moves, and starts the next game
after a finished game between friends, each of its people offered their own seat in it.

It bounds what it holds: games idle for a while (no page open) leave memory and load again
from the database when asked for, at most ``max_games`` stay, each seat keeps at most a few
open pages (the newest replaces the oldest), and the computer thinks in a bounded pool of
worker processes (:mod:`bezique.web.workers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hmac
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from fastapi import WebSocket

from ..agents.base import AGENT_VARIANTS
from ..agents.levels import computer_name, level_spec
from ..errors import BeziqueError
from ..game import Game
from ..record import parse_record, states_from_record
from ..rules import Rules
from ..schema import WebCreate, WebMessage, WebSeat, short
from ..worlds import resample_from_infostate
from .again import next_game, next_seats, next_token, with_next
from .computer import agent_seed, check_help, game_agent_seed, hint
from .limits import AWAY_SECONDS, IDLE_SECONDS, MAX_GAMES_HELD, SOCKETS_PER_SEAT
from .live import COMPUTER, FRIEND, LiveGame, Refusal, stored_record
from .seats import (
    TABLE,
    TABLE_VARIANTS,
    computer_spec,
    computer_to_act,
    invitation_seat,
    invited_seat,
    is_away,
    is_person,
    is_table,
    new_seats,
    waiting,
    waiting_words,
    with_away,
)
from .store import GameRow, Store, hash_token
from .tableview import view_for
from .views import summary
from .workers import AgentPool

# The browser game's variants: those the computer players know (agents.base.AGENT_VARIANTS)
# that its pages show (the one-deal games need trumps shown as not yet fixed, no turn-up and
# the settlement in words: web/static, issue #13 item 4).
# bezique3 and bezique4 are played at a table of three or four (:mod:`bezique.web.seats`).
ONE_DEAL = ("rubicon", "sixpack", "eightpack")  # RULES.md 9.1-9.3: a game is one deal
WEB_VARIANTS = tuple(v for v in AGENT_VARIANTS if v in ("bezique", "binocle", *ONE_DEAL,
                                                        *TABLE_VARIANTS))

MAX_NAME = 24

SendHook = Callable[[LiveGame, int, dict[str, Any]], None]


def _rule_options(form: WebCreate) -> dict[str, Any]:
    """The rule options a new game asks for (RULES.md 6, 9.7), less those it sets by their own
    fields: ``target`` and ``partnership`` are given only there."""
    options = dict(form.options or {})
    for own in ("target", "partnership"):
        if own in options:
            raise Refusal(f"give the {own} as '{own}', not among the 'options'")
    return options

class Manager:
    """Loads, creates and runs games; the one place that changes them."""

    def __init__(self, store: Store, computer_delay: float = 0.0, pool: AgentPool | None = None,
                 max_games: int = MAX_GAMES_HELD, idle_seconds: float = IDLE_SECONDS,
                 sockets_per_seat: int = SOCKETS_PER_SEAT,
                 away_seconds: float = AWAY_SECONDS) -> None:
        self.store = store
        self.computer_delay = computer_delay
        self.pool = pool if pool is not None else AgentPool()
        self.max_games = max_games
        self.idle_seconds = idle_seconds
        self.sockets_per_seat = sockets_per_seat
        # a table's seat with no page open this long is taken over by the computer
        self.away_seconds = away_seconds
        # the games in memory, least recently used first
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self.send_hooks: list[SendHook] = []

    # -- loading, holding and seats

    def get(self, game_id: str) -> LiveGame:
        """The game with this id (loaded from the database if needed)."""
        live = self.games.get(game_id)
        if live is not None:
            self.games.move_to_end(game_id)
            live.used = time.monotonic()
            return live
        # (an id is short ASCII text: any other, a lone surrogate say, is no game, not a 500)
        row = self.store.load(game_id) if len(game_id) <= 64 and game_id.isascii() else None
        if row is None:
            raise Refusal("there is no such game", 404)
        try:
            record = parse_record(stored_record(row.record))
            game = Game.from_states(record.rules, states_from_record(record), seed=row.seed)
        except BeziqueError as e:  # a damaged row: said, and the server goes on
            raise Refusal(f"that game's stored record cannot be read: {e}", 500) from None
        live = LiveGame(row, game)
        self._hold(live)
        return live

    def _hold(self, live: LiveGame) -> None:
        """Keep a game in memory, letting idle ones go (they stay in the database)."""
        self.games[live.row.id] = live
        now = time.monotonic()
        for gid in list(self.games):
            old = self.games[gid]
            over = len(self.games) > self.max_games
            if not over and now - old.used < self.idle_seconds:
                break  # the rest were used more recently
            if old is not live and old.idle():
                del self.games[gid]

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

    def create(self, form: WebCreate) -> tuple[LiveGame, str, dict[int, str]]:
        """A new game (its settings checked by :class:`~bezique.schema.WebCreate`); returns it,
        the creator's seat token and each friend seat's invitation."""
        opponent, variant, target, level = form.opponent, form.variant, form.target, form.level
        name, seed = form.name, form.seed
        if variant not in WEB_VARIANTS:
            raise Refusal(f"the browser game plays {', '.join(WEB_VARIANTS[:-1])} and "
                          f"{WEB_VARIANTS[-1]}, not {short(variant)}")
        if variant in TABLE_VARIANTS:
            return self._create_table(form)
        if form.seats is not None or form.partnership is not None:
            raise Refusal("'seats' and 'partnership' are for the tables of three and four "
                          "(bezique3, bezique4)")
        options = _rule_options(form)
        if variant not in ONE_DEAL:  # the one-deal games have no target (RULES.md 9.0.7)
            options["target"] = target
        try:
            rules = Rules.preset(variant, **options)
        except BeziqueError as e:
            raise Refusal(str(e)) from None
        if seed is not None and opponent != COMPUTER:
            raise Refusal("a deal number (seed) may be chosen only for a game against the "
                          "computer, as a whole number from 0")
        # a chosen deal number replays the same deal, and the computer's choices with the same
        # random numbers (the same choices wherever its thinking time fits the same worlds; the
        # levels that search think by time): a practice game; every other game's shuffle comes
        # from a secret no client ever sees
        practice = seed is not None
        agent_seed = game_agent_seed(seed)
        seed = secrets.randbits(62) if seed is None else seed
        game = Game(rules, seed=seed)
        token = secrets.token_urlsafe(24)
        invite = secrets.token_urlsafe(24) if opponent == FRIEND else None
        me = clean_name(name) or "Player 1"
        if opponent == COMPUTER:
            spec = level_spec(level)
            names = [me, computer_name(level)]
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
        if practice:
            row.record["practice"] = True
        row.summary = summary(game)
        self.store.insert(row)
        live = LiveGame(row, game)
        self._hold(live)
        return live, token, {1: invite} if invite else {}

    def _create_table(self, form: WebCreate) -> tuple[LiveGame, str, dict[int, str]]:
        """A table for three or four: the creator at seat 0, the others friends or computers
        (all computers unless said, or all friends with ``opponent = friend``)."""
        options = _rule_options(form)
        if "target" in form.model_fields_set:
            options["target"] = form.target
        if form.partnership is not None:
            options["partnership"] = form.partnership
        try:
            rules = Rules.preset(form.variant, **options)
        except BeziqueError as e:
            raise Refusal(str(e)) from None
        others = form.seats
        if others is None:
            others = [WebSeat(kind="friend" if form.opponent == FRIEND else "computer",
                              level=form.level) for _ in range(rules.nplayers - 1)]
        seats, names, invites = new_seats(others, rules.nplayers)
        if form.seed is not None and invites:
            raise Refusal("a deal number (seed) may be chosen only for a game against the "
                          "computer, as a whole number from 0")
        token = secrets.token_urlsafe(24)
        names[0] = clean_name(form.name) or "Player 1"
        live = self._new_table(rules, seats, names, form.level, form.seed, hash_token(token))
        return live, token, invites

    def _new_table(self, rules: Rules, seats: list[dict[str, Any]], names: list[str],
                   level: int, practice: int | None, first: str | None,
                   opponent: str = TABLE) -> LiveGame:
        """A new table (or, ``opponent`` a friend, a game of two friends) stored and held,
        seat 0 (its token's digest ``first``) to lead."""
        seed = secrets.randbits(62) if practice is None else practice
        game = Game(rules, seed=seed, first_dealer=rules.nplayers - 1)  # seat 0 leads
        now = time.time()
        row = GameRow(
            id=secrets.token_urlsafe(9), created=now, updated=now, opponent=opponent, level=level,
            agent_spec=level_spec(level) if opponent == TABLE else "",
            agent_seed=game_agent_seed(practice),
            seed=seed, token_hashes=[first] + [None] * (rules.nplayers - 1),
            invite_hash=None, names=names, record=game.to_record(), version=0, seats=seats,
        )
        if practice is not None:
            row.record["practice"] = True
        row.summary = summary(game)
        self.store.insert(row)
        live = LiveGame(row, game)
        self._hold(live)
        return live

    async def again(self, live: LiveGame, seat: int, token: str) -> tuple[LiveGame, int, str]:
        """The next game after a finished friends' game, two seats or a table, for ``seat``
        (``token``; :mod:`~bezique.web.again`): the first to ask starts it and this game's pages
        are told; each takes their own seat in it with their link to this one, and no other."""
        if live.row.opponent == COMPUTER:
            raise Refusal("against the computer, play again by starting a new game", 409)
        async with live.lock:
            if not live.game.is_over():
                raise Refusal("the game is not over yet", 409)
            if started := next_game(live.row, seat) is None:
                seats, names = next_seats(live.row, seat)
                new = self._new_table(live.game.rules, seats, names, live.row.level, None, None,
                                      live.row.opponent)
                self._save(live, seats=with_next(live.row, new.row.id, seat))
            nxt = live.row.seats[seat]["next"]
        gid, new_seat = str(nxt["id"]), int(nxt["seat"])
        if started:
            await self.broadcast(live)
        new, mine = self.get(gid), next_token(token, gid, new_seat)
        async with new.lock:
            if (held := new.row.token_hashes[new_seat]) is None:
                self._save(new, token_hashes=[hash_token(mine) if s == new_seat else h
                                              for s, h in enumerate(new.row.token_hashes)])
            elif not hmac.compare_digest(held, hash_token(mine)):  # pragma: no cover
                raise Refusal("your seat in the next game is not yours any more", 409)
        if held is None:
            await self.broadcast(new)
            self._watch_absent(new)  # a seat taken whose page never opens is played too
            self.kick_computer(new)
        return new, new_seat, mine

    async def join(self, game_id: str, invite: str, name: str) -> tuple[LiveGame, int, str]:
        """Take a free seat of a friend game with its invitation; returns the seat and its
        token."""
        live = self.get(game_id)
        if is_table(live.row):
            async with live.lock:
                seat = invited_seat(live.row, invite)
                token = secrets.token_urlsafe(24)
                hashes, names = list(live.row.token_hashes), list(live.row.names)
                hashes[seat] = hash_token(token)
                names[seat] = clean_name(name) or names[seat]
                self._save(live, token_hashes=hashes, names=names)
            await self.broadcast(live)
            self._watch_absent(live)  # a seat taken whose page never opens is played too
            self.kick_computer(live)
            return live, seat, token
        async with live.lock:
            row = live.row
            invitation_seat(row, invite)
            token = secrets.token_urlsafe(24)
            self._save(live, token_hashes=[row.token_hashes[0], hash_token(token)],
                       invite_hash=None, names=[row.names[0], clean_name(name) or "Player 2"])
        await self.broadcast(live)
        return live, 1, token

    # -- storing and sending

    def _save(self, live: LiveGame, **changes: Any) -> None:
        """Store the game as it is now (and any changed row fields); the row changes in
        memory only once the database has committed."""
        record = live.record()
        new = dataclasses.replace(
            live.row, record=record, version=live.row.version + 1, updated=time.time(),
            summary=summary(live.game), **changes,
        )
        self.store.update(new, live.record_text(record))
        live.row = new

    def online(self, live: LiveGame) -> list[bool]:
        """Whether each seat has a page open on the game."""
        return [bool(live.conns[s]) for s in range(len(live.conns))]

    async def connect(self, live: LiveGame, seat: int, ws: WebSocket) -> None:
        """A page of the seat opened: it gets the view; the oldest page over the cap is closed;
        the other seats hear of it only if the seat just came online.  At a table, a seat the
        computer took over is given back, and every other person without a page open (after a
        restart, say) is given to the computer if none opens soon."""
        was = self.online(live)
        # held first, before anything awaits: a game with a page open never leaves memory
        live.conns[seat][ws] = None
        leaving = live.leaving.pop(seat, None)
        if leaving is not None:
            leaving.cancel()
        back = False
        if is_away(live.row, seat):
            async with live.lock:
                if back := is_away(live.row, seat):
                    self._save(live, seats=with_away(live.row, seat, False))
        self._watch_absent(live)
        while len(live.conns[seat]) > self.sockets_per_seat:
            old = next(iter(live.conns[seat]))
            del live.conns[seat][old]
            with contextlib.suppress(Exception):
                await old.send_json({"type": "error", "fatal": True,
                                     "message": "this game was opened in another page"})
                await old.close(code=4409)
        now = self.online(live)
        await self.send(live, seat, ws, view_for(live, seat, now))
        if now != was or back:
            await self.broadcast(live, skip=seat)

    async def disconnect(self, live: LiveGame, seat: int, ws: WebSocket) -> None:
        """A page of the seat closed: the others hear of it if the seat went offline; at a
        table, the computer takes the seat over if no page of it opens again soon."""
        if live.conns[seat].pop(ws, 0) is None and not live.conns[seat]:
            await self.broadcast(live, skip=seat)
            self._watch_absent(live)
        live.used = time.monotonic()

    def _watch_absent(self, live: LiveGame) -> None:
        """At a table, each seated person with no page open (closed, never opened since they
        sat, or not opened again since a restart) is timed: the computer takes the seat over
        if none opens within ``away_seconds``."""
        row = live.row
        if not is_table(row) or live.game.is_over():  # nothing left to play for them
            return
        for seat in range(len(row.seats)):
            if (is_person(row, seat) and row.token_hashes[seat] is not None
                    and not live.conns[seat] and not is_away(row, seat)
                    and seat not in live.leaving):
                live.leaving[seat] = asyncio.create_task(self._away_after(live, seat))

    async def _away_after(self, live: LiveGame, seat: int) -> None:
        """The computer takes over a table's seat whose pages stayed closed."""
        await asyncio.sleep(self.away_seconds)
        live.leaving.pop(seat, None)
        if not live.conns[seat]:
            with contextlib.suppress(Refusal):  # not stored (the database failed): stays
                await self.leave(live, seat)

    def close(self) -> None:
        """The server is stopping: no seat is taken over any more; the workers stop."""
        for live in self.games.values():
            for task in live.leaving.values():
                task.cancel()
            live.leaving.clear()
        self.pool.close()

    async def leave(self, live: LiveGame, seat: int) -> None:
        """A person leaves a table: the computer plays their seat until they come back."""
        if not is_table(live.row):
            raise Refusal("leaving is for the tables of three and four: against one person, "
                          "just close the page", 409)
        async with live.lock:
            if is_away(live.row, seat):
                return
            self._save(live, seats=with_away(live.row, seat, True))
        await self.broadcast(live)
        self.kick_computer(live)

    async def back(self, live: LiveGame, seat: int) -> None:
        """A person takes their seat back from the computer."""
        async with live.lock:
            if not is_away(live.row, seat):
                return
            self._save(live, seats=with_away(live.row, seat, False))
        await self.broadcast(live)
        # the others may all have left meanwhile, the computer waiting for someone to watch
        self.kick_computer(live)

    async def broadcast(self, live: LiveGame, only: int | None = None,
                        skip: int | None = None) -> None:
        """Send each connected seat (or seat ``only``, or all but ``skip``) its own view."""
        online = self.online(live)
        for seat in range(len(live.conns)):
            if not live.conns[seat] or only not in (None, seat) or seat == skip:
                continue
            msg = view_for(live, seat, online)
            for hook in self.send_hooks:
                hook(live, seat, msg)
            for ws in list(live.conns[seat]):
                try:
                    await ws.send_json(msg)
                except Exception:  # a socket that went away; its handler cleans up
                    live.conns[seat].pop(ws, None)

    async def send(self, live: LiveGame, seat: int, ws: WebSocket, msg: dict[str, Any]) -> None:
        """Send one message to one socket of a seat (through the send hooks)."""
        for hook in self.send_hooks:
            hook(live, seat, msg)
        await ws.send_json(msg)

    # -- requests

    async def handle(self, live: LiveGame, seat: int, msg: WebMessage) -> dict[str, Any]:
        """Apply one request of a seat (checked by :class:`~bezique.schema.WebMessage`);
        returns the reply for that seat, raises Refusal."""
        kind, version = msg.type, msg.version
        reply: dict[str, Any]
        if kind == "hint":
            return await hint(self.pool, live, seat, version)
        if kind == "leave":
            await self.leave(live, seat)
            return {"type": "ack", "version": live.row.version}
        if is_away(live.row, seat):  # a person back at the table takes their seat back
            seen = live.row.version
            await self.back(live, seat)
            if kind == "back":
                return {"type": "ack", "version": live.row.version}
            if kind != "next":
                raise Refusal("welcome back: you have your seat again; look at the table and "
                              "play on", 409)
            if version == seen and live.row.version == seen + 1:  # "Next deal" does it too,
                version = live.row.version  # from the view before the return
        if kind == "back":
            raise Refusal("you hold your seat already", 409)
        async with live.lock:
            if version is not None and version != live.row.version:
                raise Refusal("the game has moved on since that view: look again", 409)
            state = live.game.state
            if kind == "action":
                text = msg.action or ""
                if state.is_terminal():
                    raise Refusal("the deal is over" + ("" if live.game.is_over()
                                                         else ": start the next deal"), 409)
                if live.row.opponent == FRIEND and live.row.token_hashes[1] is None:
                    raise Refusal("wait for your friend: the game starts when both seats are "
                                  "taken", 409)
                if is_table(live.row) and waiting(live.row):
                    raise Refusal(f"{waiting_words(waiting(live.row))}: the game starts when "
                                  "every seat is taken", 409)
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
                    live.undo_next_deal()
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
        """Take back the seat's last choice and the computer's replies since (against the
        computer, or at a table where every other seat is the computer's)."""
        check_help(live, seat, "undo")
        if live.game.is_over():
            raise Refusal("the game is over", 409)
        state = live.game.state
        hist = state.history()
        mine = [i for i, (p, _) in enumerate(hist) if p == seat]
        if not mine:
            raise Refusal("you have nothing to undo in this deal", 409)
        saved = state.clone()
        for _ in range(len(hist) - mine[-1]):
            live.undo()
        # a draw with nothing else on offer was no choice (the page makes it by itself): take
        # back the choice before it too
        while (mine := mine[:-1]) and state.current_player() == seat \
                and tuple(state.legal_action_strings()) == ("pass",):
            for _ in range(len(state.history()) - mine[-1]):
                live.undo()
        # the cards the player has not seen are dealt afresh, so that undo never shows the next
        # card of the stock (or the computers' hands, a partner's included) for a second try;
        # the computers' moves replay in the new deal as they were made
        live.game.state = resample_from_infostate(state, seat, random.Random(secrets.randbits(64)))
        try:
            self._save(live)
        except Exception:
            live.game.state = saved
            raise Refusal("the game could not be saved; try again", 503) from None

    # -- the computer

    def kick_computer(self, live: LiveGame) -> None:
        """Start the computer's moves in the background if it is to act."""
        if computer_to_act(live) and (live.task is None or live.task.done()):
            live.task = asyncio.create_task(self._computer_moves(live))

    async def _computer_moves(self, live: LiveGame) -> None:
        while True:
            if self.computer_delay:
                await asyncio.sleep(self.computer_delay)
            async with live.lock:
                if not computer_to_act(live):
                    return
                state = live.game.state
                seat = state.current_player()
                spec = computer_spec(live, seat) or "random"
                obs = state.observation(seat)
                step = live.row.version
            try:  # the game is free meanwhile (a page may open, a hint be refused)
                action = await self.pool.run(live.row.id, spec,
                                             agent_seed(live.row, step), obs, wait=True)
            except Exception:  # an agent that cannot play this table: the beginner plays it
                if spec == "random" or not is_table(live.row):
                    return  # pragma: no cover - an agent bug, or the server stopping
                try:
                    action = await self.pool.run(live.row.id, "random",
                                                 agent_seed(live.row, step), obs, wait=True)
                except Exception:  # pragma: no cover - the server stopping
                    return
            async with live.lock:
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

