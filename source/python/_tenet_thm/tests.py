"""Tests: each test's phases as contexts, its outcome, and the event that reports it."""

import os
import time

import pytest

import _tenet_cached as cached
import _tenet_lanes as lanes
import _tenet_probe as probe

from . import channel, timeout, twin
from .channel import _emit
from .entries import _Context, _collector_set_up_through_target, _set_up_through_target
from .reports import _failure_text, _failure_text_of, _stopped_at
from .scope import _normalize, _order
from .setting import _FORK, _hookwrapper, _state
from .test_state import _items, _TestState, _tests
from .timeout import _arm, _disarm, _timed_out
from .twin import _collect_twin, _keep_only_the_test, _subprocess_hits

_fixture_blank = {}  # twin mode: id(fixturedef) -> how its setup ended in a blank twin (see _tenet_cached)


def pytest_collection_finish(session):
    for item in session.items:
        _items[item.nodeid] = item


def pytest_runtest_logstart(nodeid, location):
    timeout.start_clock(_items.get(nodeid))
    _tests[nodeid] = _TestState(nodeid, location)
    if _state.mode == "fork" and not _state.in_child:
        probe.clear_target_caches()
    # Subprocesses started by this test inherit it, to note that they called the target.
    os.environ["TENET_CURRENT_TEST"] = _normalize(nodeid)
    # Its place in the whole scope's run order: lanes' outcomes merge back into that order.
    _emit({"e": "start", "nodeid": _normalize(nodeid), "order": _order.get(nodeid, -1)})


def _phase_wrapper(phase):
    @_hookwrapper
    def wrapper(item):
        state = _tests.get(item.nodeid)
        ctx = state.context if state is not None else None
        if ctx is None:
            ctx = _Context("test", item.nodeid, item)
            if state is not None:
                state.context = ctx
        previous, _state.ctx = _state.ctx, ctx
        ctx.phase = phase
        if phase == "teardown" and _state.in_child and twin._twin_teardown:
            _keep_only_the_test(ctx)
        armed = _arm(phase)
        try:
            yield
        finally:
            _disarm(armed)
            _state.ctx = previous

    wrapper.__name__ = "pytest_runtest_" + phase
    return wrapper


pytest_runtest_setup = _phase_wrapper("setup")
pytest_runtest_call = _phase_wrapper("call")
pytest_runtest_teardown = _phase_wrapper("teardown")


@_hookwrapper
def pytest_fixture_setup(fixturedef, request):
    ctx = _state.ctx
    if ctx is not None:
        ctx.fixtures.append(fixturedef)
        ctx.set_up.add(id(fixturedef))
    try:
        yield
    finally:
        if ctx is not None and ctx.fixtures and ctx.fixtures[-1] is fixturedef:
            ctx.fixtures.pop()


_TEXT = os.environ.get("TENET_TEXT", "1") != "0"


def _text_read():
    """Whether anyone reads this process's failure reports. In twin mode the parent's failures are
    the original code's, which THM only counts; a twin's are read when the original passed."""
    if _state.in_child:
        return _state.twin_text
    return _TEXT and not _FORK and channel.world != "original"


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_makereport(item, call):
    state = _tests.get(item.nodeid)
    if state is None:
        return
    if call.excinfo is not None and not call.excinfo.errisinstance(pytest.skip.Exception):
        try:
            if _text_read():
                state.failures[call.when] = _failure_text(call.excinfo)
                state.stops[call.when] = _stopped_at(call.excinfo.tb)
            else:
                state.failures[call.when] = (call.excinfo.exconly().split("\n")[0][:2000], "")
        except Exception:
            pass
    elif call.excinfo is None and _text_read():
        # A unittest.TestCase's failure reaches pytest as the case reported it, on the item, and
        # becomes the call's exception in pytest's own makereport, after this one.
        pending = getattr(item, "_excinfo", None)
        try:
            if pending and not pending[0].errisinstance(pytest.skip.Exception):
                state.stops[call.when] = _stopped_at(pending[0].tb)
        except Exception:
            pass


def pytest_runtest_logreport(report):
    state = _tests.get(report.nodeid)
    if state is None:
        return
    state.add(report)
    if not _state.in_child:
        return
    # The blank twin reports once its test is torn down (a failure there counts too), or, when it
    # could not limit teardown to its own test, once the call is decided.
    if report.when == "teardown" or (not twin._twin_teardown and (report.failed or report.when == "call")):
        result = dict(state.result(), timedOut=report.nodeid in _timed_out)
        if not twin._twin_teardown and result["outcome"] == "passed":
            result["unsure"] = True  # its teardown did not run
        elif result["phase"] == "teardown" and "teardown" not in _state.blank_phases:
            # Teardown failed without calling the target: perhaps only because the parent had
            # already torn the same things down (a file removed twice). A real blank run decides.
            result["unsure"] = True
        item, ctx = _items.get(report.nodeid), state.context
        if item is not None and ctx is not None:
            result["fixtures"] = cached.fixture_outcomes(item, ctx.set_up, _failure_text_of)
        probe.send_child_result(result)


def pytest_runtest_logfinish(nodeid, location):
    state = _tests.pop(nodeid, None)
    if state is None:
        return
    ctx = state.context
    chain, entry_kind = (ctx.chain, ctx.entry_kind) if ctx is not None else (None, None)
    blank, needs_blank, fails_through = None, False, None
    item = _items.get(nodeid)
    if ctx is not None and ctx.fork is not None:
        blank = _collect_twin(ctx, state)
        needs_blank = blank is None or bool(blank.get("unsure"))
        for key, outcome in ((blank or {}).pop("fixtures", None) or {}).items():
            _fixture_blank[int(key)] = outcome
    elif item is not None:
        # A wider fixture that called the target in an earlier test: pytest hands this test its
        # cached value or error (see _tenet_cached.py).
        through = cached.cached_through(item, ctx.set_up if ctx is not None else (), _state.fixture_chains)
        if through is not None:
            error = _fixture_blank.get(id(through)) if _FORK else None
            if isinstance(error, dict):
                blank = cached.blank_outcome(item, state.outcome, state.phase, error)
                needs_blank = blank is None
            elif _FORK:
                needs_blank = True  # the blank fixture's value is not the parent's: run it blank
            if chain is None or isinstance(error, dict):
                chain, entry_kind = None, None
                fails_through = cached.entry_name(through, _state.fixture_chains)
    collector = None
    if ctx is not None and ctx.collector_setup is not None:
        collector, entry = ctx.collector_setup
        ended = blank if blank is not None else {"outcome": state.outcome, "phase": state.phase}
        if channel.world != "original" and ended.get("outcome") == "error" and ended.get("phase") == "setup":
            _set_up_through_target.setdefault(collector, entry)
    elif item is not None:
        collector = _collector_set_up_through_target(item)
        if collector is not None:
            # Set up (and failed, blank) in an earlier test: pytest re-raises its error here.
            chain, entry_kind, blank = None, None, None
            fails_through = _set_up_through_target[collector]
            needs_blank = needs_blank or _FORK
    # Which wider fixture's cache decides whether this test reached the target: with shards, each
    # process sets it up for its own first user; tenet keeps the first in the whole run's order.
    cache_fixture = None
    if collector in _set_up_through_target:
        pass  # the collector's setup is the cache (below)
    elif fails_through is not None:
        cache_fixture = through
    elif chain is not None and ctx.hit_fixture is not None and cached.scope_of(ctx.hit_fixture) != "function":
        cache_fixture = ctx.hit_fixture
    # A process this test started called the target (its chain is not seen from here).
    in_subprocess = _normalize(nodeid) in _subprocess_hits()
    if _FORK and (in_subprocess or (ctx is not None and ctx.needs_blank)):
        needs_blank = True
    if channel.world == "blank" and state.outcome in ("failed", "error"):
        lanes.note(nodeid)  # for the original world
    _emit({
        "e": "test",
        "nodeid": _normalize(nodeid),
        "order": _order.get(nodeid, -1),
        "outcome": state.outcome,
        "phase": state.phase,
        "message": state.message,
        "stoppedAt": state.stopped_at,
        "longrepr": state.longrepr,
        "file": location[0] if location else None,
        "line": (location[1] + 1) if location and location[1] is not None else None,
        "durationMs": round((time.monotonic() - state.started) * 1000, 1),
        "chain": chain,
        "entryKind": entry_kind,
        "failsThrough": fails_through,
        "subprocess": in_subprocess,
        "cache": {
            "key": "setup of " + _normalize(collector),
            "fixture": _set_up_through_target[collector],
            "order": _order.get(nodeid, -1),
        } if collector in _set_up_through_target else None if cache_fixture is None or item is None else {
            "key": cached.cache_key(cache_fixture, item),
            "fixture": cached.entry_name(cache_fixture, _state.fixture_chains),
            "order": _order.get(nodeid, -1),
        },
        "timedOut": nodeid in _timed_out,
        "blank": blank,
        "needsBlank": needs_blank,
    })
