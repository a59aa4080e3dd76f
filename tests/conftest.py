"""Fixtures shared by the browser tests: a headless Chromium, and the site served for real in
three settings (``site``: the computer moves after a short pause; ``fast_site``: at once, no
worker process; ``served``: no workers and no rate limit, with the app, whose games a test may
read)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live_site import ARGS, CHROMIUM, served_at


@pytest.fixture
def browser() -> Iterator[Any]:
    """Headless Chromium for one test.  Skipped without a Chromium, unless
    ``BEZIQUE_REQUIRE_BROWSER=1`` (CI sets it): then a missing browser is an error, so the
    browser tests can never be skipped silently there.  (One browser for a whole test process
    would start faster, but Playwright's synchronous API then keeps an event loop running
    between tests, and the terminal app's tests cannot start their own.)"""
    if CHROMIUM is None:
        missing = "no chromium found: install Debian's chromium (apt-get install -y chromium)"
        if os.environ.get("BEZIQUE_REQUIRE_BROWSER", "").strip() not in ("", "0"):
            pytest.fail(f"{missing}; BEZIQUE_REQUIRE_BROWSER is set, so the browser test must run")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    from bezique.web.app import create_app

    with served_at(create_app(tmp_path / "games.db", computer_delay=0.05)) as url:
        yield url


@pytest.fixture
def fast_site(tmp_path: Path) -> Iterator[str]:
    from bezique.web.app import create_app

    with served_at(create_app(tmp_path / "games.db", computer_delay=0.0, workers=0)) as url:
        yield url


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    from bezique.web.app import create_app

    app = create_app(tmp_path / "games.db", workers=0, games_per_minute=0)
    with served_at(app) as url:
        yield url, app

