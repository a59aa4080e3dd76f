"""The site served for real, for the tests that drive it in a browser: a free local port,
uvicorn in a thread, and where Debian's Chromium is (the fixtures are in ``conftest.py``); and
:func:`press`, a click as a hand makes it."""

from __future__ import annotations

import contextlib
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn

CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium"),
                             shutil.which("chromium-browser")) if p and Path(p).exists()), None)
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
TIMEOUT_MS = 15000


@contextlib.contextmanager
def served_at(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a free local port: its address, while open."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 15
    while not server.started:
        assert time.time() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def press(page: Any, selector: str) -> None:
    """Click ``selector``, then take the pointer off the table, as a hand leaves the card it
    played.  Left there, it hovers the card that takes the played one's place, which rises
    (0.12 s) once the player's turn comes back: the next click then waits for the card to be
    still, some 0.2 s at every move of a whole game."""
    page.click(selector)
    page.mouse.move(0, 0)


@contextlib.contextmanager
def checked_page(browser: Any, **context: Any) -> Iterator[Any]:
    """A fresh page in a new browser context (``context``: its options, such as the
    viewport), with the tests' timeout; no page may raise an error while it is used."""
    ctx = browser.new_context(**context)
    pg = ctx.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield pg
        assert not errors, errors
    finally:
        ctx.close()
