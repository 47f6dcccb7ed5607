"""One factor for every wait in the browser and system tests, so that the suite stays green on a
busy machine (CI may run while other jobs hold both cores).

A wait in a test is a bound on how long to keep looking for a condition, never a target: a green
run returns as soon as the condition holds, so a generous bound costs nothing there and only makes
a real failure slower to report. `ZHUOJI_TIME_SCALE` sets the factor; without it the factor is 3,
more when the machine is already loaded as the session starts (the load average per core, doubled,
up to 10).
"""
from __future__ import annotations

import os
import time
from typing import Callable

DEFAULT_SCALE = 3.0
MAX_SCALE = 10.0


def _load_per_core() -> float:
    try:
        return os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:  # no load average on this platform
        return 0.0


def time_scale(environ=os.environ, load_per_core: Callable[[], float] = _load_per_core) -> float:
    given = environ.get("ZHUOJI_TIME_SCALE", "").strip()
    if given:
        return max(1.0, float(given))
    return min(MAX_SCALE, max(DEFAULT_SCALE, 2 * load_per_core()))


TIME_SCALE = time_scale()


def scaled(ms: float) -> int:
    """A bound in milliseconds, stretched by the session's factor (Playwright takes ms)."""
    return int(ms * TIME_SCALE)


def scaled_s(seconds: float) -> float:
    """The same for a bound in seconds (sockets, subprocesses)."""
    return seconds * TIME_SCALE


def wait_until(condition: Callable[[], object], seconds: float, what: str = "a condition",
               pause: Callable[[float], object] = time.sleep, step: float = 0.05):
    """Poll `condition` until it is true, for at most `seconds` × the factor; its last value.

    For conditions a test can only see from Python (a request Playwright has routed, a log line
    a subprocess wrote). Playwright's sync API hands Python its events only inside its own calls:
    there, pass `pause=lambda s: page.wait_for_timeout(s * 1000)`. Raises AssertionError naming
    `what` when time runs out."""
    deadline = time.monotonic() + scaled_s(seconds)
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {scaled_s(seconds):.0f} s waiting for {what}")
        pause(step)
