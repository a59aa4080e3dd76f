"""The computer's thinking, off the server's event loop: :class:`AgentPool` runs agents (the
computer's moves and hints) in a few worker processes (niced, so that they yield the CPU to the
process that answers players), one search per game at a time, with a bounded queue.

A job carries the agent spec, its seed and the seat's observation (never the state), and comes
back as the action text.  A hint asked for while the pool is full, or while its game is
already being thought about, is refused at once with "busy, try again" (:class:`Busy`); the
computer's own moves wait for a place instead.  ``workers=0`` runs jobs in a thread of this
process (for tests that need no processes).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from ..agents import make_agent
from ..observation import Observation
from .live import Refusal

NICE = 10  # the workers' niceness: a search never starves the players' requests


class Busy(Refusal):
    """The computer is thinking for too many games: the request may be made again soon."""

    def __init__(self, message: str = "the computer is busy: try again in a moment") -> None:
        super().__init__(message, 503)


def think(spec: str, seed: int, obs: Observation) -> str:
    """Run in a worker: the agent's action for ``obs``."""
    return make_agent(spec, seed=seed).act(obs)


def _start_worker(server: int) -> None:  # pragma: no cover - runs in the worker processes
    """Lower the worker's priority, and end it when the server process is gone (however it
    ended: a worker must never outlive its server)."""
    with contextlib.suppress(OSError):
        os.nice(NICE)

    def watch() -> None:
        while os.getppid() == server:  # a spawned worker's parent is the server
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="server-watch").start()


def default_workers() -> int:
    """One worker per core but one (the event loop keeps a core), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


class AgentPool:
    """A bounded pool of agent workers shared by every game of a server."""

    def __init__(self, workers: int | None = None, queue: int | None = None) -> None:
        self.workers = default_workers() if workers is None else workers
        # jobs running or waiting: beyond this a hint is refused (busy)
        self.limit = queue if queue is not None else 4 * max(1, self.workers)
        self.busy_games: set[str] = set()
        self.pending = 0
        self._executor: Executor | None = None
        self._slots: asyncio.Semaphore | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.workers == 0:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="agent")
            else:
                # spawned, not forked: a fork of the server would copy its threads' locks
                ctx = multiprocessing.get_context("spawn")
                self._executor = ProcessPoolExecutor(self.workers, mp_context=ctx,
                                                     initializer=_start_worker,
                                                     initargs=(os.getpid(),))
        return self._executor

    async def run(self, game_id: str, spec: str, seed: int, obs: Observation,
                  wait: bool = False) -> str:
        """The action of agent ``spec`` for ``obs``; :class:`Busy` if the pool is full or the
        game has a search running (``wait``: queue for a place instead, for the computer's
        own moves)."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.limit)
        if not wait and (self.pending >= self.limit or game_id in self.busy_games):
            raise Busy()
        self.pending += 1
        try:
            async with self._slots:
                while game_id in self.busy_games:  # one search per game at a time
                    if not wait:
                        raise Busy()
                    await asyncio.sleep(0.05)
                self.busy_games.add(game_id)
                try:
                    loop = asyncio.get_running_loop()
                    return await loop.run_in_executor(self._pool(), think, spec, seed, obs)
                finally:
                    self.busy_games.discard(game_id)
        finally:
            self.pending -= 1

    def close(self) -> None:
        """Stop the workers (the server is shutting down): the waiting jobs are dropped, the
        running ones finish."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
