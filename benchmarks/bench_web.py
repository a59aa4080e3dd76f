"""Load benchmark of ``bezique serve`` (not a test): N concurrent friend games, each played by two
scripted WebSocket clients on loopback, with random legal actions to the target.

It starts ``bezique serve`` in a subprocess on 127.0.0.1 (a free port, a fresh database in a
temporary directory), plays the games, and reports games/s and the latency of an action (from
sending it to its acknowledgement, which comes after the action is stored) at p50 and p99.

    python benchmarks/bench_web.py --games 200 --target 1000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Client:
    """One seat's socket, keeping its latest view."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.view: dict[str, Any] = {}
        self.ref = 0

    async def recv(self) -> dict[str, Any]:
        m: dict[str, Any] = json.loads(await self.ws.recv())
        if m["type"] == "state" and (
            not self.view or m["game"]["version"] >= self.view["game"]["version"]
        ):
            self.view = m
        return m

    async def request(self, obj: dict[str, Any]) -> dict[str, Any]:
        self.ref += 1
        await self.ws.send(json.dumps({**obj, "ref": self.ref}))
        while True:
            m = await self.recv()
            if m["type"] != "state" and m.get("ref") == self.ref:
                return m


async def setup_game(base: str, http: httpx.AsyncClient, target: int) -> tuple[str, str, str]:
    """Create a friend game and take its second seat: (game id, token 0, token 1)."""
    g = (await http.post(f"{base}/api/games", json={"opponent": "friend", "target": target})).json()
    j = (await http.post(f"{base}/api/games/{g['id']}/join", json={"invite": g["invite"]})).json()
    return g["id"], g["token"], j["token"]


async def play_game(base: str, game: tuple[str, str, str], rng: random.Random,
                    latencies: list[float], gate: asyncio.Semaphore, ready: list[int],
                    go: asyncio.Event) -> int:
    """One whole game between two scripted seats; returns the number of actions.

    Both seats connect first (a few handshakes at a time); play starts when ``go`` is set."""
    gid, token0, token1 = game
    ws_base = base.replace("http://", "ws://")
    async with gate:
        w0 = await websockets.connect(f"{ws_base}/ws/{gid}?token={token0}", open_timeout=120)
        w1 = await websockets.connect(f"{ws_base}/ws/{gid}?token={token1}", open_timeout=120)
        seats = [Client(w0), Client(w1)]
        await seats[0].recv()
        await seats[1].recv()
        await seats[0].recv()  # seat 1 came online
    ready.append(1)
    await go.wait()
    async with w0, w1:
        actions = 0
        while seats[0].view["game"]["winner"] is None:
            d = seats[0].view["deal"]
            t0 = time.perf_counter()
            if d["phase"] == "over":
                ack = await seats[0].request({"type": "next"})
            else:
                mover = seats[d["turn"]]
                ack = await mover.request({"type": "action",
                                           "action": rng.choice(mover.view["deal"]["legal"]),
                                           "version": mover.view["game"]["version"]})
            latencies.append(time.perf_counter() - t0)
            if ack["type"] != "ack":
                raise RuntimeError(f"refused: {ack}")
            actions += 1
            for s in seats:
                while s.view["game"]["version"] < ack["version"]:
                    await s.recv()
        return actions


async def run(base: str, games: int, target: int, seed: int) -> dict[str, Any]:
    latencies: list[float] = []
    async with httpx.AsyncClient(timeout=60) as http:
        t0 = time.perf_counter()
        made = await asyncio.gather(*(setup_game(base, http, target) for _ in range(games)))
        setup = time.perf_counter() - t0
    gate, go = asyncio.Semaphore(20), asyncio.Event()
    ready: list[int] = []
    tasks = [asyncio.create_task(play_game(base, g, random.Random(seed + i), latencies, gate,
                                           ready, go)) for i, g in enumerate(made)]
    while len(ready) < games:
        await asyncio.sleep(0.05)
        for t in tasks:
            if t.done() and t.exception():
                raise t.exception()  # type: ignore[misc]
    t0 = time.perf_counter()
    go.set()
    counts = await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - t0
    latencies.sort()
    q = statistics.quantiles(latencies, n=100)
    return {
        "games": games,
        "target": target,
        "actions": sum(counts),
        "setup_seconds": round(setup, 2),
        "seconds": round(elapsed, 2),
        "games_per_s": round(games / elapsed, 2),
        "actions_per_s": round(sum(counts) / elapsed, 1),
        "latency_ms_p50": round(q[49] * 1000, 2),
        "latency_ms_p99": round(q[98] * 1000, 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="concurrent games (N)")
    ap.add_argument("--target", type=int, default=1000, help="game target")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        server = subprocess.Popen(
            [sys.executable, "-m", "bezique.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--db", str(db), "--delay", "0"],
            stdout=subprocess.DEVNULL, env={**os.environ},
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.time() + 30
            while True:
                try:
                    httpx.get(base + "/api/levels", timeout=1)
                    break
                except httpx.TransportError:
                    if time.time() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
            result = asyncio.run(run(base, args.games, args.target, args.seed))
        finally:
            server.terminate()
            server.wait(10)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
