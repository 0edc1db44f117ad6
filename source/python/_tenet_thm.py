"""tenet's Test Harness Mechanism probe: a pytest plugin plus the hook the blanked target calls.

tenet rewrites the target function in its scratch workspace so that its first statement is
``__import__("_tenet_thm").hit()``. ``hit`` records the call stack the first time the target runs
during each test (setup, call or teardown), so no call of the program is traced: the cost of the
THM run is that of a plain pytest run. The plugin streams one JSON line per event on a duplicate
of the original stdout, taken at import time (``-p _tenet_thm`` imports us before pytest starts
capturing), each line prefixed with MARK so that tenet can find it among pytest's own output.

Environment (all set by tenet):
  TENET_ROOT          workspace root; chain paths are relative to it
  TENET_TARGET_FILE   absolute path of the target's file in the workspace
  TENET_SHARD         "k/n": run only the k-th of n balanced shards of the collected tests
  TENET_ONLY          file with node ids (one per line) to run; everything else is deselected
  TENET_SKIP          file with node ids already done by an earlier, crashed run of this shard
  TENET_TEST_TIMEOUT  seconds per test (setup + call + teardown), 0 for none
"""

import inspect
import json
import os
import signal
import sys
import threading
import time

import pytest

MARK = "\x1etenet:"
_COMPREHENSIONS = {"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"}
_MAX_TEXT = 8000

# The channel: a duplicate of fd 1 made before pytest's fd-level capture replaces fd 1.
try:
    _out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8", errors="replace")
except OSError:  # pragma: no cover - no stdout at all
    _out = sys.__stdout__


def _pytest_hookwrapper(function):
    """An old-style hook wrapper: pluggy 0.x and 1.x both understand it."""
    return pytest.hookimpl(hookwrapper=True)(function)


def _emit(event):
    _out.write(MARK + json.dumps(event, default=str) + "\n")
    _out.flush()


def _realpath(path):
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path


_ROOT = _realpath(os.environ.get("TENET_ROOT", os.getcwd()))
_TARGET_FILE = _realpath(os.environ.get("TENET_TARGET_FILE", ""))
_name_cache = {}


def _display_path(filename):
    """Path of a frame's file: relative to the workspace root, else to its sys.path entry."""
    cached = _name_cache.get(filename)
    if cached is not None:
        return cached
    if filename.startswith("<"):
        result = filename
    else:
        real = _realpath(filename)
        result = None
        if real == _ROOT or real.startswith(_ROOT + os.sep):
            result = os.path.relpath(real, _ROOT)
        else:
            best = ""
            for entry in sys.path:
                entry = _realpath(entry or os.getcwd())
                if real.startswith(entry + os.sep) and len(entry) > len(best):
                    best = entry
            result = os.path.relpath(real, best) if best else real
        result = result.replace(os.sep, "/")
    _name_cache[filename] = result
    return result


def _qualname(frame):
    code = frame.f_code
    qualname = getattr(code, "co_qualname", None)  # Python 3.11+
    if qualname:
        return qualname
    # Older Pythons: find the class that defines this code object through self/cls.
    name = code.co_name
    if code.co_argcount and code.co_varnames:
        first = frame.f_locals.get(code.co_varnames[0])
        klass = first if inspect.isclass(first) else type(first)
        for base in getattr(klass, "__mro__", ()):
            member = base.__dict__.get(name)
            member = getattr(member, "__func__", member)
            if getattr(member, "__code__", None) is code:
                return base.__qualname__ + "." + name
    return name


def _frame_record(frame):
    code = frame.f_code
    return {
        "name": _display_path(code.co_filename) + "::" + _qualname(frame),
        "line": frame.f_lineno,
        "comprehension": code.co_name in _COMPREHENSIONS,
    }


_FRAMEWORK_PARTS = (
    os.sep + "_pytest" + os.sep,
    os.sep + "pluggy" + os.sep,
    os.sep + "unittest" + os.sep,
    os.sep + "pytest" + os.sep,
)


def _is_framework(filename):
    if filename.startswith("<frozen") or filename == __file__:
        return True
    return any(part in filename for part in _FRAMEWORK_PARTS) or filename.endswith(
        (os.sep + "runpy.py", os.sep + "pytest.py")
    )


class _Context:
    """What is running now: one test item (in one phase) or a collector."""

    def __init__(self, kind, nodeid, item=None):
        self.kind = kind
        self.nodeid = nodeid
        self.item = item
        self.chain = None
        self.entry_kind = None
        self.fixtures = []  # fixture definitions being set up right now, innermost last


_ctx = None
_fixture_chains = {}  # id(fixturedef) -> (chain, entry_kind) recorded while that fixture was set up


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


def _entry_codes(item):
    """Code objects that may start a chain for this item: the test function, then fixtures."""
    test_codes, fixture_codes = set(), set()
    code = _code_of(getattr(item, "obj", None))
    if code is not None:
        test_codes.add(code)
    info = getattr(item, "_fixtureinfo", None)
    for defs in getattr(info, "name2fixturedefs", {}).values():
        for fixturedef in defs:
            code = _code_of(getattr(fixturedef, "func", None))
            if code is not None:
                fixture_codes.add(code)
    holders = [(getattr(item, "cls", None), _XUNIT), (getattr(item, "module", None), _XUNIT_MODULE)]
    for holder, names in holders:
        for name in names:
            code = _code_of(getattr(holder, name, None)) if holder is not None else None
            if code is not None and not _is_framework(code.co_filename):
                fixture_codes.add(code)
    return test_codes, fixture_codes


def _record_chain(target_frame, ctx):
    frames = []
    frame = target_frame
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    # frames[0] is the target, frames[-1] the outermost frame of the thread.
    entry_index, entry_kind = None, None
    if ctx.item is not None:
        test_codes, fixture_codes = _entry_codes(ctx.item)
        for index in range(len(frames) - 1, -1, -1):
            code = frames[index].f_code
            if code in test_codes or code in fixture_codes:
                entry_index = index
                entry_kind = "test" if code in test_codes else "fixture"
                break
    if entry_index is None:
        for index in range(len(frames) - 1, -1, -1):
            if not _is_framework(frames[index].f_code.co_filename):
                entry_index = index
                break
        entry_kind = "module" if ctx.kind == "collect" else "other"
    if entry_index is None:
        entry_index = 0
    chain = [_frame_record(frames[i]) for i in range(entry_index, -1, -1)]
    return chain, entry_kind


def hit():
    """Called as the first statement of the instrumented target."""
    ctx = _ctx
    if ctx is None:
        return
    fixture = ctx.fixtures[-1] if ctx.fixtures else None
    need_test = ctx.chain is None
    need_fixture = fixture is not None and id(fixture) not in _fixture_chains
    if not (need_test or need_fixture):
        return
    recorded = _record_chain(sys._getframe(1), ctx)
    if need_fixture:
        _fixture_chains[id(fixture)] = recorded
    if need_test:
        ctx.chain, ctx.entry_kind = recorded


# ---------------------------------------------------------------------------------------------
# pytest hooks


def _read_lines(variable):
    path = os.environ.get(variable)
    if not path:
        return None
    with open(path, encoding="utf-8") as handle:
        return {line.rstrip("\n") for line in handle if line.strip()}


_ONLY = _read_lines("TENET_ONLY")
_SKIP = _read_lines("TENET_SKIP") or set()
_prefix = ""  # rootdir relative to the workspace root, so node ids are relative to the workspace


def _normalize(nodeid):
    return _prefix + nodeid if _prefix else nodeid


def pytest_configure(config):
    global _prefix
    rootdir = _realpath(str(config.rootpath))
    if rootdir != _ROOT and rootdir.startswith(_ROOT + os.sep):
        _prefix = os.path.relpath(rootdir, _ROOT).replace(os.sep, "/") + "/"
    _emit({"e": "configured", "rootdir": rootdir, "args": list(config.args)})


_ONLY_FILES = (
    {_realpath(os.path.join(_ROOT, nodeid.split("::", 1)[0])) for nodeid in _ONLY} if _ONLY else set()
)


def pytest_ignore_collect(collection_path, config):
    """With TENET_ONLY, skip every file and folder that holds none of the wanted tests."""
    if _ONLY is None:
        return None
    path = _realpath(str(collection_path))
    wanted = _ONLY_FILES
    if os.path.isdir(path):
        if any(w.startswith(path + os.sep) for w in wanted):
            return None
        return True
    if path.endswith(".py") and os.path.basename(path) != "conftest.py" and path not in wanted:
        return True
    return None


def _shard_units(items, count):
    """Split items into contiguous units: whole files, large files cut into chunks."""
    total = len(items)
    cap = max(1, -(-total // (count * 4)))
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
    order = sorted(range(len(units)), key=lambda u: (-len(units[u]), u))
    for u in order:
        shard = min(range(count), key=lambda s: (loads[s], s))
        loads[shard] += len(units[u])
        owner[u] = shard
    return [item for u, unit in enumerate(units) if owner[u] == index for item in unit]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    total = len(items)
    kept = list(items)
    if _ONLY is not None:
        kept = [item for item in kept if _normalize(item.nodeid) in _ONLY]
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
        deselected = [item for item in items if id(item) not in keep]
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept
    _emit({"e": "collected", "total": total, "mine": mine, "remaining": len(kept)})


def _report_text(report):
    longrepr = getattr(report, "longrepr", None)
    if longrepr is None:
        return "", ""
    crash = getattr(longrepr, "reprcrash", None)
    message = getattr(crash, "message", None)
    text = getattr(report, "longreprtext", None) or str(longrepr)
    if message is None:
        if isinstance(longrepr, tuple) and len(longrepr) == 3:  # skip reports: (file, line, reason)
            message = str(longrepr[2])
        else:
            message = text.strip().splitlines()[-1] if text.strip() else ""
    if len(text) > _MAX_TEXT:
        text = text[: _MAX_TEXT // 2] + "\n[... output cut by tenet ...]\n" + text[-_MAX_TEXT // 2 :]
    return message[:2000], text


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


_collect_contexts = {}  # collector node id -> context, for module-level calls of the target




@_pytest_hookwrapper
def pytest_make_collect_report(collector):
    global _ctx
    previous = _ctx
    _ctx = _Context("collect", collector.nodeid)
    try:
        yield
    finally:
        if _ctx.chain is not None:
            _collect_contexts[collector.nodeid] = _ctx
        _ctx = previous


class TenetTestTimeout(BaseException):
    """Raised inside a test that ran past TENET_TEST_TIMEOUT (BaseException: `except Exception` keeps it)."""


_TIMEOUT = float(os.environ.get("TENET_TEST_TIMEOUT") or 0)
_deadline = None


_timed_out = set()  # node ids whose timer fired


def _on_alarm(signum, frame):
    if _ctx is not None:
        _timed_out.add(_ctx.nodeid)
    raise TenetTestTimeout("test timed out after %gs (tenet --test-timeout)" % _TIMEOUT)


def _arm():
    if not _TIMEOUT or _deadline is None or not hasattr(signal, "setitimer"):
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    remaining = max(0.01, _deadline - time.monotonic())
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, remaining)
    return True


def _disarm(armed):
    if armed:
        signal.setitimer(signal.ITIMER_REAL, 0)


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


_tests = {}


def pytest_runtest_logstart(nodeid, location):
    global _deadline
    _deadline = time.monotonic() + _TIMEOUT if _TIMEOUT else None
    _tests[nodeid] = _TestState(nodeid, location)
    _emit({"e": "start", "nodeid": _normalize(nodeid)})


def _phase_wrapper(phase):
    @_pytest_hookwrapper
    def wrapper(item):
        global _ctx
        state = _tests.get(item.nodeid)
        ctx = state.context if state is not None and state.context is not None else None
        if ctx is None:
            ctx = _Context("test", item.nodeid, item)
            if state is not None:
                state.context = ctx
        previous, _ctx = _ctx, ctx
        armed = _arm()
        try:
            yield
        finally:
            _disarm(armed)
            _ctx = previous

    wrapper.__name__ = "pytest_runtest_" + phase
    return wrapper


pytest_runtest_setup = _phase_wrapper("setup")
pytest_runtest_call = _phase_wrapper("call")
pytest_runtest_teardown = _phase_wrapper("teardown")


@_pytest_hookwrapper
def pytest_fixture_setup(fixturedef, request):
    ctx = _ctx
    if ctx is not None:
        ctx.fixtures.append(fixturedef)
    try:
        yield
    finally:
        if ctx is not None and ctx.fixtures and ctx.fixtures[-1] is fixturedef:
            ctx.fixtures.pop()


def pytest_runtest_logreport(report):
    state = _tests.get(report.nodeid)
    if state is None:
        return
    if report.when == "call" and getattr(report, "wasxfail", None) is not None:
        state.outcome = "xfailed" if report.skipped else "xpassed"
        return
    if report.failed and state.outcome not in ("failed", "error"):
        state.outcome = "failed" if report.when == "call" else "error"
        state.phase = report.when
        state.message, state.longrepr = _report_text(report)
    elif report.skipped and state.outcome == "passed":
        state.outcome = "skipped"
        state.phase = report.when
        state.message, _ = _report_text(report)


def _chain_from_cached_fixtures(item):
    """A test whose fixture reached the target in an earlier test (cached scope) reached it too."""
    info = getattr(item, "_fixtureinfo", None)
    for name in getattr(item, "fixturenames", ()):
        for fixturedef in getattr(info, "name2fixturedefs", {}).get(name, ()):
            recorded = _fixture_chains.get(id(fixturedef))
            if recorded is not None:
                return recorded
    return None, None


_items = {}


def pytest_collection_finish(session):
    for item in session.items:
        _items[item.nodeid] = item


def pytest_runtest_logfinish(nodeid, location):
    state = _tests.pop(nodeid, None)
    if state is None:
        return
    ctx = state.context
    chain, entry_kind = (ctx.chain, ctx.entry_kind) if ctx is not None else (None, None)
    if chain is None and nodeid in _items:
        chain, entry_kind = _chain_from_cached_fixtures(_items[nodeid])
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
        "timedOut": nodeid in _timed_out,
    })


def _outside_copies():
    """Modules loaded from a copy of the target file that is not the workspace's."""
    if not _TARGET_FILE:
        return []
    parts = _TARGET_FILE.split(os.sep)
    tail = os.sep + os.sep.join(parts[-2:])
    found = []
    for name, module in list(sys.modules.items()):
        filename = getattr(module, "__file__", None)
        if not filename or not filename.endswith(tail):
            continue
        real = _realpath(filename)
        if real != _TARGET_FILE and not real.startswith(_ROOT + os.sep):
            found.append({"module": name, "file": real})
    return found


def pytest_sessionfinish(session, exitstatus):
    loaded_here = any(
        _realpath(getattr(m, "__file__", None) or "") == _TARGET_FILE for m in list(sys.modules.values())
    )
    _emit({
        "e": "done",
        "exitstatus": int(exitstatus),
        "targetLoaded": loaded_here,
        "outside": _outside_copies(),
    })
