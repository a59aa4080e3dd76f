"""Where web games last: one SQLite row per game, holding the game as its record (RULES.md 8).

A row keeps the record, the seed of the shuffle, the computer's agent spec and seed, and the
seat tokens as SHA-256 digests (a copy of the database does not let anyone act for a seat).
Every write commits before it returns, so an action is stored before the server acknowledges it.

>>> s = Store(":memory:")
>>> s.insert(GameRow(id="g1", created=1.0, updated=1.0, opponent="friend", level=0,
...                  agent_spec="", agent_seed=0, seed=5, token_hashes=["a", None],
...                  invite_hash="b", names=["Ann", "Bob"], record={"deals": []}, version=0))
>>> s.load("g1").names
['Ann', 'Bob']
>>> s.load("nope") is None
True
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    opponent TEXT NOT NULL,
    level INTEGER NOT NULL,
    agent_spec TEXT NOT NULL,
    agent_seed INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    token_hashes TEXT NOT NULL,
    invite_hash TEXT,
    names TEXT NOT NULL,
    record TEXT NOT NULL,
    version INTEGER NOT NULL,
    summary TEXT NOT NULL DEFAULT '{}',
    seats TEXT NOT NULL DEFAULT '[]'
);
"""


def default_db_path() -> Path:
    """The database file: ``$BEZIQUE_DATA_DIR/games.sqlite3``, else the user's data directory."""
    env = os.environ.get("BEZIQUE_DATA_DIR")
    if env:
        base = Path(env)
    else:
        from platformdirs import user_data_dir

        base = Path(user_data_dir("bezique"))
    return base / "games.sqlite3"


def hash_token(token: str) -> str:
    """The digest stored for a seat token or an invitation.  Any text has one, even one that is
    no UTF-8 (a lone surrogate, sent as a JSON escape): it holds no seat, and is refused as a
    wrong token (it was a 500).

    >>> hash_token("\\ud800") != hash_token("")
    True
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class StaleWrite(Exception):
    """An update of a game from a version that is no longer the stored one."""


@dataclass
class GameRow:
    """One stored game."""

    id: str
    created: float
    updated: float
    opponent: str  # "computer" or "friend"
    level: int
    agent_spec: str
    agent_seed: int
    seed: int
    token_hashes: list[str | None]
    invite_hash: str | None
    names: list[str]
    record: dict[str, Any]
    version: int
    summary: dict[str, Any] = field(default_factory=dict)
    # a table for three or four: each seat's kind, computer level, invitation digest and
    # whether the computer has taken it over (:mod:`bezique.web.seats`); for two seats, empty
    # but for a friends' game's links to the last and the next game (:mod:`bezique.web.again`)
    seats: list[dict[str, Any]] = field(default_factory=list)


class Store:
    """The SQLite database of games (thread-safe: one connection behind a lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            if self.path != ":memory:":
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.executescript(SCHEMA)
            columns = {r[1] for r in self._conn.execute("PRAGMA table_info(games)")}
            if "seats" not in columns:  # a database from before the tables of three and four
                self._conn.execute("ALTER TABLE games ADD COLUMN seats TEXT NOT NULL "
                                   "DEFAULT '[]'")

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._conn.close()

    def insert(self, row: GameRow) -> None:
        """Store a new game."""
        with self._lock:
            self._conn.execute(
                "INSERT INTO games (id, created, updated, opponent, level, agent_spec, "
                "agent_seed, seed, token_hashes, invite_hash, names, record, version, summary, "
                "seats) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.id, row.created, row.updated, row.opponent, row.level, row.agent_spec,
                    row.agent_seed, row.seed, json.dumps(row.token_hashes), row.invite_hash,
                    json.dumps(row.names), json.dumps(row.record, separators=(",", ":")),
                    row.version, json.dumps(row.summary), json.dumps(row.seats),
                ),
            )

    def update(self, row: GameRow, record_text: str | None = None) -> None:
        """Store the game's new state (record, seats, version, summary); committed on return;
        ``record_text`` is the record as JSON if the caller has it already.

        The stored version must be the one before ``row.version``: else :class:`StaleWrite`
        (two copies of one game in memory must never overwrite each other)."""
        with self._lock:
            cur = self._conn.execute(
                "UPDATE games SET updated = ?, token_hashes = ?, invite_hash = ?, names = ?, "
                "record = ?, version = ?, summary = ?, seats = ? WHERE id = ? AND version = ?",
                (
                    row.updated, json.dumps(row.token_hashes), row.invite_hash,
                    json.dumps(row.names),
                    record_text or json.dumps(row.record, separators=(",", ":")),
                    row.version, json.dumps(row.summary), json.dumps(row.seats), row.id,
                    row.version - 1,
                ),
            )
            if cur.rowcount != 1:
                raise StaleWrite(f"game {row.id} is not at version {row.version - 1}")

    def load(self, game_id: str) -> GameRow | None:
        """The stored game with this id, or None."""
        with self._lock:
            cur = self._conn.execute(
                "SELECT id, created, updated, opponent, level, agent_spec, agent_seed, seed, "
                "token_hashes, invite_hash, names, record, version, summary, seats FROM games "
                "WHERE id = ?",
                (game_id,),
            )
            r = cur.fetchone()
        if r is None:
            return None
        return GameRow(
            id=r[0], created=r[1], updated=r[2], opponent=r[3], level=r[4], agent_spec=r[5],
            agent_seed=r[6], seed=r[7], token_hashes=json.loads(r[8]), invite_hash=r[9],
            names=json.loads(r[10]), record=json.loads(r[11]), version=r[12],
            summary=json.loads(r[13]), seats=json.loads(r[14]),
        )

    def count(self) -> int:
        """How many games are stored."""
        with self._lock:
            n = self._conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        return int(n)
