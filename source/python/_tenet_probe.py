"""The probe tenet puts at the top of the target function during THM: ``__import__("_tenet_probe").hit()``.

It records the call stack the first time the target runs in each test, so nothing is traced and
the THM run costs what the plain test run costs. It imports nothing heavy: test code may start
subprocesses that import the target too.

Modes (TENET_MODE, set by tenet; the pytest plugin in _tenet_thm.py drives the state):

``record``  record the chain and return: the rest of the body runs (the developer's stub, or the
            ``raise NotImplementedError`` of a blanked target that follows the probe).
``blank``   as ``record``, then every call behaves as the blank target (raises NotImplementedError
            where the body would start, as a blank twin does): the blank world's lanes of mode
            worlds (see _tenet_thm.py), which share one module text with the original world's.
``fork``    benchmark mode in one pass: the target keeps its original body. At the first call in a
            test the process forks. The parent goes on with the original code; once it finished the
            test, the child resumes as if the target were blank (every call raises
            NotImplementedError) and reports the outcome. Everything before the first call ran
            once, for both. Only a process with one thread forks, at a call on that thread: a
            fork from a worker thread would lose the thread that runs the test, and one beside
            other threads may deadlock. Such a test is run again blank instead.

Chains must not depend on the process or on the order tests ran in (shards run different tests):
frames of code generated at run time keep a process-wide counter in their names, which
``generated_name`` drops.
"""

import _thread
import functools
import json
import os
import re
import sys
import types

COMPREHENSIONS = {"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"}

# Bound at import: a test may take these out of sys while it runs (attrs' make_class tests run
# without sys._getframe), and the probe must not fail where the code it stands in front of works.
_getframe = sys._getframe
_current_frames = sys._current_frames
STATEMENT = '__import__("_tenet_probe").hit()'  # what tenet writes into the target


def _realpath(path):
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path


class State:
    def __init__(self):
        self.mode = os.environ.get("TENET_MODE", "record")
        self.root = _realpath(os.environ.get("TENET_ROOT", os.getcwd()))
        self.ctx = None  # the running test or collector (set by the plugin); None outside pytest
        self.in_pytest = False
        self.in_child = False  # fork mode: this process is the blank twin of a test
        self.child_result_fd = None
        self.fixture_chains = {}  # id(fixturedef) -> (chain, entry_kind) recorded in that fixture's setup
        self.entry_codes = None  # callable(item) -> (test codes, fixture codes); set by the plugin
        self.on_hit = None  # callable(ctx, chain, entry_kind); set by the plugin
        self.on_start_hit = None  # callable(chain): called outside any test or collector (a conftest's import); set by the plugin
        self.on_child_start = None  # callable(), run in the blank twin when it resumes; set by the plugin
        self.at_twin_fork = None  # callable(ctx) -> callable(in_twin), run in the parent right before the fork, the result on both sides after it; set by the plugin
        self.before_fork = None  # callable(ctx) -> False where a blank run would not reach this call; set by the plugin
        self.blank_phases = set()  # in the blank twin: the phases (ctx.phase) in which the target was called
        self.twin_text = True  # in the blank twin: whether its failure report is read (the original passed)
        self.noted_subprocess = False


state = State()
_names = {}
_lock = _thread.allocate_lock()  # the target may be reached from several threads at once

_FRAMEWORK_PARTS = tuple(
    os.sep + part + os.sep for part in ("_pytest", "pluggy", "unittest", "pytest", "importlib")
)


# tenet's own modules (this folder: the probe, the plugin, the lanes' runner) are no code of the
# repository's. Lanes run their tests from _tenet_lanes.py, which no other mode has on the stack: a
# call with no test or fixture above it (a package's setup_module) started its chain there.
_OWN_DIR = os.path.dirname(__file__)


def is_framework(filename):
    if filename.startswith("<frozen") or filename == __file__ or os.path.dirname(filename) == _OWN_DIR:
        return True
    return any(part in filename for part in _FRAMEWORK_PARTS) or filename.endswith(
        (os.sep + "runpy.py", os.sep + "pytest.py", os.sep + "_tenet_thm.py")
    )


def _in_workspace(real):
    """Whether a real path is the workspace root or inside it."""
    return real == state.root or real.startswith(state.root + os.sep)


def display_path(filename):
    """Path of a frame's file: relative to the workspace root, else to its sys.path entry."""
    cached = _names.get(filename)
    if cached is not None:
        return cached
    if filename.startswith("<"):
        result = generated_name(filename)
    else:
        real = _realpath(filename)
        if _in_workspace(real):
            result = os.path.relpath(real, state.root)
        else:
            best = ""
            for entry in sys.path:
                entry = _realpath(entry or os.getcwd())
                if real.startswith(entry + os.sep) and len(entry) > len(best):
                    best = entry
            result = os.path.relpath(real, best) if best else real
        result = result.replace(os.sep, "/")
    _names[filename] = result
    return result


# A counter in a generated file or function name: `<class '...argmap'> compilation 326`,
# `<decorator-gen-12>`, `argmap_density_329`. A number glued to a word (`py3k`, `<doctest m[2]>`)
# is not one.
_FILE_COUNTER = re.compile(r"[ _-](?:0x[0-9a-fA-F]+|[0-9]+)(?=$|[ _>-])")
_NAME_COUNTER = re.compile(r"_[0-9]+$")


def generated_name(filename, qualname=None):
    """A stable label for code compiled at run time (its file name starts with "<").

    Generators of code (networkx's argmap, the decorator package) number what they compile with a
    process-wide counter, so the same function gets another name in another process, or after
    other tests. The counters are dropped: from the file name, and with a qualname, from the end of
    each of its parts; returns (label, qualname) then.
    """
    label = _FILE_COUNTER.sub("", filename) if filename.startswith("<") else filename
    if qualname is None:
        return label
    if filename.startswith("<"):
        qualname = ".".join(_NAME_COUNTER.sub("", part) or part for part in qualname.split("."))
    return label, qualname


_CODE = type(generated_name.__code__)
_CO_NEWLOCALS = 0x2  # a function's scope, not a class body's
_file_qualnames = {}  # filename -> {(first line, name): qualname}; Python < 3.11 only


def _qualnames_of(filename):
    """Every code object's qualname in a source file, as the compiler names them (Python 3.10)."""
    table = _file_qualnames.get(filename)
    if table is not None:
        return table
    table = {}
    try:
        import linecache

        source = "".join(linecache.getlines(filename))
        todo = [(compile(source, filename, "exec", dont_inherit=True), "")] if source else []
    except Exception:
        todo = []
    while todo:
        code, prefix = todo.pop()
        for const in code.co_consts:
            if isinstance(const, _CODE):
                qualname = prefix + const.co_name
                table.setdefault((const.co_firstlineno, const.co_name), qualname)
                todo.append((const, qualname + (".<locals>." if const.co_flags & _CO_NEWLOCALS else ".")))
    _file_qualnames[filename] = table
    return table


def _qualname(frame):
    code = frame.f_code
    qualname = getattr(code, "co_qualname", None)  # Python 3.11+
    if qualname:
        return qualname
    # Python 3.10: the name the compiler gives this code object in its file, as 3.11 would.
    name = code.co_name
    if not code.co_filename.startswith("<"):
        qualname = _qualnames_of(code.co_filename).get((code.co_firstlineno, name))
        if qualname:
            return qualname
    # Else find the class that defines this code object through self/cls.
    if code.co_argcount and code.co_varnames:
        first = frame.f_locals.get(code.co_varnames[0])
        klass = first if isinstance(first, type) else type(first)
        for base in getattr(klass, "__mro__", ()):
            member = base.__dict__.get(name)
            member = getattr(member, "__func__", member)
            if getattr(member, "__code__", None) is code:
                return base.__qualname__ + "." + name
    return name


_outside = {}


def outside_workspace(filename):
    """Whether code from this file is none of the repository's own: the standard library, an
    installed package, code compiled at run time (a dataclass's `__init__`, networkx's argmap)."""
    found = _outside.get(filename)
    if found is None:
        found = filename.startswith("<") or not _in_workspace(_realpath(filename))
        _outside[filename] = found
    return found


def _frame_record(frame):
    code = frame.f_code
    qualname = _qualname(frame)
    if code.co_filename.startswith("<"):
        qualname = generated_name(code.co_filename, qualname)[1]
    record = {
        "name": display_path(code.co_filename) + "::" + qualname,
        "line": frame.f_lineno,
        "comprehension": code.co_name in COMPREHENSIONS,
    }
    if outside_workspace(code.co_filename):
        record["outside"] = True
    return record


def _outermost(frames, accept):
    for index in range(len(frames) - 1, -1, -1):
        if accept(frames[index].f_code):
            return index
    return None


def _stack(frame):
    """frame, its caller, and so on up to the outermost frame of its thread."""
    frames = []
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    return frames


def _main_thread_stack():
    """The main thread's frames right now (called from another thread), innermost first."""
    import threading

    ident = threading.main_thread().ident
    if ident == threading.get_ident():
        return []
    return _stack(_current_frames().get(ident))


def record_chain(target_frame, ctx, target_record=None, target_code=None):
    """The frames from the entry (test, fixture or collected module) down to the target.

    ``target_record`` stands for the target when it has no frame yet (a call probe: the frame
    given is the probe's own, called where the target was called), ``target_code`` for its code.

    Python's import machinery (``<frozen importlib._bootstrap>``, some 10 frames an import) is
    left out: a call made as a module is imported is as deep as the code that makes it.

    The target reached in another thread: the entry is the test or fixture the main thread is in,
    followed by the whole stack of that thread (threading's own frames included, as every frame
    between the entry and the target counts). With no test or fixture on the main thread either,
    the chain starts at the thread's outermost frame, entry kind "other".
    """
    frames = _stack(target_frame)
    # frames[0] is the target, frames[-1] the outermost frame of the thread.
    entry_index, entry_kind, head = None, None, []
    if ctx.item is not None and state.entry_codes is not None:
        test_codes, fixture_codes = state.entry_codes(ctx.item)

        def is_entry(code):
            return code in test_codes or code in fixture_codes

        entry_index = _outermost(frames, is_entry)
        entry = frames[entry_index] if entry_index is not None else None
        if entry is None:
            main = _main_thread_stack()
            main_index = _outermost(main, is_entry)
            if main_index is not None:
                entry = main[main_index]
                head = [_frame_record(entry)]
                entry_index = len(frames) - 1
        if entry is not None:
            entry_kind = "test" if entry.f_code in test_codes else "fixture"
    elif ctx.kind == "collect":
        # Module-level code: the chain starts at the body of the module being collected.
        entry_index = _outermost(
            frames, lambda code: code.co_name == "<module>" and _realpath(code.co_filename) == ctx.module_file
        )
        if entry_index is None:
            entry_index = _outermost(
                frames, lambda code: code.co_name == "<module>" and not is_framework(code.co_filename)
            )
        entry_kind = "module"
    if entry_index is None:
        entry_index = _outermost(frames, lambda code: not is_framework(code.co_filename))
        entry_kind = "module" if ctx.kind == "collect" else "other"
    if entry_index is None:
        entry_index = 0
    code = frames[0].f_code if target_record is None else target_code
    wrappers = set(_wrappers_above(frames, entry_index, code)) if code is not None else set()
    records = []
    for index in range(entry_index, 0, -1):
        if frames[index].f_code.co_filename.startswith(_IMPORT_MACHINERY) or _recompiles_itself(frames[index], frames[index - 1]):
            continue
        record = _frame_record(frames[index])
        if index in wrappers:
            record["wrapper"] = True
        records.append(record)
    records.append(target_record or _frame_record(frames[0]))
    return head + records, entry_kind


_IMPORT_MACHINERY = "<frozen importlib."


def _recompiles_itself(frame, callee):
    """Whether ``frame`` is the first call of a function that replaced its own code and called
    itself again with the new one (``callee``): networkx's argmap compiles each wrapper at its
    first call in a process that way. Later calls run the new code directly, so the frame exists
    in one process and not in another, depending on which test called the function first, and a
    chain that kept it would depend on the order tests ran in. Such a function passes itself in
    as a default argument (how it finds itself again); the frame holds it there while the
    function's code is now the callee's."""
    own = frame.f_code
    if not own.co_flags & _CO_NEWLOCALS:
        return False
    try:
        for name, value in frame.f_locals.items():
            if (
                isinstance(value, types.FunctionType)
                and value.__code__ is callee.f_code
                and value.__code__ is not own
                and (value.__kwdefaults__ or {}).get(name) is value
            ):
                return True
    except Exception:
        pass
    return False


def _wrappers_above(frames, entry_index, code):
    """Which frames right above the target (frames[0], whose code is ``code``) are its plumbing:
    its decorators' wrappers and the dispatchers that call it. Such a frame holds the target
    itself, in a local or a closure variable (``func`` in a ``functools.wraps`` wrapper, the
    function a caching decorator keeps, ``self`` of a decorator object that keeps it, the method a
    dispatcher looked up by a computed name), and its code never names it. A frame whose code
    names the target is a use, whatever local names it binds (networkx's ``is_tree`` does
    ``is_connected = nx.is_connected``, then calls it). Code that is not the repository's between
    two wrappers (code a decorator compiled) does not end them; the entry (the test) never counts.
    A wrapper is a function: a module's body (whose locals are its globals, the target imported
    among them) or a class body is a use."""
    found = []
    name = code.co_name
    for index in range(1, entry_index):
        frame = frames[index]
        own = frame.f_code
        try:
            held = (
                bool(own.co_flags & _CO_NEWLOCALS)
                and name not in own.co_names
                and name not in own.co_varnames
                and any(_holds(value, code) for value in frame.f_locals.values())
            )
        except Exception:
            held = False
        if held:
            found.append(index)
        elif not outside_workspace(frame.f_code.co_filename):
            break
    return found


def _holds(value, code, depth=0):
    """Whether ``value`` is the function whose code is ``code``, wraps it (``__wrapped__``, a bound
    method's ``__func__``), or, as an object, keeps such a function among its attributes. Read
    without getattr: a value's own ``__getattr__`` (a lazy module, a mock) must not run."""
    if depth > 4:
        return False
    if isinstance(value, types.FunctionType) and value.__code__ is code:
        return True
    if isinstance(value, types.MethodType):
        return _holds(value.__func__, code, depth + 1)
    try:
        attributes = object.__getattribute__(value, "__dict__")
    except Exception:
        return False
    if not isinstance(attributes, dict):
        return False
    wrapped = attributes.get("__wrapped__")
    if wrapped is not None and wrapped is not value and _holds(wrapped, code, depth + 1):
        return True
    if depth == 0 and not isinstance(value, (type, types.FunctionType, types.ModuleType)):
        # A decorator object keeps the function it wraps (networkx's _dispatchable: orig_func), or
        # an object that wraps it (networkx's argmap keeps the _dispatchable).
        return any(not isinstance(kept, (type, types.ModuleType)) and _holds(kept, code, 3) for kept in list(attributes.values()))
    return False


class _Outside:
    """record_chain's context for a call outside any test or collector: the chain starts at the
    outermost frame that is not pytest's (a conftest.py pytest imports as it starts)."""

    item = None
    kind = "start"


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


def _identity(fd):
    try:
        info = os.fstat(fd)
        return (info.st_dev, info.st_ino)
    except OSError:
        return None


# tenet may start pytest with sockets as stdin/stdout/stderr; pytest's capture keeps duplicates of
# them, and those must stay open in the twin. Taken at import, before capture replaces fds 0-2.
_STDIO = {_identity(fd) for fd in (0, 1, 2)} - {None}


def _close_sockets(keep):
    """The blank twin must not talk to servers the parent still uses (databases, brokers)."""
    import stat

    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        fds = range(3, 256)
    for fd in fds:
        if fd in keep or fd < 3:
            continue
        try:
            info = os.fstat(fd)
            if stat.S_ISSOCK(info.st_mode) and (info.st_dev, info.st_ino) not in _STDIO:
                os.close(fd)
        except OSError:
            pass


def _fork(ctx, frame):
    # The twin formats a failure report; pytest then looks up modules by file through inspect,
    # whose cache would be rebuilt in every twin. Fill it once here, in the parent.
    try:
        import inspect

        inspect.getmodule(frame)
    except Exception:
        pass
    after_fork = state.at_twin_fork(ctx) if state.at_twin_fork is not None else None
    go_read, go_write = os.pipe()
    result_read, result_write = os.pipe()
    pid = os.fork()
    if after_fork is not None:
        after_fork(pid == 0)
    if pid:
        os.close(go_read)
        os.close(result_write)
        ctx.fork = {"pid": pid, "go": go_write, "result": result_read}
        return
    # The blank twin: wait until the parent has finished this test with the original code.
    os.close(go_write)
    os.close(result_read)
    try:
        go = os.read(go_read, 1)
    except OSError:
        go = b""
    if not go:
        os._exit(0)  # the parent died or gave up on us
    state.twin_text = go != b"f"
    os.close(go_read)
    # Short-lived: no collection, so no page of the parent's heap is touched (and copied) for it.
    import gc

    gc.disable()
    state.in_child = True
    state.child_result_fd = result_write
    _close_sockets({result_write})
    if state.on_child_start is not None:
        state.on_child_start()


def send_child_result(result):
    """In the blank twin: hand the outcome to the parent and vanish without running anything else."""
    data = json.dumps(result, default=str).encode("utf-8", "replace")
    view = memoryview(data)
    while view:
        written = os.write(state.child_result_fd, view)
        view = view[written:]
    os._exit(0)


def _may_fork():
    """Only the main thread of a process without other threads may fork (see the module's notes)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return False
    return all(t is threading.main_thread() or isinstance(t, threading._DummyThread) for t in threading.enumerate())


def _in_event_loop():
    """Whether an asyncio event loop or a trio run is going on in this thread: a twin forked inside
    it would share the loop's selector (an epoll descriptor) with its parent, and each would change
    the other's (the twin's test then fails with "Bad file descriptor"). Such a test runs blank in
    a pass of its own instead. trio's run (pytest-trio, anyio's trio backend) has its own loop,
    which asyncio does not see."""
    asyncio = sys.modules.get("asyncio")
    try:
        if asyncio is not None and asyncio._get_running_loop() is not None:
            return True
    except Exception:
        pass
    trio = sys.modules.get("trio")
    try:
        # Raises RuntimeError outside a trio run (trio keeps its run per thread).
        return trio is not None and trio.lowlevel.current_trio_token() is not None
    except Exception:
        return False


def hit():
    """First statement of the target while THM runs."""
    __tracebackhide__ = True  # pytest leaves this frame out of failure reports
    if _arrive(_getframe(1)):
        raise NotImplementedError


def _arrive(frame, target_record=None, target_code=None):
    """The target was called (``frame`` is its own, or a call probe's): record the chain the first
    time in a test, fork in fork mode. True when the caller must behave as the blank target (this
    process is a blank twin, or the blank world)."""
    decided = _arrive_here(frame, target_record, target_code)
    return decided or state.mode == "blank"


def _arrive_here(frame, target_record, target_code):
    if state.in_child:
        state.blank_phases.add(getattr(state.ctx, "phase", None))
        return True
    if _target_caches is not None:
        _note_cached_callers(frame)
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
        _note_target_caches(frame.f_code if target_code is None else target_code)
        _note_cached_callers(frame)  # the registry is new at the first call: this call's callers too
        _fork(ctx, frame)
        if state.in_child:
            state.blank_phases.add(getattr(ctx, "phase", None))
            return True
    return False


_target_caches = None  # fork mode: the caches that may hold the target's results; cleared at each test's start
_cached_callers = {}  # fork mode: code of a function behind an lru_cache -> that cache, until found above the target
_modules_seen = 0  # len(sys.modules) when caches were last looked for


def _note_target_caches(code):
    """Fork mode, at the target's first call: the caches that may keep the target's results. A
    blank target raises, and functools.lru_cache never keeps a call that raised; but fork mode's
    parent runs the original, and what an earlier test left in a cache answers a later test's call
    without reaching the target: that test would fork no twin (or fork it only at a later call)
    and pass "blank" where a plain blank run raises. Two kinds of cache:

    - a cache on the target itself (networkx's ``_rooted_trees``), found now;
    - a cache on a function that calls the target, at any depth (``_unlabeled_trees`` around
      ``_rooted_trees``; sympy's ``cacheit`` functions): every cache in the process is noted by the
      code it runs (and those of modules imported later, as they come), and one is taken in when
      its function's frame is found above a target call (_note_cached_callers).

    The plugin clears them at each test's start (clear_target_caches), so each test reaches the
    target as in a blank run. Caches only remember results: clearing them changes no outcome."""
    global _target_caches, _modules_seen
    if _target_caches is not None:
        return
    _target_caches = []
    _modules_seen = len(sys.modules)
    try:
        import gc

        for function in gc.get_referrers(code):
            if not (isinstance(function, types.FunctionType) and function.__code__ is code):
                continue
            for holder in gc.get_referrers(function):
                if isinstance(holder, (dict, list, tuple, types.FunctionType, types.FrameType)):
                    continue
                try:
                    wrapped = object.__getattribute__(holder, "__dict__").get("__wrapped__")
                except Exception:
                    continue
                if wrapped is function and callable(getattr(type(holder), "cache_clear", None)):
                    _target_caches.append(holder)
        for cache in gc.get_objects():
            _note_cache(cache, code)
    except Exception:
        pass


_LRU_CACHE = getattr(functools, "_lru_cache_wrapper", None)


def _note_cache(cache, target_code):
    """Notes ``cache`` by the code it runs, if it is a functools cache on a function not the target."""
    if _LRU_CACHE is None or type(cache) is not _LRU_CACHE or cache in _target_caches:
        return
    callers_code = getattr(getattr(cache, "__wrapped__", None), "__code__", None)
    if isinstance(callers_code, types.CodeType) and callers_code is not target_code:
        _cached_callers.setdefault(callers_code, cache)


def _note_new_modules():
    """The caches of modules imported since the last look (a function's lazy import): at module
    level, in a closure there (sympy's ``cacheit`` keeps its cache in the wrapper's), or on a
    class's methods. sys.modules keeps the order modules came in. Only plain modules, and values
    looked at by their type: a lazy module or a proxy would run code (an import) when read."""
    global _modules_seen
    modules = list(sys.modules.values())
    new, _modules_seen = modules[_modules_seen:], len(modules)
    for module in new:
        if type(module) is not types.ModuleType:
            continue
        for value in list(module.__dict__.values()):
            own_class = issubclass(type(value), type) and value.__module__ == module.__name__
            for member in list(vars(value).values()) if own_class else (value,):
                if type(member) in (staticmethod, classmethod):
                    member = member.__func__
                for held in _held_caches(member):
                    _note_cache(held, None)


def _held_caches(value):
    """A cache, or the caches a function's closure holds."""
    if type(value) is _LRU_CACHE:
        yield value
    elif type(value) is types.FunctionType:
        for cell in value.__closure__ or ():
            try:
                yield cell.cell_contents
            except ValueError:  # an empty cell
                pass


def _note_cached_callers(frame):
    """A target call in fork mode's parent: the caches whose functions are on the stack above it
    keep results that came from the target (see _note_target_caches)."""
    if len(sys.modules) != _modules_seen:
        try:
            _note_new_modules()
        except Exception:
            pass
    if not _cached_callers:
        return
    caller = frame.f_back
    while caller is not None:
        cache = _cached_callers.pop(caller.f_code, None)
        if cache is not None:
            _target_caches.append(cache)
            if not _cached_callers:
                return
        caller = caller.f_back


def clear_target_caches():
    """Fork mode, in the parent at each test's start: see _note_target_caches."""
    for cache in _target_caches or ():
        try:
            cache.cache_clear()
        except Exception:
            pass


# ---------------------------------------------------------------------------------------------
# Targets whose call runs none of their body: generators, async generators, coroutines.
#
# Their first statement runs at the first next()/send()/await, by then the frame that called the
# target may be gone (`list(adjacent(...))` iterates what `adjacent` returned). THM's chain is the
# stack at the call, so tenet wraps such a target in a call probe instead of putting hit() in its
# body: ``@__import__("_tenet_probe").calls(LINE)`` on a free line above it, or around its
# innermost decorator (``after``), or, with neither, ``rebind`` at the end of the module.

_CO_ASYNC = 0x80 | 0x100 | 0x200  # CO_COROUTINE, CO_ITERABLE_COROUTINE, CO_ASYNC_GENERATOR
_CO_ASYNC_GENERATOR = 0x200


async def _blank_coroutine():
    raise NotImplementedError


async def _blank_async_generator():
    raise NotImplementedError
    yield  # unreachable: makes this an async generator, whose first step raises


class _CallProbe:
    """Stands in for the target: records the chain when called, then calls it (or, in a blank
    twin, does what the blank does). It keeps the function's ``__code__`` and other attributes,
    so ``inspect.isgeneratorfunction`` / ``iscoroutinefunction`` and signatures answer as for the
    function itself, and binds to instances as a function does."""

    def __init__(self, func, line):
        # What functools.wraps would copy goes into the probe's __dict__; a decorator above may
        # copy that dict into its own object, and finds there what it would have found on the
        # function. The function's code and defaults are read through (_through, below): copied
        # into a decorator's object they would make it look like the function (networkx's
        # _dispatchable takes every key of the dict, so it lost its own `backend=None` keyword
        # default and looked like a generator function to the argmap above it).
        for name in ("__module__", "__name__", "__qualname__", "__doc__", "__annotations__"):
            try:
                setattr(self, name, getattr(func, name))
            except AttributeError:
                pass
        self.__dict__.update(getattr(func, "__dict__", {}))
        self.__wrapped__ = func
        self._tenet_func = func
        self._tenet_line = line
        self._tenet_record = None

    def _tenet_target(self):
        if self._tenet_record is None:
            code = self._tenet_func.__code__
            qualname = getattr(code, "co_qualname", None) or self._tenet_func.__qualname__
            if code.co_filename.startswith("<"):
                qualname = generated_name(code.co_filename, qualname)[1]
            self._tenet_record = {
                "name": display_path(code.co_filename) + "::" + qualname,
                "line": self._tenet_line,
                "comprehension": False,
            }
        return self._tenet_record

    def __call__(self, *args, **kwargs):
        __tracebackhide__ = True
        if _arrive(_getframe(), self._tenet_target(), self._tenet_func.__code__):
            # As the blank would: a blanked generator is a plain function (it raises at the call),
            # a blanked `async def` still returns a coroutine, which raises when awaited, and a
            # blanked async generator stays one (its blank keeps a yield), which raises at its first step.
            flags = self._tenet_func.__code__.co_flags
            if flags & _CO_ASYNC_GENERATOR:
                return _blank_async_generator()
            if flags & _CO_ASYNC:
                return _blank_coroutine()
            raise NotImplementedError
        return self._tenet_func(*args, **kwargs)

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        return types.MethodType(self, obj)

    def __repr__(self):
        return repr(self._tenet_func)


def _through(name):
    """An attribute of the probed function, read and written on the function itself."""
    return property(
        lambda self: getattr(self._tenet_func, name),
        lambda self, value: setattr(self._tenet_func, name, value),
    )


for _name in ("__code__", "__defaults__", "__kwdefaults__", "__globals__", "__closure__"):
    setattr(_CallProbe, _name, _through(_name))
del _name


def calls(line):
    """Decorator: the target (no other decorator) wrapped in a call probe."""
    return lambda func: _CallProbe(func, line)


def after(decorator, line):
    """Stands for the target's innermost decorator: the probe goes between it and the function."""
    return lambda func: decorator(_CallProbe(func, line))


def rebind(namespace, qualname, line):
    """At the end of the target's module: replace the module-level function or method by its probe."""
    *path, name = qualname.split(".")
    owner = None
    try:
        for part in path:
            owner = namespace[part] if owner is None else vars(owner)[part]
        holder = namespace if owner is None else vars(owner)
        current = holder[name]
    except (KeyError, TypeError):
        return
    kind = type(current) if isinstance(current, (staticmethod, classmethod)) else None
    func = current.__func__ if kind else current
    if not hasattr(func, "__code__"):
        return
    probe = _CallProbe(func, line)
    if owner is None:
        namespace[name] = kind(probe) if kind else probe
    else:
        setattr(owner, name, kind(probe) if kind else probe)
