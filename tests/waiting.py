"""Waiting for an event in a test: a worker's job, a server's first answer, a page's update.

A test waits for the event itself, polling, with a bound generous enough for a machine busy with
other work (CI has run this suite at a load of 12-25 on two cores); a quiet machine leaves as soon
as the event happens, so the bound costs nothing there. `HANDFOOT_TEST_WAIT_SECONDS` changes it.
"""

import os
import time
from collections.abc import Callable

WAIT_SECONDS = float(os.environ.get("HANDFOOT_TEST_WAIT_SECONDS", "240"))
WAIT_MS = int(WAIT_SECONDS * 1000)


def wait_for[T](condition: Callable[[], T], *, what: str, seconds: float = WAIT_SECONDS,
             interval: float = 0.2, alive: Callable[[], bool] | None = None) -> T:
    """Poll `condition` until it gives a true value, and return that value; fail naming `what`
    after `seconds`, or at once when `alive` says the process doing the work has died."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if alive is not None and not alive():
            raise AssertionError(f"the process died while waiting for {what}")
        if time.monotonic() >= deadline:
            raise AssertionError(f"gave up after {seconds:.0f} s waiting for {what}")
        time.sleep(interval)

# A browser's actions and expectations (Playwright's own default is 30 s, `expect`'s 5 s).
BROWSER_WAIT_MS = int(float(os.environ.get("HANDFOOT_TEST_BROWSER_WAIT_SECONDS", "90")) * 1000)
