"""``bezique serve``: the web site for playing in the browser (see :mod:`bezique.web.app`)."""

from __future__ import annotations

import errno
import socket

import click

from .common import fail


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on.")
@click.option("--db", "db", type=click.Path(dir_okay=False), default=None,
              help="SQLite file for the games (default: games.sqlite3 in $BEZIQUE_DATA_DIR "
                   "or the user data directory).")
@click.option("--delay", type=click.FloatRange(0, 5), default=0.5, show_default=True,
              help="Seconds the computer waits before each of its moves.")
def serve(host: str, port: int, db: str | None, delay: float) -> None:
    """Play in the browser against the computer or a friend."""
    import sqlite3

    import uvicorn

    from ..web.app import create_app
    from ..web.store import default_db_path

    path = db or str(default_db_path())
    try:
        app = create_app(path, computer_delay=delay)
    except (OSError, sqlite3.Error) as e:
        fail(f"cannot open the database {path}: {e}")
    sock = _listen(host, port)
    click.echo(f"Bezique: open http://{host}:{port}/ in your browser (games stored in {path})")
    config = uvicorn.Config(app, log_level="warning", ws_max_size=65536)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except (OSError, SystemExit) as e:
        fail(f"cannot serve on {host}:{port}: {e}")


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, or one clear line and status 2 (a port in use, a bad address)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            fail(f"port {port} on {host} is already in use: stop the other server or choose "
                 "another port with --port")
        fail(f"cannot listen on {host}:{port}: {e.strerror or e}")
