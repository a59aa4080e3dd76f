"""The server's bounds on what one client can make it hold or do: :class:`RateLimit`, a token
bucket per client for creating games, and the limits' defaults (games held in memory, how long
an idle one stays, sockets per seat).

>>> r = RateLimit(per_minute=60, burst=2, clock=lambda: 0.0)
>>> [r.allow("a"), r.allow("a"), r.allow("a"), r.allow("b")]
[True, True, False, True]
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

GAMES_PER_MINUTE = 20  # games one client may create a minute (after a burst of as many)
MAX_GAMES_HELD = 2000  # games in memory; the least recently used idle ones leave first
IDLE_SECONDS = 600.0  # a game untouched this long, with no page open, leaves memory
SOCKETS_PER_SEAT = 4  # open pages of one seat; the newest replaces the oldest
AWAY_SECONDS = 45.0  # a table's seat with no page open this long: the computer takes it over
PAGES_PER_MINUTE = 30  # pages one seat may open a minute (after a burst of 10)
MAX_CLIENTS = 10_000  # clients remembered by the rate limit


class RateLimit:
    """At most ``per_minute`` actions a minute per client key, after a burst of ``burst``."""

    def __init__(self, per_minute: float, burst: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst if burst is not None else max(1, int(per_minute)))
        self.clock = clock
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str) -> bool:
        """Whether the client ``key`` may act now (and count it if so)."""
        if self.rate <= 0:
            return True
        now = self.clock()
        tokens, then = self.buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        ok = tokens >= 1.0
        self.buckets[key] = (tokens - 1.0 if ok else tokens, now)
        while len(self.buckets) > MAX_CLIENTS:  # forget the longest quiet clients
            self.buckets.popitem(last=False)
        return ok
