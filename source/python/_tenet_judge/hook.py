"""The audit hook (see the package's docstring): installed once, before anything of the repository
is imported. Everything it needs lives in arm's closure."""

import os
import sys

from .rules import _FRAME_ATTRIBUTES, _PATH_CHANGES, _WATCHED, _is_harness_module


def arm(key, channel_write):
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
    length, every, each, same, pairs, getitem = len, all, map, operator.is_, zip, operator.getitem
    read, list_type, view = object.__getattribute__, list, memoryview
    str_type, bytes_type, int_type, tuple_type = str, bytes, int, tuple
    code_type, module_type = types.CodeType, types.ModuleType
    watched, frame_attributes, is_harness = _WATCHED, _FRAME_ATTRIBUTES, _is_harness_module
    path_changes = dict(_PATH_CHANGES)
    mark = "\x1etenet:"
    # The standard library's callers of sys._getframe that read only the caller's module name
    # from the frame and keep nothing of it: a namedtuple, a TypeVar or an Enum made in a function.
    stdlib = os.path.dirname(os.path.realpath(os.__file__)) + os.sep
    name_readers = frozenset(
        {(stdlib + "collections/__init__.py", "namedtuple"), (stdlib + "typing.py", "_caller"), (stdlib + "enum.py", "_create_")}
    )
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
    # tenet's helpers: the folder this package is in (source/python, or /opt/tenet/python in a container).
    helpers = os.path.dirname(os.path.dirname(os.path.realpath(__file__))) + os.sep
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
    run = {"seq": 0, "started": None, "reported": set(), "done": False, "harness": None, "hooks": None, "flat": None}

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
        # id() is audited: asked of every frame a walk passes, it would call this hook again each time.
        return bool(tainted) and id(code) in tainted

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
        None. Compared by identity in C (no object's __eq__ runs here), in one pass over the
        harness laid flat (about 1,750 names, 70 µs a test; one pass a mapping took twice that)."""
        flat = run["flat"]
        if flat is not None:
            mappings, names, values = flat
            try:
                unchanged = every(each(same, each(getitem, mappings, names), values))
            except BaseException:
                unchanged = False  # a name deleted (KeyError), or a mapping replaced
            if not unchanged:
                for mapping, names, values in run["harness"]:  # which one: once, on the way to a trip
                    for name, value in pairs(names, values):
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
                run["flat"] = (
                    tuple_type(mapping for mapping, names, _ in args[0] for _ in names),
                    tuple_type(name for _, names, _ in args[0] for name in names),
                    tuple_type(value for _, _, values in args[0] for value in values),
                )
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
            # (logging's, looking for its caller) does not, nor a frame only its module's name is read from.
            if (top.f_code.co_filename, top.f_code.co_name) in name_readers:
                return
            walk = frame
            while walk is not None:
                if walk is args[0]:
                    trip("sys._getframe", frame)
                walk = walk.f_back
            return
        trip(event, frame)

    sys.addaudithook(hook)
