"""The target was called: the probe's entry points (``hit``, and the call probe's) land here."""

import _thread
import os

from . import caches
from .chain import _Outside, made_by_a_report, record_chain
from .state import _getframe, state
from .twin import _fork, _in_event_loop, _may_fork

_lock = _thread.allocate_lock()  # the target may be reached from several threads at once


def _note_subprocess_hit():
    """A process started by a test called the target: the parent's plugin reads this note."""
    if state.noted_subprocess:
        return
    state.noted_subprocess = True
    path, nodeid = os.environ.get("TENET_HITS_FILE"), os.environ.get("TENET_CURRENT_TEST")
    if path and nodeid:
        try:
            with open(path, "a", encoding="utf-8") as handle:
                handle.write(nodeid + "\n")
        except OSError:
            pass


def hit():
    """First statement of the target while THM runs."""
    __tracebackhide__ = True  # pytest leaves this frame out of failure reports
    if _arrive(_getframe(1)):
        raise NotImplementedError


def _arrive(frame, target_record=None, target_code=None):
    """The target was called (``frame`` is its own, or a call probe's): record the chain the first
    time in a test, fork in twin mode. True when the caller must behave as the blank target (this
    process is a blank twin, or the blank world)."""
    decided = _arrive_here(frame, target_record, target_code)
    return decided or state.mode == "blank"


def _arrive_here(frame, target_record, target_code):
    if state.in_child:
        state.blank_phases.add(getattr(state.ctx, "phase", None))
        return True
    if caches._target_caches is not None:
        caches._note_cached_callers(frame)
    ctx = state.ctx
    if ctx is None:
        if not state.in_pytest:
            _note_subprocess_hit()
        elif state.on_start_hit is not None:
            on_start_hit, state.on_start_hit = state.on_start_hit, None  # the first such call says it all
            try:
                on_start_hit(record_chain(frame, _Outside(), target_record, target_code)[0])
            except Exception:
                pass  # only a report: the call itself goes on as it would without tenet
        return False
    fixture = ctx.fixtures[-1] if ctx.fixtures else None
    if ctx.chain is not None and (fixture is None or id(fixture) in state.fixture_chains):
        return False  # the common case, without the lock
    if made_by_a_report(frame):
        return False  # not the test's call: recorded nowhere, and no twin forks at it
    with _lock:
        need_test = ctx.chain is None
        need_fixture = fixture is not None and id(fixture) not in state.fixture_chains
        if not (need_test or need_fixture):
            return False
        recorded = record_chain(frame, ctx, target_record, target_code)
        if need_fixture:
            state.fixture_chains[id(fixture)] = recorded
        if need_test:
            ctx.chain, ctx.entry_kind = recorded
            ctx.hit_fixture = fixture
    if not need_test:
        return False
    if state.on_hit is not None:
        state.on_hit(ctx, recorded[0], recorded[1])
    if state.mode == "fork" and ctx.kind == "test" and hasattr(os, "fork"):
        if state.before_fork is not None and not state.before_fork(ctx):
            return False  # the plugin decides this test's blank outcome without a twin
        if not _may_fork() or _in_event_loop():
            ctx.needs_blank = True
            return False
        caches._note_target_caches(frame.f_code if target_code is None else target_code)
        caches._note_cached_callers(frame)  # the registry is new at the first call: this call's callers too
        _fork(ctx, frame)
        if state.in_child:
            state.blank_phases.add(getattr(ctx, "phase", None))
            return True
    return False
