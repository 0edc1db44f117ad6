"""tenet's reach plugin for ``tenet bench make`` (loaded with ``-p _tenet_reach``, after ``-p _tenet_thm``).

One pytest pass records, for every test, which of the candidate functions it calls, so that
``bench make`` runs THM on a function only over the tests that can fail because of blanking it.
THM's own plugin runs alongside and does the rest (node ids, outcomes, timeouts, shards, crash
restarts); this one only adds ``reach`` events on the same channel.

The pass runs on a scratch copy in which every candidate starts with a probe that calls
``_tenet_reach_hook.hit(ID)`` (source/engine/bench/make-instrument.ts): only the candidates pay for
being watched. A trace function (``sys.settrace``) would see the same calls but slow down every
Python call of the suite, about twice over on networkx. Attribution:

* calls during a test (setup, call, teardown) go to that test; calls made while a fixture with a
  wider scope than a function is set up also go to that fixture, and every later test that uses
  the cached fixture inherits them (blanking the function breaks those tests too);
* calls while pytest imports a test module (its module body) go to the module's path, which is how
  THM names the failing entry of a module that no longer imports;
* calls while any other module of the workspace is being imported (a package's ``__init__``, a
  conftest, a test helper module), or outside every test (pytest hooks), are *outside*: blanking
  such a function breaks an import shared by many tests, whichever imported it first, so it makes a
  poor task and ``bench make`` leaves it out. Each is reported once, when first seen. Whether an
  import is under way is read from the stack on a function's first call in each test only, so a
  function called a million times costs one set lookup per call after that.

A subprocess or forked child runs the probe without this plugin: such calls are not recorded (THM's
scoped run will not see a test that reaches the function only there).
"""

import os
import sys

import pytest

import _tenet_probe as probe
import _tenet_reach_hook
from _tenet_thm.channel import _emit
from _tenet_thm.scope import _normalize

_ROOT_PREFIX = probe.state.root + os.sep

_UNSEEN = object()
_module_files = {}  # co_filename of a module body -> its real path when in the workspace, else None
_current = None  # the set of function ids of the running test or collected module
_collecting = None  # real path of the test module being collected
_fixture_sets = []  # sets of wider-scoped fixtures being set up now
_by_fixture = {}  # id(fixturedef) -> function ids called while setting it up
_outside = set()
_positions = {}  # node id -> index in the collected run


def _workspace_module(filename):
    real = _module_files.get(filename, _UNSEEN)
    if real is _UNSEEN:
        real = None
        if not filename.startswith("<"):
            path = probe._realpath(filename)
            if path.startswith(_ROOT_PREFIX):
                real = path
        _module_files[filename] = real
    return real


def _importing_other_module():
    """A module body of the workspace, other than the test module being collected, is on the stack."""
    frame = probe._getframe(2)
    while frame is not None:
        code = frame.f_code
        if code.co_name == "<module>":
            real = _workspace_module(code.co_filename)
            if real is not None and real != _collecting:
                return True
        frame = frame.f_back
    return False


def _hit(fid):
    current = _current
    if current is not None and fid in current and not _fixture_sets:
        return
    if fid in _outside:
        return
    if current is None or _importing_other_module():
        _outside.add(fid)
        _emit({"e": "reachoutside", "fn": fid})
        return
    current.add(fid)
    for calls in _fixture_sets:
        calls.add(fid)


# From here on: conftest files and test modules are imported later, and their calls are recorded.
_tenet_reach_hook.hit = _hit


def pytest_configure(config):
    # The positional arguments as typed, so tenet can swap them for a narrower scope and keep the options.
    namespace = getattr(config, "known_args_namespace", None)
    positional = list(getattr(namespace, "file_or_dir", None) or [])
    _emit({"e": "reachargs", "positional": positional})


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
    try:
        yield
    finally:
        _current, _collecting = previous
    if calls:
        _emit({"e": "reach", "nodeid": _normalize(collector.nodeid), "fns": sorted(calls), "collect": True})


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
    try:
        yield
    finally:
        _current = None
    calls |= _inherited(item)
    if calls:
        _emit({
            "e": "reach",
            "nodeid": _normalize(item.nodeid),
            "fns": sorted(calls),
            "position": _positions.get(item.nodeid),
        })
