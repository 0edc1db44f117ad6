"""tenet's reach plugin for ``tenet bench make`` (loaded with ``-p _tenet_reach``, after ``-p _tenet_thm``).

One traced pytest pass records, for every test, which of the candidate functions it calls, so that
``bench make`` runs THM on a function only over the tests that can fail because of blanking it.
THM's own plugin runs alongside and does the rest (node ids, outcomes, timeouts, shards, crash
restarts); this one only adds ``reach`` events on the same channel.

Tracing is ``sys.settrace`` with a global function that sees each Python call once and never asks
for line events, so the cost is one cheap callback per call. Attribution:

* calls during a test (setup, call, teardown) go to that test; calls made while a fixture with a
  wider scope than a function is set up also go to that fixture, and every later test that uses
  the cached fixture inherits them (blanking the function breaks those tests too);
* calls while pytest imports a test module (its module body) go to the module's path, which is how
  THM names the failing entry of a module that no longer imports;
* calls while any other module of the workspace is being imported (a package's ``__init__``, a
  conftest, a test helper module), or outside every test (pytest hooks), are *outside*: blanking
  such a function breaks an import shared by many tests, whichever imported it first, so it makes a
  poor task and ``bench make`` leaves it out. Each is reported once, when first seen.

Subprocesses and forked children are not traced (THM's scoped run will not see a test that reaches
the function only there). A test that replaces ``sys.settrace`` (coverage, a debugger) hides its
own calls; the tracer is put back before the next test.

Environment (set by tenet, besides THM's):
  TENET_REACH_FUNCTIONS  JSON file {"files": {"rel/path.py": [[id, first_line, def_line, name], ...]}}
                         the candidate functions: first_line includes decorators, so a code object's
                         co_firstlineno (decorator or ``def`` line, by Python version) falls inside
"""

import json
import os
import sys
import threading

import pytest

import _tenet_probe as probe
import _tenet_thm as thm


def _load_functions():
    path = os.environ.get("TENET_REACH_FUNCTIONS")
    if not path:
        return {}
    with open(path, encoding="utf-8") as handle:
        files = json.load(handle)["files"]
    by_real = {}
    for rel, functions in files.items():
        lines = {}
        for fid, first, def_line, name in functions:
            for line in range(first, def_line + 1):
                lines.setdefault(line, []).append((name, fid))
        by_real[probe._realpath(os.path.join(probe.state.root, rel))] = lines
    return by_real


_FUNCTIONS = _load_functions()
_ROOT_PREFIX = probe.state.root + os.sep


class _File:
    """A workspace file as the tracer sees it: its real path and its candidates by first line."""

    __slots__ = ("real", "lines")

    def __init__(self, real, lines):
        self.real = real
        self.lines = lines


_UNSEEN = object()
_files = {}  # co_filename -> _File for workspace files, None for everything else
_modules = []  # (frame, _File) of workspace module bodies executing now, innermost last
_current = None  # the set of function ids of the running test or collected module
_collecting = None  # real path of the test module being collected
_fixture_sets = []  # sets of wider-scoped fixtures being set up now
_by_fixture = {}  # id(fixturedef) -> function ids called while setting it up
_outside = set()
_positions = {}  # node id -> index in the collected run


def _file_info(filename):
    if filename.startswith("<"):
        return None
    real = probe._realpath(filename)
    if not real.startswith(_ROOT_PREFIX):
        return None
    return _File(real, _FUNCTIONS.get(real, {}))


def _hit(fid):
    if (_modules and _modules[-1][1].real != _collecting) or _current is None:
        if fid not in _outside:
            _outside.add(fid)
            thm._emit({"e": "reachoutside", "fn": fid})
        return
    _current.add(fid)
    for calls in _fixture_sets:
        calls.add(fid)


def _module_tracer(frame, event, arg):
    if event == "return":
        for index in range(len(_modules) - 1, -1, -1):
            if _modules[index][0] is frame:
                del _modules[index:]
                break
        return None
    return _module_tracer


def _trace(frame, event, arg):
    # A global trace function only ever gets "call" events; returning None asks for nothing more.
    code = frame.f_code
    info = _files.get(code.co_filename, _UNSEEN)
    if info is _UNSEEN:
        info = _files[code.co_filename] = _file_info(code.co_filename)
    if info is None:
        return None
    if code.co_name == "<module>":
        # A module body of the workspace: follow it until it returns (no line events), to know
        # that calls meanwhile happen at import time.
        frame.f_trace_lines = False
        _modules.append((frame, info))
        return _module_tracer
    candidates = info.lines.get(code.co_firstlineno)
    if candidates:
        name = code.co_name
        for candidate, fid in candidates:
            if candidate == name:
                _hit(fid)
                break
    return None


def _install():
    if sys.gettrace() is not _trace:
        sys.settrace(_trace)
    threading.settrace(_trace)


# From here on: conftest files and test modules are imported later, under the tracer.
_install()


def pytest_configure(config):
    # The positional arguments as typed, so tenet can swap them for a narrower scope and keep the options.
    namespace = getattr(config, "known_args_namespace", None)
    positional = list(getattr(namespace, "file_or_dir", None) or [])
    thm._emit({"e": "reachargs", "positional": positional})


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    """Each test's place in the whole run, before THM's plugin keeps this shard's part (it is
    registered first, so its trylast hook runs after this one): tenet lists a function's tests in
    this order, the order pytest would run them in."""
    _positions.clear()
    for position, item in enumerate(items):
        _positions[item.nodeid] = position


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    global _current, _collecting
    path = getattr(collector, "path", None)
    # A doctest module imports a module of the project itself: its import-time calls stay outside.
    if not isinstance(collector, pytest.Module) or type(collector).__name__ == "DoctestModule" or path is None:
        yield
        return
    previous = (_current, _collecting)
    calls = set()
    _current, _collecting = calls, probe._realpath(str(path))
    _install()
    del _modules[:]
    try:
        yield
    finally:
        _current, _collecting = previous
    if calls:
        thm._emit({"e": "reach", "nodeid": thm._normalize(collector.nodeid), "fns": sorted(calls), "collect": True})


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    wide = getattr(fixturedef, "scope", "function") != "function"
    if wide:
        calls = _by_fixture.setdefault(id(fixturedef), set())
        _fixture_sets.append(calls)
    try:
        yield
    finally:
        if wide and _fixture_sets:
            _fixture_sets.pop()


def _inherited(item):
    """Calls made by the wider-scoped fixtures this test uses, when they were set up (maybe earlier)."""
    calls = set()
    info = getattr(item, "_fixtureinfo", None)
    for name in getattr(item, "fixturenames", ()):
        for fixturedef in getattr(info, "name2fixturedefs", {}).get(name, ()):
            calls |= _by_fixture.get(id(fixturedef), set())
    return calls


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    global _current
    calls = set()
    _current = calls
    _install()
    del _modules[:]
    try:
        yield
    finally:
        _current = None
    calls |= _inherited(item)
    if calls:
        thm._emit({
            "e": "reach",
            "nodeid": thm._normalize(item.nodeid),
            "fns": sorted(calls),
            "position": _positions.get(item.nodeid),
        })
