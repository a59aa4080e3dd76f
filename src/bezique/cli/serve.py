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
@click.option("--public-url", default=None, metavar="URL",
              help="The address others open to reach this server (e.g. http://my-host:8000); "
                   "used for invitation links.")
@click.option("--games-per-minute", type=click.FloatRange(0), default=20, show_default=True,
              help="New games one client address may create a minute (0: no limit).")
@click.option("--workers", type=click.IntRange(0, 64), default=None,
              help="Processes the computer thinks in (default: one per core but one).")
def serve(host: str, port: int, db: str | None, delay: float, public_url: str | None,
          games_per_minute: float, workers: int | None) -> None:
    """Play in the browser against the computer or a friend."""
    import sqlite3

    import uvicorn

    from ..web.app import create_app
    from ..web.store import default_db_path

    # a bad --public-url is said before the database is opened (its folder made) and the
    # worker processes started
    if public_url is not None and not public_url.startswith(("http://", "https://")):
        fail(f"--public-url must start with http:// or https://, not {public_url[:40]!r}")
    path = db or str(default_db_path())
    try:
        app = create_app(path, computer_delay=delay, public_url=public_url, host=host,
                         games_per_minute=games_per_minute, workers=workers)
    except (OSError, sqlite3.Error) as e:
        fail(f"cannot open the database {path}: {e}")
    sock = _listen(host, port)
    click.echo(f"Bezique: open {_address(host, sock.getsockname()[1])} in your browser "
               f"(games stored in {path})")
    if host in ("127.0.0.1", "localhost", "::1") and not public_url:
        click.echo("Only this computer can connect; to play a friend elsewhere use --host 0.0.0.0 "
                   "and --public-url http://YOUR-ADDRESS:PORT")
    elif public_url:
        click.echo(f"Invitation links use {public_url}")
    config = uvicorn.Config(app, log_level="warning", ws_max_size=65536)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except (OSError, SystemExit) as e:
        fail(f"cannot serve on {host}:{port}: {e}")


def _address(host: str, port: int) -> str:
    """The address to open in a browser: the port the server listens on (the one the system
    chose for ``--port 0``), an IPv6 host in brackets, this machine for a wildcard host."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


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
