"""Per-test timeout: a timer interrupts a test that runs past TENET_TEST_TIMEOUT, or past the
project's own limit (pytest-timeout's ``timeout``) when that is the smaller.

pytest-timeout arms SIGALRM (or a thread that ends the process) for each test; tenet's timer
uses the same alarm, and the two cannot both hold it. So where pytest-timeout is loaded, tenet
keeps its timers unset (its hooks answer first) and applies the project's limit itself: a test
that runs past it fails as pytest-timeout fails it (``Failed: Timeout >5.0s``), in the phases it
covers (the call alone with ``timeout_func_only``), also in twin mode's blank twin, which no
timer of the parent's reaches.
"""

import os
import signal
import sys
import threading
import time

import pytest

from .setting import _state


class TenetTestTimeout(BaseException):
    """Raised inside a test that ran past TENET_TEST_TIMEOUT (BaseException: `except Exception` keeps it)."""


_TIMEOUT = float(os.environ.get("TENET_TEST_TIMEOUT") or 0)
_deadline = None
_project = None  # (limit in seconds, deadline) of the running test under pytest-timeout's limit
_project_call_only = False
_timed_out = set()  # node ids whose timer fired


def _project_limit(item):
    """pytest-timeout's limit for this test (its ini ``timeout``, ``--timeout``, PYTEST_TIMEOUT or a
    ``timeout`` mark) and whether it covers the call alone; None where it sets none."""
    module = sys.modules.get("pytest_timeout")
    if module is None or item is None:
        return None
    try:
        if not item.config.pluginmanager.has_plugin("timeout"):
            return None
        settings = module._get_item_settings(item)
    except Exception:
        return None
    limit = getattr(settings, "timeout", None)
    if not limit or limit <= 0:
        return None
    return float(limit), bool(getattr(settings, "func_only", False))


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_timeout_set_timer(item, settings):
    """pytest-timeout's timer stays unset: tenet's applies its limit (see _arm)."""
    return True


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_timeout_cancel_timer(item):
    return True


def _on_alarm(signum, frame):
    ctx = _state.ctx
    if ctx is not None:
        _timed_out.add(ctx.nodeid)
    if _project is not None and _project[1] is not None and (_deadline is None or _project[1] <= _deadline):
        # As pytest-timeout itself fails such a test.
        pytest.fail("Timeout >%ss" % _project[0])
    raise TenetTestTimeout("test timed out after %gs (tenet --test-timeout)" % _TIMEOUT)


def _arm(phase=None):
    global _project
    if phase == "call" and _project_call_only and _project is not None and _project[1] is None:
        _project = (_project[0], time.monotonic() + _project[0])
    project = _project[1] if _project and (phase == "call" or not _project_call_only) else None
    deadlines = [d for d in (_deadline, project) if d is not None]
    if not deadlines or not hasattr(signal, "setitimer"):
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, max(0.01, min(deadlines) - time.monotonic()))
    return True


def _disarm(armed):
    if armed:
        signal.setitimer(signal.ITIMER_REAL, 0)


def start_clock(item=None):
    """A test starts (or a blank twin resumes): its time runs from now."""
    global _deadline, _project, _project_call_only
    _deadline = time.monotonic() + _TIMEOUT if _TIMEOUT else None
    if item is not None:
        found = _project_limit(item)
        _project_call_only = bool(found and found[1])
        # A limit on the call alone starts with the call (see _arm).
        _project = (found[0], None if found[1] else time.monotonic() + found[0]) if found else None
