"""Load benchmark of ``bezique serve`` (not a test): friend games played by scripted WebSocket
clients on loopback, in four scenarios (see ``benchmarks/WEB.md``).

It starts ``bezique serve`` in a subprocess on 127.0.0.1 (a free port, a fresh database in a
temporary directory, no limit on game creation, computer delay 0) and reports the latency of an
action (from sending it to its acknowledgement, which comes after the action is stored) at p50,
p99 and max.

    python benchmarks/bench_web.py fast --games 250           # 500 clients as fast as they can
    python benchmarks/bench_web.py human --games 500          # 1,000 players, 1 s between moves
    python benchmarks/bench_web.py hints --games 200 --hinters 6   # + six games asking hints
    python benchmarks/bench_web.py tabs --games 200 --tabs 1000    # + one seat opening 1,000 tabs

``fast`` plays every game to the target (or for ``--seconds``); the others play for
``--seconds`` and measure the friend games' actions only.  The output also gives the CPU the
server process and the clients used while playing (in cores) and the load average.
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


class Stop:
    """When a timed scenario ends (``seconds`` after :meth:`start`; never if None)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.at: float | None = None

    def start(self) -> None:
        if self.seconds is not None:
            self.at = time.perf_counter() + self.seconds

    def __bool__(self) -> bool:
        return self.at is not None and time.perf_counter() >= self.at


async def play_game(base: str, game: tuple[str, str, str], rng: random.Random,
                    latencies: list[float], gate: asyncio.Semaphore, ready: list[int],
                    go: asyncio.Event, pace: float, stop: Stop) -> int:
    """One game between two scripted seats (to the target, or until ``stop``); returns the
    number of actions.  Both seats connect first (a few handshakes at a time); play starts
    when ``go`` is set; each move waits ``pace`` seconds (a human's thinking) first."""
    gid, token0, token1 = game
    ws_base = base.replace("http://", "ws://")
    async with gate:
        w0 = await websockets.connect(f"{ws_base}/ws/{gid}", open_timeout=120, max_size=None)
        await w0.send(json.dumps({"type": "hello", "token": token0}))
        w1 = await websockets.connect(f"{ws_base}/ws/{gid}", open_timeout=120, max_size=None)
        await w1.send(json.dumps({"type": "hello", "token": token1}))
        seats = [Client(w0), Client(w1)]
        await seats[0].recv()
        await seats[1].recv()
        await seats[0].recv()  # seat 1 came online
    ready.append(1)
    await go.wait()
    if pace:
        await asyncio.sleep(rng.uniform(0, pace))  # players do not all start at once
    async with w0, w1:
        actions = 0
        while seats[0].view["game"]["winner"] is None and not stop:
            d = seats[0].view["deal"]
            if pace:
                await asyncio.sleep(pace * rng.uniform(0.8, 1.2))
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


async def hinter(base: str, http: httpx.AsyncClient, stop: Stop, counts: dict[str, int],
                 hint_ms: list[float]) -> None:
    """A game against the computer (level 3) whose player asks for hints without a pause,
    and plays the hinted move every third hint (so that the computer moves too)."""
    g = (await http.post(f"{base}/api/games", json={"opponent": "computer", "level": 3})).json()
    ws_base = base.replace("http://", "ws://")
    async with websockets.connect(f"{ws_base}/ws/{g['id']}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": g["token"]}))
        me = Client(ws)
        await me.recv()
        n = 0
        while not stop:
            d = me.view["deal"]
            if me.view["game"]["winner"] is not None:
                return
            if d["phase"] == "over":
                await me.request({"type": "next"})
                continue
            if not d["your_turn"]:
                await me.recv()
                continue
            t0 = time.perf_counter()
            m = await me.request({"type": "hint"})
            if m["type"] == "hint":
                hint_ms.append((time.perf_counter() - t0) * 1000)
                counts["hints"] += 1
                n += 1
                if n % 3 == 0:
                    version = me.view["game"]["version"]
                    await me.request({"type": "action", "action": m["hint_action"]})
                    while me.view["game"]["version"] <= version:
                        await me.recv()
            elif "busy" in m.get("message", ""):
                counts["busy"] += 1
                await asyncio.sleep(0.1)  # a page would not ask again at once
            else:
                counts["other"] += 1
                await me.recv()


async def tab_storm(base: str, http: httpx.AsyncClient, tabs: int, stop: Stop,
                    counts: dict[str, int]) -> None:
    """One seat token opening ``tabs`` pages at once (50 handshakes at a time), again and again
    until ``stop``; the server keeps the newest few and closes the rest."""
    gid, token, _ = await setup_game(base, http, 1000)
    url = base.replace("http://", "ws://") + f"/ws/{gid}"
    gate = asyncio.Semaphore(50)

    async def tab() -> None:
        async with gate:
            try:
                async with websockets.connect(url, max_size=None, open_timeout=60) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                    await ws.recv()
                    counts["tabs"] += 1
                    try:
                        while True:  # hold the page open until the server closes it
                            await asyncio.wait_for(ws.recv(), 5)
                    except (websockets.ConnectionClosed, TimeoutError):
                        counts["closed_by_server"] += 1
            except (OSError, websockets.WebSocketException):
                counts["failed"] += 1

    while not stop:
        await asyncio.gather(*(tab() for _ in range(tabs)))


def quantiles(latencies: list[float]) -> dict[str, float]:
    latencies = sorted(latencies)
    if len(latencies) < 2:
        return {}
    q = statistics.quantiles(latencies, n=100)
    return {"latency_ms_p50": round(q[49] * 1000, 1), "latency_ms_p99": round(q[98] * 1000, 1),
            "latency_ms_max": round(latencies[-1] * 1000, 1)}


async def run(base: str, args: argparse.Namespace) -> dict[str, Any]:
    latencies: list[float] = []
    timed = args.scenario != "fast" or args.seconds is not None
    pace = args.pace if args.scenario != "fast" else 0.0
    target = args.target if args.scenario == "fast" else 10_000
    if args.seconds is None:
        args.seconds = 60.0
    async with httpx.AsyncClient(timeout=120) as http:
        t0 = time.perf_counter()
        made = []
        for i in range(0, args.games, 50):
            made += await asyncio.gather(*(setup_game(base, http, target)
                                           for _ in range(min(50, args.games - i))))
        setup = time.perf_counter() - t0
        gate, go = asyncio.Semaphore(20), asyncio.Event()
        ready: list[int] = []
        stop = Stop(args.seconds if timed else None)
        tasks = [asyncio.create_task(play_game(base, g, random.Random(args.seed + i), latencies,
                                               gate, ready, go, pace, stop))
                 for i, g in enumerate(made)]
        while len(ready) < args.games:
            await asyncio.sleep(0.05)
            for t in tasks:
                if t.done() and t.exception():
                    raise t.exception()  # type: ignore[misc]
        counts = {"hints": 0, "busy": 0, "other": 0, "tabs": 0, "closed_by_server": 0,
                  "failed": 0}
        hint_ms: list[float] = []
        extra: list[asyncio.Task[None]] = []
        if args.scenario == "hints":
            extra = [asyncio.create_task(hinter(base, http, stop, counts, hint_ms))
                     for _ in range(args.hinters)]
        elif args.scenario == "tabs":
            extra = [asyncio.create_task(tab_storm(base, http, args.tabs, stop, counts))]
        t0, c0, s0 = time.perf_counter(), time.process_time(), cpu_seconds(args.server_pid)
        stop.start()
        go.set()
        done = await asyncio.gather(*tasks)
        await asyncio.gather(*extra)
        elapsed = time.perf_counter() - t0
        client_cpu = (time.process_time() - c0) / elapsed
        server_cpu = (cpu_seconds(args.server_pid) - s0) / elapsed
    out: dict[str, Any] = {
        "scenario": args.scenario, "games": args.games, "players": 2 * args.games,
        "pace_s": pace, "target": target if args.scenario == "fast" else None,
        "timed": timed,
        "actions": sum(done), "setup_seconds": round(setup, 1), "seconds": round(elapsed, 1),
        "actions_per_s": round(sum(done) / elapsed, 1), **quantiles(latencies),
        # CPU used while playing, in cores: the server process (not its workers), the clients
        "server_cpu": round(server_cpu, 2), "clients_cpu": round(client_cpu, 2),
    }
    if args.scenario == "hints":
        out.update(hints=counts["hints"], busy=counts["busy"])
        if len(hint_ms) > 1:
            out["hint_ms_p50"] = round(statistics.median(hint_ms))
            out["hint_ms_max"] = round(max(hint_ms))
    if args.scenario == "tabs":
        out.update(tabs_opened=counts["tabs"], tabs_closed_by_server=counts["closed_by_server"],
                   tabs_failed=counts["failed"])
    return out


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario", choices=["fast", "human", "hints", "tabs"])
    ap.add_argument("--games", type=int, default=200, help="concurrent friend games")
    ap.add_argument("--target", type=int, default=1000, help="game target (fast)")
    ap.add_argument("--pace", type=float, default=1.0, help="seconds before each move")
    ap.add_argument("--seconds", type=float, default=None,
                    help="length of a timed scenario (default 60; fast: to the target)")
    ap.add_argument("--hinters", type=int, default=6)
    ap.add_argument("--tabs", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=None, help="serve --workers")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db-dir", default=None, help="where the fresh database goes (a "
                    "temporary directory in it)")
    args = ap.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory(dir=args.db_dir) as tmp:
        db = Path(tmp) / "bench.db"
        cmd = [sys.executable, "-m", "bezique.cli", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", str(db), "--delay", "0", "--games-per-minute", "0"]
        if args.workers is not None:
            cmd += ["--workers", str(args.workers)]
        server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env={**os.environ})
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
            args.server_pid = server.pid
            try:
                import uvloop

                result = uvloop.run(run(base, args))
            except ImportError:
                result = asyncio.run(run(base, args))
            result["load_average_1min"] = os.getloadavg()[0]
        finally:
            server.terminate()
            server.wait(10)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
