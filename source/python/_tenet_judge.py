"""tenet's judge: runs pytest (``python -m _tenet_judge PYTEST-ARGS``) where the submitted code is
judged, with a tripwire the judged code cannot take down and a channel it cannot forge.

The submission runs inside the process that runs its tests: it can reach that process's objects.
Before anything of the repository is imported, this module

- installs an audit hook (PEP 578; Python code cannot remove one) that trips when the submission's
  own code (the target as submitted, anything it defined, any code it ran through exec) is on the
  stack and walks the heap (``gc.get_objects``, ``gc.get_referrers``, ``gc.get_referents``), takes
  frames (``sys._getframe`` of its own frame or below, ``sys._current_frames``, a traceback's or
  generator's frame read by its own code), traces (``sys.settrace``, ``sys.setprofile``), adds an
  audit hook, loads or calls C (``ctypes``), forks, execs, kills or starts processes
  (``os.fork``, ``os.exec*``, ``os.posix_spawn``, ``os.kill``, ``os.system``, ``subprocess``),
  writes into the copy under judgment or into process memory, imports pytest, pluggy or tenet's
  helpers anew, assigns a function's ``__code__`` or sets or deletes an attribute of pytest's,
  pluggy's or tenet's modules. A trip is reported and the call is refused (it raises);
- keeps the plugin's events to a channel only it can write: each line carries an HMAC under a key
  read from stdin (never in the environment), and a sequence number. The hook accepts an event
  only from the THM plugin's own code, on the main thread, in the order pytest runs tests (a
  test's outcome once, after its start; nothing after the end), and only while the functions and
  classes of the harness (pytest, pluggy, unittest's TestCase, builtins, tenet's helpers) and
  pytest's registered hooks are the ones it saw before the tests ran.

tenet reads a line without a valid HMAC, or out of sequence, as a forgery: the verdict is then
unverified, as it is after any trip. What the judged code can still do without any of these
(change a test module's globals through ``__dict__``, return an object equal to everything) is
what the static read of the submission flags (see engine/eval/submission-flags.ts) and what
tenet's Safety page says it cannot guarantee.

Environment (set by tenet): TENET_ROOT (the copy under judgment), TENET_TARGET_FILE, and
TENET_JUDGE_LINES ("first-last": the submitted definition's lines in that file); TENET_JUDGE_SPANS
(more spans counted as submitted code, as JSON [[file, first, last], ...]: a plan's earlier
targets, and qa's false-alarm check).
"""

import os
import sys


def _read_key():
    """The channel's key: the first line of stdin, which then reads nothing (fd 0 is /dev/null)."""
    data = b""
    while not data.endswith(b"\n") and len(data) < 256:
        chunk = os.read(0, 256 - len(data))
        if not chunk:
            break
        data += chunk
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    return bytes.fromhex(data.decode("ascii").strip())


# Events the hook looks at; every other one returns at once (the hook runs for every audited call).
_WATCHED = frozenset(
    {
        "gc.get_objects",
        "gc.get_referrers",
        "gc.get_referents",
        "sys._getframe",
        "sys._current_frames",
        "sys.settrace",
        "sys.setprofile",
        "sys.addaudithook",
        "os.fork",
        "os.forkpty",
        "os.exec",
        "os.posix_spawn",
        "os.spawn",
        "os.kill",
        "os.killpg",
        "os.system",
        "subprocess.Popen",
        "signal.pthread_kill",
        "pty.spawn",
        "object.__getattr__",
        "object.__setattr__",
        "object.__delattr__",
        "open",
        "import",
        "exec",
        "code.__new__",
        "function.__new__",
        "compile",
        "tenet.emit",
        "tenet.trip",
        "tenet.guard",
        "tenet.module.setattr",
        "ctypes.dlopen",
        "ctypes.dlsym",
        "ctypes.dlsym/handle",
        "ctypes.addressof",
        "ctypes.call_function",
        "ctypes.cdata",
        "ctypes.cdata/buffer",
        "ctypes.create_string_buffer",
        "ctypes.create_unicode_buffer",
        "ctypes.get_errno",
        "ctypes.set_errno",
        "ctypes.string_at",
        "ctypes.wstring_at",
        "ctypes.seh_exception",
    }
)
# Calls that change a path, and the argument that names it: into the copy under judgment, a trip.
_PATH_CHANGES = {
    "os.rename": 1,
    "os.link": 1,
    "os.symlink": 1,
    "os.truncate": 0,
    "os.remove": 0,
    "os.rmdir": 0,
    "os.mkdir": 0,
    "os.chmod": 0,
    "os.chown": 0,
    "os.utime": 0,
    "os.chflags": 0,
    "shutil.copyfile": 1,
    "shutil.copytree": 1,
    "shutil.move": 1,
    "shutil.rmtree": 0,
}
_WATCHED = _WATCHED | frozenset(_PATH_CHANGES)
# Attributes that hand out a frame (audited as object.__getattr__).
_FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
# Modules of the harness: an import of one by the submission trips, as does changing one.
_HARNESS_PREFIXES = ("pytest", "_pytest", "pluggy", "_tenet", "py")


def _is_harness_module(name):
    return any(name == p or name.startswith(p + ".") or (p == "_tenet" and name.startswith(p)) for p in _HARNESS_PREFIXES)


def _arm(key, channel_write):
    """Installs the hook. Everything it needs lives in this function's closure, taken now: what
    the judged code patches later (a module's function, a class's method, a builtin) is never
    called by the hook, nor any method of an object the judged code made."""
    import _thread
    import hashlib
    import types
    from _json import encode_basestring_ascii as quote
    from _json import make_scanner

    import operator

    getframe, write, getcwd, get_ident, sha256 = sys._getframe, os.write, os.getcwd, _thread.get_ident, hashlib.sha256
    length, every, each, same, pairs = len, all, map, operator.is_, zip
    read, list_type, view = object.__getattribute__, list, memoryview
    str_type, bytes_type, int_type, tuple_type = str, bytes, int, tuple
    code_type, module_type = types.CodeType, types.ModuleType
    watched, frame_attributes, is_harness = _WATCHED, _FRAME_ATTRIBUTES, _is_harness_module
    path_changes = dict(_PATH_CHANGES)
    mark = "\x1etenet:"
    mro_of = type.__dict__["__mro__"].__get__
    write_code = channel_write.__code__
    o_wronly, o_rdwr, o_creat, o_trunc = os.O_WRONLY, os.O_RDWR, os.O_CREAT, os.O_TRUNC
    hard_exit = os._exit

    class Refused(RuntimeError):
        pass
    inner_key = bytes(b ^ 0x36 for b in key.ljust(64, b"\0"))
    outer_key = bytes(b ^ 0x5C for b in key.ljust(64, b"\0"))

    class _Context:  # what the C scanner reads once, at its making
        strict = True
        object_hook = None
        object_pairs_hook = None
        parse_float = float
        parse_int = int
        parse_constant = float
        memo = {}

    scan = make_scanner(_Context())
    channel = os.dup(1)
    main_thread = get_ident()
    helpers = os.path.dirname(os.path.realpath(__file__)) + os.sep
    root = os.path.realpath(os.environ.get("TENET_ROOT") or getcwd())
    # The submission's code: the target's definition in its file, and the spans TENET_JUDGE_SPANS
    # lists, as JSON [[file, first, last], ...] (a plan's earlier targets; qa/judge.ts's check).
    spans = {}
    target = os.environ.get("TENET_TARGET_FILE", "")
    first, _, last = (os.environ.get("TENET_JUDGE_LINES") or "0-0").partition("-")
    listed = [[target, int(first), int(last or first)]] if target else []
    if os.environ.get("TENET_JUDGE_SPANS"):
        import json

        listed += json.loads(os.environ["TENET_JUDGE_SPANS"])
    for file, start, end in listed:
        for name in {os.path.join(root, file), os.path.realpath(os.path.join(root, file))}:
            spans[name] = spans.get(name, ()) + ((int(start), int(end)),)
    tainted = {}  # id(code) -> code: code the submission ran through exec (kept, so ids stay unique)
    busy = set()  # threads inside the hook
    run = {"seq": 0, "started": None, "reported": set(), "done": False, "harness": None, "hooks": None}

    def mac(data):
        return sha256(outer_key + sha256(inner_key + data).digest()).hexdigest()

    def send(line):
        head = ("%d " % run["seq"]).encode("ascii")
        run["seq"] += 1
        body = line.encode("utf-8", "replace")
        data = view(b"\x1etenet:J" + head + mac(head + body).encode("ascii") + b" " + body + b"\n")
        while length(data):  # a pipe may take a long line in parts
            data = data[write(channel, data) :]

    def submitted(code):
        ranges = spans.get(code.co_filename)
        if ranges is not None:
            line = code.co_firstlineno
            for start, end in ranges:
                if start <= line <= end:
                    return True
        return id(code) in tainted

    def newest_submitted(frame):
        while frame is not None:
            if submitted(frame.f_code):
                return frame
            frame = frame.f_back
        return None

    def tenets(frame):
        # Code the submission made under a helper's file name (compile's filename) is still its own.
        return frame is not None and frame.f_code.co_filename.startswith(helpers) and not submitted(frame.f_code)

    def trip(name, frame, detail=""):
        __tracebackhide__ = True
        path, line = "", 0
        if frame is not None:
            path, line = frame.f_code.co_filename, frame.f_lineno
            if path.startswith(root + "/"):
                path = path[length(root) + 1 :]
        try:
            send(
                '{"e": "tripped", "event": %s, "detail": %s, "file": %s, "line": %d}'
                % (quote(name), quote(detail), quote(path), line)
            )
        except BaseException:
            # The trip could not be said (the channel was closed under it): the process ends here,
            # before the refusal's traceback hands the hook's frames to the judged code.
            hard_exit(70)
        raise Refused("tenet's judge refused %s: the submitted code reached into the test harness" % name)

    def taint(code):
        if id(code) not in tainted:
            tainted[id(code)] = code
            for const in code.co_consts:
                if type(const) is code_type:
                    taint(const)

    def normalized(path):
        if type(path) is bytes_type:
            path = path.decode("utf-8", "surrogateescape")
        if type(path) is not str_type:
            return None  # a descriptor, or a path object: what it names is seen after the run (see runTests)
        if not path.startswith("/"):
            path = getcwd() + "/" + path
        parts = []
        for part in path.split("/"):
            if part == "..":
                if parts:
                    parts.pop()
            elif part not in ("", "."):
                parts.append(part)
        return "/" + "/".join(parts)

    def writes(mode, flags):
        if type(mode) is str_type:
            return "w" in mode or "a" in mode or "x" in mode or "+" in mode
        return type(flags) is int_type and flags != -1 and (flags & (o_wronly | o_rdwr | o_creat | o_trunc)) != 0

    def harness_changed():
        """The first function or class of the harness, or hook of pytest's, no longer as it was; or
        None. Compared by identity in C (no object's __eq__ runs here), about 0.1 ms a test."""
        for mapping, names, values in run["harness"] or ():
            if not every(each(same, each(mapping.get, names), values)):
                for name, value in pairs(names, values):  # which one: once, on the way to a trip
                    if mapping.get(name) is not value:
                        return name
        for caller, name, attribute, seen in run["hooks"] or ():
            impls = read(caller, attribute)
            if type(impls) is not list_type or length(impls) != length(seen) or not every(each(same, impls, seen)):
                return name
        return None

    def on_emit(text, top):
        # The plugin writes through its channel object, called by its emitter, called by the
        # plugin's own code, on the main thread: nothing else may speak on the channel.
        emitter = top.f_back if top is not None else None
        if top is None or top.f_code is not write_code or not tenets(emitter) or not tenets(emitter.f_back):
            trip("a forged report", newest_submitted(top) or top, "the plugin's channel was written from outside it")
        if get_ident() != main_thread or type(text) is not str_type or not text.startswith(mark):
            trip("a forged report", top, "not an event of the plugin's")
        line = text[length(mark) :].rstrip("\n")
        event, _ = scan(line, 0)
        kind, nodeid = event.get("e"), event.get("nodeid")
        if run["done"]:
            trip("a forged report", top, "an event after the end")
        if kind == "start":
            run["started"] = nodeid
        elif kind == "test":
            if nodeid != run["started"] or nodeid in run["reported"]:
                trip("a forged report", top, "an outcome out of order")
            run["reported"].add(nodeid)
            run["started"] = None
            changed = harness_changed()
            if changed is not None:
                trip("a changed harness", None, "%s is not what it was before the tests ran" % changed)
        elif kind == "done":
            run["done"] = True
        send(line)

    def hook(event, args):
        """A refusal leaves only after its trip was said (see trip): its traceback holds the hook's
        frames, which lead to the key, but the run is unverified by then. Any other error in here is
        swallowed, so that no traceback hands those frames out otherwise."""
        __tracebackhide__ = True
        if event not in watched:
            return
        try:
            judge(event, args)
        except Refused:
            raise
        except BaseException:
            return

    def judge(event, args):
        __tracebackhide__ = True
        # Cheap refusals first: most of these events are the interpreter's everyday business.
        if event == "object.__getattr__" and not (type(args[1]) is str_type and args[1] in frame_attributes):
            return
        if event in ("object.__setattr__", "object.__delattr__") and not (
            args[1] == "__code__" or (args[1] == "__class__" and module_type in mro_of(type(args[0])))
        ):
            return
        if event == "open" and not writes(args[1] if length(args) > 1 else None, args[2] if length(args) > 2 else None):
            return
        if event == "import" and not (type(args[0]) is str_type and is_harness(args[0])):
            return
        if event == "compile" and not (length(args) > 1 and type(args[1]) is str_type and args[1].startswith(helpers)):
            return
        tid = get_ident()
        if tid in busy:
            return
        busy.add(tid)
        try:
            top = getframe(2)  # judge, then hook, then the code the event came from
        finally:
            busy.discard(tid)
        if event == "tenet.emit":
            return on_emit(args[0], top)
        if event == "tenet.module.setattr":
            # A harness module's attribute set or deleted (see _GuardedModule): by whom?
            frame = newest_submitted(top.f_back if top is not None else None)
            if frame is not None:
                trip("setting %s.%s" % (args[0], args[1]), frame)
            return
        if event == "tenet.trip":
            # The plugin found the submission in a skip, xfail or exit it raised (see _JudgePlugin).
            if tenets(top) and type(args[0]) is str_type and type(args[1]) is str_type and type(args[2]) is int_type:
                send(
                    '{"e": "tripped", "event": %s, "detail": "", "file": %s, "line": %d}'
                    % (quote(args[0]), quote(args[1]), args[2])
                )
            return
        if event == "tenet.guard":
            if tenets(top) and run["harness"] is None and type(args[0]) is tuple_type and type(args[1]) is tuple_type:
                run["harness"], run["hooks"] = args[0], args[1]
            return
        if event in ("exec", "function.__new__"):
            # Code the submission itself runs through exec or eval, or makes a function of, is its
            # own (not a module it imports: importlib execs that, and what it defines is the library's).
            if type(args[0]) is code_type and top is not None and submitted(top.f_code):
                taint(args[0])
            return
        if event == "compile":
            # Code compiled under the name of one of tenet's helpers would pass for tenet's own.
            name = args[1] if length(args) > 1 else None
            if type(name) is str_type and name.startswith(helpers) and newest_submitted(top) is not None:
                trip("compile under %s" % name, newest_submitted(top))
            return
        if tenets(top):
            return  # tenet's own helpers at work (the probe's frames, its own imports)
        if event == "object.__getattr__":
            if submitted(top.f_code):
                trip(args[1], top)
            return
        if event in ("object.__setattr__", "object.__delattr__"):
            # By its own code: libraries under it assign code of their own (networkx's argmap
            # compiles a function at its first call and sets its __code__).
            if submitted(top.f_code):
                trip("assigning %s" % args[1], top)
            return
        frame = newest_submitted(top)
        if frame is None:
            return
        if event == "open" or event in path_changes:
            path = normalized(args[path_changes.get(event, 0)] if length(args) > path_changes.get(event, 0) else None)
            if path is not None and (
                path == root
                or path.startswith(root + "/")
                or path.startswith(helpers)
                or (path.startswith("/proc/") and path.endswith("/mem"))
            ):
                trip("open for writing" if event == "open" else event, frame, path)
            return
        if event == "sys._getframe":
            # Its own frame, or one below it, leads to the harness; a library's own frame above it
            # (logging's, looking for its caller) does not.
            walk = frame
            while walk is not None:
                if walk is args[0]:
                    trip("sys._getframe", frame)
                walk = walk.f_back
            return
        trip(event, frame)

    sys.addaudithook(hook)


class _JudgedChannel:
    """Stands in for the plugin's channel: each event goes to the hook, which signs it."""

    def write(self, text):
        sys.audit("tenet.emit", text)

    def flush(self):
        pass

    def close(self):
        pass

    def fileno(self):
        raise OSError("the judged channel has no descriptor")


class _JudgePlugin:
    """What the hook checks at each outcome: the harness's functions and classes, and pytest's
    hooks, as they were once every plugin and conftest was loaded (pytest's own plugins patch
    its classes as they configure). And a skip, xfail or exit raised through the submission is a
    trip (an xfail would count as a pass)."""

    def pytest_collection_finish(self, session):
        hooks = []
        for name in (
            "pytest_runtest_protocol",
            "pytest_runtest_setup",
            "pytest_runtest_call",
            "pytest_runtest_teardown",
            "pytest_runtest_makereport",
            "pytest_runtest_logreport",
            "pytest_runtest_logstart",
            "pytest_runtest_logfinish",
            "pytest_pyfunc_call",
            "pytest_report_teststatus",
            "pytest_assertrepr_compare",
            "pytest_sessionfinish",
        ):
            caller = getattr(session.config.hook, name, None)
            # pluggy keeps a hook's implementations in _hookimpls (1.1 and later) or in two lists (1.0).
            for attribute in ("_hookimpls", "_nonwrappers", "_wrappers"):
                impls = getattr(caller, attribute, None)
                if isinstance(impls, list):
                    hooks.append((caller, name, attribute, tuple(impls)))
        sys.audit("tenet.guard", _harness(), tuple(hooks))

    def pytest_runtest_makereport(self, item, call):
        excinfo = call.excinfo
        outcomes = {pytest.skip.Exception: "skip", pytest.xfail.Exception: "xfail", pytest.exit.Exception: "exit"}
        called = next((name for kind, name in outcomes.items() if excinfo and isinstance(excinfo.value, kind)), None)
        if called is None:
            return
        first, _, last = (os.environ.get("TENET_JUDGE_LINES") or "0-0").partition("-")
        target = os.path.realpath(os.environ.get("TENET_TARGET_FILE", ""))
        tb = excinfo.tb
        while tb is not None:
            code = tb.tb_frame.f_code
            if os.path.realpath(code.co_filename) == target and int(first) <= code.co_firstlineno <= int(last or first):
                root = os.path.realpath(os.environ.get("TENET_ROOT") or os.getcwd())
                shown = os.path.relpath(os.path.realpath(code.co_filename), root)
                sys.audit("tenet.trip", "pytest." + called, shown, tb.tb_lineno)
                return
            tb = tb.tb_next


# What decides an outcome: tenet's plugin, pytest's running, reporting, skipping and asserting,
# pluggy's calling of hooks, unittest's TestCase, the builtins. Checked after every test (about
# 0.1 ms); the rest of pytest cannot change an outcome tenet reads.
_DECIDING = (
    "__main__",
    "builtins",
    "unittest.case",
    "pytest",
    "_pytest.runner",
    "_pytest.reports",
    "_pytest.python",
    "_pytest.python_api",
    "_pytest.raises",
    "_pytest.unittest",
    "_pytest.outcomes",
    "_pytest.skipping",
    "_pytest.nodes",
    "_pytest.main",
    "_pytest.doctest",
    "_pytest.fixtures",
    "_pytest.assertion.rewrite",
    "_pytest.assertion.util",
    "_pytest._code.code",
    "pluggy._hooks",
    "pluggy._callers",
    "pluggy._manager",
    "pluggy._result",
)


def _harness():
    """The functions and classes of what decides an outcome, as (mapping, names, values), with
    their classes' own (methods, properties): taken once every plugin is loaded."""
    import types

    kinds = (types.FunctionType, types.BuiltinFunctionType, type, classmethod, staticmethod, property)
    seen = []

    def taken(mapping):
        entries = [(k, v) for k, v in list(mapping.items()) if isinstance(v, kinds)]
        return (mapping, tuple(k for k, _ in entries), tuple(v for _, v in entries))

    names = [name for name in sys.modules if name.startswith("_tenet")] + list(_DECIDING)
    for module in (sys.modules.get(name) for name in names):
        if module is None:
            continue
        seen.append(taken(module.__dict__))
        for value in seen[-1][2]:
            if isinstance(value, type) and getattr(value, "__module__", None) == module.__name__:
                seen.append(taken(type.__dict__["__dict__"].__get__(value)))
    return tuple(seen)


class _GuardedModule(type(sys)):
    """A harness module whose attributes cannot be set or deleted unseen (the hook decides who did)."""

    def __setattr__(self, name, value):
        sys.audit("tenet.module.setattr", self.__name__, name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        sys.audit("tenet.module.setattr", self.__name__, name)
        super().__delattr__(name)


def _guard_harness_modules():
    for name, module in list(sys.modules.items()):
        if module is not None and (_is_harness_module(name) or name == "__main__") and type(module) is type(sys):
            module.__class__ = _GuardedModule


if __name__ == "__main__":
    _arm(_read_key(), _JudgedChannel.write)
    import pytest

    import _tenet_thm.channel

    _tenet_thm.channel._out = _JudgedChannel()
    _guard_harness_modules()
    sys.exit(pytest.main(sys.argv[1:], plugins=[_JudgePlugin()]))
