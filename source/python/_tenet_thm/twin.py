"""Twin mode's blank twin, from the plugin's side: what it runs, and how the parent reads its outcome."""

import json
import os
import select
import signal
import time

import _tenet_cached as cached
import _tenet_capture as capture

from . import timeout
from .channel import _emit
from .scope import _normalize
from .setting import _state

_twin_teardown = False  # in the blank twin: whether it runs its test's teardown (see below)


def _setup_stack(ctx):
    """pytest's stack of set-up nodes (pytest 7+: node -> (finalizers, exception)), or None."""
    stack = getattr(getattr(getattr(ctx.item, "session", None), "_setupstate", None), "stack", None)
    return stack if isinstance(stack, dict) else None


def _keep_only_the_test(ctx):
    """In the blank twin, as its teardown starts: it undoes what belongs to this test
    (function-scoped fixtures, xunit methods) and nothing wider. The parent tore down its own copy
    already; module, class and session scopes stay the parent's business, as in a blank run where
    the next test needs them. (Not earlier: a wider fixture set up later in the test registers its
    finalizer on its node, which must still be there.)
    """
    stack = _setup_stack(ctx)
    for node in list(stack):
        if node is not ctx.item:
            del stack[node]


def _child_started():
    """In the blank twin: its own timer (timers do not survive fork), and its own teardown."""
    global _twin_teardown
    timeout.start_clock(getattr(_state.ctx, "item", None))
    timeout._arm(getattr(_state.ctx, "phase", None))
    ctx = _state.ctx
    _twin_teardown = _setup_stack(ctx) is not None
    if _twin_teardown and ctx.phase == "teardown":
        _keep_only_the_test(ctx)  # forked during teardown itself


_state.on_child_start = _child_started


def _before_fork(ctx):
    """Twin mode, at a test's first call of the target: fork a twin only where a blank run would
    get. Not when a wider fixture of the test, cached from an earlier test, called the target: the
    blank run stops this test at that fixture (or a real blank run must decide), unless the call
    is in a wider fixture that pytest sets up before it."""
    through = cached.cached_through(ctx.item, ctx.set_up, _state.fixture_chains)
    if through is None:
        return True
    current = ctx.fixtures[-1] if ctx.fixtures else None
    if ctx.phase == "setup" and current is not None and cached.scope_of(current) != "function":
        order = list(cached.closure(ctx.item))
        if current in order and order.index(current) < order.index(through):
            return True
    return False


_state.before_fork = _before_fork


def _twin_capture(ctx):
    """Twin mode, right before a test's twin is forked: the twin gets copies of pytest's capture
    files as the test left them (see _tenet_capture.py); the parent reads and empties its own once
    its test is over, before the twin goes on."""
    taken = capture.copies(ctx.item.config)
    return lambda in_twin: capture.take(taken) if in_twin else capture.drop(taken)


_state.at_twin_fork = _twin_capture


def _collect_twin(ctx, state):
    """Twin mode, in the parent: let the blank twin run, and read its outcome (`state`: the
    test's outcome on the original code)."""
    twin = ctx.fork
    _emit({"e": "twin", "nodeid": _normalize(ctx.nodeid)})
    chunks = []
    try:
        # The twin builds its failure report only if it will be read: when the original passed.
        read = state.outcome not in ("failed", "error")
        os.write(twin["go"], b"p" if read else b"f")
        limit = time.monotonic() + (timeout._TIMEOUT or 600) + 2
        while True:
            left = limit - time.monotonic()
            if left <= 0 or not select.select([twin["result"]], [], [], left)[0]:
                os.kill(twin["pid"], signal.SIGKILL)
                break
            chunk = os.read(twin["result"], 65536)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError:
        pass
    finally:
        for fd in (twin["go"], twin["result"]):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            os.waitpid(twin["pid"], 0)
        except OSError:
            pass
    try:
        return json.loads(b"".join(chunks).decode("utf-8")) if chunks else None
    except ValueError:
        return None


_hits_offset = 0


def _subprocess_hits():
    """Node ids noted by subprocesses that called the target since the last look."""
    global _hits_offset
    path = os.environ.get("TENET_HITS_FILE")
    try:
        # Asked after every test: a stat, and a read only when a subprocess wrote since.
        if not path or os.stat(path).st_size <= _hits_offset:
            return set()
    except OSError:
        return set()
    with open(path, encoding="utf-8") as handle:
        handle.seek(_hits_offset)
        data = handle.read()
        _hits_offset = handle.tell()
    return {line for line in data.splitlines() if line}
