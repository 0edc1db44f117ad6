"""Per-test timeout: a timer interrupts a test that runs past TENET_TEST_TIMEOUT."""

import os
import signal
import threading
import time

from .setting import _state

class TenetTestTimeout(BaseException):
    """Raised inside a test that ran past TENET_TEST_TIMEOUT (BaseException: `except Exception` keeps it)."""


_TIMEOUT = float(os.environ.get("TENET_TEST_TIMEOUT") or 0)
_deadline = None
_timed_out = set()  # node ids whose timer fired


def _on_alarm(signum, frame):
    ctx = _state.ctx
    if ctx is not None:
        _timed_out.add(ctx.nodeid)
    raise TenetTestTimeout("test timed out after %gs (tenet --test-timeout)" % _TIMEOUT)


def _arm():
    if not _TIMEOUT or _deadline is None or not hasattr(signal, "setitimer"):
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, max(0.01, _deadline - time.monotonic()))
    return True


def _disarm(armed):
    if armed:
        signal.setitimer(signal.ITIMER_REAL, 0)


def start_clock():
    """A test starts (or a blank twin resumes): its time runs from now."""
    global _deadline
    _deadline = time.monotonic() + _TIMEOUT if _TIMEOUT else None
