"""Rate limits by client address: a token bucket per key, the buckets kept in the order they were
last used and evicted by age, one at a time, never all at once.

A bucket untouched for ``burst / rate`` seconds is full again: dropping it changes nothing (a new
one starts full), so those go first; past ``max_keys`` the least recently used bucket goes.

>>> clock = [0.0]
>>> limiter = RateLimiter(rate=1.0, burst=2, max_keys=3, clock=lambda: clock[0])
>>> [limiter.allow("a") for _ in range(3)]
[True, True, False]
>>> clock[0] = 1.0
>>> limiter.allow("a"), limiter.allow("a")
(True, False)
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

__all__ = ["RateLimiter"]


class RateLimiter:
    """Token buckets by key (an address): ``rate`` per second on average, ``burst`` at once."""

    def __init__(
        self, rate: float, burst: float, max_keys: int = 10_000, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = float(rate)
        self.burst = float(burst)
        self.max_keys = max_keys
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key: (tokens, stamp)

    def __len__(self) -> int:
        return len(self._buckets)

    def __contains__(self, key: object) -> bool:
        return key in self._buckets

    def allow(self, key: str, cost: float = 1.0) -> bool:
        """Take ``cost`` from ``key``'s bucket: False (nothing taken) when it holds less."""
        now = self.clock()
        buckets = self._buckets
        found = buckets.pop(key, None)
        tokens = self.burst if found is None else min(self.burst, found[0] + (now - found[1]) * self.rate)
        allowed = tokens >= cost
        if allowed:
            tokens -= cost
        buckets[key] = (tokens, now)  # the most recently used, at the end
        self._evict(now)
        return allowed

    def _evict(self, now: float) -> None:
        """Drop buckets full again by age (the oldest first), and the oldest past ``max_keys``."""
        buckets = self._buckets
        refill = self.burst / self.rate if self.rate > 0 else float("inf")
        while buckets:
            key, (_tokens, stamp) = next(iter(buckets.items()))
            if now - stamp >= refill or len(buckets) > self.max_keys:
                del buckets[key]
            else:
                return
