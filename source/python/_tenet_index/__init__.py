"""tenet's reach index recorder (loaded with ``-p _tenet_index``, after ``-p _tenet_thm``).

One pytest run of a scope on the code as it is records, for every test, which functions of the
workspace it calls, so that THM can later run only the tests that can fail with a target blank
(a test that never calls the target runs the same code without it). THM's own plugin does the
rest (node ids, outcomes, lanes, timeouts, crash restarts); this one adds, on the same channel:

  reachfile     a module compiled with the probe: its functions' table (qualname, first and
                last line, generator), in slot order
  reachtest     a test's functions (``{file: [index in its table]}``), with those of the wider
                fixtures it used (set up in it or before: a cached value stands for their calls),
                and ``spawns`` when it started a process
  reachimport   the functions a module's top level called as it was imported (a test module's:
                THM then runs the whole module; any other's: the target's whole scope)
  reachoutside  the functions called outside every test and import (pytest's hooks)
  reachunwatched  workspace files that ran without the probe
  reachconfig   pytest's rootdir, ini file and test file patterns

See instrument.py (the probe), record.py (contexts), finder.py (the import hook), caches.py
(functools caches emptied per test) and audit.py (processes, unwatched code).
"""

import os
import sys

import pytest

import _tenet_probe as probe
from _tenet_thm.channel import _emit
from _tenet_thm.scope import _normalize

from . import audit, caches, finder, record

_by_fixture = {}  # id(fixturedef) -> slots its setups reached


def _on_import(path, slots):
    rel = finder.in_workspace(path)
    if rel is not None:
        _emit({"e": "reachimport", "file": rel, "fns": record.by_file(slots)})


finder.install(probe.state.root, _emit, _on_import)
caches.install()
audit.unwatched.update(finder.loaded_before())


def _test_module_contexts(config):
    """pytest's rewriter imports test modules and conftest files: each import is a context too."""
    for hook in sys.meta_path:
        if type(hook).__name__ != "AssertionRewritingHook":
            continue
        execute = hook.exec_module

        def exec_module(module, execute=execute):
            record.push()
            try:
                execute(module)
            finally:
                slots = record.pop()
                if slots:
                    _on_import(getattr(module, "__file__", None) or "", slots)

        hook.exec_module = exec_module


def _relative(path):
    """A path relative to the workspace (posix), or absolute outside it."""
    real = probe._realpath(path)
    root = probe.state.root
    if real == root:
        return "."
    if real.startswith(root + os.sep):
        return os.path.relpath(real, root).replace(os.sep, "/")
    return real


def pytest_configure(config):
    _test_module_contexts(config)
    inipath = getattr(config, "inipath", None)
    _emit(
        {
            "e": "reachconfig",
            "rootdir": _relative(str(config.rootpath)),
            "inifile": _relative(str(inipath)) if inipath else None,
            "pythonFiles": list(config.getini("python_files") or []),
            "positional": [str(arg) for arg in (getattr(config.known_args_namespace, "file_or_dir", None) or [])],
        }
    )


def _flush_outside():
    slots = record.take()
    if slots:
        _emit({"e": "reachoutside", "fns": record.by_file(slots)})
    if audit.unwatched:
        _emit({"e": "reachunwatched", "files": sorted(audit.unwatched)})
        audit.unwatched.clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    wide = getattr(fixturedef, "scope", "function") != "function"
    if wide:
        record.push()
    try:
        yield
    finally:
        if wide:
            _by_fixture.setdefault(id(fixturedef), set()).update(record.pop())


def _inherited(item):
    """What the wider fixtures this test uses reached when they were set up (maybe in an earlier test)."""
    slots = set()
    info = getattr(item, "_fixtureinfo", None)
    for name in getattr(item, "fixturenames", ()):
        for fixturedef in getattr(info, "name2fixturedefs", {}).get(name, ()):
            slots |= _by_fixture.get(id(fixturedef), set())
    return slots


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _flush_outside()
    caches.clear()
    audit.spawned = False
    try:
        yield
    finally:
        slots = record.take() | _inherited(item)
        event = {"e": "reachtest", "nodeid": _normalize(item.nodeid), "fns": record.by_file(slots)}
        if audit.spawned:
            event["spawns"] = True
        _emit(event)


def pytest_sessionfinish(session):
    _flush_outside()

