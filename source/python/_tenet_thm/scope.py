"""Scope: TENET_ONLY, TENET_SKIP, shards; and node ids relative to the workspace."""

import os
import sys

import pytest

import _tenet_probe as probe

from .channel import _emit
from .setting import _FORK, _state
from .test_state import _quick_repr

def _read_lines(variable):
    path = os.environ.get(variable)
    if not path:
        return None
    with open(path, encoding="utf-8") as handle:
        return {line.rstrip("\n") for line in handle if line.strip()}


_ONLY = _read_lines("TENET_ONLY")
_SKIP = _read_lines("TENET_SKIP") or set()
_ONLY_FILES = (
    {probe._realpath(os.path.join(_state.root, entry.split("::", 1)[0])) for entry in _ONLY} if _ONLY else set()
)
_prefix = ""  # rootdir relative to the workspace root, so node ids are relative to the workspace


def _normalize(nodeid):
    return _prefix + nodeid if _prefix else nodeid


def _wanted(nodeid):
    nodeid = _normalize(nodeid)
    return nodeid in _ONLY or nodeid.split("::", 1)[0] in _ONLY


def pytest_configure(config):
    global _prefix
    rootdir = probe._realpath(str(config.rootpath))
    root = _state.root
    if rootdir != root and rootdir.startswith(root + os.sep):
        _prefix = os.path.relpath(rootdir, root).replace(os.sep, "/") + "/"
    _emit({"e": "configured", "rootdir": rootdir, "args": list(config.args), "fork": _FORK})
    if _ONLY is not None:
        _reach_every_wanted_file(config)


def _reach_every_wanted_file(config):
    """TENET_ONLY: pytest's arguments also reach every wanted test file.

    A run of chosen tests gets the arguments of THM's scope, so its tests run as THM saw them (a
    test id among them as its file). A wanted file none of them holds (the ini file's testpaths leave out the scope the developer
    gave; the agent's own test file lies elsewhere) is added to the arguments here, after pytest
    chose the rootdir and the conftest files from them, which stay as they were. TENET_ONLY alone
    chooses the tests: -k, -m and --deselect chose THM's already, and would only drop the agent's.
    """
    config.option.keyword = ""
    config.option.markexpr = ""
    if getattr(config.option, "deselect", None):
        config.option.deselect = []
    # A scope of test ids (what `bench make` writes) names tests that may not be there now: the
    # failing tests hidden while the agent works. pytest stops at an id it does not find and runs
    # nothing, so each id stands for its file here, whose wanted tests TENET_ONLY keeps.
    files = []
    for arg in config.args:
        path = str(arg).partition("::")[0]
        if path not in files:
            files.append(path)
    config.args[:] = files
    base = str(config.invocation_params.dir)
    reached = []  # (path, whole): a file or folder an argument names, and whether all of it
    for arg in config.args:
        path, _, part = str(arg).partition("::")
        reached.append((probe._realpath(os.path.join(base, path)), not part))
    for wanted in sorted(_ONLY_FILES):
        held = any(
            whole and (wanted == path or wanted.startswith(path + os.sep)) for path, whole in reached
        )
        if not held and os.path.isfile(wanted):
            config.args.append(wanted)


def pytest_ignore_collect(collection_path, config):
    """With TENET_ONLY, skip every file and folder that holds none of the wanted tests."""
    if _ONLY is None:
        return None
    path = probe._realpath(str(collection_path))
    if os.path.isdir(path):
        return None if any(w.startswith(path + os.sep) for w in _ONLY_FILES) else True
    if path.endswith(".py") and os.path.basename(path) != "conftest.py" and path not in _ONLY_FILES:
        return True
    return None


def _shard_units(items, count):
    """Split items into contiguous units: whole files, large files cut into chunks."""
    cap = max(1, -(-len(items) // (count * 4)))
    units, current, current_file = [], [], None
    for item in items:
        file = item.nodeid.split("::", 1)[0]
        if current and (file != current_file or len(current) >= cap):
            units.append(current)
            current = []
        current_file = file
        current.append(item)
    if current:
        units.append(current)
    return units


def _select_shard(items, index, count):
    loads = [0] * count
    owner = {}
    units = _shard_units(items, count)
    # Longest units first onto the least-loaded shard (ties: lowest shard); stable across workers.
    for u in sorted(range(len(units)), key=lambda u: (-len(units[u]), u)):
        shard = min(range(count), key=lambda s: (loads[s], s))
        loads[shard] += len(units[u])
        owner[u] = shard
    return [item for u, unit in enumerate(units) if owner[u] == index for item in unit]


_order = {}  # node id -> place in the run order of the whole scope (the same in every shard)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    total = len(items)
    for index, item in enumerate(items):
        _order[item.nodeid] = index
    kept = list(items)
    if _ONLY is not None:
        kept = [item for item in kept if _wanted(item.nodeid)]
    shard = os.environ.get("TENET_SHARD")
    if shard:
        index, count = (int(part) for part in shard.split("/"))
        if count > 1:
            kept = _select_shard(kept, index, count)
    mine = len(kept)
    if _SKIP:
        kept = [item for item in kept if _normalize(item.nodeid) not in _SKIP]
    if len(kept) != len(items):
        keep = set(map(id, kept))
        config.hook.pytest_deselected(items=[item for item in items if id(item) not in keep])
        items[:] = kept
    for item in kept:
        item.repr_failure = _quick_repr(item)
        item._repr_failure_py = item.repr_failure
    _without_shrinking(kept)
    _emit({"e": "collected", "total": total, "mine": mine, "remaining": len(kept)})


def _without_shrinking(items):
    """Hypothesis tests find a failing example, then shrink it to a small one and explain it: with
    the target blank nearly every example fails, and shrinking costs up to a minute a test (attrs'
    suite with `make_class` blank: 57 s for TestMetadata::test_not_none_metadata, under 1 s
    without). THM reads only whether a test fails, which shrinking never changes (Hypothesis
    still runs the failing example again before it reports), so its tests run without those two
    phases. The settings a test runs with were taken when it was decorated, so they are set on
    each collected test."""
    if "hypothesis" not in sys.modules:
        return
    try:
        from hypothesis import Phase, settings
    except Exception:
        return
    dropped = {Phase.shrink, getattr(Phase, "explain", Phase.shrink)}
    for item in items:
        test = getattr(item, "obj", None)
        test = getattr(test, "__func__", test)
        current = getattr(test, "_hypothesis_internal_use_settings", None)
        if current is None:
            continue
        try:
            phases = tuple(phase for phase in current.phases if phase not in dropped)
            if phases != tuple(current.phases):
                test._hypothesis_internal_use_settings = settings(current, phases=phases)
        except Exception:
            pass
