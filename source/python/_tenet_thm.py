"""tenet's THM pytest plugin (loaded with ``-p _tenet_thm``); the probe itself is _tenet_probe.py.

It tells the probe which test or collector is running, reports one JSON line per event on a
duplicate of the original stdout (taken at import time: ``-p`` plugins are imported before pytest
starts capturing), each prefixed with MARK so tenet finds it among pytest's own output, and in
fork mode collects the outcome of each test's blank twin.

Environment (all set by tenet):
  TENET_ROOT          workspace root; chain paths and node ids are relative to it
  TENET_TARGET_FILE   absolute path of the target's file in the workspace
  TENET_MODE          record | blank | fork (see _tenet_probe.py) | worlds: both worlds from one
                      collection (see pytest_runtestloop)
  TENET_SHARD         "k/n": run only the k-th of n balanced shards of the collected tests
  TENET_LANES         n: collect once, then run the n shards in forked lanes (see _tenet_lanes.py);
                      "auto:n": at most n, one per 10 tests
  TENET_ONLY          file of node ids, or file paths meaning all their tests, to run; the rest is deselected
  TENET_SKIP          file of node ids already done by an earlier, crashed run of this shard
  TENET_TEST_TIMEOUT  seconds per test (setup + call + teardown), 0 for none
  TENET_TEXT          0: no failure report is read from this run (its outcomes only)
  TENET_HITS_FILE     where subprocesses started by a test note that they called the target
  TENET_PARENT_PID    tenet's pid: this process dies with it (Linux)
"""

import atexit
import gc
import inspect
import json
import linecache
import os
import select
import signal
import sys
import threading
import time
import traceback

import _imp
from importlib.machinery import SourceFileLoader

import pytest
from _pytest.assertion import rewrite as _rewrite

import _tenet_cached as cached
import _tenet_capture as capture
import _tenet_lanes as lanes
import _tenet_probe as probe

MARK = "\x1etenet:"
_MAX_TEXT = 8000
_state = probe.state
_state.in_pytest = True

# The channel: a duplicate of fd 1 made before pytest's fd-level capture replaces fd 1.
try:
    _out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8", errors="replace")
    atexit.register(_out.close)
except OSError:  # pragma: no cover - no stdout at all
    _out = sys.__stdout__


_lane = None  # in a lane (TENET_LANES): its index
_world = None  # TENET_MODE=worlds, in a lane: "blank" or "original"


def _emit(event):
    if _state.in_child:
        return  # the blank twin reports through its own pipe, never here
    if _world == "original":
        event["world"] = "original"
    if _lane is None:
        _out.write(MARK + json.dumps(event, default=str) + "\n")
        _out.flush()
        return
    event["lane"] = _lane
    lanes.write_line(_out.fileno(), (MARK + json.dumps(event, default=str) + "\n").encode("utf-8", "replace"))


def _die_with_parent():
    """Linux: if tenet is killed outright (SIGKILL), take this pytest process down with it."""
    parent = os.environ.get("TENET_PARENT_PID")
    if not parent or not sys.platform.startswith("linux") or os.getppid() != int(parent):
        return  # not started by tenet itself (a subprocess of a test inherits the variable)
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


_die_with_parent()


def _originals(*wanted):
    """The (owner, name) attributes of Python's and pytest's internals that the two functions
    below wrap, or None where one is missing (another version: then nothing is wrapped)."""
    found = [getattr(owner, name, None) for owner, name in wanted]
    return None if any(value is None for value in found) else found


def _name_cached_tests_where_they_are():
    """pytest keeps each test module with its asserts rewritten in `__pycache__`, and takes it from
    there while the source's mtime and size match, with the file name it was compiled under: a
    module rewritten in the checkout (the developer ran pytest there), or in the workspace of an
    earlier run, would name the checkout's or a removed folder's file in every frame, so its chains
    would start outside the workspace and its failures cite code that is not the code that ran.
    Python's own loader renames what it reads from a cache (`_imp._fix_co_filename`); pytest's
    does not, so its reader is wrapped to do the same."""
    originals = _originals((_rewrite, "_read_pyc"), (_imp, "_fix_co_filename"))
    if originals is None:
        return
    read, rename = originals

    def _read_pyc(source, pyc, *args, **kwargs):
        code = read(source, pyc, *args, **kwargs)
        if code is not None and code.co_filename != str(source):
            rename(code, str(source))
        return code

    _rewrite._read_pyc = _read_pyc


_name_cached_tests_where_they_are()


def _write_bytecode_in_the_workspace():
    """Where bytecode is not to be written (PYTHONDONTWRITEBYTECODE, `-B`), every run compiles the
    workspace's modules again, and pytest rewrites every test module again: 3 s of sympy's 5.5 s
    for its test_latex.py. That choice is for the developer's own folders; the workspace is
    tenet's, and the copy tenet keeps for the next run keeps its bytecode (see copy-tree.ts). So
    this process writes bytecode again, inside the workspace only: a cache folder that is not
    the workspace's (another package's, a link planted out of it, a PYTHONPYCACHEPREFIX) is left
    as the setting wants it. The tests' own subprocesses inherit the setting as it was."""
    originals = _originals((SourceFileLoader, "_cache_bytecode"), (_rewrite, "try_makedirs"))
    if not sys.dont_write_bytecode or originals is None:
        return
    cache, makedirs = originals

    def inside(folder):
        real = probe._realpath(str(folder))
        return real.startswith(_state.root + os.sep)

    def _cache_bytecode(self, source_path, bytecode_path, data):
        if inside(os.path.dirname(bytecode_path)):
            return cache(self, source_path, bytecode_path, data)
        return None

    def try_makedirs(cache_dir):
        return inside(cache_dir) and makedirs(cache_dir)

    SourceFileLoader._cache_bytecode = _cache_bytecode
    _rewrite.try_makedirs = try_makedirs
    sys.dont_write_bytecode = False


_write_bytecode_in_the_workspace()
_TARGET_FILE = probe._realpath(os.environ.get("TENET_TARGET_FILE", ""))
_FORK = _state.mode == "fork" and hasattr(os, "fork")
_WORLDS = _state.mode == "worlds"


def _hookwrapper(function):
    """An old-style hook wrapper: pluggy 0.x and 1.x both understand it."""
    return pytest.hookimpl(hookwrapper=True)(function)


# ---------------------------------------------------------------------------------------------
# What may start a chain


def _code_of(obj):
    obj = getattr(obj, "__func__", obj)
    try:
        obj = inspect.unwrap(obj)
    except ValueError:
        pass
    obj = getattr(obj, "__func__", obj)
    return getattr(obj, "__code__", None)


_XUNIT = (
    "setUp", "tearDown", "setUpClass", "tearDownClass", "asyncSetUp", "asyncTearDown",
    "setup_method", "teardown_method", "setup_class", "teardown_class", "setup", "teardown",
)
_XUNIT_MODULE = ("setup_module", "teardown_module", "setUpModule", "tearDownModule",
                 "setup_function", "teardown_function")


def _collected_function(item):
    """The test function as pytest collected it, from its class or module: a plugin may have put a
    runner of its own in ``item.obj`` since. pytest-trio does, at the call: a wrapper whose
    coroutine starts the test in a trio task of its own, so the test's frame is under trio's
    scheduler and under no frame of ``item.obj`` (pytest-asyncio's wrapper keeps ``__wrapped__``,
    which ``_code_of`` follows)."""
    name = getattr(item, "originalname", None)
    holder = getattr(item, "cls", None) or getattr(item, "module", None)
    if not name or holder is None:
        return None
    try:
        return inspect.getattr_static(holder, name, None)
    except Exception:
        return None


def _entry_codes(item):
    """Code objects that may start a chain for this item: the test function, then fixtures."""
    test_codes, fixture_codes = set(), set()
    for obj in (getattr(item, "obj", None), _collected_function(item)):
        code = _code_of(obj)
        if code is not None:
            test_codes.add(code)
    info = getattr(item, "_fixtureinfo", None)
    for defs in getattr(info, "name2fixturedefs", {}).values():
        for fixturedef in defs:
            code = _code_of(getattr(fixturedef, "func", None))
            # pytest's own fixtures that call xunit methods (setup_module, setUpClass) are not
            # entries: the methods they call are, below.
            if code is not None and not probe.is_framework(code.co_filename):
                fixture_codes.add(code)
    holders = [(getattr(item, "cls", None), _XUNIT), (getattr(item, "module", None), _XUNIT_MODULE)]
    for holder, names in holders:
        for name in names:
            code = _code_of(getattr(holder, name, None)) if holder is not None else None
            if code is not None and not probe.is_framework(code.co_filename):
                fixture_codes.add(code)
    return test_codes, fixture_codes


_state.entry_codes = _entry_codes


class _Context:
    """What is running now: one test item (all its phases) or a collector."""

    def __init__(self, kind, nodeid, item=None):
        self.kind = kind
        self.nodeid = nodeid
        self.item = item
        self.chain = None
        self.entry_kind = None
        self.fixtures = []  # fixture definitions being set up right now, innermost last
        self.set_up = set()  # ids of the fixture definitions whose setup ran during this test
        self.hit_fixture = None  # the fixture being set up at the first call, if any
        self.module_file = None  # for a module collector: the module's real path
        self.phase = None  # "setup", "call" or "teardown" while the test runs
        self.fork = None  # fork mode: the blank twin waiting for this test to end
        self.needs_blank = False  # fork mode: reached where no twin could fork (another thread)
        self.collector_setup = None  # (node id, chain entry) of the collector whose own setup made the first call


def _on_hit(ctx, chain, entry_kind):
    if ctx.kind == "test" and ctx.phase == "setup" and ctx.hit_fixture is None:
        collector = _collector_being_set_up()
        if collector is not None:
            ctx.collector_setup = (collector.nodeid, chain[0]["name"] if chain else "?")
    if ctx.kind == "test":
        # Reported at once: if the test then hangs or kills its process, tenet still knows the chain.
        _emit({"e": "hit", "nodeid": _normalize(ctx.nodeid), "chain": chain, "entryKind": entry_kind})
    elif _FORK or _WORLDS:
        # Collected on the original code, once for both worlds: tenet re-runs this module blank.
        _emit({"e": "collecthit", "nodeid": _normalize(ctx.nodeid), "chain": chain, "entryKind": entry_kind})


_state.on_hit = _on_hit

# A collector whose own setup called the target: pytest's Package.setup runs the package's
# setup_module and looks setUpModule and pytest_plugins up on its __init__ (which a module
# __getattr__ answers: jsonschema's). pytest sets a collector up once, in the first test under it;
# blank, that setup fails, and pytest fails every later test under it with the same error, without
# a call. Like a wider fixture's, only the first test reaches the target (the run keeps the first
# in the whole run's order); the others fail through it. Fork mode's parent set the collector up
# on the original code, so its later tests would fork no twin, or one that starts past the setup
# and passes: they run blank in a pass of their own instead. A setup that went on blank (it caught
# the error) fails no later test: it is not noted.
_set_up_through_target = {}  # collector node id -> the entry of the chain of its failed setup's call


def _collector_being_set_up():
    """The collector whose setup() is on the stack, or None (the call comes from a test or fixture)."""
    frame = probe._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "setup" and issubclass(type(frame.f_locals.get("self")), pytest.Collector):
            return frame.f_locals["self"]
        frame = frame.f_back
    return None


def _collector_set_up_through_target(item):
    """The collector above this test whose setup called the target in an earlier test, or None."""
    for node in item.listchain():
        if node.nodeid in _set_up_through_target and node is not item:
            return node.nodeid
    return None


def _on_start_hit(chain):
    """The target was called outside every test and collector before the tests run (a
    conftest.py and what it imports, a conftest's collection hook): with its body blank or a stub,
    such a call can stop pytest before it reports anything, and then this is what tells tenet why;
    a run that collects on the original code learns that its collection is no blank world's.
    Reported once, and no more once the tests run (see pytest_runtestloop)."""
    _emit({"e": "starthit", "chain": chain})


_state.on_start_hit = _on_start_hit


# ---------------------------------------------------------------------------------------------
# Scope: TENET_ONLY, TENET_SKIP, shards


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


_LANES_AUTO = (os.environ.get("TENET_LANES") or "").startswith("auto:")
_LANES = int((os.environ.get("TENET_LANES") or "0").replace("auto:", ""))
_TESTS_PER_LANE = 10  # with auto, fewer tests than this per lane are not worth a lane


def _lane_count(items):
    return max(1, min(_LANES, len(items) // _TESTS_PER_LANE)) if _LANES_AUTO else max(1, _LANES)


def _enter_world(world):
    """TENET_MODE=worlds, in a lane: from here on the target is blank, or its original code."""
    global _world
    _world = world
    _state.mode = "blank" if world == "blank" else "record"
    os.environ["TENET_MODE"] = _state.mode  # and in the subprocesses of its tests


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session):
    """TENET_LANES=n: run the collected tests in up to n forked lanes; this process only waits.

    TENET_MODE=worlds: both of benchmark mode's worlds from this one collection (made on the
    original code). Lanes forked from it run every test with the target blank; then lanes forked
    from it again, as it was collected, run the tests that failed blank on the original code. A
    process per world and no second collection; nothing a test of one world did is seen by the
    other's.
    """
    global _lane
    _state.on_start_hit = None  # the start is over: a call outside a test now is a teardown's or a hook's
    if _LANES < 2 and not _WORLDS:
        return None
    items = list(session.items)
    count = _lane_count(items)
    if (count == 1 and not _WORLDS) or not probe._may_fork():
        # One lane, run here. (Forking beside other threads may deadlock: then this process runs
        # lane 0, and tenet runs the others as shards of their own, and the original world.)
        _emit({"e": "lanes", "started": [0], "count": count})
        _lane = 0
        if _WORLDS:
            _enter_world("blank")
        session.items[:] = _select_shard(items, 0, count)
        return None
    if _run_lanes(session, items, count, "blank" if _WORLDS else None) or not _WORLDS:
        return True
    failed = lanes.noted()
    again = [item for item in items if item.nodeid in failed]
    if again:
        _run_lanes(session, again, _lane_count(again), "original")
    return True


def _run_lanes(session, items, count, world):
    """Forks `count` lanes that share `items`; True in a lane once its tests ran, False in this
    process once every lane ended."""
    global _lane
    # Units small enough to balance the lanes, taken in the run's order (every lane computes the
    # same list), so each lane runs its tests in pytest's order.
    units = _shard_units(items, count * 4)
    tag = {"world": "original"} if world == "original" else {}
    _emit(dict({"e": "lanes", "started": list(range(count)), "count": count, "tests": [_normalize(item.nodeid) for item in items]}, **tag))
    lane = lanes.fork(count, lambda index, code, signal: _emit(dict({"e": "laneexit", "lane": index, "exitCode": code, "signal": signal}, **tag)))
    if lane is None:
        return False
    _lane = lane
    if world:
        _enter_world(world)
    lanes.settle(session.config)
    lanes.run(session, units, lambda unit: _emit({"e": "unit", "tests": [_normalize(item.nodeid) for item in unit]}))
    return True


# ---------------------------------------------------------------------------------------------
# Collection


def _report_text(report):
    longrepr = getattr(report, "longrepr", None)
    if longrepr is None:
        return "", ""
    crash = getattr(longrepr, "reprcrash", None)
    message = getattr(crash, "message", None)
    text = _shown_lines(getattr(report, "longreprtext", None) or str(longrepr))
    if message is None:
        if isinstance(longrepr, tuple) and len(longrepr) == 3:  # skip reports: (file, line, reason)
            message = str(longrepr[2])
        else:
            message = text.strip().splitlines()[-1] if text.strip() else ""
    if len(text) > _MAX_TEXT:
        text = text[: _MAX_TEXT // 2] + "\n[... output cut by tenet ...]\n" + text[-_MAX_TEXT // 2 :]
    return message[:2000], text


def _shown_lines(text):
    """pytest's own report (a module that failed to import): the target's line as _shown_source
    gives it, without the carets Python put under the line as it was."""
    if probe.STATEMENT not in text:
        return text
    shown = []
    after_target = False
    for line in text.split("\n"):
        if after_target and line.strip() and set(line.strip()) <= set("^~"):
            after_target = False
            continue
        after_target = probe.STATEMENT in line
        if after_target:
            line = line[: len(line) - len(line.lstrip())] + _shown_source(line.strip())
        shown.append(line)
    return "\n".join(shown)


def _hidden(frame):
    return (
        frame.f_locals.get("__tracebackhide__")
        or frame.f_globals.get("__tracebackhide__")
        or frame.f_globals.get("__unittest")
    )


def _shown_source(source):
    """The target's line as the blank has it: no probe, and where the target acts as the blank (a
    twin, the blank world) no original code: the report goes into the agent's prompt, and in
    benchmark mode the original body is the answer it must not see."""
    if probe.STATEMENT not in source:
        return source
    if _state.in_child or _state.mode == "blank":
        return "raise NotImplementedError"
    return source.replace(probe.STATEMENT + "; ", "").replace(probe.STATEMENT, "")


def _failure_text(excinfo):
    return _failure_text_of(excinfo.type, excinfo.value, excinfo.tb)


def _failure_text_of(etype, value, tb):
    """A short, pytest-like failure report: the frames from the test on, and the exception.

    Built here from the raw traceback with linecache only: pytest's own short style parses the
    source of every frame, which costs a tenth of a second per failure, and its native style keeps
    pytest's internals.
    """
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    start = 0
    while start < len(frames) - 1 and probe.is_framework(frames[start][0].f_code.co_filename):
        start += 1
    lines = []
    for frame, lineno in frames[start:]:
        if _hidden(frame):
            continue
        code = frame.f_code
        lines.append("%s:%d: in %s" % (probe.display_path(code.co_filename), lineno, code.co_name))
        source = _shown_source(linecache.getline(code.co_filename, lineno).strip())
        if source:
            lines.append("    " + source)
    exception = "".join(traceback.format_exception_only(etype, value)).rstrip()
    message = exception.splitlines()[0] if exception else etype.__name__
    lines.extend("E   " + line for line in exception.splitlines())
    if len(lines) > 80:
        lines = lines[:20] + ["[... %d lines cut by tenet ...]" % (len(lines) - 60)] + lines[-40:]
    text = "\n".join(lines)
    if len(text) > _MAX_TEXT:
        text = text[: _MAX_TEXT // 2] + "\n[... output cut by tenet ...]\n" + text[-_MAX_TEXT // 2 :]
    return message[:2000], text


_collect_contexts = {}  # collector node id -> context, for module-level calls of the target
_items_collected = 0  # tests collected so far: the "collecting" events carry it, for the progress line


def pytest_itemcollected(item):
    global _items_collected
    _items_collected += 1


@_hookwrapper
def pytest_make_collect_report(collector):
    previous = _state.ctx
    ctx = _Context("collect", collector.nodeid)
    path = getattr(collector, "path", None)
    if path is not None:
        ctx.module_file = probe._realpath(str(path))
    _state.ctx = ctx
    # Importing a test module runs its top level, which may loop forever (the target called at
    # import time): tenet times each module's collection like a test.
    module = isinstance(collector, pytest.Module)
    if module:
        _emit({"e": "collecting", "nodeid": _normalize(collector.nodeid), "items": _items_collected})
    try:
        yield
    finally:
        if module:
            _emit({"e": "collectingdone", "nodeid": _normalize(collector.nodeid)})
        if ctx.chain is not None:
            _collect_contexts[collector.nodeid] = ctx
        _state.ctx = previous


def pytest_collectreport(report):
    if report.failed:
        message, text = _report_text(report)
        ctx = _collect_contexts.pop(report.nodeid, None)
        _emit({
            "e": "collecterror",
            "nodeid": _normalize(report.nodeid),
            "message": message,
            "longrepr": text,
            "chain": ctx.chain if ctx else None,
            "entryKind": ctx.entry_kind if ctx else None,
        })


# ---------------------------------------------------------------------------------------------
# Per-test timeout


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


# ---------------------------------------------------------------------------------------------
# Tests


class _TestState:
    def __init__(self, nodeid, location):
        self.nodeid = nodeid
        self.location = location
        self.started = time.monotonic()
        self.outcome = "passed"
        self.phase = None
        self.message = ""
        self.longrepr = ""
        self.context = None
        self.failures = {}  # phase -> (message, text) from the raw exception

    def add(self, report):
        if getattr(report, "wasxfail", None) is not None and (report.skipped or report.when == "call"):
            # xfail marks turn a failure in any phase into xfailed (an error in setup too).
            if self.outcome in ("passed", "skipped"):
                self.outcome = "xfailed" if report.skipped else "xpassed"
                self.phase = report.when
        elif report.failed and self.outcome not in ("failed", "error"):
            self.outcome = "failed" if report.when == "call" else "error"
            self.phase = report.when
            self.message, self.longrepr = self.failures.get(report.when) or _report_text(report)
        elif report.skipped and self.outcome == "passed":
            self.outcome = "skipped"
            self.phase = report.when
            self.message, _ = _report_text(report)

    def result(self):
        return {"outcome": self.outcome, "phase": self.phase, "message": self.message, "longrepr": self.longrepr}


_tests = {}
_items = {}
_fixture_blank = {}  # fork mode: id(fixturedef) -> how its setup ended in a blank twin (see _tenet_cached)
_hits_offset = 0


def pytest_collection_finish(session):
    for item in session.items:
        _items[item.nodeid] = item


def pytest_runtest_logstart(nodeid, location):
    global _deadline
    _deadline = time.monotonic() + _TIMEOUT if _TIMEOUT else None
    _tests[nodeid] = _TestState(nodeid, location)
    if _state.mode == "fork" and not _state.in_child:
        probe.clear_target_caches()
    # Subprocesses started by this test inherit it, to note that they called the target.
    os.environ["TENET_CURRENT_TEST"] = _normalize(nodeid)
    _emit({"e": "start", "nodeid": _normalize(nodeid)})


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
        if phase == "teardown" and _state.in_child and _twin_teardown:
            _keep_only_the_test(ctx)
        armed = _arm()
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
    """Whether anyone reads this process's failure reports. In fork mode the parent's failures are
    the original code's, which THM only counts; a twin's are read when the original passed."""
    if _state.in_child:
        return _state.twin_text
    return _TEXT and not _FORK and _world != "original"


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_makereport(item, call):
    state = _tests.get(item.nodeid)
    if state is not None and call.excinfo is not None and not call.excinfo.errisinstance(pytest.skip.Exception):
        try:
            if _text_read():
                state.failures[call.when] = _failure_text(call.excinfo)
            else:
                state.failures[call.when] = (call.excinfo.exconly().split("\n")[0][:2000], "")
        except Exception:
            pass


def _quick_repr(item):
    """Stands in for pytest's own failure report of an item, which nobody reads here: THM reads
    the text built above from the raw exception (pytest's costs more, on deep tracebacks most)."""

    def represent(excinfo, style=None):
        state = _tests.get(item.nodeid)
        texts = list(state.failures.values()) if state is not None else []
        return (texts[-1][1] or texts[-1][0]) if texts else excinfo.exconly()

    return represent


def pytest_runtest_logreport(report):
    state = _tests.get(report.nodeid)
    if state is None:
        return
    state.add(report)
    if not _state.in_child:
        return
    # The blank twin reports once its test is torn down (a failure there counts too), or, when it
    # could not limit teardown to its own test, once the call is decided.
    if report.when == "teardown" or (not _twin_teardown and (report.failed or report.when == "call")):
        result = dict(state.result(), timedOut=report.nodeid in _timed_out)
        if not _twin_teardown and result["outcome"] == "passed":
            result["unsure"] = True  # its teardown did not run
        elif result["phase"] == "teardown" and "teardown" not in _state.blank_phases:
            # Teardown failed without calling the target: perhaps only because the parent had
            # already torn the same things down (a file removed twice). A real blank run decides.
            result["unsure"] = True
        item, ctx = _items.get(report.nodeid), state.context
        if item is not None and ctx is not None:
            result["fixtures"] = cached.fixture_outcomes(item, ctx.set_up, _failure_text_of)
        probe.send_child_result(result)


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
    global _deadline, _twin_teardown
    _deadline = time.monotonic() + _TIMEOUT if _TIMEOUT else None
    _arm()
    ctx = _state.ctx
    _twin_teardown = _setup_stack(ctx) is not None
    if _twin_teardown and ctx.phase == "teardown":
        _keep_only_the_test(ctx)  # forked during teardown itself


_state.on_child_start = _child_started


def _before_fork(ctx):
    """Fork mode, at a test's first call of the target: fork a twin only where a blank run would
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
    """Fork mode, right before a test's twin is forked: the twin gets copies of pytest's capture
    files as the test left them (see _tenet_capture.py); the parent reads and empties its own once
    its test is over, before the twin goes on."""
    taken = capture.copies(ctx.item.config)
    return lambda in_twin: capture.take(taken) if in_twin else capture.drop(taken)


_state.at_twin_fork = _twin_capture


def _collect_twin(ctx, state):
    """Fork mode, in the parent: let the blank twin run, and read its outcome (`state`: the
    test's outcome on the original code)."""
    twin = ctx.fork
    _emit({"e": "twin", "nodeid": _normalize(ctx.nodeid)})
    chunks = []
    try:
        # The twin builds its failure report only if it will be read: when the original passed.
        read = state.outcome not in ("failed", "error")
        os.write(twin["go"], b"p" if read else b"f")
        limit = time.monotonic() + (_TIMEOUT or 600) + 2
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


def _subprocess_hits():
    """Node ids noted by subprocesses that called the target since the last look."""
    global _hits_offset
    path = os.environ.get("TENET_HITS_FILE")
    if not path or not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as handle:
        handle.seek(_hits_offset)
        data = handle.read()
        _hits_offset = handle.tell()
    return {line for line in data.splitlines() if line}


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
        if _world != "original" and ended.get("outcome") == "error" and ended.get("phase") == "setup":
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
    if _FORK and (_normalize(nodeid) in _subprocess_hits() or (ctx is not None and ctx.needs_blank)):
        needs_blank = True
    if _world == "blank" and state.outcome in ("failed", "error"):
        lanes.note(nodeid)  # for the original world
    _emit({
        "e": "test",
        "nodeid": _normalize(nodeid),
        "outcome": state.outcome,
        "phase": state.phase,
        "message": state.message,
        "longrepr": state.longrepr,
        "file": location[0] if location else None,
        "line": (location[1] + 1) if location and location[1] is not None else None,
        "durationMs": round((time.monotonic() - state.started) * 1000, 1),
        "chain": chain,
        "entryKind": entry_kind,
        "failsThrough": fails_through,
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


# ---------------------------------------------------------------------------------------------
# End of the session


def _target_module_names():
    """The names the target's module can be imported under: its path from the workspace's root
    as a dotted name, and each shorter tail of it (a src/ layout imports src/pkg/mod.py as
    pkg.mod). A bare last part counts only where it is the whole path: `text` of
    mypkg/utils/text.py would name any module called text."""
    parts = os.path.relpath(_TARGET_FILE, _state.root).split(os.sep)
    parts[-1] = parts[-1][: -len(".py")] if parts[-1].endswith(".py") else parts[-1]
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return {".".join(parts[i:]) for i in range(len(parts)) if len(parts) - i >= min(2, len(parts))}


def _outside_copies():
    """Modules loaded under one of the target module's names from a file that is not the
    workspace's: another checkout, or the package installed. Another package's module whose path
    merely ends alike (traitlets/utils/text.py for mypkg/utils/text.py) is not one."""
    if not _TARGET_FILE:
        return []
    names = _target_module_names()
    found = []
    for name, module in list(sys.modules.items()):
        filename = getattr(module, "__file__", None) if name in names else None
        if not filename:
            continue
        real = probe._realpath(filename)
        if real != _TARGET_FILE and not real.startswith(_state.root + os.sep):
            found.append({"module": name, "file": real})
    return found


# The exit status once "done" is out (see _end_quickly).
_finished = None


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    """Last of the session's ends (fixtures torn down, other plugins' ends run): tenet has what it
    needs from this process once "done" is out. What pytest still does then is for a reader of its
    output or for the process's own end, and tenet would only wait for it: the failures printed
    again (0.2-0.4 s for a hundred of them, skipped: the summary's traceback style is set to
    "no" once every report is made), five garbage collections over the whole heap (to report
    unraisable exceptions: the heap is frozen, so they have nothing to walk) and the interpreter's
    teardown of every module (the process ends at exit once the atexit handlers registered after
    this plugin, the tests' own, have run: see _end_quickly).
    """
    global _finished
    loaded_here = any(
        probe._realpath(getattr(m, "__file__", None) or "") == _TARGET_FILE for m in list(sys.modules.values())
    )
    _emit({"e": "done", "exitstatus": int(exitstatus), "targetLoaded": loaded_here, "outside": _outside_copies()})
    _finished = int(exitstatus)
    session.config.option.tbstyle = "no"
    gc.freeze()


def _end_quickly():
    """Registered at import, so it runs after every atexit handler registered later: the process
    ends here, skipping the interpreter's teardown, once "done" is out (else it ends as usual)."""
    if _finished is None or _state.in_child:
        return
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__, _out):
        try:
            stream.flush()
        except Exception:
            pass
    os._exit(_finished)


atexit.register(_end_quickly)
