"""The chain: the frames from the entry (test, fixture or collected module) down to the target."""

import os
import types

from .names import _CO_NEWLOCALS, _frame_record, is_framework, outside_workspace
from .state import _current_frames, _realpath, state


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



# The machinery that reports a failed assertion calls the objects it shows: pytest's rewritten
# assert formats both sides with saferepr and asks pytest_assertrepr_compare for a diff (in
# _pytest/assertion and _pytest/_io), unittest's assertEqual shortens their reprs (unittest/util.py).
# A stubbed __repr__ reached only there was reached after the test had already failed, and not by
# the test's own code. (The rewriting import hook in the same folder runs a test module's top
# level as pytest imports it: that call is the module's, and exec_module names it.)
_REPORTING = tuple(
    os.sep + os.path.join(*parts)
    for parts in (("_pytest", "assertion", ""), ("_pytest", "_io", ""), ("unittest", "util.py"))
)


def made_by_a_report(frame):
    """Whether the call at ``frame`` was made by the reporting of a failed assertion (see above)."""
    while frame is not None:
        filename = frame.f_code.co_filename
        if any(part in filename for part in _REPORTING):
            return frame.f_code.co_name != "exec_module"
        frame = frame.f_back
    return False
