"""A game of a person against the computer, without any screen: moves, undo, hint, saving.

The app in :mod:`bezique.tui.app` draws a :class:`Session`; tests and other front ends can drive
one directly.  The computer only ever gets its seat's :class:`~bezique.observation.Observation`.
The game is saved as a record (RULES.md 8) after every action, so ``bezique play --resume``
continues it and ``bezique replay`` reads it.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.json"
>>> s = Session.new(PlayConfig(level=1, seed=5), path)
>>> while not s.human_to_act():
...     _ = s.computer_move()
>>> _ = s.play(s.observation().legal[0])
>>> Session.resume(path).state.history_strings() == s.state.history_strings()
True
"""

from __future__ import annotations

import json
import os
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents import Agent, agent_names, make_agent
from ..agents.levels import DEFAULT_LEVEL, LEVEL_NAMES, computer_name, level_spec
from ..errors import BeziqueError, IllegalActionError, RecordError
from ..game import Game
from ..observation import Observation, observe
from ..record import deal_record, game_record, parse_record, record_players, states_from_record
from ..rules import Rules
from ..state import State
from ..worlds import resample_from_infostate
from .words import (
    NAMES,
    DealSummary,
    deal_over_line,
    deal_start_lines,
    deal_summary,
    describe,
    score_lines,
    seat_names,
)

__all__ = ["LEVEL_NAMES", "NAMES", "DealSummary", "PlayConfig", "Session", "deal_summary",
           "describe", "score_lines"]
SAVE_NAME = "game.json"
# where the finished deals go in the save file's text (no name or card has a NUL)
_FINISHED_DEALS = "\0finished deals\0"
GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")  # a game's id, a plain file name


def _write(path: Path, text: str) -> None:
    """Write a file whole or not at all."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def data_dir() -> Path:
    """Where games are saved: ``$BEZIQUE_DATA_DIR`` if set, else the user's data directory."""
    env = os.environ.get("BEZIQUE_DATA_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("bezique"))


def save_path() -> Path:
    """The file the current game is saved to."""
    return data_dir() / SAVE_NAME


def history_dir() -> Path:
    """Where finished games are kept (for ``bezique stats`` and the statistics screen)."""
    return data_dir() / "history"


def clean_name(name: str) -> str:
    """A player's name as shown: printable, at most 24 characters."""
    return "".join(ch for ch in name if ch.isprintable()).strip()[:24]


def remembered_name() -> str:
    """The name the person gave last time (``bezique play --name``, the start screen)."""
    try:
        data = json.loads((data_dir() / "player.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return ""
    name = data.get("name") if isinstance(data, dict) else None
    return clean_name(name) if isinstance(name, str) else ""


def remember_name(name: str) -> None:
    """Keep the person's name for the next game."""
    name = clean_name(name)
    if name and name != remembered_name():
        data_dir().mkdir(parents=True, exist_ok=True)
        (data_dir() / "player.json").write_text(json.dumps({"name": name}), encoding="utf-8")


def numbered_save(n: int) -> Path:
    """The file of the kept game number ``n`` (``bezique play --resume N``)."""
    return data_dir() / f"game-{n}.json"


def numbered_saves() -> list[tuple[int, Path]]:
    """The kept games (number, file), oldest first."""
    out = []
    d = data_dir()
    if d.is_dir():
        for f in d.glob("game-*.json"):
            num = f.stem[len("game-"):]
            if num.isdigit():
                out.append((int(num), f))
    return sorted(out)


def next_free_save() -> Path:
    """The file of the lowest number no kept game has."""
    taken = {n for n, _ in numbered_saves()}
    n = 1
    while n in taken:
        n += 1
    return numbered_save(n)


def game_id_of(meta: dict[str, Any]) -> str:
    """The id a saved game's ``play`` entry names it by: the statistics count each game once by
    it and its finished copy in ``history/`` is named after it, so an id that is no plain name
    (a hand-edited ``../x``) gives way to the one of the seed, as in saves older than ids."""
    gid = meta.get("id")
    if isinstance(gid, str) and GAME_ID.fullmatch(gid):
        return gid
    seed = meta.get("seed")
    return f"seed-{seed if isinstance(seed, int) and not isinstance(seed, bool) else None}"


def saved_id(path: Path) -> str | None:
    """The id of the game saved in ``path``; None if there is none or it cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    meta = data.get("play") if isinstance(data, dict) else None
    return game_id_of(meta) if isinstance(meta, dict) else None


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """What tells one writing of a file from another (None: there is no file)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size


def keep_unfinished(path: Path) -> int | None:
    """Before a new game replaces the one in ``path``: if that one is unfinished, move it to the
    next free numbered save and return its number (``None`` if there was nothing to keep).  A
    save that cannot be read is kept the same way, never overwritten: it may be an unfinished
    game edited by hand, and ``--saves`` says what is wrong with it."""
    if not path.exists():
        return None
    try:
        if Session.resume(path).game_over():
            return None
    except BeziqueError:
        pass
    target = next_free_save()
    os.replace(path, target)
    return int(target.stem[len("game-"):])


def save_description(path: Path) -> str:
    """One line about a saved game: level, variant, deal and scores."""
    try:
        s = Session.resume(path)
    except BeziqueError as e:
        return f"cannot be read ({e})"
    over = "finished" if s.game_over() else f"deal {s.deal_number()}"
    head = f"{s.rules.variant}, {s.strength()}, {over}, "
    # (the game's scores include the deal in play)
    return head + " · ".join(f"{'you' if i == 0 else s.names[i] if s.seats != 2 else 'computer'} "
                             f"{g}" for i, g in enumerate(s.state.game_scores))


@dataclass
class PlayConfig:
    """What a person chooses before a game: the computer's level, the variant and its options."""

    level: int = DEFAULT_LEVEL
    variant: str = "bezique"
    target: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    name: str = ""  # the person's name, shown at the table and kept in the records
    opponent: str = ""  # an agent spec instead of the level's (e.g. openspiel-ismcts)

    def rules(self) -> Rules:
        """The rules these choices make; :class:`~bezique.errors.OptionError` if they are bad."""
        opts = dict(self.options)
        if self.target is not None:
            opts["target"] = self.target
        return Rules.preset(self.variant, **opts)


class Session:
    """A game against the computer: the human is seat 0, the computer seat 1 (at a table of
    three or four, computers at every other seat, all of the same level: seats 1, 2, 3 are
    West, North, East, the partner North).

    Every change is saved to ``path`` (when given) as a game record with a ``play`` entry that
    keeps the level and the seeds, so a resumed game goes on as it would have.
    """

    HUMAN = 0
    COMPUTER = 1

    def __init__(self, game: Game, level: int, agent_seed: int, path: Path | None,
                 name: str = "", game_id: str = "", opponent: str = "") -> None:
        self.game = game
        self.name = clean_name(name) or "You"
        # names this game among the saved ones (the statistics count each game once)
        self.game_id = game_id or f"seed-{game.seed}"
        self.level = level
        self.opponent = opponent  # a chosen agent spec, or "" for the level's
        self.agent_spec = opponent or level_spec(level)
        self.agent_seed = agent_seed
        self.path = path
        self.seats = game.rules.nplayers
        self.names = seat_names(self.seats)  # how the log and the table call each seat
        # a fresh seed per resumption point keeps the computer's choices varied but reproducible
        played = self.actions_played()
        self.agents: dict[int, Agent] = {
            seat: make_agent(self.agent_spec, seed=agent_seed + played + 7919 * (seat - 1))
            for seat in range(1, self.seats)}
        self._hint_agent: Agent | None = None
        self._lock = threading.Lock()
        self._hint_lock = threading.Lock()
        self.log: list[str] = []
        # the length of the log before each action of the current deal: an undo cuts it back
        self._marks: list[int] = []
        # the file as this session last wrote (or read) it: a change is another terminal's
        self._stamp: tuple[int, int, int] | None = None
        self.unsaved = ""  # why the last save failed ("cannot be saved in ..."; "" if it did not)
        # the finished deals as the save file has them (see record_text)
        self._deal_texts: list[tuple[State, list[tuple[int, int]], str]] = []

    def strength(self) -> str:
        """Who the computer is: ``level 3 club`` or the chosen agent's spec."""
        if self.opponent:
            return self.opponent
        return f"level {self.level} {LEVEL_NAMES[self.level]}"

    # ------------------------------------------------------------------ making and saving

    @classmethod
    def new(cls, config: PlayConfig, path: Path | None = None) -> Session:
        """A new game with these choices (a random seed unless one is given)."""
        rules = config.rules()
        if not 1 <= config.level <= 5:
            raise BeziqueError(f"the level must be 1 to 5, not {config.level}")
        seed = config.seed if config.seed is not None else random.randrange(2**32)
        if config.opponent:
            make_agent(config.opponent)  # an unknown agent or a bad option: one clear line
        s = cls(Game(rules, seed=seed), config.level, seed ^ 0x5EED, path, config.name,
                f"{int(time.time())}-{seed}", config.opponent)
        s.log.extend(deal_start_lines(s.state, 1, s.names))
        s.save()
        return s

    @classmethod
    def resume(cls, path: Path) -> Session:
        """The game saved in ``path``; :class:`RecordError` if there is none or it is damaged."""
        try:
            stamp = _stamp(path)
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise RecordError("there is no saved game to resume: start one with 'bezique play'")\
                from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise RecordError(f"the saved game {path} cannot be read: {e}") from None
        except (ValueError, RecursionError) as e:  # a number too long, nesting too deep
            raise RecordError(
                f"the saved game {path} cannot be read ({str(e).split(':')[0]})"
            ) from None
        record = parse_record(data)
        meta = data.get("play") if isinstance(data, dict) else None
        if not isinstance(meta, dict):
            meta = {}
        seed = meta.get("seed")
        level = meta.get("level", DEFAULT_LEVEL)
        agent_seed = meta.get("agent_seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            seed = None
        if isinstance(level, bool) or level not in (1, 2, 3, 4, 5):
            level = DEFAULT_LEVEL
        if not isinstance(agent_seed, int) or isinstance(agent_seed, bool):
            agent_seed = 0
        states = states_from_record(record)
        game = Game.from_states(record.rules, states, seed=seed)
        names = record_players(data, record.rules.nplayers)
        chosen = meta.get("opponent")
        opponent = chosen if isinstance(chosen, str) else ""
        s = cls(game, level, agent_seed, path, names[0] if names else "", game_id_of(meta),
                opponent)
        s._stamp = stamp
        # the log of the current deal, told again from its start
        last = len(states) - 1
        probe = record.start(last, states[last - 1].game_scores if last
                             else (0,) * record.rules.nplayers)
        s.log.extend(deal_start_lines(probe, last + 1, s.names))
        for text in record.deals[last].actions:
            s._marks.append(len(s.log))
            before = probe.clone()
            a = probe.string_to_action(text)
            probe.apply_action(a)
            s.log.extend(describe(before, a, probe, s.names))
        if probe.is_terminal():  # as the deal's end was told when it was played
            s.log.append(deal_over_line(probe, s.names))
        s.log.append("Game resumed")
        return s

    def record(self) -> dict[str, Any]:
        """The game as a record (RULES.md 8) with the ``play`` entry for resuming."""
        return self._with_play(self.game.to_record())

    def _with_play(self, rec: dict[str, Any]) -> dict[str, Any]:
        rec["play"] = {"level": self.level, "agent": self.agent_spec, "seed": self.game.seed,
                       "agent_seed": self.agent_seed, "human": self.HUMAN, "id": self.game_id}
        if self.opponent:
            rec["play"]["opponent"] = self.opponent
        them = f"Computer ({self.opponent})" if self.opponent else computer_name(self.level)
        rec["players"] = [self.name] + [them if self.seats == 2 else f"{self.names[i]}: {them}"
                                        for i in range(1, self.seats)]
        return rec

    def record_text(self) -> str:
        """The record as the save file holds it, ``json.dumps(self.record(), indent=1)``; each
        finished deal is written out once (the save after every move wrote the whole game
        afresh, and took longer with every deal of a long game)."""
        done = self.game.deals
        del self._deal_texts[len(done):]
        for i, state in enumerate(done):
            history = state.history()
            if i < len(self._deal_texts) and self._deal_texts[i][0] is state \
                    and self._deal_texts[i][1] == history:
                continue
            # the deal as it stands in the list of deals: two spaces in from the left
            entry = (state, history,
                     json.dumps(deal_record(state), indent=1).replace("\n", "\n  "))
            self._deal_texts[i:i + 1] = [entry]
        if not done:
            return json.dumps(self.record(), indent=1)
        rec = self._with_play(game_record(self.rules, [self.state]))
        rec["deals"].insert(0, _FINISHED_DEALS)
        return json.dumps(rec, indent=1).replace(
            json.dumps(_FINISHED_DEALS), ",\n  ".join(text for _, _, text in self._deal_texts),
            1)

    def save(self) -> None:
        """Write the record (atomically: a crash never leaves half a file), and a finished game's
        copy for the statistics.  A folder that cannot be written does not end the game: the
        log says so once, and the next move tries again."""
        if self.path is None:
            return
        try:
            self._follow_file()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            text = self.record_text()
            _write(self.path, text)
            self._stamp = _stamp(self.path)
            done = history_dir() / f"{self.game_id}.json"
            if self.game_over():  # a finished game is kept for the statistics
                done.parent.mkdir(parents=True, exist_ok=True)
                _write(done, text)
            elif done.exists():  # the end was taken back (undo): the game is not finished
                done.unlink()
        except OSError as e:
            why = f"cannot be saved in {e.filename or self.path.parent} ({e.strerror or e})"
            if why != self.unsaved:
                self.log.append(f"The game {why}: it goes on, and each move tries again.")
            self.unsaved = why
            return
        if self.unsaved:
            self.log.append(f"The game is saved again in {self.path}.")
            self.unsaved = ""

    def _follow_file(self) -> None:
        """Keep to this game's own file when another terminal has written ``path`` since: a new
        game started there keeps this one as a numbered save (then this game goes on in that
        save), and a game resumed there elsewhere is never overwritten (this game takes the
        next free number).  The same game played on in two terminals: the last move is kept."""
        assert self.path is not None
        now = _stamp(self.path)
        if self._stamp is None or now == self._stamp:
            return  # a new game's first save, or the file as this session left it
        if now is not None and saved_id(self.path) == self.game_id:
            return
        for _, f in numbered_saves():
            if f != self.path and saved_id(f) == self.game_id:
                self.path = f  # where the other terminal kept this game
                return
        if now is not None:  # another game is in the file: this one takes a number of its own
            self.path = next_free_save()

    # ------------------------------------------------------------------ queries

    @property
    def agent(self) -> Agent:
        """The computer at seat 1 (at a table of two, the computer)."""
        return self.agents[self.COMPUTER]

    @agent.setter
    def agent(self, agent: Agent) -> None:
        self.agents[self.COMPUTER] = agent

    @property
    def state(self) -> State:
        """The current deal."""
        return self.game.state

    @property
    def rules(self) -> Rules:
        """The rules of the game."""
        return self.game.rules

    def deal_number(self) -> int:
        """1 for the first deal, and so on."""
        return len(self.game.deals) + 1

    def actions_played(self) -> int:
        """Actions in the whole game so far."""
        return sum(len(s.history()) for s in self.game.all_deals())

    def observation(self) -> Observation:
        """What the person may see."""
        return observe(self.state, self.HUMAN)

    def human_to_act(self) -> bool:
        """True when the person is to act."""
        return self.state.current_player() == self.HUMAN

    def computer_to_act(self) -> bool:
        """True when a computer is to act."""
        return self.state.current_player() in self.agents

    def deal_over(self) -> bool:
        """True when the current deal has ended."""
        return self.state.is_terminal()

    def game_over(self) -> bool:
        """True once the game has a winner."""
        return self.game.is_over()

    # ------------------------------------------------------------------ moves

    def play(self, text: str) -> list[str]:
        """The person's action (text); :class:`IllegalActionError` with the reason if refused."""
        if not self.human_to_act():
            raise IllegalActionError("it is not your turn")
        return self._apply(text)

    def computer_choice(self) -> tuple[Observation, Callable[[], str]]:
        """The observation of the computer to act and a function choosing its action (safe in
        a thread: the agents think about one position at a time)."""
        seat = self.state.current_player()
        if seat not in self.agents:
            raise IllegalActionError("it is not the computer's turn")
        obs = observe(self.state, seat)
        agent = self.agents[seat]

        def choose() -> str:
            with self._lock:
                return agent.act(obs)

        return obs, choose

    def computer_move(self) -> list[str]:
        """Let the computer choose and apply one action; its log lines."""
        _, choose = self.computer_choice()
        return self.apply_computer(choose())

    def apply_computer(self, text: str) -> list[str]:
        """Apply an action the computer chose."""
        if not self.computer_to_act():
            raise IllegalActionError("it is not the computer's turn")
        return self._apply(text)

    def _apply(self, text: str) -> list[str]:
        state = self.state
        a = state.string_to_action(text)
        before = state.clone()
        state.apply_action(a)
        self._marks.append(len(self.log))
        lines = describe(before, a, state, self.names)
        if state.is_terminal():
            lines.append(deal_over_line(state, self.names))
        self.log.extend(lines)
        self.save()
        return lines

    def next_deal(self) -> None:
        """Deal again once a deal is over (and the game is not)."""
        self.game.next_deal()
        self._marks = []
        self.log.extend(deal_start_lines(self.state, self.deal_number(), self.names))
        self.save()

    def undo(self) -> int:
        """Take back the person's last choice and the computer's replies; how many actions were
        undone.  A draw with nothing else on offer is no choice: it is taken back with the
        choice before it.  The log loses the lines of the undone actions, so it shows what a
        player who never made the move would see.

        Only within the current deal: a finished deal stays as it was.
        """
        hist = self.state.history()
        mine = [i for i, (p, _) in enumerate(hist) if p == self.HUMAN]
        if not mine:
            raise IllegalActionError("there is nothing of yours to take back in this deal")
        n = len(hist) - mine[-1]
        for _ in range(n):
            self._undo_one()
        while (mine := mine[:-1]) and self.forced_draw():
            more = len(self.state.history()) - mine[-1]
            for _ in range(more):
                self._undo_one()
            n += more
        # the cards the person has not seen are dealt afresh: undo never shows the next card of
        # the stock (or the computer's hand) for a second try
        self.game.state = resample_from_infostate(self.state, self.HUMAN, random.Random())
        self.save()
        return n

    def _undo_one(self) -> None:
        self.state.undo_action()
        if self._marks:
            del self.log[self._marks.pop():]

    def forced_draw(self) -> bool:
        """True when the person is to draw and may do nothing else."""
        return self.human_to_act() and tuple(self.observation().legal) == ("pass",)

    def hint(self) -> tuple[Observation, Callable[[], str]]:
        """The person's observation and a function giving what the computer would play there."""
        if self._hint_agent is None:
            spec = "heuristic" if "heuristic" in agent_names() else self.agent_spec
            self._hint_agent = make_agent(spec, seed=self.agent_seed + 1)
        obs = self.observation()
        agent = self._hint_agent

        seats = self.seats

        def choose() -> str:
            with self._hint_lock:
                try:
                    return agent.act(obs)
                except Exception as e:  # a hint player that knows only two seats
                    if seats == 2:
                        raise
                    raise BeziqueError(f"the hint player cannot judge a table of {seats} yet "
                                       f"({e})") from None

        return obs, choose
